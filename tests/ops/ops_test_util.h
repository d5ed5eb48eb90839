/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Helpers for host tests of the operator library: tensors with their own
 * buffers, a driver that runs a call through check/tiles/run exactly as
 * the module does, and comparison with tolerances per dtype.
 */
#ifndef VNPU_OPS_TEST_UTIL_H
#define VNPU_OPS_TEST_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vnpu_ops_impl.h"
#include "vnpu_ops_host.h"

/* A tensor and the buffer behind it. */
struct ot_tensor {
	struct vnpu_tview v;
	void *buf;
	size_t bytes;
};

/* Contiguous row-major tensor of @rank dims, zero-filled. */
static inline void ot_make(struct ot_tensor *t, u32 dtype, u32 rank,
			   const s64 *shape)
{
	s64 stride = 1;
	int d;

	memset(t, 0, sizeof(*t));
	t->v.dtype = dtype;
	t->v.rank = rank;
	for (d = (int)rank - 1; d >= 0; d--) {
		t->v.shape[d] = shape[d];
		t->v.strides[d] = stride;
		stride *= shape[d] ? shape[d] : 1;
	}
	t->bytes = (size_t)stride * vnpu_dtype_size(dtype) + 64;
	t->buf = calloc(1, t->bytes);
	t->v.data = t->buf;
}

static inline void ot_free(struct ot_tensor *t)
{
	free(t->buf);
	t->buf = NULL;
}

/* Deterministic pseudo-random numbers (xorshift), uniform in [lo, hi). */
static inline double ot_rand(u64 *state, double lo, double hi)
{
	u64 x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return lo + (hi - lo) * (double)(x >> 11) / 9007199254740992.0;
}

/* Fill every element a view reaches with random values in [lo, hi). */
static inline void ot_fill(struct ot_tensor *t, u64 seed, double lo, double hi)
{
	u64 n = vnpu_tview_elems(&t->v), i;
	u64 state = seed * 2654435761u + 1;
	s64 idx[VNPU_OPS_MAX_RANK] = { 0 };

	for (i = 0; i < n; i++) {
		s64 off = 0;
		int d;

		for (d = 0; d < (int)t->v.rank; d++)
			off += idx[d] * t->v.strides[d];
		if (vnpu_dtype_is_float(t->v.dtype) ||
		    t->v.dtype == DRM_VNPU_DTYPE_DOUBLE)
			vnpu_store_f64(t->v.data, t->v.dtype, off,
				       ot_rand(&state, lo, hi));
		else
			vnpu_store_s64(t->v.data, t->v.dtype, off,
				       (s64)floor(ot_rand(&state, lo, hi)));
		for (d = (int)t->v.rank - 1; d >= 0; d--) {
			if (++idx[d] < t->v.shape[d])
				break;
			idx[d] = 0;
		}
	}
}

/* Element at multi-index @idx of a view, as double. */
static inline double ot_get(const struct ot_tensor *t, const s64 *idx)
{
	s64 off = 0;
	u32 d;

	for (d = 0; d < t->v.rank; d++)
		off += idx[d] * t->v.strides[d];
	return vnpu_load_f64(t->v.data, t->v.dtype, off);
}

/* A call of op over the tensors (inputs then outputs) using scratch. */
static inline struct vnpu_op_call *
ot_call_new(u32 op, struct ot_tensor **ts, u32 nin, u32 nout,
	    const struct drm_vnpu_op_attrs *attrs, u32 cpu, void *scratch)
{
	struct vnpu_op_call *c = calloc(1, sizeof(*c));
	u32 k;

	if (!c)
		return NULL;
	c->op = op;
	c->num_in = nin;
	c->num_out = nout;
	c->cpu = cpu;
	c->scratch = scratch;
	if (attrs) {
		c->has_attrs = 1;
		c->attrs = *attrs;
	}
	/* The module maps nothing for a view without elements: NULL data. */
	for (k = 0; k < nin + nout; k++) {
		c->t[k] = ts[k]->v;
		if (vnpu_tview_empty(&c->t[k]))
			c->t[k].data = NULL;
	}
	return c;
}

/*
 * The same with scratch memory of its own, for calls whose pieces run on
 * several threads or stay around between runs; ot_call_free() frees both.
 */
static inline struct vnpu_op_call *
ot_call_own(u32 op, struct ot_tensor **ts, u32 nin, u32 nout,
	    const struct drm_vnpu_op_attrs *attrs, u32 cpu)
{
	void *scratch = aligned_alloc(64, VNPU_OPS_SCRATCH);
	struct vnpu_op_call *c = scratch ?
		ot_call_new(op, ts, nin, nout, attrs, cpu, scratch) : NULL;

	if (!c)
		free(scratch);
	return c;
}

static inline void ot_call_free(struct vnpu_op_call *c)
{
	if (c)
		free(c->scratch);
	free(c);
}

/*
 * Every piece of a split call, each phase's pieces from the last to the
 * first: the order must not change the result.
 */
static inline void ot_run_reversed(const struct vnpu_op_call *c)
{
	const struct vnpu_op_impl *impl = vnpu_op_find(c->op);
	u64 ends[VNPU_OPS_MAX_PHASES], start = 0, t;
	u32 n = vnpu_op_phases(impl, c, ends), ph;

	for (ph = 0; ph < n; start = ends[ph++])
		for (t = ends[ph]; t-- > start;)
			impl->run(c, t);
}

/*
 * Run op on the tensors (inputs then outputs) as the module would: check,
 * then every tile. Returns check()'s result, or -VNPU_OPS_EINVAL when a
 * piece reported bad data (vnpu_op_bad_data(): the module fails the task).
 */
static inline int ot_run(u32 op, struct ot_tensor **ts, u32 nin, u32 nout,
			 const struct drm_vnpu_op_attrs *attrs, u32 cpu)
{
	static void *scratch;
	const struct vnpu_op_impl *impl = vnpu_op_find(op);
	struct vnpu_op_call *c;
	u64 ends[VNPU_OPS_MAX_PHASES], i;
	u32 bad = 0;
	int ret;

	if (!scratch)
		scratch = aligned_alloc(64, VNPU_OPS_SCRATCH);
	c = impl ? ot_call_new(op, ts, nin, nout, attrs, cpu, scratch) : NULL;
	if (!c)
		return -VNPU_OPS_EINVAL;
	c->bad_data = &bad;
	ret = vnpu_op_check(impl, c);
	if (!ret) {
		/* The pieces the module runs: the end of the last phase. */
		u32 n = vnpu_op_phases(impl, c, ends);

		for (i = 0; i < ends[n - 1]; i++)
			impl->run(c, i);
		if (bad)
			ret = -VNPU_OPS_EINVAL;
	}
	free(c);
	return ret;
}

/* Relative tolerance that a dtype's results are held to. */
static inline double ot_tolerance(u32 dtype)
{
	switch (dtype) {
	case DRM_VNPU_DTYPE_FLOAT:
		return 1e-5;
	case DRM_VNPU_DTYPE_FLOAT16:
		return 1e-3;
	case DRM_VNPU_DTYPE_BF16:
		return 8e-3;
	default:
		return 0;	/* integers and bool: exact */
	}
}

/* |got - want| within tolerance (NaN matches NaN, Inf matches Inf). */
static inline int ot_close(double got, double want, double rtol, double atol)
{
	if (isnan(want))
		return isnan(got);
	if (isinf(want))
		return got == want;
	return fabs(got - want) <= atol + rtol * fabs(want);
}

/* Fused activation (DRM_VNPU_ATTR_ACT) into a set of attributes. */
static inline void ot_set_act(struct drm_vnpu_op_attrs *at, int act, float lo,
			      float hi)
{
	at->ints[DRM_VNPU_ATTR_ACT] = act;
	memcpy(&at->floats[DRM_VNPU_ATTR_ACT_LO], &lo, 4);
	memcpy(&at->floats[DRM_VNPU_ATTR_ACT_HI], &hi, 4);
}

/* The activation's definition: NaN passes, the bounds are inclusive. */
static inline double ot_act(double v, int act, float lo, float hi)
{
	if (act == DRM_VNPU_ACT_RELU)
		return v < 0 ? 0 : v;
	if (act == DRM_VNPU_ACT_CLIP)
		return v < lo ? lo : v > hi ? hi : v;
	return v;
}

/*
 * Compare every element of @fused (computed with the activation) with the
 * activation applied to @plain (the same call without it): they must be
 * equal exactly, since the fused form only moves the activation before the
 * store. With bounds representable in the output dtype, clipping commutes
 * with its rounding. Returns how many elements the activation changed, or
 * -1 - the index of the first mismatch.
 */
static inline long ot_act_compare(const struct ot_tensor *plain,
				  const struct ot_tensor *fused, int act,
				  float lo, float hi)
{
	u64 n = vnpu_tview_elems(&plain->v), i;
	s64 idx[VNPU_OPS_MAX_RANK] = { 0 };
	long changed = 0;

	for (i = 0; i < n; i++) {
		double p = ot_get(plain, idx), want = ot_act(p, act, lo, hi);
		double got = ot_get(fused, idx);
		int d;

		if (!(got == want || (isnan(got) && isnan(want))))
			return -1 - (long)i;
		changed += want != p;
		for (d = (int)plain->v.rank - 1; d >= 0; d--) {
			if (++idx[d] < plain->v.shape[d])
				break;
			idx[d] = 0;
		}
	}
	return changed;
}

#endif /* VNPU_OPS_TEST_UTIL_H */
