/* SPDX-License-Identifier: MIT */
/*
 * Compute-core limits of acl_rt.h (aclrt*ResLimit, aclrt*StreamRes*). The
 * driver lets any engine take any queue's job, so a limit cannot confine
 * work: the limits are checked against the device's engine count, kept
 * (per device, per stream) and reported. Without a limit, the device's
 * engine count is reported; cube and vector cores are the same engines.
 */
#include <errno.h>

#include "rt_common.h"
#include "../core/prof_rt.h"

#define RES_TYPES 2

static _Atomic uint32_t dev_res[VNPU_MAX_DEVICES][RES_TYPES];
/* aclrtUseStreamResInCurrentThread: the stream whose limits apply. */
static _Thread_local struct rt_stream *thread_res;

static aclError type_check(const char *func, aclrtDevResLimitType type)
{
	if ((unsigned int)type >= RES_TYPES)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "type %d is not an aclrtDevResLimitType", (int)type);
	return ACL_SUCCESS;
}

/* Engines of an open device (one with a context in this process). */
static aclError engines_of(const char *func, struct rt_device *dev,
			   uint32_t *n)
{
	struct device_info info;
	int ret = device_info_get(dev->id, &info);

	if (ret)
		return rt_error_at(func, ret, 0, "reading the engine count");
	*n = (uint32_t)info.engines;
	return ACL_SUCCESS;
}

/* The device must be set (its node open) in this process. */
static aclError device_arg(const char *func, int32_t id, struct rt_device **dev)
{
	aclError e = rt_device_id_arg(func, id);

	if (e)
		return e;
	*dev = device_by_id(id);
	if ((*dev)->fd < 0)
		return acl_fail_at(func, ACL_ERROR_RT_CONTEXT_NULL,
				   "device %d is not set in this process (call aclrtSetDevice)",
				   id);
	return ACL_SUCCESS;
}

static aclError value_check(const char *func, struct rt_device *dev,
			    uint32_t value)
{
	uint32_t n = 0;
	aclError e = engines_of(func, dev, &n);

	if (!e && (value == 0 || value > n))
		e = acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				"value %u is out of range 1..%u (the device's engines)",
				value, n);
	return e;
}

static aclError dev_limit(const char *func, struct rt_device *dev,
			  aclrtDevResLimitType type, uint32_t *value)
{
	uint32_t v = dev_res[dev->id][type];

	if (v) {
		*value = v;
		return ACL_SUCCESS;
	}
	return engines_of(func, dev, value);
}

aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type,
				uint32_t *value)
{
	PROF_API();
	struct rt_device *dev;
	aclError e = device_arg(__func__, deviceId, &dev);

	if (!e)
		e = type_check(__func__, type);
	if (e)
		return e;
	RT_REQUIRE_ARG(value);
	return dev_limit(__func__, dev, type, value);
}

aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type,
				uint32_t value)
{
	PROF_API();
	struct rt_device *dev;
	aclError e = device_arg(__func__, deviceId, &dev);

	if (!e)
		e = type_check(__func__, type);
	if (!e)
		e = value_check(__func__, dev, value);
	if (!e)
		dev_res[deviceId][type] = value;
	return e;
}

aclError aclrtResetDeviceResLimit(int32_t deviceId)
{
	PROF_API();
	struct rt_device *dev;
	aclError e = device_arg(__func__, deviceId, &dev);

	if (e)
		return e;
	for (int t = 0; t < RES_TYPES; t++)
		dev_res[deviceId][t] = 0;
	return ACL_SUCCESS;
}

static aclError stream_limit(const char *func, struct rt_stream *s,
			     aclrtDevResLimitType type, uint32_t *value)
{
	uint32_t v = s->res_limit[type];

	if (v) {
		*value = v;
		return ACL_SUCCESS;
	}
	return dev_limit(func, s->ctx->dev, type, value);
}

static aclError stream_type(const char *func, aclrtStream stream,
			    aclrtDevResLimitType type, struct rt_stream **s)
{
	aclError e;

	if (!runtime_initialized())
		return rt_uninit_error(func);
	e = type_check(func, type);
	return e ? e : rt_stream_arg(func, stream, s);
}

aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type,
				uint32_t *value)
{
	PROF_API();
	struct rt_stream *s;
	aclError e = stream_type(__func__, stream, type, &s);

	if (e)
		return e;
	RT_REQUIRE_ARG(value);
	return stream_limit(__func__, s, type, value);
}

aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type,
				uint32_t value)
{
	PROF_API();
	struct rt_stream *s;
	aclError e = stream_type(__func__, stream, type, &s);

	if (!e)
		e = value_check(__func__, s->ctx->dev, value);
	if (!e)
		s->res_limit[type] = value;
	return e;
}

aclError aclrtResetStreamResLimit(aclrtStream stream)
{
	PROF_API();
	struct rt_stream *s;
	aclError e = stream_type(__func__, stream, ACL_RT_DEV_RES_CUBE_CORE, &s);

	if (e)
		return e;
	for (int t = 0; t < RES_TYPES; t++)
		s->res_limit[t] = 0;
	return ACL_SUCCESS;
}

aclError aclrtUseStreamResInCurrentThread(aclrtStream stream)
{
	PROF_API();
	struct rt_stream *s;
	aclError e = stream_type(__func__, stream, ACL_RT_DEV_RES_CUBE_CORE, &s);

	if (!e)
		thread_res = s;
	return e;
}

aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream)
{
	PROF_API();
	struct rt_stream *s;
	aclError e = stream_type(__func__, stream, ACL_RT_DEV_RES_CUBE_CORE, &s);

	if (e)
		return e;
	if (thread_res != s)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"this thread does not use the limits of stream %p",
				stream);
	thread_res = NULL;
	return ACL_SUCCESS;
}

/* The limit that applies to this thread: its stream's, else its device's. */
aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t *value)
{
	PROF_API();
	struct rt_context *ctx;
	struct rt_stream *s;
	aclError e;

	RT_REQUIRE_INIT();
	e = type_check(__func__, type);
	if (e)
		return e;
	RT_REQUIRE_ARG(value);
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "reading the thread's limit");
	s = thread_res;
	if (s && stream_resolve(s, &s) == 0)
		return stream_limit(__func__, s, type, value);
	thread_res = NULL;	/* destroyed, or of another context */
	return dev_limit(__func__, ctx->dev, type, value);
}
