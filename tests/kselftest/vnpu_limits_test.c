// SPDX-License-Identifier: GPL-2.0-only
/*
 * Resource limits and accounting (Documentation/resource-limits.md): an
 * unprivileged process in a 64 MiB memory cgroup tries every way of making
 * the driver hold memory for it (HOST objects the device populates,
 * device memory and host pool shares, command buffers, jobs in flight,
 * registered memory) and gets the designed error each time, while nothing
 * outside its group is OOM-killed and a fresh job from another file still
 * runs afterwards.
 *
 * Each test runs its worker in a forked child that joins a new cgroup,
 * lowers RLIMIT_MEMLOCK and drops to uid/gid 65534; the worker writes what
 * it saw into shared memory and the test (root, outside the group) checks
 * it, the group's memory.events and the global oom_kill count.
 */
#include <signal.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "vnpu_test_util.h"
#include "kselftest_harness.h"

/* The harness's setjmp-based TEST_F wrappers trip this with -O1. */
#pragma GCC diagnostic ignored "-Wclobbered"

#define MiB		(1ull << 20)
#define PG		4096ull
#define NSEC_PER_MS	1000000ull
#define CG_ROOT		"/sys/fs/cgroup"
#define CG_LIMIT	(64 * MiB)
#define NOBODY		65534
#define NRES		64

/* ------------------------------------------------------------ helpers -- */

static int bo_new(int fd, uint64_t size, uint32_t placement, void *user,
		  uint32_t *handle, uint64_t *va)
{
	struct drm_vnpu_bo_create c = {
		.size = size, .placement = placement,
		.user_ptr = (uintptr_t)user,
	};
	int ret = xioctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &c);

	if (!ret) {
		*handle = c.handle;
		if (va)
			*va = c.va;
	}
	return ret;
}

/* mmap a HOST object; NULL on failure. */
static void *bo_mmap(int fd, uint32_t handle, uint64_t size)
{
	struct drm_vnpu_bo_info bi = { .handle = handle };
	void *p;

	if (xioctl(fd, DRM_IOCTL_VNPU_BO_INFO, &bi))
		return NULL;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 bi.mmap_offset);
	return p == MAP_FAILED ? NULL : p;
}

struct queue {
	int fd;
	uint32_t id;
	uint32_t sync;
};

static int queue_new(int fd, struct queue *q)
{
	struct drm_vnpu_queue_create qc = { .priority = DRM_VNPU_PRIORITY_NORMAL };
	int ret = xioctl(fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &qc);

	if (ret)
		return ret;
	q->fd = fd;
	q->id = qc.queue_id;
	q->sync = qc.syncobj;
	return 0;
}

static int submit(struct queue *q, const struct drm_vnpu_task *t, uint32_t n,
		  const void *args, uint32_t args_size, uint64_t *seq)
{
	struct drm_vnpu_submit s = {
		.queue_id = q->id,
		.tasks = (uintptr_t)t,
		.task_count = n,
		.task_stride = sizeof(*t),
		.args = (uintptr_t)args,
		.args_size = args_size,
	};
	int ret = xioctl(q->fd, DRM_IOCTL_VNPU_SUBMIT, &s);

	if (!ret && seq)
		*seq = s.seq;
	return ret;
}

static int cmdbuf_new(int fd, const struct drm_vnpu_task *t, uint32_t n,
		      const void *args, uint32_t args_size, uint32_t *handle)
{
	struct drm_vnpu_cmdbuf_create cc = {
		.tasks = (uintptr_t)t,
		.task_count = n,
		.task_stride = sizeof(*t),
		.args = (uintptr_t)args,
		.args_size = args_size,
	};
	int ret = xioctl(fd, DRM_IOCTL_VNPU_CMDBUF_CREATE, &cc);

	if (!ret)
		*handle = cc.handle;
	return ret;
}

static int cmdbuf_del(int fd, uint32_t handle)
{
	struct drm_vnpu_cmdbuf_destroy cd = { .handle = handle };

	return xioctl(fd, DRM_IOCTL_VNPU_CMDBUF_DESTROY, &cd);
}

static int job_wait(struct queue *q, uint64_t seq)
{
	struct drm_syncobj_timeline_wait w = {
		.handles = (uintptr_t)&q->sync,
		.points = (uintptr_t)&seq,
		.timeout_nsec = (int64_t)(now_ns() + 20000 * NSEC_PER_MS),
		.count_handles = 1,
		.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
	};

	return xioctl(q->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w);
}

static int job_status(struct queue *q, uint64_t seq, struct drm_vnpu_job_status *st)
{
	memset(st, 0, sizeof(*st));
	st->queue_id = q->id;
	st->seq = seq;
	return xioctl(q->fd, DRM_IOCTL_VNPU_JOB_STATUS, st);
}

#define T_NOP() \
	((struct drm_vnpu_task){ .type = DRM_VNPU_TASK_NOP })
#define T_FILL(d, n, p, ps) \
	((struct drm_vnpu_task){ .type = DRM_VNPU_TASK_FILL, \
		.fill = { .dst = (d), .size = (n), .pattern = (p), \
			  .pattern_size = (ps) } })
#define T_WAIT(a, v, c, t) \
	((struct drm_vnpu_task){ .type = DRM_VNPU_TASK_WAIT_VALUE, \
		.value = { .addr = (a), .value = (v), .timeout_ns = (t), \
			   .cond = (c) } })

/* A "key value" field of a cgroup or procfs file, or -1. */
static long long read_field(const char *path, const char *key)
{
	char line[256];
	long long v = -1;
	size_t n = strlen(key);
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, n) && (line[n] == ' ' || line[n] == ':')) {
			v = strtoll(line + n + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -errno;
}

/* VmPin of this process, in bytes. */
static long long vm_pin(void)
{
	long long kb = read_field("/proc/self/status", "VmPin");

	return kb < 0 ? -1 : kb * 1024;
}

/* ----------------------------------------------------------- harness -- */

/* What a worker saw, written into shared memory for the test to check. */
struct res {
	long long v[NRES];
	char where[128];
};

static const char *const limit_names[] = {
	"host_mem_mb", "file_mem_pct", "file_jobs", "file_job_mb",
	"file_cmdbufs", "file_cmdbuf_mb",
};

FIXTURE(lim) {
	char cg[128];
	long saved[6];
	struct res *res;
	long long oom0;
};

FIXTURE_SETUP(lim)
{
	unsigned int i;
	int fd;

	if (geteuid())
		SKIP(return, "needs root to set up the cgroup");
	fd = open_node();
	if (fd < 0)
		SKIP(return, "no vnpu device");
	close(fd);
	for (i = 0; i < 6; i++) {
		self->saved[i] = vnpu_module_param(limit_names[i]);
		ASSERT_GT(self->saved[i], 0) TH_LOG("%s", limit_names[i]);
	}
	/* Defaults, whatever earlier tests left. */
	ASSERT_EQ(self->saved[0], vnpu_set_module_param("host_mem_mb", 1024));
	ASSERT_EQ(self->saved[1], vnpu_set_module_param("file_mem_pct", 75));

	if (access(CG_ROOT "/cgroup.controllers", F_OK)) {
		mkdir(CG_ROOT, 0755);
		ASSERT_EQ(0, mount("cgroup2", CG_ROOT, "cgroup2", 0, NULL))
			TH_LOG("mount cgroup2: %s", strerror(errno));
	}
	/* Fails harmlessly when already enabled or when we are not at the root. */
	write_str(CG_ROOT "/cgroup.subtree_control", "+memory");
	snprintf(self->cg, sizeof(self->cg), CG_ROOT "/vnpu-limits-%d", getpid());
	ASSERT_EQ(0, mkdir(self->cg, 0755)) TH_LOG("%s: %s", self->cg, strerror(errno));

	{
		char p[192], v[32];

		snprintf(p, sizeof(p), "%s/memory.max", self->cg);
		snprintf(v, sizeof(v), "%llu", CG_LIMIT);
		ASSERT_EQ(0, write_str(p, v)) TH_LOG("memory.max");
		snprintf(p, sizeof(p), "%s/memory.swap.max", self->cg);
		write_str(p, "0");
	}
	ASSERT_EQ(0, system("chmod 0666 /dev/accel/accel*"));
	self->res = mmap(NULL, sizeof(*self->res), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->res);
	memset(self->res, 0, sizeof(*self->res));
	self->oom0 = read_field("/proc/vmstat", "oom_kill");
	ASSERT_GE(self->oom0, 0);
}

FIXTURE_TEARDOWN(lim)
{
	unsigned int i;
	int tries;

	for (i = 0; i < 6; i++)
		if (self->saved[i] > 0)
			vnpu_set_module_param(limit_names[i], self->saved[i]);
	if (!self->cg[0])
		return;
	for (tries = 0; tries < 50 && rmdir(self->cg) && errno == EBUSY; tries++)
		usleep(100 * 1000);
}

static void check_fresh_job(struct __test_metadata *_metadata);

/*
 * Run fn in a child inside the group, with RLIMIT_MEMLOCK memlock and as
 * uid 65534; check it exited by itself, then that nothing was OOM-killed
 * (neither in the group nor anywhere) and that another file still runs a
 * job.
 */
static void run_limited(struct __test_metadata *_metadata,
			FIXTURE_DATA(lim) *self, void (*fn)(struct res *),
			rlim_t memlock)
{
	struct rlimit rl = { memlock, memlock };
	char procs[192], events[192];
	int status = 0;
	pid_t pid;

	snprintf(procs, sizeof(procs), "%s/cgroup.procs", self->cg);
	snprintf(events, sizeof(events), "%s/memory.events", self->cg);
	memset(self->res, 0, sizeof(*self->res));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		if (write_str(procs, "0") || setrlimit(RLIMIT_MEMLOCK, &rl) ||
		    setresgid(NOBODY, NOBODY, NOBODY) ||
		    setresuid(NOBODY, NOBODY, NOBODY))
			_exit(3);
		fn(self->res);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status))
		TH_LOG("worker killed by signal %d at '%s'",
		       WIFSIGNALED(status) ? WTERMSIG(status) : 0, self->res->where);
	ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("worker setup failed");
	EXPECT_EQ(0, read_field(events, "oom_kill"));
	EXPECT_EQ(self->oom0, read_field("/proc/vmstat", "oom_kill"));
	check_fresh_job(_metadata);
}

/* The machine is usable: a fresh file runs a small job. */
static void check_fresh_job(struct __test_metadata *_metadata)
{
	{
		struct drm_vnpu_job_status st;
		struct drm_vnpu_task t;
		struct queue q;
		uint32_t h;
		uint64_t va, seq;
		uint32_t *p;
		int fd = open_node();

		ASSERT_GE(fd, 0);
		ASSERT_EQ(0, bo_new(fd, PG, DRM_VNPU_PLACEMENT_HOST, NULL, &h, &va));
		p = bo_mmap(fd, h, PG);
		ASSERT_NE(NULL, p);
		ASSERT_EQ(0, queue_new(fd, &q));
		t = T_FILL(va, PG, 0x5aa5c33c, 4);
		ASSERT_EQ(0, submit(&q, &t, 1, NULL, 0, &seq));
		ASSERT_EQ(0, job_wait(&q, seq));
		ASSERT_EQ(0, job_status(&q, seq, &st));
		EXPECT_EQ(DRM_VNPU_JOB_OK, st.state);
		EXPECT_EQ(0x5aa5c33cu, p[PG / 4 - 1]);
		munmap(p, PG);
		close(fd);
	}
}

static long long cg_events(FIXTURE_DATA(lim) *self, const char *key)
{
	char events[192];

	snprintf(events, sizeof(events), "%s/memory.events", self->cg);
	return read_field(events, key);
}

#define WHERE(r, s) snprintf((r)->where, sizeof((r)->where), "%s", s)

/* ---------------------------------------- HOST pages the device touches -- */

#define TOUCH_SIZE	(8 * MiB)
#define TOUCH_MAX	32

/*
 * v[0] objects filled, v[1] state and v[2] error of the first job that
 * failed, v[3] the failing step's errno otherwise.
 */
static void touch_worker(struct res *r)
{
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t;
	struct queue q;
	uint64_t va, seq;
	uint32_t h;
	int fd, i, ret;

	fd = open_node();
	if (fd < 0 || queue_new(fd, &q)) {
		r->v[3] = -1000;
		return;
	}
	for (i = 0; i < TOUCH_MAX; i++) {
		WHERE(r, "create");
		ret = bo_new(fd, TOUCH_SIZE, DRM_VNPU_PLACEMENT_HOST, NULL, &h, &va);
		if (ret) {
			r->v[3] = ret;
			return;
		}
		WHERE(r, "fill");
		t = T_FILL(va, TOUCH_SIZE, 0x11, 1);
		ret = submit(&q, &t, 1, NULL, 0, &seq);
		if (!ret)
			ret = job_wait(&q, seq);
		if (!ret)
			ret = job_status(&q, seq, &st);
		if (ret) {
			r->v[3] = ret;
			return;
		}
		if (st.state != DRM_VNPU_JOB_OK) {
			r->v[1] = st.state;
			r->v[2] = st.error;
			break;
		}
		r->v[0]++;
	}
	WHERE(r, "done");
	close(fd);
}

/*
 * HOST objects cost host memory once the device touches them; the engine
 * thread charges those pages to the creator's cgroup, so the job that
 * would take the group past its limit fails with -ENOMEM (no OOM kill).
 */
TEST_F_TIMEOUT(lim, host_pages_touched_by_device_charged_to_creator, 300)
{
	uint64_t share;
	int fd = open_node();

	ASSERT_GE(fd, 0);
	share = param(fd, DRM_VNPU_PARAM_FILE_HOST_LIMIT);
	close(fd);
	/* The driver's own limit would allow every object. */
	ASSERT_GE(share, TOUCH_MAX * TOUCH_SIZE);
	run_limited(_metadata, self, touch_worker, 64 * 1024);
	TH_LOG("%lld objects of 8 MiB filled, then state %lld error %lld; %lld max events",
	       self->res->v[0], self->res->v[1], self->res->v[2],
	       cg_events(self, "max"));
	EXPECT_EQ(0, self->res->v[3]) TH_LOG("step %s", self->res->where);
	EXPECT_EQ(DRM_VNPU_JOB_ABORTED, self->res->v[1]);
	EXPECT_EQ(-ENOMEM, self->res->v[2]);
	EXPECT_GE(self->res->v[0], 1);
	EXPECT_LE(self->res->v[0], (long long)(CG_LIMIT / TOUCH_SIZE));
	EXPECT_GT(cg_events(self, "max"), 0);
}

/* --------------------------------------------- device and host shares -- */

/*
 * v[0..3]: first file: chunks created, the error after them, USED after,
 * create after freeing one; v[4..6]: second file: the rest of the pool,
 * one page more, its USED.
 */
static void share_worker(struct res *r, uint32_t placement)
{
	bool host = placement == DRM_VNPU_PLACEMENT_HOST;
	uint32_t p_limit = host ? DRM_VNPU_PARAM_FILE_HOST_LIMIT :
				  DRM_VNPU_PARAM_FILE_MEM_LIMIT;
	uint32_t p_used = host ? DRM_VNPU_PARAM_FILE_HOST_USED :
				 DRM_VNPU_PARAM_FILE_MEM_USED;
	uint32_t h[8], h2, h3;
	uint64_t limit, chunk, rest;
	int fd, fd2, ret = 0;

	fd = open_node();
	fd2 = open_node();
	if (fd < 0 || fd2 < 0)
		return;
	limit = param(fd, p_limit);
	chunk = (limit / 4) & ~(PG - 1);
	for (r->v[0] = 0; r->v[0] < 8; r->v[0]++) {
		ret = bo_new(fd, chunk, placement, NULL, &h[r->v[0]], NULL);
		if (ret)
			break;
	}
	r->v[1] = ret;
	r->v[2] = param(fd, p_used) == 4 * chunk;
	r->v[3] = -1;
	if (r->v[0] > 0 && !gem_close(fd, h[0]))
		r->v[3] = bo_new(fd, chunk, placement, NULL, &h[0], NULL);

	/* Room for others: a second file gets what is left of the pool. */
	if (host)
		rest = param(fd2, DRM_VNPU_PARAM_HOST_MEM_TOTAL) -
		       param(fd2, DRM_VNPU_PARAM_HOST_MEM_USED);
	else
		rest = param(fd2, DRM_VNPU_PARAM_MEM_FREE);
	r->v[7] = rest;
	r->v[4] = bo_new(fd2, rest, placement, NULL, &h2, NULL);
	r->v[5] = bo_new(fd2, PG, placement, NULL, &h3, NULL);
	r->v[6] = param(fd2, p_used) == rest;
	close(fd2);
	close(fd);
}

static void host_share_worker(struct res *r)
{
	share_worker(r, DRM_VNPU_PLACEMENT_HOST);
}

static void device_share_worker(struct res *r)
{
	share_worker(r, DRM_VNPU_PLACEMENT_DEVICE);
}

static void check_share(struct __test_metadata *_metadata, struct res *r)
{
	EXPECT_EQ(4, r->v[0]);
	EXPECT_EQ(-ENOSPC, r->v[1]);
	EXPECT_EQ(1, r->v[2]);
	EXPECT_EQ(0, r->v[3]);
	EXPECT_GT(r->v[7], 0);
	EXPECT_EQ(0, r->v[4]);
	EXPECT_EQ(-ENOSPC, r->v[5]);
	EXPECT_EQ(1, r->v[6]);
}

/* HOST objects count against the host pool and the file's share of it. */
TEST_F(lim, host_pool_and_file_share_enospc)
{
	int fd = open_node();

	ASSERT_GE(fd, 0);
	EXPECT_EQ(1024 * MiB, param(fd, DRM_VNPU_PARAM_HOST_MEM_TOTAL));
	EXPECT_EQ(768 * MiB, param(fd, DRM_VNPU_PARAM_FILE_HOST_LIMIT));
	close(fd);
	run_limited(_metadata, self, host_share_worker, 64 * 1024);
	check_share(_metadata, self->res);
}

/* One file cannot take the whole device memory from the others. */
TEST_F(lim, device_memory_file_share_enospc)
{
	uint64_t total;
	int fd = open_node();

	ASSERT_GE(fd, 0);
	total = param(fd, DRM_VNPU_PARAM_MEM_TOTAL);
	EXPECT_EQ((total * 75 / 100) & ~(PG - 1),
		  param(fd, DRM_VNPU_PARAM_FILE_MEM_LIMIT));
	EXPECT_EQ(0, param(fd, DRM_VNPU_PARAM_FILE_MEM_USED));
	close(fd);
	run_limited(_metadata, self, device_share_worker, 64 * 1024);
	check_share(_metadata, self->res);
}

/* The share follows file_mem_pct, read at each creation. */
TEST_F(lim, file_mem_pct_applies_at_once)
{
	uint64_t total, limit;
	uint32_t h;
	int fd = open_node();

	ASSERT_GE(fd, 0);
	total = param(fd, DRM_VNPU_PARAM_MEM_TOTAL);
	ASSERT_EQ(75, vnpu_set_module_param("file_mem_pct", 10));
	limit = (total / 10) & ~(PG - 1);
	EXPECT_EQ(limit, param(fd, DRM_VNPU_PARAM_FILE_MEM_LIMIT));
	EXPECT_EQ(-ENOSPC, bo_new(fd, limit + PG, DRM_VNPU_PLACEMENT_DEVICE,
				  NULL, &h, NULL));
	ASSERT_EQ(0, bo_new(fd, limit, DRM_VNPU_PLACEMENT_DEVICE, NULL, &h, NULL));
	EXPECT_EQ(limit, param(fd, DRM_VNPU_PARAM_FILE_MEM_USED));
	EXPECT_EQ(0, gem_close(fd, h));
	EXPECT_EQ(0, param(fd, DRM_VNPU_PARAM_FILE_MEM_USED));
	close(fd);
}

/* An object outlives its file's handle: the share is held until freed. */
TEST_F(lim, shared_object_keeps_charge_until_freed)
{
	struct drm_prime_handle ph = { .flags = DRM_CLOEXEC };
	uint64_t used0;
	uint32_t h, h2;
	int fd = open_node(), fd2 = open_node();

	ASSERT_GE(fd, 0);
	ASSERT_GE(fd2, 0);
	used0 = param(fd2, DRM_VNPU_PARAM_MEM_USED);
	ASSERT_EQ(0, bo_new(fd, 4 * MiB, DRM_VNPU_PLACEMENT_DEVICE, NULL, &h, NULL));
	ph.handle = h;
	ASSERT_EQ(0, xioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph));
	close(fd);
	ph.handle = 0;
	ASSERT_EQ(0, xioctl(fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph));
	h2 = ph.handle;
	close(ph.fd);
	/* Not charged to the importer, still to the (closed) creator. */
	EXPECT_EQ(0, param(fd2, DRM_VNPU_PARAM_FILE_MEM_USED));
	EXPECT_EQ(used0 + 4 * MiB, param(fd2, DRM_VNPU_PARAM_MEM_USED));
	EXPECT_EQ(0, gem_close(fd2, h2));
	EXPECT_EQ(used0, param(fd2, DRM_VNPU_PARAM_MEM_USED));
	close(fd2);
}

/* ------------------------------------------------------ command buffers -- */

/*
 * With file_cmdbuf_mb=16 and file_cmdbufs=20: v[0] 1 MiB command buffers
 * created, v[1] the error after them; v[2] count after destroying them,
 * v[3] small ones created, v[4] the error after them, v[5] create after
 * destroying one.
 */
static void cmdbuf_worker(struct res *r)
{
	struct drm_vnpu_task t = T_NOP();
	uint32_t h[64];
	void *args = calloc(1, MiB);
	int fd = open_node(), ret = 0, i;

	if (fd < 0 || !args)
		return;
	WHERE(r, "big");
	for (r->v[0] = 0; r->v[0] < 64; r->v[0]++) {
		ret = cmdbuf_new(fd, &t, 1, args, MiB, &h[r->v[0]]);
		if (ret)
			break;
	}
	r->v[1] = ret;
	for (i = 0; i < r->v[0]; i++)
		r->v[2] += !cmdbuf_del(fd, h[i]);
	WHERE(r, "small");
	for (r->v[3] = 0; r->v[3] < 64; r->v[3]++) {
		ret = cmdbuf_new(fd, &t, 1, NULL, 0, &h[r->v[3]]);
		if (ret)
			break;
	}
	r->v[4] = ret;
	r->v[5] = -1;
	if (r->v[3] > 0 && !cmdbuf_del(fd, h[0]))
		r->v[5] = cmdbuf_new(fd, &t, 1, NULL, 0, &h[0]);
	free(args);
	close(fd);
}

TEST_F(lim, cmdbuf_count_and_memory_enospc)
{
	int fd = open_node();

	ASSERT_GE(fd, 0);
	ASSERT_GT(vnpu_set_module_param("file_cmdbuf_mb", 16), 0);
	ASSERT_GT(vnpu_set_module_param("file_cmdbufs", 20), 0);
	EXPECT_EQ(16 * MiB, param(fd, DRM_VNPU_PARAM_FILE_CMDBUF_MEM_LIMIT));
	EXPECT_EQ(20, param(fd, DRM_VNPU_PARAM_FILE_CMDBUF_LIMIT));
	close(fd);
	run_limited(_metadata, self, cmdbuf_worker, 64 * 1024);
	/* 15 * (1 MiB + 64) fit in 16 MiB, 16 do not. */
	EXPECT_EQ(15, self->res->v[0]);
	EXPECT_EQ(-ENOSPC, self->res->v[1]);
	EXPECT_EQ(15, self->res->v[2]);
	EXPECT_EQ(20, self->res->v[3]);
	EXPECT_EQ(-ENOSPC, self->res->v[4]);
	EXPECT_EQ(0, self->res->v[5]);
}

#define BIG_TASKS	DRM_VNPU_MAX_TASKS

/* v[0] largest command buffers created, v[1] the error after them. */
static void cmdbuf_cgroup_worker(struct res *r)
{
	struct drm_vnpu_task *t = calloc(BIG_TASKS, sizeof(*t));
	void *args = calloc(1, DRM_VNPU_MAX_ARGS_SIZE);
	uint32_t h;
	int fd = open_node(), ret = 0;

	if (fd < 0 || !t || !args)
		return;
	for (r->v[0] = 0; r->v[0] < 60; r->v[0]++) {
		ret = cmdbuf_new(fd, t, BIG_TASKS, args, DRM_VNPU_MAX_ARGS_SIZE, &h);
		if (ret)
			break;
	}
	r->v[1] = ret;
	close(fd);
}

/*
 * Command buffer memory is charged to the caller's cgroup: at the default
 * limits (256 MiB) the 64 MiB group runs out first, with -ENOMEM and no
 * OOM kill.
 */
TEST_F_TIMEOUT(lim, cmdbuf_memory_charged_to_cgroup_enomem, 300)
{
	int fd = open_node();

	ASSERT_GE(fd, 0);
	ASSERT_GE(param(fd, DRM_VNPU_PARAM_FILE_CMDBUF_MEM_LIMIT), 256 * MiB);
	close(fd);
	run_limited(_metadata, self, cmdbuf_cgroup_worker, 64 * 1024);
	TH_LOG("%lld command buffers of 5 MiB, then %lld", self->res->v[0],
	       self->res->v[1]);
	EXPECT_EQ(-ENOMEM, self->res->v[1]);
	EXPECT_GE(self->res->v[0], 1);
	EXPECT_LT(self->res->v[0], 13);
	EXPECT_GT(cg_events(self, "max"), 0);
}

/* --------------------------------------------------------- jobs in flight -- */

#define JOB_QUEUES	4

/*
 * With file_jobs=16 and file_job_mb=8, jobs held back by a gate: v[0]
 * jobs accepted on JOB_QUEUES queues, v[1] the error of one more on
 * another queue, v[2] that submit once the jobs are done (retried a
 * while: jobs are retired after their fences signal); v[3] 1 MiB jobs
 * accepted, v[4] the error after them, v[5] all jobs OK.
 */
static void jobs_worker(struct res *r)
{
	struct drm_vnpu_task gate, nop = T_NOP();
	struct queue q[JOB_QUEUES + 1];
	struct drm_vnpu_job_status st;
	uint64_t seq[JOB_QUEUES + 1][16], gva, last = 0;
	volatile uint64_t *g;
	void *args = calloc(1, MiB);
	int fd = open_node(), i, j, ret = 0, n;
	uint32_t gh;

	if (fd < 0 || !args)
		return;
	WHERE(r, "setup");
	if (bo_new(fd, PG, DRM_VNPU_PLACEMENT_HOST, NULL, &gh, &gva))
		return;
	g = bo_mmap(fd, gh, PG);
	if (!g)
		return;
	*g = 0;
	for (i = 0; i <= JOB_QUEUES; i++)
		if (queue_new(fd, &q[i]))
			return;
	gate = T_WAIT(gva, 1, DRM_VNPU_WAIT_EQ, 0);
	WHERE(r, "count");
	for (i = 0; i < JOB_QUEUES; i++) {
		for (j = 0; j < 4; j++) {
			ret = submit(&q[i], j ? &nop : &gate, 1, NULL, 0, &seq[i][j]);
			if (ret)
				break;
			r->v[0]++;
		}
	}
	r->v[1] = submit(&q[JOB_QUEUES], &nop, 1, NULL, 0, NULL);
	*g = 1;
	r->v[5] = 1;
	for (i = 0; i < JOB_QUEUES; i++) {
		if (job_wait(&q[i], seq[i][3]) || job_status(&q[i], seq[i][3], &st) ||
		    st.state != DRM_VNPU_JOB_OK)
			r->v[5] = 0;
	}
	for (n = 0; n < 200; n++) {
		r->v[2] = submit(&q[JOB_QUEUES], &nop, 1, NULL, 0, &last);
		if (r->v[2] != -EBUSY)
			break;
		usleep(10 * 1000);
	}
	if (!r->v[2] && job_wait(&q[JOB_QUEUES], last))
		r->v[5] = 0;

	/* Now the memory of jobs in flight: gate, then 1 MiB jobs. */
	WHERE(r, "bytes");
	*g = 0;
	ret = submit(&q[0], &gate, 1, NULL, 0, NULL);
	if (ret) {
		r->v[4] = 1000 + ret;
		return;
	}
	for (r->v[3] = 0; r->v[3] < 15; r->v[3]++) {
		ret = submit(&q[0], &nop, 1, args, MiB, &last);
		if (ret)
			break;
	}
	r->v[4] = ret;
	*g = 1;
	if (job_wait(&q[0], last) || job_status(&q[0], last, &st) ||
	    st.state != DRM_VNPU_JOB_OK)
		r->v[5] = 0;
	WHERE(r, "done");
	free(args);
	close(fd);
}

TEST_F_TIMEOUT(lim, jobs_in_flight_per_file_ebusy, 120)
{
	int fd = open_node();

	ASSERT_GE(fd, 0);
	ASSERT_GT(vnpu_set_module_param("file_jobs", 16), 0);
	ASSERT_GT(vnpu_set_module_param("file_job_mb", 8), 0);
	EXPECT_EQ(16, param(fd, DRM_VNPU_PARAM_FILE_JOB_LIMIT));
	EXPECT_EQ(8 * MiB, param(fd, DRM_VNPU_PARAM_FILE_JOB_MEM_LIMIT));
	close(fd);
	run_limited(_metadata, self, jobs_worker, 64 * 1024);
	EXPECT_EQ(JOB_QUEUES * 4, self->res->v[0]);
	EXPECT_EQ(-EBUSY, self->res->v[1]);
	EXPECT_EQ(0, self->res->v[2]);
	/* Gate (64 bytes) + 7 * (1 MiB + 64) fit in 8 MiB, an 8th does not. */
	EXPECT_EQ(7, self->res->v[3]);
	EXPECT_EQ(-EBUSY, self->res->v[4]);
	EXPECT_EQ(1, self->res->v[5]);
}

/* ------------------------------------------------------- registered memory -- */

#define LOCK_LIMIT	(1 * MiB)

/*
 * With RLIMIT_MEMLOCK 1 MiB: v[0] first 512 KiB, v[1] VmPin after it,
 * v[2] second 512 KiB, v[3] one page more, v[4] one page through another
 * file, v[5] 512 KiB after freeing the first, v[6] VmPin at the end.
 */
static void memlock_worker(struct res *r)
{
	uint8_t *mem = mmap(NULL, 4 * LOCK_LIMIT, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint32_t h1, h2, h3;
	int fd = open_node(), fd2 = open_node();

	if (mem == MAP_FAILED || fd < 0 || fd2 < 0)
		return;
	memset(mem, 1, 4 * LOCK_LIMIT);
	r->v[0] = bo_new(fd, LOCK_LIMIT / 2, DRM_VNPU_PLACEMENT_USER, mem, &h1, NULL);
	r->v[1] = vm_pin();
	r->v[2] = bo_new(fd, LOCK_LIMIT / 2, DRM_VNPU_PLACEMENT_USER,
			 mem + LOCK_LIMIT, &h2, NULL);
	r->v[3] = bo_new(fd, PG, DRM_VNPU_PLACEMENT_USER, mem + 2 * LOCK_LIMIT,
			 &h3, NULL);
	r->v[4] = bo_new(fd2, PG, DRM_VNPU_PLACEMENT_USER, mem + 2 * LOCK_LIMIT,
			 &h3, NULL);
	gem_close(fd, h1);
	r->v[5] = bo_new(fd, LOCK_LIMIT / 2, DRM_VNPU_PLACEMENT_USER,
			 mem + 3 * LOCK_LIMIT, &h1, NULL);
	r->v[6] = vm_pin();
	/* Left registered: the exit frees them. */
}

/* v[0] the whole limit in one object. */
static void memlock_again_worker(struct res *r)
{
	uint8_t *mem = mmap(NULL, LOCK_LIMIT, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint32_t h;
	int fd = open_node();

	if (mem == MAP_FAILED || fd < 0)
		return;
	memset(mem, 1, LOCK_LIMIT);
	r->v[0] = bo_new(fd, LOCK_LIMIT, DRM_VNPU_PLACEMENT_USER, mem, &h, NULL);
	r->v[1] = bo_new(fd, PG, DRM_VNPU_PLACEMENT_USER, mem, &h, NULL);
	close(fd);
}

TEST_F(lim, registered_memory_beyond_memlock_enomem)
{
	run_limited(_metadata, self, memlock_worker, LOCK_LIMIT);
	EXPECT_EQ(0, self->res->v[0]);
	EXPECT_EQ((long long)LOCK_LIMIT / 2, self->res->v[1]);
	EXPECT_EQ(0, self->res->v[2]);
	EXPECT_EQ(-ENOMEM, self->res->v[3]);
	EXPECT_EQ(-ENOMEM, self->res->v[4]);
	EXPECT_EQ(0, self->res->v[5]);
	EXPECT_EQ((long long)LOCK_LIMIT, self->res->v[6]);
	/* The exit returned the pages to the user's limit. */
	run_limited(_metadata, self, memlock_again_worker, LOCK_LIMIT);
	EXPECT_EQ(0, self->res->v[0]);
	EXPECT_EQ(-ENOMEM, self->res->v[1]);
}

/* CAP_IPC_LOCK is exempt, as for mlock and io_uring. */
TEST_F(lim, registered_memory_cap_ipc_lock_exempt)
{
	struct rlimit rl = { LOCK_LIMIT, LOCK_LIMIT }, old;
	uint8_t *mem = mmap(NULL, 4 * LOCK_LIMIT, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint32_t h;
	int fd = open_node();

	ASSERT_GE(fd, 0);
	ASSERT_NE(MAP_FAILED, mem);
	memset(mem, 1, 4 * LOCK_LIMIT);
	ASSERT_EQ(0, getrlimit(RLIMIT_MEMLOCK, &old));
	ASSERT_EQ(0, setrlimit(RLIMIT_MEMLOCK, &rl));
	EXPECT_EQ(0, bo_new(fd, 4 * LOCK_LIMIT, DRM_VNPU_PLACEMENT_USER, mem, &h,
			    NULL));
	EXPECT_EQ((long long)4 * LOCK_LIMIT, vm_pin());
	EXPECT_EQ(0, gem_close(fd, h));
	EXPECT_EQ(0, vm_pin());
	setrlimit(RLIMIT_MEMLOCK, &old);
	close(fd);
	munmap(mem, 4 * LOCK_LIMIT);
}

/* ---------------------------------------------------------- parameters -- */

/* Every limit refuses values outside its range and keeps its value. */
TEST_F(lim, limit_params_out_of_range_einval)
{
	static const struct { const char *name; long bad; } cases[] = {
		{ "host_mem_mb", 0 }, { "host_mem_mb", 1024 * 1024 + 1 },
		{ "file_mem_pct", 0 }, { "file_mem_pct", 101 },
		{ "file_jobs", 0 }, { "file_jobs", (1 << 20) + 1 },
		{ "file_job_mb", 0 }, { "file_cmdbufs", 0 },
		{ "file_cmdbufs", 4097 }, { "file_cmdbuf_mb", 0 },
	};
	char path[128];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		long before = vnpu_module_param(cases[i].name);

		EXPECT_EQ(-1, vnpu_set_module_param(cases[i].name, cases[i].bad))
			TH_LOG("%s=%ld accepted", cases[i].name, cases[i].bad);
		EXPECT_EQ(before, vnpu_module_param(cases[i].name));
	}
	snprintf(path, sizeof(path), "/sys/module/vnpu/parameters/file_jobs");
	EXPECT_NE(0, write_str(path, "many"));
	EXPECT_EQ(self->saved[2], vnpu_module_param("file_jobs"));
}

/* The new GET_PARAM values follow the module parameters. */
TEST_F(lim, get_param_reports_limits)
{
	int fd = open_node();

	ASSERT_GE(fd, 0);
	ASSERT_GT(vnpu_set_module_param("host_mem_mb", 100), 0);
	ASSERT_GT(vnpu_set_module_param("file_mem_pct", 50), 0);
	ASSERT_GT(vnpu_set_module_param("file_jobs", 7), 0);
	ASSERT_GT(vnpu_set_module_param("file_job_mb", 3), 0);
	ASSERT_GT(vnpu_set_module_param("file_cmdbufs", 5), 0);
	ASSERT_GT(vnpu_set_module_param("file_cmdbuf_mb", 2), 0);
	EXPECT_EQ(100 * MiB, param(fd, DRM_VNPU_PARAM_HOST_MEM_TOTAL));
	EXPECT_EQ(50 * MiB, param(fd, DRM_VNPU_PARAM_FILE_HOST_LIMIT));
	EXPECT_EQ((param(fd, DRM_VNPU_PARAM_MEM_TOTAL) / 2) & ~(PG - 1),
		  param(fd, DRM_VNPU_PARAM_FILE_MEM_LIMIT));
	EXPECT_EQ(7, param(fd, DRM_VNPU_PARAM_FILE_JOB_LIMIT));
	EXPECT_EQ(3 * MiB, param(fd, DRM_VNPU_PARAM_FILE_JOB_MEM_LIMIT));
	EXPECT_EQ(5, param(fd, DRM_VNPU_PARAM_FILE_CMDBUF_LIMIT));
	EXPECT_EQ(2 * MiB, param(fd, DRM_VNPU_PARAM_FILE_CMDBUF_MEM_LIMIT));
	EXPECT_EQ(0, param(fd, DRM_VNPU_PARAM_HOST_MEM_USED));
	EXPECT_EQ(0, param(fd, DRM_VNPU_PARAM_FILE_HOST_USED));
	close(fd);
}

TEST_HARNESS_MAIN
