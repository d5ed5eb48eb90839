// SPDX-License-Identifier: GPL-2.0-only
/*
 * SUBMIT request validation (the request, not its batch): each field one
 * off a valid call, with the exact errno, no job and no timeline point.
 * Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_job_test_util.h"

/*
 * The request fields of SUBMIT (not the batch), one off a valid call each:
 * the exact errno, no job, no timeline point, and the next valid submit
 * gets the next sequence number.
 */
TEST(submit_request_validation)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_sync in[DRM_VNPU_MAX_SYNCS + 1], out[DRM_VNPU_MAX_SYNCS + 1];
	struct drm_syncobj_create sc = { 0 };
	struct drm_vnpu_task nop = T_NOP();
	struct drm_vnpu_job_status st;
	struct drm_vnpu_submit s, base;
	uint64_t expect = 0, seq = 0;
	uint32_t handle = 0;
	unsigned int i;

	/* Job 1, for in-syncs to depend on; a binary syncobj for out-syncs. */
	ASSERT_EQ(0, submit(&self->q, &nop, 1, NULL, 0, &seq));
	expect = seq;
	ASSERT_EQ(0, xioctl(self->fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc));
	ASSERT_EQ(0, cmdbuf_create(self->fd, &nop, 1, NULL, 0, &handle));
	for (i = 0; i <= DRM_VNPU_MAX_SYNCS; i++) {
		in[i] = (struct drm_vnpu_sync){ .handle = self->q.sync, .point = 1 };
		out[i] = (struct drm_vnpu_sync){ .handle = sc.handle };
	}
	memset(&base, 0, sizeof(base));
	base.queue_id = self->q.id;
	base.tasks = (uintptr_t)&nop;
	base.task_count = 1;
	base.task_stride = sizeof(nop);

#define CHECK_FAILS(err, what) do { \
	s.seq = 0xdead; \
	EXPECT_EQ(err, submit_raw(self->fd, &s)) TH_LOG("%s", what); \
	EXPECT_EQ(0xdead, s.seq) TH_LOG("%s", what); \
	EXPECT_EQ(-EINVAL, job_status(&self->q, expect + 1, &st)) TH_LOG("%s", what); \
	EXPECT_EQ(expect, timeline_last(self->fd, self->q.sync)) TH_LOG("%s", what); \
	ASSERT_EQ(0, submit(&self->q, &nop, 1, NULL, 0, &seq)); \
	EXPECT_EQ(++expect, seq) TH_LOG("%s", what); \
} while (0)

	/* The base call and the in/out-sync arrays are valid. */
	s = base;
	s.in_syncs = (uintptr_t)in;
	s.in_sync_count = DRM_VNPU_MAX_SYNCS;
	s.out_syncs = (uintptr_t)out;
	s.out_sync_count = DRM_VNPU_MAX_SYNCS;
	ASSERT_EQ(0, submit_raw(self->fd, &s));
	EXPECT_EQ(++expect, s.seq);

	s = base;
	s.flags = DRM_VNPU_SUBMIT_BINDINGS;
	CHECK_FAILS(-EINVAL, "SUBMIT_BINDINGS without SUBMIT_CMDBUF");
	s.flags = 1u << 2;
	CHECK_FAILS(-EINVAL, "unknown flag 0x4");
	s.flags = 0x80000000u;
	CHECK_FAILS(-EINVAL, "unknown flag 0x80000000");
	s.flags = DRM_VNPU_SUBMIT_CMDBUF | (1u << 2);
	s.tasks = 0;
	s.task_count = 0;
	s.task_stride = 0;
	s.cmdbuf = handle;
	CHECK_FAILS(-EINVAL, "CMDBUF with an unknown flag");

	/* With DRM_VNPU_SUBMIT_CMDBUF, no batch fields. */
	s.flags = DRM_VNPU_SUBMIT_CMDBUF;
	ASSERT_EQ(0, submit_raw(self->fd, &s)) TH_LOG("cmdbuf base");
	EXPECT_EQ(++expect, s.seq);
	s.tasks = (uintptr_t)&nop;
	CHECK_FAILS(-EINVAL, "CMDBUF with tasks");
	s.tasks = 0;
	s.task_count = 1;
	CHECK_FAILS(-EINVAL, "CMDBUF with task_count");
	s.task_count = 0;
	s.task_stride = 64;
	CHECK_FAILS(-EINVAL, "CMDBUF with task_stride");
	s.task_stride = 0;
	s.args = (uintptr_t)in;
	CHECK_FAILS(-EINVAL, "CMDBUF with args");
	s.args = 0;
	s.args_size = 8;
	CHECK_FAILS(-EINVAL, "CMDBUF with args_size");

	s = base;
	s.cmdbuf = handle;
	CHECK_FAILS(-EINVAL, "cmdbuf without DRM_VNPU_SUBMIT_CMDBUF");

	s = base;
	s.queue_id = 0;
	CHECK_FAILS(-ENOENT, "queue 0");
	s.queue_id = 999;
	CHECK_FAILS(-ENOENT, "queue 999");
	s.queue_id = ~0u;
	CHECK_FAILS(-ENOENT, "queue ~0");

	s = base;
	s.in_syncs = (uintptr_t)in;
	s.in_sync_count = DRM_VNPU_MAX_SYNCS + 1;
	CHECK_FAILS(-EINVAL, "MAX_SYNCS + 1 in-syncs");
	s.in_sync_count = ~0u;
	CHECK_FAILS(-EINVAL, "~0 in-syncs");
	s = base;
	s.out_syncs = (uintptr_t)out;
	s.out_sync_count = DRM_VNPU_MAX_SYNCS + 1;
	CHECK_FAILS(-EINVAL, "MAX_SYNCS + 1 out-syncs");

	s = base;
	s.out_syncs = (uintptr_t)out;
	s.out_sync_count = 2;
	out[1].handle = 0xbad;
	CHECK_FAILS(-ENOENT, "unknown out-sync handle");
	out[1].handle = 0;
	CHECK_FAILS(-ENOENT, "out-sync handle 0");
	out[1].handle = sc.handle;

	s = base;
	s.in_syncs = (uintptr_t)in;
	s.in_sync_count = 2;
	in[1].handle = 0xbad;
	CHECK_FAILS(-ENOENT, "unknown in-sync handle");
	in[1].handle = self->q.sync;
	in[1].flags = 1u << 1;
	CHECK_FAILS(-EINVAL, "in-sync flag 0x2");
	in[1].flags = 0x80000000u | DRM_VNPU_SYNC_WAIT_FOR_SUBMIT;
	CHECK_FAILS(-EINVAL, "in-sync flag 0x80000001");
	in[1].flags = 0;

	s = base;
	s.in_sync_count = 1;
	CHECK_FAILS(-EFAULT, "in_syncs NULL");
	s = base;
	s.out_sync_count = 1;
	CHECK_FAILS(-EFAULT, "out_syncs NULL");
#undef CHECK_FAILS

	ASSERT_EQ(0, job_wait(&self->q, expect));
	ASSERT_EQ(0, job_status(&self->q, expect, &st));
	EXPECT_JOB_OK(st);
}

TEST_HARNESS_MAIN
