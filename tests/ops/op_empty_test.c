// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Tensors without elements (Documentation/security.md, "Round 3: empty
 * tensors"). The module maps nothing for a view with a zero dim: the
 * operator gets data NULL and whatever strides the caller chose. So:
 *
 * - a table with one valid call of every operator (checked to cover every
 *   op id vnpu_op_find() knows, so a new operator cannot be left out);
 * - each call with one dim of one tensor at a time set to 0, its data
 *   NULL and its strides 2^40: vnpu_op_check() refuses it while an output
 *   keeps elements, unless the operator carries VNPU_OP_EMPTY_OK, and
 *   then every piece runs without touching the empty tensor (a touch is
 *   a fault at NULL + 2^40 * k, which kills the test);
 * - the defined results of the operators that may see empty inputs
 *   (sums of nothing, products of depth 0, concatenation with empty
 *   pieces, padding of nothing), computed from NULL views;
 * - ROI_ALIGN's own check (images of no rows or columns) and its pieces'
 *   work with an explicit sampling ratio.
 */
#include "ops_test_util.h"
#include "kselftest_harness.h"

/* The case table leaves trailing fields to their zero defaults. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#define MAXT 10

struct tdesc {
	u32 dtype;
	u32 rank;
	s64 shape[VNPU_OPS_MAX_RANK];
	double lo, hi;		/* value range */
};

struct ecase {
	const char *name;
	u32 op;
	u32 nin, nout;
	struct tdesc t[MAXT];
	int has_attrs;
	s64 ints[24];
	float floats[8];
};

#define F32 DRM_VNPU_DTYPE_FLOAT
#define F16 DRM_VNPU_DTYPE_FLOAT16
#define BF16 DRM_VNPU_DTYPE_BF16
#define I8 DRM_VNPU_DTYPE_INT8
#define U8 DRM_VNPU_DTYPE_UINT8
#define I16 DRM_VNPU_DTYPE_INT16
#define I32 DRM_VNPU_DTYPE_INT32
#define U32 DRM_VNPU_DTYPE_UINT32
#define I64 DRM_VNPU_DTYPE_INT64
#define F64 DRM_VNPU_DTYPE_DOUBLE
#define BOOL DRM_VNPU_DTYPE_BOOL
#define T(dt, r, ...) { .dtype = dt, .rank = r, .shape = { __VA_ARGS__ }, .lo = -4, .hi = 4 }
#define TR(dt, lo_, hi_, r, ...) { .dtype = dt, .rank = r, .shape = { __VA_ARGS__ }, .lo = lo_, .hi = hi_ }
/* A unary float op and a binary float op on small vectors. */
#define UN(op) { #op, DRM_VNPU_OP_##op, 1, 1, { TR(F32, 0.25, 0.75, 1, 9), T(F32, 1, 9) } }
#define BIN(op, odt) { #op, DRM_VNPU_OP_##op, 2, 1, \
	{ TR(F32, 0.5, 3, 2, 3, 9), TR(F32, 0.5, 3, 1, 9), T(odt, 2, 3, 9) } }
#define IBIN(op) { #op, DRM_VNPU_OP_##op, 2, 1, \
	{ TR(I32, 0, 9, 2, 3, 9), TR(I32, 0, 9, 1, 9), T(I32, 2, 3, 9) } }
#define RED(op, odt) { #op, DRM_VNPU_OP_##op, 1, 1, \
	{ TR(F32, 0.5, 3, 3, 4, 5, 6), T(odt, 2, 4, 6) }, 1, { 2, 0 } }

/* One valid call of every operator. */
static const struct ecase cases[] = {
	BIN(ADD, F32), BIN(SUB, F32), BIN(MUL, F32), BIN(DIV, F32), BIN(POW, F32),
	BIN(MAXIMUM, F32), BIN(MINIMUM, F32), BIN(EQ, BOOL), BIN(NE, BOOL),
	BIN(LT, BOOL), BIN(LE, BOOL), BIN(GT, BOOL), BIN(GE, BOOL),
	BIN(LOGICAL_AND, BOOL), BIN(LOGICAL_OR, BOOL), BIN(LOGICAL_XOR, BOOL),
	BIN(MOD, F32),
	IBIN(BITSHIFT), IBIN(BITWISE_AND), IBIN(BITWISE_OR), IBIN(BITWISE_XOR),
	{ "BITWISE_NOT", DRM_VNPU_OP_BITWISE_NOT, 1, 1,
	  { TR(I32, -9, 9, 1, 9), T(I32, 1, 9) } },
	UN(ABS), UN(NEG), UN(EXP), UN(LOG), UN(SQRT), UN(RSQRT), UN(RECIPROCAL),
	UN(SIN), UN(COS), UN(ERF), UN(RELU), UN(LEAKY_RELU), UN(GELU),
	UN(SIGMOID), UN(SILU), UN(TANH), UN(SOFTPLUS), UN(FLOOR), UN(CEIL),
	UN(ROUND), UN(SIGN), UN(TAN), UN(ASIN), UN(ACOS), UN(ATAN), UN(SINH),
	UN(COSH), UN(ASINH), UN(ATANH), UN(ELU), UN(SELU), UN(CELU),
	UN(THRESHOLDED_RELU), UN(SHRINK), UN(SOFTSIGN), UN(HARD_SIGMOID),
	UN(HARD_SWISH),
	{ "ACOSH", DRM_VNPU_OP_ACOSH, 1, 1, { TR(F32, 1, 5, 1, 9), T(F32, 1, 9) } },
	{ "CLAMP", DRM_VNPU_OP_CLAMP, 1, 1, { T(F32, 1, 9), T(F32, 1, 9) },
	  1, { 3 }, { -1.0f, 1.0f } },
	{ "LOGICAL_NOT", DRM_VNPU_OP_LOGICAL_NOT, 1, 1,
	  { TR(I32, -1, 2, 1, 9), T(BOOL, 1, 9) } },
	{ "ISNAN", DRM_VNPU_OP_ISNAN, 1, 1, { T(F32, 1, 9), T(BOOL, 1, 9) } },
	{ "ISINF", DRM_VNPU_OP_ISINF, 1, 1, { T(F32, 1, 9), T(BOOL, 1, 9) } },
	{ "PRELU", DRM_VNPU_OP_PRELU, 2, 1,
	  { T(F32, 3, 2, 3, 4), T(F32, 2, 3, 1), T(F32, 3, 2, 3, 4) } },
	{ "DROPOUT", DRM_VNPU_OP_DROPOUT, 3, 2,
	  { T(F32, 2, 3, 5), TR(F32, 0.2, 0.6, 0), TR(BOOL, 1, 2, 0),
	    T(F32, 2, 3, 5), T(BOOL, 2, 3, 5) }, 1, { 5 } },
	{ "CAST", DRM_VNPU_OP_CAST, 1, 1, { T(F32, 2, 3, 5), T(F64, 2, 3, 5) } },
	RED(REDUCE_SUM, F32), RED(REDUCE_MEAN, F32), RED(REDUCE_MAX, F32),
	RED(REDUCE_MIN, F32), RED(REDUCE_PROD, F32), RED(ARGMAX, I64),
	RED(ARGMIN, I64), RED(REDUCE_L1, F32), RED(REDUCE_L2, F32),
	RED(REDUCE_LOG_SUM, F32), RED(REDUCE_LOG_SUM_EXP, F32),
	RED(REDUCE_SUM_SQUARE, F32),
	{ "SOFTMAX", DRM_VNPU_OP_SOFTMAX, 1, 1,
	  { T(F32, 2, 3, 7), T(F32, 2, 3, 7) }, 1, { 1 } },
	{ "LOG_SOFTMAX", DRM_VNPU_OP_LOG_SOFTMAX, 1, 1,
	  { T(F32, 2, 3, 7), T(F32, 2, 3, 7) }, 1, { 0 } },
	{ "LAYER_NORM", DRM_VNPU_OP_LAYER_NORM, 3, 1,
	  { T(F32, 2, 3, 8), T(F32, 1, 8), T(F32, 1, 8), T(F32, 2, 3, 8) },
	  1, { 1 }, { 1e-5f } },
	{ "RMS_NORM", DRM_VNPU_OP_RMS_NORM, 2, 1,
	  { T(F32, 2, 3, 8), T(F32, 1, 8), T(F32, 2, 3, 8) }, 1, { 1 }, { 1e-6f } },
	{ "BATCH_NORM", DRM_VNPU_OP_BATCH_NORM, 5, 1,
	  { T(F32, 4, 2, 3, 2, 2), T(F32, 1, 3), TR(F32, 0.5, 2, 1, 3), T(F32, 1, 3),
	    T(F32, 1, 3), T(F32, 4, 2, 3, 2, 2) }, 1, {}, { 1e-5f } },
	{ "GROUP_NORM", DRM_VNPU_OP_GROUP_NORM, 3, 1,
	  { T(F32, 4, 2, 6, 2, 2), T(F32, 1, 6), T(F32, 1, 6), T(F32, 4, 2, 6, 2, 2) },
	  1, { 3 }, { 1e-5f } },
	{ "NORM_AXES", DRM_VNPU_OP_NORM_AXES, 3, 3,
	  { T(F32, 4, 2, 3, 2, 2), T(F32, 4, 1, 3, 1, 1), T(F32, 4, 1, 3, 1, 1),
	    T(F32, 4, 2, 3, 2, 2), T(F32, 4, 2, 3, 1, 1), T(F32, 4, 2, 3, 1, 1) },
	  1, { 12, 0 }, { 1e-5f } },
	{ "LRN", DRM_VNPU_OP_LRN, 1, 1,
	  { T(F32, 4, 2, 5, 2, 3), T(F32, 4, 2, 5, 2, 3) }, 1, { 3 },
	  { 0.3f, 0.75f, 2.0f } },
	{ "NLL_LOSS", DRM_VNPU_OP_NLL_LOSS, 3, 1,
	  { TR(F32, -4, 0, 3, 3, 5, 4), TR(I64, -1, 6, 2, 3, 4), TR(F32, 0.5, 2, 1, 5),
	    T(F32, 0) }, 1, { 2, 1, 1 } },
	{ "MATMUL", DRM_VNPU_OP_MATMUL, 2, 1,
	  { T(F32, 3, 2, 5, 7), T(F32, 2, 7, 6), T(F32, 3, 2, 5, 6) } },
	{ "GEMM", DRM_VNPU_OP_GEMM, 3, 1,
	  { T(F32, 2, 5, 7), T(F32, 2, 6, 7), T(F32, 1, 6), T(F32, 2, 5, 6) },
	  1, { 0, 1 }, { 1.0f, 2.0f } },
	{ "MATMUL_INT", DRM_VNPU_OP_MATMUL_INT, 2, 1,
	  { TR(U8, 0, 255, 3, 2, 5, 7), TR(I8, -128, 127, 2, 7, 3), T(I32, 3, 2, 5, 3) } },
	{ "QLINEAR_MATMUL", DRM_VNPU_OP_QLINEAR_MATMUL, 8, 1,
	  { TR(U8, 0, 255, 2, 4, 5), TR(F32, 0.01, 0.1, 1, 1), TR(U8, 0, 255, 1, 1),
	    TR(I8, -128, 127, 2, 5, 3), TR(F32, 0.01, 0.1, 0), TR(I8, -9, 9, 0),
	    TR(F32, 0.5, 1, 1, 1), TR(U8, 0, 255, 1, 1), T(U8, 2, 4, 3) } },
	{ "CONV2D", DRM_VNPU_OP_CONV2D, 3, 1,
	  { T(F32, 4, 1, 3, 6, 6), T(F32, 4, 5, 3, 3, 3), T(F32, 1, 5),
	    T(F32, 4, 1, 5, 6, 6) }, 1, { 1, 1, 1, 1, 1, 1, 1, 1, 1 } },
	{ "CONV1D", DRM_VNPU_OP_CONV1D, 2, 1,
	  { T(F32, 3, 1, 4, 20), T(F32, 3, 6, 4, 3), T(F32, 3, 1, 6, 18) },
	  1, { 1, 0, 0, 0, 0, 0, 1, 0, 1 } },
	{ "CONV_TRANSPOSE2D", DRM_VNPU_OP_CONV_TRANSPOSE2D, 2, 1,
	  { T(F32, 4, 1, 4, 5, 5), T(F32, 4, 4, 3, 3, 3), T(F32, 4, 1, 3, 11, 11) },
	  1, { 2, 2, 0, 0, 0, 0, 1, 1, 1, 0, 0 } },
	{ "MAX_POOL2D", DRM_VNPU_OP_MAX_POOL2D, 1, 1,
	  { T(F32, 4, 2, 3, 6, 6), T(F32, 4, 2, 3, 3, 3) },
	  1, { 2, 2, 2, 2, 0, 0, 0, 0, 1, 1 } },
	{ "AVG_POOL2D", DRM_VNPU_OP_AVG_POOL2D, 1, 1,
	  { T(F32, 4, 1, 2, 7, 7), T(F32, 4, 1, 2, 4, 4) },
	  1, { 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0, 1 } },
	{ "GLOBAL_AVG_POOL", DRM_VNPU_OP_GLOBAL_AVG_POOL, 1, 1,
	  { T(F32, 4, 2, 3, 5, 5), T(F32, 4, 2, 3, 1, 1) } },
	{ "GLOBAL_MAX_POOL", DRM_VNPU_OP_GLOBAL_MAX_POOL, 1, 1,
	  { T(F32, 4, 2, 3, 5, 5), T(F32, 2, 2, 3) } },
	{ "ADAPTIVE_AVG_POOL2D", DRM_VNPU_OP_ADAPTIVE_AVG_POOL2D, 1, 1,
	  { T(F32, 4, 1, 2, 9, 7), T(F32, 4, 1, 2, 4, 3) } },
	{ "POOL_ND", DRM_VNPU_OP_POOL_ND, 1, 2,
	  { T(F32, 5, 1, 2, 5, 6, 7), T(F32, 5, 1, 2, 2, 2, 3), T(I64, 5, 1, 2, 2, 2, 3) },
	  1, { 0, 0, 0, 0, 2, 3, 2, 2, 2, 3, 0, 0, 1, 0, 2, 1, 1, 2, 1 } },
	{ "CONV_ND", DRM_VNPU_OP_CONV_ND, 3, 1,
	  { T(F32, 5, 1, 4, 4, 5, 6), T(F32, 5, 6, 2, 2, 3, 2), T(F32, 1, 6),
	    T(F32, 5, 1, 6, 3, 3, 3) },
	  1, { 1, 2, 2, 2, 1, 1, 1, 0, 1, 0, 2, 0, 0, 2 } },
	{ "CONV_TRANSPOSE_ND", DRM_VNPU_OP_CONV_TRANSPOSE_ND, 2, 1,
	  { T(F32, 3, 1, 2, 4), T(F32, 3, 2, 3, 3), T(F32, 3, 1, 3, 9) },
	  1, { 2, 0, 0, 2, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1 } },
	{ "QLINEAR_CONV_ND", DRM_VNPU_OP_QLINEAR_CONV_ND, 9, 1,
	  { TR(U8, 0, 255, 4, 1, 1, 5, 5), TR(F32, 0.01, 0.1, 1, 1), TR(U8, 0, 255, 0),
	    TR(I8, -100, 100, 4, 2, 1, 2, 2), TR(F32, 0.01, 0.1, 1, 2), TR(I8, -9, 9, 1, 1),
	    TR(F32, 0.5, 1, 0), TR(U8, 0, 255, 1, 1), TR(I32, -99, 99, 1, 2),
	    T(U8, 4, 1, 2, 4, 4) },
	  1, { 1, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1 } },
	{ "MAX_UNPOOL", DRM_VNPU_OP_MAX_UNPOOL, 2, 1,
	  { T(F32, 4, 1, 2, 3, 3), TR(I64, -9, 80, 4, 1, 2, 3, 3), T(F32, 4, 1, 2, 6, 6) } },
	{ "STRIDED_COPY", DRM_VNPU_OP_STRIDED_COPY, 1, 1,
	  { T(F32, 2, 3, 5), T(F32, 2, 3, 5) } },
	{ "CONCAT", DRM_VNPU_OP_CONCAT, 2, 1,
	  { T(I32, 2, 4, 5), T(I32, 2, 4, 7), T(I32, 2, 4, 12) }, 1, { 1 } },
	{ "SPLIT", DRM_VNPU_OP_SPLIT, 1, 2,
	  { T(F32, 2, 4, 10), T(F32, 2, 4, 3), T(F32, 2, 4, 7) }, 1, { 1 } },
	{ "SLICE", DRM_VNPU_OP_SLICE, 1, 1,
	  { T(I64, 2, 10, 12), T(I64, 2, 4, 4) },
	  1, { 1, 2, 0, 0, 0, 0, 0, 0, 2, 3, 1, 1, 1, 1, 1, 1 } },
	{ "GATHER", DRM_VNPU_OP_GATHER, 2, 1,
	  { T(F32, 2, 5, 6), TR(I64, -8, 8, 2, 5, 4), T(F32, 2, 5, 4) }, 1, { 1 } },
	{ "SCATTER", DRM_VNPU_OP_SCATTER, 3, 1,
	  { T(F32, 2, 5, 6), TR(I64, -8, 8, 2, 5, 3), T(F32, 2, 5, 3), T(F32, 2, 5, 6) },
	  1, { 1, 1 } },
	{ "INDEX_SELECT", DRM_VNPU_OP_INDEX_SELECT, 2, 1,
	  { T(F16, 2, 7, 5), TR(I32, -9, 9, 1, 4), T(F16, 2, 4, 5) }, 1, { 0 } },
	{ "WHERE", DRM_VNPU_OP_WHERE, 3, 1,
	  { TR(BOOL, 0, 2, 2, 6, 9), T(F32, 2, 6, 9), T(F32, 1, 9), T(F32, 2, 6, 9) } },
	{ "PAD", DRM_VNPU_OP_PAD, 1, 1,
	  { T(F32, 2, 3, 4), T(F32, 2, 6, 7) }, 1, { 1, 2, 0, 3 }, { 0.5f } },
	{ "TILE", DRM_VNPU_OP_TILE, 1, 1, { T(U8, 2, 2, 3), T(U8, 2, 4, 9) } },
	{ "ONE_HOT", DRM_VNPU_OP_ONE_HOT, 3, 1,
	  { TR(I64, -6, 6, 1, 5), T(F32, 1, 2), T(F32, 1, 1), T(F32, 2, 5, 4) } },
	{ "ARANGE", DRM_VNPU_OP_ARANGE, 0, 1, { T(F32, 1, 50) }, 1, {}, { 1.5f, 0.25f } },
	{ "FILL", DRM_VNPU_OP_FILL, 0, 1, { T(I32, 1, 33) }, 1, { 7 } },
	{ "TOPK", DRM_VNPU_OP_TOPK, 1, 2,
	  { T(F32, 2, 4, 50), T(F32, 2, 4, 5), T(I64, 2, 4, 5) }, 1, { 1, 0, 1, 1 } },
	{ "SORT", DRM_VNPU_OP_SORT, 1, 2,
	  { T(F32, 2, 5, 100), T(F32, 2, 5, 100), T(I64, 2, 5, 100) }, 1, { 1, 1 } },
	{ "RESIZE", DRM_VNPU_OP_RESIZE, 1, 1,
	  { T(F32, 4, 1, 2, 7, 9), T(F32, 4, 1, 2, 14, 18) }, 1, { 1, 0 } },
	{ "GATHER_ND", DRM_VNPU_OP_GATHER_ND, 2, 1,
	  { T(BF16, 3, 3, 4, 5), TR(I32, -5, 5, 3, 2, 3, 2), T(BF16, 3, 2, 3, 5) } },
	{ "SCATTER_ND", DRM_VNPU_OP_SCATTER_ND, 3, 1,
	  { T(F32, 2, 5, 6), TR(I64, -7, 7, 2, 4, 1), T(F32, 2, 4, 6), T(F32, 2, 5, 6) },
	  1, { 1 } },
	{ "REVERSE_SEQUENCE", DRM_VNPU_OP_REVERSE_SEQUENCE, 2, 1,
	  { T(F16, 2, 4, 6), TR(I32, -3, 9, 1, 6), T(F16, 2, 4, 6) }, 1, { 1, 0 } },
	{ "CUMSUM", DRM_VNPU_OP_CUMSUM, 1, 1,
	  { T(F32, 2, 4, 9), T(F32, 2, 4, 9) }, 1, { 1, 1, 1 } },
	{ "TRILU", DRM_VNPU_OP_TRILU, 1, 1,
	  { T(BF16, 3, 2, 7, 9), T(BF16, 3, 2, 7, 9) }, 1, { 1, -1 } },
	{ "HARDMAX", DRM_VNPU_OP_HARDMAX, 1, 1,
	  { T(F32, 3, 4, 9, 5), T(F32, 3, 4, 9, 5) }, 1, { 1 } },
	{ "RESIZE_ND", DRM_VNPU_OP_RESIZE_ND, 1, 1,
	  { T(F32, 4, 1, 2, 4, 5), T(F32, 4, 1, 2, 7, 9) }, 1, { 2, 0 }, { -0.75f } },
	{ "QUANTIZE_LINEAR", DRM_VNPU_OP_QUANTIZE_LINEAR, 3, 1,
	  { T(F32, 2, 3, 5), TR(F32, 0.01, 0.05, 1, 1), TR(I8, -20, 20, 1, 1),
	    T(I8, 2, 3, 5) } },
	{ "DEQUANTIZE_LINEAR", DRM_VNPU_OP_DEQUANTIZE_LINEAR, 3, 1,
	  { TR(U8, 0, 255, 2, 3, 5), TR(F32, 0.1, 1, 1, 5), TR(U8, 0, 255, 1, 5),
	    T(F32, 2, 3, 5) }, 1, { 1 } },
	{ "DYNAMIC_QUANTIZE_LINEAR", DRM_VNPU_OP_DYNAMIC_QUANTIZE_LINEAR, 1, 3,
	  { T(F32, 1, 40), T(U8, 1, 40), T(F32, 0), T(U8, 0) } },
	{ "GRID_SAMPLE", DRM_VNPU_OP_GRID_SAMPLE, 2, 1,
	  { T(F32, 4, 1, 2, 4, 5), TR(F32, -1.3, 1.3, 4, 1, 3, 6, 2), T(F32, 4, 1, 2, 3, 6) },
	  1, { 2, 2, 0 } },
	{ "ROI_ALIGN", DRM_VNPU_OP_ROI_ALIGN, 3, 1,
	  { T(F32, 4, 2, 3, 8, 9), TR(F32, 0, 9, 2, 5, 4), TR(I64, -1, 3, 1, 5),
	    T(F32, 4, 5, 3, 3, 2) }, 1, { 0, 0, 1 }, { 0.75f } },
	{ "VPC", DRM_VNPU_OP_VPC, 1, 1,
	  { TR(U8, 0, 255, 1, 192), T(U8, 1, 96) }, 1,
	  { 1, 16, 8, 16, 8, 12, 8, 4, 24, 4, 0, 0, 0, 0, 0, 0, 0, 0, 1 } },
	/* random parameter bytes: the pieces refuse them and write nothing */
	{ "AIPP", DRM_VNPU_OP_AIPP, 2, 1,
	  { TR(U8, 0, 255, 2, 1, 6), TR(U8, 0, 255, 2, 1, 156), T(F32, 4, 1, 3, 2, 2) } },
	{ "TRI_SOLVE", DRM_VNPU_OP_TRI_SOLVE, 2, 1,
	  { TR(F32, 1, 2, 3, 2, 4, 4), T(F32, 3, 2, 4, 3), T(F32, 3, 2, 4, 3) }, 1, { 1, 0 } },
	{ "FLASH_ATTN", DRM_VNPU_OP_FLASH_ATTN, 3, 2,
	  { T(F32, 4, 2, 2, 3, 4), T(F32, 4, 2, 1, 5, 4), T(F32, 4, 2, 1, 5, 4),
	    T(F32, 4, 2, 2, 3, 4), T(F32, 3, 2, 2, 3) }, 1, { 4 }, { 0.5f } },
	{ "ROPE", DRM_VNPU_OP_ROPE, 3, 1,
	  { T(F32, 4, 2, 3, 2, 4), T(F32, 4, 1, 3, 1, 4), T(F32, 4, 1, 3, 1, 4),
	    T(F32, 4, 2, 3, 2, 4) }, 1, { 1 } },
	{ "WQ_MATMUL", DRM_VNPU_OP_WQ_MATMUL, 5, 1,
	  { T(F32, 2, 3, 64), TR(I8, -100, 100, 2, 32, 5), T(F32, 2, 2, 5),
	    T(F32, 2, 2, 5), T(F32, 1, 5), T(F32, 2, 3, 5) }, 1, { 32, 1, 1, 1 } },
	/* counts 0..1 per group: within the 4 rows */
	{ "GROUPED_MATMUL", DRM_VNPU_OP_GROUPED_MATMUL, 4, 1,
	  { T(F32, 2, 4, 6), T(F32, 3, 3, 6, 5), TR(I64, 0, 2, 1, 3), T(F32, 2, 3, 5),
	    T(F32, 2, 4, 5) }, 1, { 1, 1 } },
};

/* A large stride: where an empty view's pointer would lead if used. */
#define EMPTY_STRIDE	(1LL << 40)

/* The case's tensors, with buffers, in @ts (nin + nout of them). */
static void make_case(const struct ecase *e, struct ot_tensor *ts, u64 seed)
{
	u32 k, n = e->nin + e->nout;

	for (k = 0; k < n; k++) {
		const struct tdesc *d = &e->t[k];

		ot_make(&ts[k], d->dtype, d->rank, d->shape);
		if (k < e->nin)
			ot_fill(&ts[k], seed + k, d->lo, d->hi);
	}
}

static void free_case(const struct ecase *e, struct ot_tensor *ts)
{
	u32 k;

	for (k = 0; k < e->nin + e->nout; k++)
		ot_free(&ts[k]);
}

static struct vnpu_op_call *call_of(const struct ecase *e, struct ot_tensor *ts,
				    void *scratch)
{
	struct ot_tensor *p[MAXT + 1];
	struct drm_vnpu_op_attrs at = { 0 };
	u32 k;

	for (k = 0; k < e->nin + e->nout; k++)
		p[k] = &ts[k];
	for (k = 0; k < 24; k++)
		at.ints[k] = e->ints[k];
	for (k = 0; k < 8; k++)
		memcpy(&at.floats[k], &e->floats[k], 4);
	return ot_call_new(e->op, p, e->nin, e->nout, e->has_attrs ? &at : NULL,
			   vnpu_ops_host_cpu(), scratch);
}

/* Every piece the module would run, phase by phase. */
static u64 run_all(const struct vnpu_op_impl *impl, const struct vnpu_op_call *c)
{
	u64 ends[VNPU_OPS_MAX_PHASES], t;
	u32 n = vnpu_op_phases(impl, c, ends);

	for (t = 0; t < ends[n - 1]; t++)
		impl->run(c, t);
	return ends[n - 1];
}

static bool some_output_has_elems(const struct vnpu_op_call *c)
{
	u32 k;

	for (k = 0; k < c->num_out; k++)
		if (!vnpu_tview_empty(&c->t[c->num_in + k]))
			return true;
	return false;
}

static void *scratch_mem(void)
{
	static void *s;

	if (!s)
		s = aligned_alloc(64, VNPU_OPS_SCRATCH);
	return s;
}

/* Every operator the library knows has a case above. */
TEST(table_covers_every_operator)
{
	u32 op, i, found = 0;

	for (op = 1; op < 65536; op++) {
		const struct vnpu_op_impl *impl = vnpu_op_find(op);
		bool have = false;

		if (!impl)
			continue;
		found++;
		for (i = 0; i < ARRAY_SIZE(cases); i++)
			have |= cases[i].op == op;
		EXPECT_TRUE(have) TH_LOG("operator %u (%s) has no case", op,
					 impl->name ? impl->name : "?");
	}
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		EXPECT_TRUE(vnpu_op_find(cases[i].op) != NULL)
			TH_LOG("case %u: no such operator", i);
	EXPECT_LE(80, found);
	TH_LOG("%u operators, %zu cases", found, ARRAY_SIZE(cases));
}

/* Each case is valid as it stands, and runs. */
TEST(every_case_runs)
{
	struct ot_tensor ts[MAXT + 1];
	u32 i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct ecase *e = &cases[i];
		const struct vnpu_op_impl *impl = vnpu_op_find(e->op);
		struct vnpu_op_call *c;

		ASSERT_NE(NULL, impl) TH_LOG("%s", e->name);
		make_case(e, ts, 7 + i);
		c = call_of(e, ts, scratch_mem());
		ASSERT_NE(NULL, c);
		EXPECT_EQ(0, vnpu_op_check(impl, c)) TH_LOG("%s refused", e->name);
		if (!vnpu_op_check(impl, c))
			EXPECT_LT(0, run_all(impl, c)) TH_LOG("%s: no pieces", e->name);
		free(c);
		free_case(e, ts);
	}
}

/*
 * One dim of one tensor at a time is 0, its data NULL, its strides 2^40:
 * refused while an output keeps elements (unless VNPU_OP_EMPTY_OK), and
 * whatever is accepted runs without touching the empty view.
 */
TEST(empty_tensor_refused_or_untouched)
{
	struct ot_tensor ts[MAXT + 1];
	u32 i, k, d, refused = 0, ran = 0;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct ecase *e = &cases[i];
		const struct vnpu_op_impl *impl = vnpu_op_find(e->op);
		bool ok_flag = impl->flags & VNPU_OP_EMPTY_OK;
		struct vnpu_op_call *c;

		make_case(e, ts, 11 + i);
		c = call_of(e, ts, scratch_mem());
		ASSERT_NE(NULL, c);
		for (k = 0; k < e->nin + e->nout; k++) {
			for (d = 0; d < c->t[k].rank; d++) {
				struct vnpu_op_call z = *c;
				struct vnpu_tview *v = &z.t[k];
				u32 s;
				int ret;

				if (!v->shape[d])
					continue;
				v->shape[d] = 0;
				v->data = NULL;
				for (s = 0; s < v->rank; s++)
					v->strides[s] = EMPTY_STRIDE;
				ret = vnpu_op_check(impl, &z);
				if (some_output_has_elems(&z) && !ok_flag) {
					EXPECT_EQ(-VNPU_OPS_EINVAL, ret)
						TH_LOG("%s: tensor %u dim %u empty, accepted",
						       e->name, k, d);
					refused += ret != 0;
					continue;
				}
				if (ret)
					continue;
				/* A fault here is the bug this test is about. */
				run_all(impl, &z);
				ran++;
			}
		}
		free(c);
		free_case(e, ts);
	}
	TH_LOG("%u calls refused, %u accepted and run", refused, ran);
	EXPECT_LT(100, refused);
	EXPECT_LT(0, ran);
}

/* The operators with VNPU_OP_EMPTY_OK, and no others. */
TEST(empty_ok_operators)
{
	static const u32 ok[] = {
		DRM_VNPU_OP_REDUCE_SUM, DRM_VNPU_OP_REDUCE_MEAN,
		DRM_VNPU_OP_REDUCE_PROD, DRM_VNPU_OP_REDUCE_L1,
		DRM_VNPU_OP_REDUCE_L2, DRM_VNPU_OP_REDUCE_LOG_SUM,
		DRM_VNPU_OP_REDUCE_LOG_SUM_EXP, DRM_VNPU_OP_REDUCE_SUM_SQUARE,
		DRM_VNPU_OP_MATMUL, DRM_VNPU_OP_GEMM, DRM_VNPU_OP_CONCAT,
		DRM_VNPU_OP_SPLIT, DRM_VNPU_OP_PAD, DRM_VNPU_OP_FLASH_ATTN,
	};
	u32 op, i;

	for (op = 1; op < 65536; op++) {
		const struct vnpu_op_impl *impl = vnpu_op_find(op);
		bool want = false;

		if (!impl)
			continue;
		for (i = 0; i < ARRAY_SIZE(ok); i++)
			want |= ok[i] == op;
		EXPECT_EQ(want, !!(impl->flags & VNPU_OP_EMPTY_OK))
			TH_LOG("%s: review its empty tensors before changing this list",
			       impl->name);
	}
}

/* A view whose pointer faults if used: data NULL, strides 2^40. */
static void poison(struct vnpu_tview *v)
{
	u32 d;

	v->data = NULL;
	for (d = 0; d < v->rank; d++)
		v->strides[d] = EMPTY_STRIDE;
}

static int run_poisoned(u32 op, struct ot_tensor **ts, u32 nin, u32 nout,
			const struct drm_vnpu_op_attrs *at, u32 empty)
{
	const struct vnpu_op_impl *impl = vnpu_op_find(op);
	struct vnpu_op_call *c = ot_call_new(op, ts, nin, nout, at,
					     vnpu_ops_host_cpu(), scratch_mem());
	int ret;

	poison(&c->t[empty]);
	ret = vnpu_op_check(impl, c);
	if (!ret)
		run_all(impl, c);
	free(c);
	return ret;
}

/* Sums of nothing: each reduction's value of an empty row, from NULL. */
TEST(reductions_of_nothing)
{
	static const struct {
		u32 op;
		double want;	/* NaN: NaN */
	} r[] = {
		{ DRM_VNPU_OP_REDUCE_SUM, 0 }, { DRM_VNPU_OP_REDUCE_MEAN, NAN },
		{ DRM_VNPU_OP_REDUCE_PROD, 1 }, { DRM_VNPU_OP_REDUCE_L1, 0 },
		{ DRM_VNPU_OP_REDUCE_L2, 0 }, { DRM_VNPU_OP_REDUCE_LOG_SUM, -INFINITY },
		{ DRM_VNPU_OP_REDUCE_LOG_SUM_EXP, -INFINITY },
		{ DRM_VNPU_OP_REDUCE_SUM_SQUARE, 0 },
	};
	const s64 xs[3] = { 3, 0, 4 }, os[2] = { 3, 4 };
	struct ot_tensor x, o, *ts[2] = { &x, &o };
	struct drm_vnpu_op_attrs at = { 0 };
	u32 i, j;

	at.ints[0] = 2;		/* reduce dim 1 */
	for (i = 0; i < ARRAY_SIZE(r); i++) {
		ot_make(&x, F32, 3, xs);
		ot_make(&o, F32, 2, os);
		for (j = 0; j < 12; j++)
			((float *)o.buf)[j] = 42;
		ASSERT_EQ(0, run_poisoned(r[i].op, ts, 1, 1, &at, 0))
			TH_LOG("op %u", r[i].op);
		for (j = 0; j < 12; j++) {
			double got = ((float *)o.buf)[j];

			if (isnan(r[i].want)) {
				EXPECT_TRUE(isnan(got)) TH_LOG("op %u", r[i].op);
			} else {
				EXPECT_EQ(r[i].want, got) TH_LOG("op %u", r[i].op);
			}
		}
		ot_free(&x);
		ot_free(&o);
	}
	/* Max, min and the arg forms have no value for it: refused. */
	ot_make(&x, F32, 3, xs);
	ot_make(&o, F32, 2, os);
	EXPECT_EQ(-VNPU_OPS_EINVAL, run_poisoned(DRM_VNPU_OP_REDUCE_MAX, ts, 1, 1, &at, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, run_poisoned(DRM_VNPU_OP_REDUCE_MIN, ts, 1, 1, &at, 0));
	ot_free(&o);
	ot_make(&o, I64, 2, os);
	EXPECT_EQ(-VNPU_OPS_EINVAL, run_poisoned(DRM_VNPU_OP_ARGMAX, ts, 1, 1, &at, 0));
	ot_free(&x);
	ot_free(&o);
}

/* Products of depth 0: zeros, beta * c, and the activation of those. */
TEST(products_of_depth_zero)
{
	const s64 as[2] = { 5, 0 }, bs[2] = { 0, 6 }, os[2] = { 5, 6 }, vs[1] = { 0 };
	struct ot_tensor a, b, cc, o, *ts[4] = { &a, &b, &cc, &o };
	struct ot_tensor *mm[3] = { &a, &b, &o };
	struct drm_vnpu_op_attrs at = { 0 };
	float alpha = 1, beta = -2;
	s64 i;

	ot_make(&a, F32, 2, as);
	ot_make(&b, F32, 2, bs);
	ot_make(&o, F32, 2, os);
	for (i = 0; i < 30; i++)
		((float *)o.buf)[i] = 42;
	ASSERT_EQ(0, run_poisoned(DRM_VNPU_OP_MATMUL, mm, 2, 1, NULL, 0));
	for (i = 0; i < 30; i++)
		EXPECT_EQ(0.0f, ((float *)o.buf)[i]);
	/* both operands poisoned */
	{
		const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_MATMUL);
		struct vnpu_op_call *c = ot_call_new(DRM_VNPU_OP_MATMUL, mm, 2, 1, NULL,
						     vnpu_ops_host_cpu(), scratch_mem());

		poison(&c->t[0]);
		poison(&c->t[1]);
		ASSERT_EQ(0, vnpu_op_check(impl, c));
		EXPECT_LT(0, run_all(impl, c));
		free(c);
	}
	/* GEMM: beta * c, then ReLU; a and b poisoned in turn */
	ot_make(&cc, F32, 2, os);
	ot_fill(&cc, 5, -1, 1);
	memcpy(&at.floats[0], &alpha, 4);
	memcpy(&at.floats[1], &beta, 4);
	ot_set_act(&at, DRM_VNPU_ACT_RELU, 0, 0);
	ASSERT_EQ(0, run_poisoned(DRM_VNPU_OP_GEMM, ts, 3, 1, &at, 1));
	for (i = 0; i < 30; i++) {
		float v = beta * ((float *)cc.buf)[i];

		EXPECT_EQ(v < 0 ? 0.0f : v, ((float *)o.buf)[i]);
	}
	ot_free(&a);
	ot_free(&b);
	/* a 1-D a of length 0 with b [0, 6]: a row of zeros */
	ot_make(&a, F32, 1, vs);
	ot_make(&b, F32, 2, bs);
	ot_free(&o);
	ot_make(&o, F32, 1, &os[1]);
	ASSERT_EQ(0, run_poisoned(DRM_VNPU_OP_MATMUL, mm, 2, 1, NULL, 0));
	for (i = 0; i < 6; i++)
		EXPECT_EQ(0.0f, ((float *)o.buf)[i]);
	ot_free(&a);
	ot_free(&b);
	ot_free(&cc);
	ot_free(&o);
	/* An empty batch dim of a empties the output: nothing runs. */
}

/* CONCAT and SPLIT with empty pieces; PAD of nothing. */
TEST(movement_with_empty_pieces)
{
	const s64 s1[2] = { 2, 3 }, s0[2] = { 2, 0 }, s2[2] = { 2, 4 }, sb[2] = { 2, 7 };
	struct ot_tensor p1, p0, p2, big, *ts[4] = { &p1, &p0, &p2, &big };
	struct drm_vnpu_op_attrs at = { 0 };
	s64 r, j;

	ot_make(&p1, I32, 2, s1);
	ot_make(&p0, I32, 2, s0);
	ot_make(&p2, I32, 2, s2);
	ot_make(&big, I32, 2, sb);
	ot_fill(&p1, 1, -100, 100);
	ot_fill(&p2, 2, -100, 100);
	at.ints[0] = 1;
	ASSERT_EQ(0, run_poisoned(DRM_VNPU_OP_CONCAT, ts, 3, 1, &at, 1));
	for (r = 0; r < 2; r++)
		for (j = 0; j < 7; j++)
			EXPECT_EQ(j < 3 ? ((s32 *)p1.buf)[r * 3 + j] :
				  ((s32 *)p2.buf)[r * 4 + j - 3],
				  ((s32 *)big.buf)[r * 7 + j]);
	/* back: SPLIT into [2, 3], [2, 0] (poisoned), [2, 4] */
	memset(p1.buf, 0, p1.bytes);
	memset(p2.buf, 0, p2.bytes);
	{
		struct ot_tensor *sp[4] = { &big, &p1, &p0, &p2 };

		ASSERT_EQ(0, run_poisoned(DRM_VNPU_OP_SPLIT, sp, 1, 3, &at, 2));
	}
	for (r = 0; r < 2; r++)
		for (j = 0; j < 7; j++)
			EXPECT_EQ(((s32 *)big.buf)[r * 7 + j],
				  j < 3 ? ((s32 *)p1.buf)[r * 3 + j] :
				  ((s32 *)p2.buf)[r * 4 + j - 3]);
	ot_free(&p1);
	ot_free(&p0);
	ot_free(&p2);
	ot_free(&big);

	/* PAD: x [0, 3] padded to [2, 5] is all the constant */
	{
		const s64 xs[2] = { 0, 3 }, os[2] = { 2, 5 };
		struct ot_tensor x, o, *pt[2] = { &x, &o };
		float seven = 7;

		ot_make(&x, F32, 2, xs);
		ot_make(&o, F32, 2, os);
		memset(&at, 0, sizeof(at));
		at.ints[0] = 1;
		at.ints[1] = 1;
		at.ints[2] = 1;
		at.ints[3] = 1;
		memcpy(&at.floats[0], &seven, 4);
		ASSERT_EQ(0, run_poisoned(DRM_VNPU_OP_PAD, pt, 1, 1, &at, 0));
		for (j = 0; j < 10; j++)
			EXPECT_EQ(7.0f, ((float *)o.buf)[j]);
		/* edge and reflect padding have nothing to repeat: refused */
		at.ints[16] = 2;
		EXPECT_EQ(-VNPU_OPS_EINVAL, run_poisoned(DRM_VNPU_OP_PAD, pt, 1, 1, &at, 0));
		at.ints[16] = 1;
		EXPECT_EQ(-VNPU_OPS_EINVAL, run_poisoned(DRM_VNPU_OP_PAD, pt, 1, 1, &at, 0));
		ot_free(&x);
		ot_free(&o);
	}
}

/*
 * The finding: ROI_ALIGN of an image without rows (or columns) clamped its
 * samples to row -1 and read NULL + 4 * (n * s0 + c * s1 - s2 + x * s3),
 * n from the caller's batch indices. Refused by the library's rule and by
 * the operator's own check (defence in depth, so it calls check() itself).
 */
TEST(roi_align_empty_image)
{
	const s64 xs[4] = { 2, 3, 8, 9 }, rs[2] = { 5, 4 }, bs[1] = { 5 };
	const s64 os[4] = { 5, 3, 3, 2 };
	const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_ROI_ALIGN);
	struct ot_tensor x, r, b, o, *ts[4] = { &x, &r, &b, &o };
	struct drm_vnpu_op_attrs at = { 0 };
	struct vnpu_op_call *c;
	float one = 1;
	u32 d;

	memcpy(&at.floats[0], &one, 4);		/* spatial scale */
	ot_make(&x, F32, 4, xs);
	ot_make(&r, F32, 2, rs);
	ot_make(&b, I64, 1, bs);
	ot_make(&o, F32, 4, os);
	ot_fill(&r, 3, 0, 9);
	for (d = 0; d < 5; d++)
		((s64 *)b.buf)[d] = 1LL << 30;	/* far away */
	c = ot_call_new(DRM_VNPU_OP_ROI_ALIGN, ts, 3, 1, &at, vnpu_ops_host_cpu(),
			scratch_mem());
	ASSERT_EQ(0, vnpu_op_check(impl, c));
	for (d = 2; d < 4; d++) {
		struct vnpu_op_call z = *c;

		z.t[0].shape[d] = 0;
		poison(&z.t[0]);
		EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(impl, &z)) TH_LOG("dim %u", d);
		EXPECT_EQ(-VNPU_OPS_EINVAL, impl->check(&z)) TH_LOG("dim %u", d);
		/* An empty output (no regions) is fine: nothing runs. */
		z.t[1].shape[0] = z.t[2].shape[0] = z.t[3].shape[0] = 0;
		EXPECT_EQ(0, impl->check(&z)) TH_LOG("dim %u", d);
		EXPECT_EQ(0, vnpu_op_check(impl, &z)) TH_LOG("dim %u", d);
		EXPECT_EQ(0, run_all(impl, &z));
	}
	free(c);
	ot_free(&x);
	ot_free(&r);
	ot_free(&b);
	ot_free(&o);
}

/*
 * ROI_ALIGN's pieces with an explicit sampling ratio: each output element
 * reads ratio^2 samples of 4 taps whatever the image size, so a piece
 * holds ROI_BUDGET / (4 ratio^2) elements (at least one), not the count
 * the image's size allows (which let one piece do 2^42 taps).
 */
TEST(roi_align_ratio_bounds_piece)
{
	const s64 xs[4] = { 1, 1, 1, 1 }, rs[2] = { 1, 4 }, bs[1] = { 1 };
	const s64 os[4] = { 1, 1, 256, 256 };
	const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_ROI_ALIGN);
	struct ot_tensor x, r, b, o, *ts[4] = { &x, &r, &b, &o };
	struct drm_vnpu_op_attrs at = { 0 };
	struct vnpu_op_call *c;
	float one = 1;

	memcpy(&at.floats[0], &one, 4);		/* spatial scale */
	ot_make(&x, F32, 4, xs);
	ot_make(&r, F32, 2, rs);
	ot_make(&b, I64, 1, bs);
	ot_make(&o, F32, 4, os);
	at.ints[1] = 4096;	/* the largest ratio: 2^26 taps an element */
	c = ot_call_new(DRM_VNPU_OP_ROI_ALIGN, ts, 3, 1, &at, vnpu_ops_host_cpu(),
			scratch_mem());
	ASSERT_EQ(0, vnpu_op_check(impl, c));
	EXPECT_EQ(65536, impl->tiles(c));	/* one element a piece */
	c->attrs.ints[1] = 64;			/* 2^14 taps: 256 a piece */
	EXPECT_EQ(256, impl->tiles(c));
	c->attrs.ints[1] = 0;			/* adaptive, capped at 4 x 4 */
	EXPECT_EQ(1, impl->tiles(c));
	c->attrs.ints[1] = 4097;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(impl, c));
	free(c);
	ot_free(&x);
	ot_free(&r);
	ot_free(&b);
	ot_free(&o);
}

/* The library's own rules: tensor counts and ranks in range. */
TEST(shared_rules)
{
	const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_ADD);
	struct vnpu_op_call c = { .op = DRM_VNPU_OP_ADD, .num_in = 2, .num_out = 1 };
	u32 k;

	for (k = 0; k < 3; k++) {
		c.t[k].dtype = F32;
		c.t[k].rank = 1;
		c.t[k].shape[0] = 4;
		c.t[k].strides[0] = 1;
	}
	EXPECT_EQ(0, vnpu_op_check(impl, &c));
	c.t[1].rank = VNPU_OPS_MAX_RANK + 1;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(impl, &c));
	c.t[1].rank = 1;
	c.num_out = VNPU_OPS_MAX_TENSORS;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(impl, &c));
	c.num_out = 1;
	c.num_in = ~0u;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(impl, &c));
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(NULL, &c));
	/* all outputs empty: accepted, and no piece runs */
	c.num_in = 2;
	for (k = 0; k < 3; k++) {
		c.t[k].shape[0] = 0;
		poison(&c.t[k]);
	}
	EXPECT_EQ(0, vnpu_op_check(impl, &c));
	EXPECT_EQ(0, run_all(impl, &c));
}

TEST_HARNESS_MAIN
