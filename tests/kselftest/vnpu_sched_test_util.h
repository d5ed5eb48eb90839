/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers and the fixture of the scheduling suites (vnpu_sched_*_test.c):
 * queues, syncobj points, the debugfs knobs, engines, stats and queues
 * files, and the kernel log. The number of engines and the job timeout are
 * read from the module, never assumed.
 *
 * The suites run in the order of tests/vm-suites.sh, which is the order
 * the tests had in one file: those that cancel queued jobs run late, as a
 * cancelled job skews how the engines are shared (see
 * engines_still_shared_after_cancelled_jobs), and the tests that need
 * queues spread over engines come first.
 */
#ifndef VNPU_SCHED_TEST_UTIL_H
#define VNPU_SCHED_TEST_UTIL_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <linux/sync_file.h>

#include "vnpu_job_util.h"	/* first: it sets xioctl()'s restarts */
#include "vnpu_test_util.h"
#include "kselftest_harness.h"

/*
 * Not every suite uses every helper. They stay plain static functions as
 * in the one file they came from: inline would change what -O1 inlines
 * into the tests, and with it the warnings (-Wmaybe-uninitialized).
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"

#define NS_PER_MS	1000000ULL

static int queue_destroy(int fd, uint32_t id)
{
	struct drm_vnpu_queue_destroy qd = { .queue_id = id };

	return xioctl(fd, DRM_IOCTL_VNPU_QUEUE_DESTROY, &qd);
}

static int queue_reset(int fd, uint32_t id)
{
	struct drm_vnpu_queue_destroy qd = { .queue_id = id };

	return xioctl(fd, DRM_IOCTL_VNPU_QUEUE_RESET, &qd);
}

static int submit_full(int fd, uint32_t queue, const struct drm_vnpu_task *t,
		       uint32_t n, const struct drm_vnpu_sync *in, uint32_t nin,
		       const struct drm_vnpu_sync *out, uint32_t nout,
		       uint64_t *seq)
{
	struct drm_vnpu_submit s = {
		.queue_id = queue, .tasks = (uintptr_t)t, .task_count = n,
		.task_stride = sizeof(*t), .in_syncs = (uintptr_t)in,
		.in_sync_count = nin, .out_syncs = (uintptr_t)out,
		.out_sync_count = nout,
	};
	int ret = xioctl(fd, DRM_IOCTL_VNPU_SUBMIT, &s);

	if (!ret && seq)
		*seq = s.seq;
	return ret;
}

static int submit(int fd, uint32_t queue, const struct drm_vnpu_task *t,
		  uint32_t n, uint64_t *seq)
{
	return submit_full(fd, queue, t, n, NULL, 0, NULL, 0, seq);
}

static int syncobj_create(int fd, uint32_t flags, uint32_t *handle)
{
	struct drm_syncobj_create c = { .flags = flags };
	int ret = xioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c);

	if (!ret)
		*handle = c.handle;
	return ret;
}

static int syncobj_destroy(int fd, uint32_t handle)
{
	struct drm_syncobj_destroy d = { .handle = handle };

	return xioctl(fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d);
}

/*
 * Wait for every (handles[i], points[i]) with a deadline timeout_ms from
 * now (0: just look); 0, -ETIME or another -errno.
 */
static int wait_points(int fd, const uint32_t *handles, const uint64_t *points,
		       uint32_t n, uint64_t timeout_ms, uint32_t flags)
{
	struct drm_syncobj_timeline_wait w = {
		.handles = (uintptr_t)handles, .points = (uintptr_t)points,
		.timeout_nsec = timeout_ms ? now_ns() + timeout_ms * NS_PER_MS : 0,
		.count_handles = n, .flags = flags,
	};

	return xioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w);
}

/* Wait for one point (0 for a binary syncobj), waiting for submission too. */
static int wait_point(int fd, uint32_t handle, uint64_t point,
		      uint64_t timeout_ms)
{
	return wait_points(fd, &handle, &point, 1, timeout_ms,
			   DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL |
			   DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT);
}

/* Has the point signalled already? */
static bool point_signalled(int fd, uint32_t handle, uint64_t point)
{
	return wait_points(fd, &handle, &point, 1, 0,
			   DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL) == 0;
}

static int query_point(int fd, uint32_t handle, uint32_t flags, uint64_t *point)
{
	struct drm_syncobj_timeline_array a = {
		.handles = (uintptr_t)&handle, .points = (uintptr_t)point,
		.count_handles = 1, .flags = flags,
	};

	*point = ~0ULL;
	return xioctl(fd, DRM_IOCTL_SYNCOBJ_QUERY, &a);
}

/*
 * The status the fence of a binary syncobj signalled with, read through
 * an exported sync_file: 1 signalled without error, 0 not signalled, < 0
 * the error; or -1000 - errno when it cannot be exported.
 */
static int fence_status(int fd, uint32_t handle)
{
	struct drm_syncobj_handle h2f = {
		.handle = handle,
		.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE,
	};
	struct sync_file_info info;
	int ret;

	ret = xioctl(fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h2f);
	if (ret)
		return -1000 + ret;
	memset(&info, 0, sizeof(info));
	ret = xioctl(h2f.fd, SYNC_IOC_FILE_INFO, &info);
	close(h2f.fd);
	return ret ? -1000 + ret : info.status;
}

/* Poll a u64 the device writes until it is non-zero; 0 or -ETIME. */
static int wait_nonzero(volatile uint64_t *p, unsigned int timeout_ms)
{
	uint64_t end = now_ns() + timeout_ms * NS_PER_MS;

	while (!__atomic_load_n(p, __ATOMIC_ACQUIRE)) {
		if (now_ns() > end)
			return -ETIME;
		usleep(1000);
	}
	return 0;
}

/* Write a debugfs knob of the device; 0 or -errno. */
static int knob_write(const char *dir, const char *knob, unsigned long long v)
{
	char path[400], buf[32];
	int fd, n, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, knob);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = snprintf(buf, sizeof(buf), "%llu\n", v);
	if (write(fd, buf, n) != n)
		ret = -errno;
	close(fd);
	return ret;
}

static long long knob_read(const char *dir, const char *knob)
{
	char path[400];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, knob);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static void knobs_reset(const char *dir)
{
	knob_write(dir, "fail_next_submit", 0);
	knob_write(dir, "hang_next_job", 0);
	knob_write(dir, "fault_next_job", 0);
	knob_write(dir, "engine_delay_ns", 0);
}

/* Sums over the engines in debugfs "engines". */
struct engine_sums {
	unsigned long long busy_ns, jobs, resets, progress;
	int engines;
};

static int engines_read(const char *dir, struct engine_sums *s)
{
	unsigned long long busy, jobs, resets, progress;
	char path[400], line[256];
	unsigned int idx;
	FILE *f;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/engines", dir);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%u %llu %llu %llu %llu", &idx, &busy, &jobs,
			   &resets, &progress) != 5)
			continue;
		s->busy_ns += busy;
		s->jobs += jobs;
		s->resets += resets;
		s->progress += progress;
		s->engines++;
	}
	fclose(f);
	return 0;
}

/* A "key: value" of debugfs "stats"; -1 when missing. */
static long long stat_read(const char *dir, const char *key)
{
	char path[400], line[256];
	size_t klen = strlen(key);
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/stats", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == ':')
			v = strtoll(line + klen + 1, NULL, 0);
	fclose(f);
	return v;
}

/* The debugfs "queues" line of (pid, queue id); 0 if found, else -1. */
struct queue_line {
	char priority[16];
	unsigned long long submitted, completed;
	char state[16];
};

static int queue_line_read(const char *dir, int pid, uint32_t qid,
			   struct queue_line *ql)
{
	char path[400], line[512], prio[16], state[16];
	unsigned long long sub, comp;
	unsigned int id;
	int p, found = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/queues", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%d %u %15s %llu %llu %15s", &p, &id, prio,
			   &sub, &comp, state) != 6)
			continue;
		if (p != pid || (qid && id != qid))
			continue;
		if (ql) {
			snprintf(ql->priority, sizeof(ql->priority), "%s", prio);
			snprintf(ql->state, sizeof(ql->state), "%s", state);
			ql->submitted = sub;
			ql->completed = comp;
		}
		found = 0;
	}
	fclose(f);
	return found;
}

/* /dev/kmsg positioned after the last record, for reading new ones. */
static int kmsg_open_end(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/*
 * Count the kernel log records written since kmsg_open_end() that contain
 * needle; the first one goes to first.
 */
static int kmsg_count(int kfd, const char *needle, char *first, size_t len)
{
	char rec[2048];
	int count = 0;
	ssize_t n;

	for (;;) {
		n = read(kfd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records */
		if (n <= 0)
			break;
		rec[n] = '\0';
		if (!strstr(rec, needle))
			continue;
		if (!count++ && first && len) {
			n = n < (ssize_t)len ? n : (ssize_t)len - 1;
			memcpy(first, rec, n);
			first[n] = '\0';
		}
	}
	return count;
}

static int wait_jobs_alive_zero(const char *dir, unsigned int timeout_ms)
{
	uint64_t end = now_ns() + timeout_ms * NS_PER_MS;
	long long v;

	while ((v = stat_read(dir, "jobs_alive")) != 0) {
		if (v < 0 || now_ns() > end)
			return v < 0 ? -EIO : -ETIME;
		sleep_ms(10);
	}
	return 0;
}

FIXTURE(sched)
{
	int fd;
	char node[64];
	char dir[320];
	long engines;
	long timeout_ms;
	long depth;		/* queue_depth: unfinished jobs per queue */
};

FIXTURE_SETUP(sched)
{
	char paths[VNPU_TEST_MAX_NODES][64];

	ASSERT_GE(vnpu_list_nodes(paths, VNPU_TEST_MAX_NODES), 1)
		TH_LOG("no /dev/accel node: is vnpu.ko loaded?");
	snprintf(self->node, sizeof(self->node), "%s", paths[0]);
	self->fd = open(self->node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(self->fd, 0) TH_LOG("open %s: %s", self->node, strerror(errno));
	ASSERT_EQ(0, vnpu_debugfs_dir(self->node, self->dir, sizeof(self->dir)));
	self->engines = vnpu_module_param("engines");
	self->timeout_ms = vnpu_module_param("job_timeout_ms");
	self->depth = vnpu_module_param("queue_depth");
	ASSERT_GE(self->engines, 1);
	ASSERT_GE(self->timeout_ms, 10);
	ASSERT_GE(self->depth, 1);
	knobs_reset(self->dir);
}

FIXTURE_TEARDOWN(sched)
{
	/* A failed test must not leave a knob armed for the next one. */
	knobs_reset(self->dir);
	close(self->fd);
}

#define CONC_SPIN_MS 300

/* Slots of a job that times a spin: start, end. */
static void spin_job(struct drm_vnpu_task *t, uint64_t ts_va, uint64_t ns)
{
	t[0] = t_ts(ts_va);
	t[1] = t_spin(ns);
	t[2] = t_ts(ts_va + 8);
}

/*
 * n fresh queues each run one spin of CONC_SPIN_MS at once: start and end
 * timestamps of queue i into ts[2i], ts[2i + 1], the wall time to *wall.
 * Returns 0, or a negative step number.
 */
static int run_spins(int fd, int n, volatile uint64_t *ts, uint64_t ts_va,
		     uint64_t *wall)
{
	struct drm_vnpu_task t[3];
	uint32_t q[64], so[64];
	uint64_t seq[64], t0;
	int ret = 0, i;

	if (n > 64)
		return -1;
	for (i = 0; i < 2 * n; i++)
		ts[i] = 0;
	for (i = 0; i < n; i++)
		if (queue_create(fd, DRM_VNPU_PRIORITY_NORMAL, &q[i], &so[i]))
			return -2;
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		spin_job(t, ts_va + 16 * i, CONC_SPIN_MS * NS_PER_MS);
		if (submit(fd, q[i], t, 3, &seq[i]))
			return -3;
	}
	if (wait_points(fd, so, seq, n, 10000, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL))
		return -4;
	*wall = now_ns() - t0;
	for (i = 0; i < n; i++) {
		if (job_state(fd, q[i], seq[i]) != DRM_VNPU_JOB_OK)
			ret = -5;
		queue_destroy(fd, q[i]);
		syncobj_destroy(fd, so[i]);
	}
	return ret;
}

/* Latest start minus earliest end of n spins: < 0 when all overlap. */
static int64_t spins_apart(volatile uint64_t *ts, int n)
{
	uint64_t last_start = 0, first_end = ~0ULL;
	int i;

	for (i = 0; i < n; i++) {
		if (ts[2 * i] > last_start)
			last_start = ts[2 * i];
		if (ts[2 * i + 1] < first_end)
			first_end = ts[2 * i + 1];
	}
	return (int64_t)(last_start - first_end);
}

#pragma GCC diagnostic pop

#endif /* VNPU_SCHED_TEST_UTIL_H */
