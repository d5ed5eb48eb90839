// SPDX-License-Identifier: MIT
/*
 * The shape and attribute half of the paddings: ConstantPadNd
 * (nn_op_move.c) and ReflectionPad2d / ReplicationPad2d (nn_op_index.c)
 * differ only in which pads they allow and how many dims they reach.
 */
#include <string.h>

#include "nn_pad.h"

/*
 * Whether (before, after) suits a dim of size n: constant pads may be
 * negative and crop the dim (PyTorch's and CANN's ConstantPadNd), down to
 * nothing; the others are never negative; reflect mirrors inside the dim,
 * so each pad stays below n; edge repeats the border, so a dim that gets
 * padding must have one.
 */
static bool pad_fits(enum nn_pad_mode mode, int64_t before, int64_t after,
		     int64_t n)
{
	if (mode == NN_PAD_CONSTANT) {
		int64_t cb = before < 0 ? before : 0, ca = after < 0 ? after : 0;

		return cb >= -n && ca >= -n - cb;	/* no overflow */
	}
	if (before < 0 || after < 0)
		return false;
	if (mode == NN_PAD_REFLECT)
		return before < n && after < n;
	if (mode == NN_PAD_EDGE)
		return n || (!before && !after);
	return true;
}

aclnnStatus nn_pad_task(const char *func, const aclTensor *self,
			const int64_t *p, uint64_t npairs, aclTensor *out,
			enum nn_pad_mode mode, struct drm_vnpu_op_attrs *at,
			uint64_t *workspaceSize, aclOpExecutor **executor)
{
	int64_t shape[NN_MAX_RANK], crop[NN_MAX_RANK][2] = { { 0 } };
	uint64_t r = self->ndim, i;
	struct nn_ref in, o;
	aclOpExecutor *ex;

	memcpy(shape, self->dims, r * sizeof(int64_t));
	for (i = 0; i < npairs; i++) {
		uint64_t d = r - 1 - i;
		int64_t before = p[2 * i], after = p[2 * i + 1];

		if (!pad_fits(mode, before, after, self->dims[d]))
			return BAD("padding (%lld, %lld) does not fit dim %llu of %lld",
				   (long long)before, (long long)after,
				   (unsigned long long)d, (long long)self->dims[d]);
		/* Constant pads have no upper bound of their own. */
		if (__builtin_add_overflow(shape[d], before, &shape[d]) ||
		    __builtin_add_overflow(shape[d], after, &shape[d]))
			return BAD("padding (%lld, %lld) overflows dim %llu",
				   (long long)before, (long long)after,
				   (unsigned long long)d);
		/* a negative pad crops self's view instead */
		crop[d][0] = before < 0 ? -before : 0;
		crop[d][1] = after < 0 ? -after : 0;
		at->ints[2 * d] = before + crop[d][0];
		at->ints[2 * d + 1] = after + crop[d][1];
	}
	if (out->dtype != self->dtype || !nn_dims_are(out, r, shape))
		return BAD("out must have self's dtype and the padded shape");
	at->ints[16] = mode;
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	for (i = 0; i < r; i++) {
		in.off += crop[i][0] * in.strides[i];
		in.shape[i] -= crop[i][0] + crop[i][1];
	}
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_PAD, &in, 1, &o, at),
			 workspaceSize, executor);
}
