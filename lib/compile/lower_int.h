/* SPDX-License-Identifier: MIT */
/* Lowering's shared state: lower.c (graph walk) and the op files. */
#ifndef VNPU_ATC_LOWER_INT_H
#define VNPU_ATC_LOWER_INT_H

#include <stdbool.h>

#include <drm/vnpu_accel.h>
#include "lower.h"

/* Where an IR tensor's bytes are (views share their source's). */
struct tloc {
	bool ready;
	uint32_t loc;		/* enum om_loc */
	uint32_t index;		/* input/output number */
	int buf;		/* OM_LOC_ARENA: plan buffer */
	uint64_t off;		/* bytes into the location (or buffer) */
};

/* A task operand: an om_tensor whose offset is buffer-relative if buf >= 0. */
struct lw_view {
	struct om_tensor t;
	int buf;
};

struct lower {
	const struct ir_graph *g;
	struct om_build *b;
	struct lower_weights *w;
	struct lower_result *r;
	struct tloc *loc;	/* per IR tensor */
	int cap_bufs, cap_tbuf;
	const struct ir_node *node;	/* being lowered */
	int node_tasks;
	char *err;
	size_t errlen;
};

/* lower.c */
int lw_fail(struct lower *L, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The location of IR tensor t, made on first use (arena buffer or weight). */
int lw_locate(struct lower *L, int t, struct tloc *out);
/* A contiguous view of all of IR tensor t. */
int lw_ir_view(struct lower *L, int t, struct lw_view *v);
/* A new arena buffer of n bytes (scratch); its index or -1. */
int lw_new_buf(struct lower *L, uint64_t n);
/* Append one task; in/out views; attrs may be NULL. */
int lw_emit(struct lower *L, uint32_t op, const struct lw_view *v,
	    uint32_t nin, uint32_t nout, const struct drm_vnpu_op_attrs *at);
void lw_set_float(struct drm_vnpu_op_attrs *a, int i, float f);

/* lower_aclnn.c: ops through the runtime's aclnn phase 1; 1 = not handled. */
int lower_aclnn(struct lower *L, const struct ir_node *n);
/* lower_direct.c: Conv, ConvTranspose and Gemm as tasks; 1 = not handled. */
int lower_direct(struct lower *L, const struct ir_node *n);
/* lower_index.c: indexing ops, Tile, backward Slice; 1 = not handled. */
int lower_index(struct lower *L, const struct ir_node *n);
/* lower_window.c: N-d pools and convs, Resize, quantization; 1 = not handled. */
int lower_window(struct lower *L, const struct ir_node *n);
/* lower_simple.c: one driver operator per node (or output); 1 = not handled. */
int lower_simple(struct lower *L, const struct ir_node *n);
/* IR tensor ti seen with rank r and shape out (numpy broadcasting). */
int lw_bview(struct lower *L, int ti, uint32_t r, const int64_t *out,
	     struct lw_view *v);
/* One task of op over the node's first nin inputs into its output 0. */
int lw_eltwise(struct lower *L, const struct ir_node *n, uint32_t op, int nin,
	       const struct drm_vnpu_op_attrs *at);
/*
 * lower_arith.c: integer, logic and mixed-type arithmetic (Mod, BitShift,
 * IsInf, Round, CastLike, variadic Max/Min/Sum/Mean, integer Div, Pow
 * across types, the dtypes aclnn does not take); 1 = not handled.
 */
int lower_arith(struct lower *L, const struct ir_node *n);
/* lower_activation.c: activations, unary math, Clip, Dropout; 1 = not handled. */
int lower_activation(struct lower *L, const struct ir_node *n);
/* lower_aicpu.c: host operators as host nodes; 1 = not handled. */
int lower_aicpu(struct lower *L, const struct ir_node *n);
/* Whether node n runs on strings on the host (StringNormalizer, a Cast to or from STRING). */
bool lower_aicpu_strings(const struct lower *L, const struct ir_node *n);
/* lower_gen.c: window and mel generators as weights; 1 = not handled. */
int lower_gen(struct lower *L, const struct ir_node *n);
/* lower_topk.c: TopK on the device; 1 = not handled. */
int lower_topk(struct lower *L, const struct ir_node *n);
/*
 * lower_reduce.c: Reduce*, ArgMax/ArgMin, CumSum, Trilu, Hardmax and
 * Einsum; 1 = not handled.
 */
int lower_reductions(struct lower *L, const struct ir_node *n);

/* lower_aipp.c: the AIPP node of atc --insert_op_conf; 1 = not handled. */
int lower_aipp(struct lower *L, const struct ir_node *n);

/* lower_norm.c: normalizations and losses as tasks; 1 = not handled. */
int lower_norm(struct lower *L, const struct ir_node *n);

#endif /* VNPU_ATC_LOWER_INT_H */
