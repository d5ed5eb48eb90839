/* SPDX-License-Identifier: MIT */
/* See nn_ops_common.h. */
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
	return dt == ACL_BOOL ? 0 : nn_dtype_is_int(dt) ? 1 : 2;
}

static int int_rank(aclDataType dt)
{
	switch ((int)dt) {
	case ACL_UINT8: return 1;
	case ACL_INT8: return 1;
	case ACL_INT32: return 3;
	default: return 4;	/* INT64 */
	}
}

int nn_promote(aclDataType a, aclDataType b)
{
	int ca = nn_dtype_category(a), cb = nn_dtype_category(b);

	if (a == b)
		return a;
	if (ca != cb)
		return ca > cb ? a : b;
	if (ca == 2) {
		if ((a == ACL_FLOAT16 && b == ACL_BF16) ||
		    (a == ACL_BF16 && b == ACL_FLOAT16))
			return ACL_FLOAT;
		return a == ACL_FLOAT ? a : b;	/* the other is 16-bit */
	}
	/* integers */
	if ((a == ACL_INT8 && b == ACL_UINT8) || (a == ACL_UINT8 && b == ACL_INT8))
		return -1;	/* int16: not a device dtype */
	return int_rank(a) >= int_rank(b) ? a : b;
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
