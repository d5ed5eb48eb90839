// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Pieces of whole output lines and requantization for the direct-loop
 * N-d operators.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_nd_util.h"

int vnpu_nd_split(struct vnpu_nd_split *s, u64 elems, s64 len, s64 work)
{
	s64 line_work;

	if (!vnpu_piece_fits((u64)len, (u64)work, 1))
		return -VNPU_OPS_EINVAL;
	line_work = len * work;		/* fits: checked just above */
	s->lines = len ? (s64)(elems / (u64)len) : 0;
	s->lpp = VNPU_ND_BUDGET / (line_work > 0 ? line_work : 1);
	if (s->lpp < 1)
		s->lpp = 1;
	return 0;
}

s64 vnpu_nd_requant8(double v, s64 zp, u32 dt)
{
	double lo = dt == DRM_VNPU_DTYPE_INT8 ? -128 : 0;
	double hi = dt == DRM_VNPU_DTYPE_INT8 ? 127 : 255;
	double f, r;

	/* clamp first: the cast to s64 below must not overflow (or NaN) */
	if (!(v >= -1e9))
		v = -1e9;
	if (v > 1e9)
		v = 1e9;
	f = (double)(s64)v;
	if (f > v)
		f -= 1;
	r = v - f;
	if (r > 0.5 || (r == 0.5 && ((s64)f & 1)))
		f += 1;
	f += (double)zp;
	return (s64)(f < lo ? lo : f > hi ? hi : f);
}
