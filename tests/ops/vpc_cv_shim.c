// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * DRM_VNPU_OP_VPC for C++ callers: the call assembled and run as the
 * module runs it (vnpu_op_check(), then every piece) with the host's
 * CPU features, on one scratch area kept between calls.
 */
#include <stdlib.h>
#include <string.h>

#include "vnpu_ops.h"
#include "vnpu_ops_host.h"
#include "vpc_cv_shim.h"

static void wrap(struct vnpu_tview *t, void *p, size_t bytes)
{
	memset(t, 0, sizeof(*t));
	t->data = p;
	t->dtype = DRM_VNPU_DTYPE_UINT8;
	t->rank = 1;
	t->shape[0] = (s64)bytes;
	t->strides[0] = 1;
}

int vpc_shim_run(const int64_t *ints, const uint32_t *floats, void *src,
		 size_t src_bytes, void *dst, size_t dst_bytes, uint64_t *pieces)
{
	static void *scratch;
	const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_VPC);
	struct vnpu_op_call c;
	u64 n, i;
	int ret;

	if (!scratch)
		scratch = aligned_alloc(64, VNPU_OPS_SCRATCH);
	if (!scratch || !impl)
		return -VNPU_OPS_EINVAL;
	memset(&c, 0, sizeof(c));
	c.op = DRM_VNPU_OP_VPC;
	c.num_in = 1;
	c.num_out = 1;
	c.has_attrs = 1;
	memcpy(c.attrs.ints, ints, sizeof(c.attrs.ints));
	memcpy(c.attrs.floats, floats, sizeof(c.attrs.floats));
	wrap(&c.t[0], src, src_bytes);
	wrap(&c.t[1], dst, dst_bytes);
	c.scratch = scratch;
	c.cpu = vnpu_ops_host_cpu();
	ret = vnpu_op_check(impl, &c);
	if (ret)
		return ret;
	n = impl->tiles(&c);
	for (i = 0; i < n; i++)
		impl->run(&c, i);
	if (pieces)
		*pieces = n;
	return 0;
}
