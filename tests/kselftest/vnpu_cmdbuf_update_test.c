// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM_IOCTL_VNPU_CMDBUF_UPDATE (UAPI 1.9): every -EINVAL, -ENOENT and
 * -EFAULT rule, a task type change, a patch that fails validation leaving
 * the old contents in place, late binding (an update reaches a replay
 * queued behind a WAIT_VALUE, never one already running), destroy racing
 * updates and close with replays in flight. Runs in the VM with vnpu.ko.
 */
#include <pthread.h>
#include <stddef.h>
#include <sys/wait.h>

#include "vnpu_job_test_util.h"

#define N	256

static int update_raw(int fd, struct drm_vnpu_cmdbuf_update *u)
{
	return xioctl(fd, DRM_IOCTL_VNPU_CMDBUF_UPDATE, u);
}

static int update(int fd, uint32_t handle, uint32_t first,
		  const struct drm_vnpu_task *t, uint32_t n,
		  uint32_t args_off, const void *args, uint32_t args_size)
{
	struct drm_vnpu_cmdbuf_update u = {
		.handle = handle,
		.tasks = (uintptr_t)t,
		.first_task = first,
		.task_count = n,
		.task_stride = n ? sizeof(*t) : 0,
		.args_offset = args_off,
		.args = (uintptr_t)args,
		.args_size = args_size,
	};

	return update_raw(fd, &u);
}

/* A good update of cmdbuf h (2 tasks, 0 argument bytes) to start from. */
static struct drm_vnpu_cmdbuf_update good(uint32_t h,
					  const struct drm_vnpu_task *t)
{
	struct drm_vnpu_cmdbuf_update u = {
		.handle = h, .tasks = (uintptr_t)t, .first_task = 1,
		.task_count = 1, .task_stride = sizeof(*t),
	};

	return u;
}

/* Run cmdbuf h once and wait; the job must end well. */
static void replay(struct __test_metadata *_metadata, struct fix *self,
		   uint32_t h)
{
	struct drm_vnpu_job_status st;
	uint64_t seq = 0;

	ASSERT_EQ(0, submit_cmdbuf(&self->q, h, &seq));
	ASSERT_EQ(0, job_wait(&self->q, seq));
	ASSERT_EQ(0, job_status(&self->q, seq, &st));
	EXPECT_JOB_OK(st);
}

static void nap_ms(unsigned int ms)
{
	struct timespec ts = { .tv_nsec = ms * 1000000L };

	nanosleep(&ts, NULL);
}

TEST(update_einval_rules)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t[2], w;
	struct drm_vnpu_cmdbuf_update u;
	uint64_t args[8] = { 0 };
	uint32_t h = 0, bad = 0, i;
	struct buf m;

	ASSERT_EQ(0, buf_create(self->fd, &m, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	memset(m.cpu, 0, 4096);
	t[0] = T_NOP();
	t[1] = T_WRITE(m.va, 1);
	ASSERT_EQ(0, cmdbuf_create(self->fd, t, 2, args, sizeof(args), &h));
	w = T_WRITE(m.va, 2);
	/* The same rules before the handle is looked up: h and an unknown one. */
	for (i = 0; i < 2; i++) {
		uint32_t hh = i ? 12345 : h;

		u = good(hh, &w); u.flags = 1;
		EXPECT_EQ(-EINVAL, update_raw(self->fd, &u));
		u = good(hh, &w); u.flags = 0x80000000u;
		EXPECT_EQ(-EINVAL, update_raw(self->fd, &u));
		u = good(hh, &w); u.pad = 1;
		EXPECT_EQ(-EINVAL, update_raw(self->fd, &u));
		/* Nothing to patch. */
		u = good(hh, &w); u.task_count = 0; u.tasks = 0;
		EXPECT_EQ(-EINVAL, update_raw(self->fd, &u));
		/* Pointer without count, count without pointer. */
		u = good(hh, &w); u.task_count = 0;
		u.args = (uintptr_t)args; u.args_size = 8;
		EXPECT_EQ(-EINVAL, update_raw(self->fd, &u));
		u = good(hh, &w); u.tasks = 0;
		EXPECT_EQ(-EINVAL, update_raw(self->fd, &u));
		/* Strides: too small, too large, not a multiple of 8. */
		u = good(hh, &w); u.task_stride = sizeof(w) - 8;
		EXPECT_EQ(-EINVAL, update_raw(self->fd, &u));
		u = good(hh, &w); u.task_stride = 0;
		EXPECT_EQ(-EINVAL, update_raw(self->fd, &u));
		u = good(hh, &w); u.task_stride = 8192;
		EXPECT_EQ(-EINVAL, update_raw(self->fd, &u));
		u = good(hh, &w); u.task_stride = sizeof(w) + 4;
		EXPECT_EQ(-EINVAL, update_raw(self->fd, &u));
		/* Task ranges that overflow or pass DRM_VNPU_MAX_TASKS. */
		u = good(hh, &w); u.first_task = 0xffffffffu;
		EXPECT_EQ(-EINVAL, update_raw(self->fd, &u));
		u = good(hh, &w); u.first_task = DRM_VNPU_MAX_TASKS;
		EXPECT_EQ(-EINVAL, update_raw(self->fd, &u));
		u = good(hh, &w); u.task_count = DRM_VNPU_MAX_TASKS + 1;
		EXPECT_EQ(-EINVAL, update_raw(self->fd, &u));
		/* Argument ranges: alignment, size, overflow, pointer. */
		u = good(hh, &w); u.args = (uintptr_t)args; u.args_size = 4;
		EXPECT_EQ(-EINVAL, update_raw(self->fd, &u));
		u = good(hh, &w); u.args = (uintptr_t)args; u.args_size = 8;
		u.args_offset = 4;
		EXPECT_EQ(-EINVAL, update_raw(self->fd, &u));
		u = good(hh, &w); u.args = (uintptr_t)args; u.args_size = 0;
		EXPECT_EQ(-EINVAL, update_raw(self->fd, &u));
		u = good(hh, &w); u.args = 0; u.args_size = 8;
		EXPECT_EQ(-EINVAL, update_raw(self->fd, &u));
		u = good(hh, &w); u.args = (uintptr_t)args; u.args_size = 8;
		u.args_offset = 0xfffffff8u;
		EXPECT_EQ(-EINVAL, update_raw(self->fd, &u));
		u = good(hh, &w); u.args = (uintptr_t)args; u.args_size = 8;
		u.args_offset = DRM_VNPU_MAX_ARGS_SIZE;
		EXPECT_EQ(-EINVAL, update_raw(self->fd, &u));
	}
	/* Ranges past this command buffer's 2 tasks and 64 argument bytes. */
	u = good(h, &w); u.first_task = 2;
	EXPECT_EQ(-EINVAL, update_raw(self->fd, &u));
	u = good(h, t); u.first_task = 1; u.task_count = 2;
	EXPECT_EQ(-EINVAL, update_raw(self->fd, &u));
	EXPECT_EQ(-EINVAL, update(self->fd, h, 0, NULL, 0, 64, args, 8));
	EXPECT_EQ(-EINVAL, update(self->fd, h, 0, NULL, 0, 8, args, 64));
	/* A valid update of an unknown handle. */
	EXPECT_EQ(-ENOENT, update(self->fd, 0, 1, &w, 1, 0, NULL, 0));
	EXPECT_EQ(-ENOENT, update(self->fd, h + 1, 1, &w, 1, 0, NULL, 0));
	/* Nothing changed: the replay writes 1. */
	replay(_metadata, self, h);
	EXPECT_EQ(1, buf_read_u64(&m, 0));
	/* The whole argument block and both tasks at once are fine. */
	EXPECT_EQ(0, update(self->fd, h, 0, NULL, 0, 0, args, 64));
	t[1] = T_WRITE(m.va, 3);
	EXPECT_EQ(0, update(self->fd, h, 0, t, 2, 0, NULL, 0));
	replay(_metadata, self, h);
	EXPECT_EQ(3, buf_read_u64(&m, 0));
	/* A destroyed handle is unknown. */
	ASSERT_EQ(0, cmdbuf_create(self->fd, t, 2, NULL, 0, &bad));
	ASSERT_EQ(0, cmdbuf_destroy(self->fd, bad));
	EXPECT_EQ(-ENOENT, update(self->fd, bad, 1, &w, 1, 0, NULL, 0));
	/* Without an argument block, any argument range is past it. */
	ASSERT_EQ(0, cmdbuf_create(self->fd, t, 2, NULL, 0, &bad));
	EXPECT_EQ(-EINVAL, update(self->fd, bad, 1, &w, 1, 0, args, 8));
	EXPECT_EQ(0, update(self->fd, bad, 1, &w, 1, 0, NULL, 0));
}

TEST(update_efault)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t[2];
	uint64_t args[8] = { 0 };
	uint32_t h = 0;
	struct buf m;
	void *hole;

	hole = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, hole);
	ASSERT_EQ(0, buf_create(self->fd, &m, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	memset(m.cpu, 0, 4096);
	t[0] = T_NOP();
	t[1] = T_WRITE(m.va, 1);
	ASSERT_EQ(0, cmdbuf_create(self->fd, t, 2, args, sizeof(args), &h));
	EXPECT_EQ(-EFAULT, update(self->fd, h, 0, hole, 1, 0, NULL, 0));
	EXPECT_EQ(-EFAULT, update(self->fd, h, 0, (void *)8, 1, 0, NULL, 0));
	EXPECT_EQ(-EFAULT, update(self->fd, h, 0, NULL, 0, 0, hole, 8));
	/* A good task patch with a bad argument pointer changes nothing. */
	t[1] = T_WRITE(m.va, 2);
	EXPECT_EQ(-EFAULT, update(self->fd, h, 0, t, 2, 0, hole, 8));
	/* Past the end of a mapping: the first descriptor fine, not the second. */
	EXPECT_EQ(-EFAULT, update(self->fd, h, 0,
				  (struct drm_vnpu_task *)hole - 1, 2, 0, NULL, 0));
	replay(_metadata, self, h);
	EXPECT_EQ(1, buf_read_u64(&m, 0));
	munmap(hole, 4096);
}

TEST(update_type_change_einval)
{
	struct fix *self = fix_setup(_metadata);
	const int64_t shape[1] = { N };
	struct drm_vnpu_task t[3], p[3];
	uint64_t args[128];
	uint32_t h = 0, sz;
	struct buf a, b, c, m;

	ASSERT_EQ(0, buf_create(self->fd, &a, 4 * N, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, buf_create(self->fd, &b, 4 * N, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, buf_create(self->fd, &c, 4 * N, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, buf_create(self->fd, &m, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	memset(m.cpu, 0, 4096);
	memset(args, 0, sizeof(args));
	sz = add_args(args, 0, DRM_VNPU_DTYPE_INT32, 1, shape, a.va, b.va, c.va);
	t[0] = T_NOP();
	t[1] = T_KERNEL(DRM_VNPU_OP_ADD, 0, sz);
	t[2] = T_WRITE(m.va, 1);
	ASSERT_EQ(0, cmdbuf_create(self->fd, t, 3, args, sz, &h));
	memcpy(p, t, sizeof(p));
	p[0] = T_WRITE(m.va, 5);		/* NOP -> WRITE_VALUE */
	EXPECT_EQ(-EINVAL, update(self->fd, h, 0, p, 1, 0, NULL, 0));
	memcpy(p, t, sizeof(p));
	p[1] = T_COPY(a.va, c.va, 4 * N);	/* KERNEL -> COPY */
	EXPECT_EQ(-EINVAL, update(self->fd, h, 0, p, 3, 0, NULL, 0));
	memcpy(p, t, sizeof(p));
	p[2] = T_NOP();				/* the last one only */
	EXPECT_EQ(-EINVAL, update(self->fd, h, 2, &p[2], 1, 0, NULL, 0));
	p[2] = T_WAIT(m.va, 0, DRM_VNPU_WAIT_EQ, 0);
	EXPECT_EQ(-EINVAL, update(self->fd, h, 2, &p[2], 1, 0, NULL, 0));
	replay(_metadata, self, h);
	EXPECT_EQ(1, buf_read_u64(&m, 0));
}

/* A patch the create checks reject fails as a whole; the old one runs. */
TEST(update_invalid_patch_keeps_old)
{
	struct fix *self = fix_setup(_metadata);
	const int64_t shape[1] = { N };
	struct drm_vnpu_kernel_args *ka;
	struct drm_vnpu_task t[2], p[2];
	uint64_t args[128], bad[128];
	int32_t x[N], got[N];
	uint32_t h = 0, sz, i;
	struct buf a, b, c, m;

	ASSERT_EQ(0, buf_create(self->fd, &a, 4 * N, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, buf_create(self->fd, &b, 4 * N, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, buf_create(self->fd, &c, 4 * N, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, buf_create(self->fd, &m, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	for (i = 0; i < N; i++)
		x[i] = i;
	ASSERT_EQ(0, buf_write(&a, 0, x, sizeof(x)));
	ASSERT_EQ(0, buf_write(&b, 0, x, sizeof(x)));
	memset(m.cpu, 0, 4096);
	memset(args, 0, sizeof(args));
	sz = add_args(args, 0, DRM_VNPU_DTYPE_INT32, 1, shape, a.va, b.va, c.va);
	t[0] = T_KERNEL(DRM_VNPU_OP_ADD, 0, sz);
	t[1] = T_WRITE(m.va, 1);
	ASSERT_EQ(0, cmdbuf_create(self->fd, t, 2, args, sz, &h));

	/* Each of these fails the checks of a create. */
	p[1] = T_WRITE(m.va + 4, 2);			/* misaligned value */
	EXPECT_EQ(-EINVAL, update(self->fd, h, 1, &p[1], 1, 0, NULL, 0));
	p[1] = T_WRITE(m.va, 2);
	p[1].flags = 1;					/* task flags */
	EXPECT_EQ(-EINVAL, update(self->fd, h, 1, &p[1], 1, 0, NULL, 0));
	p[0] = t[0];
	p[0].kernel.args_offset = 8;			/* past the block */
	EXPECT_EQ(-EINVAL, update(self->fd, h, 0, p, 1, 0, NULL, 0));
	memcpy(bad, args, sizeof(bad));
	ka = (void *)bad;
	ka->num_outputs = 0;				/* no output */
	EXPECT_EQ(-EINVAL, update(self->fd, h, 0, NULL, 0, 0, bad, sz));
	memcpy(bad, args, sizeof(bad));
	ka->tensors[2].dtype = 0xff;			/* bad dtype */
	EXPECT_EQ(-EINVAL, update(self->fd, h, 0, NULL, 0, 0, bad, sz));
	/* A good task with a bad argument patch: neither is applied. */
	p[1] = T_WRITE(m.va, 9);
	{
		struct drm_vnpu_cmdbuf_update u = {
			.handle = h, .tasks = (uintptr_t)p, .task_count = 2,
			.task_stride = sizeof(p[0]), .args = (uintptr_t)bad,
			.args_size = sz,
		};

		p[0] = t[0];
		EXPECT_EQ(-EINVAL, update_raw(self->fd, &u));
	}
	replay(_metadata, self, h);
	EXPECT_EQ(1, buf_read_u64(&m, 0));
	ASSERT_EQ(0, buf_read(&c, 0, got, sizeof(got)));
	for (i = 0; i < N; i++)
		ASSERT_EQ(2 * (int32_t)i, got[i]) TH_LOG("element %u", i);
}

/*
 * The update reaches a replay already submitted and queued behind a
 * WAIT_VALUE: the operator reads the new arguments.
 */
TEST(update_reaches_queued_replay)
{
	struct fix *self = fix_setup(_metadata);
	const int64_t shape[1] = { N };
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t[2], gate;
	uint64_t args[128], nargs[128];
	int32_t x[N], y[N], got[N];
	uint64_t gate_seq = 0, seq = 0;
	uint32_t h = 0, sz, i, off;
	struct buf a, b, b2, c, m, g;

	ASSERT_EQ(0, buf_create(self->fd, &a, 4 * N, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, buf_create(self->fd, &b, 4 * N, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, buf_create(self->fd, &b2, 4 * N, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, buf_create(self->fd, &c, 4 * N, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, buf_create(self->fd, &m, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, buf_create(self->fd, &g, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	for (i = 0; i < N; i++) {
		x[i] = i;
		y[i] = 1000 * i;
	}
	ASSERT_EQ(0, buf_write(&a, 0, x, sizeof(x)));
	ASSERT_EQ(0, buf_write(&b, 0, x, sizeof(x)));
	ASSERT_EQ(0, buf_write(&b2, 0, y, sizeof(y)));
	memset(m.cpu, 0, 4096);
	memset(g.cpu, 0, 4096);
	memset(args, 0, sizeof(args));
	sz = add_args(args, 0, DRM_VNPU_DTYPE_INT32, 1, shape, a.va, b.va, c.va);
	memset(nargs, 0, sizeof(nargs));
	add_args(nargs, 0, DRM_VNPU_DTYPE_INT32, 1, shape, a.va, b2.va, c.va);
	t[0] = T_KERNEL(DRM_VNPU_OP_ADD, 0, sz);
	t[1] = T_WRITE(m.va, 1);
	ASSERT_EQ(0, cmdbuf_create(self->fd, t, 2, args, sz, &h));

	gate = T_WAIT(g.va, 1, DRM_VNPU_WAIT_EQ, 0);
	ASSERT_EQ(0, submit(&self->q, &gate, 1, NULL, 0, &gate_seq));
	ASSERT_EQ(0, submit_cmdbuf(&self->q, h, &seq));
	ASSERT_EQ(gate_seq + 1, seq);
	/* Only the second tensor's address changes: patch those 8 bytes. */
	off = offsetof(struct drm_vnpu_kernel_args, tensors[1].va);
	ASSERT_EQ(0, update(self->fd, h, 0, NULL, 0, off, &nargs[off / 8], 8));
	t[1] = T_WRITE(m.va, 2);
	ASSERT_EQ(0, update(self->fd, h, 1, &t[1], 1, 0, NULL, 0));
	ASSERT_EQ(0, job_status(&self->q, seq, &st));
	EXPECT_EQ(DRM_VNPU_JOB_PENDING, st.state);
	*(volatile uint64_t *)g.cpu = 1;
	ASSERT_EQ(0, job_wait(&self->q, seq));
	ASSERT_EQ(0, job_status(&self->q, seq, &st));
	EXPECT_JOB_OK(st);
	EXPECT_EQ(2, buf_read_u64(&m, 0));
	ASSERT_EQ(0, buf_read(&c, 0, got, sizeof(got)));
	for (i = 0; i < N; i++)
		ASSERT_EQ(1001 * (int32_t)i, got[i]) TH_LOG("element %u", i);
}

/* A replay that is running keeps what it started with; the next one not. */
TEST(update_spares_running_replay)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t[3];
	uint64_t seq = 0, seq2 = 0;
	uint32_t h = 0, spins = 0;
	struct buf m, g;

	ASSERT_EQ(0, buf_create(self->fd, &m, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, buf_create(self->fd, &g, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	memset(m.cpu, 0, 4096);
	memset(g.cpu, 0, 4096);
	t[0] = T_WRITE(m.va + 8, 1);		/* "started" */
	t[1] = T_WAIT(g.va, 1, DRM_VNPU_WAIT_EQ, 0);
	t[2] = T_WRITE(m.va, 1);
	ASSERT_EQ(0, cmdbuf_create(self->fd, t, 3, NULL, 0, &h));
	ASSERT_EQ(0, submit_cmdbuf(&self->q, h, &seq));
	while (buf_read_u64(&m, 8) != 1 && spins++ < 10000)
		nap_ms(1);
	ASSERT_EQ(1, buf_read_u64(&m, 8)) TH_LOG("the replay never started");
	t[2] = T_WRITE(m.va, 2);
	ASSERT_EQ(0, update(self->fd, h, 2, &t[2], 1, 0, NULL, 0));
	ASSERT_EQ(0, submit_cmdbuf(&self->q, h, &seq2));
	*(volatile uint64_t *)g.cpu = 1;
	ASSERT_EQ(0, job_wait(&self->q, seq));
	ASSERT_EQ(0, job_status(&self->q, seq, &st));
	EXPECT_JOB_OK(st);
	/* The first replay wrote 1 before the second could write 2: order. */
	ASSERT_EQ(0, job_wait(&self->q, seq2));
	EXPECT_EQ(2, buf_read_u64(&m, 0));
	*(volatile uint64_t *)m.cpu = 0;
	*(volatile uint64_t *)(m.cpu + 8) = 0;
	/* Check the first one's value: run the old contents again, gated. */
	*(volatile uint64_t *)g.cpu = 0;
	ASSERT_EQ(0, submit_cmdbuf(&self->q, h, &seq));
	while (buf_read_u64(&m, 8) != 1 && spins++ < 20000)
		nap_ms(1);
	t[2] = T_WRITE(m.va, 3);
	ASSERT_EQ(0, update(self->fd, h, 2, &t[2], 1, 0, NULL, 0));
	*(volatile uint64_t *)g.cpu = 1;
	ASSERT_EQ(0, job_wait(&self->q, seq));
	EXPECT_EQ(2, buf_read_u64(&m, 0)) TH_LOG("a running replay saw an update");
	replay(_metadata, self, h);
	EXPECT_EQ(3, buf_read_u64(&m, 0));
}

/* Many updates of one command buffer with replays queued, then destroy. */
TEST(update_many_with_replays_queued)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t[2], gate;
	uint64_t gate_seq = 0, seq = 0, i, got[8];
	uint32_t h = 0;
	struct buf m, g;

	ASSERT_EQ(0, buf_create(self->fd, &m, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, buf_create(self->fd, &g, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	memset(m.cpu, 0, 4096);
	memset(g.cpu, 0, 4096);
	t[0] = T_NOP();
	t[1] = T_WRITE(m.va, 0);
	ASSERT_EQ(0, cmdbuf_create(self->fd, t, 2, NULL, 0, &h));
	gate = T_WAIT(g.va, 1, DRM_VNPU_WAIT_EQ, 0);
	ASSERT_EQ(0, submit(&self->q, &gate, 1, NULL, 0, &gate_seq));
	/* Replay k writes slot k; each replay is followed by an update. */
	for (i = 0; i < 8; i++) {
		t[1] = T_WRITE(m.va + 8 * i, 100 + i);
		ASSERT_EQ(0, update(self->fd, h, 1, &t[1], 1, 0, NULL, 0));
		ASSERT_EQ(0, submit_cmdbuf(&self->q, h, &seq));
	}
	ASSERT_EQ(0, cmdbuf_destroy(self->fd, h));
	EXPECT_EQ(-ENOENT, update(self->fd, h, 1, &t[1], 1, 0, NULL, 0));
	*(volatile uint64_t *)g.cpu = 1;
	ASSERT_EQ(0, job_wait(&self->q, seq));
	ASSERT_EQ(0, job_status(&self->q, seq, &st));
	EXPECT_JOB_OK(st);
	/* All replays started after the last update: all wrote slot 7. */
	ASSERT_EQ(0, buf_read(&m, 0, got, sizeof(got)));
	for (i = 0; i < 7; i++)
		EXPECT_EQ(0, got[i]) TH_LOG("slot %lu", (unsigned long)i);
	EXPECT_EQ(107, got[7]);
}

struct race {
	int fd;
	uint32_t h;
	volatile int stop;
	int ok, enoent, other;
	struct drm_vnpu_task t[2];
};

static void *race_updater(void *p)
{
	struct race *r = p;

	while (!r->stop) {
		int ret = update(r->fd, r->h, 1, &r->t[1], 1, 0, NULL, 0);

		if (!ret)
			r->ok++;
		else if (ret == -ENOENT)
			r->enoent++;
		else
			r->other++;
	}
	return NULL;
}

/* Destroy racing updates (and replays): updates see 0 or -ENOENT only. */
TEST(update_destroy_race)
{
	struct fix *self = fix_setup(_metadata);
	struct race r = { 0 };
	pthread_t th;
	uint64_t seq = 0;
	uint32_t round, k;
	struct buf m;

	ASSERT_EQ(0, buf_create(self->fd, &m, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	r.fd = self->fd;
	r.t[0] = T_NOP();
	r.t[1] = T_WRITE(m.va, 5);
	ASSERT_EQ(0, cmdbuf_create(self->fd, r.t, 2, NULL, 0, &r.h));
	ASSERT_EQ(0, pthread_create(&th, NULL, race_updater, &r));
	for (round = 0; round < 200; round++) {
		for (k = 0; k < 3; k++)
			ASSERT_EQ(0, submit_cmdbuf(&self->q, r.h, &seq));
		ASSERT_EQ(0, cmdbuf_destroy(self->fd, r.h));
		ASSERT_EQ(0, cmdbuf_create(self->fd, r.t, 2, NULL, 0, &r.h));
	}
	r.stop = 1;
	pthread_join(th, NULL);
	EXPECT_EQ(0, r.other);
	EXPECT_LT(0, r.ok);
	ASSERT_EQ(0, job_wait(&self->q, seq));
	EXPECT_EQ(5, buf_read_u64(&m, 0));
}

/* Close with replays of updated command buffers in flight. */
TEST(update_close_with_replays)
{
	struct fix *self = fix_setup(_metadata);
	int status, round;

	for (round = 0; round < 4; round++) {
		pid_t pid = fork();

		ASSERT_GE(pid, 0);
		if (!pid) {
			struct drm_vnpu_task t[2], gate;
			uint32_t h = 0;
			struct queue q;
			struct buf m, g;
			int fd = open_node(), i;

			if (fd < 0 || queue_new(fd, DRM_VNPU_PRIORITY_NORMAL, &q) ||
			    buf_create(fd, &m, 4096, DRM_VNPU_PLACEMENT_HOST, 0) ||
			    buf_create(fd, &g, 4096, DRM_VNPU_PLACEMENT_HOST, 0))
				_exit(2);
			memset(g.cpu, 0, 4096);
			t[0] = T_SPIN(NSEC_PER_MS);
			t[1] = T_WRITE(m.va, 1);
			if (cmdbuf_create(fd, t, 2, NULL, 0, &h))
				_exit(3);
			gate = T_WAIT(g.va, 1, DRM_VNPU_WAIT_EQ, 0);
			if (round & 1 && submit(&q, &gate, 1, NULL, 0, NULL))
				_exit(4);
			for (i = 0; i < 10; i++) {
				t[1] = T_WRITE(m.va, i);
				if (update(fd, h, 0, t, 2, 0, NULL, 0) ||
				    submit_cmdbuf(&q, h, NULL))
					_exit(5);
			}
			if (round & 2)
				cmdbuf_destroy(fd, h);
			_exit(0);	/* closes with everything in flight */
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE(WIFEXITED(status));
		EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("round %d", round);
	}
	/* The device still works. */
	{
		struct drm_vnpu_task t = T_NOP();
		struct drm_vnpu_job_status st;

		ASSERT_EQ(0, run_job(&self->q, &t, 1, NULL, 0, &st, NULL));
		EXPECT_JOB_OK(st);
	}
}

TEST_HARNESS_MAIN
