// SPDX-License-Identifier: GPL-2.0-only
/*
 * UAPI 1.4 bindings: a command buffer registered once with
 * DRM_VNPU_BINDING_VA addresses and replayed on buffers chosen per replay
 * (DRM_VNPU_SUBMIT_BINDINGS). Results read back for KERNEL, COPY, COPY_2D
 * and FILL, bound and absolute addresses mixed; every CMDBUF_CREATE and
 * SUBMIT rule with its errno; faults past a buffer, at unmapped memory and
 * on an overflowing base + offset; the io_uring SUBMIT path; concurrent
 * replays on two queues; destroying the command buffer with replays in
 * flight; a fused activation in a bound MATMUL split over the engines.
 * Runs in the VM with vnpu.ko loaded.
 */
#include <liburing.h>
#include <math.h>
#include <stdbool.h>
#include <sys/mman.h>

#include "vnpu_job_util.h"	/* first: it sets xioctl()'s restarts */
#include "vnpu_test_util.h"
#include "kselftest_harness.h"

#define NSEC_PER_MS	1000000ull
#define JOB_WAIT_MS	20000
#define BV(slot, off)	DRM_VNPU_BINDING_VA(slot, off)
#define UNMAPPED_VA	(DRM_VNPU_VA_DEVICE_START + DRM_VNPU_VA_RANGE_SIZE / 2 + 0x1230)

/* ------------------------------------------------------------ helpers -- */

/* A HOST buffer object, mapped: the test reads and writes it directly. */
struct hbuf {
	int fd;
	uint32_t handle;
	uint64_t va;
	uint64_t size;
	uint8_t *cpu;
};

static int hbuf_new(int fd, uint64_t size, struct hbuf *b)
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
	b->fd = fd;
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
	return 0;
}

static void hbuf_free(struct hbuf *b)
{
	struct drm_gem_close gc = { .handle = b->handle };

	if (b->cpu)
		munmap(b->cpu, b->size);
	if (b->handle)
		ioctl(b->fd, DRM_IOCTL_GEM_CLOSE, &gc);
	memset(b, 0, sizeof(*b));
}

static float *hf(struct hbuf *b)
{
	return (float *)b->cpu;
}

static int cmdbuf_new(int fd, const struct drm_vnpu_task *t, uint32_t n,
		      const void *args, uint32_t args_size, uint32_t flags,
		      uint32_t binding_count, uint32_t *handle)
{
	struct drm_vnpu_cmdbuf_create cc = {
		.tasks = (uintptr_t)t, .task_count = n,
		.task_stride = sizeof(*t), .args = (uintptr_t)args,
		.args_size = args_size, .flags = flags,
		.binding_count = binding_count,
	};
	int ret = xioctl(fd, DRM_IOCTL_VNPU_CMDBUF_CREATE, &cc);

	if (!ret && handle)
		*handle = cc.handle;
	return ret;
}

static int cmdbuf_bound(int fd, const struct drm_vnpu_task *t, uint32_t n,
			const void *args, uint32_t args_size, uint32_t count,
			uint32_t *handle)
{
	return cmdbuf_new(fd, t, n, args, args_size, DRM_VNPU_CMDBUF_BINDINGS,
			  count, handle);
}

static int cmdbuf_destroy(int fd, uint32_t handle)
{
	struct drm_vnpu_cmdbuf_destroy cd = { .handle = handle };

	return xioctl(fd, DRM_IOCTL_VNPU_CMDBUF_DESTROY, &cd);
}

static struct drm_vnpu_submit replay_args(uint32_t queue, uint32_t cmdbuf,
					  const uint64_t *table, uint32_t n)
{
	struct drm_vnpu_submit s = {
		.queue_id = queue,
		.flags = DRM_VNPU_SUBMIT_CMDBUF | DRM_VNPU_SUBMIT_BINDINGS,
		.cmdbuf = cmdbuf,
		.args = (uintptr_t)table,
		.args_size = n * sizeof(uint64_t),
	};

	return s;
}

static int replay(int fd, uint32_t queue, uint32_t cmdbuf,
		  const uint64_t *table, uint32_t n, uint64_t *seq)
{
	struct drm_vnpu_submit s = replay_args(queue, cmdbuf, table, n);
	int ret = xioctl(fd, DRM_IOCTL_VNPU_SUBMIT, &s);

	if (!ret && seq)
		*seq = s.seq;
	return ret;
}

static int job_wait(int fd, uint32_t syncobj, uint64_t seq)
{
	struct drm_syncobj_timeline_wait w = {
		.handles = (uintptr_t)&syncobj,
		.points = (uintptr_t)&seq,
		.timeout_nsec = (int64_t)(now_ns() + JOB_WAIT_MS * NSEC_PER_MS),
		.count_handles = 1,
		.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
	};

	return xioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w);
}

/* Last submitted point of a queue: a failed SUBMIT must leave it alone. */
static uint64_t timeline_last(int fd, uint32_t syncobj)
{
	uint64_t point = 0;
	struct drm_syncobj_timeline_array a = {
		.handles = (uintptr_t)&syncobj,
		.points = (uintptr_t)&point,
		.count_handles = 1,
		.flags = DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED,
	};

	xioctl(fd, DRM_IOCTL_SYNCOBJ_QUERY, &a);
	return point;
}

#define ADD_ARGS_SIZE	(sizeof(struct drm_vnpu_kernel_args) + \
			 3 * sizeof(struct drm_vnpu_tensor))

/* ADD of n fp32 values: in0 + in1 -> out, at blk + off. */
static uint32_t add_args(void *blk, uint32_t off, int64_t n, uint64_t in0,
			 uint64_t in1, uint64_t out)
{
	struct drm_vnpu_kernel_args *ka = (void *)((uint8_t *)blk + off);
	uint64_t vas[3] = { in0, in1, out };
	int i;

	memset(ka, 0, ADD_ARGS_SIZE);
	ka->num_inputs = 2;
	ka->num_outputs = 1;
	for (i = 0; i < 3; i++) {
		ka->tensors[i].va = vas[i];
		ka->tensors[i].dtype = DRM_VNPU_DTYPE_FLOAT;
		ka->tensors[i].rank = 1;
		ka->tensors[i].shape[0] = n;
		ka->tensors[i].strides[0] = 1;
	}
	return ADD_ARGS_SIZE;
}

static struct drm_vnpu_task t_kernel(uint32_t op, uint32_t off, uint32_t size)
{
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_KERNEL,
				   .kernel = { .op = op, .args_offset = off,
					       .args_size = size } };

	return t;
}

static struct drm_vnpu_task t_fill(uint64_t dst, uint64_t size,
				   uint64_t pattern, uint32_t ps)
{
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_FILL,
				   .fill = { .dst = dst, .size = size,
					     .pattern = pattern,
					     .pattern_size = ps } };

	return t;
}

static struct drm_vnpu_task t_copy_2d(uint64_t src, uint64_t dst,
				      uint64_t sp, uint64_t dp, uint64_t w,
				      uint64_t h)
{
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_COPY_2D,
				   .copy_2d = { .src = src, .dst = dst,
						.src_pitch = sp, .dst_pitch = dp,
						.width = w, .height = h } };

	return t;
}

struct fix {
	int fd;
	uint32_t q, sync;
};

static struct fix the_fix;

static struct fix *fix_setup(struct __test_metadata *_metadata)
{
	struct fix *f = &the_fix;

	f->fd = open_node();
	ASSERT_GE(f->fd, 0) TH_LOG("no /dev/accel node: is vnpu.ko loaded?");
	ASSERT_EQ(0, queue_create(f->fd, DRM_VNPU_PRIORITY_NORMAL, &f->q,
				  &f->sync));
	return f;
}

/* Wait for a job and read its status. */
static int finish(struct fix *f, uint32_t q, uint32_t sync, uint64_t seq,
		  struct drm_vnpu_job_status *st)
{
	int ret = job_wait(f->fd, sync, seq);

	return ret ? ret : job_status(f->fd, q, seq, st);
}

/* ------------------------------------------------------------- tests -- */

TEST(version_and_capability)
{
	struct fix *self = fix_setup(_metadata);
	uint64_t v = 0;

	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_UAPI_VERSION, &v));
	/* bindings came with 1.4; later minors keep them */
	EXPECT_LE(DRM_VNPU_UAPI_VERSION(1, 4), v);
	EXPECT_EQ(DRM_VNPU_UAPI_VERSION(DRM_VNPU_UAPI_MAJOR, DRM_VNPU_UAPI_MINOR), v);
	ASSERT_EQ(0, vnpu_get_param(self->fd, DRM_VNPU_PARAM_CAPABILITIES, &v));
	EXPECT_NE(0, v & DRM_VNPU_CAP_BINDINGS);
	EXPECT_NE(0, v & DRM_VNPU_CAP_OPSET_ONNX);
}

/* One ADD of slot 0 and slot 1 into slot 2, replayed on three buffer sets. */
TEST(add_replayed_on_three_buffer_sets)
{
	struct fix *self = fix_setup(_metadata);
	enum { N = 1000, SETS = 3 };
	uint64_t args[ADD_ARGS_SIZE / 8], seq[SETS], table[SETS][3];
	struct hbuf a[SETS], b[SETS], o[SETS];
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t;
	uint32_t h, off;
	int s, i;

	off = 0;
	t = t_kernel(DRM_VNPU_OP_ADD, off,
		     add_args(args, off, N, BV(0, 0), BV(1, 0), BV(2, 0)));
	ASSERT_EQ(0, cmdbuf_bound(self->fd, &t, 1, args, sizeof(args), 3, &h));
	for (s = 0; s < SETS; s++) {
		ASSERT_EQ(0, hbuf_new(self->fd, N * 4, &a[s]));
		ASSERT_EQ(0, hbuf_new(self->fd, N * 4, &b[s]));
		ASSERT_EQ(0, hbuf_new(self->fd, N * 4, &o[s]));
		for (i = 0; i < N; i++) {
			hf(&a[s])[i] = (float)(i * (s + 1));
			hf(&b[s])[i] = (float)(1000 * s) - i * 0.5f;
			hf(&o[s])[i] = -12345.0f;
		}
		table[s][0] = a[s].va;
		table[s][1] = b[s].va;
		table[s][2] = o[s].va;
	}
	for (s = 0; s < SETS; s++) {
		ASSERT_EQ(0, replay(self->fd, self->q, h, table[s], 3, &seq[s]));
		ASSERT_EQ(0, finish(self, self->q, self->sync, seq[s], &st));
		EXPECT_EQ(DRM_VNPU_JOB_OK, st.state);
		/* This set is computed; the later ones are untouched. */
		for (i = 0; i < N; i++)
			ASSERT_EQ((float)(i * (s + 1)) + ((float)(1000 * s) - i * 0.5f),
				  hf(&o[s])[i]) TH_LOG("set %d elem %d", s, i);
		if (s + 1 < SETS)
			EXPECT_EQ(-12345.0f, hf(&o[s + 1])[N - 1]);
	}
	/* The inputs were only read. */
	for (s = 0; s < SETS; s++)
		EXPECT_EQ((float)((N - 1) * (s + 1)), hf(&a[s])[N - 1]);
	EXPECT_EQ(0, cmdbuf_destroy(self->fd, h));
	for (s = 0; s < SETS; s++) {
		hbuf_free(&a[s]);
		hbuf_free(&b[s]);
		hbuf_free(&o[s]);
	}
}

/*
 * FILL, COPY and COPY_2D with bound addresses and offsets, and a KERNEL
 * task mixing a bound input with an absolute one, replayed twice.
 */
TEST(copy_fill_copy2d_and_mixed_addresses)
{
	struct fix *self = fix_setup(_metadata);
	uint64_t args[ADD_ARGS_SIZE / 8], table[2][3], seq;
	struct hbuf in[2], out[2], konst, abs_dst;
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t[4];
	uint32_t h;
	int r, i;

	ASSERT_EQ(0, hbuf_new(self->fd, 4096, &konst));
	ASSERT_EQ(0, hbuf_new(self->fd, 4096, &abs_dst));
	for (i = 0; i < 16; i++)
		hf(&konst)[i] = 100.0f * i;
	for (r = 0; r < 2; r++) {
		ASSERT_EQ(0, hbuf_new(self->fd, 4096, &in[r]));
		ASSERT_EQ(0, hbuf_new(self->fd, 8192, &out[r]));
		for (i = 0; i < 1024; i++)
			hf(&in[r])[i] = (float)(i + 7 * r);
		memset(out[r].cpu, 0x5a, 8192);
		table[r][0] = in[r].va;
		table[r][1] = out[r].va;
		table[r][2] = out[r].va + 4096;	/* a base inside an object */
	}
	/* slot1 + 64: 256 bytes of 0xc3c3... */
	t[0] = t_fill(BV(1, 64), 256, 0xc3c3c3c3, 4);
	/* slot0 + 16 -> slot1 + 1024, 128 bytes */
	t[1] = t_copy(BV(0, 16), BV(1, 1024), 128);
	/* 4 rows of 8 bytes, pitch 32 in slot 0 -> absolute, pitch 8 */
	t[2] = t_copy_2d(BV(0, 0), abs_dst.va, 32, 8, 8, 4);
	/* slot0[0..16) + konst[0..16) -> slot2 + 32 */
	t[3] = t_kernel(DRM_VNPU_OP_ADD, 0,
			add_args(args, 0, 16, BV(0, 0), konst.va, BV(2, 32)));
	ASSERT_EQ(0, cmdbuf_bound(self->fd, t, 4, args, sizeof(args), 3, &h));

	for (r = 0; r < 2; r++) {
		ASSERT_EQ(0, replay(self->fd, self->q, h, table[r], 3, &seq));
		ASSERT_EQ(0, finish(self, self->q, self->sync, seq, &st));
		EXPECT_EQ(DRM_VNPU_JOB_OK, st.state);
		/* FILL */
		EXPECT_EQ(0x5a, out[r].cpu[63]);
		for (i = 64; i < 64 + 256; i++)
			ASSERT_EQ(0xc3, out[r].cpu[i]) TH_LOG("fill byte %d", i);
		EXPECT_EQ(0x5a, out[r].cpu[64 + 256]);
		/* COPY */
		EXPECT_EQ(0, memcmp(out[r].cpu + 1024, in[r].cpu + 16, 128));
		EXPECT_EQ(0x5a, out[r].cpu[1024 + 128]);
		/* COPY_2D, absolute destination: rows of the last replay */
		for (i = 0; i < 4; i++)
			EXPECT_EQ(0, memcmp(abs_dst.cpu + 8 * i,
					    in[r].cpu + 32 * i, 8));
		/* KERNEL at slot 2 + 32 = out + 4096 + 32 */
		for (i = 0; i < 16; i++)
			ASSERT_EQ((float)(i + 7 * r) + 100.0f * i,
				  hf(&out[r])[(4096 + 32) / 4 + i]);
		EXPECT_EQ(0x5a, out[r].cpu[4096 + 31]);
		EXPECT_EQ(0x5a, out[r].cpu[4096 + 32 + 64]);
	}
	EXPECT_EQ(0, cmdbuf_destroy(self->fd, h));
	for (r = 0; r < 2; r++) {
		hbuf_free(&in[r]);
		hbuf_free(&out[r]);
	}
	hbuf_free(&konst);
	hbuf_free(&abs_dst);
}

/* In-place ADD through two bindings of one buffer (the aliasing rule). */
TEST(in_place_through_bindings)
{
	struct fix *self = fix_setup(_metadata);
	uint64_t args[ADD_ARGS_SIZE / 8], table[2], seq;
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t;
	struct hbuf x, y;
	uint32_t h;
	int i;

	ASSERT_EQ(0, hbuf_new(self->fd, 4096, &x));
	ASSERT_EQ(0, hbuf_new(self->fd, 4096, &y));
	for (i = 0; i < 64; i++) {
		hf(&x)[i] = i;
		hf(&y)[i] = 1000;
	}
	/* slot1 = slot1 + slot0: the output is exactly an input's view */
	t = t_kernel(DRM_VNPU_OP_ADD, 0,
		     add_args(args, 0, 64, BV(1, 0), BV(0, 0), BV(1, 0)));
	ASSERT_EQ(0, cmdbuf_bound(self->fd, &t, 1, args, sizeof(args), 2, &h));
	table[0] = x.va;
	table[1] = y.va;
	ASSERT_EQ(0, replay(self->fd, self->q, h, table, 2, &seq));
	ASSERT_EQ(0, finish(self, self->q, self->sync, seq, &st));
	EXPECT_EQ(DRM_VNPU_JOB_OK, st.state);
	for (i = 0; i < 64; i++)
		ASSERT_EQ(1000.0f + i, hf(&y)[i]);
	/* An output overlapping an input by a shifted view is refused. */
	table[0] = y.va + 4;
	ASSERT_EQ(0, replay(self->fd, self->q, h, table, 2, &seq));
	ASSERT_EQ(0, finish(self, self->q, self->sync, seq, &st));
	EXPECT_EQ(DRM_VNPU_JOB_ABORTED, st.state);
	EXPECT_EQ(-EINVAL, st.error);
	hbuf_free(&x);
	hbuf_free(&y);
}

TEST(cmdbuf_create_rules_einval)
{
	struct fix *self = fix_setup(_metadata);
	uint64_t args[ADD_ARGS_SIZE / 8];
	struct drm_vnpu_task t, nop = t_nop();
	uint32_t h = 0;
	int i;

	/* Flags and count. */
	EXPECT_EQ(-EINVAL, cmdbuf_new(self->fd, &nop, 1, NULL, 0, 1u << 1, 0, &h));
	EXPECT_EQ(-EINVAL, cmdbuf_new(self->fd, &nop, 1, NULL, 0, 0x80000000u, 0, &h));
	EXPECT_EQ(-EINVAL, cmdbuf_new(self->fd, &nop, 1, NULL, 0,
				      DRM_VNPU_CMDBUF_BINDINGS | (1u << 1), 1, &h));
	EXPECT_EQ(-EINVAL, cmdbuf_bound(self->fd, &nop, 1, NULL, 0, 0, &h));
	EXPECT_EQ(-EINVAL, cmdbuf_bound(self->fd, &nop, 1, NULL, 0,
					DRM_VNPU_MAX_BINDINGS + 1, &h));
	EXPECT_EQ(-EINVAL, cmdbuf_bound(self->fd, &nop, 1, NULL, 0, ~0u, &h));
	EXPECT_EQ(-EINVAL, cmdbuf_new(self->fd, &nop, 1, NULL, 0, 0, 1, &h));
	EXPECT_EQ(-EINVAL, cmdbuf_new(self->fd, &nop, 1, NULL, 0, 0,
				      DRM_VNPU_MAX_BINDINGS, &h));
	ASSERT_EQ(0, cmdbuf_bound(self->fd, &nop, 1, NULL, 0,
				  DRM_VNPU_MAX_BINDINGS, &h));
	EXPECT_EQ(0, cmdbuf_destroy(self->fd, h));
	ASSERT_EQ(0, cmdbuf_bound(self->fd, &nop, 1, NULL, 0, 1, &h));
	EXPECT_EQ(0, cmdbuf_destroy(self->fd, h));

	/* A slot must be below binding_count, in every field that binds. */
	t = t_copy(BV(2, 0), BV(0, 0), 8);
	EXPECT_EQ(-EINVAL, cmdbuf_bound(self->fd, &t, 1, NULL, 0, 2, &h));
	ASSERT_EQ(0, cmdbuf_bound(self->fd, &t, 1, NULL, 0, 3, &h));
	EXPECT_EQ(0, cmdbuf_destroy(self->fd, h));
	t = t_copy(BV(0, 0), BV(2, 0), 8);
	EXPECT_EQ(-EINVAL, cmdbuf_bound(self->fd, &t, 1, NULL, 0, 2, &h));
	t = t_copy(BV(0x7fff, 0), BV(0, 0), 8);
	EXPECT_EQ(-EINVAL, cmdbuf_bound(self->fd, &t, 1, NULL, 0,
					DRM_VNPU_MAX_BINDINGS, &h));
	t = t_copy(BV(DRM_VNPU_MAX_BINDINGS, 0), BV(0, 0), 8);
	EXPECT_EQ(-EINVAL, cmdbuf_bound(self->fd, &t, 1, NULL, 0,
					DRM_VNPU_MAX_BINDINGS, &h));
	t = t_copy(BV(DRM_VNPU_MAX_BINDINGS - 1, 0), BV(0, 0), 8);
	ASSERT_EQ(0, cmdbuf_bound(self->fd, &t, 1, NULL, 0,
				  DRM_VNPU_MAX_BINDINGS, &h));
	EXPECT_EQ(0, cmdbuf_destroy(self->fd, h));
	t = t_copy_2d(BV(1, 0), BV(0, 0), 8, 8, 8, 2);
	EXPECT_EQ(-EINVAL, cmdbuf_bound(self->fd, &t, 1, NULL, 0, 1, &h));
	t = t_copy_2d(BV(0, 0), BV(1, 0), 8, 8, 8, 2);
	EXPECT_EQ(-EINVAL, cmdbuf_bound(self->fd, &t, 1, NULL, 0, 1, &h));
	t = t_fill(BV(1, 0), 8, 0, 1);
	EXPECT_EQ(-EINVAL, cmdbuf_bound(self->fd, &t, 1, NULL, 0, 1, &h));
	for (i = 0; i < 3; i++) {
		uint64_t va[3] = { BV(0, 0), BV(0, 0), BV(0, 0) };

		va[i] = BV(1, 0);
		t = t_kernel(DRM_VNPU_OP_ADD, 0,
			     add_args(args, 0, 4, va[0], va[1], va[2]));
		EXPECT_EQ(-EINVAL, cmdbuf_bound(self->fd, &t, 1, args,
						sizeof(args), 1, &h))
			TH_LOG("tensor %d", i);
		ASSERT_EQ(0, cmdbuf_bound(self->fd, &t, 1, args, sizeof(args),
					  2, &h));
		EXPECT_EQ(0, cmdbuf_destroy(self->fd, h));
	}
	/* Other task types carry plain addresses: bit 63 is no binding there. */
	t = t_write(BV(5, 0), 1);
	ASSERT_EQ(0, cmdbuf_bound(self->fd, &t, 1, NULL, 0, 1, &h));
	EXPECT_EQ(0, cmdbuf_destroy(self->fd, h));
}

/* Every SUBMIT rule of UAPI 1.4, and nothing queued by a refused one. */
TEST(submit_rules)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task nop = t_nop();
	uint64_t table[DRM_VNPU_MAX_BINDINGS + 1] = { 0 }, expect, seq;
	struct drm_vnpu_submit s;
	uint32_t bound, plain;

	ASSERT_EQ(0, cmdbuf_bound(self->fd, &nop, 1, NULL, 0, 2, &bound));
	ASSERT_EQ(0, cmdbuf_new(self->fd, &nop, 1, NULL, 0, 0, 0, &plain));
	ASSERT_EQ(0, replay(self->fd, self->q, bound, table, 2, &seq));
	expect = seq;

#define REFUSED(err, what) do { \
	s.seq = 0xdead; \
	EXPECT_EQ(err, xioctl(self->fd, DRM_IOCTL_VNPU_SUBMIT, &s)) TH_LOG("%s", what); \
	EXPECT_EQ(0xdead, s.seq) TH_LOG("%s", what); \
	EXPECT_EQ(expect, timeline_last(self->fd, self->sync)) TH_LOG("%s", what); \
} while (0)

	s = replay_args(self->q, bound, table, 1);
	REFUSED(-EINVAL, "table of 1 for 2 bindings");
	s = replay_args(self->q, bound, table, 3);
	REFUSED(-EINVAL, "table of 3 for 2 bindings");
	s = replay_args(self->q, bound, table, DRM_VNPU_MAX_BINDINGS + 1);
	REFUSED(-EINVAL, "table over DRM_VNPU_MAX_BINDINGS");
	s = replay_args(self->q, bound, table, 2);
	s.args_size = 12;
	REFUSED(-EINVAL, "table size not a multiple of 8");
	s.args_size = 0;
	REFUSED(-EINVAL, "empty table");
	s.args_size = 16;
	s.args = 0;
	REFUSED(-EFAULT, "NULL table");
	s.args = 8;
	REFUSED(-EFAULT, "table at a bad pointer");
	s = replay_args(self->q, bound, table, 2);
	s.flags = DRM_VNPU_SUBMIT_CMDBUF;
	REFUSED(-EINVAL, "bound command buffer without SUBMIT_BINDINGS");
	s.args = 0;
	s.args_size = 0;
	REFUSED(-EINVAL, "bound command buffer without any table");
	s = replay_args(self->q, plain, table, 2);
	REFUSED(-EINVAL, "unbound command buffer with SUBMIT_BINDINGS");
	s = replay_args(self->q, bound, table, 2);
	s.flags = DRM_VNPU_SUBMIT_BINDINGS;
	s.cmdbuf = 0;
	s.tasks = (uintptr_t)&nop;
	s.task_count = 1;
	s.task_stride = sizeof(nop);
	REFUSED(-EINVAL, "SUBMIT_BINDINGS without SUBMIT_CMDBUF");
	s = replay_args(self->q, bound, table, 2);
	s.tasks = (uintptr_t)&nop;
	REFUSED(-EINVAL, "bound replay with tasks");
	s.tasks = 0;
	s.task_count = 1;
	REFUSED(-EINVAL, "bound replay with task_count");
	s = replay_args(self->q, bound, table, 2);
	s.flags |= 1u << 2;
	REFUSED(-EINVAL, "unknown flag");
	s = replay_args(self->q, 12345, table, 2);
	REFUSED(-ENOENT, "no such command buffer");
#undef REFUSED

	/* And the right ones still go. */
	ASSERT_EQ(0, replay(self->fd, self->q, bound, table, 2, &seq));
	EXPECT_EQ(expect + 1, seq);
	s = (struct drm_vnpu_submit){ .queue_id = self->q,
				      .flags = DRM_VNPU_SUBMIT_CMDBUF,
				      .cmdbuf = plain };
	ASSERT_EQ(0, xioctl(self->fd, DRM_IOCTL_VNPU_SUBMIT, &s));
	EXPECT_EQ(expect + 2, s.seq);
	EXPECT_EQ(0, job_wait(self->fd, self->sync, s.seq));
}

/* A replay faults like any task: at the resolved address, or the reference. */
static void expect_fault(struct __test_metadata *_metadata, struct fix *self,
			 const struct drm_vnpu_task *t, uint32_t n,
			 uint64_t table0, uint32_t task, uint64_t va,
			 uint32_t access, uint32_t reason)
{
	struct drm_vnpu_fault_info fi = { 0 };
	struct drm_vnpu_job_status st;
	uint64_t table[1] = { table0 }, seq;
	uint32_t q, sync, h;

	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &sync));
	ASSERT_EQ(0, cmdbuf_bound(self->fd, t, n, NULL, 0, 1, &h));
	ASSERT_EQ(0, replay(self->fd, q, h, table, 1, &seq));
	ASSERT_EQ(0, finish(self, q, sync, seq, &st));
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, st.state);
	EXPECT_EQ(-ENXIO, st.error);
	EXPECT_EQ(task, st.task);
	EXPECT_EQ(va, st.fault_va);
	EXPECT_EQ(access, st.fault_access);
	EXPECT_EQ(reason, st.fault_reason);
	ASSERT_EQ(0, xioctl(self->fd, DRM_IOCTL_VNPU_FAULT_INFO, &fi));
	EXPECT_EQ(va, fi.va);
	EXPECT_EQ(0, cmdbuf_destroy(self->fd, h));
}

TEST(offset_past_the_buffer_faults)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t[2];
	struct hbuf b, c;

	ASSERT_EQ(0, hbuf_new(self->fd, 4096, &b));
	ASSERT_EQ(0, hbuf_new(self->fd, 4096, &c));
	t[0] = t_nop();
	/* Reads 64 bytes from slot0 + 4064: 32 past the end. */
	t[1] = t_copy(BV(0, 4064), c.va, 64);
	expect_fault(_metadata, self, t, 2, b.va, 1, b.va + 4064,
		     DRM_VNPU_ACCESS_READ, DRM_VNPU_FAULT_BOUNDS);
	/* A FILL running 104 bytes past the end. */
	t[1] = t_fill(BV(0, 4000), 200, 0, 1);
	expect_fault(_metadata, self, t, 2, b.va, 1, b.va + 4000,
		     DRM_VNPU_ACCESS_WRITE, DRM_VNPU_FAULT_BOUNDS);
	hbuf_free(&b);
	hbuf_free(&c);
}

TEST(table_entry_at_unmapped_memory_faults)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_task t;
	struct hbuf b, gone;
	uint64_t va;

	ASSERT_EQ(0, hbuf_new(self->fd, 4096, &b));
	t = t_copy(b.va, BV(0, 8), 8);
	expect_fault(_metadata, self, &t, 1, UNMAPPED_VA, 0, UNMAPPED_VA + 8,
		     DRM_VNPU_ACCESS_WRITE, DRM_VNPU_FAULT_UNMAPPED);
	/* A table entry of 0 (an unset slot) too. */
	expect_fault(_metadata, self, &t, 1, 0, 0, 8, DRM_VNPU_ACCESS_WRITE,
		     DRM_VNPU_FAULT_UNMAPPED);
	/* A freed buffer's address. */
	ASSERT_EQ(0, hbuf_new(self->fd, 4096, &gone));
	va = gone.va;
	hbuf_free(&gone);
	t = t_copy(BV(0, 0), b.va, 16);
	expect_fault(_metadata, self, &t, 1, va, 0, va, DRM_VNPU_ACCESS_READ,
		     DRM_VNPU_FAULT_UNMAPPED);
	hbuf_free(&b);
}

/* table[slot] + offset wraps around: the task faults at the reference. */
TEST(overflowing_base_plus_offset_faults)
{
	struct fix *self = fix_setup(_metadata);
	uint64_t args[ADD_ARGS_SIZE / 8], table[1] = { ~0ull - 0x10 }, seq;
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t;
	struct hbuf b;
	uint32_t q, sync, h;

	ASSERT_EQ(0, hbuf_new(self->fd, 4096, &b));
	t = t_copy(b.va, BV(0, 0x100), 8);
	expect_fault(_metadata, self, &t, 1, ~0ull - 0x10, 0, BV(0, 0x100),
		     DRM_VNPU_ACCESS_WRITE, DRM_VNPU_FAULT_UNMAPPED);
	/* The same in a KERNEL tensor (input 1). */
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &sync));
	t = t_kernel(DRM_VNPU_OP_ADD, 0,
		     add_args(args, 0, 4, b.va, BV(0, 0x40), b.va + 64));
	ASSERT_EQ(0, cmdbuf_bound(self->fd, &t, 1, args, sizeof(args), 1, &h));
	ASSERT_EQ(0, replay(self->fd, q, h, table, 1, &seq));
	ASSERT_EQ(0, finish(self, q, sync, seq, &st));
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, st.state);
	EXPECT_EQ(BV(0, 0x40), st.fault_va);
	EXPECT_EQ(DRM_VNPU_ACCESS_READ, st.fault_access);
	/* A base whose sum just fits is an address: here an unmapped one. */
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &sync));
	table[0] = ~0ull - 0x40;
	ASSERT_EQ(0, replay(self->fd, q, h, table, 1, &seq));
	ASSERT_EQ(0, finish(self, q, sync, seq, &st));
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, st.state);
	EXPECT_EQ(~0ull, st.fault_va);
	EXPECT_EQ(0, cmdbuf_destroy(self->fd, h));
	hbuf_free(&b);
}

/* Outside a command buffer with bindings, bit 63 is an unmapped address. */
TEST(binding_address_in_an_unbound_batch_faults)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct drm_vnpu_submit s = { .flags = DRM_VNPU_SUBMIT_CMDBUF };
	struct drm_vnpu_task t;
	struct hbuf b;
	uint32_t h;

	ASSERT_EQ(0, hbuf_new(self->fd, 4096, &b));
	t = t_copy(BV(0, 0), b.va, 8);
	ASSERT_EQ(0, cmdbuf_new(self->fd, &t, 1, NULL, 0, 0, 0, &h));
	s.queue_id = self->q;
	s.cmdbuf = h;
	ASSERT_EQ(0, xioctl(self->fd, DRM_IOCTL_VNPU_SUBMIT, &s));
	ASSERT_EQ(0, finish(self, self->q, self->sync, s.seq, &st));
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, st.state);
	EXPECT_EQ(BV(0, 0), st.fault_va);
	EXPECT_EQ(DRM_VNPU_FAULT_UNMAPPED, st.fault_reason);
	hbuf_free(&b);
}

/* io_uring SUBMIT shares the parsing: a replay with a table, and a refusal. */
TEST(io_uring_submit_with_bindings)
{
	struct fix *self = fix_setup(_metadata);
	uint64_t args[ADD_ARGS_SIZE / 8], table[3], seq = 0;
	struct drm_vnpu_job_status st;
	struct io_uring_cqe *cqe;
	struct drm_vnpu_submit s;
	struct io_uring_sqe *sqe;
	struct hbuf a, b, o;
	struct io_uring ring;
	struct drm_vnpu_task t;
	uint32_t h;
	int i, round;

	ASSERT_EQ(0, hbuf_new(self->fd, 4096, &a));
	ASSERT_EQ(0, hbuf_new(self->fd, 4096, &b));
	ASSERT_EQ(0, hbuf_new(self->fd, 4096, &o));
	for (i = 0; i < 256; i++) {
		hf(&a)[i] = i;
		hf(&b)[i] = 3 * i;
	}
	t = t_kernel(DRM_VNPU_OP_ADD, 0,
		     add_args(args, 0, 256, BV(0, 0), BV(1, 0), BV(2, 0)));
	ASSERT_EQ(0, cmdbuf_bound(self->fd, &t, 1, args, sizeof(args), 3, &h));
	ASSERT_EQ(0, io_uring_queue_init(4, &ring, IORING_SETUP_SQE128 |
					 IORING_SETUP_CQE32));
	for (round = 0; round < 2; round++) {
		/* round 0: o = a + b; round 1: a = o + b (table permuted) */
		table[0] = round ? o.va : a.va;
		table[1] = b.va;
		table[2] = round ? a.va : o.va;
		s = replay_args(self->q, h, table, 3);
		sqe = io_uring_get_sqe(&ring);
		ASSERT_NE(NULL, sqe);
		memset(sqe, 0, 128);
		sqe->opcode = IORING_OP_URING_CMD;
		sqe->fd = self->fd;
		sqe->cmd_op = DRM_VNPU_URING_CMD_SUBMIT;
		memcpy(sqe->cmd, &s, sizeof(s));
		/* The table is copied at submit: clobber it right after. */
		ASSERT_EQ(1, io_uring_submit(&ring));
		memset(table, 0, sizeof(table));
		ASSERT_EQ(0, io_uring_wait_cqe(&ring, &cqe));
		EXPECT_EQ(0, cqe->res);
		seq = cqe->big_cqe[0];
		io_uring_cqe_seen(&ring, cqe);
		ASSERT_EQ(0, finish(self, self->q, self->sync, seq, &st));
		EXPECT_EQ(DRM_VNPU_JOB_OK, st.state);
	}
	for (i = 0; i < 256; i++) {
		ASSERT_EQ(4.0f * i, hf(&o)[i]);
		ASSERT_EQ(7.0f * i, hf(&a)[i]);
	}
	/* A bound command buffer without SUBMIT_BINDINGS: -EINVAL in the CQE. */
	s = replay_args(self->q, h, table, 3);
	s.flags = DRM_VNPU_SUBMIT_CMDBUF;
	s.args = 0;
	s.args_size = 0;
	sqe = io_uring_get_sqe(&ring);
	ASSERT_NE(NULL, sqe);
	memset(sqe, 0, 128);
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = self->fd;
	sqe->cmd_op = DRM_VNPU_URING_CMD_SUBMIT;
	memcpy(sqe->cmd, &s, sizeof(s));
	ASSERT_EQ(1, io_uring_submit(&ring));
	ASSERT_EQ(0, io_uring_wait_cqe(&ring, &cqe));
	EXPECT_EQ(-EINVAL, cqe->res);
	io_uring_cqe_seen(&ring, cqe);
	EXPECT_EQ(seq, timeline_last(self->fd, self->sync));
	io_uring_queue_exit(&ring);
	EXPECT_EQ(0, cmdbuf_destroy(self->fd, h));
	hbuf_free(&a);
	hbuf_free(&b);
	hbuf_free(&o);
}

/* One command buffer replayed on two queues at once with different tables. */
TEST(concurrent_replays_on_two_queues)
{
	struct fix *self = fix_setup(_metadata);
	enum { N = 1 << 16, SETS = 8 };
	uint64_t args[ADD_ARGS_SIZE / 8], table[SETS][3], seq[SETS];
	struct hbuf in[SETS], out[SETS], one;
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t;
	uint32_t q[2], sync[2], h;
	int s, i;

	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q[0], &sync[0]));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q[1], &sync[1]));
	ASSERT_EQ(0, hbuf_new(self->fd, N * 4, &one));
	for (i = 0; i < N; i++)
		hf(&one)[i] = 1.0f;
	/* out = in + 1; slot 2 (an arena) is unused by the tasks */
	t = t_kernel(DRM_VNPU_OP_ADD, 0,
		     add_args(args, 0, N, BV(0, 0), one.va, BV(1, 0)));
	ASSERT_EQ(0, cmdbuf_bound(self->fd, &t, 1, args, sizeof(args), 3, &h));
	for (s = 0; s < SETS; s++) {
		ASSERT_EQ(0, hbuf_new(self->fd, N * 4, &in[s]));
		ASSERT_EQ(0, hbuf_new(self->fd, N * 4, &out[s]));
		for (i = 0; i < N; i++)
			hf(&in[s])[i] = (float)(s * 100000 + i);
		table[s][0] = in[s].va;
		table[s][1] = out[s].va;
		table[s][2] = out[s].va;
	}
	for (s = 0; s < SETS; s++)
		ASSERT_EQ(0, replay(self->fd, q[s & 1], h, table[s], 3, &seq[s]));
	for (s = 0; s < SETS; s++) {
		ASSERT_EQ(0, finish(self, q[s & 1], sync[s & 1], seq[s], &st));
		EXPECT_EQ(DRM_VNPU_JOB_OK, st.state) TH_LOG("set %d", s);
	}
	for (s = 0; s < SETS; s++) {
		for (i = 0; i < N; i++) {
			ASSERT_EQ((float)(s * 100000 + i) + 1.0f, hf(&out[s])[i])
				TH_LOG("set %d elem %d", s, i);
		}
	}
	EXPECT_EQ(0, cmdbuf_destroy(self->fd, h));
}

/* Destroy the command buffer while its replays wait on a gate. */
TEST(destroy_with_replays_in_flight)
{
	struct fix *self = fix_setup(_metadata);
	enum { SETS = 4 };
	uint64_t table[SETS][2], seq[SETS];
	struct hbuf gate, src[SETS], dst[SETS];
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t[2];
	uint32_t h;
	int s, i;

	ASSERT_EQ(0, hbuf_new(self->fd, 4096, &gate));
	t[0] = t_wait(gate.va, 1, DRM_VNPU_WAIT_GEQ, 0);
	t[1] = t_copy(BV(0, 0), BV(1, 8), 256);
	ASSERT_EQ(0, cmdbuf_bound(self->fd, t, 2, NULL, 0, 2, &h));
	for (s = 0; s < SETS; s++) {
		ASSERT_EQ(0, hbuf_new(self->fd, 4096, &src[s]));
		ASSERT_EQ(0, hbuf_new(self->fd, 4096, &dst[s]));
		for (i = 0; i < 256; i++)
			src[s].cpu[i] = (uint8_t)(i * 3 + s);
		table[s][0] = src[s].va;
		table[s][1] = dst[s].va;
		ASSERT_EQ(0, replay(self->fd, self->q, h, table[s], 2, &seq[s]));
	}
	ASSERT_EQ(0, cmdbuf_destroy(self->fd, h));
	EXPECT_EQ(-ENOENT, replay(self->fd, self->q, h, table[0], 2, NULL));
	sleep_ms(50);
	EXPECT_EQ(DRM_VNPU_JOB_PENDING, job_state(self->fd, self->q, seq[SETS - 1]));
	__atomic_store_n((uint64_t *)gate.cpu, 1, __ATOMIC_SEQ_CST);
	for (s = 0; s < SETS; s++) {
		ASSERT_EQ(0, finish(self, self->q, self->sync, seq[s], &st));
		EXPECT_EQ(DRM_VNPU_JOB_OK, st.state);
		EXPECT_EQ(0, memcmp(dst[s].cpu + 8, src[s].cpu, 256)) TH_LOG("set %d", s);
		EXPECT_EQ(0, dst[s].cpu[7]);
	}
}

#define MM_ARGS_SIZE	(sizeof(struct drm_vnpu_kernel_args) + \
			 3 * sizeof(struct drm_vnpu_tensor) + \
			 sizeof(struct drm_vnpu_op_attrs))

/* MATMUL [m, k] @ [k, n] -> [m, n], fp32, with a fused activation. */
static uint32_t mm_args(void *blk, int64_t m, int64_t k, int64_t n,
			uint64_t a, uint64_t b, uint64_t o, int64_t act,
			float lo, float hi)
{
	struct drm_vnpu_kernel_args *ka = blk;
	const int64_t shp[3][2] = { { m, k }, { k, n }, { m, n } };
	const uint64_t va[3] = { a, b, o };
	struct drm_vnpu_op_attrs *at;
	int i;

	memset(ka, 0, MM_ARGS_SIZE);
	ka->num_inputs = 2;
	ka->num_outputs = 1;
	ka->attr_size = sizeof(*at);
	for (i = 0; i < 3; i++) {
		ka->tensors[i].va = va[i];
		ka->tensors[i].dtype = DRM_VNPU_DTYPE_FLOAT;
		ka->tensors[i].rank = 2;
		ka->tensors[i].shape[0] = shp[i][0];
		ka->tensors[i].shape[1] = shp[i][1];
		ka->tensors[i].strides[0] = shp[i][1];
		ka->tensors[i].strides[1] = 1;
	}
	at = (void *)&ka->tensors[3];
	at->ints[DRM_VNPU_ATTR_ACT] = act;
	memcpy(&at->floats[DRM_VNPU_ATTR_ACT_LO], &lo, 4);
	memcpy(&at->floats[DRM_VNPU_ATTR_ACT_HI], &hi, 4);
	return MM_ARGS_SIZE;
}

/*
 * A bound MATMUL with RELU, then with CLIP, big enough (20 blocks) to be
 * spread over the engines: small integers make every sum exact, so the
 * result is checked exactly. A bad activation is refused at CMDBUF_CREATE.
 */
TEST(fused_activation_in_a_bound_split_matmul)
{
	struct fix *self = fix_setup(_metadata);
	enum { M = 1024, K = 16, N = 1024 };
	uint64_t args[MM_ARGS_SIZE / 8], table[3], seq;
	struct drm_vnpu_job_status st;
	struct hbuf a, b, o;
	struct drm_vnpu_task t;
	uint32_t h;
	int act, i, j, p;

	ASSERT_EQ(0, hbuf_new(self->fd, M * K * 4, &a));
	ASSERT_EQ(0, hbuf_new(self->fd, K * N * 4, &b));
	ASSERT_EQ(0, hbuf_new(self->fd, M * N * 4, &o));
	for (i = 0; i < M * K; i++)
		hf(&a)[i] = (float)((i * 7 + i / K) % 5 - 2);
	for (i = 0; i < K * N; i++)
		hf(&b)[i] = (float)((i * 3 + i / N) % 5 - 2);
	table[0] = a.va;
	table[1] = b.va;
	table[2] = o.va;
	for (act = DRM_VNPU_ACT_RELU; act <= DRM_VNPU_ACT_CLIP; act++) {
		long clamped = 0;

		t = t_kernel(DRM_VNPU_OP_MATMUL, 0,
			     mm_args(args, M, K, N, BV(0, 0), BV(1, 0), BV(2, 0),
				     act, -3.0f, 4.0f));
		ASSERT_EQ(0, cmdbuf_bound(self->fd, &t, 1, args, sizeof(args), 3, &h));
		memset(o.cpu, 0xff, o.size);
		ASSERT_EQ(0, replay(self->fd, self->q, h, table, 3, &seq));
		ASSERT_EQ(0, finish(self, self->q, self->sync, seq, &st));
		EXPECT_EQ(DRM_VNPU_JOB_OK, st.state);
		for (i = 0; i < M; i++) {
			for (j = 0; j < N; j++) {
				float want = 0, f;

				for (p = 0; p < K; p++)
					want += hf(&a)[i * K + p] * hf(&b)[p * N + j];
				f = act == DRM_VNPU_ACT_RELU ?
				    (want < 0 ? 0 : want) :
				    (want < -3 ? -3 : want > 4 ? 4 : want);
				clamped += f != want;
				ASSERT_EQ(f, hf(&o)[i * N + j])
					TH_LOG("act %d [%d, %d]", act, i, j);
			}
		}
		EXPECT_LT(1000, clamped);
		EXPECT_EQ(0, cmdbuf_destroy(self->fd, h));
	}
	/* Bad activations: refused when the batch is validated. */
	t = t_kernel(DRM_VNPU_OP_MATMUL, 0,
		     mm_args(args, 4, 4, 4, BV(0, 0), BV(1, 0), BV(2, 0), 3, 0, 0));
	EXPECT_EQ(-EINVAL, cmdbuf_bound(self->fd, &t, 1, args, sizeof(args), 3, &h));
	mm_args(args, 4, 4, 4, BV(0, 0), BV(1, 0), BV(2, 0), DRM_VNPU_ACT_CLIP, 2, 1);
	EXPECT_EQ(-EINVAL, cmdbuf_bound(self->fd, &t, 1, args, sizeof(args), 3, &h));
	mm_args(args, 4, 4, 4, BV(0, 0), BV(1, 0), BV(2, 0), DRM_VNPU_ACT_CLIP, NAN, 1);
	EXPECT_EQ(-EINVAL, cmdbuf_bound(self->fd, &t, 1, args, sizeof(args), 3, &h));
	mm_args(args, 4, 4, 4, a.va, b.va, o.va, -1, 0, 0);
	EXPECT_EQ(-EINVAL, submit_args(self->fd, self->q, &t, 1, args, sizeof(args),
					NULL));
	mm_args(args, 4, 4, 4, a.va, b.va, o.va, DRM_VNPU_ACT_CLIP, 1, 1);
	EXPECT_EQ(0, submit_args(self->fd, self->q, &t, 1, args, sizeof(args), &seq));
	ASSERT_EQ(0, finish(self, self->q, self->sync, seq, &st));
	EXPECT_EQ(DRM_VNPU_JOB_OK, st.state);
	EXPECT_EQ(1.0f, hf(&o)[0]);
	hbuf_free(&a);
	hbuf_free(&b);
	hbuf_free(&o);
}

TEST_HARNESS_MAIN
