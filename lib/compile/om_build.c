// SPDX-License-Identifier: MIT
/* The growing tables of an .om under construction. */
#include <stdlib.h>
#include <string.h>

#include "om_build.h"

/* Room for need more bytes in *p (holding n of cap bytes). */
static int reserve(void *pp, size_t n, size_t *cap, size_t need)
{
	void **p = pp;
	size_t c = *cap ? *cap : 256;
	void *q;

	if (need > SIZE_MAX - n)
		return -1;
	while (c < n + need) {
		if (c > SIZE_MAX / 2)
			return -1;
		c *= 2;
	}
	if (c == *cap)
		return 0;
	q = realloc(*p, c);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

int om_build_init(struct om_build *b)
{
	memset(b, 0, sizeof(*b));
	if (reserve(&b->strings, 0, &b->cap_strings, 1))
		return -1;
	b->strings[0] = '\0';
	b->nstrings = 1;
	return 0;
}

void om_build_free(struct om_build *b)
{
	free(b->strings);
	free(b->tensors);
	free(b->nodes);
	free(b->weights);
	free(b->wrefs);
	memset(b, 0, sizeof(*b));
}

uint32_t om_add_string(struct om_build *b, const char *s)
{
	size_t len, off;

	if (!s || !*s)
		return 0;
	len = strnlen(s, OM_NAME_MAX - 1);
	/* Names repeat (a tensor per task that reads it): share them. */
	for (off = 1; off < b->nstrings; off += strlen(b->strings + off) + 1)
		if (strlen(b->strings + off) == len &&
		    !memcmp(b->strings + off, s, len))
			return (uint32_t)off;
	if (b->nstrings + len + 1 > UINT32_MAX ||
	    reserve(&b->strings, b->nstrings, &b->cap_strings, len + 1))
		return UINT32_MAX;
	off = b->nstrings;
	memcpy(b->strings + off, s, len);
	b->strings[off + len] = '\0';
	b->nstrings += len + 1;
	return (uint32_t)off;
}

int64_t om_add_tensor(struct om_build *b, const struct om_tensor *t)
{
	size_t cap = (size_t)b->cap_tensors * sizeof(*t);

	if (b->ntensors == UINT32_MAX ||
	    reserve(&b->tensors, (size_t)b->ntensors * sizeof(*t), &cap,
		    sizeof(*t)))
		return -1;
	b->cap_tensors = (uint32_t)(cap / sizeof(*t));
	b->tensors[b->ntensors] = *t;
	return b->ntensors++;
}

int64_t om_add_node(struct om_build *b, const struct om_node *n)
{
	size_t cap = (size_t)b->cap_nodes * sizeof(*n);

	if (b->nnodes == UINT32_MAX ||
	    reserve(&b->nodes, (size_t)b->nnodes * sizeof(*n), &cap,
		    sizeof(*n)))
		return -1;
	b->cap_nodes = (uint32_t)(cap / sizeof(*n));
	b->nodes[b->nnodes] = *n;
	return b->nnodes++;
}

int64_t om_add_weight(struct om_build *b, const void *data, size_t n)
{
	size_t off = (b->nweights + OM_WEIGHT_ALIGN - 1) &
		     ~(size_t)(OM_WEIGHT_ALIGN - 1);
	size_t cap = b->cap_wrefs * sizeof(*b->wrefs), i;
	uint32_t crc = om_crc32(0, data, n);

	for (i = 0; i < b->nwrefs; i++)
		if (b->wrefs[i].size == n && b->wrefs[i].crc == crc &&
		    !memcmp(b->weights + b->wrefs[i].offset, data, n))
			return (int64_t)b->wrefs[i].offset;
	if (off > INT64_MAX ||
	    reserve(&b->wrefs, b->nwrefs * sizeof(*b->wrefs), &cap,
		    sizeof(*b->wrefs)))
		return -1;
	b->cap_wrefs = cap / sizeof(*b->wrefs);
	if (reserve(&b->weights, b->nweights, &b->cap_weights,
		    off - b->nweights + n))
		return -1;
	memset(b->weights + b->nweights, 0, off - b->nweights);
	if (n)
		memcpy(b->weights + off, data, n);
	b->nweights = off + n;
	b->wrefs[b->nwrefs].offset = off;
	b->wrefs[b->nwrefs].size = n;
	b->wrefs[b->nwrefs++].crc = crc;
	return (int64_t)off;
}
