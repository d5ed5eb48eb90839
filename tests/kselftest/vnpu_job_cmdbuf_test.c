// SPDX-License-Identifier: GPL-2.0-only
/*
 * Command buffers: 1000 replays, a replay reading its source when it runs,
 * destroy with replays queued, replay after the memory was freed, bad and
 * foreign handles, flags and pad, and the per-file limit. Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_job_test_util.h"

#define ACC_N	1024

/*
 * Buffers of an accumulating batch: every run adds inc[i] = i + 1 to
 * acc[i] (through tmp, which a FILL scrambles first) and writes a flag.
 */
struct acc {
	struct buf acc, inc, tmp, flag;
	uint64_t args[64];
	uint32_t args_size;
	struct drm_vnpu_task t[8];
	uint32_t n;
};

static void acc_setup(struct __test_metadata *_metadata, int fd, struct acc *a,
		      uint64_t spin_ns)
{
	const int64_t shape[1] = { ACC_N };
	uint32_t inc[ACC_N];
	uint32_t i, sz;

	ASSERT_EQ(0, buf_create(fd, &a->acc, 4 * ACC_N, DRM_VNPU_PLACEMENT_DEVICE, 0));
	ASSERT_EQ(0, buf_create(fd, &a->inc, 4 * ACC_N, DRM_VNPU_PLACEMENT_HOST,
				DRM_VNPU_BO_DEVICE_READ_ONLY));
	ASSERT_EQ(0, buf_create(fd, &a->tmp, 4 * ACC_N, DRM_VNPU_PLACEMENT_DEVICE, 0));
	ASSERT_EQ(0, buf_create(fd, &a->flag, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	for (i = 0; i < ACC_N; i++)
		inc[i] = i + 1;
	ASSERT_EQ(0, buf_write(&a->inc, 0, inc, sizeof(inc)));
	ASSERT_EQ(0, buf_set(&a->acc, 0));
	ASSERT_EQ(0, buf_set(&a->flag, 0));

	memset(a->args, 0, sizeof(a->args));
	sz = add_args(a->args, 0, DRM_VNPU_DTYPE_INT32, 1, shape, a->acc.va,
		      a->inc.va, a->tmp.va);
	a->args_size = sz;
	a->n = 0;
	if (spin_ns)
		a->t[a->n++] = T_SPIN(spin_ns);
	a->t[a->n++] = T_FILL(a->tmp.va, 4 * ACC_N, 0xdeadbeef, 4);
	a->t[a->n++] = T_KERNEL(DRM_VNPU_OP_ADD, 0, sz);
	a->t[a->n++] = T_COPY(a->tmp.va, a->acc.va, 4 * ACC_N);
	a->t[a->n++] = T_WRITE(a->flag.va, 0x1234);
}

/* acc[i] == runs * (i + 1) for every i. */
static void acc_check(struct __test_metadata *_metadata, struct acc *a,
		      uint32_t runs)
{
	uint32_t got[ACC_N], i;

	ASSERT_EQ(0, buf_read(&a->acc, 0, got, sizeof(got)));
	for (i = 0; i < ACC_N; i++)
		if (got[i] != runs * (i + 1)) {
			EXPECT_EQ(runs * (i + 1), got[i])
				TH_LOG("after %u runs, element %u", runs, i);
			break;
		}
	EXPECT_EQ(0x1234, buf_read_u64(&a->flag, 0));
}

TEST(cmdbuf_replayed_1000_times)
{
	struct fix *self = fix_setup(_metadata);
	static const uint32_t checkpoints[] = { 1, 2, 10, 100, 500, 1000 };
	struct drm_vnpu_job_status st;
	uint32_t handle = 0, runs = 0, k;
	uint64_t seq = 0;
	struct acc a;

	acc_setup(_metadata, self->fd, &a, 0);
	ASSERT_EQ(0, cmdbuf_create(self->fd, a.t, a.n, a.args, a.args_size, &handle));
	EXPECT_NE(0, handle);
	/* The batch was copied: changing the caller's copy changes nothing. */
	memset(a.t, 0xff, sizeof(a.t));
	memset(a.args, 0xff, sizeof(a.args));

	for (k = 0; k < sizeof(checkpoints) / sizeof(checkpoints[0]); k++) {
		for (; runs < checkpoints[k]; runs++) {
			ASSERT_EQ(0, submit_cmdbuf(&self->q, handle, &seq));
			ASSERT_EQ(runs + 1, seq);
		}
		ASSERT_EQ(0, job_wait(&self->q, seq));
		ASSERT_EQ(0, job_status(&self->q, seq, &st));
		EXPECT_JOB_OK(st);
		acc_check(_metadata, &a, runs);
	}
	/* Every remembered replay ended well. */
	for (seq = runs - DRM_VNPU_STATUS_HISTORY + 1; seq <= runs; seq++) {
		ASSERT_EQ(0, job_status(&self->q, seq, &st));
		EXPECT_JOB_OK(st);
	}
	EXPECT_EQ(0, cmdbuf_destroy(self->fd, handle));
}

/* A replay reads its source when it runs, not when the buffer was made. */
TEST(cmdbuf_copy_follows_its_source)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t[2];
	struct drm_vnpu_job_status st;
	uint8_t data[1000], got[1000];
	uint32_t handle = 0, round;
	uint64_t seq = 0;
	struct buf src, dst;

	ASSERT_EQ(0, buf_create(self->fd, &src, sizeof(data), DRM_VNPU_PLACEMENT_DEVICE, 0));
	ASSERT_EQ(0, buf_create(self->fd, &dst, sizeof(data), DRM_VNPU_PLACEMENT_USER, 0));
	t[0] = T_COPY(src.va, dst.va, sizeof(data));
	t[1] = T_WRITE(dst.va + 4088, 0);
	ASSERT_EQ(0, cmdbuf_create(self->fd, t, 2, NULL, 0, &handle));
	for (round = 0; round < 5; round++) {
		fill_random(data, sizeof(data), round + 1);
		ASSERT_EQ(0, buf_write(&src, 0, data, sizeof(data)));
		dst.cpu[4088] = 0x55;
		ASSERT_EQ(0, submit_cmdbuf(&self->q, handle, &seq));
		EXPECT_EQ(round + 1, seq);
		ASSERT_EQ(0, job_wait(&self->q, seq));
		ASSERT_EQ(0, job_status(&self->q, seq, &st));
		EXPECT_JOB_OK(st);
		ASSERT_EQ(0, buf_read(&dst, 0, got, sizeof(got)));
		EXPECT_EQ(0, memcmp(data, got, sizeof(got))) TH_LOG("round %u", round);
		EXPECT_EQ(0, dst.cpu[4088]) TH_LOG("round %u", round);
	}
}

/*
 * Destroying a command buffer leaves the replays already submitted alone:
 * they are held behind a gate job, the buffer is destroyed, the gate is
 * opened and every replay runs.
 */
TEST(cmdbuf_destroy_with_replays_queued)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task gate;
	uint64_t gate_seq = 0, seq = 0, i;
	uint32_t handle = 0, replays;
	struct buf g;
	struct acc a;

	/* Gate and replays all in flight: within the queue depth. */
	replays = queue_depth(self->fd) - 1;
	if (replays > 30)
		replays = 30;
	ASSERT_GE(replays, 2);
	acc_setup(_metadata, self->fd, &a, 2 * NSEC_PER_MS);
	ASSERT_EQ(0, buf_create(self->fd, &g, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	memset(g.cpu, 0, 4096);
	ASSERT_EQ(0, cmdbuf_create(self->fd, a.t, a.n, a.args, a.args_size, &handle));

	gate = T_WAIT(g.va, 1, DRM_VNPU_WAIT_EQ, 0);
	ASSERT_EQ(0, submit(&self->q, &gate, 1, NULL, 0, &gate_seq));
	for (i = 0; i < replays; i++)
		ASSERT_EQ(0, submit_cmdbuf(&self->q, handle, &seq));
	ASSERT_EQ(gate_seq + replays, seq);
	ASSERT_EQ(0, cmdbuf_destroy(self->fd, handle));
	EXPECT_EQ(-ENOENT, submit_cmdbuf(&self->q, handle, NULL));
	EXPECT_EQ(-ENOENT, cmdbuf_destroy(self->fd, handle));
	ASSERT_EQ(0, job_status(&self->q, seq, &st));
	EXPECT_EQ(DRM_VNPU_JOB_PENDING, st.state);

	*(volatile uint64_t *)g.cpu = 1;
	ASSERT_EQ(0, job_wait(&self->q, seq));
	for (i = gate_seq; i <= seq; i++) {
		ASSERT_EQ(0, job_status(&self->q, i, &st));
		EXPECT_JOB_OK(st);
	}
	acc_check(_metadata, &a, replays);
	/* The failed submit took no sequence number. */
	gate = T_NOP();
	ASSERT_EQ(0, submit(&self->q, &gate, 1, NULL, 0, &i));
	EXPECT_EQ(seq + 1, i);
	ASSERT_EQ(0, job_wait(&self->q, i));
}

/*
 * Addresses of a command buffer are checked when a replay runs: after its
 * destination is freed, a replay faults there instead of writing freed
 * memory.
 */
TEST(cmdbuf_replay_after_free_faults)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct drm_vnpu_fault_info fi;
	struct drm_vnpu_task t[2];
	uint32_t handle = 0;
	uint64_t seq = 0, dst_va, faults;
	struct buf src, dst, mark;

	ASSERT_EQ(0, buf_create(self->fd, &src, 4096, DRM_VNPU_PLACEMENT_DEVICE, 0));
	ASSERT_EQ(0, buf_create(self->fd, &dst, 4096, DRM_VNPU_PLACEMENT_DEVICE, 0));
	ASSERT_EQ(0, buf_create(self->fd, &mark, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	memset(mark.cpu, 0, 4096);
	dst_va = dst.va;
	t[0] = T_COPY(src.va, dst.va, 256);
	t[1] = T_WRITE(mark.va, 7);
	ASSERT_EQ(0, cmdbuf_create(self->fd, t, 2, NULL, 0, &handle));
	ASSERT_EQ(0, submit_cmdbuf(&self->q, handle, &seq));
	ASSERT_EQ(0, job_wait(&self->q, seq));
	ASSERT_EQ(0, job_status(&self->q, seq, &st));
	EXPECT_JOB_OK(st);
	EXPECT_EQ(7, buf_read_u64(&mark, 0));

	buf_destroy(&dst);
	memset(mark.cpu, 0, 4096);
	ASSERT_EQ(0, fault_info(self->fd, &fi));
	faults = fi.count;
	ASSERT_EQ(0, submit_cmdbuf(&self->q, handle, &seq));
	ASSERT_EQ(0, job_wait(&self->q, seq));
	ASSERT_EQ(0, job_status(&self->q, seq, &st));
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, st.state);
	EXPECT_EQ(-ENXIO, st.error);
	EXPECT_EQ(0, st.task);
	EXPECT_EQ(dst_va, st.fault_va);
	EXPECT_EQ(DRM_VNPU_ACCESS_WRITE, st.fault_access);
	EXPECT_EQ(DRM_VNPU_FAULT_UNMAPPED, st.fault_reason);
	EXPECT_EQ(0, buf_read_u64(&mark, 0)) TH_LOG("the replay went on");
	ASSERT_EQ(0, fault_info(self->fd, &fi));
	EXPECT_EQ(faults + 1, fi.count);
	EXPECT_EQ(-EBADFD, submit_cmdbuf(&self->q, handle, &seq));
}

TEST(cmdbuf_bad_handles_enoent)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t = T_NOP();
	struct drm_vnpu_job_status st;
	uint32_t handle = 0;
	uint64_t seq = 0;

	EXPECT_EQ(-ENOENT, submit_cmdbuf(&self->q, 0, NULL));
	EXPECT_EQ(-ENOENT, submit_cmdbuf(&self->q, 12345, NULL));
	EXPECT_EQ(-ENOENT, cmdbuf_destroy(self->fd, 0));
	EXPECT_EQ(-ENOENT, cmdbuf_destroy(self->fd, 12345));

	ASSERT_EQ(0, cmdbuf_create(self->fd, &t, 1, NULL, 0, &handle));
	EXPECT_EQ(-ENOENT, submit_cmdbuf(&self->q, handle + 1, NULL));
	ASSERT_EQ(0, cmdbuf_destroy(self->fd, handle));
	EXPECT_EQ(-ENOENT, submit_cmdbuf(&self->q, handle, NULL));
	EXPECT_EQ(-ENOENT, cmdbuf_destroy(self->fd, handle));
	/* No failed submit took a sequence number. */
	ASSERT_EQ(0, run_job(&self->q, &t, 1, NULL, 0, &st, &seq));
	EXPECT_EQ(1, seq);
	EXPECT_JOB_OK(st);
}

TEST(cmdbuf_create_destroy_flags_and_pad_einval)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t = T_NOP();
	struct drm_vnpu_cmdbuf_create cc = {
		.tasks = (uintptr_t)&t, .task_count = 1, .task_stride = sizeof(t),
	};
	struct drm_vnpu_cmdbuf_destroy cd = { 0 };
	struct drm_vnpu_job_status st;
	uint64_t seq = 0;

	/* BINDINGS with binding_count 0, an unknown flag, a high bit. */
	cc.flags = DRM_VNPU_CMDBUF_BINDINGS;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_VNPU_CMDBUF_CREATE, &cc));
	cc.flags = 1u << 1;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_VNPU_CMDBUF_CREATE, &cc));
	cc.flags = 0x80000000u;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_VNPU_CMDBUF_CREATE, &cc));
	cc.flags = 0;
	cc.binding_count = 1;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_VNPU_CMDBUF_CREATE, &cc));
	cc.binding_count = 0;
	ASSERT_EQ(0, xioctl(self->fd, DRM_IOCTL_VNPU_CMDBUF_CREATE, &cc));
	ASSERT_NE(0, cc.handle);

	cd.handle = cc.handle;
	cd.pad = 1;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_VNPU_CMDBUF_DESTROY, &cd));
	/* Still there after the refused destroy. */
	ASSERT_EQ(0, submit_cmdbuf(&self->q, cc.handle, &seq));
	ASSERT_EQ(0, job_wait(&self->q, seq));
	ASSERT_EQ(0, job_status(&self->q, seq, &st));
	EXPECT_JOB_OK(st);
	cd.pad = 0;
	EXPECT_EQ(0, xioctl(self->fd, DRM_IOCTL_VNPU_CMDBUF_DESTROY, &cd));
}

/* Command buffer handles belong to their file. */
TEST(cmdbuf_of_another_file_enoent)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t = T_NOP();
	struct drm_vnpu_job_status st;
	uint32_t h1 = 0, h2 = 0;
	uint64_t seq = 0;
	struct queue q2;
	int fd2;

	fd2 = open_node();
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, queue_new(fd2, DRM_VNPU_PRIORITY_NORMAL, &q2));
	ASSERT_EQ(0, cmdbuf_create(self->fd, &t, 1, NULL, 0, &h1));

	EXPECT_EQ(-ENOENT, submit_cmdbuf(&q2, h1, NULL));
	EXPECT_EQ(-ENOENT, cmdbuf_destroy(fd2, h1));
	/* A handle of the same value in fd2 is fd2's own buffer. */
	ASSERT_EQ(0, cmdbuf_create(fd2, &t, 1, NULL, 0, &h2));
	ASSERT_EQ(0, cmdbuf_destroy(fd2, h2));
	EXPECT_EQ(-ENOENT, submit_cmdbuf(&q2, h1, NULL));

	/* fd1's buffer survived all that. */
	ASSERT_EQ(0, submit_cmdbuf(&self->q, h1, &seq));
	EXPECT_EQ(1, seq);
	ASSERT_EQ(0, job_wait(&self->q, seq));
	ASSERT_EQ(0, job_status(&self->q, seq, &st));
	EXPECT_JOB_OK(st);
	/* Nothing was queued on fd2's queue. */
	EXPECT_EQ(-EINVAL, job_status(&q2, 1, &st));
	close(fd2);
}

/* A file can have many command buffers, but not without limit. */
TEST(cmdbuf_limit_enospc)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t = T_NOP();
	uint32_t handle = 0, last = 0, n = 0;
	int ret = 0;

	while (n < (1u << 20)) {
		ret = cmdbuf_create(self->fd, &t, 1, NULL, 0, &handle);
		if (ret)
			break;
		last = handle;
		n++;
	}
	EXPECT_EQ(-ENOSPC, ret);
	EXPECT_GE(n, 1024) TH_LOG("only %u command buffers", n);
	TH_LOG("limit: %u command buffers", n);
	ASSERT_EQ(0, cmdbuf_destroy(self->fd, last));
	EXPECT_EQ(0, cmdbuf_create(self->fd, &t, 1, NULL, 0, &handle));
	EXPECT_EQ(-ENOSPC, cmdbuf_create(self->fd, &t, 1, NULL, 0, &handle));
}

TEST_HARNESS_MAIN
