// SPDX-License-Identifier: MIT
/*
 * aclnnFusedInferAttentionScoreV2 and aclnnRotaryPositionEmbedding on the
 * real driver against references in double: every float dtype and
 * layout, GQA and MQA, pse broadcast over heads as ggml passes it, masks
 * of each shape and dtype, the sparse modes, per-batch key lengths,
 * strided views (ggml's BNSD buffers seen as BSND), softmaxLse, RoPE's
 * four modes with broadcast tables and in place, and the status of every
 * validation rule.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v2.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"

#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#include "aclnn_test_util.h"

enum { L_BSH, L_BSND, L_BNSD, L_BNSD_BSND };
static char *layouts[] = { "BSH", "BSND", "BNSD", "BNSD_BSND" };

static size_t esize(aclDataType dt)
{
	return dt == ACL_FLOAT ? 4 : dt == ACL_INT64 ? 8 :
	       dt == ACL_FLOAT16 || dt == ACL_BF16 ? 2 : 1;
}

static uint16_t to_bf16(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	u += 0x7fff + ((u >> 16) & 1);
	return (uint16_t)(u >> 16);
}

static float from_bf16(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* Round @x to @dt in place and pack it into a new buffer of @dt. */
static void *pack(float *x, size_t n, aclDataType dt)
{
	void *p = malloc(n * esize(dt) + 1);
	size_t i;

	for (i = 0; i < n; i++) {
		if (dt == ACL_FLOAT16) {
			((aclFloat16 *)p)[i] = aclFloatToFloat16(x[i]);
			x[i] = aclFloat16ToFloat(((aclFloat16 *)p)[i]);
		} else if (dt == ACL_BF16) {
			((uint16_t *)p)[i] = to_bf16(x[i]);
			x[i] = from_bf16(((uint16_t *)p)[i]);
		} else {
			((float *)p)[i] = x[i];
		}
	}
	return p;
}

static float unpack1(const void *p, size_t i, aclDataType dt)
{
	if (dt == ACL_FLOAT16)
		return aclFloat16ToFloat(((const aclFloat16 *)p)[i]);
	if (dt == ACL_BF16)
		return from_bf16(((const uint16_t *)p)[i]);
	return ((const float *)p)[i];
}

/* Device copy of @x rounded to @dt. */
static void *up(FIXTURE_DATA(nn) *f, float *x, size_t n, aclDataType dt)
{
	void *h = pack(x, n, dt), *d = dev(f, h, n * esize(dt));

	free(h);
	return d;
}

/* Device buffer of @n elements of @dt read back as floats. */
static void down(float *x, void *d, size_t n, aclDataType dt)
{
	void *h = malloc(n * esize(dt) + 1);
	size_t i;

	get(h, d, n * esize(dt));
	for (i = 0; i < n; i++)
		x[i] = unpack1(h, i, dt);
	free(h);
}

static double tol(aclDataType dt)
{
	return dt == ACL_FLOAT ? 1e-4 : dt == ACL_FLOAT16 ? 2e-3 : 1.6e-2;
}

static int close_to(double got, double want, double t)
{
	if (isinf(want))
		return got == want;
	return fabs(got - want) <= t + t * fabs(want);
}

/* Offset of logical (b, n, s, d) in a buffer laid out BNSD or BSND. */
static int64_t loff(int bsnd, int64_t N, int64_t S, int64_t D, int64_t b,
		    int64_t n, int64_t s, int64_t d)
{
	return bsnd ? ((b * S + s) * N + n) * D + d : ((b * N + n) * S + s) * D + d;
}

/* A tensor over a buffer laid out BNSD or BSND, in @layout's dims. */
static aclTensor *lt(int layout, int bsnd_mem, int64_t B, int64_t N,
		     int64_t S, int64_t D, aclDataType dt, void *d)
{
	int64_t st_bnsd[4] = { N * S * D, S * D, D, 1 };
	int64_t st_bsnd[4] = { S * N * D, D, N * D, 1 };	/* b, n, s, d */
	const int64_t *st = bsnd_mem ? st_bsnd : st_bnsd;
	int64_t dims[4], strides[4];

	if (layout == L_BSH) {	/* needs a BSND buffer */
		int64_t d3[3] = { B, S, N * D }, s3[3] = { S * N * D, N * D, 1 };

		return view(d3, 3, s3, 0, B * N * S * D, dt, d);
	}
	if (layout == L_BSND) {
		int64_t dd[4] = { B, S, N, D }, ss[4] = { st[0], st[2], st[1], st[3] };

		memcpy(dims, dd, sizeof(dims));
		memcpy(strides, ss, sizeof(strides));
	} else {
		int64_t dd[4] = { B, N, S, D };

		memcpy(dims, dd, sizeof(dims));
		memcpy(strides, st, sizeof(strides));
	}
	return view(dims, 4, strides, 0, B * N * S * D, dt, d);
}

struct fcase {
	aclDataType dt;
	int layout;
	int64_t B, N, NKV, SQ, SKV, DK, DV;
	bool pse;		/* (B, N, Sq, Skv) with head stride 0, as ggml */
	int mask;		/* 0, 1 (Sq, Skv) BOOL, 2 (B, 1, Sq, Skv) INT8,
				 * 3 (B, Skv) UINT8, 4 the 2048 x 2048 one */
	int sparse;
	int64_t pre, next;
	bool lse;
	const int64_t *kvlen;
	uint64_t nkvlen;
	bool strided;		/* q, k, v: BNSD buffers seen as BSND */
	bool lists;		/* key and value as lists of B tensors */
	double scale;
};

/* Run a case and compare out (and lse) with the reference. */
static int run_fia(FIXTURE_DATA(nn) *f, struct __test_metadata *_metadata,
		   const struct fcase *c, int seed)
{
	int64_t B = c->B, N = c->N, NKV = c->NKV, SQ = c->SQ, SKV = c->SKV;
	int64_t DK = c->DK, DV = c->DV, nq = B * N * SQ * DK;
	int64_t nk = B * NKV * SKV * DK, nv = B * NKV * SKV * DV;
	int64_t no = B * N * SQ * DV, np = B * SQ * SKV, nm, b, h, i, j, d;
	int bsnd = c->layout == L_BSH || c->layout == L_BSND;
	int mem = c->strided ? 0 : bsnd;	/* buffer order of q, k, v */
	int obsnd = bsnd || c->layout == L_BNSD_BSND;
	float *q = malloc(nq * 4), *k = malloc(nk * 4), *v = malloc(nv * 4);
	float *p = malloc(np * 4), *o = malloc(no * 4), *l = malloc(B * N * SQ * 4);
	uint8_t *m = NULL;
	double *sc = malloc((SKV + 1) * sizeof(double)), t = tol(c->dt);
	aclTensor *tq, *tk, *tv, *tp = NULL, *tm = NULL, *to, *tl = NULL;
	aclTensor *tkl[8], *tvl[8];
	aclIntArray *kl = c->kvlen ? ia(c->kvlen, c->nkvlen) : NULL;
	aclTensorList *lk, *lv;
	void *od, *ld = NULL;
	aclOpExecutor *ex;
	uint64_t ws;
	int bad = 0, ret;

	for (i = 0; i < nq; i++)
		q[i] = frand((int)i + seed);
	for (i = 0; i < nk; i++)
		k[i] = frand((int)i * 3 + seed + 1);
	for (i = 0; i < nv; i++)
		v[i] = frand((int)i * 5 + seed + 2);
	for (i = 0; i < np; i++)
		p[i] = frand((int)i * 7 + seed + 3) * 2;
	tq = lt(c->layout == L_BNSD_BSND ? L_BNSD : c->layout, mem, B, N, SQ, DK,
		c->dt, up(f, q, nq, c->dt));
	if (c->lists) {		/* batch b's keys in a tensor of its own */
		for (b = 0; b < B; b++) {
			tkl[b] = lt(c->layout == L_BNSD_BSND ? L_BNSD : c->layout,
				    mem, 1, NKV, SKV, DK, c->dt,
				    up(f, k + b * (nk / B), nk / B, c->dt));
			tvl[b] = lt(c->layout == L_BNSD_BSND ? L_BNSD : c->layout,
				    mem, 1, NKV, SKV, DV, c->dt,
				    up(f, v + b * (nv / B), nv / B, c->dt));
		}
		tk = tkl[0];
		tv = tvl[0];
	} else {
		tk = lt(c->layout == L_BNSD_BSND ? L_BNSD : c->layout, mem, B,
			NKV, SKV, DK, c->dt, up(f, k, nk, c->dt));
		tv = lt(c->layout == L_BNSD_BSND ? L_BNSD : c->layout, mem, B,
			NKV, SKV, DV, c->dt, up(f, v, nv, c->dt));
	}
	if (c->pse) {
		int64_t pd[4] = { B, N, SQ, SKV }, ps[4] = { SQ * SKV, 0, SKV, 1 };

		tp = view(pd, 4, ps, 0, np, c->dt, up(f, p, np, c->dt));
	}
	if (c->mask) {
		static const int64_t o4[2] = { 2048, 2048 };
		aclDataType mdt = c->mask == 2 ? ACL_INT8 : c->mask == 3 ?
				  ACL_UINT8 : ACL_BOOL;

		nm = c->mask == 4 ? 2048 * 2048 : c->mask == 1 ? SQ * SKV :
		     c->mask == 2 ? B * SQ * SKV : B * SKV;
		m = malloc(nm);
		for (i = 0; i < nm; i++)
			m[i] = c->mask == 4 ? (i % 2048) > (i / 2048) :
			       (i * 7 + seed) % 5 == 0;
		if (c->mask == 1) {
			int64_t md[2] = { SQ, SKV };

			tm = tens(md, 2, mdt, dev(f, m, nm));
		} else if (c->mask == 2) {
			int64_t md[4] = { B, 1, SQ, SKV };

			tm = tens(md, 4, mdt, dev(f, m, nm));
		} else if (c->mask == 3) {
			int64_t md[2] = { B, SKV };

			tm = tens(md, 2, mdt, dev(f, m, nm));
		} else {
			tm = tens(o4, 2, mdt, dev(f, m, nm));
		}
	}
	od = dev(f, NULL, no * esize(c->dt));
	to = lt(c->layout == L_BNSD_BSND ? L_BSND : c->layout, obsnd, B, N, SQ,
		DV, c->dt, od);
	if (c->lse) {
		int64_t ldims[4] = { B, N, SQ, 1 };

		ld = dev(f, NULL, B * N * SQ * 4);
		tl = tens(ldims, 4, ACL_FLOAT, ld);
	}
	lk = aclCreateTensorList((const aclTensor *const *)(c->lists ? tkl : &tk),
				 c->lists ? (uint64_t)B : 1);
	lv = aclCreateTensorList((const aclTensor *const *)(c->lists ? tvl : &tv),
				 c->lists ? (uint64_t)B : 1);
	ret = aclnnFusedInferAttentionScoreV2GetWorkspaceSize(tq, lk, lv, tp, tm,
		NULL, kl, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
		NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, N, c->scale,
		c->pre, c->next, layouts[c->layout], NKV, c->sparse, 2, 0, 0,
		c->lse, 0, 0, to, tl, &ws, &ex);
	EXPECT_EQ(0, ret);
	if (!ret)
		EXPECT_EQ(0, run(f, aclnnFusedInferAttentionScoreV2, ws, ex));
	down(o, od, no, c->dt);
	if (c->lse)
		get(l, ld, B * N * SQ * 4);

	for (b = 0; b < B; b++) {
		int64_t len = !c->kvlen ? SKV : c->kvlen[c->nkvlen == 1 ? 0 : b];

		for (h = 0; h < N; h++)
			for (i = 0; i < SQ; i++) {
				int64_t hk = h / (N / NKV), lo = 0, hi = len;
				int64_t ctr = i + (c->sparse >= 3 ? len - SQ : 0);
				double mx = -INFINITY, sum = 0;

				if ((c->sparse == 0 && c->mask && SQ > 1) ||
				    c->sparse == 4) {
					lo = ctr - c->pre;
					hi = ctr + c->next + 1;
				} else if (c->sparse >= 2) {
					lo = 0;
					hi = ctr + 1;
				}
				lo = lo < 0 ? 0 : lo;
				hi = hi > len ? len : hi;
				for (j = 0; j < SKV; j++) {
					double s = 0;

					sc[j] = -INFINITY;
					if (j < lo || j >= hi)
						continue;
					if ((c->mask == 1 && m[i * SKV + j]) ||
					    (c->mask == 2 && m[(b * SQ + i) * SKV + j]) ||
					    (c->mask == 3 && m[b * SKV + j]))
						continue;
					for (d = 0; d < DK; d++)
						s += (double)q[loff(mem, N, SQ, DK, b, h, i, d)] *
						     k[loff(mem, NKV, SKV, DK, b, hk, j, d)];
					s = s * c->scale + (c->pse ? p[(b * SQ + i) * SKV + j] : 0);
					sc[j] = s;
					mx = s > mx ? s : mx;
				}
				for (j = 0; j < SKV && mx > -INFINITY; j++)
					sum += (sc[j] = exp(sc[j] - mx));
				for (d = 0; d < DV; d++) {
					double want = 0, got;

					for (j = 0; j < SKV && sum > 0; j++)
						want += sc[j] * v[loff(mem, NKV, SKV, DV, b, hk, j, d)];
					want = sum > 0 ? want / sum : 0;
					got = o[loff(obsnd, N, SQ, DV, b, h, i, d)];
					if (!close_to(got, want, t) && bad++ < 4)
						TH_LOG("%s dt %d out[%lld,%lld,%lld,%lld] %g want %g",
						       layouts[c->layout], c->dt, (long long)b,
						       (long long)h, (long long)i, (long long)d,
						       got, want);
				}
				if (c->lse) {
					double want = sum > 0 ? mx + log(sum) : INFINITY;
					double got = l[(b * N + h) * SQ + i];

					if (!close_to(got, want, 1e-3) && bad++ < 4)
						TH_LOG("lse[%lld,%lld,%lld] %g want %g",
						       (long long)b, (long long)h,
						       (long long)i, got, want);
				}
			}
	}
	free(q);
	free(k);
	free(v);
	free(p);
	free(o);
	free(l);
	free(m);
	free(sc);
	return bad;
}

/* The fixture keeps 16 buffers: free them between cases. */
static void reset(FIXTURE_DATA(nn) *f)
{
	int i;

	for (i = 0; i < f->nbufs; i++)
		aclrtFree(f->bufs[i]);
	f->nbufs = 0;
}

TEST_F(nn, fia_dtypes_ggml_call)
{
	/* ggml's call: BSND views of BNSD buffers, pse over heads, GQA */
	static const aclDataType dts[] = { ACL_FLOAT16, ACL_BF16, ACL_FLOAT };
	unsigned int i;

	for (i = 0; i < 3; i++) {
		struct fcase c = { .dt = dts[i], .layout = L_BSND, .B = 2, .N = 4,
				   .NKV = 2, .SQ = 3, .SKV = 37, .DK = 16, .DV = 16,
				   .pse = true, .lse = true, .strided = true,
				   .pre = 65535, .next = 65535, .scale = 0.25 };

		EXPECT_EQ(0, run_fia(self, _metadata, &c, (int)i));
		reset(self);
		c.SQ = 1;	/* decode */
		c.NKV = 1;
		EXPECT_EQ(0, run_fia(self, _metadata, &c, (int)i + 5));
		reset(self);
	}
}

TEST_F(nn, fia_layouts_and_head_dims)
{
	int lay;

	for (lay = 0; lay < 4; lay++) {
		struct fcase c = { .dt = ACL_FLOAT, .layout = lay, .B = 2, .N = 6,
				   .NKV = lay == L_BSH ? 3 : 1, .SQ = 5, .SKV = 70,
				   .DK = 8, .DV = lay == L_BNSD ? 12 : 8,
				   .lse = true, .scale = 0.3 };

		EXPECT_EQ(0, run_fia(self, _metadata, &c, lay * 11));
		reset(self);
	}
}

TEST_F(nn, fia_masks_and_sparse_modes)
{
	struct fcase c = { .dt = ACL_FLOAT16, .layout = L_BNSD, .B = 2, .N = 2,
			   .NKV = 2, .SQ = 9, .SKV = 21, .DK = 16, .DV = 16,
			   .lse = true, .scale = 0.25, .pre = 65535,
			   .next = 65535 };

	c.mask = 1;			/* (Sq, Skv) BOOL */
	EXPECT_EQ(0, run_fia(self, _metadata, &c, 1));
	reset(self);
	c.mask = 2;			/* (B, 1, Sq, Skv) INT8, a band */
	c.pre = 3;
	c.next = 1;
	c.pse = true;
	EXPECT_EQ(0, run_fia(self, _metadata, &c, 2));
	reset(self);
	c.pse = false;
	c.mask = 4;
	c.sparse = 2;			/* causal from the top left */
	EXPECT_EQ(0, run_fia(self, _metadata, &c, 3));
	reset(self);
	c.sparse = 3;			/* causal from the bottom right */
	EXPECT_EQ(0, run_fia(self, _metadata, &c, 4));
	reset(self);
	c.sparse = 4;			/* a band from the bottom right */
	c.pre = 4;
	c.next = -2;
	EXPECT_EQ(0, run_fia(self, _metadata, &c, 5));
	reset(self);
	c.sparse = 1;			/* all mask */
	c.mask = 1;
	EXPECT_EQ(0, run_fia(self, _metadata, &c, 6));
	reset(self);
	c.sparse = 0;			/* decode, (B, Skv) UINT8 */
	c.mask = 3;
	c.SQ = 1;
	EXPECT_EQ(0, run_fia(self, _metadata, &c, 7));
	reset(self);
}

TEST_F(nn, fia_kv_lengths)
{
	static const int64_t lens[3] = { 5, 37, 0 }, one[1] = { 20 };
	struct fcase c = { .dt = ACL_BF16, .layout = L_BSND, .B = 3, .N = 4,
			   .NKV = 2, .SQ = 2, .SKV = 37, .DK = 16, .DV = 16,
			   .pse = true, .lse = true, .scale = 0.25,
			   .kvlen = lens, .nkvlen = 3, .strided = true };

	EXPECT_EQ(0, run_fia(self, _metadata, &c, 1));
	reset(self);
	c.kvlen = one;
	c.nkvlen = 1;
	c.sparse = 3;		/* the corner moves with the length */
	c.mask = 4;
	EXPECT_EQ(0, run_fia(self, _metadata, &c, 2));
	reset(self);
	c.lists = true;		/* B tensors of one batch, BSH */
	c.kvlen = lens;
	c.nkvlen = 3;
	c.layout = L_BSH;
	c.strided = false;
	EXPECT_EQ(0, run_fia(self, _metadata, &c, 3));
	reset(self);
}

TEST_F(nn, fia_long_sequence)
{
	/* many key tiles and row blocks, lengths no multiple of either */
	struct fcase c = { .dt = ACL_FLOAT16, .layout = L_BSND, .B = 1, .N = 2,
			   .NKV = 1, .SQ = 40, .SKV = 300, .DK = 32, .DV = 32,
			   .pse = true, .lse = true, .scale = 0.177,
			   .strided = true };

	EXPECT_EQ(0, run_fia(self, _metadata, &c, 3));
	reset(self);
}

/* The arguments a validation test varies. */
struct fargs {
	const aclTensor *q, *pse, *mask, *quant, *out, *lse;
	const aclTensorList *k, *v;
	const aclIntArray *sl, *slkv;
	int64_t heads, pre, next, kvh, sparse, inner, bs, aq, kaq, vaq;
	double scale;
	char *layout;
	bool lseflag;
	uint64_t *ws;
	aclOpExecutor **ex;
};

static aclnnStatus fia(const struct fargs *a)
{
	return aclnnFusedInferAttentionScoreV2GetWorkspaceSize(a->q, a->k, a->v,
		a->pse, a->mask, a->sl, a->slkv, a->quant, NULL, NULL, NULL, NULL,
		NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
		NULL, a->heads, a->scale, a->pre, a->next, a->layout, a->kvh,
		a->sparse, a->inner, a->bs, a->aq, a->lseflag, a->kaq, a->vaq,
		a->out, a->lse, a->ws, a->ex);
}

TEST_F(nn, fia_validation)
{
	/* BNSD: q [2, 4, 3, 8], k/v [2, 2, 5, 8] */
	int64_t qd[4] = { 2, 4, 3, 8 }, kd[4] = { 2, 2, 5, 8 }, ld[4] = { 2, 4, 3, 1 };
	int64_t md[2] = { 3, 5 }, pd[4] = { 2, 4, 3, 5 }, bigd[4] = { 2, 2, (1 << 22) + 1, 8 };
	int64_t bigq[4] = { 2, 4, 3, 1100 }, bigk[4] = { 2, 2, 5, 1100 }, zero[4] = { 0 };
	int64_t md3[3] = { 2, 3, 5 }, od[2] = { 2048, 2048 }, ob[2] = { 1024, 2048 };
	int64_t len_ok[2] = { 5, 3 }, len_bad[2] = { 6, 3 }, three[3] = { 1, 2, 3 };
	void *qm = dev(self, NULL, 2 * 4 * 3 * 8 * 4), *km = dev(self, NULL, 640);
	void *vm = dev(self, NULL, 640), *om = dev(self, NULL, 768);
	void *lm = dev(self, NULL, 96), *mm = dev(self, NULL, 2048 * 2048);
	aclTensor *q = tens(qd, 4, ACL_FLOAT, qm), *k = tens(kd, 4, ACL_FLOAT, km);
	aclTensor *v = tens(kd, 4, ACL_FLOAT, vm), *o = tens(qd, 4, ACL_FLOAT, om);
	aclTensor *l = tens(ld, 4, ACL_FLOAT, lm), *m = tens(md, 2, ACL_BOOL, mm);
	aclTensor *p = tens(pd, 4, ACL_FLOAT, om), *kb, *lk2[2] = { k, k };
	aclTensorList *lk = aclCreateTensorList((const aclTensor *const *)&k, 1);
	aclTensorList *lv = aclCreateTensorList((const aclTensor *const *)&v, 1);
	aclOpExecutor *ex;
	uint64_t ws;
	struct fargs base = { .q = q, .k = lk, .v = lv, .out = o, .lse = l,
			      .heads = 4, .kvh = 2, .scale = 0.3, .pre = 65535,
			      .next = 65535, .layout = "BNSD", .lseflag = true,
			      .inner = 2, .ws = &ws, .ex = &ex, .mask = m,
			      .pse = p };
	struct fargs a;

#define FIA_EXPECT(code, stmt) do { a = base; stmt; EXPECT_EQ(code, fia(&a)); } while (0)
	FIA_EXPECT(0, (void)0);
	FIA_EXPECT(0, a.lse = NULL; a.lseflag = false);
	FIA_EXPECT(0, a.kvh = 0; a.k = a.v = aclCreateTensorList(
		   (const aclTensor *const *)&(aclTensor *){ tens((int64_t[4]){ 2, 4, 5, 8 },
		   4, ACL_FLOAT, km) }, 1));
	/* NULL */
	FIA_EXPECT(NUL, a.q = NULL);
	FIA_EXPECT(NUL, a.k = NULL);
	FIA_EXPECT(NUL, a.v = NULL);
	FIA_EXPECT(NUL, a.layout = NULL);
	FIA_EXPECT(NUL, a.out = NULL);
	FIA_EXPECT(NUL, a.lse = NULL);		/* softmaxLseFlag set */
	FIA_EXPECT(NUL, a.ws = NULL);
	FIA_EXPECT(NUL, a.ex = NULL);
	/* refused inputs */
	FIA_EXPECT(INV, a.quant = q);
	FIA_EXPECT(INV, a.sl = ia(three, 2));
	FIA_EXPECT(INV, a.k = aclCreateTensorList((const aclTensor *const *)lk2, 2));
	{	/* lists of B tensors of one batch: alike, B of them */
		int64_t k1[4] = { 1, 2, 5, 8 }, k1s[4] = { 1, 2, 4, 8 };
		aclTensor *l2[2] = { tens(k1, 4, ACL_FLOAT, km), tens(k1, 4, ACL_FLOAT, vm) };
		aclTensor *l3[3] = { l2[0], l2[1], l2[0] };
		aclTensor *bad[2] = { l2[0], tens(k1s, 4, ACL_FLOAT, vm) };
		aclTensor *badt[2] = { l2[0], tens(k1, 4, ACL_FLOAT16, vm) };

		FIA_EXPECT(0, a.k = a.v = aclCreateTensorList((const aclTensor *const *)l2, 2));
		FIA_EXPECT(INV, a.k = a.v = aclCreateTensorList((const aclTensor *const *)l3, 3));
		FIA_EXPECT(INV, a.k = aclCreateTensorList((const aclTensor *const *)l2, 2));
		FIA_EXPECT(INV, a.k = a.v = aclCreateTensorList((const aclTensor *const *)bad, 2));
		FIA_EXPECT(INV, a.k = a.v = aclCreateTensorList((const aclTensor *const *)badt, 2));
		FIA_EXPECT(NUL, l2[1] = NULL; a.k = a.v = aclCreateTensorList(
			   (const aclTensor *const *)l2, 2));
	}
	/* attributes */
	FIA_EXPECT(INV, a.layout = "TND");
	FIA_EXPECT(INV, a.layout = "bnsd");
	FIA_EXPECT(INV, a.heads = 0);
	FIA_EXPECT(INV, a.heads = 3);
	FIA_EXPECT(INV, a.kvh = -1);
	FIA_EXPECT(INV, a.kvh = 3);
	FIA_EXPECT(INV, a.sparse = 5);
	FIA_EXPECT(INV, a.sparse = -1);
	FIA_EXPECT(INV, a.inner = 4);
	FIA_EXPECT(INV, a.bs = -1);
	FIA_EXPECT(INV, a.aq = 2);
	FIA_EXPECT(INV, a.kaq = 7);
	FIA_EXPECT(INV, a.vaq = -1);
	FIA_EXPECT(INV, a.scale = NAN);
	FIA_EXPECT(INV, a.scale = INFINITY);
	/* dtypes and shapes */
	FIA_EXPECT(INV, a.q = tens(qd, 4, ACL_FLOAT16, qm));
	FIA_EXPECT(INV, a.q = tens(qd, 4, ACL_INT32, qm));
	FIA_EXPECT(INV, a.out = tens(qd, 4, ACL_BF16, om));
	FIA_EXPECT(INV, a.q = tens(qd, 3, ACL_FLOAT, qm));
	kb = tens((int64_t[4]){ 1, 2, 5, 8 }, 4, ACL_FLOAT, km);
	FIA_EXPECT(INV, a.k = aclCreateTensorList((const aclTensor *const *)&kb, 1));
	kb = tens((int64_t[4]){ 2, 2, 4, 8 }, 4, ACL_FLOAT, vm);
	FIA_EXPECT(INV, a.v = aclCreateTensorList((const aclTensor *const *)&kb, 1));
	kb = tens((int64_t[4]){ 2, 2, 5, 4 }, 4, ACL_FLOAT, km);
	FIA_EXPECT(INV, a.k = aclCreateTensorList((const aclTensor *const *)&kb, 1));
	FIA_EXPECT(INV, a.out = tens((int64_t[4]){ 2, 4, 3, 4 }, 4, ACL_FLOAT, om));
	FIA_EXPECT(INV, a.layout = "BSND");	/* q's dims read as BSND */
	FIA_EXPECT(INV, a.layout = "BNSD_BSND");	/* out must be BSND */
	FIA_EXPECT(INV, a.layout = "BSH");
	/* head dims over 1024; keys x (Dk + Dv) over 2^26 (zero strides) */
	kb = view(bigk, 4, zero, 0, 1, ACL_FLOAT, km);
	FIA_EXPECT(INV, a.q = view(bigq, 4, zero, 0, 1, ACL_FLOAT, qm);
		   a.k = aclCreateTensorList((const aclTensor *const *)&kb, 1);
		   a.pse = NULL; a.mask = NULL);
	kb = view(bigd, 4, zero, 0, 1, ACL_FLOAT, km);
	FIA_EXPECT(INV, a.k = a.v = aclCreateTensorList((const aclTensor *const *)&kb, 1);
		   a.pse = NULL; a.mask = NULL);
	/* pse */
	FIA_EXPECT(INV, a.pse = tens(pd, 4, ACL_FLOAT16, om));
	FIA_EXPECT(INV, a.pse = tens((int64_t[4]){ 2, 4, 3, 4 }, 4, ACL_FLOAT, om));
	FIA_EXPECT(INV, a.pse = tens((int64_t[4]){ 2, 2, 3, 5 }, 4, ACL_FLOAT, om));
	FIA_EXPECT(INV, a.pse = tens(md3, 3, ACL_FLOAT, om));
	/* mask */
	FIA_EXPECT(0, a.mask = tens(md3, 3, ACL_INT8, mm));
	FIA_EXPECT(INV, a.mask = tens(md, 2, ACL_FLOAT, mm));
	FIA_EXPECT(INV, a.mask = tens((int64_t[2]){ 2, 5 }, 2, ACL_BOOL, mm));
	FIA_EXPECT(INV, a.mask = tens((int64_t[3]){ 3, 3, 5 }, 3, ACL_BOOL, mm));
	FIA_EXPECT(INV, a.mask = tens((int64_t[4]){ 2, 3, 3, 5 }, 4, ACL_BOOL, mm));
	FIA_EXPECT(INV, a.mask = tens((int64_t[1]){ 5 }, 1, ACL_BOOL, mm));
	FIA_EXPECT(INV, a.sparse = 1; a.mask = NULL);
	FIA_EXPECT(INV, a.sparse = 2);			/* not 2048 x 2048 */
	FIA_EXPECT(INV, a.sparse = 3; a.mask = NULL);
	FIA_EXPECT(INV, a.sparse = 4; a.mask = tens(ob, 2, ACL_BOOL, mm));
	FIA_EXPECT(0, a.sparse = 3; a.mask = tens(od, 2, ACL_BOOL, mm));
	/* softmaxLse */
	FIA_EXPECT(INV, a.lse = tens(ld, 4, ACL_FLOAT16, lm));
	FIA_EXPECT(INV, a.lse = tens(qd, 3, ACL_FLOAT, lm));
	FIA_EXPECT(INV, a.lse = tens((int64_t[4]){ 2, 4, 3, 2 }, 4, ACL_FLOAT, om));
	FIA_EXPECT(0, a.lseflag = false);		/* ignored unless wanted */
	/* actualSeqLengthsKv */
	FIA_EXPECT(0, a.slkv = ia(len_ok, 2));
	FIA_EXPECT(0, a.slkv = ia(len_ok, 1));
	FIA_EXPECT(INV, a.slkv = ia(len_bad, 2));
	FIA_EXPECT(INV, a.slkv = ia((int64_t[2]){ -1, 2 }, 2));
	kb = tens((int64_t[4]){ 3, 2, 5, 8 }, 4, ACL_FLOAT, km);
	FIA_EXPECT(INV, a.q = tens((int64_t[4]){ 3, 4, 1, 8 }, 4, ACL_FLOAT, qm);
		   a.out = tens((int64_t[4]){ 3, 4, 1, 8 }, 4, ACL_FLOAT, om);
		   a.k = a.v = aclCreateTensorList((const aclTensor *const *)&kb, 1);
		   a.lse = NULL; a.lseflag = false; a.pse = NULL; a.mask = NULL;
		   a.slkv = ia(len_ok, 2));
#undef FIA_EXPECT
}

/* ------------------------------------------------------------------ RoPE */

static double rope_ref(const float *x, const float *cs, const float *sn,
		       int64_t d, int64_t e, int mode)
{
	int64_t h = d / 2, q = d / 4;
	double a = x[e], rot;

	switch (mode) {
	case 0:
		rot = e < h ? -x[e + h] : x[e - h];
		break;
	case 1:
		rot = e % 2 ? x[e - 1] : -x[e + 1];
		break;
	case 2:
		rot = (e / q) % 2 ? x[e - q] : -x[e + q];
		break;
	default:
		a = e < h ? x[2 * e] : x[2 * (e - h) + 1];
		rot = e < h ? -x[2 * e + 1] : x[2 * (e - h)];
		break;
	}
	return a * cs[e] + rot * sn[e];
}

/*
 * x [B, S, N, D] as a BSND view of a BNSD buffer (@strided) or
 * contiguous; cos/sin [1, S, 1, D] (or [B, S, N, D] with @full).
 */
static int run_rope(FIXTURE_DATA(nn) *f, struct __test_metadata *_metadata,
		    aclDataType dt, int mode, bool strided, bool inplace,
		    bool full, int seed)
{
	enum { B = 2, S = 5, N = 3, D = 16 };
	int64_t xd[4] = { B, S, N, D }, cd[4] = { full ? B : 1, S, full ? N : 1, D };
	int64_t st[4] = { N * S * D, D, S * D, 1 }, nc = cd[0] * S * cd[2] * D;
	float x[B * S * N * D], c[B * S * N * D], s[B * S * N * D];
	float y[B * S * N * D], row[D], cr[D], sr[D];
	aclTensor *tx, *tc, *ts, *to;
	void *xd_, *od;
	aclOpExecutor *ex;
	uint64_t ws;
	int64_t b, si, n, e;
	int bad = 0;

	for (e = 0; e < B * S * N * D; e++)
		x[e] = frand((int)e + seed);
	for (e = 0; e < nc; e++) {
		c[e] = cosf((float)e * 0.37f + (float)seed);
		s[e] = sinf((float)e * 0.37f + (float)seed);
	}
	xd_ = up(f, x, B * S * N * D, dt);
	tx = strided ? view(xd, 4, st, 0, B * S * N * D, dt, xd_) : tens(xd, 4, dt, xd_);
	tc = tens(cd, 4, dt, up(f, c, nc, dt));
	ts = tens(cd, 4, dt, up(f, s, nc, dt));
	od = inplace ? xd_ : dev(f, NULL, B * S * N * D * esize(dt));
	to = inplace ? tx : strided ? view(xd, 4, st, 0, B * S * N * D, dt, od) :
	     tens(xd, 4, dt, od);
	EXPECT_EQ(0, aclnnRotaryPositionEmbeddingGetWorkspaceSize(tx, tc, ts, mode,
								  to, &ws, &ex));
	EXPECT_EQ(0, run(f, aclnnRotaryPositionEmbedding, ws, ex));
	down(y, od, B * S * N * D, dt);
	for (b = 0; b < B; b++)
		for (si = 0; si < S; si++)
			for (n = 0; n < N; n++) {
				int64_t base = strided ? ((b * N + n) * S + si) * D :
					       ((b * S + si) * N + n) * D;
				int64_t cb = full ? ((b * S + si) * N + n) * D : si * D;

				for (e = 0; e < D; e++) {
					row[e] = x[base + e];
					cr[e] = c[cb + e];
					sr[e] = s[cb + e];
				}
				for (e = 0; e < D; e++) {
					double want = rope_ref(row, cr, sr, D, e, mode);

					if (!close_to(y[base + e], want, tol(dt)) && bad++ < 4)
						TH_LOG("rope dt %d mode %d [%lld] %g want %g",
						       dt, mode, (long long)(base + e),
						       y[base + e], want);
				}
			}
	return bad;
}

TEST_F(nn, rope_modes_dtypes_views)
{
	static const aclDataType dts[] = { ACL_FLOAT16, ACL_BF16, ACL_FLOAT };
	int mode, i;

	for (mode = 0; mode < 4; mode++)
		for (i = 0; i < 3; i++) {
			EXPECT_EQ(0, run_rope(self, _metadata, dts[i], mode, i != 1,
					      false, false, mode * 3 + i));
			EXPECT_EQ(0, run_rope(self, _metadata, dts[i], mode, false,
					      true, i == 2, mode + i));
			reset(self);
		}
}

TEST_F(nn, rope_validation)
{
	int64_t xd[4] = { 2, 3, 2, 8 }, cd[4] = { 1, 3, 1, 8 };
	void *xm = dev(self, NULL, 1024), *cm = dev(self, NULL, 256);
	aclTensor *x = tens(xd, 4, ACL_FLOAT, xm), *c = tens(cd, 4, ACL_FLOAT, cm);
	aclTensor *o = tens(xd, 4, ACL_FLOAT, dev(self, NULL, 1024));
	aclOpExecutor *ex;
	uint64_t ws;

#define R(x_, c_, s_, m_, o_) aclnnRotaryPositionEmbeddingGetWorkspaceSize(x_, c_, s_, m_, o_, &ws, &ex)
	EXPECT_EQ(0, R(x, c, c, 0, o));
	EXPECT_EQ(0, R(x, c, c, 3, x));
	EXPECT_EQ(NUL, R(NULL, c, c, 0, o));
	EXPECT_EQ(NUL, R(x, NULL, c, 0, o));
	EXPECT_EQ(NUL, R(x, c, NULL, 0, o));
	EXPECT_EQ(NUL, R(x, c, c, 0, NULL));
	EXPECT_EQ(NUL, aclnnRotaryPositionEmbeddingGetWorkspaceSize(x, c, c, 0, o, NULL, &ex));
	EXPECT_EQ(NUL, aclnnRotaryPositionEmbeddingGetWorkspaceSize(x, c, c, 0, o, &ws, NULL));
	EXPECT_EQ(INV, R(x, c, c, 4, o));
	EXPECT_EQ(INV, R(x, c, c, -1, o));
	EXPECT_EQ(INV, R(x, tens(cd, 4, ACL_FLOAT16, cm), c, 0, o));
	EXPECT_EQ(INV, R(x, c, c, 0, tens(xd, 4, ACL_BF16, xm)));
	EXPECT_EQ(INV, R(tens(xd, 4, ACL_INT32, xm), tens(cd, 4, ACL_INT32, cm),
			 tens(cd, 4, ACL_INT32, cm), 0, tens(xd, 4, ACL_INT32, xm)));
	EXPECT_EQ(INV, R(tens(xd, 3, ACL_FLOAT, xm), tens(cd, 3, ACL_FLOAT, cm),
			 tens(cd, 3, ACL_FLOAT, cm), 0, tens(xd, 3, ACL_FLOAT, xm)));
	EXPECT_EQ(INV, R(x, c, c, 0, tens((int64_t[4]){ 2, 3, 1, 8 }, 4, ACL_FLOAT, xm)));
	EXPECT_EQ(INV, R(x, c, tens((int64_t[4]){ 1, 1, 1, 8 }, 4, ACL_FLOAT, cm), 0, o));
	EXPECT_EQ(INV, R(x, tens((int64_t[4]){ 1, 2, 1, 8 }, 4, ACL_FLOAT, cm),
			 tens((int64_t[4]){ 1, 2, 1, 8 }, 4, ACL_FLOAT, cm), 0, o));
	EXPECT_EQ(INV, R(x, tens((int64_t[4]){ 1, 3, 1, 4 }, 4, ACL_FLOAT, cm),
			 tens((int64_t[4]){ 1, 3, 1, 4 }, 4, ACL_FLOAT, cm), 0, o));
	{
		int64_t x6[4] = { 2, 3, 2, 6 }, c6[4] = { 1, 3, 1, 6 };
		int64_t x7[4] = { 2, 3, 2, 7 }, c7[4] = { 1, 3, 1, 7 };
		int64_t xb[4] = { 1, 1, 1, 1026 }, z[4] = { 0, 0, 0, 0 };
		aclTensor *t6 = tens(x6, 4, ACL_FLOAT, xm), *u6 = tens(c6, 4, ACL_FLOAT, cm);
		aclTensor *t7 = tens(x7, 4, ACL_FLOAT, xm), *u7 = tens(c7, 4, ACL_FLOAT, cm);
		aclTensor *tb = view(xb, 4, z, 0, 1, ACL_FLOAT, xm);

		EXPECT_EQ(0, R(t6, u6, u6, 1, t6));
		EXPECT_EQ(INV, R(t6, u6, u6, 2, t6));	/* quarter: D % 4 */
		EXPECT_EQ(INV, R(t7, u7, u7, 0, t7));
		EXPECT_EQ(INV, R(tb, tb, tb, 0, tb));	/* D over 1024 */
	}
#undef R
}

TEST_HARNESS_MAIN
