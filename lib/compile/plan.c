// SPDX-License-Identifier: MIT
/*
 * The arena planner. Buffers that must share memory (a view and what it
 * views, an in-place output and the input it overwrites) are merged into
 * groups whose interval is the union of their members'. Groups are then
 * placed largest first: each goes into the smallest gap, among the groups
 * already placed that are live at the same time, that holds it (best fit
 * over an offset-sorted list), or above them all.
 */
#include <stdlib.h>

#include "plan.h"

struct group {
	uint64_t size, offset;
	int first, last;
	int id;
};

static int find(int *root, int i)
{
	while (root[i] != i) {
		root[i] = root[root[i]];
		i = root[i];
	}
	return i;
}

static uint64_t align64(uint64_t v)
{
	return (v + PLAN_ALIGN - 1) & ~(uint64_t)(PLAN_ALIGN - 1);
}

/* Merge group j into group i (both roots). */
static void merge(int *root, struct group *g, int i, int j)
{
	root[j] = i;
	if (g[j].size > g[i].size)
		g[i].size = g[j].size;
	if (g[j].first < g[i].first)
		g[i].first = g[j].first;
	if (g[j].last > g[i].last)
		g[i].last = g[j].last;
}

static int by_size_desc(const void *a, const void *b)
{
	const struct group *x = *(const struct group *const *)a;
	const struct group *y = *(const struct group *const *)b;

	if (x->size != y->size)
		return x->size < y->size ? 1 : -1;
	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return x->id - y->id;
}

static int by_offset(const void *a, const void *b)
{
	const struct group *x = *(const struct group *const *)a;
	const struct group *y = *(const struct group *const *)b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return 0;
}

/* Indices of buffers in order of their first task (in-place goes forward). */
static const struct plan_buf *sort_bufs;

static int cmp_first(const void *a, const void *b)
{
	const struct plan_buf *x = &sort_bufs[*(const int *)a];
	const struct plan_buf *y = &sort_bufs[*(const int *)b];

	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

/* Try to place buffer i over one of its in-place candidates. */
static int try_inplace(const struct plan_buf *b, int n, int *root,
		       struct group *g, int i)
{
	int k, c, gi = find(root, i);

	for (k = 0; k < 2; k++) {
		c = b[i].inplace[k];
		if (c < 0 || c >= n || b[c].first < 0)
			continue;
		c = find(root, c);
		/* The input must die exactly where i is born, and be older. */
		if (c == gi || g[c].last != b[i].first ||
		    g[c].first >= b[i].first || g[c].size < g[gi].size ||
		    g[gi].first != b[i].first)
			continue;
		merge(root, g, c, gi);
		return 1;
	}
	return 0;
}

static uint64_t place(struct group **order, int ng, struct group **live)
{
	uint64_t arena = 0;
	int i, j, nl;

	for (i = 0; i < ng; i++) {
		struct group *x = order[i];
		uint64_t best = UINT64_MAX, best_gap = UINT64_MAX, end = 0;

		nl = 0;
		for (j = 0; j < i; j++)
			if (order[j]->first <= x->last &&
			    x->first <= order[j]->last)
				live[nl++] = order[j];
		qsort(live, nl, sizeof(*live), by_offset);
		for (j = 0; j < nl; j++) {
			uint64_t gap;

			if (live[j]->offset > end) {
				gap = live[j]->offset - end;
				if (gap >= x->size && gap < best_gap) {
					best_gap = gap;
					best = end;
				}
			}
			if (live[j]->offset + live[j]->size > end)
				end = live[j]->offset + live[j]->size;
		}
		x->offset = best != UINT64_MAX ? best : end;
		if (x->offset + x->size > arena)
			arena = x->offset + x->size;
	}
	return arena;
}

static uint64_t lower_bound(struct group **order, int ng)
{
	uint64_t lb = 0, sum;
	int i, j;

	/* The live set only grows at a group's first task: check those. */
	for (i = 0; i < ng; i++) {
		sum = 0;
		for (j = 0; j < ng; j++)
			if (order[j]->first <= order[i]->first &&
			    order[i]->first <= order[j]->last)
				sum += order[j]->size;
		if (sum > lb)
			lb = sum;
	}
	return lb;
}

int plan_arena(struct plan_buf *b, int n, struct plan_stats *st)
{
	struct group *g = calloc(n ? n : 1, sizeof(*g));
	struct group **order = calloc(n ? n : 1, sizeof(*order));
	struct group **live = calloc(n ? n : 1, sizeof(*live));
	int *root = calloc(n ? n : 1, sizeof(*root));
	int *idx = calloc(n ? n : 1, sizeof(*idx));
	int i, r, ng = 0, ret = -1;

	st->arena_size = st->naive_size = st->lower_bound = 0;
	st->inplace = 0;
	if (!g || !order || !live || !root || !idx)
		goto out;
	for (i = 0; i < n; i++) {
		root[i] = i;
		g[i].id = i;
		g[i].size = align64(b[i].size);
		g[i].first = b[i].first;
		g[i].last = b[i].last < b[i].first ? b[i].first : b[i].last;
		b[i].offset = 0;
		if (b[i].alias >= n)
			goto out;
		if (b[i].first >= 0 && b[i].alias < 0)
			st->naive_size += g[i].size;
	}
	/* Views share their target's memory (chains resolve through find). */
	for (i = 0; i < n; i++) {
		int a = b[i].alias;

		if (a < 0 || b[i].first < 0)
			continue;
		if (b[a].first < 0) {
			/* the target is unused apart from its views */
			g[a].first = g[i].first;
			g[a].last = g[i].last;
			b[a].first = b[i].first;
		}
		r = find(root, a);
		if (r != find(root, i))
			merge(root, g, r, find(root, i));
	}
	for (i = 0; i < n; i++)
		idx[i] = i;
	sort_bufs = b;
	qsort(idx, n, sizeof(*idx), cmp_first);
	for (i = 0; i < n; i++)
		if (b[idx[i]].first >= 0 && try_inplace(b, n, root, g, idx[i]))
			st->inplace++;
	for (i = 0; i < n; i++)
		if (b[i].first >= 0 && find(root, i) == i)
			order[ng++] = &g[i];
	qsort(order, ng, sizeof(*order), by_size_desc);
	st->arena_size = place(order, ng, live);
	st->lower_bound = lower_bound(order, ng);
	for (i = 0; i < n; i++)
		if (b[i].first >= 0)
			b[i].offset = g[find(root, i)].offset;
	ret = 0;
out:
	free(g);
	free(order);
	free(live);
	free(root);
	free(idx);
	return ret;
}
