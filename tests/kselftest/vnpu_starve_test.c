// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu security regressions of round 3 (Documentation/security.md), each
 * run as the unprivileged user nobody:
 *
 *  - one file with more queues than an engine has credits, each holding a
 *    long WAIT_VALUE job, must not keep another file's NOP off the engines;
 *  - a long operator call with phases (a reduction over long rows) parks
 *    at its time slice's end for another file's job, and its result is
 *    still right when it resumes;
 *  - a SORT call's total work is bounded, not only its work per row;
 *  - a task that starts after an object was closed faults, even when the
 *    engine cached the object's translation for the task before;
 *  - an access may cross at most 1024 VM mappings (a BOUNDS fault past it).
 *
 * The tests start as root (the VM runs them so): the cache test sets the
 * engine_delay_ns knob as root and runs the attacker in a child that drops
 * to nobody; the others drop to nobody at once.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <drm/vnpu_accel.h>

#include "vnpu_job_util.h"	/* first: it sets xioctl()'s restarts */
#include "vnpu_test_util.h"
#include "kselftest_harness.h"

#define NOBODY		65534
#define NS_PER_MS	1000000ULL
/* Another file's NOP must finish within this, whatever the hog does. */
#define NOP_BOUND_MS	2000
/* More queues than the engines had credits before (2 x 64). */
#define HOG_QUEUES	130
/* The hog's waits end by themselves after this (a safety net). */
#define HOG_WAIT_MS	30000
/* Mappings one access may cross (VNPU_VM_WINDOW_MAPS in vnpu_vm.c). */
#define WINDOW_MAPS	1024

static const char node[] = "/dev/accel/accel0";

/* Open the nodes to everybody and become nobody; 0 or -errno. */
static int become_nobody(void)
{
	char paths[VNPU_TEST_MAX_NODES][64];
	int i, n;

	if (geteuid() != 0)
		return 0;
	n = vnpu_list_nodes(paths, VNPU_TEST_MAX_NODES);
	for (i = 0; i < n; i++)
		chmod(paths[i], 0666);
	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		return -errno;
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	return 0;
}

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

static int submit(int fd, uint32_t q, const struct drm_vnpu_task *t,
		  uint32_t n, uint64_t *seq)
{
	return submit_args(fd, q, t, n, NULL, 0, seq);
}

/* Wait up to timeout_ms for a point; 0, -ETIME or another -errno. */
static int wait_point(int fd, uint32_t sync, uint64_t point,
		      uint64_t timeout_ms)
{
	struct drm_syncobj_timeline_wait w = {
		.handles = (uintptr_t)&sync, .points = (uintptr_t)&point,
		.timeout_nsec = now_ns() + timeout_ms * NS_PER_MS,
		.count_handles = 1,
		.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
	};

	return xioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w);
}

static int bo_new(int fd, uint64_t size, uint32_t flags, uint64_t *va,
		  uint32_t *handle)
{
	struct drm_vnpu_bo_create c = { .size = size, .flags = flags };
	int ret = xioctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &c);

	if (!ret) {
		*va = c.va;
		*handle = c.handle;
	}
	return ret;
}

static struct drm_vnpu_task t_fill(uint64_t dst, uint64_t size, uint64_t v,
				   uint32_t psize)
{
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_FILL };

	t.fill.dst = dst;
	t.fill.size = size;
	t.fill.pattern = v;
	t.fill.pattern_size = psize;
	return t;
}

/*
 * A victim: a NOP from a file of its own. Returns how long it took to
 * finish in ms, or a negative errno.
 */
static long victim_nop_ms(uint64_t limit_ms)
{
	struct drm_vnpu_task nop = t_nop();
	uint32_t q = 0, sync = 0;
	uint64_t seq = 0, t0 = 0;
	long ret;
	int fd = open(node, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	ret = queue_create(fd, DRM_VNPU_PRIORITY_NORMAL, &q, &sync);
	if (!ret) {
		t0 = now_ns();
		ret = submit(fd, q, &nop, 1, &seq);
	}
	if (!ret)
		ret = wait_point(fd, sync, seq, limit_ms);
	if (!ret)
		ret = (long)((now_ns() - t0) / NS_PER_MS);
	close(fd);
	return ret;
}

/* How many of the first n u64 slots of b are set. */
static int count_set(const struct ubuf *b, int first, int n)
{
	int i, c = 0;

	for (i = first; i < first + n; i++)
		c += __atomic_load_n(&b->p[i], __ATOMIC_ACQUIRE) != 0;
	return c;
}

/*
 * One file, 130 queues, a long WAIT_VALUE job on each: before, the jobs
 * took every credit of both engines' schedulers (64 each) and another
 * file's NOP waited for their timeouts. Now a file holds at most 32 jobs
 * an engine and the NOP runs within a slice or two.
 */
TEST(many_queues_do_not_keep_another_file_off)
{
	struct drm_vnpu_task t[2];
	struct ubuf m = { 0 };
	uint32_t q[HOG_QUEUES];
	uint64_t seq, deadline;
	int fd, i, started = 0, last = -1;
	long ms;

	ASSERT_EQ(0, become_nobody());
	fd = open(node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd, 0);
	/* [0] released by nobody but the test; [1 + i] queue i started. */
	ASSERT_EQ(0, ubuf_create(fd, 8 * (HOG_QUEUES + 1), &m));
	for (i = 0; i < HOG_QUEUES; i++) {
		ASSERT_EQ(0, queue_create(fd, DRM_VNPU_PRIORITY_NORMAL, &q[i],
					  NULL)) TH_LOG("queue %d", i);
		t[0] = t_ts(m.va + 8 * (1 + i));
		t[1] = t_wait(m.va, 1, DRM_VNPU_WAIT_EQ,
			      HOG_WAIT_MS * NS_PER_MS);
		ASSERT_EQ(0, submit(fd, q[i], t, 2, &seq)) TH_LOG("job %d", i);
	}
	/* Let the hog's jobs take what they can get. */
	deadline = now_ns() + 10000 * NS_PER_MS;
	while (now_ns() < deadline) {
		sleep_ms(300);
		started = count_set(&m, 1, HOG_QUEUES);
		if (started == last || started == HOG_QUEUES)
			break;
		last = started;
	}
	EXPECT_GE(started, 2);

	ms = victim_nop_ms(HOG_WAIT_MS + 10000);
	EXPECT_GE(ms, 0) TH_LOG("victim NOP: %s", strerror((int)-ms));
	EXPECT_LT(ms, NOP_BOUND_MS) TH_LOG("the NOP waited %ld ms", ms);
	TH_LOG("%d of %d hog jobs started; victim NOP took %ld ms", started,
	       HOG_QUEUES, ms);

	m.p[0] = 1;
	close(fd);
}

/* REDUCE_SUM over the second axis of x [rows, len] (rows repeat). */
struct red_args {
	struct drm_vnpu_kernel_args k;
	struct drm_vnpu_tensor t[2];
	struct drm_vnpu_op_attrs a;
};

static void red_args_init(struct red_args *r, uint64_t x, uint64_t out,
			  int64_t rows, int64_t len)
{
	memset(r, 0, sizeof(*r));
	r->k.num_inputs = 1;
	r->k.num_outputs = 1;
	r->k.attr_size = sizeof(r->a);
	r->t[0].va = x;
	r->t[0].dtype = DRM_VNPU_DTYPE_FLOAT;
	r->t[0].rank = 2;
	r->t[0].shape[0] = rows;
	r->t[0].shape[1] = len;
	r->t[0].strides[0] = 0;
	r->t[0].strides[1] = 1;
	r->t[1].va = out;
	r->t[1].dtype = DRM_VNPU_DTYPE_FLOAT;
	r->t[1].rank = 1;
	r->t[1].shape[0] = rows;
	r->t[1].strides[0] = 1;
	r->a.ints[0] = 1 << 1;	/* axis 1 */
	r->a.ints[1] = 0;	/* no keepdim */
}

/* Rows of a reduction: 64 chunks each, 2048 pieces in all at most. */
#define RED_ROWS	32
#define RED_LEN		(4 << 20)
/* Two reductions queued per engine of a two-engine device. */
#define RED_JOBS	4

/*
 * One file keeps every engine busy with long reductions with phases, two
 * queued per engine; another file's NOP must not wait for any of them to
 * end. Before, a call with phases never parked, and the NOP waited for
 * whole calls. The sums must still be exact once the calls resume.
 */
TEST(long_split_call_parks_for_another_file)
{
	struct drm_vnpu_task fill, t[RED_JOBS][3];
	struct red_args args[RED_JOBS];
	struct ubuf m = { 0 };
	uint32_t q[RED_JOBS], sync[RED_JOBS], hx, ho[RED_JOBS];
	uint64_t x, out[RED_JOBS], seq[RED_JOBS], deadline, call_ns = ~0ULL;
	float got[RED_ROWS];
	long ms, job_max = vnpu_module_param("job_max_ms");
	/* Seconds each under TCG; a short job_max_ms gets shorter calls. */
	int rows = job_max >= 60000 ? RED_ROWS : RED_ROWS / 4;
	int fd, i, j = 0;

	ASSERT_EQ(0, become_nobody());
	fd = open(node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd, 0);
	/* [2i] job i's reduction started, [2i + 1] it ended */
	ASSERT_EQ(0, ubuf_create(fd, 4096, &m));
	ASSERT_EQ(0, bo_new(fd, (uint64_t)RED_LEN * 4, 0, &x, &hx));
	for (i = 0; i < RED_JOBS; i++) {
		ASSERT_EQ(0, bo_new(fd, RED_ROWS * 4, 0, &out[i], &ho[i]));
		ASSERT_EQ(0, queue_create(fd, DRM_VNPU_PRIORITY_NORMAL, &q[i],
					  &sync[i]));
		red_args_init(&args[i], x, out[i], rows, RED_LEN);
	}
	/* 1.0f everywhere, so a row sums to RED_LEN exactly. */
	fill = t_fill(x, (uint64_t)RED_LEN * 4, 0x3f800000, 4);
	ASSERT_EQ(0, submit(fd, q[0], &fill, 1, &seq[0]));
	ASSERT_EQ(0, wait_point(fd, sync[0], seq[0], 60000));
	for (i = 0; i < RED_JOBS; i++) {
		t[i][0] = t_ts(m.va + 16 * i);
		t[i][1] = (struct drm_vnpu_task){ .type = DRM_VNPU_TASK_KERNEL };
		t[i][1].kernel.op = DRM_VNPU_OP_REDUCE_SUM;
		t[i][1].kernel.args_size = sizeof(args[i]);
		t[i][2] = t_ts(m.va + 16 * i + 8);
		ASSERT_EQ(0, submit_args(fd, q[i], t[i], 3, &args[i],
					 sizeof(args[i]), &seq[i]));
	}
	/* Reductions run on both engines. */
	deadline = now_ns() + 60000 * NS_PER_MS;
	while (now_ns() < deadline) {
		for (i = j = 0; i < RED_JOBS; i++)
			j += m.p[2 * i] && !m.p[2 * i + 1];
		if (j >= 2)
			break;
		sleep_ms(2);
	}
	ASSERT_GE(j, 2);

	ms = victim_nop_ms(300000);
	EXPECT_GE(ms, 0) TH_LOG("victim NOP: %s", strerror((int)-ms));
	EXPECT_LT(ms, NOP_BOUND_MS) TH_LOG("the NOP waited %ld ms", ms);

	for (i = 0; i < RED_JOBS; i++) {
		struct drm_vnpu_memcpy c = {
			.dst = (uintptr_t)got, .src = out[i],
			.size = rows * sizeof(got[0]),
			.flags = DRM_VNPU_MEMCPY_SRC_DEVICE,
		};

		ASSERT_EQ(0, wait_point(fd, sync[i], seq[i], 600000));
		ASSERT_EQ(DRM_VNPU_JOB_OK, job_state(fd, q[i], seq[i]));
		ASSERT_EQ(0, xioctl(fd, DRM_IOCTL_VNPU_MEMCPY, &c));
		for (j = 0; j < rows; j++)
			ASSERT_EQ((float)RED_LEN, got[j])
				TH_LOG("job %d row %d", i, j);
		if (m.p[2 * i + 1] - m.p[2 * i] < call_ns)
			call_ns = m.p[2 * i + 1] - m.p[2 * i];
	}
	TH_LOG("victim NOP took %ld ms; the shortest reduction %llu ms", ms,
	       (unsigned long long)(call_ns / NS_PER_MS));
	close(fd);
}

/* SORT of x [rows, len] along axis 1, every view with stride-0 rows. */
struct sort_args {
	struct drm_vnpu_kernel_args k;
	struct drm_vnpu_tensor t[3];
	struct drm_vnpu_op_attrs a;
};

/*
 * A SORT call's pieces were bounded per row, not in all: 65536 rows of
 * 131072 elements, viewed over half a megabyte with stride-0 rows, made
 * 393,216 pieces (over 20 minutes of one engine natively) and was
 * accepted. Now the call's total work is bounded and SUBMIT fails.
 */
TEST(sort_total_work_is_bounded)
{
	const int64_t rows = 65536, len = 131072;
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_KERNEL };
	struct sort_args a;
	uint32_t q, h[3];
	uint64_t va[3], seq;
	int fd, i;

	ASSERT_EQ(0, become_nobody());
	fd = open(node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, queue_create(fd, DRM_VNPU_PRIORITY_NORMAL, &q, NULL));
	memset(&a, 0, sizeof(a));
	a.k.num_inputs = 1;
	a.k.num_outputs = 2;
	a.k.attr_size = sizeof(a.a);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, bo_new(fd, len * (i == 2 ? 8 : 4), 0, &va[i], &h[i]));
		a.t[i].va = va[i];
		a.t[i].dtype = i == 2 ? DRM_VNPU_DTYPE_INT64 : DRM_VNPU_DTYPE_FLOAT;
		a.t[i].rank = 2;
		a.t[i].shape[0] = rows;
		a.t[i].shape[1] = len;
		a.t[i].strides[1] = 1;
	}
	a.a.ints[0] = 1;	/* axis */
	t.kernel.op = DRM_VNPU_OP_SORT;
	t.kernel.args_size = sizeof(a);
	EXPECT_EQ(-EINVAL, submit_args(fd, q, &t, 1, &a, sizeof(a), &seq));
	/* The same sort of 4 rows is fine. */
	for (i = 0; i < 3; i++)
		a.t[i].shape[0] = 4;
	EXPECT_EQ(0, submit_args(fd, q, &t, 1, &a, sizeof(a), &seq));
	close(fd);
}

/* The attacker of the cache test, as nobody: 0 when the task faulted. */
static int cache_attacker(void)
{
	struct drm_vnpu_task t[3];
	struct drm_vnpu_job_status st;
	struct ubuf m = { 0 };
	uint32_t q, sync, h;
	uint64_t va, seq, deadline;
	int fd;

	if (become_nobody())
		return 10;
	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0 || ubuf_create(fd, 4096, &m) ||
	    queue_create(fd, DRM_VNPU_PRIORITY_NORMAL, &q, &sync) ||
	    bo_new(fd, 4096, 0, &va, &h))
		return 11;
	/* Task 0 caches the object's translation, task 2 reuses it. */
	t[0] = t_fill(va, 4096, 0x11, 1);
	t[1] = t_write(m.va, 1);
	t[2] = t_fill(va, 4096, 0x22, 1);
	if (submit(fd, q, t, 3, &seq))
		return 12;
	/* Close the object in the delay before task 2 starts. */
	deadline = now_ns() + 30000 * NS_PER_MS;
	while (!__atomic_load_n(&m.p[0], __ATOMIC_ACQUIRE) &&
	       now_ns() < deadline)
		;
	if (!m.p[0] || gem_close(fd, h))
		return 13;
	if (wait_point(fd, sync, seq, 60000) || job_status(fd, q, seq, &st))
		return 14;
	if (st.state != DRM_VNPU_JOB_FAULT)
		return 1;	/* task 2 wrote through the stale entry */
	if (st.task != 2 || st.fault_va != va)
		return 2;
	close(fd);
	return 0;
}

/*
 * The engines' translation cache was checked after a task, not right
 * before the next one: an object closed in between (here in the
 * engine_delay_ns pause before task 2) was still written through the
 * stale entry.
 */
TEST(task_after_close_faults_despite_the_cache)
{
	char dir[256];
	int status;
	pid_t pid;

	if (geteuid() != 0)
		SKIP(return, "needs root to set engine_delay_ns");
	ASSERT_EQ(0, vnpu_debugfs_dir(node, dir, sizeof(dir)));
	ASSERT_EQ(0, knob_write(dir, "engine_delay_ns", 300 * NS_PER_MS));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		_exit(cache_attacker());
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, knob_write(dir, "engine_delay_ns", 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("attacker status %d (1: no fault)", WEXITSTATUS(status));
}

static int vm_reserve(int fd, uint64_t size, uint64_t *va)
{
	struct drm_vnpu_vm_reserve r = { .size = size };
	int ret = xioctl(fd, DRM_IOCTL_VNPU_VM_RESERVE, &r);

	*va = r.va;
	return ret;
}

static int vm_map(int fd, uint64_t va, uint64_t size, uint32_t handle)
{
	struct drm_vnpu_vm_map m = { .va = va, .size = size, .handle = handle };

	return xioctl(fd, DRM_IOCTL_VNPU_VM_MAP, &m);
}

/*
 * A copy across many adjacent VM mappings makes the engine pin and map
 * every object behind them under the file's VM lock: at most 1024 of
 * them, then a BOUNDS fault (before, up to 65,536 within the device's
 * memory size).
 */
TEST(an_access_crosses_at_most_1024_mappings)
{
	const uint64_t pg = 4096;
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t;
	uint32_t q, sync, h, hs;
	uint64_t r, src, seq, i, dummy;
	int fd;

	ASSERT_EQ(0, become_nobody());
	fd = open(node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, queue_create(fd, DRM_VNPU_PRIORITY_NORMAL, &q, &sync));
	ASSERT_EQ(0, vm_reserve(fd, (WINDOW_MAPS + 1) * pg, &r));
	ASSERT_EQ(0, bo_new(fd, pg, DRM_VNPU_BO_NO_VA, &dummy, &h));
	ASSERT_EQ(0, bo_new(fd, (WINDOW_MAPS + 1) * pg, 0, &src, &hs));
	for (i = 0; i <= WINDOW_MAPS; i++)
		ASSERT_EQ(0, vm_map(fd, r + i * pg, pg, h)) TH_LOG("map %llu",
								(unsigned long long)i);
	/* Exactly 1024 mappings: fine. */
	t = t_copy(src, r, WINDOW_MAPS * pg);
	ASSERT_EQ(0, submit(fd, q, &t, 1, &seq));
	ASSERT_EQ(0, wait_point(fd, sync, seq, 120000));
	ASSERT_EQ(DRM_VNPU_JOB_OK, job_state(fd, q, seq));
	/* One more: a BOUNDS fault at the access's start. */
	t = t_copy(src, r, (WINDOW_MAPS + 1) * pg);
	ASSERT_EQ(0, submit(fd, q, &t, 1, &seq));
	ASSERT_EQ(0, wait_point(fd, sync, seq, 120000));
	ASSERT_EQ(0, job_status(fd, q, seq, &st));
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, st.state);
	EXPECT_EQ(DRM_VNPU_FAULT_BOUNDS, st.fault_reason);
	EXPECT_EQ(r, st.fault_va);
	close(fd);
}

TEST_HARNESS_MAIN
