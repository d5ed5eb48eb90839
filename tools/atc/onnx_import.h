/* SPDX-License-Identifier: MIT */
/* atc's ONNX importer: a decoded ModelProto into the compiler's graph. */
#ifndef VNPU_ATC_ONNX_IMPORT_H
#define VNPU_ATC_ONNX_IMPORT_H

#include "compile/compile.h"

struct Onnx__ModelProto;

/*
 * Build g from an ONNX model (initializers become constant tensors,
 * Constant nodes stay nodes for fold.c). Returns 0, or -1 with a message
 * naming the node or tensor at fault and g left empty (freed).
 */
int ir_from_onnx(const struct Onnx__ModelProto *m, struct ir_graph *g,
		 char *err, size_t errlen);

/*
 * ir_from_onnx, then the compiler's front-end passes (ir_front_passes):
 * the same returns, and on failure after the import g is freed but for
 * its need list.
 */
int ir_front_end(const struct Onnx__ModelProto *m, const char *input_shape,
		 int64_t batch, struct ir_graph *g, struct ir_fuse_stats *stats,
		 char *err, size_t errlen);

#endif /* VNPU_ATC_ONNX_IMPORT_H */
