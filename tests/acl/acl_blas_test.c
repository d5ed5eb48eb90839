// SPDX-License-Identifier: MIT
/*
 * CANN's cblas (acl/ops/acl_cblas.h, -lacl_cblas) on the real driver,
 * called the way CANN's gemm samples call it: host matrices, aclrtMalloc,
 * aclrtMemcpy to the device (alpha and beta too: they are device
 * values), aclblasGemmEx & co. on a stream, aclrtSynchronizeStream, the
 * result read back and compared with a reference computed here. Every
 * function and handle form, every trans combination on non-square shapes
 * with leading dimensions above the minimum (the gaps between rows must
 * stay untouched), beta = 0 over NaN, stream order, and each validation
 * rule with its exact code (C unchanged after a refused call).
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

enum api { GEMMEX, HGEMM, S8GEMM, GEMVEX, HGEMV, S8GEMV, HANDLE };

/* One gemm: shapes, leading dims as passed (-1 packed), dtypes, scalars. */
struct gcase {
	aclTransType ta, tb;
	int m, n, k, lda, ldb, ldc;
	aclDataType dab, dc;
	double alpha, beta;
	bool nan_c;		/* C starts as NaN (beta must then be 0) */
};

static size_t esz(aclDataType dt)
{
	return dt == ACL_INT8 ? 1 : dt == ACL_FLOAT16 ? 2 : 4;
}

static void put(aclDataType dt, void *p, size_t i, double v)
{
	switch (dt) {
	case ACL_FLOAT16: ((aclFloat16 *)p)[i] = aclFloatToFloat16((float)v); break;
	case ACL_INT8: ((int8_t *)p)[i] = (int8_t)v; break;
	case ACL_INT32: ((int32_t *)p)[i] = (int32_t)v; break;
	default: ((float *)p)[i] = (float)v; break;
	}
}

static double get(aclDataType dt, const void *p, size_t i)
{
	switch (dt) {
	case ACL_FLOAT16: return aclFloat16ToFloat(((const aclFloat16 *)p)[i]);
	case ACL_INT8: return ((const int8_t *)p)[i];
	case ACL_INT32: return ((const int32_t *)p)[i];
	default: return ((const float *)p)[i];
	}
}

/* Stored rows, columns and the leading dim actually used. */
static void dims(const struct gcase *c, int w, int *rows, int *cols, int *ld)
{
	int r, cl, l;

	if (w == 0) {
		r = c->ta == ACL_TRANS_T ? c->k : c->m;
		cl = c->ta == ACL_TRANS_T ? c->m : c->k;
		l = c->lda;
	} else if (w == 1) {
		r = c->tb == ACL_TRANS_T ? c->n : c->k;
		cl = c->tb == ACL_TRANS_T ? c->k : c->n;
		l = c->ldb;
	} else {
		r = c->m;
		cl = c->n;
		l = c->ldc;
	}
	*rows = r;
	*cols = cl;
	*ld = l < 0 ? cl : l;
}

static void *dev_copy(const void *h, size_t n)
{
	void *d = NULL;

	if (aclrtMalloc(&d, n, ACL_MEM_MALLOC_HUGE_FIRST))
		return NULL;
	if (aclrtMemcpy(d, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE)) {
		aclrtFree(d);
		return NULL;
	}
	return d;
}

/* Device copies of a case's operands and their host images. */
struct gbufs {
	void *h[3], *d[3], *dal, *dbe;
	size_t bytes[3];
};

static double val_a(int i, int j) { return 0.5 * (((i * 7 + j * 3) % 5) - 2); }
static double val_b(int i, int j) { return 0.25 * (((i * 5 + j * 11) % 9) - 4); }
static double val_c(int i, int j) { return 0.25 * (((i * 3 + j) % 7) - 3); }

/* Host operands (gaps: a sentinel of 77, or NaN), then device copies. */
static int make_bufs(const struct gcase *c, struct gbufs *b)
{
	aclDataType dt[3] = { c->dab, c->dab, c->dc };
	unsigned char scal[2][4];
	int rows, cols, ld;

	memset(b, 0, sizeof(*b));
	for (int w = 0; w < 3; w++) {
		dims(c, w, &rows, &cols, &ld);
		b->bytes[w] = (size_t)rows * ld * esz(dt[w]);
		b->h[w] = malloc(b->bytes[w]);
		if (!b->h[w])
			return -1;
		for (int i = 0; i < rows; i++)
			for (int j = 0; j < ld; j++) {
				size_t at = (size_t)i * ld + j;
				double v = j >= cols ? 77 :
					   w == 0 ? val_a(i, j) : w == 1 ?
					   val_b(i, j) : val_c(i, j);

				if (dt[w] == ACL_INT8 || dt[w] == ACL_INT32)
					v = j >= cols ? 77 : (double)(((i * 5 + j * 3 + w) % 9) - 4);
				put(dt[w], b->h[w], at, v);
			}
		if (w == 2 && c->nan_c)
			memset(b->h[w], 0xff, b->bytes[w]);	/* NaN */
		b->d[w] = dev_copy(b->h[w], b->bytes[w]);
		if (!b->d[w])
			return -1;
	}
	put(c->dc, scal[0], 0, c->alpha);
	put(c->dc, scal[1], 0, c->beta);
	b->dal = dev_copy(scal[0], esz(c->dc));
	b->dbe = dev_copy(scal[1], esz(c->dc));
	return b->dal && b->dbe ? 0 : -1;
}

static void free_bufs(struct gbufs *b)
{
	for (int w = 0; w < 3; w++) {
		aclrtFree(b->d[w]);
		free(b->h[w]);
	}
	aclrtFree(b->dal);
	aclrtFree(b->dbe);
}

/* The reference of element (i, j) of C, from the host images. */
static double ref(const struct gcase *c, const struct gbufs *b, int i, int j)
{
	int ra, ca, lda, rb, cb, ldb, rc, cc, ldc;
	double s = 0, old;

	dims(c, 0, &ra, &ca, &lda);
	dims(c, 1, &rb, &cb, &ldb);
	dims(c, 2, &rc, &cc, &ldc);
	for (int l = 0; l < c->k; l++) {
		double av = c->ta == ACL_TRANS_T ? get(c->dab, b->h[0], (size_t)l * lda + i) :
			    get(c->dab, b->h[0], (size_t)i * lda + l);
		double bv = c->tb == ACL_TRANS_T ? get(c->dab, b->h[1], (size_t)j * ldb + l) :
			    get(c->dab, b->h[1], (size_t)l * ldb + j);

		s += av * bv;
	}
	if (c->dc == ACL_INT32)
		s = (double)(int32_t)((int64_t)c->alpha * (int64_t)s);
	else
		s *= c->alpha;
	if (c->beta == 0)
		return s;
	old = get(c->dc, b->h[2], (size_t)i * ldc + j);
	return s + c->beta * old;
}

static aclError call(enum api api, const struct gcase *c, struct gbufs *b,
		     aclrtStream s)
{
	aclopHandle *h = NULL;
	aclDataBuffer *in[5], *out[1];
	aclError e;

	switch (api) {
	case GEMMEX:
		return aclblasGemmEx(c->ta, c->tb, ACL_TRANS_N, c->m, c->n, c->k,
				     b->dal, b->d[0], c->lda, c->dab, b->d[1], c->ldb,
				     c->dab, b->dbe, b->d[2], c->ldc, c->dc,
				     ACL_COMPUTE_HIGH_PRECISION, s);
	case HGEMM:
		return aclblasHgemm(c->ta, c->tb, ACL_TRANS_N, c->m, c->n, c->k,
				    b->dal, b->d[0], c->lda, b->d[1], c->ldb, b->dbe,
				    b->d[2], c->ldc, ACL_COMPUTE_HIGH_PRECISION, s);
	case S8GEMM:
		return aclblasS8gemm(c->ta, c->tb, ACL_TRANS_N, c->m, c->n, c->k,
				     b->dal, b->d[0], c->lda, b->d[1], c->ldb, b->dbe,
				     b->d[2], c->ldc, ACL_COMPUTE_HIGH_PRECISION, s);
	case GEMVEX:
		return aclblasGemvEx(c->ta, c->m, c->k, b->dal, b->d[0], c->lda,
				     c->dab, b->d[1], c->ldb, c->dab, b->dbe, b->d[2],
				     c->ldc, c->dc, ACL_COMPUTE_HIGH_PRECISION, s);
	case HGEMV:
		return aclblasHgemv(c->ta, c->m, c->k, b->dal, b->d[0], c->lda,
				    b->d[1], c->ldb, b->dbe, b->d[2], c->ldc,
				    ACL_COMPUTE_HIGH_PRECISION, s);
	case S8GEMV:
		return aclblasS8gemv(c->ta, c->m, c->k, b->dal, b->d[0], c->lda,
				     b->d[1], c->ldb, b->dbe, b->d[2], c->ldc,
				     ACL_COMPUTE_HIGH_PRECISION, s);
	case HANDLE:
		e = aclblasCreateHandleForGemmEx(c->ta, c->tb, ACL_TRANS_N, c->m,
						 c->n, c->k, c->dab, c->dab, c->dc,
						 ACL_COMPUTE_HIGH_PRECISION, &h);
		if (e)
			return e;
		in[0] = aclCreateDataBuffer(b->d[0], b->bytes[0]);
		in[1] = aclCreateDataBuffer(b->d[1], b->bytes[1]);
		in[2] = aclCreateDataBuffer(b->d[2], b->bytes[2]);
		in[3] = aclCreateDataBuffer(b->dal, esz(c->dc));
		in[4] = aclCreateDataBuffer(b->dbe, esz(c->dc));
		out[0] = aclCreateDataBuffer(b->d[2], b->bytes[2]);
		e = aclopExecWithHandle(h, 5, (const aclDataBuffer *const *)in, 1,
					out, s);
		for (int i = 0; i < 5; i++)
			aclDestroyDataBuffer(in[i]);
		aclDestroyDataBuffer(out[0]);
		aclopDestroyHandle(h);
		return e;
	}
	return -1;
}

/*
 * Run a case, compare every element of C with the reference and every
 * gap byte with what was there. Returns the number of mismatches, or -1.
 */
static int check_case(struct __test_metadata *_metadata, enum api api,
		      const struct gcase *c, aclrtStream s)
{
	struct gbufs b;
	int rows, cols, ld, bad = 0;
	unsigned char *got;
	double tol = c->dc == ACL_FLOAT16 ? 2e-3 : c->dc == ACL_FLOAT ? 1e-5 : 0;

	if (make_bufs(c, &b))
		return -1;
	got = malloc(b.bytes[2]);
	EXPECT_EQ(ACL_SUCCESS, call(api, c, &b, s));
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s));
	EXPECT_EQ(ACL_SUCCESS, aclrtMemcpy(got, b.bytes[2], b.d[2], b.bytes[2],
					   ACL_MEMCPY_DEVICE_TO_HOST));
	dims(c, 2, &rows, &cols, &ld);
	for (int i = 0; i < rows; i++)
		for (int j = 0; j < ld; j++) {
			size_t at = (size_t)i * ld + j;
			size_t e = esz(c->dc);

			if (j >= cols) {
				if (memcmp(got + at * e, (unsigned char *)b.h[2] + at * e, e)) {
					if (bad++ < 4)
						TH_LOG("gap (%d, %d) changed", i, j);
				}
				continue;
			}
			double r = ref(c, &b, i, j), g = get(c->dc, got, at);

			if (!(fabs(r - g) <= tol * (fabs(r) + 1))) {
				if (bad++ < 4)
					TH_LOG("api %d ta %d tb %d C(%d, %d) = %g, expected %g",
					       api, c->ta, c->tb, i, j, g, r);
			}
		}
	free(got);
	free_bufs(&b);
	return bad;
}

FIXTURE(blas) {
	aclrtStream stream;
};

FIXTURE_SETUP(blas)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->stream));
}

FIXTURE_TEARDOWN(blas)
{
	aclrtDestroyStream(self->stream);
	aclrtResetDevice(0);
	aclFinalize();
}

static const aclTransType trans[2] = { ACL_TRANS_N, ACL_TRANS_T };

/* Minimum leading dims plus pad (pad < 0: pass -1, packed). */
static void set_ld(struct gcase *c, int pad)
{
	int r, cl, l;

	c->lda = c->ldb = c->ldc = -1;
	if (pad < 0)
		return;
	dims(c, 0, &r, &cl, &l);
	c->lda = cl + pad;
	dims(c, 1, &r, &cl, &l);
	c->ldb = cl + pad;
	c->ldc = c->n + pad + 1;
}

/* Every trans pair, padded and packed, for one api and dtype pair. */
static int all_trans(struct __test_metadata *_metadata, enum api api,
		     aclDataType dab, aclDataType dc, double alpha, double beta,
		     aclrtStream s)
{
	int bad = 0;

	for (int x = 0; x < 2; x++)
		for (int y = 0; y < 2; y++)
			for (int pad = -1; pad <= 3; pad += 4) {
				struct gcase c = { .ta = trans[x], .tb = trans[y],
						   .m = 5, .n = 7, .k = 3, .dab = dab,
						   .dc = dc, .alpha = alpha, .beta = beta };

				if (api == HANDLE && pad >= 0)
					continue;
				set_ld(&c, pad);
				bad += check_case(_metadata, api, &c, s);
			}
	return bad;
}

TEST_F(blas, gemmex_fp32_every_trans_and_ld)
{
	EXPECT_EQ(0, all_trans(_metadata, GEMMEX, ACL_FLOAT, ACL_FLOAT, 1.5, -0.5,
			       self->stream));
}

TEST_F(blas, gemmex_fp16_in_fp16_and_fp32_out)
{
	EXPECT_EQ(0, all_trans(_metadata, GEMMEX, ACL_FLOAT16, ACL_FLOAT16, 1.5,
			       -0.5, self->stream));
	EXPECT_EQ(0, all_trans(_metadata, GEMMEX, ACL_FLOAT16, ACL_FLOAT, 2.0,
			       0.25, self->stream));
}

TEST_F(blas, gemmex_int8_in_int32_and_fp32_out)
{
	EXPECT_EQ(0, all_trans(_metadata, GEMMEX, ACL_INT8, ACL_INT32, 3, -2,
			       self->stream));
	EXPECT_EQ(0, all_trans(_metadata, GEMMEX, ACL_INT8, ACL_FLOAT, 0.5, 1,
			       self->stream));
}

TEST_F(blas, hgemm_every_trans_and_ld)
{
	EXPECT_EQ(0, all_trans(_metadata, HGEMM, ACL_FLOAT16, ACL_FLOAT16, -1.0,
			       2.0, self->stream));
}

TEST_F(blas, s8gemm_every_trans_and_ld)
{
	EXPECT_EQ(0, all_trans(_metadata, S8GEMM, ACL_INT8, ACL_INT32, 2, 5,
			       self->stream));
}

/* int8 products of 127 * 127 over k = 64 stay exact in int32. */
TEST_F(blas, s8gemm_extremes_exact)
{
	int8_t a[4 * 64], b[64 * 3];
	int32_t c[4 * 3], al = 1, be = 0;
	void *da, *db, *dc, *dal, *dbe;

	for (int i = 0; i < 4 * 64; i++)
		a[i] = (i & 1) ? -128 : 127;
	for (int i = 0; i < 64 * 3; i++)
		b[i] = (i % 3) ? -128 : 127;
	da = dev_copy(a, sizeof(a));
	db = dev_copy(b, sizeof(b));
	dc = dev_copy(c, sizeof(c));
	dal = dev_copy(&al, 4);
	dbe = dev_copy(&be, 4);
	ASSERT_EQ(ACL_SUCCESS, aclblasS8gemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N,
					     4, 3, 64, dal, da, -1, db, -1, dbe, dc,
					     -1, ACL_COMPUTE_HIGH_PRECISION,
					     self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(c, sizeof(c), dc, sizeof(c),
					   ACL_MEMCPY_DEVICE_TO_HOST));
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 3; j++) {
			int64_t r = 0;

			for (int l = 0; l < 64; l++)
				r += (int64_t)a[i * 64 + l] * b[l * 3 + j];
			ASSERT_EQ(r, c[i * 3 + j]);
		}
	aclrtFree(da);
	aclrtFree(db);
	aclrtFree(dc);
	aclrtFree(dal);
	aclrtFree(dbe);
}

/* beta = 0: C is only written, its NaN never reaches the result. */
TEST_F(blas, beta_zero_ignores_nan_in_c)
{
	static const aclDataType dab[3] = { ACL_FLOAT, ACL_FLOAT16, ACL_FLOAT16 };
	static const aclDataType dc[3] = { ACL_FLOAT, ACL_FLOAT16, ACL_FLOAT };

	for (int t = 0; t < 3; t++)
		for (int x = 0; x < 2; x++) {
			struct gcase c = { .ta = trans[x], .tb = trans[1 - x],
					   .m = 6, .n = 4, .k = 5, .dab = dab[t],
					   .dc = dc[t], .alpha = 1.25, .beta = 0,
					   .nan_c = true };

			set_ld(&c, x ? 2 : -1);
			EXPECT_EQ(0, check_case(_metadata, GEMMEX, &c, self->stream));
		}
}

/* alpha = 0 and beta = 1 leave C as it was; beta = -1 negates it. */
TEST_F(blas, alpha_zero_and_beta_only)
{
	struct gcase c = { .ta = ACL_TRANS_T, .tb = ACL_TRANS_N, .m = 3, .n = 9,
			   .k = 4, .dab = ACL_FLOAT, .dc = ACL_FLOAT, .alpha = 0,
			   .beta = 1 };

	set_ld(&c, 1);
	EXPECT_EQ(0, check_case(_metadata, GEMMEX, &c, self->stream));
	c.beta = -1;
	EXPECT_EQ(0, check_case(_metadata, GEMMEX, &c, self->stream));
}

/* op(A) is m x n; x has n elements every incx, y m every incy. */
static int gemv_cases(struct __test_metadata *_metadata, enum api api,
		      aclDataType dab, aclDataType dc, aclrtStream s)
{
	int bad = 0;

	for (int x = 0; x < 2; x++)
		for (int pad = -1; pad <= 2; pad += 3) {
			struct gcase c = { .ta = trans[x], .tb = ACL_TRANS_N,
					   .m = 6, .n = 1, .k = 9, .dab = dab,
					   .dc = dc, .alpha = 2, .beta = -1 };

			set_ld(&c, pad);	/* ldb = 1 + pad: incx */
			bad += check_case(_metadata, api, &c, s);
		}
	return bad;
}

TEST_F(blas, gemv_every_form)
{
	EXPECT_EQ(0, gemv_cases(_metadata, GEMVEX, ACL_FLOAT, ACL_FLOAT, self->stream));
	EXPECT_EQ(0, gemv_cases(_metadata, GEMVEX, ACL_FLOAT16, ACL_FLOAT, self->stream));
	EXPECT_EQ(0, gemv_cases(_metadata, GEMVEX, ACL_INT8, ACL_INT32, self->stream));
	EXPECT_EQ(0, gemv_cases(_metadata, HGEMV, ACL_FLOAT16, ACL_FLOAT16, self->stream));
	EXPECT_EQ(0, gemv_cases(_metadata, S8GEMV, ACL_INT8, ACL_INT32, self->stream));
}

TEST_F(blas, gemmex_handle_every_trans)
{
	EXPECT_EQ(0, all_trans(_metadata, HANDLE, ACL_FLOAT, ACL_FLOAT, 1.5, -0.5,
			       self->stream));
	EXPECT_EQ(0, all_trans(_metadata, HANDLE, ACL_FLOAT16, ACL_FLOAT16, 1, 1,
			       self->stream));
	EXPECT_EQ(0, all_trans(_metadata, HANDLE, ACL_INT8, ACL_INT32, 2, -3,
			       self->stream));
}

/* The typed handle forms, run twice each with new data. */
TEST_F(blas, typed_handles_run)
{
	aclopHandle *h[5] = { 0 };
	aclDataType dab[5] = { ACL_FLOAT16, ACL_INT8, ACL_FLOAT, ACL_FLOAT16, ACL_INT8 };
	aclDataType dc[5] = { ACL_FLOAT16, ACL_INT32, ACL_FLOAT, ACL_FLOAT16, ACL_INT32 };
	int n[5] = { 4, 4, 1, 1, 1 };

	ASSERT_EQ(ACL_SUCCESS, aclblasCreateHandleForHgemm(ACL_TRANS_T, ACL_TRANS_N,
			ACL_TRANS_N, 3, 4, 5, ACL_COMPUTE_HIGH_PRECISION, &h[0]));
	ASSERT_EQ(ACL_SUCCESS, aclblasCreateHandleForS8gemm(ACL_TRANS_T, ACL_TRANS_N,
			ACL_TRANS_N, 3, 4, 5, ACL_COMPUTE_HIGH_PRECISION, &h[1]));
	ASSERT_EQ(ACL_SUCCESS, aclblasCreateHandleForGemvEx(ACL_TRANS_T, 3, 5,
			ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, &h[2]));
	ASSERT_EQ(ACL_SUCCESS, aclblasCreateHandleForHgemv(ACL_TRANS_T, 3, 5,
			ACL_COMPUTE_HIGH_PRECISION, &h[3]));
	ASSERT_EQ(ACL_SUCCESS, aclblasCreateHandleForS8gemv(ACL_TRANS_T, 3, 5,
			ACL_COMPUTE_HIGH_PRECISION, &h[4]));
	for (int t = 0; t < 5; t++)
		for (int rep = 0; rep < 2; rep++) {
			struct gcase c = { .ta = ACL_TRANS_T, .tb = ACL_TRANS_N, .m = 3,
					   .n = n[t], .k = 5, .lda = -1, .ldb = -1,
					   .ldc = -1, .dab = dab[t], .dc = dc[t],
					   .alpha = rep ? 2 : 1, .beta = rep ? -1 : 0 };
			struct gbufs b;
			aclDataBuffer *in[5], *out[1];
			unsigned char got[64];
			int bad = 0;

			ASSERT_EQ(0, make_bufs(&c, &b));
			in[0] = aclCreateDataBuffer(b.d[0], b.bytes[0]);
			in[1] = aclCreateDataBuffer(b.d[1], b.bytes[1]);
			in[2] = aclCreateDataBuffer(b.d[2], b.bytes[2]);
			in[3] = aclCreateDataBuffer(b.dal, esz(c.dc));
			in[4] = aclCreateDataBuffer(b.dbe, esz(c.dc));
			out[0] = aclCreateDataBuffer(b.d[2], b.bytes[2]);
			ASSERT_EQ(ACL_SUCCESS, aclopExecWithHandle(h[t], 5,
					(const aclDataBuffer *const *)in, 1, out,
					self->stream));
			ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->stream));
			ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(got, sizeof(got), b.d[2],
							   b.bytes[2],
							   ACL_MEMCPY_DEVICE_TO_HOST));
			for (int i = 0; i < c.m; i++)
				for (int j = 0; j < c.n; j++) {
					double r = ref(&c, &b, i, j);
					double g = get(c.dc, got, (size_t)i * c.n + j);

					if (fabs(r - g) > 2e-3 * (fabs(r) + 1))
						bad++;
				}
			EXPECT_EQ(0, bad);
			for (int i = 0; i < 5; i++)
				aclDestroyDataBuffer(in[i]);
			aclDestroyDataBuffer(out[0]);
			free_bufs(&b);
		}
	for (int t = 0; t < 5; t++)
		aclopDestroyHandle(h[t]);
}

/* Misuse of a handle: buffer counts, a short buffer, NULL buffers. */
TEST_F(blas, handle_exec_misuse)
{
	struct gcase c = { .ta = ACL_TRANS_N, .tb = ACL_TRANS_N, .m = 4, .n = 4,
			   .k = 4, .lda = -1, .ldb = -1, .ldc = -1,
			   .dab = ACL_FLOAT, .dc = ACL_FLOAT, .alpha = 1, .beta = 0 };
	aclDataBuffer *in[5], *out[1], *shortb;
	aclopHandle *h;
	struct gbufs b;
	float got[16];

	ASSERT_EQ(0, make_bufs(&c, &b));
	ASSERT_EQ(ACL_SUCCESS, aclblasCreateHandleForGemmEx(ACL_TRANS_N, ACL_TRANS_N,
			ACL_TRANS_N, 4, 4, 4, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT,
			ACL_COMPUTE_HIGH_PRECISION, &h));
	in[0] = aclCreateDataBuffer(b.d[0], b.bytes[0]);
	in[1] = aclCreateDataBuffer(b.d[1], b.bytes[1]);
	in[2] = aclCreateDataBuffer(b.d[2], b.bytes[2]);
	in[3] = aclCreateDataBuffer(b.dal, 4);
	in[4] = aclCreateDataBuffer(b.dbe, 4);
	out[0] = aclCreateDataBuffer(b.d[2], b.bytes[2]);
	shortb = aclCreateDataBuffer(b.d[1], b.bytes[1] - 4);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopExecWithHandle(h, 4,
			(const aclDataBuffer *const *)in, 1, out, self->stream));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopExecWithHandle(h, 5,
			(const aclDataBuffer *const *)in, 0, out, self->stream));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopExecWithHandle(h, 5, NULL, 1, out,
							       self->stream));
	in[1] = shortb;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopExecWithHandle(h, 5,
			(const aclDataBuffer *const *)in, 1, out, self->stream));
	in[1] = NULL;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopExecWithHandle(h, 5,
			(const aclDataBuffer *const *)in, 1, out, self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(got, sizeof(got), b.d[2], b.bytes[2],
					   ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(0, memcmp(got, b.h[2], sizeof(got)));	/* untouched */
	for (int i = 0; i < 5; i++)
		if (i != 1)
			aclDestroyDataBuffer(in[i]);
	aclDestroyDataBuffer(shortb);
	aclDestroyDataBuffer(out[0]);
	aclopDestroyHandle(h);
	free_bufs(&b);
}

/*
 * Stream order without a sync in between: C1 = A B, then C2 = C1 B with
 * a larger product (the workspace grows), then a small one again, and
 * the same on a second stream and the default stream.
 */
TEST_F(blas, stream_order_and_workspace_growth)
{
	enum { N = 48 };
	static float a[N * N], b[N * N], c1[N * N], c2[N * N], r1[N * N], r2[N * N];
	float one = 1, zero = 0;
	void *da, *db, *dc1, *dc2, *d1, *d0;
	aclrtStream s2;

	for (int i = 0; i < N * N; i++) {
		a[i] = (float)((i * 7) % 5 - 2) * 0.5f;
		b[i] = (float)((i * 3) % 7 - 3) * 0.25f;
	}
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++) {
			double s = 0;

			for (int l = 0; l < 8; l++)
				s += a[i * 8 + l] * b[l * 8 + j];
			r1[i * 8 + j] = (float)s;
		}
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < N; j++) {
			double s = 0;

			for (int l = 0; l < 8; l++)
				s += r1[i * 8 + l] * b[l * N + j];
			r2[i * N + j] = (float)s;
		}
	da = dev_copy(a, sizeof(a));
	db = dev_copy(b, sizeof(b));
	dc1 = dev_copy(c1, sizeof(c1));
	dc2 = dev_copy(c2, sizeof(c2));
	d1 = dev_copy(&one, 4);
	d0 = dev_copy(&zero, 4);
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s2));
	for (int round = 0; round < 3; round++) {
		aclrtStream s = round == 0 ? self->stream : round == 1 ? s2 : NULL;

		ASSERT_EQ(ACL_SUCCESS, aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N,
				ACL_TRANS_N, 8, 8, 8, d1, da, -1, ACL_FLOAT, db, -1,
				ACL_FLOAT, d0, dc1, -1, ACL_FLOAT,
				ACL_COMPUTE_HIGH_PRECISION, s));
		ASSERT_EQ(ACL_SUCCESS, aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N,
				ACL_TRANS_N, 8, N, 8, d1, dc1, -1, ACL_FLOAT, db, -1,
				ACL_FLOAT, d0, dc2, -1, ACL_FLOAT,
				ACL_COMPUTE_HIGH_PRECISION, s));
		ASSERT_EQ(ACL_SUCCESS, aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N,
				ACL_TRANS_N, 4, 4, 4, d1, da, -1, ACL_FLOAT, db, -1,
				ACL_FLOAT, d0, dc1, 8, ACL_FLOAT,
				ACL_COMPUTE_HIGH_PRECISION, s));
		ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s));
		ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(c2, sizeof(c2), dc2, sizeof(c2),
						   ACL_MEMCPY_DEVICE_TO_HOST));
		for (int i = 0; i < 8 * N; i++)
			ASSERT_LE(fabsf(c2[i] - r2[i]), 1e-4f * (fabsf(r2[i]) + 1));
		ASSERT_EQ(ACL_SUCCESS, aclrtMemset(dc2, sizeof(c2), 0, sizeof(c2)));
	}
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(s2));
	/* a stream made after one was destroyed works as well */
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s2));
	ASSERT_EQ(ACL_SUCCESS, aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N,
			8, 8, 8, d1, da, -1, ACL_FLOAT, db, -1, ACL_FLOAT, d0, dc1,
			-1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s2));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(c1, 256, dc1, 256, ACL_MEMCPY_DEVICE_TO_HOST));
	for (int i = 0; i < 64; i++)
		ASSERT_LE(fabsf(c1[i] - r1[i]), 1e-4f * (fabsf(r1[i]) + 1));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(s2));
	aclrtFree(da);
	aclrtFree(db);
	aclrtFree(dc1);
	aclrtFree(dc2);
	aclrtFree(d1);
	aclrtFree(d0);
}

/*
 * alpha and beta are read on the device in stream order: queued copies
 * change them (alpha 1 -> 3, beta 1 -> 0 over a C of NaN) right before
 * the call, with no sync in between.
 */
TEST_F(blas, alpha_beta_read_on_device_in_stream_order)
{
	float a[6] = { 1, 2, 3, 4, 5, 6 }, b[6] = { 1, 0, -1, 2, 0.5f, 1 };
	float one = 1, three = 3, c[4], r[4];
	void *da, *db, *dc, *dal, *dbe, *d3;

	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			r[i * 2 + j] = 3 * (a[i * 3] * b[j] + a[i * 3 + 1] * b[2 + j] +
					    a[i * 3 + 2] * b[4 + j]);
	memset(c, 0xff, sizeof(c));
	da = dev_copy(a, sizeof(a));
	db = dev_copy(b, sizeof(b));
	dc = dev_copy(c, sizeof(c));
	dal = dev_copy(&one, 4);
	dbe = dev_copy(&one, 4);
	d3 = dev_copy(&three, 4);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(dal, 4, d3, 4,
			ACL_MEMCPY_DEVICE_TO_DEVICE, self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(dbe, 4, 0, 4, self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N,
			2, 2, 3, dal, da, -1, ACL_FLOAT, db, -1, ACL_FLOAT, dbe, dc,
			-1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(c, sizeof(c), dc, sizeof(c),
					   ACL_MEMCPY_DEVICE_TO_HOST));
	for (int i = 0; i < 4; i++)
		ASSERT_EQ(r[i], c[i]);
	aclrtFree(da);
	aclrtFree(db);
	aclrtFree(dc);
	aclrtFree(dal);
	aclrtFree(dbe);
	aclrtFree(d3);
}

/* Threads on streams of their own, at once: each result is its own. */
struct thr {
	aclrtContext ctx;
	int id, bad;
};

static void *thr_run(void *p)
{
	struct thr *t = p;
	aclrtStream s;
	float a[16], b[16], c[16], al = (float)(t->id + 1), be = 0;
	void *da, *db, *dc, *dal, *dbe;

	if (aclrtSetCurrentContext(t->ctx) || aclrtCreateStream(&s)) {
		t->bad = -1;
		return NULL;
	}
	for (int i = 0; i < 16; i++) {
		a[i] = (float)(i % 5);
		b[i] = (float)(i % 3) - 1;
	}
	da = dev_copy(a, sizeof(a));
	db = dev_copy(b, sizeof(b));
	dc = dev_copy(c, sizeof(c));
	dal = dev_copy(&al, 4);
	dbe = dev_copy(&be, 4);
	for (int rep = 0; rep < 8; rep++) {
		int n = 2 + (rep + t->id) % 3;	/* 2..4: workspaces differ */

		if (aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_T, ACL_TRANS_N, n, n, n, dal,
				  da, 4, ACL_FLOAT, db, 4, ACL_FLOAT, dbe, dc, 4,
				  ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, s) ||
		    aclrtSynchronizeStream(s) ||
		    aclrtMemcpy(c, sizeof(c), dc, sizeof(c), ACL_MEMCPY_DEVICE_TO_HOST)) {
			t->bad++;
			continue;
		}
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++) {
				float r = 0;

				for (int l = 0; l < n; l++)
					r += a[i * 4 + l] * b[j * 4 + l];
				if (c[i * 4 + j] != al * r)
					t->bad++;
			}
	}
	aclrtFree(da);
	aclrtFree(db);
	aclrtFree(dc);
	aclrtFree(dal);
	aclrtFree(dbe);
	aclrtDestroyStream(s);
	return NULL;
}

TEST_F(blas, threads_on_their_own_streams)
{
	struct thr t[4];
	pthread_t th[4];
	aclrtContext ctx;

	ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&ctx));
	for (int i = 0; i < 4; i++) {
		t[i] = (struct thr){ .ctx = ctx, .id = i };
		ASSERT_EQ(0, pthread_create(&th[i], NULL, thr_run, &t[i]));
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		EXPECT_EQ(0, t[i].bad);
	}
}

/*
 * More streams than the workspace table has slots (64): the calls past
 * it take a one-off buffer; every result is still right.
 */
TEST_F(blas, more_streams_than_workspace_slots)
{
	enum { NS = 70 };
	aclrtStream s[NS];
	float a[4] = { 1, 2, 3, 4 }, b[4] = { 0.5f, -1, 2, 0 }, c[NS][4];
	void *da, *db, *dc, *dal, *dbe;
	float al[NS], be = 0;

	for (int i = 0; i < NS; i++)
		al[i] = (float)(i + 1);
	da = dev_copy(a, sizeof(a));
	db = dev_copy(b, sizeof(b));
	dc = dev_copy(c, sizeof(c));
	dal = dev_copy(al, sizeof(al));
	dbe = dev_copy(&be, 4);
	for (int i = 0; i < NS; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s[i]));
		ASSERT_EQ(ACL_SUCCESS, aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N,
				ACL_TRANS_N, 2, 2, 2, (float *)dal + i, da, -1, ACL_FLOAT,
				db, -1, ACL_FLOAT, dbe, (float *)dc + 4 * i, -1, ACL_FLOAT,
				ACL_COMPUTE_HIGH_PRECISION, s[i]));
	}
	for (int i = 0; i < NS; i++)
		ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s[i]));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(c, sizeof(c), dc, sizeof(c),
					   ACL_MEMCPY_DEVICE_TO_HOST));
	for (int i = 0; i < NS; i++) {
		ASSERT_EQ(al[i] * 4.5f, c[i][0]);	/* 1 * 0.5 + 2 * 2 */
		ASSERT_EQ(al[i] * -1, c[i][1]);
		ASSERT_EQ(al[i] * 9.5f, c[i][2]);
		ASSERT_EQ(al[i] * -3, c[i][3]);
		ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(s[i]));
	}
	aclrtFree(da);
	aclrtFree(db);
	aclrtFree(dc);
	aclrtFree(dal);
	aclrtFree(dbe);
}

/* After a device reset and a new aclInit the calls still work. */
TEST_F(blas, after_reset_and_reinit)
{
	struct gcase c = { .ta = ACL_TRANS_N, .tb = ACL_TRANS_T, .m = 4, .n = 6,
			   .k = 3, .dab = ACL_FLOAT, .dc = ACL_FLOAT, .alpha = 1,
			   .beta = 1 };

	set_ld(&c, 1);
	EXPECT_EQ(0, check_case(_metadata, GEMMEX, &c, self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclFinalize());
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->stream));
	EXPECT_EQ(0, check_case(_metadata, GEMMEX, &c, self->stream));
}

/* ------------------------------------------------------- validation -- */

/* A valid fp32 call whose arguments the negative tests change one by one. */
struct vcall {
	aclTransType ta, tb, tc;
	int m, n, k, lda, ldb, ldc;
	aclDataType da, db, dc;
	aclComputeType type;
	const void *alpha, *a, *b, *beta;
	void *c;
	aclrtStream s;
};

static aclError vrun(const struct vcall *v)
{
	return aclblasGemmEx(v->ta, v->tb, v->tc, v->m, v->n, v->k, v->alpha, v->a,
			     v->lda, v->da, v->b, v->ldb, v->db, v->beta, v->c,
			     v->ldc, v->dc, v->type, v->s);
}

FIXTURE(bad) {
	aclrtStream stream;
	void *a, *b, *c, *al, *be;
	struct vcall v;
	float host_c[64];
};

FIXTURE_SETUP(bad)
{
	float a[64], one = 1;

	for (int i = 0; i < 64; i++) {
		a[i] = (float)i;
		self->host_c[i] = (float)(100 + i);
	}
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->stream));
	self->a = dev_copy(a, sizeof(a));
	self->b = dev_copy(a, sizeof(a));
	self->c = dev_copy(self->host_c, sizeof(self->host_c));
	self->al = dev_copy(&one, 4);
	self->be = dev_copy(&one, 4);
	ASSERT_TRUE(self->a && self->b && self->c && self->al && self->be);
	self->v = (struct vcall){ ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 4, 4, 4,
				  -1, -1, -1, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT,
				  ACL_COMPUTE_HIGH_PRECISION, self->al, self->a,
				  self->b, self->be, self->c, self->stream };
	ASSERT_EQ(ACL_SUCCESS, vrun(&self->v));	/* the base call is valid */
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(self->host_c, sizeof(self->host_c),
					   self->c, sizeof(self->host_c),
					   ACL_MEMCPY_DEVICE_TO_HOST));
}

FIXTURE_TEARDOWN(bad)
{
	aclrtFree(self->a);
	aclrtFree(self->b);
	aclrtFree(self->c);
	aclrtFree(self->al);
	aclrtFree(self->be);
	aclrtDestroyStream(self->stream);
	aclrtResetDevice(0);
	aclFinalize();
}

/* Expect code for v, then check that C did not change. */
#define EXPECT_CODE(code, v) do {					\
	float now_[64];							\
	EXPECT_EQ((aclError)(code), vrun(&(v)));			\
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->stream));	\
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(now_, sizeof(now_), self->c,	\
			sizeof(now_), ACL_MEMCPY_DEVICE_TO_HOST));	\
	EXPECT_EQ(0, memcmp(now_, self->host_c, sizeof(now_)));	\
} while (0)

TEST_F(bad, null_pointers)
{
	struct vcall v;

	v = self->v; v.alpha = NULL; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	v = self->v; v.beta = NULL; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	v = self->v; v.a = NULL; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	v = self->v; v.b = NULL; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	v = self->v; v.c = NULL;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, vrun(&v));
}

TEST_F(bad, sizes)
{
	struct vcall v;

	v = self->v; v.m = 0; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	v = self->v; v.n = 0; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	v = self->v; v.k = 0; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	v = self->v; v.m = -3; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	v = self->v; v.k = -1; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	/* spans past 2^36 elements */
	v = self->v; v.m = 0x7fffffff; v.n = 1 << 20; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	v = self->v; v.m = 1 << 20; v.n = 1 << 20; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	/* deeper than one GEMM task */
	v = self->v; v.k = 149797; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	v = self->v; v.da = v.db = ACL_INT8; v.dc = ACL_INT32; v.n = 1024;
	v.k = 65537; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
}

TEST_F(bad, leading_dimensions)
{
	struct vcall v;

	v = self->v; v.lda = 3; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	v = self->v; v.ldb = 3; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	v = self->v; v.ldc = 3; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	v = self->v; v.lda = 0; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	v = self->v; v.ldb = -2; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	/* transposed A (k x m = 4 x 2) needs lda >= m = 2, not k */
	v = self->v; v.ta = ACL_TRANS_T; v.m = 2; v.lda = 1;
	EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	v = self->v; v.tb = ACL_TRANS_T; v.k = 2; v.ldb = 1;
	EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	/* the gemv forms: incx and incy are x's and y's strides */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclblasGemvEx(ACL_TRANS_N, 4, 4,
			self->al, self->a, -1, ACL_FLOAT, self->b, 0, ACL_FLOAT,
			self->be, self->c, -1, ACL_FLOAT,
			ACL_COMPUTE_HIGH_PRECISION, self->stream));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclblasGemvEx(ACL_TRANS_N, 4, 4,
			self->al, self->a, -1, ACL_FLOAT, self->b, -1, ACL_FLOAT,
			self->be, self->c, 0, ACL_FLOAT,
			ACL_COMPUTE_HIGH_PRECISION, self->stream));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclblasHgemv(ACL_TRANS_N, 4, 4,
			self->al, self->a, 2, self->b, -1, self->be, self->c, -1,
			ACL_COMPUTE_HIGH_PRECISION, self->stream));
	/* the boundary: exactly the row length, and more, are taken */
	v = self->v; v.lda = 4; v.ldb = 4; v.ldc = 4;
	EXPECT_EQ(ACL_SUCCESS, vrun(&v));
	v = self->v; v.lda = 16; v.ldb = 5; v.ldc = 12;
	EXPECT_EQ(ACL_SUCCESS, vrun(&v));
	v = self->v; v.ta = ACL_TRANS_T; v.m = 2; v.lda = 2;
	EXPECT_EQ(ACL_SUCCESS, vrun(&v));
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->stream));
}

TEST_F(bad, trans_and_compute_type)
{
	struct vcall v;

	v = self->v; v.ta = ACL_TRANS_NZ_T; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	v = self->v; v.tb = ACL_TRANS_NZ_T; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	v = self->v; v.ta = (aclTransType)7; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	v = self->v; v.tb = (aclTransType)-1; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	v = self->v; v.tc = ACL_TRANS_T; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	v = self->v; v.tc = ACL_TRANS_NZ_T; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	/* FRACTAL_NZ is CANN's but not vnpu's */
	v = self->v; v.ta = ACL_TRANS_NZ; EXPECT_CODE(ACL_ERROR_API_NOT_SUPPORT, v);
	v = self->v; v.tb = ACL_TRANS_NZ; EXPECT_CODE(ACL_ERROR_API_NOT_SUPPORT, v);
	v = self->v; v.tc = ACL_TRANS_NZ; EXPECT_CODE(ACL_ERROR_API_NOT_SUPPORT, v);
	v = self->v; v.type = ACL_COMPUTE_LOW_PRECISION;
	EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
	v = self->v; v.type = (aclComputeType)9; EXPECT_CODE(ACL_ERROR_INVALID_PARAM, v);
}

TEST_F(bad, dtype_combinations)
{
	static const aclDataType combos[][3] = {
		{ ACL_FLOAT, ACL_FLOAT, ACL_FLOAT16 },
		{ ACL_FLOAT, ACL_FLOAT, ACL_INT32 },
		{ ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT },
		{ ACL_FLOAT16, ACL_FLOAT16, ACL_INT32 },
		{ ACL_INT8, ACL_INT8, ACL_FLOAT16 },
		{ ACL_INT8, ACL_INT8, ACL_INT8 },
		{ ACL_INT8, ACL_FLOAT16, ACL_INT32 },
		{ ACL_INT32, ACL_INT32, ACL_INT32 },
		{ ACL_DOUBLE, ACL_DOUBLE, ACL_DOUBLE },
		{ ACL_BF16, ACL_BF16, ACL_FLOAT },
		{ (aclDataType)1234, ACL_FLOAT, ACL_FLOAT },
	};
	struct vcall v;

	for (size_t i = 0; i < sizeof(combos) / sizeof(combos[0]); i++) {
		v = self->v;
		v.da = combos[i][0];
		v.db = combos[i][1];
		v.dc = combos[i][2];
		EXPECT_CODE(ACL_ERROR_UNSUPPORTED_DATA_TYPE, v);
	}
}

TEST_F(bad, streams)
{
	struct vcall v;
	aclrtStream gone;

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&gone));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(gone));
	v = self->v; v.s = gone; EXPECT_CODE(ACL_ERROR_RT_PARAM_INVALID, v);
	v = self->v; v.s = (aclrtStream)&v; EXPECT_CODE(ACL_ERROR_RT_PARAM_INVALID, v);
}

TEST_F(bad, handle_creation)
{
	aclopHandle *h = (aclopHandle *)&h;

	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclblasCreateHandleForGemmEx(ACL_TRANS_N,
			ACL_TRANS_N, ACL_TRANS_N, 4, 4, 4, ACL_FLOAT, ACL_FLOAT,
			ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclblasCreateHandleForGemmEx(ACL_TRANS_N,
			ACL_TRANS_N, ACL_TRANS_N, 0, 4, 4, ACL_FLOAT, ACL_FLOAT,
			ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, &h));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclblasCreateHandleForGemmEx(ACL_TRANS_NZ_T,
			ACL_TRANS_N, ACL_TRANS_N, 4, 4, 4, ACL_FLOAT, ACL_FLOAT,
			ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, &h));
	EXPECT_EQ(ACL_ERROR_API_NOT_SUPPORT, aclblasCreateHandleForGemmEx(ACL_TRANS_N,
			ACL_TRANS_NZ, ACL_TRANS_N, 4, 4, 4, ACL_FLOAT, ACL_FLOAT,
			ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, &h));
	EXPECT_EQ(ACL_ERROR_UNSUPPORTED_DATA_TYPE, aclblasCreateHandleForGemmEx(
			ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 4, 4, 4, ACL_FLOAT,
			ACL_FLOAT, ACL_FLOAT16, ACL_COMPUTE_HIGH_PRECISION, &h));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclblasCreateHandleForHgemm(ACL_TRANS_N,
			ACL_TRANS_N, ACL_TRANS_N, 4, 4, 4, ACL_COMPUTE_LOW_PRECISION, &h));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclblasCreateHandleForS8gemm(ACL_TRANS_N,
			ACL_TRANS_N, ACL_TRANS_T, 4, 4, 4, ACL_COMPUTE_HIGH_PRECISION, &h));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclblasCreateHandleForGemvEx(ACL_TRANS_N,
			4, -4, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT,
			ACL_COMPUTE_HIGH_PRECISION, &h));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclblasCreateHandleForHgemv(ACL_TRANS_N,
			-1, 4, ACL_COMPUTE_HIGH_PRECISION, &h));
	EXPECT_EQ(ACL_ERROR_API_NOT_SUPPORT, aclblasCreateHandleForS8gemv(ACL_TRANS_NZ,
			4, 4, ACL_COMPUTE_HIGH_PRECISION, &h));
	EXPECT_EQ((aclopHandle *)&h, h);	/* never written on failure */
}

/* The typed forms pass their own dtypes and check like GemmEx. */
TEST_F(bad, typed_forms)
{
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclblasHgemm(ACL_TRANS_N, ACL_TRANS_N,
			ACL_TRANS_N, 4, 4, 4, NULL, self->a, -1, self->b, -1,
			self->be, self->c, -1, ACL_COMPUTE_HIGH_PRECISION,
			self->stream));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclblasS8gemm(ACL_TRANS_N, ACL_TRANS_N,
			ACL_TRANS_N, 4, 0, 4, self->al, self->a, -1, self->b, -1,
			self->be, self->c, -1, ACL_COMPUTE_HIGH_PRECISION,
			self->stream));
	EXPECT_EQ(ACL_ERROR_API_NOT_SUPPORT, aclblasS8gemv(ACL_TRANS_NZ, 4, 4,
			self->al, self->a, -1, self->b, -1, self->be, self->c, -1,
			ACL_COMPUTE_HIGH_PRECISION, self->stream));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclblasHgemv(ACL_TRANS_N, 4, 4,
			self->al, self->a, -1, self->b, -1, self->be, NULL, -1,
			ACL_COMPUTE_HIGH_PRECISION, self->stream));
	EXPECT_EQ(ACL_ERROR_UNSUPPORTED_DATA_TYPE, aclblasGemvEx(ACL_TRANS_N, 4, 4,
			self->al, self->a, -1, ACL_FLOAT, self->b, -1, ACL_FLOAT16,
			self->be, self->c, -1, ACL_FLOAT,
			ACL_COMPUTE_HIGH_PRECISION, self->stream));
}

/* Before aclInit every call says so. */
TEST(before_init)
{
	aclopHandle *h = NULL;
	float x = 0;

	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N,
			ACL_TRANS_N, 1, 1, 1, &x, &x, -1, ACL_FLOAT, &x, -1,
			ACL_FLOAT, &x, &x, -1, ACL_FLOAT,
			ACL_COMPUTE_HIGH_PRECISION, NULL));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclblasCreateHandleForHgemm(ACL_TRANS_N,
			ACL_TRANS_N, ACL_TRANS_N, 1, 1, 1,
			ACL_COMPUTE_HIGH_PRECISION, &h));
	EXPECT_EQ(NULL, h);
}

TEST_HARNESS_MAIN
