/* SPDX-License-Identifier: MIT */
/*
 * TransMatmulWeight and CalculateMatmulWeightSize(V2). CANN converts a
 * matmul weight "to ND or a private format, as the device prefers"; the
 * vnpu's matmuls read ND weights of any strides directly, so ND is the
 * preferred format and the conversion leaves the weight as it is: the
 * executor has no task and needs no workspace. The size functions then
 * report what the weight needs in that format, its element count
 * (batch dims times n times k): a caller that allocates
 * max(ND size, this) - ggml does - allocates exactly the ND size, and
 * the transformed weight fits, since it is the same weight. (On an NZ
 * device CANN's size pads n and k to 16, or k to 32 for INT8.)
 */
#include "nn_ops_common.h"
#include "aclnnop/aclnn_trans_matmul_weight.h"

/* The element count of a 2-6 dim weight shape; 0 or a status. */
static aclnnStatus weight_elems(const char *func, const aclIntArray *shape,
				uint64_t *out)
{
	const int64_t *d;
	uint64_t n, i, total = 1;

	NEED(shape);
	NEED(out);
	d = nn_int_array(shape, &n);
	if (n < 2 || n > 6)
		return BAD("tensorShape must have 2 to 6 dims, not %llu",
			   (unsigned long long)n);
	for (i = 0; i < n; i++) {
		if (d[i] < 1)
			return BAD("dim %llu is %lld: empty or negative dims are not supported",
				   (unsigned long long)i, (long long)d[i]);
		if (__builtin_mul_overflow(total, (uint64_t)d[i], &total))
			return BAD("the size overflows");
	}
	*out = total;
	return ACLNN_SUCCESS;
}

aclnnStatus aclnnCalculateMatmulWeightSizeV2(const aclIntArray *tensorShape,
					     aclDataType dataType,
					     uint64_t *weightTensorSize)
{
	PROF_API();
	const char *func = __func__;

	NEED(tensorShape);
	NEED(weightTensorSize);
	if (dataType != ACL_FLOAT16 && dataType != ACL_BF16 &&
	    dataType != ACL_INT8)
		return BAD("dataType %d: FLOAT16, BFLOAT16 or INT8", (int)dataType);
	return weight_elems(func, tensorShape, weightTensorSize);
}

aclnnStatus aclnnCalculateMatmulWeightSize(const aclIntArray *tensorShape,
					   uint64_t *weightTensorSize)
{
	PROF_API();
	const char *func = __func__;

	return weight_elems(func, tensorShape, weightTensorSize);
}

aclnnStatus aclnnTransMatmulWeightGetWorkspaceSize(aclTensor *mmWeightRef,
						   uint64_t *workspaceSize,
						   aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	aclOpExecutor *ex;
	uint64_t i;

	NEED(mmWeightRef);
	NEED(workspaceSize);
	NEED(executor);
	if (mmWeightRef->magic != TENSOR_MAGIC)
		return BAD("mmWeightRef is not a live tensor");
	if (mmWeightRef->dtype != ACL_FLOAT16 && mmWeightRef->dtype != ACL_BF16 &&
	    mmWeightRef->dtype != ACL_INT8)
		return BAD("mmWeightRef: FLOAT16, BFLOAT16 or INT8, not %d",
			   (int)mmWeightRef->dtype);
	if (mmWeightRef->format != ACL_FORMAT_ND)
		return BAD("mmWeightRef must be ND");
	if (mmWeightRef->ndim < 2 || mmWeightRef->ndim > 6)
		return BAD("mmWeightRef must have 2 to 6 dims");
	for (i = 0; i < mmWeightRef->ndim; i++)
		if (!mmWeightRef->dims[i])
			return BAD("an empty mmWeightRef is not supported");
	NEW_EX(ex);	/* no task: ND is already the preferred format */
	return nn_finish(func, ex, 0, workspaceSize, executor);
}
LAUNCH(aclnnTransMatmulWeight)
