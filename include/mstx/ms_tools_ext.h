/*
 * mstx/ms_tools_ext.h - mstx, the tools extension markers: instant marks
 * and ranges, optionally scoped by a named domain, optionally tied to a
 * stream. vnpu records them in libascendcl (also installed under CANN's
 * name libms_tools_ext.so) while a profiling session collects
 * ACL_PROF_MSPROFTX; otherwise every call does nothing. See
 * Documentation/profiling.md, "msproftx and mstx".
 */
#ifndef VNPU_MSTX_MS_TOOLS_EXT_H
#define VNPU_MSTX_MS_TOOLS_EXT_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MSTX_SUCCESS 0
#define MSTX_FAIL 1

/* Tool identifiers mstxGetToolId may report */
#define MSTX_TOOL_INVALID_ID 0x0
#define MSTX_TOOL_MSPROF_ID 0x1000
#define MSTX_TOOL_MSOPPROF_ID 0x1001
#define MSTX_TOOL_MSSANITIZER_ID 0x1002
#define MSTX_TOOL_MSLEAKS_ID 0x1003

/* A range id; 0 is never a valid one (a range that could not start) */
#define MSTX_INVALID_ID 0
typedef uint64_t mstxRangeId;

/* A named domain (mstxDomainCreateA) */
struct mstxDomainRegistration_st;
typedef struct mstxDomainRegistration_st mstxDomainRegistration_t;
typedef mstxDomainRegistration_t *mstxDomainHandle_t;

/* Memory pools and regions (accepted and ignored by vnpu) */
struct mstxMemHeap_st;
typedef struct mstxMemHeap_st mstxMemHeap_t;
typedef mstxMemHeap_t *mstxMemHeapHandle_t;

struct mstxMemRegion_st;
typedef struct mstxMemRegion_st mstxMemRegion_t;
typedef mstxMemRegion_t *mstxMemRegionHandle_t;

typedef struct mstxMemVirtualRangeDesc_t {
    uint32_t deviceId;
    void const *ptr;
    uint64_t size;
} mstxMemVirtualRangeDesc_t;

typedef enum mstxMemHeapUsageType {
    MSTX_MEM_HEAP_USAGE_TYPE_SUB_ALLOCATOR = 0,
} mstxMemHeapUsageType;

typedef enum mstxMemType {
    MSTX_MEM_TYPE_VIRTUAL_ADDRESS = 0,
} mstxMemType;

typedef struct mstxMemHeapDesc_t {
    mstxMemHeapUsageType usage;
    mstxMemType type;
    void const *typeSpecificDesc;   /* mstxMemVirtualRangeDesc_t */
} mstxMemHeapDesc_t;

typedef struct mstxMemRegionsRegisterBatch_t {
    mstxMemHeapHandle_t heap;
    mstxMemType regionType;
    size_t regionCount;
    void const *regionDescArray;    /* regionCount mstxMemVirtualRangeDesc_t */
    mstxMemRegionHandle_t *regionHandleArrayOut;
} mstxMemRegionsRegisterBatch_t;

typedef enum mstxMemRegionRefType {
    MSTX_MEM_REGION_REF_TYPE_POINTER = 0,
    MSTX_MEM_REGION_REF_TYPE_HANDLE,
} mstxMemRegionRefType;

typedef struct mstxMemRegionRef_t {
    mstxMemRegionRefType refType;
    union {
        void const *pointer;
        mstxMemRegionHandle_t handle;
    };
} mstxMemRegionRef_t;

typedef struct mstxMemRegionsUnregisterBatch_t {
    size_t refCount;
    mstxMemRegionRef_t const *refArray;
} mstxMemRegionsUnregisterBatch_t;

/* An instant event; message must not be NULL, stream may be. */
ACL_FUNC_VISIBILITY void mstxMarkA(const char *message, aclrtStream stream);

/* A range's start: its id for mstxRangeEnd, or 0 when it was not recorded. */
ACL_FUNC_VISIBILITY mstxRangeId mstxRangeStartA(const char *message, aclrtStream stream);

/* A range's end (any thread). */
ACL_FUNC_VISIBILITY void mstxRangeEnd(mstxRangeId id);

/* A domain: name must be unique per process; NULL on failure. */
ACL_FUNC_VISIBILITY mstxDomainHandle_t mstxDomainCreateA(const char *name);
ACL_FUNC_VISIBILITY void mstxDomainDestroy(mstxDomainHandle_t domain);

/* The same events scoped by a domain. */
ACL_FUNC_VISIBILITY void mstxDomainMarkA(mstxDomainHandle_t domain, const char *message, aclrtStream stream);
ACL_FUNC_VISIBILITY mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char *message,
    aclrtStream stream);
ACL_FUNC_VISIBILITY void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id);

/* Memory pools and regions. */
ACL_FUNC_VISIBILITY mstxMemHeapHandle_t mstxMemHeapRegister(mstxDomainHandle_t domain,
    mstxMemHeapDesc_t const *desc);
ACL_FUNC_VISIBILITY void mstxMemHeapUnregister(mstxDomainHandle_t domain, mstxMemHeapHandle_t heap);
ACL_FUNC_VISIBILITY void mstxMemRegionsRegister(mstxDomainHandle_t domain,
    mstxMemRegionsRegisterBatch_t const *desc);
ACL_FUNC_VISIBILITY void mstxMemRegionsUnregister(mstxDomainHandle_t domain,
    mstxMemRegionsUnregisterBatch_t const *desc);

/* The registered tool: MSTX_TOOL_MSPROF_ID while vnpu collects markers. */
ACL_FUNC_VISIBILITY void mstxGetToolId(uint64_t *id);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_MSTX_MS_TOOLS_EXT_H */
