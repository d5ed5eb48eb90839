/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * vnpu operator kernels: freestanding C, no libc and no kernel headers, so
 * the same files build as FPU units inside the module and natively on the
 * host for unit tests and benchmarks. Callers in the module run them
 * between kernel_fpu_begin() and kernel_fpu_end(), a tile at a time.
 * No float or double crosses this interface: data travels by pointer.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_OPS_H__
#define __VNPU_OPS_H__

/* out[i] = a[i] + b[i] for n elements of fp32. */
void vnpu_op_add_f32(void *out, const void *a, const void *b, unsigned long n);
/* out[i] = a[i] + b[i] for n elements of int32 (wrapping). */
void vnpu_op_add_i32(void *out, const void *a, const void *b, unsigned long n);

#endif /* __VNPU_OPS_H__ */
