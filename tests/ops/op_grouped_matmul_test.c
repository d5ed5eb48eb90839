// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of GROUPED_MATMUL against a naive double reference: group
 * lists as cumulative ends and as counts, empty groups, groups that end
 * inside and across blocks of rows, rows past the last group (zeroed),
 * bias, transposed weights, fp16/bf16, every micro-kernel variant; lists
 * that break the rules fail at run time (bad data), and check() refuses
 * every malformed call.
 */
#include "ops_test_util.h"
#include "kselftest_harness.h"

struct gcase {
	u32 dtype;
	s64 m, n, k, e;
	const s64 *list;	/* as given to the operator */
	bool counts, bias, wt;
	bool nolist;		/* kind 2: one group, no list */
	u32 cpu;
};

/* Runs one case; returns wrong elements, or -1 when the run failed. */
static int run_case(struct __test_metadata *_metadata, const struct gcase *c)
{
	struct ot_tensor x, w, gl, b, o, *ts[5];
	struct drm_vnpu_op_attrs at = { 0 };
	s64 sh[3], i, j, q, g, bad = 0, start = 0;
	double rt = c->dtype == DRM_VNPU_DTYPE_FLOAT ? 0 : ot_tolerance(c->dtype);
	int ret, nin = 3;

	sh[0] = c->m;
	sh[1] = c->k;
	ot_make(&x, c->dtype, 2, sh);
	ot_fill(&x, c->m + c->k, -1, 1);
	sh[0] = c->e;
	sh[1] = c->k;
	sh[2] = c->n;
	ot_make(&w, c->dtype, 3, sh);
	if (c->wt) {		/* each w[e] stored [n][k] */
		w.v.strides[1] = 1;
		w.v.strides[2] = c->k;
	}
	ot_fill(&w, c->n * 3 + c->e, -1, 1);
	sh[0] = c->e;
	ot_make(&gl, DRM_VNPU_DTYPE_INT64, 1, sh);
	if (c->list)
		memcpy(gl.buf, c->list, (size_t)c->e * 8);
	sh[1] = c->n;
	ot_make(&b, c->dtype, 2, sh);
	ot_fill(&b, 7, -2, 2);
	sh[0] = c->m;
	ot_make(&o, c->dtype, 2, sh);
	ot_fill(&o, 9, 100, 200);	/* every element must be written */
	ts[0] = &x;
	ts[1] = &w;
	if (c->nolist)
		nin = 2;
	else
		ts[2] = &gl;
	if (c->bias)
		ts[nin++] = &b;
	ts[nin] = &o;
	at.ints[0] = c->nolist ? 2 : c->counts;
	at.ints[1] = c->bias;
	ret = ot_run(DRM_VNPU_OP_GROUPED_MATMUL, ts, nin, 1, &at, c->cpu);
	if (ret) {
		bad = -1;
		goto out;
	}
	for (g = 0; g <= c->e; g++) {
		/* group e is the tail past the last group: zeros */
		s64 end = g == c->e || c->nolist ? c->m :
			  c->counts ? start + c->list[g] : c->list[g];

		for (i = start; i < end; i++)
			for (j = 0; j < c->n; j++) {
				double want = 0, mag = 0, got;
				s64 ix[3];

				for (q = 0; q < c->k && g < c->e; q++) {
					double t;

					ix[0] = i;
					ix[1] = q;
					t = ot_get(&x, ix);
					ix[0] = g;
					ix[1] = q;
					ix[2] = j;
					t *= ot_get(&w, ix);
					want += t;
					mag += fabs(t);
				}
				if (c->bias && g < c->e) {
					ix[0] = g;
					ix[1] = j;
					want += ot_get(&b, ix);
					mag += fabs(ot_get(&b, ix));
				}
				ix[0] = i;
				ix[1] = j;
				got = ot_get(&o, ix);
				if (fabs(got - want) > 1e-6 * sqrt((double)c->k + 1) * mag +
						       rt * mag + 1e-30 && bad++ < 4)
					TH_LOG("group %lld row %lld col %lld: got %g want %g",
					       (long long)g, (long long)i, (long long)j,
					       got, want);
			}
		start = end;
	}
out:
	ot_free(&x);
	ot_free(&w);
	ot_free(&gl);
	ot_free(&b);
	ot_free(&o);
	return (int)bad;
}

static u32 cpus[3];

static void init_cpus(void)
{
	u32 host = vnpu_ops_host_cpu();

	cpus[0] = host;
	cpus[1] = host & VNPU_CPU_AVX2_FMA;
	cpus[2] = 0;
}

TEST(gmm_cumulative_and_counts_all_kernels)
{
	/* empty first and middle groups, a group across the 256-row block */
	static const s64 cum[5] = { 0, 3, 3, 290, 300 };
	static const s64 cnt[5] = { 0, 3, 0, 287, 10 };
	int v, b, fails = 0;

	init_cpus();
	for (v = 0; v < 3; v++)
		for (b = 0; b < 4; b++) {
			struct gcase c = { .dtype = DRM_VNPU_DTYPE_FLOAT, .m = 300,
					   .n = 37, .k = 65, .e = 5,
					   .list = b & 1 ? cnt : cum, .counts = b & 1,
					   .bias = b & 2, .wt = v == 1, .cpu = cpus[v] };

			fails += run_case(_metadata, &c);
			ASSERT_EQ(0, fails) TH_LOG("variant %d case %d", v, b);
		}
}

/* The last group ends before m: the rows after it are zeros. */
TEST(gmm_rows_past_last_group_zeroed)
{
	static const s64 cum[3] = { 2, 2, 5 };
	struct gcase c = { .dtype = DRM_VNPU_DTYPE_FLOAT, .m = 9, .n = 300,
			   .k = 7, .e = 3, .list = cum, .bias = true };

	init_cpus();
	c.cpu = cpus[0];
	EXPECT_EQ(0, run_case(_metadata, &c));
}

TEST(gmm_fp16_bf16_transposed)
{
	static const s64 cnt[4] = { 5, 1, 0, 10 };
	static const u32 dts[2] = { DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_BF16 };
	int d;

	init_cpus();
	for (d = 0; d < 2; d++) {
		struct gcase c = { .dtype = dts[d], .m = 16, .n = 40, .k = 300,
				   .e = 4, .list = cnt, .counts = true, .bias = true,
				   .wt = true, .cpu = cpus[0] };

		EXPECT_EQ(0, run_case(_metadata, &c)) TH_LOG("dtype %u", dts[d]);
	}
}

/* Without a list (ints[0] 2): one group over every row. */
TEST(gmm_single_group_without_list)
{
	struct gcase c = { .dtype = DRM_VNPU_DTYPE_BF16, .m = 270, .n = 33,
			   .k = 20, .e = 1, .nolist = true, .bias = true };

	init_cpus();
	c.cpu = cpus[0];
	EXPECT_EQ(0, run_case(_metadata, &c));
	c.dtype = DRM_VNPU_DTYPE_FLOAT;
	c.bias = false;
	c.wt = true;
	EXPECT_EQ(0, run_case(_metadata, &c));
}

/* Lists that break the rules: the run reports bad data. */
TEST(gmm_bad_lists_fail_at_run_time)
{
	static const s64 dec[3] = { 4, 2, 6 }, past[3] = { 1, 2, 7 };
	static const s64 neg[3] = { 2, -1, 3 }, sum[3] = { 3, 3, 1 };
	struct gcase c = { .dtype = DRM_VNPU_DTYPE_FLOAT, .m = 6, .n = 4,
			   .k = 3, .e = 3 };

	init_cpus();
	c.cpu = cpus[0];
	c.list = dec;
	EXPECT_EQ(-1, run_case(_metadata, &c));
	c.list = past;
	EXPECT_EQ(-1, run_case(_metadata, &c));
	c.counts = true;
	c.list = neg;
	EXPECT_EQ(-1, run_case(_metadata, &c));
	c.list = sum;
	EXPECT_EQ(-1, run_case(_metadata, &c));
}

TEST(gmm_check_rejects)
{
	s64 xs[2] = { 4, 8 }, ws[3] = { 2, 8, 3 }, gs[1] = { 2 }, bs[2] = { 2, 3 };
	s64 os[2] = { 4, 3 };
	struct ot_tensor x, w, gl, b, o, *ts[6] = { &x, &w, &gl, &b, &o };
	struct drm_vnpu_op_attrs at;
	int i;

	for (i = 0; i < 16; i++) {
		ot_make(&x, DRM_VNPU_DTYPE_FLOAT, 2, xs);
		ot_make(&w, DRM_VNPU_DTYPE_FLOAT, 3, ws);
		ot_make(&gl, DRM_VNPU_DTYPE_INT64, 1, gs);
		ot_make(&b, DRM_VNPU_DTYPE_FLOAT, 2, bs);
		ot_make(&o, DRM_VNPU_DTYPE_FLOAT, 2, os);
		((s64 *)gl.buf)[0] = 1;
		((s64 *)gl.buf)[1] = 4;
		memset(&at, 0, sizeof(at));
		at.ints[1] = 1;
		switch (i) {
		case 0: break;					/* valid */
		case 1: at.ints[0] = 2; break;			/* list kind */
		case 2: at.ints[1] = 2; break;			/* bias flag */
		case 3: at.ints[1] = 0; break;			/* 4 inputs */
		case 4: gl.v.dtype = DRM_VNPU_DTYPE_INT32; break;
		case 5: x.v.dtype = DRM_VNPU_DTYPE_INT8; break;
		case 6: w.v.shape[1] = 7; break;		/* k */
		case 7: gl.v.shape[0] = 3; break;		/* e */
		case 8: o.v.shape[1] = 4; break;		/* n */
		case 9: o.v.shape[0] = 5; break;		/* m */
		case 10: b.v.shape[0] = 1; break;
		case 11: w.v.rank = 2; break;
		case 12: w.v.shape[0] = 0; gl.v.shape[0] = 0; b.v.shape[0] = 0;
			 break;					/* no group */
		case 13: w.v.shape[0] = 1025; gl.v.shape[0] = 1025;
			 b.v.shape[0] = 1025; w.v.strides[0] = 0;
			 gl.v.strides[0] = 0; b.v.strides[0] = 0;
			 break;					/* > 1024 */
		case 14: at.ints[0] = 3; break;			/* list kind */
		case 15: at.ints[0] = 2; break;			/* no list: 3 inputs, e 1 */
		}
		EXPECT_EQ(i ? -VNPU_OPS_EINVAL : 0,
			  ot_run(DRM_VNPU_OP_GROUPED_MATMUL, ts, 4, 1, &at, 0))
			TH_LOG("rule %d", i);
		ot_free(&x);
		ot_free(&w);
		ot_free(&gl);
		ot_free(&b);
		ot_free(&o);
	}
}

TEST_HARNESS_MAIN
