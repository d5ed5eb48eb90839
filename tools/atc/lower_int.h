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
/* lower_window.c: N-d pools and convs, Resize, quantization; 1 = not handled. */
int lower_window(struct lower *L, const struct ir_node *n);
/* lower_simple.c: one driver operator per node (or output); 1 = not handled. */
int lower_simple(struct lower *L, const struct ir_node *n);

#endif /* VNPU_ATC_LOWER_INT_H */
