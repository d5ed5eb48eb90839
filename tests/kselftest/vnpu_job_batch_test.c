// SPDX-License-Identifier: GPL-2.0-only
/*
 * Batch validation: every rule a batch of tasks must meet, through SUBMIT
 * and CMDBUF_CREATE alike, each with its exact errno; a refused batch
 * leaves no trace. Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_job_test_util.h"

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
	/* UAPI 1.9 made 9 JUMP (vnpu_jump_test.c): 10 is the first unknown. */
	VCASE("type 10", -EINVAL) c->t[1].type = 10;
	VCASE("type 0x100", -EINVAL) c->t[1].type = 0x100;
	VCASE("type 0xffff", -EINVAL) c->t[1].type = 0xffff;
	VCASE("flags 1", -EINVAL) c->t[1].flags = 1;
	VCASE("flags 0x8000", -EINVAL) c->t[1].flags = 0x8000;
	/* UAPI 1.8: the former reserved word is a free tag. */
	VCASE("valid: tag 1", 0) c->t[1].tag = 1;
	VCASE("valid: tag 0x80000000", 0) c->t[1].tag = 0x80000000u;
	VCASE("valid: tag 0xffffffff on a COPY", 0) {
		c->t[1] = T_COPY(dva, dva + 4096, 64);
		c->t[1].tag = 0xffffffffu;
	}
	VCASE("flags 1 with a tag", -EINVAL) {
		c->t[1].flags = 1;
		c->t[1].tag = 7;
	}
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

TEST_HARNESS_MAIN
