// SPDX-License-Identifier: MIT
/*
 * atc's options. CANN's atc takes many more; each one vnpu does not know
 * is named in the error rather than silently ignored, so a build script
 * never believes an option took effect when it did not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atc_options.h"

struct opt_spec {
	const char *name;
	size_t offset;		/* of the const char * field, or (size_t)-1 */
	const char *const *allowed;	/* NULL: any value */
};

static const char *const formats[] = { "NCHW", "NHWC", "ND", NULL };
static const char *const out_types[] = { "FP32", "FP16", "UINT8", "INT8", NULL };
static const char *const precisions[] = {
	"force_fp32", "force_fp16", "allow_fp32_to_fp16", "must_keep_origin_dtype",
	"allow_mix_precision", NULL
};
static const char *const log_levels[] = {
	"debug", "info", "warning", "error", "null", NULL
};

#define FIELD(f) offsetof(struct atc_options, f)

static const struct opt_spec specs[] = {
	{ "model", FIELD(model), NULL },
	{ "framework", (size_t)-1, NULL },
	{ "output", FIELD(output), NULL },
	{ "soc_version", FIELD(soc_version), NULL },
	{ "input_shape", FIELD(input_shape), NULL },
	{ "input_format", FIELD(input_format), formats },
	{ "output_type", FIELD(output_type), out_types },
	{ "precision_mode", FIELD(precision_mode), precisions },
	{ "dynamic_batch_size", FIELD(dynamic_batch_size), NULL },
	{ "log", FIELD(log), log_levels },
	{ "input_values", FIELD(input_values), NULL },	/* vnpu extension */
	{ "singleop", FIELD(singleop), NULL },
	{ "insert_op_conf", FIELD(insert_op_conf), NULL },
};

static int one_of(const char *v, const char *const *allowed)
{
	for (; *allowed; allowed++)
		if (!strcmp(v, *allowed))
			return 1;
	return 0;
}

static int fail(char *err, size_t errlen, const char *fmt, const char *a,
		const char *b)
{
	snprintf(err, errlen, fmt, a, b ? b : "");
	return -1;
}

static int set(struct atc_options *o, const struct opt_spec *s, const char *v,
	       unsigned int *seen, unsigned int bit, char *err, size_t errlen)
{
	char *end;
	long fw;

	if (*seen & bit)
		return fail(err, errlen, "--%s is given twice%s", s->name, NULL);
	*seen |= bit;
	if (!*v)
		return fail(err, errlen, "--%s needs a value%s", s->name, NULL);
	if (s->allowed && !one_of(v, s->allowed))
		return fail(err, errlen, "--%s=%s is not supported", s->name, v);
	if (s->offset == (size_t)-1) {
		fw = strtol(v, &end, 10);
		if (*end || fw != ATC_FRAMEWORK_ONNX)
			return fail(err, errlen,
				    "--framework=%s is not supported: vnpu's atc converts ONNX only (--framework=5)%s",
				    v, NULL);
		o->framework = (int)fw;
		return 0;
	}
	*(const char **)((char *)o + s->offset) = v;
	return 0;
}

int atc_parse_options(int argc, char **argv, struct atc_options *opts,
		      char *err, size_t errlen)
{
	unsigned int seen = 0;
	int i;

	memset(opts, 0, sizeof(*opts));
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *eq;
		size_t k, n;

		if (strncmp(a, "--", 2))
			return fail(err, errlen, "unexpected argument '%s': options are --name=value%s", a, NULL);
		eq = strchr(a, '=');
		if (!eq)
			return fail(err, errlen, "option '%s' needs =value%s", a, NULL);
		n = (size_t)(eq - a - 2);
		for (k = 0; k < sizeof(specs) / sizeof(specs[0]); k++)
			if (strlen(specs[k].name) == n &&
			    !strncmp(a + 2, specs[k].name, n))
				break;
		if (k == sizeof(specs) / sizeof(specs[0])) {
			snprintf(err, errlen,
				 "option '--%.*s' is not supported by vnpu's atc",
				 (int)n, a + 2);
			return -1;
		}
		if (set(opts, &specs[k], eq + 1, &seen, 1u << k, err, errlen))
			return -1;
	}
	/* --singleop compiles op descriptions: no model, no framework. */
	if (opts->singleop && (opts->model || opts->framework))
		return fail(err, errlen, "--singleop cannot be combined with --%s%s",
			    opts->model ? "model" : "framework", NULL);
	if (opts->singleop && opts->insert_op_conf)
		return fail(err, errlen, "--singleop cannot be combined with --%s%s",
			    "insert_op_conf", NULL);
	if (opts->singleop && (!opts->output || !opts->soc_version))
		return fail(err, errlen, "missing required option --%s%s",
			    !opts->output ? "output" : "soc_version", NULL);
	if (opts->singleop)
		return 0;
	if (!opts->model || !opts->framework || !opts->output || !opts->soc_version)
		return fail(err, errlen, "missing required option --%s%s",
			    !opts->model ? "model" : !opts->framework ? "framework" :
			    !opts->output ? "output" : "soc_version", NULL);
	return 0;
}
