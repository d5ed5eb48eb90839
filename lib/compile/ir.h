/* SPDX-License-Identifier: MIT */
/*
 * atc's graph: the form every compile pass reads and rewrites.
 *
 * An importer builds it (atc's ONNX reader, tools/atc/ir_onnx.c; or
 * singleop_build.c from an operator description); then, in order,
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
#include <drm/vnpu_accel.h>

#define IR_MAX_RANK	8
#define IR_DT_UNDEFINED	(-1)	/* ACL_DT_UNDEFINED: not inferred yet */

/*
 * The compiler's names of the dtypes (DT_FLOAT, ..., DT_BF16), one per
 * entry of the project's list: aclDataType values, the device's too.
 */
#define IR_DT_NAME(NAME, ...) DT_##NAME = DRM_VNPU_DTYPE_##NAME,
enum {
#define VNPU_DTYPE IR_DT_NAME
#include "../../kernel/ops/vnpu_dtypes.def"
};
#undef IR_DT_NAME

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
	bool batched;			/* an input whose dim 0 is the batch
					 * (dynamic in the model or -1 in
					 * --input_shape): ir_set_batch sets it */
	bool dynamic;			/* dims are an upper bound: a host op
					 * writes the real ones (infer_aicpu.c) */
	bool is_seq;			/* an ONNX sequence (ir_sequence.c):
					 * dtype is its elements', rank -1 */
	int *seq;			/* its element tensors, in order */
	int seq_len;
};
/*
 * A tensor is constant exactly when data != NULL: an empty constant
 * (numel 0) still has a 1-byte allocation.
 */

/* Attribute kinds: ONNX's AttributeProto.AttributeType values. */
enum ir_attr_kind {
	IR_ATTR_FLOAT = 1,
	IR_ATTR_INT = 2,
	IR_ATTR_STRING = 3,
	IR_ATTR_TENSOR = 4,
	IR_ATTR_FLOATS = 6,
	IR_ATTR_INTS = 7,
	IR_ATTR_STRINGS = 8,	/* joined with "," in s; ints[i] is the
				 * byte length of string i (it may hold
				 * a comma itself) */
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
enum ir_act_kind { IR_ACT_NONE = 0, IR_ACT_RELU = 1, IR_ACT_CLIP = 2 };
struct ir_act {
	int kind;			/* enum ir_act_kind */
	float lo, hi;			/* clip bounds */
};

/*
 * Node forms after fuse.c, beyond plain ONNX:
 * - Conv, ConvTranspose, Gemm: the bias input is filled in by fusions
 *   (Conv+Add, Conv+BatchNormalization, Gemm+Add), act by Relu/Clip.
 * - MatMul with a 3rd input: A x B + bias, bias a constant vector over the
 *   last output dim (the Gemm-with-bias form for an A of rank > 2 or a
 *   batched B); a 2-D MatMul + bias becomes a real Gemm (alpha = beta = 1,
 *   no transposes) instead.
 * - LayerNormalization (axis -1, epsilon) and Gelu (exact, erf form) also
 *   come from torch's decomposed patterns at opset < 17 / < 20.
 */
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
	/*
	 * Graph inputs a pass needed as constants (ir_need_value), by name:
	 * atc names them when compilation fails (--input_values).
	 */
	char **need;
	int nneed;
};

void ir_free(struct ir_graph *g);

/*
 * The front end's passes, for one compiled variant, on a graph an importer
 * just built: the supported-op check, --input_shape (NULL: none), the
 * batch (0: keep the model's), inference with folding, dead-node removal,
 * fusions and a final check that every live node is one the back end
 * lowers. A graph is built per batch size: folding bakes the batch into
 * shape constants. Returns 0, IR_EUNSUPPORTED (err lists the unsupported
 * operators; atc exits with its own status for it) or -1 (err says why).
 * On failure g is freed but for its need list (ir_free frees that).
 */
#define IR_EUNSUPPORTED	(-2)
struct ir_fuse_stats;
int ir_front_passes(struct ir_graph *g, const char *input_shape,
		    int64_t batch, struct ir_fuse_stats *stats, char *err,
		    size_t errlen);

/* Lookups and builders the passes share (ir.c). */
int ir_find_tensor(const struct ir_graph *g, const char *name);
int ir_add_tensor(struct ir_graph *g, const char *name);
const struct ir_attr *ir_attr(const struct ir_node *n, const char *name);
int64_t ir_attr_int(const struct ir_node *n, const char *name, int64_t def);
float ir_attr_float(const struct ir_node *n, const char *name, float def);
size_t ir_dtype_size(int dtype);
int64_t ir_numel(const struct ir_tensor *t);	/* -1 when not inferred */
bool ir_is_const(const struct ir_graph *g, int tensor);
/*
 * A pass needs tensor t's value at compile time and it has none: when t
 * is a graph input, remember its name in g->need (once); when a node
 * computes t, the graph inputs it is computed from (a few levels up). The
 * list is a side record, not the graph's meaning, hence const g.
 */
void ir_need_value(const struct ir_graph *g, int t);
/* "a, b" from g->need into buf (empty when none). */
const char *ir_needs_str(const struct ir_graph *g, char *buf, size_t len);
/* A new node (inputs/outputs -1, no attrs) at the end; its index or -1. */
int ir_add_node(struct ir_graph *g, const char *name, const char *op_type,
		int nin, int nout);
/* A new constant tensor named after base, made unique; index or -1. */
int ir_add_const(struct ir_graph *g, const char *base, int dtype, int rank,
		 const int64_t *dims, const void *data);
/* Give tensor t a constant value (copied); 0 or -1 on no memory. */
int ir_set_data(struct ir_graph *g, int t, const void *data, size_t nbytes);
/* Set (or replace) an attribute of a node; 0 or -1. */
int ir_set_attr_int(struct ir_node *n, const char *name, int64_t v);
int ir_set_attr_float(struct ir_node *n, const char *name, float v);
int ir_set_attr_str(struct ir_node *n, const char *name, const char *v);
int ir_set_attr_ints(struct ir_node *n, const char *name, const int64_t *v,
		     size_t count);
int ir_set_op_type(struct ir_node *n, const char *op_type);
/* ONNX TensorProto.DataType to aclDataType; -2 when not supported. */
int ir_dtype_from_onnx(int32_t onnx_type);
/* Uses of a tensor by live nodes, plus one if it is a graph output. */
int ir_uses(const struct ir_graph *g, int tensor);
/* The one live node that reads tensor t, or -1 (none or several). */
int ir_sole_consumer(const struct ir_graph *g, int t);
/*
 * Whether Dropout node n is the identity: its mask is not read and its
 * training_mode is absent or a constant false (infer_activation.c).
 */
bool ir_dropout_is_identity(const struct ir_graph *g, const struct ir_node *n);
/* Whether PRelu node n has an opset-6 per-channel slope (X's dim 1). */
bool ir_prelu_per_channel(const struct ir_graph *g, const struct ir_node *n);
/* Element i of a constant as double / int64 (any numeric dtype). */
double ir_get_f64(const struct ir_tensor *t, int64_t i);
int64_t ir_get_i64(const struct ir_tensor *t, int64_t i);
void ir_put_f64(struct ir_tensor *t, int64_t i, double v);
void ir_put_i64(struct ir_tensor *t, int64_t i, int64_t v);
bool ir_dtype_is_float(int dtype);
const char *ir_dtype_name(int dtype);
/* "1x3x224x224" (or "?" when not inferred) into buf. */
const char *ir_dims_str(const struct ir_tensor *t, char *buf, size_t len);

/* --- inference (infer.c) --- */
/*
 * Apply --input_shape ("name:1,3,224,224;name2:..."): an unknown name,
 * a rank that differs from the model's or a bad number is an error
 * naming it. -1 marks dim 0 as the batch (for --dynamic_batch_size).
 */
int ir_apply_input_shape(struct ir_graph *g, const char *spec,
			 char *err, size_t errlen);
/* Set dim 0 of every batched input to batch; number of inputs set. */
int ir_set_batch(struct ir_graph *g, int64_t batch);
/*
 * Infer every live node's output dtypes and shapes in order, folding a
 * node as soon as its inputs are constant (shape chains need the values).
 * A dynamic graph-input dim is an error asking for --input_shape.
 * Gradient nodes are expanded on the way (ir_gradient.c). Returns 0, -1
 * or IR_EUNSUPPORTED (a Gradient over an op with no derivative rule).
 */
int ir_infer(struct ir_graph *g, char *err, size_t errlen);
/* numpy broadcast of a and b into out; -1 when they do not broadcast. */
int ir_broadcast(int ra, const int64_t *a, int rb, const int64_t *b,
		 int *rout, int64_t *out);
/* A constant input as int64 values: count, or -1 when not constant. */
int ir_const_ints(const struct ir_graph *g, int t, int64_t *out, int max);

/* --- sequences resolved at compile time (ir_sequence.c) --- */
/*
 * Called by ir_infer on live node i before inferring it: a sequence
 * operator becomes list edits on its output tensor, a constant or tensor
 * nodes inserted at i, and goes dead. 1: not a sequence operator, 0:
 * resolved (look at node i again), -1: error in err (a position not known
 * at compile time is also recorded with ir_need_value).
 */
int ir_sequence_node(struct ir_graph *g, int i, char *err, size_t errlen);
/* The op table's infer for sequence operators: they never reach it. */
int ir_sequence_unresolved(struct ir_graph *g, struct ir_node *n,
			   char *err, size_t errlen);

/* --- folding and dead nodes (fold.c) --- */
/* Evaluate node n on the host when it can; 1 folded, 0 not, -1 error. */
int ir_fold_node(struct ir_graph *g, int n, char *err, size_t errlen);
/*
 * Fold every node with constant inputs, remove Identity and Dropout, then
 * every node that no graph output depends on. Number of nodes removed or
 * -1.
 */
int ir_fold(struct ir_graph *g, char *err, size_t errlen);
int ir_remove_dead(struct ir_graph *g);

/* --- fusions (fuse.c) --- */
struct ir_fuse_stats {
	int conv_bn;		/* BatchNormalization folded into Conv */
	int bias;		/* Conv/Gemm/MatMul + Add -> bias input */
	int matmul_gemm;	/* 2-D MatMul + Add -> Gemm */
	int act_relu;		/* + Relu -> act */
	int act_clip;		/* + Clip -> act */
	int layernorm;		/* decomposed LayerNorm -> LayerNormalization */
	int gelu;		/* decomposed Gelu -> Gelu */
};
int ir_fuse(struct ir_graph *g, struct ir_fuse_stats *st,
	    char *err, size_t errlen);
/* "conv+bn 2, bias 3, ..." for --log=info. */
void ir_fuse_stats_str(const struct ir_fuse_stats *st, char *buf, size_t len);

/* --- the supported operators (ops.c) --- */
struct ir_op {
	const char *op_type;
	int (*infer)(struct ir_graph *g, struct ir_node *n,
		     char *err, size_t errlen);
	/* host evaluation; NULL: not foldable. 0 done, 1 cannot, -1 error */
	int (*fold)(struct ir_graph *g, struct ir_node *n,
		    char *err, size_t errlen);
	/* an attribute the compiler cannot handle: its description, or NULL */
	const char *(*refuse)(const struct ir_node *n, char *buf, size_t len);
	int min_in, max_in;	/* input count; the first min_in required */
	bool lowered;		/* the back end lowers it (else it must fold) */
	bool fold_on_shape;	/* folds from input shapes alone (Shape) */
};
const struct ir_op *ir_op_find(const char *op_type);
/* Whether n's domain is one op is taken from. */
bool ir_op_domain_ok(const struct ir_node *n, const struct ir_op *op);
extern const struct ir_op ir_ops[];
extern const size_t ir_nops;
/*
 * Every node whose domain, op_type or attribute value the compiler cannot
 * handle, in one message: "atc: unsupported operators: Loop (nodes: l0);
 * Resize mode=cubic (nodes: r1, r2)". Returns the number of such nodes.
 * With lowered_only, also every live node of an op that is only foldable
 * (Shape, Range, ...) and was not folded away.
 */
int ir_check_supported(const struct ir_graph *g, bool lowered_only,
		       char *msg, size_t len);

#endif /* VNPU_ATC_IR_H */
