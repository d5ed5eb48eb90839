// SPDX-License-Identifier: MIT
/*
 * String tensors on the host (the layout of lib/om/om_format.h): one
 * {offset, len} head of two int64 per element, then the text, offsets
 * from the start of the buffer. Every head is checked against the
 * buffer before its text is touched: a head a caller wrote can point
 * anywhere.
 */
#include <errno.h>
#include <string.h>

#include "aicpu.h"

static void head_at(const void *buf, int64_t i, int64_t *off, int64_t *len)
{
	const uint8_t *p = (const uint8_t *)buf + (size_t)i * AICPU_STR_HEAD;

	memcpy(off, p, 8);
	memcpy(len, p + 8, 8);
}

int64_t aicpu_str_bad_head(const void *buf, uint64_t cap, int64_t n)
{
	uint64_t heads;

	if (n < 0 || __builtin_mul_overflow((uint64_t)n, AICPU_STR_HEAD, &heads) ||
	    heads > cap)
		return 0;
	for (int64_t i = 0; i < n; i++) {
		int64_t off, len;

		head_at(buf, i, &off, &len);
		/* text lies after the heads and inside the buffer */
		if (off < (int64_t)heads || len < 0 || (uint64_t)off > cap ||
		    (uint64_t)len > cap - (uint64_t)off)
			return i;
	}
	return -1;
}

int aicpu_str_check(struct aicpu_call *c, const struct aicpu_tensor *t,
		    int64_t n, const char *what)
{
	int64_t bad = aicpu_str_bad_head(t->data, t->cap, n);

	if (bad >= 0)
		return aicpu_fail(c, "%s: string %lld points outside its %llu-byte buffer",
				  what, (long long)bad, (unsigned long long)t->cap);
	return 0;
}

void aicpu_str_get(const struct aicpu_tensor *t, int64_t i, const char **p,
		   int64_t *len)
{
	int64_t off;

	head_at(t->data, i, &off, len);
	*p = (const char *)t->data + off;
}

void aicpu_str_begin(struct aicpu_str_out *w, struct aicpu_tensor *t, int64_t n)
{
	w->t = t;
	w->used = (uint64_t)n * AICPU_STR_HEAD;
}

int aicpu_str_put(struct aicpu_call *c, struct aicpu_str_out *w, int64_t i,
		  const char *p, int64_t len)
{
	uint8_t *base = w->t->data;
	int64_t off = (int64_t)w->used;

	if (len < 0 || (uint64_t)len >= w->t->cap - w->used)
		return aicpu_fail(c, "the output's %llu-byte buffer is too small for its text",
				  (unsigned long long)w->t->cap);
	memcpy(base + w->used, p, (size_t)len);
	base[w->used + (uint64_t)len] = 0;
	w->used += (uint64_t)len + 1;
	memcpy(base + (size_t)i * AICPU_STR_HEAD, &off, 8);
	memcpy(base + (size_t)i * AICPU_STR_HEAD + 8, &len, 8);
	return 0;
}
