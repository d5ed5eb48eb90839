// SPDX-License-Identifier: MIT
/*
 * DFT and STFT (opset 17): complex values as a last dim of 2 (real,
 * imaginary), a last dim of 1 being real input. A direct O(n^2) transform
 * in double: the suite's signals are short, and the host op has no
 * scratch limits to respect.
 *
 * DFT ints: [0] the signal axis (of X's dims), [1] the transform length
 * (zero padding or truncation), [2] inverse, [3] onesided.
 * STFT ints: [0] frame step, [1] frame length, [2] onesided.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "aicpu.h"

/* Out[k] = sum_j in[j] e^(-+2 pi i jk / len) over len points of a fiber. */
static void transform(const struct aicpu_tensor *x, int64_t base, int64_t stride,
		      int64_t n, int64_t len, bool inverse, const struct aicpu_tensor *w,
		      struct aicpu_tensor *y, int64_t obase, int64_t ostride,
		      int64_t nout)
{
	bool cplx = x->dims[x->rank - 1] == 2;
	double sign = inverse ? 1 : -1;

	for (int64_t k = 0; k < nout; k++) {
		double re = 0, im = 0;

		for (int64_t j = 0; j < len && j < n; j++) {
			int64_t at = base + j * stride;
			double a = aicpu_get(x, at), b = cplx ? aicpu_get(x, at + 1) : 0;
			double ang = sign * 2 * M_PI * (double)((j * k) % len) / (double)len;
			double wj = w ? aicpu_get(w, j) : 1;

			re += wj * (a * cos(ang) - b * sin(ang));
			im += wj * (a * sin(ang) + b * cos(ang));
		}
		if (inverse) {
			re /= (double)len;
			im /= (double)len;
		}
		aicpu_put(y, obase + k * ostride, re);
		aicpu_put(y, obase + k * ostride + 1, im);
	}
}

int aicpu_dft(struct aicpu_call *c)
{
	struct aicpu_tensor *x = aicpu_in(c, 0), *y = aicpu_out(c, 0);
	int64_t axis = c->ints[0], len = c->ints[1], outer = 1, inner = 1, nout;
	int64_t dims[AICPU_MAX_RANK];

	if (!x || !y || x->rank < 2 || (x->dims[x->rank - 1] != 1 &&
					 x->dims[x->rank - 1] != 2) ||
	    !aicpu_dtype_float(x->dtype) || y->dtype != x->dtype)
		return aicpu_fail(c, "X [..., n, 1 or 2] of a float dtype and Y of its dtype are required");
	if (axis < 0 || axis >= (int64_t)x->rank - 1 || len < 1 || len > (1 << 24))
		return aicpu_fail(c, "axis %lld or length %lld", (long long)axis,
				  (long long)len);
	for (int64_t d = 0; d < axis; d++)
		outer *= x->dims[d];
	for (uint32_t d = (uint32_t)axis + 1; d < x->rank - 1; d++)
		inner *= x->dims[d];
	nout = c->ints[3] ? len / 2 + 1 : len;
	memcpy(dims, x->dims, sizeof(dims));
	dims[axis] = nout;
	dims[x->rank - 1] = 2;
	if (aicpu_set_dims(c, y, x->rank, dims))
		return -EINVAL;
	for (int64_t o = 0; o < outer; o++)
		for (int64_t i = 0; i < inner; i++) {
			int64_t xc = x->dims[x->rank - 1];

			transform(x, (o * x->dims[axis] * inner + i) * xc, inner * xc,
				  x->dims[axis], len, c->ints[2], NULL, y,
				  (o * nout * inner + i) * 2, inner * 2, nout);
		}
	return 0;
}

int aicpu_stft(struct aicpu_call *c)
{
	struct aicpu_tensor *x = aicpu_in(c, 0), *w = aicpu_in(c, 2);
	struct aicpu_tensor *y = aicpu_out(c, 0);
	int64_t step = c->ints[0], len = c->ints[1], frames, bins, xc;

	if (!x || !y || x->rank != 3 || (x->dims[2] != 1 && x->dims[2] != 2) ||
	    !aicpu_dtype_float(x->dtype) || y->dtype != x->dtype)
		return aicpu_fail(c, "signal [B, n, 1 or 2] of a float dtype and Y of its dtype are required");
	if (step < 1 || len < 1 || len > x->dims[1] || (w && (w->rank != 1 || w->dims[0] != len)))
		return aicpu_fail(c, "frame step %lld, frame length %lld or window do not fit",
				  (long long)step, (long long)len);
	frames = (x->dims[1] - len) / step + 1;
	bins = c->ints[2] ? len / 2 + 1 : len;
	xc = x->dims[2];
	if (aicpu_set_dims(c, y, 4, (int64_t[]){ x->dims[0], frames, bins, 2 }))
		return -EINVAL;
	for (int64_t b = 0; b < x->dims[0]; b++)
		for (int64_t f = 0; f < frames; f++)
			transform(x, (b * x->dims[1] + f * step) * xc, xc, len, len, false,
				  w, y, ((b * frames + f) * bins) * 2, 2, bins);
	return 0;
}
