// SPDX-License-Identifier: MIT
/*
 * Cast to and from STRING: X -> Y, exactly one of them a string tensor
 * of X's dims (no attributes: the dtypes say which way).
 *
 * Numbers become text as numpy's str() writes a scalar of X's type,
 * which is what ONNX's reference and test data use: the shortest digits
 * that read back to the same value of that type; positional notation
 * when 1e-4 <= |v| < 1e16 ("0.039187793", "123456790.0"), else
 * scientific with a two-digit exponent at least ("1e-05", "1.5e+20");
 * "nan", "inf", "-inf"; integers in decimal; bool as "True"/"False".
 *
 * Text becomes a number as strtod/strtoll read it (leading and trailing
 * blanks allowed, "NaN", "INF", "+INF", "-inf" in any case); text that is
 * not entirely a number, or an integer out of the type's range, fails
 * the op. To bool: a number, true when not zero.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <drm/vnpu_accel.h>

#include "aicpu.h"

/* v as stored in dtype and read back (rounding to the type). */
static double in_type(uint32_t dtype, double v)
{
	uint8_t cell[8];
	struct aicpu_tensor t = { .data = cell, .dtype = dtype, .rank = 0,
				  .cap = sizeof(cell) };

	aicpu_put(&t, 0, v);
	return aicpu_get(&t, 0);
}

static bool same_value(double a, double b)
{
	return a == b && signbit(a) == signbit(b);
}

/* numpy's str() of a float v of dtype into out (64 bytes). */
static int format_float(uint32_t dtype, double v, char *out)
{
	char e[40], digits[24];
	int exp = 0, nd = 0, p;

	if (isnan(v))
		return snprintf(out, 64, "nan");
	if (isinf(v))
		return snprintf(out, 64, v < 0 ? "-inf" : "inf");
	/* the shortest %e that reads back to v in its own type */
	for (p = 0; p < 17; p++) {
		snprintf(e, sizeof(e), "%.*e", p, v);
		if (same_value(in_type(dtype, strtod(e, NULL)), v))
			break;
	}
	for (const char *s = e; *s && *s != 'e'; s++)
		if (*s >= '0' && *s <= '9' && nd < (int)sizeof(digits) - 1)
			digits[nd++] = *s;
	digits[nd] = 0;
	exp = atoi(strchr(e, 'e') + 1);
	while (nd > 1 && digits[nd - 1] == '0')
		digits[--nd] = 0;
	if (v == 0 || (fabs(v) >= 1e-4 && fabs(v) < 1e16)) {
		int n = snprintf(out, 64, "%s", signbit(v) ? "-" : "");

		if (v == 0)
			return n + snprintf(out + n, 64 - n, "0.0");
		if (exp < 0) {
			n += snprintf(out + n, 64 - n, "0.");
			for (int k = 0; k < -exp - 1; k++)
				out[n++] = '0';
			return n + snprintf(out + n, 64 - n, "%s", digits);
		}
		for (int k = 0; k <= exp; k++)
			out[n++] = k < nd ? digits[k] : '0';
		out[n++] = '.';
		if (nd > exp + 1)
			return n + snprintf(out + n, 64 - n, "%s", digits + exp + 1);
		return n + snprintf(out + n, 64 - n, "0");
	}
	return snprintf(out, 64, "%s%c%s%se%c%02d", signbit(v) ? "-" : "",
			digits[0], nd > 1 ? "." : "", digits + 1,
			exp < 0 ? '-' : '+', abs(exp));
}

static int to_string(struct aicpu_call *c, const struct aicpu_tensor *x,
		     struct aicpu_tensor *y, int64_t n)
{
	struct aicpu_str_out w;
	char text[64];

	aicpu_str_begin(&w, y, n);
	for (int64_t i = 0; i < n; i++) {
		int len;

		if (aicpu_dtype_float(x->dtype))
			len = format_float(x->dtype, aicpu_get(x, i), text);
		else if (x->dtype == DRM_VNPU_DTYPE_BOOL)
			len = snprintf(text, sizeof(text), "%s",
				       aicpu_get_int(x, i) ? "True" : "False");
		else if (x->dtype == DRM_VNPU_DTYPE_UINT64)
			len = snprintf(text, sizeof(text), "%llu",
				       (unsigned long long)aicpu_get_int(x, i));
		else
			len = snprintf(text, sizeof(text), "%lld",
				       (long long)aicpu_get_int(x, i));
		if (aicpu_str_put(c, &w, i, text, len))
			return -EINVAL;
	}
	return 0;
}

/* v survives the trip through the integer type (64-bit ones always do) */
#define FITS(NAME, type, ...) \
	case DRM_VNPU_DTYPE_##NAME: return (long long)(type)v == v;

static bool int_fits(uint32_t dtype, long long v)
{
	switch (dtype) {
#define VNPU_DTYPE_INT FITS
#include "../../kernel/ops/vnpu_dtypes.def"
	default: return true;
	}
}

/* One string as a number of y's dtype into element i; 0 or a failure. */
static int parse_one(struct aicpu_call *c, struct aicpu_tensor *y, int64_t i,
		     const char *s)
{
	char *end;

	errno = 0;
	if (aicpu_dtype_float(y->dtype) || y->dtype == DRM_VNPU_DTYPE_BOOL) {
		double v = y->dtype == DRM_VNPU_DTYPE_FLOAT ? (double)strtof(s, &end) :
			   strtod(s, &end);

		while (*end == ' ' || *end == '\t' || *end == '\n')
			end++;
		if (end == s || *end)
			return aicpu_fail(c, "string %lld (\"%.40s\") is not a number",
					  (long long)i, s);
		aicpu_put(y, i, y->dtype == DRM_VNPU_DTYPE_BOOL ? v != 0 : v);
		return 0;
	}
	if (y->dtype == DRM_VNPU_DTYPE_UINT64) {
		unsigned long long u;

		while (*s == ' ' || *s == '\t')
			s++;
		u = *s == '-' ? (errno = ERANGE, 0) : strtoull(s, &end, 10);
		if (!errno)
			while (*end == ' ' || *end == '\t' || *end == '\n')
				end++;
		if (errno || end == s || *end)
			return aicpu_fail(c, "string %lld is not a UINT64", (long long)i);
		aicpu_put_int(y, i, (int64_t)u);
		return 0;
	}
	{
		long long v = strtoll(s, &end, 10);

		while (*end == ' ' || *end == '\t' || *end == '\n')
			end++;
		if (errno || end == s || *end || !int_fits(y->dtype, v))
			return aicpu_fail(c, "string %lld (\"%.40s\") is not an integer of the output's type",
					  (long long)i, s);
		aicpu_put_int(y, i, v);
	}
	return 0;
}

static int from_string(struct aicpu_call *c, const struct aicpu_tensor *x,
		       struct aicpu_tensor *y, int64_t n)
{
	char *buf = NULL;
	int ret = 0;

	if (aicpu_str_check(c, x, n, "X"))
		return -EINVAL;
	for (int64_t i = 0; i < n && !ret; i++) {
		const char *p;
		int64_t len;
		char *nb;

		aicpu_str_get(x, i, &p, &len);
		nb = realloc(buf, (size_t)len + 1);
		if (!nb) {
			free(buf);
			return aicpu_fail(c, "out of memory"), -ENOMEM;
		}
		buf = nb;
		memcpy(buf, p, (size_t)len);
		buf[len] = 0;	/* the text need not be terminated */
		ret = parse_one(c, y, i, buf);
	}
	free(buf);
	return ret;
}

int aicpu_cast_string(struct aicpu_call *c)
{
	struct aicpu_tensor *x = aicpu_in(c, 0), *y = aicpu_out(c, 0);
	int64_t n;

	if (!x || !y || (x->dtype == AICPU_DT_STRING) == (y->dtype == AICPU_DT_STRING))
		return aicpu_fail(c, "needs X and Y, exactly one of them STRING");
	n = aicpu_numel(x);
	if (n != aicpu_numel(y))
		return aicpu_fail(c, "X has %lld elements, Y %lld", (long long)n,
				  (long long)aicpu_numel(y));
	if (x->dtype == AICPU_DT_STRING)
		return from_string(c, x, y, n);
	return to_string(c, x, y, n);
}
