// SPDX-License-Identifier: MIT
/*
 * StringNormalizer: X (STRING [C] or [1, C]), stopwords -> Y (STRING,
 * dynamic). Drops the elements equal to a stopword, then changes the
 * case of the rest. When every element is dropped Y is one empty string,
 * [1] or [1, 1] as X's rank.
 *
 * Attributes: ints[0] case_change_action (0 NONE, 1 LOWER, 2 UPPER),
 * ints[1] is_case_sensitive, ints[2] the number of stopwords. Input 1,
 * when present, is a UINT8 weight holding the stopwords as a string
 * buffer (heads then text, the string tensor layout).
 *
 * Case mapping is the default locale's for what these tables cover:
 * ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic letters whose
 * upper and lower forms encode to the same number of UTF-8 bytes, so a
 * string never grows. Anything else (ß, invalid UTF-8) is left as is.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "aicpu.h"

enum { CASE_NONE, CASE_LOWER, CASE_UPPER };

/* Decode one UTF-8 sequence at p (n bytes left): code point, or -1. */
static int32_t utf8_get(const uint8_t *p, int64_t n, int *used)
{
	if (p[0] < 0x80) {
		*used = 1;
		return p[0];
	}
	if ((p[0] & 0xe0) == 0xc0 && n >= 2 && (p[1] & 0xc0) == 0x80) {
		int32_t cp = (p[0] & 0x1f) << 6 | (p[1] & 0x3f);

		*used = 2;
		return cp >= 0x80 ? cp : -1;
	}
	*used = 1;
	return -1;	/* longer forms: no letter we map */
}

static int32_t to_upper(int32_t cp)
{
	if (cp == 0x130 || cp == 0x131)	/* Turkish dotted/dotless i */
		return cp;
	if (cp >= 'a' && cp <= 'z')
		return cp - 32;
	if (cp >= 0xe0 && cp <= 0xfe && cp != 0xf7)
		return cp - 32;
	if ((cp >= 0x100 && cp <= 0x137) || (cp >= 0x14a && cp <= 0x177))
		return cp & ~1;
	if ((cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17e))
		return cp & 1 ? cp : cp - 1;
	if (cp >= 0x3b1 && cp <= 0x3c9 && cp != 0x3c2)
		return cp - 32;
	if (cp >= 0x430 && cp <= 0x44f)
		return cp - 32;
	if (cp >= 0x450 && cp <= 0x45f)
		return cp - 80;
	return cp;
}

static int32_t to_lower(int32_t cp)
{
	if (cp == 0x130 || cp == 0x131)
		return cp;
	if (cp >= 'A' && cp <= 'Z')
		return cp + 32;
	if (cp >= 0xc0 && cp <= 0xde && cp != 0xd7)
		return cp + 32;
	if ((cp >= 0x100 && cp <= 0x137) || (cp >= 0x14a && cp <= 0x177))
		return cp | 1;
	if ((cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17e))
		return cp & 1 ? cp + 1 : cp;
	if (cp >= 0x391 && cp <= 0x3a9 && cp != 0x3a2)
		return cp + 32;
	if (cp >= 0x410 && cp <= 0x42f)
		return cp + 32;
	if (cp >= 0x400 && cp <= 0x40f)
		return cp + 80;
	return cp;
}

/* Map the case of n bytes at src into dst (n bytes: lengths are kept). */
static void change_case(char *dst, const char *src, int64_t n, int action)
{
	const uint8_t *s = (const uint8_t *)src;
	uint8_t *d = (uint8_t *)dst;

	for (int64_t i = 0; i < n;) {
		int used;
		int32_t cp = utf8_get(s + i, n - i, &used), m;

		m = cp < 0 ? cp : action == CASE_UPPER ? to_upper(cp) : to_lower(cp);
		if (cp < 0 || m == cp || (cp < 0x80) != (m < 0x80)) {
			memcpy(d + i, s + i, (size_t)used);
		} else if (m < 0x80) {
			d[i] = (uint8_t)m;
		} else {
			d[i] = (uint8_t)(0xc0 | m >> 6);
			d[i + 1] = (uint8_t)(0x80 | (m & 0x3f));
		}
		i += used;
	}
}

/* Whether a equals b, ignoring case when asked. */
static bool same(const char *a, int64_t na, const char *b, int64_t nb,
		 bool sensitive)
{
	if (na != nb)
		return false;
	if (sensitive)
		return !memcmp(a, b, (size_t)na);
	for (int64_t i = 0; i < na;) {
		int ua, ub;
		int32_t ca = utf8_get((const uint8_t *)a + i, na - i, &ua);
		int32_t cb = utf8_get((const uint8_t *)b + i, nb - i, &ub);

		if (ua != ub || (ca < 0 ? memcmp(a + i, b + i, (size_t)ua) :
				 to_lower(ca) != to_lower(cb)))
			return false;
		i += ua;
	}
	return true;
}

static bool is_stopword(const struct aicpu_tensor *sw, int64_t nsw,
			const char *p, int64_t len, bool sensitive)
{
	for (int64_t k = 0; k < nsw; k++) {
		const char *w;
		int64_t wl;

		aicpu_str_get(sw, k, &w, &wl);
		if (same(p, len, w, wl, sensitive))
			return true;
	}
	return false;
}

int aicpu_strnorm(struct aicpu_call *c)
{
	struct aicpu_tensor *x = aicpu_in(c, 0), *sw = aicpu_in(c, 1);
	struct aicpu_tensor *y = aicpu_out(c, 0);
	int64_t n, nsw = sw ? c->ints[2] : 0, keep = 0, dims[2] = { 1, 1 };
	bool sensitive = c->ints[1] != 0;
	int action = (int)c->ints[0];
	struct aicpu_str_out w;
	char *buf = NULL;
	int ret = 0;

	if (!x || !y || x->dtype != AICPU_DT_STRING || y->dtype != AICPU_DT_STRING)
		return aicpu_fail(c, "needs a STRING X and a STRING output");
	if (x->rank < 1 || x->rank > 2 || (x->rank == 2 && x->dims[0] != 1))
		return aicpu_fail(c, "X must be [C] or [1, C], not of rank %u", x->rank);
	if (action < CASE_NONE || action > CASE_UPPER)
		return aicpu_fail(c, "case_change_action %d", action);
	if (sw && (sw->dtype != 4 || sw->rank != 1))	/* UINT8 bytes */
		return aicpu_fail(c, "the stopwords are not a byte buffer");
	n = aicpu_numel(x);
	if (aicpu_str_check(c, x, n, "X") ||
	    (sw && aicpu_str_check(c, sw, nsw, "the stopwords")))
		return -EINVAL;
	for (int64_t i = 0; i < n; i++) {
		const char *p;
		int64_t len;

		aicpu_str_get(x, i, &p, &len);
		keep += !is_stopword(sw, nsw, p, len, sensitive);
	}
	dims[x->rank - 1] = keep ? keep : 1;
	if (aicpu_set_dims(c, y, x->rank, dims))
		return -EINVAL;
	aicpu_str_begin(&w, y, keep ? keep : 1);
	if (!keep)
		return aicpu_str_put(c, &w, 0, "", 0);
	for (int64_t i = 0, k = 0; i < n && !ret; i++) {
		const char *p;
		int64_t len;
		char *nb;

		aicpu_str_get(x, i, &p, &len);
		if (is_stopword(sw, nsw, p, len, sensitive))
			continue;
		if (action != CASE_NONE) {
			nb = realloc(buf, (size_t)len + 1);
			if (!nb) {
				free(buf);
				return aicpu_fail(c, "out of memory"), -ENOMEM;
			}
			buf = nb;
			change_case(buf, p, len, action);
			p = buf;
		}
		ret = aicpu_str_put(c, &w, k++, p, len);
	}
	free(buf);
	return ret;
}
