// SPDX-License-Identifier: MIT
/* What the device knows: element sizes of its dtypes, its operators. */
#include <drm/vnpu_accel.h>

#include "om_device_ops.h"
#include "om_read.h"
#include "../../kernel/ops/vnpu_dtype.h"

uint32_t om_dtype_size(uint32_t dtype)
{
	/* not a device dtype: each element's share of its buffer */
	if (dtype == OM_DTYPE_STRING)
		return OM_STRING_ELEM_BYTES;
	return vnpu_dtype_size(dtype);
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
