/* SPDX-License-Identifier: MIT */
/*
 * Sessions that aclInit starts: acl.json's "profiler" section, or
 * msprof's PROFILER_SAMPLECONFIG (the same keys; it wins over acl.json).
 * They cover every device the process opens and run until aclFinalize
 * (or process exit), then their directory is exported. The keys and
 * defaults are CANN's (../shared/reference/profiling.md §5.1).
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl_base.h"
#include "../core/lifecycle.h"
#include "../core/log.h"
#include "prof_init.h"
#include "prof_int.h"

static struct prof_session *env_s;
static char env_dir[sizeof(((struct prof_session *)0)->dir)];

bool prof_env_running(void)
{
	return env_s && env_s->running;
}

/* Stop the env session and export it; idempotent. */
static void env_stop(void)
{
	char dir[sizeof(env_dir)];
	bool had;

	pthread_mutex_lock(&prof_lock);
	had = prof_env_running();
	if (had) {
		prof_session_stop(env_s);
		memcpy(dir, env_dir, sizeof(dir));
	}
	env_s = NULL;
	pthread_mutex_unlock(&prof_lock);
	if (had)
		prof_session_export(dir);
}

static void teardown(void)
{
	env_stop();
	prof_api_teardown();
}

static void after_fork(void)
{
	env_s = NULL;
	prof_device_after_fork();
	prof_session_after_fork();
}

static const struct rt_lifecycle prof_lifecycle = {
	.name = "prof",
	.teardown = teardown,
	.after_fork = after_fork,
	.device_open = prof_device_opened,
	.device_close = prof_device_closing,
};

/* --- parsing ------------------------------------------------------------ */

struct opt {
	const char *key;
	const char *const *values;	/* accepted strings; NULL: see kind */
	int kind;			/* OPT_* */
	long long lo, hi;		/* OPT_INT, OPT_SIZE */
};

enum { OPT_STR, OPT_INT, OPT_SIZE, OPT_ANY };

static const char *const on_off[] = { "on", "off", NULL };
static const char *const task_time_v[] = { "on", "off", "l0", "l1", "l2",
					   "l3", NULL };
static const char *const ge_api_v[] = { "off", "l0", "l1", NULL };
static const char *const task_block_v[] = { "on", "off", "all", NULL };
static const char *const host_sys_v[] = { "cpu", "mem", "cpu,mem",
					  "mem,cpu", NULL };
static const char *const llc_v[] = { "read", "write", "capacity",
				     "bandwidth", NULL };

static const struct opt opts[] = {
	{ "switch", NULL, OPT_ANY, 0, 0 },
	{ "output", NULL, OPT_ANY, 0, 0 },
	{ "storage_limit", NULL, OPT_SIZE, 200, 4294967295ll },
	{ "aic_metrics", NULL, OPT_ANY, 0, 0 },
	{ "aicpu", on_off, OPT_STR, 0, 0 },
	{ "l2", on_off, OPT_STR, 0, 0 },
	{ "hccl", on_off, OPT_STR, 0, 0 },
	{ "msproftx", on_off, OPT_STR, 0, 0 },
	{ "ascendcl", on_off, OPT_STR, 0, 0 },
	{ "runtime_api", on_off, OPT_STR, 0, 0 },
	{ "task_time", task_time_v, OPT_STR, 0, 0 },
	{ "ge_api", ge_api_v, OPT_STR, 0, 0 },
	{ "task_memory", on_off, OPT_STR, 0, 0 },
	{ "task_tsfw", on_off, OPT_STR, 0, 0 },
	{ "task_block", task_block_v, OPT_STR, 0, 0 },
	{ "instr_profiling", on_off, OPT_STR, 0, 0 },
	{ "instr_profiling_freq", NULL, OPT_INT, 1, 1000000 },
	{ "sys_hardware_mem_freq", NULL, OPT_INT, 1, 100 },
	{ "sys_io_sampling_freq", NULL, OPT_INT, 1, 100 },
	{ "sys_interconnection_freq", NULL, OPT_INT, 1, 50 },
	{ "sys_cpu_freq", NULL, OPT_INT, 1, 50 },
	{ "dvpp_freq", NULL, OPT_INT, 1, 100 },
	{ "host_sys", host_sys_v, OPT_STR, 0, 0 },
	{ "host_sys_usage", host_sys_v, OPT_STR, 0, 0 },
	{ "host_sys_usage_freq", NULL, OPT_INT, 1, 50 },
	{ "sys_lp_freq", NULL, OPT_INT, 1, 100 },
	{ "llc_profiling", llc_v, OPT_STR, 0, 0 },
	{ "sys_mem_serviceflow", NULL, OPT_ANY, 0, 0 },
	{ "optype", NULL, OPT_ANY, 0, 0 },
};

/* 0, or -EINVAL with why: one key's value. */
static int check_opt(const struct opt *o, struct json_object *v, char *why,
		     size_t len)
{
	const char *s;

	if (o->kind == OPT_INT) {
		long long n;

		if (!json_object_is_type(v, json_type_int)) {
			snprintf(why, len, "\"%s\" must be a JSON integer", o->key);
			return -EINVAL;
		}
		n = json_object_get_int64(v);
		if (n < o->lo || n > o->hi) {
			snprintf(why, len, "\"%s\": %lld is not in [%lld, %lld]",
				 o->key, n, o->lo, o->hi);
			return -EINVAL;
		}
		return 0;
	}
	if (!json_object_is_type(v, json_type_string)) {
		snprintf(why, len, "\"%s\" must be a JSON string", o->key);
		return -EINVAL;
	}
	s = json_object_get_string(v);
	if (o->kind == OPT_SIZE) {
		char *end;
		unsigned long long n;

		errno = 0;
		n = strtoull(s, &end, 10);
		if (end == s || errno || (*end && strcmp(end, "MB")) ||
		    n < (unsigned long long)o->lo ||
		    n > (unsigned long long)o->hi) {
			snprintf(why, len, "\"%s\": '%s' is not a size in [%lld, %lld] MB",
				 o->key, s, o->lo, o->hi);
			return -EINVAL;
		}
		return 0;
	}
	if (o->kind == OPT_STR) {
		for (const char *const *a = o->values; *a; a++)
			if (!strcmp(s, *a))
				return 0;
		snprintf(why, len, "\"%s\": '%s' is not one of the accepted values",
			 o->key, s);
		return -EINVAL;
	}
	return 0;
}

static const char *get_str(struct json_object *sec, const char *key,
			   const char *dflt)
{
	struct json_object *v;

	if (json_object_object_get_ex(sec, key, &v) &&
	    json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	return dflt;
}

static bool is_on(struct json_object *sec, const char *key, bool dflt)
{
	return !strcmp(get_str(sec, key, dflt ? "on" : "off"), "on");
}

/*
 * sec: the "profiler" object. 1 with p and out filled when profiling is
 * on, 0 when off, -EINVAL with why for a bad value.
 */
static int parse_section(struct json_object *sec, bool env, struct prof_params *p,
			 char *out, size_t outlen, char *why, size_t len)
{
	const char *sw, *tt, *ge, *m;
	uint64_t mask = 0;

	if (!json_object_is_type(sec, json_type_object)) {
		snprintf(why, len, "\"profiler\" must be a JSON object");
		return -EINVAL;
	}
	/* msprof's sessions are on unless told otherwise. */
	sw = get_str(sec, "switch", env ? "on" : "off");
	if (strcmp(sw, "on"))
		return 0;
	json_object_object_foreach(sec, key, val) {
		const struct opt *o = NULL;

		for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
			if (!strcmp(opts[i].key, key))
				o = &opts[i];
		if (!o) {
			rt_log(LOG_WARN, "profiler: unknown key \"%s\" ignored", key);
			continue;
		}
		if (check_opt(o, val, why, len))
			return -EINVAL;
	}
	memset(p, 0, sizeof(*p));
	p->aic_metrics = ACL_AICORE_PIPE_UTILIZATION;
	m = get_str(sec, "aic_metrics", NULL);
	if (m) {
		if (!strcmp(m, "PipeUtilizationExct") ||
		    !strcmp(m, "PipeStallCycle") || !strcmp(m, "ScalarRatio"))
			p->aic_metrics = ACL_AICORE_PIPE_UTILIZATION;
		else if (prof_metrics_parse(m, &p->aic_metrics)) {
			snprintf(why, len, "\"aic_metrics\": '%s' is not a metrics set", m);
			return -EINVAL;
		}
		mask |= ACL_PROF_AICORE_METRICS;
	}
	if (is_on(sec, "ascendcl", true))
		mask |= ACL_PROF_ACL_API;
	if (is_on(sec, "runtime_api", true))
		mask |= ACL_PROF_RUNTIME_API;
	tt = get_str(sec, "task_time", "on");
	if (!strcmp(tt, "on") || !strcmp(tt, "l1"))
		mask |= ACL_PROF_TASK_TIME;
	else if (!strcmp(tt, "l0"))
		mask |= ACL_PROF_TASK_TIME_L0;
	else if (!strcmp(tt, "l2"))
		mask |= ACL_PROF_TASK_TIME_L2;
	else if (!strcmp(tt, "l3"))
		mask |= ACL_PROF_TASK_TIME_L3;
	if (is_on(sec, "aicpu", false))
		mask |= ACL_PROF_AICPU;
	if (is_on(sec, "l2", false))
		mask |= ACL_PROF_L2CACHE;
	if (is_on(sec, "hccl", false))
		mask |= ACL_PROF_HCCL_TRACE;
	if (is_on(sec, "msproftx", false))
		mask |= ACL_PROF_MSPROFTX;
	if (is_on(sec, "task_memory", false))
		mask |= ACL_PROF_TASK_MEMORY;
	ge = get_str(sec, "ge_api", "off");
	if (!strcmp(ge, "l0"))
		mask |= ACL_PROF_GE_API_L0;
	else if (!strcmp(ge, "l1"))
		mask |= ACL_PROF_GE_API_L1;
	p->mask = prof_mask_expand(mask);
	p->all_devices = true;
	m = get_str(sec, "output", NULL);
	if (m && *m) {
		if (strlen(m) > PROF_PATH_MAX) {
			snprintf(why, len, "\"output\" is longer than %d bytes",
				 PROF_PATH_MAX);
			return -EINVAL;
		}
		snprintf(out, outlen, "%s", m);
	} else if (!getcwd(out, outlen)) {
		snprintf(out, outlen, ".");
	}
	return 1;
}

static void at_exit(void)
{
	/* The program never called aclFinalize: best effort. */
	env_stop();
}

int prof_acl_init(const char *config_path, char *why, size_t len)
{
	const char *env = getenv("PROFILER_SAMPLECONFIG");
	struct json_object *root = NULL, *sec = NULL;
	static bool atexit_done;
	struct prof_params p;
	char out[PROF_PATH_MAX + 1];
	struct prof_session *s;
	int ret = 0;

	rt_lifecycle_register(&prof_lifecycle);
	if (env && *env) {
		root = json_tokener_parse(env);
		if (!root) {
			snprintf(why, len, "PROFILER_SAMPLECONFIG is not JSON");
			return ACL_ERROR_INVALID_PROFILING_CONFIG;
		}
		/* The section itself, or a document holding one. */
		if (!json_object_object_get_ex(root, "profiler", &sec))
			sec = root;
	} else if (config_path && *config_path) {
		root = json_object_from_file(config_path);
		if (!root || !json_object_object_get_ex(root, "profiler", &sec)) {
			json_object_put(root);
			return 0;
		}
	} else {
		return 0;
	}
	ret = parse_section(sec, env && *env, &p, out, sizeof(out), why, len);
	json_object_put(root);
	if (ret < 0)
		return ACL_ERROR_INVALID_PROFILING_CONFIG;
	if (!ret)
		return 0;
	pthread_mutex_lock(&prof_lock);
	if (prof_env_running()) {
		pthread_mutex_unlock(&prof_lock);
		return 0;
	}
	ret = prof_mkdirs(out);
	if (!ret)
		ret = prof_session_start(&p, out, NULL, &s, why, len);
	else
		snprintf(why, len, "cannot create the output directory '%s': %s",
			 out, strerror(-ret));
	if (!ret) {
		env_s = s;
		memcpy(env_dir, s->dir, sizeof(env_dir));
	}
	pthread_mutex_unlock(&prof_lock);
	if (ret)
		return ACL_ERROR_PROFILING_FAILURE;
	if (!atexit_done) {
		atexit_done = true;
		atexit(at_exit);
	}
	return 0;
}
