// SPDX-License-Identifier: GPL-2.0-only
/*
 * UAPI tests of the io_uring commands: SUBMIT (results in cqe->res and
 * big_cqe[0], batches in one io_uring_enter, the ioctl's validation, the
 * -EAGAIN retry from io-wq under back-pressure), WAIT (done, pending and
 * failed jobs, every bad request), the command encoding, and the teardown
 * cases: ring closed, file closed, queue destroyed, submitting thread
 * exited and process killed with commands pending. Runs in the VM with
 * vnpu.ko loaded; the boot's dmesg scan and rmmod catch leaks.
 */
#include <liburing.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

#include "vnpu_test_util.h"
#include "kselftest_harness.h"

#define NSEC_PER_MS	1000000ull
/* Bound on any wait for a job: the guest is slow, but a bug must not hang. */
#define JOB_WAIT_MS	20000

/* An address in the device range that no object of a fresh context has. */
#define UNMAPPED_VA	(DRM_VNPU_VA_DEVICE_START + DRM_VNPU_VA_RANGE_SIZE / 2 + 0x1230)

#define RING_FLAGS	(IORING_SETUP_SQE128 | IORING_SETUP_CQE32)

/* ------------------------------------------------------------ helpers -- */

/* A HOST buffer object mapped into the process. */
struct buf {
	uint32_t handle;
	uint64_t va;
	uint8_t *cpu;
	size_t size;
};

static int buf_create(int fd, struct buf *b, size_t size)
{
	struct drm_vnpu_bo_create c = {
		.size = size, .placement = DRM_VNPU_PLACEMENT_HOST,
	};
	struct drm_vnpu_bo_info info = { 0 };
	int ret;

	memset(b, 0, sizeof(*b));
	ret = xioctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &c);
	if (ret)
		return ret;
	b->handle = c.handle;
	b->va = c.va;
	b->size = size;
	info.handle = c.handle;
	ret = xioctl(fd, DRM_IOCTL_VNPU_BO_INFO, &info);
	if (ret)
		return ret;
	b->cpu = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		      info.mmap_offset);
	if (b->cpu == MAP_FAILED) {
		b->cpu = NULL;
		return -errno;
	}
	memset(b->cpu, 0, size);
	return 0;
}

static uint64_t *buf_u64(struct buf *b, size_t off)
{
	return (uint64_t *)(b->cpu + off);
}

static int queue_new(int fd, uint32_t *id)
{
	struct drm_vnpu_queue_create qc = { .priority = DRM_VNPU_PRIORITY_NORMAL };
	int ret = xioctl(fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &qc);

	if (!ret)
		*id = qc.queue_id;
	return ret;
}

static int queue_destroy(int fd, uint32_t id)
{
	struct drm_vnpu_queue_destroy qd = { .queue_id = id };

	return xioctl(fd, DRM_IOCTL_VNPU_QUEUE_DESTROY, &qd);
}

static int job_status(int fd, uint32_t queue, uint64_t seq,
		      struct drm_vnpu_job_status *st)
{
	memset(st, 0, sizeof(*st));
	st->queue_id = queue;
	st->seq = seq;
	return xioctl(fd, DRM_IOCTL_VNPU_JOB_STATUS, st);
}

/* Poll JOB_STATUS until job @seq has ended; its state or -errno. */
static int job_wait_ioctl(int fd, uint32_t queue, uint64_t seq)
{
	struct drm_vnpu_job_status st;
	uint64_t end = now_ns() + JOB_WAIT_MS * NSEC_PER_MS;
	int ret;

	do {
		ret = job_status(fd, queue, seq, &st);
		if (ret)
			return ret;
		if (st.state != DRM_VNPU_JOB_PENDING)
			return st.state;
		usleep(1000);
	} while (now_ns() < end);
	return -ETIMEDOUT;
}

static uint64_t queue_depth(int fd)
{
	uint64_t v = 0;

	vnpu_get_param(fd, DRM_VNPU_PARAM_QUEUE_DEPTH, &v);
	return v;
}

#define T_NOP() \
	((struct drm_vnpu_task){ .type = DRM_VNPU_TASK_NOP })
#define T_COPY(s, d, n) \
	((struct drm_vnpu_task){ .type = DRM_VNPU_TASK_COPY, \
		.copy = { .src = (s), .dst = (d), .size = (n) } })
#define T_FILL(d, n, p, ps) \
	((struct drm_vnpu_task){ .type = DRM_VNPU_TASK_FILL, \
		.fill = { .dst = (d), .size = (n), .pattern = (p), \
			  .pattern_size = (ps) } })
#define T_WRITE(a, v) \
	((struct drm_vnpu_task){ .type = DRM_VNPU_TASK_WRITE_VALUE, \
		.value = { .addr = (a), .value = (v) } })
#define T_WAIT(a, v, c, t) \
	((struct drm_vnpu_task){ .type = DRM_VNPU_TASK_WAIT_VALUE, \
		.value = { .addr = (a), .value = (v), .timeout_ns = (t), \
			   .cond = (c) } })

static struct drm_vnpu_submit submit_args(uint32_t queue,
					  const struct drm_vnpu_task *t,
					  uint32_t n)
{
	struct drm_vnpu_submit s = {
		.queue_id = queue,
		.tasks = (uintptr_t)t,
		.task_count = n,
		.task_stride = sizeof(*t),
	};

	return s;
}

static int submit_ioctl(int fd, uint32_t queue, const struct drm_vnpu_task *t,
			uint32_t n, uint64_t *seq)
{
	struct drm_vnpu_submit s = submit_args(queue, t, n);
	int ret = xioctl(fd, DRM_IOCTL_VNPU_SUBMIT, &s);

	if (!ret && seq)
		*seq = s.seq;
	return ret;
}

/* ------------------------------------------------------ ring helpers -- */

/* Queue one URING_CMD SQE (not submitted); payload of len bytes. */
static struct io_uring_sqe *prep_cmd(struct io_uring *ring, int fd, uint32_t op,
				     const void *payload, size_t len,
				     uint64_t user_data)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	if (!sqe)
		return NULL;
	memset(sqe, 0, (ring->flags & IORING_SETUP_SQE128) ? 128 : 64);
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fd;
	sqe->cmd_op = op;
	sqe->user_data = user_data;
	if (len)
		memcpy(sqe->cmd, payload, len);
	return sqe;
}

static struct io_uring_sqe *prep_wait(struct io_uring *ring, int fd,
				      uint32_t queue, uint64_t seq,
				      uint64_t user_data)
{
	struct drm_vnpu_uring_wait w = { .queue_id = queue, .seq = seq };

	return prep_cmd(ring, fd, DRM_VNPU_URING_CMD_WAIT, &w, sizeof(w),
			user_data);
}

struct cqe {
	uint64_t user_data;
	int32_t res;
	uint64_t big0;
};

/* Reap one CQE, waiting at most ms; 0 or -ETIME / -errno. */
static int reap(struct io_uring *ring, unsigned int ms, struct cqe *out)
{
	struct __kernel_timespec ts = {
		.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * NSEC_PER_MS,
	};
	struct io_uring_cqe *cqe;
	int ret;

	do {
		ret = io_uring_wait_cqe_timeout(ring, &cqe, &ts);
	} while (ret == -EINTR);
	if (ret)
		return ret;
	out->user_data = cqe->user_data;
	out->res = cqe->res;
	out->big0 = (ring->flags & IORING_SETUP_CQE32) ? cqe->big_cqe[0] : 0;
	io_uring_cqe_seen(ring, cqe);
	return 0;
}

/* Submit what is queued and reap one CQE: its res, or -1000 + error. */
static int submit_one(struct io_uring *ring, struct cqe *c)
{
	int ret = io_uring_submit(ring);

	if (ret != 1)
		return -1000 + (ret < 0 ? ret : 0);
	ret = reap(ring, JOB_WAIT_MS, c);
	if (ret)
		return -1000 + ret;
	return c->res;
}

/* One command on a fresh ring with setup flags; cqe->res. */
static int one_cmd(int fd, unsigned int setup, uint32_t op, const void *payload,
		   size_t len, uint64_t *big0)
{
	struct io_uring ring;
	struct cqe c = { 0 };
	int ret;

	ret = io_uring_queue_init(4, &ring, setup);
	if (ret)
		return -2000 + ret;
	prep_cmd(&ring, fd, op, payload, len, 1);
	ret = submit_one(&ring, &c);
	if (big0)
		*big0 = c.big0;
	io_uring_queue_exit(&ring);
	return ret;
}

static int uring_submit(int fd, const struct drm_vnpu_submit *s, uint64_t *seq)
{
	return one_cmd(fd, RING_FLAGS, DRM_VNPU_URING_CMD_SUBMIT, s, sizeof(*s),
		       seq);
}

static int uring_wait(int fd, uint32_t queue, uint64_t seq)
{
	struct drm_vnpu_uring_wait w = { .queue_id = queue, .seq = seq };

	return one_cmd(fd, RING_FLAGS, DRM_VNPU_URING_CMD_WAIT, &w, sizeof(w),
		       NULL);
}

/*
 * Plain TEST()s with this set-up, as in vnpu_job_test_util.h (the harness's
 * TEST_F keeps a fork() result across setjmp()). Each test is a process:
 * its files, queues and rings go away when it exits.
 */
struct fix {
	int fd;
	uint32_t q;
	struct buf gate;	/* WAIT_VALUE gates at offset 0 */
};

static struct fix the_fix;

static struct fix *fix_setup(struct __test_metadata *_metadata)
{
	struct fix *f = &the_fix;

	f->fd = open_node();
	ASSERT_GE(f->fd, 0) TH_LOG("no /dev/accel node: is vnpu.ko loaded?");
	ASSERT_EQ(0, queue_new(f->fd, &f->q));
	ASSERT_EQ(0, buf_create(f->fd, &f->gate, 4096));
	return f;
}

/* A job that waits (up to the maximum, 60 s) until the gate is opened. */
static int submit_gate(struct fix *f, uint64_t *seq)
{
	struct drm_vnpu_task t = T_WAIT(f->gate.va, 1, DRM_VNPU_WAIT_EQ, 0);

	*buf_u64(&f->gate, 0) = 0;
	return submit_ioctl(f->fd, f->q, &t, 1, seq);
}

static void open_gate(struct fix *f)
{
	__atomic_store_n(buf_u64(&f->gate, 0), 1, __ATOMIC_SEQ_CST);
}

/* --------------------------------------------------------------- NOP -- */

TEST(nop_encoded)
{
	struct fix *self = fix_setup(_metadata);

	EXPECT_EQ(DRM_VNPU_UAPI_VERSION(DRM_VNPU_UAPI_MAJOR, DRM_VNPU_UAPI_MINOR),
		  one_cmd(self->fd, IORING_SETUP_SQE128, DRM_VNPU_URING_CMD_NOP,
			  NULL, 0, NULL));
	EXPECT_EQ(_IOC_NONE, _IOC_DIR(DRM_VNPU_URING_CMD_NOP));
	EXPECT_EQ('V', _IOC_TYPE(DRM_VNPU_URING_CMD_SUBMIT));
	EXPECT_EQ(72, _IOC_SIZE(DRM_VNPU_URING_CMD_SUBMIT));
	EXPECT_EQ(16, _IOC_SIZE(DRM_VNPU_URING_CMD_WAIT));
}

TEST(capability_bit)
{
	struct fix *self = fix_setup(_metadata);
	uint64_t caps = 0;

	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_CAPABILITIES, &caps));
	EXPECT_TRUE(caps & DRM_VNPU_CAP_URING_SUBMIT);
	EXPECT_TRUE(caps & DRM_VNPU_CAP_URING_CMD);
	EXPECT_TRUE(caps & DRM_VNPU_CAP_URING_WAIT_LATEST);
}

/* ---------------------------------------------------------- encoding -- */

TEST(encoding_errors)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_submit s = { 0 };
	int fd = self->fd;

	/* Unknown commands: another type, an unknown number, the old 0. */
	EXPECT_EQ(-EOPNOTSUPP, one_cmd(fd, RING_FLAGS, 0, NULL, 0, NULL));
	EXPECT_EQ(-EOPNOTSUPP, one_cmd(fd, RING_FLAGS, _IO('V', 3), NULL, 0, NULL));
	EXPECT_EQ(-EOPNOTSUPP, one_cmd(fd, RING_FLAGS, _IO('V', 0xff), NULL, 0, NULL));
	EXPECT_EQ(-EOPNOTSUPP, one_cmd(fd, RING_FLAGS, _IO('W', 0), NULL, 0, NULL));
	EXPECT_EQ(-EOPNOTSUPP, one_cmd(fd, RING_FLAGS,
				       _IOWR('W', 1, struct drm_vnpu_submit),
				       NULL, 0, NULL));
	/* Known numbers with the wrong size or direction. */
	EXPECT_EQ(-EINVAL, one_cmd(fd, RING_FLAGS, _IOWR('V', 1, uint64_t[8]),
				   NULL, 0, NULL));
	EXPECT_EQ(-EINVAL, one_cmd(fd, RING_FLAGS,
				   _IOW('V', 1, struct drm_vnpu_submit),
				   NULL, 0, NULL));
	EXPECT_EQ(-EINVAL, one_cmd(fd, RING_FLAGS,
				   _IOWR('V', 2, struct drm_vnpu_uring_wait),
				   NULL, 0, NULL));
	EXPECT_EQ(-EINVAL, one_cmd(fd, RING_FLAGS, _IOW('V', 2, uint64_t[3]),
				   NULL, 0, NULL));
	EXPECT_EQ(-EINVAL, one_cmd(fd, RING_FLAGS, _IOR('V', 0, uint32_t),
				   NULL, 0, NULL));
	/* 64-byte SQEs: the payload does not fit. */
	s.queue_id = self->q;
	EXPECT_EQ(-EINVAL, one_cmd(fd, IORING_SETUP_CQE32,
				   DRM_VNPU_URING_CMD_SUBMIT, &s, 16, NULL));
	EXPECT_EQ(-EINVAL, one_cmd(fd, 0, DRM_VNPU_URING_CMD_WAIT, NULL, 0, NULL));
	EXPECT_EQ(-EINVAL, one_cmd(fd, 0, DRM_VNPU_URING_CMD_NOP, NULL, 0, NULL));
}

/* ------------------------------------------------------------ SUBMIT -- */

TEST(submit_fill_seq_in_big_cqe)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t[2];
	struct drm_vnpu_submit s;
	struct buf b;
	uint64_t seq = 0;
	size_t i;
	int bad = -1;

	ASSERT_EQ(0, buf_create(self->fd, &b, 8192));
	memset(b.cpu, 0x11, 8192);
	t[0] = T_FILL(b.va, 4096, 0xa5a5a5a5u, 4);
	t[1] = T_COPY(b.va, b.va + 4096, 1024);
	s = submit_args(self->q, t, 2);
	ASSERT_EQ(0, uring_submit(self->fd, &s, &seq));
	EXPECT_EQ(1, seq);
	EXPECT_EQ(DRM_VNPU_JOB_OK, uring_wait(self->fd, self->q, seq));
	for (i = 0; i < 4096 + 1024; i++)
		if (b.cpu[i] != 0xa5 && bad < 0)
			bad = i;
	for (i = 4096 + 1024; i < 8192; i++)
		if (b.cpu[i] != 0x11 && bad < 0)
			bad = i;
	EXPECT_EQ(-1, bad);

	/* The ioctl and io_uring share the queue's numbering. */
	ASSERT_EQ(0, submit_ioctl(self->fd, self->q, t, 1, &seq));
	EXPECT_EQ(2, seq);
	ASSERT_EQ(0, uring_submit(self->fd, &s, &seq));
	EXPECT_EQ(3, seq);
	EXPECT_EQ(DRM_VNPU_JOB_OK, uring_wait(self->fd, self->q, 3));
	EXPECT_EQ(DRM_VNPU_JOB_OK, uring_wait(self->fd, self->q, 2));
}

TEST(submit_without_cqe32)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t;
	struct drm_vnpu_submit s;
	struct buf b;

	ASSERT_EQ(0, buf_create(self->fd, &b, 4096));
	t = T_WRITE(b.va + 8, 0x600d);
	s = submit_args(self->q, &t, 1);
	EXPECT_EQ(0, one_cmd(self->fd, IORING_SETUP_SQE128,
			     DRM_VNPU_URING_CMD_SUBMIT, &s, sizeof(s), NULL));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_wait_ioctl(self->fd, self->q, 1));
	EXPECT_EQ(0x600d, *buf_u64(&b, 8));
}

/*
 * Many SUBMITs in one io_uring_enter, more than the queue admits: the ones
 * that find no room go to io-wq (-EAGAIN from the nonblocking issue) and
 * complete there. Every job runs once, with a distinct seq.
 */
TEST(submit_batch_in_one_enter)
{
	struct fix *self = fix_setup(_metadata);
	unsigned int n = queue_depth(self->fd) + 36, i, done = 0;
	struct drm_vnpu_task *t;
	struct drm_vnpu_submit *s;
	struct io_uring ring;
	uint8_t *seen;
	struct buf b;
	struct cqe c;

	if (n > 600)
		n = 600;
	t = calloc(n, sizeof(*t));
	s = calloc(n, sizeof(*s));
	seen = calloc(n + 1, 1);
	ASSERT_TRUE(t && s && seen);
	ASSERT_EQ(0, buf_create(self->fd, &b, 8 * 1024));
	ASSERT_EQ(0, io_uring_queue_init(1024, &ring, RING_FLAGS));
	for (i = 0; i < n; i++) {
		t[i] = T_WRITE(b.va + 8 * i, 1000 + i);
		s[i] = submit_args(self->q, &t[i], 1);
		ASSERT_NE(NULL, prep_cmd(&ring, self->fd, DRM_VNPU_URING_CMD_SUBMIT,
					 &s[i], sizeof(s[i]), i));
	}
	ASSERT_EQ(n, io_uring_submit(&ring));
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, reap(&ring, JOB_WAIT_MS, &c));
		EXPECT_EQ(0, c.res) TH_LOG("submit %llu: %d",
					   (unsigned long long)c.user_data, c.res);
		if (!c.res && c.big0 >= 1 && c.big0 <= n && !seen[c.big0]) {
			seen[c.big0] = 1;
			done++;
		}
	}
	EXPECT_EQ(n, done);
	/* Newest first; the oldest may have left the status history. */
	for (i = n; i >= 1; i--) {
		int st = job_wait_ioctl(self->fd, self->q, i);

		if (st == -ENODATA && n - i >= DRM_VNPU_STATUS_HISTORY / 2)
			continue;
		EXPECT_EQ(DRM_VNPU_JOB_OK, st) TH_LOG("job %u", i);
	}
	for (i = 0; i < n; i++)
		EXPECT_EQ(1000 + i, *buf_u64(&b, 8 * i)) TH_LOG("job %u", i);
	io_uring_queue_exit(&ring);
	free(t);
	free(s);
	free(seen);
}

/* A full queue: SUBMIT completes once there is room, not with an error. */
TEST(submit_waits_for_room)
{
	struct fix *self = fix_setup(_metadata);
	uint64_t depth = queue_depth(self->fd), seq = 0, i;
	struct drm_vnpu_task t = T_NOP();
	struct drm_vnpu_submit s = submit_args(self->q, &t, 1);
	struct io_uring ring;
	struct cqe c;

	ASSERT_GT(depth, 1);
	ASSERT_EQ(0, submit_gate(self, &seq));
	for (i = 1; i < depth; i++)
		ASSERT_EQ(0, submit_ioctl(self->fd, self->q, &t, 1, &seq));
	ASSERT_EQ(depth, seq);
	ASSERT_EQ(0, io_uring_queue_init(4, &ring, RING_FLAGS));
	prep_cmd(&ring, self->fd, DRM_VNPU_URING_CMD_SUBMIT, &s, sizeof(s), 7);
	ASSERT_EQ(1, io_uring_submit(&ring));
	EXPECT_EQ(-ETIME, reap(&ring, 300, &c));
	open_gate(self);
	ASSERT_EQ(0, reap(&ring, JOB_WAIT_MS, &c));
	EXPECT_EQ(0, c.res);
	EXPECT_EQ(depth + 1, c.big0);
	io_uring_queue_exit(&ring);
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_wait_ioctl(self->fd, self->q, depth + 1));
}

/* Every SUBMIT error of the ioctl, through io_uring, with the same errno. */
TEST(submit_errors_mirror_ioctl)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t = T_NOP();
	struct drm_vnpu_sync syncs[DRM_VNPU_MAX_SYNCS + 1] = { 0 };
	struct {
		const char *name;
		int err;
		struct drm_vnpu_submit s;
	} cases[12];
	unsigned int n = 0, i;
	uint8_t payload[80];
	struct cqe c;
	struct io_uring ring;

#define CASE(nm, e) cases[n].name = (nm), cases[n].err = (e), \
	cases[n].s = submit_args(self->q, &t, 1), n++, cases[n - 1].s
	CASE("unknown flags", -EINVAL).flags = 0x80000000u;
	CASE("unknown queue", -ENOENT).queue_id = 999;
	CASE("queue 0", -ENOENT).queue_id = 0;
	CASE("tasks NULL", -EFAULT).tasks = 0;
	CASE("tasks unmapped", -EFAULT).tasks = 0x1000;
	CASE("zero tasks", -EINVAL).task_count = 0;
	CASE("too many in-syncs", -EINVAL).in_sync_count = DRM_VNPU_MAX_SYNCS + 1;
	CASE("too many out-syncs", -EINVAL).out_sync_count = DRM_VNPU_MAX_SYNCS + 1;
	CASE("in-syncs NULL", -EFAULT).in_sync_count = 1;
	CASE("cmdbuf without flag", -EINVAL).cmdbuf = 1;
	CASE("unknown in-sync handle", -ENOENT).in_sync_count = 1;
	cases[n - 1].s.in_syncs = (uintptr_t)syncs;
	syncs[0].handle = 12345;
#undef CASE
	for (i = 0; i < n; i++) {
		struct drm_vnpu_submit s = cases[i].s;

		EXPECT_EQ(cases[i].err, xioctl(self->fd, DRM_IOCTL_VNPU_SUBMIT, &s))
			TH_LOG("ioctl: %s", cases[i].name);
		EXPECT_EQ(cases[i].err, uring_submit(self->fd, &cases[i].s, NULL))
			TH_LOG("uring: %s", cases[i].name);
	}

	/* io_uring only: seq and the bytes after the request must be zero. */
	ASSERT_EQ(0, io_uring_queue_init(4, &ring, RING_FLAGS));
	memset(payload, 0, sizeof(payload));
	cases[0].s = submit_args(self->q, &t, 1);
	cases[0].s.seq = 5;
	memcpy(payload, &cases[0].s, sizeof(cases[0].s));
	prep_cmd(&ring, self->fd, DRM_VNPU_URING_CMD_SUBMIT, payload, 80, 1);
	EXPECT_EQ(-EINVAL, submit_one(&ring, &c));
	cases[0].s.seq = 0;
	memcpy(payload, &cases[0].s, sizeof(cases[0].s));
	payload[79] = 1;
	prep_cmd(&ring, self->fd, DRM_VNPU_URING_CMD_SUBMIT, payload, 80, 1);
	EXPECT_EQ(-EINVAL, submit_one(&ring, &c));
	payload[79] = 0;
	payload[72] = 1;
	prep_cmd(&ring, self->fd, DRM_VNPU_URING_CMD_SUBMIT, payload, 80, 1);
	EXPECT_EQ(-EINVAL, submit_one(&ring, &c));
	io_uring_queue_exit(&ring);

	/* Nothing of that was queued. */
	EXPECT_EQ(-EINVAL, job_wait_ioctl(self->fd, self->q, 1));
}

/* -------------------------------------------------------------- WAIT -- */

TEST(wait_done_and_pending)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t = T_NOP();
	struct io_uring ring;
	uint64_t gate = 0, seq = 0;
	struct cqe c;
	int i;

	ASSERT_EQ(0, submit_ioctl(self->fd, self->q, &t, 1, &seq));
	ASSERT_EQ(DRM_VNPU_JOB_OK, job_wait_ioctl(self->fd, self->q, seq));
	/* Done: completes at once. */
	EXPECT_EQ(DRM_VNPU_JOB_OK, uring_wait(self->fd, self->q, seq));

	/* Pending: completes when the job ends, and only then. */
	ASSERT_EQ(0, submit_gate(self, &gate));
	ASSERT_EQ(0, submit_ioctl(self->fd, self->q, &t, 1, &seq));
	ASSERT_EQ(0, io_uring_queue_init(8, &ring, RING_FLAGS));
	for (i = 0; i < 3; i++)
		prep_wait(&ring, self->fd, self->q, gate, 10 + i);
	prep_wait(&ring, self->fd, self->q, seq, 20);
	ASSERT_EQ(4, io_uring_submit(&ring));
	EXPECT_EQ(-ETIME, reap(&ring, 300, &c));
	open_gate(self);
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, reap(&ring, JOB_WAIT_MS, &c));
		EXPECT_EQ(DRM_VNPU_JOB_OK, c.res) TH_LOG("wait %llu",
							 (unsigned long long)c.user_data);
	}
	io_uring_queue_exit(&ring);
}

TEST(wait_fault_and_after)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task bad = T_COPY(UNMAPPED_VA, UNMAPPED_VA + 4096, 64);
	struct drm_vnpu_task nop = T_NOP();
	struct drm_vnpu_job_status st;
	struct drm_vnpu_submit s;
	uint64_t gate = 0, fault = 0, after = 0;
	struct io_uring ring;
	struct cqe c;
	int i, res[3] = { -1, -1, -1 };

	ASSERT_EQ(0, submit_gate(self, &gate));
	s = submit_args(self->q, &bad, 1);
	ASSERT_EQ(0, uring_submit(self->fd, &s, &fault));
	s = submit_args(self->q, &nop, 1);
	ASSERT_EQ(0, uring_submit(self->fd, &s, &after));
	ASSERT_EQ(0, io_uring_queue_init(8, &ring, RING_FLAGS));
	prep_wait(&ring, self->fd, self->q, gate, 0);
	prep_wait(&ring, self->fd, self->q, fault, 1);
	prep_wait(&ring, self->fd, self->q, after, 2);
	ASSERT_EQ(3, io_uring_submit(&ring));
	open_gate(self);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, reap(&ring, JOB_WAIT_MS, &c));
		ASSERT_LT(c.user_data, 3);
		res[c.user_data] = c.res;
	}
	io_uring_queue_exit(&ring);
	EXPECT_EQ(DRM_VNPU_JOB_OK, res[0]);
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, res[1]);
	/* The job after the fault: whatever JOB_STATUS says. */
	ASSERT_EQ(0, job_status(self->fd, self->q, after, &st));
	EXPECT_EQ(st.state, res[2]);
	EXPECT_NE(DRM_VNPU_JOB_PENDING, res[2]);
	/* Done jobs, again, at once. */
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, uring_wait(self->fd, self->q, fault));
	/* The queue is in its error state: SUBMIT says so, as the ioctl. */
	s = submit_args(self->q, &nop, 1);
	EXPECT_EQ(-EBADFD, uring_submit(self->fd, &s, NULL));
}

TEST(wait_bad_requests)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_uring_wait w = { 0 };
	struct drm_vnpu_task t = T_NOP();
	uint8_t payload[80];
	uint64_t seq = 0;

	ASSERT_EQ(0, submit_ioctl(self->fd, self->q, &t, 1, &seq));
	EXPECT_EQ(-EINVAL, uring_wait(self->fd, self->q, 0));
	EXPECT_EQ(-EINVAL, uring_wait(self->fd, self->q, 2));
	EXPECT_EQ(-EINVAL, uring_wait(self->fd, self->q, ~0ull));
	EXPECT_EQ(-ENOENT, uring_wait(self->fd, 999, 1));
	EXPECT_EQ(-ENOENT, uring_wait(self->fd, 0, 1));

	w.queue_id = self->q;
	w.seq = 1;
	w.flags = 1;
	EXPECT_EQ(-EINVAL, one_cmd(self->fd, RING_FLAGS, DRM_VNPU_URING_CMD_WAIT,
				   &w, sizeof(w), NULL));
	w.flags = 0x80000000u;
	EXPECT_EQ(-EINVAL, one_cmd(self->fd, RING_FLAGS, DRM_VNPU_URING_CMD_WAIT,
				   &w, sizeof(w), NULL));
	w.flags = 0;
	memset(payload, 0, sizeof(payload));
	memcpy(payload, &w, sizeof(w));
	payload[16] = 1;
	EXPECT_EQ(-EINVAL, one_cmd(self->fd, RING_FLAGS, DRM_VNPU_URING_CMD_WAIT,
				   payload, 80, NULL));
	payload[16] = 0;
	payload[79] = 0x80;
	EXPECT_EQ(-EINVAL, one_cmd(self->fd, RING_FLAGS, DRM_VNPU_URING_CMD_WAIT,
				   payload, 80, NULL));
	payload[79] = 0;
	EXPECT_EQ(DRM_VNPU_JOB_OK, one_cmd(self->fd, RING_FLAGS,
					   DRM_VNPU_URING_CMD_WAIT, payload, 80,
					   NULL));
}

static struct io_uring_sqe *prep_latest(struct io_uring *ring, int fd,
					uint32_t queue, uint64_t user_data)
{
	struct drm_vnpu_uring_wait w = { .queue_id = queue,
					 .flags = DRM_VNPU_URING_WAIT_LATEST };

	return prep_cmd(ring, fd, DRM_VNPU_URING_CMD_WAIT, &w, sizeof(w),
			user_data);
}

/* Reap n CQEs into c[user_data] (user_data < n). */
static int reap_n(struct io_uring *ring, struct cqe *c, unsigned int n)
{
	struct cqe one;

	for (unsigned int i = 0; i < n; i++) {
		int ret = reap(ring, JOB_WAIT_MS, &one);

		if (ret)
			return ret;
		if (one.user_data >= n)
			return -ERANGE;
		c[one.user_data] = one;
	}
	return 0;
}

/* A WAIT reports the job it waited for in big_cqe[0]. */
TEST(wait_reports_seq)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t = T_NOP();
	struct io_uring ring;
	uint64_t seq = 0, gate = 0;
	struct cqe c;

	ASSERT_EQ(0, submit_ioctl(self->fd, self->q, &t, 1, &seq));
	ASSERT_EQ(0, submit_gate(self, &gate));
	ASSERT_EQ(0, io_uring_queue_init(4, &ring, RING_FLAGS));
	/* Done: completed while issued. */
	prep_wait(&ring, self->fd, self->q, seq, 1);
	ASSERT_EQ(DRM_VNPU_JOB_OK, submit_one(&ring, &c));
	EXPECT_EQ(seq, c.big0);
	/* Pending: completed from the fence's task work. */
	prep_wait(&ring, self->fd, self->q, gate, 2);
	ASSERT_EQ(1, io_uring_submit(&ring));
	open_gate(self);
	ASSERT_EQ(0, reap(&ring, JOB_WAIT_MS, &c));
	EXPECT_EQ(DRM_VNPU_JOB_OK, c.res);
	EXPECT_EQ(gate, c.big0);
	io_uring_queue_exit(&ring);
}

/*
 * SUBMIT linked to WAIT LATEST in one enter: the WAIT finds the SUBMIT's
 * job, waits until it ends (not before) and names it in big_cqe[0].
 */
TEST(wait_latest_after_linked_submit)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task gate = T_WAIT(self->gate.va, 1, DRM_VNPU_WAIT_EQ, 0);
	struct drm_vnpu_task nop = T_NOP();
	struct drm_vnpu_submit s;
	struct io_uring ring;
	struct cqe c[2], one;
	uint64_t before = 0;

	ASSERT_EQ(0, submit_ioctl(self->fd, self->q, &nop, 1, &before));
	ASSERT_EQ(0, io_uring_queue_init(8, &ring, RING_FLAGS));

	/* A job that ends at once. */
	s = submit_args(self->q, &nop, 1);
	prep_cmd(&ring, self->fd, DRM_VNPU_URING_CMD_SUBMIT, &s, sizeof(s),
		 0)->flags |= IOSQE_IO_LINK;
	prep_latest(&ring, self->fd, self->q, 1);
	ASSERT_EQ(2, io_uring_submit_and_wait(&ring, 2));
	ASSERT_EQ(0, reap_n(&ring, c, 2));
	EXPECT_EQ(0, c[0].res);
	EXPECT_EQ(before + 1, c[0].big0);
	EXPECT_EQ(DRM_VNPU_JOB_OK, c[1].res);
	EXPECT_EQ(c[0].big0, c[1].big0);

	/* A job that waits for the gate: the WAIT stays pending until then. */
	*buf_u64(&self->gate, 0) = 0;
	s = submit_args(self->q, &gate, 1);
	prep_cmd(&ring, self->fd, DRM_VNPU_URING_CMD_SUBMIT, &s, sizeof(s),
		 0)->flags |= IOSQE_IO_LINK;
	prep_latest(&ring, self->fd, self->q, 1);
	ASSERT_EQ(2, io_uring_submit(&ring));
	ASSERT_EQ(0, reap(&ring, JOB_WAIT_MS, &one));
	EXPECT_EQ(0, one.user_data);
	EXPECT_EQ(0, one.res);
	EXPECT_EQ(before + 2, one.big0);
	EXPECT_EQ(-ETIME, reap(&ring, 300, &c[1]));
	open_gate(self);
	ASSERT_EQ(0, reap(&ring, JOB_WAIT_MS, &c[1]));
	EXPECT_EQ(1, c[1].user_data);
	EXPECT_EQ(DRM_VNPU_JOB_OK, c[1].res);
	EXPECT_EQ(before + 2, c[1].big0);

	/* A SUBMIT that fails: the linked WAIT is never issued. */
	s = submit_args(self->q, &nop, 1);
	s.task_stride = 3;
	prep_cmd(&ring, self->fd, DRM_VNPU_URING_CMD_SUBMIT, &s, sizeof(s),
		 0)->flags |= IOSQE_IO_LINK;
	prep_latest(&ring, self->fd, self->q, 1);
	ASSERT_EQ(2, io_uring_submit_and_wait(&ring, 2));
	ASSERT_EQ(0, reap_n(&ring, c, 2));
	EXPECT_EQ(-EINVAL, c[0].res);
	EXPECT_EQ(-ECANCELED, c[1].res);
	io_uring_queue_exit(&ring);
}

TEST(wait_latest_bad_requests)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_uring_wait w = { .queue_id = self->q,
					 .flags = DRM_VNPU_URING_WAIT_LATEST };
	struct drm_vnpu_task t = T_NOP();
	uint64_t seq = 0, big0 = 0;
	uint32_t empty;

	/* No job on the queue yet: nothing to wait for. */
	EXPECT_EQ(-EINVAL, one_cmd(self->fd, RING_FLAGS, DRM_VNPU_URING_CMD_WAIT,
				   &w, sizeof(w), NULL));
	ASSERT_EQ(0, submit_ioctl(self->fd, self->q, &t, 1, &seq));
	ASSERT_EQ(DRM_VNPU_JOB_OK, job_wait_ioctl(self->fd, self->q, seq));
	EXPECT_EQ(DRM_VNPU_JOB_OK, one_cmd(self->fd, RING_FLAGS,
					   DRM_VNPU_URING_CMD_WAIT, &w,
					   sizeof(w), &big0));
	EXPECT_EQ(seq, big0);
	/* LATEST takes no sequence number. */
	w.seq = seq;
	EXPECT_EQ(-EINVAL, one_cmd(self->fd, RING_FLAGS, DRM_VNPU_URING_CMD_WAIT,
				   &w, sizeof(w), NULL));
	w.seq = 0;
	/* Unknown flag bits, alone and with LATEST. */
	w.flags = 2;
	EXPECT_EQ(-EINVAL, one_cmd(self->fd, RING_FLAGS, DRM_VNPU_URING_CMD_WAIT,
				   &w, sizeof(w), NULL));
	w.flags = DRM_VNPU_URING_WAIT_LATEST | 0x100;
	EXPECT_EQ(-EINVAL, one_cmd(self->fd, RING_FLAGS, DRM_VNPU_URING_CMD_WAIT,
				   &w, sizeof(w), NULL));
	/* Unknown queue; another queue of the file with no job. */
	w.flags = DRM_VNPU_URING_WAIT_LATEST;
	w.queue_id = 999;
	EXPECT_EQ(-ENOENT, one_cmd(self->fd, RING_FLAGS, DRM_VNPU_URING_CMD_WAIT,
				   &w, sizeof(w), NULL));
	ASSERT_EQ(0, queue_new(self->fd, &empty));
	w.queue_id = empty;
	EXPECT_EQ(-EINVAL, one_cmd(self->fd, RING_FLAGS, DRM_VNPU_URING_CMD_WAIT,
				   &w, sizeof(w), NULL));
}

/* A job too old for the status history: -ENODATA, as JOB_STATUS. */
TEST(wait_forgotten_job_enodata)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t = T_NOP();
	uint64_t seq = 0, i;

	for (i = 0; i < DRM_VNPU_STATUS_HISTORY + 2; i++)
		ASSERT_EQ(0, submit_ioctl(self->fd, self->q, &t, 1, &seq));
	ASSERT_EQ(DRM_VNPU_JOB_OK, uring_wait(self->fd, self->q, seq));
	EXPECT_EQ(-ENODATA, job_status(self->fd, self->q, 1, &st));
	EXPECT_EQ(-ENODATA, uring_wait(self->fd, self->q, 1));
	EXPECT_EQ(DRM_VNPU_JOB_OK, uring_wait(self->fd, self->q, seq - 1));
}

/* IOSQE_ASYNC: a WAIT issued from io-wq works like one issued inline. */
TEST(wait_issued_async)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t = T_NOP();
	struct drm_vnpu_submit s = submit_args(self->q, &t, 1);
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	uint64_t gate = 0;
	struct cqe c;

	ASSERT_EQ(0, submit_gate(self, &gate));
	ASSERT_EQ(0, io_uring_queue_init(8, &ring, RING_FLAGS));
	sqe = prep_wait(&ring, self->fd, self->q, gate, 1);
	sqe->flags |= IOSQE_ASYNC;
	sqe = prep_cmd(&ring, self->fd, DRM_VNPU_URING_CMD_SUBMIT, &s, sizeof(s), 2);
	sqe->flags |= IOSQE_ASYNC;
	ASSERT_EQ(2, io_uring_submit(&ring));
	ASSERT_EQ(0, reap(&ring, JOB_WAIT_MS, &c));
	EXPECT_EQ(2, c.user_data);
	EXPECT_EQ(0, c.res);
	EXPECT_EQ(2, c.big0);
	EXPECT_EQ(-ETIME, reap(&ring, 200, &c));
	open_gate(self);
	ASSERT_EQ(0, reap(&ring, JOB_WAIT_MS, &c));
	EXPECT_EQ(1, c.user_data);
	EXPECT_EQ(DRM_VNPU_JOB_OK, c.res);
	sqe = prep_wait(&ring, self->fd, self->q, 2, 3);
	sqe->flags |= IOSQE_ASYNC;
	ASSERT_EQ(DRM_VNPU_JOB_OK, submit_one(&ring, &c));
	io_uring_queue_exit(&ring);
}

/*
 * The ring libacl makes (SINGLE_ISSUER | DEFER_TASKRUN): WAIT completions
 * are queued lazily, so a waiter wakes once enough of them are there for
 * the number of CQEs it asked for. Four WAITs on four gated jobs: none
 * completes early; a wait for one returns when the first gate opens (and
 * leaves the others pending); a wait for the last three returns when all
 * three gates have opened, each with its job's state.
 */
#define LAZY_JOBS 4

struct gates {
	struct fix *f;
	int first, last;
};

static void *open_gates_slowly(void *arg)
{
	struct gates *g = arg;

	for (int i = g->first; i <= g->last; i++) {
		usleep(50 * 1000);
		__atomic_store_n(buf_u64(&g->f->gate, 8 * i), 1, __ATOMIC_SEQ_CST);
	}
	return NULL;
}

TEST(wait_batch_on_defer_taskrun_ring)
{
	struct fix *self = fix_setup(_metadata);
	struct __kernel_timespec ts = { .tv_sec = JOB_WAIT_MS / 1000 };
	uint32_t q[LAZY_JOBS];
	uint64_t seq[LAZY_JOBS];
	struct io_uring_cqe *cqe;
	struct gates g = { self, 1, LAZY_JOBS - 1 };
	struct io_uring ring;
	pthread_t th;
	unsigned int seen = 0;
	struct cqe c;
	int ret;

	for (int i = 0; i < LAZY_JOBS; i++) {
		struct drm_vnpu_task t = T_WAIT(self->gate.va + 8 * i, 1,
						DRM_VNPU_WAIT_EQ, 0);

		ASSERT_EQ(0, queue_new(self->fd, &q[i]));
		ASSERT_EQ(0, submit_ioctl(self->fd, q[i], &t, 1, &seq[i]));
	}
	ret = io_uring_queue_init(8, &ring, RING_FLAGS |
				  IORING_SETUP_SINGLE_ISSUER |
				  IORING_SETUP_DEFER_TASKRUN);
	if (ret == -EINVAL)
		SKIP(return, "no DEFER_TASKRUN in this kernel");
	ASSERT_EQ(0, ret);
	for (int i = 0; i < LAZY_JOBS; i++)
		ASSERT_NE(NULL, prep_wait(&ring, self->fd, q[i], seq[i], 10 + i));
	ASSERT_EQ(LAZY_JOBS, io_uring_submit(&ring));
	EXPECT_EQ(-ETIME, reap(&ring, 300, &c));

	__atomic_store_n(buf_u64(&self->gate, 0), 1, __ATOMIC_SEQ_CST);
	ASSERT_EQ(0, reap(&ring, JOB_WAIT_MS, &c));
	EXPECT_EQ(10, c.user_data);
	EXPECT_EQ(DRM_VNPU_JOB_OK, c.res);
	EXPECT_EQ(-ETIME, reap(&ring, 200, &c));

	ASSERT_EQ(0, pthread_create(&th, NULL, open_gates_slowly, &g));
	ret = io_uring_wait_cqes(&ring, &cqe, LAZY_JOBS - 1, &ts, NULL);
	EXPECT_EQ(0, ret);
	EXPECT_EQ(LAZY_JOBS - 1, io_uring_cq_ready(&ring));
	while (io_uring_cq_ready(&ring)) {
		ASSERT_EQ(0, reap(&ring, 0, &c));
		EXPECT_EQ(DRM_VNPU_JOB_OK, c.res) TH_LOG("wait %llu",
							 (unsigned long long)c.user_data);
		if (c.user_data >= 11 && c.user_data < 10 + LAZY_JOBS)
			seen |= 1u << (c.user_data - 10);
	}
	EXPECT_EQ(0xeu, seen);
	pthread_join(th, NULL);
	io_uring_queue_exit(&ring);
}

/* --------------------------------------------------- cancel, teardown -- */

/*
 * IORING_OP_ASYNC_CANCEL does not reach uring commands on 6.12 (io_uring
 * only cancels them when the ring or the task goes away): the cancel finds
 * nothing and the WAIT carries on.
 */
TEST(async_cancel_leaves_wait_pending)
{
	struct fix *self = fix_setup(_metadata);
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	uint64_t gate = 0;
	struct cqe c;
	int i, got_wait = 0, got_cancel = 0;

	ASSERT_EQ(0, submit_gate(self, &gate));
	ASSERT_EQ(0, io_uring_queue_init(8, &ring, RING_FLAGS));
	prep_wait(&ring, self->fd, self->q, gate, 1);
	ASSERT_EQ(1, io_uring_submit(&ring));
	sqe = io_uring_get_sqe(&ring);
	memset(sqe, 0, 128);
	io_uring_prep_cancel64(sqe, 1, 0);
	sqe->user_data = 2;
	ASSERT_EQ(1, io_uring_submit(&ring));
	ASSERT_EQ(0, reap(&ring, JOB_WAIT_MS, &c));
	EXPECT_EQ(2, c.user_data);
	EXPECT_EQ(-ENOENT, c.res);
	got_cancel = 1;
	EXPECT_EQ(-ETIME, reap(&ring, 200, &c));
	open_gate(self);
	for (i = got_cancel; i < 2; i++) {
		ASSERT_EQ(0, reap(&ring, JOB_WAIT_MS, &c));
		if (c.user_data == 1) {
			EXPECT_EQ(DRM_VNPU_JOB_OK, c.res);
			got_wait = 1;
		}
	}
	EXPECT_EQ(1, got_wait);
	io_uring_queue_exit(&ring);
}

struct thread_arg {
	struct io_uring *ring;
	int fd;
	uint32_t q;
	uint64_t seq;
	int submitted;
};

static void *submit_waits_and_exit(void *p)
{
	struct thread_arg *a = p;
	int i;

	for (i = 0; i < 4; i++)
		prep_wait(a->ring, a->fd, a->q, a->seq, 100 + i);
	a->submitted = io_uring_submit(a->ring);
	return NULL;
}

/*
 * The submitting thread exits while the ring lives on. On 6.12 a thread's
 * exit cancels only its tracked requests (not uring commands), so its WAITs
 * stay pending; when the job ends, their completion runs without the task
 * (IO_URING_F_TASK_DEAD) and they complete with -ECANCELED.
 */
TEST(thread_exit_waits_complete_cancelled)
{
	struct fix *self = fix_setup(_metadata);
	struct thread_arg a = { 0 };
	struct io_uring ring;
	pthread_t th;
	uint64_t gate = 0;
	struct cqe c;
	int i;

	ASSERT_EQ(0, submit_gate(self, &gate));
	ASSERT_EQ(0, io_uring_queue_init(8, &ring, RING_FLAGS));
	a.ring = &ring;
	a.fd = self->fd;
	a.q = self->q;
	a.seq = gate;
	ASSERT_EQ(0, pthread_create(&th, NULL, submit_waits_and_exit, &a));
	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_EQ(4, a.submitted);
	EXPECT_EQ(-ETIME, reap(&ring, 200, &c));
	open_gate(self);
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, reap(&ring, JOB_WAIT_MS, &c));
		EXPECT_EQ(-ECANCELED, c.res);
	}
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_wait_ioctl(self->fd, self->q, gate));
	/* The ring still works for this thread. */
	prep_wait(&ring, self->fd, self->q, gate, 1);
	EXPECT_EQ(DRM_VNPU_JOB_OK, submit_one(&ring, &c));
	io_uring_queue_exit(&ring);
}

/* The ring goes away with WAITs pending; the job and the file carry on. */
TEST(ring_closed_with_waits_pending)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct io_uring ring;
	uint64_t gate = 0;
	int i;

	ASSERT_EQ(0, submit_gate(self, &gate));
	ASSERT_EQ(0, io_uring_queue_init(64, &ring, RING_FLAGS));
	for (i = 0; i < 32; i++)
		prep_wait(&ring, self->fd, self->q, gate, i);
	ASSERT_EQ(32, io_uring_submit(&ring));
	usleep(50 * 1000);
	io_uring_queue_exit(&ring);
	ASSERT_EQ(0, job_status(self->fd, self->q, gate, &st));
	EXPECT_EQ(DRM_VNPU_JOB_PENDING, st.state);
	open_gate(self);
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_wait_ioctl(self->fd, self->q, gate));
	EXPECT_EQ(DRM_VNPU_JOB_OK, uring_wait(self->fd, self->q, gate));
}

/* Ring and file both closed with WAITs on a blocked job pending. */
TEST(ring_and_file_closed_with_waits_pending)
{
	struct fix *self = fix_setup(_metadata);
	struct io_uring ring;
	uint64_t gate = 0;
	int i;

	ASSERT_EQ(0, submit_gate(self, &gate));
	ASSERT_EQ(0, io_uring_queue_init(64, &ring, RING_FLAGS));
	for (i = 0; i < 16; i++)
		prep_wait(&ring, self->fd, self->q, gate, i);
	ASSERT_EQ(16, io_uring_submit(&ring));
	/* The ring holds the file: closing the fd first changes nothing. */
	munmap(self->gate.cpu, self->gate.size);
	close(self->fd);
	usleep(50 * 1000);
	io_uring_queue_exit(&ring);
}

/* The fd is closed first; the WAITs still complete when the job ends. */
TEST(file_closed_waits_complete)
{
	struct fix *self = fix_setup(_metadata);
	struct io_uring ring;
	uint64_t gate = 0;
	struct cqe c;
	int i;

	ASSERT_EQ(0, submit_gate(self, &gate));
	ASSERT_EQ(0, io_uring_queue_init(8, &ring, RING_FLAGS));
	for (i = 0; i < 4; i++)
		prep_wait(&ring, self->fd, self->q, gate, i);
	ASSERT_EQ(4, io_uring_submit(&ring));
	close(self->fd);
	EXPECT_EQ(-ETIME, reap(&ring, 200, &c));
	open_gate(self);	/* the mapping outlives the fd */
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, reap(&ring, JOB_WAIT_MS, &c));
		EXPECT_EQ(DRM_VNPU_JOB_OK, c.res);
	}
	io_uring_queue_exit(&ring);
}

/*
 * QUEUE_DESTROY with WAITs pending: jobs not yet on an engine are
 * cancelled (WAIT says CANCELLED); the running one finishes. A WAIT on the
 * destroyed queue's id then fails with -ENOENT.
 */
TEST(queue_destroyed_with_waits_pending)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t = T_NOP();
	uint64_t gate = 0, seq = 0;
	struct io_uring ring;
	struct cqe c;
	int i, res[8];

	ASSERT_EQ(0, submit_gate(self, &gate));
	for (i = 0; i < 7; i++)
		ASSERT_EQ(0, submit_ioctl(self->fd, self->q, &t, 1, &seq));
	ASSERT_EQ(0, io_uring_queue_init(16, &ring, RING_FLAGS));
	for (i = 0; i < 8; i++)
		prep_wait(&ring, self->fd, self->q, gate + i, i);
	ASSERT_EQ(8, io_uring_submit(&ring));
	usleep(100 * 1000);
	ASSERT_EQ(0, queue_destroy(self->fd, self->q));
	open_gate(self);
	for (i = 0; i < 8; i++)
		res[i] = -1000;
	for (i = 0; i < 8; i++) {
		ASSERT_EQ(0, reap(&ring, JOB_WAIT_MS, &c));
		ASSERT_LT(c.user_data, 8);
		res[c.user_data] = c.res;
	}
	EXPECT_EQ(DRM_VNPU_JOB_OK, res[0]);
	for (i = 1; i < 8; i++)
		EXPECT_TRUE(res[i] == DRM_VNPU_JOB_CANCELLED ||
			    res[i] == DRM_VNPU_JOB_OK) TH_LOG("job %d: %d", i, res[i]);
	prep_wait(&ring, self->fd, self->q, gate, 9);
	EXPECT_EQ(-ENOENT, submit_one(&ring, &c));
	io_uring_queue_exit(&ring);
}

/* A child with WAITs and blocked SUBMITs pending is killed. */
TEST(process_killed_with_commands_pending)
{
	struct drm_vnpu_task t = T_NOP();
	int pipefd[2], status = 0;
	struct drm_vnpu_submit s;
	uint64_t seq = 0;
	char ok = 0;
	pid_t pid;
	int fd;
	uint32_t q;

	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		struct fix *f = &the_fix;
		struct io_uring ring;
		uint64_t gate = 0, depth, i;

		f->fd = open_node();
		if (f->fd < 0 || queue_new(f->fd, &f->q) ||
		    buf_create(f->fd, &f->gate, 4096) || submit_gate(f, &gate))
			_exit(1);
		depth = queue_depth(f->fd);
		for (i = 1; i < depth; i++)
			if (submit_ioctl(f->fd, f->q, &t, 1, &seq))
				_exit(2);
		if (io_uring_queue_init(64, &ring, RING_FLAGS))
			_exit(3);
		for (i = 0; i < 16; i++)
			prep_wait(&ring, f->fd, f->q, gate + (i % 4), i);
		/* No room: these wait in io-wq. */
		s = submit_args(f->q, &t, 1);
		for (i = 0; i < 4; i++)
			prep_cmd(&ring, f->fd, DRM_VNPU_URING_CMD_SUBMIT, &s,
				 sizeof(s), 100 + i);
		if (io_uring_submit(&ring) != 20)
			_exit(4);
		usleep(50 * 1000);
		if (write(pipefd[1], "k", 1) != 1)
			_exit(5);
		for (;;)
			pause();
	}
	close(pipefd[1]);
	ASSERT_EQ(1, read(pipefd[0], &ok, 1));
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	close(pipefd[0]);

	/* The device is fine afterwards. */
	fd = open_node();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, queue_new(fd, &q));
	s = submit_args(q, &t, 1);
	ASSERT_EQ(0, uring_submit(fd, &s, &seq));
	EXPECT_EQ(1, seq);
	EXPECT_EQ(DRM_VNPU_JOB_OK, uring_wait(fd, q, seq));
	close(fd);
}

TEST_HARNESS_MAIN
