/* SPDX-License-Identifier: MIT */
/*
 * aclrtCreateStreamV2 and its configuration handle. The handle's layout
 * is public, so live handles are tracked in the handle set rather than
 * by a magic number. vnpu streams need no work memory: the work address
 * and size are checked and kept, not used.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rt_common.h"
#include "../core/prof_rt.h"

aclrtStreamConfigHandle *aclrtCreateStreamConfigHandle(void)
{
	PROF_API();
	aclrtStreamConfigHandle *h = calloc(1, sizeof(*h));

	if (!h) {
		acl_fail(ACL_ERROR_BAD_ALLOC, "no memory for a stream configuration");
		return NULL;
	}
	if (handle_add(HANDLE_STREAM_CONFIG, h)) {
		free(h);
		acl_fail(ACL_ERROR_BAD_ALLOC, "no memory for a stream configuration");
		return NULL;
	}
	return h;
}

static aclError config_arg(const char *func, const aclrtStreamConfigHandle *h)
{
	if (!h)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "handle must not be NULL");
	if (!handle_live(HANDLE_STREAM_CONFIG, h))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%p is not a live stream configuration handle",
				   (const void *)h);
	return ACL_SUCCESS;
}

aclError aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle *handle)
{
	PROF_API();
	aclError e = config_arg(__func__, handle);

	if (e)
		return e;
	if (!handle_remove(HANDLE_STREAM_CONFIG, handle))
		return config_arg(__func__, handle);	/* a racing destroy won */
	free(handle);
	return ACL_SUCCESS;
}

/* valueSize must be the size of the attribute's type. */
static aclError size_check(const char *what, size_t got, size_t want)
{
	if (got == want)
		return ACL_SUCCESS;
	return acl_fail_at("aclrtSetStreamConfigOpt", ACL_ERROR_INVALID_PARAM,
			   "valueSize of %s must be %zu, not %zu", what, want, got);
}

aclError aclrtSetStreamConfigOpt(aclrtStreamConfigHandle *handle,
				 aclrtStreamConfigAttr attr,
				 const void *attrValue, size_t valueSize)
{
	PROF_API();
	aclError e = config_arg(__func__, handle);
	uint32_t u32;

	if (e)
		return e;
	RT_REQUIRE_ARG(attrValue);
	switch (attr) {
	case ACL_RT_STREAM_WORK_ADDR_PTR:
		e = size_check("ACL_RT_STREAM_WORK_ADDR_PTR", valueSize, sizeof(void *));
		if (!e)
			memcpy(&handle->workptr, attrValue, sizeof(void *));
		return e;
	case ACL_RT_STREAM_WORK_SIZE:
		e = size_check("ACL_RT_STREAM_WORK_SIZE", valueSize, sizeof(size_t));
		if (!e)
			memcpy(&handle->workSize, attrValue, sizeof(size_t));
		return e;
	case ACL_RT_STREAM_FLAG:
		e = size_check("ACL_RT_STREAM_FLAG", valueSize, sizeof(uint32_t));
		if (!e) {
			memcpy(&u32, attrValue, sizeof(u32));
			handle->flag = u32;
		}
		return e;
	case ACL_RT_STREAM_PRIORITY:
		e = size_check("ACL_RT_STREAM_PRIORITY", valueSize, sizeof(uint32_t));
		if (e)
			return e;
		memcpy(&u32, attrValue, sizeof(u32));
		if (u32 > 7)
			return acl_fail(ACL_ERROR_INVALID_PARAM,
					"priority %u is out of range 0..7", u32);
		handle->priority = u32;
		return ACL_SUCCESS;
	default:
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"attribute %d is not an aclrtStreamConfigAttr",
				(int)attr);
	}
}

aclError aclrtCreateStreamV2(aclrtStream *stream,
			     const aclrtStreamConfigHandle *handle)
{
	PROF_API();
	aclError e;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(stream);
	e = config_arg(__func__, handle);
	if (e)
		return e;
	if (handle->workSize && !handle->workptr)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"a work size of %zu bytes without a work address",
				handle->workSize);
	return rt_stream_create(__func__, stream,
				rt_driver_priority(handle->priority),
				handle->priority, (uint32_t)handle->flag);
}
