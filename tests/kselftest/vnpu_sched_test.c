// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scheduling tests of the vnpu engines: order within a queue, concurrency
 * between queues, priorities, dependencies (syncobj points and memory
 * values), fault isolation, hang recovery, the fault-injection knobs, the
 * lifetime of jobs whose queue, file or process goes away, and the engine
 * time accounting in fdinfo and debugfs. Runs in the VM with vnpu.ko
 * loaded; the number of engines and the job timeout are read from the
 * module, never assumed.
 *
 * Tests that cancel queued jobs run late: a cancelled job skews how the
 * engines are shared (see engines_still_shared_after_cancelled_jobs), and
 * the tests that need queues spread over engines come first.
 *
 * The binary is also the helper of vnpu_sched_lifetime.sh:
 *   vnpu_sched_test --hold NODE COUNT SPIN_MS
 *	submit COUNT jobs of one SPIN_MS spin each to one queue, print
 *	"ready" once the queue is full (queue_depth jobs) or all are
 *	submitted, go on submitting, wait to be killed
 *   vnpu_sched_test --smoke NODE
 *	run one job; exit 0 when it wrote its value and ended OK
 */
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

#define NS_PER_MS	1000000ULL

/* ------------------------------------------------------------ helpers -- */

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

/* drm-engine-vnpu of fd in /proc/self/fdinfo, in ns; -1 when missing. */
static long long fdinfo_engine_ns(int fd)
{
	char path[64], line[256];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "drm-engine-vnpu:", 16))
			v = strtoll(line + 16, NULL, 10);
	fclose(f);
	return v;
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

/* ------------------------------------------------------------ fixture -- */

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

/* --------------------------------------------------------- scheduling -- */

#define ORDER_JOBS 1000

/*
 * 1000 jobs back to back in one queue: consecutive sequence numbers, each
 * one ran (its value is there), they ran in order (timestamps), and the
 * queue's timeline ends at the last one.
 */
TEST_F_TIMEOUT(sched, queue_runs_1000_jobs_in_order, 120)
{
	struct ubuf vals = { 0 }, ts = { 0 };
	struct drm_vnpu_task t[2];
	struct queue_line ql;
	uint32_t q, so;
	uint64_t seq = 0, point;
	long long failed0;
	int i, bad = 0, first_bad = -1;

	ASSERT_EQ(0, ubuf_create(self->fd, ORDER_JOBS * 8, &vals));
	ASSERT_EQ(0, ubuf_create(self->fd, ORDER_JOBS * 8, &ts));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	failed0 = stat_read(self->dir, "jobs_failed");

	for (i = 0; i < ORDER_JOBS; i++) {
		t[0] = t_write(vals.va + 8 * i, 0x1000 + i);
		t[1] = t_ts(ts.va + 8 * i);
		ASSERT_EQ(0, submit(self->fd, q, t, 2, &seq)) TH_LOG("job %d", i);
		ASSERT_EQ((uint64_t)i + 1, seq);
	}
	ASSERT_EQ(0, wait_point(self->fd, so, ORDER_JOBS, 90000));
	ASSERT_EQ(0, query_point(self->fd, so, 0, &point));
	EXPECT_EQ(ORDER_JOBS, point);

	for (i = 0; i < ORDER_JOBS; i++) {
		if (vals.p[i] == 0x1000 + (uint64_t)i && ts.p[i] &&
		    (!i || ts.p[i] >= ts.p[i - 1]))
			continue;
		if (!bad++)
			first_bad = i;
	}
	EXPECT_EQ(0, bad) TH_LOG("%d bad jobs, first %d: value 0x%llx ts %llu prev ts %llu",
				 bad, first_bad,
				 (unsigned long long)vals.p[first_bad],
				 (unsigned long long)ts.p[first_bad],
				 first_bad > 0 ? (unsigned long long)ts.p[first_bad - 1] : 0);

	/* The last DRM_VNPU_STATUS_HISTORY jobs are remembered, all OK. */
	for (i = ORDER_JOBS - DRM_VNPU_STATUS_HISTORY + 1; i <= ORDER_JOBS; i++)
		ASSERT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q, i)) TH_LOG("seq %d", i);
	EXPECT_EQ(-ENODATA, job_state(self->fd, q, 1));
	EXPECT_EQ(failed0, stat_read(self->dir, "jobs_failed"));

	ASSERT_EQ(0, queue_line_read(self->dir, getpid(), q, &ql));
	EXPECT_EQ(ORDER_JOBS, ql.submitted);
	EXPECT_EQ(ORDER_JOBS, ql.completed);
	EXPECT_STREQ("ok", ql.state);
	EXPECT_STREQ("normal", ql.priority);
	ubuf_free(self->fd, &vals);
	ubuf_free(self->fd, &ts);
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

/* One queue per engine: they all run side by side. */
TEST_F(sched, queues_run_concurrently_on_all_engines)
{
	const uint64_t spin = CONC_SPIN_MS * NS_PER_MS;
	const int n = self->engines;
	struct ubuf ts = { 0 };
	uint64_t wall;
	int i;

	if (n < 2)
		SKIP(return, "needs two engines, have %d", n);
	ASSERT_LE(n, 64);
	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &ts));
	ASSERT_EQ(0, run_spins(self->fd, n, ts.p, ts.va, &wall));
	for (i = 0; i < n; i++)
		EXPECT_GE(ts.p[2 * i + 1] - ts.p[2 * i], spin);
	/* Every spin overlaps every other ... */
	EXPECT_GT(0, spins_apart(ts.p, n)) TH_LOG("the last spin started %lld ms after the first ended",
						 (long long)spins_apart(ts.p, n) / (long long)NS_PER_MS);
	/* ... and all are done well before two in a row would be. */
	EXPECT_LT(wall, spin * 16 / 10) TH_LOG("%d spins of %u ms took %llu ms", n,
					      CONC_SPIN_MS,
					      (unsigned long long)(wall / NS_PER_MS));
	ubuf_free(self->fd, &ts);
}

/* Two jobs of one queue run one after the other. */
TEST_F(sched, one_queue_runs_jobs_serially)
{
	struct ubuf ts = { 0 };
	struct drm_vnpu_task a[3], b[3];
	uint32_t q, so;
	uint64_t seq, t0, wall;
	const uint64_t spin = CONC_SPIN_MS * NS_PER_MS;

	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &ts));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	spin_job(a, ts.va, spin);
	spin_job(b, ts.va + 16, spin);

	t0 = now_ns();
	ASSERT_EQ(0, submit(self->fd, q, a, 3, &seq));
	ASSERT_EQ(0, submit(self->fd, q, b, 3, &seq));
	ASSERT_EQ(2, seq);
	ASSERT_EQ(0, wait_point(self->fd, so, 2, 10000));
	wall = now_ns() - t0;

	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q, 1));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q, 2));
	/* The second started after the first ended. */
	EXPECT_GE(ts.p[2], ts.p[1]);
	EXPECT_GE(wall, 2 * spin);
	EXPECT_LT(wall, 3 * spin) TH_LOG("two %u ms spins took %llu ms",
					 CONC_SPIN_MS,
					 (unsigned long long)(wall / NS_PER_MS));
	ubuf_free(self->fd, &ts);
}

#define PRIO_FILL_MS	500
#define PRIO_LOW_MS	200

/*
 * Every engine busy with a long low-priority spin, more low-priority jobs
 * queued on other queues, then one high-priority job: when an engine comes
 * free the high job goes first. Only the first low job of another engine
 * may start before it (that engine may come free a little earlier); were
 * priorities ignored, the high job would wait for the low jobs queued
 * before it on its engine.
 */
TEST_F(sched, high_priority_overtakes_queued_low)
{
	const int e = self->engines, k = 2 * self->engines;
	struct ubuf m = { 0 };
	struct drm_vnpu_task t[3];
	uint32_t q[3 * 64 + 1], so[3 * 64 + 1];
	uint64_t seq[3 * 64 + 1], fill_end_max = 0, fill_end_min = ~0ULL, h;
	int i, n = 0, before = 0;

	ASSERT_LE(e, 64);
	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	/* m: [0, 2e) fill start/end, [2e, 2e + k) low starts, [2e + k] high */
	for (i = 0; i < e; i++, n++) {
		ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_LOW, &q[n], &so[n]));
		spin_job(t, m.va + 16 * i, PRIO_FILL_MS * NS_PER_MS);
		ASSERT_EQ(0, submit(self->fd, q[n], t, 3, &seq[n]));
	}
	/* Every engine is spinning before anything else is queued. */
	for (i = 0; i < e; i++)
		ASSERT_EQ(0, wait_nonzero(&m.p[2 * i], 5000)) TH_LOG("fill %d did not start", i);
	for (i = 0; i < k; i++, n++) {
		ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_LOW, &q[n], &so[n]));
		t[0] = t_ts(m.va + 8 * (2 * e + i));
		t[1] = t_spin(PRIO_LOW_MS * NS_PER_MS);
		ASSERT_EQ(0, submit(self->fd, q[n], t, 2, &seq[n]));
	}
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_HIGH, &q[n], &so[n]));
	t[0] = t_ts(m.va + 8 * (2 * e + k));
	ASSERT_EQ(0, submit(self->fd, q[n], t, 1, &seq[n]));
	n++;

	ASSERT_EQ(0, wait_points(self->fd, so, seq, n, 30000,
				 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL));
	for (i = 0; i < n; i++)
		ASSERT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q[i], seq[i])) TH_LOG("job %d", i);
	for (i = 0; i < e; i++) {
		if (m.p[2 * i + 1] > fill_end_max)
			fill_end_max = m.p[2 * i + 1];
		if (m.p[2 * i + 1] < fill_end_min)
			fill_end_min = m.p[2 * i + 1];
	}
	h = m.p[2 * e + k];
	for (i = 0; i < k; i++)
		if (m.p[2 * e + i] < h)
			before++;
	/* It waited for an engine, then went first. */
	EXPECT_GE(h, fill_end_min);
	EXPECT_LE(before, e - 1) TH_LOG("%d of %d queued low jobs started before the high one",
					before, k);
	EXPECT_LT(h, fill_end_max + PRIO_LOW_MS * NS_PER_MS / 2)
		TH_LOG("high job started %lld ms after the last engine came free",
		       (long long)(h - fill_end_max) / (long long)NS_PER_MS);
	ubuf_free(self->fd, &m);
}

/* ------------------------------------------------------- dependencies -- */

/*
 * Job B of queue 2 waits for queue 1's timeline point of job A: it starts
 * after A ended and sees what A wrote.
 */
TEST_F(sched, in_sync_on_other_queue_point)
{
	struct ubuf m = { 0 };
	struct drm_vnpu_task a[4], b[2];
	struct drm_vnpu_sync in;
	uint32_t q1, so1, q2, so2;
	uint64_t sa, sb;

	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q1, &so1));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q2, &so2));
	/* A: [0] start, spin, [1] = 0xa11, [2] end */
	a[0] = t_ts(m.va);
	a[1] = t_spin(200 * NS_PER_MS);
	a[2] = t_write(m.va + 8, 0xa11);
	a[3] = t_ts(m.va + 16);
	/* B: [3] start, copy [1] to [4] */
	b[0] = t_ts(m.va + 24);
	b[1] = t_copy(m.va + 8, m.va + 32, 8);

	ASSERT_EQ(0, submit(self->fd, q1, a, 4, &sa));
	in = (struct drm_vnpu_sync){ .handle = so1, .point = sa };
	ASSERT_EQ(0, submit_full(self->fd, q2, b, 2, &in, 1, NULL, 0, &sb));
	ASSERT_EQ(0, wait_point(self->fd, so2, sb, 10000));
	EXPECT_TRUE(point_signalled(self->fd, so1, sa));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q1, sa));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q2, sb));
	EXPECT_GE(m.p[3], m.p[2]) TH_LOG("B started %lld ns before A ended",
					 (long long)(m.p[2] - m.p[3]));
	EXPECT_EQ(0xa11, m.p[4]);
	ubuf_free(self->fd, &m);
}

/*
 * Out-syncs: a binary syncobj and a point of a user timeline syncobj are
 * signalled when the job ends, not before; a signalled binary in-sync
 * does not hold a job back.
 */
TEST_F(sched, out_syncs_signal_when_job_ends)
{
	struct ubuf m = { 0 };
	struct drm_vnpu_task t[3];
	struct drm_vnpu_sync out[2], in;
	uint32_t q, so, bin, tl, pre;
	uint64_t seq, point;

	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	ASSERT_EQ(0, syncobj_create(self->fd, 0, &bin));
	ASSERT_EQ(0, syncobj_create(self->fd, 0, &tl));
	ASSERT_EQ(0, syncobj_create(self->fd, DRM_SYNCOBJ_CREATE_SIGNALED, &pre));
	spin_job(t, m.va, 300 * NS_PER_MS);
	out[0] = (struct drm_vnpu_sync){ .handle = bin, .point = 0 };
	out[1] = (struct drm_vnpu_sync){ .handle = tl, .point = 9 };
	in = (struct drm_vnpu_sync){ .handle = pre, .point = 0 };

	ASSERT_EQ(0, submit_full(self->fd, q, t, 3, &in, 1, out, 2, &seq));
	/* Running: submitted, not signalled. */
	EXPECT_FALSE(point_signalled(self->fd, bin, 0));
	EXPECT_FALSE(point_signalled(self->fd, tl, 9));
	ASSERT_EQ(0, query_point(self->fd, tl, 0, &point));
	EXPECT_EQ(0, point);
	ASSERT_EQ(0, query_point(self->fd, tl, DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED,
				 &point));
	EXPECT_EQ(9, point);

	ASSERT_EQ(0, wait_point(self->fd, bin, 0, 10000));
	/* The binary one signalled at the end of the job, not earlier. */
	EXPECT_NE(0, m.p[1]);
	EXPECT_GE(m.p[1] - m.p[0], 300 * NS_PER_MS);
	ASSERT_EQ(0, wait_point(self->fd, tl, 9, 10000));
	ASSERT_EQ(0, query_point(self->fd, tl, 0, &point));
	EXPECT_EQ(9, point);
	EXPECT_TRUE(point_signalled(self->fd, so, seq));
	EXPECT_EQ(1, fence_status(self->fd, bin));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q, seq));
	syncobj_destroy(self->fd, bin);
	syncobj_destroy(self->fd, tl);
	syncobj_destroy(self->fd, pre);
	ubuf_free(self->fd, &m);
}

/*
 * An in-sync on a point nobody submitted yet is refused with -EINVAL
 * without DRM_VNPU_SYNC_WAIT_FOR_SUBMIT, and nothing is queued.
 */
TEST_F(sched, in_sync_unsubmitted_point_einval)
{
	struct drm_vnpu_task t = t_nop();
	struct drm_vnpu_sync in;
	uint32_t q1, so1, q2, so2, empty;
	uint64_t seq = 0;

	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q1, &so1));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q2, &so2));
	ASSERT_EQ(0, syncobj_create(self->fd, 0, &empty));

	/* Queue 1 has no job at all yet. */
	in = (struct drm_vnpu_sync){ .handle = so1, .point = 1 };
	EXPECT_EQ(-EINVAL, submit_full(self->fd, q2, &t, 1, &in, 1, NULL, 0, &seq));
	/* An empty binary syncobj. */
	in = (struct drm_vnpu_sync){ .handle = empty, .point = 0 };
	EXPECT_EQ(-EINVAL, submit_full(self->fd, q2, &t, 1, &in, 1, NULL, 0, &seq));
	/* Queue 1 has job 1 but not job 2. */
	ASSERT_EQ(0, submit(self->fd, q1, &t, 1, &seq));
	ASSERT_EQ(1, seq);
	in = (struct drm_vnpu_sync){ .handle = so1, .point = 2 };
	EXPECT_EQ(-EINVAL, submit_full(self->fd, q2, &t, 1, &in, 1, NULL, 0, &seq));
	/* Point 1 exists: accepted, and as queue 2's first job. */
	in.point = 1;
	ASSERT_EQ(0, submit_full(self->fd, q2, &t, 1, &in, 1, NULL, 0, &seq));
	EXPECT_EQ(1, seq);
	ASSERT_EQ(0, wait_point(self->fd, so2, 1, 10000));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q2, 1));
	syncobj_destroy(self->fd, empty);
}

struct late_producer {
	int fd;
	uint32_t queue;
	unsigned int delay_ms;
	const struct drm_vnpu_task *tasks;
	uint32_t count;
	uint64_t submitted_ns;
	uint64_t seq;
	int ret;
};

static void *late_submit(void *arg)
{
	struct late_producer *p = arg;

	sleep_ms(p->delay_ms);
	p->submitted_ns = now_ns();
	p->ret = submit(p->fd, p->queue, p->tasks, p->count, &p->seq);
	return NULL;
}

/*
 * With DRM_VNPU_SYNC_WAIT_FOR_SUBMIT the consumer's SUBMIT waits until
 * another thread submitted the producer, then runs after it.
 */
TEST_F(sched, in_sync_wait_for_submit)
{
	struct ubuf m = { 0 };
	struct drm_vnpu_task a[2], b[2];
	struct drm_vnpu_sync in;
	struct late_producer p = { 0 };
	uint32_t q1, so1, q2, so2;
	uint64_t seq = 0, t0, t1;
	pthread_t th;

	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q1, &so1));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q2, &so2));
	a[0] = t_spin(100 * NS_PER_MS);
	a[1] = t_write(m.va, 0x7e7e);
	b[0] = t_copy(m.va, m.va + 8, 8);
	b[1] = t_ts(m.va + 16);

	p.fd = self->fd;
	p.queue = q1;
	p.delay_ms = 300;
	p.tasks = a;
	p.count = 2;
	p.ret = 1;
	in = (struct drm_vnpu_sync){ .handle = so1, .point = 1,
				     .flags = DRM_VNPU_SYNC_WAIT_FOR_SUBMIT };
	ASSERT_EQ(0, pthread_create(&th, NULL, late_submit, &p));
	t0 = now_ns();
	EXPECT_EQ(0, submit_full(self->fd, q2, b, 2, &in, 1, NULL, 0, &seq));
	t1 = now_ns();
	pthread_join(th, NULL);
	ASSERT_EQ(0, p.ret);
	ASSERT_EQ(1, p.seq);
	ASSERT_EQ(1, seq);
	/* The consumer's SUBMIT returned only after the producer's. */
	EXPECT_GE(t1, p.submitted_ns);
	EXPECT_GE(t1 - t0, 250 * NS_PER_MS);
	ASSERT_EQ(0, wait_point(self->fd, so2, 1, 10000));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q1, 1));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q2, 1));
	EXPECT_EQ(0x7e7e, m.p[1]);
	ubuf_free(self->fd, &m);
}

/*
 * WAIT_VALUE on queue 2 for a value WRITE_VALUE of queue 1 stores after a
 * spin: the waiter goes on only after the write.
 */
TEST_F(sched, wait_value_across_queues)
{
	struct ubuf m = { 0 };
	struct drm_vnpu_task w[2], p[3];
	uint32_t q1, so1, q2, so2;
	uint64_t s1, s2;

	if (self->engines < 2)
		SKIP(return, "needs two engines, have %ld", self->engines);
	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q1, &so1));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q2, &so2));
	/* Waiter: [0] >= 5, then [1] = time. */
	w[0] = t_wait(m.va, 5, DRM_VNPU_WAIT_GEQ, 5000 * NS_PER_MS);
	w[1] = t_ts(m.va + 8);
	/* Producer: spin, [2] = time, [0] = 5. */
	p[0] = t_spin(200 * NS_PER_MS);
	p[1] = t_ts(m.va + 16);
	p[2] = t_write(m.va, 5);

	ASSERT_EQ(0, submit(self->fd, q2, w, 2, &s2));
	sleep_ms(50);
	EXPECT_FALSE(point_signalled(self->fd, so2, s2));
	ASSERT_EQ(0, submit(self->fd, q1, p, 3, &s1));
	ASSERT_EQ(0, wait_point(self->fd, so2, s2, 15000));
	ASSERT_EQ(0, wait_point(self->fd, so1, s1, 15000));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q1, s1));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q2, s2));
	EXPECT_NE(0, m.p[2]);
	EXPECT_GE(m.p[1], m.p[2]) TH_LOG("waiter went on %lld ns before the write",
					 (long long)(m.p[2] - m.p[1]));
	ubuf_free(self->fd, &m);
}

/*
 * A file's WAIT_VALUE steps aside for the same file's jobs: with a waiter
 * on every engine, the job that releases them all still gets an engine
 * (before, it waited behind the waiters until they timed out).
 */
static __attribute__((noinline)) void
waiters_released_by_own_file(struct __test_metadata *_metadata,
			     int fd, long n, struct ubuf *mb)
{
	struct ubuf m = *mb;
	struct drm_vnpu_task w[2], p[64];
	uint32_t wq[64], wso[64], pq, pso;
	uint64_t ws[64], ps, start;
	long i;

	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, queue_create(fd, DRM_VNPU_PRIORITY_NORMAL,
					  &wq[i], &wso[i]));
		/* word i == 7, then word 64 + i = time; gives up after 8 s */
		w[0] = t_wait(m.va + 8 * i, 7, DRM_VNPU_WAIT_EQ, 8000 * NS_PER_MS);
		w[1] = t_ts(m.va + 8 * (64 + i));
		ASSERT_EQ(0, submit(fd, wq[i], w, 2, &ws[i]));
	}
	sleep_ms(100);	/* every waiter is on an engine, polling */
	for (i = 0; i < n; i++)
		EXPECT_EQ(DRM_VNPU_JOB_PENDING, job_state(fd, wq[i], ws[i]));
	ASSERT_EQ(0, queue_create(fd, DRM_VNPU_PRIORITY_NORMAL, &pq, &pso));
	for (i = 0; i < n; i++)
		p[i] = t_write(m.va + 8 * i, 7);
	start = now_ns();
	ASSERT_EQ(0, submit(fd, pq, p, n, &ps));
	ASSERT_EQ(0, wait_point(fd, pso, ps, 15000));
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, wait_point(fd, wso[i], ws[i], 15000));
		EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(fd, wq[i], ws[i]));
		EXPECT_NE(0, m.p[64 + i]);
	}
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(fd, pq, ps));
	/* released in well under the waiters' 8 s */
	EXPECT_LT(now_ns() - start, 4000 * NS_PER_MS);
}

TEST_F(sched, wait_value_yields_to_its_own_file)
{
	struct ubuf m = { 0 };

	ASSERT_LE(self->engines, 64);
	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	waiters_released_by_own_file(_metadata, self->fd, self->engines, &m);
	ubuf_free(self->fd, &m);
}

/* WAIT_VALUE for a value the host writes into a registered user page. */
TEST_F(sched, wait_value_from_host)
{
	struct ubuf m = { 0 };
	struct drm_vnpu_task w[2];
	uint32_t q, so;
	uint64_t seq, written;

	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	w[0] = t_wait(m.va, 0x1234, DRM_VNPU_WAIT_EQ, 10000 * NS_PER_MS);
	w[1] = t_ts(m.va + 8);
	ASSERT_EQ(0, submit(self->fd, q, w, 2, &seq));
	sleep_ms(200);
	EXPECT_FALSE(point_signalled(self->fd, so, seq));
	EXPECT_EQ(DRM_VNPU_JOB_PENDING, job_state(self->fd, q, seq));
	m.p[0] = 0x1233;	/* not equal yet */
	sleep_ms(50);
	EXPECT_FALSE(point_signalled(self->fd, so, seq));
	written = now_ns();
	__atomic_store_n(&m.p[0], 0x1234, __ATOMIC_SEQ_CST);
	ASSERT_EQ(0, wait_point(self->fd, so, seq, 10000));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q, seq));
	EXPECT_GE(m.p[1], written);
	ubuf_free(self->fd, &m);
}

/* ------------------------------------------------- faults and knobs -- */

/*
 * fault_next_job: the next job faults at task 0 without running it; the
 * queue is then in its error state until QUEUE_RESET, and its sequence
 * numbers go on.
 */
TEST_F(sched, fault_next_job_knob)
{
	struct ubuf m = { 0 };
	struct drm_vnpu_task t[2];
	struct drm_vnpu_job_status st;
	struct drm_vnpu_sync out;
	struct queue_line ql;
	uint32_t q, so, bin;
	uint64_t seq;
	long long failed0;

	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	t[0] = t_write(m.va, 1);
	t[1] = t_write(m.va + 8, 2);
	failed0 = stat_read(self->dir, "jobs_failed");
	ASSERT_EQ(0, knob_write(self->dir, "fault_next_job", 1));
	EXPECT_EQ(1, knob_read(self->dir, "fault_next_job"));

	ASSERT_EQ(0, syncobj_create(self->fd, 0, &bin));
	out = (struct drm_vnpu_sync){ .handle = bin };
	ASSERT_EQ(0, submit_full(self->fd, q, t, 2, NULL, 0, &out, 1, &seq));
	ASSERT_EQ(1, seq);
	EXPECT_EQ(0, knob_read(self->dir, "fault_next_job"));
	ASSERT_EQ(0, wait_point(self->fd, so, 1, 10000));
	ASSERT_EQ(0, job_status(self->fd, q, 1, &st));
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, st.state);
	EXPECT_EQ(-ENXIO, st.error);
	EXPECT_EQ(0, st.task);
	EXPECT_EQ(DRM_VNPU_FAULT_UNMAPPED, st.fault_reason);
	EXPECT_EQ(0, m.p[0]);
	EXPECT_EQ(0, m.p[1]);
	/* The job's fences carry the error JOB_STATUS reports. */
	EXPECT_EQ(-ENXIO, fence_status(self->fd, bin));
	EXPECT_EQ(failed0 + 1, stat_read(self->dir, "jobs_failed"));

	/* Error state: refused until reset. */
	EXPECT_EQ(-EBADFD, submit(self->fd, q, t, 2, &seq));
	ASSERT_EQ(0, queue_line_read(self->dir, getpid(), q, &ql));
	EXPECT_STREQ("error", ql.state);
	EXPECT_EQ(1, ql.submitted);
	ASSERT_EQ(0, queue_reset(self->fd, q));
	ASSERT_EQ(0, submit_full(self->fd, q, t, 2, NULL, 0, &out, 1, &seq));
	EXPECT_EQ(2, seq);
	ASSERT_EQ(0, wait_point(self->fd, so, 2, 10000));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q, 2));
	EXPECT_EQ(1, m.p[0]);
	EXPECT_EQ(2, m.p[1]);
	EXPECT_EQ(1, fence_status(self->fd, bin));
	syncobj_destroy(self->fd, bin);
	ASSERT_EQ(0, queue_line_read(self->dir, getpid(), q, &ql));
	EXPECT_STREQ("ok", ql.state);
	ubuf_free(self->fd, &m);
}

#define ISO_B_SPIN_MS	400
/* An address in the device range that no object of a fresh context has. */
#define UNMAPPED_VA	(DRM_VNPU_VA_DEVICE_START + DRM_VNPU_VA_RANGE_SIZE / 2)

struct iso_result {
	int ret;		/* first failing step, or 0 */
	int state;
	uint64_t value;
	uint64_t start, end;
	uint64_t faults;
};

/* Process B: one job that spins and writes; results into r. */
static void iso_process_b(const char *node, int ready_fd, struct iso_result *r)
{
	struct drm_vnpu_fault_info fi = { 0 };
	struct drm_vnpu_task t[4];
	struct ubuf m = { 0 };
	uint32_t q, so;
	uint64_t seq;
	int fd;

	r->ret = 1;
	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0 || ubuf_create(fd, 4096, &m) ||
	    queue_create(fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so))
		goto out;
	t[0] = t_ts(m.va);
	t[1] = t_spin(ISO_B_SPIN_MS * NS_PER_MS);
	t[2] = t_write(m.va + 8, 0xb0b);
	t[3] = t_ts(m.va + 16);
	r->ret = 2;
	if (submit(fd, q, t, 4, &seq))
		goto out;
	if (write(ready_fd, "S", 1) != 1)
		goto out;
	r->ret = 3;
	if (wait_point(fd, so, seq, 20000))
		goto out;
	r->state = job_state(fd, q, seq);
	r->start = m.p[0];
	r->value = m.p[1];
	r->end = m.p[2];
	r->ret = 4;
	if (xioctl(fd, DRM_IOCTL_VNPU_FAULT_INFO, &fi))
		goto out;
	r->faults = fi.count;
	r->ret = 0;
out:
	_exit(0);
}

/*
 * Process A's job writes to an unmapped address while process B's job
 * runs: A's job faults with the address, access and task recorded; B's
 * job and A's other queue are not disturbed.
 */
TEST_F(sched, fault_in_one_process_spares_others)
{
	struct iso_result *r;
	struct drm_vnpu_fault_info fi = { 0 };
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t[4], ok[2];
	struct ubuf m = { 0 };
	uint32_t q1, so1, q2, so2;
	uint64_t seq, seq2;
	int pipefd[2], status;
	char c = 0;
	pid_t pid;

	r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, r);
	memset(r, 0, sizeof(*r));
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		close(pipefd[0]);
		iso_process_b(self->node, pipefd[1], r);
	}
	close(pipefd[1]);

	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	m.p[0] = 0x5a5a;
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q1, &so1));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q2, &so2));
	/* Wait until B's job is queued. */
	ASSERT_EQ(1, read(pipefd[0], &c, 1)) TH_LOG("process B failed early");
	close(pipefd[0]);

	t[0] = t_spin(50 * NS_PER_MS);
	t[1] = t_ts(m.va + 8);
	t[2] = t_copy(m.va, UNMAPPED_VA, 64);
	t[3] = t_write(m.va + 16, 0xbad);
	ASSERT_EQ(0, submit(self->fd, q1, t, 4, &seq));
	ASSERT_EQ(0, wait_point(self->fd, so1, seq, 10000));
	ASSERT_EQ(0, job_status(self->fd, q1, seq, &st));
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, st.state);
	EXPECT_EQ(-ENXIO, st.error);
	EXPECT_EQ(2, st.task);
	EXPECT_EQ(UNMAPPED_VA, st.fault_va);
	EXPECT_EQ(DRM_VNPU_ACCESS_WRITE, st.fault_access);
	EXPECT_EQ(DRM_VNPU_FAULT_UNMAPPED, st.fault_reason);
	EXPECT_EQ(0, m.p[2]);	/* the task after the fault did not run */
	ASSERT_EQ(0, xioctl(self->fd, DRM_IOCTL_VNPU_FAULT_INFO, &fi));
	EXPECT_EQ(1, fi.count);
	EXPECT_EQ(UNMAPPED_VA, fi.va);

	/* The faulting queue is stopped, A's other queue works. */
	EXPECT_EQ(-EBADFD, submit(self->fd, q1, t, 4, &seq));
	ok[0] = t_write(m.va + 24, 0x600d);
	ok[1] = t_nop();
	ASSERT_EQ(0, submit(self->fd, q2, ok, 2, &seq2));
	ASSERT_EQ(0, wait_point(self->fd, so2, seq2, 10000));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q2, seq2));
	EXPECT_EQ(0x600d, m.p[3]);

	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, r->ret) TH_LOG("process B failed at step %d", r->ret);
	EXPECT_EQ(DRM_VNPU_JOB_OK, r->state);
	EXPECT_EQ(0xb0b, r->value);
	EXPECT_EQ(0, r->faults);
	EXPECT_GE(r->end - r->start, ISO_B_SPIN_MS * NS_PER_MS);
	/* With a second engine, A's job ran while B's was running. */
	if (self->engines >= 2) {
		EXPECT_GT(m.p[1], r->start);
		EXPECT_LT(m.p[1], r->end);
	}
	munmap(r, sizeof(*r));
	ubuf_free(self->fd, &m);
}

/* fail_next_submit=2: two SUBMITs fail with -EIO, the third works. */
TEST_F(sched, fail_next_submit_knob)
{
	struct drm_vnpu_task t = t_nop();
	struct queue_line ql;
	uint32_t q, so;
	uint64_t seq = 0;

	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	ASSERT_EQ(0, knob_write(self->dir, "fail_next_submit", 2));
	EXPECT_EQ(2, knob_read(self->dir, "fail_next_submit"));
	EXPECT_EQ(-EIO, submit(self->fd, q, &t, 1, &seq));
	EXPECT_EQ(1, knob_read(self->dir, "fail_next_submit"));
	EXPECT_EQ(-EIO, submit(self->fd, q, &t, 1, &seq));
	EXPECT_EQ(0, knob_read(self->dir, "fail_next_submit"));
	ASSERT_EQ(0, submit(self->fd, q, &t, 1, &seq));
	/* The failed ones used no sequence number. */
	EXPECT_EQ(1, seq);
	ASSERT_EQ(0, wait_point(self->fd, so, 1, 10000));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q, 1));
	ASSERT_EQ(0, queue_line_read(self->dir, getpid(), q, &ql));
	EXPECT_EQ(1, ql.submitted);
	EXPECT_STREQ("ok", ql.state);
	/* Out of range. */
	EXPECT_EQ(-ERANGE, knob_write(self->dir, "fail_next_submit", 1ULL << 31));
	EXPECT_EQ(0, knob_read(self->dir, "fail_next_submit"));
}

/*
 * engine_delay_ns slows every task down: five tasks at 20 ms take at
 * least 100 ms. More than a second per task is refused with -ERANGE.
 */
TEST_F(sched, engine_delay_knob)
{
	struct drm_vnpu_task t[5];
	struct ubuf m = { 0 };
	uint32_t q, so;
	uint64_t seq, t0, wall;
	int i;

	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	for (i = 0; i < 5; i++)
		t[i] = t_nop();
	t[0] = t_ts(m.va);
	t[4] = t_ts(m.va + 8);

	ASSERT_EQ(0, knob_write(self->dir, "engine_delay_ns", 20 * NS_PER_MS));
	EXPECT_EQ(20 * NS_PER_MS, knob_read(self->dir, "engine_delay_ns"));
	t0 = now_ns();
	ASSERT_EQ(0, submit(self->fd, q, t, 5, &seq));
	ASSERT_EQ(0, wait_point(self->fd, so, seq, 10000));
	wall = now_ns() - t0;
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q, seq));
	EXPECT_GE(wall, 100 * NS_PER_MS);
	/* Four delays lie between the first and the last task. */
	EXPECT_GE(m.p[1] - m.p[0], 80 * NS_PER_MS);

	EXPECT_EQ(-ERANGE, knob_write(self->dir, "engine_delay_ns", 1000000001ULL));
	EXPECT_EQ(20 * NS_PER_MS, knob_read(self->dir, "engine_delay_ns"));
	EXPECT_EQ(0, knob_write(self->dir, "engine_delay_ns", 1000000000ULL));
	EXPECT_EQ(1000000000LL, knob_read(self->dir, "engine_delay_ns"));

	/* Back to no delay: the same job is quick again. */
	ASSERT_EQ(0, knob_write(self->dir, "engine_delay_ns", 0));
	t0 = now_ns();
	ASSERT_EQ(0, submit(self->fd, q, t, 5, &seq));
	ASSERT_EQ(0, wait_point(self->fd, so, seq, 10000));
	wall = now_ns() - t0;
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q, seq));
	EXPECT_LT(wall, 80 * NS_PER_MS);
	ubuf_free(self->fd, &m);
}

/* -------------------------------------------------------------- hangs -- */

/*
 * hang_next_job: the job never makes progress and is aborted after about
 * one job timeout: TIMEOUT/-ETIME, one engine reset, one kernel warning
 * naming it (a drm_warn, which the VM runner does not count as a kernel
 * WARNING), the job behind it cancelled, its queue refused until reset,
 * other queues fine.
 */
TEST_F_TIMEOUT(sched, hung_job_is_aborted, 90)
{
	const uint64_t timeout = self->timeout_ms * NS_PER_MS;
	struct drm_vnpu_task t1 = { 0 }, t2 = { 0 }, t3 = { 0 };
	struct engine_sums e0, e1;
	struct drm_vnpu_job_status st;
	struct drm_vnpu_sync out[2];
	struct ubuf m = { 0 };
	char needle[128], line[1024] = "";
	uint32_t q1, so1, q2, so2, bin[2];
	uint64_t seq, t0, elapsed;
	long long resets0, failed0;
	int kfd;

	if (self->timeout_ms > 20000)
		SKIP(return, "job_timeout_ms=%ld makes this too slow", self->timeout_ms);
	if (self->depth < 2)
		SKIP(return, "needs queue_depth >= 2, have %ld", self->depth);
	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q1, &so1));
	ASSERT_EQ(0, syncobj_create(self->fd, 0, &bin[0]));
	ASSERT_EQ(0, syncobj_create(self->fd, 0, &bin[1]));
	kfd = kmsg_open_end();
	ASSERT_GE(kfd, 0) TH_LOG("/dev/kmsg: %s", strerror(errno));
	ASSERT_EQ(0, engines_read(self->dir, &e0));
	resets0 = stat_read(self->dir, "resets");
	failed0 = stat_read(self->dir, "jobs_failed");
	t1 = t_write(m.va, 1);
	t2 = t_write(m.va + 8, 2);
	t3 = t_write(m.va + 16, 3);

	ASSERT_EQ(0, knob_write(self->dir, "hang_next_job", 1));
	out[0] = (struct drm_vnpu_sync){ .handle = bin[0] };
	out[1] = (struct drm_vnpu_sync){ .handle = bin[1] };
	t0 = now_ns();
	ASSERT_EQ(0, submit_full(self->fd, q1, &t1, 1, NULL, 0, &out[0], 1, &seq));
	ASSERT_EQ(1, seq);
	EXPECT_EQ(0, knob_read(self->dir, "hang_next_job"));
	/* Queued behind the hung job. */
	ASSERT_EQ(0, submit_full(self->fd, q1, &t2, 1, NULL, 0, &out[1], 1, &seq));
	ASSERT_EQ(2, seq);
	sleep_ms(100);
	EXPECT_EQ(DRM_VNPU_JOB_PENDING, job_state(self->fd, q1, 1));

	ASSERT_EQ(0, wait_point(self->fd, so1, 1, 3 * self->timeout_ms + 5000));
	elapsed = now_ns() - t0;
	/* Timer granularity: a jiffy or two early at most. */
	EXPECT_GE(elapsed + 10 * NS_PER_MS, timeout)
		TH_LOG("aborted after %llu ms", (unsigned long long)(elapsed / NS_PER_MS));
	EXPECT_LE(elapsed, 3 * timeout)
		TH_LOG("aborted after %llu ms", (unsigned long long)(elapsed / NS_PER_MS));
	ASSERT_EQ(0, job_status(self->fd, q1, 1, &st));
	EXPECT_EQ(DRM_VNPU_JOB_TIMEOUT, st.state);
	EXPECT_EQ(-ETIME, st.error);
	EXPECT_EQ(-ETIME, fence_status(self->fd, bin[0]));
	EXPECT_EQ(0, m.p[0]);

	/* The job behind it is cancelled, not run. */
	ASSERT_EQ(0, wait_point(self->fd, so1, 2, 5000));
	ASSERT_EQ(0, job_status(self->fd, q1, 2, &st));
	EXPECT_EQ(DRM_VNPU_JOB_CANCELLED, st.state);
	EXPECT_EQ(-ECANCELED, st.error);
	EXPECT_EQ(-ECANCELED, fence_status(self->fd, bin[1]));
	EXPECT_EQ(0, m.p[1]);

	ASSERT_EQ(0, engines_read(self->dir, &e1));
	EXPECT_EQ(e0.resets + 1, e1.resets);
	EXPECT_EQ(resets0 + 1, stat_read(self->dir, "resets"));
	EXPECT_EQ(failed0 + 1, stat_read(self->dir, "jobs_failed"));

	/* Exactly one warning, naming the job, its queue and process. */
	snprintf(needle, sizeof(needle), "job 1 of queue %u (pid %d) made no progress",
		 q1, getpid());
	EXPECT_EQ(1, kmsg_count(kfd, needle, line, sizeof(line))) TH_LOG("no \"%s\"", needle);
	EXPECT_EQ(NULL, strstr(line, "WARNING:")) TH_LOG("%s", line);
	EXPECT_NE(NULL, strstr(line, "aborted")) TH_LOG("%s", line);
	close(kfd);

	/* The hung queue refuses work until reset; a new queue just works. */
	EXPECT_EQ(-EBADFD, submit(self->fd, q1, &t3, 1, &seq));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q2, &so2));
	ASSERT_EQ(0, submit(self->fd, q2, &t3, 1, &seq));
	ASSERT_EQ(0, wait_point(self->fd, so2, seq, 10000));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q2, seq));
	EXPECT_EQ(3, m.p[2]);
	ASSERT_EQ(0, queue_reset(self->fd, q1));
	ASSERT_EQ(0, submit(self->fd, q1, &t1, 1, &seq));
	EXPECT_EQ(3, seq);
	ASSERT_EQ(0, wait_point(self->fd, so1, 3, 10000));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q1, 3));
	EXPECT_EQ(1, m.p[0]);
	/* Job 1's record is still in the queue's history after the reset. */
	EXPECT_EQ(DRM_VNPU_JOB_TIMEOUT, job_state(self->fd, q1, 1));
	syncobj_destroy(self->fd, bin[0]);
	syncobj_destroy(self->fd, bin[1]);
	ubuf_free(self->fd, &m);
}

/*
 * A job longer than two timeouts whose tasks each finish well within one
 * (so the engine keeps making progress) is left alone and completes.
 */
TEST_F_TIMEOUT(sched, long_job_with_progress_completes, 90)
{
	const uint64_t timeout = self->timeout_ms * NS_PER_MS;
	struct drm_vnpu_task t[8];
	struct engine_sums e0, e1;
	struct ubuf m = { 0 };
	uint32_t q, so;
	uint64_t seq, t0, elapsed;
	int i, kfd;

	if (self->timeout_ms > 20000)
		SKIP(return, "job_timeout_ms=%ld makes this too slow", self->timeout_ms);
	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	/* 6 x 0.4 timeouts = 2.4 timeouts of spinning. */
	t[0] = t_ts(m.va);
	for (i = 1; i <= 6; i++)
		t[i] = t_spin(timeout * 4 / 10);
	t[7] = t_ts(m.va + 8);
	kfd = kmsg_open_end();
	ASSERT_GE(kfd, 0);
	ASSERT_EQ(0, engines_read(self->dir, &e0));

	t0 = now_ns();
	ASSERT_EQ(0, submit(self->fd, q, t, 8, &seq));
	ASSERT_EQ(0, wait_point(self->fd, so, seq, 4 * self->timeout_ms + 5000));
	elapsed = now_ns() - t0;
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q, seq));
	EXPECT_GE(m.p[1] - m.p[0], 2 * timeout);
	EXPECT_GE(elapsed, timeout * 24 / 10);
	ASSERT_EQ(0, engines_read(self->dir, &e1));
	EXPECT_EQ(e0.resets, e1.resets);
	EXPECT_EQ(0, kmsg_count(kfd, "made no progress", NULL, 0));
	close(kfd);
	ubuf_free(self->fd, &m);
}

/*
 * One SPIN longer than the timeout is one task that makes no progress:
 * it is treated as hung (runs where job_timeout_ms <= 2000, to stay cheap).
 */
TEST_F(sched, single_spin_longer_than_timeout_is_a_hang)
{
	const uint64_t timeout = self->timeout_ms * NS_PER_MS;
	struct drm_vnpu_task t[3];
	struct drm_vnpu_job_status st;
	struct engine_sums e0, e1;
	struct ubuf m = { 0 };
	uint32_t q, so;
	uint64_t seq, t0, elapsed;

	if (self->timeout_ms > 2000)
		SKIP(return, "takes two timeouts; runs with job_timeout_ms <= 2000, not %ld",
		     self->timeout_ms);
	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	ASSERT_EQ(0, engines_read(self->dir, &e0));
	t[0] = t_write(m.va, 1);
	t[1] = t_spin(4 * timeout);
	t[2] = t_write(m.va + 8, 2);
	t0 = now_ns();
	ASSERT_EQ(0, submit(self->fd, q, t, 3, &seq));
	ASSERT_EQ(0, wait_point(self->fd, so, seq, 5 * self->timeout_ms + 5000));
	elapsed = now_ns() - t0;
	ASSERT_EQ(0, job_status(self->fd, q, seq, &st));
	EXPECT_EQ(DRM_VNPU_JOB_TIMEOUT, st.state);
	EXPECT_EQ(-ETIME, st.error);
	EXPECT_EQ(1, st.task);
	EXPECT_EQ(1, m.p[0]);
	EXPECT_EQ(0, m.p[1]);
	EXPECT_GE(elapsed + 10 * NS_PER_MS, timeout);
	EXPECT_LT(elapsed, 3 * timeout) TH_LOG("aborted after %llu ms",
					      (unsigned long long)(elapsed / NS_PER_MS));
	ASSERT_EQ(0, engines_read(self->dir, &e1));
	EXPECT_EQ(e0.resets + 1, e1.resets);
	ubuf_free(self->fd, &m);
}

/* ----------------------------------------------------------- lifetime -- */

/* Run one job on fd that writes a value; 0 when it ended OK. */
static int smoke_job(int fd)
{
	struct ubuf m = { 0 };
	struct drm_vnpu_task t[2];
	uint32_t q, so;
	uint64_t seq;
	int ret;

	ret = ubuf_create(fd, 4096, &m);
	if (ret)
		return ret;
	ret = queue_create(fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so);
	if (ret)
		goto out;
	t[0] = t_write(m.va, 0x5eed);
	t[1] = t_ts(m.va + 8);
	ret = submit(fd, q, t, 2, &seq);
	if (!ret)
		ret = wait_point(fd, so, seq, 10000);
	if (!ret && (job_state(fd, q, seq) != DRM_VNPU_JOB_OK ||
		     m.p[0] != 0x5eed || !m.p[1]))
		ret = -EIO;
	queue_destroy(fd, q);
	syncobj_destroy(fd, so);
out:
	ubuf_free(fd, &m);
	return ret;
}

/*
 * Submit count jobs of one spin_ms spin to a new queue on node, writing
 * ready to ready_fd after the first ready_after of them (later submits may
 * block for room in the queue), then wait to be killed. Exits 1 on failure.
 */
static void hold_jobs(const char *node, unsigned int count, unsigned int spin_ms,
		      unsigned int ready_after, int ready_fd, const char *ready)
{
	struct drm_vnpu_task t = t_spin(spin_ms * NS_PER_MS);
	uint32_t q, so;
	uint64_t seq;
	unsigned int i;
	int fd;

	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0 || queue_create(fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so))
		_exit(1);
	for (i = 0; i < count; i++) {
		if (i == ready_after &&
		    write(ready_fd, ready, strlen(ready)) != (ssize_t)strlen(ready))
			_exit(1);
		if (submit(fd, q, &t, 1, &seq))
			_exit(1);
	}
	if (count <= ready_after &&
	    write(ready_fd, ready, strlen(ready)) != (ssize_t)strlen(ready))
		_exit(1);
	for (;;)
		pause();
}

/*
 * A process killed half-way through submitting 100 jobs (5 ms spins; it
 * may be blocked in SUBMIT waiting for room in its queue): its jobs are
 * released within a few seconds, its queue disappears, and the device
 * keeps working.
 */
TEST_F(sched, killed_process_jobs_are_released)
{
	struct queue_line ql;
	int pipefd[2], status;
	char c = 0;
	pid_t pid;

	ASSERT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		close(pipefd[0]);
		hold_jobs(self->node, 100, 5, 50, pipefd[1], "S");
	}
	close(pipefd[1]);
	ASSERT_EQ(1, read(pipefd[0], &c, 1)) TH_LOG("the child could not submit");
	close(pipefd[0]);

	/* Mid-way: jobs in flight, not everything submitted or done. */
	ASSERT_EQ(0, queue_line_read(self->dir, pid, 0, &ql));
	EXPECT_GE(ql.submitted, 50);
	EXPECT_LT(ql.completed, ql.submitted);
	EXPECT_GT(stat_read(self->dir, "jobs_alive"), 0);
	TH_LOG("killed with %llu submitted and %llu done of 100 jobs",
	       ql.submitted, ql.completed);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));

	EXPECT_EQ(0, wait_jobs_alive_zero(self->dir, 5000))
		TH_LOG("jobs_alive still %lld", stat_read(self->dir, "jobs_alive"));
	EXPECT_EQ(-1, queue_line_read(self->dir, pid, 0, NULL));
	EXPECT_EQ(0, smoke_job(self->fd));
}

/*
 * close() of a file with three seconds of work queued returns at once;
 * its jobs end (the timeline, shared with another file, reaches the last
 * point) without getting to their writes.
 */
TEST_F(sched, close_with_jobs_in_flight)
{
	struct drm_syncobj_handle h2f = { 0 }, f2h = { 0 };
	struct drm_vnpu_task t[2];
	struct ubuf m = { 0 };
	uint32_t q, so;
	const int n = self->depth < 10 ? self->depth : 10;
	uint64_t seq, t0, dt, dt_end;
	int fd2, i, written = 0;

	fd2 = open(self->node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, ubuf_create(fd2, 4096, &m));
	ASSERT_EQ(0, queue_create(fd2, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	for (i = 0; i < n; i++) {
		t[0] = t_spin(3000 / n * NS_PER_MS);
		t[1] = t_write(m.va + 8 * i, 1);
		ASSERT_EQ(0, submit(fd2, q, t, 2, &seq));
	}
	ASSERT_EQ(n, seq);
	/* Keep the queue's timeline through the other file. */
	h2f.handle = so;
	ASSERT_EQ(0, xioctl(fd2, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h2f));
	f2h.fd = h2f.fd;
	ASSERT_EQ(0, xioctl(self->fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &f2h));
	close(h2f.fd);
	EXPECT_FALSE(point_signalled(self->fd, f2h.handle, n));

	t0 = now_ns();
	close(fd2);
	dt = now_ns() - t0;
	ASSERT_EQ(0, wait_point(self->fd, f2h.handle, n, 5000));
	dt_end = now_ns() - t0;
	/* Three seconds of spinning were queued. */
	EXPECT_LT(dt, 1000 * NS_PER_MS) TH_LOG("close took %llu ms",
					     (unsigned long long)(dt / NS_PER_MS));
	EXPECT_LT(dt_end, 1500 * NS_PER_MS) TH_LOG("last job ended %llu ms after close",
						 (unsigned long long)(dt_end / NS_PER_MS));
	EXPECT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	/* None of them got to its write. */
	for (i = 0; i < n; i++)
		written += !!m.p[i];
	EXPECT_EQ(0, written);
	syncobj_destroy(self->fd, f2h.handle);
	munmap((void *)m.p, m.size);
}

/*
 * QUEUE_DESTROY while one job runs and up to four wait: the running one
 * finishes, the waiting ones are cancelled (they do not run; their fences
 * carry -ECANCELED or -ESRCH), every timeline point still signals, the id
 * is gone, and QUEUE_DESTROY did not wait for the running job.
 */
TEST_F(sched, queue_destroy_cancels_queued_jobs)
{
	const int n = self->depth < 5 ? self->depth : 5;
	struct drm_vnpu_task t[4];
	struct drm_vnpu_sync out;
	struct ubuf m = { 0 };
	uint32_t q, so, bin[5];
	uint64_t seq, t0, dt;
	int i, st;

	if (n < 2)
		SKIP(return, "needs queue_depth >= 2, have %ld", self->depth);
	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, syncobj_create(self->fd, 0, &bin[i]));
		out = (struct drm_vnpu_sync){ .handle = bin[i] };
		if (!i) {
			/* [0] start, spin, [1] = 1, [6] end */
			t[0] = t_ts(m.va);
			t[1] = t_spin(300 * NS_PER_MS);
			t[2] = t_write(m.va + 8, 1);
			t[3] = t_ts(m.va + 48);
			ASSERT_EQ(0, submit_full(self->fd, q, t, 4, NULL, 0, &out, 1, &seq));
		} else {
			/* [1 + i] = i + 1 */
			t[0] = t_write(m.va + 8 + 8 * i, i + 1);
			ASSERT_EQ(0, submit_full(self->fd, q, t, 1, NULL, 0, &out, 1, &seq));
		}
	}
	ASSERT_EQ(n, seq);
	ASSERT_EQ(0, wait_nonzero(&m.p[0], 5000));

	t0 = now_ns();
	ASSERT_EQ(0, queue_destroy(self->fd, q));
	dt = now_ns() - t0;
	/* The timeline outlives the queue and reaches the last point. */
	ASSERT_EQ(0, wait_point(self->fd, so, n, 5000));
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, wait_point(self->fd, bin[i], 0, 5000));

	/* The running job finished. */
	EXPECT_EQ(1, m.p[1]);
	EXPECT_GE(m.p[6] - m.p[0], 300 * NS_PER_MS);
	EXPECT_EQ(1, fence_status(self->fd, bin[0]));
	/* The queued ones did not run. */
	for (i = 1; i < n; i++) {
		st = fence_status(self->fd, bin[i]);
		EXPECT_EQ(0, m.p[1 + i]) TH_LOG("queued job %d ran", i + 1);
		EXPECT_TRUE(st == -ECANCELED || st == -ESRCH)
			TH_LOG("queued job %d: fence status %d", i + 1, st);
	}
	EXPECT_LT(dt, 200 * NS_PER_MS) TH_LOG("QUEUE_DESTROY took %llu ms",
					    (unsigned long long)(dt / NS_PER_MS));
	EXPECT_EQ(-ENOENT, job_state(self->fd, q, 1));
	EXPECT_EQ(-ENOENT, submit(self->fd, q, t, 1, &seq));
	EXPECT_EQ(-ENOENT, queue_destroy(self->fd, q));
	EXPECT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	for (i = 0; i < n; i++)
		syncobj_destroy(self->fd, bin[i]);
	syncobj_destroy(self->fd, so);
	ubuf_free(self->fd, &m);
}

/*
 * A file whose job hangs is closed: the hung job ends at once (no need to
 * wait for the hang detector) and nothing is counted as a reset.
 */
TEST_F(sched, close_with_hung_job)
{
	struct engine_sums e0, e1;
	struct drm_vnpu_task t = t_nop();
	uint32_t q, so;
	uint64_t seq, t0, dt;
	int fd2, kfd;

	ASSERT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	ASSERT_EQ(0, engines_read(self->dir, &e0));
	kfd = kmsg_open_end();
	ASSERT_GE(kfd, 0);
	fd2 = open(self->node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, queue_create(fd2, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	ASSERT_EQ(0, knob_write(self->dir, "hang_next_job", 1));
	ASSERT_EQ(0, submit(fd2, q, &t, 1, &seq));
	if (self->depth >= 2)	/* and one behind it */
		ASSERT_EQ(0, submit(fd2, q, &t, 1, &seq));
	sleep_ms(100);
	EXPECT_FALSE(point_signalled(fd2, so, 1));

	t0 = now_ns();
	close(fd2);
	EXPECT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	dt = now_ns() - t0;
	EXPECT_LT(dt, self->timeout_ms * NS_PER_MS / 2)
		TH_LOG("the hung job lasted %llu ms after close",
		       (unsigned long long)(dt / NS_PER_MS));
	ASSERT_EQ(0, engines_read(self->dir, &e1));
	EXPECT_EQ(e0.resets, e1.resets);
	EXPECT_EQ(0, kmsg_count(kfd, "made no progress", NULL, 0));
	close(kfd);
	EXPECT_EQ(0, smoke_job(self->fd));
}

static void on_usr1(int sig)
{
}

struct room_probe {
	int fd;
	uint32_t queue;
	pthread_t target;	/* signalled with SIGUSR1 when set */
	bool destroy;		/* destroy the queue instead */
	int destroyed;		/* QUEUE_DESTROY's result */
	unsigned int delay_ms;
	int state;		/* JOB_STATUS of job 1 */
	uint64_t status_ns;	/* how long JOB_STATUS took */
	int listed;		/* the debugfs queue line was readable */
	char dir[320];
};

static void *room_probe(void *arg)
{
	struct room_probe *p = arg;
	uint64_t t0;

	sleep_ms(p->delay_ms);
	t0 = now_ns();
	p->state = job_state(p->fd, p->queue, 1);
	p->status_ns = now_ns() - t0;
	p->listed = !queue_line_read(p->dir, getpid(), p->queue, NULL);
	if (p->destroy)
		p->destroyed = queue_destroy(p->fd, p->queue);
	else if (p->target)
		pthread_kill(p->target, SIGUSR1);
	return NULL;
}

/*
 * A queue takes queue_depth unfinished jobs; one more SUBMIT waits for
 * room (JOB_STATUS and debugfs stay usable meanwhile) and returns once the
 * oldest job finished. A signal interrupts the wait without using a
 * sequence number; QUEUE_DESTROY ends it with -ENOENT.
 */
TEST_F(sched, submit_waits_for_room_in_queue)
{
	const long d = self->depth;
	struct sigaction sa = { .sa_handler = on_usr1 }, old_sa;
	struct drm_vnpu_task first[3], nop = t_nop();
	struct drm_vnpu_submit raw;
	struct room_probe probe = { 0 };
	struct ubuf m = { 0 };
	uint32_t q, so;
	uint64_t seq, t0, back;
	pthread_t th;
	long i;
	int ret;

	if (d > 256)
		SKIP(return, "queue_depth %ld: too many jobs to fill", d);
	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	spin_job(first, m.va, 800 * NS_PER_MS);

	/* Fill the queue: a spin and depth - 1 NOPs behind it. */
	ASSERT_EQ(0, submit(self->fd, q, first, 3, &seq));
	for (i = 1; i < d; i++)
		ASSERT_EQ(0, submit(self->fd, q, &nop, 1, &seq));
	ASSERT_EQ((uint64_t)d, seq);
	ASSERT_FALSE(point_signalled(self->fd, so, 1)) TH_LOG("filling took too long");

	probe.fd = self->fd;
	probe.queue = q;
	probe.delay_ms = 100;
	probe.state = -1;
	snprintf(probe.dir, sizeof(probe.dir), "%s", self->dir);
	ASSERT_EQ(0, pthread_create(&th, NULL, room_probe, &probe));
	t0 = now_ns();
	ASSERT_EQ(0, submit(self->fd, q, &nop, 1, &seq));
	back = now_ns();
	pthread_join(th, NULL);
	EXPECT_EQ(d + 1, seq);
	/* It came back only after the spin ended. */
	EXPECT_NE(0, m.p[1]);
	EXPECT_GE(back, m.p[1]);
	EXPECT_GE(back - t0, 100 * NS_PER_MS);
	/* While it waited, JOB_STATUS answered at once. */
	EXPECT_EQ(DRM_VNPU_JOB_PENDING, probe.state);
	EXPECT_LT(probe.status_ns, 50 * NS_PER_MS);
	EXPECT_TRUE(probe.listed);
	ASSERT_EQ(0, wait_point(self->fd, so, d + 1, 10000));

	/* Again, and this time a signal interrupts the waiting SUBMIT. */
	m.p[0] = 0;
	m.p[1] = 0;
	ASSERT_EQ(0, submit(self->fd, q, first, 3, &seq));
	for (i = 1; i < d; i++)
		ASSERT_EQ(0, submit(self->fd, q, &nop, 1, &seq));
	ASSERT_EQ((uint64_t)(2 * d + 1), seq);
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, &old_sa));	/* no SA_RESTART */
	probe.target = pthread_self();
	ASSERT_EQ(0, pthread_create(&th, NULL, room_probe, &probe));
	memset(&raw, 0, sizeof(raw));
	raw.queue_id = q;
	raw.tasks = (uintptr_t)&nop;
	raw.task_count = 1;
	raw.task_stride = sizeof(nop);
	t0 = now_ns();
	ret = ioctl(self->fd, DRM_IOCTL_VNPU_SUBMIT, &raw);
	back = now_ns();
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(EINTR, errno);
	pthread_join(th, NULL);
	sigaction(SIGUSR1, &old_sa, NULL);
	EXPECT_FALSE(point_signalled(self->fd, so, d + 2)) TH_LOG("the spin ended first");
	EXPECT_LT(back - t0, 700 * NS_PER_MS);
	/* The interrupted SUBMIT queued nothing: the next one is 2d + 2. */
	ASSERT_EQ(0, submit(self->fd, q, &nop, 1, &seq));
	EXPECT_EQ((uint64_t)(2 * d + 2), seq);
	ASSERT_EQ(0, wait_point(self->fd, so, seq, 10000));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q, seq));

	/* Full once more; the queue is destroyed under the waiting SUBMIT. */
	ASSERT_EQ(0, submit(self->fd, q, first, 3, &seq));
	for (i = 1; i < d; i++)
		ASSERT_EQ(0, submit(self->fd, q, &nop, 1, &seq));
	probe.target = 0;
	probe.destroy = true;
	probe.destroyed = 1;
	ASSERT_EQ(0, pthread_create(&th, NULL, room_probe, &probe));
	t0 = now_ns();
	EXPECT_EQ(-ENOENT, submit(self->fd, q, &nop, 1, &seq));
	back = now_ns();
	pthread_join(th, NULL);
	EXPECT_EQ(0, probe.destroyed);
	EXPECT_LT(back - t0, 700 * NS_PER_MS);
	/* Everything submitted still ends: the last point is 3d + 2. */
	ASSERT_EQ(0, wait_point(self->fd, so, 3 * d + 2, 5000));
	EXPECT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	ubuf_free(self->fd, &m);
}

/*
 * Cancelled jobs leave no trace in how queues are spread over engines:
 * after a queue was destroyed with jobs queued, and again after a file was
 * closed with jobs queued, one new queue per engine still run side by
 * side. (One round each: rounds landing on every engine alike could hide
 * an imbalance.)
 */
TEST_F(sched, engines_still_shared_after_cancelled_jobs)
{
	const long n = self->depth - 1 < 32 ? self->depth - 1 : 32;
	const uint64_t spin_ns = CONC_SPIN_MS * NS_PER_MS;
	struct drm_vnpu_task spin = t_spin(200 * NS_PER_MS), nop = t_nop();
	struct ubuf ts = { 0 };
	uint64_t seq, wall;
	uint32_t q, so;
	int round, fd2;
	long i;

	if (self->engines < 2)
		SKIP(return, "needs two engines, have %ld", self->engines);
	if (n < 1)
		SKIP(return, "needs queue_depth >= 2, have %ld", self->depth);
	ASSERT_LE(self->engines, 64);
	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &ts));
	for (round = 0; round < 2; round++) {
		const char *how = round ? "close" : "QUEUE_DESTROY";

		/* A spin and n jobs behind it; destroyed (or closed) at once. */
		fd2 = round ? open(self->node, O_RDWR | O_CLOEXEC) : self->fd;
		ASSERT_GE(fd2, 0);
		ASSERT_EQ(0, queue_create(fd2, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
		ASSERT_EQ(0, submit(fd2, q, &spin, 1, &seq));
		for (i = 0; i < n; i++)
			ASSERT_EQ(0, submit(fd2, q, &nop, 1, &seq));
		if (!round) {
			ASSERT_EQ(0, queue_destroy(fd2, q));
			syncobj_destroy(fd2, so);
		} else {
			close(fd2);
		}
		ASSERT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));

		ASSERT_EQ(0, run_spins(self->fd, self->engines, ts.p, ts.va, &wall));
		EXPECT_GT(0, spins_apart(ts.p, self->engines))
			TH_LOG("after %s (%ld jobs cancelled), the last of %ld spins started %lld ms after the first ended",
			       how, n, self->engines,
			       (long long)spins_apart(ts.p, self->engines) / (long long)NS_PER_MS);
		EXPECT_LT(wall, spin_ns * 16 / 10)
			TH_LOG("after %s, %ld spins of %u ms on new queues took %llu ms",
			       how, self->engines, CONC_SPIN_MS,
			       (unsigned long long)(wall / NS_PER_MS));
	}
	ubuf_free(self->fd, &ts);
}

/*
 * Queue ids: at most DRM_VNPU_MAX_QUEUES per file, never 0, freed ids
 * are reusable; destroy, reset and status of unknown ids are -ENOENT.
 */
TEST_F(sched, queue_ids_and_limits)
{
	static uint32_t q[DRM_VNPU_MAX_QUEUES], so[DRM_VNPU_MAX_QUEUES];
	struct drm_vnpu_queue_create qc = { 0 };
	struct drm_vnpu_queue_destroy qd = { 0 };
	struct drm_vnpu_task t = t_nop();
	uint32_t extra, extra_so, q2, so2;
	uint64_t seq;
	int i, fd2;

	for (i = 0; i < DRM_VNPU_MAX_QUEUES; i++) {
		ASSERT_EQ(0, queue_create(self->fd, i % 3, &q[i], &so[i])) TH_LOG("queue %d", i);
		ASSERT_NE(0, q[i]);
		ASSERT_NE(0, so[i]);
	}
	EXPECT_EQ(-ENOSPC, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &extra,
					&extra_so));
	/* Priorities and flags are checked. */
	ASSERT_EQ(0, queue_destroy(self->fd, q[7]));
	qc.priority = DRM_VNPU_PRIORITY_HIGH + 1;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &qc));
	qc.priority = DRM_VNPU_PRIORITY_LOW;
	qc.flags = 1;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &qc));
	/* The freed id is used again; the new queue counts from 1. */
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_LOW, &extra, &extra_so));
	EXPECT_EQ(q[7], extra);
	ASSERT_EQ(0, submit(self->fd, extra, &t, 1, &seq));
	EXPECT_EQ(1, seq);
	ASSERT_EQ(0, wait_point(self->fd, extra_so, 1, 10000));

	EXPECT_EQ(-ENOENT, queue_destroy(self->fd, 0));
	EXPECT_EQ(-ENOENT, queue_destroy(self->fd, DRM_VNPU_MAX_QUEUES + 1));
	EXPECT_EQ(-ENOENT, queue_reset(self->fd, DRM_VNPU_MAX_QUEUES + 1));
	EXPECT_EQ(-ENOENT, job_state(self->fd, DRM_VNPU_MAX_QUEUES + 1, 1));
	qd.queue_id = q[0];
	qd.pad = 1;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_VNPU_QUEUE_DESTROY, &qd));
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_VNPU_QUEUE_RESET, &qd));
	/* JOB_STATUS of a job never submitted. */
	EXPECT_EQ(-EINVAL, job_state(self->fd, extra, 0));
	EXPECT_EQ(-EINVAL, job_state(self->fd, extra, 2));
	EXPECT_EQ(-EINVAL, job_state(self->fd, q[0], 1));
	/* Another file has its own ids. */
	fd2 = open(self->node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, queue_create(fd2, DRM_VNPU_PRIORITY_NORMAL, &q2, &so2));
	EXPECT_EQ(1, q2);
	EXPECT_EQ(-ENOENT, submit(fd2, q[1] == 1 ? q[2] : q[1], &t, 1, &seq));
	close(fd2);
	/* Destroying every queue leaves the syncobjs usable until closed. */
	for (i = 0; i < DRM_VNPU_MAX_QUEUES; i++)
		if (i != 7)
			ASSERT_EQ(0, queue_destroy(self->fd, q[i]));
	ASSERT_EQ(0, queue_destroy(self->fd, extra));
	EXPECT_EQ(0, wait_point(self->fd, extra_so, 1, 0));
	for (i = 0; i < DRM_VNPU_MAX_QUEUES; i++)
		ASSERT_EQ(0, syncobj_destroy(self->fd, so[i]));
}

/* Accel node number i into buf; returns the number of nodes. */
static __attribute__((noinline)) int nth_node(int i, char *buf, size_t len)
{
	char paths[VNPU_TEST_MAX_NODES][64];
	int n = vnpu_list_nodes(paths, VNPU_TEST_MAX_NODES);

	if (i < n)
		snprintf(buf, len, "%s", paths[i]);
	return n;
}

/* Each device has its own engines: a job on one never shows on another. */
TEST_F(sched, devices_have_their_own_engines)
{
	char node1[64], dir1[320];
	struct engine_sums a0, a1, b0, b1;
	struct drm_vnpu_task t = t_spin(50 * NS_PER_MS);
	uint32_t q, so;
	uint64_t seq;
	int n, fd1;

	n = nth_node(1, node1, sizeof(node1));
	if (n < 2)
		SKIP(return, "needs two devices, have %d", n);
	ASSERT_EQ(0, vnpu_debugfs_dir(node1, dir1, sizeof(dir1)));
	ASSERT_STRNE(self->dir, dir1);
	fd1 = open(node1, O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd1, 0);
	ASSERT_EQ(0, engines_read(self->dir, &a0));
	ASSERT_EQ(0, engines_read(dir1, &b0));
	ASSERT_EQ(0, queue_create(fd1, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	ASSERT_EQ(0, submit(fd1, q, &t, 1, &seq));
	ASSERT_EQ(0, wait_point(fd1, so, seq, 10000));
	ASSERT_EQ(0, engines_read(self->dir, &a1));
	ASSERT_EQ(0, engines_read(dir1, &b1));
	EXPECT_EQ(a0.jobs, a1.jobs);
	EXPECT_EQ(a0.busy_ns, a1.busy_ns);
	EXPECT_EQ(b0.jobs + 1, b1.jobs);
	EXPECT_GE(b1.busy_ns - b0.busy_ns, 50 * NS_PER_MS);
	EXPECT_EQ(self->engines, b1.engines);
	close(fd1);
}

/* --------------------------------------------------------- accounting -- */

/*
 * A spin shows up in the file's fdinfo engine time, in the engines'
 * busy time and job count, and in the queue's debugfs line.
 */
TEST_F(sched, engine_time_accounting)
{
	struct engine_sums e0, e1;
	struct drm_vnpu_task t = t_spin(200 * NS_PER_MS);
	struct queue_line ql;
	uint32_t q, so;
	uint64_t seq;
	long long f0, f1;

	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_HIGH, &q, &so));
	f0 = fdinfo_engine_ns(self->fd);
	ASSERT_GE(f0, 0) TH_LOG("no drm-engine-vnpu in fdinfo");
	ASSERT_EQ(0, engines_read(self->dir, &e0));
	ASSERT_EQ(self->engines, e0.engines);
	ASSERT_EQ(0, queue_line_read(self->dir, getpid(), q, &ql));
	EXPECT_EQ(0, ql.submitted);
	EXPECT_EQ(0, ql.completed);

	ASSERT_EQ(0, submit(self->fd, q, &t, 1, &seq));
	ASSERT_EQ(0, queue_line_read(self->dir, getpid(), q, &ql));
	EXPECT_EQ(1, ql.submitted);
	ASSERT_EQ(0, wait_point(self->fd, so, seq, 10000));

	f1 = fdinfo_engine_ns(self->fd);
	ASSERT_EQ(0, engines_read(self->dir, &e1));
	EXPECT_GE(f1 - f0, 200 * NS_PER_MS);
	EXPECT_LT(f1 - f0, 2000 * NS_PER_MS);
	EXPECT_GE(e1.busy_ns - e0.busy_ns, 200 * NS_PER_MS);
	EXPECT_EQ(e0.jobs + 1, e1.jobs);
	EXPECT_EQ(e0.resets, e1.resets);
	EXPECT_GT(e1.progress, e0.progress);
	ASSERT_EQ(0, queue_line_read(self->dir, getpid(), q, &ql));
	EXPECT_EQ(1, ql.submitted);
	EXPECT_EQ(1, ql.completed);
	EXPECT_STREQ("ok", ql.state);
	EXPECT_STREQ("high", ql.priority);
}

/* ------------------------------------------------------ buffer cache -- */

/* 100 tasks: a 6400-byte array, in the 8 KiB class. */
#define BC_TASKS	100
#define BC_TASK_CLASS	8192
/* An argument block of 20000 bytes, in the 32 KiB class. */
#define BC_ARGS		20000
#define BC_ARGS_CLASS	32768
/*
 * Buffers a file keeps (VNPU_BUFCACHE_SLOTS), the largest class kept and
 * the most bytes a file keeps (VNPU_BUFCACHE_BYTES).
 */
#define BC_SLOTS	32
#define BC_MAX		(1024 * 1024)
#define BC_BYTES	(4 * BC_MAX)
/* Batches alive at once: more than the cache can keep. */
#define BC_ALIVE	(BC_SLOTS + 4)

struct bc_stats {
	long long hits, misses, bytes;
};

static void bc_read(const char *dir, struct bc_stats *b)
{
	b->hits = stat_read(dir, "bufcache_hits");
	b->misses = stat_read(dir, "bufcache_misses");
	b->bytes = stat_read(dir, "bufcache_bytes");
}

/*
 * A new file with a queue and a user buffer of size bytes, once no job of
 * the device is alive; b0 gets the cache's counts then.
 */
static int bc_file_open(const char *node, const char *dir, size_t size,
			int *fd, struct ubuf *m, uint32_t *q, uint32_t *so,
			struct bc_stats *b0)
{
	int ret;

	*fd = open(node, O_RDWR | O_CLOEXEC);
	if (*fd < 0)
		return -errno;
	ret = ubuf_create(*fd, size, m);
	if (!ret)
		ret = queue_create(*fd, DRM_VNPU_PRIORITY_NORMAL, q, so);
	if (!ret)
		ret = wait_jobs_alive_zero(dir, 5000);
	bc_read(dir, b0);
	if (!ret && (b0->hits < 0 || b0->misses < 0 || b0->bytes < 0))
		ret = -ENOENT;	/* no bufcache_* lines in debugfs stats */
	return ret;
}

/* Poll until the cached bytes are back to want; the last value read. */
static long long bc_wait_bytes(const char *dir, long long want)
{
	uint64_t end = now_ns() + 5000 * NS_PER_MS;
	long long v;

	while ((v = stat_read(dir, "bufcache_bytes")) != want && now_ns() < end)
		sleep_ms(10);
	return v;
}

/*
 * Ten batches of 100 tasks with a 20000-byte argument block, one after
 * the other on a new file: the first allocates a task array and an
 * argument block, the other nine take the same two buffers over; each
 * round's values are written (a reused buffer holds the new batch, not
 * the old one). The two buffers stay cached until the file goes.
 */
TEST_F(sched, batch_buffers_reused_then_freed_with_file)
{
	static uint64_t argblk[BC_ARGS / 8];
	static struct drm_vnpu_task t[BC_TASKS];
	struct bc_stats b0, b1;
	struct ubuf vals = { 0 };
	uint32_t q, so;
	uint64_t seq;
	int fd, r, i, bad = 0;

	ASSERT_EQ(0, bc_file_open(self->node, self->dir, BC_TASKS * 8, &fd,
				  &vals, &q, &so, &b0));

	for (r = 0; r < 10; r++) {
		for (i = 0; i < BC_TASKS; i++)
			t[i] = t_write(vals.va + 8 * i, ((uint64_t)r << 32) + i);
		memset(argblk, r, sizeof(argblk));
		ASSERT_EQ(0, submit_args(fd, q, t, BC_TASKS, argblk, BC_ARGS, &seq));
		ASSERT_EQ(0, wait_point(fd, so, seq, 5000));
		/* The job, and with it the batch, is freed after it signals. */
		ASSERT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
		for (i = 0; i < BC_TASKS; i++)
			bad += vals.p[i] != ((uint64_t)r << 32) + i;
	}
	EXPECT_EQ(0, bad);
	bc_read(self->dir, &b1);
	EXPECT_EQ(2, b1.misses - b0.misses);
	EXPECT_EQ(18, b1.hits - b0.hits);
	EXPECT_EQ(BC_TASK_CLASS + BC_ARGS_CLASS, b1.bytes - b0.bytes);

	ubuf_free(fd, &vals);
	close(fd);
	EXPECT_EQ(b0.bytes, bc_wait_bytes(self->dir, b0.bytes));
}

/*
 * Which buffers are kept: 36 batches alive at once (held behind a job
 * that waits for a value) allocate 36 task arrays, of which a file keeps
 * 32 once they end; a batch too small for the cache (3 tasks)
 * and a task array above the largest class (16400 tasks, just over
 * 1 MiB) are neither counted nor kept; the next 100-task batch takes a
 * kept array.
 */
TEST_F(sched, batch_buffer_cache_bounded_by_slots_and_size)
{
	static struct drm_vnpu_task t[BC_TASKS];
	struct drm_vnpu_task w, *big;
	struct bc_stats b0, b1;
	struct ubuf m = { 0 };
	uint64_t seq, last = 0;
	uint32_t q, so;
	int fd, j, nbig = BC_MAX / sizeof(*big) + 16;

	ASSERT_EQ(0, bc_file_open(self->node, self->dir, 4096, &fd, &m, &q,
				  &so, &b0));

	w = t_wait(m.va, 1, DRM_VNPU_WAIT_EQ, 10000 * NS_PER_MS);
	ASSERT_EQ(0, submit(fd, q, &w, 1, NULL));
	for (j = 0; j < BC_TASKS; j++)
		t[j] = t_write(m.va + 8 + 8 * (j % 8), j);
	for (j = 0; j < BC_ALIVE; j++)
		ASSERT_EQ(0, submit(fd, q, t, BC_TASKS, &last));
	bc_read(self->dir, &b1);
	EXPECT_EQ(BC_ALIVE, b1.misses - b0.misses);
	EXPECT_EQ(0, b1.hits - b0.hits);
	m.p[0] = 1;
	ASSERT_EQ(0, wait_point(fd, so, last, 10000));
	ASSERT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	bc_read(self->dir, &b1);
	EXPECT_EQ(BC_SLOTS * BC_TASK_CLASS, b1.bytes - b0.bytes);

	/* 3 tasks (192 bytes), then a task array just over 1 MiB: not cached. */
	ASSERT_EQ(0, submit(fd, q, t, 3, &seq));
	big = calloc(nbig, sizeof(*big));
	ASSERT_NE(NULL, big);
	for (j = 0; j < nbig; j++)
		big[j] = t_write(m.va + 8 + 8 * (j % 8), j);
	ASSERT_EQ(0, submit(fd, q, big, nbig, &seq));
	ASSERT_EQ(0, wait_point(fd, so, seq, 10000));
	ASSERT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	free(big);
	bc_read(self->dir, &b1);
	EXPECT_EQ(BC_ALIVE, b1.misses - b0.misses);
	EXPECT_EQ(0, b1.hits - b0.hits);
	EXPECT_EQ(BC_SLOTS * BC_TASK_CLASS, b1.bytes - b0.bytes);
	EXPECT_EQ((uint64_t)nbig - 1, m.p[1 + (nbig - 1) % 8]);

	ASSERT_EQ(0, submit(fd, q, t, BC_TASKS, &seq));
	ASSERT_EQ(0, wait_point(fd, so, seq, 10000));
	ASSERT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	bc_read(self->dir, &b1);
	EXPECT_EQ(1, b1.hits - b0.hits);
	EXPECT_EQ(BC_ALIVE, b1.misses - b0.misses);
	EXPECT_EQ(BC_SLOTS * BC_TASK_CLASS, b1.bytes - b0.bytes);

	ubuf_free(fd, &m);
	close(fd);
	EXPECT_EQ(b0.bytes, bc_wait_bytes(self->dir, b0.bytes));
}

/*
 * The byte budget: six batches alive at once, each with a 1 MiB argument
 * block (the largest class), leave four blocks cached once they end
 * (4 MiB, the most a file keeps); the next such batch takes one over.
 * 3-task arrays are below the smallest class and play no part.
 */
TEST_F(sched, batch_buffer_cache_bounded_by_bytes)
{
	static struct drm_vnpu_task t[3];
	struct drm_vnpu_task w;
	struct bc_stats b0, b1;
	struct ubuf m = { 0 };
	uint64_t seq, last = 0;
	uint32_t q, so;
	void *args;
	int fd, j;

	ASSERT_EQ(0, bc_file_open(self->node, self->dir, 4096, &fd, &m, &q,
				  &so, &b0));
	args = calloc(1, BC_MAX);
	ASSERT_NE(NULL, args);
	for (j = 0; j < 3; j++)
		t[j] = t_write(m.va + 8 + 8 * j, j + 1);

	w = t_wait(m.va, 1, DRM_VNPU_WAIT_EQ, 10000 * NS_PER_MS);
	ASSERT_EQ(0, submit(fd, q, &w, 1, NULL));
	for (j = 0; j < 6; j++)
		ASSERT_EQ(0, submit_args(fd, q, t, 3, args, BC_MAX, &last));
	bc_read(self->dir, &b1);
	EXPECT_EQ(6, b1.misses - b0.misses);
	m.p[0] = 1;
	ASSERT_EQ(0, wait_point(fd, so, last, 10000));
	ASSERT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	bc_read(self->dir, &b1);
	EXPECT_EQ(BC_BYTES, b1.bytes - b0.bytes);
	EXPECT_EQ(0, b1.hits - b0.hits);

	ASSERT_EQ(0, submit_args(fd, q, t, 3, args, BC_MAX, &seq));
	ASSERT_EQ(0, wait_point(fd, so, seq, 10000));
	ASSERT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	bc_read(self->dir, &b1);
	EXPECT_EQ(1, b1.hits - b0.hits);
	EXPECT_EQ(6, b1.misses - b0.misses);
	EXPECT_EQ(BC_BYTES, b1.bytes - b0.bytes);
	EXPECT_EQ(3, m.p[3]);
	free(args);

	ubuf_free(fd, &m);
	close(fd);
	EXPECT_EQ(b0.bytes, bc_wait_bytes(self->dir, b0.bytes));
}

/*
 * A batch that fails validation gives its buffers back like any other:
 * a bad task after a good copy-in leaves nothing allocated for good, and
 * the next batch of the class reuses the buffer.
 */
TEST_F(sched, batch_buffer_of_rejected_batch_reused)
{
	static struct drm_vnpu_task t[BC_TASKS];
	struct bc_stats b0, b1;
	struct ubuf m = { 0 };
	uint32_t q, so;
	uint64_t seq;
	int fd, j;

	ASSERT_EQ(0, bc_file_open(self->node, self->dir, 4096, &fd, &m, &q,
				  &so, &b0));
	for (j = 0; j < BC_TASKS; j++)
		t[j] = t_write(m.va + 8 * (j % 8), j);
	t[BC_TASKS - 1].type = 0xffff;
	EXPECT_EQ(-EINVAL, submit(fd, q, t, BC_TASKS, NULL));
	bc_read(self->dir, &b1);
	EXPECT_EQ(1, b1.misses - b0.misses);
	EXPECT_EQ(BC_TASK_CLASS, b1.bytes - b0.bytes);

	t[BC_TASKS - 1].type = DRM_VNPU_TASK_WRITE_VALUE;
	ASSERT_EQ(0, submit(fd, q, t, BC_TASKS, &seq));
	ASSERT_EQ(0, wait_point(fd, so, seq, 10000));
	EXPECT_EQ(BC_TASKS - 1, m.p[(BC_TASKS - 1) % 8]);
	ASSERT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	bc_read(self->dir, &b1);
	EXPECT_EQ(1, b1.misses - b0.misses);
	EXPECT_EQ(1, b1.hits - b0.hits);
	EXPECT_EQ(BC_TASK_CLASS, b1.bytes - b0.bytes);

	ubuf_free(fd, &m);
	close(fd);
	EXPECT_EQ(b0.bytes, bc_wait_bytes(self->dir, b0.bytes));
}

/* ----------------------------------------------------------- helper main -- */

static int usage(const char *argv0)
{
	fprintf(stderr,
		"usage: %s [kselftest options]\n"
		"       %s --hold NODE COUNT SPIN_MS\n"
		"       %s --smoke NODE\n", argv0, argv0, argv0);
	return 2;
}

int main(int argc, char **argv)
{
	long depth;
	int fd, ret;

	if (argc >= 2 && !strcmp(argv[1], "--hold")) {
		if (argc != 5)
			return usage(argv[0]);
		/* Ready once the queue is full (or everything is queued). */
		depth = vnpu_module_param("queue_depth");
		hold_jobs(argv[2], atoi(argv[3]), atoi(argv[4]),
			  depth > 0 && depth < atoi(argv[3]) ? depth : atoi(argv[3]),
			  1, "ready\n");
	}
	if (argc >= 2 && !strcmp(argv[1], "--smoke")) {
		if (argc != 3)
			return usage(argv[0]);
		fd = open(argv[2], O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			perror(argv[2]);
			return 1;
		}
		ret = smoke_job(fd);
		if (ret)
			fprintf(stderr, "smoke job failed: %s\n", strerror(-ret));
		close(fd);
		return ret ? 1 : 0;
	}
	return test_harness_run(argc, argv);
}
