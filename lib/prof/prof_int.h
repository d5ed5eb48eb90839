/* SPDX-License-Identifier: MIT */
/*
 * lib/prof internals shared by its files: sessions (prof_session.c), the
 * rings' extra entry points (prof_device.c), the raw writers
 * (prof_raw.c) and the configuration parsers (prof_config.c,
 * prof_env.c). Not for the layers above: they use prof.h.
 */
#ifndef VNPU_PROF_PROF_INT_H
#define VNPU_PROF_PROF_INT_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "acl/acl_prof.h"
#include "prof.h"

#define PROF_MAX_DEVICES 64	/* CANN's PROF_MAX_DEV_NUM */
#define PROF_PATH_MAX 4096	/* aclprofInit's length limit */
#define PROF_MAX_SESSIONS 8
#define PROF_MAX_FILES 16	/* raw files open per session */

/* ACL_PROF_* bits that need the device rings. */
#define PROF_RING_BITS (ACL_PROF_TASK_TIME | ACL_PROF_TASK_TIME_L0 |	\
			ACL_PROF_TASK_TIME_L2 | ACL_PROF_TASK_TIME_L3 |	\
			ACL_PROF_AICORE_METRICS | ACL_PROF_AICPU |	\
			ACL_PROF_TRAINING_TRACE)

/* What a session collects: an aclprofConfig's content or acl.json's. */
struct prof_params {
	uint64_t mask;			/* ACL_PROF_* as stored */
	uint32_t aic_metrics;		/* aclprofAicoreMetrics */
	uint32_t ndev;
	int32_t devs[PROF_MAX_DEVICES];
	bool all_devices;		/* acl.json / msprof: every device */
};

/* The opaque aclprofConfig (CANN's ProfConfig, plus a liveness mark). */
struct aclprofConfig {
	uint32_t magic;
	struct prof_params p;
};

struct prof_file {
	char rel[64];
	FILE *f;
};

struct prof_session {
	pthread_mutex_t lock;		/* everything below */
	_Atomic bool running;
	bool from_env;			/* acl.json or PROFILER_SAMPLECONFIG */
	const struct aclprofConfig *cfg;	/* aclprofStart's, for Stop */
	struct prof_params p;
	char dir[PROF_PATH_MAX + 128];
	uint64_t start_ns, stop_ns, start_wall_us;
	int sink[PROF_MAX_DEVICES];	/* > 0: subscribed */
	uint64_t dropped_base[PROF_MAX_DEVICES];
	uint64_t records[PROF_MAX_DEVICES];
	bool seen[PROF_MAX_DEVICES];	/* a record came from it */
	struct prof_file files[PROF_MAX_FILES];
	uint64_t host_lost;
};

/* prof_config.c */
bool prof_config_live(const struct aclprofConfig *c);
const char *prof_metrics_name(uint32_t m);
int prof_metrics_parse(const char *s, uint32_t *m);
/* The mask CreateConfig stores for a requested one (CANN's chains). */
uint64_t prof_mask_expand(uint64_t mask);
/* aclprofSetConfig(ACL_PROF_PATH)'s directory, or NULL. */
const char *prof_config_path(void);

/* prof_session.c */
extern pthread_mutex_t prof_lock;	/* sessions' start and stop */
extern struct prof_session prof_sessions[PROF_MAX_SESSIONS];
/* Start a session on p writing under out; cfg NULL for env sessions. */
int prof_session_start(const struct prof_params *p, const char *out,
		       const struct aclprofConfig *cfg,
		       struct prof_session **out_s, char *why, size_t len);
/* Stop s: drain, write its info files. Caller holds prof_lock. */
void prof_session_stop(struct prof_session *s);
/* Export dir unless VNPU_PROF_EXPORT=0. */
void prof_session_export(const char *dir);
bool prof_any_running(void);
/* aclFinalize: stop and export the aclprofStart sessions. */
void prof_api_teardown(void);
void prof_mask_update(void);

/* prof_env.c: the acl.json / PROFILER_SAMPLECONFIG session. */
bool prof_env_running(void);

/* prof_raw.c */
/* Append to s's file rel (s->lock held). */
int prof_raw_append_locked(struct prof_session *s, const char *rel,
			   const char *header, const char *line);
void prof_raw_close_locked(struct prof_session *s);
/* Move the host events to the running sessions' files. */
void prof_raw_drain_host(void);
/* The sink of a session's device records (arg: the session). */
void prof_raw_task_sink(const struct prof_task_rec *rec, void *arg);
/* Write info.json, device_<id>/info.json and tags.tsv of s (stopped). */
void prof_raw_finish(struct prof_session *s);
int prof_mkdirs(const char *path);

/* prof_device.c */
/* Ring capacity from VNPU_PROF_RING_RECORDS (default 16384). */
uint32_t prof_ring_records(void);
/* Engines of an open device (0 when unknown). */
uint32_t prof_device_engines(int32_t device);
/* A sink on every device, now and when later opened. */
int prof_device_subscribe_all(prof_sink_fn fn, void *arg);
void prof_device_unsubscribe_all(prof_sink_fn fn, void *arg);
/* Device open/close hooks (rt_lifecycle, rt_lock held). */
void prof_device_opened(int32_t id, int fd);
void prof_device_closing(int32_t id, int fd);
/* In a fork's child: the parent's rings and sessions are not ours. */
void prof_device_after_fork(void);
void prof_session_after_fork(void);

#endif /* VNPU_PROF_PROF_INT_H */
