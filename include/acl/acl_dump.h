/*
 * acl/acl_dump.h - data dump: the dump data callback, the operator args
 * dump and the dump paths (Documentation/dump.md). aclmdlInitDump,
 * aclmdlSetDump and aclmdlFinalizeDump are declared in acl_rt.h, as in
 * CANN.
 */
#ifndef VNPU_ACL_ACL_DUMP_H
#define VNPU_ACL_ACL_DUMP_H

#include <stddef.h>
#include <stdint.h>

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One piece of a dump file handed to the dump callback. */
#define ACL_DUMP_MAX_FILE_PATH_LENGTH 4096
typedef struct acldumpChunk {
	char fileName[ACL_DUMP_MAX_FILE_PATH_LENGTH]; /* the file it would be */
	uint32_t bufLen;		/* bytes in dataBuf */
	uint32_t isLastChunk;		/* 1 on the file's last piece */
	int64_t offset;			/* of dataBuf within the file */
	int32_t flag;			/* reserved */
	uint8_t dataBuf[];		/* bufLen bytes */
} acldumpChunk;

ACL_FUNC_VISIBILITY aclError acldumpRegCallback(
	int32_t (*const messageCallback)(const acldumpChunk *, int32_t), int32_t flag);
ACL_FUNC_VISIBILITY void acldumpUnregCallback(void);

#define ACL_OP_DUMP_OP_AICORE_ARGS 0x00000001U

ACL_FUNC_VISIBILITY aclError aclopStartDumpArgs(uint32_t dumpType, const char *path);
ACL_FUNC_VISIBILITY aclError aclopStopDumpArgs(uint32_t dumpType);

typedef enum acldumpType {
	AIC_ERR_BRIEF_DUMP = 1,
	AIC_ERR_NORM_DUMP = 2,
	AIC_ERR_DETAIL_DUMP = 3,
	DATA_DUMP = 4,
	OVERFLOW_DUMP = 5
} acldumpType;

ACL_FUNC_VISIBILITY const char *acldumpGetPath(acldumpType dumpType);

#define ACL_DUMP_MAX_SHAPE_NUM 25

typedef enum acldumpTensorType {
	ACL_DUMP_TENSOR_INPUT = 0,
	ACL_DUMP_TENSOR_OUTPUT,
	ACL_DUMP_TENSOR_WORKSPACE
} acldumpTensorType;

typedef enum acldumpTensorAddressType {
	ACL_DUMP_ADDR_PTR = 0,
	ACL_DUMP_ADDR_PTR_PTR,
	ACL_DUMP_ADDR_RAW
} acldumpTensorAddressType;

typedef enum acldumpTensorPlacement {
	ACL_DUMP_PLACEMENT_DEVICE = 0,
	ACL_DUMP_PLACEMENT_HOST,
	ACL_DUMP_PLACEMENT_END
} acldumpTensorPlacement;

typedef struct acldumpTensorInfo {
	acldumpTensorType type;
	size_t tensorSize;
	int32_t format;
	int32_t dataType;
	int64_t *tensorAddr;
	acldumpTensorAddressType addrType;
	acldumpTensorPlacement placement;
	uint32_t argsOffset;
	uint32_t shapeNum;
	uint32_t originShapeNum;
	uint64_t shape[ACL_DUMP_MAX_SHAPE_NUM];
	uint64_t originShape[ACL_DUMP_MAX_SHAPE_NUM];
} acldumpTensorInfo;

/* Exception dump (AI Core errors): not provided by vnpu (dump.md). */
ACL_FUNC_VISIBILITY aclError acldumpSaveExceptionInfo(
	const char *fileName, const char *userTag, const acldumpTensorInfo *tensors,
	size_t tensorCount);
ACL_FUNC_VISIBILITY aclError acldumpGetExceptionInfoPath(char *path, size_t maxLen);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACL_ACL_DUMP_H */
