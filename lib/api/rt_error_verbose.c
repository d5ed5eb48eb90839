/* SPDX-License-Identifier: MIT */
/*
 * aclrtGetErrorVerbose: what went wrong on a device, in CANN's terms. A
 * device page fault is a memory error whose detail names the faulting
 * range (the driver's FAULT_INFO); any other failed job (a timeout, an
 * aborted or failed host task) is "other"; no failure is NO_ERROR. Like
 * the A2/A3 products, only these three types are reported, and nothing is
 * ever marked for repair.
 */
#include <errno.h>
#include <string.h>

#include "rt_common.h"
#include "../core/prof_rt.h"

aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo *errorInfo)
{
	PROF_API();
	aclError e = rt_device_id_arg(__func__, deviceId);
	struct drm_vnpu_fault_info fault;
	aclrtMemUceInfo *uce;
	int job_err, ret;

	if (e)
		return e;
	RT_REQUIRE_ARG(errorInfo);
	ret = device_error_state(deviceId, &job_err, &fault);
	if (ret)
		return rt_error(ret, "reading the device's fault record");
	memset(errorInfo, 0, sizeof(*errorInfo));
	errorInfo->errorType = ACL_RT_NO_ERROR;
	if (fault.count) {
		errorInfo->errorType = ACL_RT_ERROR_MEMORY;
		errorInfo->hasDetail = 1;
		errorInfo->detail.uceInfo.arraySize = 1;
		uce = &errorInfo->detail.uceInfo.memUceInfoArray[0];
		uce->addr = (void *)(uintptr_t)fault.va;
		uce->len = (size_t)fault.length;
	} else if (job_err) {
		errorInfo->errorType = ACL_RT_ERROR_OTHERS;
	}
	return ACL_SUCCESS;
}
