// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM_VNPU_TASK_JUMP (UAPI 1.9): every condition and flag with the
 * outcome read back, 32-bit sign extension, a second operand in memory,
 * forward and backward jumps (a loop counting down on the device), the
 * validation rules, jumps whose operand faults, the backward-jump bound
 * (-ELOOP, ABORTED) without holding up another file's job, and jumps in
 * a command buffer with bindings. Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_job_test_util.h"

#define T_JUMP(a, v, c, tg, f) \
	((struct drm_vnpu_task){ .type = DRM_VNPU_TASK_JUMP, \
		.jump = { .addr = (a), .value = (v), .cond = (c), \
			  .target = (tg), .flags = (f) } })

/* What the driver must decide, computed here the plain way. */
static bool cond_holds(int64_t m, int64_t v, uint32_t cond)
{
	switch (cond) {
	case DRM_VNPU_JUMP_EQ: return m == v;
	case DRM_VNPU_JUMP_NE: return m != v;
	case DRM_VNPU_JUMP_GT: return m > v;
	case DRM_VNPU_JUMP_GE: return m >= v;
	case DRM_VNPU_JUMP_LT: return m < v;
	case DRM_VNPU_JUMP_LE: return m <= v;
	default: return true;
	}
}

/*
 * Run [JUMP -> 2, WRITE marker, WRITE 7 at +8] and return whether the
 * jump was taken (marker left 0), or -1 when the job did not end OK.
 */
static int taken(struct fix *self, struct buf *b, struct drm_vnpu_task j)
{
	struct drm_vnpu_task t[3];
	struct drm_vnpu_job_status st;

	j.jump.target = 2;
	t[0] = j;
	t[1] = T_WRITE(b->va + 64, 1);
	t[2] = T_WRITE(b->va + 72, 7);
	memset(b->cpu + 64, 0, 16);
	if (run_job(&self->q, t, 3, NULL, 0, &st, NULL) ||
	    st.state != DRM_VNPU_JOB_OK || buf_read_u64(b, 72) != 7)
		return -1;
	return buf_read_u64(b, 64) == 0;
}

TEST(every_condition)
{
	struct fix *self = fix_setup(_metadata);
	static const int64_t mem[] = { -6, 4, 5, 6, INT64_MIN, INT64_MAX };
	static const int64_t imm[] = { 5, -6, INT64_MIN };
	uint32_t c, i, k, checked = 0;
	struct buf b;

	ASSERT_EQ(0, buf_create(self->fd, &b, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	for (c = 0; c <= DRM_VNPU_JUMP_ALWAYS; c++)
		for (i = 0; i < ARRAY_SIZE(mem); i++)
			for (k = 0; k < ARRAY_SIZE(imm); k++) {
				memcpy(b.cpu, &mem[i], 8);
				EXPECT_EQ(cond_holds(mem[i], imm[k], c),
					  taken(self, &b, T_JUMP(b.va, imm[k], c, 0, 0)))
					TH_LOG("cond %u m %lld v %lld", c,
					       (long long)mem[i], (long long)imm[k]);
				checked++;
			}
	EXPECT_EQ(7 * 6 * 3, checked);
	buf_destroy(&b);
}

/* 32BIT reads 4 bytes and sign-extends them; the upper half is ignored. */
TEST(sign_extension_32bit)
{
	struct fix *self = fix_setup(_metadata);
	uint64_t w = 0x00000007ffffffffull;	/* low word -1, high word 7 */
	uint64_t other = 0xfffffffe;		/* low word -2 */
	struct buf b;

	ASSERT_EQ(0, buf_create(self->fd, &b, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	memcpy(b.cpu, &w, 8);
	memcpy(b.cpu + 8, &other, 8);
	/* 64-bit: a large positive number. */
	EXPECT_EQ(1, taken(self, &b, T_JUMP(b.va, 0, DRM_VNPU_JUMP_GT, 0, 0)));
	/* 32-bit: -1. The immediate is compared as the 64-bit value it is. */
	EXPECT_EQ(1, taken(self, &b, T_JUMP(b.va, 0, DRM_VNPU_JUMP_LT, 0,
					     DRM_VNPU_JUMP_32BIT)));
	EXPECT_EQ(1, taken(self, &b, T_JUMP(b.va, (uint64_t)-1ll,
					     DRM_VNPU_JUMP_EQ, 0,
					     DRM_VNPU_JUMP_32BIT)));
	EXPECT_EQ(0, taken(self, &b, T_JUMP(b.va, 0xffffffffull,
					     DRM_VNPU_JUMP_EQ, 0,
					     DRM_VNPU_JUMP_32BIT)));
	/* Both operands from memory, both sign-extended: -1 > -2. */
	EXPECT_EQ(1, taken(self, &b, T_JUMP(b.va, b.va + 8, DRM_VNPU_JUMP_GT, 0,
					     DRM_VNPU_JUMP_32BIT |
					     DRM_VNPU_JUMP_VALUE_ADDR)));
	/* 64-bit both: 0x7ffffffff > 0xfffffffe too, but not LT. */
	EXPECT_EQ(0, taken(self, &b, T_JUMP(b.va, b.va + 8, DRM_VNPU_JUMP_LT, 0,
					     DRM_VNPU_JUMP_VALUE_ADDR)));
	/* An unaligned 32-bit operand is read as it lies. */
	memset(b.cpu + 32, 0, 16);
	b.cpu[35] = 0x80;	/* bytes 34..37 = 00 80 00 00 -> 0x8000 */
	EXPECT_EQ(1, taken(self, &b, T_JUMP(b.va + 34, 0x8000, DRM_VNPU_JUMP_EQ,
					     0, DRM_VNPU_JUMP_32BIT)));
	buf_destroy(&b);
}

/* VALUE_ADDR compares with the word at @value, not with @value. */
TEST(value_addr)
{
	struct fix *self = fix_setup(_metadata);
	int64_t a = 10, v = 10;
	struct buf b;

	ASSERT_EQ(0, buf_create(self->fd, &b, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	memcpy(b.cpu, &a, 8);
	memcpy(b.cpu + 8, &v, 8);
	EXPECT_EQ(1, taken(self, &b, T_JUMP(b.va, b.va + 8, DRM_VNPU_JUMP_EQ, 0,
					     DRM_VNPU_JUMP_VALUE_ADDR)));
	/* Without the flag the address itself is the operand. */
	EXPECT_EQ(0, taken(self, &b, T_JUMP(b.va, b.va + 8, DRM_VNPU_JUMP_EQ, 0,
					     0)));
	v = 11;
	memcpy(b.cpu + 8, &v, 8);
	EXPECT_EQ(0, taken(self, &b, T_JUMP(b.va, b.va + 8, DRM_VNPU_JUMP_EQ, 0,
					     DRM_VNPU_JUMP_VALUE_ADDR)));
	EXPECT_EQ(1, taken(self, &b, T_JUMP(b.va, b.va + 8, DRM_VNPU_JUMP_LT, 0,
					     DRM_VNPU_JUMP_VALUE_ADDR)));
	buf_destroy(&b);
}

/*
 * A WHILE on the device: cnt -= 1, acc += 1 while cnt > 0. Backward
 * jumps, KERNEL tasks in the body, and a forward jump over dead tasks.
 */
TEST(forward_and_backward)
{
	struct fix *self = fix_setup(_metadata);
	const int64_t shape[1] = { 1 };
	int64_t v[4] = { 5, -1, 0, 1 };	/* cnt, minus one, acc, one */
	uint8_t args[2 * ADD_ARGS_SIZE];
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t[7];
	struct buf b;

	ASSERT_EQ(0, buf_create(self->fd, &b, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	memcpy(b.cpu, v, sizeof(v));
	add_args(args, 0, DRM_VNPU_DTYPE_INT64, 1, shape, b.va, b.va + 8, b.va);
	add_args(args, ADD_ARGS_SIZE, DRM_VNPU_DTYPE_INT64, 1, shape,
		 b.va + 16, b.va + 24, b.va + 16);
	t[0] = T_JUMP(0, 0, DRM_VNPU_JUMP_ALWAYS, 2, 0);	/* addr unread */
	t[1] = T_WRITE(b.va + 40, 99);				/* skipped */
	t[2] = T_KERNEL(DRM_VNPU_OP_ADD, 0, ADD_ARGS_SIZE);
	t[3] = T_KERNEL(DRM_VNPU_OP_ADD, ADD_ARGS_SIZE, ADD_ARGS_SIZE);
	t[4] = T_JUMP(b.va, 0, DRM_VNPU_JUMP_GT, 2, 0);
	t[5] = T_WRITE(b.va + 48, 1);
	/* A jump to itself, not taken: cnt is 0 by then. */
	t[6] = T_JUMP(b.va, 0, DRM_VNPU_JUMP_NE, 6, 0);
	ASSERT_EQ(0, run_job(&self->q, t, 7, args, sizeof(args), &st, NULL));
	EXPECT_JOB_OK(st);
	EXPECT_EQ(0, buf_read_u64(&b, 0));
	EXPECT_EQ(5, buf_read_u64(&b, 16));
	EXPECT_EQ(0, buf_read_u64(&b, 40));
	EXPECT_EQ(1, buf_read_u64(&b, 48));

	/* A count of one: the body runs once, the jump falls through. */
	v[0] = 1;
	v[2] = 0;
	memcpy(b.cpu, v, sizeof(v));
	memset(b.cpu + 40, 0, 16);
	ASSERT_EQ(0, run_job(&self->q, t, 7, args, sizeof(args), &st, NULL));
	EXPECT_JOB_OK(st);
	EXPECT_EQ(1, buf_read_u64(&b, 16));
	EXPECT_EQ(1, buf_read_u64(&b, 48));
	buf_destroy(&b);
}

/* Target, condition, flags, pad and unused words: -EINVAL, also CMDBUF. */
TEST(validation)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t[2] = { T_NOP(), T_NOP() };
	uint32_t h = 0;
	struct buf b;

	ASSERT_EQ(0, buf_create(self->fd, &b, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
#define REJECT(task) do { \
		t[0] = (task); \
		EXPECT_EQ(-EINVAL, submit(&self->q, t, 2, NULL, 0, NULL)); \
		EXPECT_EQ(-EINVAL, cmdbuf_create(self->fd, t, 2, NULL, 0, &h)); \
	} while (0)
	REJECT(T_JUMP(b.va, 0, DRM_VNPU_JUMP_EQ, 2, 0));	/* target = count */
	REJECT(T_JUMP(b.va, 0, DRM_VNPU_JUMP_EQ, ~0u, 0));
	REJECT(T_JUMP(b.va, 0, DRM_VNPU_JUMP_ALWAYS, DRM_VNPU_MAX_TASKS, 0));
	REJECT(T_JUMP(b.va, 0, DRM_VNPU_JUMP_ALWAYS + 1, 1, 0));
	REJECT(T_JUMP(b.va, 0, ~0u, 1, 0));
	REJECT(T_JUMP(b.va, 0, DRM_VNPU_JUMP_EQ, 1, 1u << 2));
	REJECT(T_JUMP(b.va, 0, DRM_VNPU_JUMP_EQ, 1, ~0u));
	t[0] = T_JUMP(b.va, 0, DRM_VNPU_JUMP_EQ, 1, 0);
	t[0].jump.pad = 1;
	EXPECT_EQ(-EINVAL, submit(&self->q, t, 2, NULL, 0, NULL));
	t[0] = T_JUMP(b.va, 0, DRM_VNPU_JUMP_EQ, 1, 0);
	t[0].raw[4] = 1;
	EXPECT_EQ(-EINVAL, submit(&self->q, t, 2, NULL, 0, NULL));
	t[0] = T_JUMP(b.va, 0, DRM_VNPU_JUMP_EQ, 1, 0);
	t[0].flags = 1;	/* the task's flags, not the jump's */
	EXPECT_EQ(-EINVAL, submit(&self->q, t, 2, NULL, 0, NULL));
	/* The last task may be the target, and a jump may target itself. */
	t[0] = T_JUMP(b.va, 0, DRM_VNPU_JUMP_EQ, 1, 0);
	EXPECT_EQ(0, submit(&self->q, t, 2, NULL, 0, NULL));
	t[1] = T_JUMP(b.va, 1, DRM_VNPU_JUMP_EQ, 1, DRM_VNPU_JUMP_FLAGS);
	EXPECT_EQ(0, cmdbuf_create(self->fd, t, 2, NULL, 0, &h));
	EXPECT_EQ(0, cmdbuf_destroy(self->fd, h));
#undef REJECT
	buf_destroy(&b);
}

/* A jump whose operand is not mapped fails the job like any fault. */
TEST(operand_faults)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t[3];
	struct drm_vnpu_job_status st;
	const uint64_t bad = 1ull << 40;
	struct buf b;

	ASSERT_EQ(0, buf_create(self->fd, &b, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	memset(b.cpu, 0, 64);
	t[0] = T_WRITE(b.va, 1);
	t[1] = T_JUMP(bad, 0, DRM_VNPU_JUMP_EQ, 0, 0);
	t[2] = T_WRITE(b.va + 8, 1);
	ASSERT_EQ(0, run_job(&self->q, t, 3, NULL, 0, &st, NULL));
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, st.state);
	EXPECT_EQ(-ENXIO, st.error);
	EXPECT_EQ(1, st.task);
	EXPECT_EQ(bad, st.fault_va);
	EXPECT_EQ(DRM_VNPU_ACCESS_READ, st.fault_access);
	EXPECT_EQ(1, buf_read_u64(&b, 0));
	EXPECT_EQ(0, buf_read_u64(&b, 8));
	ASSERT_EQ(0, queue_reset(&self->q));

	/* The second operand faults: its address is reported. */
	t[1] = T_JUMP(b.va, 0, DRM_VNPU_JUMP_EQ, 0, DRM_VNPU_JUMP_VALUE_ADDR);
	ASSERT_EQ(0, run_job(&self->q, t, 3, NULL, 0, &st, NULL));
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, st.state);
	EXPECT_EQ(1, st.task);
	EXPECT_EQ(0, st.fault_va);
	ASSERT_EQ(0, queue_reset(&self->q));

	/* An operand that straddles the end of its object. */
	t[1] = T_JUMP(b.va + 4092, 0, DRM_VNPU_JUMP_EQ, 0, 0);
	ASSERT_EQ(0, run_job(&self->q, t, 3, NULL, 0, &st, NULL));
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, st.state);
	EXPECT_EQ(b.va + 4092, st.fault_va);
	ASSERT_EQ(0, queue_reset(&self->q));

	/* ALWAYS reads nothing: an unmapped address is fine. */
	t[1] = T_JUMP(bad, bad, DRM_VNPU_JUMP_ALWAYS, 2, DRM_VNPU_JUMP_VALUE_ADDR);
	ASSERT_EQ(0, run_job(&self->q, t, 3, NULL, 0, &st, NULL));
	EXPECT_JOB_OK(st);
	EXPECT_EQ(1, buf_read_u64(&b, 8));
	buf_destroy(&b);
}

/*
 * 2^20 iterations take longer than JOB_WAIT_MS on a slow (debug) kernel:
 * wait up to five minutes for them.
 */
static int run_loop_job(struct queue *q, const struct drm_vnpu_task *t,
			uint32_t n, struct drm_vnpu_job_status *st)
{
	uint64_t seq = 0;
	int ret = submit(q, t, n, NULL, 0, &seq);

	if (!ret)
		ret = wait_point(q->fd, q->sync, seq, 300000);
	return ret ? ret : job_status(q, seq, st);
}

/* The backward-jump bound: ABORTED with -ELOOP at the jump. */
TEST(endless_loop)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t[3];
	struct drm_vnpu_job_status st;
	struct buf b;

	ASSERT_EQ(0, buf_create(self->fd, &b, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	memset(b.cpu, 0, 64);
	t[0] = T_NOP();
	t[1] = T_JUMP(0, 0, DRM_VNPU_JUMP_ALWAYS, 0, 0);
	t[2] = T_WRITE(b.va, 1);
	ASSERT_EQ(0, run_loop_job(&self->q, t, 3, &st));
	EXPECT_EQ(DRM_VNPU_JOB_ABORTED, st.state);
	EXPECT_EQ(-ELOOP, st.error);
	EXPECT_EQ(1, st.task);
	EXPECT_EQ(0, buf_read_u64(&b, 0));
	ASSERT_EQ(0, queue_reset(&self->q));

	/* A self-loop on a word that never changes, 32-bit. */
	t[1] = T_JUMP(b.va, 0, DRM_VNPU_JUMP_EQ, 1, DRM_VNPU_JUMP_32BIT);
	ASSERT_EQ(0, run_loop_job(&self->q, t, 3, &st));
	EXPECT_EQ(DRM_VNPU_JOB_ABORTED, st.state);
	EXPECT_EQ(-ELOOP, st.error);
	EXPECT_EQ(0, buf_read_u64(&b, 0));
	buf_destroy(&b);
}

/*
 * Loops on every engine do not keep another file's NOP off them: the NOP
 * ends while the loops still run; the host then ends the loops.
 */
TEST(loops_leave_room)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct queue q[16], other;
	uint64_t seq[16], oseq, t0;
	uint32_t n, i, pending = 0;
	struct drm_vnpu_task t[2];
	int fd2, s;
	struct buf b;

	n = param(self->fd, DRM_VNPU_PARAM_ENGINE_COUNT);
	ASSERT_GT(n, 0);
	if (n > 16)
		n = 16;
	ASSERT_EQ(0, buf_create(self->fd, &b, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	memset(b.cpu, 0, 64);
	/* Spin a little per iteration so the bound is seconds away. */
	t[0] = T_SPIN(20000);
	t[1] = T_JUMP(b.va, 0, DRM_VNPU_JUMP_EQ, 0, 0);
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, queue_new(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q[i]));
		ASSERT_EQ(0, submit(&q[i], t, 2, NULL, 0, &seq[i]));
	}
	usleep(50000);
	fd2 = open_node();
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, queue_new(fd2, DRM_VNPU_PRIORITY_NORMAL, &other));
	t0 = now_ns();
	t[0] = T_NOP();
	ASSERT_EQ(0, submit(&other, t, 1, NULL, 0, &oseq));
	ASSERT_EQ(0, wait_point(fd2, other.sync, oseq, 2000));
	EXPECT_LT(now_ns() - t0, 2000 * NSEC_PER_MS);
	ASSERT_EQ(0, job_status(&other, oseq, &st));
	EXPECT_JOB_OK(st);
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, job_status(&q[i], seq[i], &st));
		pending += st.state == DRM_VNPU_JOB_PENDING;
	}
	EXPECT_EQ(n, pending) TH_LOG("loops ended before the host released them");
	/* Release: every loop ends OK. */
	b.cpu[0] = 1;
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, job_wait(&q[i], seq[i]));
		ASSERT_EQ(0, job_status(&q[i], seq[i], &st));
		s = st.state;
		EXPECT_EQ(DRM_VNPU_JOB_OK, s);
	}
	close(fd2);
	buf_destroy(&b);
}

/* In a command buffer with bindings: replays branch on a host word. */
TEST(cmdbuf_with_bindings)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t[3];
	struct drm_vnpu_cmdbuf_create cc = { 0 };
	struct drm_vnpu_submit s = { 0 };
	struct buf src, dst, w;
	uint64_t table[2], seq;
	uint64_t val = 0x1122334455667788ull;
	struct drm_vnpu_job_status st;
	int r;

	ASSERT_EQ(0, buf_create(self->fd, &src, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, buf_create(self->fd, &dst, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, buf_create(self->fd, &w, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	memcpy(src.cpu, &val, 8);
	memset(dst.cpu, 0, 64);
	memset(w.cpu, 0, 64);
	/* if (*w == 0) skip the copy */
	t[0] = T_JUMP(w.va, 0, DRM_VNPU_JUMP_EQ, 2, 0);
	t[1] = T_COPY(DRM_VNPU_BINDING_VA(0, 0), DRM_VNPU_BINDING_VA(1, 8), 8);
	t[2] = T_NOP();
	cc.tasks = (uintptr_t)t;
	cc.task_count = 3;
	cc.task_stride = sizeof(t[0]);
	cc.flags = DRM_VNPU_CMDBUF_BINDINGS;
	cc.binding_count = 2;
	ASSERT_EQ(0, xioctl(self->fd, DRM_IOCTL_VNPU_CMDBUF_CREATE, &cc));
	table[0] = src.va;
	table[1] = dst.va;
	for (r = 0; r < 4; r++) {
		w.cpu[0] = r & 1;
		memset(dst.cpu, 0, 64);
		s.queue_id = self->q.id;
		s.flags = DRM_VNPU_SUBMIT_CMDBUF | DRM_VNPU_SUBMIT_BINDINGS;
		s.cmdbuf = cc.handle;
		s.args = (uintptr_t)table;
		s.args_size = sizeof(table);
		ASSERT_EQ(0, submit_raw(self->fd, &s));
		seq = s.seq;
		ASSERT_EQ(0, job_wait(&self->q, seq));
		ASSERT_EQ(0, job_status(&self->q, seq, &st));
		EXPECT_JOB_OK(st);
		EXPECT_EQ(r & 1 ? val : 0, buf_read_u64(&dst, 8)) TH_LOG("replay %d", r);
	}
	EXPECT_EQ(0, cmdbuf_destroy(self->fd, cc.handle));
	/* A bound command buffer still checks the target. */
	t[0].jump.target = 3;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_VNPU_CMDBUF_CREATE, &cc));
	buf_destroy(&src);
	buf_destroy(&dst);
	buf_destroy(&w);
}

/*
 * Profile records: a taken jump is a task record of type JUMP with 0
 * bytes; the tasks it skips have none; a loop's jump has one per pass.
 */
TEST(profile_records)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_prof_ctl c = {
		.op = DRM_VNPU_PROF_ENABLE, .flags = DRM_VNPU_PROF_ALL,
		.records = 64,
	};
	const int64_t shape[1] = { 1 };
	int64_t v[2] = { 3, -1 };
	uint8_t args[ADD_ARGS_SIZE];
	struct drm_vnpu_bo_info info = { 0 };
	struct drm_vnpu_prof_ring *hdr;
	struct drm_vnpu_prof_record *rec;
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t[5];
	uint32_t jumps = 0, i, n;
	uint8_t *map;
	struct buf b;

	ASSERT_EQ(0, buf_create(self->fd, &b, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	memcpy(b.cpu, v, sizeof(v));
	add_args(args, 0, DRM_VNPU_DTYPE_INT64, 1, shape, b.va, b.va + 8, b.va);
	ASSERT_EQ(0, xioctl(self->fd, DRM_IOCTL_VNPU_PROF_CTL, &c));
	info.handle = c.handle;
	ASSERT_EQ(0, xioctl(self->fd, DRM_IOCTL_VNPU_BO_INFO, &info));
	map = mmap(NULL, c.size, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		   info.mmap_offset);
	ASSERT_NE(MAP_FAILED, map);
	hdr = (void *)map;
	rec = (void *)(map + sizeof(*hdr));
	/* skip task 1; then cnt -= 1 while cnt > 0 (3 passes) */
	t[0] = T_JUMP(0, 0, DRM_VNPU_JUMP_ALWAYS, 2, 0);
	t[1] = T_NOP();
	t[2] = T_KERNEL(DRM_VNPU_OP_ADD, 0, ADD_ARGS_SIZE);
	t[3] = T_JUMP(b.va, 0, DRM_VNPU_JUMP_GT, 2, 0);
	t[4] = T_NOP();
	for (i = 0; i < 5; i++)
		t[i].tag = 100 + i;
	ASSERT_EQ(0, run_job(&self->q, t, 5, args, sizeof(args), &st, NULL));
	EXPECT_JOB_OK(st);
	n = (uint32_t)__atomic_load_n(&hdr->head, __ATOMIC_ACQUIRE);
	/* 0, then 3 x (2, 3), then 4; and the job record */
	ASSERT_EQ(1 + 6 + 1 + 1, n);
	for (i = 0; i + 1 < n; i++) {
		EXPECT_EQ(DRM_VNPU_PROF_KIND_TASK, rec[i].kind);
		EXPECT_NE(1, rec[i].task);
		EXPECT_EQ(100 + rec[i].task, rec[i].tag);
		EXPECT_EQ(0, rec[i].status);
		if (rec[i].type == DRM_VNPU_TASK_JUMP) {
			jumps++;
			EXPECT_EQ(0, rec[i].bytes);
			EXPECT_EQ(0, rec[i].op);
		}
	}
	EXPECT_EQ(4, jumps);
	EXPECT_EQ(0, rec[0].task);
	EXPECT_EQ(2, rec[1].task);
	EXPECT_EQ(3, rec[6].task);
	EXPECT_EQ(4, rec[7].task);
	EXPECT_EQ(DRM_VNPU_PROF_KIND_JOB, rec[8].kind);
	munmap(map, c.size);
	buf_destroy(&b);
}

/* The capability says JUMP is there. */
TEST(capability)
{
	struct fix *self = fix_setup(_metadata);

	EXPECT_NE(0, param(self->fd, DRM_VNPU_PARAM_CAPABILITIES) &
		     DRM_VNPU_CAP_JUMP);
}

TEST_HARNESS_MAIN
