/* SPDX-License-Identifier: MIT */
/*
 * Scans and masks (the scan family): Cumsum, CumsumV2 (one CUMSUM task,
 * after a CAST of self into the compute dtype if needed), Triu and Tril
 * (one TRILU task).
 */
#include "nn_ops_common.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_triu.h"
#include "aclnnop/aclnn_tril.h"
#include "../core/prof_rt.h"

/* CUMSUM of self, computed in out's dtype, along dim. */
static aclnnStatus cumsum(const char *func, const aclTensor *self, int64_t dim,
			  bool exclusive, bool reverse, const aclTensor *out,
			  uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in, o;
	aclOpExecutor *ex;
	int64_t r = (int64_t)self->ndim;

	if (self->dtype == ACL_BOOL || out->dtype == ACL_BOOL)
		return BAD("self and out must not be BOOL");
	if (!r)
		return BAD("self must have at least one dim");
	if (dim < -r || dim >= r)
		return BAD("dim %lld is out of range for %lld dims", (long long)dim,
			   (long long)r);
	if (!nn_same_shape(self, out))
		return BAD("out must have self's shape");
	at.ints[0] = nn_wrap_dim(dim, r);
	at.ints[1] = exclusive;
	at.ints[2] = reverse;
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	in = nn_cast(ex, in, out->dtype);
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_CUMSUM, &in, 1, &o, &at),
			 workspaceSize, executor);
}

aclnnStatus aclnnCumsumGetWorkspaceSize(const aclTensor *self, int64_t dim,
					aclDataType dtype, aclTensor *out,
					uint64_t *workspaceSize,
					aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;

	CHECK_T(self);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	if (out->dtype != dtype)
		return BAD("out must have dtype %d", (int)dtype);
	return cumsum(func, self, dim, false, false, out, workspaceSize,
		      executor);
}
LAUNCH(aclnnCumsum)

aclnnStatus aclnnCumsumV2GetWorkspaceSize(const aclTensor *self, int64_t dim,
					  bool exclusive, bool reverse,
					  aclTensor *out, uint64_t *workspaceSize,
					  aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;

	CHECK_T(self);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	return cumsum(func, self, dim, exclusive, reverse, out, workspaceSize,
		      executor);
}
LAUNCH(aclnnCumsumV2)

/* TRILU: out has self's shape and dtype, at least 2 dims. */
static aclnnStatus trilu(const char *func, const aclTensor *self,
			 int64_t diagonal, bool upper, const aclTensor *out,
			 uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in, o;
	aclOpExecutor *ex;

	CHECK_T(self);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	if (self->ndim < 2)
		return BAD("self must have at least 2 dims");
	if (out->dtype != self->dtype || !nn_same_shape(self, out))
		return BAD("out must have self's shape and dtype");
	at.ints[0] = upper;
	at.ints[1] = diagonal;
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_TRILU, &in, 1, &o, &at),
			 workspaceSize, executor);
}

aclnnStatus aclnnTriuGetWorkspaceSize(const aclTensor *self, int64_t diagonal,
				      aclTensor *out, uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	PROF_API();
	return trilu(__func__, self, diagonal, true, out, workspaceSize,
		     executor);
}
LAUNCH(aclnnTriu)

aclnnStatus aclnnTrilGetWorkspaceSize(const aclTensor *self, int64_t diagonal,
				      aclTensor *out, uint64_t *workspaceSize,
				      aclOpExecutor **executor)
{
	PROF_API();
	return trilu(__func__, self, diagonal, false, out, workspaceSize,
		     executor);
}
LAUNCH(aclnnTril)
