/* SPDX-License-Identifier: MIT */
/* Control flow (Scan, If) expanded while the ONNX graph is read. */
#ifndef VNPU_ATC_IR_CONTROL_H
#define VNPU_ATC_IR_CONTROL_H

#include <stddef.h>

#include "compile/compile.h"

struct Onnx__NodeProto;

/* ir_onnx.c: one ONNX node into g (its inputs must be defined). */
int ir_node_from_proto(struct ir_graph *g, const struct Onnx__NodeProto *p,
		       size_t idx, char *err, size_t errlen);
/* How a copy of a body graph names things (ir_control.c). */
struct ir_rename {
	const struct Onnx__GraphProto *body;
	const char *prefix;		/* unique per expansion and step */
	const char *const *formal;	/* body input names */
	const char *const *actual;	/* this step's tensors for them */
	size_t nformal;
};
/*
 * One copy of r's body's nodes into g: a body input reads r's actual
 * tensor, a name the body defines gets r's prefix, any other name is the
 * enclosing graph's. idx0 numbers the copies' nodes for messages.
 */
int ir_body_copy(struct ir_graph *g, const struct ir_rename *r, size_t idx0,
		 char *err, size_t errlen);
/* ir_scan8.c: Scan's opset 8 form (batch axis 0, scan axis 1); as below. */
int ir_expand_scan8(struct ir_graph *g, const struct Onnx__NodeProto *p,
		    size_t idx, char *err, size_t errlen);
/* ir_control.c: 0 expanded, 1 not a control operator, -1 error in err. */
int ir_expand_control(struct ir_graph *g, const struct Onnx__NodeProto *p,
		      size_t idx, char *err, size_t errlen);

#endif /* VNPU_ATC_IR_CONTROL_H */
