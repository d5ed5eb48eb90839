/* SPDX-License-Identifier: MIT */
/*
 * aclprofCreateConfig, aclprofDestroyConfig, aclprofSetConfig: what a
 * session will collect, checked the way CANN checks it
 * (../shared/reference/profiling.md §1-2, Documentation/profiling.md).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../core/error.h"
#include "../core/runtime.h"
#include "prof_int.h"

#define CONFIG_MAGIC 0x50524f43u	/* "CORP" */
#define CONFIG_DEAD 0xdeadc0f9u
#define SET_CONFIG_MAX 256

/* CANN's internal bits a stored config may carry. */
#define PROF_AICPU_MODEL 0x4000000000000000ull

/* Every public ACL_PROF_* bit. */
#define PROF_KNOWN_BITS (ACL_PROF_ACL_API | ACL_PROF_TASK_TIME |	\
	ACL_PROF_AICORE_METRICS | ACL_PROF_AICPU | ACL_PROF_L2CACHE |	\
	ACL_PROF_HCCL_TRACE | ACL_PROF_TRAINING_TRACE |			\
	ACL_PROF_MSPROFTX | ACL_PROF_RUNTIME_API | ACL_PROF_GE_API_L0 |	\
	ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_MEMORY |			\
	ACL_PROF_GE_API_L1 | ACL_PROF_TASK_TIME_L2 | ACL_PROF_OP_ATTR |	\
	ACL_PROF_TASK_TIME_L3 | ACL_PROF_API_STATS | ACL_PROF_AICORE_SHAPE)

static const char *const metric_names[] = {
	[ACL_AICORE_ARITHMETIC_UTILIZATION] = "ArithmeticUtilization",
	[ACL_AICORE_PIPE_UTILIZATION] = "PipeUtilization",
	[ACL_AICORE_MEMORY_BANDWIDTH] = "Memory",
	[ACL_AICORE_L0B_AND_WIDTH] = "MemoryL0",
	[ACL_AICORE_RESOURCE_CONFLICT_RATIO] = "ResourceConflictRatio",
	[ACL_AICORE_MEMORY_UB] = "MemoryUB",
	[ACL_AICORE_L2_CACHE] = "L2Cache",
	[ACL_AICORE_PIPE_EXECUTE_UTILIZATION] = "PipelineExecuteUtilization",
	[ACL_AICORE_MEMORY_ACCESS] = "MemoryAccess",
};

const char *prof_metrics_name(uint32_t m)
{
	if (m < sizeof(metric_names) / sizeof(metric_names[0]))
		return metric_names[m];
	return "None";
}

int prof_metrics_parse(const char *s, uint32_t *m)
{
	for (uint32_t i = 0; i < sizeof(metric_names) / sizeof(metric_names[0]);
	     i++) {
		if (!strcmp(s, metric_names[i])) {
			*m = i;
			return 0;
		}
	}
	return -EINVAL;
}

uint64_t prof_mask_expand(uint64_t mask)
{
	if (mask & ACL_PROF_API_STATS)
		return ACL_PROF_ACL_API | ACL_PROF_API_STATS;
	if (mask & ACL_PROF_TASK_TIME)
		mask |= ACL_PROF_TASK_TIME_L0;
	if (mask & (ACL_PROF_TASK_TIME_L2 | ACL_PROF_OP_ATTR))
		mask |= ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_TIME;
	if (mask & ACL_PROF_TASK_TIME_L3)
		mask |= ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_TIME |
			ACL_PROF_TASK_TIME_L2;
	if (mask & ACL_PROF_TASK_TIME_L0)
		mask |= ACL_PROF_TRAINING_TRACE;
	return mask | PROF_AICPU_MODEL;
}

/* Live configs: a destroyed or foreign pointer is refused, not freed. */
static pthread_mutex_t cfg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct aclprofConfig **live;
static size_t nlive, live_cap;

bool prof_config_live(const struct aclprofConfig *c)
{
	bool found = false;

	pthread_mutex_lock(&cfg_lock);
	for (size_t i = 0; i < nlive && !found; i++)
		found = live[i] == c;
	pthread_mutex_unlock(&cfg_lock);
	return found && c->magic == CONFIG_MAGIC;
}

static bool metrics_ok(uint32_t m)
{
	return m <= ACL_AICORE_MEMORY_ACCESS || m == ACL_AICORE_NONE;
}

MSVP_PROF_API aclprofConfig *aclprofCreateConfig(uint32_t *deviceIdList,
	uint32_t deviceNums, aclprofAicoreMetrics aicoreMetrics,
	const aclprofAicoreEvents *aicoreEvents, uint64_t dataTypeConfig)
{
	struct aclprofConfig *c;
	uint32_t count = 0;
	char why[128];

	if (aicoreEvents) {
		acl_fail(ACL_ERROR_INVALID_PARAM, "aicoreEvents must be NULL");
		return NULL;
	}
	if (!deviceNums && !(dataTypeConfig & ACL_PROF_MSPROFTX)) {
		acl_fail(ACL_ERROR_INVALID_PARAM,
			 "deviceNums is 0: allowed only with ACL_PROF_MSPROFTX");
		return NULL;
	}
	if (deviceNums && !deviceIdList) {
		acl_fail(ACL_ERROR_INVALID_PARAM,
			 "deviceIdList is NULL for %u devices", deviceNums);
		return NULL;
	}
	if (deviceNums > PROF_MAX_DEVICES) {
		acl_fail(ACL_ERROR_INVALID_PARAM,
			 "deviceNums %u exceeds %d", deviceNums, PROF_MAX_DEVICES);
		return NULL;
	}
	if (!metrics_ok((uint32_t)aicoreMetrics)) {
		acl_fail(ACL_ERROR_INVALID_PARAM,
			 "aicoreMetrics %d is not an aclprofAicoreMetrics",
			 (int)aicoreMetrics);
		return NULL;
	}
	if (dataTypeConfig & ~PROF_KNOWN_BITS) {
		acl_fail(ACL_ERROR_INVALID_PARAM,
			 "dataTypeConfig 0x%llx has unknown bits 0x%llx",
			 (unsigned long long)dataTypeConfig,
			 (unsigned long long)(dataTypeConfig & ~PROF_KNOWN_BITS));
		return NULL;
	}
	if (deviceNums && runtime_device_count(&count, why, sizeof(why)))
		count = 0;
	for (uint32_t i = 0; i < deviceNums; i++) {
		if (deviceIdList[i] >= count) {
			acl_fail(ACL_ERROR_INVALID_PARAM,
				 "device %u does not exist (%u devices)",
				 deviceIdList[i], count);
			return NULL;
		}
		for (uint32_t j = 0; j < i; j++) {
			if (deviceIdList[j] == deviceIdList[i]) {
				acl_fail(ACL_ERROR_INVALID_PARAM,
					 "device %u is listed twice",
					 deviceIdList[i]);
				return NULL;
			}
		}
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		acl_fail(ACL_ERROR_BAD_ALLOC, "out of memory");
		return NULL;
	}
	c->magic = CONFIG_MAGIC;
	c->p.mask = prof_mask_expand(dataTypeConfig);
	c->p.aic_metrics = (uint32_t)aicoreMetrics;
	c->p.ndev = deviceNums;
	for (uint32_t i = 0; i < deviceNums; i++)
		c->p.devs[i] = (int32_t)deviceIdList[i];
	pthread_mutex_lock(&cfg_lock);
	if (nlive == live_cap) {
		size_t cap = live_cap ? 2 * live_cap : 8;
		struct aclprofConfig **p = realloc(live, cap * sizeof(*p));

		if (!p) {
			pthread_mutex_unlock(&cfg_lock);
			free(c);
			acl_fail(ACL_ERROR_BAD_ALLOC, "out of memory");
			return NULL;
		}
		live = p;
		live_cap = cap;
	}
	live[nlive++] = c;
	pthread_mutex_unlock(&cfg_lock);
	return c;
}

MSVP_PROF_API aclError aclprofDestroyConfig(const aclprofConfig *profilerConfig)
{
	struct aclprofConfig *c = NULL;
	bool running = false;

	if (!profilerConfig)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "profilerConfig is NULL");
	pthread_mutex_lock(&prof_lock);
	for (int i = 0; i < PROF_MAX_SESSIONS; i++)
		running |= prof_sessions[i].running &&
			   prof_sessions[i].cfg == profilerConfig;
	pthread_mutex_lock(&cfg_lock);
	for (size_t i = 0; !running && i < nlive; i++) {
		if (live[i] == profilerConfig) {
			c = live[i];
			live[i] = live[--nlive];
			break;
		}
	}
	pthread_mutex_unlock(&cfg_lock);
	pthread_mutex_unlock(&prof_lock);
	if (running)
		return acl_fail(ACL_ERROR_PROF_ALREADY_RUN,
				"the config is in use by a running aclprofStart; call aclprofStop first");
	if (!c)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"the config was already destroyed or was not made by aclprofCreateConfig");
	c->magic = CONFIG_DEAD;
	free(c);
	return ACL_SUCCESS;
}

/* --- aclprofSetConfig -------------------------------------------------- */

static char set_path[SET_CONFIG_MAX + 1];

const char *prof_config_path(void)
{
	return set_path[0] ? set_path : NULL;
}

/* A decimal integer in [lo, hi] with an optional suffix; else false. */
static bool int_in(const char *s, unsigned long long lo,
		   unsigned long long hi, const char *suffix)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || (*end && (!suffix || strcmp(end, suffix))))
		return false;
	return v >= lo && v <= hi;
}

/* "cpu", "mem" or "cpu,mem" (either order). */
static bool host_sys_ok(const char *s)
{
	return !strcmp(s, "cpu") || !strcmp(s, "mem") ||
	       !strcmp(s, "cpu,mem") || !strcmp(s, "mem,cpu");
}

static bool value_ok(aclprofConfigType t, const char *v)
{
	switch (t) {
	case ACL_PROF_STORAGE_LIMIT:
		return int_in(v, 200, 4294967295ull, "MB");
	case ACL_PROF_SYS_HARDWARE_MEM_FREQ:
	case ACL_PROF_SYS_IO_FREQ:
	case ACL_PROF_DVPP_FREQ:
	case ACL_PROF_LOW_POWER_FREQ:
		return int_in(v, 1, 100, NULL);
	case ACL_PROF_SYS_INTERCONNECTION_FREQ:
	case ACL_PROF_HOST_SYS_USAGE_FREQ:
	case ACL_PROF_SYS_CPU_FREQ:
		return int_in(v, 1, 50, NULL);
	case ACL_PROF_LLC_MODE:
		return !strcmp(v, "read") || !strcmp(v, "write");
	case ACL_PROF_HOST_SYS:
	case ACL_PROF_HOST_SYS_USAGE:
		return host_sys_ok(v);
	case ACL_PROF_NTS_METRICS:
		return !strcmp(v, "PipeUtilization");
	case ACL_PROF_SYS_MEM_SERVICEFLOW:
	case ACL_PROF_OPTYPE:
	case ACL_PROF_PATH:
		return *v != 0;
	default:
		return false;
	}
}

MSVP_PROF_API aclError aclprofSetConfig(aclprofConfigType configType,
					const char *config, size_t configLength)
{
	char v[SET_CONFIG_MAX + 1];
	size_t n;

	if ((int)configType <= ACL_PROF_ARGS_MIN ||
	    (int)configType >= ACL_PROF_ARGS_MAX || (int)configType == 2)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"configType %d is not an aclprofConfigType",
				(int)configType);
	if (!config)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "config is NULL");
	if (!configLength || configLength > SET_CONFIG_MAX)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"configLength %zu is not in [1, %d]",
				configLength, SET_CONFIG_MAX);
	n = strnlen(config, configLength);
	memcpy(v, config, n);
	v[n] = 0;
	if (!value_ok(configType, v))
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"'%s' is not a valid value for configType %d",
				v, (int)configType);
	if (prof_any_running())
		return acl_fail(ACL_ERROR_PROF_ALREADY_RUN,
				"profiling is running: set the config before aclprofStart");
	/* Only the output path changes what we do; the rest is accepted. */
	if (configType == ACL_PROF_PATH) {
		pthread_mutex_lock(&prof_lock);
		memcpy(set_path, v, n + 1);
		pthread_mutex_unlock(&prof_lock);
	}
	return ACL_SUCCESS;
}
