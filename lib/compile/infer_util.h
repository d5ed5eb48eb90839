/* SPDX-License-Identifier: MIT */
/* What the per-op inference functions (infer_*.c) share. */
#ifndef VNPU_ATC_INFER_UTIL_H
#define VNPU_ATC_INFER_UTIL_H

#include <stdio.h>

#include "ir.h"

/* An error about node n: "node NAME (OP): ..."; evaluates to -1. */
#define NERR(n, fmt, ...) \
	(snprintf(err, errlen, "node %s (%s): " fmt, (n)->name, \
		  (n)->op_type, ##__VA_ARGS__), -1)

/* Input k of node n (present: the driver checked required inputs). */
#define IN(k) (&g->tensors[n->inputs[k]])
/* Whether optional input k is given. */
#define HAS_IN(k) (n->nin > (k) && n->inputs[k] >= 0)

int set_out(struct ir_graph *g, struct ir_node *n, int k, int dtype, int rank,
	    const int64_t *dims);
int set_out_like(struct ir_graph *g, struct ir_node *n, int k,
		 const struct ir_tensor *like);
/* axis in [-rank, rank) to [0, rank); NERR otherwise. */
int norm_axis(const struct ir_node *n, int64_t axis, int rank, int *out,
	      char *err, size_t errlen);

/* Transpose's permutation (default: reversed). */
int transpose_perm(struct ir_node *n, int rank, int *perm, char *err,
		   size_t errlen);
/* Slice's first index, step and length per input dim. */
int slice_params(struct ir_graph *g, struct ir_node *n, int64_t *first,
		 int64_t *step, int64_t *dims, char *err, size_t errlen);

/* The per-op functions, listed in ops.c. */
#define INFER(name) int infer_##name(struct ir_graph *g, struct ir_node *n, \
				     char *err, size_t errlen)
INFER(same);
INFER(unary_float);
INFER(softmax);
INFER(cast);
INFER(not);
INFER(clip);
INFER(binary);
INFER(compare);
INFER(variadic);
INFER(where);
INFER(conv);
INFER(conv_transpose);
INFER(pool);
INFER(global_pool);
INFER(batchnorm);
INFER(layernorm);
INFER(matmul);
INFER(gemm);
INFER(reduce);
INFER(flatten);
INFER(reshape);
INFER(transpose);
INFER(squeeze);
INFER(unsqueeze);
INFER(concat);
INFER(split);
INFER(slice);
INFER(gather);
INFER(shape);
INFER(constant_of_shape);
INFER(expand);
INFER(range);
INFER(pad);
INFER(resize);
INFER(depth_space);
INFER(quantize);
INFER(dequantize);
INFER(dynamic_quantize);
INFER(matmul_integer);
INFER(max_unpool);
INFER(grid_sample);
INFER(roi_align);
/* The input holding Resize's or Upsample's scales. */
int resize_scales_input(const struct ir_graph *g, const struct ir_node *n);
INFER(constant);
/* infer_arith.c */
INFER(logical);
INFER(bitshift);
INFER(mod);
INFER(float_test);
INFER(mean);
INFER(castlike);
INFER(gather_elements);
INFER(gather_nd);
INFER(scatter_elements);
INFER(scatter_nd);
INFER(one_hot);
INFER(tile);
INFER(reverse_sequence);
INFER(size);
INFER(eye_like);
/* ScatterElements/ScatterND reduction as DRM_VNPU values; -1 unknown. */
int scatter_reduction(const struct ir_node *n);
INFER(prelu);
INFER(dropout);
/* infer_aicpu.c: the host operators */
INFER(nonzero);
INFER(compress);
INFER(unique);
INFER(nms);
INFER(det);
INFER(optimizer);
INFER(rnn);
INFER(dft);
INFER(stft);
INFER(tfidf);
INFER(strnorm);
int stft_params(const struct ir_graph *g, const struct ir_node *n, int64_t *step,
		int64_t *len, char *err, size_t errlen);
/* lower_gen.c: generators of constant-size outputs */
INFER(window);
INFER(melweight);
INFER(topk);
INFER(argreduce);
INFER(cumsum);
INFER(trilu);
INFER(hardmax);
INFER(einsum);
INFER(instancenorm);
INFER(lrn);
INFER(mvn);
INFER(nll_loss);
INFER(sce_loss);
/* A loss's reduction attribute: 0 none, 1 sum, 2 mean; -1 unknown. */
int loss_reduction(const struct ir_node *n);

/* Host evaluation (fold.c), listed in ops.c. */
#define FOLD(name) int fold_##name(struct ir_graph *g, struct ir_node *n, \
				   char *err, size_t errlen)
FOLD(constant);
FOLD(copy);
FOLD(cast);
FOLD(elementwise);
FOLD(where);
FOLD(shape);
FOLD(gather);
FOLD(concat);
FOLD(slice);
FOLD(transpose);
FOLD(constant_of_shape);
FOLD(expand);
FOLD(range);
FOLD(size);
FOLD(eye_like);


#endif /* VNPU_ATC_INFER_UTIL_H */
