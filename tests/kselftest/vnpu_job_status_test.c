// SPDX-License-Identifier: GPL-2.0-only
/*
 * JOB_STATUS: the record of good jobs, bad requests, a job still running,
 * and the window of the last DRM_VNPU_STATUS_HISTORY jobs. Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_job_test_util.h"

TEST(job_status_of_good_jobs_and_bad_requests)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t = T_NOP();
	struct queue bogus = self->q;
	uint64_t seq = 0;
	int i;

	for (i = 1; i <= 3; i++) {
		ASSERT_EQ(0, run_job(&self->q, &t, 1, NULL, 0, &st, &seq));
		EXPECT_EQ(i, seq);
		EXPECT_JOB_OK(st);
	}
	/* Earlier jobs are still remembered. */
	ASSERT_EQ(0, job_status(&self->q, 1, &st));
	EXPECT_JOB_OK(st);

	EXPECT_EQ(-EINVAL, job_status(&self->q, 4, &st)) TH_LOG("never submitted");
	EXPECT_EQ(-EINVAL, job_status(&self->q, 1000, &st));
	EXPECT_EQ(-EINVAL, job_status(&self->q, ~0ull, &st));
	EXPECT_EQ(-EINVAL, job_status(&self->q, 0, &st));
	bogus.id = 999;
	EXPECT_EQ(-ENOENT, job_status(&bogus, 1, &st));
	bogus.id = 0;
	EXPECT_EQ(-ENOENT, job_status(&bogus, 1, &st));

	memset(&st, 0, sizeof(st));
	st.queue_id = self->q.id;
	st.seq = 1;
	st.pad = 1;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_VNPU_JOB_STATUS, &st));
	/* A failed JOB_STATUS submitted nothing. */
	ASSERT_EQ(0, submit(&self->q, &t, 1, NULL, 0, &seq));
	EXPECT_EQ(4, seq);
	ASSERT_EQ(0, job_wait(&self->q, seq));
}

TEST(job_status_pending_while_spinning)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task spin = T_SPIN(300 * NSEC_PER_MS), nop = T_NOP();
	struct drm_vnpu_job_status st;
	uint64_t s1 = 0, s2 = 0;

	ASSERT_EQ(0, submit(&self->q, &spin, 1, NULL, 0, &s1));
	ASSERT_EQ(0, submit(&self->q, &nop, 1, NULL, 0, &s2));
	ASSERT_EQ(0, job_status(&self->q, s1, &st));
	EXPECT_EQ(DRM_VNPU_JOB_PENDING, st.state);
	EXPECT_EQ(0, st.error);
	ASSERT_EQ(0, job_status(&self->q, s2, &st));
	EXPECT_EQ(DRM_VNPU_JOB_PENDING, st.state) TH_LOG("queued behind the spin");
	/* Not yet signalled: a short wait times out. */
	EXPECT_EQ(-ETIME, wait_point(self->fd, self->q.sync, s1, 20));
	ASSERT_EQ(0, job_wait(&self->q, s2));
	ASSERT_EQ(0, job_status(&self->q, s1, &st));
	EXPECT_JOB_OK(st);
	ASSERT_EQ(0, job_status(&self->q, s2, &st));
	EXPECT_JOB_OK(st);
}

/* Only the last DRM_VNPU_STATUS_HISTORY jobs are remembered. */
TEST(job_status_history_window)
{
	struct fix *self = fix_setup(_metadata);
	const uint64_t n = DRM_VNPU_STATUS_HISTORY + 44;
	struct drm_vnpu_task t = T_NOP();
	struct drm_vnpu_job_status st;
	uint64_t i, seq = 0;

	for (i = 1; i <= n; i++) {
		ASSERT_EQ(0, submit(&self->q, &t, 1, NULL, 0, &seq));
		ASSERT_EQ(i, seq);
	}
	ASSERT_EQ(0, job_wait(&self->q, n));
	for (i = n - DRM_VNPU_STATUS_HISTORY + 1; i <= n; i++) {
		ASSERT_EQ(0, job_status(&self->q, i, &st)) TH_LOG("seq %llu",
			(unsigned long long)i);
		EXPECT_JOB_OK(st);
	}
	EXPECT_EQ(-ENODATA, job_status(&self->q, n - DRM_VNPU_STATUS_HISTORY, &st));
	EXPECT_EQ(-ENODATA, job_status(&self->q, 1, &st));
	EXPECT_EQ(-EINVAL, job_status(&self->q, n + 1, &st));
}

TEST_HARNESS_MAIN
