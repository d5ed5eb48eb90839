// SPDX-License-Identifier: MIT
/*
 * The key of a single-op description: the one text atc stores in a
 * single-op .om and libacl computes from an aclopExecuteV2 call, so both
 * sides must print it from the same code. Floats are compared by their
 * bits and strings are length-prefixed, so no value can imitate another.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../compile/compile.h"

struct out {
	char *buf;
	size_t len, off;
	int over;
};

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->over)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->off, o->len - o->off, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->len - o->off)
		o->over = 1;
	else
		o->off += (size_t)n;
}

static void put_tensors(struct out *o, const struct sop_tensor *t, int n)
{
	int i, k;

	for (i = 0; i < n; i++) {
		put(o, "%s%d,%d,[", i ? ";" : "", t[i].dtype, t[i].format);
		for (k = 0; k < t[i].rank; k++)
			put(o, "%s%lld", k ? "," : "", (long long)t[i].dims[k]);
		put(o, "]");
		for (k = 0; k < t[i].nconst; k++)
			put(o, "%s%lld", k ? "," : "=", (long long)t[i].cval[k]);
	}
}

static unsigned int fbits(float f)
{
	unsigned int u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

static void put_str(struct out *o, const char *s)
{
	put(o, "%zu:%s", strlen(s), s);
}

static void put_attr(struct out *o, const struct sop_attr *a)
{
	static const char *const tag[] = {
		[SOP_BOOL] = "b", [SOP_INT] = "i", [SOP_FLOAT] = "f",
		[SOP_STRING] = "s", [SOP_DTYPE] = "dt", [SOP_LIST_BOOL] = "lb",
		[SOP_LIST_INT] = "li", [SOP_LIST_FLOAT] = "lf",
		[SOP_LIST_STRING] = "ls", [SOP_LIST_DTYPE] = "ldt",
		[SOP_LIST_LIST_INT] = "lli",
	};
	int i, k, at = 0;

	put(o, "%s=%s:", a->name, tag[a->kind]);
	switch (a->kind) {
	case SOP_BOOL:
	case SOP_INT:
	case SOP_DTYPE:
		put(o, "%lld", (long long)a->i);
		return;
	case SOP_FLOAT:
		put(o, "%08x", fbits(a->f));
		return;
	case SOP_STRING:
		put_str(o, a->s);
		return;
	default:
		break;
	}
	put(o, "[");
	for (i = 0; i < a->count; i++) {
		put(o, i ? "," : "");
		switch (a->kind) {
		case SOP_LIST_FLOAT:
			put(o, "%08x", fbits(a->floats[i]));
			break;
		case SOP_LIST_STRING:
			put_str(o, a->strs[i]);
			break;
		case SOP_LIST_LIST_INT:
			put(o, "[");
			for (k = 0; k < a->lens[i]; k++)
				put(o, "%s%lld", k ? "," : "",
				    (long long)a->ints[at + k]);
			at += a->lens[i];
			put(o, "]");
			break;
		default:
			put(o, "%lld", (long long)a->ints[i]);
		}
	}
	put(o, "]");
}

static int by_name(const void *a, const void *b)
{
	const struct sop_attr *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

int sop_key(const struct sop_desc *d, char *buf, size_t len)
{
	const struct sop_attr *sorted[SOP_MAX_ATTRS];
	struct out o = { buf, len, 0, 0 };
	int i;

	if (!len || d->nattrs < 0 || d->nattrs > SOP_MAX_ATTRS)
		return -1;
	buf[0] = '\0';
	for (i = 0; i < d->nattrs; i++)
		sorted[i] = &d->attrs[i];
	qsort(sorted, (size_t)d->nattrs, sizeof(sorted[0]), by_name);
	put(&o, "%s|i:", d->type);
	put_tensors(&o, d->in, d->nin);
	put(&o, "|o:");
	put_tensors(&o, d->out, d->nout);
	put(&o, "|a:");
	for (i = 0; i < d->nattrs; i++) {
		put(&o, i ? ";" : "");
		put_attr(&o, sorted[i]);
	}
	return o.over ? -1 : (int)o.off;
}

const struct sop_attr *sop_attr(const struct sop_desc *d, const char *name)
{
	int i;

	for (i = 0; i < d->nattrs; i++)
		if (!strcmp(d->attrs[i].name, name))
			return &d->attrs[i];
	return NULL;
}

void sop_desc_free(struct sop_desc *d)
{
	int i, k;

	for (i = 0; i < d->nattrs; i++) {
		struct sop_attr *a = &d->attrs[i];

		free(a->name);
		free(a->s);
		free(a->ints);
		free(a->floats);
		free(a->lens);
		for (k = 0; a->strs && k < a->count; k++)
			free(a->strs[k]);
		free(a->strs);
	}
	d->nattrs = 0;
}
