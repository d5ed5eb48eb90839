/* SPDX-License-Identifier: MIT */
/* atc's command line, in CANN's spelling (--name=value). */
#ifndef VNPU_ATC_OPTIONS_H
#define VNPU_ATC_OPTIONS_H

#include <stddef.h>

/* The only framework vnpu converts: ONNX. */
#define ATC_FRAMEWORK_ONNX 5

struct atc_options {
	const char *model;		/* --model, required */
	int framework;			/* --framework, required, 5 */
	const char *output;		/* --output, required: without ".om" */
	const char *soc_version;	/* --soc_version, required, any value */
	const char *input_shape;	/* --input_shape="name:1,3,224,224;..." */
	const char *input_format;	/* --input_format (NCHW, NHWC, ND) */
	const char *output_type;	/* --output_type (FP32, FP16, ...) */
	const char *precision_mode;	/* --precision_mode */
	const char *dynamic_batch_size;	/* --dynamic_batch_size="1,2,4,8" */
	const char *log;		/* --log (debug, info, warning, error, null) */
	const char *input_values;	/* vnpu: --input_values="name:file.pb;..." */
	const char *singleop;		/* --singleop=ops.json: single-op models */
	const char *insert_op_conf;	/* --insert_op_conf=aipp.cfg: AIPP */
};

/*
 * Parse argv into opts. Returns 0, or -1 with a message naming the
 * offending option (unknown, repeated, missing value, bad value, or a
 * required one absent) in err.
 */
int atc_parse_options(int argc, char **argv, struct atc_options *opts,
		      char *err, size_t errlen);

#endif /* VNPU_ATC_OPTIONS_H */
