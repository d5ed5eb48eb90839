/* SPDX-License-Identifier: MIT */
/*
 * lib/prof: the profiler. Sessions (aclprofInit/Start/Stop/Finalize,
 * acl.json's "profiler" section, msprof's PROFILER_SAMPLECONFIG), the
 * kernel's record rings, the raw data files, msproftx markers, operator
 * subscription, and the exporter that turns a raw data directory into
 * CANN's summaries and a timeline. Documentation/profiling.md.
 *
 * Files: prof_session.c, prof_config.c, prof_env.c (sessions),
 * prof_device.c (rings), prof_raw.c (raw files), prof_tx*.c, prof_mstx.c,
 * prof_step.c (markers), prof_subscribe*.c (subscription), export/ (the
 * exporter).
 */
#ifndef VNPU_PROF_PROF_H
#define VNPU_PROF_PROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <drm/vnpu_accel.h>

#include "../core/prof_rt.h"

/* --- sessions (prof_session.c) ------------------------------------- */

/*
 * Is a collection session running with any of bits (ACL_PROF_*)?
 * Same as prof_rt_on(); here for the layers above.
 */
bool prof_collecting(uint64_t bits);

/* The raw data directory of the running session (PROF_...), or NULL. */
const char *prof_session_dir(void);

/*
 * Append one line to <session>/<rel> (e.g. "host/data/tx.tsv"), writing
 * header (a "#..." line, without newline) first if the file is new. The
 * line must not hold a newline; it gets one. Thread safe; -ENOENT when no
 * session runs.
 */
int prof_raw_append(const char *rel, const char *header, const char *line);

/* Replace tabs, newlines and carriage returns of s (in place) by spaces. */
void prof_raw_clean(char *s);

/* --- device rings (prof_device.c) ---------------------------------- */

/*
 * One task or job as the kernel recorded it, with the device it ran on.
 * Consumers are called from the drain (the drain thread, a sync, Stop).
 */
struct prof_task_rec {
	int32_t device;
	struct drm_vnpu_prof_record r;
};

typedef void (*prof_sink_fn)(const struct prof_task_rec *rec, void *arg);

/*
 * Turn the device's ring on (reference counted: sessions and subscribers
 * each hold one) and add a consumer of its records. Returns a sink id
 * (> 0) or -errno (-EOPNOTSUPP: the driver has no DRM_VNPU_CAP_PROFILE).
 */
int prof_device_subscribe(int32_t device, prof_sink_fn fn, void *arg);

/* Drop the consumer; the ring goes off when no one holds it. */
void prof_device_unsubscribe(int32_t device, int sink_id);

/* Read everything the rings hold now and hand it to the consumers. */
void prof_device_drain_all(void);

/* Records dropped by the kernel (full ring) on a device since enabled. */
uint64_t prof_device_dropped(int32_t device);

/* --- export (export/) ----------------------------------------------- */

/*
 * Write <dir>/mindstudio_profiler_output/ from the raw data of one
 * PROF_... directory: op_summary, op_statistic, api_statistic, task_time
 * (and msprof_tx when there are markers) CSVs, msprof_*.json (Chrome
 * trace events) and timeline_*.html. Returns 0, or -errno with why.
 */
int prof_export(const char *dir, char *why, size_t len);

#endif /* VNPU_PROF_PROF_H */
