/* SPDX-License-Identifier: MIT */
/*
 * aclrtReduceAsync: dst = dst op src as one KERNEL task of the device's
 * elementwise operators (ADD, MAXIMUM, MINIMUM), writing in place over
 * its first input, which the driver allows. Both ranges are flat
 * one-dimensional tensors of n elements.
 */
#include <errno.h>
#include <string.h>

#include "rt_objects.h"

int reduce_async(struct rt_stream *s, void *dst, const void *src,
		 uint64_t n, uint32_t op, uint32_t dtype)
{
	struct {
		struct drm_vnpu_kernel_args h;
		struct drm_vnpu_tensor t[3];
	} __attribute__((aligned(8))) a;
	const uint64_t va[3] = { (uintptr_t)dst, (uintptr_t)src, (uintptr_t)dst };

	memset(&a, 0, sizeof(a));
	a.h.num_inputs = 2;
	a.h.num_outputs = 1;
	for (int i = 0; i < 3; i++) {
		a.t[i].va = va[i];
		a.t[i].dtype = dtype;
		a.t[i].rank = 1;
		a.t[i].shape[0] = (int64_t)n;
		a.t[i].strides[0] = 1;
	}
	return stream_push_kernel(s, op, &a, sizeof(a), NULL);
}
