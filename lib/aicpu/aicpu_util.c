// SPDX-License-Identifier: MIT
/* Dispatch and the element access every host op shares. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <drm/vnpu_accel.h>

#include "aicpu.h"
#include "../../kernel/ops/vnpu_dtype.h"

static const char *const names[AICPU_OP_COUNT] = {
	[AICPU_OP_NONZERO] = "NonZero", [AICPU_OP_UNIQUE] = "Unique",
	[AICPU_OP_COMPRESS] = "Compress", [AICPU_OP_NMS] = "NonMaxSuppression",
	[AICPU_OP_DET] = "Det", [AICPU_OP_ADAGRAD] = "Adagrad",
	[AICPU_OP_ADAM] = "Adam", [AICPU_OP_MOMENTUM] = "Momentum",
	[AICPU_OP_RNN] = "RNN", [AICPU_OP_GRU] = "GRU", [AICPU_OP_LSTM] = "LSTM",
	[AICPU_OP_DFT] = "DFT", [AICPU_OP_STFT] = "STFT",
	[AICPU_OP_TFIDF] = "TfIdfVectorizer",
	[AICPU_OP_STRNORM] = "StringNormalizer", [AICPU_OP_CAST_STRING] = "Cast",
};

const char *aicpu_op_name(uint32_t op)
{
	return op < AICPU_OP_COUNT && names[op] ? names[op] : "unknown";
}

int aicpu_fail(struct aicpu_call *c, const char *fmt, ...)
{
	int n = snprintf(c->why, sizeof(c->why), "%s: ", aicpu_op_name(c->op));
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->why + n, sizeof(c->why) - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static struct aicpu_tensor *by_mask(struct aicpu_call *c, uint64_t mask,
				    uint32_t k, uint32_t first, uint32_t n)
{
	uint32_t idx = 0;

	if (k >= 16 || !(mask & (1ull << k)))
		return NULL;
	for (uint32_t j = 0; j < k; j++)
		idx += !!(mask & (1ull << j));
	return idx < n ? &c->t[first + idx] : NULL;
}

struct aicpu_tensor *aicpu_in(struct aicpu_call *c, uint32_t k)
{
	return by_mask(c, (uint64_t)c->ints[AICPU_ATTR_IN], k, 0, c->nin);
}

struct aicpu_tensor *aicpu_out(struct aicpu_call *c, uint32_t k)
{
	return by_mask(c, (uint64_t)c->ints[AICPU_ATTR_OUT], k, c->nin, c->nout);
}

/* aclDataType values are the device's (vnpu_dtypes.def): one table */
size_t aicpu_dtype_size(uint32_t dtype)
{
	if (dtype == AICPU_DT_STRING)
		return AICPU_STR_HEAD;	/* the heads */
	return vnpu_dtype_size(dtype);
}

bool aicpu_dtype_float(uint32_t dtype)
{
	return vnpu_dtype_is_fp(dtype);
}

int64_t aicpu_numel(const struct aicpu_tensor *t)
{
	int64_t n = 1;

	if (t->rank > AICPU_MAX_RANK)
		return -1;
	for (uint32_t d = 0; d < t->rank; d++)
		if (t->dims[d] < 0 || __builtin_mul_overflow(n, t->dims[d], &n))
			return -1;
	return n;
}

int aicpu_check(struct aicpu_call *c, const struct aicpu_tensor *t,
		const char *what)
{
	int64_t n = aicpu_numel(t);
	uint64_t bytes;

	if (!aicpu_dtype_size(t->dtype))
		return aicpu_fail(c, "%s has dtype %u, not one the host ops know",
				  what, t->dtype);
	if (n < 0 || __builtin_mul_overflow((uint64_t)n, aicpu_dtype_size(t->dtype),
					    &bytes) || bytes > t->cap ||
	    (bytes && !t->data))
		return aicpu_fail(c, "%s: its dims do not fit its %llu-byte buffer",
				  what, (unsigned long long)t->cap);
	return 0;
}

int aicpu_set_dims(struct aicpu_call *c, struct aicpu_tensor *t, uint32_t r,
		   const int64_t *dims)
{
	struct aicpu_tensor n = *t;

	if (r > AICPU_MAX_RANK)
		return aicpu_fail(c, "an output of rank %u", r);
	n.rank = r;
	memset(n.dims, 0, sizeof(n.dims));
	memcpy(n.dims, dims, r * sizeof(*dims));
	if (aicpu_check(c, &n, "an output"))
		return -EINVAL;
	*t = n;
	return 0;
}

static float half_to_float(uint16_t h)
{
	uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31, m = h & 1023;
	uint32_t bits;
	float f;

	if (e == 31)
		bits = s | 0x7f800000u | (m << 13);
	else if (e)
		bits = s | ((e + 112) << 23) | (m << 13);
	else if (!m)
		bits = s;
	else
		return (s ? -1.0f : 1.0f) * ldexpf((float)m, -24);
	memcpy(&f, &bits, 4);
	return f;
}

static uint16_t float_to_half(float f)
{
	uint32_t b, s, m;
	int e;

	memcpy(&b, &f, 4);
	s = (b >> 16) & 0x8000;
	if (isnan(f))
		return (uint16_t)(s | 0x7e00);
	e = (int)((b >> 23) & 255) - 112;
	m = b & 0x7fffff;
	if (e >= 31)
		return (uint16_t)(s | 0x7c00);
	if (e <= 0) {
		float a = fabsf(f) * 16777216.0f;	/* units of 2^-24 */

		return (uint16_t)(s | (uint32_t)nearbyintf(a));
	}
	/* round to nearest even on the 13 dropped bits */
	m += 0xfff + ((m >> 13) & 1);
	if (m & 0x800000) {
		m = 0;
		e++;
		if (e >= 31)
			return (uint16_t)(s | 0x7c00);
	}
	return (uint16_t)(s | ((uint32_t)e << 10) | (m >> 13));
}

static float bf16_to_float(uint16_t h)
{
	uint32_t bits = (uint32_t)h << 16;
	float f;

	memcpy(&f, &bits, 4);
	return f;
}

static uint16_t float_to_bf16(float f)
{
	uint32_t b;

	memcpy(&b, &f, 4);
	if (isnan(f))
		return (uint16_t)((b >> 16) | 0x40);
	b += 0x7fff + ((b >> 16) & 1);
	return (uint16_t)(b >> 16);
}

double aicpu_get(const struct aicpu_tensor *t, int64_t i)
{
	const void *p = t->data;

	switch (t->dtype) {
	case DRM_VNPU_DTYPE_FLOAT: return ((const float *)p)[i];
	case DRM_VNPU_DTYPE_DOUBLE: return ((const double *)p)[i];
	case DRM_VNPU_DTYPE_FLOAT16: return half_to_float(((const uint16_t *)p)[i]);
	case DRM_VNPU_DTYPE_BF16: return bf16_to_float(((const uint16_t *)p)[i]);
	default: return (double)aicpu_get_int(t, i);
	}
}

/* The integer cases of the switches below, one per integer dtype. */
#define GET_INT(NAME, type, ...) \
	case DRM_VNPU_DTYPE_##NAME: return (int64_t)((const type *)p)[i];
#define PUT_INT(NAME, type, ...) \
	case DRM_VNPU_DTYPE_##NAME: ((type *)p)[i] = (type)v; return;

int64_t aicpu_get_int(const struct aicpu_tensor *t, int64_t i)
{
	const void *p = t->data;

	switch (t->dtype) {
#define VNPU_DTYPE_INT GET_INT
#include "../../kernel/ops/vnpu_dtypes.def"
	case DRM_VNPU_DTYPE_BOOL: return ((const uint8_t *)p)[i];
	default: {
		double v = aicpu_get(t, i);

		return isnan(v) ? 0 : v >= 9.2e18 ? INT64_MAX :
		       v <= -9.2e18 ? INT64_MIN : (int64_t)v;
	}
	}
}

void aicpu_put(struct aicpu_tensor *t, int64_t i, double v)
{
	void *p = t->data;

	switch (t->dtype) {
	case DRM_VNPU_DTYPE_FLOAT: ((float *)p)[i] = (float)v; return;
	case DRM_VNPU_DTYPE_DOUBLE: ((double *)p)[i] = v; return;
	case DRM_VNPU_DTYPE_FLOAT16: ((uint16_t *)p)[i] = float_to_half((float)v); return;
	case DRM_VNPU_DTYPE_BF16: ((uint16_t *)p)[i] = float_to_bf16((float)v); return;
	case DRM_VNPU_DTYPE_BOOL: ((uint8_t *)p)[i] = v != 0; return;
	default:
		aicpu_put_int(t, i, isnan(v) ? 0 : v >= 9.2e18 ? INT64_MAX :
			      v <= -9.2e18 ? INT64_MIN : (int64_t)v);
	}
}

void aicpu_put_int(struct aicpu_tensor *t, int64_t i, int64_t v)
{
	void *p = t->data;

	switch (t->dtype) {
#define VNPU_DTYPE_INT PUT_INT
#include "../../kernel/ops/vnpu_dtypes.def"
	case DRM_VNPU_DTYPE_BOOL: ((uint8_t *)p)[i] = v != 0; return;
	default: aicpu_put(t, i, (double)v);
	}
}

int aicpu_run(struct aicpu_call *c)
{
	static int (*const run[AICPU_OP_COUNT])(struct aicpu_call *) = {
		[AICPU_OP_NONZERO] = aicpu_nonzero, [AICPU_OP_UNIQUE] = aicpu_unique,
		[AICPU_OP_COMPRESS] = aicpu_compress, [AICPU_OP_NMS] = aicpu_nms,
		[AICPU_OP_DET] = aicpu_det, [AICPU_OP_ADAGRAD] = aicpu_adagrad,
		[AICPU_OP_ADAM] = aicpu_adam, [AICPU_OP_MOMENTUM] = aicpu_momentum,
		[AICPU_OP_RNN] = aicpu_rnn, [AICPU_OP_GRU] = aicpu_rnn,
		[AICPU_OP_LSTM] = aicpu_rnn, [AICPU_OP_DFT] = aicpu_dft,
		[AICPU_OP_STFT] = aicpu_stft, [AICPU_OP_TFIDF] = aicpu_tfidf,
		[AICPU_OP_STRNORM] = aicpu_strnorm,
		[AICPU_OP_CAST_STRING] = aicpu_cast_string,
	};

	c->why[0] = 0;
	if (c->op >= AICPU_OP_COUNT || !run[c->op])
		return aicpu_fail(c, "op %u is not a host operator", c->op);
	if (c->nin + c->nout > AICPU_MAX_TENSORS || !c->nout)
		return aicpu_fail(c, "%u inputs and %u outputs", c->nin, c->nout);
	for (uint32_t k = 0; k < c->nin + c->nout; k++) {
		if (aicpu_check(c, &c->t[k], k < c->nin ? "an input" : "an output"))
			return -EINVAL;
		/* the numeric ops read elements as numbers */
		if (c->t[k].dtype == AICPU_DT_STRING && c->op != AICPU_OP_STRNORM &&
		    c->op != AICPU_OP_CAST_STRING)
			return aicpu_fail(c, "tensor %u is a string tensor", k);
	}
	return run[c->op](c);
}
