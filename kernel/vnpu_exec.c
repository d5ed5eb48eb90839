// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: task execution, on an engine's worker thread. Every address goes
 * through the submitting context's MMU when the task runs; a fault stops
 * the job with the task index, address, access and reason recorded.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/delay.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/unaligned.h>

#include "vnpu_drv.h"
#include "vnpu_gem.h"
#include "vnpu_job.h"
#include "vnpu_opcall.h"
#include "vnpu_prof.h"
#include "ops/vnpu_ops.h"

/* Work between checks for abort, progress and rescheduling. */
#define VNPU_EXEC_STEP		SZ_256K
/* WAIT_VALUE polling interval. */
#define VNPU_POLL_US		50

/* Translations an engine keeps during one slice of a job. */
#define VNPU_EXEC_TLB		8

/*
 * A cached translation: the mapping at @va is all of @bo, which stays
 * referenced (and mapped at @kva) while the entry lives.
 */
struct vnpu_tlb_entry {
	u64 va;
	u8 *kva;
	struct vnpu_bo *bo;
};

struct vnpu_exec {
	struct vnpu_engine *engine;
	struct vnpu_job *job;
	u32 index;		/* the task running */
	struct vnpu_bo *held[DRM_VNPU_MAX_TENSORS];
	u32 nheld;
	/*
	 * Like a device's IOTLB: consecutive tasks mostly touch the same
	 * few objects, and a hit skips the VA space lock, the interval tree
	 * walk and a reference pair. Entries are dropped when the file's
	 * vm_gen moves (a mapping went away), checked right before each
	 * task starts.
	 */
	struct vnpu_tlb_entry tlb[VNPU_EXEC_TLB];
	u32 ntlb;
	u32 tlb_next;		/* the entry replaced next when full */
	u64 tlb_gen;		/* the vm_gen the entries were made under */
	/* A KERNEL task's operator found bad values in its inputs. */
	u32 bad_data;
	/* The KERNEL task's tensors' spans, inputs and outputs. */
	u64 kernel_bytes;
	/* The task to run after this one: index + 1, or a JUMP's target. */
	u32 next;
	/* Tasks ended and bytes moved this slice, for the engine counters. */
	u64 tasks;
	u64 bytes;
};

/*
 * Mark progress and give the CPU away at a yield point: returns 0, an
 * errno that stops the job, or VNPU_JOB_YIELD (the caller records where
 * the task stands in job->task_pos and returns it).
 */
static int vnpu_exec_tick(struct vnpu_exec *x)
{
	atomic64_inc(&x->engine->progress);
	atomic64_inc(&x->job->progress);
	return vnpu_job_check(x->engine, x->job);
}

/*
 * A step of a task is done at @pos of @end: on a yield, remember @pos; a
 * yield after the last step is a finished task (the job yields after it).
 */
static int vnpu_exec_step(struct vnpu_exec *x, u64 pos, u64 end)
{
	int ret = vnpu_exec_tick(x);

	if (ret == VNPU_JOB_YIELD) {
		if (pos >= end)
			return 0;
		x->job->task_pos = pos;
	}
	return ret;
}

static void vnpu_exec_tlb_flush(struct vnpu_exec *x)
{
	while (x->ntlb)
		vnpu_bo_put(x->tlb[--x->ntlb].bo);
	x->tlb_next = 0;
}

/* Between tasks: forget every translation if a mapping went away. */
static void vnpu_exec_tlb_sync(struct vnpu_exec *x)
{
	u64 gen;

	/* Read after what the last task saw (a polled value, say). */
	smp_rmb();
	gen = READ_ONCE(x->job->vfile->vm_gen);
	if (gen != x->tlb_gen) {
		vnpu_exec_tlb_flush(x);
		x->tlb_gen = gen;
	}
}

static u8 *vnpu_exec_tlb_lookup(struct vnpu_exec *x, u64 va, u64 len,
				u32 access)
{
	u32 i;

	if (!len)
		return NULL;
	for (i = 0; i < x->ntlb; i++) {
		struct vnpu_tlb_entry *e = &x->tlb[i];
		u64 off = va - e->va;	/* huge when va is below the entry */

		/* The walk's own rules; anything else takes the walk. */
		if (vnpu_bo_access_fault(e->bo, off, len, access) ==
		    DRM_VNPU_FAULT_NONE)
			return e->kva + off;
	}
	return NULL;
}

/*
 * Cache @bo (its reference moves to the entry), mapped at @va. A replaced
 * entry's reference moves to the task's held list: the task may still be
 * using its address.
 */
static void vnpu_exec_tlb_insert(struct vnpu_exec *x, u64 va,
				 struct vnpu_bo *bo, u8 *kva)
{
	struct vnpu_tlb_entry *e;

	if (x->ntlb < VNPU_EXEC_TLB) {
		e = &x->tlb[x->ntlb++];
	} else {
		e = &x->tlb[x->tlb_next];
		x->tlb_next = (x->tlb_next + 1) % VNPU_EXEC_TLB;
		x->held[x->nheld++] = e->bo;
	}
	e->va = va;
	e->kva = kva;
	e->bo = bo;
}

/*
 * Translate [va, va + len) for access and return its kernel address; the
 * object stays referenced until the task ends (vnpu_exec_release()) or,
 * when cached, until the slice ends. A fault is recorded in the job.
 */
static void *vnpu_exec_map(struct vnpu_exec *x, u64 va, u64 len, u32 access)
{
	struct vnpu_job *job = x->job;
	struct vnpu_bo *bo;
	u32 reason;
	u64 off;
	u8 *kva;
	int ret;

	kva = vnpu_exec_tlb_lookup(x, va, len, access);
	if (kva)
		return kva;
	/* Each map adds at most one reference to the list. */
	if (WARN_ON(x->nheld == ARRAY_SIZE(x->held)))
		return ERR_PTR(-EIO);
	ret = vnpu_mmu_translate(job->vfile, va, len, access, &bo, &off,
				 &reason);
	if (ret) {
		job->rec.task = x->index;
		job->rec.va = va;
		job->rec.access = access;
		job->rec.reason = reason;
		return ERR_PTR(ret);
	}
	kva = vnpu_bo_kmap(bo);
	if (IS_ERR(kva)) {
		vnpu_bo_put(bo);
		return kva;
	}
	/*
	 * Only kernel-placed mappings are cached: one object each, so the
	 * entry's bounds are the object's. Reservations may join several.
	 */
	if (va < DRM_VNPU_VA_RESERVE_START)
		vnpu_exec_tlb_insert(x, va - off, bo, kva);
	else
		x->held[x->nheld++] = bo;
	return kva + off;
}

/*
 * The address a KERNEL tensor, COPY, COPY_2D or FILL field stands for: in
 * a replay with bindings, a DRM_VNPU_BINDING_VA is its table entry plus
 * the offset. A sum that overflows stays the reference itself, an address
 * nothing is ever mapped at, so the task faults there (UNMAPPED).
 */
static u64 vnpu_exec_resolve(const struct vnpu_exec *x, u64 va)
{
	const struct vnpu_job *job = x->job;
	u64 slot, sum;

	if (!job->bindings || !(va & DRM_VNPU_BINDING_FLAG))
		return va;
	slot = DRM_VNPU_BINDING_SLOT(va);
	/* CMDBUF_CREATE checked the slot; bound it again, it is cheap. */
	if (slot >= job->batch->binding_count ||
	    check_add_overflow(job->bindings[slot], DRM_VNPU_BINDING_OFFSET(va),
			       &sum))
		return va;
	return sum;
}

static void vnpu_exec_release(struct vnpu_exec *x)
{
	while (x->nheld)
		vnpu_bo_put(x->held[--x->nheld]);
}

/**
 * vnpu_copy_kernel() - copy between kernel addresses in plain 8-byte moves
 * @dst: destination
 * @src: source; may overlap @dst (the copy then runs backwards as needed)
 * @n: bytes
 *
 * String moves (what memcpy uses) are slow under QEMU's emulation.
 */
void vnpu_copy_kernel(void *dst, const void *src, size_t n)
{
	u8 *d = dst;
	const u8 *s = src;

	if (d > s && d < s + n) {
		memmove(dst, src, n);
		return;
	}
	for (; n >= 32; n -= 32, d += 32, s += 32) {
		u64 a = get_unaligned((const u64 *)s);
		u64 b = get_unaligned((const u64 *)(s + 8));
		u64 c = get_unaligned((const u64 *)(s + 16));
		u64 e = get_unaligned((const u64 *)(s + 24));

		put_unaligned(a, (u64 *)d);
		put_unaligned(b, (u64 *)(d + 8));
		put_unaligned(c, (u64 *)(d + 16));
		put_unaligned(e, (u64 *)(d + 24));
	}
	while (n--)
		*d++ = *s++;
}

static int vnpu_exec_copy(struct vnpu_exec *x, u64 src, u64 dst, u64 size)
{
	u8 *s, *d;
	u64 done, n;
	int ret;

	s = vnpu_exec_map(x, vnpu_exec_resolve(x, src), size,
			  DRM_VNPU_ACCESS_READ);
	if (IS_ERR(s))
		return PTR_ERR(s);
	d = vnpu_exec_map(x, vnpu_exec_resolve(x, dst), size,
			  DRM_VNPU_ACCESS_WRITE);
	if (IS_ERR(d))
		return PTR_ERR(d);
	if (d > s && d < s + size) {
		/* Overlapping forwards: one move, done backwards. */
		memmove(d, s, size);
		return 0;
	}
	for (done = x->job->task_pos; done < size; done += n) {
		n = min_t(u64, size - done, VNPU_EXEC_STEP);
		vnpu_copy_kernel(d + done, s + done, n);
		ret = vnpu_exec_step(x, done + n, size);
		if (ret)
			return ret;
	}
	return 0;
}

static int vnpu_exec_copy_2d(struct vnpu_exec *x, const struct drm_vnpu_task *t)
{
	u64 h = t->copy_2d.height, w = t->copy_2d.width;
	u64 src_len = (h - 1) * t->copy_2d.src_pitch + w;
	u64 dst_len = (h - 1) * t->copy_2d.dst_pitch + w;
	u8 *s, *d;
	u64 row;
	int ret;

	s = vnpu_exec_map(x, vnpu_exec_resolve(x, t->copy_2d.src), src_len,
			  DRM_VNPU_ACCESS_READ);
	if (IS_ERR(s))
		return PTR_ERR(s);
	d = vnpu_exec_map(x, vnpu_exec_resolve(x, t->copy_2d.dst), dst_len,
			  DRM_VNPU_ACCESS_WRITE);
	if (IS_ERR(d))
		return PTR_ERR(d);
	for (row = x->job->task_pos; row < h; row++) {
		vnpu_copy_kernel(d + row * t->copy_2d.dst_pitch,
				 s + row * t->copy_2d.src_pitch, w);
		if ((row & 63) == 63) {
			ret = vnpu_exec_step(x, row + 1, h);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int vnpu_exec_fill(struct vnpu_exec *x, const struct drm_vnpu_task *t)
{
	u32 ps = t->fill.pattern_size;
	u64 size = t->fill.size, done, n, i;
	u8 unit[8], *d;
	int ret;

	d = vnpu_exec_map(x, vnpu_exec_resolve(x, t->fill.dst), size,
			  DRM_VNPU_ACCESS_WRITE);
	if (IS_ERR(d))
		return PTR_ERR(d);
	/* The pattern's low bytes in memory order (little endian). */
	put_unaligned_le64(t->fill.pattern, unit);
	for (done = x->job->task_pos; done < size; done += n) {
		n = min_t(u64, size - done, VNPU_EXEC_STEP);
		if (ps == 1) {
			memset(d + done, unit[0], n);
		} else {
			for (i = 0; i < n; i += ps)
				memcpy(d + done + i, unit, ps);
		}
		ret = vnpu_exec_step(x, done + n, size);
		if (ret)
			return ret;
	}
	return 0;
}

static bool vnpu_wait_met(u64 m, u64 v, u32 cond)
{
	switch (cond) {
	case DRM_VNPU_WAIT_EQ:
		return m == v;
	case DRM_VNPU_WAIT_GEQ:
		return m >= v;
	case DRM_VNPU_WAIT_AND:
		return (m & v) != 0;
	default:
		return ~(m | v) != 0;
	}
}

/* A JUMP operand: 8 bytes, or 4 sign-extended, read through the MMU. */
static int vnpu_exec_jump_read(struct vnpu_exec *x, u64 va, u32 flags,
			       s64 *val)
{
	u32 len = flags & DRM_VNPU_JUMP_32BIT ? 4 : 8;
	void *p = vnpu_exec_map(x, va, len, DRM_VNPU_ACCESS_READ);

	if (IS_ERR(p))
		return PTR_ERR(p);
	smp_rmb();	/* after earlier tasks' writes, like WAIT_VALUE */
	if (len == 4)
		*val = (s32)get_unaligned((u32 *)p);
	else
		*val = (s64)get_unaligned((u64 *)p);
	return 0;
}

static bool vnpu_jump_met(s64 m, s64 v, u32 cond)
{
	switch (cond) {
	case DRM_VNPU_JUMP_EQ:
		return m == v;
	case DRM_VNPU_JUMP_NE:
		return m != v;
	case DRM_VNPU_JUMP_GT:
		return m > v;
	case DRM_VNPU_JUMP_GE:
		return m >= v;
	case DRM_VNPU_JUMP_LT:
		return m < v;
	case DRM_VNPU_JUMP_LE:
		return m <= v;
	default:
		return true;	/* DRM_VNPU_JUMP_ALWAYS */
	}
}

/*
 * Decide where the job goes on. A taken backward jump counts against
 * DRM_VNPU_MAX_JUMPS; the task loop ticks after every task, so a loop
 * still yields to other files' jobs and shows progress to hang checks.
 */
static int vnpu_exec_jump(struct vnpu_exec *x, const struct drm_vnpu_task *t)
{
	u32 flags = t->jump.flags;
	s64 m = 0, v = (s64)t->jump.value;
	int ret;

	if (t->jump.cond != DRM_VNPU_JUMP_ALWAYS) {
		ret = vnpu_exec_jump_read(x, t->jump.addr, flags, &m);
		if (!ret && (flags & DRM_VNPU_JUMP_VALUE_ADDR))
			ret = vnpu_exec_jump_read(x, t->jump.value, flags, &v);
		if (ret)
			return ret;
	}
	if (!vnpu_jump_met(m, v, t->jump.cond))
		return 0;
	if (t->jump.target <= x->index) {
		if (x->job->jumps >= DRM_VNPU_MAX_JUMPS) {
			drm_dbg(&x->engine->vdev->drm,
				"task %u: more than %u backward jumps\n",
				x->index, DRM_VNPU_MAX_JUMPS);
			return -ELOOP;
		}
		x->job->jumps++;
	}
	x->next = t->jump.target;
	return 0;
}

static int vnpu_exec_wait_value(struct vnpu_exec *x,
				const struct drm_vnpu_task *t)
{
	u64 timeout = t->value.timeout_ns ?: DRM_VNPU_MAX_WAIT_NS;
	u64 deadline, *p;
	int ret;

	/* A resumed wait keeps its deadline: time parked counts. */
	if (!x->job->task_deadline)
		x->job->task_deadline = ktime_get_ns() + timeout;
	deadline = x->job->task_deadline;
	p = vnpu_exec_map(x, t->value.addr, 8, DRM_VNPU_ACCESS_READ);
	if (IS_ERR(p))
		return PTR_ERR(p);
	/* While it polls, the job lets its own file's jobs have the engine. */
	WRITE_ONCE(x->job->waiting, true);
	for (;;) {
		if (vnpu_wait_met(READ_ONCE(*p), t->value.value, t->value.cond)) {
			ret = 0;
			break;
		}
		if (ktime_get_ns() >= deadline) {
			x->job->rec.task = x->index;
			x->job->rec.va = t->value.addr;
			ret = -ETIME;
			break;
		}
		/* Polling is the device being alive, not hung. */
		ret = vnpu_exec_tick(x);
		if (ret)
			break;	/* or a yield: resumed at the next poll */
		usleep_range(VNPU_POLL_US, 2 * VNPU_POLL_US);
	}
	/* A parked wait stays waiting: its file's jobs may run meanwhile. */
	if (ret != VNPU_JOB_YIELD)
		WRITE_ONCE(x->job->waiting, false);
	return ret;
}

static int vnpu_exec_spin(struct vnpu_exec *x, u64 ns)
{
	int ret;

	/* The end is fixed when the spin starts; a parked spin keeps it. */
	if (!x->job->task_deadline)
		x->job->task_deadline = ktime_get_ns() + ns;
	while (ktime_get_ns() < x->job->task_deadline) {
		/* Busy, but one task: no progress until it is done. */
		ret = vnpu_job_check(x->engine, x->job);
		if (ret)
			return ret;
		usleep_range(100, 200);
	}
	return 0;
}

static int vnpu_exec_hang(struct vnpu_exec *x)
{
	/* Fault injection: look busy, never progress, until aborted. */
	for (;;) {
		int ret = vnpu_job_check(x->engine, x->job);

		if (ret)
			return ret;
		usleep_range(1000, 2000);
	}
}

static int vnpu_exec_tick_cb(void *arg)
{
	struct vnpu_exec *x = arg;

	/* A piece reported bad data: stop handing out the others. */
	if (READ_ONCE(x->bad_data))
		return -EINVAL;
	return vnpu_exec_tick(x);
}

/* Same view of memory: same (resolved) address, dtype, shape, strides. */
static bool vnpu_same_view(const struct drm_vnpu_tensor *a, u64 a_va,
			   const struct drm_vnpu_tensor *b, u64 b_va)
{
	/* Validation made the entries past the rank zero. */
	return a_va == b_va && a->dtype == b->dtype && a->rank == b->rank &&
	       !memcmp(a->shape, b->shape, a->rank * sizeof(a->shape[0])) &&
	       !memcmp(a->strides, b->strides, a->rank * sizeof(a->strides[0]));
}

/*
 * An output may not overlap another output or an input: operators read
 * inputs while writing outputs, in any order. The one exception is an
 * elementwise operator writing exactly over one of its inputs (in place).
 */
static bool vnpu_kernel_aliasing_ok(u32 op,
				    const struct drm_vnpu_kernel_args *ka,
				    const u64 *va, u8 *const *base,
				    const u64 *span, u32 *bad_o, u32 *bad_i)
{
	u32 n = ka->num_inputs + ka->num_outputs, o, i;
	bool eltwise = op < DRM_VNPU_OP_CAST;

	for (o = ka->num_inputs; o < n; o++) {
		for (i = 0; i < n; i++) {
			if (i == o || !span[i] || !span[o] ||
			    base[i] >= base[o] + span[o] ||
			    base[o] >= base[i] + span[i])
				continue;
			if (i < ka->num_inputs && eltwise &&
			    vnpu_same_view(&ka->tensors[i], va[i],
					   &ka->tensors[o], va[o]))
				continue;
			*bad_o = o;
			*bad_i = i;
			return false;
		}
	}
	return true;
}

static int vnpu_exec_kernel(struct vnpu_exec *x, const struct drm_vnpu_task *t)
{
	const struct drm_vnpu_kernel_args *ka = x->job->batch->args +
						 t->kernel.args_offset;
	struct vnpu_op_call *call = x->engine->op_call;
	u32 i, n = ka->num_inputs + ka->num_outputs;
	/* Only the first n entries are written and read: no clearing. */
	u8 *base[DRM_VNPU_MAX_TENSORS] VNPU_NOINIT;
	u64 span[DRM_VNPU_MAX_TENSORS] VNPU_NOINIT;
	u64 va[DRM_VNPU_MAX_TENSORS] VNPU_NOINIT;
	u32 bad_o = 0, bad_i = 0;
	int ret;

	x->kernel_bytes = 0;
	vnpu_op_call_fill(call, t->kernel.op, ka);
	/* Every byte a tensor can reach must lie inside one object. */
	for (i = 0; i < n; i++) {
		const struct drm_vnpu_tensor *ts = &ka->tensors[i];
		u64 elems;
		void *p;

		/* Validation bounded it; the check costs nothing here. */
		if (vnpu_tensor_extent(ts, &span[i], &elems))
			return -EINVAL;
		va[i] = vnpu_exec_resolve(x, ts->va);
		base[i] = NULL;
		x->kernel_bytes += span[i];
		if (!span[i])
			continue;
		p = vnpu_exec_map(x, va[i], span[i], i < ka->num_inputs ?
				  DRM_VNPU_ACCESS_READ : DRM_VNPU_ACCESS_WRITE);
		if (IS_ERR(p))
			return PTR_ERR(p);
		call->t[i].data = p;
		base[i] = p;
	}
	if (!vnpu_kernel_aliasing_ok(t->kernel.op, ka, va, base, span,
				     &bad_o, &bad_i)) {
		drm_dbg(&x->engine->vdev->drm,
			"task %u (op %u): output %u [0x%llx, +%llu) overlaps tensor %u [0x%llx, +%llu)\n",
			x->index, t->kernel.op, bad_o, va[bad_o], span[bad_o],
			bad_i, va[bad_i], span[bad_i]);
		return -EINVAL;
	}
	x->bad_data = 0;
	call->bad_data = &x->bad_data;
	ret = vnpu_split_run(x->engine, call, x->job, vnpu_exec_tick_cb, x);
	call->bad_data = NULL;
	/*
	 * Every piece, helpers' included, has ended: a report made after
	 * the owner's last tick still fails the task, even one that yields.
	 */
	if (READ_ONCE(x->bad_data)) {
		drm_dbg(&x->engine->vdev->drm,
			"task %u: operator %u refused the values of its inputs\n",
			x->index, t->kernel.op);
		return -EINVAL;
	}
	return ret;
}

static int vnpu_exec_task(struct vnpu_exec *x, const struct drm_vnpu_task *t)
{
	u64 *p;

	switch (t->type) {
	case DRM_VNPU_TASK_NOP:
		return 0;
	case DRM_VNPU_TASK_COPY:
		return vnpu_exec_copy(x, t->copy.src, t->copy.dst, t->copy.size);
	case DRM_VNPU_TASK_COPY_2D:
		return vnpu_exec_copy_2d(x, t);
	case DRM_VNPU_TASK_FILL:
		return vnpu_exec_fill(x, t);
	case DRM_VNPU_TASK_TIMESTAMP:
		p = vnpu_exec_map(x, t->timestamp.dst, 8, DRM_VNPU_ACCESS_WRITE);
		if (IS_ERR(p))
			return PTR_ERR(p);
		put_unaligned(ktime_get_ns(), p);
		return 0;
	case DRM_VNPU_TASK_WRITE_VALUE:
		p = vnpu_exec_map(x, t->value.addr, 8, DRM_VNPU_ACCESS_WRITE);
		if (IS_ERR(p))
			return PTR_ERR(p);
		smp_mb();	/* earlier tasks' writes first */
		WRITE_ONCE(*p, t->value.value);
		return 0;
	case DRM_VNPU_TASK_WAIT_VALUE:
		return vnpu_exec_wait_value(x, t);
	case DRM_VNPU_TASK_KERNEL:
		return vnpu_exec_kernel(x, t);
	case DRM_VNPU_TASK_SPIN:
		return vnpu_exec_spin(x, t->spin.ns);
	case DRM_VNPU_TASK_JUMP:
		return vnpu_exec_jump(x, t);
	default:
		return -EIO;	/* validation keeps this from happening */
	}
}

/* Bytes task @t moved: what it wrote, or what its tensors span. */
static u64 vnpu_exec_bytes(const struct vnpu_exec *x,
			   const struct drm_vnpu_task *t)
{
	switch (t->type) {
	case DRM_VNPU_TASK_COPY:
		return t->copy.size;
	case DRM_VNPU_TASK_COPY_2D:
		return (u64)t->copy_2d.height * t->copy_2d.width;
	case DRM_VNPU_TASK_FILL:
		return t->fill.size;
	case DRM_VNPU_TASK_KERNEL:
		return x->kernel_bytes;
	default:
		return 0;
	}
}

/*
 * Task @i ended with @err: count it for the engine and, when the file
 * profiles, record it. Then forget its start, parks and pieces.
 */
static void vnpu_exec_task_end(struct vnpu_exec *x, u32 i, int err)
{
	struct vnpu_job *job = x->job;
	const struct drm_vnpu_task *t = &job->batch->tasks[i];
	u64 bytes = err ? 0 : vnpu_exec_bytes(x, t);

	x->tasks++;
	x->bytes += bytes;
	if (vnpu_prof_on(job->vfile))
		vnpu_prof_task(x->engine, job, i, t, err, bytes);
	job->task_start_ns = 0;
	job->task_parks = 0;
	job->task_pieces = 0;
}

/* The tasks of a slice, from where the last one stopped. */
static int vnpu_exec_tasks(struct vnpu_exec *x)
{
	struct vnpu_job *job = x->job;
	struct vnpu_knobs *knobs = &x->engine->vdev->knobs;
	u64 delay;
	int ret;
	u32 i;

	for (i = job->next_task; i < job->batch->count; i = x->next) {
		x->index = i;
		x->next = i + 1;
		if (job->inject_fault && i == 0) {
			job->rec.task = 0;
			job->rec.va = 0;
			job->rec.access = DRM_VNPU_ACCESS_READ;
			job->rec.reason = DRM_VNPU_FAULT_UNMAPPED;
			vnpu_exec_task_end(x, 0, -ENXIO);
			return -ENXIO;
		}
		delay = atomic64_read(&knobs->engine_delay_ns);
		if (delay && !job->task_pos && !job->task_deadline)
			usleep_range(div_u64(delay, 1000) + 1,
				     div_u64(delay, 1000) + 2);
		/*
		 * Right before the task, after every place the worker may
		 * have slept (the tick's cond_resched(), the delay knob): a
		 * task that starts after an unmap must not use its entry.
		 */
		vnpu_exec_tlb_sync(x);
		/* A resumed task keeps the start of its first slice. */
		if (vnpu_prof_on(job->vfile) && !job->task_start_ns)
			job->task_start_ns = ktime_get_ns();
		ret = vnpu_exec_task(x, &job->batch->tasks[i]);
		vnpu_exec_release(x);
		if (ret == VNPU_JOB_YIELD) {
			job->next_task = i;
			job->task_parks++;
			return ret;
		}
		job->task_pos = 0;
		job->task_deadline = 0;
		if (!ret)
			ret = vnpu_exec_tick(x);
		/* Stopped right after it ended: it fails as JOB_STATUS says. */
		vnpu_exec_task_end(x, i, ret == VNPU_JOB_YIELD ? 0 : ret);
		if (ret == VNPU_JOB_YIELD) {
			job->next_task = x->next;
			return x->next < job->batch->count ? ret : 0;
		}
		if (ret) {
			job->rec.task = i;
			return ret;
		}
	}
	return 0;
}

/**
 * vnpu_job_execute() - run a slice of a job: its tasks in order, from
 *	where the last slice stopped
 * @engine: the engine
 * @job: the job; its record gets the failing task on error
 *
 * Return: 0, -ENXIO (device page fault), -ETIME (WAIT_VALUE timeout, hung,
 * or longer than job_max_ms), -ECANCELED (queue in error, file closed),
 * -EIO, or VNPU_JOB_YIELD: the job is parked at job->next_task (and
 * job->task_pos, job->task_deadline within that task).
 */
int vnpu_job_execute(struct vnpu_engine *engine, struct vnpu_job *job)
{
	struct vnpu_exec x = { .engine = engine, .job = job };
	int ret;

	if (READ_ONCE(job->queue->error) || READ_ONCE(job->vfile->closed))
		return -ECANCELED;
	if (job->inject_hang)
		return vnpu_exec_hang(&x);
	x.tlb_gen = READ_ONCE(job->vfile->vm_gen);
	ret = vnpu_exec_tasks(&x);
	vnpu_exec_tlb_flush(&x);
	if (x.tasks) {
		atomic64_add(x.tasks, &engine->tasks_done);
		atomic64_add(x.bytes, &engine->bytes);
	}
	return ret;
}
