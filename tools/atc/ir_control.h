/* SPDX-License-Identifier: MIT */
/* Control flow (Scan, If) expanded while the ONNX graph is read. */
#ifndef VNPU_ATC_IR_CONTROL_H
#define VNPU_ATC_IR_CONTROL_H

#include <stddef.h>

#include "ir.h"

struct Onnx__NodeProto;

/* ir_onnx.c: one ONNX node into g (its inputs must be defined). */
int ir_node_from_proto(struct ir_graph *g, const struct Onnx__NodeProto *p,
		       size_t idx, char *err, size_t errlen);
/* ir_control.c: 0 expanded, 1 not a control operator, -1 error in err. */
int ir_expand_control(struct ir_graph *g, const struct Onnx__NodeProto *p,
		      size_t idx, char *err, size_t errlen);

#endif /* VNPU_ATC_IR_CONTROL_H */
