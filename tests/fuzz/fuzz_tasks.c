// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu_fuzz: task batches. A batch is mostly valid-looking tasks built
 * from the context's real objects, so they execute, with one or a few
 * fields mutated: boundary values, neighbouring addresses, object ends,
 * shapes, strides, dtypes and ranks near their limits, every operator id
 * and unknown ones.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "../../kernel/ops/vnpu_dtype.h"

#define VA_END		(DRM_VNPU_VA_IMPORT_START + DRM_VNPU_VA_RANGE_SIZE)
#define ARENA_SIZE	(256 * 1024)
/* Elements a tensor may have after mutation when it could be in bounds. */
#define MAX_MUT_ELEMS	4096

static const uint32_t all_ops[] = {
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
	49, 50, 51, 52, 53, 54, 55, 80, 96, 97, 98, 99, 100, 101, 102,
	112, 113, 114, 115, 116, 117, 128, 129, 144, 145, 146, 147, 148, 149,
	150, 151, 160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171,
	172, 173, 174, 175,
	/* UAPI 1.5: the ONNX operator set */
	17, 18, 19, 20, 21, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67,
	68, 69, 70, 71, 72, 73, 74, 81, 82, 103, 104, 105, 106, 107, 118,
	119, 130, 131, 152, 153, 154, 155, 156, 176, 177, 178, 200, 224, 225,
	226, 240, 241, 242, 243, 244, 245,
};

static const uint32_t dtypes[] = {
	DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_INT8,
	DRM_VNPU_DTYPE_INT32, DRM_VNPU_DTYPE_UINT8, DRM_VNPU_DTYPE_INT64,
	DRM_VNPU_DTYPE_BOOL, DRM_VNPU_DTYPE_BF16,
	/* computed since UAPI 1.5 by the families that document them */
	DRM_VNPU_DTYPE_INT16, DRM_VNPU_DTYPE_UINT16, DRM_VNPU_DTYPE_UINT32,
	DRM_VNPU_DTYPE_UINT64, DRM_VNPU_DTYPE_DOUBLE,
};

/* Keep VAs below the end of the address space unless that bug is on. */
static uint64_t fix_va(uint64_t va)
{
	if (!(opt.known & KB_VA_END) && va >= VA_END - 0x10000)
		va = DRM_VNPU_VA_DEVICE_START + (va % DRM_VNPU_VA_RANGE_SIZE);
	return va;
}

/* A random live object, or NULL. */
static struct fbo *pick_bo(struct worker *w, struct fctx *c)
{
	if (!c->nbo || one_in(&w->r, 20))
		bo_create(w, c, 1 + rnd(&w->r, one_in(&w->r, 4) ? 3 << 20 : 65536),
			  rnd(&w->r, 2), one_in(&w->r, 8) ? DRM_VNPU_BO_DEVICE_READ_ONLY : 0,
			  false);
	if (!c->nbo)
		return NULL;
	return &c->bos[rnd(&w->r, c->nbo)];
}

/* A range inside an object: [*va, *va + *len), len >= 1 and <= max. */
static void pick_range(struct worker *w, struct fctx *c, uint64_t max,
		       uint64_t *va, uint64_t *len)
{
	struct fbo *bo;
	uint64_t off, l;

	/* Reserved addresses: mapped, unmapped, across mappings. */
	if (c->nresv && one_in(&w->r, 6)) {
		*va = vm_addr(w, c);
		*len = 1 + rnd(&w->r, max);
		return;
	}
	bo = pick_bo(w, c);
	if (!bo) {
		*va = DRM_VNPU_VA_DEVICE_START + rnd(&w->r, 1 << 20);
		*len = 1 + rnd(&w->r, max);
		return;
	}
	l = 1 + rnd(&w->r, bo->size < max ? bo->size : max);
	off = rnd(&w->r, bo->size - l + 1);
	if (one_in(&w->r, 4))
		off = bo->size - l;	/* right at the end */
	*va = bo->va + off;
	*len = l;
}

/* An arena for tensors: a writable object of at least ARENA_SIZE. */
static struct fbo *arena(struct worker *w, struct fctx *c)
{
	int i;

	for (i = 0; i < c->nbo; i++)
		if (c->bos[i].size >= ARENA_SIZE && !c->bos[i].flags &&
		    c->bos[i].placement != DRM_VNPU_PLACEMENT_IMPORT)
			return &c->bos[i];
	if (bo_create(w, c, ARENA_SIZE, DRM_VNPU_PLACEMENT_DEVICE, 0, false) < 0)
		return NULL;
	return &c->bos[c->nbo - 1];
}

/* ------------------------------------------------------ kernel args -- */

struct kbuild {
	struct drm_vnpu_kernel_args hdr;
	struct drm_vnpu_tensor t[DRM_VNPU_MAX_TENSORS];
	struct drm_vnpu_op_attrs attrs;
	bool has_attrs;
	uint64_t base, off, limit;	/* arena placement */
};

static void tensor(struct kbuild *k, uint32_t dt, uint32_t rank, const int64_t *shape)
{
	struct drm_vnpu_tensor *t = &k->t[k->hdr.num_inputs + k->hdr.num_outputs];
	int64_t stride = 1, elems = 1;
	int d;

	memset(t, 0, sizeof(*t));
	t->dtype = dt;
	t->rank = rank;
	for (d = rank - 1; d >= 0; d--) {
		t->shape[d] = shape[d];
		t->strides[d] = stride;
		stride *= shape[d];
	}
	elems = stride;
	t->va = k->base + k->off;
	k->off += ((uint64_t)elems * vnpu_dtype_size(dt) + 63) & ~63ull;
	if (k->off > k->limit)	/* does not fit: wraps to the start (aliases) */
		k->off = 0;
}

#define IN(dt, r, ...) do { tensor(&k, dt, r, (const int64_t[]){ __VA_ARGS__ }); k.hdr.num_inputs++; } while (0)
#define OUT(dt, r, ...) do { tensor(&k, dt, r, (const int64_t[]){ __VA_ARGS__ }); k.hdr.num_outputs++; } while (0)

static uint32_t pick_dtype(struct rng *r)
{
	return one_in(r, 2) ? DRM_VNPU_DTYPE_FLOAT : dtypes[rnd(r, ARRAY_SIZE(dtypes))];
}

/* A plausible call of op: tensors laid out in the arena, default attrs. */
static void kernel_template(struct rng *r, uint32_t op, struct kbuild *kp)
{
	struct kbuild k = *kp;
	uint32_t dt = pick_dtype(r);
	int64_t m = 1 + rnd(r, 6), n = 1 + rnd(r, 6), q = 1 + rnd(r, 4);
	int64_t c = 1 + rnd(r, 3), h = 2 + rnd(r, 5), wd = 2 + rnd(r, 5);
	uint32_t rank = 1 + rnd(r, 3);
	int64_t s[3] = { m, n, q };

	memset(&k.attrs, 0, sizeof(k.attrs));
	if (op >= 1 && op <= 16) {
		IN(dt, rank, s[0], s[1], s[2]);
		if (one_in(r, 3))	/* broadcast */
			IN(dt, 1, s[rank - 1]);
		else
			IN(dt, rank, s[0], s[1], s[2]);
		OUT(op >= 8 ? DRM_VNPU_DTYPE_BOOL : dt, rank, s[0], s[1], s[2]);
	} else if (op >= 32 && op <= 55) {
		IN(dt, rank, s[0], s[1], s[2]);
		OUT(op >= 54 ? DRM_VNPU_DTYPE_BOOL : dt, rank, s[0], s[1], s[2]);
	} else if (op == 80) {
		IN(dt, rank, s[0], s[1], s[2]);
		OUT(pick_dtype(r), rank, s[0], s[1], s[2]);
	} else if (op >= 96 && op <= 102) {
		IN(dt, 2, m, n);
		OUT(op >= 101 ? DRM_VNPU_DTYPE_INT64 : dt, 1, m);
		k.attrs.ints[0] = op >= 101 ? 2 : 2;
		k.has_attrs = true;
	} else if (op == 112 || op == 113) {
		IN(dt, 2, m, n);
		OUT(dt, 2, m, n);
		k.attrs.ints[0] = rnd(r, 2);
		k.has_attrs = one_in(r, 2);
	} else if (op == 114 || op == 115) {
		IN(dt, 2, m, n);
		OUT(dt, 2, m, n);
		k.attrs.ints[0] = 1;
		k.attrs.floats[0] = 0x3727c5ac;	/* 1e-5 */
		k.has_attrs = true;
	} else if (op == 116) {
		IN(dt, 4, 1, c, h, wd);
		IN(dt, 1, c);
		IN(dt, 1, c);
		OUT(dt, 4, 1, c, h, wd);
	} else if (op == 117) {
		IN(dt, 4, 1, c, h, wd);
		OUT(dt, 4, 1, c, h, wd);
		k.attrs.ints[0] = 1;
		k.attrs.floats[0] = 0x3727c5ac;
		k.has_attrs = true;
	} else if (op == 128 || op == 129) {
		IN(dt, 2, m, q);
		IN(dt, 2, q, n);
		OUT(dt, 2, m, n);
	} else if (op == 144 || op == 146) {
		int64_t kh = 1 + rnd(r, 2), kw = 1 + rnd(r, 2);

		IN(dt, 4, 1, c, h, wd);
		if (op == 144) {
			IN(dt, 4, q, c, kh, kw);
			OUT(dt, 4, 1, q, h - kh + 1, wd - kw + 1);
		} else {
			IN(dt, 4, c, q, kh, kw);
			OUT(dt, 4, 1, q, h + kh - 1, wd + kw - 1);
		}
		k.attrs.ints[0] = k.attrs.ints[1] = 1;
		k.attrs.ints[6] = k.attrs.ints[7] = 1;
		k.attrs.ints[8] = 1;
		k.has_attrs = true;
	} else if (op == 145) {
		IN(dt, 3, 1, c, h + wd);
		IN(dt, 3, q, c, 2);
		OUT(dt, 3, 1, q, h + wd - 1);
		k.attrs.ints[0] = 1;
		k.attrs.ints[6] = 1;
		k.attrs.ints[8] = 1;
		k.has_attrs = true;
	} else if (op == 147 || op == 148) {
		IN(dt, 4, 1, c, h, wd);
		OUT(dt, 4, 1, c, h - 1, wd - 1);
		k.attrs.ints[0] = k.attrs.ints[1] = 2;
		k.attrs.ints[2] = k.attrs.ints[3] = 1;
		k.attrs.ints[8] = k.attrs.ints[9] = 1;
		k.has_attrs = true;
	} else if (op == 149 || op == 150) {
		IN(dt, 4, 1, c, h, wd);
		OUT(dt, 4, 1, c, 1, 1);
	} else if (op == 151) {
		IN(dt, 4, 1, c, h, wd);
		OUT(dt, 4, 1, c, 1 + rnd(r, h), 1 + rnd(r, wd));
	} else if (op == 160) {
		IN(dt, rank, s[0], s[1], s[2]);
		OUT(dt, rank, s[0], s[1], s[2]);
	} else if (op == 161) {
		IN(dt, 2, m, n);
		IN(dt, 2, q, n);
		OUT(dt, 2, m + q, n);
	} else if (op == 162) {
		IN(dt, 2, m + q, n);
		OUT(dt, 2, m, n);
		OUT(dt, 2, q, n);
	} else if (op == 163) {
		IN(dt, 1, 2 * m);
		OUT(dt, 1, m);
		k.attrs.ints[8] = 2;
		k.has_attrs = true;
	} else if (op == 164) {
		IN(dt, 2, m, n);
		IN(DRM_VNPU_DTYPE_INT64, 2, m, q);
		OUT(dt, 2, m, q);
		k.attrs.ints[0] = 1;
		k.has_attrs = true;
	} else if (op == 165) {
		IN(dt, 2, m, n);
		IN(DRM_VNPU_DTYPE_INT64, 2, m, q);
		IN(dt, 2, m, q);
		OUT(dt, 2, m, n);
		k.attrs.ints[0] = 1;
		k.has_attrs = true;
	} else if (op == 166) {
		IN(dt, 2, m, n);
		IN(DRM_VNPU_DTYPE_INT64, 1, q);
		OUT(dt, 2, q, n);
	} else if (op == 167) {
		IN(DRM_VNPU_DTYPE_BOOL, 2, m, n);
		IN(dt, 2, m, n);
		IN(dt, 2, m, n);
		OUT(dt, 2, m, n);
	} else if (op == 168) {
		IN(dt, 2, m, n);
		OUT(dt, 2, m + 2, n + 2);
		k.attrs.ints[0] = k.attrs.ints[1] = k.attrs.ints[2] = k.attrs.ints[3] = 1;
		k.attrs.ints[16] = rnd(r, 3);
		k.has_attrs = true;
	} else if (op == 169) {
		IN(dt, 2, m, n);
		OUT(dt, 2, 2 * m, n);
	} else if (op == 170) {
		IN(DRM_VNPU_DTYPE_INT64, 1, m);
		OUT(dt, 2, m, n);
	} else if (op == 171 || op == 172) {
		OUT(dt, rank, s[0], s[1], s[2]);
	} else if (op == 173 || op == 174) {
		IN(dt, 2, m, n + q);
		OUT(dt, 2, m, op == 173 ? n : n + q);
		OUT(DRM_VNPU_DTYPE_INT64, 2, m, op == 173 ? n : n + q);
		k.attrs.ints[0] = 1;
		k.attrs.ints[2] = 1;
		k.has_attrs = op == 173;
	} else if (op == 175) {
		IN(dt, 4, 1, c, h, wd);
		OUT(dt, 4, 1, c, 2 * h, 2 * wd);
	} else {
		/* unknown operator: some tensors anyway */
		IN(dt, rank, s[0], s[1], s[2]);
		OUT(dt, rank, s[0], s[1], s[2]);
	}
	/* Fused activations (UAPI 1.4): good and bad kinds and bounds. */
	if ((op == DRM_VNPU_OP_CONV1D || op == DRM_VNPU_OP_CONV2D ||
	     op == DRM_VNPU_OP_CONV_TRANSPOSE2D || op == DRM_VNPU_OP_MATMUL ||
	     op == DRM_VNPU_OP_GEMM) && one_in(r, 3)) {
		k.attrs.ints[DRM_VNPU_ATTR_ACT] = one_in(r, 10) ?
			(int64_t)rnd_interesting(r) : (int64_t)rnd(r, 3);
		k.attrs.floats[DRM_VNPU_ATTR_ACT_LO] = one_in(r, 6) ?
			(uint32_t)rnd64(r) : 0xbf000000;	/* -0.5 */
		k.attrs.floats[DRM_VNPU_ATTR_ACT_HI] = one_in(r, 6) ?
			(uint32_t)rnd64(r) : 0x3f400000;	/* 0.75 */
		if (op == DRM_VNPU_OP_GEMM && !k.has_attrs)
			k.attrs.floats[0] = k.attrs.floats[1] = 0x3f800000;
		k.has_attrs = true;
	}
	*kp = k;
}

/* A binding reference for a slot of a table of @count (sometimes past it). */
static uint64_t bind_ref(struct worker *w, uint32_t count)
{
	struct rng *r = &w->r;
	uint64_t slot = one_in(r, 30) ? count + rnd(r, 4) :
			one_in(r, 200) ? rnd(r, 1 << 15) : rnd(r, count);
	uint64_t off = one_in(r, 10) ? rnd_interesting(r) : rnd(r, 8192);

	return DRM_VNPU_BINDING_VA(slot, off);
}

/*
 * Turn some addresses of a batch into binding references for a command
 * buffer with @count bindings: COPY/COPY_2D/FILL addresses and KERNEL
 * tensors (UAPI 1.4).
 */
void batch_bind(struct worker *w, struct batch *b, uint32_t count)
{
	struct rng *r = &w->r;
	uint32_t i, j;

	for (i = 0; i < b->count; i++) {
		struct drm_vnpu_task *t = (void *)((uint8_t *)b->tasks +
						  (size_t)i * b->stride);
		struct drm_vnpu_kernel_args *ka;
		uint32_t n;

		if (!one_in(r, 2))
			continue;
		switch (t->type) {
		case DRM_VNPU_TASK_COPY:
			if (one_in(r, 2))
				t->copy.src = bind_ref(w, count);
			if (one_in(r, 2))
				t->copy.dst = bind_ref(w, count);
			break;
		case DRM_VNPU_TASK_COPY_2D:
			if (one_in(r, 2))
				t->copy_2d.src = bind_ref(w, count);
			if (one_in(r, 2))
				t->copy_2d.dst = bind_ref(w, count);
			break;
		case DRM_VNPU_TASK_FILL:
			t->fill.dst = bind_ref(w, count);
			break;
		case DRM_VNPU_TASK_KERNEL:
			/* Only arguments that lie inside the block. */
			if (t->kernel.args_offset % 8 ||
			    (uint64_t)t->kernel.args_offset + sizeof(*ka) >
			    b->args_size)
				break;
			ka = (void *)((uint8_t *)b->args + t->kernel.args_offset);
			n = ka->num_inputs + ka->num_outputs;
			if (n > DRM_VNPU_MAX_TENSORS ||
			    t->kernel.args_offset + sizeof(*ka) +
			    (uint64_t)n * sizeof(ka->tensors[0]) > b->args_size)
				break;
			for (j = 0; j < n; j++)
				if (one_in(r, 2))
					ka->tensors[j].va = bind_ref(w, count);
			break;
		default:
			break;
		}
	}
}

/* 128-bit true span and element count of a tensor; false if malformed. */
static bool tensor_extent(const struct drm_vnpu_tensor *t, unsigned __int128 *span,
			  unsigned __int128 *elems, uint64_t *kspan)
{
	unsigned __int128 last = 0, e = 1;
	uint64_t klast = 0;
	uint32_t d;

	if (t->rank > DRM_VNPU_MAX_RANK)
		return false;
	for (d = 0; d < t->rank; d++) {
		if (t->shape[d] < 0 || t->strides[d] < 0 ||
		    t->shape[d] > (1ll << 40) || t->strides[d] > (1ll << 40))
			return false;
		if (!t->shape[d]) {
			*span = 0;
			*elems = 0;
			*kspan = 0;
			return true;
		}
		last += (unsigned __int128)(t->shape[d] - 1) * t->strides[d];
		klast += (uint64_t)(t->shape[d] - 1) * (uint64_t)t->strides[d];
		if (e < ((unsigned __int128)1 << 100))
			e *= t->shape[d];
	}
	*span = (last + 1) * vnpu_dtype_size(t->dtype);
	*kspan = (klast + 1) * vnpu_dtype_size(t->dtype);
	*elems = e;
	return true;
}

/*
 * Would this argument block make a legitimately long job, or trip a known
 * bug that is switched off? Then the caller drops the mutation.
 */
static bool kernel_args_unwanted(const struct kbuild *k)
{
	uint64_t n = (uint64_t)k->hdr.num_inputs + k->hdr.num_outputs, i;

	if (n > DRM_VNPU_MAX_TENSORS)
		n = DRM_VNPU_MAX_TENSORS;
	for (i = 0; i < n; i++) {
		unsigned __int128 span, elems;
		uint64_t kspan;

		if (!tensor_extent(&k->t[i], &span, &elems, &kspan))
			continue;
		if (!(opt.known & KB_EXTENT) && span != kspan)
			return true;
		if (elems > MAX_MUT_ELEMS && span < (1ull << 34))
			return true;
		if (!(opt.known & KB_VA_END) && k->t[i].va >= VA_END - 0x10000)
			return true;
	}
	return false;
}

static void mutate_kernel(struct rng *r, struct kbuild *k, uint32_t *op)
{
	uint64_t n = (uint64_t)k->hdr.num_inputs + k->hdr.num_outputs;
	struct drm_vnpu_tensor *t;

	if (n > DRM_VNPU_MAX_TENSORS)	/* after a count mutation */
		n = DRM_VNPU_MAX_TENSORS;
	t = &k->t[rnd(r, n ? n : 1)];
	uint32_t d = rnd(r, DRM_VNPU_MAX_RANK);

	switch (rnd(r, 16)) {
	case 0:
		t->va = rnd_mutate(r, t->va);
		break;
	case 1:
		t->dtype = one_in(r, 2) ? rnd(r, 32) : (uint32_t)rnd64(r);
		break;
	case 2:
		t->rank = one_in(r, 2) ? rnd(r, 10) : (uint32_t)rnd64(r);
		break;
	case 3:
	case 4:
		t->shape[d] = rnd_mutate(r, t->shape[d]);
		break;
	case 5:
	case 6:
		t->strides[d] = rnd_mutate(r, t->strides[d]);
		break;
	case 7:
		/* the extent-overflow shape */
		t->rank = 2;
		memset(t->shape, 0, sizeof(t->shape));
		memset(t->strides, 0, sizeof(t->strides));
		t->shape[0] = (1ll << 22) + rnd(r, 3);
		t->shape[1] = 2;
		t->strides[0] = 1ll << 40;
		t->strides[1] = 1;
		break;
	case 8:
		k->hdr.num_inputs = one_in(r, 2) ? rnd(r, 18) : (uint32_t)rnd64(r);
		break;
	case 9:
		k->hdr.num_outputs = one_in(r, 2) ? rnd(r, 18) : (uint32_t)rnd64(r);
		break;
	case 10:
		k->has_attrs = !k->has_attrs;
		break;
	case 11:
		k->attrs.ints[rnd(r, 24)] = rnd_interesting(r);
		k->has_attrs = true;
		break;
	case 12:
		k->attrs.floats[rnd(r, 8)] = one_in(r, 2) ? 0x7fc00000 : (uint32_t)rnd64(r);
		k->has_attrs = true;
		break;
	case 13:
		*op = one_in(r, 2) ? all_ops[rnd(r, ARRAY_SIZE(all_ops))] : (uint32_t)rnd_interesting(r);
		break;
	case 14:
		k->hdr.pad = rnd64(r);
		break;
	default:
		/* a view of the whole tensor, shifted by its own span */
		t->va += (uint64_t)t->shape[0] * (t->strides[0] ? t->strides[0] : 1) *
			 vnpu_dtype_size(t->dtype);
		break;
	}
}

/* Append a KERNEL task and its arguments. */
static void add_kernel(struct worker *w, struct fctx *c, struct batch *b,
		       struct drm_vnpu_task *t, bool mutate)
{
	struct rng *r = &w->r;
	struct fbo *ar = arena(w, c);
	uint32_t op = one_in(r, 30) ? (uint32_t)rnd(r, 300) : all_ops[rnd(r, ARRAY_SIZE(all_ops))];
	struct kbuild k = { 0 }, saved;
	uint32_t n, size, off;
	int tries;

	k.base = ar ? ar->va : DRM_VNPU_VA_DEVICE_START;
	k.limit = ar ? ar->size : 4096;
	k.off = rnd(r, 4) * 64;
	kernel_template(r, op, &k);
	saved = k;
	if (mutate) {
		uint32_t saved_op = op;

		for (tries = 0; tries < 4; tries++) {
			int m = 1 + (one_in(r, 3) ? rnd(r, 3) : 0);

			while (m--)
				mutate_kernel(r, &k, &op);
			if (!kernel_args_unwanted(&k))
				break;
			k = saved;
			op = saved_op;
		}
	}
	n = (uint64_t)k.hdr.num_inputs + k.hdr.num_outputs > DRM_VNPU_MAX_TENSORS ?
	    DRM_VNPU_MAX_TENSORS : k.hdr.num_inputs + k.hdr.num_outputs;
	k.hdr.attr_size = k.has_attrs ? sizeof(k.attrs) : 0;
	if (mutate && one_in(r, 12))
		k.hdr.attr_size = rnd_interesting(r);
	size = sizeof(k.hdr) + (n > DRM_VNPU_MAX_TENSORS ? DRM_VNPU_MAX_TENSORS : n) *
	       sizeof(k.t[0]) + (k.has_attrs ? sizeof(k.attrs) : 0);
	if (b->args_size + size + 64 > b->cap_args) {
		t->type = DRM_VNPU_TASK_NOP;
		return;
	}
	off = b->args_size;
	memcpy((uint8_t *)b->args + off, &k.hdr, sizeof(k.hdr));
	memcpy((uint8_t *)b->args + off + sizeof(k.hdr), k.t,
	       (n > DRM_VNPU_MAX_TENSORS ? DRM_VNPU_MAX_TENSORS : n) * sizeof(k.t[0]));
	if (k.has_attrs)
		memcpy((uint8_t *)b->args + off + size - sizeof(k.attrs), &k.attrs,
		       sizeof(k.attrs));
	b->args_size += (size + 7) & ~7u;
	t->type = DRM_VNPU_TASK_KERNEL;
	t->kernel.op = op;
	t->kernel.args_offset = off;
	t->kernel.args_size = size;
	if (mutate && one_in(r, 10)) {
		switch (rnd(r, 3)) {
		case 0:
			t->kernel.args_offset = rnd_mutate(r, off);
			break;
		case 1:
			t->kernel.args_size = rnd_mutate(r, size);
			break;
		default:
			t->kernel.pad = rnd64(r);
		}
	}
}

/* ---------------------------------------------------------- batches -- */

static void gen_task(struct worker *w, struct fctx *c, struct batch *b,
		     struct drm_vnpu_task *t, bool mutate)
{
	struct rng *r = &w->r;
	uint64_t va, len, va2, len2;
	uint32_t type = rnd(r, 12);

	memset(t, 0, sizeof(*t));
	if (type > DRM_VNPU_TASK_SPIN)
		type = one_in(r, 2) ? DRM_VNPU_TASK_KERNEL : DRM_VNPU_TASK_COPY;
	switch (type) {
	case DRM_VNPU_TASK_NOP:
		break;
	case DRM_VNPU_TASK_COPY:
		pick_range(w, c, 65536, &va, &len);
		pick_range(w, c, len, &va2, &len2);
		t->copy.src = va;
		t->copy.dst = va2;
		t->copy.size = len2 < len ? len2 : len;
		break;
	case DRM_VNPU_TASK_COPY_2D: {
		uint64_t wdt, h, sp, dp;

		pick_range(w, c, 65536, &va, &len);
		pick_range(w, c, 65536, &va2, &len2);
		wdt = 1 + rnd(r, 64);
		h = 1 + rnd(r, 32);
		sp = wdt + rnd(r, 64);
		dp = wdt + rnd(r, 64);
		t->copy_2d.src = va;
		t->copy_2d.dst = va2;
		t->copy_2d.width = wdt;
		t->copy_2d.height = h;
		t->copy_2d.src_pitch = sp;
		t->copy_2d.dst_pitch = dp;
		break;
	}
	case DRM_VNPU_TASK_FILL: {
		uint32_t ps = 1u << rnd(r, 4);

		pick_range(w, c, 65536, &va, &len);
		t->fill.dst = va;
		t->fill.size = len >= ps ? len / ps * ps : ps;
		t->fill.pattern = rnd64(r);
		t->fill.pattern_size = ps;
		break;
	}
	case DRM_VNPU_TASK_TIMESTAMP:
		pick_range(w, c, 8, &va, &len);
		t->timestamp.dst = va;
		break;
	case DRM_VNPU_TASK_WRITE_VALUE:
	case DRM_VNPU_TASK_WAIT_VALUE:
		pick_range(w, c, 8, &va, &len);
		t->value.addr = va & ~7ull;
		t->value.value = one_in(r, 2) ? 0 : rnd64(r);
		if (type == DRM_VNPU_TASK_WAIT_VALUE) {
			t->value.cond = rnd(r, 4);
			t->value.timeout_ns = 1 + rnd(r, 2000000);
		}
		break;
	case DRM_VNPU_TASK_KERNEL:
		add_kernel(w, c, b, t, mutate && one_in(r, 2));
		return;
	case DRM_VNPU_TASK_SPIN:
		t->spin.ns = rnd(r, 1000000);
		break;
	}
	t->type = type;
	if (mutate && one_in(r, 2)) {
		int m = 1 + rnd(r, 2);

		while (m--) {
			switch (rnd(r, 8)) {
			case 0:
				t->type = one_in(r, 2) ? rnd(r, 12) : (uint16_t)rnd64(r);
				break;
			case 1:
				t->flags = rnd64(r);
				break;
			case 2:
				t->reserved = rnd64(r);
				break;
			default:
				t->raw[rnd(r, 7)] = rnd_mutate(r, t->raw[rnd(r, 7)]);
				break;
			}
		}
	}
	/* Bound the work: long waits and spins only now and then. */
	if (t->type == DRM_VNPU_TASK_SPIN && t->spin.ns > 5000000) {
		if (one_in(r, 200))
			b->heavy = true;
		else
			t->spin.ns %= 5000000;
	}
	if (t->type == DRM_VNPU_TASK_WAIT_VALUE &&
	    (t->value.timeout_ns > 20000000 || !t->value.timeout_ns)) {
		if (one_in(r, 200))
			b->heavy = true;
		else
			t->value.timeout_ns = 1 + t->value.timeout_ns % 20000000;
	}
	if (!(opt.known & KB_VA_END) && t->type != DRM_VNPU_TASK_KERNEL &&
	    t->type != DRM_VNPU_TASK_SPIN) {
		int i;

		for (i = 0; i < 2; i++)
			t->raw[i] = fix_va(t->raw[i]);
	}
}

void batch_gen(struct worker *w, struct fctx *c, struct batch *b, bool mutate)
{
	struct rng *r = &w->r;
	uint32_t i, count, stride = sizeof(struct drm_vnpu_task);

	memset(b, 0, sizeof(*b));
	count = 1 + rnd(r, one_in(r, 8) ? 64 : 6);
	if (mutate && one_in(r, 60))
		count = one_in(r, 2) ? DRM_VNPU_MAX_TASKS : rnd_interesting(r) % 70000;
	if (mutate && one_in(r, 12)) {
		static const uint32_t strides[] = { 0, 8, 56, 63, 64, 65, 72, 128,
						    4096, 4104, 1 << 20 };
		stride = strides[rnd(r, ARRAY_SIZE(strides))];
	} else if (one_in(r, 10)) {
		stride = 64 + 8 * rnd(r, 8);
	}
	b->count = count;
	b->stride = stride;
	if ((uint64_t)count * (stride < 64 ? 64 : stride) > (16u << 20))
		b->stride = stride = 64;
	b->tasks = calloc(count ? count : 1, stride < 64 ? 64 : stride);
	b->cap_args = 64 * 1024;
	b->args = calloc(1, b->cap_args);
	if (!b->tasks || !b->args) {
		perror("calloc");
		exit(2);
	}
	for (i = 0; i < count; i++) {
		struct drm_vnpu_task t;

		if (count > 64 && i >= 1)	/* huge batches: NOPs */
			memset(&t, 0, sizeof(t));
		else
			gen_task(w, c, b, &t, mutate);
		memcpy((uint8_t *)b->tasks + (size_t)i * stride, &t,
		       stride < sizeof(t) ? stride : sizeof(t));
	}
	/* Trailing bytes of larger strides: zero, or now and then not. */
	if (stride > sizeof(struct drm_vnpu_task) && count && mutate && one_in(r, 6))
		((uint8_t *)b->tasks)[(size_t)rnd(r, count) * stride +
				      sizeof(struct drm_vnpu_task) +
				      rnd(r, stride - sizeof(struct drm_vnpu_task))] = 1;
	if (mutate && one_in(r, 20))
		b->args_size = rnd_mutate(r, b->args_size) % (b->cap_args + 16);
}

void batch_free(struct batch *b)
{
	free(b->tasks);
	free(b->args);
	b->tasks = NULL;
	b->args = NULL;
}

int batch_desc(const struct batch *b, char *buf, size_t len)
{
	static const char *const names[] = { "nop", "copy", "copy2d", "fill", "ts",
					     "write", "wait", "kernel", "spin" };
	int n = snprintf(buf, len, "count=%u stride=%u args_size=%u [", b->count,
			 b->stride, b->args_size);
	uint32_t i;

	for (i = 0; i < b->count && i < 6 && n < (int)len - 40 && b->stride >= 16; i++) {
		const struct drm_vnpu_task *t =
			(const void *)((const uint8_t *)b->tasks + (size_t)i * b->stride);

		if (t->type < ARRAY_SIZE(names))
			n += snprintf(buf + n, len - n, "%s%s", i ? " " : "", names[t->type]);
		else
			n += snprintf(buf + n, len - n, "%s?%u", i ? " " : "", t->type);
		if (t->type == DRM_VNPU_TASK_KERNEL)
			n += snprintf(buf + n, len - n, "(op%u)", t->kernel.op);
		else if (t->type && t->type <= DRM_VNPU_TASK_SPIN)
			n += snprintf(buf + n, len - n, "(%llx,%llx,%llx)",
				      (unsigned long long)t->raw[0],
				      (unsigned long long)t->raw[1],
				      (unsigned long long)t->raw[2]);
	}
	if (n < (int)len - 8)
		n += snprintf(buf + n, len - n, "%s]", i < b->count ? " ..." : "");
	return n;
}
