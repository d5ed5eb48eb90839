// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fairness tests of the vnpu engines: files that keep every engine busy
 * with long jobs do not starve another file's short job (time slices), a
 * queue's jobs stay in order while they are sliced, a job that keeps making
 * progress is still stopped by the hard limit (job_max_ms), and a task that
 * describes an absurd amount of work is rejected at submit. Runs in the VM
 * with vnpu.ko loaded; engines, timeouts and limits are read from the
 * module, and the hard-limit tests skip when job_max_ms is too long to wait
 * for (run-vm.sh's second boot sets a short one).
 */
#include <pthread.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <time.h>

#include "vnpu_job_util.h"	/* first: it sets xioctl()'s restarts */
#include "vnpu_test_util.h"
#include "kselftest_harness.h"

#define NS_PER_MS	1000000ULL

/* The NOP of another file must finish within this under the hogs. */
#define FAIR_NOP_BOUND_MS	2000
/* Hard-limit tests wait about job_max_ms; skip above this. */
#define FAIR_MAX_WAIT_MS	15000

static int submit(int fd, uint32_t queue, const struct drm_vnpu_task *t,
		  uint32_t n, uint64_t *seq)
{
	return submit_args(fd, queue, t, n, NULL, 0, seq);
}

/* Wait for a timeline point with a deadline timeout_ms from now. */
static int wait_point(int fd, uint32_t handle, uint64_t point,
		      uint64_t timeout_ms)
{
	struct drm_syncobj_timeline_wait w = {
		.handles = (uintptr_t)&handle, .points = (uintptr_t)&point,
		.timeout_nsec = now_ns() + timeout_ms * NS_PER_MS,
		.count_handles = 1,
		.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL |
			 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
	};

	return xioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w);
}

/* Sums of two columns of debugfs "engines": yields and overruns. */
static int engines_yields(const char *dir, unsigned long long *yields,
			  unsigned long long *overruns)
{
	unsigned long long busy, jobs, resets, progress, helped, y, o;
	char path[400], line[512];
	unsigned int idx;
	FILE *f;

	*yields = *overruns = 0;
	snprintf(path, sizeof(path), "%s/engines", dir);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%u %llu %llu %llu %llu %llu %llu %llu", &idx,
			   &busy, &jobs, &resets, &progress, &helped, &y,
			   &o) != 8)
			continue;
		*yields += y;
		*overruns += o;
	}
	fclose(f);
	return 0;
}

/* ------------------------------------------------------------ the hogs -- */

#define HOG_SPIN_MS	250
#define HOG_SPINS	64	/* 16 s of spinning in 250 ms tasks */

/*
 * A process-like context that keeps every engine busy: one HIGH queue per
 * engine, alternately a job that waits (polling, i.e. "progress") for a
 * value nobody writes and a job of many SPIN tasks. Closing the file ends
 * them.
 */
struct hog {
	int fd;
	struct ubuf m;	/* [0] the value never written, [8 + i] starts */
	uint32_t q[64], so[64];
	int n;
};

static int hog_start(const char *node, int engines, struct hog *h)
{
	struct drm_vnpu_task t[HOG_SPINS + 1];
	uint64_t seq;
	int i, j, ret;

	memset(h, 0, sizeof(*h));
	h->fd = open(node, O_RDWR | O_CLOEXEC);
	if (h->fd < 0)
		return -errno;
	ret = ubuf_create(h->fd, 4096, &h->m);
	if (ret)
		return ret;
	for (i = 0; i < engines && i < 64; i++, h->n++) {
		ret = queue_create(h->fd, DRM_VNPU_PRIORITY_HIGH, &h->q[i],
				   &h->so[i]);
		if (ret)
			return ret;
		t[0] = t_ts(h->m.va + 8 * (8 + i));
		if (i % 2 == 0) {
			t[1] = t_wait(h->m.va, 1, DRM_VNPU_WAIT_EQ, 0);
			ret = submit(h->fd, h->q[i], t, 2, &seq);
		} else {
			for (j = 1; j <= HOG_SPINS; j++)
				t[j] = t_spin(HOG_SPIN_MS * NS_PER_MS);
			ret = submit(h->fd, h->q[i], t, HOG_SPINS + 1, &seq);
		}
		if (ret)
			return ret;
	}
	return 0;
}

/* How many of the hog's jobs have started. */
static int hog_started(struct hog *h)
{
	int i, n = 0;

	for (i = 0; i < h->n; i++)
		n += __atomic_load_n(&h->m.p[8 + i], __ATOMIC_ACQUIRE) != 0;
	return n;
}

/* Are all of the hog's jobs still unfinished? */
static bool hog_busy(struct hog *h)
{
	int i;

	for (i = 0; i < h->n; i++)
		if (job_state(h->fd, h->q[i], 1) != DRM_VNPU_JOB_PENDING)
			return false;
	return true;
}

static void hog_stop(struct hog *h)
{
	if (h->fd < 0)
		return;
	/* Running jobs stop at their next yield point, queued ones go. */
	ubuf_free(h->fd, &h->m);
	close(h->fd);
	h->fd = -1;
}

/* ------------------------------------------------------------ fixture -- */

FIXTURE(fair)
{
	int fd;
	char node[64];
	char dir[320];
	long engines;
	long timeout_ms;
	long job_max_ms;
	long slice_ms;
};

FIXTURE_SETUP(fair)
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
	self->job_max_ms = vnpu_module_param("job_max_ms");
	self->slice_ms = vnpu_module_param("job_slice_ms");
	ASSERT_GE(self->engines, 1);
	ASSERT_LE(self->engines, 64);
	ASSERT_GE(self->timeout_ms, 10);
	ASSERT_GE(self->job_max_ms, 100);
	ASSERT_GE(self->slice_ms, 1);
}

FIXTURE_TEARDOWN(fair)
{
	close(self->fd);
}

/* ----------------------------------------------------------- fairness -- */

#define FAIR_NOPS	5

/*
 * The reproducer of "engine starvation": two files keep every engine busy
 * with long HIGH-priority jobs (waits that poll, and many spins), then a
 * third file's NOP jobs must each finish within FAIR_NOP_BOUND_MS; before
 * engines were shared in time slices one waited until a hog job ended
 * (more than 21 s).
 */
TEST_F_TIMEOUT(fair, nop_not_starved_by_two_hog_files, 120)
{
	struct hog a, b;
	struct drm_vnpu_task nop = t_nop();
	uint64_t t0, lat, worst = 0, seq;
	unsigned long long y0, y1, o;
	uint32_t q, so;
	int i;

	a.fd = b.fd = -1;
	ASSERT_EQ(0, engines_yields(self->dir, &y0, &o));
	ASSERT_EQ(0, hog_start(self->node, self->engines, &a));
	ASSERT_EQ(0, hog_start(self->node, self->engines, &b));
	/* Every engine runs a hog's job (all of them, once sliced). */
	t0 = now_ns();
	while (hog_started(&a) + hog_started(&b) < self->engines &&
	       now_ns() - t0 < 5000 * NS_PER_MS)
		sleep_ms(5);
	ASSERT_GE(hog_started(&a) + hog_started(&b), self->engines);
	sleep_ms(200);

	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	for (i = 0; i < FAIR_NOPS; i++) {
		t0 = now_ns();
		ASSERT_EQ(0, submit(self->fd, q, &nop, 1, &seq));
		ASSERT_EQ(0, wait_point(self->fd, so, seq, 30000))
			TH_LOG("NOP %d not done after 30 s", i);
		lat = now_ns() - t0;
		EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q, seq));
		if (lat > worst)
			worst = lat;
		sleep_ms(50);
	}
	TH_LOG("%d NOPs under 2 x %ld hog jobs: worst latency %llu ms (%d of %d hog jobs started)",
	       FAIR_NOPS, self->engines,
	       (unsigned long long)(worst / NS_PER_MS),
	       hog_started(&a) + hog_started(&b), 2 * (int)self->engines);
	EXPECT_LT(worst, FAIR_NOP_BOUND_MS * NS_PER_MS);
	/* The hogs were long jobs, still running all the while. */
	EXPECT_TRUE(hog_busy(&a));
	EXPECT_TRUE(hog_busy(&b));
	ASSERT_EQ(0, engines_yields(self->dir, &y1, &o));
	EXPECT_GT(y1, y0);
	hog_stop(&a);
	hog_stop(&b);
}

#define ORDER_JOBS	16
#define ORDER_SPIN_MS	30

/*
 * A queue's jobs stay in order while the engine slices between them and
 * another file's hogs: job i waits (in the device) for the counter to be
 * i, spins across several slices, then sets it to i + 1; a job that ran
 * early would time out in its wait. Timestamps and values read back in
 * order.
 */
TEST_F_TIMEOUT(fair, queue_order_under_time_slicing, 120)
{
	struct drm_vnpu_task t[6];
	struct ubuf m = { 0 };
	unsigned long long y0, y1, o;
	uint64_t seq = 0;
	struct hog h;
	uint32_t q, so;
	int i;

	h.fd = -1;
	/* m: [0] counter, [1 + 3i] start, [2 + 3i] end, [3 + 3i] value */
	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	ASSERT_EQ(0, engines_yields(self->dir, &y0, &o));
	ASSERT_EQ(0, hog_start(self->node, self->engines, &h));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	for (i = 0; i < ORDER_JOBS; i++) {
		t[0] = t_wait(m.va, i, DRM_VNPU_WAIT_EQ, 5000 * NS_PER_MS);
		t[1] = t_ts(m.va + 8 * (1 + 3 * i));
		t[2] = t_spin(ORDER_SPIN_MS * NS_PER_MS);
		t[3] = t_ts(m.va + 8 * (2 + 3 * i));
		t[4] = t_write(m.va + 8 * (3 + 3 * i), 0x100 + i);
		t[5] = t_write(m.va, i + 1);
		ASSERT_EQ(0, submit(self->fd, q, t, 6, &seq));
	}
	ASSERT_EQ(0, wait_point(self->fd, so, seq, 60000));
	for (i = 0; i < ORDER_JOBS; i++) {
		ASSERT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q, i + 1))
			TH_LOG("job %d", i + 1);
		EXPECT_EQ(0x100 + (uint64_t)i, m.p[3 + 3 * i]);
		EXPECT_GE(m.p[2 + 3 * i] - m.p[1 + 3 * i],
			  ORDER_SPIN_MS * NS_PER_MS);
		if (i)
			EXPECT_GE(m.p[1 + 3 * i], m.p[2 + 3 * (i - 1)])
				TH_LOG("job %d started before job %d ended", i + 1, i);
	}
	EXPECT_EQ((uint64_t)ORDER_JOBS, m.p[0]);
	EXPECT_TRUE(hog_busy(&h));
	/* The engines did slice between the two files. */
	ASSERT_EQ(0, engines_yields(self->dir, &y1, &o));
	EXPECT_GT(y1, y0);
	TH_LOG("%llu yields while %d jobs of %d ms ran beside the hogs",
	       y1 - y0, ORDER_JOBS, ORDER_SPIN_MS);
	hog_stop(&h);
	ubuf_free(self->fd, &m);
}

#define BIG_ELEMS	(4u << 20)	/* int32: 16 MiB, 64 steps, 64 pieces */

struct add_args {
	struct drm_vnpu_kernel_args ka;
	struct drm_vnpu_tensor t[3];
};

static void dense_i32(struct drm_vnpu_tensor *t, uint64_t va, uint32_t n)
{
	memset(t, 0, sizeof(*t));
	t->va = va;
	t->dtype = DRM_VNPU_DTYPE_INT32;
	t->rank = 1;
	t->shape[0] = n;
	t->strides[0] = 1;
}

/*
 * Big FILL, COPY and KERNEL tasks beside another file's hogs are parked
 * and resumed in the middle (at a step or an operator piece) and still
 * produce exactly the right bytes.
 */
TEST_F_TIMEOUT(fair, big_tasks_resume_mid_task, 120)
{
	struct ubuf a = { 0 }, b = { 0 }, c = { 0 }, d = { 0 };
	const size_t size = BIG_ELEMS * 4;
	unsigned long long y0, y1, o, yields[3];
	struct drm_vnpu_task t[3];
	struct add_args aa;
	uint64_t seq;
	uint32_t q, so, i, bad = 0;
	int j;
	struct hog h;

	h.fd = -1;
	ASSERT_EQ(0, ubuf_create(self->fd, size, &a));
	ASSERT_EQ(0, ubuf_create(self->fd, size, &b));
	ASSERT_EQ(0, ubuf_create(self->fd, size, &c));
	ASSERT_EQ(0, ubuf_create(self->fd, size, &d));
	for (i = 0; i < BIG_ELEMS; i++)
		((volatile uint32_t *)a.p)[i] = i;
	ASSERT_EQ(0, hog_start(self->node, self->engines, &h));

	memset(t, 0, sizeof(t));
	t[0].type = DRM_VNPU_TASK_FILL;
	t[0].fill.dst = b.va;
	t[0].fill.size = size;
	t[0].fill.pattern = 3;
	t[0].fill.pattern_size = 4;
	t[1].type = DRM_VNPU_TASK_COPY;
	t[1].copy.src = a.va;
	t[1].copy.dst = c.va;
	t[1].copy.size = size;
	memset(&aa, 0, sizeof(aa));
	aa.ka.num_inputs = 2;
	aa.ka.num_outputs = 1;
	dense_i32(&aa.t[0], c.va, BIG_ELEMS);
	dense_i32(&aa.t[1], b.va, BIG_ELEMS);
	dense_i32(&aa.t[2], d.va, BIG_ELEMS);
	t[2].type = DRM_VNPU_TASK_KERNEL;
	t[2].kernel.op = DRM_VNPU_OP_ADD;
	t[2].kernel.args_size = sizeof(aa);
	/*
	 * One task a job: a job's last task ends it without a yield, so a
	 * job that yields at all (besides the hog yielding to it first)
	 * was parked in the middle of its task.
	 */
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	for (j = 0; j < 3; j++) {
		ASSERT_EQ(0, engines_yields(self->dir, &y0, &o));
		ASSERT_EQ(0, submit_args(self->fd, q, &t[j], 1, &aa, sizeof(aa),
					 &seq));
		ASSERT_EQ(0, wait_point(self->fd, so, seq, 60000));
		EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q, seq));
		ASSERT_EQ(0, engines_yields(self->dir, &y1, &o));
		yields[j] = y1 - y0;
	}
	EXPECT_TRUE(hog_busy(&h));
	hog_stop(&h);
	TH_LOG("yields during FILL %llu, COPY %llu, ADD %llu", yields[0],
	       yields[1], yields[2]);
	/* A 4-byte-pattern FILL and the ADD take many slices under TCG. */
	EXPECT_GE(yields[0], 2);
	EXPECT_GE(yields[2], 2);

	for (i = 0; i < BIG_ELEMS; i++) {
		uint32_t vb = ((volatile uint32_t *)b.p)[i];
		uint32_t vc = ((volatile uint32_t *)c.p)[i];
		uint32_t vd = ((volatile uint32_t *)d.p)[i];

		if (vb != 3 || vc != i || vd != i + 3) {
			if (!bad++)
				TH_LOG("element %u: fill %u copy %u add %u", i,
				       vb, vc, vd);
		}
	}
	EXPECT_EQ(0, bad);
	ubuf_free(self->fd, &a);
	ubuf_free(self->fd, &b);
	ubuf_free(self->fd, &c);
	ubuf_free(self->fd, &d);
}

/*
 * Hang detection counts engine time, not time parked: a single SPIN of
 * 1.3 hang timeouts alone would be a hang (no progress for a whole
 * timeout), but beside another file's hog it runs about half the time and
 * is not aborted. The hog's jobs, alive all along, are not aborted either.
 */
TEST_F_TIMEOUT(fair, parked_time_is_not_hang_time, 120)
{
	struct drm_vnpu_task t = t_spin(self->timeout_ms * NS_PER_MS * 13 / 10);
	unsigned long long y0, y1, o;
	uint64_t seq;
	uint32_t q, so;
	struct hog h;

	h.fd = -1;
	if (self->timeout_ms > 10000)
		SKIP(return, "job_timeout_ms=%ld makes this too slow", self->timeout_ms);
	if (self->job_max_ms < 2 * self->timeout_ms)
		SKIP(return, "job_max_ms=%ld would stop the hogs", self->job_max_ms);
	ASSERT_EQ(0, engines_yields(self->dir, &y0, &o));
	ASSERT_EQ(0, hog_start(self->node, self->engines, &h));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	ASSERT_EQ(0, submit(self->fd, q, &t, 1, &seq));
	ASSERT_EQ(0, wait_point(self->fd, so, seq, 10 * self->timeout_ms));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q, seq));
	EXPECT_TRUE(hog_busy(&h));
	ASSERT_EQ(0, engines_yields(self->dir, &y1, &o));
	EXPECT_GT(y1, y0 + 10);
	hog_stop(&h);
}

/* -------------------------------------------------------------- bounds -- */

/* A KERNEL FILL of one output tensor with the given shape, strides 0. */
struct fill_args {
	struct drm_vnpu_kernel_args ka;
	struct drm_vnpu_tensor out;
	struct drm_vnpu_op_attrs attrs;
};

static void fill_task(struct drm_vnpu_task *t, struct fill_args *a,
		      uint64_t va, const int64_t *shape, uint32_t rank,
		      bool dense)
{
	uint32_t d;
	int64_t stride = 1;

	memset(a, 0, sizeof(*a));
	a->ka.num_outputs = 1;
	a->ka.attr_size = sizeof(a->attrs);
	a->out.va = va;
	a->out.dtype = DRM_VNPU_DTYPE_INT32;
	a->out.rank = rank;
	for (d = rank; d-- > 0;) {
		a->out.shape[d] = shape[d];
		a->out.strides[d] = dense ? stride : 0;
		stride *= shape[d];
	}
	a->attrs.ints[0] = 7;
	memset(t, 0, sizeof(*t));
	t->type = DRM_VNPU_TASK_KERNEL;
	t->kernel.op = DRM_VNPU_OP_FILL;
	t->kernel.args_offset = 0;
	t->kernel.args_size = sizeof(*a);
}

/*
 * A FILL whose zero-stride output spans one element but has 2^62 of them
 * used to pass validation and keep an engine busy "making progress" for
 * ages: views of more than 2^36 elements are now rejected with -EINVAL.
 */
TEST_F(fair, fill_of_2_62_elements_is_einval)
{
	const int64_t huge[2] = { 1LL << 31, 1LL << 31 };
	const int64_t over[1] = { (1LL << 36) + 1 };
	const int64_t limit[1] = { 1LL << 36 };
	const int64_t small[2] = { 4, 4 };
	struct drm_vnpu_task t[2];
	struct drm_vnpu_job_status st;
	struct fill_args a;
	struct ubuf m = { 0 };
	uint64_t seq;
	uint32_t q, so;
	int i;

	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));

	fill_task(&t[0], &a, m.va, huge, 2, false);
	EXPECT_EQ(-EINVAL, submit_args(self->fd, q, t, 1, &a, sizeof(a), &seq));
	fill_task(&t[0], &a, m.va, over, 1, false);
	EXPECT_EQ(-EINVAL, submit_args(self->fd, q, t, 1, &a, sizeof(a), &seq));

	/* The limit itself passes validation (the job ends before it runs). */
	t[0] = t_wait(m.va + 2048, 1, DRM_VNPU_WAIT_EQ, 1);
	fill_task(&t[1], &a, m.va, limit, 1, false);
	ASSERT_EQ(0, submit_args(self->fd, q, t, 2, &a, sizeof(a), &seq));
	ASSERT_EQ(0, wait_point(self->fd, so, seq, 10000));
	ASSERT_EQ(0, job_status(self->fd, q, seq, &st));
	EXPECT_EQ(DRM_VNPU_JOB_TIMEOUT, st.state);
	EXPECT_EQ(0, st.task);
	/* A queue in error takes no more jobs: start a new one. */
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));

	/* The same FILL, small and dense, runs. */
	fill_task(&t[0], &a, m.va, small, 2, true);
	ASSERT_EQ(0, submit_args(self->fd, q, t, 1, &a, sizeof(a), &seq));
	ASSERT_EQ(0, wait_point(self->fd, so, seq, 10000));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q, seq));
	for (i = 0; i < 8; i++)
		EXPECT_EQ(0x0000000700000007ULL, m.p[i]);
	ubuf_free(self->fd, &m);
}

/* --------------------------------------------------------- hard limit -- */

struct ticker {
	volatile uint64_t *p;
	volatile bool stop;
	unsigned int period_ms;
};

static void *ticker_main(void *arg)
{
	struct ticker *tk = arg;

	while (!tk->stop) {
		sleep_ms(tk->period_ms);
		__atomic_add_fetch(tk->p, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

#define TICK_MS		100

/*
 * A job of many WAIT_VALUE tasks, each satisfied in turn by a host thread
 * every TICK_MS: polls and finished tasks are progress, so the hang
 * detector leaves it alone, but it would run twice job_max_ms. It is
 * aborted at job_max_ms with TIMEOUT/-ETIME.
 */
TEST_F_TIMEOUT(fair, job_max_stops_progressing_waits, 60)
{
	uint32_t n = 2 * self->job_max_ms / TICK_MS, i, q, so;
	struct drm_vnpu_task *t;
	struct drm_vnpu_job_status st;
	unsigned long long y, o0, o1;
	struct ticker tk = { 0 };
	struct ubuf m = { 0 };
	pthread_t thr;
	uint64_t seq, t0, dt;

	if (self->job_max_ms > FAIR_MAX_WAIT_MS)
		SKIP(return, "job_max_ms=%ld: too long to wait for", self->job_max_ms);
	if (self->job_max_ms < 2 * self->timeout_ms)
		SKIP(return, "job_max_ms=%ld is not beyond the %ld ms hang timeout",
		     self->job_max_ms, self->timeout_ms);
	t = calloc(n, sizeof(*t));
	ASSERT_NE(NULL, t);
	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	for (i = 0; i < n; i++)
		t[i] = t_wait(m.va, i + 1, DRM_VNPU_WAIT_GEQ, 0);
	ASSERT_EQ(0, engines_yields(self->dir, &y, &o0));

	tk.p = m.p;
	tk.period_ms = TICK_MS;
	ASSERT_EQ(0, pthread_create(&thr, NULL, ticker_main, &tk));
	t0 = now_ns();
	ASSERT_EQ(0, submit(self->fd, q, t, n, &seq));
	ASSERT_EQ(0, wait_point(self->fd, so, seq, 3 * self->job_max_ms));
	dt = now_ns() - t0;
	tk.stop = true;
	pthread_join(thr, NULL);

	ASSERT_EQ(0, job_status(self->fd, q, seq, &st));
	EXPECT_EQ(DRM_VNPU_JOB_TIMEOUT, st.state);
	EXPECT_EQ(-ETIME, st.error);
	/* Many tasks were done first: the job made progress until stopped. */
	EXPECT_GT(st.task, n / 4);
	EXPECT_LT(st.task, n - 1);
	EXPECT_GE(dt, (uint64_t)self->job_max_ms * NS_PER_MS);
	EXPECT_LT(dt, (uint64_t)(self->job_max_ms + 3000) * NS_PER_MS);
	ASSERT_EQ(0, engines_yields(self->dir, &y, &o1));
	EXPECT_EQ(o0 + 1, o1);
	TH_LOG("stopped after %llu ms at task %u of %u (job_max_ms %ld)",
	       (unsigned long long)(dt / NS_PER_MS), st.task, n,
	       self->job_max_ms);
	ubuf_free(self->fd, &m);
	free(t);
}

/*
 * The same with SPIN tasks of half a hang timeout each: every finished
 * spin is progress, the job is stopped at job_max_ms.
 */
TEST_F_TIMEOUT(fair, job_max_stops_progressing_spins, 60)
{
	uint64_t spin = self->timeout_ms * NS_PER_MS / 2, seq, t0, dt;
	uint32_t n, i, q, so;
	struct drm_vnpu_task *t;
	struct drm_vnpu_job_status st;

	if (self->job_max_ms > FAIR_MAX_WAIT_MS)
		SKIP(return, "job_max_ms=%ld: too long to wait for", self->job_max_ms);
	if (self->job_max_ms < 2 * self->timeout_ms)
		SKIP(return, "job_max_ms=%ld is not beyond the %ld ms hang timeout",
		     self->job_max_ms, self->timeout_ms);
	n = 2 * self->job_max_ms * NS_PER_MS / spin;
	t = calloc(n, sizeof(*t));
	ASSERT_NE(NULL, t);
	for (i = 0; i < n; i++)
		t[i] = t_spin(spin);
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	t0 = now_ns();
	ASSERT_EQ(0, submit(self->fd, q, t, n, &seq));
	ASSERT_EQ(0, wait_point(self->fd, so, seq, 3 * self->job_max_ms));
	dt = now_ns() - t0;
	ASSERT_EQ(0, job_status(self->fd, q, seq, &st));
	EXPECT_EQ(DRM_VNPU_JOB_TIMEOUT, st.state);
	EXPECT_EQ(-ETIME, st.error);
	EXPECT_GE(st.task, 1);
	EXPECT_GE(dt, (uint64_t)self->job_max_ms * NS_PER_MS);
	EXPECT_LT(dt, (uint64_t)(self->job_max_ms + 3000) * NS_PER_MS);
	free(t);
}

/* The limit and the slice are reported in debugfs info. */
TEST_F(fair, limits_in_debugfs_info)
{
	EXPECT_EQ(self->job_max_ms,
		  vnpu_debugfs_info(self->node, "job_max_ms"));
	EXPECT_EQ(self->slice_ms,
		  vnpu_debugfs_info(self->node, "job_slice_ms"));
}

TEST_HARNESS_MAIN
