// SPDX-License-Identifier: MIT
/*
 * aclnn_llm_headers_compile.c's headers as C++11: both log-softmax
 * headers together, and the prototypes checked with decltype (the two
 * declarations of aclnnPowTensorTensor in aclnn_pow.h and
 * aclnn_pow_tensor_tensor.h must agree, or the second is an error here).
 */
#include "aclnnop/aclnn_log_softmax.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_triu.h"
#include "aclnnop/aclnn_zero.h"
#include "aclnnop/aclnn_threshold.h"
#include "aclnnop/aclnn_swi_glu.h"
#include "aclnnop/aclnn_geglu.h"
#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_mv.h"
#include "aclnnop/aclnn_ger.h"
#include "aclnnop/aclnn_addcdiv.h"
#include "aclnnop/aclnn_sum.h"
#include "aclnnop/aclnn_roll.h"
#include "aclnnop/aclnn_index_fill_tensor.h"

#include <cstdio>
#include <type_traits>

using launch_t = aclnnStatus(void *, uint64_t, aclOpExecutor *, aclrtStream);

static_assert(std::is_same<decltype(aclnnLogSoftmaxGetWorkspaceSize),
	      aclnnStatus(const aclTensor *, int64_t, aclTensor *, uint64_t *,
			  aclOpExecutor **)>::value, "LogSoftmax");
static_assert(std::is_same<decltype(aclnnPowTensorTensorGetWorkspaceSize),
	      aclnnStatus(const aclTensor *, const aclTensor *, aclTensor *,
			  uint64_t *, aclOpExecutor **)>::value, "PowTensorTensor");
static_assert(std::is_same<decltype(aclnnSwiGluGetWorkspaceSize),
	      aclnnStatus(const aclTensor *, int64_t, const aclTensor *,
			  uint64_t *, aclOpExecutor **)>::value, "SwiGlu");
static_assert(std::is_same<decltype(aclnnGeGluV3GetWorkspaceSize),
	      aclnnStatus(const aclTensor *, int64_t, int64_t, bool, aclTensor *,
			  aclTensor *, uint64_t *, aclOpExecutor **)>::value, "GeGluV3");
static_assert(std::is_same<decltype(aclnnAddRmsNormGetWorkspaceSize),
	      aclnnStatus(const aclTensor *, const aclTensor *, const aclTensor *,
			  double, aclTensor *, aclTensor *, aclTensor *,
			  uint64_t *, aclOpExecutor **)>::value, "AddRmsNorm");
static_assert(std::is_same<decltype(aclnnMvGetWorkspaceSize),
	      aclnnStatus(const aclTensor *, const aclTensor *, aclTensor *,
			  int8_t, uint64_t *, aclOpExecutor **)>::value, "Mv");
static_assert(std::is_same<decltype(aclnnRollGetWorkspaceSize),
	      aclnnStatus(const aclTensor *, const aclIntArray *,
			  const aclIntArray *, aclTensor *, uint64_t *,
			  aclOpExecutor **)>::value, "Roll");
static_assert(std::is_same<decltype(aclnnInplaceIndexFillTensorGetWorkspaceSize),
	      aclnnStatus(aclTensor *, int64_t, const aclIntArray *,
			  const aclScalar *, uint64_t *, aclOpExecutor **)>::value,
	      "InplaceIndexFillTensor");
static_assert(std::is_same<decltype(aclnnSumGetWorkspaceSize),
	      aclnnStatus(const aclTensorList *, aclTensor *, uint64_t *,
			  aclOpExecutor **)>::value, "Sum");

#define L(f) static_assert(std::is_same<decltype(f), launch_t>::value, #f)
L(aclnnLogSoftmax); L(aclnnPowTensorTensor); L(aclnnInplacePowTensorTensor);
L(aclnnPowScalarTensor); L(aclnnInplaceSub); L(aclnnInplaceSubs);
L(aclnnInplaceDiv); L(aclnnInplaceDivs); L(aclnnInplaceTriu);
L(aclnnInplaceZero); L(aclnnThreshold); L(aclnnInplaceThreshold);
L(aclnnSwiGlu); L(aclnnGeGlu); L(aclnnGeGluV3); L(aclnnAddRmsNorm); L(aclnnMv);
L(aclnnGer); L(aclnnSum); L(aclnnRoll); L(aclnnIndexFillTensor);
L(aclnnInplaceIndexFillTensor);

int main()
{
	std::printf("1..1\nok 1 aclnn issue 36 headers (C++11)\n");
	return 0;
}
