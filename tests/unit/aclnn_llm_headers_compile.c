// SPDX-License-Identifier: MIT
/*
 * The aclnnop headers of the issue 36 operators in lib/nn/nn_op_llm_eltwise*.c,
 * compiled as ISO C11 (-pedantic -Werror) and, through
 * aclnn_llm_headers_compile_cxx.cpp, as C++11. CANN ships log-softmax under
 * two names, aclnn_log_softmax.h and aclnn_logsoftmax.h; a program may
 * include both. The calls are only type-checked (sizeof, _Generic), so the
 * program needs no library.
 */
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_log_softmax.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
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

#include <stdio.h>

typedef aclnnStatus (*launch_t)(void *, uint64_t, aclOpExecutor *, aclrtStream);

#define IS_STATUS(e) _Generic((e), aclnnStatus: 1, default: 0)
/* Addcdiv's launch takes a const aclrtStream: the same type. */
#define IS_LAUNCH(f) _Generic((f), launch_t: 1, default: 0)

int main(void)
{
	const aclTensor *t = 0;
	aclTensor *o = 0;
	const aclScalar *s = 0;
	const aclIntArray *a = 0;
	const aclTensorList *l = 0;
	uint64_t ws = 0;
	aclOpExecutor *ex = 0;
	int ok = 1;

	ok &= IS_STATUS(aclnnLogSoftmaxGetWorkspaceSize(t, -1, o, &ws, &ex));
	ok &= IS_STATUS(aclnnInplacePowTensorTensorGetWorkspaceSize(t, t, &ws, &ex));
	ok &= IS_STATUS(aclnnPowScalarTensorGetWorkspaceSize(s, t, o, &ws, &ex));
	ok &= IS_STATUS(aclnnInplaceSubGetWorkspaceSize(t, t, s, &ws, &ex));
	ok &= IS_STATUS(aclnnInplaceSubsGetWorkspaceSize(t, s, s, &ws, &ex));
	ok &= IS_STATUS(aclnnInplaceDivGetWorkspaceSize(t, t, &ws, &ex));
	ok &= IS_STATUS(aclnnInplaceDivsGetWorkspaceSize(t, s, &ws, &ex));
	ok &= IS_STATUS(aclnnInplaceTriuGetWorkspaceSize(o, 1, &ws, &ex));
	ok &= IS_STATUS(aclnnInplaceZeroGetWorkspaceSize(o, &ws, &ex));
	ok &= IS_STATUS(aclnnThresholdGetWorkspaceSize(t, s, s, o, &ws, &ex));
	ok &= IS_STATUS(aclnnInplaceThresholdGetWorkspaceSize(o, s, s, &ws, &ex));
	ok &= IS_STATUS(aclnnSwiGluGetWorkspaceSize(t, -1, t, &ws, &ex));
	ok &= IS_STATUS(aclnnGeGluGetWorkspaceSize(t, -1, 0, o, o, &ws, &ex));
	ok &= IS_STATUS(aclnnGeGluV3GetWorkspaceSize(t, -1, 1, 1, o, o, &ws, &ex));
	ok &= IS_STATUS(aclnnAddRmsNormGetWorkspaceSize(t, t, t, 1e-6, o, o, o, &ws, &ex));
	ok &= IS_STATUS(aclnnMvGetWorkspaceSize(t, t, o, 1, &ws, &ex));
	ok &= IS_STATUS(aclnnGerGetWorkspaceSize(t, t, o, &ws, &ex));
	ok &= IS_STATUS(aclnnAddcdivGetWorkspaceSize(t, t, t, s, t, &ws, &ex));
	ok &= IS_STATUS(aclnnInplaceAddcdivGetWorkspaceSize(t, t, t, s, &ws, &ex));
	ok &= IS_STATUS(aclnnSumGetWorkspaceSize(l, o, &ws, &ex));
	ok &= IS_STATUS(aclnnRollGetWorkspaceSize(t, a, a, o, &ws, &ex));
	ok &= IS_STATUS(aclnnIndexFillTensorGetWorkspaceSize(t, 0, a, s, o, &ws, &ex));
	ok &= IS_STATUS(aclnnInplaceIndexFillTensorGetWorkspaceSize(o, 0, a, s, &ws, &ex));
	ok &= IS_LAUNCH(aclnnLogSoftmax) & IS_LAUNCH(aclnnPowTensorTensor);
	ok &= IS_LAUNCH(aclnnInplacePowTensorTensor) & IS_LAUNCH(aclnnPowScalarTensor);
	ok &= IS_LAUNCH(aclnnInplaceSub) & IS_LAUNCH(aclnnInplaceSubs);
	ok &= IS_LAUNCH(aclnnInplaceDiv) & IS_LAUNCH(aclnnInplaceDivs);
	ok &= IS_LAUNCH(aclnnInplaceTriu) & IS_LAUNCH(aclnnInplaceZero);
	ok &= IS_LAUNCH(aclnnThreshold) & IS_LAUNCH(aclnnInplaceThreshold);
	ok &= IS_LAUNCH(aclnnSwiGlu) & IS_LAUNCH(aclnnGeGlu) & IS_LAUNCH(aclnnGeGluV3);
	ok &= IS_LAUNCH(aclnnAddRmsNorm) & IS_LAUNCH(aclnnMv) & IS_LAUNCH(aclnnGer);
	ok &= IS_LAUNCH(aclnnAddcdiv) & IS_LAUNCH(aclnnInplaceAddcdiv);
	ok &= IS_LAUNCH(aclnnSum) & IS_LAUNCH(aclnnRoll);
	ok &= IS_LAUNCH(aclnnIndexFillTensor) & IS_LAUNCH(aclnnInplaceIndexFillTensor);
	printf("1..1\n%s 1 aclnn issue 36 headers (C11)\n", ok ? "ok" : "not ok");
	return !ok;
}
