/* SPDX-License-Identifier: MIT */
/*
 * Host ("AI CPU") operator ids of the .om format. A node whose op has
 * OM_OP_HOST set (lib/om/om_format.h) runs one of these on the host, in
 * stream order, instead of a driver operator: the two namespaces cannot
 * collide. Header only, so the .om reader checks ids without the ops.
 * Documentation/aicpu.md describes each op's tensors and attributes.
 */
#ifndef VNPU_AICPU_OPS_H
#define VNPU_AICPU_OPS_H

enum aicpu_op {
	AICPU_OP_NONZERO = 1,	/* X -> int64 [rank, n] (dynamic) */
	AICPU_OP_UNIQUE = 2,	/* X -> Y (dynamic), indices, inverse, counts */
	AICPU_OP_COMPRESS = 3,	/* X, condition -> Y (dynamic) */
	AICPU_OP_NMS = 4,	/* boxes, scores[, max, iou, score] -> int64 [n, 3] */
	AICPU_OP_DET = 5,	/* X [..., n, n] -> [...] */
	AICPU_OP_ADAGRAD = 6,	/* R, T, (X, G, H)... -> (X', H')... */
	AICPU_OP_ADAM = 7,	/* R, T, (X, G, V, H)... -> (X', V', H')... */
	AICPU_OP_MOMENTUM = 8,	/* R, T, (X, G, V)... -> (X', V')... */
	AICPU_OP_RNN = 9,	/* X, W, R[, B, seq_lens, h0] -> Y, Y_h */
	AICPU_OP_GRU = 10,	/* X, W, R[, B, seq_lens, h0] -> Y, Y_h */
	AICPU_OP_LSTM = 11,	/* X, W, R[, B, seq_lens, h0, c0, P] -> Y, Y_h, Y_c */
	AICPU_OP_DFT = 12,	/* X [..., n, 1|2] -> [..., m, 2] along an axis */
	AICPU_OP_STFT = 13,	/* signal [B, n, 1|2][, window] -> [B, frames, bins, 2] */
	AICPU_OP_TFIDF = 14,	/* X, pool, counts, indexes[, weights] -> float */
	AICPU_OP_STRNORM = 15,	/* STRING X[, stopwords] -> STRING (dynamic) */
	AICPU_OP_CAST_STRING = 16,	/* X -> Y, one of them STRING */
	AICPU_OP_COUNT
};

/*
 * The attribute block of a host node (om_node ints/floats): these two
 * ints say which optional tensors are present. Bit k of ints[AICPU_ATTR_IN]
 * is ONNX input k; the node lists only the present ones, in order (the
 * same for outputs).
 */
#define AICPU_ATTR_IN	23
#define AICPU_ATTR_OUT	22

#endif /* VNPU_AICPU_OPS_H */
