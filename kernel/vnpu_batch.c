// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: task batches. A batch is copied from user space once, converted
 * to the version-1 layout and validated as a whole; after that nothing
 * re-reads user memory. Submissions and command buffers (vnpu_cmdbuf.c)
 * hold batches by reference.
 *
 * Everything here is charged to the caller's memory cgroup.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/overflow.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "vnpu_drv.h"
#include "vnpu_job.h"
#include "vnpu_opcall.h"
#include "ops/vnpu_dtype.h"

static void vnpu_batch_release(struct kref *ref)
{
	struct vnpu_batch *batch = container_of(ref, struct vnpu_batch, ref);
	struct vnpu_file *vfile = batch->vfile;

	/* The command buffer holding it counts itself (vnpu_cmdbuf.c). */
	if (batch->cmdbuf_charged)
		vnpu_budget_sub_bytes(vfile, &vfile->cmdbuf_budget, batch->bytes);
	/* Both were got with exactly these sizes (batch->count is set first). */
	vnpu_bufcache_put(vfile, batch->tasks,
			  (size_t)batch->count * sizeof(*batch->tasks));
	vnpu_bufcache_put(vfile, batch->args, batch->args_size);
	vnpu_file_put(vfile);
	kfree(batch);
}

/**
 * vnpu_batch_put() - drop a batch reference
 * @batch: the batch, or NULL
 */
void vnpu_batch_put(struct vnpu_batch *batch)
{
	if (batch)
		kref_put(&batch->ref, vnpu_batch_release);
}

static bool vnpu_all_zero(const void *p, size_t n)
{
	return !memchr_inv(p, 0, n);
}

/*
 * A tensor may reach at most as many bytes as the largest object has, and
 * describe at most VNPU_MAX_TENSOR_ELEMS elements: with zero strides a view
 * of a few bytes can otherwise ask the engine for 2^60 elements of work.
 */
#define VNPU_MAX_TENSOR_ELEMS	BIT_ULL(36)
#define VNPU_MAX_DIM		((s64)BIT_ULL(40))

static int vnpu_check_tensor(struct drm_device *drm, u32 index,
			     const struct drm_vnpu_tensor *t)
{
	u64 bytes, elems;
	u32 i;

	if (t->rank > DRM_VNPU_MAX_RANK || !vnpu_dtype_size(t->dtype))
		goto bad;
	for (i = 0; i < DRM_VNPU_MAX_RANK; i++) {
		/* Each bounded too: operators derive counts from one dim. */
		if (i >= t->rank ? t->shape[i] || t->strides[i] :
		    t->shape[i] < 0 || t->shape[i] > VNPU_MAX_DIM ||
		    t->strides[i] < 0 || t->strides[i] > VNPU_MAX_DIM)
			goto bad;
	}
	if (vnpu_tensor_extent(t, &bytes, &elems) ||
	    bytes > DRM_VNPU_BO_MAX_SIZE || elems > VNPU_MAX_TENSOR_ELEMS) {
		drm_dbg(drm, "task %u: tensor view too large (extent overflows, or over %llu bytes or %llu elements)\n",
			index, DRM_VNPU_BO_MAX_SIZE, VNPU_MAX_TENSOR_ELEMS);
		return -EINVAL;
	}
	return 0;
bad:
	drm_dbg(drm, "task %u: bad tensor dtype, rank, shape or strides\n",
		index);
	return -EINVAL;
}

/*
 * In a command buffer with bindings, an address with bit 63 set names a
 * slot of the replay's table, which must exist. Elsewhere bit 63 is just a
 * part of an address nothing is mapped at (the MMU faults it).
 */
static int vnpu_check_binding(struct drm_device *drm, u32 index, u64 va,
			      u32 binding_count)
{
	u64 slot;

	if (!binding_count || !(va & DRM_VNPU_BINDING_FLAG))
		return 0;
	slot = DRM_VNPU_BINDING_SLOT(va);
	if (slot < binding_count)
		return 0;
	drm_dbg(drm, "task %u: binding slot %llu, the command buffer has %u\n",
		index, slot, binding_count);
	return -EINVAL;
}

static int vnpu_check_kernel(struct drm_device *drm, u32 index,
			     const struct drm_vnpu_task *t,
			     const void *args, u32 args_size,
			     u32 binding_count, struct vnpu_op_call **scratch)
{
	const struct drm_vnpu_kernel_args *ka;
	u32 need, n, i;
	int ret;

	if (t->kernel.pad || t->kernel.args_offset % 8 ||
	    t->kernel.args_size < sizeof(*ka) ||
	    t->kernel.args_offset > args_size ||
	    t->kernel.args_size > args_size - t->kernel.args_offset) {
		drm_dbg(drm, "task %u: arguments outside the argument block\n",
			index);
		return -EINVAL;
	}
	ka = args + t->kernel.args_offset;
	n = ka->num_inputs + ka->num_outputs;
	if (ka->pad || !ka->num_outputs ||
	    ka->num_inputs + (u64)ka->num_outputs > DRM_VNPU_MAX_TENSORS ||
	    (ka->attr_size && ka->attr_size != sizeof(struct drm_vnpu_op_attrs))) {
		drm_dbg(drm, "task %u: bad tensor count or attribute size\n",
			index);
		return -EINVAL;
	}
	need = sizeof(*ka) + n * sizeof(ka->tensors[0]) + ka->attr_size;
	if (need != t->kernel.args_size) {
		drm_dbg(drm, "task %u: argument size %u, expected %u\n", index,
			t->kernel.args_size, need);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		ret = vnpu_check_tensor(drm, index, &ka->tensors[i]);
		if (!ret)
			ret = vnpu_check_binding(drm, index, ka->tensors[i].va,
						 binding_count);
		if (ret)
			return ret;
	}
	ret = vnpu_ops_check(t->kernel.op, ka, scratch);
	if (ret == -EINVAL)
		drm_dbg(drm, "task %u: operator %u rejects its tensors or attributes\n",
			index, t->kernel.op);
	return ret;
}

/* The words of a task's payload a type uses; the rest must be zero. */
static const u8 vnpu_task_words[] = {
	[DRM_VNPU_TASK_NOP] = 0,
	[DRM_VNPU_TASK_COPY] = 3,
	[DRM_VNPU_TASK_COPY_2D] = 6,
	[DRM_VNPU_TASK_FILL] = 4,
	[DRM_VNPU_TASK_TIMESTAMP] = 1,
	[DRM_VNPU_TASK_WRITE_VALUE] = 2,
	[DRM_VNPU_TASK_WAIT_VALUE] = 4,
	[DRM_VNPU_TASK_KERNEL] = 2,
	[DRM_VNPU_TASK_SPIN] = 1,
	[DRM_VNPU_TASK_JUMP] = 4,
};

/*
 * A JUMP's own fields; its target needs the batch's task count, so this
 * runs apart from vnpu_check_task(), for JUMP tasks only.
 */
static int vnpu_check_jump(struct drm_device *drm, u32 i,
			   const struct drm_vnpu_task *t, u32 count)
{
	if (t->jump.cond > DRM_VNPU_JUMP_ALWAYS ||
	    (t->jump.flags & ~DRM_VNPU_JUMP_FLAGS) || t->jump.pad ||
	    t->jump.target >= count) {
		drm_dbg(drm, "task %u: bad jump (cond %u, flags %#x, target %u of %u)\n",
			i, t->jump.cond, t->jump.flags, t->jump.target, count);
		return -EINVAL;
	}
	return 0;
}

static int vnpu_check_task(struct drm_device *drm, u32 i,
			   const struct drm_vnpu_task *t,
			   const void *args, u32 args_size,
			   u32 binding_count, struct vnpu_op_call **scratch)
{
	u64 tmp;

	if (t->type >= ARRAY_SIZE(vnpu_task_words)) {
		drm_dbg(drm, "task %u: unknown type %u\n", i, t->type);
		return -EINVAL;
	}
	/* @tag is free (UAPI 1.8): it only reaches the profile records. */
	if (t->flags ||
	    !vnpu_all_zero(&t->raw[vnpu_task_words[t->type]],
			   sizeof(t->raw) - 8 * vnpu_task_words[t->type])) {
		drm_dbg(drm, "task %u: flags or unused fields not zero\n", i);
		return -EINVAL;
	}

	switch (t->type) {
	case DRM_VNPU_TASK_COPY:
		if (!t->copy.size)
			goto bad;
		return vnpu_check_binding(drm, i, t->copy.src, binding_count) ?:
		       vnpu_check_binding(drm, i, t->copy.dst, binding_count);
	case DRM_VNPU_TASK_COPY_2D:
		if (!t->copy_2d.width || !t->copy_2d.height ||
		    t->copy_2d.src_pitch < t->copy_2d.width ||
		    t->copy_2d.dst_pitch < t->copy_2d.width ||
		    check_mul_overflow(t->copy_2d.height, t->copy_2d.src_pitch, &tmp) ||
		    check_mul_overflow(t->copy_2d.height, t->copy_2d.dst_pitch, &tmp))
			goto bad;
		return vnpu_check_binding(drm, i, t->copy_2d.src, binding_count) ?:
		       vnpu_check_binding(drm, i, t->copy_2d.dst, binding_count);
	case DRM_VNPU_TASK_FILL:
		if (t->fill.pad || !t->fill.size ||
		    !is_power_of_2(t->fill.pattern_size) ||
		    t->fill.pattern_size > 8 ||
		    t->fill.size % t->fill.pattern_size)
			goto bad;
		return vnpu_check_binding(drm, i, t->fill.dst, binding_count);
	case DRM_VNPU_TASK_WRITE_VALUE:
		if (t->value.addr % 8)
			goto bad;
		return 0;
	case DRM_VNPU_TASK_WAIT_VALUE:
		if (t->value.addr % 8 || t->value.pad ||
		    t->value.cond > DRM_VNPU_WAIT_NOR ||
		    t->value.timeout_ns > DRM_VNPU_MAX_WAIT_NS)
			goto bad;
		return 0;
	case DRM_VNPU_TASK_KERNEL:
		return vnpu_check_kernel(drm, i, t, args, args_size,
					 binding_count, scratch);
	case DRM_VNPU_TASK_SPIN:
		if (t->spin.ns > DRM_VNPU_MAX_SPIN_NS)
			goto bad;
		return 0;
	default:
		return 0;
	}
bad:
	drm_dbg(drm, "task %u: bad arguments for type %u\n", i, t->type);
	return -EINVAL;
}

/* Bytes of user task descriptors read at a time when the stride is not 64. */
#define VNPU_STRIDE_CHUNK	SZ_64K

int vnpu_batch_copy_tasks(struct drm_device *drm, struct vnpu_batch *batch,
			  u64 tasks, u32 count, u32 stride)
{
	const u8 __user *src = u64_to_user_ptr(tasks);
	u32 i, per, n, j;
	u8 *chunk;
	int ret = 0;

	/* count <= DRM_VNPU_MAX_TASKS: the product cannot overflow. */
	batch->tasks = vnpu_bufcache_get(batch->vfile,
					 (size_t)count * sizeof(*batch->tasks));
	if (!batch->tasks)
		return -ENOMEM;
	if (stride == sizeof(struct drm_vnpu_task)) {
		return vnpu_copy_in((u8 *)batch->tasks, src,
				    count * sizeof(*batch->tasks));
	}

	/*
	 * A larger stride: read the descriptors a chunk at a time, keep the
	 * known part and check that the rest is zero. The bounce buffer stays
	 * small whatever count and stride ask for (stride <= VNPU_MAX_STRIDE).
	 */
	per = VNPU_STRIDE_CHUNK / stride;
	chunk = kmalloc(per * stride, GFP_KERNEL_ACCOUNT);
	if (!chunk)
		return -ENOMEM;
	for (i = 0; i < count; i += n) {
		n = min(per, count - i);
		if (copy_from_user(chunk, src + (size_t)i * stride,
				   (size_t)n * stride)) {
			ret = -EFAULT;
			break;
		}
		for (j = 0; j < n; j++) {
			const u8 *t = chunk + (size_t)j * stride;

			memcpy(&batch->tasks[i + j], t, sizeof(batch->tasks[0]));
			if (!vnpu_all_zero(t + sizeof(batch->tasks[0]),
					   stride - sizeof(batch->tasks[0]))) {
				drm_dbg(drm, "task %u: unknown trailing fields set\n",
					i + j);
				ret = -EINVAL;
				goto out;
			}
		}
	}
out:
	kfree(chunk);
	return ret;
}

/**
 * vnpu_batch_create() - copy a batch in and validate it
 * @vfile: the file submitting it
 * @tasks: user pointer to the descriptors
 * @count: number of descriptors
 * @stride: bytes between descriptors
 * @args: user pointer to the argument block, or 0
 * @args_size: its size
 * @binding_count: size of the binding table its replays pass (0: the
 *	batch has no bindings; see DRM_VNPU_BINDING_VA)
 *
 * Return: the batch (one reference) or an ERR_PTR: -EINVAL for malformed
 * input, -EFAULT for bad pointers, -ENOMEM.
 */
struct vnpu_batch *vnpu_batch_create(struct vnpu_file *vfile, u64 tasks,
				     u32 count, u32 stride, u64 args,
				     u32 args_size, u32 binding_count)
{
	struct drm_device *drm = &vfile->vdev->drm;
	struct vnpu_batch *batch;
	int ret;

	if (!count || count > DRM_VNPU_MAX_TASKS) {
		drm_dbg(drm, "batch: task count %u out of range\n", count);
		return ERR_PTR(-EINVAL);
	}
	if (stride < sizeof(struct drm_vnpu_task) || stride > VNPU_MAX_STRIDE ||
	    stride % 8) {
		drm_dbg(drm, "batch: bad task stride %u\n", stride);
		return ERR_PTR(-EINVAL);
	}
	if (args_size > DRM_VNPU_MAX_ARGS_SIZE || args_size % 8 ||
	    !args != !args_size) {
		drm_dbg(drm, "batch: bad argument block\n");
		return ERR_PTR(-EINVAL);
	}

	batch = kzalloc(sizeof(*batch), GFP_KERNEL_ACCOUNT);
	if (!batch)
		return ERR_PTR(-ENOMEM);
	kref_init(&batch->ref);
	vnpu_file_get(vfile);
	batch->vfile = vfile;
	batch->count = count;
	batch->binding_count = binding_count;
	batch->args_size = args_size;
	batch->bytes = (u64)count * sizeof(*batch->tasks) + args_size;

	ret = vnpu_batch_copy_tasks(drm, batch, tasks, count, stride);
	if (ret)
		goto err_put;
	if (args_size) {
		batch->args = vnpu_bufcache_get(vfile, args_size);
		if (!batch->args) {
			ret = -ENOMEM;
			goto err_put;
		}
		ret = vnpu_copy_in(batch->args, u64_to_user_ptr(args),
				   args_size);
		if (ret)
			goto err_put;
	}
	ret = vnpu_batch_validate(drm, batch);
	if (ret)
		goto err_put;
	return batch;

err_put:
	vnpu_batch_put(batch);
	return ERR_PTR(ret);
}

/**
 * vnpu_batch_validate() - check every task of a batch copied in
 * @drm: the device, for debug messages
 * @batch: the batch, with its tasks, argument block and binding count
 *
 * CMDBUF_UPDATE checks a patched copy with it, exactly as a create would.
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int vnpu_batch_validate(struct drm_device *drm, struct vnpu_batch *batch)
{
	struct vnpu_op_call *scratch = NULL;	/* KERNEL checks share it */
	int ret = 0;
	u32 i;

	for (i = 0; i < batch->count && !ret; i++) {
		ret = vnpu_check_task(drm, i, &batch->tasks[i], batch->args,
				      batch->args_size, batch->binding_count,
				      &scratch);
		if (!ret && batch->tasks[i].type == DRM_VNPU_TASK_JUMP)
			ret = vnpu_check_jump(drm, i, &batch->tasks[i],
					      batch->count);
	}
	kfree(scratch);
	return ret;
}
