// SPDX-License-Identifier: GPL-2.0-only
/*
 * Faults and the fault-injection knobs: fault_next_job, a fault in one
 * process sparing the others, fail_next_submit and engine_delay. Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_sched_test_util.h"

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

TEST_HARNESS_MAIN
