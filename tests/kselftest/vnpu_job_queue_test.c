// SPDX-License-Identifier: GPL-2.0-only
/*
 * QUEUE_CREATE, QUEUE_DESTROY and QUEUE_RESET validation, and the per-file
 * queue limit. Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_job_test_util.h"

static int queue_destroy(struct queue *q)
{
	struct drm_vnpu_queue_destroy qd = { .queue_id = q->id };

	return xioctl(q->fd, DRM_IOCTL_VNPU_QUEUE_DESTROY, &qd);
}

TEST(queue_create_validation)
{
	int fd = open_node();
	struct drm_vnpu_queue_create qc;
	uint32_t ids[3], syncs[3], p;

	ASSERT_GE(fd, 0);
	memset(&qc, 0, sizeof(qc));
	qc.priority = 3;
	EXPECT_EQ(-EINVAL, xioctl(fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &qc));
	qc.priority = ~0u;
	EXPECT_EQ(-EINVAL, xioctl(fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &qc));
	qc.priority = DRM_VNPU_PRIORITY_NORMAL;
	qc.flags = 1;
	EXPECT_EQ(-EINVAL, xioctl(fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &qc));
	qc.flags = 0x80000000u;
	EXPECT_EQ(-EINVAL, xioctl(fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &qc));

	for (p = 0; p < 3; p++) {
		memset(&qc, 0, sizeof(qc));
		qc.priority = p;
		ASSERT_EQ(0, xioctl(fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &qc));
		EXPECT_NE(0, qc.queue_id);
		EXPECT_NE(0, qc.syncobj);
		ids[p] = qc.queue_id;
		syncs[p] = qc.syncobj;
	}
	EXPECT_NE(ids[0], ids[1]);
	EXPECT_NE(ids[1], ids[2]);
	EXPECT_NE(ids[0], ids[2]);
	EXPECT_NE(syncs[0], syncs[1]);
	EXPECT_NE(syncs[1], syncs[2]);
	EXPECT_NE(syncs[0], syncs[2]);
	close(fd);
}

TEST(queue_destroy_and_reset_validation)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_queue_destroy qd;
	struct drm_vnpu_task nop = T_NOP();
	struct drm_vnpu_job_status st;
	uint64_t seq = 0;

	memset(&qd, 0, sizeof(qd));
	qd.queue_id = 999;
	EXPECT_EQ(-ENOENT, xioctl(self->fd, DRM_IOCTL_VNPU_QUEUE_DESTROY, &qd));
	EXPECT_EQ(-ENOENT, xioctl(self->fd, DRM_IOCTL_VNPU_QUEUE_RESET, &qd));
	qd.queue_id = 0;
	EXPECT_EQ(-ENOENT, xioctl(self->fd, DRM_IOCTL_VNPU_QUEUE_DESTROY, &qd));
	EXPECT_EQ(-ENOENT, xioctl(self->fd, DRM_IOCTL_VNPU_QUEUE_RESET, &qd));
	qd.queue_id = self->q.id;
	qd.pad = 1;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_VNPU_QUEUE_DESTROY, &qd));
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_VNPU_QUEUE_RESET, &qd));

	/* Still there; a reset of a healthy queue keeps its numbering. */
	ASSERT_EQ(0, run_job(&self->q, &nop, 1, NULL, 0, &st, &seq));
	EXPECT_EQ(1, seq);
	EXPECT_JOB_OK(st);
	ASSERT_EQ(0, queue_reset(&self->q));
	ASSERT_EQ(0, run_job(&self->q, &nop, 1, NULL, 0, &st, &seq));
	EXPECT_EQ(2, seq);
	EXPECT_JOB_OK(st);

	ASSERT_EQ(0, queue_destroy(&self->q));
	EXPECT_EQ(-ENOENT, queue_destroy(&self->q));
	EXPECT_EQ(-ENOENT, queue_reset(&self->q));
	EXPECT_EQ(-ENOENT, submit(&self->q, &nop, 1, NULL, 0, NULL));
	EXPECT_EQ(-ENOENT, job_status(&self->q, 1, &st));
	/* The timeline outlives its queue. */
	EXPECT_EQ(0, wait_point(self->fd, self->q.sync, 2, 1000));
	EXPECT_EQ(2, timeline_last(self->fd, self->q.sync));
}

TEST(queue_limit_enospc)
{
	int fd = open_node();
	static struct queue qs[DRM_VNPU_MAX_QUEUES];
	struct drm_vnpu_task nop = T_NOP();
	struct drm_vnpu_job_status st;
	struct queue extra;
	uint64_t seq = 0;
	unsigned int i;
	int fd2;

	ASSERT_GE(fd, 0);
	for (i = 0; i < DRM_VNPU_MAX_QUEUES; i++)
		ASSERT_EQ(0, queue_new(fd, i % 3, &qs[i])) TH_LOG("queue %u", i);
	EXPECT_EQ(-ENOSPC, queue_new(fd, DRM_VNPU_PRIORITY_NORMAL, &extra));
	EXPECT_EQ(-ENOSPC, queue_new(fd, DRM_VNPU_PRIORITY_HIGH, &extra));
	/* The last and the first queue work. */
	ASSERT_EQ(0, run_job(&qs[DRM_VNPU_MAX_QUEUES - 1], &nop, 1, NULL, 0, &st, &seq));
	EXPECT_JOB_OK(st);
	ASSERT_EQ(0, run_job(&qs[0], &nop, 1, NULL, 0, &st, &seq));
	EXPECT_JOB_OK(st);
	/* Destroying one makes room for exactly one. */
	ASSERT_EQ(0, queue_destroy(&qs[7]));
	ASSERT_EQ(0, queue_new(fd, DRM_VNPU_PRIORITY_NORMAL, &extra));
	ASSERT_EQ(0, run_job(&extra, &nop, 1, NULL, 0, &st, &seq));
	EXPECT_EQ(1, seq);
	EXPECT_JOB_OK(st);
	EXPECT_EQ(-ENOSPC, queue_new(fd, DRM_VNPU_PRIORITY_NORMAL, &extra));
	/* Another file has its own budget. */
	fd2 = open_node();
	ASSERT_GE(fd2, 0);
	EXPECT_EQ(0, queue_new(fd2, DRM_VNPU_PRIORITY_NORMAL, &extra));
	close(fd2);
	close(fd);
}

TEST_HARNESS_MAIN
