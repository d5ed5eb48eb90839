/* SPDX-License-Identifier: MIT */
/*
 * WeightQuantBatchMatmulV2: y = x @ ((weight + antiquantOffset) *
 * antiquantScale) + bias for FLOAT16/BF16 x and an INT8 or INT4 weight
 * [k, n], with scales per tensor, per output column or per group of
 * antiquantGroupSize depth rows (CANN's formula and rules). One
 * WQ_MATMUL task: the kernel operator dequantises the weight panel by
 * panel inside its GEMM, so no dequantised copy is ever made.
 *
 * INT4 tensors count elements in nibbles (strides, offset), two to a
 * byte, the even element in the low nibble. The task sees the same
 * memory as INT8 bytes: the dim whose stride is 1 holds the pairs, so
 * that dim's size and the other stride are halved (both must be even,
 * as must the offset: a pair never straddles bytes).
 *
 * Not supported (161002): output quantisation (quantScaleOptional,
 * quantOffsetOptional; y INT8), UINT64/INT64 scales, INT32 offsets and
 * the FRACTAL_NZ weight format - none has a caller here yet.
 */
#include "nn_ops_common.h"
#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"

enum { PACK_INT8, PACK_INT4_K, PACK_INT4_N };

/* A scale or offset as the task's [groups, n] view. */
static aclnnStatus param_view(const char *func, aclOpExecutor *ex,
			      const aclTensor *t, const char *name,
			      int64_t groups, int64_t n, struct nn_ref *r)
{
	int64_t rows = 0, cols = 0, rs = 0, cs = 0;

	if (t->ndim == 1) {
		rows = 1;
		cols = t->dims[0];
		cs = t->strides[0];
	} else if (t->ndim == 2) {
		rows = t->dims[0];
		cols = t->dims[1];
		rs = t->strides[0];
		cs = t->strides[1];
	} else {
		return BAD("%s must have 1 or 2 dims", name);
	}
	/* (1,) / (1, 1): per tensor; (n,) / (1, n): per channel */
	if (groups == 1 && rows == 1 && cols == 1)
		cs = 0;
	else if (rows != groups || cols != n)
		return BAD("%s must be [%lld, %lld] (or per tensor [1, 1])",
			   name, (long long)groups, (long long)n);
	*r = nn_bind_tensor(ex, t, false);
	r->rank = 2;
	r->shape[0] = groups;
	r->shape[1] = n;
	r->strides[0] = rs;
	r->strides[1] = cs;
	return ACLNN_SUCCESS;
}

/* Whether t is a live tensor of dtype a or b (reported as name). */
static aclnnStatus want(const char *func, const aclTensor *t, const char *name,
			aclDataType a, aclDataType b)
{
	if (!t)
		return acl_fail_at(func, ACLNN_ERR_PARAM_NULLPTR,
				   "%s must not be NULL", name);
	if (t->magic != TENSOR_MAGIC)
		return BAD("%s is not a live tensor", name);
	if (t->dtype != a && t->dtype != b)
		return BAD("%s: dtype %d is not supported", name, (int)t->dtype);
	return ACLNN_SUCCESS;
}

#define WANT(t, a, b)							\
	do {								\
		aclnnStatus st_ = want(func, (t), #t, (a), (b));	\
		if (st_)						\
			return st_;					\
	} while (0)

/*
 * The weight as the task's INT8 view: bytes of an INT8 weight, or the
 * byte pairs of an INT4 one (pack says which dim holds the pairs).
 */
static aclnnStatus weight_view(const char *func, aclOpExecutor *ex,
			       const aclTensor *w, struct nn_ref *r,
			       int64_t *pack)
{
	int64_t k = w->dims[0], n = w->dims[1];
	int64_t s0 = w->strides[0], s1 = w->strides[1];

	*r = nn_bind_tensor(ex, w, false);
	*pack = PACK_INT8;
	if (w->dtype == ACL_INT8)
		return ACLNN_SUCCESS;
	if (w->offset % 2)
		return BAD("an INT4 weight must start on a byte (even offset)");
	if (s0 == 1 && k % 2 == 0 && (s1 % 2 == 0 || n == 1)) {
		*pack = PACK_INT4_K;	/* transposed: pairs along k */
		r->shape[0] = k / 2;
		r->strides[1] = s1 / 2;
	} else if (s1 == 1 && n % 2 == 0 && (s0 % 2 == 0 || k == 1)) {
		*pack = PACK_INT4_N;	/* row-major: pairs along n */
		r->shape[1] = n / 2;
		r->strides[0] = s0 / 2;
	} else {
		return BAD("an INT4 weight needs an even inner dim of stride 1 and an even outer stride");
	}
	r->dtype = ACL_INT8;
	if (r->bind >= 0 && r->bind < (int)ex->nbind) {
		ex->bind[r->bind].esize = 1;
		ex->bind[r->bind].offset = w->offset / 2;
	}
	return ACLNN_SUCCESS;
}

aclnnStatus aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(
	const aclTensor *x, const aclTensor *weight,
	const aclTensor *antiquantScale, const aclTensor *antiquantOffsetOptional,
	const aclTensor *quantScaleOptional, const aclTensor *quantOffsetOptional,
	const aclTensor *biasOptional, int antiquantGroupSize, const aclTensor *y,
	uint64_t *workspaceSize, aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in[5], out;
	int64_t m, k, n, groups, pack, yd[2];
	aclDataType dt;
	aclOpExecutor *ex;
	aclnnStatus st;
	uint32_t nin = 3;
	int ret;

	WANT(x, ACL_FLOAT16, ACL_BF16);
	WANT(weight, ACL_INT8, ACL_INT4);
	WANT(antiquantScale, x->dtype, x->dtype);
	WANT(y, x->dtype, x->dtype);
	NEED(workspaceSize);
	NEED(executor);
	dt = x->dtype;
	if (antiquantOffsetOptional)
		WANT(antiquantOffsetOptional, dt, dt);
	if (biasOptional) {
		if (dt == ACL_FLOAT16)
			WANT(biasOptional, ACL_FLOAT16, ACL_FLOAT16);
		else
			WANT(biasOptional, ACL_FLOAT, ACL_BF16);
	}
	if (quantOffsetOptional && !quantScaleOptional)
		return BAD("quantOffsetOptional needs quantScaleOptional");
	if (quantScaleOptional)
		return BAD("output quantisation (quantScaleOptional) is not supported");
	if (x->ndim != 2 || weight->ndim != 2 || y->ndim != 2)
		return BAD("x, weight and y must have 2 dims");
	if (weight->format != ACL_FORMAT_ND)
		return BAD("only an ND weight is supported");
	m = x->dims[0];
	k = x->dims[1];
	n = weight->dims[1];
	if (weight->dims[0] != k)
		return BAD("x's k (%lld) differs from weight's (%lld)",
			   (long long)k, (long long)weight->dims[0]);
	if (k < 1 || k > 65535 || n < 1 || n > 65535)
		return BAD("k and n must be in [1, 65535]");
	if (m < 1 || m > INT32_MAX)
		return BAD("m must be in [1, 2^31 - 1]");
	yd[0] = m;
	yd[1] = n;
	if (!nn_dims_are(y, 2, yd))
		return BAD("y must be [%lld, %lld]", (long long)m, (long long)n);
	if (antiquantGroupSize &&
	    (antiquantGroupSize < 32 || antiquantGroupSize % 32 ||
	     antiquantGroupSize > k - 1))
		return BAD("antiquantGroupSize %d: 0, or a multiple of 32 in [32, k - 1]",
			   antiquantGroupSize);
	groups = antiquantGroupSize ? (k + antiquantGroupSize - 1) /
				      antiquantGroupSize : 1;
	if (antiquantOffsetOptional && !nn_same_shape(antiquantOffsetOptional,
						      antiquantScale))
		return BAD("antiquantOffsetOptional's shape differs from antiquantScale's");
	if (biasOptional &&
	    !(biasOptional->ndim == 1 && biasOptional->dims[0] == n) &&
	    !(biasOptional->ndim == 2 && biasOptional->dims[0] == 1 &&
	      biasOptional->dims[1] == n))
		return BAD("biasOptional must be [n] or [1, n]");

	NEW_EX(ex);
	in[0] = nn_bind_tensor(ex, x, false);
	st = weight_view(func, ex, weight, &in[1], &pack);
	if (!st)
		st = param_view(func, ex, antiquantScale, "antiquantScale",
				groups, n, &in[2]);
	if (!st && antiquantOffsetOptional)
		st = param_view(func, ex, antiquantOffsetOptional,
				"antiquantOffsetOptional", groups, n, &in[nin++]);
	if (st) {
		nn_exec_free(ex);
		return st;
	}
	if (biasOptional) {
		struct nn_ref b = nn_bind_tensor(ex, biasOptional, false);

		if (b.rank == 2) {	/* [1, n] as [n] */
			b.rank = 1;
			b.shape[0] = n;
			b.strides[0] = b.strides[1];
		}
		in[nin++] = b;
	}
	out = nn_bind_tensor(ex, y, true);
	at.ints[0] = antiquantGroupSize;
	at.ints[1] = pack;
	at.ints[2] = antiquantOffsetOptional != NULL;
	at.ints[3] = biasOptional != NULL;
	ret = nn_task(ex, DRM_VNPU_OP_WQ_MATMUL, in, nin, &out, &at);
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnWeightQuantBatchMatmulV2)
