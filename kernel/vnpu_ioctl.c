// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: the ioctl entry points. Driver ioctls go straight to drm_ioctl();
 * DRM core ioctls pass only when an accel client has a use for them.
 *
 * The core table was written for primary and render nodes. Some entries
 * that anybody may call (GET_MAGIC, GET_UNIQUE) dereference the file's
 * master, which accel files never have, and the syncobj array ioctls
 * kmalloc whatever count user space asks for. So vnpu keeps a short
 * allowlist, rejects every other core ioctl with -EOPNOTSUPP, and bounds
 * the syncobj counts and the number of syncobjs a file may make before
 * the core sees the call.
 *
 * The core copies the argument in again after this check: a second thread
 * rewriting count_handles in between gets past the bound, and the core's
 * allocation then fails with a one-time allocator warning. Closing that
 * needs the check in the core itself (see Documentation/security.md).
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/compat.h>
#include <linux/uaccess.h>
#include <drm/drm_file.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_print.h>
#include <uapi/drm/drm.h>

#include "vnpu_drv.h"

#define VNPU_CORE_NR(ioctl)	DRM_IOCTL_NR(DRM_IOCTL_##ioctl)

/* Handles one syncobj array ioctl may name (the core kmallocs them). */
#define VNPU_MAX_SYNC_HANDLES	4096
/* Syncobj handles a file may make (its queues' own ones not counted). */
#define VNPU_MAX_FILE_SYNCOBJS	16384

/*
 * Copy the first @size bytes of the argument as drm_ioctl() would see
 * them: an ioctl without _IOC_WRITE, or a shorter one, reads as zeros.
 */
static int vnpu_core_args(unsigned int cmd, unsigned long arg, void *buf,
			  size_t size)
{
	size_t n = min_t(size_t, _IOC_SIZE(cmd), size);

	memset(buf, 0, size);
	if (!(_IOC_DIR(cmd) & _IOC_WRITE) || !n)
		return 0;
	return copy_from_user(buf, (void __user *)arg, n) ? -EFAULT : 0;
}

static int vnpu_count_handles(unsigned int nr, unsigned int cmd,
			      unsigned long arg, u32 *count)
{
	union {
		struct drm_syncobj_wait wait;
		struct drm_syncobj_timeline_wait twait;
		struct drm_syncobj_array array;
		struct drm_syncobj_timeline_array tarray;
	} a;
	int ret;

	ret = vnpu_core_args(cmd, arg, &a, sizeof(a));
	if (ret)
		return ret;
	if (nr == VNPU_CORE_NR(SYNCOBJ_WAIT))
		*count = a.wait.count_handles;
	else if (nr == VNPU_CORE_NR(SYNCOBJ_TIMELINE_WAIT))
		*count = a.twait.count_handles;
	else if (nr == VNPU_CORE_NR(SYNCOBJ_QUERY) ||
		 nr == VNPU_CORE_NR(SYNCOBJ_TIMELINE_SIGNAL))
		*count = a.tarray.count_handles;
	else
		*count = a.array.count_handles;
	return 0;
}

/*
 * Syncobj handles made through the core ioctls are counted per file:
 * reserved before the call, returned when it fails or a handle is
 * destroyed. Queue syncobjs are not counted, so destroying one of those
 * never takes the count below zero.
 */
static int vnpu_syncobj_reserve(struct drm_file *file)
{
	struct vnpu_file *vfile = file->driver_priv;

	if (atomic_inc_return(&vfile->syncobjs) <= VNPU_MAX_FILE_SYNCOBJS)
		return 0;
	atomic_dec(&vfile->syncobjs);
	drm_dbg(file->minor->dev, "syncobj: the file holds %u syncobjs already\n",
		VNPU_MAX_FILE_SYNCOBJS);
	return -ENOSPC;
}

/*
 * Is core ioctl @nr allowed, and within bounds? Return 0 to pass it on,
 * or the errno to fail it with. *@reserved says a syncobj was reserved.
 */
static int vnpu_core_ioctl_check(struct file *filp, unsigned int cmd,
				 unsigned long arg, bool *reserved)
{
	struct drm_file *file = filp->private_data;
	unsigned int nr = DRM_IOCTL_NR(cmd);
	struct drm_syncobj_handle h;
	u32 count;
	int ret;

	switch (nr) {
	case VNPU_CORE_NR(VERSION):
	case VNPU_CORE_NR(GET_CAP):
	case VNPU_CORE_NR(GEM_CLOSE):
	case VNPU_CORE_NR(PRIME_HANDLE_TO_FD):
	case VNPU_CORE_NR(PRIME_FD_TO_HANDLE):
	case VNPU_CORE_NR(SYNCOBJ_DESTROY):
	case VNPU_CORE_NR(SYNCOBJ_HANDLE_TO_FD):
	case VNPU_CORE_NR(SYNCOBJ_TRANSFER):
		return 0;
	case VNPU_CORE_NR(SYNCOBJ_CREATE):
		ret = vnpu_syncobj_reserve(file);
		*reserved = !ret;
		return ret;
	case VNPU_CORE_NR(SYNCOBJ_FD_TO_HANDLE):
		ret = vnpu_core_args(cmd, arg, &h, sizeof(h));
		if (ret)
			return ret;
		/* Importing into an existing handle makes no new one. */
		if (h.flags & DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE)
			return 0;
		ret = vnpu_syncobj_reserve(file);
		*reserved = !ret;
		return ret;
	case VNPU_CORE_NR(SYNCOBJ_WAIT):
	case VNPU_CORE_NR(SYNCOBJ_TIMELINE_WAIT):
	case VNPU_CORE_NR(SYNCOBJ_RESET):
	case VNPU_CORE_NR(SYNCOBJ_SIGNAL):
	case VNPU_CORE_NR(SYNCOBJ_TIMELINE_SIGNAL):
	case VNPU_CORE_NR(SYNCOBJ_QUERY):
		ret = vnpu_count_handles(nr, cmd, arg, &count);
		if (ret)
			return ret;
		if (count > VNPU_MAX_SYNC_HANDLES) {
			drm_dbg(file->minor->dev,
				"syncobj ioctl 0x%02x: %u handles, at most %u\n",
				nr, count, VNPU_MAX_SYNC_HANDLES);
			return -EINVAL;
		}
		return 0;
	default:
		drm_dbg(file->minor->dev,
			"core ioctl 0x%02x is not available on accel nodes\n", nr);
		return -EOPNOTSUPP;
	}
}

static bool vnpu_driver_nr(unsigned int nr)
{
	return nr >= DRM_COMMAND_BASE && nr < DRM_COMMAND_END;
}

/* Settle the syncobj count once the core has run the ioctl. */
static void vnpu_core_ioctl_done(struct file *filp, unsigned int cmd,
				 bool reserved, long ret)
{
	struct drm_file *file = filp->private_data;
	struct vnpu_file *vfile = file->driver_priv;

	if (reserved && ret)
		atomic_dec(&vfile->syncobjs);
	else if (!ret && DRM_IOCTL_NR(cmd) == VNPU_CORE_NR(SYNCOBJ_DESTROY))
		atomic_dec_if_positive(&vfile->syncobjs);
}

/*
 * The filter around @core_ioctl (drm_ioctl or drm_compat_ioctl); @uarg is
 * the argument as a native pointer (the syncobj structures have the same
 * layout for 32-bit callers).
 */
static long vnpu_filtered_ioctl(struct file *filp, unsigned int cmd,
				unsigned long arg, unsigned long uarg,
				long (*core_ioctl)(struct file *, unsigned int,
						   unsigned long))
{
	bool reserved = false;
	long ret;

	if (vnpu_driver_nr(DRM_IOCTL_NR(cmd)))
		return core_ioctl(filp, cmd, arg);
	ret = vnpu_core_ioctl_check(filp, cmd, uarg, &reserved);
	if (ret)
		return ret;
	ret = core_ioctl(filp, cmd, arg);
	vnpu_core_ioctl_done(filp, cmd, reserved, ret);
	return ret;
}

/**
 * vnpu_ioctl() - file_operations.unlocked_ioctl
 * @filp: the accel file
 * @cmd: the ioctl
 * @arg: its argument
 *
 * Return: what the ioctl returns.
 */
long vnpu_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	return vnpu_filtered_ioctl(filp, cmd, arg, arg, drm_ioctl);
}

#ifdef CONFIG_COMPAT
/**
 * vnpu_compat_ioctl() - file_operations.compat_ioctl, the same filter
 * @filp: the accel file
 * @cmd: the ioctl
 * @arg: its argument
 *
 * Return: what the ioctl returns.
 */
long vnpu_compat_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	return vnpu_filtered_ioctl(filp, cmd, arg,
				   (unsigned long)compat_ptr(arg),
				   drm_compat_ioctl);
}
#endif
