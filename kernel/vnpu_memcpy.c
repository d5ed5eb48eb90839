// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: DRM_IOCTL_VNPU_MEMCPY, the synchronous copy engine. The copy runs
 * in the caller's context right away: device addresses are translated by
 * the context's MMU and the bytes move with copy_{from,to}_user or memcpy
 * in 1 MiB steps, so a long copy stays preemptible and a fatal signal ends
 * it. It is not ordered against jobs: which BOs a job touches is known
 * only as its tasks run, so there is no fence to wait for; user space
 * waits for the jobs first (the queue's timeline), as ACL's runtime does.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/sched/signal.h>
#include <linux/sizes.h>
#include <linux/uaccess.h>
#include <drm/drm_file.h>
#include <uapi/drm/vnpu_accel.h>

#include "vnpu_drv.h"
#include "vnpu_gem.h"
#include "vnpu_job.h"

#define VNPU_COPY_STEP		SZ_1M

/* One device side of a copy: the object, and where the bytes are. */
struct vnpu_copy_side {
	struct vnpu_bo *bo;
	u8 *kva;
};

static int vnpu_copy_side_get(struct vnpu_file *vfile, u64 va, u64 len,
			      u32 access, struct vnpu_copy_side *side)
{
	struct vnpu_bo *bo;
	void *kva;
	u64 off;
	int ret;

	ret = vnpu_mmu_translate(vfile, va, len, access, &bo, &off, NULL);
	if (ret)
		return ret;
	kva = vnpu_bo_kmap(bo);
	if (IS_ERR(kva)) {
		vnpu_bo_put(bo);
		return PTR_ERR(kva);
	}
	side->bo = bo;
	side->kva = (u8 *)kva + off;
	return 0;
}

static void vnpu_copy_side_put(struct vnpu_copy_side *side)
{
	if (side->bo)
		vnpu_bo_put(side->bo);
}

/**
 * vnpu_copy_in() - copy_from_user() in 64-byte lines of plain moves
 * @dst: kernel destination, 8-byte aligned
 * @src: user source
 * @n: bytes
 *
 * String moves (what copy_from_user uses) are slow under QEMU's software
 * emulation, where vnpu mostly runs: there a `rep movsb` costs a trip
 * through the translator's loop per byte. Plain moves are fast there and
 * close to memory bandwidth on hardware. Used for aclrtMemcpy and for the
 * task and argument blocks every SUBMIT copies in.
 *
 * Each line is loaded in full before it is stored and the tail goes
 * through a bounce buffer, so a source that faults leaves the bytes of the
 * failing line and of the tail untouched: a bad pointer never scribbles
 * on the destination.
 *
 * Return: 0 or -EFAULT.
 */
int vnpu_copy_in(u8 *dst, const u8 __user *src, size_t n)
{
	size_t lines = n / 64, i;
	u8 tail[64];

	if (lines) {
		if (!user_access_begin(src, lines * 64))
			return -EFAULT;
		for (i = 0; i < lines; i++, dst += 64, src += 64) {
			const u64 __user *s = (const u64 __user *)src;
			u64 *d = (u64 *)dst, t[8];

			unsafe_get_user(t[0], &s[0], efault);
			unsafe_get_user(t[1], &s[1], efault);
			unsafe_get_user(t[2], &s[2], efault);
			unsafe_get_user(t[3], &s[3], efault);
			unsafe_get_user(t[4], &s[4], efault);
			unsafe_get_user(t[5], &s[5], efault);
			unsafe_get_user(t[6], &s[6], efault);
			unsafe_get_user(t[7], &s[7], efault);
			d[0] = t[0];
			d[1] = t[1];
			d[2] = t[2];
			d[3] = t[3];
			d[4] = t[4];
			d[5] = t[5];
			d[6] = t[6];
			d[7] = t[7];
		}
		user_access_end();
	}
	if (!(n % 64))
		return 0;
	if (copy_from_user(tail, src, n % 64))
		return -EFAULT;
	memcpy(dst, tail, n % 64);
	return 0;
efault:
	user_access_end();
	return -EFAULT;
}

static int vnpu_copy_out(u8 __user *dst, const u8 *src, size_t n)
{
	size_t lines = n / 64, i;

	if (lines) {
		if (!user_access_begin(dst, lines * 64))
			return -EFAULT;
		for (i = 0; i < lines; i++, dst += 64, src += 64) {
			u64 __user *d = (u64 __user *)dst;
			const u64 *s = (const u64 *)src;

			unsafe_put_user(s[0], &d[0], efault);
			unsafe_put_user(s[1], &d[1], efault);
			unsafe_put_user(s[2], &d[2], efault);
			unsafe_put_user(s[3], &d[3], efault);
			unsafe_put_user(s[4], &d[4], efault);
			unsafe_put_user(s[5], &d[5], efault);
			unsafe_put_user(s[6], &d[6], efault);
			unsafe_put_user(s[7], &d[7], efault);
		}
		user_access_end();
	}
	return copy_to_user(dst, src, n % 64) ? -EFAULT : 0;
efault:
	user_access_end();
	return -EFAULT;
}

static int vnpu_copy(u8 *dst_kva, void __user *dst_user, const u8 *src_kva,
		     const void __user *src_user, u64 size)
{
	u64 done, n;

	for (done = 0; done < size; done += n) {
		n = min_t(u64, size - done, VNPU_COPY_STEP);
		if (dst_kva && src_kva) {
			vnpu_copy_kernel(dst_kva + done, src_kva + done, n);
		} else if (dst_kva) {
			if (vnpu_copy_in(dst_kva + done, src_user + done, n))
				return -EFAULT;
		} else if (vnpu_copy_out(dst_user + done, src_kva + done, n)) {
			return -EFAULT;
		}
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	return 0;
}

int vnpu_memcpy_ioctl(struct drm_device *drm, void *data,
		      struct drm_file *file)
{
	struct drm_vnpu_memcpy *args = data;
	struct vnpu_file *vfile = file->driver_priv;
	struct vnpu_copy_side dst = {}, src = {};
	bool dst_dev = args->flags & DRM_VNPU_MEMCPY_DST_DEVICE;
	bool src_dev = args->flags & DRM_VNPU_MEMCPY_SRC_DEVICE;
	int ret;

	if (args->pad) {
		drm_dbg(drm, "memcpy: pad must be zero\n");
		return -EINVAL;
	}
	if (args->flags & ~DRM_VNPU_MEMCPY_FLAGS) {
		drm_dbg(drm, "memcpy: unknown flags 0x%x\n", args->flags);
		return -EINVAL;
	}
	if (!dst_dev && !src_dev) {
		drm_dbg(drm, "memcpy: host to host is not a device copy\n");
		return -EINVAL;
	}
	if (!args->size) {
		drm_dbg(drm, "memcpy: size is zero\n");
		return -EINVAL;
	}

	if (dst_dev) {
		ret = vnpu_copy_side_get(vfile, args->dst, args->size,
					 DRM_VNPU_ACCESS_WRITE, &dst);
		if (ret)
			return ret;
	}
	if (src_dev) {
		ret = vnpu_copy_side_get(vfile, args->src, args->size,
					 DRM_VNPU_ACCESS_READ, &src);
		if (ret)
			goto out_put;
	}
	if (dst_dev && src_dev && dst.kva < src.kva + args->size &&
	    src.kva < dst.kva + args->size) {
		drm_dbg(drm, "memcpy: source and destination overlap\n");
		ret = -EINVAL;
		goto out_put;
	}

	ret = vnpu_copy(dst.kva, u64_to_user_ptr(args->dst), src.kva,
			u64_to_user_ptr(args->src), args->size);
out_put:
	vnpu_copy_side_put(&src);
	vnpu_copy_side_put(&dst);
	return ret;
}
