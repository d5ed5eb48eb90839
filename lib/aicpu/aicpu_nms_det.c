// SPDX-License-Identifier: MIT
/* NonMaxSuppression and Det. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "aicpu.h"
#include "aicpu_sort.h"

struct by_score {
	const struct aicpu_tensor *s;
	int64_t base;
};

/* Descending score; the sort is stable, so ties keep the lower index. */
static int score_cmp(const void *ctx, int64_t a, int64_t b)
{
	const struct by_score *k = ctx;
	double va = aicpu_get(k->s, k->base + a), vb = aicpu_get(k->s, k->base + b);

	return va > vb ? -1 : va < vb;
}

/* Box i of batch b as (y1, x1, y2, x2) with y1 <= y2, x1 <= x2. */
static void corners(const struct aicpu_tensor *bx, int64_t at, bool center,
		    double *o)
{
	double a = aicpu_get(bx, at), b = aicpu_get(bx, at + 1);
	double c = aicpu_get(bx, at + 2), d = aicpu_get(bx, at + 3);

	if (center) {	/* x_center, y_center, width, height */
		o[0] = b - d / 2;
		o[1] = a - c / 2;
		o[2] = b + d / 2;
		o[3] = a + c / 2;
		return;
	}
	o[0] = fmin(a, c);
	o[1] = fmin(b, d);
	o[2] = fmax(a, c);
	o[3] = fmax(b, d);
}

static double iou(const double *p, const double *q)
{
	double ih = fmin(p[2], q[2]) - fmax(p[0], q[0]);
	double iw = fmin(p[3], q[3]) - fmax(p[1], q[1]);
	double inter, uni;

	if (ih <= 0 || iw <= 0)
		return 0;
	inter = ih * iw;
	uni = (p[2] - p[0]) * (p[3] - p[1]) + (q[2] - q[0]) * (q[3] - q[1]) - inter;
	return uni > 0 ? inter / uni : 0;
}

/*
 * boxes [B, N, 4], scores [B, C, N], optional max_output_boxes_per_class,
 * iou_threshold, score_threshold -> selected [n, 3] (batch, class, box).
 * ints[0]: center_point_box.
 */
int aicpu_nms(struct aicpu_call *c)
{
	struct aicpu_tensor *bx = aicpu_in(c, 0), *sc = aicpu_in(c, 1);
	struct aicpu_tensor *mo = aicpu_in(c, 2), *it = aicpu_in(c, 3);
	struct aicpu_tensor *st = aicpu_in(c, 4), *y = aicpu_out(c, 0);
	int64_t B, N, C, maxo = 0, nsel = 0, *idx, *tmp, *sel;
	double thr = 0, *box, cap;
	int ret = 0;

	if (!bx || !sc || !y || bx->rank != 3 || sc->rank != 3 || bx->dims[2] != 4 ||
	    sc->dims[0] != bx->dims[0] || sc->dims[2] != bx->dims[1] || y->dtype != 9)
		return aicpu_fail(c, "boxes [B, N, 4], scores [B, C, N] and an INT64 output are required");
	B = bx->dims[0];
	N = bx->dims[1];
	C = sc->dims[1];
	if (mo && aicpu_numel(mo) >= 1)
		maxo = aicpu_get_int(mo, 0);
	if (it && aicpu_numel(it) >= 1)
		thr = aicpu_get(it, 0);
	if (maxo < 0)
		maxo = 0;
	if (maxo > N)
		maxo = N;
	cap = (double)y->cap / (3 * 8);
	idx = malloc(((size_t)N * 3 + 1) * sizeof(*idx) + (size_t)N * 4 * sizeof(*box) + 8);
	if (!idx)
		return aicpu_fail(c, "out of memory"), -ENOMEM;
	tmp = idx + N;
	sel = tmp + N;
	box = (double *)(sel + N + 1);
	for (int64_t b = 0; b < B; b++) {
		for (int64_t i = 0; i < N; i++)
			corners(bx, (b * N + i) * 4, c->ints[0], box + 4 * i);
		for (int64_t k = 0; k < C; k++) {
			struct by_score key = { sc, (b * C + k) * N };
			int64_t n = 0, m = 0;

			for (int64_t i = 0; i < N; i++)
				if (!st || aicpu_numel(st) < 1 ||
				    aicpu_get(sc, key.base + i) > aicpu_get(st, 0))
					idx[n++] = i;
			aicpu_sort_idx(idx, tmp, n, score_cmp, &key);
			for (int64_t i = 0; i < n && m < maxo; i++) {
				bool keep = true;

				for (int64_t j = 0; j < m && keep; j++)
					keep = iou(box + 4 * idx[i], box + 4 * sel[j]) <= thr;
				if (!keep)
					continue;
				sel[m++] = idx[i];
				if ((double)nsel + 1 > cap) {
					ret = aicpu_fail(c, "more boxes than the output holds");
					goto out;
				}
				aicpu_put_int(y, nsel * 3, b);
				aicpu_put_int(y, nsel * 3 + 1, k);
				aicpu_put_int(y, nsel * 3 + 2, idx[i]);
				nsel++;
			}
		}
	}
	ret = aicpu_set_dims(c, y, 2, (int64_t[]){ nsel, 3 });
out:
	free(idx);
	return ret;
}

/* Det: X [..., n, n] -> [...], by LU decomposition with partial pivoting. */
int aicpu_det(struct aicpu_call *c)
{
	struct aicpu_tensor *x = aicpu_in(c, 0), *y = aicpu_out(c, 0);
	int64_t n, batch;
	double *a;

	if (!x || !y || x->rank < 2 || x->dims[x->rank - 1] != x->dims[x->rank - 2] ||
	    !aicpu_dtype_float(x->dtype))
		return aicpu_fail(c, "needs a float X of square matrices");
	n = x->dims[x->rank - 1];
	if (n > 4096)
		return aicpu_fail(c, "%lld x %lld matrices are too large", (long long)n,
				  (long long)n);
	if (aicpu_set_dims(c, y, x->rank - 2, x->dims))
		return -EINVAL;
	batch = aicpu_numel(y);
	a = malloc((size_t)(n > 0 ? n * n : 1) * sizeof(*a));
	if (!a)
		return aicpu_fail(c, "out of memory"), -ENOMEM;
	for (int64_t m = 0; m < batch; m++) {
		double det = 1;

		for (int64_t i = 0; i < n * n; i++)
			a[i] = aicpu_get(x, m * n * n + i);
		for (int64_t k = 0; k < n && det != 0; k++) {
			int64_t p = k;

			for (int64_t i = k + 1; i < n; i++)
				if (fabs(a[i * n + k]) > fabs(a[p * n + k]))
					p = i;
			if (a[p * n + k] == 0) {
				det = 0;
				break;
			}
			if (p != k) {
				for (int64_t j = 0; j < n; j++) {
					double t = a[k * n + j];

					a[k * n + j] = a[p * n + j];
					a[p * n + j] = t;
				}
				det = -det;
			}
			det *= a[k * n + k];
			for (int64_t i = k + 1; i < n; i++) {
				double f = a[i * n + k] / a[k * n + k];

				for (int64_t j = k; j < n; j++)
					a[i * n + j] -= f * a[k * n + j];
			}
		}
		aicpu_put(y, m, det);
	}
	free(a);
	return 0;
}
