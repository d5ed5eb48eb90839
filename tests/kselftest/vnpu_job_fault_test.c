// SPDX-License-Identifier: GPL-2.0-only
/*
 * Device faults raised by tasks: the queue's error state until QUEUE_RESET,
 * the FAULT_INFO record kept until then, and each kind of fault recorded
 * exactly. Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_job_test_util.h"

/* An address in the device range that no object of a fresh context has. */
#define UNMAPPED_VA	(DRM_VNPU_VA_DEVICE_START + DRM_VNPU_VA_RANGE_SIZE / 2 + 0x1230)

static void expect_fault_info(struct __test_metadata *_metadata, int fd,
			      uint64_t count, uint64_t va, uint64_t len,
			      uint32_t access, uint32_t reason, const char *what)
{
	struct drm_vnpu_fault_info fi;

	ASSERT_EQ(0, fault_info(fd, &fi));
	EXPECT_EQ(count, fi.count) TH_LOG("%s", what);
	EXPECT_EQ(va, fi.va) TH_LOG("%s", what);
	EXPECT_EQ(len, fi.length) TH_LOG("%s", what);
	EXPECT_EQ(access, fi.access) TH_LOG("%s", what);
	EXPECT_EQ(reason, fi.reason) TH_LOG("%s", what);
}

/*
 * A fault stops its job and puts the queue in its error state: jobs
 * queued behind it are cancelled, new submits fail with -EBADFD until
 * QUEUE_RESET, after which numbering goes on. The file's other queue
 * works all along. A gate (WAIT_VALUE on host memory) holds the faulting
 * job until its followers are queued.
 */
TEST(fault_stops_queue_until_reset)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct drm_vnpu_fault_info fi;
	struct drm_vnpu_task t[4], nop = T_NOP();
	uint64_t seq = 0, i, faults0, engines = 0;
	struct buf gate, mark, src;
	uint32_t handle = 0;
	struct queue q2;

	ASSERT_EQ(0, queue_new(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q2));
	ASSERT_EQ(0, buf_create(self->fd, &gate, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, buf_create(self->fd, &mark, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, buf_create(self->fd, &src, 4096, DRM_VNPU_PLACEMENT_DEVICE, 0));
	memset(gate.cpu, 0, 4096);
	memset(mark.cpu, 0, 4096);
	ASSERT_EQ(0, cmdbuf_create(self->fd, &nop, 1, NULL, 0, &handle));
	ASSERT_EQ(0, fault_info(self->fd, &fi));
	faults0 = fi.count;

	t[0] = T_WRITE(mark.va, 1);
	t[1] = T_WAIT(gate.va, 1, DRM_VNPU_WAIT_EQ, 0);
	t[2] = T_COPY(src.va, UNMAPPED_VA, 64);
	t[3] = T_WRITE(mark.va + 8, 1);
	ASSERT_GE(queue_depth(self->fd), 5);
	ASSERT_EQ(0, submit(&self->q, t, 4, NULL, 0, &seq));
	ASSERT_EQ(1, seq);
	for (i = 2; i <= 5; i++) {
		t[0] = T_WRITE(mark.va + 8 * i, 1);
		ASSERT_EQ(0, submit(&self->q, t, 1, NULL, 0, &seq));
		ASSERT_EQ(i, seq);
	}
	for (i = 1; i <= 5; i++) {
		ASSERT_EQ(0, job_status(&self->q, i, &st));
		EXPECT_EQ(DRM_VNPU_JOB_PENDING, st.state) TH_LOG("job %llu",
			(unsigned long long)i);
	}
	/* The other queue runs on another engine while this one is held. */
	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_ENGINE_COUNT, &engines));
	if (engines >= 2) {
		ASSERT_EQ(0, run_job(&q2, &nop, 1, NULL, 0, &st, &seq));
		EXPECT_JOB_OK(st);
	}

	*(volatile uint64_t *)gate.cpu = 1;
	ASSERT_EQ(0, job_wait(&self->q, 5));

	ASSERT_EQ(0, job_status(&self->q, 1, &st));
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, st.state);
	EXPECT_EQ(-ENXIO, st.error);
	EXPECT_EQ(2, st.task);
	EXPECT_EQ(UNMAPPED_VA, st.fault_va);
	EXPECT_EQ(DRM_VNPU_ACCESS_WRITE, st.fault_access);
	EXPECT_EQ(DRM_VNPU_FAULT_UNMAPPED, st.fault_reason);
	EXPECT_EQ(1, buf_read_u64(&mark, 0)) TH_LOG("task 0 ran");
	EXPECT_EQ(0, buf_read_u64(&mark, 8)) TH_LOG("task 3 did not");
	for (i = 2; i <= 5; i++) {
		ASSERT_EQ(0, job_status(&self->q, i, &st));
		EXPECT_EQ(DRM_VNPU_JOB_CANCELLED, st.state) TH_LOG("job %llu",
			(unsigned long long)i);
		EXPECT_EQ(-ECANCELED, st.error) TH_LOG("job %llu", (unsigned long long)i);
		EXPECT_EQ(0, buf_read_u64(&mark, 8 * i)) TH_LOG("job %llu ran",
			(unsigned long long)i);
	}
	/* One fault, the copy's write; cancelled jobs are not faults. */
	expect_fault_info(_metadata, self->fd, faults0 + 1, UNMAPPED_VA, 64,
			  DRM_VNPU_ACCESS_WRITE, DRM_VNPU_FAULT_UNMAPPED, "copy");

	/* The queue refuses work, and that takes no sequence number. */
	EXPECT_EQ(-EBADFD, submit(&self->q, &nop, 1, NULL, 0, &seq));
	EXPECT_EQ(-EBADFD, submit_cmdbuf(&self->q, handle, &seq));
	EXPECT_EQ(-EINVAL, job_status(&self->q, 6, &st));
	EXPECT_EQ(5, timeline_last(self->fd, self->q.sync));
	ASSERT_EQ(0, run_job(&q2, &nop, 1, NULL, 0, &st, &seq));
	EXPECT_EQ(engines >= 2 ? 2 : 1, seq);
	EXPECT_JOB_OK(st);

	ASSERT_EQ(0, queue_reset(&self->q));
	ASSERT_EQ(0, run_job(&self->q, &nop, 1, NULL, 0, &st, &seq));
	EXPECT_EQ(6, seq);
	EXPECT_JOB_OK(st);
	ASSERT_EQ(0, submit_cmdbuf(&self->q, handle, &seq));
	EXPECT_EQ(7, seq);
	ASSERT_EQ(0, job_wait(&self->q, seq));
	ASSERT_EQ(0, job_status(&self->q, seq, &st));
	EXPECT_JOB_OK(st);
	/* How job 1 ended is still on record. */
	ASSERT_EQ(0, job_status(&self->q, 1, &st));
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, st.state);
	EXPECT_EQ(2, st.task);
	ASSERT_EQ(0, run_job(&q2, &nop, 1, NULL, 0, &st, &seq));
	EXPECT_EQ(engines >= 2 ? 3 : 2, seq);
	EXPECT_JOB_OK(st);
	expect_fault_info(_metadata, self->fd, faults0 + 1, UNMAPPED_VA, 64,
			  DRM_VNPU_ACCESS_WRITE, DRM_VNPU_FAULT_UNMAPPED, "no new fault");
}

/*
 * The failing job is remembered past the status history until QUEUE_RESET,
 * even when the jobs cancelled behind it overwrite its slot. That takes
 * more jobs in flight than the default queue depth allows.
 */
TEST(fault_record_kept_until_reset)
{
	struct fix *self = fix_setup(_metadata);
	const uint64_t last = DRM_VNPU_STATUS_HISTORY + 10;
	struct drm_vnpu_task t[2], nop = T_NOP();
	struct drm_vnpu_job_status st;
	uint64_t seq = 0, i;
	struct buf gate;

	if (queue_depth(self->fd) < last)
		SKIP(return, "needs queue_depth >= %llu, have %llu",
		     (unsigned long long)last,
		     (unsigned long long)queue_depth(self->fd));
	ASSERT_EQ(0, buf_create(self->fd, &gate, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	memset(gate.cpu, 0, 4096);
	t[0] = T_WAIT(gate.va, 1, DRM_VNPU_WAIT_EQ, 0);
	t[1] = T_TIMESTAMP(UNMAPPED_VA);
	ASSERT_EQ(0, submit(&self->q, t, 2, NULL, 0, &seq));
	for (i = 2; i <= last; i++)
		ASSERT_EQ(0, submit(&self->q, &nop, 1, NULL, 0, &seq));
	ASSERT_EQ(last, seq);
	ASSERT_EQ(0, job_status(&self->q, 1, &st));
	ASSERT_EQ(DRM_VNPU_JOB_PENDING, st.state) TH_LOG("the gate held");
	*(volatile uint64_t *)gate.cpu = 1;
	ASSERT_EQ(0, job_wait(&self->q, last));

	ASSERT_EQ(0, job_status(&self->q, 1, &st));
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, st.state);
	EXPECT_EQ(-ENXIO, st.error);
	EXPECT_EQ(1, st.task);
	EXPECT_EQ(UNMAPPED_VA, st.fault_va);
	EXPECT_EQ(DRM_VNPU_ACCESS_WRITE, st.fault_access);
	EXPECT_EQ(DRM_VNPU_FAULT_UNMAPPED, st.fault_reason);
	ASSERT_EQ(0, job_status(&self->q, last, &st));
	EXPECT_EQ(DRM_VNPU_JOB_CANCELLED, st.state);
	EXPECT_EQ(-ENODATA, job_status(&self->q, 2, &st));

	ASSERT_EQ(0, queue_reset(&self->q));
	EXPECT_EQ(-ENODATA, job_status(&self->q, 1, &st));
	ASSERT_EQ(0, run_job(&self->q, &nop, 1, NULL, 0, &st, &seq));
	EXPECT_EQ(last + 1, seq);
	EXPECT_JOB_OK(st);
}

struct fcase {
	const char *name;
	struct drm_vnpu_task t[3];
	uint32_t n;
	uint32_t task, access, reason;
	uint64_t va, len;
	uint64_t args[64];
	uint32_t args_size;
};

/* Each kind of fault a task can raise, with the exact record. */
TEST(fault_kinds_recorded_exactly)
{
	struct fix *self = fix_setup(_metadata);
	static struct fcase fc[20];
	const int64_t n1024[1] = { 1024 };
	struct drm_vnpu_job_status st;
	struct drm_vnpu_fault_info fi;
	struct drm_vnpu_task t, nop = T_NOP();
	struct buf dev, small, ro, ro_host, gone;
	uint64_t faults, seq = 0, gone_va;
	unsigned int i, n = 0;
	struct fcase *c;

	ASSERT_EQ(0, buf_create(self->fd, &dev, 8192, DRM_VNPU_PLACEMENT_DEVICE, 0));
	ASSERT_EQ(0, buf_create(self->fd, &small, 4096, DRM_VNPU_PLACEMENT_DEVICE, 0));
	ASSERT_EQ(0, buf_create(self->fd, &ro, 4096, DRM_VNPU_PLACEMENT_DEVICE,
				DRM_VNPU_BO_DEVICE_READ_ONLY));
	ASSERT_EQ(0, buf_create(self->fd, &ro_host, 4096, DRM_VNPU_PLACEMENT_HOST,
				DRM_VNPU_BO_DEVICE_READ_ONLY));
	ASSERT_EQ(0, buf_create(self->fd, &gone, 4096, DRM_VNPU_PLACEMENT_DEVICE, 0));
	gone_va = gone.va;
	buf_destroy(&gone);

#define FCASE(nm, tk, acc, rsn, v, l) \
	(c = &fc[n++], memset(c, 0, sizeof(*c)), c->name = (nm), c->task = (tk), \
	 c->access = DRM_VNPU_ACCESS_##acc, c->reason = DRM_VNPU_FAULT_##rsn, \
	 c->va = (v), c->len = (l))
	FCASE("COPY to an unmapped address", 1, WRITE, UNMAPPED, UNMAPPED_VA, 64);
	c->t[0] = nop;
	c->t[1] = T_COPY(dev.va, UNMAPPED_VA, 64);
	c->n = 2;
	FCASE("COPY from an unmapped address", 0, READ, UNMAPPED, UNMAPPED_VA, 64);
	c->t[0] = T_COPY(UNMAPPED_VA, dev.va, 64);
	c->n = 1;
	FCASE("COPY reading across an object's end", 0, READ, BOUNDS, small.va + 3996, 200);
	c->t[0] = T_COPY(small.va + 3996, dev.va, 200);
	c->n = 1;
	FCASE("COPY writing across an object's end", 2, WRITE, BOUNDS, small.va + 4000, 97);
	c->t[0] = nop;
	c->t[1] = nop;
	c->t[2] = T_COPY(dev.va, small.va + 4000, 97);
	c->n = 3;
	FCASE("COPY into the guard page", 0, WRITE, UNMAPPED, small.va + 4096, 8);
	c->t[0] = T_COPY(dev.va, small.va + 4096, 8);
	c->n = 1;
	FCASE("COPY to a closed object", 0, WRITE, UNMAPPED, gone_va, 16);
	c->t[0] = T_COPY(dev.va, gone_va, 16);
	c->n = 1;
	FCASE("COPY_2D whose last row crosses the end", 0, WRITE, BOUNDS, small.va,
	      4 * 1024 + 16);
	c->t[0] = T_COPY_2D(dev.va, small.va, 16, 1024, 16, 5);
	c->n = 1;
	FCASE("FILL across an object's end", 0, WRITE, BOUNDS, small.va + 8, 4096);
	c->t[0] = T_FILL(small.va + 8, 4096, 0, 8);
	c->n = 1;
	FCASE("FILL of a read-only object", 0, WRITE, READ_ONLY, ro.va, 64);
	c->t[0] = T_FILL(ro.va, 64, 0, 1);
	c->n = 1;
	FCASE("WRITE_VALUE to a read-only object", 1, WRITE, READ_ONLY, ro.va + 8, 8);
	c->t[0] = T_WRITE(dev.va, 5);
	c->t[1] = T_WRITE(ro.va + 8, 5);
	c->n = 2;
	FCASE("WRITE_VALUE to a read-only host object", 0, WRITE, READ_ONLY,
	      ro_host.va, 8);
	c->t[0] = T_WRITE(ro_host.va, 5);
	c->n = 1;
	FCASE("TIMESTAMP to an unmapped address", 0, WRITE, UNMAPPED, UNMAPPED_VA, 8);
	c->t[0] = T_TIMESTAMP(UNMAPPED_VA);
	c->n = 1;
	FCASE("WAIT_VALUE on an unmapped address", 0, READ, UNMAPPED, UNMAPPED_VA, 8);
	c->t[0] = T_WAIT(UNMAPPED_VA, 0, DRM_VNPU_WAIT_GEQ, NSEC_PER_MS);
	c->n = 1;
	FCASE("KERNEL output past its object's end", 0, WRITE, BOUNDS, small.va + 8, 4096);
	c->args_size = add_args(c->args, 0, DRM_VNPU_DTYPE_FLOAT, 1, n1024, dev.va,
				dev.va + 4096, small.va + 8);
	c->t[0] = T_KERNEL(DRM_VNPU_OP_ADD, 0, c->args_size);
	c->n = 1;
	FCASE("KERNEL input unmapped", 0, READ, UNMAPPED, UNMAPPED_VA, 4096);
	c->args_size = add_args(c->args, 0, DRM_VNPU_DTYPE_INT32, 1, n1024, dev.va,
				UNMAPPED_VA, small.va);
	c->t[0] = T_KERNEL(DRM_VNPU_OP_ADD, 0, c->args_size);
	c->n = 1;
	FCASE("KERNEL output read-only", 0, WRITE, READ_ONLY, ro.va, 4096);
	c->args_size = add_args(c->args, 0, DRM_VNPU_DTYPE_INT32, 1, n1024, dev.va,
				dev.va, ro.va);
	c->t[0] = T_KERNEL(DRM_VNPU_OP_ADD, 0, c->args_size);
	c->n = 1;
	/*
	 * An engine caches translations within a job (an IOTLB): a later
	 * access to an object it already holds is still checked in full.
	 */
	FCASE("COPY across the end of an object read before", 1, WRITE, BOUNDS,
	      small.va + 4000, 97);
	c->t[0] = T_COPY(small.va, dev.va + 6144, 64);
	c->t[1] = T_COPY(dev.va, small.va + 4000, 97);
	c->n = 2;
	FCASE("WRITE_VALUE into the guard page of an object written before", 1,
	      WRITE, UNMAPPED, small.va + 4096, 8);
	c->t[0] = T_WRITE(small.va + 4088, 1);
	c->t[1] = T_WRITE(small.va + 4096, 1);
	c->n = 2;
	FCASE("FILL of a read-only object read before", 1, WRITE, READ_ONLY,
	      ro.va, 64);
	c->t[0] = T_COPY(ro.va, dev.va + 6144, 64);
	c->t[1] = T_FILL(ro.va, 64, 0, 1);
	c->n = 2;
#undef FCASE

	ASSERT_EQ(0, fault_info(self->fd, &fi));
	faults = fi.count;
	for (i = 0; i < n; i++) {
		c = &fc[i];
		ASSERT_EQ(0, run_job(&self->q, c->t, c->n, c->args_size ? c->args : NULL,
				     c->args_size, &st, &seq)) TH_LOG("%s", c->name);
		EXPECT_EQ(DRM_VNPU_JOB_FAULT, st.state) TH_LOG("%s", c->name);
		EXPECT_EQ(-ENXIO, st.error) TH_LOG("%s", c->name);
		EXPECT_EQ(c->task, st.task) TH_LOG("%s", c->name);
		EXPECT_EQ(c->va, st.fault_va) TH_LOG("%s", c->name);
		EXPECT_EQ(c->access, st.fault_access) TH_LOG("%s", c->name);
		EXPECT_EQ(c->reason, st.fault_reason) TH_LOG("%s", c->name);
		expect_fault_info(_metadata, self->fd, ++faults, c->va, c->len,
				  c->access, c->reason, c->name);
		EXPECT_EQ(-EBADFD, submit(&self->q, &nop, 1, NULL, 0, NULL))
			TH_LOG("%s", c->name);
		ASSERT_EQ(0, queue_reset(&self->q));
	}
	/* Earlier tasks of a faulting job ran. */
	EXPECT_EQ(5, buf_read_u64(&dev, 0));
	/* Reading a read-only object is fine. */
	memset(ro_host.cpu, 0x42, 4096);
	t = T_COPY(ro_host.va, dev.va, 4096);
	ASSERT_EQ(0, run_job(&self->q, &t, 1, NULL, 0, &st, &seq));
	EXPECT_JOB_OK(st);
	EXPECT_EQ(0x4242424242424242ull, buf_read_u64(&dev, 4088));
	ASSERT_EQ(0, fault_info(self->fd, &fi));
	EXPECT_EQ(faults, fi.count);
}

TEST_HARNESS_MAIN
