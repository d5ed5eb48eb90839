// SPDX-License-Identifier: MIT
//
// Public ACL headers, compiled as C++11 (-std=c++11 -Wall -Wextra -Werror).
//
// Includes every public header, checks values with static_assert and
// type-checks code written the way CANN C++ samples write it.  That code sits
// in a function template that is never instantiated: its non-dependent calls
// are fully checked when the template is defined, but nothing refers to
// libacl symbols, so the program links without the library.
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
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_argmin.h"
#include "aclnnop/aclnn_prod.h"
#include "aclnnop/aclnn_logsumexp.h"
#include "aclnnop/aclnn_norm.h"
#include "aclnnop/aclnn_cumsum.h"
#include "aclnnop/aclnn_triu.h"
#include "aclnnop/aclnn_tril.h"
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_instance_norm.h"
#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_util.h"

#include <cstdio>
#include <type_traits>

// Interface version
static_assert(ACL_MAJOR_VERSION == 1 && ACL_MINOR_VERSION == 17 && ACL_PATCH_VERSION == 0, "version 1.17.0");

// General error codes are static const int: usable in constant expressions in C++
static_assert(ACL_SUCCESS == 0, "ACL_SUCCESS");
static_assert(ACL_ERROR_INVALID_PARAM == 100000, "ACL_ERROR_INVALID_PARAM");
static_assert(ACL_ERROR_REPEAT_INITIALIZE == 100002, "ACL_ERROR_REPEAT_INITIALIZE");
static_assert(ACL_ERROR_REPEAT_FINALIZE == 100037, "ACL_ERROR_REPEAT_FINALIZE");
static_assert(ACL_ERROR_PROF_REPEAT_SUBSCRIBE == 148046, "ACL_ERROR_PROF_REPEAT_SUBSCRIBE");
static_assert(sizeof(aclprofEventAttributes) == 16, "aclprofEventAttributes");
static_assert(sizeof(mstxRangeId) == 8, "mstxRangeId");
static_assert(ACL_ERROR_FEATURE_UNSUPPORTED == 200006, "ACL_ERROR_FEATURE_UNSUPPORTED");
static_assert(ACL_ERROR_RT_FAILURE == 500003, "ACL_ERROR_RT_FAILURE");
static_assert(ACL_ERROR_GE_EXEC_MODEL_ID_INVALID == 145003U, "ACL_ERROR_GE_EXEC_MODEL_ID_INVALID");
static_assert(ACL_ERROR_RT_NO_DEVICE == 207004, "ACL_ERROR_RT_NO_DEVICE");
static_assert(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD == 107038, "ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD");
static_assert(ACLNN_ERR_PARAM_INVALID == 161002, "ACLNN_ERR_PARAM_INVALID");
static_assert(OK == 0, "aclnn OK");

// Enumerations, including qualified access to unnamed typedef'd enums
static_assert(aclDataType::ACL_FLOAT == 0, "ACL_FLOAT");
static_assert(aclDataType::ACL_BF16 == 27, "ACL_BF16");
static_assert(ACL_FLOAT16 == 1 && ACL_INT64 == 9 && ACL_COMPLEX32 == 33, "aclDataType values");
static_assert(aclFormat::ACL_FORMAT_NCHW == 0 && ACL_FORMAT_NC1HWC0 == 3, "aclFormat values");
static_assert(aclrtMemcpyKind::ACL_MEMCPY_DEVICE_TO_DEVICE == 3, "ACL_MEMCPY_DEVICE_TO_DEVICE");
static_assert(aclrtMemMallocPolicy::ACL_MEM_MALLOC_HUGE_ONLY == 1, "ACL_MEM_MALLOC_HUGE_ONLY");
static_assert(aclmdlRICaptureMode::ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL == 1, "THREAD_LOCAL");
static_assert(ACL_EVENT_STATUS_RESERVED == 2 && ACL_EVENT_WAIT_STATUS_RESERVED == 0xFFFF, "event status");
static_assert(ACL_RT_ATOMIC_CAPABILITY_VECTOR32X4 == (1U << 8), "atomic capability bits");

// Types
static_assert(std::is_same<aclError, int>::value, "aclError is int");
static_assert(std::is_same<aclnnStatus, int32_t>::value, "aclnnStatus is int32_t");
static_assert(std::is_same<aclFloat16, uint16_t>::value, "aclFloat16 is uint16_t");
static_assert(std::is_same<aclrtStream, void *>::value, "aclrtStream is a pointer handle");
static_assert(std::is_same<decltype(aclInit(nullptr)), aclError>::value, "aclInit");
static_assert(std::is_same<decltype(aclFinalize()), aclError>::value, "aclFinalize");
static_assert(std::is_same<decltype(aclrtGetSocName()), const char *>::value, "aclrtGetSocName");
static_assert(std::is_same<decltype(aclCreateScalar(nullptr, ACL_FLOAT)), aclScalar *>::value, "aclCreateScalar");
static_assert(sizeof(aclrtUuid) == 16 && sizeof(aclrtIpcEventHandle) == 64, "fixed-size handles");
static_assert(sizeof(dim3) == 12, "dim3");

// dim3 keeps its C++ convenience constructor; defaulted extents are 1
static_assert(dim3(8).y == 1 && dim3(8, 4).z == 1 && dim3(8, 4, 2).z == 2, "dim3 constructor");

// Sample-style host code; checked at definition, never instantiated.
template <typename Unused>
aclError sample_program(Unused)
{
    aclError ret = aclInit(nullptr);
    ret = aclrtSetDevice(0);
    aclrtContext context = nullptr;
    ret = aclrtCreateContext(&context, 0);
    aclrtStream stream = nullptr;
    ret = aclrtCreateStream(&stream);

    void *dev = nullptr;
    size_t size = 64 * sizeof(float);
    ret = aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_FIRST);
    void *host = nullptr;
    ret = aclrtMallocHost(&host, size);
    ret = aclrtMemcpy(dev, size, host, size, ACL_MEMCPY_HOST_TO_DEVICE);

    int64_t shape[2] = {8, 8};
    aclTensor *tensor = aclCreateTensor(shape, 2, aclDataType::ACL_FLOAT, nullptr, 0, aclFormat::ACL_FORMAT_ND,
                                        shape, 2, dev);
    float alphaValue = 1.0f;
    aclScalar *alpha = aclCreateScalar(&alphaValue, ACL_FLOAT);
    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = nullptr;

    aclmdlRI graph = nullptr;
    ret = aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
    aclnnStatus st = aclnnAddGetWorkspaceSize(tensor, tensor, alpha, tensor, &workspaceSize, &executor);
    st = aclnnAdd(nullptr, workspaceSize, executor, stream);
    ret = aclmdlRICaptureEnd(stream, &graph);
    ret = aclmdlRIExecuteAsync(graph, stream);
    ret = aclrtSynchronizeStream(stream);
    ret = aclmdlRIDestroy(graph);

    aclmdlDataset *dataset = aclmdlCreateDataset();
    aclDataBuffer *buffer = aclCreateDataBuffer(dev, size);
    ret = aclmdlAddDatasetBuffer(dataset, buffer);
    ACL_APP_LOG(ACL_INFO, "status %d", static_cast<int>(st));

    ret = aclDestroyDataBuffer(buffer);
    ret = aclmdlDestroyDataset(dataset);
    st = aclDestroyScalar(alpha);
    st = aclDestroyTensor(tensor);
    ret = aclrtFreeHost(host);
    ret = aclrtFree(dev);
    ret = aclrtDestroyStream(stream);
    ret = aclrtDestroyContext(context);
    ret = aclrtResetDevice(0);
    return ret == ACL_SUCCESS ? aclFinalize() : ret;
}

int main()
{
    // Values that are only known at run time in C are compile-time here; a
    // runtime comparison still documents the expected behaviour.
    aclDataType dt = aclDataType::ACL_FLOAT;
    int failures = 0;
    if (dt != ACL_FLOAT) {
        failures++;
    }
    std::printf("%s 1 - public headers build as C++ and their constants match the reference\n",
                failures ? "not ok" : "ok");
    return failures ? 1 : 0;
}
