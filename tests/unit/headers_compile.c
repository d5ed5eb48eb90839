// SPDX-License-Identifier: MIT
/*
 * Public ACL headers, compiled as ISO C11 (-std=c11 -pedantic -Werror).
 *
 * Includes every public header, checks a selection of values against the
 * AscendCL reference and type-checks some typical calls.  The calls only
 * appear in unevaluated contexts (sizeof, _Generic), so the program does not
 * need to be linked against libacl.
 *
 * The general ACL_ERROR_* codes are "static const int" objects, as in the
 * published headers; ISO C does not treat those as constant expressions, so
 * they are checked at run time here (headers_compile_cxx.cpp checks them with
 * static_assert).
 */
#include "acl/acl.h"
#include "acl/acl_base.h"
#include "acl/acl_base_mdl.h"
#include "acl/acl_base_rt.h"
#include "acl/acl_dump.h"
#include "acl/acl_mdl.h"
#include "acl/acl_op.h"
#include "acl/acl_op_compiler.h"
#include "acl/ops/acl_cblas.h"
#include "acl/acl_platform.h"
#include "acl/acl_prof.h"
#include "mstx/ms_tools_ext.h"
#include "acl/acl_rt.h"
#include "acl/acl_rt_allocator.h"
#include "acl/acl_rt_memory_soma.h"
#include "acl/error_codes/ge_error_codes.h"
#include "acl/error_codes/rt_error_codes.h"
#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_slice.h"
#include "aclnnop/aclnn_gather.h"
#include "aclnnop/aclnn_index_select.h"
#include "aclnnop/aclnn_s_where.h"
#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_repeat.h"
#include "aclnnop/aclnn_topk.h"
#include "aclnnop/aclnn_sort.h"
#include "aclnnop/aclnn_adaptive_avg_pool2d.h"
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_amin.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_argmin.h"
#include "aclnnop/aclnn_prod.h"
#include "aclnnop/aclnn_logsumexp.h"
#include "aclnnop/aclnn_norm.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_triu.h"
#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_instance_norm.h"
#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_max_pool2d.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_util.h"
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_log_softmax.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_tanh.h"
#include "aclnnop/aclnn_eq_tensor.h"
#include "aclnnop/aclnn_ne_tensor.h"
#include "aclnnop/aclnn_lt_tensor.h"
#include "aclnnop/aclnn_le_tensor.h"
#include "aclnnop/aclnn_gt_tensor.h"
#include "aclnnop/aclnn_ge_tensor.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_logical_and.h"
#include "aclnnop/aclnn_logical_or.h"
#include "aclnnop/aclnn_logical_xor.h"
#include "aclnnop/aclnn_logical_not.h"
#include "aclnnop/aclnn_reciprocal.h"
#include "aclnnop/aclnn_floor.h"
#include "aclnnop/aclnn_ceil.h"
#include "aclnnop/aclnn_round.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_remainder.h"
#include "aclnnop/aclnn_bitwise_and_tensor.h"
#include "aclnnop/aclnn_bitwise_or_tensor.h"
#include "aclnnop/aclnn_bitwise_xor_tensor.h"
#include "aclnnop/aclnn_bitwise_not.h"
#include "aclnnop/aclnn_eq_scalar.h"
#include "aclnnop/aclnn_ne_scalar.h"
#include "aclnnop/aclnn_lt_scalar.h"
#include "aclnnop/aclnn_le_scalar.h"
#include "aclnnop/aclnn_gt_scalar.h"
#include "aclnnop/aclnn_ge_scalar.h"
#include "aclnnop/aclnn_arange.h"
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_expand.h"
#include "aclnnop/aclnn_flip.h"
#include "aclnnop/aclnn_gather_nd.h"
#include "aclnnop/aclnn_one_hot.h"
#include "aclnnop/aclnn_reflection_pad2d.h"
#include "aclnnop/aclnn_replication_pad2d.h"
#include "aclnnop/aclnn_scatter.h"
#include "aclnnop/aclnn_scatter_nd.h"
#include "aclnnop/aclnn_split_tensor.h"
#include "aclnnop/aclnn_split_with_size.h"
#include "aclnnop/aclnn_stack.h"

#include <stdio.h>

#define IS_TYPE(expr, type) _Generic((expr), type: 1, default: 0)

/* Interface version */
_Static_assert(ACL_MAJOR_VERSION == 1, "major version");
_Static_assert(ACL_MINOR_VERSION == 17, "minor version");
_Static_assert(ACL_PATCH_VERSION == 0, "patch version");

/* Data types and formats */
_Static_assert(ACL_DT_UNDEFINED == -1, "ACL_DT_UNDEFINED");
_Static_assert(ACL_FLOAT == 0, "ACL_FLOAT");
_Static_assert(ACL_FLOAT16 == 1, "ACL_FLOAT16");
_Static_assert(ACL_INT16 == 6, "ACL_INT16 (5 is unused)");
_Static_assert(ACL_BF16 == 27, "ACL_BF16");
_Static_assert(ACL_FLOAT4_E1M2 == 41, "ACL_FLOAT4_E1M2");
_Static_assert(ACL_FORMAT_ND == 2, "ACL_FORMAT_ND");
_Static_assert(ACL_FORMAT_FRACTAL_NZ == 29, "ACL_FORMAT_FRACTAL_NZ");

/* Runtime and graph-engine error codes */
_Static_assert(ACL_RT_SUCCESS == 0, "ACL_RT_SUCCESS");
_Static_assert(ACL_ERROR_RT_PARAM_INVALID == 107000, "ACL_ERROR_RT_PARAM_INVALID");
_Static_assert(ACL_ERROR_RT_CONTEXT_NULL == 107002, "ACL_ERROR_RT_CONTEXT_NULL");
_Static_assert(ACL_ERROR_RT_STREAM_CAPTURED == 107027, "ACL_ERROR_RT_STREAM_CAPTURED");
_Static_assert(ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC == 107041, "ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC");
_Static_assert(ACL_ERROR_RT_NO_DEVICE == 207004, "ACL_ERROR_RT_NO_DEVICE");
_Static_assert(ACL_ERROR_RT_DEVICE_OOM == 207018, "ACL_ERROR_RT_DEVICE_OOM");
_Static_assert(ACL_ERROR_RT_STREAM_NOT_COMPLETE == 507004, "ACL_ERROR_RT_STREAM_NOT_COMPLETE");
_Static_assert(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED == 507903, "ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED");
_Static_assert(ACL_ERROR_RT_CCU_EXCEPTION == 507916, "ACL_ERROR_RT_CCU_EXCEPTION");
_Static_assert(ACLNN_SUCCESS == 0, "ACLNN_SUCCESS");
_Static_assert(ACLNN_ERR_PARAM_NULLPTR == 161001, "ACLNN_ERR_PARAM_NULLPTR");
_Static_assert(ACLNN_ERR_INNER_NULLPTR == 561103, "ACLNN_ERR_INNER_NULLPTR");

/* Runtime enumerations and flags */
_Static_assert(ACL_MEM_MALLOC_HUGE_FIRST == 0, "ACL_MEM_MALLOC_HUGE_FIRST");
_Static_assert(ACL_MEM_MALLOC_NORMAL_ONLY == 2, "ACL_MEM_MALLOC_NORMAL_ONLY");
_Static_assert(ACL_MEM_ACCESS_USER_SPACE_READONLY == 0x100000, "ACL_MEM_ACCESS_USER_SPACE_READONLY");
_Static_assert(ACL_MEMCPY_HOST_TO_DEVICE == 1, "ACL_MEMCPY_HOST_TO_DEVICE");
_Static_assert(ACL_MEMCPY_INTER_DEVICE_TO_DEVICE == 7, "ACL_MEMCPY_INTER_DEVICE_TO_DEVICE");
_Static_assert(ACL_MEM_P2P_HUGE1G == 17, "ACL_MEM_P2P_HUGE1G");
_Static_assert(ACL_STREAM_PERSISTENT == 0x4U, "ACL_STREAM_PERSISTENT");
_Static_assert(ACL_EVENT_SYNC == 0x1U, "ACL_EVENT_SYNC");
_Static_assert(ACL_STREAM_STATUS_NOT_READY == 1, "ACL_STREAM_STATUS_NOT_READY");
_Static_assert(ACL_EVENT_RECORDED_STATUS_COMPLETE == 1, "ACL_EVENT_RECORDED_STATUS_COMPLETE");
_Static_assert(ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE == 204, "ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE");
_Static_assert(ACL_DEV_ATTR_NPU_ARCH == 601, "ACL_DEV_ATTR_NPU_ARCH");
_Static_assert(ACL_MODEL_RI_CAPTURE_MODE_RELAXED == 2, "ACL_MODEL_RI_CAPTURE_MODE_RELAXED");
_Static_assert(ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED == 2, "ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED");
_Static_assert(ACL_MODEL_RI_TASK_VALUE_WAIT == 6, "ACL_MODEL_RI_TASK_VALUE_WAIT");
_Static_assert(ACL_REG_TYPE_OTHER == 0xFFFF, "ACL_REG_TYPE_OTHER");
_Static_assert(ACL_NPU_PERF_MODE == 29, "ACL_NPU_PERF_MODE");
_Static_assert(ACL_MDL_NPU_PERF_MODE == 9, "ACL_MDL_NPU_PERF_MODE");

/* cblas (acl/ops/acl_cblas.h) */
_Static_assert(ACL_TRANS_N == 0 && ACL_TRANS_T == 1, "ACL_TRANS_N/T");
_Static_assert(ACL_TRANS_NZ == 2 && ACL_TRANS_NZ_T == 3, "ACL_TRANS_NZ/NZ_T");
_Static_assert(ACL_COMPUTE_HIGH_PRECISION == 0, "ACL_COMPUTE_HIGH_PRECISION");
_Static_assert(ACL_COMPUTE_LOW_PRECISION == 1, "ACL_COMPUTE_LOW_PRECISION");
_Static_assert(IS_TYPE(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 1, 1, 1, NULL, NULL, -1, ACL_FLOAT,
                                     NULL, -1, ACL_FLOAT, NULL, NULL, -1, ACL_FLOAT,
                                     ACL_COMPUTE_HIGH_PRECISION, NULL), aclError), "aclblasGemmEx");

/* Fixed-size structures */
_Static_assert(sizeof(aclrtUuid) == 16, "aclrtUuid");
_Static_assert(sizeof(aclrtIpcEventHandle) == ACL_IPC_EVENT_HANDLE_SIZE, "aclrtIpcEventHandle");
_Static_assert(sizeof(aclCANNPackageVersion) == 2 * 128 + 4 * 64, "aclCANNPackageVersion");
_Static_assert(sizeof(dim3) == 3 * sizeof(uint32_t), "dim3");
_Static_assert(sizeof(aclFloat16) == 2, "aclFloat16");
_Static_assert(sizeof(aclError) == sizeof(int), "aclError");
_Static_assert(sizeof(aclnnStatus) == sizeof(int32_t), "aclnnStatus");

/* Return types of typical calls (unevaluated, so no link dependency) */
_Static_assert(IS_TYPE(aclInit(NULL), aclError), "aclInit");
_Static_assert(IS_TYPE(aclFinalize(), aclError), "aclFinalize");
_Static_assert(IS_TYPE(aclGetRecentErrMsg(), const char *), "aclGetRecentErrMsg");
_Static_assert(IS_TYPE(aclrtGetSocName(), const char *), "aclrtGetSocName");
_Static_assert(IS_TYPE(aclCreateDataBuffer(NULL, 0), aclDataBuffer *), "aclCreateDataBuffer");
_Static_assert(IS_TYPE(aclGetDataBufferSizeV2(NULL), size_t), "aclGetDataBufferSizeV2");
_Static_assert(IS_TYPE(aclFloatToFloat16(1.0f), aclFloat16), "aclFloatToFloat16");
_Static_assert(IS_TYPE(aclmdlCreateDataset(), aclmdlDataset *), "aclmdlCreateDataset");
_Static_assert(IS_TYPE(aclmdlGetNumInputs(NULL), size_t), "aclmdlGetNumInputs");
_Static_assert(IS_TYPE(aclCreateTensorDesc(ACL_FLOAT, 0, NULL, ACL_FORMAT_ND), aclTensorDesc *), "aclCreateTensorDesc");
_Static_assert(IS_TYPE(aclCreateTensor(NULL, 0, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, NULL), aclTensor *),
               "aclCreateTensor");
_Static_assert(IS_TYPE(aclnnInit(NULL), aclnnStatus), "aclnnInit");
_Static_assert(IS_TYPE(aclrtAllocatorCreateDesc(), aclrtAllocatorDesc), "aclrtAllocatorCreateDesc");
_Static_assert(IS_TYPE(aclprofCreateStepInfo(), aclprofStepInfo *), "aclprofCreateStepInfo");
/* msproftx tensor information (frozen layout) and mstx */
_Static_assert(ACL_PROF_EVENT_ATTR_VERSION == 1, "ACL_PROF_EVENT_ATTR_VERSION");
_Static_assert(ACL_PROF_TENSOR_DATA_SHAPE_LEN == 8, "ACL_PROF_TENSOR_DATA_SHAPE_LEN");
_Static_assert(ACL_PROF_MESSAGE_TYPE_TENSOR_INFO == 0, "ACL_PROF_MESSAGE_TYPE_TENSOR_INFO");
_Static_assert(sizeof(aclprofTensor) == 48, "aclprofTensor");
_Static_assert(offsetof(aclprofTensorInfo, stream) == 32, "aclprofTensorInfo.stream");
_Static_assert(offsetof(aclprofEventAttributes, message) == 8, "aclprofEventAttributes.message");
_Static_assert(IS_TYPE(aclprofRangePushEx((aclprofEventAttributes *)0), aclError), "aclprofRangePushEx");
_Static_assert(IS_TYPE(aclprofStr2Id(""), uint64_t), "aclprofStr2Id");
_Static_assert(IS_TYPE(mstxRangeStartA("", (aclrtStream)0), mstxRangeId), "mstxRangeStartA");
_Static_assert(IS_TYPE(mstxDomainCreateA(""), mstxDomainHandle_t), "mstxDomainCreateA");
_Static_assert(MSTX_TOOL_MSPROF_ID == 0x1000, "MSTX_TOOL_MSPROF_ID");

/* A typical host program, type-checked only */
_Static_assert(sizeof(aclrtSetDevice(0)) == sizeof(aclError), "aclrtSetDevice");
_Static_assert(sizeof(aclrtMalloc((void **)NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST)) == sizeof(aclError), "aclrtMalloc");
_Static_assert(sizeof(aclrtMemcpy(NULL, 64, NULL, 64, ACL_MEMCPY_HOST_TO_DEVICE)) == sizeof(aclError),
               "aclrtMemcpy");
_Static_assert(sizeof(aclrtMemcpyAsync(NULL, 64, NULL, 64, ACL_MEMCPY_DEVICE_TO_HOST, NULL)) == sizeof(aclError),
               "aclrtMemcpyAsync");
_Static_assert(sizeof(aclrtCreateStreamWithConfig((aclrtStream *)NULL, 0, ACL_STREAM_FAST_LAUNCH)) ==
                   sizeof(aclError), "aclrtCreateStreamWithConfig");
_Static_assert(sizeof(aclmdlRICaptureBegin(NULL, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL)) == sizeof(aclError),
               "aclmdlRICaptureBegin");
_Static_assert(sizeof(aclmdlRICaptureEnd(NULL, (aclmdlRI *)NULL)) == sizeof(aclError), "aclmdlRICaptureEnd");
_Static_assert(sizeof(aclnnAddGetWorkspaceSize(NULL, NULL, NULL, NULL, (uint64_t *)NULL,
                                               (aclOpExecutor **)NULL)) == sizeof(aclnnStatus),
               "aclnnAddGetWorkspaceSize");
_Static_assert(sizeof(aclnnAdd(NULL, 0, NULL, NULL)) == sizeof(aclnnStatus), "aclnnAdd");

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        printf("# mismatch: %s\n", what);
        failures++;
    }
}

int main(void)
{
    /* static const int codes: not constant expressions in C, so checked here */
    check(ACL_SUCCESS == 0, "ACL_SUCCESS");
    check(ACL_ERROR_NONE == 0, "ACL_ERROR_NONE");
    check(ACL_ERROR_INVALID_PARAM == 100000, "ACL_ERROR_INVALID_PARAM");
    check(ACL_ERROR_REPEAT_INITIALIZE == 100002, "ACL_ERROR_REPEAT_INITIALIZE");
    check(ACL_ERROR_REPEAT_FINALIZE == 100037, "ACL_ERROR_REPEAT_FINALIZE");
    check(ACL_ERROR_PROF_REPEAT_SUBSCRIBE == 148046, "ACL_ERROR_PROF_REPEAT_SUBSCRIBE");
    check(ACL_ERROR_INVALID_BUNDLE_MODEL_ID == 148053, "ACL_ERROR_INVALID_BUNDLE_MODEL_ID");
    check(ACL_ERROR_BAD_ALLOC == 200000, "ACL_ERROR_BAD_ALLOC");
    check(ACL_ERROR_STORAGE_OVER_LIMIT == 300000, "ACL_ERROR_STORAGE_OVER_LIMIT");
    check(ACL_ERROR_PROFILING_FAILURE == 500005, "ACL_ERROR_PROFILING_FAILURE");
    check(ACL_ERROR_GE_PARAM_INVALID == 145000U, "ACL_ERROR_GE_PARAM_INVALID");
    check(ACL_ERROR_GE_REDEPLOYING == 545602U, "ACL_ERROR_GE_REDEPLOYING");
    check(ACL_COMPILE_FLAG_BIN_SELECTOR == 1, "ACL_COMPILE_FLAG_BIN_SELECTOR");

    /* ACL_APP_LOG needs a function scope (__func__); sizeof keeps it unevaluated */
    _Static_assert(sizeof((ACL_APP_LOG(ACL_INFO, "no arguments"), 0)) == sizeof(int), "ACL_APP_LOG");
    _Static_assert(sizeof((ACL_APP_LOG(ACL_ERROR, "code %d", 1), 0)) == sizeof(int), "ACL_APP_LOG with arguments");

    /* Aggregate initialisation as C programs write it */
    {
        dim3 grid = {4, 2, 1};
        aclrtMallocAttribute attr = {ACL_RT_MEM_ATTR_MODULE_ID, {.moduleId = 1}};
        aclrtMallocConfig cfg = {&attr, 1};
        aclmdlRITaskParams params = {.type = ACL_MODEL_RI_TASK_KERNEL};

        params.kernelTaskParams.numBlocks = grid.x;
        check(params.kernelTaskParams.numBlocks == 4 && cfg.numAttrs == 1, "aggregate initialisation");
    }

    printf("%s 1 - public headers build as C11 and their constants match the reference\n",
           failures ? "not ok" : "ok");
    return failures ? 1 : 0;
}
