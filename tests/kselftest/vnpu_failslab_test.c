// SPDX-License-Identifier: GPL-2.0-only
/*
 * Allocation failures in every vnpu ioctl and io_uring command, injected
 * with the kernel's systematic fault injection.
 *
 * Writing N to /proc/thread-self/fail-nth makes the N-th fault-injection
 * point this thread passes fail: a slab allocation (failslab) or a page
 * allocation (fail_page_alloc). Reading the file back gives 0 once the
 * failure was injected, or what is left of N when the call passed fewer
 * points. In lib/fault-inject.c the fail-nth countdown comes before the
 * probability, task-filter and times checks, so it works with probability
 * 0 and touches no other task; the debugfs switches that matter are
 * ignore-gfp-wait (failslab and fail_page_alloc skip GFP_KERNEL requests
 * by default), ignore-gfp-highmem and min-order (fail_page_alloc skips
 * order-0 and highmem-capable requests by default).
 *
 * For each operation the call runs with N = 1, 2, 3, ... on fresh state
 * (a new file, set up without injection) until it passes fewer than N
 * points. After each run: the call either succeeded with its full effect,
 * or failed with -ENOMEM and changed nothing that the UAPI shows (output
 * fields, handles, ids and VAs handed out next, object, memory, queue and
 * job counts, syncobj points, data, open fds, pinned pages), and the file
 * still runs a NOP job. Closing the file must bring the device's counters
 * back; kmemleak, KASAN and lockdep in the debug kernel (make
 * check-debug) catch what the UAPI cannot show.
 *
 * Then probability-based failures (10 %) are turned on for this thread
 * only (task-filter, make-it-fail) during a few seconds of random valid
 * calls, after which everything must still work and be released. Last,
 * two kmemleak scans look for objects the failure paths leaked.
 *
 * Allocations an engine makes when a task runs (the window of an access
 * across VM mappings, pages of objects first touched by a job) happen on
 * the engine's kernel thread, out of reach of this thread's fail-nth; for
 * those only the submission is injected and the job must still end well.
 *
 * Needs root and a kernel with CONFIG_FAULT_INJECTION, CONFIG_FAILSLAB,
 * CONFIG_FAIL_PAGE_ALLOC and CONFIG_FAULT_INJECTION_DEBUG_FS; every test
 * is skipped elsewhere (Debian's kernel has none of them). The debugfs
 * settings are restored when each test ends and when the program exits.
 */
#include <dirent.h>
#include <liburing.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <time.h>

#include "vnpu_test_util.h"
#include "kselftest_harness.h"

#pragma GCC diagnostic ignored "-Wclobbered"

/* Give up on an operation that still fails its N-th point after this many. */
#define FI_MAX_N	2000
/* Bound on waiting for a job; the debug guest is slow. */
#define WAIT_MS		30000
#define NS_PER_MS	1000000ULL
/* Output fields are set to this before a call and must keep it on failure. */
#define POISON32	0x5a5a5a5au
#define POISON64	0x5a5a5a5a5a5a5a5aULL
#define SZ_64K		(64u << 10)
#define SZ_2M		(2ull << 20)
#define COPY_SIZE	8192u
#define NFLOAT		256u
/* An address in the device range that no object of a fresh file has. */
#define UNMAPPED_VA	(DRM_VNPU_VA_DEVICE_START + DRM_VNPU_VA_RANGE_SIZE / 2 + 0x1230)
#define RING_FLAGS	(IORING_SETUP_SQE128 | IORING_SETUP_CQE32)

#define FAILSLAB	"/sys/kernel/debug/failslab"
#define FAILPAGE	"/sys/kernel/debug/fail_page_alloc"
#define FAIL_NTH	"/proc/thread-self/fail-nth"
#define MAKE_IT_FAIL	"/proc/thread-self/make-it-fail"

/* ----------------------------------------------- debugfs settings -- */

/* Every fault-injection setting this program writes, and its old value. */
struct fi_knob {
	const char *path;
	char saved[32];
	bool have;
};

static struct fi_knob fi_knobs[] = {
	{ .path = FAILSLAB "/ignore-gfp-wait" }, { .path = FAILSLAB "/verbose" },
	{ .path = FAILSLAB "/probability" }, { .path = FAILSLAB "/interval" },
	{ .path = FAILSLAB "/times" }, { .path = FAILSLAB "/space" },
	{ .path = FAILSLAB "/task-filter" },
	{ .path = FAILPAGE "/ignore-gfp-wait" }, { .path = FAILPAGE "/ignore-gfp-highmem" },
	{ .path = FAILPAGE "/min-order" }, { .path = FAILPAGE "/verbose" },
	{ .path = FAILPAGE "/probability" }, { .path = FAILPAGE "/interval" },
	{ .path = FAILPAGE "/times" }, { .path = FAILPAGE "/space" },
	{ .path = FAILPAGE "/task-filter" },
};
#define FI_NKNOBS	(sizeof(fi_knobs) / sizeof(fi_knobs[0]))

static int write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -EIO;
}

static int read_str(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* Runs in the main process before any test: remember the settings. */
static void __attribute__((constructor)) fi_knobs_save(void)
{
	size_t i;

	for (i = 0; i < FI_NKNOBS; i++)
		fi_knobs[i].have = !read_str(fi_knobs[i].path, fi_knobs[i].saved,
					     sizeof(fi_knobs[i].saved));
}

static void fi_knobs_restore(void)
{
	size_t i;

	for (i = 0; i < FI_NKNOBS; i++)
		if (fi_knobs[i].have)
			write_str(fi_knobs[i].path, fi_knobs[i].saved);
}

/*
 * Also when the program ends: a test killed by the harness's timeout runs
 * no teardown, but the main process still returns from main().
 */
static void __attribute__((destructor)) fi_knobs_restore_at_exit(void)
{
	fi_knobs_restore();
}

/*
 * fail-nth counts every failslab and fail_page_alloc point of this thread;
 * nothing fails at random (probability 0). Quiet, because thousands of
 * failures are injected.
 */
static int fi_configure(void)
{
	static const char *const set[][2] = {
		{ FAILSLAB "/ignore-gfp-wait", "N" }, { FAILSLAB "/verbose", "0" },
		{ FAILSLAB "/probability", "0" }, { FAILSLAB "/task-filter", "N" },
		{ FAILSLAB "/space", "0" },
		{ FAILPAGE "/ignore-gfp-wait", "N" },
		{ FAILPAGE "/ignore-gfp-highmem", "N" },
		{ FAILPAGE "/min-order", "0" }, { FAILPAGE "/verbose", "0" },
		{ FAILPAGE "/probability", "0" }, { FAILPAGE "/task-filter", "N" },
		{ FAILPAGE "/space", "0" },
	};
	size_t i;
	int ret;

	for (i = 0; i < sizeof(set) / sizeof(set[0]); i++) {
		ret = write_str(set[i][0], set[i][1]);
		if (ret)
			return ret;
	}
	return 0;
}

/* --------------------------------------------------------- fail-nth -- */

static int fi_nth_fd = -1;

/* Make the n-th fault-injection point of this thread fail. */
static inline void fi_arm(unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	if (pwrite(fi_nth_fd, buf, len, 0) != len)
		abort();
}

/*
 * Stop injecting; returns what was left of n: 0 when the failure was
 * injected, non-zero when the call passed fewer than n points.
 */
static inline unsigned int fi_disarm(void)
{
	char buf[16];
	ssize_t len = pread(fi_nth_fd, buf, sizeof(buf) - 1, 0);

	if (len <= 0 || pwrite(fi_nth_fd, "0", 1, 0) != 1)
		abort();
	buf[len] = '\0';
	return (unsigned int)strtoul(buf, NULL, 10);
}

/* ----------------------------------------------------- small helpers -- */

/* One attempt, no retry: what the call under test uses. */
static int raw(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

static int bo_new(int fd, uint64_t size, uint32_t placement, uint32_t flags,
		  uint32_t *handle, uint64_t *va)
{
	struct drm_vnpu_bo_create c = { .size = size, .placement = placement,
					.flags = flags };
	int ret = xioctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &c);

	if (!ret) {
		*handle = c.handle;
		if (va)
			*va = c.va;
	}
	return ret;
}

static int h2d(int fd, uint64_t va, const void *p, uint64_t n)
{
	struct drm_vnpu_memcpy m = { .dst = va, .src = (uintptr_t)p, .size = n,
				     .flags = DRM_VNPU_MEMCPY_DST_DEVICE };

	return xioctl(fd, DRM_IOCTL_VNPU_MEMCPY, &m);
}

static int d2h(int fd, void *p, uint64_t va, uint64_t n)
{
	struct drm_vnpu_memcpy m = { .dst = (uintptr_t)p, .src = va, .size = n,
				     .flags = DRM_VNPU_MEMCPY_SRC_DEVICE };

	return xioctl(fd, DRM_IOCTL_VNPU_MEMCPY, &m);
}

static int queue_new(int fd, uint32_t *id, uint32_t *sync)
{
	struct drm_vnpu_queue_create qc = { .priority = DRM_VNPU_PRIORITY_NORMAL };
	int ret = xioctl(fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &qc);

	if (!ret) {
		*id = qc.queue_id;
		if (sync)
			*sync = qc.syncobj;
	}
	return ret;
}

static int queue_destroy(int fd, uint32_t id)
{
	struct drm_vnpu_queue_destroy qd = { .queue_id = id };

	return xioctl(fd, DRM_IOCTL_VNPU_QUEUE_DESTROY, &qd);
}

static int submit_tasks(int fd, uint32_t q, const struct drm_vnpu_task *t,
			uint32_t n, uint64_t *seq)
{
	struct drm_vnpu_submit s = { .queue_id = q, .tasks = (uintptr_t)t,
				     .task_count = n, .task_stride = sizeof(*t) };
	int ret = xioctl(fd, DRM_IOCTL_VNPU_SUBMIT, &s);

	if (!ret && seq)
		*seq = s.seq;
	return ret;
}

static int syncobj_new(int fd, uint32_t flags, uint32_t *handle)
{
	struct drm_syncobj_create c = { .flags = flags };
	int ret = xioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c);

	if (!ret)
		*handle = c.handle;
	return ret;
}

/* Wait for (handle, point) (point 0: a binary syncobj) until the deadline. */
static int wait_point(int fd, uint32_t handle, uint64_t point, uint64_t ms,
		      uint32_t flags)
{
	struct drm_syncobj_timeline_wait w = {
		.handles = (uintptr_t)&handle, .points = (uintptr_t)&point,
		.timeout_nsec = ms ? (int64_t)(now_ns() + ms * NS_PER_MS) : 0,
		.count_handles = 1, .flags = flags,
	};

	return xioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w);
}

/* The last submitted point of a timeline, or ~0 when the query fails. */
static uint64_t last_submitted(int fd, uint32_t handle)
{
	uint64_t point = ~0ULL;
	struct drm_syncobj_timeline_array a = {
		.handles = (uintptr_t)&handle, .points = (uintptr_t)&point,
		.count_handles = 1,
		.flags = DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED,
	};

	if (xioctl(fd, DRM_IOCTL_SYNCOBJ_QUERY, &a))
		return ~0ULL;
	return point;
}

/* Does a binary syncobj have a fence at all? (-EINVAL: none.) */
static int binary_state(int fd, uint32_t handle)
{
	struct drm_syncobj_wait w = { .handles = (uintptr_t)&handle,
				      .count_handles = 1 };

	return xioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w);
}

static int job_status(int fd, uint32_t q, uint64_t seq,
		      struct drm_vnpu_job_status *st)
{
	memset(st, 0, sizeof(*st));
	st->queue_id = q;
	st->seq = seq;
	return xioctl(fd, DRM_IOCTL_VNPU_JOB_STATUS, st);
}

/*
 * A job that ran out of memory on its engine: ABORTED with -ENOMEM and
 * nothing else wrong. Only where the engine allocates (e->engine_allocates).
 */
static bool job_aborted_enomem(int fd, uint32_t q, uint64_t seq)
{
	struct drm_vnpu_job_status st;

	return !job_status(fd, q, seq, &st) && st.state == DRM_VNPU_JOB_ABORTED &&
	       st.error == -ENOMEM;
}

/* Wait for job seq of queue q (timeline sync); its state or -errno. */
static int job_wait(int fd, uint32_t q, uint32_t sync, uint64_t seq)
{
	struct drm_vnpu_job_status st;
	int ret;

	ret = wait_point(fd, sync, seq, WAIT_MS, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL);
	if (ret)
		return ret;
	ret = job_status(fd, q, seq, &st);
	return ret ? ret : (int)st.state;
}

static int prime_export(int fd, uint32_t handle, int *dmabuf)
{
	struct drm_prime_handle p = { .handle = handle,
				      .flags = DRM_CLOEXEC | DRM_RDWR, .fd = -1 };
	int ret = xioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p);

	if (!ret)
		*dmabuf = p.fd;
	return ret;
}

static int prime_import(int fd, int dmabuf, uint32_t *handle)
{
	struct drm_prime_handle p = { .fd = dmabuf };
	int ret = xioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p);

	if (!ret)
		*handle = p.handle;
	return ret;
}

static int vm_reserve(int fd, uint64_t size, uint64_t align, uint64_t *va)
{
	struct drm_vnpu_vm_reserve r = { .size = size, .align = align };
	int ret = xioctl(fd, DRM_IOCTL_VNPU_VM_RESERVE, &r);

	if (!ret)
		*va = r.va;
	return ret;
}

static int vm_map(int fd, uint64_t va, uint64_t size, uint32_t handle)
{
	struct drm_vnpu_vm_map m = { .va = va, .size = size, .handle = handle };

	return xioctl(fd, DRM_IOCTL_VNPU_VM_MAP, &m);
}

static int vm_unmap(int fd, uint64_t va, uint64_t size)
{
	struct drm_vnpu_vm_unmap u = { .va = va, .size = size };

	return xioctl(fd, DRM_IOCTL_VNPU_VM_UNMAP, &u);
}

static int vm_release(int fd, uint64_t va)
{
	struct drm_vnpu_vm_release r = { .va = va };

	return xioctl(fd, DRM_IOCTL_VNPU_VM_RELEASE, &r);
}

static struct drm_vnpu_task t_nop(void)
{
	return (struct drm_vnpu_task){ .type = DRM_VNPU_TASK_NOP };
}

static struct drm_vnpu_task t_copy(uint64_t src, uint64_t dst, uint64_t n)
{
	return (struct drm_vnpu_task){ .type = DRM_VNPU_TASK_COPY,
		.copy = { .src = src, .dst = dst, .size = n } };
}

static struct drm_vnpu_task t_fill(uint64_t dst, uint64_t n, uint32_t pattern)
{
	return (struct drm_vnpu_task){ .type = DRM_VNPU_TASK_FILL,
		.fill = { .dst = dst, .size = n, .pattern = pattern,
			  .pattern_size = 4 } };
}

/* Argument block of an elementwise float add of NFLOAT elements. */
struct add_args {
	struct drm_vnpu_kernel_args ka;
	struct drm_vnpu_tensor t[3];
};

static void add_args_init(struct add_args *a, uint64_t va, uint64_t vb,
			  uint64_t vout)
{
	uint64_t vas[3] = { va, vb, vout };
	int i;

	memset(a, 0, sizeof(*a));
	a->ka.num_inputs = 2;
	a->ka.num_outputs = 1;
	for (i = 0; i < 3; i++) {
		a->t[i].va = vas[i];
		a->t[i].dtype = DRM_VNPU_DTYPE_FLOAT;
		a->t[i].rank = 1;
		a->t[i].shape[0] = NFLOAT;
		a->t[i].strides[0] = 1;
	}
}

static struct drm_vnpu_task t_add(uint32_t args_offset)
{
	return (struct drm_vnpu_task){ .type = DRM_VNPU_TASK_KERNEL,
		.kernel = { .op = DRM_VNPU_OP_ADD, .args_offset = args_offset,
			    .args_size = sizeof(struct add_args) } };
}

/* Entries of /proc/self/fd (the directory's own fd included). */
static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

/* VmPin of this process in kB (registered user memory), or -1. */
static long vm_pinned_kb(void)
{
	char line[256];
	long v = -1;
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmPin:", 6))
			v = strtol(line + 6, NULL, 10);
	fclose(f);
	return v;
}

/* Queues of this process on the device of node, from debugfs. */
static int debugfs_queues(const char *node)
{
	char dir[256], path[320], line[256];
	int n = 0, pid;
	FILE *f;

	if (vnpu_debugfs_dir(node, dir, sizeof(dir)))
		return -1;
	snprintf(path, sizeof(path), "%s/queues", dir);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%d", &pid) == 1 && pid == getpid())
			n++;
	fclose(f);
	return n;
}

/* --------------------------------------------------------- the state -- */

/* Counters that must come back once a run's files are closed. */
struct fi_counts {
	uint64_t bos, mem, host;	/* device 0: objects, memory, host pool */
	uint64_t bos2, mem2;		/* device 1, when there is one */
	long long jobs, files;		/* debugfs: jobs alive, open files */
	int fds;
	long pinned;
};

struct fi_env {
	/* For the whole test. */
	char node[64], node2[64];	/* node2: a second device or "" */
	int mon, mon2;			/* files kept open to read counters */
	struct fi_counts base;
	bool warm;			/* this run is the one without injection */

	/* One run: what setup made and the call uses. */
	int fd, fd2, dmabuf;
	uint32_t q, qsync, q2, q2sync;
	uint32_t h[4];
	uint64_t va[4];
	uint32_t sync[4];
	uint32_t cmdbuf;
	uint64_t resv;
	uint8_t *map;			/* mmap of a HOST object (a gate) */
	void *ubuf;			/* mmap for PLACEMENT_USER */
	struct io_uring ring;
	bool ring_up;
	uint32_t placement, bo_flags;
	int expect;			/* the call's result without injection */
	union {
		struct drm_vnpu_get_param gp;
		struct drm_vnpu_fault_info fi;
		struct drm_vnpu_bo_create bc;
		struct drm_vnpu_bo_info bi;
		struct drm_vnpu_memcpy mc;
		struct drm_vnpu_queue_create qc;
		struct drm_vnpu_queue_destroy qd;
		struct drm_vnpu_submit s;
		struct drm_vnpu_job_status js;
		struct drm_vnpu_cmdbuf_create cc;
		struct drm_vnpu_cmdbuf_destroy cd;
		struct drm_vnpu_vm_reserve vr;
		struct drm_vnpu_vm_release vrl;
		struct drm_vnpu_vm_map vm;
		struct drm_vnpu_vm_unmap vu;
		struct drm_prime_handle ph;
		struct drm_syncobj_create sc;
		struct drm_syncobj_destroy sd;
		struct drm_syncobj_timeline_array sq;
		struct drm_syncobj_timeline_wait sw;
		struct drm_syncobj_transfer st;
	} a;
	/* What a SUBMIT carries (tasks with a stride of up to 128 bytes). */
	uint8_t tasks[128 * 80];
	struct add_args args;
	uint64_t table[2];
	struct drm_vnpu_sync in[2], out[2];
	uint32_t wait_handles[2];
	uint64_t wait_points[2], query_point;
	/* What a SUBMIT is checked with. */
	int nout;			/* out-syncs: sync[1] binary, sync[2] timeline */
	bool engine_allocates;		/* the job may end ABORTED, -ENOMEM */
	void (*verify)(struct __test_metadata *_metadata, struct fi_env *e,
		       bool done);
	/* Learnt in the run without injection. */
	uint64_t expect_va;
};

static struct fi_env E;

/* Host buffers, written in the test's own process before any injection. */
static uint8_t pat[COPY_SIZE], rd[COPY_SIZE], zero[COPY_SIZE];
static float fa[NFLOAT], fb[NFLOAT], fo[NFLOAT];

static void fi_counts_read(struct fi_env *e, struct fi_counts *c)
{
	c->bos = param(e->mon, DRM_VNPU_PARAM_BO_COUNT);
	c->mem = param(e->mon, DRM_VNPU_PARAM_MEM_USED);
	c->host = param(e->mon, DRM_VNPU_PARAM_HOST_MEM_USED);
	c->bos2 = e->mon2 >= 0 ? param(e->mon2, DRM_VNPU_PARAM_BO_COUNT) : 0;
	c->mem2 = e->mon2 >= 0 ? param(e->mon2, DRM_VNPU_PARAM_MEM_USED) : 0;
	c->jobs = vnpu_debugfs_value(e->node, "stats", "jobs_alive");
	c->files = vnpu_debugfs_value(e->node, "info", "open_files");
	c->fds = count_fds();
	c->pinned = vm_pinned_kb();
}

static bool fi_counts_equal(const struct fi_counts *a, const struct fi_counts *b)
{
	return a->bos == b->bos && a->mem == b->mem && a->host == b->host &&
	       a->bos2 == b->bos2 && a->mem2 == b->mem2 &&
	       a->jobs == b->jobs && a->files == b->files &&
	       a->fds == b->fds && a->pinned == b->pinned;
}

/* A fresh run: a new file on the first device, nothing else. */
static void run_begin(struct __test_metadata *_metadata, struct fi_env *e)
{
	e->fd = open(e->node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(e->fd, 0) TH_LOG("open %s: %s", e->node, strerror(errno));
	e->fd2 = -1;
	e->dmabuf = -1;
	e->ring_up = false;
	e->map = NULL;
	e->ubuf = NULL;
	e->nout = 0;
	e->engine_allocates = false;
	e->verify = NULL;
	e->expect = 0;
	e->q = e->qsync = e->q2 = e->q2sync = 0;
	e->cmdbuf = 0;
	e->resv = 0;
	memset(&e->a, 0, sizeof(e->a));
	memset(e->h, 0, sizeof(e->h));
	memset(e->va, 0, sizeof(e->va));
	memset(e->sync, 0, sizeof(e->sync));
}

/*
 * End a run: close what it opened and wait (briefly: jobs are freed by
 * the scheduler after they signal) until the device's counters, debugfs,
 * the open fds and pinned memory are back where the test started.
 */
static void run_end(struct __test_metadata *_metadata, struct fi_env *e)
{
	struct fi_counts now;
	uint64_t end;

	if (e->ring_up)
		io_uring_queue_exit(&e->ring);
	e->ring_up = false;
	if (e->map)
		munmap(e->map, 4096);
	e->map = NULL;
	if (e->ubuf)
		munmap(e->ubuf, SZ_64K);
	e->ubuf = NULL;
	if (e->dmabuf >= 0)
		close(e->dmabuf);
	if (e->fd2 >= 0)
		close(e->fd2);
	if (e->fd >= 0)
		close(e->fd);
	e->fd = e->fd2 = e->dmabuf = -1;

	end = now_ns() + 10000 * NS_PER_MS;
	for (;;) {
		fi_counts_read(e, &now);
		if (fi_counts_equal(&now, &e->base) || now_ns() > end)
			break;
		usleep(2000);
	}
	EXPECT_EQ(e->base.bos, now.bos) TH_LOG("objects left on the device");
	EXPECT_EQ(e->base.mem, now.mem) TH_LOG("device memory left in use");
	EXPECT_EQ(e->base.host, now.host) TH_LOG("host pool left in use");
	EXPECT_EQ(e->base.bos2, now.bos2) TH_LOG("objects left on device 1");
	EXPECT_EQ(e->base.mem2, now.mem2) TH_LOG("memory left in use on device 1");
	EXPECT_EQ(e->base.jobs, now.jobs) TH_LOG("jobs left alive");
	EXPECT_EQ(e->base.files, now.files) TH_LOG("files left open");
	EXPECT_EQ(e->base.fds, now.fds) TH_LOG("file descriptors left open");
	EXPECT_EQ(e->base.pinned, now.pinned) TH_LOG("user pages left pinned");
}

/* The file still works: a NOP job on a new queue completes OK. */
static void device_works(struct __test_metadata *_metadata, int fd)
{
	struct drm_vnpu_task t = t_nop();
	uint32_t q, sync;
	uint64_t seq = 0;

	ASSERT_EQ(0, queue_new(fd, &q, &sync));
	ASSERT_EQ(0, submit_tasks(fd, q, &t, 1, &seq));
	ASSERT_EQ(DRM_VNPU_JOB_OK, job_wait(fd, q, sync, seq));
	ASSERT_EQ(0, queue_destroy(fd, q));
}

/*
 * Jobs are freed by the scheduler a little after they signal: wait until
 * the device has no more job alive than when the test started.
 */
static void jobs_settle(struct __test_metadata *_metadata, struct fi_env *e)
{
	uint64_t end = now_ns() + 10000 * NS_PER_MS;
	long long n;

	while ((n = vnpu_debugfs_value(e->node, "stats", "jobs_alive")) !=
	       e->base.jobs && now_ns() < end)
		usleep(1000);
	ASSERT_EQ(e->base.jobs, n);
}

/* ------------------------------------------------------ the loop ------ */

/*
 * One operation: setup makes fresh state without injection, call is the
 * single system call under test (nothing else runs while a failure is
 * armed), check judges the result and returns whether the operation
 * failed (then the state must be unchanged, which check verifies).
 */
struct fi_op {
	const char *name;
	void (*setup)(struct __test_metadata *_metadata, struct fi_env *e);
	int (*call)(struct fi_env *e);
	bool (*check)(struct __test_metadata *_metadata, struct fi_env *e,
		      int ret);
	/* Points the call must pass at least (it allocates for sure). */
	unsigned int min_points;
};

static void fi_run(struct __test_metadata *_metadata, struct fi_env *e,
		   const struct fi_op *op)
{
	unsigned int n, left = 0, failed = 0, absorbed = 0;
	uint64_t t0 = now_ns();
	bool fail;
	int ret;

	/*
	 * The run without injection: the operation works, its expected
	 * results are learnt, and the code and stack pages the armed region
	 * touches are present (a page fault there would be an injection
	 * point of its own).
	 */
	e->warm = true;
	op->setup(_metadata, e);
	ret = op->call(e);
	fail = op->check(_metadata, e, ret);
	ASSERT_FALSE(fail) TH_LOG("%s: fails without injection: %d", op->name, ret);
	run_end(_metadata, e);
	e->warm = false;

	for (n = 1; n <= FI_MAX_N; n++) {
		op->setup(_metadata, e);
		fi_arm(n);
		ret = op->call(e);
		left = fi_disarm();
		fail = op->check(_metadata, e, ret);
		if (fail) {
			failed++;
			EXPECT_EQ(0, left)
				TH_LOG("%s: failed (%d) without an injected failure (n %u)",
				       op->name, ret, n);
			device_works(_metadata, e->fd);
		} else if (!left) {
			absorbed++;
		}
		run_end(_metadata, e);
		if (_metadata->exit_code) {
			TH_LOG("%s: first problem at n = %u", op->name, n);
			break;
		}
		if (left)
			break;
	}
	ASSERT_LE(n, FI_MAX_N) TH_LOG("%s: still failing at n = %u", op->name, n);
	TH_LOG("%-26s %4u points: %4u failed cleanly, %4u absorbed (%llu ms)",
	       op->name, n - 1, failed, absorbed,
	       (unsigned long long)((now_ns() - t0) / NS_PER_MS));
	EXPECT_GE(n - 1, op->min_points)
		TH_LOG("%s: fewer injection points than it must have", op->name);
}

/* The errno of a failed call is -ENOMEM; anything else is reported. */
static bool failed_enomem(struct __test_metadata *_metadata,
			  const char *what, int ret)
{
	EXPECT_EQ(-ENOMEM, ret) TH_LOG("%s: unexpected result %d", what, ret);
	return true;
}

/* ------------------------------------------------------ the fixture -- */

FIXTURE(fi)
{
	int unused;
};

FIXTURE_SETUP(fi)
{
	char paths[VNPU_TEST_MAX_NODES][64];
	struct fi_env *e = &E;
	uint64_t end;
	int n, ret;

	if (access(FAIL_NTH, F_OK))
		SKIP(return, "no %s: the kernel has no CONFIG_FAULT_INJECTION (run under make check-debug)",
		     FAIL_NTH);
	if (geteuid())
		SKIP(return, "needs root for the fault-injection settings in debugfs");
	if (access(FAILSLAB "/ignore-gfp-wait", W_OK))
		SKIP(return, "no %s: needs CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_DEBUG_FS and debugfs mounted",
		     FAILSLAB);
	if (access(FAILPAGE "/min-order", W_OK))
		SKIP(return, "no %s: needs CONFIG_FAIL_PAGE_ALLOC", FAILPAGE);

	n = vnpu_list_nodes(paths, VNPU_TEST_MAX_NODES);
	ASSERT_GE(n, 1) TH_LOG("no /dev/accel node: is vnpu.ko loaded?");
	memset(e, 0, sizeof(*e));
	snprintf(e->node, sizeof(e->node), "%s", paths[0]);
	if (n > 1)
		snprintf(e->node2, sizeof(e->node2), "%s", paths[1]);
	e->fd = e->fd2 = e->dmabuf = e->mon2 = -1;
	e->mon = open(e->node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(e->mon, 0);
	if (e->node2[0]) {
		e->mon2 = open(e->node2, O_RDWR | O_CLOEXEC);
		ASSERT_GE(e->mon2, 0);
	}

	ret = fi_configure();
	ASSERT_EQ(0, ret) TH_LOG("writing the fault-injection settings: %d", ret);
	fi_nth_fd = open(FAIL_NTH, O_RDWR | O_CLOEXEC);
	ASSERT_GE(fi_nth_fd, 0);
	ASSERT_EQ(0, fi_disarm());

	/* Written here, so none of them is copy-on-write any more. */
	for (n = 0; n < (int)COPY_SIZE; n++)
		pat[n] = (uint8_t)(n * 7 + 3);
	memset(rd, 0xa5, sizeof(rd));
	memset(zero, 0, sizeof(zero));
	for (n = 0; n < (int)NFLOAT; n++) {
		fa[n] = (float)n;
		fb[n] = (float)(2 * n);
		fo[n] = -1.0f;
	}
	memset(&E.a, 0, sizeof(E.a));
	memset(E.tasks, 0, sizeof(E.tasks));
	/*
	 * The counters are device-wide: start from an idle device (suites
	 * run before this one in the same boot may still be winding down).
	 */
	end = now_ns() + 20000 * NS_PER_MS;
	while ((vnpu_debugfs_value(e->node, "stats", "jobs_alive") != 0 ||
		vnpu_debugfs_value(e->node, "info", "open_files") != 1) &&
	       now_ns() < end)
		usleep(10000);
	fi_counts_read(e, &e->base);
	if (e->base.jobs || e->base.files != 1)
		TH_LOG("note: device not idle (%lld jobs, %lld files open)",
		       e->base.jobs, e->base.files);
	ASSERT_GE(e->base.jobs, 0) TH_LOG("no debugfs stats for %s", e->node);
	ASSERT_GE(e->base.files, 1);
}

FIXTURE_TEARDOWN_PARENT(fi)
{
	/* This process forked the test: it has the settings of main(). */
	fi_knobs_restore();
}

/* --------------------------------------------- GET_PARAM, FAULT_INFO -- */

static void setup_plain(struct __test_metadata *_metadata, struct fi_env *e)
{
	run_begin(_metadata, e);
}

static int call_get_param(struct fi_env *e)
{
	e->a.gp.param = DRM_VNPU_PARAM_MEM_TOTAL;
	e->a.gp.value = POISON64;
	return raw(e->fd, DRM_IOCTL_VNPU_GET_PARAM, &e->a.gp);
}

static bool check_get_param(struct __test_metadata *_metadata, struct fi_env *e,
			    int ret)
{
	if (!ret) {
		EXPECT_EQ(param(e->mon, DRM_VNPU_PARAM_MEM_TOTAL), e->a.gp.value);
		return false;
	}
	EXPECT_EQ(POISON64, e->a.gp.value);
	return failed_enomem(_metadata, "get_param", ret);
}

static int call_fault_info(struct fi_env *e)
{
	e->a.fi.count = POISON64;
	return raw(e->fd, DRM_IOCTL_VNPU_FAULT_INFO, &e->a.fi);
}

static bool check_fault_info(struct __test_metadata *_metadata,
			     struct fi_env *e, int ret)
{
	if (!ret) {
		EXPECT_EQ(0, e->a.fi.count);
		return false;
	}
	EXPECT_EQ(POISON64, e->a.fi.count);
	return failed_enomem(_metadata, "fault_info", ret);
}

/* ------------------------------------------------- BO_CREATE, BO_INFO -- */

static void setup_bo_create(struct __test_metadata *_metadata, struct fi_env *e)
{
	run_begin(_metadata, e);
	if (e->placement == DRM_VNPU_PLACEMENT_USER) {
		e->ubuf = mmap(NULL, SZ_64K, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		ASSERT_NE(MAP_FAILED, e->ubuf);
		memset(e->ubuf, 0x3c, SZ_64K);	/* present and private */
	}
	e->a.bc.size = SZ_64K;
	e->a.bc.placement = e->placement;
	e->a.bc.flags = e->bo_flags;
	e->a.bc.user_ptr = (uintptr_t)e->ubuf;
	e->a.bc.handle = POISON32;
	e->a.bc.va = POISON64;
}

static int call_bo_create(struct fi_env *e)
{
	return raw(e->fd, DRM_IOCTL_VNPU_BO_CREATE, &e->a.bc);
}

/* What a 64 KiB object of the current kind adds to the counters. */
static void bo_expect(struct fi_env *e, struct fi_counts *c, int objects)
{
	*c = e->base;
	c->bos += objects;
	if (e->placement == DRM_VNPU_PLACEMENT_DEVICE)
		c->mem += objects * (uint64_t)SZ_64K;
	else if (e->placement == DRM_VNPU_PLACEMENT_HOST)
		c->host += objects * (uint64_t)SZ_64K;
	else
		c->pinned += objects * (SZ_64K >> 10);
}

static void bo_counts_are(struct __test_metadata *_metadata, struct fi_env *e,
			  int objects)
{
	struct fi_counts want, now;

	bo_expect(e, &want, objects);
	fi_counts_read(e, &now);
	EXPECT_EQ(want.bos, now.bos);
	EXPECT_EQ(want.mem, now.mem);
	EXPECT_EQ(want.host, now.host);
	EXPECT_EQ(want.pinned, now.pinned);
}

static bool check_bo_create(struct __test_metadata *_metadata, struct fi_env *e,
			    int ret)
{
	struct drm_vnpu_bo_create c;

	if (!ret) {
		/* The file's first handle, at the first VA of its range. */
		EXPECT_EQ(1, e->a.bc.handle);
		if (e->warm)
			e->expect_va = e->a.bc.va;
		EXPECT_EQ(e->expect_va, e->a.bc.va);
		EXPECT_EQ(e->bo_flags & DRM_VNPU_BO_NO_VA ? 0 : 1,
			  e->a.bc.va != 0);
		bo_counts_are(_metadata, e, 1);
		return false;
	}
	/*
	 * DEVICE and HOST objects live in a shmem file, and shmem reports a
	 * failed inode allocation as -ENOSPC (mm/shmem.c, __shmem_get_inode),
	 * which vnpu passes on. -ENOSPC is documented for BO_CREATE (no room
	 * left) and user space treats it as an allocation failure, so it is
	 * accepted here, with a note in the log.
	 */
	if (ret == -ENOSPC && e->placement != DRM_VNPU_PLACEMENT_USER)
		TH_LOG("note: bo_create failed with -ENOSPC (shmem inode)");
	else
		failed_enomem(_metadata, "bo_create", ret);
	EXPECT_EQ(POISON32, e->a.bc.handle);
	EXPECT_EQ(POISON64, e->a.bc.va);
	bo_counts_are(_metadata, e, 0);
	EXPECT_EQ(0, param(e->fd, DRM_VNPU_PARAM_FILE_MEM_USED));
	EXPECT_EQ(0, param(e->fd, DRM_VNPU_PARAM_FILE_HOST_USED));
	/* No handle or VA was kept: the next object gets the first ones. */
	c = e->a.bc;
	c.handle = 0;
	c.va = 0;
	ASSERT_EQ(0, xioctl(e->fd, DRM_IOCTL_VNPU_BO_CREATE, &c));
	EXPECT_EQ(1, c.handle);
	EXPECT_EQ(e->expect_va, c.va);
	bo_counts_are(_metadata, e, 1);
	return true;
}

static void setup_bo_info(struct __test_metadata *_metadata, struct fi_env *e)
{
	run_begin(_metadata, e);
	ASSERT_EQ(0, bo_new(e->fd, SZ_64K, DRM_VNPU_PLACEMENT_DEVICE, 0,
			    &e->h[0], &e->va[0]));
	e->a.bi.handle = e->h[0];
	e->a.bi.size = POISON64;
	e->a.bi.va = POISON64;
	e->a.bi.mmap_offset = POISON64;
	e->a.bi.flags = POISON32;
	e->a.bi.placement = POISON32;
}

static int call_bo_info(struct fi_env *e)
{
	return raw(e->fd, DRM_IOCTL_VNPU_BO_INFO, &e->a.bi);
}

static bool check_bo_info(struct __test_metadata *_metadata, struct fi_env *e,
			  int ret)
{
	struct drm_vnpu_bo_info bi = { .handle = e->h[0] };

	if (!ret) {
		EXPECT_EQ(SZ_64K, e->a.bi.size);
		EXPECT_EQ(e->va[0], e->a.bi.va);
		EXPECT_NE(0, e->a.bi.mmap_offset);
		EXPECT_EQ(DRM_VNPU_PLACEMENT_DEVICE, e->a.bi.placement);
		return false;
	}
	failed_enomem(_metadata, "bo_info", ret);
	EXPECT_EQ(POISON64, e->a.bi.size);
	EXPECT_EQ(POISON64, e->a.bi.va);
	EXPECT_EQ(POISON64, e->a.bi.mmap_offset);
	EXPECT_EQ(POISON32, e->a.bi.placement);
	ASSERT_EQ(0, xioctl(e->fd, DRM_IOCTL_VNPU_BO_INFO, &bi));
	EXPECT_NE(0, bi.mmap_offset);
	return true;
}

/* ----------------------------------------------------------- MEMCPY -- */

/*
 * Each copy reaches a device object that was never mapped into the
 * kernel, so the call populates and maps it (shmem pages, vmap).
 */
static void setup_memcpy(struct __test_metadata *_metadata, struct fi_env *e)
{
	run_begin(_metadata, e);
	ASSERT_EQ(0, bo_new(e->fd, SZ_64K, DRM_VNPU_PLACEMENT_DEVICE, 0,
			    &e->h[0], &e->va[0]));
	ASSERT_EQ(0, bo_new(e->fd, SZ_64K, DRM_VNPU_PLACEMENT_DEVICE, 0,
			    &e->h[1], &e->va[1]));
	memset(rd, 0xa5, sizeof(rd));
	e->a.mc.size = COPY_SIZE;
}

static void setup_h2d(struct __test_metadata *_metadata, struct fi_env *e)
{
	setup_memcpy(_metadata, e);
	e->a.mc.dst = e->va[0] + 0x100;
	e->a.mc.src = (uintptr_t)pat;
	e->a.mc.flags = DRM_VNPU_MEMCPY_DST_DEVICE;
}

static void setup_d2h(struct __test_metadata *_metadata, struct fi_env *e)
{
	setup_memcpy(_metadata, e);
	e->a.mc.dst = (uintptr_t)rd;
	e->a.mc.src = e->va[0] + 0x100;
	e->a.mc.flags = DRM_VNPU_MEMCPY_SRC_DEVICE;
}

static void setup_d2d(struct __test_metadata *_metadata, struct fi_env *e)
{
	setup_memcpy(_metadata, e);
	/* The source is mapped already; the destination is not. */
	ASSERT_EQ(0, h2d(e->fd, e->va[1], pat, COPY_SIZE));
	e->a.mc.dst = e->va[0] + 0x100;
	e->a.mc.src = e->va[1];
	e->a.mc.flags = DRM_VNPU_MEMCPY_DST_DEVICE | DRM_VNPU_MEMCPY_SRC_DEVICE;
}

static int call_memcpy(struct fi_env *e)
{
	return raw(e->fd, DRM_IOCTL_VNPU_MEMCPY, &e->a.mc);
}

/* The destination of a copy into va[0] + 0x100 holds want. */
static void dev_holds(struct __test_metadata *_metadata, struct fi_env *e,
		      uint64_t va, const void *want)
{
	static uint8_t got[COPY_SIZE];

	memset(got, 0xee, sizeof(got));
	ASSERT_EQ(0, d2h(e->fd, got, va, COPY_SIZE));
	EXPECT_EQ(0, memcmp(got, want, COPY_SIZE));
}

static bool check_to_device(struct __test_metadata *_metadata,
			    struct fi_env *e, int ret)
{
	if (!ret) {
		dev_holds(_metadata, e, e->va[0] + 0x100, pat);
		return false;
	}
	failed_enomem(_metadata, "memcpy to device", ret);
	/* Nothing was written; the same copy works now. */
	dev_holds(_metadata, e, e->va[0] + 0x100, zero);
	ASSERT_EQ(0, xioctl(e->fd, DRM_IOCTL_VNPU_MEMCPY, &e->a.mc));
	dev_holds(_metadata, e, e->va[0] + 0x100, pat);
	return true;
}

static bool check_d2h(struct __test_metadata *_metadata, struct fi_env *e,
		      int ret)
{
	uint8_t poison[COPY_SIZE];

	if (!ret) {
		EXPECT_EQ(0, memcmp(rd, zero, COPY_SIZE));
		return false;
	}
	failed_enomem(_metadata, "memcpy d2h", ret);
	memset(poison, 0xa5, sizeof(poison));
	EXPECT_EQ(0, memcmp(rd, poison, COPY_SIZE)) TH_LOG("host buffer written");
	ASSERT_EQ(0, xioctl(e->fd, DRM_IOCTL_VNPU_MEMCPY, &e->a.mc));
	EXPECT_EQ(0, memcmp(rd, zero, COPY_SIZE));
	return true;
}

/*
 * Across two adjacent mappings the MMU builds a window (page array,
 * pins, vmap) on the calling thread, so MEMCPY reaches those allocations.
 */
static void setup_memcpy_seam(struct __test_metadata *_metadata,
			      struct fi_env *e)
{
	run_begin(_metadata, e);
	ASSERT_EQ(0, vm_reserve(e->fd, 4 * SZ_64K, 0, &e->resv));
	ASSERT_EQ(0, bo_new(e->fd, SZ_64K, DRM_VNPU_PLACEMENT_DEVICE,
			    DRM_VNPU_BO_NO_VA, &e->h[0], NULL));
	ASSERT_EQ(0, bo_new(e->fd, SZ_64K, DRM_VNPU_PLACEMENT_DEVICE,
			    DRM_VNPU_BO_NO_VA, &e->h[1], NULL));
	ASSERT_EQ(0, vm_map(e->fd, e->resv, SZ_64K, e->h[0]));
	ASSERT_EQ(0, vm_map(e->fd, e->resv + SZ_64K, SZ_64K, e->h[1]));
	e->a.mc.dst = e->resv + SZ_64K - COPY_SIZE / 2;
	e->a.mc.src = (uintptr_t)pat;
	e->a.mc.size = COPY_SIZE;
	e->a.mc.flags = DRM_VNPU_MEMCPY_DST_DEVICE;
}

/* Read each side of the seam on its own (no window). */
static void seam_holds(struct __test_metadata *_metadata, struct fi_env *e,
		       const uint8_t *want)
{
	static uint8_t got[COPY_SIZE];

	memset(got, 0xee, sizeof(got));
	ASSERT_EQ(0, d2h(e->fd, got, e->resv + SZ_64K - COPY_SIZE / 2,
			 COPY_SIZE / 2));
	ASSERT_EQ(0, d2h(e->fd, got + COPY_SIZE / 2, e->resv + SZ_64K,
			 COPY_SIZE / 2));
	EXPECT_EQ(0, memcmp(got, want, COPY_SIZE));
}

static bool check_memcpy_seam(struct __test_metadata *_metadata,
			      struct fi_env *e, int ret)
{
	if (!ret) {
		seam_holds(_metadata, e, pat);
		return false;
	}
	failed_enomem(_metadata, "memcpy across mappings", ret);
	seam_holds(_metadata, e, zero);
	ASSERT_EQ(0, xioctl(e->fd, DRM_IOCTL_VNPU_MEMCPY, &e->a.mc));
	seam_holds(_metadata, e, pat);
	return true;
}

/* ------------------------------------------------------------ queues -- */

static void setup_queue_create(struct __test_metadata *_metadata,
			       struct fi_env *e)
{
	run_begin(_metadata, e);
	e->a.qc.priority = DRM_VNPU_PRIORITY_NORMAL;
	e->a.qc.queue_id = POISON32;
	e->a.qc.syncobj = POISON32;
}

static int call_queue_create(struct fi_env *e)
{
	return raw(e->fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &e->a.qc);
}

static bool check_queue_create(struct __test_metadata *_metadata,
			       struct fi_env *e, int ret)
{
	struct drm_vnpu_task t = t_nop();
	uint32_t q = 0, sync = 0;
	uint64_t seq = 0;

	if (!ret) {
		EXPECT_EQ(1, e->a.qc.queue_id);
		EXPECT_EQ(1, e->a.qc.syncobj);
		EXPECT_EQ(1, debugfs_queues(e->node));
		ASSERT_EQ(0, submit_tasks(e->fd, e->a.qc.queue_id, &t, 1, &seq));
		EXPECT_EQ(DRM_VNPU_JOB_OK,
			  job_wait(e->fd, e->a.qc.queue_id, e->a.qc.syncobj, seq));
		return false;
	}
	failed_enomem(_metadata, "queue_create", ret);
	EXPECT_EQ(POISON32, e->a.qc.queue_id);
	EXPECT_EQ(POISON32, e->a.qc.syncobj);
	EXPECT_EQ(0, debugfs_queues(e->node));
	/* Neither the id nor a syncobj handle was kept. */
	ASSERT_EQ(0, queue_new(e->fd, &q, &sync));
	EXPECT_EQ(1, q);
	EXPECT_EQ(1, sync);
	EXPECT_EQ(1, debugfs_queues(e->node));
	ASSERT_EQ(0, queue_destroy(e->fd, q));
	return true;
}

static void setup_queue_with_job(struct __test_metadata *_metadata,
				 struct fi_env *e)
{
	struct drm_vnpu_task t = t_nop();
	uint64_t seq = 0;

	run_begin(_metadata, e);
	ASSERT_EQ(0, queue_new(e->fd, &e->q, &e->qsync));
	ASSERT_EQ(0, submit_tasks(e->fd, e->q, &t, 1, &seq));
	ASSERT_EQ(DRM_VNPU_JOB_OK, job_wait(e->fd, e->q, e->qsync, seq));
	e->a.qd.queue_id = e->q;
	e->a.js.queue_id = e->q;
}

static int call_queue_destroy(struct fi_env *e)
{
	return raw(e->fd, DRM_IOCTL_VNPU_QUEUE_DESTROY, &e->a.qd);
}

static bool check_queue_destroy(struct __test_metadata *_metadata,
				struct fi_env *e, int ret)
{
	struct drm_vnpu_job_status st;

	if (!ret) {
		EXPECT_EQ(0, debugfs_queues(e->node));
		EXPECT_EQ(-ENOENT, job_status(e->fd, e->q, 1, &st));
		return false;
	}
	failed_enomem(_metadata, "queue_destroy", ret);
	EXPECT_EQ(1, debugfs_queues(e->node));
	EXPECT_EQ(0, job_status(e->fd, e->q, 1, &st));
	EXPECT_EQ(0, queue_destroy(e->fd, e->q));
	return true;
}

/* A queue in its error state: its only job faulted. */
static void setup_queue_reset(struct __test_metadata *_metadata,
			      struct fi_env *e)
{
	struct drm_vnpu_task t;
	uint64_t seq = 0;

	run_begin(_metadata, e);
	ASSERT_EQ(0, bo_new(e->fd, 4096, DRM_VNPU_PLACEMENT_DEVICE, 0,
			    &e->h[0], &e->va[0]));
	ASSERT_EQ(0, queue_new(e->fd, &e->q, &e->qsync));
	t = t_copy(UNMAPPED_VA, e->va[0], 64);
	ASSERT_EQ(0, submit_tasks(e->fd, e->q, &t, 1, &seq));
	ASSERT_EQ(DRM_VNPU_JOB_FAULT, job_wait(e->fd, e->q, e->qsync, seq));
	t = t_nop();
	ASSERT_EQ(-EBADFD, submit_tasks(e->fd, e->q, &t, 1, NULL));
	e->a.qd.queue_id = e->q;
}

static int call_queue_reset(struct fi_env *e)
{
	return raw(e->fd, DRM_IOCTL_VNPU_QUEUE_RESET, &e->a.qd);
}

static bool check_queue_reset(struct __test_metadata *_metadata,
			      struct fi_env *e, int ret)
{
	struct drm_vnpu_task t = t_nop();
	uint64_t seq = 0;

	if (!ret) {
		ASSERT_EQ(0, submit_tasks(e->fd, e->q, &t, 1, &seq));
		EXPECT_EQ(2, seq);
		EXPECT_EQ(DRM_VNPU_JOB_OK, job_wait(e->fd, e->q, e->qsync, seq));
		return false;
	}
	failed_enomem(_metadata, "queue_reset", ret);
	EXPECT_EQ(-EBADFD, submit_tasks(e->fd, e->q, &t, 1, NULL));
	ASSERT_EQ(0, xioctl(e->fd, DRM_IOCTL_VNPU_QUEUE_RESET, &e->a.qd));
	ASSERT_EQ(0, submit_tasks(e->fd, e->q, &t, 1, &seq));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_wait(e->fd, e->q, e->qsync, seq));
	return true;
}

static int call_job_status(struct fi_env *e)
{
	e->a.js.queue_id = e->q;
	e->a.js.seq = 1;
	e->a.js.state = POISON32;
	e->a.js.fault_va = POISON64;
	return raw(e->fd, DRM_IOCTL_VNPU_JOB_STATUS, &e->a.js);
}

static bool check_job_status(struct __test_metadata *_metadata,
			     struct fi_env *e, int ret)
{
	if (!ret) {
		EXPECT_EQ(DRM_VNPU_JOB_OK, e->a.js.state);
		EXPECT_EQ(0, e->a.js.fault_va);
		return false;
	}
	failed_enomem(_metadata, "job_status", ret);
	EXPECT_EQ(POISON32, e->a.js.state);
	EXPECT_EQ(POISON64, e->a.js.fault_va);
	return true;
}

/* ------------------------------------------------------------ SUBMIT -- */

/*
 * SUBMIT runs: e->a.s is the request (queue e->q), e->verify checks the
 * data its job writes (done: it ran; else nothing may have been written),
 * e->nout out-syncs were asked for (sync[1] binary, sync[2] timeline
 * point 5).
 */
static int call_submit(struct fi_env *e)
{
	return raw(e->fd, DRM_IOCTL_VNPU_SUBMIT, &e->a.s);
}

static void submit_prepare(struct fi_env *e, uint32_t ntasks, uint32_t stride)
{
	e->a.s.queue_id = e->q;
	e->a.s.tasks = (uintptr_t)e->tasks;
	e->a.s.task_count = ntasks;
	e->a.s.task_stride = stride;
	e->a.s.seq = POISON64;
}

static void put_task(struct fi_env *e, uint32_t i, uint32_t stride,
		     struct drm_vnpu_task t)
{
	memcpy(e->tasks + (size_t)i * stride, &t, sizeof(t));
}

static bool check_submit(struct __test_metadata *_metadata, struct fi_env *e,
			 int ret)
{
	struct drm_vnpu_job_status st;
	struct drm_vnpu_submit s;
	int state;

	if (!ret) {
		EXPECT_EQ(1, e->a.s.seq);
		state = job_wait(e->fd, e->q, e->qsync, e->a.s.seq);
		if (e->engine_allocates &&
		    job_aborted_enomem(e->fd, e->q, e->a.s.seq)) {
			TH_LOG("note: the job ran out of memory on its engine");
			return false;
		}
		EXPECT_EQ(DRM_VNPU_JOB_OK, state);
		if (state == DRM_VNPU_JOB_OK && e->verify)
			e->verify(_metadata, e, true);
		if (e->nout) {
			EXPECT_EQ(0, wait_point(e->fd, e->sync[1], 0, WAIT_MS,
						DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL));
			EXPECT_EQ(0, wait_point(e->fd, e->sync[2], 5, WAIT_MS,
						DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL));
		}
		return false;
	}
	failed_enomem(_metadata, "submit", ret);
	/* No job: no sequence number, timeline point, signal or data. */
	EXPECT_EQ(POISON64, e->a.s.seq);
	EXPECT_EQ(0, last_submitted(e->fd, e->qsync));
	EXPECT_EQ(-EINVAL, job_status(e->fd, e->q, 1, &st));
	EXPECT_EQ(e->base.jobs, vnpu_debugfs_value(e->node, "stats", "jobs_alive"));
	if (e->nout) {
		EXPECT_EQ(-EINVAL, binary_state(e->fd, e->sync[1]));
		EXPECT_EQ(0, last_submitted(e->fd, e->sync[2]));
	}
	if (e->verify)
		e->verify(_metadata, e, false);
	/* The same request goes through now, as the queue's first job. */
	s = e->a.s;
	s.seq = 0;
	ASSERT_EQ(0, xioctl(e->fd, DRM_IOCTL_VNPU_SUBMIT, &s));
	EXPECT_EQ(1, s.seq);
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_wait(e->fd, e->q, e->qsync, s.seq));
	if (e->verify)
		e->verify(_metadata, e, true);
	return true;
}

/* Objects: h[0]/va[0] source (pattern), h[1]/va[1] destination. */
static void setup_submit_common(struct __test_metadata *_metadata,
				struct fi_env *e)
{
	run_begin(_metadata, e);
	ASSERT_EQ(0, queue_new(e->fd, &e->q, &e->qsync));
	ASSERT_EQ(0, bo_new(e->fd, COPY_SIZE, DRM_VNPU_PLACEMENT_DEVICE, 0,
			    &e->h[0], &e->va[0]));
	ASSERT_EQ(0, bo_new(e->fd, COPY_SIZE, DRM_VNPU_PLACEMENT_DEVICE, 0,
			    &e->h[1], &e->va[1]));
	ASSERT_EQ(0, h2d(e->fd, e->va[0], pat, COPY_SIZE));
	ASSERT_EQ(0, h2d(e->fd, e->va[1], zero, COPY_SIZE));
	memset(e->tasks, 0, sizeof(e->tasks));
}

static void verify_copy(struct __test_metadata *_metadata, struct fi_env *e,
			bool done)
{
	dev_holds(_metadata, e, e->va[1], done ? pat : zero);
}

static void fill_expect(uint8_t *buf, uint32_t pattern)
{
	uint32_t i;

	for (i = 0; i < COPY_SIZE; i += 4)
		memcpy(buf + i, &pattern, 4);
}

static void verify_fill(struct __test_metadata *_metadata, struct fi_env *e,
			bool done)
{
	static uint8_t want[COPY_SIZE];

	fill_expect(want, 0xfeedf00d);
	dev_holds(_metadata, e, e->va[1], done ? want : zero);
}

/* a (va[2]) + b (va[3]) into out (va[0] area is the pattern, unused). */
static void add_objects(struct __test_metadata *_metadata, struct fi_env *e)
{
	ASSERT_EQ(0, bo_new(e->fd, NFLOAT * 4, DRM_VNPU_PLACEMENT_DEVICE, 0,
			    &e->h[2], &e->va[2]));
	ASSERT_EQ(0, bo_new(e->fd, 2 * NFLOAT * 4, DRM_VNPU_PLACEMENT_DEVICE, 0,
			    &e->h[3], &e->va[3]));
	ASSERT_EQ(0, h2d(e->fd, e->va[2], fa, sizeof(fa)));
	ASSERT_EQ(0, h2d(e->fd, e->va[3], fb, sizeof(fb)));
	ASSERT_EQ(0, h2d(e->fd, e->va[3] + NFLOAT * 4, fo, sizeof(fo)));
	add_args_init(&e->args, e->va[2], e->va[3], e->va[3] + NFLOAT * 4);
}

static void verify_add(struct __test_metadata *_metadata, struct fi_env *e,
		       bool done)
{
	float got[NFLOAT];
	uint32_t i, bad = 0;

	ASSERT_EQ(0, d2h(e->fd, got, e->va[3] + NFLOAT * 4, sizeof(got)));
	for (i = 0; i < NFLOAT; i++)
		bad += got[i] != (done ? fa[i] + fb[i] : fo[i]);
	EXPECT_EQ(0, bad);
}

static void verify_mixed(struct __test_metadata *_metadata, struct fi_env *e,
			 bool done)
{
	verify_fill(_metadata, e, done);
	verify_add(_metadata, e, done);
}

static void setup_submit_nop(struct __test_metadata *_metadata, struct fi_env *e)
{
	setup_submit_common(_metadata, e);
	put_task(e, 0, 64, t_nop());
	submit_prepare(e, 1, 64);
}

static void setup_submit_copy(struct __test_metadata *_metadata,
			      struct fi_env *e)
{
	setup_submit_common(_metadata, e);
	put_task(e, 0, 64, t_copy(e->va[0], e->va[1], COPY_SIZE));
	submit_prepare(e, 1, 64);
	e->verify = verify_copy;
}

static void setup_submit_fill(struct __test_metadata *_metadata,
			      struct fi_env *e)
{
	setup_submit_common(_metadata, e);
	put_task(e, 0, 64, t_fill(e->va[1], COPY_SIZE, 0xfeedf00d));
	submit_prepare(e, 1, 64);
	e->verify = verify_fill;
}

static void setup_submit_kernel(struct __test_metadata *_metadata,
				struct fi_env *e)
{
	setup_submit_common(_metadata, e);
	add_objects(_metadata, e);
	put_task(e, 0, 64, t_add(0));
	submit_prepare(e, 1, 64);
	e->a.s.args = (uintptr_t)&e->args;
	e->a.s.args_size = sizeof(e->args);
	e->verify = verify_add;
}

/*
 * 70 tasks with a 128-byte stride (the kernel reads them a chunk at a
 * time and keeps 4480 bytes, a cached buffer class), an argument block, two
 * in-syncs (a binary syncobj another queue's job signalled, and a point of
 * that queue's timeline) and two out-syncs (binary, timeline point 5).
 */
static void setup_submit_mixed(struct __test_metadata *_metadata,
			       struct fi_env *e)
{
	const uint32_t stride = 128, n = 70;
	struct drm_vnpu_submit s2 = { 0 };
	struct drm_vnpu_task t = t_nop();
	uint32_t i;

	setup_submit_common(_metadata, e);
	add_objects(_metadata, e);
	ASSERT_EQ(0, queue_new(e->fd, &e->q2, &e->q2sync));
	ASSERT_EQ(0, syncobj_new(e->fd, 0, &e->sync[0]));
	ASSERT_EQ(0, syncobj_new(e->fd, 0, &e->sync[1]));
	ASSERT_EQ(0, syncobj_new(e->fd, 0, &e->sync[2]));
	e->out[0] = (struct drm_vnpu_sync){ .handle = e->sync[0] };
	s2.queue_id = e->q2;
	s2.tasks = (uintptr_t)&t;
	s2.task_count = 1;
	s2.task_stride = sizeof(t);
	s2.out_syncs = (uintptr_t)&e->out[0];
	s2.out_sync_count = 1;
	ASSERT_EQ(0, xioctl(e->fd, DRM_IOCTL_VNPU_SUBMIT, &s2));
	ASSERT_EQ(DRM_VNPU_JOB_OK, job_wait(e->fd, e->q2, e->q2sync, s2.seq));
	jobs_settle(_metadata, e);

	for (i = 0; i < n; i++)
		put_task(e, i, stride, t_nop());
	put_task(e, 0, stride, t_fill(e->va[1], COPY_SIZE, 0xfeedf00d));
	put_task(e, 1, stride, t_add(0));
	put_task(e, n - 1, stride, t_fill(e->va[1], 4, 0xfeedf00d));
	submit_prepare(e, n, stride);
	e->a.s.args = (uintptr_t)&e->args;
	e->a.s.args_size = sizeof(e->args);
	e->in[0] = (struct drm_vnpu_sync){ .handle = e->sync[0] };
	e->in[1] = (struct drm_vnpu_sync){ .handle = e->q2sync, .point = 1 };
	e->out[0] = (struct drm_vnpu_sync){ .handle = e->sync[1] };
	e->out[1] = (struct drm_vnpu_sync){ .handle = e->sync[2], .point = 5 };
	e->a.s.in_syncs = (uintptr_t)e->in;
	e->a.s.in_sync_count = 2;
	e->a.s.out_syncs = (uintptr_t)e->out;
	e->a.s.out_sync_count = 2;
	e->nout = 2;
	e->verify = verify_mixed;
}

/*
 * A COPY whose source runs across two adjacent VM mappings: the engine
 * builds the window when the task runs, on its own thread, which
 * fail-nth of this thread does not reach. So only SUBMIT itself is
 * injected here; the job must then succeed, or fail cleanly (ABORTED with
 * -ENOMEM) should the engine run short of memory.
 */
static void setup_submit_seam_copy(struct __test_metadata *_metadata,
				   struct fi_env *e)
{
	setup_submit_common(_metadata, e);
	ASSERT_EQ(0, vm_reserve(e->fd, 4 * SZ_64K, 0, &e->resv));
	ASSERT_EQ(0, bo_new(e->fd, SZ_64K, DRM_VNPU_PLACEMENT_DEVICE,
			    DRM_VNPU_BO_NO_VA, &e->h[2], NULL));
	ASSERT_EQ(0, bo_new(e->fd, SZ_64K, DRM_VNPU_PLACEMENT_DEVICE,
			    DRM_VNPU_BO_NO_VA, &e->h[3], NULL));
	ASSERT_EQ(0, vm_map(e->fd, e->resv, SZ_64K, e->h[2]));
	ASSERT_EQ(0, vm_map(e->fd, e->resv + SZ_64K, SZ_64K, e->h[3]));
	ASSERT_EQ(0, h2d(e->fd, e->resv + SZ_64K - COPY_SIZE / 2, pat,
			 COPY_SIZE / 2));
	ASSERT_EQ(0, h2d(e->fd, e->resv + SZ_64K, pat + COPY_SIZE / 2,
			 COPY_SIZE / 2));
	put_task(e, 0, 64, t_copy(e->resv + SZ_64K - COPY_SIZE / 2, e->va[1],
				  COPY_SIZE));
	submit_prepare(e, 1, 64);
	e->verify = verify_copy;
	e->engine_allocates = true;
}

/* ----------------------------------------------- command buffers -- */

/* FILL va[1], then COPY va[1] to va[0] (both through bindings if bound). */
static void cmdbuf_tasks(struct fi_env *e, bool bound)
{
	uint64_t src = bound ? DRM_VNPU_BINDING_VA(1, 0) : e->va[1];
	uint64_t dst = bound ? DRM_VNPU_BINDING_VA(0, 0) : e->va[0];

	memset(e->tasks, 0, sizeof(e->tasks));
	put_task(e, 0, 64, t_fill(src, COPY_SIZE, 0xfeedf00d));
	put_task(e, 1, 64, t_copy(src, dst, COPY_SIZE));
	e->table[0] = e->va[0];
	e->table[1] = e->va[1];
}

static void cmdbuf_request(struct fi_env *e, struct drm_vnpu_cmdbuf_create *c,
			   bool bound)
{
	memset(c, 0, sizeof(*c));
	c->tasks = (uintptr_t)e->tasks;
	c->task_count = 2;
	c->task_stride = 64;
	if (bound) {
		c->flags = DRM_VNPU_CMDBUF_BINDINGS;
		c->binding_count = 2;
	}
}

/* va[0] (the pattern at first) ends up holding the fill. */
static void verify_replay(struct __test_metadata *_metadata, struct fi_env *e,
			  bool done)
{
	static uint8_t want[COPY_SIZE];

	fill_expect(want, 0xfeedf00d);
	dev_holds(_metadata, e, e->va[0], done ? want : pat);
}

static void replay_request(struct fi_env *e, struct drm_vnpu_submit *s,
			   uint32_t handle, bool bound)
{
	memset(s, 0, sizeof(*s));
	s->queue_id = e->q;
	s->flags = DRM_VNPU_SUBMIT_CMDBUF | (bound ? DRM_VNPU_SUBMIT_BINDINGS : 0);
	s->cmdbuf = handle;
	if (bound) {
		s->args = (uintptr_t)e->table;
		s->args_size = sizeof(e->table);
	}
}

static void setup_replay_common(struct __test_metadata *_metadata,
				struct fi_env *e, bool bound)
{
	struct drm_vnpu_cmdbuf_create c;

	setup_submit_common(_metadata, e);
	cmdbuf_tasks(e, bound);
	cmdbuf_request(e, &c, bound);
	ASSERT_EQ(0, xioctl(e->fd, DRM_IOCTL_VNPU_CMDBUF_CREATE, &c));
	e->cmdbuf = c.handle;
	replay_request(e, &e->a.s, c.handle, bound);
	e->a.s.seq = POISON64;
	e->verify = verify_replay;
}

static void setup_replay(struct __test_metadata *_metadata, struct fi_env *e)
{
	setup_replay_common(_metadata, e, false);
}

static void setup_replay_bound(struct __test_metadata *_metadata,
			       struct fi_env *e)
{
	setup_replay_common(_metadata, e, true);
}

static bool bound_run;

static void setup_cmdbuf_create(struct __test_metadata *_metadata,
				struct fi_env *e)
{
	setup_submit_common(_metadata, e);
	cmdbuf_tasks(e, bound_run);
	cmdbuf_request(e, &e->a.cc, bound_run);
	e->a.cc.handle = POISON32;
}

static int call_cmdbuf_create(struct fi_env *e)
{
	return raw(e->fd, DRM_IOCTL_VNPU_CMDBUF_CREATE, &e->a.cc);
}

/* Replay command buffer handle once as the queue's job seq. */
static void replay_ok(struct __test_metadata *_metadata, struct fi_env *e,
		      uint32_t handle, uint64_t seq)
{
	struct drm_vnpu_submit s;

	replay_request(e, &s, handle, bound_run);
	ASSERT_EQ(0, xioctl(e->fd, DRM_IOCTL_VNPU_SUBMIT, &s));
	EXPECT_EQ(seq, s.seq);
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_wait(e->fd, e->q, e->qsync, s.seq));
	verify_replay(_metadata, e, true);
}

static bool check_cmdbuf_create(struct __test_metadata *_metadata,
				struct fi_env *e, int ret)
{
	struct drm_vnpu_cmdbuf_create c;

	if (!ret) {
		EXPECT_EQ(1, e->a.cc.handle);
		replay_ok(_metadata, e, e->a.cc.handle, 1);
		return false;
	}
	failed_enomem(_metadata, "cmdbuf_create", ret);
	EXPECT_EQ(POISON32, e->a.cc.handle);
	/* No handle was kept. */
	cmdbuf_request(e, &c, bound_run);
	ASSERT_EQ(0, xioctl(e->fd, DRM_IOCTL_VNPU_CMDBUF_CREATE, &c));
	EXPECT_EQ(1, c.handle);
	replay_ok(_metadata, e, c.handle, 1);
	return true;
}

static void setup_cmdbuf_destroy(struct __test_metadata *_metadata,
				 struct fi_env *e)
{
	setup_replay(_metadata, e);
	memset(&e->a, 0, sizeof(e->a));
	e->a.cd.handle = e->cmdbuf;
}

static int call_cmdbuf_destroy(struct fi_env *e)
{
	return raw(e->fd, DRM_IOCTL_VNPU_CMDBUF_DESTROY, &e->a.cd);
}

static bool check_cmdbuf_destroy(struct __test_metadata *_metadata,
				 struct fi_env *e, int ret)
{
	struct drm_vnpu_submit s;

	if (!ret) {
		replay_request(e, &s, e->cmdbuf, false);
		EXPECT_EQ(-ENOENT, xioctl(e->fd, DRM_IOCTL_VNPU_SUBMIT, &s));
		return false;
	}
	failed_enomem(_metadata, "cmdbuf_destroy", ret);
	bound_run = false;
	replay_ok(_metadata, e, e->cmdbuf, 1);
	EXPECT_EQ(0, xioctl(e->fd, DRM_IOCTL_VNPU_CMDBUF_DESTROY, &e->a.cd));
	return true;
}

/* --------------------------------------------------------- VM ioctls -- */

#define RESV_SIZE	(4 * SZ_2M)

static void setup_vm_reserve(struct __test_metadata *_metadata,
			     struct fi_env *e)
{
	run_begin(_metadata, e);
	e->a.vr.size = RESV_SIZE;
	e->a.vr.align = SZ_2M;
}

static int call_vm_reserve(struct fi_env *e)
{
	return raw(e->fd, DRM_IOCTL_VNPU_VM_RESERVE, &e->a.vr);
}

static bool check_vm_reserve(struct __test_metadata *_metadata,
			     struct fi_env *e, int ret)
{
	uint64_t va = 0;

	if (!ret) {
		if (e->warm)
			e->expect_va = e->a.vr.va;
		EXPECT_EQ(e->expect_va, e->a.vr.va);
		EXPECT_EQ(0, vm_release(e->fd, e->a.vr.va));
		return false;
	}
	failed_enomem(_metadata, "vm_reserve", ret);
	EXPECT_EQ(0, e->a.vr.va);
	/* The range was not kept: the next reservation gets it. */
	ASSERT_EQ(0, vm_reserve(e->fd, RESV_SIZE, SZ_2M, &va));
	EXPECT_EQ(e->expect_va, va);
	EXPECT_EQ(-ENOENT, vm_release(e->fd, va + SZ_2M));
	EXPECT_EQ(0, vm_release(e->fd, va));
	return true;
}

static void setup_vm_object(struct __test_metadata *_metadata, struct fi_env *e)
{
	run_begin(_metadata, e);
	ASSERT_EQ(0, vm_reserve(e->fd, RESV_SIZE, 0, &e->resv));
	ASSERT_EQ(0, bo_new(e->fd, SZ_64K, DRM_VNPU_PLACEMENT_DEVICE,
			    DRM_VNPU_BO_NO_VA, &e->h[0], NULL));
	e->a.vm.va = e->resv + SZ_64K;
	e->a.vm.size = SZ_64K;
	e->a.vm.handle = e->h[0];
}

static int call_vm_map(struct fi_env *e)
{
	return raw(e->fd, DRM_IOCTL_VNPU_VM_MAP, &e->a.vm);
}

/* Is [resv + 64K, +64K) mapped? 0, or -ENXIO. */
static int vm_reach(struct fi_env *e)
{
	uint32_t v = 0x1234;

	return h2d(e->fd, e->resv + SZ_64K + 60, &v, 4);
}

static bool check_vm_map(struct __test_metadata *_metadata, struct fi_env *e,
			 int ret)
{
	if (!ret) {
		EXPECT_EQ(0, vm_reach(e));
		EXPECT_EQ(-EBUSY, vm_release(e->fd, e->resv));
		return false;
	}
	failed_enomem(_metadata, "vm_map", ret);
	EXPECT_EQ(-ENXIO, vm_reach(e));
	EXPECT_EQ(-ENOENT, vm_unmap(e->fd, e->resv + SZ_64K, SZ_64K));
	/* Nothing of it was left: no overlap, and the reservation is free. */
	EXPECT_EQ(0, vm_release(e->fd, e->resv));
	ASSERT_EQ(0, vm_reserve(e->fd, RESV_SIZE, 0, &e->resv));
	e->a.vm.va = e->resv + SZ_64K;
	ASSERT_EQ(0, xioctl(e->fd, DRM_IOCTL_VNPU_VM_MAP, &e->a.vm));
	EXPECT_EQ(0, vm_reach(e));
	return true;
}

static void setup_vm_unmap(struct __test_metadata *_metadata, struct fi_env *e)
{
	setup_vm_object(_metadata, e);
	ASSERT_EQ(0, xioctl(e->fd, DRM_IOCTL_VNPU_VM_MAP, &e->a.vm));
	ASSERT_EQ(0, vm_reach(e));
	e->a.vu.va = e->a.vm.va;
	e->a.vu.size = SZ_64K;
}

static int call_vm_unmap(struct fi_env *e)
{
	return raw(e->fd, DRM_IOCTL_VNPU_VM_UNMAP, &e->a.vu);
}

static bool check_vm_unmap(struct __test_metadata *_metadata, struct fi_env *e,
			   int ret)
{
	if (!ret) {
		EXPECT_EQ(-ENXIO, vm_reach(e));
		EXPECT_EQ(0, vm_release(e->fd, e->resv));
		return false;
	}
	failed_enomem(_metadata, "vm_unmap", ret);
	EXPECT_EQ(0, vm_reach(e));
	EXPECT_EQ(0, xioctl(e->fd, DRM_IOCTL_VNPU_VM_UNMAP, &e->a.vu));
	return true;
}

static void setup_vm_release(struct __test_metadata *_metadata,
			     struct fi_env *e)
{
	run_begin(_metadata, e);
	ASSERT_EQ(0, vm_reserve(e->fd, RESV_SIZE, 0, &e->resv));
	e->a.vrl.va = e->resv;
}

static int call_vm_release(struct fi_env *e)
{
	return raw(e->fd, DRM_IOCTL_VNPU_VM_RELEASE, &e->a.vrl);
}

static bool check_vm_release(struct __test_metadata *_metadata,
			     struct fi_env *e, int ret)
{
	if (!ret) {
		EXPECT_EQ(-ENOENT, vm_release(e->fd, e->resv));
		return false;
	}
	failed_enomem(_metadata, "vm_release", ret);
	EXPECT_EQ(0, vm_release(e->fd, e->resv));
	return true;
}

/* ------------------------------------------------------------- PRIME -- */

static void setup_prime_export(struct __test_metadata *_metadata,
			       struct fi_env *e)
{
	run_begin(_metadata, e);
	ASSERT_EQ(0, bo_new(e->fd, SZ_64K, DRM_VNPU_PLACEMENT_DEVICE, 0,
			    &e->h[0], &e->va[0]));
	ASSERT_EQ(0, h2d(e->fd, e->va[0], pat, COPY_SIZE));
	e->a.ph.handle = e->h[0];
	e->a.ph.flags = DRM_CLOEXEC | DRM_RDWR;
	e->a.ph.fd = (int)POISON32;
}

static int call_prime_export(struct fi_env *e)
{
	return raw(e->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &e->a.ph);
}

/* The dma-buf carries the object: import it into a new file and read. */
static void dmabuf_works(struct __test_metadata *_metadata, struct fi_env *e,
			 int dmabuf)
{
	uint32_t h = 0;
	int fd = open(e->node, O_RDWR | O_CLOEXEC);
	struct drm_vnpu_bo_info bi = { 0 };
	static uint8_t got[COPY_SIZE];

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, prime_import(fd, dmabuf, &h));
	bi.handle = h;
	ASSERT_EQ(0, xioctl(fd, DRM_IOCTL_VNPU_BO_INFO, &bi));
	EXPECT_EQ(SZ_64K, bi.size);
	ASSERT_EQ(0, d2h(fd, got, bi.va, COPY_SIZE));
	EXPECT_EQ(0, memcmp(got, pat, COPY_SIZE));
	close(fd);
}

static bool check_prime_export(struct __test_metadata *_metadata,
			       struct fi_env *e, int ret)
{
	struct fi_counts now;
	int dmabuf = -1;

	if (!ret) {
		ASSERT_GE(e->a.ph.fd, 0);
		e->dmabuf = e->a.ph.fd;
		dmabuf_works(_metadata, e, e->dmabuf);
		return false;
	}
	failed_enomem(_metadata, "prime handle_to_fd", ret);
	EXPECT_EQ((int)POISON32, e->a.ph.fd);
	fi_counts_read(e, &now);
	/* The run's own file is the one more. */
	EXPECT_EQ(e->base.fds + 1, now.fds) TH_LOG("a failed export left an fd");
	ASSERT_EQ(0, prime_export(e->fd, e->h[0], &dmabuf));
	e->dmabuf = dmabuf;
	dmabuf_works(_metadata, e, dmabuf);
	return true;
}

/* An exported object (first device) and a second file to import it in. */
static void setup_prime_import(struct __test_metadata *_metadata,
			       struct fi_env *e, const char *node)
{
	setup_prime_export(_metadata, e);
	ASSERT_EQ(0, prime_export(e->fd, e->h[0], &e->dmabuf));
	e->fd2 = open(node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(e->fd2, 0);
	e->a.ph.fd = e->dmabuf;
	e->a.ph.flags = 0;
	e->a.ph.handle = POISON32;
}

static void setup_import_same(struct __test_metadata *_metadata,
			      struct fi_env *e)
{
	setup_prime_import(_metadata, e, e->node);
}

static void setup_import_other(struct __test_metadata *_metadata,
			       struct fi_env *e)
{
	setup_prime_import(_metadata, e, e->node2);
}

static int call_prime_import(struct fi_env *e)
{
	return raw(e->fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &e->a.ph);
}

/* The importer's handle 1 reads the exporter's data. */
static void import_reads(struct __test_metadata *_metadata, struct fi_env *e,
			 uint32_t h)
{
	struct drm_vnpu_bo_info bi = { .handle = h };
	static uint8_t got[COPY_SIZE];

	ASSERT_EQ(0, xioctl(e->fd2, DRM_IOCTL_VNPU_BO_INFO, &bi));
	EXPECT_EQ(SZ_64K, bi.size);
	memset(got, 0, sizeof(got));
	ASSERT_EQ(0, d2h(e->fd2, got, bi.va, COPY_SIZE));
	EXPECT_EQ(0, memcmp(got, pat, COPY_SIZE));
}

static bool check_prime_import(struct __test_metadata *_metadata,
			       struct fi_env *e, int ret)
{
	struct drm_vnpu_bo_info bi = { .handle = 1 };
	bool other = e->fd2 >= 0 && e->mon2 >= 0 &&
		     param(e->fd2, DRM_VNPU_PARAM_DEVICE_INDEX) !=
		     param(e->fd, DRM_VNPU_PARAM_DEVICE_INDEX);
	uint32_t h = 0;

	if (!ret) {
		EXPECT_EQ(1, e->a.ph.handle);
		import_reads(_metadata, e, e->a.ph.handle);
		if (other)
			EXPECT_EQ(e->base.bos2 + 1,
				  param(e->mon2, DRM_VNPU_PARAM_BO_COUNT));
		return false;
	}
	failed_enomem(_metadata, "prime fd_to_handle", ret);
	/*
	 * The DRM core (not vnpu) may leave the number of a handle it made
	 * and deleted again in the output; that handle must not exist.
	 */
	if (e->a.ph.handle != POISON32)
		TH_LOG("note: failed FD_TO_HANDLE returned handle %u",
		       e->a.ph.handle);
	EXPECT_EQ(-ENOENT, xioctl(e->fd2, DRM_IOCTL_VNPU_BO_INFO, &bi));
	if (other)
		EXPECT_EQ(e->base.bos2, param(e->mon2, DRM_VNPU_PARAM_BO_COUNT));
	ASSERT_EQ(0, prime_import(e->fd2, e->dmabuf, &h));
	EXPECT_EQ(1, h);
	import_reads(_metadata, e, h);
	return true;
}

/* ---------------------------------------------------------- syncobjs -- */

static uint32_t syncobj_flags;

static void setup_syncobj_create(struct __test_metadata *_metadata,
				 struct fi_env *e)
{
	run_begin(_metadata, e);
	e->a.sc.flags = syncobj_flags;
	e->a.sc.handle = POISON32;
}

static int call_syncobj_create(struct fi_env *e)
{
	return raw(e->fd, DRM_IOCTL_SYNCOBJ_CREATE, &e->a.sc);
}

static bool check_syncobj_create(struct __test_metadata *_metadata,
				 struct fi_env *e, int ret)
{
	bool signalled = syncobj_flags & DRM_SYNCOBJ_CREATE_SIGNALED;
	uint32_t h = 0;

	if (!ret) {
		EXPECT_EQ(1, e->a.sc.handle);
		EXPECT_EQ(signalled ? 0 : -EINVAL,
			  binary_state(e->fd, e->a.sc.handle));
		return false;
	}
	failed_enomem(_metadata, "syncobj_create", ret);
	EXPECT_EQ(POISON32, e->a.sc.handle);
	EXPECT_EQ(-ENOENT, binary_state(e->fd, 1));
	ASSERT_EQ(0, syncobj_new(e->fd, syncobj_flags, &h));
	EXPECT_EQ(1, h);
	EXPECT_EQ(signalled ? 0 : -EINVAL, binary_state(e->fd, h));
	return true;
}

static void setup_syncobj_destroy(struct __test_metadata *_metadata,
				  struct fi_env *e)
{
	run_begin(_metadata, e);
	ASSERT_EQ(0, syncobj_new(e->fd, DRM_SYNCOBJ_CREATE_SIGNALED,
				 &e->sync[0]));
	e->a.sd.handle = e->sync[0];
}

static int call_syncobj_destroy(struct fi_env *e)
{
	return raw(e->fd, DRM_IOCTL_SYNCOBJ_DESTROY, &e->a.sd);
}

static bool check_syncobj_destroy(struct __test_metadata *_metadata,
				  struct fi_env *e, int ret)
{
	if (!ret) {
		EXPECT_EQ(-EINVAL, xioctl(e->fd, DRM_IOCTL_SYNCOBJ_DESTROY,
					  &e->a.sd));
		return false;
	}
	failed_enomem(_metadata, "syncobj_destroy", ret);
	EXPECT_EQ(0, binary_state(e->fd, e->sync[0]));
	EXPECT_EQ(0, xioctl(e->fd, DRM_IOCTL_SYNCOBJ_DESTROY, &e->a.sd));
	return true;
}

/* A queue with job 1 done, and a signalled binary syncobj. */
static void setup_syncobj_points(struct __test_metadata *_metadata,
				 struct fi_env *e)
{
	setup_queue_with_job(_metadata, e);
	ASSERT_EQ(0, syncobj_new(e->fd, DRM_SYNCOBJ_CREATE_SIGNALED,
				 &e->sync[0]));
	ASSERT_EQ(0, syncobj_new(e->fd, 0, &e->sync[1]));
}

static void setup_syncobj_query(struct __test_metadata *_metadata,
				struct fi_env *e)
{
	setup_syncobj_points(_metadata, e);
	e->query_point = POISON64;
	e->a.sq.handles = (uintptr_t)&e->qsync;
	e->a.sq.points = (uintptr_t)&e->query_point;
	e->a.sq.count_handles = 1;
	e->a.sq.flags = DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED;
}

static int call_syncobj_query(struct fi_env *e)
{
	return raw(e->fd, DRM_IOCTL_SYNCOBJ_QUERY, &e->a.sq);
}

static bool check_syncobj_query(struct __test_metadata *_metadata,
				struct fi_env *e, int ret)
{
	if (!ret) {
		EXPECT_EQ(1, e->query_point);
		return false;
	}
	failed_enomem(_metadata, "syncobj_query", ret);
	EXPECT_EQ(POISON64, e->query_point);
	return true;
}

static void setup_timeline_wait(struct __test_metadata *_metadata,
				struct fi_env *e)
{
	setup_syncobj_points(_metadata, e);
	e->wait_handles[0] = e->qsync;
	e->wait_handles[1] = e->sync[0];
	e->wait_points[0] = 1;
	e->wait_points[1] = 0;
	e->a.sw.handles = (uintptr_t)e->wait_handles;
	e->a.sw.points = (uintptr_t)e->wait_points;
	e->a.sw.count_handles = 2;
	e->a.sw.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL;
	e->a.sw.timeout_nsec = (int64_t)(now_ns() + WAIT_MS * NS_PER_MS);
}

/* A wait with a zero timeout on a point not yet reached: -ETIME. */
static void setup_timeline_poll(struct __test_metadata *_metadata,
				struct fi_env *e)
{
	setup_timeline_wait(_metadata, e);
	e->wait_points[0] = 2;
	e->a.sw.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL |
			DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
	e->a.sw.timeout_nsec = 0;
	e->expect = -ETIME;
}

static int call_timeline_wait(struct fi_env *e)
{
	return raw(e->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &e->a.sw);
}

static bool check_timeline_wait(struct __test_metadata *_metadata,
				struct fi_env *e, int ret)
{
	if (ret == e->expect)
		return false;
	failed_enomem(_metadata, "syncobj_timeline_wait", ret);
	e->a.sw.first_signaled = 0;
	EXPECT_EQ(e->expect, xioctl(e->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT,
				    &e->a.sw));
	return true;
}

/* Move job 1's point of the queue's timeline to point 3 of another. */
static void setup_transfer(struct __test_metadata *_metadata, struct fi_env *e)
{
	setup_syncobj_points(_metadata, e);
	e->a.st.src_handle = e->qsync;
	e->a.st.src_point = 1;
	e->a.st.dst_handle = e->sync[1];
	e->a.st.dst_point = 3;
}

static int call_transfer(struct fi_env *e)
{
	return raw(e->fd, DRM_IOCTL_SYNCOBJ_TRANSFER, &e->a.st);
}

static bool check_transfer(struct __test_metadata *_metadata, struct fi_env *e,
			   int ret)
{
	if (!ret) {
		EXPECT_EQ(3, last_submitted(e->fd, e->sync[1]));
		EXPECT_EQ(0, wait_point(e->fd, e->sync[1], 3, WAIT_MS,
					DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL));
		return false;
	}
	failed_enomem(_metadata, "syncobj_transfer", ret);
	EXPECT_EQ(0, last_submitted(e->fd, e->sync[1]));
	ASSERT_EQ(0, xioctl(e->fd, DRM_IOCTL_SYNCOBJ_TRANSFER, &e->a.st));
	EXPECT_EQ(3, last_submitted(e->fd, e->sync[1]));
	return true;
}

/* ---------------------------------------------------------- io_uring -- */

static void ring_up(struct __test_metadata *_metadata, struct fi_env *e)
{
	ASSERT_EQ(0, io_uring_queue_init(8, &e->ring, RING_FLAGS));
	e->ring_up = true;
}

/* A new ring: an SQE io_uring could not take would otherwise go again. */
static void ring_reset(struct __test_metadata *_metadata, struct fi_env *e)
{
	io_uring_queue_exit(&e->ring);
	e->ring_up = false;
	ring_up(_metadata, e);
}

static struct io_uring_sqe *ring_cmd(struct fi_env *e, uint32_t op,
				     const void *payload, size_t len,
				     uint64_t user_data)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&e->ring);

	memset(sqe, 0, 128);
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = e->fd;
	sqe->cmd_op = op;
	sqe->user_data = user_data;
	memcpy(sqe->cmd, payload, len);
	return sqe;
}

struct cqe {
	uint64_t user_data;
	int32_t res;
	uint64_t big0;
};

static int reap(struct fi_env *e, struct cqe *c)
{
	struct __kernel_timespec ts = { .tv_sec = WAIT_MS / 1000 };
	struct io_uring_cqe *cqe;
	int ret;

	do {
		ret = io_uring_wait_cqe_timeout(&e->ring, &cqe, &ts);
	} while (ret == -EINTR);
	if (ret)
		return ret;
	c->user_data = cqe->user_data;
	c->res = cqe->res;
	c->big0 = cqe->big_cqe[0];
	io_uring_cqe_seen(&e->ring, cqe);
	return 0;
}

/* SUBMIT of one FILL into va[1] through a new ring. */
static void setup_uring_submit(struct __test_metadata *_metadata,
			       struct fi_env *e)
{
	struct drm_vnpu_submit s = { 0 };

	setup_submit_common(_metadata, e);
	put_task(e, 0, 64, t_fill(e->va[1], COPY_SIZE, 0xfeedf00d));
	s.queue_id = e->q;
	s.tasks = (uintptr_t)e->tasks;
	s.task_count = 1;
	s.task_stride = 64;
	ring_up(_metadata, e);
	ring_cmd(e, DRM_VNPU_URING_CMD_SUBMIT, &s, sizeof(s), 1);
	e->verify = verify_fill;
}

static int call_uring(struct fi_env *e)
{
	return io_uring_submit(&e->ring);
}

/* Nothing was queued: no timeline point, no job, no data. */
static void nothing_submitted(struct __test_metadata *_metadata,
			      struct fi_env *e)
{
	struct drm_vnpu_job_status st;

	EXPECT_EQ(0, last_submitted(e->fd, e->qsync));
	EXPECT_EQ(-EINVAL, job_status(e->fd, e->q, 1, &st));
	EXPECT_EQ(e->base.jobs, vnpu_debugfs_value(e->node, "stats", "jobs_alive"));
	verify_fill(_metadata, e, false);
}

/* The same SUBMIT on a new ring works, as the queue's first job. */
static void uring_submit_again(struct __test_metadata *_metadata,
			       struct fi_env *e)
{
	struct drm_vnpu_submit s = { 0 };
	struct cqe c = { 0 };

	ring_reset(_metadata, e);
	s.queue_id = e->q;
	s.tasks = (uintptr_t)e->tasks;
	s.task_count = 1;
	s.task_stride = 64;
	ring_cmd(e, DRM_VNPU_URING_CMD_SUBMIT, &s, sizeof(s), 1);
	ASSERT_EQ(1, io_uring_submit(&e->ring));
	ASSERT_EQ(0, reap(e, &c));
	ASSERT_EQ(0, c.res);
	EXPECT_EQ(1, c.big0);
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_wait(e->fd, e->q, e->qsync, 1));
	verify_fill(_metadata, e, true);
}

static bool check_uring_submit(struct __test_metadata *_metadata,
			       struct fi_env *e, int ret)
{
	struct cqe c = { 0 };

	if (ret == 1) {
		ASSERT_EQ(0, reap(e, &c));
		if (!c.res) {
			EXPECT_EQ(1, c.big0);
			EXPECT_EQ(DRM_VNPU_JOB_OK,
				  job_wait(e->fd, e->q, e->qsync, 1));
			verify_fill(_metadata, e, true);
			return false;
		}
		failed_enomem(_metadata, "uring submit: cqe", c.res);
	} else {
		/* io_uring could not take the SQE (request allocation). */
		EXPECT_TRUE(ret == -ENOMEM || ret == -EAGAIN)
			TH_LOG("io_uring_enter: %d", ret);
	}
	nothing_submitted(_metadata, e);
	uring_submit_again(_metadata, e);
	return true;
}

/*
 * WAIT on a job held back by a gate (a WAIT_VALUE on a HOST object): the
 * command arms a fence callback, which allocates.
 */
static void setup_gate(struct __test_metadata *_metadata, struct fi_env *e)
{
	struct drm_vnpu_bo_info bi = { 0 };
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_WAIT_VALUE };
	uint64_t seq = 0;

	ASSERT_EQ(0, bo_new(e->fd, 4096, DRM_VNPU_PLACEMENT_HOST, 0, &e->h[2],
			    &e->va[2]));
	bi.handle = e->h[2];
	ASSERT_EQ(0, xioctl(e->fd, DRM_IOCTL_VNPU_BO_INFO, &bi));
	e->map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, e->fd,
		      bi.mmap_offset);
	ASSERT_NE(MAP_FAILED, e->map);
	memset(e->map, 0, 4096);
	t.value.addr = e->va[2];
	t.value.value = 1;
	t.value.cond = DRM_VNPU_WAIT_EQ;
	t.value.timeout_ns = 20ULL * 1000000000ULL;
	ASSERT_EQ(0, submit_tasks(e->fd, e->q, &t, 1, &seq));
	ASSERT_EQ(1, seq);
}

static void open_gate(struct fi_env *e)
{
	__atomic_store_n((uint64_t *)e->map, 1, __ATOMIC_SEQ_CST);
}

static void setup_uring_wait(struct __test_metadata *_metadata,
			     struct fi_env *e)
{
	struct drm_vnpu_uring_wait w = { 0 };

	setup_submit_common(_metadata, e);
	setup_gate(_metadata, e);
	ring_up(_metadata, e);
	w.queue_id = e->q;
	w.seq = 1;
	ring_cmd(e, DRM_VNPU_URING_CMD_WAIT, &w, sizeof(w), 2);
}

static bool check_uring_wait(struct __test_metadata *_metadata,
			     struct fi_env *e, int ret)
{
	struct drm_vnpu_uring_wait w = { .queue_id = e->q, .seq = 1 };
	struct cqe c = { 0 };

	open_gate(e);
	if (ret == 1) {
		ASSERT_EQ(0, reap(e, &c));
		if (c.res == DRM_VNPU_JOB_OK) {
			EXPECT_EQ(1, c.big0);
			return false;
		}
		failed_enomem(_metadata, "uring wait: cqe", c.res);
	} else {
		EXPECT_TRUE(ret == -ENOMEM || ret == -EAGAIN)
			TH_LOG("io_uring_enter: %d", ret);
	}
	/* The job was not disturbed; a new WAIT finds it done. */
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_wait(e->fd, e->q, e->qsync, 1));
	ring_reset(_metadata, e);
	ring_cmd(e, DRM_VNPU_URING_CMD_WAIT, &w, sizeof(w), 3);
	ASSERT_EQ(1, io_uring_submit(&e->ring));
	ASSERT_EQ(0, reap(e, &c));
	EXPECT_EQ(3, c.user_data);
	EXPECT_EQ(DRM_VNPU_JOB_OK, c.res);
	return true;
}

/*
 * SUBMIT linked to a WAIT LATEST, one io_uring_enter: if the SUBMIT fails
 * io_uring cancels the WAIT (-ECANCELED); if it succeeds the WAIT reports
 * its job or fails itself with -ENOMEM.
 */
static void setup_uring_linked(struct __test_metadata *_metadata,
			       struct fi_env *e)
{
	struct drm_vnpu_uring_wait w = { .flags = DRM_VNPU_URING_WAIT_LATEST };
	struct drm_vnpu_submit s = { 0 };
	struct io_uring_sqe *sqe;

	setup_submit_common(_metadata, e);
	put_task(e, 0, 64, t_fill(e->va[1], COPY_SIZE, 0xfeedf00d));
	s.queue_id = e->q;
	s.tasks = (uintptr_t)e->tasks;
	s.task_count = 1;
	s.task_stride = 64;
	w.queue_id = e->q;
	ring_up(_metadata, e);
	sqe = ring_cmd(e, DRM_VNPU_URING_CMD_SUBMIT, &s, sizeof(s), 1);
	sqe->flags |= IOSQE_IO_LINK;
	ring_cmd(e, DRM_VNPU_URING_CMD_WAIT, &w, sizeof(w), 2);
}

static bool check_uring_linked(struct __test_metadata *_metadata,
			       struct fi_env *e, int ret)
{
	int sub = 1, wait = 1;	/* 1: no CQE (yet) */
	struct cqe c = { 0 };
	int i;

	if (ret < 0 || ret > 2) {
		EXPECT_TRUE(ret == -ENOMEM || ret == -EAGAIN)
			TH_LOG("io_uring_enter: %d", ret);
		nothing_submitted(_metadata, e);
		uring_submit_again(_metadata, e);
		return true;
	}
	for (i = 0; i < ret; i++) {
		ASSERT_EQ(0, reap(e, &c));
		if (c.user_data == 1)
			sub = c.res;
		else
			wait = c.res;
	}
	/*
	 * A request of a link that cannot be set up fails with its error and
	 * the link's head with -ECANCELED: a WAIT whose set-up failed cancels
	 * the SUBMIT before it was issued.
	 */
	EXPECT_TRUE(sub == 0 || sub == -ENOMEM ||
		    (sub == -ECANCELED && wait == -ENOMEM))
		TH_LOG("submit cqe %d, wait cqe %d", sub, wait);
	if (!sub) {
		EXPECT_EQ(DRM_VNPU_JOB_OK, job_wait(e->fd, e->q, e->qsync, 1));
		verify_fill(_metadata, e, true);
		if (ret == 2 && wait == DRM_VNPU_JOB_OK)
			return false;
		EXPECT_TRUE(ret == 1 || wait == -ENOMEM)
			TH_LOG("wait cqe %d after a good submit", wait);
		return true;
	}
	EXPECT_TRUE(ret == 1 || wait == -ECANCELED || sub == -ECANCELED)
		TH_LOG("wait cqe %d after a failed submit", wait);
	nothing_submitted(_metadata, e);
	uring_submit_again(_metadata, e);
	return true;
}

/* -------------------------------------------------------------- tests -- */

#define OP(n, s, c, k, m)	{ .name = n, .setup = s, .call = c, .check = k, \
				  .min_points = m }

static void run_ops(struct __test_metadata *_metadata, const struct fi_op *ops,
		    size_t n)
{
	size_t i;

	for (i = 0; i < n && !_metadata->exit_code; i++)
		fi_run(_metadata, &E, &ops[i]);
}

TEST_F_TIMEOUT(fi, params_and_status, 600)
{
	static const struct fi_op ops[] = {
		OP("get_param", setup_plain, call_get_param, check_get_param, 0),
		OP("fault_info", setup_plain, call_fault_info, check_fault_info, 0),
		OP("bo_info", setup_bo_info, call_bo_info, check_bo_info, 0),
		OP("job_status", setup_queue_with_job, call_job_status,
		   check_job_status, 0),
	};

	run_ops(_metadata, ops, sizeof(ops) / sizeof(ops[0]));
}

TEST_F_TIMEOUT(fi, bo_create, 600)
{
	static const struct {
		const char *name;
		uint32_t placement, flags;
	} kinds[] = {
		{ "bo_create device", DRM_VNPU_PLACEMENT_DEVICE, 0 },
		{ "bo_create host", DRM_VNPU_PLACEMENT_HOST, 0 },
		{ "bo_create user", DRM_VNPU_PLACEMENT_USER, 0 },
		{ "bo_create no_va", DRM_VNPU_PLACEMENT_DEVICE, DRM_VNPU_BO_NO_VA },
	};
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		struct fi_op op = OP(kinds[i].name, setup_bo_create,
				     call_bo_create, check_bo_create, 1);

		E.placement = kinds[i].placement;
		E.bo_flags = kinds[i].flags;
		fi_run(_metadata, &E, &op);
		if (_metadata->exit_code)
			break;
	}
}

TEST_F_TIMEOUT(fi, memcpy, 600)
{
	static const struct fi_op ops[] = {
		OP("memcpy h2d", setup_h2d, call_memcpy, check_to_device, 1),
		OP("memcpy d2h", setup_d2h, call_memcpy, check_d2h, 1),
		OP("memcpy d2d", setup_d2d, call_memcpy, check_to_device, 1),
		OP("memcpy across mappings", setup_memcpy_seam, call_memcpy,
		   check_memcpy_seam, 1),
	};

	run_ops(_metadata, ops, sizeof(ops) / sizeof(ops[0]));
}

TEST_F_TIMEOUT(fi, queues, 600)
{
	static const struct fi_op ops[] = {
		OP("queue_create", setup_queue_create, call_queue_create,
		   check_queue_create, 1),
		OP("queue_destroy", setup_queue_with_job, call_queue_destroy,
		   check_queue_destroy, 0),
		OP("queue_reset", setup_queue_reset, call_queue_reset,
		   check_queue_reset, 0),
	};

	run_ops(_metadata, ops, sizeof(ops) / sizeof(ops[0]));
}

TEST_F_TIMEOUT(fi, submit, 900)
{
	static const struct fi_op ops[] = {
		OP("submit nop", setup_submit_nop, call_submit, check_submit, 1),
		OP("submit copy", setup_submit_copy, call_submit, check_submit, 1),
		OP("submit fill", setup_submit_fill, call_submit, check_submit, 1),
		OP("submit kernel add", setup_submit_kernel, call_submit,
		   check_submit, 1),
		OP("submit 70 tasks, syncs", setup_submit_mixed, call_submit,
		   check_submit, 1),
		OP("submit copy across maps", setup_submit_seam_copy,
		   call_submit, check_submit, 1),
	};

	run_ops(_metadata, ops, sizeof(ops) / sizeof(ops[0]));
}

TEST_F_TIMEOUT(fi, cmdbufs, 600)
{
	static const struct fi_op create =
		OP("cmdbuf_create", setup_cmdbuf_create, call_cmdbuf_create,
		   check_cmdbuf_create, 1);
	static const struct fi_op create_bound =
		OP("cmdbuf_create bindings", setup_cmdbuf_create,
		   call_cmdbuf_create, check_cmdbuf_create, 1);
	static const struct fi_op ops[] = {
		OP("cmdbuf_destroy", setup_cmdbuf_destroy, call_cmdbuf_destroy,
		   check_cmdbuf_destroy, 0),
		OP("submit cmdbuf", setup_replay, call_submit, check_submit, 1),
		OP("submit cmdbuf bindings", setup_replay_bound, call_submit,
		   check_submit, 1),
	};

	bound_run = false;
	fi_run(_metadata, &E, &create);
	bound_run = true;
	if (!_metadata->exit_code)
		fi_run(_metadata, &E, &create_bound);
	bound_run = false;
	if (!_metadata->exit_code)
		run_ops(_metadata, ops, sizeof(ops) / sizeof(ops[0]));
}

TEST_F_TIMEOUT(fi, vm, 600)
{
	static const struct fi_op ops[] = {
		OP("vm_reserve", setup_vm_reserve, call_vm_reserve,
		   check_vm_reserve, 1),
		OP("vm_map", setup_vm_object, call_vm_map, check_vm_map, 1),
		OP("vm_unmap", setup_vm_unmap, call_vm_unmap, check_vm_unmap, 0),
		OP("vm_release", setup_vm_release, call_vm_release,
		   check_vm_release, 0),
	};

	run_ops(_metadata, ops, sizeof(ops) / sizeof(ops[0]));
}

TEST_F_TIMEOUT(fi, prime, 600)
{
	static const struct fi_op ops[] = {
		OP("prime handle_to_fd", setup_prime_export, call_prime_export,
		   check_prime_export, 1),
		OP("prime fd_to_handle", setup_import_same, call_prime_import,
		   check_prime_import, 1),
	};
	static const struct fi_op other =
		OP("prime fd_to_handle dev 1", setup_import_other,
		   call_prime_import, check_prime_import, 1);

	run_ops(_metadata, ops, sizeof(ops) / sizeof(ops[0]));
	if (!E.node2[0]) {
		TH_LOG("one device: no import from another device");
		return;
	}
	if (!_metadata->exit_code)
		fi_run(_metadata, &E, &other);
}

TEST_F_TIMEOUT(fi, syncobj, 600)
{
	static const struct fi_op create =
		OP("syncobj_create", setup_syncobj_create, call_syncobj_create,
		   check_syncobj_create, 1);
	static const struct fi_op create_signalled =
		OP("syncobj_create signaled", setup_syncobj_create,
		   call_syncobj_create, check_syncobj_create, 1);
	static const struct fi_op ops[] = {
		OP("syncobj_destroy", setup_syncobj_destroy,
		   call_syncobj_destroy, check_syncobj_destroy, 0),
		OP("syncobj_query", setup_syncobj_query, call_syncobj_query,
		   check_syncobj_query, 0),
		OP("syncobj_timeline_wait", setup_timeline_wait,
		   call_timeline_wait, check_timeline_wait, 1),
		OP("syncobj_timeline_wait 0", setup_timeline_poll,
		   call_timeline_wait, check_timeline_wait, 1),
		OP("syncobj_transfer", setup_transfer, call_transfer,
		   check_transfer, 1),
	};

	syncobj_flags = 0;
	fi_run(_metadata, &E, &create);
	syncobj_flags = DRM_SYNCOBJ_CREATE_SIGNALED;
	if (!_metadata->exit_code)
		fi_run(_metadata, &E, &create_signalled);
	if (!_metadata->exit_code)
		run_ops(_metadata, ops, sizeof(ops) / sizeof(ops[0]));
}

TEST_F_TIMEOUT(fi, uring, 600)
{
	static const struct fi_op ops[] = {
		OP("uring submit", setup_uring_submit, call_uring,
		   check_uring_submit, 1),
		OP("uring wait", setup_uring_wait, call_uring, check_uring_wait, 1),
		OP("uring submit+wait latest", setup_uring_linked, call_uring,
		   check_uring_linked, 1),
	};

	run_ops(_metadata, ops, sizeof(ops) / sizeof(ops[0]));
}

/* ------------------------------------------------------------ stress -- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint32_t rnd(uint32_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state % n);
}

#define ST_BOS		8
#define ST_CMDBUFS	4
#define ST_SYNCS	4
#define ST_FDS		4

struct stress {
	int fd, fd2;
	uint32_t q[2], qsync[2];
	uint64_t seq[2];		/* last job submitted on each queue */
	uint32_t src, dst, a, out;	/* stable objects jobs use */
	uint64_t src_va, dst_va, a_va, out_va;
	struct add_args args;
	uint32_t bo[ST_BOS];
	uint64_t bo_va[ST_BOS];
	uint32_t cmdbuf[ST_CMDBUFS];
	uint32_t sync[ST_SYNCS];
	int dmabuf[ST_FDS];
	uint64_t resv;
	uint32_t phys;
	bool mapped;
	uint32_t extra_q;
	struct io_uring ring;
	unsigned int inflight;		/* SQEs queued whose CQE is not seen */
	bool added;			/* an add job went through */
	unsigned int calls, failures, odd, enospc;
	int odd_op[16], odd_ret[16];
};

static void stress_note(struct stress *s, int op, int ret, int ok2)
{
	s->calls++;
	if (!ret || ret == ok2)
		return;
	if (ret == -ENOMEM || ret == -EAGAIN) {
		s->failures++;
		return;
	}
	if (s->odd < 16) {
		s->odd_op[s->odd] = op;
		s->odd_ret[s->odd] = ret;
	}
	s->odd++;
}

/* BO_CREATE; its -ENOSPC from shmem (see check_bo_create) is counted apart. */
static int bo_create_noted(struct stress *s, struct drm_vnpu_bo_create *bc)
{
	int ret = raw(s->fd, DRM_IOCTL_VNPU_BO_CREATE, bc);

	if (ret != -ENOSPC)
		return ret;
	s->enospc++;
	return -ENOMEM;
}

/* Take the CQEs there are (waiting for one when wait); note their results. */
static void stress_reap(struct stress *s, int op, bool wait)
{
	struct io_uring_cqe *cqe;
	uint64_t k;
	int ret;

	for (;;) {
		ret = wait ? io_uring_wait_cqe(&s->ring, &cqe) :
			     io_uring_peek_cqe(&s->ring, &cqe);
		if (ret == -EINTR || (wait && ret == -ENOMEM) ||
		    (wait && ret == -EAGAIN))
			continue;
		if (ret)
			return;
		wait = false;
		k = cqe->user_data;
		/*
		 * A SUBMIT that finds its queue full goes to an io-wq worker;
		 * when that worker cannot be created, io_uring cancels it.
		 */
		stress_note(s, op, cqe->res, -ECANCELED);
		if (!cqe->res && k < 2 && cqe->big_cqe[0] > s->seq[k])
			s->seq[k] = cqe->big_cqe[0];
		io_uring_cqe_seen(&s->ring, cqe);
		s->inflight--;
	}
}

/* One random valid call; nothing here may print or allocate in user space. */
static void stress_step(struct stress *s)
{
	struct drm_vnpu_task t[3];
	struct drm_vnpu_submit sb = { 0 };
	struct drm_vnpu_cmdbuf_create cc = { 0 };
	struct drm_vnpu_cmdbuf_destroy cd = { 0 };
	struct drm_vnpu_bo_create bc = { 0 };
	struct drm_vnpu_memcpy mc = { 0 };
	struct drm_vnpu_queue_create qc = { 0 };
	struct drm_vnpu_queue_destroy qd = { 0 };
	struct drm_syncobj_create sc = { 0 };
	struct drm_syncobj_destroy sd = { 0 };
	struct drm_syncobj_timeline_wait sw = { 0 };
	struct drm_vnpu_vm_reserve vr = { 0 };
	struct drm_vnpu_vm_map vm = { 0 };
	struct drm_vnpu_vm_unmap vu = { 0 };
	struct drm_vnpu_vm_release vrl = { 0 };
	struct drm_prime_handle ph = { 0 };
	struct drm_gem_close gc = { 0 };
	struct drm_vnpu_sync out;
	struct io_uring_sqe *sqe;
	uint32_t i = rnd(ST_BOS), k = rnd(2), op = rnd(14);
	uint64_t point;
	int ret;

	switch (op) {
	case 0:		/* a new object, or drop one */
		if (s->bo[i]) {
			gc.handle = s->bo[i];
			ret = raw(s->fd, DRM_IOCTL_GEM_CLOSE, &gc);
			if (!ret)
				s->bo[i] = 0;
		} else {
			bc.size = 4096 << rnd(5);
			bc.placement = rnd(2) ? DRM_VNPU_PLACEMENT_HOST :
						DRM_VNPU_PLACEMENT_DEVICE;
			ret = bo_create_noted(s, &bc);
			if (!ret) {
				s->bo[i] = bc.handle;
				s->bo_va[i] = bc.va;
			}
		}
		break;
	case 1:		/* copy into or out of one */
		if (!s->bo[i])
			return;
		mc.size = 4096;
		if (rnd(2)) {
			mc.dst = s->bo_va[i];
			mc.src = (uintptr_t)pat;
			mc.flags = DRM_VNPU_MEMCPY_DST_DEVICE;
		} else {
			mc.dst = (uintptr_t)rd;
			mc.src = s->bo_va[i];
			mc.flags = DRM_VNPU_MEMCPY_SRC_DEVICE;
		}
		ret = raw(s->fd, DRM_IOCTL_VNPU_MEMCPY, &mc);
		break;
	case 2:		/* a job: fill, copy, add; signals its own syncobj */
	case 3:
		memset(t, 0, sizeof(t));
		t[0] = t_fill(s->dst_va, COPY_SIZE, 0x01020304);
		t[1] = t_copy(s->src_va, s->dst_va, COPY_SIZE);
		t[2] = t_add(0);
		out = (struct drm_vnpu_sync){ 0 };
		sb.queue_id = s->q[k];
		sb.tasks = (uintptr_t)t;
		sb.task_count = 3;
		sb.task_stride = sizeof(t[0]);
		sb.args = (uintptr_t)&s->args;
		sb.args_size = sizeof(s->args);
		if (s->sync[i % ST_SYNCS]) {
			out.handle = s->sync[i % ST_SYNCS];
			sb.out_syncs = (uintptr_t)&out;
			sb.out_sync_count = 1;
		}
		ret = raw(s->fd, DRM_IOCTL_VNPU_SUBMIT, &sb);
		if (!ret) {
			s->seq[k] = sb.seq;
			s->added = true;
		}
		break;
	case 4:		/* command buffers */
		i %= ST_CMDBUFS;
		if (s->cmdbuf[i] && rnd(2)) {
			sb.queue_id = s->q[k];
			sb.flags = DRM_VNPU_SUBMIT_CMDBUF;
			sb.cmdbuf = s->cmdbuf[i];
			ret = raw(s->fd, DRM_IOCTL_VNPU_SUBMIT, &sb);
			if (!ret)
				s->seq[k] = sb.seq;
		} else if (s->cmdbuf[i]) {
			cd.handle = s->cmdbuf[i];
			ret = raw(s->fd, DRM_IOCTL_VNPU_CMDBUF_DESTROY, &cd);
			if (!ret)
				s->cmdbuf[i] = 0;
		} else {
			t[0] = t_copy(s->src_va, s->dst_va, COPY_SIZE);
			cc.tasks = (uintptr_t)t;
			cc.task_count = 1;
			cc.task_stride = sizeof(t[0]);
			ret = raw(s->fd, DRM_IOCTL_VNPU_CMDBUF_CREATE, &cc);
			if (!ret)
				s->cmdbuf[i] = cc.handle;
		}
		break;
	case 5:		/* user-managed VAs, one step of a cycle */
		if (!s->resv) {
			vr.size = 4 * SZ_64K;
			ret = raw(s->fd, DRM_IOCTL_VNPU_VM_RESERVE, &vr);
			if (!ret)
				s->resv = vr.va;
		} else if (!s->phys) {
			bc.size = SZ_64K;
			bc.flags = DRM_VNPU_BO_NO_VA;
			ret = bo_create_noted(s, &bc);
			if (!ret)
				s->phys = bc.handle;
		} else if (!s->mapped) {
			vm.va = s->resv + SZ_64K;
			vm.size = SZ_64K;
			vm.handle = s->phys;
			ret = raw(s->fd, DRM_IOCTL_VNPU_VM_MAP, &vm);
			s->mapped = !ret;
		} else if (rnd(2)) {
			mc.dst = s->resv + SZ_64K + 64;
			mc.src = (uintptr_t)pat;
			mc.size = 1024;
			mc.flags = DRM_VNPU_MEMCPY_DST_DEVICE;
			ret = raw(s->fd, DRM_IOCTL_VNPU_MEMCPY, &mc);
		} else {
			vu.va = s->resv + SZ_64K;
			vu.size = SZ_64K;
			ret = raw(s->fd, DRM_IOCTL_VNPU_VM_UNMAP, &vu);
			if (!ret) {
				s->mapped = false;
				gc.handle = s->phys;
				raw(s->fd, DRM_IOCTL_GEM_CLOSE, &gc);
				s->phys = 0;
				vrl.va = s->resv;
				if (!raw(s->fd, DRM_IOCTL_VNPU_VM_RELEASE, &vrl))
					s->resv = 0;
			}
		}
		break;
	case 6:		/* dma-buf: export, import in the other file, drop */
		i %= ST_FDS;
		if (s->dmabuf[i] >= 0) {
			ph = (struct drm_prime_handle){ .fd = s->dmabuf[i] };
			ret = raw(s->fd2, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph);
			if (!ret) {
				gc.handle = ph.handle;
				raw(s->fd2, DRM_IOCTL_GEM_CLOSE, &gc);
			}
			close(s->dmabuf[i]);
			s->dmabuf[i] = -1;
		} else {
			ph.handle = s->src;
			ph.flags = DRM_CLOEXEC | DRM_RDWR;
			ret = raw(s->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph);
			if (!ret)
				s->dmabuf[i] = ph.fd;
		}
		break;
	case 7:		/* syncobjs */
		i %= ST_SYNCS;
		if (s->sync[i]) {
			sd.handle = s->sync[i];
			ret = raw(s->fd, DRM_IOCTL_SYNCOBJ_DESTROY, &sd);
			if (!ret)
				s->sync[i] = 0;
		} else {
			sc.flags = rnd(2) ? DRM_SYNCOBJ_CREATE_SIGNALED : 0;
			ret = raw(s->fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc);
			if (!ret)
				s->sync[i] = sc.handle;
		}
		break;
	case 8:		/* look at a queue's last job */
		if (!s->seq[k])
			return;
		point = s->seq[k];
		sw.handles = (uintptr_t)&s->qsync[k];
		sw.points = (uintptr_t)&point;
		sw.count_handles = 1;
		sw.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL;
		ret = raw(s->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &sw);
		stress_note(s, op, ret, -ETIME);
		return;
	case 9:		/* a NOP job through io_uring */
		t[0] = t_nop();
		sb.queue_id = s->q[k];
		sb.tasks = (uintptr_t)t;
		sb.task_count = 1;
		sb.task_stride = sizeof(t[0]);
		sqe = io_uring_get_sqe(&s->ring);
		if (!sqe)
			return;
		memset(sqe, 0, 128);
		sqe->opcode = IORING_OP_URING_CMD;
		sqe->fd = s->fd;
		sqe->cmd_op = DRM_VNPU_URING_CMD_SUBMIT;
		sqe->user_data = k;
		memcpy(sqe->cmd, &sb, sizeof(sb));
		s->inflight++;
		/*
		 * An SQE io_uring could not take (-EAGAIN, -ENOMEM) stays in
		 * the ring and goes with the next submission.
		 */
		ret = io_uring_submit(&s->ring);
		stress_note(s, op, ret < 0 ? ret : 0, 0);
		stress_reap(s, op, ret > 0);
		return;
	case 10:	/* a queue comes and goes */
		if (s->extra_q) {
			qd.queue_id = s->extra_q;
			ret = raw(s->fd, DRM_IOCTL_VNPU_QUEUE_DESTROY, &qd);
			if (!ret)
				s->extra_q = 0;
		} else {
			qc.priority = DRM_VNPU_PRIORITY_LOW;
			ret = raw(s->fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &qc);
			if (!ret)
				s->extra_q = qc.queue_id;
		}
		break;
	default:	/* cheap calls */
		ret = raw(s->fd, DRM_IOCTL_VNPU_GET_PARAM,
			  &(struct drm_vnpu_get_param){ .param = rnd(23) });
		break;
	}
	stress_note(s, op, ret, 0);
}

static void stress_set(bool on)
{
	static const char *const on_set[][2] = {
		{ FAILSLAB "/task-filter", "Y" }, { FAILSLAB "/interval", "1" },
		{ FAILSLAB "/times", "-1" }, { FAILSLAB "/probability", "10" },
		{ FAILPAGE "/task-filter", "Y" }, { FAILPAGE "/interval", "1" },
		{ FAILPAGE "/times", "-1" }, { FAILPAGE "/probability", "10" },
	};
	size_t i;

	if (!on) {
		write_str(MAKE_IT_FAIL, "0");
		write_str(FAILSLAB "/probability", "0");
		write_str(FAILPAGE "/probability", "0");
		return;
	}
	for (i = 0; i < sizeof(on_set) / sizeof(on_set[0]); i++)
		write_str(on_set[i][0], on_set[i][1]);
	write_str(MAKE_IT_FAIL, "1");
}

/*
 * Random valid calls with 10 % of this thread's allocations failing, for
 * VNPU_FAILSLAB_STRESS_S seconds (default 5); then everything must still
 * work and be released.
 */
TEST_F_TIMEOUT(fi, stress_random_failures, 600)
{
	static struct stress S;
	struct stress *s = &S;
	struct fi_env *e = &E;
	const char *env = getenv("VNPU_FAILSLAB_STRESS_S");
	uint64_t secs = env ? strtoull(env, NULL, 0) : 5, end;
	float got[NFLOAT];
	unsigned int i, bad = 0;
	int k;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < ST_FDS; i++)
		s->dmabuf[i] = -1;
	s->fd = open(e->node, O_RDWR | O_CLOEXEC);
	s->fd2 = open(e->node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(s->fd, 0);
	ASSERT_GE(s->fd2, 0);
	for (k = 0; k < 2; k++)
		ASSERT_EQ(0, queue_new(s->fd, &s->q[k], &s->qsync[k]));
	ASSERT_EQ(0, bo_new(s->fd, COPY_SIZE, DRM_VNPU_PLACEMENT_DEVICE, 0,
			    &s->src, &s->src_va));
	ASSERT_EQ(0, bo_new(s->fd, COPY_SIZE, DRM_VNPU_PLACEMENT_DEVICE, 0,
			    &s->dst, &s->dst_va));
	ASSERT_EQ(0, bo_new(s->fd, 2 * NFLOAT * 4, DRM_VNPU_PLACEMENT_DEVICE, 0,
			    &s->a, &s->a_va));
	ASSERT_EQ(0, bo_new(s->fd, NFLOAT * 4, DRM_VNPU_PLACEMENT_DEVICE, 0,
			    &s->out, &s->out_va));
	ASSERT_EQ(0, h2d(s->fd, s->src_va, pat, COPY_SIZE));
	ASSERT_EQ(0, h2d(s->fd, s->a_va, fa, sizeof(fa)));
	ASSERT_EQ(0, h2d(s->fd, s->a_va + NFLOAT * 4, fb, sizeof(fb)));
	add_args_init(&s->args, s->a_va, s->a_va + NFLOAT * 4, s->out_va);
	ASSERT_EQ(0, io_uring_queue_init(8, &s->ring, RING_FLAGS));
	/* Every path once without injection (pages present, rings set up). */
	for (i = 0; i < 200; i++)
		stress_step(s);
	ASSERT_EQ(0, s->odd) TH_LOG("op %d: %d without injection", s->odd_op[0],
				    s->odd_ret[0]);
	s->calls = s->failures = 0;

	end = now_ns() + secs * 1000 * NS_PER_MS;
	stress_set(true);
	while (now_ns() < end)
		stress_step(s);
	stress_set(false);
	/* What the ring still holds goes now. */
	for (i = 0; s->inflight && i < 100; i++) {
		io_uring_submit(&s->ring);
		stress_reap(s, 9, true);
	}
	EXPECT_EQ(0, s->inflight);

	TH_LOG("%u random calls, %u failed with -ENOMEM/-EAGAIN (seed 0x9e3779b97f4a7c15)",
	       s->calls, s->failures);
	if (s->enospc)
		TH_LOG("note: %u of them were BO_CREATE failing with -ENOSPC (shmem inode)",
		       s->enospc);
	for (i = 0; i < s->odd && i < 16; i++)
		TH_LOG("unexpected: op %d returned %d", s->odd_op[i], s->odd_ret[i]);
	EXPECT_EQ(0, s->odd);
	EXPECT_GT(s->failures, 0) TH_LOG("no allocation failed: injection is not working");

	/* Every job ended well, and the queues take more. */
	for (k = 0; k < 2; k++) {
		struct drm_vnpu_task t = t_nop();
		uint64_t seq = 0;

		if (s->seq[k])
			EXPECT_EQ(DRM_VNPU_JOB_OK,
				  job_wait(s->fd, s->q[k], s->qsync[k], s->seq[k]));
		ASSERT_EQ(0, submit_tasks(s->fd, s->q[k], &t, 1, &seq));
		EXPECT_EQ(DRM_VNPU_JOB_OK, job_wait(s->fd, s->q[k], s->qsync[k], seq));
	}
	ASSERT_EQ(0, d2h(s->fd, got, s->out_va, sizeof(got)));
	for (i = 0; i < NFLOAT; i++)
		bad += s->added && got[i] != fa[i] + fb[i];
	EXPECT_EQ(0, bad);

	io_uring_queue_exit(&s->ring);
	for (i = 0; i < ST_FDS; i++)
		if (s->dmabuf[i] >= 0)
			close(s->dmabuf[i]);
	close(s->fd2);
	close(s->fd);
	/* The device is as it was, and a new file works. */
	run_begin(_metadata, e);
	device_works(_metadata, e->fd);
	run_end(_metadata, e);
}

/* ---------------------------------------------------------- kmemleak -- */

#define KMEMLEAK	"/sys/kernel/debug/kmemleak"

/*
 * What the failure paths above leaked. kmemleak reports an object only
 * when a scan finds it unreferenced and its contents unchanged since the
 * scan before (a first scan takes any changed object for live), so one
 * scan after the tests is not enough: scan twice, then read the report.
 * Objects whose allocation stack names vnpu fail the test; others (from
 * earlier suites in the same boot) are printed, and fail the boot's
 * dmesg check anyway. About 30 s a scan in the debug guest.
 */
TEST_F_TIMEOUT(fi, kmemleak_after_failures, 600)
{
	char line[512];
	int i, ours = 0, others = 0, shown = 0;
	bool in_report = false, in_vnpu = false;
	FILE *f;

	if (access(KMEMLEAK, W_OK))
		SKIP(return, "no %s: kernel without CONFIG_DEBUG_KMEMLEAK", KMEMLEAK);
	for (i = 0; i < 2; i++)
		if (write_str(KMEMLEAK, "scan"))
			SKIP(return, "kmemleak is disabled");
	f = fopen(KMEMLEAK, "re");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "unreferenced object", 19)) {
			if (in_report)
				*(in_vnpu ? &ours : &others) += 1;
			in_report = true;
			in_vnpu = false;
		}
		in_vnpu |= strstr(line, "vnpu") != NULL;
		if (shown++ < 200)
			TH_LOG("%s", line);
	}
	if (in_report)
		*(in_vnpu ? &ours : &others) += 1;
	fclose(f);
	if (others)
		TH_LOG("%d leak reports without vnpu in their stacks", others);
	EXPECT_EQ(0, ours) TH_LOG("kmemleak: objects allocated through vnpu leaked");
}

TEST_HARNESS_MAIN
