/* SPDX-License-Identifier: MIT */
/*
 * Sliding-window operators of ggml's IM2COL and POOL_2D: Im2col (one
 * STRIDED_COPY per kernel tap, from a zero-padded copy of self: tap
 * (kh, kw) of every window is a strided view of the padded image) and
 * MaxPool (ONNX-style pads on POOL_ND).
 */
#include <string.h>

#include "nn_llm_index.h"
#include "nn_pool.h"
#include "aclnnop/aclnn_im2col.h"
#include "aclnnop/aclnn_max_pool.h"
#include "../core/prof_rt.h"

/* Bound for a kernel, stride, dilation or pad: products stay in int64. */
#define WIN_MAX		(1ll << 24)

/* ------------------------------------------------------------- im2col -- */

/* Windows along a dim: floor((n + 2p - d (k - 1) - 1) / s) + 1, or -1. */
static int64_t windows(int64_t n, int64_t k, int64_t d, int64_t p, int64_t s)
{
	int64_t span = n + 2 * p - d * (k - 1) - 1;

	return span < 0 ? -1 : span / s + 1;
}

aclnnStatus aclnnIm2colGetWorkspaceSize(const aclTensor *self,
					const aclIntArray *kernelSize,
					const aclIntArray *dilation,
					const aclIntArray *padding,
					const aclIntArray *stride,
					const aclTensor *out,
					uint64_t *workspaceSize,
					aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	const int64_t *k, *d, *p, *s;
	int64_t sd[4], ow[2], shape[3], pshape[4];
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in, o, src, dst;
	uint64_t nk, nd, np, ns, i;
	aclOpExecutor *ex;
	int ret = 0;
	int64_t a, b;

	CHECK_T_ANY(self);
	NEED(kernelSize);
	NEED(dilation);
	NEED(padding);
	NEED(stride);
	CHECK_T_ANY(out);
	NEED(workspaceSize);
	NEED(executor);
	if (!nn_nchw_dims(self, sd))
		return BAD("self must be (N, C, H, W) or (C, H, W)");
	k = nn_int_array(kernelSize, &nk);
	d = nn_int_array(dilation, &nd);
	p = nn_int_array(padding, &np);
	s = nn_int_array(stride, &ns);
	if (nk != 2 || nd != 2 || np != 2 || ns != 2)
		return BAD("kernelSize, dilation, padding and stride take 2 values each");
	for (i = 0; i < 2; i++) {
		if (k[i] < 1 || d[i] < 1 || s[i] < 1)
			return BAD("kernelSize, dilation and stride must be positive");
		if (p[i] < 0)
			return BAD("padding must not be negative");
		if (k[i] > WIN_MAX || d[i] > WIN_MAX || s[i] > WIN_MAX ||
		    p[i] > WIN_MAX)
			return BAD("kernelSize, dilation, stride or padding beyond %lld",
				   (long long)WIN_MAX);
		ow[i] = windows(sd[2 + i], k[i], d[i], p[i], s[i]);
		if (ow[i] < 0)
			return BAD("the window does not fit dim %llu",
				   (unsigned long long)(self->ndim - 2 + i));
	}
	if (out->dtype != self->dtype)
		return BAD("out must have self's dtype");
	shape[0] = sd[0];
	if (__builtin_mul_overflow(sd[1], k[0] * k[1], &shape[1]) ||
	    __builtin_mul_overflow(ow[0], ow[1], &shape[2]))
		return BAD("out would be too large");
	if (!nn_dims_are(out, self->ndim - 1, shape + (self->ndim == 3)))
		return BAD("out must be [%s%lld, %lld] for these windows",
			   self->ndim == 4 ? "N, " : "", (long long)shape[1],
			   (long long)shape[2]);
	NEW_EX(ex);
	in = nn_batch1(nn_bind_tensor(ex, self, false));
	o = nn_bind_tensor(ex, out, true);
	if (!li_numel(out))
		return nn_finish(func, ex, 0, workspaceSize, executor);
	if (o.rank == 2) {	/* a batch of one */
		o.shape[2] = o.shape[1];
		o.strides[2] = o.strides[1];
		o.shape[1] = o.shape[0];
		o.strides[1] = o.strides[0];
		o.shape[0] = 1;
		o.strides[0] = 0;
		o.rank = 3;
	}
	if (p[0] || p[1]) {	/* zero padding around the image */
		memcpy(pshape, in.shape, sizeof(pshape));
		for (i = 0; i < 2; i++) {
			pshape[2 + i] += 2 * p[i];
			at.ints[4 + 2 * i] = p[i];
			at.ints[5 + 2 * i] = p[i];
		}
		src = nn_ws(ex, self->dtype, 4, pshape);
		ret = nn_task(ex, DRM_VNPU_OP_PAD, &in, 1, &src, &at);
		in = src;
	}
	/* row c * kh * kw + tap of out, as [N, C, OH, OW] */
	for (a = 0; a < k[0] && !ret; a++) {
		for (b = 0; b < k[1] && !ret; b++) {
			src = in;
			src.shape[2] = ow[0];
			src.shape[3] = ow[1];
			src.strides[2] = in.strides[2] * s[0];
			src.strides[3] = in.strides[3] * s[1];
			src.off += a * d[0] * in.strides[2] + b * d[1] * in.strides[3];
			dst = o;
			dst.rank = 4;
			dst.shape[1] = sd[1];
			dst.shape[2] = ow[0];
			dst.shape[3] = ow[1];
			dst.strides[1] = o.strides[1] * k[0] * k[1];
			dst.strides[2] = o.strides[2] * ow[1];
			dst.strides[3] = o.strides[2];
			dst.off += (a * k[1] + b) * o.strides[1];
			ret = nn_task(ex, DRM_VNPU_OP_STRIDED_COPY, &src, 1, &dst, NULL);
		}
	}
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnIm2col)

/* ------------------------------------------------------------ max pool -- */

static bool mp_dtype(aclDataType dt)
{
	switch (dt) {
	case ACL_FLOAT16: case ACL_FLOAT: case ACL_BF16: case ACL_INT32:
	case ACL_INT64: case ACL_UINT8: case ACL_INT16: case ACL_INT8:
	case ACL_UINT16:
		return true;
	default:
		return false;
	}
}

/*
 * Output size along a dim: floor or ceil of the window count, less the
 * last window when it would start in the end padding or beyond.
 */
static int64_t mp_out(int64_t n, int64_t k, int64_t s, int64_t pb, int64_t pe,
		      bool ceil)
{
	int64_t span = n + pb + pe - (k - 1) - 1, o;

	if (span < 0)
		return -1;
	o = (ceil ? (span + s - 1) / s : span / s) + 1;
	if ((o - 1) * s >= n + pb)
		o--;
	/* POOL_ND takes the floor or the ceil count only */
	return o < span / s + 1 ? -1 : o;
}

aclnnStatus aclnnMaxPoolGetWorkspaceSize(const aclTensor *self,
					 const aclIntArray *kernelShape,
					 const aclIntArray *strides,
					 const int64_t autoPad,
					 const aclIntArray *pads,
					 const aclIntArray *dilations,
					 const int64_t ceilMode, aclTensor *out,
					 uint64_t *workspaceSize,
					 aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	int64_t sd[4], k[2], st[2], pb[2], pe[2], shape[4];
	struct drm_vnpu_op_attrs at = { 0 };
	const int64_t *kv, *sv, *pv, *dv;
	uint64_t nk, ns, np, nd, i;
	struct nn_ref in, o;
	aclOpExecutor *ex;

	CHECK_T_ANY(self);
	CHECK_T_ANY(out);
	NEED(kernelShape);
	NEED(workspaceSize);
	NEED(executor);
	if (!mp_dtype(self->dtype))
		return BAD("self's dtype %d is not supported", (int)self->dtype);
	if (out->dtype != self->dtype)
		return BAD("out must have self's dtype");
	if (!nn_nchw_dims(self, sd))
		return BAD("self must be (N, C, H, W) or (C, H, W)");
	kv = nn_int_array(kernelShape, &nk);
	sv = nn_int_array(strides, &ns);
	pv = nn_int_array(pads, &np);
	dv = nn_int_array(dilations, &nd);
	if (nk != 1 && nk != 2)
		return BAD("kernelShape takes 1 or 2 values");
	if (ns > 2)
		return BAD("strides takes 0, 1 or 2 values");
	if (autoPad != 0)
		return BAD("autoPad must be 0 (NOTSET)");
	if (np != 0 && np != 1 && np != 2 && np != 4)
		return BAD("pads takes 0, 1, 2 or 4 values");
	if (nd != 0 && nd != 1 && nd != 2 && nd != 4)
		return BAD("dilations takes 0, 1, 2 or 4 values");
	for (i = 0; i < nd; i++)
		if (dv[i] != 1)
			return BAD("dilations must be 1");
	for (i = 0; i < 2; i++) {
		k[i] = kv[nk == 2 ? i : 0];
		st[i] = ns ? sv[ns == 2 ? i : 0] : 1;
		/* 2: (h, w) both sides; 4: (top, left, bottom, right) */
		pb[i] = np ? pv[np == 1 ? 0 : i] : 0;
		pe[i] = np == 4 ? pv[2 + i] : pb[i];
		if (k[i] < 1 || k[i] > WIN_MAX)
			return BAD("kernelShape must be 1 .. %lld", (long long)WIN_MAX);
		if (st[i] < 1 || st[i] > WIN_MAX)
			return BAD("strides must be 1 .. %lld", (long long)WIN_MAX);
		if (pb[i] < 0 || pe[i] < 0 || pb[i] + pe[i] > k[i])
			return BAD("pads must not be negative nor add up to more than the kernel");
		shape[2 + i] = mp_out(sd[2 + i], k[i], st[i], pb[i], pe[i], ceilMode != 0);
		if (shape[2 + i] < 1)
			return BAD("no window fits spatial dim %llu", (unsigned long long)i);
		at.ints[4 + i] = k[i];
		at.ints[7 + i] = st[i];
		at.ints[10 + i] = pb[i];
		at.ints[13 + i] = pe[i];
		at.ints[16 + i] = 1;
	}
	shape[0] = sd[0];
	shape[1] = sd[1];
	if (!nn_dims_are(out, self->ndim, shape + 4 - self->ndim))
		return BAD("out must be [%lld, %lld, %lld, %lld] (no N for a 3-D self)",
			   (long long)shape[0], (long long)shape[1],
			   (long long)shape[2], (long long)shape[3]);
	NEW_EX(ex);
	in = nn_batch1(nn_bind_tensor(ex, self, false));
	o = nn_batch1(nn_bind_tensor(ex, out, true));
	if (!li_numel(out))
		return nn_finish(func, ex, 0, workspaceSize, executor);
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_POOL_ND, &in, 1, &o, &at),
			 workspaceSize, executor);
}
LAUNCH(aclnnMaxPool)
