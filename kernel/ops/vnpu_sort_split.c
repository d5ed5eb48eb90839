// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * SORT and TOPK along axes longer than VNPU_SORT_MAX_AXIS, split into
 * chunks of VNPU_SPLIT_CHUNK elements that run on any engine. The order
 * is the unsplit one: positions ordered by (key, position), a strict order
 * (positions differ), so the sorted row and the first k of it are unique
 * and every split computes exactly them, whichever engine ran what.
 *
 * TOPK: phase 0 keeps each chunk's first min(k, chunk) positions in that
 * order in the call's shared memory; phase 1 (one piece per row) merges
 * the chunks' lists and writes the first k values and indices.
 *
 * SORT (values of 4 bytes, contiguous along the axis): the outputs hold
 * the partial results. Phase 0 sorts each chunk and writes its (key,
 * position) pairs, one 64-bit number each, over the index output; phase 1
 * cuts the sorted row into ranges of VNPU_SPLIT_CHUNK ranks and each piece
 * finds, by halving the range of pairs, how many of each chunk come before
 * its first and last rank, sorts those runs together and writes their
 * positions (u32) over the values output; phase 2 writes the indices and
 * the values from the positions. Phase 1 reads only the index output.
 *
 * Positions read back from an output are bounded before they address
 * the input: the outputs are the caller's memory.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_sort.h"

/* Candidate positions (u32) the shared memory holds, over all rows. */
#define SS_CANDS	(VNPU_OPS_SHARED / sizeof(u32))
/* A chunk's top k is taken with a heap when k is this much smaller. */
#define SS_HEAP_RATIO	16

/*
 * Work of a split call, in VNPU_OPS_PIECE_WORK's units (see
 * VNPU_SPLIT_CALL_WORK). SORT: a chunk's three pieces, two radix sorts
 * of up to 64 Ki keys and the copy, count 128 per element; a phase 1
 * piece's search, two selections of up to 65 halvings times a binary
 * search of 17 probes in every chunk of its row, each probe a likely
 * cache miss, counts 2^15 per chunk of the row. TOPK: a chunk counts 64
 * per element, the radix sort of the chunk (its heap pass costs less)
 * and its share of the row's merge (at most SS_CANDS comparisons per
 * chunk in all).
 */
#define SS_SORT_WORK	(128ULL * VNPU_SPLIT_CHUNK)
#define SS_SELECT_WORK	BIT_ULL(15)
#define SS_TOPK_WORK	(64ULL * VNPU_SPLIT_CHUNK)

/* A row's tensors and the order's key. */
struct ss_row {
	const struct vnpu_tview *x;
	s64 xo, xs;
	u8 *v;			/* the row's first value */
	s64 vo, vs;
	s64 *ix;		/* the indices, at io + j * is */
	s64 io, is;
	u64 n;
	u32 esize;
	u64 flip;		/* the key's mask when descending, else 0 */
};

/* A position and its key; src is the chunk it came from. */
struct ss_ent {
	u64 key;
	u32 pos;
	u32 src;
};

static bool ss_before(const struct ss_ent *a, const struct ss_ent *b)
{
	return a->key != b->key ? a->key < b->key : a->pos < b->pos;
}

static u64 ss_key(const struct ss_row *r, u64 p)
{
	return vnpu_sort_key(r->x->data, r->x->dtype, r->xo + (s64)p * r->xs) ^
	       r->flip;
}

static bool ss_desc(const struct vnpu_op_call *c)
{
	if (c->op == DRM_VNPU_OP_TOPK)
		return vnpu_attr_int(c, 2, 1) != 0;
	return vnpu_attr_int(c, 1, 0) != 0;
}

bool vnpu_sort_split_plan(const struct vnpu_op_call *c, s64 axis,
			  struct vnpu_split_rows *s)
{
	const struct vnpu_tview *x = &c->t[0], *v = &c->t[1];
	u64 elems, len, k, kc, cands, work = 0;

	if (axis < 0 || axis >= x->rank)
		return false;
	len = (u64)x->shape[axis];
	k = (u64)v->shape[axis];
	elems = vnpu_tview_elems(x);
	if (len <= VNPU_SPLIT_CHUNK || !k || !elems)
		return false;
	s->rows = elems / len;
	s->len = len;
	s->chunks = (len + VNPU_SPLIT_CHUNK - 1) / VNPU_SPLIT_CHUNK;
	if (s->chunks > VNPU_SPLIT_PARTS ||
	    __builtin_mul_overflow(s->rows, s->chunks, &s->pieces) ||
	    s->pieces > ~0ULL / 4)
		return false;
	if (c->op == DRM_VNPU_OP_TOPK) {
		kc = k < VNPU_SPLIT_CHUNK ? k : VNPU_SPLIT_CHUNK;
		vnpu_split_work_add(&work, s->pieces, SS_TOPK_WORK);
		return !__builtin_mul_overflow(s->pieces, kc, &cands) &&
		       cands <= SS_CANDS && work <= VNPU_SPLIT_CALL_WORK;
	}
	/* Every chunk of the call, and each piece's search in its row. */
	vnpu_split_work_add(&work, s->pieces, SS_SORT_WORK);
	vnpu_split_work_add(&work, s->pieces, s->chunks * SS_SELECT_WORK);
	return vnpu_dtype_size(x->dtype) == sizeof(u32) &&
	       v->strides[axis] == 1 && work <= VNPU_SPLIT_CALL_WORK;
}

u32 vnpu_sort_split_phases(const struct vnpu_op_call *c,
			   const struct vnpu_split_rows *s, u64 *ends)
{
	ends[0] = s->pieces;
	if (c->op == DRM_VNPU_OP_TOPK) {
		ends[1] = s->pieces + s->rows;
		return 2;
	}
	ends[1] = 2 * s->pieces;
	ends[2] = 3 * s->pieces;
	return 3;
}

static void ss_row_init(const struct vnpu_op_call *c, s64 axis, u64 row,
			struct ss_row *r)
{
	const struct vnpu_tview *x = &c->t[0], *v = &c->t[1], *ix = &c->t[2];
	s64 fshape[VNPU_OPS_MAX_RANK], idx[VNPU_OPS_MAX_RANK];
	u32 d;

	for (d = 0; d < x->rank; d++)
		fshape[d] = d == axis ? 1 : x->shape[d];
	vnpu_move_unravel(fshape, x->rank, row, idx);
	r->x = x;
	r->xo = vnpu_move_offset(x, idx);
	r->xs = x->strides[axis];
	r->esize = vnpu_dtype_size(x->dtype);
	r->vo = vnpu_move_offset(v, idx);
	r->vs = v->strides[axis];
	r->v = (u8 *)v->data + r->vo * r->esize;
	r->ix = ix->data;
	r->io = vnpu_move_offset(ix, idx);
	r->is = ix->strides[axis];
	r->n = (u64)x->shape[axis];
	r->flip = ss_desc(c) ? vnpu_sort_mask(r->esize) : 0;
}

/* Sort chunk [first, first + n) of the row in @m; which buffer holds it. */
static u32 ss_sort_chunk(const struct vnpu_op_call *c, const struct ss_row *r,
			 u64 first, u32 n, struct vnpu_sort_mem *m)
{
	u32 i;

	vnpu_sort_mem_init(m, c->scratch, n);
	for (i = 0; i < n; i++) {
		m->key[0][i] = ss_key(r, first + i);
		m->pos[0][i] = (u32)(first + i);
	}
	return vnpu_sort_keys(m, n, r->esize);
}

/* Restore the max-heap order of h[0..n) below h[i]. */
static void ss_sift_max(struct ss_ent *h, u32 n, u32 i)
{
	struct ss_ent e = h[i];
	u32 ch;

	while ((ch = 2 * i + 1) < n) {
		if (ch + 1 < n && ss_before(&h[ch], &h[ch + 1]))
			ch++;
		if (!ss_before(&e, &h[ch]))
			break;
		h[i] = h[ch];
		i = ch;
	}
	h[i] = e;
}

/*
 * The first @kk positions of chunk [first, first + n) in order, to @out:
 * a max-heap of the best so far when kk is small, else the sorted chunk.
 */
static void ss_chunk_top(const struct vnpu_op_call *c, const struct ss_row *r,
			 u64 first, u32 n, u32 kk, u32 *out)
{
	struct vnpu_sort_mem m;
	struct ss_ent *h = c->scratch, e;
	u32 i, cur;

	if ((u64)kk * SS_HEAP_RATIO >= n) {
		cur = ss_sort_chunk(c, r, first, n, &m);
		for (i = 0; i < kk; i++)
			out[i] = m.pos[cur][i];
		return;
	}
	for (i = 0; i < kk; i++) {
		h[i].key = ss_key(r, first + i);
		h[i].pos = (u32)(first + i);
	}
	for (i = kk / 2; i-- > 0;)
		ss_sift_max(h, kk, i);
	/* A later position with an equal key comes after: strictly less. */
	for (i = kk; i < n; i++) {
		u64 key = ss_key(r, first + i);

		if (key < h[0].key) {
			h[0].key = key;
			h[0].pos = (u32)(first + i);
			ss_sift_max(h, kk, 0);
		}
	}
	for (i = kk; i-- > 1;) {
		e = h[0];
		h[0] = h[i];
		h[i] = e;
		ss_sift_max(h, i, 0);
	}
	for (i = 0; i < kk; i++)
		out[i] = h[i].pos;
}

static u32 ss_chunk_len(const struct vnpu_split_rows *s, u64 q)
{
	u64 first = q * VNPU_SPLIT_CHUNK;

	return (u32)(s->len - first < VNPU_SPLIT_CHUNK ? s->len - first :
		     VNPU_SPLIT_CHUNK);
}

/* TOPK phase 1: merge the row's chunk lists into the first k. */
static void ss_topk_merge(const struct vnpu_op_call *c,
			  const struct vnpu_split_rows *s,
			  const struct ss_row *r, const u32 *cand, u64 k, u32 kc)
{
	struct ss_ent *head = c->scratch;
	u32 *at = (u32 *)(head + s->chunks), *lim = at + s->chunks;
	u64 q, j, best;

	for (q = 0; q < s->chunks; q++) {
		u32 cn = ss_chunk_len(s, q);

		at[q] = 0;
		lim[q] = kc < cn ? kc : cn;
		head[q].pos = cand[q * kc];
		head[q].key = ss_key(r, head[q].pos);
	}
	for (j = 0; j < k; j++) {
		best = s->chunks;
		for (q = 0; q < s->chunks; q++)
			if (at[q] < lim[q] &&
			    (best == s->chunks || ss_before(&head[q], &head[best])))
				best = q;
		if (best == s->chunks)
			break;
		vnpu_move_copy1(c->t[1].data, r->vo + (s64)j * r->vs,
				r->x->data, r->xo + (s64)head[best].pos * r->xs,
				r->esize);
		r->ix[r->io + (s64)j * r->is] = head[best].pos;
		if (++at[best] < lim[best]) {
			head[best].pos = cand[best * kc + at[best]];
			head[best].key = ss_key(r, head[best].pos);
		}
	}
}

/*
 * SORT's partials: element i of the row's index output holds, between
 * phases 0 and 1, the (key, position) pair of rank i of its chunk as one
 * number, key in the high half: pairs are distinct and order as the sort.
 */
static u64 ss_pair(const struct ss_row *r, u64 i)
{
	return (u64)r->ix[r->io + (s64)i * r->is];
}

/* Pairs of sorted chunk q (n of them) below @pair. */
static u32 ss_below(const struct ss_row *r, u64 q, u32 n, u64 pair)
{
	u64 base = q * VNPU_SPLIT_CHUNK;
	u32 lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ss_pair(r, base + mid) < pair)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Pairs of the row below @pair, or more than @r once past it. */
static u64 ss_count_below(const struct ss_row *row,
			  const struct vnpu_split_rows *s, u64 pair, u64 r)
{
	u64 q, sum = 0;

	for (q = 0; q < s->chunks && sum <= r; q++)
		sum += ss_below(row, q, ss_chunk_len(s, q), pair);
	return sum;
}

/*
 * How many elements of each chunk are among the row's @r first: out[q].
 * The pair of rank r is the largest pair with at most r pairs below it,
 * found by halving the range between the chunks' smallest and largest.
 */
static void ss_select(const struct ss_row *row,
		      const struct vnpu_split_rows *s, u64 r, u32 *out)
{
	u64 q, lo = ~0ULL, hi = 0, mid, t;
	u32 cn;

	for (q = 0; q < s->chunks; q++) {
		cn = ss_chunk_len(s, q);
		out[q] = r >= s->len ? cn : 0;
		if (r >= s->len || !r)
			continue;
		t = ss_pair(row, q * VNPU_SPLIT_CHUNK);
		lo = t < lo ? t : lo;
		t = ss_pair(row, q * VNPU_SPLIT_CHUNK + cn - 1);
		hi = t > hi ? t : hi;
	}
	if (r >= s->len || !r)
		return;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2 + ((hi - lo) & 1);
		if (ss_count_below(row, s, mid, r) <= r)
			lo = mid;
		else
			hi = mid - 1;
	}
	for (q = 0; q < s->chunks; q++)
		out[q] = ss_below(row, q, ss_chunk_len(s, q), lo);
}

/*
 * SORT phase 1: positions of ranks [r0, r1) of the row, to the values
 * output. The runs of each chunk that hold those ranks are gathered in
 * chunk order and sorted again by key alone: the sort is stable, and
 * chunk order then order within a chunk is position order for equal keys.
 */
static void ss_sort_merge(const struct vnpu_op_call *c,
			  const struct vnpu_split_rows *s,
			  const struct ss_row *r, u64 r0, u64 r1)
{
	u32 *at = c->scratch, *end = at + VNPU_SPLIT_PARTS, n = 0, i, cur;
	struct vnpu_sort_mem m;
	u64 q, pair;

	vnpu_sort_mem_init(&m, end + VNPU_SPLIT_PARTS, (u32)(r1 - r0));
	ss_select(r, s, r0, at);
	ss_select(r, s, r1, end);
	for (q = 0; q < s->chunks; q++) {
		for (i = at[q]; i < end[q] && n < r1 - r0; i++) {
			pair = ss_pair(r, q * VNPU_SPLIT_CHUNK + i);
			m.key[0][n] = pair >> 32;
			m.pos[0][n++] = (u32)pair;
		}
	}
	cur = vnpu_sort_keys(&m, n, r->esize);
	for (i = 0; i < n; i++)
		((u32 *)r->v)[r0 + i] = m.pos[cur][i];
}

/* SORT phase 2: indices and values of ranks [r0, r1) from the positions. */
static void ss_sort_values(const struct ss_row *r, u64 r0, u64 r1)
{
	u64 j, p;

	for (j = r0; j < r1; j++) {
		/* The caller's memory: keep the read inside the row. */
		p = ((const u32 *)r->v)[j];
		p = p < r->n ? p : r->n - 1;
		r->ix[r->io + (s64)j * r->is] = (s64)p;
		vnpu_move_copy1(r->v, (s64)j, r->x->data, r->xo + (s64)p * r->xs,
				r->esize);
	}
}

void vnpu_sort_split_run(const struct vnpu_op_call *c, s64 axis,
			 const struct vnpu_split_rows *s, u64 tile)
{
	u64 phase = tile / s->pieces, piece = tile % s->pieces;
	u64 row = piece / s->chunks, q = piece % s->chunks;
	u64 first = q * VNPU_SPLIT_CHUNK, k, kc, j;
	u32 cn, cur, *cand;
	struct vnpu_sort_mem m;
	struct ss_row r;

	if (phase > 2 || (c->op == DRM_VNPU_OP_TOPK && phase > 1))
		return;
	if (c->op == DRM_VNPU_OP_TOPK && phase == 1) {
		row = piece;
		q = 0;
		if (row >= s->rows)
			return;
	}
	ss_row_init(c, axis, row, &r);
	cn = ss_chunk_len(s, q);
	if (c->op == DRM_VNPU_OP_TOPK) {
		k = (u64)c->t[1].shape[axis];
		kc = k < VNPU_SPLIT_CHUNK ? k : VNPU_SPLIT_CHUNK;
		cand = (u32 *)vnpu_ops_shared(c) + row * s->chunks * kc;
		if (!phase)
			ss_chunk_top(c, &r, first, cn, (u32)(kc < cn ? kc : cn),
				     cand + q * kc);
		else
			ss_topk_merge(c, s, &r, cand, k, (u32)kc);
		return;
	}
	if (phase == 0) {
		cur = ss_sort_chunk(c, &r, first, cn, &m);
		for (j = 0; j < cn; j++)
			r.ix[r.io + (s64)(first + j) * r.is] =
				(s64)(m.key[cur][j] << 32 | m.pos[cur][j]);
	} else if (phase == 1) {
		ss_sort_merge(c, s, &r, first, first + cn);
	} else {
		ss_sort_values(&r, first, first + cn);
	}
}
