/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers of the task and submission suites (vnpu_job_*_test.c): buffer
 * objects with a CPU view, queues, submits, command buffers and job status
 * through the raw ioctls, task descriptors, and the per-test set-up.
 */
#ifndef VNPU_JOB_TEST_UTIL_H
#define VNPU_JOB_TEST_UTIL_H

#include <stdbool.h>
#include <sys/mman.h>
#include <time.h>

#include "vnpu_test_util.h"
#include "kselftest_harness.h"

/*
 * Not every suite uses every helper. They stay plain static functions as
 * in the one file they came from: inline would change what -O1 inlines
 * into the tests, and with it the warnings (-Wmaybe-uninitialized).
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"

#define NSEC_PER_MS	1000000ull

/* Bound on any wait for a job: the guest is slow, but a bug must not hang. */
#define JOB_WAIT_MS	10000

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

#pragma GCC diagnostic pop

#endif /* VNPU_JOB_TEST_UTIL_H */
