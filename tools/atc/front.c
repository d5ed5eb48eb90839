// SPDX-License-Identifier: MIT
/* atc's front end for one variant: the ONNX import, then the passes. */
#include "onnx_import.h"

int ir_front_end(const struct Onnx__ModelProto *m, const char *input_shape,
		 int64_t batch, struct ir_graph *g, struct ir_fuse_stats *stats,
		 char *err, size_t errlen)
{
	if (ir_from_onnx(m, g, err, errlen))
		return -1;
	return ir_front_passes(g, input_shape, batch, stats, err, errlen);
}
