// SPDX-License-Identifier: GPL-2.0-only
/*
 * UAPI tests of task execution, command buffers and submit validation:
 * every task type with its results read back, JOB_STATUS, command buffer
 * replay and lifetime, every validation rule of SUBMIT, CMDBUF_* and
 * QUEUE_* with its exact errno, and device faults raised by tasks.
 * Runs in the VM with vnpu.ko loaded.
 */
#include <stdbool.h>
#include <sys/mman.h>
#include <time.h>

#include "vnpu_test_util.h"
#include "kselftest_harness.h"

#define MiB		(1ull << 20)
#define NSEC_PER_MS	1000000ull
/* Bound on any wait for a job: the guest is slow, but a bug must not hang. */
#define JOB_WAIT_MS	10000

/* An address in the device range that no object of a fresh context has. */
#define UNMAPPED_VA	(DRM_VNPU_VA_DEVICE_START + DRM_VNPU_VA_RANGE_SIZE / 2 + 0x1230)

/* ------------------------------------------------------------ helpers -- */

/* A buffer object with a CPU view: mmap (HOST) or the user memory (USER). */
struct buf {
	int fd;
	uint32_t handle;
	uint32_t placement;
	uint64_t va;
	uint64_t size;
	uint8_t *cpu;		/* NULL for DEVICE: use MEMCPY */
	size_t map_size;
};

static int buf_create(int fd, struct buf *b, uint64_t size, uint32_t placement,
		      uint32_t flags)
{
	struct drm_vnpu_bo_create c = {
		.size = size, .placement = placement, .flags = flags,
	};
	struct drm_vnpu_bo_info info = { 0 };
	int ret;

	memset(b, 0, sizeof(*b));
	b->fd = fd;
	b->placement = placement;
	b->map_size = (size + 4095) & ~4095ull;
	if (placement == DRM_VNPU_PLACEMENT_USER) {
		b->cpu = mmap(NULL, b->map_size, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (b->cpu == MAP_FAILED) {
			b->cpu = NULL;
			return -ENOMEM;
		}
		memset(b->cpu, 0, b->map_size);
		c.size = size = b->map_size;
		c.user_ptr = (uintptr_t)b->cpu;
	}
	ret = xioctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &c);
	if (ret)
		return ret;
	b->handle = c.handle;
	b->va = c.va;
	b->size = size;
	if (placement == DRM_VNPU_PLACEMENT_HOST) {
		info.handle = c.handle;
		ret = xioctl(fd, DRM_IOCTL_VNPU_BO_INFO, &info);
		if (ret)
			return ret;
		b->cpu = mmap(NULL, b->map_size, PROT_READ | PROT_WRITE,
			      MAP_SHARED, fd, info.mmap_offset);
		if (b->cpu == MAP_FAILED) {
			b->cpu = NULL;
			return -errno;
		}
	}
	return 0;
}

static void buf_destroy(struct buf *b)
{
	struct drm_gem_close gc = { .handle = b->handle };

	if (b->handle)
		ioctl(b->fd, DRM_IOCTL_GEM_CLOSE, &gc);
	if (b->cpu)
		munmap(b->cpu, b->map_size);
	memset(b, 0, sizeof(*b));
}

static int memcpy_ioctl(int fd, uint64_t dst, uint64_t src, uint64_t size,
			uint32_t flags)
{
	struct drm_vnpu_memcpy mc = {
		.dst = dst, .src = src, .size = size, .flags = flags,
	};

	return xioctl(fd, DRM_IOCTL_VNPU_MEMCPY, &mc);
}

static int buf_write(struct buf *b, uint64_t off, const void *src, uint64_t len)
{
	if (b->cpu) {
		memcpy(b->cpu + off, src, len);
		return 0;
	}
	return memcpy_ioctl(b->fd, b->va + off, (uintptr_t)src, len,
			    DRM_VNPU_MEMCPY_DST_DEVICE);
}

static int buf_read(struct buf *b, uint64_t off, void *dst, uint64_t len)
{
	if (b->cpu) {
		memcpy(dst, b->cpu + off, len);
		return 0;
	}
	return memcpy_ioctl(b->fd, (uintptr_t)dst, b->va + off, len,
			    DRM_VNPU_MEMCPY_SRC_DEVICE);
}

static int buf_set(struct buf *b, int c)
{
	uint8_t *tmp;
	int ret;

	if (b->cpu) {
		memset(b->cpu, c, b->size);
		return 0;
	}
	tmp = malloc(b->size);
	if (!tmp)
		return -ENOMEM;
	memset(tmp, c, b->size);
	ret = buf_write(b, 0, tmp, b->size);
	free(tmp);
	return ret;
}

static uint64_t buf_read_u64(struct buf *b, uint64_t off)
{
	uint64_t v = 0xdeadbeefdeadbeefull;

	buf_read(b, off, &v, 8);
	return v;
}

static void fill_random(void *p, size_t n, uint32_t seed)
{
	uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		b[i] = seed >> 16;
	}
}

/* Index of the first byte of p[0..n) that is not c, or -1. */
static long first_not(const uint8_t *p, size_t n, uint8_t c)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != c)
			return i;
	return -1;
}

struct queue {
	int fd;
	uint32_t id;
	uint32_t sync;
};

static int queue_new(int fd, uint32_t priority, struct queue *q)
{
	struct drm_vnpu_queue_create qc = { .priority = priority };
	int ret;

	ret = xioctl(fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &qc);
	if (ret)
		return ret;
	q->fd = fd;
	q->id = qc.queue_id;
	q->sync = qc.syncobj;
	return 0;
}

static int queue_reset(struct queue *q)
{
	struct drm_vnpu_queue_destroy qd = { .queue_id = q->id };

	return xioctl(q->fd, DRM_IOCTL_VNPU_QUEUE_RESET, &qd);
}

static int queue_destroy(struct queue *q)
{
	struct drm_vnpu_queue_destroy qd = { .queue_id = q->id };

	return xioctl(q->fd, DRM_IOCTL_VNPU_QUEUE_DESTROY, &qd);
}

static int submit_raw(int fd, struct drm_vnpu_submit *s)
{
	return xioctl(fd, DRM_IOCTL_VNPU_SUBMIT, s);
}

static int submit(struct queue *q, const struct drm_vnpu_task *t, uint32_t n,
		  const void *args, uint32_t args_size, uint64_t *seq)
{
	struct drm_vnpu_submit s = {
		.queue_id = q->id,
		.tasks = (uintptr_t)t,
		.task_count = n,
		.task_stride = sizeof(*t),
		.args = (uintptr_t)args,
		.args_size = args_size,
	};
	int ret = submit_raw(q->fd, &s);

	if (!ret && seq)
		*seq = s.seq;
	return ret;
}

static int submit_cmdbuf(struct queue *q, uint32_t cmdbuf, uint64_t *seq)
{
	struct drm_vnpu_submit s = {
		.queue_id = q->id,
		.flags = DRM_VNPU_SUBMIT_CMDBUF,
		.cmdbuf = cmdbuf,
	};
	int ret = submit_raw(q->fd, &s);

	if (!ret && seq)
		*seq = s.seq;
	return ret;
}

static int cmdbuf_create(int fd, const struct drm_vnpu_task *t, uint32_t n,
			 const void *args, uint32_t args_size, uint32_t *handle)
{
	struct drm_vnpu_cmdbuf_create cc = {
		.tasks = (uintptr_t)t,
		.task_count = n,
		.task_stride = sizeof(*t),
		.args = (uintptr_t)args,
		.args_size = args_size,
	};
	int ret = xioctl(fd, DRM_IOCTL_VNPU_CMDBUF_CREATE, &cc);

	if (!ret)
		*handle = cc.handle;
	return ret;
}

static int cmdbuf_destroy(int fd, uint32_t handle)
{
	struct drm_vnpu_cmdbuf_destroy cd = { .handle = handle };

	return xioctl(fd, DRM_IOCTL_VNPU_CMDBUF_DESTROY, &cd);
}

/* Wait until point of the timeline syncobj signals, at most ms. */
static int wait_point(int fd, uint32_t syncobj, uint64_t point, unsigned int ms)
{
	struct drm_syncobj_timeline_wait w = {
		.handles = (uintptr_t)&syncobj,
		.points = (uintptr_t)&point,
		.timeout_nsec = (int64_t)(now_ns() + ms * NSEC_PER_MS),
		.count_handles = 1,
		.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
	};

	return xioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w);
}

static int job_wait(struct queue *q, uint64_t seq)
{
	return wait_point(q->fd, q->sync, seq, JOB_WAIT_MS);
}

static int job_status(struct queue *q, uint64_t seq, struct drm_vnpu_job_status *st)
{
	memset(st, 0, sizeof(*st));
	st->queue_id = q->id;
	st->seq = seq;
	return xioctl(q->fd, DRM_IOCTL_VNPU_JOB_STATUS, st);
}

/* Submit, wait and read the status; returns the first failing step's -errno. */
static int run_job(struct queue *q, const struct drm_vnpu_task *t, uint32_t n,
		   const void *args, uint32_t args_size,
		   struct drm_vnpu_job_status *st, uint64_t *seqp)
{
	uint64_t seq = 0;
	int ret;

	ret = submit(q, t, n, args, args_size, &seq);
	if (ret)
		return ret;
	if (seqp)
		*seqp = seq;
	ret = job_wait(q, seq);
	if (ret)
		return ret;
	return job_status(q, seq, st);
}

static int fault_info(int fd, struct drm_vnpu_fault_info *fi)
{
	memset(fi, 0, sizeof(*fi));
	return xioctl(fd, DRM_IOCTL_VNPU_FAULT_INFO, fi);
}

/* Unfinished jobs a queue admits before SUBMIT blocks. */
static uint64_t queue_depth(int fd)
{
	uint64_t v = 0;

	vnpu_get_param(fd, DRM_VNPU_PARAM_QUEUE_DEPTH, &v);
	return v;
}

/* Task descriptors. */
#define T_NOP() \
	((struct drm_vnpu_task){ .type = DRM_VNPU_TASK_NOP })
#define T_COPY(s, d, n) \
	((struct drm_vnpu_task){ .type = DRM_VNPU_TASK_COPY, \
		.copy = { .src = (s), .dst = (d), .size = (n) } })
#define T_COPY_2D(s, d, sp, dp, w, h) \
	((struct drm_vnpu_task){ .type = DRM_VNPU_TASK_COPY_2D, \
		.copy_2d = { .src = (s), .dst = (d), .src_pitch = (sp), \
			     .dst_pitch = (dp), .width = (w), .height = (h) } })
#define T_FILL(d, n, p, ps) \
	((struct drm_vnpu_task){ .type = DRM_VNPU_TASK_FILL, \
		.fill = { .dst = (d), .size = (n), .pattern = (p), \
			  .pattern_size = (ps) } })
#define T_TIMESTAMP(d) \
	((struct drm_vnpu_task){ .type = DRM_VNPU_TASK_TIMESTAMP, \
		.timestamp = { .dst = (d) } })
#define T_WRITE(a, v) \
	((struct drm_vnpu_task){ .type = DRM_VNPU_TASK_WRITE_VALUE, \
		.value = { .addr = (a), .value = (v) } })
#define T_WAIT(a, v, c, t) \
	((struct drm_vnpu_task){ .type = DRM_VNPU_TASK_WAIT_VALUE, \
		.value = { .addr = (a), .value = (v), .timeout_ns = (t), \
			   .cond = (c) } })
#define T_KERNEL(o, off, sz) \
	((struct drm_vnpu_task){ .type = DRM_VNPU_TASK_KERNEL, \
		.kernel = { .op = (o), .args_offset = (off), .args_size = (sz) } })
#define T_SPIN(n) \
	((struct drm_vnpu_task){ .type = DRM_VNPU_TASK_SPIN, .spin = { .ns = (n) } })

#define ADD_ARGS_SIZE	(sizeof(struct drm_vnpu_kernel_args) + \
			 3 * sizeof(struct drm_vnpu_tensor))

/*
 * Write the arguments of an ADD (in0 + in1 -> out, dense row-major tensors
 * of one shape) at blk + off; returns their size.
 */
static uint32_t add_args(void *blk, uint32_t off, uint32_t dtype, uint32_t rank,
			 const int64_t *shape, uint64_t in0, uint64_t in1,
			 uint64_t out)
{
	struct drm_vnpu_kernel_args *ka = (void *)((uint8_t *)blk + off);
	uint64_t vas[3] = { in0, in1, out };
	int i, d;

	memset(ka, 0, ADD_ARGS_SIZE);
	ka->num_inputs = 2;
	ka->num_outputs = 1;
	for (i = 0; i < 3; i++) {
		struct drm_vnpu_tensor *t = &ka->tensors[i];
		int64_t stride = 1;

		t->va = vas[i];
		t->dtype = dtype;
		t->rank = rank;
		for (d = rank - 1; d >= 0; d--) {
			t->shape[d] = shape[d];
			t->strides[d] = stride;
			stride *= shape[d];
		}
	}
	return ADD_ARGS_SIZE;
}

/* Expect a finished job to be OK. */
#define EXPECT_JOB_OK(st) do { \
	EXPECT_EQ(DRM_VNPU_JOB_OK, (st).state); \
	EXPECT_EQ(0, (st).error); \
} while (0)

/*
 * Most tests need an open device and a queue. They are plain TEST()s with
 * this set-up rather than TEST_F()s: the 6.12 harness's TEST_F wrapper
 * keeps its fork() result across setjmp(), which GCC flags (-Wclobbered)
 * for some test bodies and which would make a failed ASSERT in the child
 * carry on as the parent. Each test is its own process, so the file and
 * its queues go away when it exits.
 */
struct fix {
	int fd;
	struct queue q;
};

static struct fix the_fix;

static struct fix *fix_setup(struct __test_metadata *_metadata)
{
	struct fix *f = &the_fix;

	f->fd = open_node();
	ASSERT_GE(f->fd, 0) TH_LOG("no /dev/accel node: is vnpu.ko loaded?");
	ASSERT_EQ(0, queue_new(f->fd, DRM_VNPU_PRIORITY_NORMAL, &f->q));
	return f;
}

/* ------------------------------------------------------- task types -- */

TEST(nop)
{
	struct fix *self = fix_setup(_metadata);
	static struct drm_vnpu_task many[1000];
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t = T_NOP();
	uint64_t seq = 0;
	int i;

	ASSERT_EQ(0, run_job(&self->q, &t, 1, NULL, 0, &st, &seq));
	EXPECT_EQ(1, seq);
	EXPECT_JOB_OK(st);
	EXPECT_EQ(0, st.task);
	EXPECT_EQ(0, st.fault_va);
	EXPECT_EQ(0, st.fault_access);
	EXPECT_EQ(0, st.fault_reason);
	EXPECT_EQ(0, st.reserved);

	for (i = 0; i < 1000; i++)
		many[i] = T_NOP();
	ASSERT_EQ(0, run_job(&self->q, many, 1000, NULL, 0, &st, &seq));
	EXPECT_EQ(2, seq);
	EXPECT_JOB_OK(st);
}

/* The largest batch runs every task, as a submit and as a command buffer. */
TEST(max_tasks_batch)
{
	struct fix *self = fix_setup(_metadata);
	const uint32_t n = DRM_VNPU_MAX_TASKS;
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task *t;
	uint32_t i, handle = 0;
	uint64_t seq = 0;
	struct buf b;

	t = calloc(n, sizeof(*t));
	ASSERT_NE(NULL, t);
	ASSERT_EQ(0, buf_create(self->fd, &b, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	memset(b.cpu, 0, 4096);
	for (i = 0; i < n; i++)
		t[i] = T_NOP();
	t[0] = T_WRITE(b.va, 1);
	t[n / 2] = T_WRITE(b.va + 8, 2);
	t[n - 1] = T_WRITE(b.va + 16, 3);
	ASSERT_EQ(0, run_job(&self->q, t, n, NULL, 0, &st, &seq));
	EXPECT_JOB_OK(st);
	EXPECT_EQ(1, buf_read_u64(&b, 0));
	EXPECT_EQ(2, buf_read_u64(&b, 8));
	EXPECT_EQ(3, buf_read_u64(&b, 16));

	memset(b.cpu, 0, 4096);
	ASSERT_EQ(0, cmdbuf_create(self->fd, t, n, NULL, 0, &handle));
	ASSERT_EQ(0, submit_cmdbuf(&self->q, handle, &seq));
	ASSERT_EQ(0, job_wait(&self->q, seq));
	ASSERT_EQ(0, job_status(&self->q, seq, &st));
	EXPECT_JOB_OK(st);
	EXPECT_EQ(1, buf_read_u64(&b, 0));
	EXPECT_EQ(2, buf_read_u64(&b, 8));
	EXPECT_EQ(3, buf_read_u64(&b, 16));
	free(t);
}

/*
 * Copy size bytes from offset 5 of a src_pl object to offset 13 of a
 * dst_pl object; check the copy and that nothing else of dst changed.
 */
static void copy_case(struct __test_metadata *_metadata, struct queue *q,
		      uint32_t src_pl, uint32_t dst_pl, uint64_t size)
{
	const uint64_t soff = 5, doff = 13;
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t;
	struct buf src, dst;
	uint8_t *want, *got;
	long bad;

	ASSERT_EQ(0, buf_create(q->fd, &src, size + soff + 64, src_pl, 0));
	ASSERT_EQ(0, buf_create(q->fd, &dst, size + doff + 4096, dst_pl, 0));
	want = malloc(src.size);
	got = malloc(dst.size);
	ASSERT_NE(NULL, want);
	ASSERT_NE(NULL, got);
	fill_random(want, src.size, size * 31 + src_pl * 7 + dst_pl);
	ASSERT_EQ(0, buf_write(&src, 0, want, src.size));
	ASSERT_EQ(0, buf_set(&dst, 0xee));

	t = T_COPY(src.va + soff, dst.va + doff, size);
	ASSERT_EQ(0, run_job(q, &t, 1, NULL, 0, &st, NULL));
	EXPECT_JOB_OK(st);

	ASSERT_EQ(0, buf_read(&dst, 0, got, dst.size));
	EXPECT_EQ(-1, first_not(got, doff, 0xee)) TH_LOG("before the destination");
	EXPECT_EQ(0, memcmp(got + doff, want + soff, size))
		TH_LOG("%u -> %u size %llu: data differs", src_pl, dst_pl,
		       (unsigned long long)size);
	bad = first_not(got + doff + size, dst.size - doff - size, 0xee);
	EXPECT_EQ(-1, bad) TH_LOG("%u -> %u size %llu: byte %ld after the end changed",
				  src_pl, dst_pl, (unsigned long long)size, bad);
	free(want);
	free(got);
	buf_destroy(&src);
	buf_destroy(&dst);
}

TEST(copy_placements_and_sizes)
{
	struct fix *self = fix_setup(_metadata);
	static const uint32_t pairs[][2] = {
		{ DRM_VNPU_PLACEMENT_DEVICE, DRM_VNPU_PLACEMENT_DEVICE },
		{ DRM_VNPU_PLACEMENT_DEVICE, DRM_VNPU_PLACEMENT_HOST },
		{ DRM_VNPU_PLACEMENT_HOST, DRM_VNPU_PLACEMENT_USER },
		{ DRM_VNPU_PLACEMENT_USER, DRM_VNPU_PLACEMENT_DEVICE },
	};
	static const uint64_t sizes[] = { 1, 63, 4096, MiB + 7 };
	unsigned int p, s;

	for (p = 0; p < 4; p++)
		for (s = 0; s < 4; s++)
			copy_case(_metadata, &self->q, pairs[p][0], pairs[p][1],
				  sizes[s]);
}

/* A copy within one object, to a later non-overlapping part. */
TEST(copy_within_one_object)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t;
	uint8_t want[8192], got[8192];
	struct buf b;

	ASSERT_EQ(0, buf_create(self->fd, &b, 8192, DRM_VNPU_PLACEMENT_DEVICE, 0));
	fill_random(want, sizeof(want), 99);
	ASSERT_EQ(0, buf_write(&b, 0, want, sizeof(want)));
	t = T_COPY(b.va + 1, b.va + 4097, 3000);
	ASSERT_EQ(0, run_job(&self->q, &t, 1, NULL, 0, &st, NULL));
	EXPECT_JOB_OK(st);
	memcpy(want + 4097, want + 1, 3000);
	ASSERT_EQ(0, buf_read(&b, 0, got, sizeof(got)));
	EXPECT_EQ(0, memcmp(want, got, sizeof(got)));
	buf_destroy(&b);
}

/*
 * A pitched copy of h rows of w bytes into a host object filled with 0x5a:
 * every row lands at its pitch, the gaps between rows and everything
 * around them stay 0x5a.
 */
static void copy_2d_case(struct __test_metadata *_metadata, struct queue *q,
			 uint64_t w, uint64_t h, uint64_t sp, uint64_t dp,
			 uint64_t soff, uint64_t doff)
{
	const uint64_t ssize = soff + h * sp + 64, dsize = doff + h * dp + 4096;
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t;
	uint8_t *src, *got;
	uint64_t row, i;
	struct buf s, d;

	src = malloc(ssize);
	got = malloc(dsize);
	ASSERT_TRUE(src && got);
	ASSERT_EQ(0, buf_create(q->fd, &s, ssize, DRM_VNPU_PLACEMENT_DEVICE, 0));
	ASSERT_EQ(0, buf_create(q->fd, &d, dsize, DRM_VNPU_PLACEMENT_HOST, 0));
	fill_random(src, ssize, w * h);
	ASSERT_EQ(0, buf_write(&s, 0, src, ssize));
	ASSERT_EQ(0, buf_set(&d, 0x5a));

	t = T_COPY_2D(s.va + soff, d.va + doff, sp, dp, w, h);
	ASSERT_EQ(0, run_job(q, &t, 1, NULL, 0, &st, NULL));
	EXPECT_JOB_OK(st);
	ASSERT_EQ(0, buf_read(&d, 0, got, dsize));

	for (i = 0; i < dsize; i++) {
		bool in_row = false;
		uint8_t want = 0x5a;

		if (i >= doff && (i - doff) / dp < h && (i - doff) % dp < w) {
			row = (i - doff) / dp;
			in_row = true;
			want = src[soff + row * sp + (i - doff) % dp];
		}
		if (got[i] != want) {
			EXPECT_EQ(want, got[i]) TH_LOG("%llux%llu: dst byte %llu (%s)",
				(unsigned long long)w, (unsigned long long)h,
				(unsigned long long)i, in_row ? "row" : "gap");
			break;
		}
	}
	free(src);
	free(got);
	buf_destroy(&s);
	buf_destroy(&d);
}

TEST(copy_2d_rows_and_gaps)
{
	struct fix *self = fix_setup(_metadata);

	copy_2d_case(_metadata, &self->q, 100, 20, 128, 160, 8, 24);
	/* Many short rows, odd sizes, pitches of either order. */
	copy_2d_case(_metadata, &self->q, 33, 300, 40, 48, 5, 3);
	copy_2d_case(_metadata, &self->q, 7, 129, 4096, 8, 1, 0);
	/* Pitch equal to width: one contiguous block. */
	copy_2d_case(_metadata, &self->q, 64, 64, 64, 64, 0, 0);
	/* One row. */
	copy_2d_case(_metadata, &self->q, 1000, 1, 1000, 1000, 3, 11);
}

/*
 * FILL of size bytes at offset off of a device object filled with 0xc3:
 * the low pattern_size bytes of the pattern in little-endian order, over
 * and over, and nothing outside the range.
 */
static void fill_case(struct __test_metadata *_metadata, struct queue *q,
		      uint64_t off, uint64_t size, uint32_t ps)
{
	const uint64_t pattern = 0x1122334455667788ull, bsize = off + size + 4096;
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t;
	uint8_t *got;
	uint64_t i;
	struct buf b;

	got = malloc(bsize);
	ASSERT_NE(NULL, got);
	ASSERT_EQ(0, buf_create(q->fd, &b, bsize, DRM_VNPU_PLACEMENT_DEVICE, 0));
	ASSERT_EQ(0, buf_set(&b, 0xc3));
	t = T_FILL(b.va + off, size, pattern, ps);
	ASSERT_EQ(0, run_job(q, &t, 1, NULL, 0, &st, NULL));
	EXPECT_JOB_OK(st);
	ASSERT_EQ(0, buf_read(&b, 0, got, bsize));
	EXPECT_EQ(-1, first_not(got, off, 0xc3));
	for (i = 0; i < size; i++) {
		uint8_t want = pattern >> (8 * (i % ps));

		if (got[off + i] != want) {
			EXPECT_EQ(want, got[off + i])
				TH_LOG("pattern size %u, size %llu, byte %llu", ps,
				       (unsigned long long)size,
				       (unsigned long long)i);
			break;
		}
	}
	EXPECT_EQ(-1, first_not(got + off + size, bsize - off - size, 0xc3))
		TH_LOG("pattern size %u wrote past the end", ps);
	free(got);
	buf_destroy(&b);
}

TEST(fill_pattern_sizes)
{
	struct fix *self = fix_setup(_metadata);
	uint32_t ps;

	for (ps = 1; ps <= 8; ps *= 2) {
		fill_case(_metadata, &self->q, 3, 4000, ps);
		fill_case(_metadata, &self->q, 0, ps, ps);
		/* Several of the engine's 256 KiB steps. */
		fill_case(_metadata, &self->q, 5, MiB + 24, ps);
	}
}

TEST(fill_size_not_multiple_of_pattern_einval)
{
	struct fix *self = fix_setup(_metadata);
	static const struct { uint64_t size; uint32_t ps; } bad[] = {
		{ 3, 2 }, { 6, 4 }, { 4097, 4 }, { 12, 8 }, { 4, 8 },
	};
	struct drm_vnpu_task t;
	uint64_t seq = 0;
	unsigned int i;
	struct buf b;

	ASSERT_EQ(0, buf_create(self->fd, &b, 8192, DRM_VNPU_PLACEMENT_DEVICE, 0));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t = T_FILL(b.va, bad[i].size, 0, bad[i].ps);
		EXPECT_EQ(-EINVAL, submit(&self->q, &t, 1, NULL, 0, &seq))
			TH_LOG("size %llu pattern size %u",
			       (unsigned long long)bad[i].size, bad[i].ps);
	}
	t = T_FILL(b.va, 4096, 0, 8);
	ASSERT_EQ(0, submit(&self->q, &t, 1, NULL, 0, &seq));
	EXPECT_EQ(1, seq);
	ASSERT_EQ(0, job_wait(&self->q, seq));
	buf_destroy(&b);
}

TEST(timestamps_ordered_and_in_window)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t[3];
	uint64_t before, after, a, b, c;
	struct buf buf;

	ASSERT_EQ(0, buf_create(self->fd, &buf, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	buf_set(&buf, 0);
	t[0] = T_TIMESTAMP(buf.va + 0);
	t[1] = T_SPIN(2 * NSEC_PER_MS);
	t[2] = T_TIMESTAMP(buf.va + 8);
	before = now_ns();
	ASSERT_EQ(0, run_job(&self->q, t, 3, NULL, 0, &st, NULL));
	EXPECT_JOB_OK(st);
	t[0] = T_TIMESTAMP(buf.va + 16);
	ASSERT_EQ(0, run_job(&self->q, t, 1, NULL, 0, &st, NULL));
	EXPECT_JOB_OK(st);
	after = now_ns();

	a = buf_read_u64(&buf, 0);
	b = buf_read_u64(&buf, 8);
	c = buf_read_u64(&buf, 16);
	EXPECT_LE(before, a);
	EXPECT_LE(a, b);
	EXPECT_GE(b - a, 2 * NSEC_PER_MS) TH_LOG("a 2 ms spin between the two");
	EXPECT_LE(b, c);
	EXPECT_LE(c, after);
	/* Nothing else written. */
	EXPECT_EQ(-1, first_not(buf.cpu + 24, 4096 - 24, 0));
	buf_destroy(&buf);
}

TEST(write_value)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t[2];
	struct buf b;

	ASSERT_EQ(0, buf_create(self->fd, &b, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	buf_set(&b, 0x77);
	t[0] = T_WRITE(b.va + 8, 0x0123456789abcdefull);
	t[1] = T_WRITE(b.va + 4088, ~0ull);
	ASSERT_EQ(0, run_job(&self->q, t, 2, NULL, 0, &st, NULL));
	EXPECT_JOB_OK(st);
	EXPECT_EQ(0x0123456789abcdefull, buf_read_u64(&b, 8));
	EXPECT_EQ(~0ull, buf_read_u64(&b, 4088));
	EXPECT_EQ(0xef, b.cpu[8]) TH_LOG("the value is stored little endian");
	EXPECT_EQ(-1, first_not(b.cpu, 8, 0x77));
	EXPECT_EQ(-1, first_not(b.cpu + 16, 4088 - 16, 0x77));
	buf_destroy(&b);
}

struct wait_case {
	uint32_t cond;
	uint64_t mem, value;
	bool met;
};

static const struct wait_case wait_cases[] = {
	{ DRM_VNPU_WAIT_EQ, 42, 42, true },
	{ DRM_VNPU_WAIT_EQ, 42, 43, false },
	{ DRM_VNPU_WAIT_GEQ, 43, 42, true },
	{ DRM_VNPU_WAIT_GEQ, 42, 42, true },
	{ DRM_VNPU_WAIT_GEQ, 41, 42, false },
	{ DRM_VNPU_WAIT_GEQ, 1ull << 63, 2, true },	/* unsigned */
	{ DRM_VNPU_WAIT_AND, 0x0f0, 0x010, true },
	{ DRM_VNPU_WAIT_AND, 0x0f0, 0x00f, false },
	{ DRM_VNPU_WAIT_NOR, 0x0f0, 0x00f, true },
	{ DRM_VNPU_WAIT_NOR, 0xffff0000ffff0000ull, 0x0000ffff0000ffffull, false },
	{ DRM_VNPU_WAIT_NOR, ~0ull, 0, false },
};

/* Satisfied waits pass; unsatisfied ones time out at the wait task. */
TEST(wait_value_conditions)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t[3];
	uint64_t seq, t0, dt;
	unsigned int i;
	struct buf b;

	ASSERT_EQ(0, buf_create(self->fd, &b, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	for (i = 0; i < sizeof(wait_cases) / sizeof(wait_cases[0]); i++) {
		const struct wait_case *c = &wait_cases[i];

		memset(b.cpu, 0, 4096);
		memcpy(b.cpu + 64, &c->mem, 8);
		t[0] = T_NOP();
		t[1] = T_WAIT(b.va + 64, c->value, c->cond, 20 * NSEC_PER_MS);
		t[2] = T_WRITE(b.va + 128, 1);
		t0 = now_ns();
		ASSERT_EQ(0, run_job(&self->q, t, 3, NULL, 0, &st, &seq));
		dt = now_ns() - t0;
		if (c->met) {
			EXPECT_EQ(DRM_VNPU_JOB_OK, st.state) TH_LOG("case %u", i);
			EXPECT_EQ(0, st.error) TH_LOG("case %u", i);
			EXPECT_EQ(1, buf_read_u64(&b, 128)) TH_LOG("case %u", i);
			continue;
		}
		EXPECT_EQ(DRM_VNPU_JOB_TIMEOUT, st.state) TH_LOG("case %u", i);
		EXPECT_EQ(-ETIME, st.error) TH_LOG("case %u", i);
		EXPECT_EQ(1, st.task) TH_LOG("case %u", i);
		EXPECT_EQ(DRM_VNPU_FAULT_NONE, st.fault_reason);
		EXPECT_GE(dt, 20 * NSEC_PER_MS) TH_LOG("case %u: timed out early", i);
		EXPECT_EQ(0, buf_read_u64(&b, 128)) TH_LOG("case %u: ran past the wait", i);
		/* The timeout put the queue in its error state. */
		EXPECT_EQ(-EBADFD, submit(&self->q, t, 1, NULL, 0, NULL));
		ASSERT_EQ(0, queue_reset(&self->q));
	}
	buf_destroy(&b);
}

/* A job waiting on memory is released by the host writing it. */
TEST(wait_value_released_by_host)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t[2];
	volatile uint64_t *mem;
	uint64_t seq = 0;
	struct buf b;

	ASSERT_EQ(0, buf_create(self->fd, &b, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	memset(b.cpu, 0, 4096);
	mem = (volatile uint64_t *)(b.cpu + 256);
	/* timeout_ns 0: the maximum, not "at once". */
	t[0] = T_WAIT(b.va + 256, 0xabc, DRM_VNPU_WAIT_EQ, 0);
	t[1] = T_WRITE(b.va + 512, 0x600d);
	ASSERT_EQ(0, submit(&self->q, t, 2, NULL, 0, &seq));
	usleep(100 * 1000);
	ASSERT_EQ(0, job_status(&self->q, seq, &st));
	EXPECT_EQ(DRM_VNPU_JOB_PENDING, st.state);
	EXPECT_EQ(0, buf_read_u64(&b, 512));
	*mem = 0xabb;		/* not yet */
	usleep(20 * 1000);
	ASSERT_EQ(0, job_status(&self->q, seq, &st));
	EXPECT_EQ(DRM_VNPU_JOB_PENDING, st.state);
	*mem = 0xabc;
	ASSERT_EQ(0, job_wait(&self->q, seq));
	ASSERT_EQ(0, job_status(&self->q, seq, &st));
	EXPECT_JOB_OK(st);
	EXPECT_EQ(0x600d, buf_read_u64(&b, 512));
	buf_destroy(&b);
}

/*
 * A mapping that goes away while a job runs: the engine's cached
 * translation of it is dropped, and the job's next access faults.
 */
TEST(unmap_during_job_faults_later_tasks)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t[4];
	volatile uint64_t *gate;
	uint64_t seq = 0, dst_va;
	struct buf dst, mark;

	ASSERT_EQ(0, buf_create(self->fd, &dst, 4096, DRM_VNPU_PLACEMENT_DEVICE, 0));
	ASSERT_EQ(0, buf_create(self->fd, &mark, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	memset(mark.cpu, 0, 4096);
	gate = (volatile uint64_t *)mark.cpu;
	dst_va = dst.va;
	t[0] = T_WRITE(dst.va, 1);
	t[1] = T_WAIT(mark.va, 1, DRM_VNPU_WAIT_EQ, 0);
	t[2] = T_WRITE(dst.va + 8, 2);
	t[3] = T_WRITE(mark.va + 512, 7);
	ASSERT_EQ(0, submit(&self->q, t, 4, NULL, 0, &seq));
	usleep(50 * 1000);
	ASSERT_EQ(0, job_status(&self->q, seq, &st));
	ASSERT_EQ(DRM_VNPU_JOB_PENDING, st.state);
	EXPECT_EQ(1, buf_read_u64(&dst, 0));
	buf_destroy(&dst);
	*gate = 1;
	ASSERT_EQ(0, job_wait(&self->q, seq));
	ASSERT_EQ(0, job_status(&self->q, seq, &st));
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, st.state);
	EXPECT_EQ(-ENXIO, st.error);
	EXPECT_EQ(2, st.task);
	EXPECT_EQ(dst_va + 8, st.fault_va);
	EXPECT_EQ(DRM_VNPU_ACCESS_WRITE, st.fault_access);
	EXPECT_EQ(DRM_VNPU_FAULT_UNMAPPED, st.fault_reason);
	EXPECT_EQ(0, buf_read_u64(&mark, 512)) TH_LOG("the job went on");
	ASSERT_EQ(0, queue_reset(&self->q));
	buf_destroy(&mark);
}

/*
 * More objects in one job than an engine caches translations for: every
 * access still lands in its own object, whether its translation was
 * cached, replaced, or made again.
 */
TEST(more_objects_than_cached_translations)
{
	struct fix *self = fix_setup(_metadata);
	enum { NB = 12, ROUNDS = 3 };
	struct drm_vnpu_task t[NB * ROUNDS + NB];
	struct drm_vnpu_job_status st;
	struct buf b[NB];
	unsigned int i, r, n = 0;

	for (i = 0; i < NB; i++)
		ASSERT_EQ(0, buf_create(self->fd, &b[i], 4096,
					DRM_VNPU_PLACEMENT_DEVICE, 0));
	for (r = 0; r < ROUNDS; r++)
		for (i = 0; i < NB; i++)
			t[n++] = T_WRITE(b[i].va + 8 * r, 1000 * i + r);
	/* Each object's first 24 bytes go to the next one's offset 64. */
	for (i = 0; i < NB; i++)
		t[n++] = T_COPY(b[i].va, b[(i + 1) % NB].va + 64, 24);
	ASSERT_EQ(0, run_job(&self->q, t, n, NULL, 0, &st, NULL));
	EXPECT_JOB_OK(st);
	for (i = 0; i < NB; i++) {
		unsigned int from = (i + NB - 1) % NB;

		for (r = 0; r < ROUNDS; r++) {
			EXPECT_EQ(1000 * i + r, buf_read_u64(&b[i], 8 * r))
				TH_LOG("object %u round %u", i, r);
		}
		for (r = 0; r < ROUNDS; r++)
			EXPECT_EQ(1000 * from + r, buf_read_u64(&b[i], 64 + 8 * r))
				TH_LOG("object %u copied word %u", i, r);
	}
	for (i = 0; i < NB; i++)
		buf_destroy(&b[i]);
}

static void add_case(struct __test_metadata *_metadata, struct queue *q,
		     uint32_t dtype, uint32_t rank, const int64_t *shape)
{
	struct drm_vnpu_job_status st;
	uint64_t n = 1, bytes, i;
	uint32_t *a, *b, *want, *got;
	struct drm_vnpu_task t;
	struct buf ba, bb, bo;
	uint64_t args[64];
	uint8_t tail[64];
	uint32_t asz;

	for (i = 0; i < rank; i++)
		n *= shape[i];
	bytes = n * 4;
	a = malloc(bytes);
	b = malloc(bytes);
	want = malloc(bytes);
	got = malloc(bytes);
	ASSERT_TRUE(a && b && want && got);
	for (i = 0; i < n; i++) {
		if (dtype == DRM_VNPU_DTYPE_FLOAT) {
			float x = (float)i * 0.37f - 1000.0f, y = 1.0f / (float)(i + 3);

			memcpy(&a[i], &x, 4);
			memcpy(&b[i], &y, 4);
			x = x + y;
			memcpy(&want[i], &x, 4);
		} else {
			/* Around INT32_MAX/MIN, so sums wrap. */
			a[i] = 0x7fffff00u + (uint32_t)i * 7u;
			b[i] = (i & 1) ? 0x80000000u + (uint32_t)i : (uint32_t)i * 13u;
			want[i] = a[i] + b[i];
		}
	}
	ASSERT_EQ(0, buf_create(q->fd, &ba, bytes, DRM_VNPU_PLACEMENT_DEVICE, 0));
	ASSERT_EQ(0, buf_create(q->fd, &bb, bytes, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, buf_create(q->fd, &bo, bytes + 64, DRM_VNPU_PLACEMENT_DEVICE, 0));
	ASSERT_EQ(0, buf_write(&ba, 0, a, bytes));
	ASSERT_EQ(0, buf_write(&bb, 0, b, bytes));
	ASSERT_EQ(0, buf_set(&bo, 0xab));

	memset(args, 0, sizeof(args));
	asz = add_args(args, 8, dtype, rank, shape, ba.va, bb.va, bo.va);
	t = T_KERNEL(DRM_VNPU_OP_ADD, 8, asz);
	ASSERT_EQ(0, run_job(q, &t, 1, args, 8 + asz, &st, NULL));
	EXPECT_JOB_OK(st);
	ASSERT_EQ(0, buf_read(&bo, 0, got, bytes));
	for (i = 0; i < n; i++)
		if (got[i] != want[i]) {
			EXPECT_EQ(want[i], got[i]) TH_LOG("dtype %u element %llu",
				dtype, (unsigned long long)i);
			break;
		}
	ASSERT_EQ(0, buf_read(&bo, bytes, tail, 64));
	EXPECT_EQ(-1, first_not(tail, 64, 0xab)) TH_LOG("wrote past the output");
	free(a);
	free(b);
	free(want);
	free(got);
	buf_destroy(&ba);
	buf_destroy(&bb);
	buf_destroy(&bo);
}

TEST(kernel_add_fp32)
{
	struct fix *self = fix_setup(_metadata);
	const int64_t flat[] = { 100000 };
	const int64_t shape3[] = { 10, 25, 400 };

	add_case(_metadata, &self->q, DRM_VNPU_DTYPE_FLOAT, 1, flat);
	add_case(_metadata, &self->q, DRM_VNPU_DTYPE_FLOAT, 3, shape3);
}

TEST(kernel_add_int32_wraps)
{
	struct fix *self = fix_setup(_metadata);
	const int64_t flat[] = { 100000 };
	const int64_t shape2[] = { 250, 400 };

	add_case(_metadata, &self->q, DRM_VNPU_DTYPE_INT32, 1, flat);
	add_case(_metadata, &self->q, DRM_VNPU_DTYPE_INT32, 2, shape2);
}

/*
 * Two KERNEL tasks of one batch use their own arguments of one block:
 * int32 at offset 0, fp32 at offset ADD_ARGS_SIZE; the second reads the
 * first one's output.
 */
TEST(kernel_tasks_share_an_argument_block)
{
	struct fix *self = fix_setup(_metadata);
	const int64_t shape[2] = { 8, 128 };
	const uint32_t n = 8 * 128;
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t[2];
	uint32_t a[1024], b[1024], sum[1024], got[1024], i;
	uint64_t args[2 * ADD_ARGS_SIZE / 8];
	struct buf ba, bb, bs, bd;
	uint32_t off;

	for (i = 0; i < n; i++) {
		a[i] = i * 3;
		b[i] = 0x3f800000u;		/* 1.0f, and an int32 */
		sum[i] = a[i] + b[i];
	}
	ASSERT_EQ(0, buf_create(self->fd, &ba, 4 * n, DRM_VNPU_PLACEMENT_DEVICE, 0));
	ASSERT_EQ(0, buf_create(self->fd, &bb, 4 * n, DRM_VNPU_PLACEMENT_USER, 0));
	ASSERT_EQ(0, buf_create(self->fd, &bs, 4 * n, DRM_VNPU_PLACEMENT_DEVICE, 0));
	ASSERT_EQ(0, buf_create(self->fd, &bd, 4 * n, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, buf_write(&ba, 0, a, 4 * n));
	ASSERT_EQ(0, buf_write(&bb, 0, b, 4 * n));

	off = add_args(args, 0, DRM_VNPU_DTYPE_INT32, 2, shape, ba.va, bb.va, bs.va);
	add_args(args, off, DRM_VNPU_DTYPE_FLOAT, 2, shape, bs.va, bb.va, bd.va);
	t[0] = T_KERNEL(DRM_VNPU_OP_ADD, 0, off);
	t[1] = T_KERNEL(DRM_VNPU_OP_ADD, off, ADD_ARGS_SIZE);
	ASSERT_EQ(0, run_job(&self->q, t, 2, args, sizeof(args), &st, NULL));
	EXPECT_JOB_OK(st);

	ASSERT_EQ(0, buf_read(&bs, 0, got, 4 * n));
	EXPECT_EQ(0, memcmp(sum, got, 4 * n)) TH_LOG("int32 sum");
	ASSERT_EQ(0, buf_read(&bd, 0, got, 4 * n));
	for (i = 0; i < n; i++) {
		float x, y;

		memcpy(&x, &sum[i], 4);
		x = x + 1.0f;
		memcpy(&y, &got[i], 4);
		if (memcmp(&x, &y, 4)) {
			EXPECT_EQ(0, memcmp(&x, &y, 4)) TH_LOG("fp32 element %u", i);
			break;
		}
	}
}

TEST(spin_takes_its_time)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t = T_SPIN(50 * NSEC_PER_MS);
	uint64_t t0, dt;

	t0 = now_ns();
	ASSERT_EQ(0, run_job(&self->q, &t, 1, NULL, 0, &st, NULL));
	dt = now_ns() - t0;
	EXPECT_JOB_OK(st);
	EXPECT_GE(dt, 50 * NSEC_PER_MS);
}

/* ------------------------------------------------------- job status -- */

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

/* -------------------------------------------------- command buffers -- */

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

/* ------------------------------------------------- batch validation -- */

/*
 * Batch cases, each one field off a valid batch of two tasks (a NOP and a
 * task of the type under test), run through SUBMIT and CMDBUF_CREATE.
 */
struct vcase {
	const char *name;
	int err;			/* expected: 0 or -errno */
	struct drm_vnpu_task t[2];
	uint32_t count;
	uint32_t stride;
	int ext_task, ext_byte;		/* set extension byte (-1: none) */
	int tasks_where;		/* 0 ok, 1 NULL, 2 unmapped, 3 2nd task unmapped */
	uint32_t args_size;		/* of the block; 0 for none */
	int args_where;			/* 0 ok, 1 NULL, 2 unmapped, 3 set, 4 last 64 bytes mapped */
};

struct venv {
	uint64_t dev_va;		/* a 64 KiB DEVICE object */
	uint64_t host_va;		/* a 4 KiB HOST object, zero */
	uint8_t *hole;			/* a mapped page followed by an unmapped one */
	uint8_t *task_mem;		/* room for 2 tasks at stride 4096+ */
	uint64_t *args;			/* DRM_VNPU_MAX_ARGS_SIZE + 8 KiB */
};

#define VARGS(e)	((struct drm_vnpu_kernel_args *)(e)->args)
#define VTENS(e, i)	(&VARGS(e)->tensors[i])

static void vcase_add(const struct venv *e, struct vcase *c, uint32_t off,
		      uint32_t rank, const int64_t *shape)
{
	uint32_t sz = add_args(e->args, off,
			       DRM_VNPU_DTYPE_INT32, rank, shape, e->dev_va,
			       e->dev_va + 4096, e->dev_va + 8192);

	c->t[1] = T_KERNEL(DRM_VNPU_OP_ADD, off, sz);
	c->args_size = 1024;
}

/* Set all three tensors of the ADD at offset 0 to rank 2 with strides s. */
static void vcase_strides(const struct venv *e, int64_t s0, int64_t s1)
{
	int i;

	for (i = 0; i < 3; i++) {
		VTENS(e, i)->rank = 2;
		VTENS(e, i)->shape[0] = 4;
		VTENS(e, i)->shape[1] = 4;
		VTENS(e, i)->strides[0] = s0;
		VTENS(e, i)->strides[1] = s1;
	}
}

/* Build batch case i; returns false past the last one. */
static bool vcase_make(unsigned int i, struct vcase *c, const struct venv *e)
{
	const int64_t n16[1] = { 16 }, scalar[1] = { 0 }, empty[1] = { 0 };
	const uint64_t dva = e->dev_va, hva = e->host_va;
	struct drm_vnpu_kernel_args *ka = VARGS(e);
	unsigned int k = 0;
	int j;

	memset(c, 0, sizeof(*c));
	c->t[0] = T_NOP();
	c->t[1] = T_NOP();
	c->count = 2;
	c->stride = sizeof(struct drm_vnpu_task);
	c->ext_task = -1;
	memset(e->args, 0, DRM_VNPU_MAX_ARGS_SIZE + 8192);

#define VCASE(nm, e_) else if (i == k++ && (c->name = (nm), c->err = (e_), true))
	if (false) {
	}
	/* Valid batches first: the bases of the cases below work. */
	VCASE("valid: two NOPs", 0);
	VCASE("valid: COPY", 0) c->t[1] = T_COPY(dva, dva + 4096, 64);
	VCASE("valid: COPY_2D", 0) c->t[1] = T_COPY_2D(dva, dva + 4096, 16, 32, 8, 4);
	VCASE("valid: FILL", 0) c->t[1] = T_FILL(dva, 64, 0x11, 8);
	VCASE("valid: TIMESTAMP", 0) c->t[1] = T_TIMESTAMP(dva + 8);
	VCASE("valid: WRITE_VALUE", 0) c->t[1] = T_WRITE(dva + 8, 1);
	VCASE("valid: WAIT_VALUE", 0) c->t[1] = T_WAIT(hva, 0, DRM_VNPU_WAIT_GEQ, NSEC_PER_MS);
	VCASE("valid: WAIT_VALUE max timeout", 0)
		c->t[1] = T_WAIT(hva, 0, DRM_VNPU_WAIT_NOR, DRM_VNPU_MAX_WAIT_NS);
	VCASE("valid: SPIN", 0) c->t[1] = T_SPIN(1000);
	VCASE("valid: KERNEL", 0) vcase_add(e, c, 0, 1, n16);
	VCASE("valid: KERNEL, arguments at offset 520", 0) vcase_add(e, c, 520, 1, n16);
	VCASE("valid: KERNEL rank 0", 0) vcase_add(e, c, 0, 0, scalar);
	VCASE("valid: KERNEL empty", 0) vcase_add(e, c, 0, 1, empty);
	VCASE("valid: KERNEL rank 2", 0) {
		vcase_add(e, c, 0, 1, n16);
		vcase_strides(e, 4, 1);
	}
	VCASE("valid: argument block without a kernel", 0) c->args_size = 64;
	VCASE("valid: largest argument block", 0) {
		vcase_add(e, c, DRM_VNPU_MAX_ARGS_SIZE - ADD_ARGS_SIZE, 1, n16);
		c->args_size = DRM_VNPU_MAX_ARGS_SIZE;
	}
	VCASE("valid: stride 128", 0) {
		c->t[1] = T_WRITE(dva + 16, 2);
		c->stride = 128;
	}
	VCASE("valid: stride 4096", 0) {
		c->t[1] = T_WRITE(dva + 16, 3);
		c->stride = 4096;
	}

	/* Batch shape. */
	VCASE("task_count 0", -EINVAL) c->count = 0;
	VCASE("task_count MAX_TASKS + 1", -EINVAL) c->count = DRM_VNPU_MAX_TASKS + 1;
	VCASE("stride 0", -EINVAL) c->stride = 0;
	VCASE("stride 56", -EINVAL) c->stride = 56;
	VCASE("stride 63", -EINVAL) c->stride = 63;
	VCASE("stride 68", -EINVAL) c->stride = 68;
	VCASE("stride 124", -EINVAL) c->stride = 124;
	VCASE("stride 4104", -EINVAL) c->stride = 4104;
	VCASE("stride 8192", -EINVAL) c->stride = 8192;
	VCASE("stride 128, byte 64 of task 0 set", -EINVAL) {
		c->stride = 128;
		c->ext_task = 0;
		c->ext_byte = 0;
	}
	VCASE("stride 128, byte 127 of task 1 set", -EINVAL) {
		c->stride = 128;
		c->ext_task = 1;
		c->ext_byte = 63;
	}
	VCASE("stride 4096, last byte of task 1 set", -EINVAL) {
		c->stride = 4096;
		c->ext_task = 1;
		c->ext_byte = 4095 - 64;
	}
	VCASE("tasks NULL", -EFAULT) c->tasks_where = 1;
	VCASE("tasks unmapped", -EFAULT) c->tasks_where = 2;
	VCASE("tasks unmapped, stride 128", -EFAULT) {
		c->tasks_where = 2;
		c->stride = 128;
	}
	VCASE("second task unmapped", -EFAULT) c->tasks_where = 3;
	VCASE("args_size not a multiple of 8", -EINVAL) c->args_size = 60;
	VCASE("args set, args_size 0", -EINVAL) c->args_where = 3;
	VCASE("args NULL, args_size 64", -EINVAL) {
		c->args_size = 64;
		c->args_where = 1;
	}
	VCASE("args_size MAX_ARGS_SIZE + 8", -EINVAL) c->args_size = DRM_VNPU_MAX_ARGS_SIZE + 8;
	VCASE("args unmapped", -EFAULT) {
		c->args_size = 64;
		c->args_where = 2;
	}
	/* The copy-in goes by 64-byte lines, then the tail. */
	VCASE("args: the second line unmapped", -EFAULT) {
		c->args_size = 128;
		c->args_where = 4;
	}
	VCASE("args: the tail after a line unmapped", -EFAULT) {
		c->args_size = 72;
		c->args_where = 4;
	}

	/* Every task. */
	VCASE("type 9", -EINVAL) c->t[1].type = 9;
	VCASE("type 0x100", -EINVAL) c->t[1].type = 0x100;
	VCASE("type 0xffff", -EINVAL) c->t[1].type = 0xffff;
	VCASE("flags 1", -EINVAL) c->t[1].flags = 1;
	VCASE("flags 0x8000", -EINVAL) c->t[1].flags = 0x8000;
	VCASE("reserved 1", -EINVAL) c->t[1].reserved = 1;
	VCASE("reserved 0x80000000", -EINVAL) c->t[1].reserved = 0x80000000u;
	VCASE("NOP raw[0]", -EINVAL) c->t[1].raw[0] = 1;
	VCASE("NOP raw[6]", -EINVAL) c->t[1].raw[6] = 1ull << 63;
	VCASE("COPY raw[3]", -EINVAL) {
		c->t[1] = T_COPY(dva, dva + 4096, 64);
		c->t[1].raw[3] = 1;
	}
	VCASE("COPY_2D raw[6]", -EINVAL) {
		c->t[1] = T_COPY_2D(dva, dva + 4096, 16, 32, 8, 4);
		c->t[1].raw[6] = 1;
	}
	VCASE("FILL raw[4]", -EINVAL) {
		c->t[1] = T_FILL(dva, 64, 0x11, 8);
		c->t[1].raw[4] = 1;
	}
	VCASE("TIMESTAMP raw[1]", -EINVAL) {
		c->t[1] = T_TIMESTAMP(dva + 8);
		c->t[1].raw[1] = 1;
	}
	VCASE("WRITE_VALUE raw[2] (a timeout)", -EINVAL) {
		c->t[1] = T_WRITE(dva + 8, 1);
		c->t[1].value.timeout_ns = 1;
	}
	VCASE("WRITE_VALUE raw[3] (a condition)", -EINVAL) {
		c->t[1] = T_WRITE(dva + 8, 1);
		c->t[1].value.cond = DRM_VNPU_WAIT_GEQ;
	}
	VCASE("WAIT_VALUE raw[4]", -EINVAL) {
		c->t[1] = T_WAIT(hva, 0, DRM_VNPU_WAIT_GEQ, NSEC_PER_MS);
		c->t[1].raw[4] = 1;
	}
	VCASE("KERNEL raw[2]", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		c->t[1].raw[2] = 1;
	}
	VCASE("SPIN raw[1]", -EINVAL) {
		c->t[1] = T_SPIN(1000);
		c->t[1].raw[1] = 1;
	}

	/* Task by task. */
	VCASE("COPY size 0", -EINVAL) c->t[1] = T_COPY(dva, dva + 4096, 0);
	VCASE("COPY_2D width 0", -EINVAL) c->t[1] = T_COPY_2D(dva, dva + 4096, 16, 32, 0, 4);
	VCASE("COPY_2D height 0", -EINVAL) c->t[1] = T_COPY_2D(dva, dva + 4096, 16, 32, 8, 0);
	VCASE("COPY_2D src_pitch < width", -EINVAL)
		c->t[1] = T_COPY_2D(dva, dva + 4096, 7, 32, 8, 4);
	VCASE("COPY_2D dst_pitch < width", -EINVAL)
		c->t[1] = T_COPY_2D(dva, dva + 4096, 16, 7, 8, 4);
	VCASE("COPY_2D height * pitch overflows", -EINVAL)
		c->t[1] = T_COPY_2D(dva, dva + 4096, 1ull << 32, 32, 8, 1ull << 33);
	VCASE("FILL pattern_size 0", -EINVAL) c->t[1] = T_FILL(dva, 64, 0x11, 0);
	VCASE("FILL pattern_size 3", -EINVAL) c->t[1] = T_FILL(dva, 63, 0x11, 3);
	VCASE("FILL pattern_size 16", -EINVAL) c->t[1] = T_FILL(dva, 64, 0x11, 16);
	VCASE("FILL pattern_size 6", -EINVAL) c->t[1] = T_FILL(dva, 60, 0x11, 6);
	VCASE("FILL size not a multiple", -EINVAL) c->t[1] = T_FILL(dva, 60, 0x11, 8);
	VCASE("FILL size 0", -EINVAL) c->t[1] = T_FILL(dva, 0, 0x11, 1);
	VCASE("FILL pad", -EINVAL) {
		c->t[1] = T_FILL(dva, 64, 0x11, 8);
		c->t[1].fill.pad = 1;
	}
	VCASE("WRITE_VALUE addr + 4", -EINVAL) c->t[1] = T_WRITE(dva + 4, 1);
	VCASE("WRITE_VALUE addr + 1", -EINVAL) c->t[1] = T_WRITE(dva + 1, 1);
	VCASE("WAIT_VALUE cond 4", -EINVAL) c->t[1] = T_WAIT(hva, 0, 4, NSEC_PER_MS);
	VCASE("WAIT_VALUE cond 0xffffffff", -EINVAL) c->t[1] = T_WAIT(hva, 0, ~0u, NSEC_PER_MS);
	VCASE("WAIT_VALUE addr + 4", -EINVAL)
		c->t[1] = T_WAIT(hva + 4, 0, DRM_VNPU_WAIT_GEQ, NSEC_PER_MS);
	VCASE("WAIT_VALUE timeout MAX_WAIT_NS + 1", -EINVAL)
		c->t[1] = T_WAIT(hva, 0, DRM_VNPU_WAIT_GEQ, DRM_VNPU_MAX_WAIT_NS + 1);
	VCASE("WAIT_VALUE timeout ~0", -EINVAL)
		c->t[1] = T_WAIT(hva, 0, DRM_VNPU_WAIT_GEQ, ~0ull);
	VCASE("WAIT_VALUE pad", -EINVAL) {
		c->t[1] = T_WAIT(hva, 0, DRM_VNPU_WAIT_GEQ, NSEC_PER_MS);
		c->t[1].value.pad = 1;
	}
	VCASE("SPIN MAX_SPIN_NS + 1", -EINVAL) c->t[1] = T_SPIN(DRM_VNPU_MAX_SPIN_NS + 1);
	VCASE("SPIN ~0", -EINVAL) c->t[1] = T_SPIN(~0ull);

	/* KERNEL: the task and its argument block. */
	VCASE("KERNEL op 0", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		c->t[1].kernel.op = 0;
	}
	VCASE("KERNEL op 31 (no such operator)", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		c->t[1].kernel.op = 31;
	}
	VCASE("KERNEL pad", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		c->t[1].kernel.pad = 1;
	}
	VCASE("KERNEL args_offset 4", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		c->t[1].kernel.args_offset = 4;
	}
	VCASE("KERNEL args_offset at the block's end", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		c->t[1].kernel.args_offset = 1024;
	}
	VCASE("KERNEL args_offset past the block", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		c->t[1].kernel.args_offset = 1u << 31;
	}
	VCASE("KERNEL arguments run past the block", -EINVAL)
		vcase_add(e, c, 1024 - ADD_ARGS_SIZE + 8, 1, n16);
	VCASE("KERNEL without an argument block", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		c->args_size = 0;
	}
	VCASE("KERNEL args_size 8 short", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		c->t[1].kernel.args_size -= 8;
	}
	VCASE("KERNEL args_size 8 long", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		c->t[1].kernel.args_size += 8;
	}
	VCASE("KERNEL args_size 8", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		c->t[1].kernel.args_size = 8;
	}
	VCASE("KERNEL args_size 0", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		c->t[1].kernel.args_size = 0;
	}
	VCASE("kernel_args pad", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		ka->pad = 1;
	}
	VCASE("ADD with one input", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		ka->num_inputs = 1;
		c->t[1].kernel.args_size -= sizeof(struct drm_vnpu_tensor);
	}
	VCASE("ADD with three inputs", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		ka->num_inputs = 3;
		*VTENS(e, 3) = *VTENS(e, 2);
		c->t[1].kernel.args_size += sizeof(struct drm_vnpu_tensor);
	}
	VCASE("ADD with two outputs", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		ka->num_outputs = 2;
		*VTENS(e, 3) = *VTENS(e, 2);
		c->t[1].kernel.args_size += sizeof(struct drm_vnpu_tensor);
	}
	VCASE("ADD with no output", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		ka->num_outputs = 0;
		c->t[1].kernel.args_size -= sizeof(struct drm_vnpu_tensor);
	}
	VCASE("ADD with attributes", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		ka->attr_size = 8;
		c->t[1].kernel.args_size += 8;
	}
	VCASE("17 tensors", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		ka->num_inputs = 16;
		for (j = 3; j < 17; j++)
			*VTENS(e, j) = *VTENS(e, 0);
		c->t[1].kernel.args_size += 14 * sizeof(struct drm_vnpu_tensor);
		c->args_size = 4096;
	}
	VCASE("ADD input dtype mismatch", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		VTENS(e, 1)->dtype = DRM_VNPU_DTYPE_FLOAT;
	}
	VCASE("ADD output dtype mismatch", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		VTENS(e, 2)->dtype = DRM_VNPU_DTYPE_FLOAT;
	}
	VCASE("ADD shape mismatch", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		VTENS(e, 1)->shape[0] = 15;
	}
	VCASE("ADD output shape mismatch", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		VTENS(e, 2)->shape[0] = 17;
	}
	VCASE("ADD input does not broadcast to the output", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		VTENS(e, 2)->rank = 2;
		VTENS(e, 2)->shape[0] = 1;
		VTENS(e, 2)->shape[1] = 15;
		VTENS(e, 2)->strides[0] = 15;
		VTENS(e, 2)->strides[1] = 1;
	}
	VCASE("ADD dtype 5 (not a vnpu dtype)", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		for (j = 0; j < 3; j++)
			VTENS(e, j)->dtype = 5;
	}
	VCASE("ADD dtype 13 (strings)", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		for (j = 0; j < 3; j++)
			VTENS(e, j)->dtype = 13;
	}
	VCASE("ADD dtype 0xffffffff", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		for (j = 0; j < 3; j++)
			VTENS(e, j)->dtype = ~0u;
	}
	VCASE("negative stride", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		VTENS(e, 0)->strides[0] = -1;
	}
	VCASE("stride above 2^40", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		VTENS(e, 1)->strides[0] = (1LL << 40) + 1;
	}
	VCASE("shape above 2^40", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		VTENS(e, 2)->shape[0] = (1LL << 40) + 1;
	}
	VCASE("ADD inputs of one element broadcast", 0) {
		vcase_add(e, c, 0, 1, n16);
		VTENS(e, 0)->strides[0] = 2;
		VTENS(e, 0)->shape[0] = 1;
		VTENS(e, 1)->shape[0] = 1;
	}
	VCASE("rank 9", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		for (j = 0; j < 3; j++)
			VTENS(e, j)->rank = 9;
	}
	VCASE("shape set past the rank", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		for (j = 0; j < 3; j++)
			VTENS(e, j)->shape[1] = 1;
	}
	VCASE("stride set past the rank", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		for (j = 0; j < 3; j++)
			VTENS(e, j)->strides[7] = 1;
	}
	VCASE("negative shape", -EINVAL) {
		vcase_add(e, c, 0, 1, n16);
		for (j = 0; j < 3; j++)
			VTENS(e, j)->shape[0] = -16;
	}
	else
		return false;
#undef VCASE
	return true;
}

/* Lay a case out in memory and describe it as a submission. */
static void vcase_submit(const struct vcase *c, const struct venv *e,
			 struct drm_vnpu_submit *s)
{
	uint32_t stride = c->stride >= 64 && c->stride <= 4096 ? c->stride : 64;
	uint8_t *mem = e->task_mem;
	int i;

	if (c->tasks_where == 3)
		mem = e->hole + 4096 - stride;
	memset(e->task_mem, 0, 2 * 4096);
	for (i = 0; i < 2 && (c->tasks_where != 3 || i == 0); i++)
		memcpy(mem + i * stride, &c->t[i], sizeof(c->t[i]));
	if (c->ext_task >= 0)
		mem[c->ext_task * stride + 64 + c->ext_byte] = 1;

	memset(s, 0, sizeof(*s));
	s->tasks = (uintptr_t)mem;
	if (c->tasks_where == 1)
		s->tasks = 0;
	else if (c->tasks_where == 2)
		s->tasks = (uintptr_t)e->hole + 4096;
	s->task_count = c->count;
	s->task_stride = c->stride;
	s->args_size = c->args_size;
	if (c->args_size || c->args_where == 3)
		s->args = (uintptr_t)e->args;
	if (c->args_where == 1)
		s->args = 0;
	else if (c->args_where == 2)
		s->args = (uintptr_t)e->hole + 4096;
	else if (c->args_where == 4)
		s->args = (uintptr_t)e->hole + 4096 - 64;
}

static void venv_setup(struct __test_metadata *_metadata, int fd, struct venv *e,
		       struct buf *dev, struct buf *host)
{
	ASSERT_EQ(0, buf_create(fd, dev, 65536, DRM_VNPU_PLACEMENT_DEVICE, 0));
	ASSERT_EQ(0, buf_create(fd, host, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	memset(host->cpu, 0, 4096);
	e->dev_va = dev->va;
	e->host_va = host->va;
	e->hole = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, e->hole);
	ASSERT_EQ(0, munmap(e->hole + 4096, 4096));
	e->task_mem = calloc(1, 3 * 4096);
	e->args = calloc(1, DRM_VNPU_MAX_ARGS_SIZE + 8192);
	ASSERT_NE(NULL, e->task_mem);
	ASSERT_NE(NULL, e->args);
}

/*
 * Every batch case through SUBMIT: the exact errno, and a failed submit
 * leaves no trace (the job was never created, the next submit gets the
 * next sequence number). Valid cases run and end OK.
 */
TEST(submit_batch_validation)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task nop = T_NOP();
	struct drm_vnpu_job_status st;
	struct drm_vnpu_submit s;
	uint64_t expect = 0, seq;
	struct buf dev, host;
	struct venv e;
	struct vcase c;
	unsigned int i, nvalid = 0, nbad = 0;
	int ret;

	venv_setup(_metadata, self->fd, &e, &dev, &host);
	for (i = 0; vcase_make(i, &c, &e); i++) {
		vcase_submit(&c, &e, &s);
		s.queue_id = self->q.id;
		s.seq = 0xdead;
		ret = submit_raw(self->fd, &s);
		EXPECT_EQ(c.err, ret) TH_LOG("case %u: %s", i, c.name);
		if (!ret) {
			nvalid++;
			EXPECT_EQ(++expect, s.seq) TH_LOG("case %u: %s", i, c.name);
			ASSERT_EQ(0, job_wait(&self->q, s.seq));
			ASSERT_EQ(0, job_status(&self->q, s.seq, &st));
			EXPECT_EQ(DRM_VNPU_JOB_OK, st.state) TH_LOG("case %u: %s", i, c.name);
			EXPECT_EQ(0, st.error) TH_LOG("case %u: %s", i, c.name);
			continue;
		}
		nbad++;
		EXPECT_EQ(0xdead, s.seq) TH_LOG("case %u: %s: seq written", i, c.name);
		EXPECT_EQ(-EINVAL, job_status(&self->q, expect + 1, &st))
			TH_LOG("case %u: %s: made a job", i, c.name);
		ASSERT_EQ(0, submit(&self->q, &nop, 1, NULL, 0, &seq));
		EXPECT_EQ(++expect, seq) TH_LOG("case %u: %s", i, c.name);
	}
	ASSERT_EQ(0, job_wait(&self->q, expect));
	ASSERT_EQ(0, job_status(&self->q, expect, &st));
	EXPECT_JOB_OK(st);
	/* The valid stride-128 and 4096 cases wrote through task 1. */
	EXPECT_EQ(3, buf_read_u64(&dev, 16));
	TH_LOG("%u valid and %u invalid batches", nvalid, nbad);
}

/* CMDBUF_CREATE validates a batch exactly as SUBMIT does. */
TEST(cmdbuf_create_batch_validation)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_cmdbuf_create cc;
	struct drm_vnpu_job_status st;
	struct drm_vnpu_submit s;
	struct buf dev, host;
	uint64_t seq = 0;
	struct venv e;
	struct vcase c;
	unsigned int i;
	int ret;

	venv_setup(_metadata, self->fd, &e, &dev, &host);
	for (i = 0; vcase_make(i, &c, &e); i++) {
		vcase_submit(&c, &e, &s);
		memset(&cc, 0, sizeof(cc));
		cc.tasks = s.tasks;
		cc.task_count = s.task_count;
		cc.task_stride = s.task_stride;
		cc.args = s.args;
		cc.args_size = s.args_size;
		cc.handle = 0xdead;
		ret = xioctl(self->fd, DRM_IOCTL_VNPU_CMDBUF_CREATE, &cc);
		EXPECT_EQ(c.err, ret) TH_LOG("case %u: %s", i, c.name);
		if (ret) {
			EXPECT_EQ(0xdead, cc.handle) TH_LOG("case %u: %s", i, c.name);
			continue;
		}
		/* A valid one replays fine, after the caller's copy is gone. */
		memset(e.task_mem, 0xff, 2 * 4096);
		memset(e.args, 0xff, 4096);
		ASSERT_EQ(0, submit_cmdbuf(&self->q, cc.handle, &seq));
		ASSERT_EQ(0, job_wait(&self->q, seq));
		ASSERT_EQ(0, job_status(&self->q, seq, &st));
		EXPECT_EQ(DRM_VNPU_JOB_OK, st.state) TH_LOG("case %u: %s", i, c.name);
		EXPECT_EQ(0, cmdbuf_destroy(self->fd, cc.handle));
	}
}

/* ----------------------------------------------- submit validation -- */

/* Last point submitted on a timeline syncobj. */
static uint64_t timeline_last(int fd, uint32_t handle)
{
	struct drm_syncobj_timeline_array ta = { 0 };
	uint64_t point = ~0ull;

	ta.handles = (uintptr_t)&handle;
	ta.points = (uintptr_t)&point;
	ta.count_handles = 1;
	ta.flags = DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED;
	if (xioctl(fd, DRM_IOCTL_SYNCOBJ_QUERY, &ta))
		return ~0ull;
	return point;
}

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

/* ------------------------------------------------------------ queues -- */

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

/* ------------------------------------------------------ task faults -- */

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
