// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hangs: a hung job aborted at the timeout, a long job that makes progress
 * completing, and a single spin longer than the timeout counted as a hang.
 * Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_sched_test_util.h"

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

TEST_HARNESS_MAIN
