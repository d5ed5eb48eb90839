/* SPDX-License-Identifier: MIT */
/*
 * The compiler: the one header its users include. atc (tools/atc) builds
 * the graph from ONNX with the IR builders (ir.h) and compiles a model
 * with compile_model(); aclopCompile (lib/op) and atc --singleop compile
 * one operator with sop_compile() (singleop.h). The passes, lowering,
 * planning and the .om writer behind them are the compiler's own.
 */
#ifndef VNPU_COMPILE_H
#define VNPU_COMPILE_H

#include <stdbool.h>
#include <stdint.h>

#include "../om/om_format.h"
#include "ir.h"
#include "singleop.h"

/* Results of compile_model(), atc's exit statuses (Documentation/atc.md). */
enum compile_status {
	COMPILE_OK = 0,
	COMPILE_BAD_MODEL = 1,	/* unreadable, malformed, shapes not inferable */
	COMPILE_BAD_USAGE = 2,	/* the options */
	COMPILE_INTERNAL = 3,	/* out of memory, cannot write the output */
	COMPILE_UNSUPPORTED = 4, /* ops or attributes vnpu cannot run */
};

/*
 * Build a fresh graph of the model into g (each batch size gets its own:
 * folding bakes shapes into constants). Returns 0, or -1 with a message
 * in err and g left empty.
 */
typedef int (*compile_import_fn)(void *arg, struct ir_graph *g, char *err,
				 size_t errlen);

/*
 * One aipp_op block of atc --insert_op_conf (Documentation/aipp.md):
 * where and how, and a static block's values in the device's form. A
 * static size left 0 is derived from the model's input by
 * compile_model(), which checks every value against that input.
 */
struct compile_aipp {
	int input;			/* related_input_rank */
	int mode;			/* OM_AIPP_STATIC or OM_AIPP_DYNAMIC */
	int64_t max_src_size;		/* dynamic: max_src_image_size bytes */
	int line;			/* the block's first line, for messages */
	struct drm_vnpu_aipp_params p;	/* static: its parameters */
};

/* AIPP blocks one model may have: one per input. */
#define COMPILE_MAX_AIPP	OM_MAX_IO

struct compile_model_opts {
	const char *model;		/* its name, for messages */
	const char *output;		/* the .om path without ".om" */
	const char *input_shape;	/* "name:1,3,224,224;..." or NULL */
	const char *input_format;	/* NCHW (NULL), NHWC or ND */
	const int64_t *batch;		/* the batch sizes, or NULL */
	int nbatch;			/* 0: one variant at the model's batch */
	bool info;			/* per-pass figures on stderr */
	const struct compile_aipp *aipp;	/* --insert_op_conf's blocks */
	int naipp;
};

/*
 * Compile every variant and write <output>.om; messages go to stderr,
 * atc's summary to stdout. Returns a compile_status.
 */
int compile_model(const struct compile_model_opts *o,
		  compile_import_fn import, void *arg);

#endif /* VNPU_COMPILE_H */
