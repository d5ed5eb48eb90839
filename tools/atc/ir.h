/* SPDX-License-Identifier: MIT */
/*
 * atc's graph: the form every compile pass reads and rewrites.
 *
 * ir_from_onnx (ir.c) builds it from an ONNX ModelProto; then, in order,
 * shape and type inference (infer.c), constant folding and dead-node
 * removal (fold.c), fusions (fuse.c), lowering to driver tasks (lower.c),
 * memory planning (plan.c) and writing the .om (om_write.c).
 *
 * Tensors and nodes live in arrays and refer to each other by index; a
 * pass that removes a node marks it dead instead of moving the arrays.
 */
#ifndef VNPU_ATC_IR_H
#define VNPU_ATC_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IR_MAX_RANK	8
#define IR_DT_UNDEFINED	(-1)	/* ACL_DT_UNDEFINED: not inferred yet */

struct ir_tensor {
	char *name;
	int dtype;			/* aclDataType value, or IR_DT_UNDEFINED */
	int rank;			/* -1: not inferred yet */
	int64_t dims[IR_MAX_RANK];
	void *data;			/* a constant's value, row-major, else NULL */
	size_t nbytes;			/* of data */
	int producer;			/* node index; -1: input or constant */
	int input_index;		/* graph input number, else -1 */
	int output_index;		/* graph output number, else -1 */
};

/* Attribute kinds: ONNX's AttributeProto.AttributeType values. */
enum ir_attr_kind {
	IR_ATTR_FLOAT = 1,
	IR_ATTR_INT = 2,
	IR_ATTR_STRING = 3,
	IR_ATTR_TENSOR = 4,
	IR_ATTR_FLOATS = 6,
	IR_ATTR_INTS = 7,
};

struct ir_attr {
	char *name;
	int kind;			/* enum ir_attr_kind */
	int64_t i;
	float f;
	char *s;
	int64_t *ints;
	float *floats;
	size_t count;			/* of ints or floats */
	int tensor;			/* IR_ATTR_TENSOR: a constant tensor index */
};

/* Activation fused into a node by fuse.c (DRM_VNPU_ACT_* values). */
struct ir_act {
	int kind;			/* 0 none, 1 relu, 2 clip */
	float lo, hi;			/* clip bounds */
};

struct ir_node {
	char *name;
	char *op_type;
	char *domain;			/* "" for the default ONNX domain */
	int *inputs;			/* tensor indices; -1: omitted optional */
	int nin;
	int *outputs;
	int nout;
	struct ir_attr *attrs;
	int nattrs;
	bool dead;			/* removed by a pass */
	struct ir_act act;		/* set by fusions */
};

struct ir_graph {
	struct ir_tensor *tensors;
	int ntensors, cap_tensors;
	struct ir_node *nodes;		/* in a topological order */
	int nnodes, cap_nodes;
	int *inputs;			/* graph inputs (not initializers) */
	int ninputs;
	int *outputs;
	int noutputs;
	int64_t opset;			/* default-domain opset version */
	char *name;
};

/*
 * Build g from an ONNX model (initializers become constant tensors,
 * Constant nodes stay nodes for fold.c). Returns 0 or -1 with a message.
 */
struct Onnx__ModelProto;
int ir_from_onnx(const struct Onnx__ModelProto *m, struct ir_graph *g,
		 char *err, size_t errlen);
void ir_free(struct ir_graph *g);

/* Lookups and builders the passes share (ir.c). */
int ir_find_tensor(const struct ir_graph *g, const char *name);
int ir_add_tensor(struct ir_graph *g, const char *name);
const struct ir_attr *ir_attr(const struct ir_node *n, const char *name);
int64_t ir_attr_int(const struct ir_node *n, const char *name, int64_t def);
float ir_attr_float(const struct ir_node *n, const char *name, float def);
size_t ir_dtype_size(int dtype);
int64_t ir_numel(const struct ir_tensor *t);	/* -1 when not inferred */
bool ir_is_const(const struct ir_graph *g, int tensor);

#endif /* VNPU_ATC_IR_H */
