// SPDX-License-Identifier: MIT
/*
 * aclnnFusedInferAttentionScoreV2 on the device's fused FLASH_ATTN
 * operator. Every layout becomes a BNSD view of the caller's memory (a
 * permutation of strides; BSH splits H into N x D), so nothing is copied;
 * pse and mask broadcast by zero strides. Per-batch key lengths become one
 * task per run of batches with the same length, each seeing only its
 * keys; key and value lists of B tensors (one batch each) one task per
 * batch. The float path only: the quantised, paged, padded and shared-
 * prefix inputs are refused, as is a query length per batch.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn_ops_common.h"
#include "aclnnop/aclnn_fused_infer_attention_score_v2.h"

/* DRM_VNPU_OP_FLASH_ATTN's attributes (see the UAPI). */
#define FA_PSE		1
#define FA_MASK		2
#define FA_LSE		4
#define FA_BAND_NONE	0
#define FA_BAND_TL	1
#define FA_BAND_BR	2
#define FA_BAND_MAX	(1LL << 40)
/* The operator's limits: head dims, and one row's work in a piece. */
#define FA_MAX_D	1024
#define FA_ROW_WORK	(1LL << 26)
/* The optimised causal masks of sparse modes 2 to 4 are 2048 x 2048. */
#define FA_OPT_MASK	2048

enum { L_BSH, L_BSND, L_BNSD, L_BNSD_BSND };

struct fa_shape {
	int layout;
	int64_t b, n, sq, dk, nkv, skv, dv;
};

static bool fa_float(aclDataType dt)
{
	return dt == ACL_FLOAT || dt == ACL_FLOAT16 || dt == ACL_BF16;
}

/*
 * A BNSD view of a q/k/v/out tensor given in layout @layout with @heads
 * heads (BSH splits its last dim).
 */
static struct nn_ref fa_bnsd(struct nn_ref r, int layout, int64_t heads)
{
	int64_t s;

	if (layout == L_BSH) {
		r.rank = 4;
		r.shape[3] = r.shape[2] / heads;
		r.strides[3] = r.strides[2];
		r.shape[2] = heads;
		r.strides[2] = r.strides[3] * r.shape[3];
	}
	if (layout == L_BSH || layout == L_BSND) {
		s = r.shape[1];
		r.shape[1] = r.shape[2];
		r.shape[2] = s;
		s = r.strides[1];
		r.strides[1] = r.strides[2];
		r.strides[2] = s;
	}
	return r;
}

/* Sizes of a tensor in @layout: batch, seq, heads (given for BSH), dim. */
static bool fa_dims(const aclTensor *t, int layout, int64_t heads,
		    int64_t *b, int64_t *s, int64_t *n, int64_t *d)
{
	if (layout == L_BSH) {
		if (t->ndim != 3 || heads <= 0 || t->dims[2] % heads)
			return false;
		*b = t->dims[0];
		*s = t->dims[1];
		*n = heads;
		*d = t->dims[2] / heads;
		return true;
	}
	if (t->ndim != 4)
		return false;
	*b = t->dims[0];
	*n = layout == L_BSND ? t->dims[2] : t->dims[1];
	*s = layout == L_BSND ? t->dims[1] : t->dims[2];
	*d = t->dims[3];
	return true;
}

static int fa_layout(const char *s)
{
	static const char *const names[] = { "BSH", "BSND", "BNSD", "BNSD_BSND" };
	int i;

	for (i = 0; i < 4; i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

/*
 * The mask as [B, N, Sq, Skv] (zero strides where it broadcasts), from
 * CANN's shapes: (Sq, Skv), (B|1, Sq, Skv), (B|1, 1|N, Sq, Skv), and with
 * Sq 1 also (B, Skv); the last two dims may be longer (aligned).
 */
static bool fa_mask_view(const aclTensor *m, const struct fa_shape *fs,
			 struct nn_ref *r)
{
	int64_t nd = (int64_t)m->ndim, qd, bd = -1, hd = -1;

	if (nd < 2 || nd > 4)
		return false;
	if (nd == 2 && fs->sq == 1 && m->dims[0] == fs->b && fs->b != 1) {
		bd = 0;
		qd = -1;
	} else {
		qd = nd - 2;
		if (nd >= 3)
			bd = 0;
		if (nd == 4)
			hd = 1;
	}
	if (m->dims[nd - 1] < fs->skv || (qd >= 0 && m->dims[qd] < fs->sq) ||
	    (bd >= 0 && m->dims[bd] != 1 && m->dims[bd] != fs->b) ||
	    (hd >= 0 && m->dims[hd] != 1 && m->dims[hd] != fs->n))
		return false;
	r->rank = 4;
	r->shape[0] = fs->b;
	r->shape[1] = fs->n;
	r->shape[2] = fs->sq;
	r->shape[3] = fs->skv;
	r->strides[3] = m->strides[nd - 1];
	r->strides[2] = qd >= 0 && m->dims[qd] != 1 ? m->strides[qd] : 0;
	r->strides[1] = hd >= 0 && m->dims[hd] != 1 ? m->strides[hd] : 0;
	r->strides[0] = bd >= 0 && m->dims[bd] != 1 ? m->strides[bd] : 0;
	return true;
}

/* The 2048 x 2048 mask of sparse modes 2 to 4: (S, S), (1, S, S), (1, 1, S, S). */
static bool fa_opt_mask(const aclTensor *m)
{
	uint64_t i;

	if (m->ndim < 2 || m->ndim > 4)
		return false;
	for (i = 0; i < m->ndim; i++)
		if (m->dims[i] != (i + 2 < m->ndim ? 1 : FA_OPT_MASK))
			return false;
	return true;
}

/* Batches [b0, b1) of a view with batch dim 0 and keys cut to @skv. */
static struct nn_ref fa_slice(struct nn_ref r, int64_t b0, int64_t b1,
			      int key_dim, int64_t skv)
{
	r.off += b0 * r.strides[0];
	r.shape[0] = b1 - b0;
	if (key_dim >= 0)
		r.shape[key_dim] = skv;
	return r;
}

static int64_t fa_clamp(int64_t v)
{
	return v < -FA_BAND_MAX ? -FA_BAND_MAX : v > FA_BAND_MAX ? FA_BAND_MAX : v;
}

aclnnStatus aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
	const aclTensor *query, const aclTensorList *key,
	const aclTensorList *value, const aclTensor *pseShiftOptional,
	const aclTensor *attenMaskOptional,
	const aclIntArray *actualSeqLengthsOptional,
	const aclIntArray *actualSeqLengthsKvOptional,
	const aclTensor *deqScale1Optional, const aclTensor *quantScale1Optional,
	const aclTensor *deqScale2Optional, const aclTensor *quantScale2Optional,
	const aclTensor *quantOffset2Optional,
	const aclTensor *antiquantScaleOptional,
	const aclTensor *antiquantOffsetOptional,
	const aclTensor *blockTableOptional,
	const aclTensor *queryPaddingSizeOptional,
	const aclTensor *kvPaddingSizeOptional,
	const aclTensor *keyAntiquantScaleOptional,
	const aclTensor *keyAntiquantOffsetOptional,
	const aclTensor *valueAntiquantScaleOptional,
	const aclTensor *valueAntiquantOffsetOptional,
	const aclTensor *keySharedPrefixOptional,
	const aclTensor *valueSharedPrefixOptional,
	const aclIntArray *actualSharedPrefixLenOptional, int64_t numHeads,
	double scaleValue, int64_t preTokens, int64_t nextTokens,
	char *inputLayout, int64_t numKeyValueHeads, int64_t sparseMode,
	int64_t innerPrecise, int64_t blockSize, int64_t antiquantMode,
	bool softmaxLseFlag, int64_t keyAntiquantMode,
	int64_t valueAntiquantMode, const aclTensor *attentionOut,
	const aclTensor *softmaxLse, uint64_t *workspaceSize,
	aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	const aclTensor *unsupported[] = {
		deqScale1Optional, quantScale1Optional, deqScale2Optional,
		quantScale2Optional, quantOffset2Optional, antiquantScaleOptional,
		antiquantOffsetOptional, blockTableOptional,
		queryPaddingSizeOptional, kvPaddingSizeOptional,
		keyAntiquantScaleOptional, keyAntiquantOffsetOptional,
		valueAntiquantScaleOptional, valueAntiquantOffsetOptional,
		keySharedPrefixOptional, valueSharedPrefixOptional,
	};
	const aclTensor *const *kl, *const *vl, *k, *v;
	const aclTensor *pse = pseShiftOptional, *mask = attenMaskOptional;
	const aclTensor *lse = softmaxLseFlag ? softmaxLse : NULL;
	struct drm_vnpu_op_attrs at = { 0 };
	struct nn_ref rq, rk, rv, rp = { 0 }, rm = { 0 }, ro, rl = { 0 };
	struct nn_ref in[5], out[2], *rkv;
	const int64_t *kvlen;
	uint64_t nk, nv, nlen, i;
	struct fa_shape fs;
	int64_t ob, os, on, od, b0, b1, kb, ks, kn, vb, vs, vn;
	bool use_mask;
	aclOpExecutor *ex;
	int ret = 0;

	CHECK_T(query);
	NEED(key);
	NEED(value);
	NEED(inputLayout);
	CHECK_T(attentionOut);
	NEED(workspaceSize);
	NEED(executor);
	kl = nn_tensor_list(key, &nk);
	vl = nn_tensor_list(value, &nv);
	if (!nk || nk != nv)
		return BAD("key and value must be lists of one length (got %llu, %llu)",
			   (unsigned long long)nk, (unsigned long long)nv);
	for (i = 0; i < nk; i++) {
		CHECK_T(kl[i]);
		CHECK_T(vl[i]);
	}
	k = kl[0];
	v = vl[0];
	if (pse)
		CHECK_T(pse);
	if (mask)
		CHECK_T(mask);
	if (softmaxLseFlag)
		CHECK_T(softmaxLse);
	for (i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++)
		if (unsupported[i])
			return BAD("quantisation, paged KV, padding and shared-prefix inputs are not supported (pass NULL)");
	if (actualSeqLengthsOptional || actualSharedPrefixLenOptional)
		return BAD("actualSeqLengths and actualSharedPrefixLen are not supported (pass NULL)");

	fs.layout = fa_layout(inputLayout);
	if (fs.layout < 0)
		return BAD("inputLayout \"%.16s\" is not one of BSH, BSND, BNSD, BNSD_BSND",
			   inputLayout);
	if (!fa_float(query->dtype) || k->dtype != query->dtype ||
	    v->dtype != query->dtype || attentionOut->dtype != query->dtype)
		return BAD("query, key, value and attentionOut must have one dtype of FLOAT16, BFLOAT16, FLOAT");
	if (numHeads <= 0)
		return BAD("numHeads must be positive");
	if (numKeyValueHeads < 0)
		return BAD("numKeyValueHeads must not be negative");
	fs.nkv = numKeyValueHeads ? numKeyValueHeads : numHeads;
	if (numHeads % fs.nkv || numHeads / fs.nkv > 64)
		return BAD("numHeads must be a multiple of numKeyValueHeads, at most 64 times it");
	if (sparseMode < 0 || sparseMode > 4)
		return BAD("sparseMode must be 0 to 4");
	if (innerPrecise < 0 || innerPrecise > 3)
		return BAD("innerPrecise must be 0 to 3");
	if (blockSize < 0)
		return BAD("blockSize must not be negative");
	if (antiquantMode < 0 || antiquantMode > 1 || keyAntiquantMode < 0 ||
	    keyAntiquantMode > 6 || valueAntiquantMode < 0 ||
	    valueAntiquantMode > 6)
		return BAD("antiquantMode must be 0 or 1, key/valueAntiquantMode 0 to 6");
	if (!isfinite(scaleValue))
		return BAD("scaleValue must be finite");

	if (!fa_dims(query, fs.layout, numHeads, &fs.b, &fs.sq, &fs.n, &fs.dk) ||
	    fs.n != numHeads)
		return BAD("query must be %s with numHeads (%lld) heads",
			   inputLayout, (long long)numHeads);
	/* one tensor of B batches, or B tensors of one (CANN's tensor lists) */
	if (nk != 1 && nk != (uint64_t)fs.b)
		return BAD("key and value must be lists of 1 or B (%lld) tensors",
			   (long long)fs.b);
	for (i = 1; i < nk; i++)
		if (!nn_same_shape(kl[i], k) || kl[i]->dtype != k->dtype ||
		    !nn_same_shape(vl[i], v) || vl[i]->dtype != v->dtype)
			return BAD("the tensors of the key and value lists must be alike");
	if (!fa_dims(k, fs.layout, fs.nkv, &kb, &fs.skv, &kn, &ks) ||
	    !fa_dims(v, fs.layout, fs.nkv, &vb, &vs, &vn, &fs.dv) ||
	    kb != (nk == 1 ? fs.b : 1) || vb != kb || kn != fs.nkv || vn != fs.nkv ||
	    vs != fs.skv || ks != fs.dk)
		return BAD("key and value must be %s of query's batch and D with numKeyValueHeads heads and one sequence length",
			   inputLayout);
	if (!fa_dims(attentionOut, fs.layout == L_BNSD_BSND ? L_BSND : fs.layout,
		     fs.n, &ob, &os, &on, &od) || ob != fs.b || os != fs.sq ||
	    on != fs.n || od != fs.dv)
		return BAD("attentionOut must be query's shape with value's D");
	if (fs.dk > FA_MAX_D || fs.dv > FA_MAX_D)
		return BAD("head dims above %d are not supported", FA_MAX_D);
	if (__builtin_mul_overflow(fs.skv, fs.dk + fs.dv, &ob) ||
	    ob > FA_ROW_WORK)
		return BAD("key length x (Dk + Dv) above 2^26 is not supported");
	if (fs.layout == L_BNSD_BSND && fs.sq <= 1)
		return BAD("BNSD_BSND needs a query length above 1");

	if (pse && (pse->dtype != query->dtype || pse->ndim != 4 ||
		    (pse->dims[0] != 1 && pse->dims[0] != fs.b) ||
		    (pse->dims[1] != 1 && pse->dims[1] != fs.n) ||
		    pse->dims[2] < fs.sq || pse->dims[3] < fs.skv))
		return BAD("pseShift must be (B|1, N, Sq, Skv) of query's dtype");
	if (mask && mask->dtype != ACL_BOOL && mask->dtype != ACL_INT8 &&
	    mask->dtype != ACL_UINT8)
		return BAD("attenMask must be BOOL, INT8 or UINT8");
	if (sparseMode >= 2 && (!mask || !fa_opt_mask(mask)))
		return BAD("sparseMode %lld needs the 2048 x 2048 causal attenMask",
			   (long long)sparseMode);
	if (sparseMode == 1 && !mask)
		return BAD("sparseMode 1 needs attenMask");
	use_mask = mask && sparseMode <= 1;
	if (use_mask && !fa_mask_view(mask, &fs, &rm))
		return BAD("attenMask must be (Sq, Skv), (B|1, Sq, Skv), (B|1, 1, Sq, Skv) or, with Sq 1, (B, Skv)");
	if (lse && (lse->dtype != ACL_FLOAT || lse->ndim != 4 ||
		    lse->dims[0] != fs.b || lse->dims[1] != fs.n ||
		    lse->dims[2] != fs.sq || lse->dims[3] != 1))
		return BAD("softmaxLse must be FLOAT [B, N, Sq, 1]");
	kvlen = nn_int_array(actualSeqLengthsKvOptional, &nlen);
	if (actualSeqLengthsKvOptional &&
	    (nlen == 0 || (nlen != 1 && nlen < (uint64_t)fs.b)))
		return BAD("actualSeqLengthsKv must have 1 or at least B entries");
	for (i = 0; kvlen && i < nlen && i < (uint64_t)fs.b; i++)
		if (kvlen[i] < 0 || kvlen[i] > fs.skv)
			return BAD("actualSeqLengthsKv[%llu] = %lld is outside 0..%lld",
				   (unsigned long long)i, (long long)kvlen[i],
				   (long long)fs.skv);

	/* the attributes */
	at.ints[0] = (pse ? FA_PSE : 0) | (use_mask ? FA_MASK : 0) |
		     (lse ? FA_LSE : 0);
	switch (sparseMode) {
	case 0:
		at.ints[1] = mask && fs.sq > 1 ? FA_BAND_TL : FA_BAND_NONE;
		at.ints[2] = fa_clamp(preTokens);
		at.ints[3] = fa_clamp(nextTokens);
		break;
	case 2:
	case 3:
		at.ints[1] = sparseMode == 2 ? FA_BAND_TL : FA_BAND_BR;
		at.ints[2] = FA_BAND_MAX;
		at.ints[3] = 0;
		break;
	case 4:
		at.ints[1] = FA_BAND_BR;
		at.ints[2] = fa_clamp(preTokens);
		at.ints[3] = fa_clamp(nextTokens);
		break;
	}
	nn_set_float(&at, 0, (float)scaleValue);

	NEW_EX(ex);
	rq = fa_bnsd(nn_bind_tensor(ex, query, false), fs.layout, fs.n);
	rkv = malloc(2 * nk * sizeof(*rkv));
	if (!rkv) {
		nn_exec_free(ex);
		return nn_fail(ACLNN_ERR_INNER_CREATE_EXECUTOR, "out of memory");
	}
	for (i = 0; i < nk; i++) {
		rkv[2 * i] = fa_bnsd(nn_bind_tensor(ex, kl[i], false), fs.layout,
				     fs.nkv);
		rkv[2 * i + 1] = fa_bnsd(nn_bind_tensor(ex, vl[i], false),
					 fs.layout, fs.nkv);
	}
	if (pse) {
		rp = nn_bind_tensor(ex, pse, false);
		rp.shape[0] = fs.b;
		rp.shape[1] = fs.n;
		rp.shape[2] = fs.sq;
		rp.shape[3] = fs.skv;
		rp.strides[0] = pse->dims[0] == 1 ? 0 : rp.strides[0];
		rp.strides[1] = pse->dims[1] == 1 ? 0 : rp.strides[1];
	}
	if (use_mask) {
		struct nn_ref mr = nn_bind_tensor(ex, mask, false);

		memcpy(mr.shape, rm.shape, sizeof(mr.shape));
		memcpy(mr.strides, rm.strides, sizeof(mr.strides));
		mr.rank = 4;
		rm = mr;
	}
	ro = fa_bnsd(nn_bind_tensor(ex, attentionOut, true),
		     fs.layout == L_BNSD_BSND ? L_BSND : fs.layout, fs.n);
	if (lse) {
		rl = nn_bind_tensor(ex, lse, true);
		rl.rank = 3;
	}
	if (!fs.b || !fs.n || !fs.sq) {
		free(rkv);
		return nn_finish(func, ex, 0, workspaceSize, executor);
	}

	/*
	 * One task per run of batches with one key length, and per batch
	 * with lists of B tensors.
	 */
	for (b0 = 0; b0 < fs.b && !ret; b0 = b1) {
		int64_t len = kvlen ? kvlen[nlen == 1 ? 0 : b0] : fs.skv;
		uint32_t n = 0;

		for (b1 = b0 + 1; kvlen && nlen != 1 && b1 < fs.b &&
		     kvlen[b1] == len; b1++)
			;
		if (!kvlen || nlen == 1)
			b1 = fs.b;
		if (nk != 1)
			b1 = b0 + 1;
		rk = rkv[nk == 1 ? 0 : 2 * b0];
		rv = rkv[nk == 1 ? 1 : 2 * b0 + 1];
		in[n++] = fa_slice(rq, b0, b1, -1, 0);
		in[n++] = fa_slice(rk, nk == 1 ? b0 : 0, nk == 1 ? b1 : 1, 2, len);
		in[n++] = fa_slice(rv, nk == 1 ? b0 : 0, nk == 1 ? b1 : 1, 2, len);
		if (pse)
			in[n++] = fa_slice(rp, b0, b1, 3, len);
		if (use_mask)
			in[n++] = fa_slice(rm, b0, b1, 3, len);
		out[0] = fa_slice(ro, b0, b1, -1, 0);
		out[1] = fa_slice(rl, b0, b1, -1, 0);
		ret = nn_task(ex, DRM_VNPU_OP_FLASH_ATTN, in, n, out, &at);
		if (!ret && lse) {	/* the second output */
			struct nn_task *t = &ex->tasks[ex->ntasks - 1];

			t->t[n + 1] = out[1];
			t->nout = 2;
		}
	}
	free(rkv);
	return nn_finish(func, ex, ret, workspaceSize, executor);
}
LAUNCH(aclnnFusedInferAttentionScoreV2)
