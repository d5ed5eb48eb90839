/* SPDX-License-Identifier: MIT */
/* See nn_ops_common.h. */
#include <stdlib.h>
#include <string.h>

#include "nn_ops_common.h"

aclnnStatus nn_check_tensor(const char *func, const aclTensor *t,
			    const char *name)
{
	if (!t)
		return acl_fail_at(func, ACLNN_ERR_PARAM_NULLPTR,
				   "%s must not be NULL", name);
	if (t->magic != TENSOR_MAGIC)
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "%s is not a live tensor", name);
	if (!nn_dtype_is_compute(t->dtype))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "%s: dtype %d is not supported", name,
				   (int)t->dtype);
	return ACLNN_SUCCESS;
}

aclnnStatus nn_check_scalar(const char *func, const aclScalar *s,
			    const char *name)
{
	if (!s)
		return acl_fail_at(func, ACLNN_ERR_PARAM_NULLPTR,
				   "%s must not be NULL", name);
	if (!s->numeric)
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "%s: scalar dtype %d is not supported", name,
				   (int)s->dtype);
	return ACLNN_SUCCESS;
}

aclnnStatus nn_finish(const char *func, aclOpExecutor *ex, int ret,
		      uint64_t *workspaceSize, aclOpExecutor **executor)
{
	if (!ret)
		nn_bounce_inplace(ex);
	if (ret || ex->failed) {
		nn_exec_free(ex);
		return acl_fail_at(func, ACLNN_ERR_INNER,
				   "the tasks do not fit (out of memory or too many tensors)");
	}
	*workspaceSize = ex->ws_size;
	*executor = ex;
	return ACLNN_SUCCESS;
}

void nn_set_float(struct drm_vnpu_op_attrs *a, int i, float v)
{
	memcpy(&a->floats[i], &v, 4);
}

int nn_dtype_category(aclDataType dt)
{
	if (dt == ACL_BOOL)
		return 0;
	if (nn_dtype_is_float(dt) || dt == ACL_DOUBLE)
		return 2;
	return 1;
}

/* Width in bits of an integer dtype, negative when unsigned. */
static int int_bits(aclDataType dt)
{
	switch ((int)dt) {
	case ACL_INT8: return 8;
	case ACL_UINT8: return -8;
	case ACL_INT16: return 16;
	case ACL_UINT16: return -16;
	case ACL_INT32: return 32;
	case ACL_UINT32: return -32;
	case ACL_UINT64: return -64;
	default: return 64;	/* INT64 */
	}
}

static aclDataType int_of(int bits)
{
	switch (bits) {
	case 8: return ACL_INT8;
	case -8: return ACL_UINT8;
	case 16: return ACL_INT16;
	case -16: return ACL_UINT16;
	case 32: return ACL_INT32;
	case -32: return ACL_UINT32;
	case -64: return ACL_UINT64;
	default: return ACL_INT64;
	}
}

int nn_promote(aclDataType a, aclDataType b)
{
	int ca = nn_dtype_category(a), cb = nn_dtype_category(b);
	int ba, bb, s, u;

	if (a == b)
		return a;
	if (ca != cb)
		return ca > cb ? a : b;
	if (ca == 2) {
		if (a == ACL_DOUBLE || b == ACL_DOUBLE)
			return ACL_DOUBLE;
		if ((a == ACL_FLOAT16 && b == ACL_BF16) ||
		    (a == ACL_BF16 && b == ACL_FLOAT16))
			return ACL_FLOAT;
		return a == ACL_FLOAT ? a : b;	/* the other is 16-bit */
	}
	/* integers: the wider of one signedness, else a signed type wide
	 * enough for both (uint8 + int8 -> int16, uint32 + int32 -> int64);
	 * uint64 with a signed type has none
	 */
	ba = int_bits(a);
	bb = int_bits(b);
	if ((ba > 0) == (bb > 0))
		return abs(ba) >= abs(bb) ? a : b;
	s = ba > 0 ? ba : bb;
	u = ba > 0 ? -bb : -ba;
	if (s > u)
		return int_of(s);
	return u == 64 ? -1 : int_of(2 * u);
}

bool nn_dtype_is_device(aclDataType dt)
{
	return nn_dtype_size(dt) != 0;
}

aclnnStatus nn_check_tensor_any(const char *func, const aclTensor *t,
				const char *name)
{
	if (t && t->magic == TENSOR_MAGIC && nn_dtype_is_device(t->dtype))
		return ACLNN_SUCCESS;
	return nn_check_tensor(func, t, name);
}

bool nn_same_shape(const aclTensor *a, const aclTensor *b)
{
	return a->ndim == b->ndim &&
	       !memcmp(a->dims, b->dims, a->ndim * sizeof(int64_t));
}

bool nn_out_can_hold(aclDataType cdt, aclDataType out)
{
	return nn_dtype_category(out) >= nn_dtype_category(cdt);
}

bool nn_dims_are(const aclTensor *t, uint64_t n, const int64_t *d)
{
	return t->ndim == n && !memcmp(t->dims, d, n * sizeof(int64_t));
}

int64_t nn_wrap_dim(int64_t dim, int64_t rank)
{
	return dim < 0 ? dim + rank : dim;
}
