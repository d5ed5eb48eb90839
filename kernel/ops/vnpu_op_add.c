// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Elementwise addition. Built with the FPU enabled inside the module.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_ops.h"

void vnpu_op_add_f32(void *out, const void *a, const void *b, unsigned long n)
{
	const float *x = a, *y = b;
	float *z = out;
	unsigned long i;

	for (i = 0; i < n; i++)
		z[i] = x[i] + y[i];
}

void vnpu_op_add_i32(void *out, const void *a, const void *b, unsigned long n)
{
	const unsigned int *x = a, *y = b;
	unsigned int *z = out;
	unsigned long i;

	/* Unsigned arithmetic wraps without undefined behaviour. */
	for (i = 0; i < n; i++)
		z[i] = x[i] + y[i];
}
