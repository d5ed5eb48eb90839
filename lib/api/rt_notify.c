/* SPDX-License-Identifier: MIT */
/*
 * Notifies of acl_rt.h: binary (aclrtNotify) and counting
 * (aclrtCntNotify). Each is a device word that stream tasks write and
 * wait for (lib/core/notify.c), so records and waits keep stream order,
 * work across streams of a device and are captured into graphs.
 */
#include <errno.h>

#include "rt_common.h"
#include "../core/prof_rt.h"

/* The driver's longest WAIT_VALUE; longer timeouts are cut to it. */
#define NOTIFY_WAIT_MAX_MS (DRM_VNPU_MAX_WAIT_NS / 1000000ULL)

static aclError notify_arg(const char *func, void *handle, bool counting)
{
	if (!handle)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "the notify must not be NULL");
	if (!handle_live(counting ? HANDLE_CNT_NOTIFY : HANDLE_NOTIFY, handle))
		return acl_fail_at(func, ACL_ERROR_RT_PARAM_INVALID,
				   "%p is not a live %s", handle,
				   counting ? "count notify" : "notify");
	return ACL_SUCCESS;
}

/*
 * A timeout in ms as the WAIT_VALUE task's: 0 takes aclrtSetOpWaitTimeout's
 * (if any), longer than the driver allows becomes the driver's longest.
 */
static uint64_t wait_ns(uint32_t timeout_ms)
{
	if (!timeout_ms)
		return rt_op_wait_ns();
	if (timeout_ms > NOTIFY_WAIT_MAX_MS)
		return 0;
	return (uint64_t)timeout_ms * 1000000ULL;
}

static aclError create(const char *func, void **out, uint64_t flag,
		       bool counting)
{
	struct rt_notify *n;
	int ret;

	if (!runtime_initialized())
		return rt_uninit_error(func);
	if (!out)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "the notify pointer must not be NULL");
	if (flag != ACL_NOTIFY_DEFAULT &&
	    (counting || flag != ACL_NOTIFY_DEVICE_USE_ONLY))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "flag 0x%llx is not a notify flag",
				   (unsigned long long)flag);
	ret = notify_create(counting, &n);
	if (ret == -EBUSY)
		return acl_fail_at(func, ACL_ERROR_RT_RESOURCE_ALLOC_FAIL,
				   "all %d notifies of the device are in use",
				   NOTIFY_SLOTS);
	if (ret)
		return rt_error_at(func, ret, 0, "creating the notify");
	*out = n;
	return ACL_SUCCESS;
}

static aclError destroy(const char *func, void *handle, bool counting)
{
	aclError e;

	if (!runtime_initialized())
		return rt_uninit_error(func);
	e = notify_arg(func, handle, counting);
	if (e)
		return e;
	if (notify_destroy(handle))	/* a racing destroy won */
		return acl_fail_at(func, ACL_ERROR_RT_PARAM_INVALID,
				   "%p is not a live notify", handle);
	return ACL_SUCCESS;
}

/* Check the notify and resolve the stream (NULL: default stream). */
static aclError notify_stream(const char *func, void *handle, bool counting,
			      aclrtStream stream, struct rt_stream **s)
{
	aclError e;

	if (!runtime_initialized())
		return rt_uninit_error(func);
	e = notify_arg(func, handle, counting);
	return e ? e : rt_stream_arg(func, stream, s);
}

aclError aclrtCreateNotify(aclrtNotify *notify, uint64_t flag)
{
	PROF_API();
	return create(__func__, notify, flag, false);
}

aclError aclrtDestroyNotify(aclrtNotify notify)
{
	PROF_API();
	return destroy(__func__, notify, false);
}

aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream)
{
	PROF_API();
	struct rt_stream *s;
	aclError e = notify_stream(__func__, notify, false, stream, &s);
	int ret;

	if (e)
		return e;
	ret = notify_write(notify, s, 1);
	return ret ? rt_error(ret, "recording the notify") : ACL_SUCCESS;
}

/* Waits until the notify is set, then clears it, both on the stream. */
aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream,
				 uint32_t timeout)
{
	PROF_API();
	struct rt_stream *s;
	aclError e = notify_stream(__func__, notify, false, stream, &s);
	int ret;

	if (e)
		return e;
	ret = notify_wait(notify, s, DRM_VNPU_WAIT_EQ, 1, wait_ns(timeout), true);
	return ret ? rt_error(ret, "waiting for the notify") : ACL_SUCCESS;
}

static aclError get_id(const char *func, void *handle, bool counting,
		       uint32_t *id)
{
	aclError e;

	if (!runtime_initialized())
		return rt_uninit_error(func);
	e = notify_arg(func, handle, counting);
	if (e)
		return e;
	if (!id)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "notifyId must not be NULL");
	*id = ((struct rt_notify *)handle)->slot;
	return ACL_SUCCESS;
}

aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t *notifyId)
{
	PROF_API();
	return get_id(__func__, notify, false, notifyId);
}

/* Clears the notifies from the host at once; all are checked first. */
aclError aclrtNotifyBatchReset(aclrtNotify *notifies, size_t num)
{
	PROF_API();
	aclError e;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(notifies);
	if (!num)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "num must not be 0");
	for (size_t i = 0; i < num; i++) {
		e = notify_arg(__func__, notifies[i], false);
		if (e)
			return acl_fail(e, "notifies[%zu] is not a live notify", i);
		if (!((struct rt_notify *)notifies[i])->dev)
			return acl_fail(ACL_ERROR_RT_PARAM_INVALID,
					"notifies[%zu] belongs to a reset device", i);
	}
	for (size_t i = 0; i < num; i++)
		notify_host_reset(notifies[i]);
	return ACL_SUCCESS;
}

aclError aclrtCntNotifyCreate(aclrtCntNotify *cntNotify, uint64_t flag)
{
	PROF_API();
	return create(__func__, cntNotify, flag, true);
}

aclError aclrtCntNotifyDestroy(aclrtCntNotify cntNotify)
{
	PROF_API();
	return destroy(__func__, cntNotify, true);
}

/*
 * Only SET can be done: the device has a plain write, no atomic
 * read-modify-write, so ADD / OR / AND are not supported.
 */
aclError aclrtCntNotifyRecord(aclrtCntNotify cntNotify, aclrtStream stream,
			      aclrtCntNotifyRecordInfo *info)
{
	PROF_API();
	struct rt_stream *s;
	aclError e = notify_stream(__func__, cntNotify, true, stream, &s);
	int ret;

	if (e)
		return e;
	RT_REQUIRE_ARG(info);
	switch (info->mode) {
	case ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE:
		break;
	case ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE:
	case ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE:
	case ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE:
		return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				"record mode %d needs an atomic update the vnpu device does not have; only ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE is supported",
				(int)info->mode);
	default:
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"record mode %d is unknown", (int)info->mode);
	}
	ret = notify_write(cntNotify, s, info->value);
	return ret ? rt_error(ret, "recording the count notify") : ACL_SUCCESS;
}

/* EQUAL, BIGGER and BIGGER_OR_EQUAL map onto the driver's comparisons. */
aclError aclrtCntNotifyWaitWithTimeout(aclrtCntNotify cntNotify,
				       aclrtStream stream,
				       aclrtCntNotifyWaitInfo *info)
{
	PROF_API();
	struct rt_stream *s;
	aclError e = notify_stream(__func__, cntNotify, true, stream, &s);
	uint64_t value;
	uint32_t cond;
	int ret;

	if (e)
		return e;
	RT_REQUIRE_ARG(info);
	if (info->isClear > 1)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"isClear must be 0 or 1, not %u", info->isClear);
	value = info->value;
	switch (info->mode) {
	case ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE:
		cond = DRM_VNPU_WAIT_EQ;
		break;
	case ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE:
		cond = DRM_VNPU_WAIT_GEQ;
		value++;	/* a 32-bit value: cannot wrap in 64 bits */
		break;
	case ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE:
		cond = DRM_VNPU_WAIT_GEQ;
		break;
	case ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE:
	case ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE:
		return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				"wait mode %d has no matching vnpu comparison (EQUAL, BIGGER and BIGGER_OR_EQUAL are supported)",
				(int)info->mode);
	default:
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"wait mode %d is unknown", (int)info->mode);
	}
	ret = notify_wait(cntNotify, s, cond, value, wait_ns(info->timeout),
			  info->isClear);
	return ret ? rt_error(ret, "waiting for the count notify") : ACL_SUCCESS;
}

aclError aclrtCntNotifyReset(aclrtCntNotify cntNotify, aclrtStream stream)
{
	PROF_API();
	struct rt_stream *s;
	aclError e = notify_stream(__func__, cntNotify, true, stream, &s);
	int ret;

	if (e)
		return e;
	ret = notify_write(cntNotify, s, 0);
	return ret ? rt_error(ret, "resetting the count notify") : ACL_SUCCESS;
}

aclError aclrtCntNotifyGetId(aclrtCntNotify cntNotify, uint32_t *notifyId)
{
	PROF_API();
	return get_id(__func__, cntNotify, true, notifyId);
}
