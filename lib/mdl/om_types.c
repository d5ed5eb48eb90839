// SPDX-License-Identifier: MIT
/* What the device knows: element sizes of its dtypes, its operators. */
#include <drm/vnpu_accel.h>

#include "om_read.h"

uint32_t om_dtype_size(uint32_t dtype)
{
	switch (dtype) {
	case DRM_VNPU_DTYPE_INT8: case DRM_VNPU_DTYPE_UINT8:
	case DRM_VNPU_DTYPE_BOOL:
		return 1;
	case DRM_VNPU_DTYPE_FLOAT16: case DRM_VNPU_DTYPE_BF16:
	case DRM_VNPU_DTYPE_INT16: case DRM_VNPU_DTYPE_UINT16:
		return 2;
	case DRM_VNPU_DTYPE_FLOAT: case DRM_VNPU_DTYPE_INT32:
	case DRM_VNPU_DTYPE_UINT32:
		return 4;
	case DRM_VNPU_DTYPE_INT64: case DRM_VNPU_DTYPE_UINT64:
	case DRM_VNPU_DTYPE_DOUBLE:
		return 8;
	case OM_DTYPE_STRING:
		/* not a device dtype: each element's share of its buffer */
		return OM_STRING_ELEM_BYTES;
	default:
		return 0;
	}
}

int om_op_known(uint32_t op)
{
	if (op == OM_OP_COPY)
		return 1;
	if (op >= DRM_VNPU_OP_ADD && op <= DRM_VNPU_OP_LOGICAL_XOR)
		return 1;
	if (op >= DRM_VNPU_OP_ABS && op <= DRM_VNPU_OP_ISNAN)
		return 1;
	if (op >= DRM_VNPU_OP_TAN && op <= DRM_VNPU_OP_DROPOUT)
		return 1;
	if (op == DRM_VNPU_OP_CAST)
		return 1;
	if (op >= DRM_VNPU_OP_MOD && op <= DRM_VNPU_OP_BITWISE_XOR)
		return 1;
	if (op == DRM_VNPU_OP_ISINF || op == DRM_VNPU_OP_BITWISE_NOT)
		return 1;
	if (op >= DRM_VNPU_OP_REDUCE_SUM && op <= DRM_VNPU_OP_REDUCE_SUM_SQUARE)
		return 1;
	if (op >= DRM_VNPU_OP_CUMSUM && op <= DRM_VNPU_OP_HARDMAX)
		return 1;
	if (op >= DRM_VNPU_OP_SOFTMAX && op <= DRM_VNPU_OP_GROUP_NORM)
		return 1;
	if (op == DRM_VNPU_OP_NORM_AXES || op == DRM_VNPU_OP_LRN ||
	    op == DRM_VNPU_OP_NLL_LOSS)
		return 1;
	if (op == DRM_VNPU_OP_MATMUL || op == DRM_VNPU_OP_GEMM)
		return 1;
	if (op >= DRM_VNPU_OP_CONV2D && op <= DRM_VNPU_OP_ADAPTIVE_AVG_POOL2D)
		return 1;
	if (op >= DRM_VNPU_OP_GATHER_ND && op <= DRM_VNPU_OP_REVERSE_SEQUENCE)
		return 1;
	/* issue 14's N-d window, resampling and quantization operators */
	if (op >= DRM_VNPU_OP_MATMUL_INT && op <= DRM_VNPU_OP_QLINEAR_MATMUL)
		return 1;
	if (op >= DRM_VNPU_OP_POOL_ND && op <= DRM_VNPU_OP_MAX_UNPOOL)
		return 1;
	if (op >= DRM_VNPU_OP_RESIZE_ND && op <= DRM_VNPU_OP_ROI_ALIGN)
		return 1;
	return op >= DRM_VNPU_OP_STRIDED_COPY && op <= DRM_VNPU_OP_RESIZE;
}

uint64_t om_dense_bytes(uint32_t dtype, uint32_t rank, const int64_t *dims)
{
	uint64_t n = om_dtype_size(dtype);

	for (uint32_t d = 0; d < rank; d++)
		if (dims[d] < 0 || __builtin_mul_overflow(n, (uint64_t)dims[d], &n))
			return UINT64_MAX;
	return n;
}
