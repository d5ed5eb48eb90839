// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of the convolutions and pools against naive double
 * references: every CONV2D attribute (stride, asymmetric pads, dilation,
 * groups, depthwise, bias), CONV1D, CONV_TRANSPOSE2D (checked against a
 * scatter formulation), max/avg pooling with ceil mode, count_include_pad
 * and dilation, global and adaptive pools; strided views, fp16/bf16,
 * every micro-kernel variant, and check() rejections.
 *
 * Tolerance: |got - want| <= 1e-6 * sqrt(K + 1) * S (fp32), plus 1e-3 * S
 * (fp16) or 8e-3 * S (bf16), S = sum of |terms| and K the terms per output.
 */
#include "ops_test_util.h"
#include "kselftest_harness.h"

/* A tensor whose elements are spread out (strides 2 and padded) or not. */
static void mk(struct ot_tensor *t, u32 dtype, u32 rank, const s64 *shape,
	       int spread)
{
	s64 stride;
	int d;

	ot_make(t, dtype, rank, shape);
	if (!spread)
		return;
	free(t->buf);
	stride = 2;
	for (d = (int)rank - 1; d >= 0; d--) {
		t->v.strides[d] = stride;
		stride = stride * (shape[d] ? shape[d] : 1) + 3;
	}
	t->bytes = (size_t)stride * vnpu_dtype_size(dtype) + 64;
	t->buf = calloc(1, t->bytes);
	t->v.data = t->buf;
}

static double at4(const struct ot_tensor *t, s64 a, s64 b, s64 c, s64 d)
{
	s64 idx[4] = { a, b, c, d };

	return ot_get(t, idx);
}

static double extra_rtol(u32 dtype)
{
	return dtype == DRM_VNPU_DTYPE_FLOAT ? 0 : ot_tolerance(dtype);
}

static u32 cpus[3];

static void init_cpus(void)
{
	u32 host = vnpu_ops_host_cpu();

	cpus[0] = host;
	cpus[1] = host & VNPU_CPU_AVX2_FMA;
	cpus[2] = 0;
}

struct cv {
	s64 n, ci, h, w, co, kh, kw;
	s64 sh, sw, pt, pl, pb, pr, dh, dw, groups;
	s64 oph, opw;		/* transposed: output padding */
	int bias, spread, transpose;
	u32 dtype, cpu;
};

/* Run a CONV2D or CONV_TRANSPOSE2D case; returns the number of mismatches. */
static int run_conv(struct __test_metadata *_metadata, const struct cv *p)
{
	struct ot_tensor x, w, b, o;
	struct ot_tensor *ts[4];
	struct drm_vnpu_op_attrs at = { 0 };
	s64 cig = p->ci / p->groups, cog, oh, ow;
	s64 xs[4] = { p->n, p->ci, p->h, p->w }, ws[4], os[4], bs[1];
	double *want, *mag;
	s64 n, co, y, xx, ci, ky, kx, i, total, cnt;
	u32 nin = 2;
	int bad = 0;

	if (p->transpose) {
		cog = p->co / p->groups;
		ws[0] = p->ci;
		ws[1] = cog;
		oh = (p->h - 1) * p->sh - p->pt - p->pb + p->dh * (p->kh - 1) +
		     p->oph + 1;
		ow = (p->w - 1) * p->sw - p->pl - p->pr + p->dw * (p->kw - 1) +
		     p->opw + 1;
	} else {
		cog = p->co / p->groups;
		ws[0] = p->co;
		ws[1] = cig;
		oh = (p->h + p->pt + p->pb - p->dh * (p->kh - 1) - 1) / p->sh + 1;
		ow = (p->w + p->pl + p->pr - p->dw * (p->kw - 1) - 1) / p->sw + 1;
	}
	ws[2] = p->kh;
	ws[3] = p->kw;
	os[0] = p->n;
	os[1] = p->co;
	os[2] = oh;
	os[3] = ow;
	bs[0] = p->co;
	mk(&x, p->dtype, 4, xs, p->spread);
	mk(&w, p->dtype, 4, ws, p->spread & 2);
	mk(&o, p->dtype, 4, os, p->spread & 1);
	ot_fill(&x, 3, -1, 1);
	ot_fill(&w, 5, -1, 1);
	memset(o.buf, 0xff, o.bytes);
	ts[0] = &x;
	ts[1] = &w;
	if (p->bias) {
		ot_make(&b, p->dtype, 1, bs);
		ot_fill(&b, 7, -1, 1);
		ts[nin++] = &b;
	}
	ts[nin] = &o;
	at.ints[0] = p->sh;
	at.ints[1] = p->sw;
	at.ints[2] = p->pt;
	at.ints[3] = p->pl;
	at.ints[4] = p->pb;
	at.ints[5] = p->pr;
	at.ints[6] = p->dh;
	at.ints[7] = p->dw;
	at.ints[8] = p->groups;
	at.ints[9] = p->oph;
	at.ints[10] = p->opw;
	EXPECT_EQ(0, ot_run(p->transpose ? DRM_VNPU_OP_CONV_TRANSPOSE2D :
			    DRM_VNPU_OP_CONV2D, ts, nin, 1, &at, p->cpu));

	total = p->n * p->co * oh * ow;
	want = calloc(total, sizeof(double));
	mag = calloc(total, sizeof(double));
	if (p->transpose) {
		/* Scatter every input element through the kernel. */
		for (n = 0; n < p->n; n++)
			for (ci = 0; ci < p->ci; ci++)
				for (y = 0; y < p->h; y++)
					for (xx = 0; xx < p->w; xx++) {
						double xv = at4(&x, n, ci, y, xx);
						s64 g = ci / cig, c2;

						for (c2 = 0; c2 < cog; c2++)
							for (ky = 0; ky < p->kh; ky++)
								for (kx = 0; kx < p->kw; kx++) {
									s64 oy = y * p->sh - p->pt + ky * p->dh;
									s64 ox = xx * p->sw - p->pl + kx * p->dw;
									double t;

									if (oy < 0 || oy >= oh || ox < 0 || ox >= ow)
										continue;
									t = xv * at4(&w, ci, c2, ky, kx);
									i = ((n * p->co + g * cog + c2) * oh + oy) * ow + ox;
									want[i] += t;
									mag[i] += fabs(t);
								}
					}
		cnt = cig * p->kh * p->kw;
	} else {
		for (n = 0; n < p->n; n++)
			for (co = 0; co < p->co; co++)
				for (y = 0; y < oh; y++)
					for (xx = 0; xx < ow; xx++) {
						s64 g = co / cog;

						i = ((n * p->co + co) * oh + y) * ow + xx;
						for (ci = 0; ci < cig; ci++)
							for (ky = 0; ky < p->kh; ky++)
								for (kx = 0; kx < p->kw; kx++) {
									s64 iy = y * p->sh - p->pt + ky * p->dh;
									s64 ix = xx * p->sw - p->pl + kx * p->dw;
									double t;

									if (iy < 0 || iy >= p->h || ix < 0 || ix >= p->w)
										continue;
									t = at4(&x, n, g * cig + ci, iy, ix) *
									    at4(&w, co, ci, ky, kx);
									want[i] += t;
									mag[i] += fabs(t);
								}
					}
		cnt = cig * p->kh * p->kw;
	}
	for (i = 0; i < total && !bad; i++) {
		s64 rem = i, idx[4];
		double got, tol;
		int d;

		for (d = 3; d >= 0; d--) {
			idx[d] = rem % os[d];
			rem /= os[d];
		}
		if (p->bias) {
			double bv = ot_get(&b, &idx[1]);

			want[i] += bv;
			mag[i] += fabs(bv);
		}
		got = ot_get(&o, idx);
		tol = (1e-6 * sqrt((double)cnt + 1) + extra_rtol(p->dtype)) *
		      mag[i] + 1e-30;
		if (!(fabs(got - want[i]) <= tol)) {
			bad = 1;
			TH_LOG("conv%s ci %lld co %lld k %lldx%lld s %lld,%lld g %lld cpu %u dt %u: [%lld,%lld,%lld,%lld] got %.8g want %.8g",
			       p->transpose ? "T" : "", (long long)p->ci,
			       (long long)p->co, (long long)p->kh,
			       (long long)p->kw, (long long)p->sh,
			       (long long)p->sw, (long long)p->groups, p->cpu,
			       p->dtype, (long long)idx[0], (long long)idx[1],
			       (long long)idx[2], (long long)idx[3], got, want[i]);
		}
	}
	EXPECT_EQ(0, bad);
	free(want);
	free(mag);
	ot_free(&x);
	ot_free(&w);
	ot_free(&o);
	if (p->bias)
		ot_free(&b);
	return bad;
}

/* Defaults first; a case overrides some of them. */
#pragma GCC diagnostic ignored "-Woverride-init"
#define CV(...) { .n = 1, .sh = 1, .sw = 1, .dh = 1, .dw = 1, .groups = 1, \
		  __VA_ARGS__ }

static const struct cv conv_cases[] = {
	/* 3x3 pad 1, bias */
	CV(.n = 2, .ci = 5, .h = 9, .w = 11, .co = 7, .kh = 3, .kw = 3, .pt = 1,
	   .pl = 1, .pb = 1, .pr = 1, .bias = 1),
	/* stride 2, asymmetric pads, rectangular kernel */
	CV(.ci = 3, .h = 17, .w = 13, .co = 16, .kh = 3, .kw = 5, .sh = 2,
	   .sw = 3, .pt = 2, .pl = 0, .pb = 1, .pr = 3),
	/* dilation */
	CV(.ci = 4, .h = 15, .w = 16, .co = 9, .kh = 3, .kw = 3, .dh = 2,
	   .dw = 3, .pt = 2, .pl = 3, .pb = 2, .pr = 3, .bias = 1),
	/* groups (GEMM per group) */
	CV(.n = 2, .ci = 8, .h = 10, .w = 10, .co = 12, .kh = 3, .kw = 3,
	   .groups = 2, .pt = 1, .pl = 1, .pb = 1, .pr = 1, .bias = 1),
	/* depthwise, multiplier 1 and 2 (direct) */
	CV(.n = 2, .ci = 6, .h = 12, .w = 14, .co = 6, .kh = 3, .kw = 3,
	   .groups = 6, .pt = 1, .pl = 1, .pb = 1, .pr = 1, .bias = 1),
	CV(.ci = 4, .h = 11, .w = 9, .co = 8, .kh = 5, .kw = 3, .groups = 4,
	   .sh = 2, .sw = 2, .pt = 2, .pl = 1, .pb = 2, .pr = 1, .dw = 2),
	/* 1x1, many channels: more than one block of rows and columns */
	CV(.ci = 40, .h = 20, .w = 30, .co = 300, .kh = 1, .kw = 1, .bias = 1),
	/* ResNet-like, spatial dim not a multiple of the panel width */
	CV(.ci = 16, .h = 23, .w = 23, .co = 32, .kh = 3, .kw = 3, .pt = 1,
	   .pl = 1, .pb = 1, .pr = 1, .bias = 1),
	/*
	 * 64 output channels (five 12-row kernels and a 4-row one with
	 * AVX-512), output rows narrower than a B sliver so that runs cross
	 * rows and slivers, padding wider than the kernel's reach
	 */
	CV(.ci = 3, .h = 6, .w = 5, .co = 64, .kh = 3, .kw = 3, .pt = 1,
	   .pl = 2, .pb = 0, .pr = 2, .bias = 1),
	/* 13 output channels, stride 2 with a row crossing the padding */
	CV(.ci = 2, .h = 9, .w = 40, .co = 13, .kh = 2, .kw = 3, .sw = 2,
	   .pt = 0, .pl = 1, .pb = 1, .pr = 1),
	/* a kernel as large as the padded input */
	CV(.ci = 2, .h = 4, .w = 5, .co = 5, .kh = 6, .kw = 7, .pt = 1, .pl = 1,
	   .pb = 1, .pr = 1),
};

TEST(conv2d_attributes_all_kernels)
{
	unsigned int i;
	int v;

	init_cpus();
	for (v = 0; v < 3; v++)
		for (i = 0; i < ARRAY_SIZE(conv_cases); i++) {
			struct cv p = conv_cases[i];

			p.dtype = DRM_VNPU_DTYPE_FLOAT;
			p.cpu = cpus[v];
			ASSERT_EQ(0, run_conv(_metadata, &p));
		}
}

TEST(conv2d_strided_views)
{
	unsigned int i;
	int s;

	for (s = 1; s < 4; s++)
		for (i = 0; i < ARRAY_SIZE(conv_cases); i++) {
			struct cv p = conv_cases[i];

			p.dtype = DRM_VNPU_DTYPE_FLOAT;
			p.cpu = vnpu_ops_host_cpu();
			p.spread = s;
			ASSERT_EQ(0, run_conv(_metadata, &p));
		}
}

TEST(conv2d_fp16_bf16)
{
	static const u32 dts[] = { DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_BF16 };
	unsigned int i, d;

	for (d = 0; d < 2; d++)
		for (i = 0; i < ARRAY_SIZE(conv_cases); i++) {
			struct cv p = conv_cases[i];

			p.dtype = dts[d];
			p.cpu = vnpu_ops_host_cpu();
			ASSERT_EQ(0, run_conv(_metadata, &p));
		}
}

static const struct cv convt_cases[] = {
	CV(.ci = 4, .h = 5, .w = 6, .co = 3, .kh = 3, .kw = 3, .sh = 2, .sw = 2,
	   .pt = 1, .pl = 1, .pb = 1, .pr = 1, .oph = 1, .opw = 1, .bias = 1),
	CV(.n = 2, .ci = 6, .h = 4, .w = 3, .co = 4, .kh = 2, .kw = 4, .sh = 3,
	   .sw = 1, .pt = 0, .pl = 2, .pb = 1, .pr = 0, .groups = 2),
	CV(.ci = 3, .h = 5, .w = 5, .co = 2, .kh = 3, .kw = 2, .dh = 2, .dw = 3,
	   .sh = 1, .sw = 2, .pt = 1, .pb = 2, .opw = 1, .bias = 1),
	CV(.ci = 4, .h = 6, .w = 6, .co = 4, .kh = 3, .kw = 3, .groups = 4,
	   .sh = 2, .sw = 2, .pt = 1, .pl = 1, .pb = 1, .pr = 1),
};

TEST(conv_transpose2d)
{
	unsigned int i;
	int s;

	for (s = 0; s < 2; s++)
		for (i = 0; i < ARRAY_SIZE(convt_cases); i++) {
			struct cv p = convt_cases[i];

			p.transpose = 1;
			p.dtype = s ? DRM_VNPU_DTYPE_FLOAT16 : DRM_VNPU_DTYPE_FLOAT;
			p.spread = s ? 3 : 0;
			p.cpu = vnpu_ops_host_cpu();
			ASSERT_EQ(0, run_conv(_metadata, &p));
		}
}

TEST(conv1d)
{
	struct ot_tensor x, w, b, o;
	struct ot_tensor *ts[4] = { &x, &w, &b, &o };
	struct drm_vnpu_op_attrs at = { 0 };
	s64 xs[3] = { 2, 6, 40 }, ws[3] = { 10, 3, 5 }, bs[1] = { 10 };
	s64 os[3] = { 2, 10, 0 }, n, co, l, ci, k;
	int bad = 0, v;

	init_cpus();
	at.ints[0] = 2;		/* stride */
	at.ints[2] = 3;		/* pad left */
	at.ints[4] = 1;		/* pad right */
	at.ints[6] = 2;		/* dilation */
	at.ints[8] = 2;		/* groups */
	os[2] = (40 + 3 + 1 - 2 * 4 - 1) / 2 + 1;
	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 3, xs);
	ot_make(&w, DRM_VNPU_DTYPE_FLOAT, 3, ws);
	ot_make(&b, DRM_VNPU_DTYPE_FLOAT, 1, bs);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 3, os);
	ot_fill(&x, 1, -1, 1);
	ot_fill(&w, 2, -1, 1);
	ot_fill(&b, 3, -1, 1);
	for (v = 0; v < 3; v++) {
		ASSERT_EQ(0, ot_run(DRM_VNPU_OP_CONV1D, ts, 3, 1, &at, cpus[v]));
		for (n = 0; n < 2; n++)
			for (co = 0; co < 10; co++)
				for (l = 0; l < os[2]; l++) {
					s64 g = co / 5, oi[3] = { n, co, l };
					double want = ((float *)b.buf)[co], mag = fabs(want);

					for (ci = 0; ci < 3; ci++)
						for (k = 0; k < 5; k++) {
							s64 il = l * 2 - 3 + k * 2;
							s64 xi[3] = { n, g * 3 + ci, il };
							s64 wi[3] = { co, ci, k };
							double t;

							if (il < 0 || il >= 40)
								continue;
							t = ot_get(&x, xi) * ot_get(&w, wi);
							want += t;
							mag += fabs(t);
						}
					if (fabs(ot_get(&o, oi) - want) > 1e-5 * mag + 1e-30)
						bad++;
				}
		EXPECT_EQ(0, bad);
	}
	ot_free(&x);
	ot_free(&w);
	ot_free(&b);
	ot_free(&o);
}

/* A convolution shape for the fused activation tests. */
struct act_cv {
	u32 op;
	u32 rank;
	s64 xs[4], ws[4], os[4];
	s64 groups;
	const char *what;
};

static const struct act_cv act_cases[] = {
	{ DRM_VNPU_OP_CONV2D, 4, { 2, 4, 9, 11 }, { 16, 4, 3, 3 },
	  { 2, 16, 7, 9 }, 1, "conv2d on the GEMM engine" },
	{ DRM_VNPU_OP_CONV2D, 4, { 1, 6, 8, 8 }, { 6, 1, 3, 3 },
	  { 1, 6, 6, 6 }, 6, "depthwise conv2d (direct)" },
	{ DRM_VNPU_OP_CONV_TRANSPOSE2D, 4, { 1, 4, 5, 6 }, { 4, 3, 3, 3 },
	  { 1, 3, 7, 8 }, 1, "conv_transpose2d" },
	{ DRM_VNPU_OP_CONV1D, 3, { 2, 6, 40 }, { 8, 6, 5 }, { 2, 8, 36 }, 1,
	  "conv1d" },
};

/*
 * Fused RELU and CLIP after the bias, for every convolution path, dtype
 * and micro-kernel: equal bit for bit to the activation of the plain
 * output.
 */
TEST(conv_fused_activations)
{
	static const u32 dts[3] = { DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16,
				    DRM_VNPU_DTYPE_BF16 };
	static const int acts[2] = { DRM_VNPU_ACT_RELU, DRM_VNPU_ACT_CLIP };
	unsigned int k;
	int v, d, a;

	init_cpus();
	for (k = 0; k < sizeof(act_cases) / sizeof(act_cases[0]); k++)
	for (v = 0; v < 3; v++)
	for (d = 0; d < 3; d++)
	for (a = 0; a < 2; a++) {
		const struct act_cv *p = &act_cases[k];
		struct ot_tensor x, w, b, plain, fused;
		struct ot_tensor *ts[4] = { &x, &w, &b, &plain };
		struct drm_vnpu_op_attrs at = { 0 };
		s64 bs[1] = { p->os[1] };
		long changed;

		if (p->op == DRM_VNPU_OP_CONV1D) {
			at.ints[0] = 1;
			at.ints[6] = 1;
			at.ints[8] = p->groups;
		} else {
			at.ints[0] = at.ints[1] = 1;
			at.ints[6] = at.ints[7] = 1;
			at.ints[8] = p->groups;
		}
		ot_make(&x, dts[d], p->rank, p->xs);
		ot_make(&w, dts[d], p->rank, p->ws);
		ot_make(&b, dts[d], 1, bs);
		ot_make(&plain, dts[d], p->rank, p->os);
		ot_make(&fused, dts[d], p->rank, p->os);
		ot_fill(&x, 21 + k, -1, 1);
		ot_fill(&w, 23 + d, -0.3, 0.3);
		ot_fill(&b, 29, -1, 1);
		memset(fused.buf, 0xff, fused.bytes);
		ASSERT_EQ(0, ot_run(p->op, ts, 3, 1, &at, cpus[v])) TH_LOG("%s", p->what);
		ot_set_act(&at, acts[a], -0.5f, 0.75f);
		ts[3] = &fused;
		ASSERT_EQ(0, ot_run(p->op, ts, 3, 1, &at, cpus[v])) TH_LOG("%s", p->what);
		changed = ot_act_compare(&plain, &fused, acts[a], -0.5f, 0.75f);
		EXPECT_LT(0, changed)
			TH_LOG("%s dtype %u cpu %u act %d: %ld", p->what, dts[d],
			       cpus[v], acts[a], changed);
		EXPECT_GT((long)vnpu_tview_elems(&plain.v), changed);
		ot_free(&x);
		ot_free(&w);
		ot_free(&b);
		ot_free(&plain);
		ot_free(&fused);
	}
}

/* A bad activation fails check() of every convolution; pools ignore it. */
TEST(conv_activation_rejects)
{
	unsigned int k;
	int i;

	for (k = 0; k < sizeof(act_cases) / sizeof(act_cases[0]); k++) {
		const struct act_cv *p = &act_cases[k];
		struct ot_tensor x, w, o;
		struct ot_tensor *ts[3] = { &x, &w, &o };
		struct drm_vnpu_op_attrs at = { 0 };
		static const struct { int act; float lo, hi; int ok; } c[] = {
			{ 3, 0, 0, 0 }, { -1, 0, 0, 0 }, { 1000, 0, 0, 0 },
			{ DRM_VNPU_ACT_CLIP, 2, 1, 0 },
			{ DRM_VNPU_ACT_CLIP, NAN, 1, 0 },
			{ DRM_VNPU_ACT_CLIP, 0, NAN, 0 },
			{ DRM_VNPU_ACT_CLIP, 1, 1, 1 },
			{ DRM_VNPU_ACT_CLIP, -INFINITY, 0, 1 },
			{ DRM_VNPU_ACT_RELU, 5, -5, 1 },
			{ DRM_VNPU_ACT_NONE, NAN, NAN, 1 },
		};

		at.ints[0] = at.ints[1] = 1;
		at.ints[6] = at.ints[7] = 1;
		at.ints[8] = p->groups;
		if (p->op == DRM_VNPU_OP_CONV1D)
			at.ints[1] = at.ints[7] = 0;
		ot_make(&x, DRM_VNPU_DTYPE_FLOAT, p->rank, p->xs);
		ot_make(&w, DRM_VNPU_DTYPE_FLOAT, p->rank, p->ws);
		ot_make(&o, DRM_VNPU_DTYPE_FLOAT, p->rank, p->os);
		for (i = 0; i < (int)(sizeof(c) / sizeof(c[0])); i++) {
			ot_set_act(&at, c[i].act, c[i].lo, c[i].hi);
			EXPECT_EQ(c[i].ok ? 0 : -VNPU_OPS_EINVAL,
				  ot_run(p->op, ts, 2, 1, &at, 0))
				TH_LOG("%s case %d", p->what, i);
		}
		ot_free(&x);
		ot_free(&w);
		ot_free(&o);
	}
}

struct pl {
	u32 op;
	s64 n, c, h, w, kh, kw, sh, sw, pt, pl, pb, pr, dh, dw;
	int ceil, incl, spread;
	u32 dtype;
};

static s64 pool_out(s64 in, s64 k, s64 s, s64 pa, s64 pz, s64 d, int ceil)
{
	s64 num = in + pa + pz - d * (k - 1) - 1;
	s64 o = (ceil ? (num + s - 1) / s : num / s) + 1;

	if (ceil && (o - 1) * s >= in + pa)
		o--;
	return o;
}

static int run_pool(struct __test_metadata *_metadata, const struct pl *p)
{
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	struct drm_vnpu_op_attrs at = { 0 };
	s64 xs[4] = { p->n, p->c, p->h, p->w }, os[4] = { p->n, p->c, 0, 0 };
	s64 n, c, y, xx, ky, kx;
	int bad = 0, is_max = p->op == DRM_VNPU_OP_MAX_POOL2D;

	os[2] = pool_out(p->h, p->kh, p->sh, p->pt, p->pb, p->dh, p->ceil);
	os[3] = pool_out(p->w, p->kw, p->sw, p->pl, p->pr, p->dw, p->ceil);
	mk(&x, p->dtype, 4, xs, p->spread);
	mk(&o, p->dtype, 4, os, p->spread);
	ot_fill(&x, 9, -4, 4);
	at.ints[0] = p->kh;
	at.ints[1] = p->kw;
	at.ints[2] = p->sh;
	at.ints[3] = p->sw;
	at.ints[4] = p->pt;
	at.ints[5] = p->pl;
	at.ints[6] = p->pb;
	at.ints[7] = p->pr;
	at.ints[8] = p->dh;
	at.ints[9] = p->dw;
	at.ints[10] = p->ceil;
	at.ints[11] = p->incl;
	EXPECT_EQ(0, ot_run(p->op, ts, 1, 1, &at, vnpu_ops_host_cpu()));
	for (n = 0; n < p->n; n++)
		for (c = 0; c < p->c; c++)
			for (y = 0; y < os[2]; y++)
				for (xx = 0; xx < os[3]; xx++) {
					double m = -INFINITY, sum = 0, mag = 0, want, got;
					s64 cnt = 0, cntp = 0, oi[4] = { n, c, y, xx };

					for (ky = 0; ky < p->kh; ky++)
						for (kx = 0; kx < p->kw; kx++) {
							s64 iy = y * p->sh - p->pt + ky * p->dh;
							s64 ix = xx * p->sw - p->pl + kx * p->dw;
							double v;

							if (iy < p->h + p->pb && ix < p->w + p->pr)
								cntp++;
							if (iy < 0 || iy >= p->h || ix < 0 || ix >= p->w)
								continue;
							v = at4(&x, n, c, iy, ix);
							cnt++;
							sum += v;
							mag += fabs(v);
							if (v > m)
								m = v;
						}
					if (is_max)
						want = m;
					else if (p->incl)
						want = sum / cntp;
					else
						want = cnt ? sum / cnt : 0;
					got = ot_get(&o, oi);
					if (!(fabs(got - want) <= (1e-6 + extra_rtol(p->dtype)) *
					      (is_max ? fabs(want) : mag) + 1e-30)) {
						if (!bad)
							TH_LOG("pool op %u k %lldx%lld ceil %d incl %d [%lld,%lld,%lld,%lld]: got %g want %g",
							       p->op, (long long)p->kh,
							       (long long)p->kw, p->ceil,
							       p->incl, (long long)n,
							       (long long)c, (long long)y,
							       (long long)xx, got, want);
						bad = 1;
					}
				}
	EXPECT_EQ(0, bad);
	ot_free(&x);
	ot_free(&o);
	return bad;
}

#define PL(...) { .n = 2, .c = 3, .sh = 1, .sw = 1, .dh = 1, .dw = 1, \
		  __VA_ARGS__ }

static const struct pl pool_cases[] = {
	PL(.h = 8, .w = 8, .kh = 2, .kw = 2, .sh = 2, .sw = 2),
	PL(.h = 11, .w = 10, .kh = 3, .kw = 3, .sh = 2, .sw = 2, .pt = 1,
	   .pl = 1, .pb = 1, .pr = 1),
	PL(.h = 11, .w = 10, .kh = 3, .kw = 3, .sh = 2, .sw = 2, .pt = 1,
	   .pl = 1, .pb = 1, .pr = 1, .ceil = 1),
	PL(.h = 10, .w = 13, .kh = 3, .kw = 2, .sh = 3, .sw = 2, .pt = 1,
	   .pl = 0, .pb = 0, .pr = 1, .ceil = 1, .incl = 1),
	PL(.h = 12, .w = 12, .kh = 3, .kw = 3, .sh = 1, .sw = 2, .pt = 1,
	   .pl = 1, .pb = 1, .pr = 1, .incl = 1),
	PL(.h = 14, .w = 15, .kh = 3, .kw = 2, .sh = 2, .sw = 2, .dh = 2,
	   .dw = 3, .pt = 2, .pl = 1, .pb = 1, .pr = 2, .ceil = 1),
	PL(.h = 7, .w = 7, .kh = 7, .kw = 7, .sh = 1, .sw = 1),
	PL(.h = 5, .w = 6, .kh = 2, .kw = 2, .sh = 2, .sw = 2, .ceil = 1,
	   .incl = 1),
};

TEST(max_avg_pool)
{
	unsigned int i;
	int op, s;

	for (op = 0; op < 2; op++)
		for (s = 0; s < 3; s++)
			for (i = 0; i < ARRAY_SIZE(pool_cases); i++) {
				struct pl p = pool_cases[i];

				p.op = op ? DRM_VNPU_OP_AVG_POOL2D :
					    DRM_VNPU_OP_MAX_POOL2D;
				p.spread = s == 1;
				p.dtype = s == 2 ? DRM_VNPU_DTYPE_BF16 :
					  DRM_VNPU_DTYPE_FLOAT;
				ASSERT_EQ(0, run_pool(_metadata, &p));
			}
}

TEST(max_pool_nan)
{
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	struct drm_vnpu_op_attrs at = { 0 };
	s64 xs[4] = { 1, 1, 4, 4 }, os[4] = { 1, 1, 2, 2 };

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 4, xs);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 4, os);
	ot_fill(&x, 1, -1, 1);
	((float *)x.buf)[5] = NAN;
	at.ints[0] = 2;
	at.ints[1] = 2;
	at.ints[2] = 2;
	at.ints[3] = 2;
	at.ints[8] = 1;
	at.ints[9] = 1;
	ASSERT_EQ(0, ot_run(DRM_VNPU_OP_MAX_POOL2D, ts, 1, 1, &at, 0));
	EXPECT_TRUE(isnan(((float *)o.buf)[0]));
	EXPECT_FALSE(isnan(((float *)o.buf)[1]));
	ot_free(&x);
	ot_free(&o);
}

static void global_case(struct __test_metadata *_metadata, u32 op, u32 xr,
			u32 orank, u32 dtype)
{
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	s64 xs[4] = { 2, 5, 13, 9 }, os[4] = { 2, 5, 1, 1 }, n, c, i;

	if (xr == 3)
		xs[2] = 31;
	mk(&x, dtype, xr, xs, 1);
	ot_make(&o, dtype, orank, os);
	ot_fill(&x, 4, -2, 2);
	ASSERT_EQ(0, ot_run(op, ts, 1, 1, NULL, vnpu_ops_host_cpu()));
	for (n = 0; n < 2; n++)
		for (c = 0; c < 5; c++) {
			s64 spatial = xr == 3 ? xs[2] : xs[2] * xs[3];
			s64 oi[4] = { n, c, 0, 0 };
			double sum = 0, mag = 0, m = -INFINITY, want;

			for (i = 0; i < spatial; i++) {
				s64 xi[4] = { n, c, xr == 3 ? i : i / xs[3], i % xs[3] };
				double v = ot_get(&x, xi);

				sum += v;
				mag += fabs(v);
				if (v > m)
					m = v;
			}
			want = op == DRM_VNPU_OP_GLOBAL_MAX_POOL ? m : sum / spatial;
			EXPECT_TRUE(fabs(ot_get(&o, oi) - want) <=
				    (1e-6 + extra_rtol(dtype)) * (mag / spatial + fabs(m)));
		}
	ot_free(&x);
	ot_free(&o);
}

TEST(global_pools)
{
	u32 op;

	for (op = DRM_VNPU_OP_GLOBAL_AVG_POOL; op <= DRM_VNPU_OP_GLOBAL_MAX_POOL;
	     op++) {
		global_case(_metadata, op, 4, 4, DRM_VNPU_DTYPE_FLOAT);
		global_case(_metadata, op, 4, 2, DRM_VNPU_DTYPE_FLOAT);
		global_case(_metadata, op, 3, 3, DRM_VNPU_DTYPE_FLOAT);
		global_case(_metadata, op, 4, 4, DRM_VNPU_DTYPE_FLOAT16);
	}
}

TEST(adaptive_avg_pool)
{
	static const s64 sizes[][4] = {
		{ 10, 7, 3, 4 }, { 9, 9, 3, 3 }, { 5, 4, 7, 6 }, { 13, 1, 1, 1 },
		{ 224, 224, 7, 7 },
	};
	unsigned int t;

	for (t = 0; t < ARRAY_SIZE(sizes); t++) {
		struct ot_tensor x, o;
		struct ot_tensor *ts[2] = { &x, &o };
		s64 xs[4] = { 1, 3, sizes[t][0], sizes[t][1] };
		s64 os[4] = { 1, 3, sizes[t][2], sizes[t][3] }, c, y, xx, i, j;

		ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 4, xs);
		mk(&o, DRM_VNPU_DTYPE_FLOAT, 4, os, 1);
		ot_fill(&x, 8, -1, 1);
		ASSERT_EQ(0, ot_run(DRM_VNPU_OP_ADAPTIVE_AVG_POOL2D, ts, 1, 1,
				    NULL, vnpu_ops_host_cpu()));
		for (c = 0; c < 3; c++)
			for (y = 0; y < os[2]; y++)
				for (xx = 0; xx < os[3]; xx++) {
					s64 y0 = (s64)floor((double)y * xs[2] / os[2]);
					s64 y1 = (s64)ceil((double)(y + 1) * xs[2] / os[2]);
					s64 x0 = (s64)floor((double)xx * xs[3] / os[3]);
					s64 x1 = (s64)ceil((double)(xx + 1) * xs[3] / os[3]);
					s64 oi[4] = { 0, c, y, xx };
					double sum = 0, mag = 0;

					for (i = y0; i < y1; i++)
						for (j = x0; j < x1; j++) {
							sum += at4(&x, 0, c, i, j);
							mag += fabs(at4(&x, 0, c, i, j));
						}
					sum /= (y1 - y0) * (x1 - x0);
					mag /= (y1 - y0) * (x1 - x0);
					ASSERT_TRUE(fabs(ot_get(&o, oi) - sum) <= 1e-6 * mag + 1e-30);
				}
		ot_free(&x);
		ot_free(&o);
	}
}

/* check() of CONV2D with one thing wrong at a time. */
static int conv_try(const s64 *xs, const s64 *ws, const s64 *os, s64 bias_n,
		    const struct drm_vnpu_op_attrs *at, u32 odt)
{
	struct ot_tensor x, w, b, o;
	struct ot_tensor *ts[4] = { &x, &w, &b, &o };
	s64 bs[1] = { bias_n };
	int ret;

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 4, xs);
	ot_make(&w, DRM_VNPU_DTYPE_FLOAT, 4, ws);
	ot_make(&b, DRM_VNPU_DTYPE_FLOAT, 1, bs);
	ot_make(&o, odt, 4, os);
	if (bias_n) {
		ret = ot_run(DRM_VNPU_OP_CONV2D, ts, 3, 1, at, 0);
	} else {
		ts[2] = &o;
		ret = ot_run(DRM_VNPU_OP_CONV2D, ts, 2, 1, at, 0);
	}
	ot_free(&x);
	ot_free(&w);
	ot_free(&b);
	ot_free(&o);
	return ret;
}

TEST(conv_pool_check_rejects)
{
	const u32 F = DRM_VNPU_DTYPE_FLOAT;
	s64 xs[4] = { 1, 4, 8, 8 }, ws[4] = { 6, 4, 3, 3 }, os[4] = { 1, 6, 6, 6 };
	s64 wg[4] = { 6, 2, 3, 3 }, ob[4] = { 1, 6, 7, 6 };
	struct drm_vnpu_op_attrs at = { 0 };
	int i;

	for (i = 0; i < 2; i++) {
		at.ints[i] = 1;
		at.ints[6 + i] = 1;
	}
	at.ints[8] = 1;
	EXPECT_EQ(0, conv_try(xs, ws, os, 6, &at, F));
	EXPECT_EQ(0, conv_try(xs, ws, os, 0, NULL, F));
	EXPECT_EQ(-VNPU_OPS_EINVAL, conv_try(xs, ws, ob, 6, &at, F));
	EXPECT_EQ(-VNPU_OPS_EINVAL, conv_try(xs, ws, os, 5, &at, F));
	EXPECT_EQ(-VNPU_OPS_EINVAL, conv_try(xs, ws, os, 6, &at,
					     DRM_VNPU_DTYPE_FLOAT16));
	EXPECT_EQ(-VNPU_OPS_EINVAL, conv_try(xs, wg, os, 6, &at, F));
	at.ints[8] = 2;		/* groups: w has 4 inputs per group, not 2 */
	EXPECT_EQ(-VNPU_OPS_EINVAL, conv_try(xs, ws, os, 6, &at, F));
	EXPECT_EQ(0, conv_try(xs, wg, os, 6, &at, F));
	at.ints[8] = 3;		/* does not divide the channels */
	EXPECT_EQ(-VNPU_OPS_EINVAL, conv_try(xs, wg, os, 6, &at, F));
	at.ints[8] = 0;
	EXPECT_EQ(-VNPU_OPS_EINVAL, conv_try(xs, ws, os, 6, &at, F));
	at.ints[8] = 1;
	at.ints[0] = 0;		/* stride 0 */
	EXPECT_EQ(-VNPU_OPS_EINVAL, conv_try(xs, ws, os, 6, &at, F));
	at.ints[0] = 1;
	at.ints[6] = 0;		/* dilation 0 */
	EXPECT_EQ(-VNPU_OPS_EINVAL, conv_try(xs, ws, os, 6, &at, F));
	at.ints[6] = 1;
	at.ints[2] = -1;	/* negative pad */
	EXPECT_EQ(-VNPU_OPS_EINVAL, conv_try(xs, ws, os, 6, &at, F));
}

TEST(pool_check_rejects)
{
	struct ot_tensor x, o;
	struct ot_tensor *ts[2] = { &x, &o };
	struct drm_vnpu_op_attrs at = { 0 };
	s64 xs[4] = { 1, 2, 8, 8 }, os[4] = { 1, 2, 4, 4 };

	ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 4, xs);
	ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 4, os);
	at.ints[0] = 2;
	at.ints[1] = 2;
	at.ints[2] = 2;
	at.ints[3] = 2;
	at.ints[8] = 1;
	at.ints[9] = 1;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_MAX_POOL2D, ts, 1, 1, &at, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_MAX_POOL2D, ts, 1, 1, NULL, 0));
	at.ints[10] = 2;	/* ceil mode is 0 or 1 */
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_AVG_POOL2D, ts, 1, 1, &at, 0));
	at.ints[10] = 0;
	at.ints[2] = 3;		/* output shape no longer matches */
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_AVG_POOL2D, ts, 1, 1, &at, 0));
	at.ints[2] = 0;
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_AVG_POOL2D, ts, 1, 1, &at, 0));
	/* global pools keep N and C and need 1s elsewhere */
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_GLOBAL_AVG_POOL, ts, 1, 1, NULL, 0));
	o.v.shape[2] = 1;
	o.v.shape[3] = 1;
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_GLOBAL_AVG_POOL, ts, 1, 1, NULL, 0));
	o.v.shape[1] = 3;
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_GLOBAL_MAX_POOL, ts, 1, 1, NULL, 0));
	o.v.shape[1] = 2;
	o.v.shape[2] = 0;	/* adaptive: empty output is invalid */
	EXPECT_EQ(-VNPU_OPS_EINVAL,
		  ot_run(DRM_VNPU_OP_ADAPTIVE_AVG_POOL2D, ts, 1, 1, NULL, 0));
	ot_free(&x);
	ot_free(&o);
}

TEST_HARNESS_MAIN
