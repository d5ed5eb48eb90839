/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vnpu: the module's side of the operator library (kernel/ops).
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_OPCALL_H__
#define __VNPU_OPCALL_H__

#include <linux/types.h>
#include <uapi/drm/vnpu_accel.h>

struct vnpu_device;
struct vnpu_engine;
struct vnpu_job;
struct vnpu_op_call;
struct vnpu_op_impl;

/* vnpu_opcall.c */
int vnpu_ops_setup(const char *simd);
const char *vnpu_ops_simd_name(void);
u32 vnpu_ops_features(void);
struct vnpu_op_call *vnpu_op_call_alloc(void);
void vnpu_op_call_free(struct vnpu_op_call *call);
void vnpu_op_call_fill(struct vnpu_op_call *call, u32 op,
		       const struct drm_vnpu_kernel_args *ka);
int vnpu_ops_check(u32 op, const struct drm_vnpu_kernel_args *ka,
		   struct vnpu_op_call **scratch);
int vnpu_ops_prepare(struct vnpu_op_call *call,
		     const struct vnpu_op_impl **impl, u64 *ends);
void vnpu_ops_run_tile(const struct vnpu_op_impl *impl,
		       struct vnpu_op_call *call, u64 tile);

/* vnpu_split.c */
int vnpu_split_run(struct vnpu_engine *engine, struct vnpu_op_call *call,
		   struct vnpu_job *job, int (*tick)(void *arg), void *arg);
bool vnpu_split_help(struct vnpu_engine *engine);
bool vnpu_split_pending(struct vnpu_device *vdev);

/* vnpu_tensor.c */
int vnpu_tensor_extent(const struct drm_vnpu_tensor *t, u64 *bytes,
		       u64 *elems);

#endif /* __VNPU_OPCALL_H__ */
