// SPDX-License-Identifier: MIT
/*
 * atc's pipeline: the options checked, the ONNX model loaded (with
 * --input_values frozen into it), then the compiler (lib/compile's
 * compile_model) imports it once per batch size and writes the .om.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aipp_cfg.h"
#include "atc_compile.h"
#include "input_values.h"
#include "onnx_import.h"
#include "onnx_model.h"

#define MSG_MAX 8192

struct run {
	const struct atc_options *o;
	bool info;
	int64_t batch[OM_MAX_VARIANTS];
	int nbatch;
	struct compile_aipp aipp[COMPILE_MAX_AIPP];
	int naipp;
};

int atc_parse_batches(const char *s, int64_t *out, char *err, size_t errlen)
{
	int n = 0, i;
	char *end;

	while (*s) {
		long long v;

		errno = 0;
		v = strtoll(s, &end, 10);
		if (end == s || errno || v < 1 || v > INT32_MAX ||
		    (*end && *end != ',')) {
			snprintf(err, errlen, "--dynamic_batch_size: '%s' is not a list of positive sizes",
				 s);
			return -1;
		}
		if (n == OM_MAX_VARIANTS) {
			snprintf(err, errlen, "--dynamic_batch_size: more than %d sizes",
				 OM_MAX_VARIANTS);
			return -1;
		}
		for (i = 0; i < n; i++)
			if (out[i] == v) {
				snprintf(err, errlen, "--dynamic_batch_size: %lld is given twice", v);
				return -1;
			}
		out[n++] = v;
		s = *end ? end + 1 : end;
		if (*end && !*s) {
			snprintf(err, errlen, "--dynamic_batch_size: trailing ','");
			return -1;
		}
	}
	if (!n) {
		snprintf(err, errlen, "--dynamic_batch_size: no size given");
		return -1;
	}
	return n;
}

static int check_options(struct run *R)
{
	const struct atc_options *o = R->o;
	char err[256];

	if (o->output_type && strcmp(o->output_type, "FP32")) {
		fprintf(stderr, "atc: --output_type=%s is not supported: outputs keep the model's dtype (FP32)\n",
			o->output_type);
		return ATC_BAD_USAGE;
	}
	if (o->dynamic_batch_size) {
		R->nbatch = atc_parse_batches(o->dynamic_batch_size, R->batch,
					      err, sizeof(err));
		if (R->nbatch < 0) {
			fprintf(stderr, "atc: %s\n", err);
			return ATC_BAD_USAGE;
		}
	}
	if (o->insert_op_conf) {
		char msg[MSG_MAX];

		R->naipp = aipp_cfg_load(o->insert_op_conf, R->aipp,
					 COMPILE_MAX_AIPP, msg, sizeof(msg));
		if (R->naipp < 0) {
			fprintf(stderr, "atc: %s\n", msg);
			return ATC_BAD_USAGE;
		}
	}
	R->info = o->log && (!strcmp(o->log, "info") || !strcmp(o->log, "debug"));
	return ATC_OK;
}

/* compile_model()'s importer: the loaded ONNX model into a graph. */
static int import_onnx(void *arg, struct ir_graph *g, char *err,
		       size_t errlen)
{
	return ir_from_onnx(arg, g, err, errlen);
}

int atc_compile(const struct atc_options *o)
{
	Onnx__ModelProto *m = NULL;
	char msg[MSG_MAX];
	struct run R;
	int ret;

	memset(&R, 0, sizeof(R));
	R.o = o;
	ret = check_options(&R);
	if (!ret) {
		m = onnx_model_load(o->model, msg, sizeof(msg));
		if (!m) {
			fprintf(stderr, "atc: %s\n", msg);
			ret = ATC_BAD_MODEL;
		}
	}
	if (!ret && atc_apply_input_values(m, o->input_values, msg, sizeof(msg))) {
		fprintf(stderr, "atc: %s\n", msg);
		ret = ATC_BAD_USAGE;
	}
	if (!ret) {
		struct compile_model_opts co = {
			.model = o->model, .output = o->output,
			.input_shape = o->input_shape,
			.input_format = o->input_format,
			.batch = R.nbatch ? R.batch : NULL, .nbatch = R.nbatch,
			.info = R.info,
			.aipp = R.naipp ? R.aipp : NULL, .naipp = R.naipp,
		};

		ret = compile_model(&co, import_onnx, m);
	}
	if (m)
		onnx_model_free(m);
	return ret;
}
