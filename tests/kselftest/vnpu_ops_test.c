// SPDX-License-Identifier: GPL-2.0-only
/*
 * Operators on the device: each case runs through a KERNEL task on the
 * module's engines and through the same operator library built for the
 * host (in this process), on identical inputs; the results must agree
 * (bit for bit where the code paths are the same). Malformed descriptors
 * are rejected at submit; tensors reaching outside their objects fault.
 */
#include <sys/ioctl.h>

/* The case table leaves trailing fields to their zero defaults. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#include <time.h>

#include "vnpu_test_util.h"
#include "vnpu_ops_impl.h"
#include "vnpu_ops_host.h"
#include "kselftest_harness.h"

#define MAXT 6

struct tdesc {
	u32 dtype;
	u32 rank;
	s64 shape[VNPU_OPS_MAX_RANK];
	int transposed;		/* swap the strides of the last two dims */
	double lo, hi;		/* input value range */
};

struct ocase {
	const char *name;
	u32 op;
	u32 nin, nout;
	struct tdesc t[MAXT];
	int has_attrs;
	s64 ints[24];
	float floats[4];
};

#define F32 DRM_VNPU_DTYPE_FLOAT
#define F16 DRM_VNPU_DTYPE_FLOAT16
#define BF16 DRM_VNPU_DTYPE_BF16
#define I8 DRM_VNPU_DTYPE_INT8
#define U8 DRM_VNPU_DTYPE_UINT8
#define I32 DRM_VNPU_DTYPE_INT32
#define I64 DRM_VNPU_DTYPE_INT64
#define BOOL DRM_VNPU_DTYPE_BOOL
#define I16 DRM_VNPU_DTYPE_INT16
#define U16 DRM_VNPU_DTYPE_UINT16
#define U32 DRM_VNPU_DTYPE_UINT32
#define U64 DRM_VNPU_DTYPE_UINT64
#define F64 DRM_VNPU_DTYPE_DOUBLE
#define T(dt, r, ...) { .dtype = dt, .rank = r, .shape = { __VA_ARGS__ }, .lo = -4, .hi = 4 }
#define TT(dt, r, ...) { .dtype = dt, .rank = r, .shape = { __VA_ARGS__ }, .transposed = 1, .lo = -4, .hi = 4 }
#define TR(dt, lo_, hi_, r, ...) { .dtype = dt, .rank = r, .shape = { __VA_ARGS__ }, .lo = lo_, .hi = hi_ }

static const struct ocase cases[] = {
	{ "add broadcast f32", DRM_VNPU_OP_ADD, 2, 1,
	  { T(F32, 3, 4, 1, 33), T(F32, 2, 5, 33), T(F32, 3, 4, 5, 33) } },
	{ "add alpha f16", DRM_VNPU_OP_ADD, 2, 1,
	  { T(F16, 1, 1000), T(F16, 1, 1000), T(F16, 1, 1000) }, 1, {}, { 0.5f } },
	{ "sub int32 transposed", DRM_VNPU_OP_SUB, 2, 1,
	  { TT(I32, 2, 17, 9), T(I32, 2, 17, 9), T(I32, 2, 17, 9) } },
	{ "mul bf16", DRM_VNPU_OP_MUL, 2, 1,
	  { T(BF16, 2, 7, 300), T(BF16, 2, 7, 300), T(BF16, 2, 7, 300) } },
	{ "div f32", DRM_VNPU_OP_DIV, 2, 1,
	  { T(F32, 1, 999), TR(F32, 0.5, 3, 1, 999), T(F32, 1, 999) } },
	{ "maximum int8", DRM_VNPU_OP_MAXIMUM, 2, 1,
	  { TR(I8, -100, 100, 1, 77), TR(I8, -100, 100, 1, 77), T(I8, 1, 77) } },
	{ "lt f32 -> bool", DRM_VNPU_OP_LT, 2, 1,
	  { T(F32, 2, 3, 50), T(F32, 1, 50), T(BOOL, 2, 3, 50) } },
	{ "exp f32", DRM_VNPU_OP_EXP, 1, 1, { T(F32, 1, 4097), T(F32, 1, 4097) } },
	{ "gelu tanh f32", DRM_VNPU_OP_GELU, 1, 1,
	  { T(F32, 2, 31, 31), T(F32, 2, 31, 31) }, 1, { 1 } },
	{ "sigmoid bf16", DRM_VNPU_OP_SIGMOID, 1, 1, { T(BF16, 1, 513), T(BF16, 1, 513) } },
	/* the second unary family and PRELU (vnpu_op_activation.c) */
	{ "tan f32", DRM_VNPU_OP_TAN, 1, 1, { TR(F32, -20, 20, 1, 300), T(F32, 1, 300) } },
	{ "asin f32", DRM_VNPU_OP_ASIN, 1, 1, { TR(F32, -1.1, 1.1, 1, 300), T(F32, 1, 300) } },
	{ "acos f16", DRM_VNPU_OP_ACOS, 1, 1, { TR(F16, -1, 1, 1, 300), T(F16, 1, 300) } },
	{ "atan f32 transposed", DRM_VNPU_OP_ATAN, 1, 1,
	  { TT(F32, 2, 9, 13), T(F32, 2, 9, 13) } },
	{ "sinh f32", DRM_VNPU_OP_SINH, 1, 1, { TR(F32, -90, 90, 1, 300), T(F32, 1, 300) } },
	{ "cosh bf16", DRM_VNPU_OP_COSH, 1, 1, { T(BF16, 1, 300), T(BF16, 1, 300) } },
	{ "asinh f32", DRM_VNPU_OP_ASINH, 1, 1, { TR(F32, -1e4, 1e4, 1, 300), T(F32, 1, 300) } },
	{ "acosh f32", DRM_VNPU_OP_ACOSH, 1, 1, { TR(F32, 0.5, 50, 1, 300), T(F32, 1, 300) } },
	{ "atanh f32", DRM_VNPU_OP_ATANH, 1, 1, { TR(F32, -1.1, 1.1, 1, 300), T(F32, 1, 300) } },
	{ "elu alpha f32", DRM_VNPU_OP_ELU, 1, 1, { T(F32, 1, 300), T(F32, 1, 300) },
	  1, {}, { 0.5f, 1.25f, 0.75f } },
	{ "selu defaults f16", DRM_VNPU_OP_SELU, 1, 1, { T(F16, 1, 300), T(F16, 1, 300) } },
	{ "celu f32", DRM_VNPU_OP_CELU, 1, 1, { T(F32, 1, 300), T(F32, 1, 300) },
	  1, {}, { 2.0f } },
	{ "thresholded relu f32", DRM_VNPU_OP_THRESHOLDED_RELU, 1, 1,
	  { T(F32, 1, 300), T(F32, 1, 300) }, 1, {}, { 1.5f } },
	{ "shrink f32", DRM_VNPU_OP_SHRINK, 1, 1, { T(F32, 1, 300), T(F32, 1, 300) },
	  1, {}, { 1.5f, 0.5f } },
	{ "softsign f32", DRM_VNPU_OP_SOFTSIGN, 1, 1, { T(F32, 1, 300), T(F32, 1, 300) } },
	{ "hard sigmoid f32", DRM_VNPU_OP_HARD_SIGMOID, 1, 1,
	  { T(F32, 1, 300), T(F32, 1, 300) }, 1, {}, { 0.5f, 0.6f } },
	{ "hard swish f16", DRM_VNPU_OP_HARD_SWISH, 1, 1,
	  { TR(F16, -8, 8, 1, 300), T(F16, 1, 300) } },
	{ "prelu broadcast f32", DRM_VNPU_OP_PRELU, 2, 1,
	  { T(F32, 3, 2, 3, 40), T(F32, 2, 3, 1), T(F32, 3, 2, 3, 40) } },
	{ "prelu int32", DRM_VNPU_OP_PRELU, 2, 1,
	  { TR(I32, -100, 100, 2, 7, 9), TR(I32, -5, 5, 1, 9), T(I32, 2, 7, 9) } },
	{ "dropout training f32", DRM_VNPU_OP_DROPOUT, 3, 2,
	  { T(F32, 2, 7, 50), TR(F32, 0.2, 0.6, 0), TR(BOOL, 1, 2, 0), T(F32, 2, 7, 50),
	    T(BOOL, 2, 7, 50) }, 1, { 5 } },
	{ "cast f32 -> int32", DRM_VNPU_OP_CAST, 1, 1,
	  { TR(F32, -1000, 1000, 1, 300), T(I32, 1, 300) } },
	{ "cast int64 -> f16", DRM_VNPU_OP_CAST, 1, 1,
	  { TR(I64, -70000, 70000, 1, 300), T(F16, 1, 300) } },
	/* the storage-only dtypes, which only CAST takes */
	{ "cast f64 -> f16", DRM_VNPU_OP_CAST, 1, 1,
	  { TR(F64, -70000, 70000, 1, 300), T(F16, 1, 300) } },
	{ "cast f32 -> f64 transposed", DRM_VNPU_OP_CAST, 1, 1,
	  { TT(F32, 2, 9, 13), T(F64, 2, 9, 13) } },
	{ "cast f64 -> int16 wraps", DRM_VNPU_OP_CAST, 1, 1,
	  { TR(F64, -1e6, 1e6, 1, 300), T(I16, 1, 300) } },
	{ "cast uint64 -> bf16", DRM_VNPU_OP_CAST, 1, 1,
	  { TR(U64, -1e18, 1e18, 1, 300), T(BF16, 1, 300) } },
	{ "cast f32 -> uint32", DRM_VNPU_OP_CAST, 1, 1,
	  { TR(F32, -5e9, 5e9, 1, 300), T(U32, 1, 300) } },
	{ "cast uint16 -> f64", DRM_VNPU_OP_CAST, 1, 1,
	  { TR(U16, -1e5, 1e5, 1, 300), T(F64, 1, 300) } },
	{ "cast int16 -> uint64", DRM_VNPU_OP_CAST, 1, 1,
	  { TR(I16, -40000, 40000, 1, 300), T(U64, 1, 300) } },
	{ "cast f64 -> bool", DRM_VNPU_OP_CAST, 1, 1,
	  { TR(F64, -2, 2, 1, 300), T(BOOL, 1, 300) } },
	{ "reduce sum axes 0,2 keepdim", DRM_VNPU_OP_REDUCE_SUM, 1, 1,
	  { T(F32, 3, 6, 7, 8), T(F32, 3, 1, 7, 1) }, 1, { 5, 1 } },
	{ "argmax axis 1", DRM_VNPU_OP_ARGMAX, 1, 1,
	  { T(F32, 2, 9, 100), T(I64, 1, 9) }, 1, { 2, 0 } },
	{ "softmax last axis", DRM_VNPU_OP_SOFTMAX, 1, 1,
	  { T(F32, 2, 13, 257), T(F32, 2, 13, 257) }, 1, { 1 } },
	{ "layer norm", DRM_VNPU_OP_LAYER_NORM, 3, 1,
	  { T(F32, 2, 10, 64), T(F32, 1, 64), T(F32, 1, 64), T(F32, 2, 10, 64) },
	  1, { 1 }, { 1e-5f } },
	/*
	 * Rows split into chunks of 64 Ki elements run on several engines
	 * (lengths not multiples of the chunk): softmax, log-softmax, layer
	 * and RMS norm, sums, max, min and the arg forms to one value and to
	 * one value a row.
	 */
	{ "softmax long rows split f32", DRM_VNPU_OP_SOFTMAX, 1, 1,
	  { TR(F32, -20, 20, 2, 2, 196731), T(F32, 2, 2, 196731) } },
	{ "log softmax long row split f32", DRM_VNPU_OP_LOG_SOFTMAX, 1, 1,
	  { TR(F32, -20, 20, 2, 1, 131077), T(F32, 2, 1, 131077) }, 1, { -1 } },
	{ "layer norm long rows split", DRM_VNPU_OP_LAYER_NORM, 3, 1,
	  { TR(F32, 3, 9, 2, 2, 131149), T(F32, 1, 131149), T(F32, 1, 131149),
	    T(F32, 2, 2, 131149) }, 1, { 1 }, { 1e-5f } },
	{ "rms norm long row split", DRM_VNPU_OP_RMS_NORM, 2, 1,
	  { T(F32, 2, 1, 65537), T(F32, 1, 65537), T(F32, 2, 1, 65537) },
	  1, { 1 }, { 1e-6f } },
	{ "reduce sum long row to one value split", DRM_VNPU_OP_REDUCE_SUM, 1, 1,
	  { T(F32, 1, 327687), T(F32, 0) } },
	{ "reduce mean rows split keepdim", DRM_VNPU_OP_REDUCE_MEAN, 1, 1,
	  { T(F32, 2, 3, 65539), T(F32, 2, 3, 1) }, 1, { 2, 1 } },
	{ "reduce max long rows split keepdim", DRM_VNPU_OP_REDUCE_MAX, 1, 1,
	  { TR(F32, -50, 50, 2, 3, 131101), T(F32, 2, 3, 1) }, 1, { 2, 1 } },
	{ "reduce min long row to one value split", DRM_VNPU_OP_REDUCE_MIN, 1, 1,
	  { T(F32, 1, 200003), T(F32, 0) } },
	{ "argmax long rows split", DRM_VNPU_OP_ARGMAX, 1, 1,
	  { T(F32, 2, 2, 150001), T(I64, 1, 2) }, 1, { 2, 0 } },
	{ "argmin long rows split last index", DRM_VNPU_OP_ARGMIN, 1, 1,
	  { TR(F32, -3, 3, 2, 3, 70001), T(I64, 2, 3, 1) }, 1, { 2, 1, 1 } },
	{ "norm axes per channel with mean and 1/std", DRM_VNPU_OP_NORM_AXES, 3, 3,
	  { T(F32, 4, 2, 3, 5, 6), T(F32, 4, 1, 3, 1, 1), T(F32, 4, 1, 3, 1, 1),
	    T(F32, 4, 2, 3, 5, 6), T(F32, 4, 2, 3, 1, 1), T(F32, 4, 2, 3, 1, 1) },
	  1, { 12, 0 }, { 1e-5f } },
	{ "norm axes batch stats with variance", DRM_VNPU_OP_NORM_AXES, 1, 3,
	  { T(F32, 4, 2, 3, 4, 5), T(F32, 4, 2, 3, 4, 5), T(F32, 4, 1, 3, 1, 1),
	    T(F32, 4, 1, 3, 1, 1) },
	  1, { 13, 2 }, { 1e-5f } },
	{ "norm axes eps on std f16 transposed", DRM_VNPU_OP_NORM_AXES, 1, 1,
	  { TT(F16, 3, 4, 7, 9), T(F16, 3, 4, 7, 9) }, 1, { 5, 1 }, { 1e-9f } },
	{ "norm axes f64 rows", DRM_VNPU_OP_NORM_AXES, 1, 1,
	  { T(F64, 2, 6, 40), T(F64, 2, 6, 40) }, 1, { 2, 0 }, { 1e-5f } },
	{ "lrn size 3", DRM_VNPU_OP_LRN, 1, 1,
	  { T(F32, 4, 2, 5, 3, 4), T(F32, 4, 2, 5, 3, 4) }, 1, { 3 },
	  { 0.3f, 0.75f, 2.0f } },
	{ "nll loss mean weighted ignore", DRM_VNPU_OP_NLL_LOSS, 3, 1,
	  { TR(F32, -4, 0, 3, 3, 5, 4), TR(I64, 0, 5, 2, 3, 4), TR(F32, 0.5, 2, 1, 5),
	    T(F32, 0) }, 1, { 2, 1, 1 } },
	{ "nll loss none int32 target f16", DRM_VNPU_OP_NLL_LOSS, 2, 1,
	  { T(F16, 3, 4, 6, 7), TR(I32, -1, 6, 2, 4, 7), T(F16, 2, 4, 7) },
	  1, { 0, -1, 1 } },
	{ "matmul batched", DRM_VNPU_OP_MATMUL, 2, 1,
	  { T(F32, 3, 3, 17, 33), T(F32, 2, 33, 29), T(F32, 3, 3, 17, 29) } },
	{ "gemm transposed b with bias", DRM_VNPU_OP_GEMM, 3, 1,
	  { T(F32, 2, 40, 70), T(F32, 2, 50, 70), T(F32, 1, 50), T(F32, 2, 40, 50) },
	  1, { 0, 1 }, { 1.0f, 1.0f } },
	{ "conv2d 3x3 pad 1", DRM_VNPU_OP_CONV2D, 3, 1,
	  { T(F32, 4, 1, 8, 12, 12), T(F32, 4, 16, 8, 3, 3), T(F32, 1, 16),
	    T(F32, 4, 1, 16, 12, 12) },
	  1, { 1, 1, 1, 1, 1, 1, 1, 1, 1 } },
	/* Depths of whole 16-step groups: the kernel calls pack A and B. */
	{ "matmul packed by the kernel calls", DRM_VNPU_OP_MATMUL, 2, 1,
	  { T(F32, 2, 45, 272), T(F32, 2, 272, 64), T(F32, 2, 45, 64) } },
	{ "conv2d 3x3 16 channels", DRM_VNPU_OP_CONV2D, 3, 1,
	  { T(F32, 4, 1, 16, 10, 10), T(F32, 4, 24, 16, 3, 3), T(F32, 1, 24),
	    T(F32, 4, 1, 24, 10, 10) },
	  1, { 1, 1, 1, 1, 1, 1, 1, 1, 1 } },
	{ "max pool 2x2", DRM_VNPU_OP_MAX_POOL2D, 1, 1,
	  { T(F32, 4, 2, 3, 10, 10), T(F32, 4, 2, 3, 5, 5) },
	  1, { 2, 2, 2, 2, 0, 0, 0, 0, 1, 1 } },
	{ "strided copy transpose", DRM_VNPU_OP_STRIDED_COPY, 1, 1,
	  { TT(F32, 2, 33, 65), T(F32, 2, 33, 65) } },
	{ "concat axis 1", DRM_VNPU_OP_CONCAT, 2, 1,
	  { T(I32, 2, 4, 5), T(I32, 2, 4, 7), T(I32, 2, 4, 12) }, 1, { 1 } },
	{ "where", DRM_VNPU_OP_WHERE, 3, 1,
	  { TR(BOOL, 0, 2, 2, 6, 9), T(F32, 2, 6, 9), T(F32, 1, 9), T(F32, 2, 6, 9) } },
	{ "sort descending", DRM_VNPU_OP_SORT, 1, 2,
	  { T(F32, 2, 5, 100), T(F32, 2, 5, 100), T(I64, 2, 5, 100) }, 1, { 1, 1 } },
	/*
	 * SORT and TOPK along axes longer than 64 Ki, split into chunks
	 * across engines (ties: integers from a narrow range).
	 */
	{ "sort long rows split f32", DRM_VNPU_OP_SORT, 1, 2,
	  { T(F32, 2, 2, 131101), T(F32, 2, 2, 131101), T(I64, 2, 2, 131101) },
	  1, { 1, 0 } },
	{ "sort long row split int32 descending ties", DRM_VNPU_OP_SORT, 1, 2,
	  { TR(I32, -50, 50, 1, 200003), T(I32, 1, 200003), T(I64, 1, 200003) },
	  1, { 0, 1 } },
	{ "topk long rows split largest f32", DRM_VNPU_OP_TOPK, 1, 2,
	  { T(F32, 2, 2, 196613), T(F32, 2, 2, 300), T(I64, 2, 2, 300) },
	  1, { 1, 0, 1, 1 } },
	{ "topk long row split smallest int32 ties", DRM_VNPU_OP_TOPK, 1, 2,
	  { TR(I32, -20, 20, 1, 131075), T(I32, 1, 1000), T(I64, 1, 1000) },
	  1, { 0, 0, 0, 1 } },
	{ "resize bilinear", DRM_VNPU_OP_RESIZE, 1, 1,
	  { T(F32, 4, 1, 2, 7, 9), T(F32, 4, 1, 2, 14, 18) }, 1, { 1, 0 } },
	{ "pow f32", DRM_VNPU_OP_POW, 2, 1,
	  { TR(F32, 0.5, 3, 1, 257), TR(F32, -2, 2, 1, 257), T(F32, 1, 257) } },
	{ "minimum f16", DRM_VNPU_OP_MINIMUM, 2, 1,
	  { T(F16, 2, 3, 40), T(F16, 2, 3, 40), T(F16, 2, 3, 40) } },
	{ "eq int32", DRM_VNPU_OP_EQ, 2, 1,
	  { TR(I32, -3, 3, 1, 99), TR(I32, -3, 3, 1, 99), T(BOOL, 1, 99) } },
	{ "ne int32", DRM_VNPU_OP_NE, 2, 1,
	  { TR(I32, -3, 3, 1, 99), TR(I32, -3, 3, 1, 99), T(BOOL, 1, 99) } },
	{ "le int64", DRM_VNPU_OP_LE, 2, 1,
	  { TR(I64, -3, 3, 1, 99), TR(I64, -3, 3, 1, 99), T(BOOL, 1, 99) } },
	{ "gt uint8", DRM_VNPU_OP_GT, 2, 1,
	  { TR(U8, 0, 5, 1, 99), TR(U8, 0, 5, 1, 99), T(BOOL, 1, 99) } },
	{ "ge f32", DRM_VNPU_OP_GE, 2, 1,
	  { T(F32, 1, 99), T(F32, 1, 99), T(BOOL, 1, 99) } },
	{ "logical and", DRM_VNPU_OP_LOGICAL_AND, 2, 1,
	  { TR(BOOL, 0, 2, 1, 64), TR(BOOL, 0, 2, 1, 64), T(BOOL, 1, 64) } },
	{ "logical or", DRM_VNPU_OP_LOGICAL_OR, 2, 1,
	  { TR(BOOL, 0, 2, 1, 64), TR(BOOL, 0, 2, 1, 64), T(BOOL, 1, 64) } },
	{ "logical xor", DRM_VNPU_OP_LOGICAL_XOR, 2, 1,
	  { TR(BOOL, 0, 2, 1, 64), TR(BOOL, 0, 2, 1, 64), T(BOOL, 1, 64) } },
	{ "abs int32", DRM_VNPU_OP_ABS, 1, 1, { TR(I32, -99, 99, 1, 77), T(I32, 1, 77) } },
	{ "neg f32", DRM_VNPU_OP_NEG, 1, 1, { T(F32, 1, 77), T(F32, 1, 77) } },
	{ "log f32", DRM_VNPU_OP_LOG, 1, 1, { TR(F32, 0.1, 10, 1, 333), T(F32, 1, 333) } },
	{ "sqrt f16", DRM_VNPU_OP_SQRT, 1, 1, { TR(F16, 0, 10, 1, 333), T(F16, 1, 333) } },
	{ "rsqrt f32", DRM_VNPU_OP_RSQRT, 1, 1, { TR(F32, 0.1, 10, 1, 333), T(F32, 1, 333) } },
	{ "reciprocal f32", DRM_VNPU_OP_RECIPROCAL, 1, 1,
	  { TR(F32, 0.5, 4, 1, 333), T(F32, 1, 333) } },
	{ "sin f32", DRM_VNPU_OP_SIN, 1, 1, { TR(F32, -100, 100, 1, 333), T(F32, 1, 333) } },
	{ "cos f32", DRM_VNPU_OP_COS, 1, 1, { TR(F32, -100, 100, 1, 333), T(F32, 1, 333) } },
	{ "erf f32", DRM_VNPU_OP_ERF, 1, 1, { T(F32, 1, 333), T(F32, 1, 333) } },
	{ "relu bf16", DRM_VNPU_OP_RELU, 1, 1, { T(BF16, 1, 333), T(BF16, 1, 333) } },
	{ "leaky relu", DRM_VNPU_OP_LEAKY_RELU, 1, 1,
	  { T(F32, 1, 333), T(F32, 1, 333) }, 1, {}, { 0.1f } },
	{ "gelu erf", DRM_VNPU_OP_GELU, 1, 1, { T(F32, 1, 333), T(F32, 1, 333) } },
	{ "silu f32", DRM_VNPU_OP_SILU, 1, 1, { T(F32, 1, 1025), T(F32, 1, 1025) } },
	{ "tanh f32", DRM_VNPU_OP_TANH, 1, 1, { T(F32, 1, 333), T(F32, 1, 333) } },
	{ "softplus f32", DRM_VNPU_OP_SOFTPLUS, 1, 1, { T(F32, 1, 333), T(F32, 1, 333) } },
	{ "clamp f32", DRM_VNPU_OP_CLAMP, 1, 1,
	  { T(F32, 1, 333), T(F32, 1, 333) }, 1, { 3 }, { -1.0f, 1.0f } },
	{ "floor f32", DRM_VNPU_OP_FLOOR, 1, 1, { T(F32, 1, 333), T(F32, 1, 333) } },
	{ "ceil f32", DRM_VNPU_OP_CEIL, 1, 1, { T(F32, 1, 333), T(F32, 1, 333) } },
	{ "round f32", DRM_VNPU_OP_ROUND, 1, 1, { T(F32, 1, 333), T(F32, 1, 333) } },
	{ "sign int8", DRM_VNPU_OP_SIGN, 1, 1, { TR(I8, -5, 5, 1, 333), T(I8, 1, 333) } },
	{ "logical not", DRM_VNPU_OP_LOGICAL_NOT, 1, 1,
	  { TR(I32, -1, 2, 1, 64), T(BOOL, 1, 64) } },
	{ "isnan f32", DRM_VNPU_OP_ISNAN, 1, 1, { T(F32, 1, 64), T(BOOL, 1, 64) } },
	{ "reduce mean axis 1", DRM_VNPU_OP_REDUCE_MEAN, 1, 1,
	  { T(F32, 3, 4, 5, 6), T(F32, 2, 4, 6) }, 1, { 2, 0 } },
	{ "reduce max int8", DRM_VNPU_OP_REDUCE_MAX, 1, 1,
	  { TR(I8, -100, 100, 2, 3, 4), T(I8, 1, 4) }, 1, { 1, 0 } },
	{ "reduce min bf16 keepdim", DRM_VNPU_OP_REDUCE_MIN, 1, 1,
	  { T(BF16, 2, 3, 4), T(BF16, 2, 1, 1) }, 1, { 3, 1 } },
	{ "reduce prod", DRM_VNPU_OP_REDUCE_PROD, 1, 1,
	  { TR(F32, 0.9, 1.1, 2, 8, 3), T(F32, 1, 3) }, 1, { 1, 0 } },
	{ "argmin axis 0", DRM_VNPU_OP_ARGMIN, 1, 1,
	  { T(F32, 2, 6, 7), T(I64, 1, 7) }, 1, { 1, 0 } },
	{ "argmax last index int8", DRM_VNPU_OP_ARGMAX, 1, 1,
	  { TR(I8, -3, 3, 2, 6, 40), T(I64, 2, 6, 1) }, 1, { 2, 1, 1 } },
	{ "reduce l1 transposed", DRM_VNPU_OP_REDUCE_L1, 1, 1,
	  { TT(F32, 2, 12, 9), T(F32, 1, 12) }, 1, { 2, 0 } },
	{ "reduce l2 f16", DRM_VNPU_OP_REDUCE_L2, 1, 1,
	  { T(F16, 3, 4, 5, 6), T(F16, 2, 4, 6) }, 1, { 2, 0 } },
	{ "reduce log sum", DRM_VNPU_OP_REDUCE_LOG_SUM, 1, 1,
	  { TR(F32, 0.1, 4, 2, 7, 33), T(F32, 1, 7) }, 1, { 2, 0 } },
	{ "reduce log sum exp all", DRM_VNPU_OP_REDUCE_LOG_SUM_EXP, 1, 1,
	  { TR(F32, -80, 80, 2, 30, 31), T(F32, 0) } },
	{ "reduce sum square int32", DRM_VNPU_OP_REDUCE_SUM_SQUARE, 1, 1,
	  { TR(I32, -100, 100, 2, 9, 10), T(I32, 2, 1, 10) }, 1, { 1, 1 } },
	{ "cumsum reverse exclusive", DRM_VNPU_OP_CUMSUM, 1, 1,
	  { TT(F32, 2, 20, 300), T(F32, 2, 20, 300) }, 1, { 1, 1, 1 } },
	{ "cumsum int64 axis 0", DRM_VNPU_OP_CUMSUM, 1, 1,
	  { TR(I64, -1000, 1000, 2, 50, 3), T(I64, 2, 50, 3) }, 1, { 0, 0, 0 } },
	{ "trilu upper k -1", DRM_VNPU_OP_TRILU, 1, 1,
	  { T(BF16, 3, 2, 7, 9), T(BF16, 3, 2, 7, 9) }, 1, { 1, -1 } },
	{ "trilu lower k 2 transposed", DRM_VNPU_OP_TRILU, 1, 1,
	  { TT(I32, 2, 6, 5), T(I32, 2, 6, 5) }, 1, { 0, 2 } },
	{ "tri solve upper f32", DRM_VNPU_OP_TRI_SOLVE, 2, 1,
	  { TR(F32, 1, 2, 3, 2, 9, 9), T(F32, 3, 2, 9, 4), T(F32, 3, 2, 9, 4) }, 1, { 1, 0 } },
	{ "tri solve lower unit f64 transposed b", DRM_VNPU_OP_TRI_SOLVE, 2, 1,
	  { TR(F64, 0.5, 1, 2, 7, 7), TT(F64, 2, 7, 5), T(F64, 2, 7, 5) }, 1, { 0, 1 } },
	{ "hardmax axis 1", DRM_VNPU_OP_HARDMAX, 1, 1,
	  { TR(F32, 0, 3, 3, 4, 9, 5), T(F32, 3, 4, 9, 5) }, 1, { 1 } },
	{ "log softmax axis 0", DRM_VNPU_OP_LOG_SOFTMAX, 1, 1,
	  { T(F32, 2, 9, 4), T(F32, 2, 9, 4) }, 1, { 0 } },
	{ "rms norm", DRM_VNPU_OP_RMS_NORM, 2, 1,
	  { T(F32, 2, 5, 32), T(F32, 1, 32), T(F32, 2, 5, 32) }, 1, { 1 }, { 1e-6f } },
	{ "batch norm", DRM_VNPU_OP_BATCH_NORM, 5, 1,
	  { T(F32, 4, 2, 3, 4, 4), T(F32, 1, 3), TR(F32, 0.5, 2, 1, 3), T(F32, 1, 3),
	    T(F32, 1, 3), T(F32, 4, 2, 3, 4, 4) }, 1, {}, { 1e-5f } },
	{ "group norm", DRM_VNPU_OP_GROUP_NORM, 3, 1,
	  { T(F32, 4, 2, 6, 3, 3), T(F32, 1, 6), T(F32, 1, 6), T(F32, 4, 2, 6, 3, 3) },
	  1, { 3 }, { 1e-5f } },
	{ "conv1d", DRM_VNPU_OP_CONV1D, 2, 1,
	  { T(F32, 3, 1, 4, 20), T(F32, 3, 6, 4, 3), T(F32, 3, 1, 6, 18) },
	  1, { 1, 0, 0, 0, 0, 0, 1, 0, 1 } },
	{ "conv transpose2d stride 2", DRM_VNPU_OP_CONV_TRANSPOSE2D, 2, 1,
	  { T(F32, 4, 1, 4, 5, 5), T(F32, 4, 4, 3, 3, 3), T(F32, 4, 1, 3, 11, 11) },
	  1, { 2, 2, 0, 0, 0, 0, 1, 1, 1, 0, 0 } },
	{ "avg pool 3x3 s2 p1", DRM_VNPU_OP_AVG_POOL2D, 1, 1,
	  { T(F32, 4, 1, 2, 7, 7), T(F32, 4, 1, 2, 4, 4) },
	  1, { 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0, 1 } },
	{ "global avg pool", DRM_VNPU_OP_GLOBAL_AVG_POOL, 1, 1,
	  { T(F32, 4, 2, 3, 5, 5), T(F32, 4, 2, 3, 1, 1) } },
	{ "global max pool", DRM_VNPU_OP_GLOBAL_MAX_POOL, 1, 1,
	  { T(F32, 4, 2, 3, 5, 5), T(F32, 2, 2, 3) } },
	{ "adaptive avg pool", DRM_VNPU_OP_ADAPTIVE_AVG_POOL2D, 1, 1,
	  { T(F32, 4, 1, 2, 9, 7), T(F32, 4, 1, 2, 4, 3) } },
	{ "split axis 1", DRM_VNPU_OP_SPLIT, 1, 2,
	  { T(F32, 2, 4, 10), T(F32, 2, 4, 3), T(F32, 2, 4, 7) }, 1, { 1 } },
	{ "slice with steps", DRM_VNPU_OP_SLICE, 1, 1,
	  { T(I64, 2, 10, 12), T(I64, 2, 4, 4) },
	  1, { 1, 2, 0, 0, 0, 0, 0, 0, 2, 3, 1, 1, 1, 1, 1, 1 } },
	{ "gather axis 1", DRM_VNPU_OP_GATHER, 2, 1,
	  { T(F32, 2, 5, 6), TR(I64, 0, 6, 2, 5, 4), T(F32, 2, 5, 4) }, 1, { 1 } },
	{ "scatter axis 1", DRM_VNPU_OP_SCATTER, 3, 1,
	  { T(F32, 2, 5, 6), TR(I64, 0, 6, 2, 5, 3), T(F32, 2, 5, 3), T(F32, 2, 5, 6) },
	  1, { 1 } },
	{ "index select", DRM_VNPU_OP_INDEX_SELECT, 2, 1,
	  { T(F16, 2, 7, 5), TR(I32, 0, 7, 1, 4), T(F16, 2, 4, 5) }, 1, { 0 } },
	{ "pad constant", DRM_VNPU_OP_PAD, 1, 1,
	  { T(F32, 2, 3, 4), T(F32, 2, 6, 7) },
	  1, { 1, 2, 0, 3 }, { 0.5f } },
	{ "tile", DRM_VNPU_OP_TILE, 1, 1, { T(U8, 2, 2, 3), T(U8, 2, 4, 9) } },
	{ "one hot", DRM_VNPU_OP_ONE_HOT, 1, 1,
	  { TR(I64, 0, 4, 1, 5), T(F32, 2, 5, 4) } },
	{ "arange f32", DRM_VNPU_OP_ARANGE, 0, 1, { T(F32, 1, 50) }, 1, {}, { 1.5f, 0.25f } },
	{ "fill int32", DRM_VNPU_OP_FILL, 0, 1, { T(I32, 1, 33) }, 1, { 7 } },
	{ "topk largest", DRM_VNPU_OP_TOPK, 1, 2,
	  { T(F32, 2, 4, 50), T(F32, 2, 4, 5), T(I64, 2, 4, 5) }, 1, { 1, 0, 1, 1 } },
	{ "resize nearest", DRM_VNPU_OP_RESIZE, 1, 1,
	  { T(F32, 4, 1, 1, 5, 5), T(F32, 4, 1, 1, 10, 8) }, 1, { 0, 0 } },
	/* the wider dtypes and the integer operators */
	{ "add f64 broadcast", DRM_VNPU_OP_ADD, 2, 1,
	  { T(F64, 2, 3, 50), T(F64, 1, 50), T(F64, 2, 3, 50) } },
	{ "div f64 transposed", DRM_VNPU_OP_DIV, 2, 1,
	  { TT(F64, 2, 9, 13), TR(F64, 0.5, 3, 2, 9, 13), T(F64, 2, 9, 13) } },
	{ "mul int16 wraps", DRM_VNPU_OP_MUL, 2, 1,
	  { TR(I16, -3e4, 3e4, 1, 300), TR(I16, -300, 300, 1, 300), T(I16, 1, 300) } },
	{ "sub uint16", DRM_VNPU_OP_SUB, 2, 1,
	  { TR(U16, 0, 6e4, 1, 300), TR(U16, 0, 6e4, 1, 300), T(U16, 1, 300) } },
	{ "maximum uint64 above 2^63", DRM_VNPU_OP_MAXIMUM, 2, 1,
	  { TR(U64, -1e18, 1e18, 1, 300), TR(U64, -1e18, 1e18, 1, 300), T(U64, 1, 300) } },
	{ "lt uint64", DRM_VNPU_OP_LT, 2, 1,
	  { TR(U64, -1e18, 1e18, 1, 300), TR(U64, -1e18, 1e18, 1, 300), T(BOOL, 1, 300) } },
	{ "ge uint32", DRM_VNPU_OP_GE, 2, 1,
	  { TR(U32, -5, 5, 1, 99), TR(U32, -5, 5, 1, 99), T(BOOL, 1, 99) } },
	{ "mod int32", DRM_VNPU_OP_MOD, 2, 1,
	  { TR(I32, -100, 100, 1, 300), TR(I32, -9, 9, 1, 300), T(I32, 1, 300) } },
	{ "mod fmod f32", DRM_VNPU_OP_MOD, 2, 1,
	  { TR(F32, -100, 100, 1, 300), TR(F32, -9, 9, 1, 300), T(F32, 1, 300) }, 1, { 1 } },
	{ "mod f64", DRM_VNPU_OP_MOD, 2, 1,
	  { TR(F64, -1e10, 1e10, 1, 300), TR(F64, -9, 9, 1, 300), T(F64, 1, 300) } },
	{ "bitshift right uint64", DRM_VNPU_OP_BITSHIFT, 2, 1,
	  { TR(U64, -1e18, 1e18, 1, 300), TR(U64, 0, 70, 1, 300), T(U64, 1, 300) }, 1, { 1 } },
	{ "bitshift left uint8", DRM_VNPU_OP_BITSHIFT, 2, 1,
	  { TR(U8, 0, 255, 1, 300), TR(U8, 0, 9, 1, 300), T(U8, 1, 300) } },
	{ "bitwise xor int16", DRM_VNPU_OP_BITWISE_XOR, 2, 1,
	  { TR(I16, -3e4, 3e4, 2, 3, 40), TR(I16, -3e4, 3e4, 1, 40), T(I16, 2, 3, 40) } },
	{ "bitwise not uint32", DRM_VNPU_OP_BITWISE_NOT, 1, 1,
	  { TR(U32, 0, 4e9, 1, 99), T(U32, 1, 99) } },
	{ "isinf f32 positive", DRM_VNPU_OP_ISINF, 1, 1,
	  { TR(F32, -1e39, 1e39, 1, 99), T(BOOL, 1, 99) }, 1, { 1 } },
	{ "sqrt f64", DRM_VNPU_OP_SQRT, 1, 1, { TR(F64, 0, 1e6, 1, 333), T(F64, 1, 333) } },
	{ "neg int16", DRM_VNPU_OP_NEG, 1, 1, { TR(I16, -3e4, 3e4, 1, 99), T(I16, 1, 99) } },
	{ "reduce max uint64", DRM_VNPU_OP_REDUCE_MAX, 1, 1,
	  { TR(U64, -1e18, 1e18, 2, 5, 30), T(U64, 1, 5) }, 1, { 2, 0 } },
	{ "reduce sum f64", DRM_VNPU_OP_REDUCE_SUM, 1, 1,
	  { T(F64, 2, 5, 30), T(F64, 1, 5) }, 1, { 2, 0 } },
	{ "sort uint16", DRM_VNPU_OP_SORT, 1, 2,
	  { TR(U16, 0, 6e4, 2, 5, 40), T(U16, 2, 5, 40), T(I64, 2, 5, 40) }, 1, { 1, 0 } },
	{ "where f64", DRM_VNPU_OP_WHERE, 3, 1,
	  { TR(BOOL, 0, 2, 2, 6, 9), T(F64, 2, 6, 9), T(F64, 1, 9), T(F64, 2, 6, 9) } },
	{ "slice negative steps", DRM_VNPU_OP_SLICE, 1, 1,
	  { TT(I64, 2, 10, 12), T(I64, 2, 4, 4) },
	  1, { 9, 11, 0, 0, 0, 0, 0, 0, -2, -3, 1, 1, 1, 1, 1, 1 } },
	{ "scatter add", DRM_VNPU_OP_SCATTER, 3, 1,
	  { T(F32, 2, 5, 6), TR(I64, -6, 6, 2, 5, 3), T(F32, 2, 5, 3), T(F32, 2, 5, 6) },
	  1, { 1, 1 } },
	{ "one hot off on", DRM_VNPU_OP_ONE_HOT, 3, 1,
	  { TR(I64, -4, 4, 1, 5), T(F32, 1, 2), T(F32, 1, 1), T(F32, 2, 5, 4) } },
	{ "gather nd", DRM_VNPU_OP_GATHER_ND, 2, 1,
	  { TT(BF16, 3, 3, 4, 5), TR(I32, -3, 3, 3, 2, 3, 2), T(BF16, 3, 2, 3, 5) } },
	{ "gather nd batch", DRM_VNPU_OP_GATHER_ND, 2, 1,
	  { T(I8, 3, 2, 4, 3), TR(I64, -4, 4, 3, 2, 5, 1), T(I8, 3, 2, 5, 3) }, 1, { 1 } },
	{ "scatter nd add", DRM_VNPU_OP_SCATTER_ND, 3, 1,
	  { TT(F32, 2, 5, 6), TR(I64, -5, 5, 2, 4, 1), T(F32, 2, 4, 6), T(F32, 2, 5, 6) },
	  1, { 1 } },
	{ "scatter nd mul int32", DRM_VNPU_OP_SCATTER_ND, 3, 1,
	  { T(I32, 3, 3, 4, 2), TR(I32, -3, 3, 2, 6, 2), T(I32, 2, 6, 2), T(I32, 3, 3, 4, 2) },
	  1, { 2 } },
	{ "reverse sequence", DRM_VNPU_OP_REVERSE_SEQUENCE, 2, 1,
	  { TT(F16, 2, 4, 6), TR(I32, 0, 5, 1, 6), T(F16, 2, 4, 6) }, 1, { 1, 0 } },
	{ "pool nd 3-D max with indices", DRM_VNPU_OP_POOL_ND, 1, 2,
	  { T(F32, 5, 1, 2, 5, 6, 7), T(F32, 5, 1, 2, 2, 2, 3), T(I64, 5, 1, 2, 2, 2, 3) },
	  1, { 0, 0, 0, 0, 2, 3, 2, 2, 2, 3, 0, 0, 1, 0, 2, 1, 1, 2, 1 } },
	{ "pool nd 1-D avg incl pad", DRM_VNPU_OP_POOL_ND, 1, 1,
	  { T(F16, 3, 2, 3, 9), T(F16, 3, 2, 3, 5) },
	  1, { 1, 1, 0, 0, 3, 0, 0, 2, 0, 0, 1, 0, 0, 1, 0, 0, 1 } },
	{ "conv nd 3-D groups", DRM_VNPU_OP_CONV_ND, 3, 1,
	  { T(F32, 5, 1, 4, 4, 5, 6), T(F32, 5, 6, 2, 2, 3, 2), T(F32, 1, 6),
	    T(F32, 5, 1, 6, 3, 3, 3) },
	  1, { 1, 2, 2, 2, 1, 1, 1, 0, 1, 0, 2, 0, 0, 2 } },
	{ "conv transpose nd 1-D", DRM_VNPU_OP_CONV_TRANSPOSE_ND, 2, 1,
	  { T(F32, 3, 1, 2, 4), T(F32, 3, 2, 3, 3), T(F32, 3, 1, 3, 9) },
	  1, { 2, 0, 0, 2, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1 } },
	{ "conv nd integer", DRM_VNPU_OP_CONV_ND, 2, 1,
	  { TR(U8, 0, 255, 4, 1, 1, 5, 5), TR(I8, -100, 100, 4, 2, 1, 2, 2),
	    T(I32, 4, 1, 2, 4, 4) },
	  1, { 1, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1 } },
	{ "resize nd cubic", DRM_VNPU_OP_RESIZE_ND, 1, 1,
	  { T(F32, 4, 1, 2, 4, 5), T(F32, 4, 1, 2, 7, 9) }, 1, { 2, 0 }, { -0.75f } },
	{ "resize nd linear align corners", DRM_VNPU_OP_RESIZE_ND, 1, 1,
	  { T(F32, 3, 2, 6, 5), T(F32, 3, 2, 4, 11) }, 1, { 1, 2 } },
	{ "quantize per tensor", DRM_VNPU_OP_QUANTIZE_LINEAR, 3, 1,
	  { T(F32, 2, 3, 5), TR(F32, 0.01, 0.05, 1, 1), TR(I8, -20, 20, 1, 1),
	    T(I8, 2, 3, 5) } },
	{ "dequantize per axis", DRM_VNPU_OP_DEQUANTIZE_LINEAR, 3, 1,
	  { TR(U8, 0, 255, 2, 3, 5), TR(F32, 0.1, 1, 1, 5), TR(U8, 0, 255, 1, 5),
	    T(F32, 2, 3, 5) }, 1, { 1 } },
	{ "dynamic quantize", DRM_VNPU_OP_DYNAMIC_QUANTIZE_LINEAR, 1, 3,
	  { T(F32, 1, 40), T(U8, 1, 40), T(F32, 0), T(U8, 0) } },
	{ "matmul int batched", DRM_VNPU_OP_MATMUL_INT, 2, 1,
	  { TR(U8, 0, 255, 3, 2, 5, 7), TR(I8, -128, 127, 2, 7, 3), T(I32, 3, 2, 5, 3) } },
	{ "max unpool", DRM_VNPU_OP_MAX_UNPOOL, 2, 1,
	  { T(F32, 4, 1, 2, 3, 3), TR(I64, 0, 72, 4, 1, 2, 3, 3), T(F32, 4, 1, 2, 6, 6) } },
	{ "grid sample bicubic reflection", DRM_VNPU_OP_GRID_SAMPLE, 2, 1,
	  { T(F32, 4, 1, 2, 4, 5), TR(F32, -1.3, 1.3, 4, 1, 3, 6, 2), T(F32, 4, 1, 2, 3, 6) },
	  1, { 2, 2, 0 } },
	{ "roi align adaptive grid", DRM_VNPU_OP_ROI_ALIGN, 3, 1,
	  { T(F32, 4, 2, 3, 8, 9), TR(F32, 0, 9, 2, 5, 4), TR(I64, 0, 2, 1, 5),
	    T(F32, 4, 5, 3, 3, 2) }, 1, { 0, 0, 1 }, { 0.75f } },
	/* the media operators (UAPI 1.7): pictures as byte buffers */
	{ "vpc nv12 to rgb bilinear", DRM_VNPU_OP_VPC, 1, 1,
	  { TR(U8, 0, 255, 1, 192), T(U8, 1, 96) },
	  1, { 1, 16, 8, 16, 8, 12, 8, 4, 24, 4, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1 } },
	{ "vpc nv12 crop to nv21 bicubic paste", DRM_VNPU_OP_VPC, 1, 1,
	  { TR(U8, 0, 255, 1, 2304), TR(U8, 0, 255, 1, 900) },
	  1, { 1, 48, 32, 48, 32, 2, 30, 20, 30, 20, 4, 2, 40, 28, 6, 4, 20, 12, 0 } },
	{ "vpc bgra to nv12 downscale", DRM_VNPU_OP_VPC, 1, 1,
	  { TR(U8, 0, 255, 1, 100 * 30 * 4), T(U8, 1, 512 * 12 * 3 / 2) },
	  1, { 17, 100, 30, 400, 30, 1, 32, 12, 512, 12, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3 } },
	{ "vpc pyrdown", DRM_VNPU_OP_VPC, 1, 1,
	  { TR(U8, 0, 255, 1, 33 * 17), T(U8, 1, 17 * 9) },
	  1, { 0, 33, 17, 33, 17, 0, 17, 9, 17, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 } },
	{ "vpc make border reflect", DRM_VNPU_OP_VPC, 1, 1,
	  { TR(U8, 0, 255, 1, 7 * 5 * 3), T(U8, 1, 20 * 11 * 3) },
	  1, { 12, 7, 5, 21, 5, 12, 20, 11, 60, 11, 0, 0, 0, 0, 9, 3, 7, 5, 0, 0, 2, 2 } },
	/* issue 36: INT4 weight in ggml's layout, groups of 32; MoE groups */
	{ "wq matmul int4 groups transposed", DRM_VNPU_OP_WQ_MATMUL, 4, 1,
	  { T(F16, 2, 3, 64), TT(I8, 2, 32, 5), TR(F16, 0.01, 0.1, 2, 2, 5), T(F16, 1, 5),
	    T(F16, 2, 3, 5) }, 1, { 32, 1, 0, 1 } },
	{ "grouped matmul counts", DRM_VNPU_OP_GROUPED_MATMUL, 4, 1,
	  { T(F32, 2, 7, 6), T(F32, 3, 3, 6, 4), TR(I64, 0, 3, 1, 3), T(F32, 2, 3, 4),
	    T(F32, 2, 7, 4) }, 1, { 1, 1 } },
};

struct dev {
	int fd;
	struct drm_vnpu_queue_create q;
};

/* Contiguous (or last-two-transposed) view of a descriptor. */
static void make_view(const struct tdesc *d, struct vnpu_tview *v)
{
	s64 stride = 1;
	int i;

	memset(v, 0, sizeof(*v));
	v->dtype = d->dtype;
	v->rank = d->rank;
	for (i = (int)d->rank - 1; i >= 0; i--) {
		v->shape[i] = d->shape[i];
		v->strides[i] = stride;
		stride *= d->shape[i];
	}
	if (d->transposed && d->rank >= 2) {
		/* Lay the last two dims out column-major instead. */
		s64 r = d->shape[d->rank - 2], c = d->shape[d->rank - 1];

		v->strides[d->rank - 1] = r;
		v->strides[d->rank - 2] = 1;
		for (i = (int)d->rank - 3; i >= 0; i--)
			v->strides[i] = v->strides[i + 1] * (i + 1 == (int)d->rank - 2 ?
							   r * c : v->shape[i + 1]);
	}
}

static size_t view_bytes(const struct vnpu_tview *v)
{
	s64 last = vnpu_tview_last(v);

	return (size_t)(last + 1) * vnpu_dtype_size(v->dtype);
}

static void fill_view(const struct tdesc *d, struct vnpu_tview *v, u64 seed)
{
	u64 n = vnpu_tview_elems(v), i, x = seed * 0x9e3779b97f4a7c15ull + 1;
	s64 idx[VNPU_OPS_MAX_RANK] = { 0 };

	for (i = 0; i < n; i++) {
		s64 off = 0;
		double r;
		int k;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		r = d->lo + (d->hi - d->lo) * (double)(x >> 11) / 9007199254740992.0;
		for (k = 0; k < (int)v->rank; k++)
			off += idx[k] * v->strides[k];
		if (vnpu_dtype_is_float(v->dtype) || v->dtype == F64)
			vnpu_store_f64(v->data, v->dtype, off, r);
		else
			vnpu_store_s64(v->data, v->dtype, off, (s64)__builtin_floor(r));
		for (k = (int)v->rank - 1; k >= 0; k--) {
			if (++idx[k] < v->shape[k])
				break;
			idx[k] = 0;
		}
	}
}

static uint64_t bo(int fd, size_t size)
{
	struct drm_vnpu_bo_create c = { .size = size ? size : 1 };

	if (ioctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &c))
		return 0;
	return c.va;
}

static int memcpy_dev(int fd, uint64_t dst, uint64_t src, size_t n, uint32_t flags)
{
	struct drm_vnpu_memcpy m = { .dst = dst, .src = src, .size = n, .flags = flags };

	return n ? ioctl(fd, DRM_IOCTL_VNPU_MEMCPY, &m) : 0;
}

static int wait_job(struct dev *d, uint64_t seq)
{
	struct drm_syncobj_timeline_wait w = { 0 };
	struct timespec ts;
	uint32_t h = d->q.syncobj;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	w.handles = (uintptr_t)&h;
	w.points = (uintptr_t)&seq;
	w.count_handles = 1;
	w.timeout_nsec = (ts.tv_sec + 60) * 1000000000LL + ts.tv_nsec;
	w.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
	return ioctl(d->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w) ? -errno : 0;
}

/*
 * Submit one KERNEL task; returns the SUBMIT errno, the job state in
 * @state and, unless NULL, the job's errno in @error.
 */
static int run_kernel_err(struct dev *d, u32 op, u32 nin, u32 nout,
			  const struct vnpu_tview *v, const uint64_t *va,
			  const struct drm_vnpu_op_attrs *attrs, u32 *state,
			  int *error)
{
	size_t asz = sizeof(struct drm_vnpu_kernel_args) +
		     (nin + nout) * sizeof(struct drm_vnpu_tensor) +
		     (attrs ? sizeof(*attrs) : 0);
	size_t padded = (asz + 7) & ~(size_t)7;
	struct drm_vnpu_kernel_args *ka = calloc(1, padded);
	struct drm_vnpu_task task = { .type = DRM_VNPU_TASK_KERNEL };
	struct drm_vnpu_submit s = { .queue_id = d->q.queue_id };
	struct drm_vnpu_job_status st = { .queue_id = d->q.queue_id };
	u32 i;
	int ret;

	ka->num_inputs = nin;
	ka->num_outputs = nout;
	ka->attr_size = attrs ? sizeof(*attrs) : 0;
	for (i = 0; i < nin + nout; i++) {
		ka->tensors[i].va = va[i];
		ka->tensors[i].dtype = v[i].dtype;
		ka->tensors[i].rank = v[i].rank;
		memcpy(ka->tensors[i].shape, v[i].shape, sizeof(v[i].shape));
		memcpy(ka->tensors[i].strides, v[i].strides, sizeof(v[i].strides));
	}
	if (attrs)
		memcpy(&ka->tensors[nin + nout], attrs, sizeof(*attrs));
	task.kernel.op = op;
	task.kernel.args_size = asz;
	s.tasks = (uintptr_t)&task;
	s.task_count = 1;
	s.task_stride = sizeof(task);
	s.args = (uintptr_t)ka;
	s.args_size = padded;
	ret = ioctl(d->fd, DRM_IOCTL_VNPU_SUBMIT, &s) ? -errno : 0;
	free(ka);
	if (ret)
		return ret;
	ret = wait_job(d, s.seq);
	if (ret)
		return ret;
	st.seq = s.seq;
	ret = ioctl(d->fd, DRM_IOCTL_VNPU_JOB_STATUS, &st) ? -errno : 0;
	*state = st.state;
	if (error)
		*error = st.error;
	return ret;
}

/* Submit one KERNEL task; returns the SUBMIT errno or the job state. */
static int run_kernel(struct dev *d, u32 op, u32 nin, u32 nout,
		      const struct vnpu_tview *v, const uint64_t *va,
		      const struct drm_vnpu_op_attrs *attrs, u32 *state)
{
	return run_kernel_err(d, op, nin, nout, v, va, attrs, state, NULL);
}

/*
 * Plain TESTs with an opening helper: the 6.12 harness's TEST_F keeps a
 * variable across setjmp() that -Wclobbered (rightly) complains about.
 */
static void dev_open(struct __test_metadata *_metadata, struct dev *d)
{
	memset(d, 0, sizeof(*d));
	d->fd = open("/dev/accel/accel0", O_RDWR | O_CLOEXEC);
	ASSERT_GE(d->fd, 0);
	d->q.priority = DRM_VNPU_PRIORITY_NORMAL;
	ASSERT_EQ(0, ioctl(d->fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &d->q));
}

static void attrs_of(const struct ocase *oc, struct drm_vnpu_op_attrs *a)
{
	int i;

	memset(a, 0, sizeof(*a));
	for (i = 0; i < 24; i++)
		a->ints[i] = oc->ints[i];
	for (i = 0; i < 4; i++)
		memcpy(&a->floats[i], &oc->floats[i], 4);
}

TEST(device_matches_host_library)
{
	struct dev dv;
	struct dev *self_d = &dv;
	unsigned int k, ran = 0;

	dev_open(_metadata, self_d);

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct ocase *oc = &cases[k];
		const struct vnpu_op_impl *impl = vnpu_op_find(oc->op);
		struct vnpu_tview v[MAXT], host[MAXT];
		struct drm_vnpu_op_attrs attrs;
		struct vnpu_op_call *c;
		uint64_t va[MAXT];
		void *dev_out;
		u32 n = oc->nin + oc->nout, i, state = 99;
		u64 t;

		ASSERT_NE(NULL, impl) TH_LOG("%s: operator %u missing in the library",
					    oc->name, oc->op);
		attrs_of(oc, &attrs);
		c = calloc(1, sizeof(*c));
		c->scratch = aligned_alloc(64, VNPU_OPS_SCRATCH);
		c->op = oc->op;
		c->num_in = oc->nin;
		c->num_out = oc->nout;
		c->has_attrs = oc->has_attrs;
		c->attrs = attrs;
		c->cpu = vnpu_ops_module_cpu();
		for (i = 0; i < n; i++) {
			make_view(&oc->t[i], &v[i]);
			host[i] = v[i];
			host[i].data = calloc(1, view_bytes(&v[i]) + 8);
			if (i < oc->nin)
				fill_view(&oc->t[i], &host[i], k * 16 + i + 1);
			c->t[i] = host[i];
			va[i] = bo(self_d->fd, view_bytes(&v[i]));
			ASSERT_NE(0, va[i]);
			ASSERT_EQ(0, memcpy_dev(self_d->fd, va[i], (uintptr_t)host[i].data,
						view_bytes(&v[i]), DRM_VNPU_MEMCPY_DST_DEVICE));
		}
		ASSERT_EQ(0, vnpu_op_check(impl, c)) TH_LOG("%s: rejected by the library", oc->name);
		for (t = 0; t < impl->tiles(c); t++)
			impl->run(c, t);

		ASSERT_EQ(0, run_kernel(self_d, oc->op, oc->nin, oc->nout, v, va,
					oc->has_attrs ? &attrs : NULL, &state))
			TH_LOG("%s", oc->name);
		ASSERT_EQ(DRM_VNPU_JOB_OK, state) TH_LOG("%s", oc->name);
		for (i = oc->nin; i < n; i++) {
			size_t bytes = view_bytes(&v[i]);

			dev_out = malloc(bytes);
			ASSERT_EQ(0, memcpy_dev(self_d->fd, (uintptr_t)dev_out, va[i], bytes,
						DRM_VNPU_MEMCPY_SRC_DEVICE));
			EXPECT_EQ(0, memcmp(dev_out, host[i].data, bytes))
				TH_LOG("%s: output %u differs between device and host",
				       oc->name, i - oc->nin);
			free(dev_out);
		}
		for (i = 0; i < n; i++)
			free(host[i].data);
		free(c->scratch);
		free(c);
		ran++;
	}
	TH_LOG("%u operator cases agree", ran);
}

/*
 * VPC (Documentation/vpc.md): a 16x8 NV12 picture to 8x4 RGB888 runs; a
 * destination taller than its buffer, an odd NV12 width, a rectangle
 * past the picture and no attributes at all fail the SUBMIT.
 */
TEST(vpc_descriptors_einval)
{
	struct dev dv;
	struct dev *self_d = &dv;
	struct tdesc ps = T(U8, 1, 192), pd = T(U8, 1, 96);
	struct drm_vnpu_op_attrs pa = {
		.ints = { 1, 16, 8, 16, 8, 12, 8, 4, 24, 4 },
	};
	struct vnpu_tview v[2];
	uint64_t va[2];
	u32 state;

	dev_open(_metadata, self_d);
	va[0] = bo(self_d->fd, 4096);
	va[1] = bo(self_d->fd, 4096);
	make_view(&ps, &v[0]);
	make_view(&pd, &v[1]);
	EXPECT_EQ(0, run_kernel(self_d, DRM_VNPU_OP_VPC, 1, 1, v, va, &pa, &state));
	EXPECT_EQ(DRM_VNPU_JOB_OK, state);
	pa.ints[9] = 5;
	EXPECT_EQ(-EINVAL, run_kernel(self_d, DRM_VNPU_OP_VPC, 1, 1, v, va, &pa, &state));
	pa.ints[9] = 4;
	pa.ints[1] = 15;
	EXPECT_EQ(-EINVAL, run_kernel(self_d, DRM_VNPU_OP_VPC, 1, 1, v, va, &pa, &state));
	pa.ints[1] = 16;
	pa.ints[10] = 2;
	pa.ints[12] = 16;
	pa.ints[13] = 8;
	EXPECT_EQ(-EINVAL, run_kernel(self_d, DRM_VNPU_OP_VPC, 1, 1, v, va, &pa, &state));
	EXPECT_EQ(-EINVAL, run_kernel(self_d, DRM_VNPU_OP_VPC, 1, 1, v, va, NULL, &state));
	pa.ints[10] = pa.ints[12] = pa.ints[13] = 0;
	EXPECT_EQ(0, run_kernel(self_d, DRM_VNPU_OP_VPC, 1, 1, v, va, &pa, &state));
	EXPECT_EQ(DRM_VNPU_JOB_OK, state);
	close(dv.fd);
}

/* One NV12 image's AIPP parameters: crop, the samples' CSC, scale, pad. */
static void aipp_params(struct drm_vnpu_aipp_params *p, int i)
{
	static const s16 m[9] = { 256, 0, 359, 256, -88, -183, 256, 454, 0 };
	float var = 1.0f / 58.0f, min = 100.5f;
	int k;

	memset(p, 0, sizeof(*p));
	p->input_format = 1;	/* ACL_YUV420SP_U8 */
	p->src_w = 240;
	p->src_h = 200;
	p->csc_switch = 1;
	memcpy(p->csc_matrix, m, sizeof(m));
	p->csc_in_bias[1] = 128;
	p->csc_in_bias[2] = 128;
	p->crop_switch = 1;
	p->crop_x = 7 * i;
	p->crop_y = 3 + i;
	p->crop_w = 200 - 5 * i;
	p->crop_h = 150 + 9 * i;
	p->scf_switch = 1;
	p->scf_w = 190;
	p->scf_h = 177;
	p->pad_switch = 1;
	p->pad_top = 2;
	p->pad_bottom = 1;
	p->pad_left = 6;
	p->pad_right = 4;
	for (k = 0; k < 4; k++) {
		p->mean[k] = (s16)(10 * k);
		memcpy(&p->min[k], &min, 4);
		memcpy(&p->var_reci[k], &var, 4);
	}
}

/*
 * AIPP reads its parameters while the task runs: two NV12 images of their
 * own parameters agree with the host library bit for bit (pieces spread
 * over the engines); a block breaking a rule fails the job with -EINVAL
 * (ABORTED) and leaves that image's output alone.
 */
TEST(aipp_runs_and_refuses_bad_parameters_at_run_time)
{
	const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_AIPP);
	const s64 img = 240 * 200 * 3 / 2;
	struct drm_vnpu_aipp_params p[2];
	struct vnpu_tview v[3];
	struct vnpu_op_call *c;
	struct dev dv;
	uint64_t va[3];
	u8 *src, *dev_out;
	float *host_out;
	size_t obytes;
	u32 state = 99, bad = 0;
	int err = 0, i;
	u64 t, x = 5;

	dev_open(_metadata, &dv);
	memset(v, 0, sizeof(v));
	v[0].dtype = U8;
	v[0].rank = 2;
	v[0].shape[0] = 2;
	v[0].shape[1] = img;
	v[0].strides[0] = img;
	v[0].strides[1] = 1;
	v[1] = v[0];
	v[1].shape[1] = sizeof(p[0]);
	v[1].strides[0] = sizeof(p[0]);
	v[2].dtype = F32;
	v[2].rank = 4;
	v[2].shape[0] = 2;
	v[2].shape[1] = 3;
	v[2].shape[2] = 180;
	v[2].shape[3] = 200;
	v[2].strides[3] = 1;
	v[2].strides[2] = 200;
	v[2].strides[1] = 180 * 200;
	v[2].strides[0] = 3 * 180 * 200;
	obytes = view_bytes(&v[2]);
	src = malloc(2 * img);
	for (t = 0; t < (u64)(2 * img); t++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		src[t] = (u8)x;
	}
	for (i = 0; i < 2; i++)
		aipp_params(&p[i], i);
	host_out = calloc(1, obytes);
	dev_out = malloc(obytes);
	v[0].data = src;
	v[1].data = p;
	v[2].data = host_out;
	c = calloc(1, sizeof(*c));
	c->op = DRM_VNPU_OP_AIPP;
	c->num_in = 2;
	c->num_out = 1;
	c->cpu = vnpu_ops_module_cpu();
	c->bad_data = &bad;
	memcpy(c->t, v, sizeof(v));
	ASSERT_EQ(0, vnpu_op_check(impl, c));
	ASSERT_LT(2, impl->tiles(c));
	for (t = 0; t < impl->tiles(c); t++)
		impl->run(c, t);
	ASSERT_EQ(0, bad);

	va[0] = bo(dv.fd, 2 * img);
	va[1] = bo(dv.fd, sizeof(p));
	va[2] = bo(dv.fd, obytes);
	ASSERT_TRUE(va[0] && va[1] && va[2]);
	ASSERT_EQ(0, memcpy_dev(dv.fd, va[0], (uintptr_t)src, 2 * img,
				DRM_VNPU_MEMCPY_DST_DEVICE));
	ASSERT_EQ(0, memcpy_dev(dv.fd, va[1], (uintptr_t)p, sizeof(p),
				DRM_VNPU_MEMCPY_DST_DEVICE));
	ASSERT_EQ(0, run_kernel_err(&dv, DRM_VNPU_OP_AIPP, 2, 1, v, va, NULL,
				    &state, &err));
	ASSERT_EQ(DRM_VNPU_JOB_OK, state);
	ASSERT_EQ(0, memcpy_dev(dv.fd, (uintptr_t)dev_out, va[2], obytes,
				DRM_VNPU_MEMCPY_SRC_DEVICE));
	EXPECT_EQ(0, memcmp(dev_out, host_out, obytes));

	/* image 1's block breaks a rule: the job fails, its output is left alone */
	memset(host_out, 0xee, obytes);
	ASSERT_EQ(0, memcpy_dev(dv.fd, va[2], (uintptr_t)host_out, obytes,
				DRM_VNPU_MEMCPY_DST_DEVICE));
	p[1].reserved[2] = 1;
	ASSERT_EQ(0, memcpy_dev(dv.fd, va[1], (uintptr_t)p, sizeof(p),
				DRM_VNPU_MEMCPY_DST_DEVICE));
	ASSERT_EQ(0, run_kernel_err(&dv, DRM_VNPU_OP_AIPP, 2, 1, v, va, NULL,
				    &state, &err));
	EXPECT_EQ(DRM_VNPU_JOB_ABORTED, state);
	EXPECT_EQ(-EINVAL, err);
	ASSERT_EQ(0, memcpy_dev(dv.fd, (uintptr_t)dev_out, va[2], obytes,
				DRM_VNPU_MEMCPY_SRC_DEVICE));
	EXPECT_EQ(0, memcmp(dev_out + obytes / 2, (u8 *)host_out + obytes / 2,
			    obytes / 2));

	free(src);
	free(host_out);
	free(dev_out);
	free(c);
	close(dv.fd);
}

/* Descriptors an operator rejects fail the SUBMIT with -EINVAL. */
TEST(malformed_descriptors_einval)
{
	struct dev dv;
	struct dev *self_d = &dv;
	struct tdesc a = T(F32, 2, 4, 5), b = T(F32, 2, 4, 6), o = T(F32, 2, 4, 5);
	struct tdesc m1 = T(F32, 2, 3, 4), m2 = T(F32, 2, 5, 6), mo = T(F32, 2, 3, 6);
	struct drm_vnpu_op_attrs attrs = { .ints = { 7 } };
	struct vnpu_tview v[3];
	uint64_t va[3];
	u32 state;
	int i;

	dev_open(_metadata, self_d);

	va[0] = bo(self_d->fd, 4096);
	va[1] = bo(self_d->fd, 4096);
	va[2] = bo(self_d->fd, 4096);
	make_view(&a, &v[0]);
	make_view(&b, &v[1]);
	make_view(&o, &v[2]);
	/* Shapes that do not broadcast. */
	EXPECT_EQ(-EINVAL, run_kernel(self_d, DRM_VNPU_OP_ADD, 2, 1, v, va, NULL, &state));
	/* An operator id nobody implements. */
	make_view(&a, &v[1]);
	EXPECT_EQ(-EINVAL, run_kernel(self_d, 9999, 2, 1, v, va, NULL, &state));
	/* Inner dimensions of a product that do not match. */
	make_view(&m1, &v[0]);
	make_view(&m2, &v[1]);
	make_view(&mo, &v[2]);
	EXPECT_EQ(-EINVAL, run_kernel(self_d, DRM_VNPU_OP_MATMUL, 2, 1, v, va, NULL, &state));
	/* An axis past the rank. */
	make_view(&o, &v[0]);
	make_view(&o, &v[1]);
	EXPECT_EQ(-EINVAL, run_kernel(self_d, DRM_VNPU_OP_SOFTMAX, 1, 1, v, va, &attrs, &state));
	/* A dtype an operator family does not take: DOUBLE softmax, BOOL shift. */
	for (i = 0; i < 3; i++) {
		make_view(&o, &v[i]);
		v[i].dtype = DRM_VNPU_DTYPE_DOUBLE;
	}
	EXPECT_EQ(-EINVAL, run_kernel(self_d, DRM_VNPU_OP_SOFTMAX, 1, 1, v, va, NULL, &state));
	for (i = 0; i < 3; i++)
		v[i].dtype = DRM_VNPU_DTYPE_BOOL;
	EXPECT_EQ(-EINVAL, run_kernel(self_d, DRM_VNPU_OP_BITSHIFT, 2, 1, v, va, NULL, &state));
	v[0].dtype = DRM_VNPU_DTYPE_UINT16;
	v[1].dtype = DRM_VNPU_DTYPE_INT16;
	EXPECT_EQ(-EINVAL, run_kernel(self_d, DRM_VNPU_OP_NEG, 1, 1, v, va, NULL, &state));
	/* An unknown dtype, even for CAST. */
	v[1].dtype = 5;
	EXPECT_EQ(-EINVAL, run_kernel(self_d, DRM_VNPU_OP_CAST, 1, 1, v, va, NULL, &state));
	/* The float-only activations refuse integers; PRELU refuses BOOL. */
	for (i = 0; i < 3; i++) {
		make_view(&o, &v[i]);
		v[i].dtype = DRM_VNPU_DTYPE_INT32;
	}
	EXPECT_EQ(-EINVAL, run_kernel(self_d, DRM_VNPU_OP_ATANH, 1, 1, v, va, NULL, &state));
	for (i = 0; i < 3; i++)
		v[i].dtype = DRM_VNPU_DTYPE_BOOL;
	EXPECT_EQ(-EINVAL, run_kernel(self_d, DRM_VNPU_OP_PRELU, 2, 1, v, va, NULL, &state));
	/* The queue is still healthy: a good call runs. */
	for (i = 0; i < 3; i++)
		make_view(&o, &v[i]);
	EXPECT_EQ(0, run_kernel(self_d, DRM_VNPU_OP_ADD, 2, 1, v, va, NULL, &state));
	EXPECT_EQ(DRM_VNPU_JOB_OK, state);
}

/* A tensor reaching past its object faults the job; nothing is touched. */
TEST(tensor_outside_its_object_faults)
{
	struct dev dv;
	struct dev *self_d = &dv;
	struct tdesc big = T(F32, 1, 2048);
	struct vnpu_tview v[3];
	uint64_t va[3];
	u32 state = 0;
	int i;

	dev_open(_metadata, self_d);

	for (i = 0; i < 3; i++) {
		make_view(&big, &v[i]);
		va[i] = bo(self_d->fd, i == 2 ? 4096 : 8192);	/* output too small */
	}
	ASSERT_EQ(0, run_kernel(self_d, DRM_VNPU_OP_ADD, 2, 1, v, va, NULL, &state));
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, state);
}

/* A view over @rank dims, every stride 0 (one element repeated). */
static void zview(struct vnpu_tview *v, u32 dtype, u32 rank, const s64 *shape)
{
	u32 d;

	memset(v, 0, sizeof(*v));
	v->dtype = dtype;
	v->rank = rank;
	for (d = 0; d < rank; d++)
		v->shape[d] = shape[d];
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A vnpu module parameter, 0 when unreadable. */
static unsigned long module_param_ul(const char *name)
{
	char path[128];
	unsigned long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/vnpu/parameters/%s", name);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%lu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

/*
 * Pieces run with preemption off, so a call whose smallest piece exceeds
 * VNPU_OPS_PIECE_WORK fails the SUBMIT: a few bytes viewed with zero
 * strides as a 2^36-element reduction row, a 2^30-deep product or a
 * 2^32-element softmax row. Calls at the bound run (one piece each) and
 * are timed.
 */
TEST(unbounded_pieces_einval)
{
	struct dev dv;
	struct dev *self_d = &dv;
	s64 row36 = 1LL << 36, row32 = 1LL << 32, at = VNPU_OPS_PIECE_WORK;
	s64 sm = VNPU_OPS_PIECE_WORK / 32, ln = VNPU_OPS_PIECE_WORK / 4, kmax = VNPU_OPS_PIECE_WORK / (14 * 32);
	s64 a30[2] = { 1, 1LL << 30 }, b30[2] = { 1LL << 30, 1 }, o11[2] = { 1, 1 };
	s64 ak[2] = { 12, kmax }, bk[2] = { kmax, 32 }, ok[2] = { 12, 32 };
	struct vnpu_tview v[3];
	uint64_t va[3], big;
	float one = 1.0f, res[12 * 32];
	double t0;
	u32 state = 99;
	int i;

	dev_open(_metadata, self_d);
	for (i = 0; i < 3; i++) {
		va[i] = bo(self_d->fd, 4096);
		ASSERT_NE(0, va[i]);
	}
	ASSERT_EQ(0, memcpy_dev(self_d->fd, va[0], (uintptr_t)&one, 4,
				DRM_VNPU_MEMCPY_DST_DEVICE));
	ASSERT_EQ(0, memcpy_dev(self_d->fd, va[1], (uintptr_t)&one, 4,
				DRM_VNPU_MEMCPY_DST_DEVICE));

	/* REDUCE_SUM over 2^36 elements of a stride-0 fp32 view. */
	zview(&v[0], F32, 1, &row36);
	zview(&v[1], F32, 0, NULL);
	EXPECT_EQ(-EINVAL, run_kernel(self_d, DRM_VNPU_OP_REDUCE_SUM, 1, 1, v,
				      (uint64_t[]){ va[0], va[2] }, NULL, &state));
	/* MATMUL [1, 2^30] @ [2^30, 1], stride-0 operands. */
	zview(&v[0], F32, 2, a30);
	zview(&v[1], F32, 2, b30);
	zview(&v[2], F32, 2, o11);
	EXPECT_EQ(-EINVAL, run_kernel(self_d, DRM_VNPU_OP_MATMUL, 2, 1, v, va,
				      NULL, &state));
	/* A SOFTMAX row of 2^32 stride-0 elements. */
	zview(&v[0], F32, 1, &row32);
	zview(&v[1], F32, 1, &row32);
	EXPECT_EQ(-EINVAL, run_kernel(self_d, DRM_VNPU_OP_SOFTMAX, 1, 1, v,
				      (uint64_t[]){ va[0], va[2] }, NULL, &state));
	/* One past each bound. */
	row36 = at + 1;
	zview(&v[0], F32, 1, &row36);
	zview(&v[1], F32, 0, NULL);
	EXPECT_EQ(-EINVAL, run_kernel(self_d, DRM_VNPU_OP_REDUCE_SUM, 1, 1, v,
				      (uint64_t[]){ va[0], va[2] }, NULL, &state));
	ak[1] = kmax + 1;
	bk[0] = kmax + 1;
	zview(&v[0], F32, 2, ak);
	zview(&v[1], F32, 2, bk);
	zview(&v[2], F32, 2, ok);
	v[2].strides[0] = 32;
	v[2].strides[1] = 1;
	big = bo(self_d->fd, sizeof(res));
	ASSERT_NE(0, big);
	EXPECT_EQ(-EINVAL, run_kernel(self_d, DRM_VNPU_OP_MATMUL, 2, 1, v,
				      (uint64_t[]){ va[0], va[1], big }, NULL,
				      &state));

	/*
	 * At the bounds: the call runs and its single piece is timed. Such a
	 * piece takes seconds under TCG, so only with the default hang
	 * timeout (a piece making no progress for two timeouts is flagged).
	 */
	if (module_param_ul("job_timeout_ms") < 5000) {
		TH_LOG("job_timeout_ms below 5000: calls at the bounds not run");
		return;
	}
	zview(&v[0], F32, 1, &at);
	zview(&v[1], F32, 0, NULL);
	t0 = now_s();
	ASSERT_EQ(0, run_kernel(self_d, DRM_VNPU_OP_REDUCE_SUM, 1, 1, v,
				(uint64_t[]){ va[0], va[2] }, NULL, &state));
	EXPECT_EQ(DRM_VNPU_JOB_OK, state);
	TH_LOG("REDUCE_SUM row of 2^26: %.2f s", now_s() - t0);
	ASSERT_EQ(0, memcpy_dev(self_d->fd, (uintptr_t)res, va[2], 4,
				DRM_VNPU_MEMCPY_SRC_DEVICE));
	EXPECT_EQ((float)at, res[0]);

	ak[1] = kmax;
	bk[0] = kmax;
	zview(&v[0], F32, 2, ak);
	zview(&v[1], F32, 2, bk);
	t0 = now_s();
	ASSERT_EQ(0, run_kernel(self_d, DRM_VNPU_OP_MATMUL, 2, 1, v,
				(uint64_t[]){ va[0], va[1], big }, NULL, &state));
	EXPECT_EQ(DRM_VNPU_JOB_OK, state);
	TH_LOG("MATMUL 12 x 32 block, K = %lld: %.2f s", (long long)kmax,
	       now_s() - t0);
	ASSERT_EQ(0, memcpy_dev(self_d->fd, (uintptr_t)res, big, sizeof(res),
				DRM_VNPU_MEMCPY_SRC_DEVICE));
	EXPECT_EQ((float)kmax, res[12 * 32 - 1]);

	zview(&v[0], F32, 1, &sm);
	zview(&v[1], F32, 1, &sm);
	t0 = now_s();
	ASSERT_EQ(0, run_kernel(self_d, DRM_VNPU_OP_SOFTMAX, 1, 1, v,
				(uint64_t[]){ va[0], va[2] }, NULL, &state));
	EXPECT_EQ(DRM_VNPU_JOB_OK, state);
	TH_LOG("SOFTMAX row of 2^21: %.2f s", now_s() - t0);
	ASSERT_EQ(0, memcpy_dev(self_d->fd, (uintptr_t)res, va[2], 4,
				DRM_VNPU_MEMCPY_SRC_DEVICE));
	EXPECT_EQ(1.0f / (float)sm, res[0]);
	sm++;
	zview(&v[0], F32, 1, &sm);
	zview(&v[1], F32, 1, &sm);
	EXPECT_EQ(-EINVAL, run_kernel(self_d, DRM_VNPU_OP_SOFTMAX, 1, 1, v,
				      (uint64_t[]){ va[0], va[2] }, NULL, &state));

	zview(&v[0], F32, 1, &ln);
	zview(&v[1], F32, 1, &ln);
	t0 = now_s();
	ASSERT_EQ(0, run_kernel(self_d, DRM_VNPU_OP_LAYER_NORM, 1, 1, v,
				(uint64_t[]){ va[0], va[2] }, NULL, &state));
	EXPECT_EQ(DRM_VNPU_JOB_OK, state);
	TH_LOG("LAYER_NORM row of 2^24: %.2f s", now_s() - t0);
	ln++;
	zview(&v[0], F32, 1, &ln);
	zview(&v[1], F32, 1, &ln);
	EXPECT_EQ(-EINVAL, run_kernel(self_d, DRM_VNPU_OP_LAYER_NORM, 1, 1, v,
				      (uint64_t[]){ va[0], va[2] }, NULL, &state));
}

/* Sum of debugfs "engines" progress columns of vnpu.0; -1 when unreadable. */
static long long engines_progress(void)
{
	char line[256];
	long long sum = 0, v;
	FILE *f = fopen("/sys/kernel/debug/accel/vnpu.0/engines", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		/* engine busy_ns jobs resets progress ... */
		if (sscanf(line, "%*u %*u %*u %*u %lld", &v) == 1)
			sum += v;
	}
	fclose(f);
	return sum;
}

/*
 * Heartbeats (issue 35): one MATMUL piece at the bound, a 12 x 32 block
 * 149 796 deep (2^26 multiply-adds, seconds under TCG), reports progress
 * from inside itself about every 2^20 multiply-adds, so the engines'
 * progress moves dozens of times for one task of one piece (once or
 * twice without heartbeats) and hang detection never takes it for hung,
 * even with the shape boot's 2 s timeout; likewise a LAYER_NORM row at its
 * bound (2^24 elements, up to 7 s on a loaded host). Runs on every
 * parameter set.
 */
TEST(long_piece_reports_progress)
{
	s64 kmax = VNPU_OPS_PIECE_WORK / (14 * 32);
	s64 ak[2] = { 12, kmax }, bk[2] = { kmax, 32 }, ok[2] = { 12, 32 };
	s64 ln = VNPU_OPS_PIECE_WORK / 4;
	struct vnpu_tview v[3];
	float one = 1.0f, res[12 * 32];
	long long p0, p1;
	struct dev dv;
	uint64_t va[3];
	u32 state = 99;
	double t0;
	int i;

	dev_open(_metadata, &dv);
	for (i = 0; i < 2; i++) {
		va[i] = bo(dv.fd, 4096);
		ASSERT_NE(0, va[i]);
		ASSERT_EQ(0, memcpy_dev(dv.fd, va[i], (uintptr_t)&one, 4,
					DRM_VNPU_MEMCPY_DST_DEVICE));
	}
	va[2] = bo(dv.fd, sizeof(res));
	ASSERT_NE(0, va[2]);
	zview(&v[0], F32, 2, ak);
	zview(&v[1], F32, 2, bk);
	zview(&v[2], F32, 2, ok);
	v[2].strides[0] = 32;
	v[2].strides[1] = 1;
	p0 = engines_progress();
	ASSERT_GE(p0, 0);
	t0 = now_s();
	ASSERT_EQ(0, run_kernel(&dv, DRM_VNPU_OP_MATMUL, 2, 1, v, va, NULL, &state));
	EXPECT_EQ(DRM_VNPU_JOB_OK, state);
	p1 = engines_progress();
	TH_LOG("one piece of 2^26 multiply-adds: %.2f s, progress moved %lld times (job_timeout_ms %lu)",
	       now_s() - t0, p1 - p0, module_param_ul("job_timeout_ms"));
	/* About 2^26 / 2^20 = 64 heartbeats (53 after the panels rounding). */
	EXPECT_GE(p1 - p0, 40);
	ASSERT_EQ(0, memcpy_dev(dv.fd, (uintptr_t)res, va[2], sizeof(res),
				DRM_VNPU_MEMCPY_SRC_DEVICE));
	EXPECT_EQ((float)kmax, res[0]);
	EXPECT_EQ((float)kmax, res[12 * 32 - 1]);

	/* A LAYER_NORM row of 2^24 (stride 0): three passes of 2 each. */
	zview(&v[0], F32, 1, &ln);
	zview(&v[1], F32, 1, &ln);
	p0 = engines_progress();
	t0 = now_s();
	ASSERT_EQ(0, run_kernel(&dv, DRM_VNPU_OP_LAYER_NORM, 1, 1, v,
				(uint64_t[]){ va[0], va[2] }, NULL, &state));
	EXPECT_EQ(DRM_VNPU_JOB_OK, state);
	p1 = engines_progress();
	TH_LOG("one LAYER_NORM row of 2^24: %.2f s, progress moved %lld times",
	       now_s() - t0, p1 - p0);
	/* About 3 * 2^24 * 2 / 2^20 = 96 heartbeats. */
	EXPECT_GE(p1 - p0, 64);
	ASSERT_EQ(0, memcpy_dev(dv.fd, (uintptr_t)res, va[2], 4,
				DRM_VNPU_MEMCPY_SRC_DEVICE));
	/* A constant row normalises to 0. */
	EXPECT_EQ(0.0f, res[0]);
}

static long long helped_tiles(void)
{
	char line[256];
	long long sum = 0, v;
	FILE *f = fopen("/sys/kernel/debug/accel/vnpu.0/engines", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		/* engine busy_ns jobs resets progress tiles_helped current */
		if (sscanf(line, "%*u %*u %*u %*u %*u %lld", &v) == 1)
			sum += v;
	}
	fclose(f);
	return sum;
}

/* A call with many pieces is shared with idle engines; results are exact. */
TEST(big_call_shared_by_idle_engines)
{
	const s64 n = 8 << 20;
	struct tdesc vec = T(F32, 1, n);
	struct vnpu_tview v[3];
	float *a = malloc(n * 4), *b = malloc(n * 4), *out = malloc(n * 4);
	long long before, after;
	struct dev dv;
	struct dev *self_d = &dv;
	uint64_t va[3];
	u32 state = 0;
	s64 i;
	int k;

	dev_open(_metadata, self_d);
	ASSERT_NE(NULL, out);
	for (i = 0; i < n; i++) {
		a[i] = (float)(i % 4099);
		b[i] = (float)(i % 511) * 0.5f;
	}
	for (k = 0; k < 3; k++) {
		make_view(&vec, &v[k]);
		va[k] = bo(self_d->fd, n * 4);
		ASSERT_NE(0, va[k]);
	}
	ASSERT_EQ(0, memcpy_dev(self_d->fd, va[0], (uintptr_t)a, n * 4, DRM_VNPU_MEMCPY_DST_DEVICE));
	ASSERT_EQ(0, memcpy_dev(self_d->fd, va[1], (uintptr_t)b, n * 4, DRM_VNPU_MEMCPY_DST_DEVICE));
	before = helped_tiles();
	ASSERT_GE(before, 0);
	ASSERT_EQ(0, run_kernel(self_d, DRM_VNPU_OP_ADD, 2, 1, v, va, NULL, &state));
	ASSERT_EQ(DRM_VNPU_JOB_OK, state);
	after = helped_tiles();
	ASSERT_EQ(0, memcpy_dev(self_d->fd, (uintptr_t)out, va[2], n * 4, DRM_VNPU_MEMCPY_SRC_DEVICE));
	for (i = 0; i < n; i++)
		ASSERT_EQ(a[i] + b[i], out[i]) TH_LOG("element %lld", (long long)i);
	TH_LOG("%lld of %lld pieces run by helping engines", after - before,
	       (long long)(n / VNPU_OPS_TILE_ELEMS));
	EXPECT_GT(after - before, 0);
	free(a);
	free(b);
	free(out);
}

/* Sums of debugfs "engines" columns: tiles_helped, split_calls, split_pieces. */
static int split_stats(long long *helped, long long *calls, long long *pieces)
{
	char line[256];
	long long h, c, p;
	FILE *f = fopen("/sys/kernel/debug/accel/vnpu.0/engines", "r");

	*helped = *calls = *pieces = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		/* engine busy jobs resets progress helped yields overruns held calls pieces */
		if (sscanf(line, "%*u %*u %*u %*u %*u %lld %*u %*u %*u %lld %lld",
			   &h, &c, &p) != 3)
			continue;
		*helped += h;
		*calls += c;
		*pieces += p;
	}
	fclose(f);
	return 0;
}

/*
 * One long softmax row (8 chunks and a bit) runs as two phases shared by
 * the engines: the engines' statistics count one split call and every one
 * of its pieces, other engines run some, and the result is the host
 * library's, bit for bit.
 */
TEST(long_row_split_across_engines)
{
	const s64 n = 8 * 65536 + 999;
	struct tdesc row = TR(F32, -30, 30, 1, n);
	struct vnpu_tview v[2], host[2];
	long long h0, c0, p0, h1, c1, p1;
	const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_SOFTMAX);
	u64 ends[VNPU_OPS_MAX_PHASES], t;
	struct vnpu_op_call *c = calloc(1, sizeof(*c));
	float *out = malloc(n * 4);
	struct dev dv;
	struct dev *self_d = &dv;
	uint64_t va[2];
	u32 state = 0, nph;
	int k;

	dev_open(_metadata, self_d);
	ASSERT_NE(NULL, out);
	c->scratch = aligned_alloc(64, VNPU_OPS_SCRATCH);
	c->op = DRM_VNPU_OP_SOFTMAX;
	c->num_in = 1;
	c->num_out = 1;
	c->cpu = vnpu_ops_module_cpu();
	for (k = 0; k < 2; k++) {
		make_view(&row, &v[k]);
		host[k] = v[k];
		host[k].data = calloc(1, n * 4);
		va[k] = bo(self_d->fd, n * 4);
		ASSERT_NE(0, va[k]);
		c->t[k] = host[k];
	}
	fill_view(&row, &host[0], 77);
	ASSERT_EQ(0, memcpy_dev(self_d->fd, va[0], (uintptr_t)host[0].data, n * 4,
				DRM_VNPU_MEMCPY_DST_DEVICE));
	ASSERT_EQ(0, vnpu_op_check(impl, c));
	nph = vnpu_op_phases(impl, c, ends);
	ASSERT_EQ(2, nph);
	ASSERT_EQ(18, ends[1]);		/* 9 chunks, twice */
	for (t = 0; t < ends[1]; t++)
		impl->run(c, t);

	ASSERT_EQ(0, split_stats(&h0, &c0, &p0));
	ASSERT_EQ(0, run_kernel(self_d, DRM_VNPU_OP_SOFTMAX, 1, 1, v, va, NULL, &state));
	ASSERT_EQ(DRM_VNPU_JOB_OK, state);
	ASSERT_EQ(0, split_stats(&h1, &c1, &p1));
	ASSERT_EQ(0, memcpy_dev(self_d->fd, (uintptr_t)out, va[1], n * 4,
				DRM_VNPU_MEMCPY_SRC_DEVICE));
	EXPECT_EQ(0, memcmp(out, host[1].data, n * 4));
	EXPECT_EQ(1, c1 - c0);
	EXPECT_EQ((long long)ends[1], p1 - p0);
	TH_LOG("%lld of %llu pieces run by helping engines", h1 - h0,
	       (unsigned long long)ends[1]);
	if (vnpu_module_param("engines") > 1)
		EXPECT_GT(h1 - h0, 0);
	for (k = 0; k < 2; k++)
		free(host[k].data);
	free(c->scratch);
	free(c);
	free(out);
}

/*
 * A long SORT row (4 chunks and a bit) runs as three phases shared by the
 * engines: one split call, every piece counted, values and indices the
 * host library's bit for bit. The same row in fp16 is not split, and is
 * refused at SUBMIT as before.
 */
TEST(long_sort_split_across_engines)
{
	const s64 n = 4 * 65536 + 77;
	struct tdesc row[3] = { TR(F32, -8, 8, 1, n), T(F32, 1, n), T(I64, 1, n) };
	const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_SORT);
	struct vnpu_op_call *c = calloc(1, sizeof(*c));
	struct vnpu_tview v[3], host[3];
	long long h0, c0, p0, h1, c1, p1;
	u64 ends[VNPU_OPS_MAX_PHASES], t;
	struct dev dv;
	struct dev *self_d = &dv;
	uint64_t va[3];
	u32 state = 0;
	void *out;
	int k;

	dev_open(_metadata, self_d);
	c->scratch = aligned_alloc(64, VNPU_OPS_SCRATCH);
	c->op = DRM_VNPU_OP_SORT;
	c->num_in = 1;
	c->num_out = 2;
	c->cpu = vnpu_ops_module_cpu();
	for (k = 0; k < 3; k++) {
		make_view(&row[k], &v[k]);
		host[k] = v[k];
		host[k].data = calloc(1, view_bytes(&v[k]));
		va[k] = bo(self_d->fd, view_bytes(&v[k]));
		ASSERT_NE(0, va[k]);
		c->t[k] = host[k];
	}
	fill_view(&row[0], &host[0], 91);
	ASSERT_EQ(0, memcpy_dev(self_d->fd, va[0], (uintptr_t)host[0].data, n * 4,
				DRM_VNPU_MEMCPY_DST_DEVICE));
	ASSERT_EQ(0, vnpu_op_check(impl, c));
	ASSERT_EQ(3, vnpu_op_phases(impl, c, ends));
	ASSERT_EQ(15, ends[2]);		/* 5 chunks, three times */
	for (t = 0; t < ends[2]; t++)
		impl->run(c, t);

	ASSERT_EQ(0, split_stats(&h0, &c0, &p0));
	ASSERT_EQ(0, run_kernel(self_d, DRM_VNPU_OP_SORT, 1, 2, v, va, NULL, &state));
	ASSERT_EQ(DRM_VNPU_JOB_OK, state);
	ASSERT_EQ(0, split_stats(&h1, &c1, &p1));
	for (k = 1; k < 3; k++) {
		size_t bytes = view_bytes(&v[k]);

		out = malloc(bytes);
		ASSERT_EQ(0, memcpy_dev(self_d->fd, (uintptr_t)out, va[k], bytes,
					DRM_VNPU_MEMCPY_SRC_DEVICE));
		EXPECT_EQ(0, memcmp(out, host[k].data, bytes)) TH_LOG("output %d", k - 1);
		free(out);
	}
	EXPECT_EQ(1, c1 - c0);
	EXPECT_EQ(15, p1 - p0);
	TH_LOG("%lld of 15 pieces run by helping engines", h1 - h0);

	/* fp16 values have no room for the split's positions: -EINVAL. */
	v[0].dtype = v[1].dtype = F16;
	EXPECT_EQ(-EINVAL, run_kernel(self_d, DRM_VNPU_OP_SORT, 1, 2, v, va, NULL,
				      &state));
	for (k = 0; k < 3; k++)
		free(host[k].data);
	free(c->scratch);
	free(c);
}

/* In place is fine for elementwise operators, and only for them. */
TEST(output_aliasing)
{
	struct dev dv;
	struct dev *self_d = &dv;
	struct tdesc vec = T(F32, 1, 1000), sq = T(F32, 2, 16, 16);
	struct vnpu_tview v[3];
	float host[1000], out[1000];
	uint64_t va[3];
	u32 state = 0;
	int i;

	dev_open(_metadata, self_d);
	for (i = 0; i < 1000; i++)
		host[i] = (float)i;
	/* ADD with the output exactly over input a: a + b in place. */
	va[0] = va[2] = bo(self_d->fd, 4000);
	va[1] = bo(self_d->fd, 4000);
	ASSERT_EQ(0, memcpy_dev(self_d->fd, va[0], (uintptr_t)host, 4000,
				DRM_VNPU_MEMCPY_DST_DEVICE));
	ASSERT_EQ(0, memcpy_dev(self_d->fd, va[1], (uintptr_t)host, 4000,
				DRM_VNPU_MEMCPY_DST_DEVICE));
	for (i = 0; i < 3; i++)
		make_view(&vec, &v[i]);
	ASSERT_EQ(0, run_kernel(self_d, DRM_VNPU_OP_ADD, 2, 1, v, va, NULL, &state));
	ASSERT_EQ(DRM_VNPU_JOB_OK, state);
	ASSERT_EQ(0, memcpy_dev(self_d->fd, (uintptr_t)out, va[0], 4000,
				DRM_VNPU_MEMCPY_SRC_DEVICE));
	for (i = 0; i < 1000; i++)
		ASSERT_EQ(2.0f * i, out[i]);

	/* A product writing over its own input is refused at run time. */
	for (i = 0; i < 3; i++)
		make_view(&sq, &v[i]);
	va[2] = va[0];
	ASSERT_EQ(0, run_kernel(self_d, DRM_VNPU_OP_MATMUL, 2, 1, v, va, NULL, &state));
	EXPECT_EQ(DRM_VNPU_JOB_ABORTED, state);
}

TEST_HARNESS_MAIN
