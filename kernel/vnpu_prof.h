/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vnpu: profiling, the per-file record ring of DRM_IOCTL_VNPU_PROF_CTL.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_PROF_H__
#define __VNPU_PROF_H__

#include <linux/compiler.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

#include "vnpu_drv.h"

struct drm_device;
struct drm_file;
struct drm_vnpu_task;
struct vnpu_engine;
struct vnpu_job;

/*
 * Is profiling on for @vfile? The engines' only cost while it is off: one
 * load and a branch. The record functions look again under RCU.
 */
static inline bool vnpu_prof_on(const struct vnpu_file *vfile)
{
	return unlikely(!!rcu_access_pointer(vfile->prof));
}

int vnpu_prof_ctl_ioctl(struct drm_device *drm, void *data,
			struct drm_file *file);
void vnpu_prof_init(struct vnpu_file *vfile);
void vnpu_prof_fini(struct vnpu_file *vfile);
void vnpu_prof_task(struct vnpu_engine *engine, struct vnpu_job *job,
		    u32 index, const struct drm_vnpu_task *t, int err,
		    u64 bytes);
void vnpu_prof_job(struct vnpu_engine *engine, struct vnpu_job *job, int err,
		   u64 end);

#endif /* __VNPU_PROF_H__ */
