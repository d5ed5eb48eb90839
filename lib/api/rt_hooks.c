/* SPDX-License-Identifier: MIT */
/*
 * Callback registration of acl_rt.h: exception callbacks, stream and
 * device state callbacks, aclInit / aclFinalize callbacks. Registration
 * needs no aclInit (init callbacks must come before it to matter).
 */
#include <errno.h>
#include <string.h>

#include "../core/hooks.h"
#include "rt_common.h"
#include "../core/prof_rt.h"

aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback)
{
	PROF_API();
	RT_REQUIRE_ARG(callback);
	if (hooks_exception_add(callback))
		return acl_fail(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL,
				"%d exception callbacks are registered already",
				HOOKS_MAX);
	return ACL_SUCCESS;
}

/* An unknown callback is not an error (ACL: a no-op). */
aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback)
{
	PROF_API();
	RT_REQUIRE_ARG(callback);
	hooks_exception_remove(callback);
	return ACL_SUCCESS;
}

static aclError state_name(const char *func, const char *regName)
{
	if (!regName || !*regName)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "regName must be a non-empty string");
	if (strlen(regName) >= HOOK_NAME_MAX)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "regName is longer than %d characters",
				   HOOK_NAME_MAX - 1);
	return ACL_SUCCESS;
}

static aclError state_set_error(const char *func, int ret)
{
	if (!ret)
		return ACL_SUCCESS;
	return acl_fail_at(func, ACL_ERROR_RT_RESOURCE_ALLOC_FAIL,
			   "%d state callbacks are registered already", HOOKS_MAX);
}

/* A NULL callback removes the one registered under regName. */
aclError aclrtRegStreamStateCallback(const char *regName,
				     aclrtStreamStateCallback callback,
				     void *args)
{
	PROF_API();
	aclError e = state_name(__func__, regName);

	if (e)
		return e;
	return state_set_error(__func__, hooks_stream_state_set(regName,
				callback, args));
}

aclError aclrtRegDeviceStateCallback(const char *regName,
				     aclrtDeviceStateCallback callback,
				     void *args)
{
	PROF_API();
	aclError e = state_name(__func__, regName);

	if (e)
		return e;
	return state_set_error(__func__, hooks_device_state_set(regName,
				callback, args));
}

static aclError reg_type(const char *func, aclRegisterCallbackType type,
			 const void *fn)
{
	if ((type < ACL_REG_TYPE_ACL_MODEL || type > ACL_REG_TYPE_ACL_RETR) &&
	    type != ACL_REG_TYPE_OTHER)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "type %d is not an aclRegisterCallbackType",
				   (int)type);
	if (!fn)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "cbFunc must not be NULL");
	return ACL_SUCCESS;
}

static aclError reg_error(const char *func, int ret)
{
	if (!ret)
		return ACL_SUCCESS;
	return acl_fail_at(func, ACL_ERROR_RT_RESOURCE_ALLOC_FAIL,
			   "%d callbacks of this kind are registered already",
			   HOOKS_MAX);
}

aclError aclInitCallbackRegister(aclRegisterCallbackType type,
				 aclInitCallbackFunc cbFunc, void *userData)
{
	PROF_API();
	aclError e = reg_type(__func__, type, (const void *)cbFunc);

	return e ? e : reg_error(__func__, hooks_init_add((int)type,
				 cbFunc, userData));
}

aclError aclInitCallbackUnRegister(aclRegisterCallbackType type,
				   aclInitCallbackFunc cbFunc)
{
	PROF_API();
	aclError e = reg_type(__func__, type, (const void *)cbFunc);

	if (!e)
		hooks_init_remove((int)type, cbFunc);
	return e;
}

aclError aclFinalizeCallbackRegister(aclRegisterCallbackType type,
				     aclFinalizeCallbackFunc cbFunc,
				     void *userData)
{
	PROF_API();
	aclError e = reg_type(__func__, type, (const void *)cbFunc);

	return e ? e : reg_error(__func__, hooks_finalize_add((int)type,
				 cbFunc, userData));
}

aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType type,
				       aclFinalizeCallbackFunc cbFunc)
{
	PROF_API();
	aclError e = reg_type(__func__, type, (const void *)cbFunc);

	if (!e)
		hooks_finalize_remove((int)type, cbFunc);
	return e;
}
