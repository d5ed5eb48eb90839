/*
 * acl/acl_op.h - legacy single-operator interface (aclop*): operator
 * attributes, execution of pre-compiled operators and custom kernels.
 *
 * New code should prefer the aclnn two-phase interface (aclnn/aclnn_base.h).
 */
#ifndef VNPU_ACL_ACL_OP_H
#define VNPU_ACL_ACL_OP_H

#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Opaque operator objects */
typedef struct aclopHandle aclopHandle;
typedef struct aclopAttr aclopAttr;
typedef struct aclopKernelDesc aclopKernelDesc;

/* Releases kernel binary data handed to aclopCreateKernel */
typedef void (*aclDataDeallocator)(void *data, size_t length);

static const int ACL_COMPILE_FLAG_BIN_SELECTOR = 1;

/* Engine a custom kernel runs on */
typedef enum aclEngineType {
    ACL_ENGINE_SYS,
    ACL_ENGINE_AICORE,
    ACL_ENGINE_VECTOR,
} aclopEngineType;

/* Selects and configures the kernel for one operator invocation */
typedef aclError (*aclopCompileFunc)(int numInputs, const aclTensorDesc *const inputDesc[], int numOutputs,
    const aclTensorDesc *const outputDesc[], const aclopAttr *opAttr, aclopKernelDesc *aclopKernelDesc);

/* Pre-built single-operator models */
ACL_FUNC_VISIBILITY aclError aclopSetModelDir(const char *modelDir);
ACL_FUNC_VISIBILITY aclError aclopLoad(const void *model, size_t modelSize);
ACL_FUNC_VISIBILITY aclError aclopSetMaxOpQueueNum(uint64_t maxOpNum);

/* Operator attributes */
ACL_FUNC_VISIBILITY aclopAttr *aclopCreateAttr(void);
ACL_FUNC_VISIBILITY void aclopDestroyAttr(const aclopAttr *attr);
ACL_FUNC_VISIBILITY aclError aclopSetAttrBool(aclopAttr *attr, const char *attrName, uint8_t attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrInt(aclopAttr *attr, const char *attrName, int64_t attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrFloat(aclopAttr *attr, const char *attrName, float attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrString(aclopAttr *attr, const char *attrName, const char *attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrDataType(aclopAttr *attr, const char *attrName, aclDataType attrValue);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListDataType(
    aclopAttr *attr, const char *attrName, int numValues, const aclDataType values[]);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListBool(
    aclopAttr *attr, const char *attrName, int numValues, const uint8_t *values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListInt(
    aclopAttr *attr, const char *attrName, int numValues, const int64_t *values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListFloat(
    aclopAttr *attr, const char *attrName, int numValues, const float *values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListString(
    aclopAttr *attr, const char *attrName, int numValues, const char **values);
ACL_FUNC_VISIBILITY aclError aclopSetAttrListListInt(
    aclopAttr *attr, const char *attrName, int numLists, const int *numValues, const int64_t *const values[]);

/* Execution */
ACL_DEPRECATED_MESSAGE("aclopExecute is deprecated, use aclopExecuteV2 instead")
ACL_FUNC_VISIBILITY aclError aclopExecute(
    const char *opType, int numInputs, const aclTensorDesc *const inputDesc[], const aclDataBuffer *const inputs[],
    int numOutputs, const aclTensorDesc *const outputDesc[], aclDataBuffer *const outputs[], const aclopAttr *attr,
    aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclopExecuteV2(
    const char *opType, int numInputs, aclTensorDesc *inputDesc[], aclDataBuffer *inputs[], int numOutputs,
    aclTensorDesc *outputDesc[], aclDataBuffer *outputs[], aclopAttr *attr, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclopCreateHandle(
    const char *opType, int numInputs, const aclTensorDesc *const inputDesc[], int numOutputs,
    const aclTensorDesc *const outputDesc[], const aclopAttr *opAttr, aclopHandle **handle);
ACL_FUNC_VISIBILITY void aclopDestroyHandle(aclopHandle *handle);
ACL_FUNC_VISIBILITY aclError aclopExecWithHandle(
    aclopHandle *handle, int numInputs, const aclDataBuffer *const inputs[], int numOutputs,
    aclDataBuffer *const outputs[], aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclopCast(
    const aclTensorDesc *srcDesc, const aclDataBuffer *srcBuffer, const aclTensorDesc *dstDesc,
    aclDataBuffer *dstBuffer, uint8_t truncate, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclopCreateHandleForCast(
    aclTensorDesc *srcDesc, aclTensorDesc *dstDesc, uint8_t truncate, aclopHandle **handle);
ACL_FUNC_VISIBILITY aclError aclopInferShape(
    const char *opType, int numInputs, aclTensorDesc *inputDesc[], aclDataBuffer *inputs[], int numOutputs,
    aclTensorDesc *outputDesc[], aclopAttr *attr);
ACL_FUNC_VISIBILITY aclError aclopUpdateParams(
    const char *opType, int numInputs, const aclTensorDesc *const inputDesc[], int numOutputs,
    const aclTensorDesc *const outputDesc[], const aclopAttr *attr);

/* Custom kernels */
ACL_FUNC_VISIBILITY aclError aclopCreateKernel(
    const char *opType, const char *kernelId, const char *kernelName, void *binData, int binSize,
    aclopEngineType enginetype, aclDataDeallocator deallocator);
ACL_FUNC_VISIBILITY aclError aclopRegisterCompileFunc(const char *opType, aclopCompileFunc func);
ACL_FUNC_VISIBILITY aclError aclopUnregisterCompileFunc(const char *opType);
ACL_FUNC_VISIBILITY aclError aclopSetKernelArgs(
    aclopKernelDesc *kernelDesc, const char *kernelId, uint32_t blockDim, const void *args, uint32_t argSize);
ACL_FUNC_VISIBILITY aclError aclopSetKernelWorkspaceSizes(
    aclopKernelDesc *kernelDesc, int numWorkspaces, size_t *workspaceSizes);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACL_ACL_OP_H */
