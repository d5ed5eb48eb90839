/* SPDX-License-Identifier: MIT */
/*
 * aclnnNLLLoss: one NLL_LOSS task for the loss, and one more for the
 * total weight, which is the same sum taken over log-probabilities that
 * are all -1 (a FILLed scalar seen with stride 0), so it counts exactly
 * the weights the loss took. A (C) input is seen as (1, C).
 */
#include <string.h>

#include "nn_ops_common.h"
#include "aclnnop/aclnn_nll_loss.h"
#include "../core/prof_rt.h"

/* CANN's reduction numbers (PyTorch's) and the device's. */
#define CANN_NONE	0
#define CANN_MEAN	1
#define CANN_SUM	2
#define DEV_SUM		1
#define DEV_MEAN	2

/* r with a leading dim of 1 (a batch of one). */
static struct nn_ref batch_of_one(struct nn_ref r)
{
	uint32_t d;

	for (d = r.rank; d > 0; d--) {
		r.shape[d] = r.shape[d - 1];
		r.strides[d] = r.strides[d - 1];
	}
	r.shape[0] = 1;
	r.strides[0] = 0;
	r.rank++;
	return r;
}

/* One value: CANN's document gives such outputs the shape (1,), PyTorch (). */
static bool one_value(const aclTensor *t)
{
	return t->ndim == 0 || (t->ndim == 1 && t->dims[0] == 1);
}

/* A one-value output as the () tensor the device task writes. */
static struct nn_ref as_scalar(struct nn_ref r)
{
	r.rank = 0;
	return r;
}

static bool index_dtype(aclDataType dt)
{
	return dt == ACL_INT64 || dt == ACL_INT32 || dt == ACL_UINT8;
}

aclnnStatus aclnnNLLLossGetWorkspaceSize(const aclTensor *self,
					 const aclTensor *target,
					 const aclTensor *weight,
					 int64_t reduction, int64_t ignoreIndex,
					 aclTensor *out, aclTensor *totalWeightOut,
					 uint64_t *workspaceSize,
					 aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 }, fill = { 0 };
	struct nn_ref in[3], o, tw, ones;
	aclOpExecutor *ex;
	uint32_t nin = 2;
	bool one = false;
	int64_t n;
	int ret;

	CHECK_T(self);
	CHECK_T(target);
	CHECK_T(out);
	CHECK_T(totalWeightOut);
	NEED(workspaceSize);
	NEED(executor);
	if (weight)
		CHECK_T(weight);
	if (!nn_dtype_is_float(self->dtype))
		return BAD("self must be FLOAT, FLOAT16 or BF16");
	if (!index_dtype(target->dtype))
		return BAD("target must be INT64, INT32 or UINT8");
	if (out->dtype != self->dtype || totalWeightOut->dtype != self->dtype ||
	    (weight && weight->dtype != self->dtype))
		return BAD("weight, out and totalWeightOut must have self's dtype");
	if (self->ndim == 1) {
		one = true;
		n = 1;
		if (target->ndim != 0)
			return BAD("a (C) self takes a () target");
	} else if (self->ndim == 2) {
		n = self->dims[0];
		if (!nn_dims_are(target, 1, &n))
			return BAD("target must have self's N");
	} else {
		return BAD("self must be (N, C) or (C)");
	}
	if (weight && !nn_dims_are(weight, 1, &self->dims[self->ndim - 1]))
		return BAD("weight must have C values");
	if (reduction < CANN_NONE || reduction > CANN_SUM)
		return BAD("reduction %lld is not 0 (none), 1 (mean) or 2 (sum)",
			   (long long)reduction);
	if (reduction == CANN_NONE && !one ?
	    !nn_dims_are(out, target->ndim, target->dims) : !one_value(out))
		return BAD("out must be (N) for reduction none and an (N, C) self, (1,) or () otherwise");
	if (!one_value(totalWeightOut))
		return BAD("totalWeightOut must be a (1,) or () tensor");

	at.ints[0] = reduction == CANN_NONE ? 0 :
		     reduction == CANN_SUM ? DEV_SUM : DEV_MEAN;
	at.ints[1] = ignoreIndex;
	at.ints[2] = 1;
	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, self, false);
	in[1] = nn_cast(ex, nn_bind_tensor(ex, target, false),
			target->dtype == ACL_UINT8 ? ACL_INT64 : target->dtype);
	if (weight)
		in[nin++] = nn_bind_tensor(ex, weight, false);
	o = nn_bind_tensor(ex, out, true);
	if (reduction != CANN_NONE || one)
		o = as_scalar(o);
	tw = as_scalar(nn_bind_tensor(ex, totalWeightOut, true));
	if (one) {
		in[0] = batch_of_one(in[0]);
		in[1] = batch_of_one(in[1]);
		if (reduction == CANN_NONE)
			o = batch_of_one(o);
	}
	ret = nn_task(ex, DRM_VNPU_OP_NLL_LOSS, in, nin, &o, &at);
	/* the total weight: the summed loss of log-probabilities all -1 */
	nn_set_float(&fill, 0, -1.0f);
	ones = nn_ws(ex, self->dtype, 0, NULL);
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &ones, &fill);
	ones.rank = 2;
	ones.shape[0] = in[0].shape[0];
	ones.shape[1] = in[0].shape[1];
	ones.strides[0] = ones.strides[1] = 0;
	in[0] = ones;
	at.ints[0] = DEV_SUM;
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_NLL_LOSS, in, nin, &tw, &at);
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnNLLLoss)
