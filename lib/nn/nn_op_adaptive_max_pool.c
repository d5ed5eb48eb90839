/* SPDX-License-Identifier: MIT */
/*
 * AdaptiveMaxPool2d on the driver's N-d pool (POOL_ND). PyTorch's bin i
 * of a dim is [floor(i * in / out), ceil((i + 1) * in / out)).
 *  - H and W divisible by the output: equal windows with the stride of
 *    their size, one max POOL_ND with indices within the H x W plane
 *    (global max pooling is outputSize (1, 1)).
 *  - Otherwise the box maximum is taken as the maximum over the bin's
 *    rows of the row maxima over the bin's columns: a pass along W (each
 *    line [N, C * H, W], one task per bin on a sub-view, the index within
 *    the line plus the bin's start), a transposed copy, a pass along H the
 *    same way, then index = row * W + the column that row's maximum had
 *    (GATHER). The first maximum in row-major order wins, as PyTorch's.
 */
#include <string.h>

#include "nn_ops_common.h"
#include "nn_pool.h"
#include "aclnnop/aclnn_adaptive_max_pool2d.h"
#include "../core/prof_rt.h"

#define AMP_MAX_OUT	256	/* an uneven output dim: bounds the tasks */

/* A rank-3 view [a, b, c] of ref r with strides sa, sb, sc. */
static struct nn_ref view3(struct nn_ref r, int64_t a, int64_t b, int64_t c,
			   int64_t sa, int64_t sb, int64_t sc)
{
	r.rank = 3;
	r.shape[0] = a;
	r.shape[1] = b;
	r.shape[2] = c;
	r.strides[0] = sa;
	r.strides[1] = sb;
	r.strides[2] = sc;
	return r;
}

/* r (rank 4) with dims 2 and 3 swapped. */
static struct nn_ref swap23(struct nn_ref r)
{
	int64_t t;

	t = r.shape[2]; r.shape[2] = r.shape[3]; r.shape[3] = t;
	t = r.strides[2]; r.strides[2] = r.strides[3]; r.strides[3] = t;
	return r;
}

/* An INT64 rank-0 workspace constant. */
static struct nn_ref i64_const(aclOpExecutor *ex, int64_t v)
{
	struct drm_vnpu_op_attrs f = { 0 };
	struct nn_ref c = nn_ws(ex, ACL_INT64, 0, NULL);

	f.ints[0] = v;
	nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &c, &f);
	return c;
}

/*
 * Max over the adaptive bins of the last dim of the rank-3 view x into
 * vals and idx (rank 3, the bins last): idx is the position in the line.
 */
static int line_bins(aclOpExecutor *ex, struct nn_ref x, struct nn_ref vals,
		     struct nn_ref idx)
{
	struct drm_vnpu_op_attrs at = { 0 };
	int64_t in = x.shape[2], out = vals.shape[2], i;
	struct nn_ref o[2];
	int ret = 0;

	at.ints[16] = 1;	/* dilation */
	at.ints[19] = 1;	/* index within the line */
	for (i = 0; i < out && !ret; i++) {
		int64_t lo = i * in / out, hi = ((i + 1) * in + out - 1) / out;
		struct nn_ref src = x;

		src.off += lo * x.strides[2];
		src.shape[2] = hi - lo;
		o[0] = vals;
		o[0].off += i * vals.strides[2];
		o[0].shape[2] = 1;
		o[1] = idx;
		o[1].off += i * idx.strides[2];
		o[1].shape[2] = 1;
		at.ints[4] = hi - lo;
		at.ints[7] = 1;
		ret = nn_task(ex, DRM_VNPU_OP_POOL_ND, &src, 1, o, &at);
		if (!ret) {
			struct nn_task *t = &ex->tasks[ex->ntasks - 1];

			t->t[2] = o[1];
			t->nout = 2;
		}
		if (!ret && lo) {	/* local index + the bin's start */
			struct nn_ref in2[2] = { o[1], i64_const(ex, lo) };

			ret = nn_task(ex, DRM_VNPU_OP_ADD, in2, 2, &o[1], NULL);
		}
	}
	return ret;
}

/* The uneven-bin form (see the top of the file). */
static int uneven(aclOpExecutor *ex, const aclTensor *self, const int64_t *sd,
		  struct nn_ref x, struct nn_ref out, struct nn_ref idx,
		  int64_t oh, int64_t ow)
{
	int64_t n = sd[0], c = sd[1], h = sd[2];
	int64_t w = sd[3];
	int64_t s1[4] = { n, c, h, ow }, s2[4] = { n, c, ow, h };
	int64_t s3[4] = { n, c, ow, oh };
	uint32_t dt = self->dtype;
	struct nn_ref xc = x, v1, c1, v1t, c1t, v2, r2, g, in2[2];
	int ret = 0;

	/* lines of W: C and H must merge, else a contiguous copy first */
	if (x.strides[1] != h * x.strides[2]) {
		xc = nn_ws(ex, dt, 4, sd);
		ret = nn_task(ex, DRM_VNPU_OP_STRIDED_COPY, &x, 1, &xc, NULL);
	}
	v1 = nn_ws(ex, dt, 4, s1);
	c1 = nn_ws(ex, ACL_INT64, 4, s1);
	if (!ret)
		ret = line_bins(ex, view3(xc, n, c * h, w, xc.strides[0],
					  xc.strides[2], xc.strides[3]),
				view3(v1, n, c * h, ow, c * h * ow, ow, 1),
				view3(c1, n, c * h, ow, c * h * ow, ow, 1));
	/* rows last: [N, C, OW, H] */
	v1t = nn_ws(ex, dt, 4, s2);
	c1t = nn_ws(ex, ACL_INT64, 4, s2);
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_STRIDED_COPY, (struct nn_ref[]){ swap23(v1) },
			      1, &v1t, NULL);
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_STRIDED_COPY, (struct nn_ref[]){ swap23(c1) },
			      1, &c1t, NULL);
	v2 = nn_ws(ex, dt, 4, s3);
	r2 = nn_ws(ex, ACL_INT64, 4, s3);
	if (!ret)
		ret = line_bins(ex, view3(v1t, n, c * ow, h, c * ow * h, h, 1),
				view3(v2, n, c * ow, oh, c * ow * oh, oh, 1),
				view3(r2, n, c * ow, oh, c * ow * oh, oh, 1));
	/* the column the chosen row had: gather along H */
	g = nn_ws(ex, ACL_INT64, 4, s3);
	if (!ret) {
		struct drm_vnpu_op_attrs at = { 0 };

		at.ints[0] = 3;
		in2[0] = c1t;
		in2[1] = r2;
		ret = nn_task(ex, DRM_VNPU_OP_GATHER, in2, 2, &g, &at);
	}
	if (!ret) {		/* row * W + column */
		in2[0] = r2;
		in2[1] = i64_const(ex, w);
		ret = nn_task(ex, DRM_VNPU_OP_MUL, in2, 2, &r2, NULL);
	}
	if (!ret) {
		in2[0] = r2;
		in2[1] = g;
		ret = nn_task(ex, DRM_VNPU_OP_ADD, in2, 2, &r2, NULL);
	}
	/* back to [N, C, OH, OW] through the outputs' views */
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_STRIDED_COPY, &v2, 1,
			      (struct nn_ref[]){ swap23(out) }, NULL);
	if (!ret)
		ret = nn_task(ex, DRM_VNPU_OP_CAST, &r2, 1,
			      (struct nn_ref[]){ swap23(idx) }, NULL);
	return ret;
}

aclnnStatus aclnnAdaptiveMaxPool2dGetWorkspaceSize(const aclTensor *self,
						   const aclIntArray *outputSize,
						   aclTensor *outputOut,
						   aclTensor *indicesOut,
						   uint64_t *workspaceSize,
						   aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref in, o[2];
	const int64_t *os;
	int64_t shape[4], sd[4];
	aclOpExecutor *ex;
	uint64_t n;
	bool even = true;
	int i, ret;

	CHECK_T(self);
	CHECK_T(outputOut);
	CHECK_T(indicesOut);
	NEED(outputSize);
	NEED(workspaceSize);
	NEED(executor);
	if (!nn_dtype_is_float(self->dtype) || outputOut->dtype != self->dtype)
		return BAD("self and outputOut must have one float dtype");
	if (indicesOut->dtype != ACL_INT64 && indicesOut->dtype != ACL_INT32)
		return BAD("indicesOut must be INT64 or INT32");
	if (!nn_nchw_dims(self, sd))	/* (C, H, W) a batch of one */
		return BAD("self must be (N, C, H, W) or (C, H, W)");
	os = nn_int_array(outputSize, &n);
	if (n != 2)
		return BAD("outputSize takes 2 values");
	shape[0] = sd[0];
	shape[1] = sd[1];
	for (i = 0; i < 2; i++) {
		int64_t in_sz = sd[2 + i];

		if (os[i] < 1 || in_sz < 1 || in_sz > (1LL << 40))
			return BAD("outputSize must be positive, the input 1 .. 2^40");
		if (in_sz % os[i])
			even = false;
		shape[2 + i] = os[i];
	}
	if (!even && (shape[2] > AMP_MAX_OUT || shape[3] > AMP_MAX_OUT))
		return BAD("uneven bins: outputSize values must be at most %d",
			   AMP_MAX_OUT);
	for (i = 0; i < 2 && even; i++) {
		at.ints[4 + i] = sd[2 + i] / os[i];	/* window */
		at.ints[7 + i] = sd[2 + i] / os[i];	/* stride */
		at.ints[16 + i] = 1;				/* dilation */
	}
	if (!nn_dims_are(outputOut, self->ndim, shape + 4 - self->ndim) ||
	    !nn_dims_are(indicesOut, self->ndim, shape + 4 - self->ndim))
		return BAD("outputOut and indicesOut must be [N, C, %lld, %lld]",
			   (long long)shape[2], (long long)shape[3]);
	at.ints[0] = 0;		/* max */
	at.ints[19] = 1;	/* indices within the plane, as PyTorch */
	NEW_EX(ex);
	in = nn_batch1(nn_bind_tensor(ex, self, false));
	o[0] = nn_batch1(nn_bind_tensor(ex, outputOut, true));
	o[1] = nn_batch1(nn_bind_tensor(ex, indicesOut, true));
	if (!even)
		return nn_finish(func, ex, uneven(ex, self, sd, in, o[0], o[1],
						  shape[2], shape[3]),
				 workspaceSize, executor);
	ret = nn_task(ex, DRM_VNPU_OP_POOL_ND, &in, 1, o, &at);
	if (!ret) {		/* the second output */
		struct nn_task *t = &ex->tasks[ex->ntasks - 1];

		t->t[2] = o[1];
		t->nout = 2;
	}
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnAdaptiveMaxPool2d)
