/* SPDX-License-Identifier: MIT */
/*
 * ONNX's training Gradient operator (domain ai.onnx.preview.training),
 * differentiated by atc at compile time (ir_gradient.c).
 */
#ifndef VNPU_ATC_IR_GRADIENT_H
#define VNPU_ATC_IR_GRADIENT_H

#include <stddef.h>

#include "ir.h"

/*
 * Called by ir_infer on live node i before inferring it, once every node
 * before it is inferred. A Gradient node becomes its backward pass:
 * ordinary ONNX nodes inserted at i that compute dy/dx for each x of its
 * xs (seeded with ones of y's shape), Identity nodes binding its outputs
 * to them, and the Gradient node goes dead. Returns 1 when node i is not
 * a Gradient, 0 when expanded (look at node i again), -1 with err on a
 * malformed node, IR_EUNSUPPORTED with err naming the operator and node
 * that has no derivative rule.
 */
int ir_gradient_node(struct ir_graph *g, int i, char *err, size_t errlen);

/* The op table's infer for Gradient: it never reaches it (expanded). */
int ir_gradient_unresolved(struct ir_graph *g, struct ir_node *n,
			   char *err, size_t errlen);

#endif /* VNPU_ATC_IR_GRADIENT_H */
