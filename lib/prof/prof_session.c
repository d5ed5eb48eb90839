/* SPDX-License-Identifier: MIT */
/*
 * Collection sessions: aclprofInit, aclprofStart, aclprofStop,
 * aclprofFinalize, and the session start and stop that acl.json and
 * msprof sessions share (prof_env.c). A session owns one raw data
 * directory (Documentation/profiling.md), a sink on each of its devices'
 * rings and its share of prof_rt_mask.
 */
#include <errno.h>
#include <stdio_ext.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "../core/error.h"
#include "../core/log.h"
#include "../core/rt_objects.h"
#include "../core/runtime.h"
#include "prof_subscribe.h"
#include "prof_int.h"

pthread_mutex_t prof_lock = PTHREAD_MUTEX_INITIALIZER;
struct prof_session prof_sessions[PROF_MAX_SESSIONS];
static pthread_once_t sess_once = PTHREAD_ONCE_INIT;

/* aclprofInit's state (prof_lock). */
static bool api_inited;
static char api_path[PROF_PATH_MAX + 1];
static unsigned int dir_seq;
/* Directories stopped since aclprofInit: exported at aclprofFinalize. */
static char **done_dirs;
static size_t ndone;

static void sess_init(void)
{
	for (int i = 0; i < PROF_MAX_SESSIONS; i++)
		pthread_mutex_init(&prof_sessions[i].lock, NULL);
}

bool prof_collecting(uint64_t bits)
{
	return prof_rt_on(bits);
}

bool prof_any_running(void)
{
	for (int i = 0; i < PROF_MAX_SESSIONS; i++)
		if (prof_sessions[i].running)
			return true;
	return false;
}

void prof_mask_update(void)
{
	uint64_t m = 0;

	for (int i = 0; i < PROF_MAX_SESSIONS; i++)
		if (prof_sessions[i].running)
			m |= prof_sessions[i].p.mask;
	atomic_store(&prof_rt_mask, m);
}

static void make_dir_name(char *out, size_t len, const char *base)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char rnd[16];
	char r[17];
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd))
		for (size_t i = 0; i < sizeof(rnd); i++)
			rnd[i] = (unsigned char)rand();
	for (int i = 0; i < 16; i++)
		r[i] = abc[rnd[i] % 36];
	r[16] = 0;
	snprintf(out, len, "%s/PROF_%06u_%04d%02d%02d%02d%02d%02d%03ld_%s",
		 base, ++dir_seq, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		 tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000, r);
}

int prof_session_start(const struct prof_params *p, const char *out,
		       const struct aclprofConfig *cfg,
		       struct prof_session **out_s, char *why, size_t len)
{
	struct prof_session *s = NULL;
	struct timespec wall;
	int ret;

	pthread_once(&sess_once, sess_init);
	for (int i = 0; i < PROF_MAX_SESSIONS && !s; i++)
		if (!prof_sessions[i].running)
			s = &prof_sessions[i];
	if (!s) {
		snprintf(why, len, "%d sessions already run", PROF_MAX_SESSIONS);
		return -EBUSY;
	}
	pthread_mutex_lock(&s->lock);
	prof_raw_close_locked(s);
	s->from_env = !cfg;
	s->cfg = cfg;
	s->p = *p;
	memset(s->sink, 0, sizeof(s->sink));
	memset(s->records, 0, sizeof(s->records));
	memset(s->seen, 0, sizeof(s->seen));
	s->host_lost = 0;
	make_dir_name(s->dir, sizeof(s->dir), out);
	pthread_mutex_unlock(&s->lock);
	ret = prof_mkdirs(s->dir);
	if (ret) {
		snprintf(why, len, "cannot create %s: %s", s->dir, strerror(-ret));
		return ret;
	}
	for (int d = 0; d < PROF_MAX_DEVICES; d++)
		s->dropped_base[d] = prof_device_dropped(d);
	/* Host events before the start belong to no one. */
	prof_raw_drain_host();
	clock_gettime(CLOCK_REALTIME, &wall);
	s->start_ns = prof_rt_now();
	s->start_wall_us = (uint64_t)wall.tv_sec * 1000000u +
			   (uint64_t)wall.tv_nsec / 1000u;
	s->stop_ns = 0;
	s->running = true;
	if (p->mask & PROF_RING_BITS) {
		if (p->all_devices) {
			ret = prof_device_subscribe_all(prof_raw_task_sink, s);
			ret = ret < 0 ? ret : 0;
		}
		for (uint32_t i = 0; !p->all_devices && i < p->ndev; i++) {
			int32_t d = p->devs[i];

			ret = prof_device_subscribe(d, prof_raw_task_sink, s);
			if (ret < 0) {
				snprintf(why, len, "device %d: no record ring: %s",
					 d, strerror(-ret));
				break;
			}
			s->sink[d] = ret;
			ret = 0;
		}
		if (ret) {
			prof_session_stop(s);
			return ret;
		}
	}
	prof_mask_update();
	*out_s = s;
	rt_log(LOG_INFO, "profiling to %s (data 0x%" PRIx64 ")", s->dir,
	       p->mask);
	return 0;
}

void prof_session_stop(struct prof_session *s)
{
	/* Everything recorded so far is this session's too. */
	prof_device_drain_all();
	prof_raw_drain_host();
	if (s->p.all_devices) {
		prof_device_unsubscribe_all(prof_raw_task_sink, s);
	} else {
		for (int d = 0; d < PROF_MAX_DEVICES; d++) {
			if (s->sink[d] > 0)
				prof_device_unsubscribe(d, s->sink[d]);
			s->sink[d] = 0;
		}
	}
	pthread_mutex_lock(&s->lock);
	s->running = false;
	s->stop_ns = prof_rt_now();
	pthread_mutex_unlock(&s->lock);
	prof_mask_update();
	prof_raw_finish(s);
}

void prof_session_export(const char *dir)
{
	const char *e = getenv("VNPU_PROF_EXPORT");
	char why[256] = "";
	int ret;

	if (e && !strcmp(e, "0"))
		return;
	ret = prof_export(dir, why, sizeof(why));
	if (ret)
		rt_log(LOG_WARN, "profiling: exporting %s failed: %s", dir,
		       why[0] ? why : strerror(-ret));
}

/* Between aclprofInit and aclprofFinalize (subscription refuses then). */
bool prof_api_initialized(void)
{
	bool on;

	pthread_mutex_lock(&prof_lock);
	on = api_inited;
	pthread_mutex_unlock(&prof_lock);
	return on;
}

/* --- the API ------------------------------------------------------------ */

MSVP_PROF_API aclError aclprofInit(const char *profilerResultPath, size_t length)
{
	char path[PROF_PATH_MAX + 1];
	const char *mode = getenv("PROFILING_MODE");
	size_t n;
	int ret;

	if (!profilerResultPath)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"profilerResultPath is NULL");
	if (!length || length > PROF_PATH_MAX)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"length %zu is not in [1, %d]", length,
				PROF_PATH_MAX);
	n = strnlen(profilerResultPath, length);
	if (!n)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"profilerResultPath is empty");
	if (mode && !strcmp(mode, "dynamic"))
		return acl_fail(ACL_ERROR_FEATURE_UNSUPPORTED,
				"PROFILING_MODE=dynamic: aclprofInit is not available");
	if (!runtime_initialized())
		return acl_fail(ACL_ERROR_UNINITIALIZE,
				"call aclInit before aclprofInit");
	memcpy(path, profilerResultPath, n);
	path[n] = 0;
	pthread_mutex_lock(&prof_lock);
	if (prof_env_running()) {
		pthread_mutex_unlock(&prof_lock);
		return acl_fail(ACL_ERROR_PROF_ALREADY_RUN,
				"profiling is already configured by acl.json or msprof (PROFILER_SAMPLECONFIG)");
	}
	if (api_inited) {
		pthread_mutex_unlock(&prof_lock);
		return acl_fail(ACL_ERROR_REPEAT_INITIALIZE,
				"aclprofInit was already called; aclprofFinalize first");
	}
	if (prof_subscribe_active()) {
		pthread_mutex_unlock(&prof_lock);
		return acl_fail(ACL_ERROR_PROF_API_CONFLICT,
				"a model is subscribed (aclprofModelSubscribe): unsubscribe it first");
	}
	ret = prof_mkdirs(path);
	if (ret) {
		pthread_mutex_unlock(&prof_lock);
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"cannot create the directory '%s': %s", path,
				strerror(-ret));
	}
	memcpy(api_path, path, n + 1);
	api_inited = true;
	pthread_mutex_unlock(&prof_lock);
	return ACL_SUCCESS;
}

static struct prof_session *session_of(const struct aclprofConfig *c)
{
	for (int i = 0; i < PROF_MAX_SESSIONS; i++)
		if (prof_sessions[i].running && !prof_sessions[i].from_env &&
		    prof_sessions[i].cfg == c)
			return &prof_sessions[i];
	return NULL;
}

/* A device of p that a running session already profiles, or -1. */
static int32_t busy_device(const struct prof_params *p)
{
	for (int i = 0; i < PROF_MAX_SESSIONS; i++) {
		const struct prof_session *s = &prof_sessions[i];

		if (!s->running)
			continue;
		for (uint32_t a = 0; a < p->ndev; a++)
			for (uint32_t b = 0; b < s->p.ndev; b++)
				if (p->devs[a] == s->p.devs[b])
					return p->devs[a];
	}
	return -1;
}

/* 0, or the aclError with a message: every device open, with rings. */
static aclError check_devices(const struct prof_params *p)
{
	for (uint32_t i = 0; i < p->ndev; i++) {
		struct rt_device *dev = device_by_id(p->devs[i]);
		bool open, tags;

		rt_lock();
		open = dev && dev->fd >= 0;
		tags = open && dev->prof_tags;
		rt_unlock();
		if (!open)
			return acl_fail_at("aclprofStart", ACL_ERROR_INVALID_PARAM,
					   "device %d is not open (aclrtSetDevice first)",
					   p->devs[i]);
		if (!tags && (p->mask & PROF_RING_BITS))
			return acl_fail_at("aclprofStart",
					   ACL_ERROR_PROF_MODULES_UNSUPPORTED,
					   "device %d: the driver has no profiling (DRM_VNPU_CAP_PROFILE)",
					   p->devs[i]);
	}
	return ACL_SUCCESS;
}

MSVP_PROF_API aclError aclprofStart(const aclprofConfig *profilerConfig)
{
	struct prof_session *s;
	char why[256] = "";
	aclError e;
	int32_t d;
	int ret;

	if (!profilerConfig)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "profilerConfig is NULL");
	pthread_mutex_lock(&prof_lock);
	if (!api_inited) {
		pthread_mutex_unlock(&prof_lock);
		return acl_fail(ACL_ERROR_PROF_NOT_RUN, "aclprofInit was not called");
	}
	if (!prof_config_live(profilerConfig)) {
		pthread_mutex_unlock(&prof_lock);
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"profilerConfig was destroyed or not made by aclprofCreateConfig");
	}
	if (session_of(profilerConfig)) {
		pthread_mutex_unlock(&prof_lock);
		return acl_fail(ACL_ERROR_PROF_ALREADY_RUN,
				"this config is already started");
	}
	d = busy_device(&profilerConfig->p);
	if (d >= 0) {
		pthread_mutex_unlock(&prof_lock);
		return acl_fail(ACL_ERROR_PROF_ALREADY_RUN,
				"device %d is already being profiled", d);
	}
	e = check_devices(&profilerConfig->p);
	if (e) {
		pthread_mutex_unlock(&prof_lock);
		return e;
	}
	ret = prof_session_start(&profilerConfig->p,
				 prof_config_path() ? prof_config_path() : api_path,
				 profilerConfig, &s, why, sizeof(why));
	pthread_mutex_unlock(&prof_lock);
	if (ret)
		return acl_fail(ACL_ERROR_PROFILING_FAILURE, "%s", why);
	return ACL_SUCCESS;
}

static void remember_dir(const char *dir)
{
	char **p = realloc(done_dirs, (ndone + 1) * sizeof(*p));
	char *d = strdup(dir);

	if (!p || !d) {
		free(d);
		if (p)
			done_dirs = p;
		return;
	}
	done_dirs = p;
	done_dirs[ndone++] = d;
}

MSVP_PROF_API aclError aclprofStop(const aclprofConfig *profilerConfig)
{
	struct prof_session *s;

	if (!profilerConfig)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "profilerConfig is NULL");
	pthread_mutex_lock(&prof_lock);
	if (!api_inited) {
		pthread_mutex_unlock(&prof_lock);
		return acl_fail(ACL_ERROR_PROF_NOT_RUN, "aclprofInit was not called");
	}
	if (!prof_config_live(profilerConfig)) {
		pthread_mutex_unlock(&prof_lock);
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"profilerConfig was destroyed or not made by aclprofCreateConfig");
	}
	s = session_of(profilerConfig);
	if (!s) {
		pthread_mutex_unlock(&prof_lock);
		return acl_fail(ACL_ERROR_PROF_NOT_RUN,
				"no aclprofStart with this config is running");
	}
	prof_session_stop(s);
	remember_dir(s->dir);
	pthread_mutex_unlock(&prof_lock);
	return ACL_SUCCESS;
}

/* Stop every API session and export their directories; prof_lock held. */
static void api_finalize_locked(void)
{
	for (int i = 0; i < PROF_MAX_SESSIONS; i++) {
		struct prof_session *s = &prof_sessions[i];

		if (s->running && !s->from_env) {
			prof_session_stop(s);
			remember_dir(s->dir);
		}
	}
	for (size_t i = 0; i < ndone; i++) {
		prof_session_export(done_dirs[i]);
		free(done_dirs[i]);
	}
	free(done_dirs);
	done_dirs = NULL;
	ndone = 0;
	api_inited = false;
}

MSVP_PROF_API aclError aclprofFinalize(void)
{
	pthread_mutex_lock(&prof_lock);
	if (!api_inited) {
		pthread_mutex_unlock(&prof_lock);
		return acl_fail(ACL_ERROR_PROF_NOT_RUN, "aclprofInit was not called");
	}
	api_finalize_locked();
	pthread_mutex_unlock(&prof_lock);
	return ACL_SUCCESS;
}

/* aclFinalize without aclprofFinalize: what aclprofFinalize would do. */
void prof_api_teardown(void)
{
	pthread_mutex_lock(&prof_lock);
	if (api_inited)
		api_finalize_locked();
	pthread_mutex_unlock(&prof_lock);
}

void prof_session_after_fork(void)
{
	pthread_mutex_init(&prof_lock, NULL);
	for (int i = 0; i < PROF_MAX_SESSIONS; i++) {
		struct prof_session *s = &prof_sessions[i];

		pthread_mutex_init(&s->lock, NULL);
		s->running = false;
		/* The parent writes these files: drop our copy of its buffers. */
		for (int f = 0; f < PROF_MAX_FILES; f++) {
			if (s->files[f].f) {
				__fpurge(s->files[f].f);
				fclose(s->files[f].f);
			}
			s->files[f].f = NULL;
		}
	}
	api_inited = false;
	ndone = 0;
	done_dirs = NULL;
	atomic_store(&prof_rt_mask, 0);
}
