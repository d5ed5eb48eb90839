/* SPDX-License-Identifier: MIT */
/*
 * Process-wide settings and versions of acl_rt.h: the CANN package
 * versions vnpu answers with, system parameters (process and context
 * level) and operator timeouts. Versions and the process-level calls
 * work before aclInit.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rt_common.h"
#include "../core/prof_rt.h"

/*
 * The CANN release whose ACL interface these headers follow; every
 * package reports it. As a number: major * 10000 + minor * 100 + patch.
 */
#define VNPU_CANN_MAJOR 8
#define VNPU_CANN_MINOR 1
#define VNPU_CANN_PATCH 0

static const char *const pkg_names[] = {
	[ACL_PKG_NAME_CANN] = "cann",
	[ACL_PKG_NAME_RUNTIME] = "runtime",
	[ACL_PKG_NAME_COMPILER] = "compiler",
	[ACL_PKG_NAME_HCCL] = "hccl",
	[ACL_PKG_NAME_TOOLKIT] = "toolkit",
	[ACL_PKG_NAME_OPP] = "opp",
	[ACL_PKG_NAME_OPP_KERNEL] = "opp_kernel",
	[ACL_PKG_NAME_DRIVER] = "driver",
};

static aclError pkg_check(const char *func, const char *pkgName)
{
	if (!pkgName)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "pkgName must not be NULL");
	for (size_t i = 0; i < sizeof(pkg_names) / sizeof(pkg_names[0]); i++)
		if (!strcmp(pkgName, pkg_names[i]))
			return ACL_SUCCESS;
	return acl_fail_at(func, ACL_ERROR_INVALID_FILE,
			   "no version information for package '%s' (known: cann, runtime, compiler, hccl, toolkit, opp, opp_kernel, driver)",
			   pkgName);
}

aclError aclsysGetVersionStr(char *pkgName, char *versionStr)
{
	PROF_API();
	aclError e = pkg_check(__func__, pkgName);

	if (e)
		return e;
	RT_REQUIRE_ARG(versionStr);
	snprintf(versionStr, ACL_PKG_VERSION_MAX_SIZE, "%d.%d.%d",
		 VNPU_CANN_MAJOR, VNPU_CANN_MINOR, VNPU_CANN_PATCH);
	return ACL_SUCCESS;
}

aclError aclsysGetVersionNum(char *pkgName, int32_t *versionNum)
{
	PROF_API();
	aclError e = pkg_check(__func__, pkgName);

	if (e)
		return e;
	RT_REQUIRE_ARG(versionNum);
	*versionNum = VNPU_CANN_MAJOR * 10000 + VNPU_CANN_MINOR * 100 +
		      VNPU_CANN_PATCH;
	return ACL_SUCCESS;
}

aclError aclsysGetCANNVersion(aclCANNPackageName name,
			      aclCANNPackageVersion *version)
{
	PROF_API();
	if ((unsigned int)name > ACL_PKG_NAME_DRIVER)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"name %d is not an aclCANNPackageName", (int)name);
	RT_REQUIRE_ARG(version);
	memset(version, 0, sizeof(*version));
	snprintf(version->version, sizeof(version->version), "%d.%d.%d",
		 VNPU_CANN_MAJOR, VNPU_CANN_MINOR, VNPU_CANN_PATCH);
	snprintf(version->majorVersion, sizeof(version->majorVersion), "%d",
		 VNPU_CANN_MAJOR);
	snprintf(version->minorVersion, sizeof(version->minorVersion), "%d",
		 VNPU_CANN_MINOR);
	snprintf(version->releaseVersion, sizeof(version->releaseVersion), "%d",
		 VNPU_CANN_PATCH);
	snprintf(version->patchVersion, sizeof(version->patchVersion), "0");
	return ACL_SUCCESS;
}

/*
 * System parameters. vnpu's kernels are deterministic whatever is set, so
 * the values are checked, kept and reported. A context-level value, once
 * set, overrides the process-level one for that context.
 */
#define SYS_OPTS 4

static _Atomic int64_t sys_values[SYS_OPTS];

static aclError opt_check(const char *func, aclSysParamOpt opt, int64_t value,
			  bool check_value)
{
	int64_t max = opt == ACL_OPT_DETERMINISTIC ? 3 : 1;

	if ((unsigned int)opt >= SYS_OPTS)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "opt %d is not an aclSysParamOpt", (int)opt);
	if (check_value && (value < 0 || value > max))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "value %lld of opt %d is out of range 0..%lld",
				   (long long)value, (int)opt, (long long)max);
	return ACL_SUCCESS;
}

aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value)
{
	PROF_API();
	aclError e = opt_check(__func__, opt, value, true);

	if (!e)
		sys_values[opt] = value;
	return e;
}

aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t *value)
{
	PROF_API();
	aclError e = opt_check(__func__, opt, 0, false);

	if (e)
		return e;
	RT_REQUIRE_ARG(value);
	*value = sys_values[opt];
	return ACL_SUCCESS;
}

static aclError current_ctx(const char *func, struct rt_context **ctx)
{
	if (!runtime_initialized())
		return rt_uninit_error(func);
	*ctx = context_current();
	return *ctx ? ACL_SUCCESS : rt_error_at(func, -ESRCH, 0, "context option");
}

aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value)
{
	PROF_API();
	struct rt_context *ctx;
	aclError e = opt_check(__func__, opt, value, true);

	if (!e)
		e = current_ctx(__func__, &ctx);
	if (e)
		return e;
	ctx->sys_values[opt] = value;
	ctx->sys_set |= 1u << opt;
	return ACL_SUCCESS;
}

aclError aclrtCtxGetSysParamOpt(aclSysParamOpt opt, int64_t *value)
{
	PROF_API();
	struct rt_context *ctx;
	aclError e = opt_check(__func__, opt, 0, false);

	if (!e)
		e = current_ctx(__func__, &ctx);
	if (e)
		return e;
	RT_REQUIRE_ARG(value);
	*value = ctx->sys_set & (1u << opt) ? ctx->sys_values[opt] :
					      sys_values[opt];
	return ACL_SUCCESS;
}

/*
 * Operator timeouts. The wait timeout (seconds) bounds notify waits that
 * give none (0). The driver's hang detection (module parameter
 * job_timeout_ms, read-only to programs) is what ends a stuck job, so the
 * execute timeouts are kept at 1 ms granularity and reported. Until one is set (or
 * after 0), the execute timeout reported is the driver's.
 */
#define OP_TIMEOUT_INTERVAL_US 1000ULL

static _Atomic uint64_t op_execute_ms;	/* 0: the driver's */
static _Atomic uint32_t op_wait_s;

/* Wait tasks (notify waits without a timeout of their own) use it. */
aclError aclrtSetOpWaitTimeout(uint32_t timeout)
{
	PROF_API();
	op_wait_s = timeout;
	return ACL_SUCCESS;
}

uint64_t rt_op_wait_ns(void)
{
	uint64_t ns = (uint64_t)op_wait_s * 1000000000ULL;

	return ns > DRM_VNPU_MAX_WAIT_NS ? 0 : ns;
}

static aclError set_execute_ms(const char *func, uint64_t ms)
{
	if (ms > UINT32_MAX)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "timeout of %llu ms is too long (at most %u ms)",
				   (unsigned long long)ms, UINT32_MAX);
	op_execute_ms = ms;
	return ACL_SUCCESS;
}

aclError aclrtSetOpExecuteTimeOut(uint32_t timeout)
{
	PROF_API();
	return set_execute_ms(__func__, (uint64_t)timeout * 1000ULL);
}

aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout)
{
	PROF_API();
	return set_execute_ms(__func__, timeout);
}

/* In microseconds, rounded up to the interval; *actualTimeout says how. */
aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t *actualTimeout)
{
	PROF_API();
	uint64_t ms;
	aclError e;

	RT_REQUIRE_ARG(actualTimeout);
	ms = timeout / OP_TIMEOUT_INTERVAL_US +
	     (timeout % OP_TIMEOUT_INTERVAL_US != 0);
	e = set_execute_ms(__func__, ms);
	if (!e)
		*actualTimeout = ms * OP_TIMEOUT_INTERVAL_US;
	return e;
}

aclError aclrtGetOpTimeOutInterval(uint64_t *interval)
{
	PROF_API();
	RT_REQUIRE_ARG(interval);
	*interval = OP_TIMEOUT_INTERVAL_US;
	return ACL_SUCCESS;
}

aclError aclrtGetOpExecuteTimeout(uint32_t *const timeoutMs)
{
	PROF_API();
	struct rt_context *ctx;
	uint64_t v = op_execute_ms;
	int ret;

	RT_REQUIRE_ARG(timeoutMs);
	if (v) {
		*timeoutMs = (uint32_t)v;
		return ACL_SUCCESS;
	}
	/* The driver's job timeout of the current device. */
	if (!runtime_initialized())
		return rt_uninit_error(__func__);
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "reading the driver's job timeout");
	ret = device_param_read(ctx->dev->id, DRM_VNPU_PARAM_JOB_TIMEOUT_MS, &v);
	if (ret)
		return rt_error(ret, "reading the driver's job timeout");
	*timeoutMs = (uint32_t)v;
	return ACL_SUCCESS;
}
