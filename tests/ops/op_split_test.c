// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of long rows split into chunks (Documentation/ops.md, "Long
 * rows split across engines"): the phases a split call declares, the
 * chunk and combine math of softmax, log-softmax, layer norm, RMS norm and
 * the sums against double-precision references, max, min and the arg
 * forms against the unsplit walk, rows whose length is not a
 * multiple of the chunk, special values, results that are the same bits
 * whichever engines run which chunks (host threads and reversed piece
 * orders), and the new bounds on split rows.
 */
#include <float.h>
#include "ops_test_util.h"
#include "vnpu_ops_engines.h"
#include "vnpu_split_util.h"
#include "kselftest_harness.h"

#define CH	((s64)VNPU_SPLIT_CHUNK)

/* Reference softmax / log-softmax of one row in double. */
static void ref_softmax(const float *x, double *y, s64 n, bool lg)
{
	double m = -INFINITY, s = 0;
	s64 i;

	for (i = 0; i < n; i++)
		m = x[i] > m ? x[i] : m;
	for (i = 0; i < n; i++)
		s += exp((double)x[i] - m);
	for (i = 0; i < n; i++)
		y[i] = lg ? (double)x[i] - m - log(s) : exp((double)x[i] - m) / s;
}

TEST(phases_of_split_and_unsplit_rows)
{
	s64 shp[2] = { 3, 3 * CH + 123 };
	struct ot_tensor x, y, g, b, *ts[4] = { &x, &y };
	struct drm_vnpu_op_attrs at = { 0 };
	u64 ends[VNPU_OPS_MAX_PHASES];
	struct vnpu_op_call *c;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, shp);
	ot_make(&y, DRM_VNPU_DTYPE_FLOAT, 2, shp);
	/* Softmax: 3 rows of 4 chunks; chunks, then normalize. */
	at.ints[0] = -1;
	c = ot_call_own(DRM_VNPU_OP_SOFTMAX, ts, 1, 1, &at, 0);
	ASSERT_EQ(0, vnpu_op_check(vnpu_op_find(c->op), c));
	ASSERT_EQ(2, vnpu_op_phases(vnpu_op_find(c->op), c, ends));
	EXPECT_EQ(12, ends[0]);
	EXPECT_EQ(24, ends[1]);
	EXPECT_EQ(24, vnpu_op_find(c->op)->tiles(c));
	ot_call_free(c);
	/* Layer norm with gamma and beta: three phases. */
	ot_make(&g, DRM_VNPU_DTYPE_FLOAT, 1, &shp[1]);
	ot_make(&b, DRM_VNPU_DTYPE_FLOAT, 1, &shp[1]);
	ts[1] = &g;
	ts[2] = &b;
	ts[3] = &y;
	c = ot_call_own(DRM_VNPU_OP_LAYER_NORM, ts, 3, 1, &at, 0);
	ASSERT_EQ(0, vnpu_op_check(vnpu_op_find(c->op), c));
	ASSERT_EQ(3, vnpu_op_phases(vnpu_op_find(c->op), c, ends));
	EXPECT_EQ(12, ends[0]);
	EXPECT_EQ(24, ends[1]);
	EXPECT_EQ(36, ends[2]);
	ot_call_free(c);
	/* A reduction to one value per row: chunks, then one piece a row. */
	ts[1] = &y;
	at.ints[0] = 2;
	at.ints[1] = 1;
	ot_free(&y);
	shp[1] = 1;
	ot_make(&y, DRM_VNPU_DTYPE_FLOAT, 2, shp);
	c = ot_call_own(DRM_VNPU_OP_REDUCE_SUM, ts, 1, 1, &at, 0);
	ASSERT_EQ(0, vnpu_op_check(vnpu_op_find(c->op), c));
	ASSERT_EQ(2, vnpu_op_phases(vnpu_op_find(c->op), c, ends));
	EXPECT_EQ(12, ends[0]);
	EXPECT_EQ(15, ends[1]);
	ot_call_free(c);
	/* REDUCE_MAX is split the same way; REDUCE_PROD is not. */
	c = ot_call_own(DRM_VNPU_OP_REDUCE_MAX, ts, 1, 1, &at, 0);
	ASSERT_EQ(0, vnpu_op_check(vnpu_op_find(c->op), c));
	ASSERT_EQ(2, vnpu_op_phases(vnpu_op_find(c->op), c, ends));
	EXPECT_EQ(12, ends[0]);
	EXPECT_EQ(15, ends[1]);
	ot_call_free(c);
	c = ot_call_own(DRM_VNPU_OP_REDUCE_PROD, ts, 1, 1, &at, 0);
	ASSERT_EQ(0, vnpu_op_check(vnpu_op_find(c->op), c));
	EXPECT_EQ(1, vnpu_op_phases(vnpu_op_find(c->op), c, ends));
	EXPECT_EQ(3, ends[0]);
	ot_call_free(c);
	/* A row of one chunk is not split. */
	ot_free(&x);
	ot_free(&y);
	shp[1] = CH;
	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, shp);
	ot_make(&y, DRM_VNPU_DTYPE_FLOAT, 2, shp);
	at.ints[0] = -1;
	at.ints[1] = 0;
	c = ot_call_own(DRM_VNPU_OP_SOFTMAX, ts, 1, 1, &at, 0);
	EXPECT_EQ(1, vnpu_op_phases(vnpu_op_find(c->op), c, ends));
	EXPECT_EQ(3, ends[0]);
	ot_call_free(c);
	/* Strided rows keep the unsplit path. */
	y.v.strides[1] = 2;
	y.v.strides[0] = 2 * CH;
	c = ot_call_own(DRM_VNPU_OP_SOFTMAX, ts, 1, 1, &at, 0);
	EXPECT_EQ(1, vnpu_op_phases(vnpu_op_find(c->op), c, ends));
	ot_call_free(c);
	ot_free(&x);
	ot_free(&y);
	ot_free(&g);
	ot_free(&b);
}

/* Softmax and log-softmax rows of 1, 2 and 4 chunks against double. */
TEST(softmax_long_rows_against_double)
{
	static const s64 lens[] = { CH + 1, 2 * CH, 3 * CH + 123 };
	struct drm_vnpu_op_attrs at = { 0 };
	u32 cpus[3] = { 0, vnpu_ops_host_cpu() & VNPU_CPU_AVX2_FMA,
			vnpu_ops_host_cpu() };
	u32 li, ci, lg;

	at.ints[0] = 1;
	for (li = 0; li < 3; li++)
	for (ci = 0; ci < 3; ci++)
	for (lg = 0; lg < 2; lg++) {
		s64 shp[2] = { 2, lens[li] }, i, r, bad = 0;
		struct ot_tensor x, y, *ts[2] = { &x, &y };
		double *ref = malloc(sizeof(double) * lens[li]), sum;

		ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, shp);
		ot_make(&y, DRM_VNPU_DTYPE_FLOAT, 2, shp);
		ot_fill(&x, 7 + li, -20, 20);
		ASSERT_EQ(0, ot_run(lg ? DRM_VNPU_OP_LOG_SOFTMAX :
				    DRM_VNPU_OP_SOFTMAX, ts, 1, 1, &at,
				    cpus[ci]));
		for (r = 0; r < 2; r++) {
			const float *xr = (float *)x.buf + r * lens[li];
			const float *yr = (float *)y.buf + r * lens[li];

			ref_softmax(xr, ref, lens[li], lg);
			sum = 0;
			for (i = 0; i < lens[li]; i++) {
				if (!ot_close(yr[i], ref[i], 4e-6, lg ? 4e-6 : 0))
					bad++;
				sum += lg ? exp(yr[i]) : yr[i];
			}
			EXPECT_TRUE(fabs(sum - 1.0) < 1e-5) TH_LOG("sum %.9g", sum);
		}
		EXPECT_EQ(0, bad) TH_LOG("len %lld cpu %u log %u", (long long)lens[li],
					 cpus[ci], lg);
		free(ref);
		ot_free(&x);
		ot_free(&y);
	}
}

/*
 * A row with NaN, one with +Inf, one of only -Inf (all NaN), and one
 * whose second chunk is all -Inf (zeros there, the rest sums to 1).
 */
TEST(softmax_split_special_values)
{
	s64 len = 3 * CH + 5, shp[2] = { 4, len }, i;
	struct ot_tensor x, y, *ts[2] = { &x, &y };
	float *xv, *yv;
	double sum = 0;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, shp);
	ot_make(&y, DRM_VNPU_DTYPE_FLOAT, 2, shp);
	ot_fill(&x, 3, -5, 5);
	xv = x.buf;
	xv[2 * CH + 9] = NAN;
	xv[len + 3 * CH + 1] = INFINITY;
	for (i = 0; i < len; i++)
		xv[2 * len + i] = -INFINITY;
	for (i = CH; i < 2 * CH; i++)
		xv[3 * len + i] = -INFINITY;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_SOFTMAX, ts, 1, 1, NULL,
			    vnpu_ops_host_cpu()));
	yv = y.buf;
	for (i = 0; i < 3 * len; i++)
		ASSERT_TRUE(isnan(yv[i])) TH_LOG("element %lld", (long long)i);
	for (i = 0; i < len; i++) {
		if (i >= CH && i < 2 * CH) {
			ASSERT_EQ(0.0f, yv[3 * len + i]);
		} else {
			ASSERT_GT(yv[3 * len + i], 0.0f);
		}
		sum += yv[3 * len + i];
	}
	EXPECT_TRUE(fabs(sum - 1.0) < 1e-5) TH_LOG("sum %.9g", sum);
	ot_free(&x);
	ot_free(&y);
}

/* Layer norm (gamma, beta) and RMS norm (gamma) of long rows. */
TEST(layer_rms_norm_long_rows_against_double)
{
	s64 len = 2 * CH + 77, shp[2] = { 3, len }, i, r, bad = 0;
	struct ot_tensor x, y, g, b, *ts[4] = { &x, &g, &b, &y };
	struct drm_vnpu_op_attrs at = { 0 };
	u32 rms;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, shp);
	ot_make(&y, DRM_VNPU_DTYPE_FLOAT, 2, shp);
	ot_make(&g, DRM_VNPU_DTYPE_FLOAT, 1, &shp[1]);
	ot_make(&b, DRM_VNPU_DTYPE_FLOAT, 1, &shp[1]);
	ot_fill(&x, 11, 3, 9);		/* a large mean: the two-pass variance */
	ot_fill(&g, 12, 0.5, 1.5);
	ot_fill(&b, 13, -1, 1);
	at.ints[0] = 1;
	for (rms = 0; rms < 2; rms++) {
		if (rms)
			ts[2] = &y;
		ASSERT_EQ(0, ot_run(rms ? DRM_VNPU_OP_RMS_NORM :
				    DRM_VNPU_OP_LAYER_NORM, ts, rms ? 2 : 3, 1,
				    &at, vnpu_ops_host_cpu()));
		for (r = 0; r < 3; r++) {
			const float *xr = (float *)x.buf + r * len;
			const float *yr = (float *)y.buf + r * len;
			const float *gv = g.buf, *bv = b.buf;
			double m = 0, v = 0, inv;

			for (i = 0; i < len; i++)
				m += xr[i];
			m /= len;
			for (i = 0; i < len; i++)
				v += rms ? (double)xr[i] * xr[i] :
				     (xr[i] - m) * (xr[i] - m);
			inv = rms ? 1 / sqrt(v / len + 1e-6f) :
			      1 / sqrt(v / len + 1e-5f);
			for (i = 0; i < len; i++) {
				double want = rms ? xr[i] * inv * gv[i] :
					      (xr[i] - m) * inv * gv[i] + bv[i];

				if (!ot_close(yr[i], want, 2e-6, 2e-6))
					bad++;
			}
		}
		EXPECT_EQ(0, bad) TH_LOG("rms %u", rms);
	}
	ot_free(&x);
	ot_free(&y);
	ot_free(&g);
	ot_free(&b);
}

/* Sums to one value and to one value per row, against double. */
/*
 * Layer norm's and RMS norm's vector loops (squared deviations, the
 * normalized output) give the plain C loops' bits, with and without gamma
 * and beta, for a row whose chunks end off the vector width.
 */
TEST(layer_rms_norm_same_bits_in_every_variant)
{
	s64 len = 2 * CH + 13, shp[2] = { 2, len }, i;
	u32 cpus[3] = { 0, vnpu_ops_host_cpu() & VNPU_CPU_AVX2_FMA,
			vnpu_ops_host_cpu() };
	struct ot_tensor x, y[3], g, b;
	struct drm_vnpu_op_attrs at = { 0 };
	u32 form, ci, op, nin;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, shp);
	ot_make(&g, DRM_VNPU_DTYPE_FLOAT, 1, &shp[1]);
	ot_make(&b, DRM_VNPU_DTYPE_FLOAT, 1, &shp[1]);
	for (ci = 0; ci < 3; ci++)
		ot_make(&y[ci], DRM_VNPU_DTYPE_FLOAT, 2, shp);
	ot_fill(&x, 21, -3, 7);
	ot_fill(&g, 22, 0.5, 1.5);
	ot_fill(&b, 23, -1, 1);
	at.ints[0] = 1;
	/* Layer norm with gamma and beta, with gamma; RMS norm with, without. */
	for (form = 0; form < 4; form++) {
		op = form < 2 ? DRM_VNPU_OP_LAYER_NORM : DRM_VNPU_OP_RMS_NORM;
		nin = form == 0 ? 3 : form == 3 ? 1 : 2;
		for (ci = 0; ci < 3; ci++) {
			struct ot_tensor *ts[4] = { &x, &g, &b, &y[ci] };

			ts[nin] = &y[ci];
			memset(y[ci].buf, 0, 2 * len * sizeof(float));
			ASSERT_EQ(0, ot_run(op, ts, nin, 1, &at, cpus[ci]));
		}
		for (ci = 1; ci < 3; ci++)
			for (i = 0; i < 2 * len; i++)
				ASSERT_EQ(((u32 *)y[0].buf)[i], ((u32 *)y[ci].buf)[i])
					TH_LOG("form %u cpu %u element %lld", form,
					       cpus[ci], (long long)i);
		EXPECT_NE(0.0f, ((float *)y[0].buf)[len + 5]);
	}
	for (ci = 0; ci < 3; ci++)
		ot_free(&y[ci]);
	ot_free(&x);
	ot_free(&g);
	ot_free(&b);
}

/*
 * The exp-and-sum's order (vnpu_split_util.h), from the exps stored: lane
 * j adds y[16 b + j] in float over groups of VNPU_SPLIT_SUM_GROUP blocks,
 * each group widened into the lane's double; lanes in order, then the
 * tail.
 */
static double ref_expsum_order(const float *y, s64 n)
{
	s64 blocks = n / 16, b, k, i;
	double lanes[16] = { 0 }, s = 0;
	int j;

	for (b = 0; b < blocks; b += VNPU_SPLIT_SUM_GROUP)
		for (j = 0; j < 16; j++) {
			float f = 0;

			for (k = b; k < b + VNPU_SPLIT_SUM_GROUP && k < blocks;
			     k++)
				f += y[16 * k + j];
			lanes[j] += f;
		}
	for (j = 0; j < 16; j++)
		s += lanes[j];
	for (i = 16 * blocks; i < n; i++)
		s += y[i];
	return s;
}

/*
 * The chunk exp of every variant within 2 ulp of exp in double over
 * [-87, 0] (and 0 at -Inf); the fused exp-and-sum stores the same bits as
 * the plain exp and sums them in the documented order, bit for bit (so
 * every variant groups alike, the short last group included), within
 * (group - 1) * 2^-24 of their sum in double.
 */
TEST(split_exp_within_2ulp_every_variant)
{
	enum { N = 1 << 16 };
	u32 cpus[3] = { 0, vnpu_ops_host_cpu() & VNPU_CPU_AVX2_FMA,
			vnpu_ops_host_cpu() };
	float *x = malloc(N * sizeof(float)), *y = malloc(N * sizeof(float));
	float *z = malloc(N * sizeof(float));
	double worst, ulp, ref, sum, dsum;
	u32 ci;
	s64 i;

	for (i = 0; i < N; i++)
		x[i] = -87.0f * (float)i / (N - 3);
	x[N - 2] = -INFINITY;
	x[N - 1] = -0.0f;
	for (ci = 0; ci < 3; ci++) {
		worst = 0;
		dsum = 0;
		vnpu_split_exp_f32(x, y, N - 5, 0.0f, cpus[ci]);
		vnpu_split_exp_f32(x + N - 5, y + N - 5, 5, 0.0f, cpus[ci]);
		for (i = 0; i < N; i++) {
			if (x[i] == -INFINITY) {
				ASSERT_EQ(0.0f, y[i]);
				continue;
			}
			ref = exp((double)x[i]);
			ulp = ldexp(1.0, ilogb(ref) - 23);
			worst = fmax(worst, fabs(y[i] - ref) / ulp);
			dsum += y[i];
		}
		EXPECT_LE(worst, 2.0) TH_LOG("cpu %u: %.3f ulp", cpus[ci], worst);
		EXPECT_GT(worst, 0.0);
		/* 5 elements at the end: a tail after the lanes. */
		sum = vnpu_split_expsum_f32(x, z, N - 5, 0.0f, cpus[ci]);
		sum += vnpu_split_expsum_f32(x + N - 5, z + N - 5, 5, 0.0f,
					     cpus[ci]);
		ASSERT_EQ(0, memcmp(y, z, N * sizeof(float))) TH_LOG("cpu %u",
								 cpus[ci]);
		ref = ref_expsum_order(z, N - 5) +
		      ref_expsum_order(z + N - 5, 5);
		EXPECT_TRUE(sum == ref)
			TH_LOG("cpu %u: %.17g vs %.17g", cpus[ci], sum, ref);
		EXPECT_TRUE(fabs(sum - dsum) <=
			    (VNPU_SPLIT_SUM_GROUP - 1) * 0x1p-24 * dsum)
			TH_LOG("cpu %u: %.17g vs %.17g", cpus[ci], sum, dsum);
	}
	free(x);
	free(y);
	free(z);
}

/*
 * Below -87 (results under the normal range): every variant gives a value
 * in [0, exp(-87)] and 0 at -Inf; the AVX-512 exp scales with vscalefps,
 * so its subnormal results are within 2 units of 2^-149 of exp in double
 * and it gives 0 from about -104 on, down to -Inf.
 */
TEST(split_exp_below_the_normal_range)
{
	enum { N = 4099 };
	u32 cpus[3] = { 0, vnpu_ops_host_cpu() & VNPU_CPU_AVX2_FMA,
			vnpu_ops_host_cpu() };
	float *x = malloc(N * sizeof(float)), *y = malloc(N * sizeof(float));
	double top = exp(-87.0) * (1 + 0x1p-21), worst;
	u32 ci;
	s64 i, subnormal;

	for (i = 0; i < N - 3; i++)
		x[i] = -87.0f - 40.0f * (float)i / (N - 4);
	x[N - 3] = -1e30f;
	x[N - 2] = -FLT_MAX;
	x[N - 1] = -INFINITY;
	for (ci = 0; ci < 3; ci++) {
		vnpu_split_exp_f32(x, y, N, 0.0f, cpus[ci]);
		worst = 0;
		subnormal = 0;
		for (i = 0; i < N; i++) {
			ASSERT_TRUE(y[i] >= 0.0f && y[i] <= top)
				TH_LOG("cpu %u: exp(%.9g) = %g", cpus[ci], x[i],
				       y[i]);
			if (x[i] < -104.0f)
				continue;
			worst = fmax(worst, fabs(y[i] - exp((double)x[i])));
			subnormal += y[i] > 0.0f && y[i] < FLT_MIN;
		}
		EXPECT_EQ(0.0f, y[N - 1]);
		if (!(cpus[ci] & VNPU_CPU_AVX512))
			continue;
		EXPECT_LE(worst, 0x1p-148) TH_LOG("%g", worst / 0x1p-149);
		EXPECT_GT(subnormal, 1000);
		for (i = 0; i < N; i++)
			if (x[i] < -104.0f)
				ASSERT_EQ(0.0f, y[i]) TH_LOG("at %.9g", x[i]);
	}
	free(x);
	free(y);
}

/*
 * Log-softmax's output loop gives the plain C loop's bits in every
 * variant, for lengths off the vector widths.
 */
TEST(split_logsm_same_bits_in_every_variant)
{
	enum { N = 1000 };
	u32 cpus[3] = { 0, vnpu_ops_host_cpu() & VNPU_CPU_AVX2_FMA,
			vnpu_ops_host_cpu() };
	float x[N], y[3][N];
	u32 ci;
	s64 i;

	for (i = 0; i < N; i++)
		x[i] = (float)sin((double)i) * 30.0f;
	for (ci = 0; ci < 3; ci++) {
		memset(y[ci], 0, sizeof(y[ci]));
		vnpu_split_logsm_f32(x, y[ci], N - 3, 29.7, -6.9077552789821368,
				     cpus[ci]);
		ASSERT_EQ(0.0f, y[ci][N - 3]);
	}
	for (i = 0; i < N - 3; i++) {
		ASSERT_EQ((float)(((double)x[i] - 29.7) - 6.9077552789821368),
			  y[0][i]);
		for (ci = 1; ci < 3; ci++)
			ASSERT_EQ(*(u32 *)&y[0][i], *(u32 *)&y[ci][i])
				TH_LOG("cpu %u element %lld", cpus[ci],
				       (long long)i);
	}
}

TEST(reduce_sums_long_rows_against_double)
{
	static const u32 ops[] = {
		DRM_VNPU_OP_REDUCE_SUM, DRM_VNPU_OP_REDUCE_MEAN,
		DRM_VNPU_OP_REDUCE_SUM_SQUARE, DRM_VNPU_OP_REDUCE_L2,
	};
	s64 len = 5 * CH + 7, shp[2] = { 3, len }, one = 1, i, r;
	struct ot_tensor x, y, *ts[2] = { &x, &y };
	struct drm_vnpu_op_attrs at = { 0 };
	u32 k;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, shp);
	ot_fill(&x, 21, -1, 3);
	for (k = 0; k < 4; k++) {
		double want[3], all = 0;

		for (r = 0; r < 3; r++) {
			const float *xr = (float *)x.buf + r * len;

			want[r] = 0;
			for (i = 0; i < len; i++)
				want[r] += k >= 2 ? (double)xr[i] * xr[i] : xr[i];
			all += want[r];
		}
		/* Every dim: one value of 3 * len elements. */
		ot_make(&y, DRM_VNPU_DTYPE_FLOAT, 0, NULL);
		ASSERT_EQ(0, ot_run(ops[k], ts, 1, 1, NULL, vnpu_ops_host_cpu()));
		if (ops[k] == DRM_VNPU_OP_REDUCE_MEAN)
			all /= 3 * len;
		if (ops[k] == DRM_VNPU_OP_REDUCE_L2)
			all = sqrt(all);
		EXPECT_TRUE(ot_close(*(float *)y.buf, all, 1e-6, 0))
			TH_LOG("op %u: %.9g vs %.9g", ops[k], *(float *)y.buf, all);
		ot_free(&y);
		/* Dim 1: one value a row, kept as [3, 1]. */
		shp[1] = 1;
		ot_make(&y, DRM_VNPU_DTYPE_FLOAT, 2, shp);
		shp[1] = len;
		at.ints[0] = 2;
		at.ints[1] = 1;
		ASSERT_EQ(0, ot_run(ops[k], ts, 1, 1, &at, 0));
		for (r = 0; r < 3; r++) {
			double w = want[r];

			if (ops[k] == DRM_VNPU_OP_REDUCE_MEAN)
				w /= len;
			if (ops[k] == DRM_VNPU_OP_REDUCE_L2)
				w = sqrt(w);
			EXPECT_TRUE(ot_close(((float *)y.buf)[r], w, 1e-6, 0))
				TH_LOG("op %u row %lld", ops[k], (long long)r);
		}
		ot_free(&y);
	}
	/* The sum of squares is the same bits with and without AVX2. */
	ot_make(&y, DRM_VNPU_DTYPE_FLOAT, 0, &one);
	{
		float a, b;

		ASSERT_EQ(0, ot_run(DRM_VNPU_OP_REDUCE_SUM_SQUARE, ts, 1, 1, NULL, 0));
		a = *(float *)y.buf;
		ASSERT_EQ(0, ot_run(DRM_VNPU_OP_REDUCE_SUM_SQUARE, ts, 1, 1, NULL,
				    vnpu_ops_host_cpu()));
		b = *(float *)y.buf;
		EXPECT_EQ(0, memcmp(&a, &b, 4));
	}
	ot_free(&y);
	ot_free(&x);
}

/*
 * The unsplit walk of one row (vnpu_op_reduce.c): the element kept by
 * max (want_max) or min, NaN winning, ties to the first or, for the arg
 * forms with select_last_index, to the last.
 */
static s64 ref_extreme(const float *x, s64 n, bool want_max, bool last)
{
	s64 i, best = 0;
	bool nan = x[0] != x[0];

	for (i = 1; i < n; i++) {
		if (x[i] != x[i]) {
			if (!nan || last)
				best = i;
			nan = true;
			continue;
		}
		if (nan)
			continue;
		if ((want_max ? x[i] > x[best] : x[i] < x[best]) ||
		    (last && x[i] == x[best]))
			best = i;
	}
	return best;
}

/* Set row xr of len elements to test pattern kind (positions mod len). */
static void extreme_pattern(float *xr, s64 len, int kind, s64 r)
{
	s64 i;

	switch (kind) {
	case 1:	/* equal extremes in chunks 0, 2 and 3 of a long row */
		xr[5 % len] = xr[(2 * CH + 9) % len] = xr[len - 1] = 500;
		xr[7 % len] = xr[(2 * CH + 11) % len] = 500;
		xr[len > 2 ? len - 2 : 0] = -500;
		xr[(CH + 1) % len] = -500;
		break;
	case 2:	/* zeros of both signs only */
		for (i = 0; i < len; i++)
			xr[i] = (i * 7 + r) % 5 ? 0.0f : -0.0f;
		break;
	case 3:	/* NaNs in chunks 1 and 3, an Inf in chunk 0 */
		xr[(CH + 3) % len] = NAN;
		xr[(3 * CH + 5) % len] = -NAN;
		xr[1 % len] = r ? -INFINITY : INFINITY;
		break;
	case 4:	/* every element -Inf, or +Inf */
		for (i = 0; i < len; i++)
			xr[i] = r ? INFINITY : -INFINITY;
		break;
	case 5:	/* the extremes near the end (a long row's short last chunk) */
		xr[len > 3 ? len - 3 : 0] = 1000;
		xr[len > 4 ? len - 4 : 0] = -1000;
		break;
	}
}

/*
 * Max, min, argmax and argmin of contiguous fp32 rows, split (more than
 * one chunk) or not: the same element (bits and index) as the unsplit
 * walk, for random rows, ties (across chunks), rows of zeros of both
 * signs, NaNs, infinities, both select_last_index values, with and
 * without the vector loops; and the same bits again when the row is read
 * through a stride, which takes the generic walk.
 */
TEST(extremes_same_as_unsplit_walk)
{
	static const u32 ops[] = {
		DRM_VNPU_OP_REDUCE_MAX, DRM_VNPU_OP_REDUCE_MIN,
		DRM_VNPU_OP_ARGMAX, DRM_VNPU_OP_ARGMIN,
	};
	static const s64 lens[] = { 3 * CH + 77, 1001, 33, 1 };
	const s64 rows = 2;
	u32 cpus[2] = { 0, vnpu_ops_host_cpu() };
	struct drm_vnpu_op_attrs at = { 0 };

	for (u32 li = 0; li < ARRAY_SIZE(lens); li++) {
		const s64 len = lens[li];
		s64 shp[2] = { rows, len }, oshp[2] = { rows, 1 }, r, i;
		struct ot_tensor x, xs, y, *ts[2] = { &x, &y };
		u32 nph = len > CH ? 2 : 1;

		ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, shp);
		/* The same rows every other element of a twice as long buffer. */
		shp[1] = 2 * len;
		ot_make(&xs, DRM_VNPU_DTYPE_FLOAT, 2, shp);
		xs.v.shape[1] = len;
		xs.v.strides[1] = 2;
		for (int kind = 0; kind < 6; kind++) {
			float *xf = (float *)x.buf;

			ot_fill(&x, 40 + kind, -100, 100);
			for (r = 0; r < rows; r++)
				extreme_pattern(xf + r * len, len, kind, r);
			for (r = 0; r < rows; r++)
				for (i = 0; i < len; i++)
					((float *)xs.buf)[r * 2 * len + 2 * i] = xf[r * len + i];
			for (u32 k = 0; k < ARRAY_SIZE(ops); k++) {
				bool arg = ops[k] == DRM_VNPU_OP_ARGMAX ||
					   ops[k] == DRM_VNPU_OP_ARGMIN;
				bool want_max = ops[k] == DRM_VNPU_OP_REDUCE_MAX ||
						ops[k] == DRM_VNPU_OP_ARGMAX;

				for (int last = 0; last <= (arg ? 1 : 0); last++) {
					for (int ci = 0; ci < 2; ci++) {
						size_t nb = rows * (arg ? 8 : 4);
						u8 split[16], plain[16];
						u64 ends[VNPU_OPS_MAX_PHASES];
						struct vnpu_op_call *c;

						at.ints[0] = 2;
						at.ints[1] = 1;
						at.ints[2] = last;
						ot_make(&y, arg ? DRM_VNPU_DTYPE_INT64 :
							DRM_VNPU_DTYPE_FLOAT, 2, oshp);
						ts[0] = &x;
						c = ot_call_own(ops[k], ts, 1, 1, &at, cpus[ci]);
						ASSERT_EQ(0, vnpu_op_check(vnpu_op_find(ops[k]), c));
						ASSERT_EQ(nph, vnpu_op_phases(vnpu_op_find(ops[k]),
									      c, ends));
						ot_call_free(c);
						ASSERT_EQ(0, ot_run(ops[k], ts, 1, 1, &at, cpus[ci]));
						memcpy(split, y.buf, nb);
						for (r = 0; r < rows; r++) {
							const float *xr = xf + r * len;
							s64 want = ref_extreme(xr, len, want_max, last);

							if (arg) {
								EXPECT_EQ(want, ((s64 *)y.buf)[r])
									TH_LOG("op %u len %lld kind %d row %lld last %d cpu %u",
									       ops[k], (long long)len, kind,
									       (long long)r, last, cpus[ci]);
							} else {
								EXPECT_EQ(0, memcmp(&xr[want],
										    (float *)y.buf + r, 4))
									TH_LOG("op %u len %lld kind %d row %lld: %g vs %g cpu %u",
									       ops[k], (long long)len, kind,
									       (long long)r,
									       ((float *)y.buf)[r], xr[want],
									       cpus[ci]);
							}
						}
						/* Through the stride: the generic walk, same bits. */
						ts[0] = &xs;
						c = ot_call_own(ops[k], ts, 1, 1, &at, cpus[ci]);
						ASSERT_EQ(1, vnpu_op_phases(vnpu_op_find(ops[k]), c, ends));
						ot_call_free(c);
						ASSERT_EQ(0, ot_run(ops[k], ts, 1, 1, &at, cpus[ci]));
						memcpy(plain, y.buf, nb);
						EXPECT_EQ(0, memcmp(split, plain, nb))
							TH_LOG("op %u len %lld kind %d last %d: contiguous and strided differ",
							       ops[k], (long long)len, kind, last);
						ts[0] = &x;
						ot_free(&y);
					}
				}
			}
		}
		ot_free(&xs);
		ot_free(&x);
	}
}

/*
 * Whichever engine runs which chunk, in whatever order: the same bits as
 * one engine running the pieces in order.
 */
TEST(same_bits_on_any_engines_in_any_order)
{
	static const u32 ops[] = {
		DRM_VNPU_OP_SOFTMAX, DRM_VNPU_OP_LOG_SOFTMAX,
		DRM_VNPU_OP_LAYER_NORM, DRM_VNPU_OP_RMS_NORM,
		DRM_VNPU_OP_REDUCE_SUM, DRM_VNPU_OP_ARGMAX,
	};
	s64 len = 4 * CH + 1001, shp[2] = { 2, len }, one = 1;
	struct ot_tensor x, g, y, y2, *ts[3] = { &x, &g, &y };
	u32 cpu = vnpu_ops_host_cpu(), k, n, nin;
	struct vnpu_host_engines *e = calloc(1, sizeof(*e));
	struct vnpu_op_call *c;
	size_t bytes;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, shp);
	ot_make(&g, DRM_VNPU_DTYPE_FLOAT, 1, &shp[1]);
	ot_fill(&x, 5, -8, 8);
	ot_fill(&g, 6, 0.5, 2);
	for (k = 0; k < ARRAY_SIZE(ops); k++) {
		bool arg = ops[k] == DRM_VNPU_OP_ARGMAX;
		bool red = ops[k] == DRM_VNPU_OP_REDUCE_SUM || arg;

		nin = ops[k] == DRM_VNPU_OP_LAYER_NORM ||
		      ops[k] == DRM_VNPU_OP_RMS_NORM ? 2 : 1;
		ts[1] = &g;
		if (red)
			ot_make(&y, arg ? DRM_VNPU_DTYPE_INT64 : DRM_VNPU_DTYPE_FLOAT,
				0, &one);
		else
			ot_make(&y, DRM_VNPU_DTYPE_FLOAT, 2, shp);
		ts[nin] = &y;
		y2 = y;
		y2.buf = calloc(1, y.bytes);
		bytes = y.bytes;
		ASSERT_EQ(0, ot_run(ops[k], ts, nin, 1, NULL, cpu)) TH_LOG("op %u", ops[k]);
		ts[nin] = &y2;
		y2.v.data = y2.buf;
		/* Reversed piece order within each phase. */
		c = ot_call_own(ops[k], ts, nin, 1, NULL, cpu);
		ASSERT_EQ(0, vnpu_op_check(vnpu_op_find(ops[k]), c));
		ot_run_reversed(c);
		EXPECT_EQ(0, memcmp(y.buf, y2.buf, bytes)) TH_LOG("op %u reversed", ops[k]);
		/* 2 and 3 engines on threads. */
		for (n = 2; n <= 3; n++) {
			memset(y2.buf, 0, bytes);
			ASSERT_EQ(0, vnpu_host_engines_start(e, n));
			EXPECT_EQ(red ? 2u : ops[k] == DRM_VNPU_OP_LAYER_NORM ? 3u : 2u,
				  vnpu_host_engines_run(e, c));
			vnpu_host_engines_stop(e);
			EXPECT_EQ(0, memcmp(y.buf, y2.buf, bytes))
				TH_LOG("op %u on %u engines", ops[k], n);
		}
		ot_call_free(c);
		ts[nin] = &y;
		ot_free(&y);
		free(y2.buf);
	}
	free(e);
	ot_free(&x);
	ot_free(&g);
}

/*
 * The new bounds: a contiguous row splits into at most VNPU_SPLIT_PARTS
 * chunks over all rows of a call; beyond that the unsplit bounds apply
 * (2 Mi for softmax, 16 Mi for the norms, 64 Mi for sums). check() only:
 * it never reads the data.
 */
TEST(split_row_bounds)
{
	static float dummy[4];
	const s64 most = (s64)VNPU_SPLIT_PARTS * CH;
	static const u32 norm_ops[] = {
		DRM_VNPU_OP_SOFTMAX, DRM_VNPU_OP_LOG_SOFTMAX,
		DRM_VNPU_OP_LAYER_NORM, DRM_VNPU_OP_RMS_NORM,
	};
	struct ot_tensor x = { 0 }, y = { 0 }, *ts[2] = { &x, &y };
	struct vnpu_op_call *c;
	s64 shp[2];
	u32 k;

	for (k = 0; k < 5; k++) {
		bool red = k == 4;
		u32 op = red ? DRM_VNPU_OP_REDUCE_SUM : norm_ops[k];

		/* One row of VNPU_SPLIT_PARTS chunks: accepted. */
		x.v = (struct vnpu_tview){ .data = dummy, .dtype = DRM_VNPU_DTYPE_FLOAT,
					   .rank = 1, .shape = { most }, .strides = { 1 } };
		y.v = x.v;
		if (red)
			y.v.rank = 0;
		c = ot_call_own(op, ts, 1, 1, NULL, 0);
		EXPECT_EQ(0, vnpu_op_check(vnpu_op_find(op), c)) TH_LOG("op %u", op);
		ot_call_free(c);
		/* One more element: one chunk too many, rejected. */
		x.v.shape[0] = most + 1;
		if (!red)
			y.v.shape[0] = most + 1;
		c = ot_call_own(op, ts, 1, 1, NULL, 0);
		EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(vnpu_op_find(op), c)) TH_LOG("op %u", op);
		ot_call_free(c);
		/* Two rows of half as many chunks, plus one: rejected. */
		shp[0] = 2;
		shp[1] = most / 2 + 1;
		x.v = (struct vnpu_tview){ .data = dummy, .dtype = DRM_VNPU_DTYPE_FLOAT,
					   .rank = 2, .shape = { shp[0], shp[1] },
					   .strides = { shp[1], 1 } };
		y.v = x.v;
		if (red) {
			y.v.rank = 1;
			y.v.shape[0] = 2;
			y.v.strides[0] = 1;
		}
		c = ot_call_own(op, ts, 1, 1, NULL, 0);
		if (red) {
			c->has_attrs = 1;
			c->attrs.ints[0] = 2;
		}
		EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(vnpu_op_find(op), c)) TH_LOG("op %u", op);
		/* Exactly half as many: accepted. */
		c->t[0].shape[1] = most / 2;
		c->t[0].strides[0] = most / 2;
		if (!red) {
			c->t[1].shape[1] = most / 2;
			c->t[1].strides[0] = most / 2;
		}
		EXPECT_EQ(0, vnpu_op_check(vnpu_op_find(op), c)) TH_LOG("op %u", op);
		ot_call_free(c);
		/* A strided row past the unsplit bound stays rejected. */
		x.v = (struct vnpu_tview){ .data = dummy, .dtype = DRM_VNPU_DTYPE_FLOAT,
					   .rank = 1, .shape = { (s64)VNPU_OPS_PIECE_WORK + 1 },
					   .strides = { 0 } };
		y.v = x.v;
		y.v.strides[0] = 1;
		if (red)
			y.v.rank = 0;
		c = ot_call_own(op, ts, 1, 1, NULL, 0);
		EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(vnpu_op_find(op), c)) TH_LOG("op %u", op);
		ot_call_free(c);
	}
	(void)norm_ops;
}

TEST_HARNESS_MAIN
