// SPDX-License-Identifier: MIT
/* What the device knows: element sizes of its dtypes, its operators. */
#include <drm/vnpu_accel.h>

#include "om_device_ops.h"
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

/*
 * A device operator is one the operator registry implements: the set is
 * generated from kernel/ops at build time (tools/ops-host/om_ops_gen.c),
 * so nothing here lists operators by hand.
 */
int om_op_known(uint32_t op)
{
	if (op == OM_OP_COPY)
		return 1;
	return op <= OM_DEVICE_OP_MAX && (om_device_ops[op / 8] >> (op % 8) & 1);
}

uint64_t om_dense_bytes(uint32_t dtype, uint32_t rank, const int64_t *dims)
{
	uint64_t n = om_dtype_size(dtype);

	for (uint32_t d = 0; d < rank; d++)
		if (dims[d] < 0 || __builtin_mul_overflow(n, (uint64_t)dims[d], &n))
			return UINT64_MAX;
	return n;
}
