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
	/* UAPI 1.7: the media operators */
	DRM_VNPU_OP_VPC,
	DRM_VNPU_OP_AIPP,
	/* issue 36: ggml's operators */
	DRM_VNPU_OP_TRI_SOLVE,
	/* LLM inference */
	DRM_VNPU_OP_FLASH_ATTN,
	DRM_VNPU_OP_ROPE,
	/* issue 36: the LLM operators */
	DRM_VNPU_OP_WQ_MATMUL,
	DRM_VNPU_OP_GROUPED_MATMUL,
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

static const uint32_t float_dts[] = {
	DRM_VNPU_DTYPE_FLOAT, DRM_VNPU_DTYPE_FLOAT16, DRM_VNPU_DTYPE_BF16,
};

static const uint32_t int_dts[] = {
	DRM_VNPU_DTYPE_INT8, DRM_VNPU_DTYPE_INT32, DRM_VNPU_DTYPE_UINT8,
	DRM_VNPU_DTYPE_INT64, DRM_VNPU_DTYPE_INT16, DRM_VNPU_DTYPE_UINT16,
	DRM_VNPU_DTYPE_UINT32, DRM_VNPU_DTYPE_UINT64,
};

/* A dtype of the operator's class, now and then any. */
static uint32_t pick_float(struct rng *r)
{
	return one_in(r, 6) ? pick_dtype(r) : float_dts[rnd(r, ARRAY_SIZE(float_dts))];
}

static uint32_t pick_int(struct rng *r)
{
	return one_in(r, 6) ? pick_dtype(r) : int_dts[rnd(r, ARRAY_SIZE(int_dts))];
}

/*
 * Plausible calls of the UAPI 1.5 operators (the ONNX set), shaped as
 * the operators' check() functions in kernel/ops/ want them. False for an
 * operator this does not know.
 */
static bool template_onnx(struct rng *r, uint32_t op, struct kbuild *kp)
{
	struct kbuild k = *kp;
	int64_t m = 1 + rnd(r, 6), n = 1 + rnd(r, 6), q = 1 + rnd(r, 4);
	int64_t c = 1 + rnd(r, 3), h = 2 + rnd(r, 5), wd = 2 + rnd(r, 5);
	uint32_t rank = 1 + rnd(r, 3), fdt = pick_float(r), idt = pick_int(r);
	int64_t s[3] = { m, n, q };
	const uint32_t F32 = DRM_VNPU_DTYPE_FLOAT, I64 = DRM_VNPU_DTYPE_INT64;
	const uint32_t BL = DRM_VNPU_DTYPE_BOOL, I8 = DRM_VNPU_DTYPE_INT8;
	const uint32_t U8 = DRM_VNPU_DTYPE_UINT8, I32 = DRM_VNPU_DTYPE_INT32;
	uint32_t qt = one_in(r, 2) ? I8 : U8;

	switch (op) {
	case DRM_VNPU_OP_MOD:
		idt = one_in(r, 2) ? fdt : idt;
		/* fall through */
	case DRM_VNPU_OP_BITSHIFT:
	case DRM_VNPU_OP_BITWISE_AND:
	case DRM_VNPU_OP_BITWISE_OR:
	case DRM_VNPU_OP_BITWISE_XOR:
		IN(idt, rank, s[0], s[1], s[2]);
		if (one_in(r, 3))
			IN(idt, 1, s[rank - 1]);
		else
			IN(idt, rank, s[0], s[1], s[2]);
		OUT(idt, rank, s[0], s[1], s[2]);
		k.attrs.ints[0] = rnd(r, 2);
		k.has_attrs = one_in(r, 2);
		break;
	case DRM_VNPU_OP_TAN ... DRM_VNPU_OP_HARD_SWISH:
		IN(fdt, rank, s[0], s[1], s[2]);
		OUT(fdt, rank, s[0], s[1], s[2]);
		break;
	case DRM_VNPU_OP_PRELU:
		IN(fdt, rank, s[0], s[1], s[2]);
		IN(fdt, 1, one_in(r, 2) ? 1 : s[rank - 1]);
		OUT(fdt, rank, s[0], s[1], s[2]);
		break;
	case DRM_VNPU_OP_DROPOUT:
		IN(fdt, rank, s[0], s[1], s[2]);
		IN(F32, 1, 1);			/* ratio */
		IN(BL, 1, 1);			/* training */
		OUT(fdt, rank, s[0], s[1], s[2]);
		OUT(BL, rank, s[0], s[1], s[2]);	/* mask */
		k.attrs.ints[0] = rnd64(r);
		k.has_attrs = one_in(r, 2);
		break;
	case DRM_VNPU_OP_ISINF:
		IN(fdt, rank, s[0], s[1], s[2]);
		OUT(BL, rank, s[0], s[1], s[2]);
		break;
	case DRM_VNPU_OP_BITWISE_NOT:
		IN(idt, rank, s[0], s[1], s[2]);
		OUT(idt, rank, s[0], s[1], s[2]);
		break;
	case DRM_VNPU_OP_REDUCE_L1 ... DRM_VNPU_OP_REDUCE_SUM_SQUARE:
		IN(fdt, 2, m, n);
		OUT(fdt, 1, m);
		k.attrs.ints[0] = 2;
		k.has_attrs = true;
		break;
	case DRM_VNPU_OP_NORM_AXES:
		IN(fdt, 2, m, n);
		if (one_in(r, 2)) {
			IN(fdt, 2, 1, n);	/* gamma */
			IN(fdt, 2, 1, n);	/* beta */
		}
		OUT(fdt, 2, m, n);
		if (one_in(r, 2)) {
			OUT(fdt, 2, m, 1);	/* mean */
			OUT(fdt, 2, m, 1);	/* stat */
		}
		break;
	case DRM_VNPU_OP_LRN:
		IN(fdt, 4, 1, c, h, wd);
		OUT(fdt, 4, 1, c, h, wd);
		break;
	case DRM_VNPU_OP_MATMUL_INT:
		IN(qt, 2, m, q);
		IN(qt, 2, q, n);
		if (one_in(r, 2)) {
			IN(qt, 1, 1);
			IN(qt, 1, 1);
		}
		OUT(I32, 2, m, n);
		break;
	case DRM_VNPU_OP_QLINEAR_MATMUL:
		IN(qt, 2, m, q);
		IN(F32, 1, 1);
		IN(qt, 1, 1);
		IN(qt, 2, q, n);
		IN(F32, 1, 1);
		IN(qt, 1, 1);
		IN(F32, 1, 1);
		IN(qt, 1, 1);
		OUT(qt, 2, m, n);
		break;
	case DRM_VNPU_OP_POOL_ND:
		IN(fdt, 4, 1, c, h, wd);
		OUT(fdt, 4, 1, c, h - 1, wd - 1);
		if (one_in(r, 2))
			OUT(I64, 4, 1, c, h - 1, wd - 1);
		k.attrs.ints[0] = 0;		/* max */
		k.attrs.ints[4] = k.attrs.ints[5] = 2;
		k.attrs.ints[7] = k.attrs.ints[8] = 1;
		k.attrs.ints[16] = k.attrs.ints[17] = 1;
		k.has_attrs = true;
		break;
	case DRM_VNPU_OP_CONV_ND:
	case DRM_VNPU_OP_CONV_TRANSPOSE_ND: {
		int64_t kh = 1 + rnd(r, 2), kw = 1 + rnd(r, 2);

		IN(fdt, 4, 1, c, h, wd);
		if (op == DRM_VNPU_OP_CONV_ND) {
			IN(fdt, 4, q, c, kh, kw);
			if (one_in(r, 2))
				IN(fdt, 1, q);
			OUT(fdt, 4, 1, q, h - kh + 1, wd - kw + 1);
		} else {
			IN(fdt, 4, c, q, kh, kw);
			OUT(fdt, 4, 1, q, h + kh - 1, wd + kw - 1);
		}
		k.attrs.ints[0] = k.attrs.ints[1] = 1;
		k.attrs.ints[3] = k.attrs.ints[4] = 1;
		k.attrs.ints[13] = 1;
		k.has_attrs = true;
		break;
	}
	case DRM_VNPU_OP_QLINEAR_CONV_ND: {
		int64_t kh = 1 + rnd(r, 2), kw = 1 + rnd(r, 2);

		IN(qt, 4, 1, c, h, wd);
		IN(F32, 1, 1);
		IN(qt, 1, 1);
		IN(qt, 4, q, c, kh, kw);
		IN(F32, 1, 1);
		IN(qt, 1, 1);
		IN(F32, 1, 1);
		IN(qt, 1, 1);
		OUT(qt, 4, 1, q, h - kh + 1, wd - kw + 1);
		k.attrs.ints[0] = k.attrs.ints[1] = 1;
		k.attrs.ints[3] = k.attrs.ints[4] = 1;
		k.attrs.ints[13] = 1;
		k.has_attrs = true;
		break;
	}
	case DRM_VNPU_OP_MAX_UNPOOL:
		IN(fdt, 4, 1, c, h, wd);
		IN(I64, 4, 1, c, h, wd);
		OUT(fdt, 4, 1, c, 2 * h, 2 * wd);
		break;
	case DRM_VNPU_OP_GATHER_ND:
		IN(fdt, 2, m, n);
		IN(I64, 2, q, 1);
		OUT(fdt, 2, q, n);
		break;
	case DRM_VNPU_OP_SCATTER_ND:
		IN(fdt, 2, m, n);
		IN(I64, 2, q, 1);
		IN(fdt, 2, q, n);
		OUT(fdt, 2, m, n);
		break;
	case DRM_VNPU_OP_REVERSE_SEQUENCE:
		IN(fdt, 2, m, n);
		IN(I64, 1, n);
		OUT(fdt, 2, m, n);
		break;
	case DRM_VNPU_OP_NLL_LOSS:
		IN(fdt, 2, m, n);
		IN(I64, 1, m);
		if (one_in(r, 2))
			IN(fdt, 1, n);
		if (one_in(r, 2)) {
			OUT(fdt, 1, m);		/* reduction none */
			k.has_attrs = true;
		} else {
			OUT(fdt, 1, 1);		/* mean */
		}
		break;
	case DRM_VNPU_OP_CUMSUM:
	case DRM_VNPU_OP_HARDMAX:
		IN(fdt, rank, s[0], s[1], s[2]);
		OUT(fdt, rank, s[0], s[1], s[2]);
		k.attrs.ints[0] = rnd(r, rank);
		k.has_attrs = true;
		break;
	case DRM_VNPU_OP_TRILU:
		IN(pick_dtype(r), 2, m, n);
		OUT(k.t[0].dtype, 2, m, n);
		break;
	case DRM_VNPU_OP_RESIZE_ND:
		IN(fdt, 4, 1, c, h, wd);
		OUT(fdt, 4, 1, c, 2 * h, wd + 1);
		k.attrs.ints[0] = rnd(r, 3);
		k.attrs.ints[1] = rnd(r, 5);
		k.has_attrs = true;
		break;
	case DRM_VNPU_OP_QUANTIZE_LINEAR:
		IN(fdt, 2, m, n);
		IN(F32, 1, 1);
		if (one_in(r, 2))
			IN(qt, 1, 1);
		OUT(qt, 2, m, n);
		break;
	case DRM_VNPU_OP_DEQUANTIZE_LINEAR:
		IN(qt, 2, m, n);
		IN(F32, 1, 1);
		if (one_in(r, 2))
			IN(qt, 1, 1);
		OUT(fdt, 2, m, n);
		break;
	case DRM_VNPU_OP_DYNAMIC_QUANTIZE_LINEAR:
		IN(fdt, 2, m, n);
		OUT(U8, 2, m, n);
		OUT(F32, 1, 1);
		OUT(U8, 1, 1);
		break;
	case DRM_VNPU_OP_TRI_SOLVE:
		IN(fdt, 3, q, m, m);
		IN(fdt, 3, q, m, n);
		OUT(fdt, 3, q, m, n);
		k.attrs.ints[0] = rnd(r, 2);
		k.attrs.ints[1] = rnd(r, 2);
		k.has_attrs = one_in(r, 2);
		break;
	case DRM_VNPU_OP_GRID_SAMPLE:
		IN(fdt, 4, 1, c, h, wd);
		IN(fdt, 4, 1, m, n, 2);
		OUT(fdt, 4, 1, c, m, n);
		k.attrs.ints[0] = rnd(r, 3);
		k.attrs.ints[1] = rnd(r, 3);
		k.has_attrs = one_in(r, 2);
		break;
	case DRM_VNPU_OP_ROI_ALIGN:
		IN(fdt, 4, 1 + rnd(r, 2), c, h, wd);
		IN(fdt, 2, q, 4);		/* x1, y1, x2, y2 */
		IN(I64, 1, q);			/* image of each */
		OUT(fdt, 4, q, c, 1 + rnd(r, 3), 1 + rnd(r, 3));
		k.attrs.ints[0] = rnd(r, 2);
		k.attrs.ints[1] = rnd(r, 3);
		k.attrs.floats[0] = 0x3f800000;	/* 1.0 */
		k.has_attrs = one_in(r, 2);
		break;
	case DRM_VNPU_OP_FLASH_ATTN: {
		/* GQA ratios, no keys, one query row, odd head dims, bands */
		int64_t b = 1 + rnd(r, 2), kvh = 1 + rnd(r, 2), g = 1 + rnd(r, 3);
		int64_t sq = 1 + rnd(r, 20), skv = one_in(r, 8) ? 0 : rnd(r, 70);
		int64_t dk = 1 + rnd(r, 20), dv = one_in(r, 8) ? 0 : 1 + rnd(r, 20);
		uint32_t fl = rnd(r, 8);

		IN(fdt, 4, b, kvh * g, sq, dk);
		IN(fdt, 4, b, kvh, skv, dk);
		IN(fdt, 4, b, kvh, skv, dv);
		if (fl & 1)
			IN(fdt, 4, b, kvh * g, sq, skv);
		if (fl & 2)
			IN(one_in(r, 2) ? BL : U8, 4, b, kvh * g, sq, skv);
		OUT(fdt, 4, b, kvh * g, sq, dv);
		if (fl & 4)
			OUT(F32, 3, b, kvh * g, sq);
		k.attrs.ints[0] = one_in(r, 16) ? rnd64(r) : fl;
		k.attrs.ints[1] = rnd(r, 4);
		k.attrs.ints[2] = one_in(r, 8) ? rnd64(r) : (int64_t)rnd(r, 40) - 10;
		k.attrs.ints[3] = one_in(r, 8) ? rnd64(r) : (int64_t)rnd(r, 40) - 10;
		k.attrs.floats[0] = one_in(r, 8) ? (uint32_t)rnd64(r) : 0x3e000000;
		k.has_attrs = fl || one_in(r, 2);
		break;
	}
	case DRM_VNPU_OP_ROPE: {
		int64_t d = 2 * (1 + rnd(r, 8));

		IN(fdt, 4, m, n, q, d);
		IN(pick_float(r), 4, one_in(r, 2) ? 1 : m, n, one_in(r, 2) ? 1 : q, d);
		IN(pick_float(r), 4, one_in(r, 2) ? 1 : m, n, one_in(r, 2) ? 1 : q, d);
		OUT(fdt, 4, m, n, q, d);
		k.attrs.ints[0] = rnd(r, 5);
		k.has_attrs = one_in(r, 4) != 0 || k.attrs.ints[0];
		break;
	}
	case DRM_VNPU_OP_WQ_MATMUL: {
		/*
		 * Edge shapes: depth 2q (INT4 along k halves it), groups of
		 * 0, 1, q, the whole depth or one past it, packing and flags
		 * now and then out of range.
		 */
		int64_t kk = 2 * q, pack = rnd(r, one_in(r, 8) ? 5 : 3) - (one_in(r, 16));
		int64_t gsv[5] = { 0, 1, q, kk, kk + 1 }, gs = gsv[rnd(r, 5)];
		int64_t g = gs ? (kk + gs - 1) / gs : 1, nn = 2 * n;
		bool off = one_in(r, 2), bias = one_in(r, 2);

		IN(fdt, 2, m, kk);
		IN(I8, 2, pack == 1 ? kk / 2 : kk, pack == 2 ? nn / 2 : nn);
		if (one_in(r, 2)) {	/* ggml's layout: contiguous along k */
			struct drm_vnpu_tensor *t = &k.t[k.hdr.num_inputs - 1];

			t->strides[0] = 1;
			t->strides[1] = t->shape[0];
		}
		IN(fdt, 2, g, nn);
		if (off)
			IN(fdt, 2, g, nn);
		if (bias)
			IN(fdt, 1, nn);
		OUT(fdt, 2, m, nn);
		k.attrs.ints[0] = one_in(r, 16) ? -1 : gs;
		k.attrs.ints[1] = pack;
		k.attrs.ints[2] = off ^ one_in(r, 16);
		k.attrs.ints[3] = bias;
		k.has_attrs = true;
		break;
	}
	case DRM_VNPU_OP_GROUPED_MATMUL: {
		/* the group list is whatever the arena holds: mostly refused */
		bool bias = one_in(r, 2);

		IN(fdt, 2, m, q);
		IN(fdt, 3, c, q, n);
		IN(one_in(r, 8) ? pick_int(r) : I64, 1, c);
		if (bias)
			IN(fdt, 2, c, n);
		OUT(fdt, 2, m, n);
		k.attrs.ints[0] = rnd(r, one_in(r, 8) ? 3 : 2);
		k.attrs.ints[1] = bias ^ one_in(r, 16);
		k.has_attrs = true;
		break;
	}
	case DRM_VNPU_OP_AIPP:
		/* parameters are whatever the arena holds: mostly refused */
		IN(U8, 2, q, h * wd * 4);
		IN(U8, 2, q, (int64_t)sizeof(struct drm_vnpu_aipp_params));
		OUT(fdt, 4, q, c, h, wd);
		break;
	default:
		return false;
	}
	*kp = k;
	return true;
}

/* Bytes a VPC picture takes (Documentation/vpc.md's layouts). */
static int64_t vpc_bytes(int64_t fmt, int64_t ws, int64_t hs)
{
	if (fmt == 1 || fmt == 2)
		return ws * hs + ws * (hs / 2);
	if (fmt == 3 || fmt == 4)
		return 2 * ws * hs;
	if (fmt == 5 || fmt == 6)
		return 3 * ws * hs;
	return ws * hs;
}

/*
 * A call of DRM_VNPU_OP_VPC (UAPI 1.7) on small pictures at the edges of
 * its rules: sizes 1..6 of both parities, strides exact or a little
 * wider, rectangles now and then, every kind, mode and matrix and one
 * past each. The buffers hold what the pictures need, so whatever check()
 * lets through runs.
 */
static bool template_media(struct rng *r, uint32_t op, struct kbuild *kp)
{
	static const uint8_t bpp[18] = { 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3,
					 4, 4, 4, 4 };
	struct kbuild k = *kp;
	const uint32_t U8 = DRM_VNPU_DTYPE_UINT8;
	__s64 *a = k.attrs.ints;
	int64_t p, i;

	if (op != DRM_VNPU_OP_VPC)
		return false;
	for (p = 0; p < 2; p++) {
		__s64 *f = &a[p * 5];
		int64_t fmt = rnd(r, 18);

		f[0] = fmt;
		f[1] = 1 + rnd(r, 6);
		f[2] = 1 + rnd(r, 6);
		f[3] = f[1] * bpp[fmt] + (one_in(r, 2) ? 0 : rnd(r, 3));
		f[4] = f[2] + (one_in(r, 2) ? 0 : rnd(r, 2));
		if (p)
			OUT(U8, 1, vpc_bytes(fmt, f[3], f[4]));
		else
			IN(U8, 1, vpc_bytes(fmt, f[3], f[4]));
	}
	for (i = 10; i < 18 && one_in(r, 3); i += 4) {
		a[i] = rnd(r, 3);
		a[i + 1] = rnd(r, 3);
		a[i + 2] = 1 + rnd(r, 4);
		a[i + 3] = 1 + rnd(r, 4);
	}
	a[18] = rnd(r, 6);
	a[19] = rnd(r, 7);
	a[20] = one_in(r, 2) ? 0 : rnd(r, 4);
	a[21] = rnd(r, 5);
	if (a[20] == 1) {	/* PyrDown: luma, half the size */
		a[0] = a[5] = 0;
		a[6] = (a[1] + 1) / 2;
		a[7] = (a[2] + 1) / 2;
		a[8] = a[6];
		a[9] = a[7];
		k.t[1].shape[0] = a[6] * a[7];
	}
	k.has_attrs = !one_in(r, 16);
	*kp = k;
	return true;
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
	} else if (!template_onnx(r, op, &k) && !template_media(r, op, &k)) {
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

#define HUGE_STRIDE	(1ll << 40)

static int64_t edge_stride(struct rng *r)
{
	static const int64_t v[] = { 0, 1, HUGE_STRIDE };

	return v[rnd(r, ARRAY_SIZE(v))];
}

/*
 * Empty tensor @ti: a 0 at dimension @d; then, by the low two bits of
 * @mode, the strides: 0 as they were, 1 the empty dimension's stride
 * becomes 0, 1 or 2^40, 2 every other dimension's does (one value for
 * all), 3 each dimension's independently. Bit 2: the other tensors that
 * had the same size at @d get the 0 too, so that shape checks still
 * pass. Writes what it did to @note.
 */
static void edge_empty(struct rng *r, struct kbuild *k, uint32_t ti, uint32_t d,
		       uint32_t mode, char *note, size_t len)
{
	uint32_t n = k->hdr.num_inputs + k->hdr.num_outputs, i, e, rank;
	struct drm_vnpu_tensor *t;
	int64_t old, st;

	if (n > DRM_VNPU_MAX_TENSORS)
		n = DRM_VNPU_MAX_TENSORS;
	if (!n)
		return;
	ti %= n;
	t = &k->t[ti];
	if (!t->rank) {
		t->rank = 1;
		t->shape[0] = 1;
		t->strides[0] = 1;
	}
	/*
	 * A rank mutation may have left any value: the driver must refuse
	 * it, but our own indexing stays inside the arrays.
	 */
	rank = t->rank < DRM_VNPU_MAX_RANK ? t->rank : DRM_VNPU_MAX_RANK;
	d %= rank;
	old = t->shape[d];
	t->shape[d] = 0;
	switch (mode & 3) {
	case 1:
		t->strides[d] = edge_stride(r);
		break;
	case 2:
		st = edge_stride(r);
		for (e = 0; e < rank; e++)
			if (e != d)
				t->strides[e] = st;
		break;
	case 3:
		for (e = 0; e < rank; e++)
			t->strides[e] = edge_stride(r);
		break;
	default:
		break;
	}
	if (mode & 4)
		for (i = 0; i < n; i++)
			if (i != ti && d < k->t[i].rank && k->t[i].shape[d] == old)
				k->t[i].shape[d] = 0;
	if (note)
		snprintf(note, len, "empty t%u(%s) d%u/%u mode%u strides[%lld,%lld,%lld,%lld]",
			 ti, ti < k->hdr.num_inputs ? "in" : "out", d, t->rank, mode,
			 (long long)t->strides[0], (long long)t->strides[1],
			 (long long)t->strides[2], (long long)t->strides[3]);
}

static void mutate_kernel(struct rng *r, struct kbuild *k, uint32_t *op)
{
	uint64_t n = (uint64_t)k->hdr.num_inputs + k->hdr.num_outputs;
	struct drm_vnpu_tensor *t;

	if (n > DRM_VNPU_MAX_TENSORS)	/* after a count mutation */
		n = DRM_VNPU_MAX_TENSORS;
	t = &k->t[rnd(r, n ? n : 1)];
	uint32_t d = rnd(r, DRM_VNPU_MAX_RANK);

	switch (rnd(r, 17)) {
	case 0:
		t->va = rnd_mutate(r, t->va);
		break;
	case 15:
		edge_empty(r, k, t - k->t, d, rnd(r, 8), NULL, 0);
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

/* Append k's arguments to the batch and make t a KERNEL task of @op. */
static bool put_kernel(struct batch *b, struct drm_vnpu_task *t,
		       const struct kbuild *k, uint32_t op)
{
	uint32_t n = (uint64_t)k->hdr.num_inputs + k->hdr.num_outputs >
		     DRM_VNPU_MAX_TENSORS ? DRM_VNPU_MAX_TENSORS :
		     k->hdr.num_inputs + k->hdr.num_outputs;
	uint32_t size = sizeof(k->hdr) + n * sizeof(k->t[0]) +
			(k->has_attrs ? sizeof(k->attrs) : 0), off;

	if (b->args_size + size + 64 > b->cap_args) {
		t->type = DRM_VNPU_TASK_NOP;
		return false;
	}
	off = b->args_size;
	memcpy((uint8_t *)b->args + off, &k->hdr, sizeof(k->hdr));
	memcpy((uint8_t *)b->args + off + sizeof(k->hdr), k->t, n * sizeof(k->t[0]));
	if (k->has_attrs)
		memcpy((uint8_t *)b->args + off + size - sizeof(k->attrs), &k->attrs,
		       sizeof(k->attrs));
	b->args_size += (size + 7) & ~7u;
	t->type = DRM_VNPU_TASK_KERNEL;
	t->kernel.op = op;
	t->kernel.args_offset = off;
	t->kernel.args_size = size;
	return true;
}

/* Append a KERNEL task and its arguments. */
static void add_kernel(struct worker *w, struct fctx *c, struct batch *b,
		       struct drm_vnpu_task *t, bool mutate)
{
	struct rng *r = &w->r;
	struct fbo *ar = arena(w, c);
	uint32_t op = one_in(r, 30) ? (uint32_t)rnd(r, 300) : all_ops[rnd(r, ARRAY_SIZE(all_ops))];
	struct kbuild k = { 0 }, saved;
	uint32_t size, off;
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
	k.hdr.attr_size = k.has_attrs ? sizeof(k.attrs) : 0;
	if (mutate && one_in(r, 12))
		k.hdr.attr_size = rnd_interesting(r);
	if (!put_kernel(b, t, &k, op))
		return;
	off = t->kernel.args_offset;
	size = t->kernel.args_size;
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
				t->tag = rnd64(r);
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

/*
 * Turn task i of a batch of count into a JUMP (UAPI 1.9) with edge
 * fields: targets at and past the end, conditions and flags past the
 * known ones, operands at 0, unmapped, 2^40 or straddling an object's
 * end. A backward jump may loop until the driver's bound (-ELOOP): such
 * a batch is heavy.
 */
static void gen_jump(struct worker *w, struct fctx *c, struct batch *b,
		     struct drm_vnpu_task *t, uint32_t i, uint32_t count)
{
	struct rng *r = &w->r;
	uint64_t va, len;
	const uint32_t targets[] = { count - 1, count, count + 1, ~0u, 0, i,
				     DRM_VNPU_MAX_TASKS };

	memset(t, 0, sizeof(*t));
	t->type = DRM_VNPU_TASK_JUMP;
	t->jump.target = one_in(r, 2) ? i + 1 + rnd(r, count - i) :
			 targets[rnd(r, ARRAY_SIZE(targets))];
	if (t->jump.target > count)
		t->jump.target = one_in(r, 4) ? t->jump.target : count - 1;
	t->jump.cond = one_in(r, 8) ? (one_in(r, 2) ? 7 : (uint32_t)rnd64(r)) :
		       rnd(r, DRM_VNPU_JUMP_ALWAYS + 1);
	t->jump.flags = one_in(r, 8) ? (uint32_t)rnd64(r) : rnd(r, 4);
	if (one_in(r, 16))
		t->jump.pad = 1 + rnd(r, 0xffff);
	switch (rnd(r, 6)) {
	case 0:
		t->jump.addr = 0;
		break;
	case 1:
		t->jump.addr = 1ull << 40;
		break;
	case 2:
		t->jump.addr = fix_va(rnd64(r));	/* most likely unmapped */
		break;
	default:
		pick_range(w, c, 8, &va, &len);
		t->jump.addr = va;
		break;
	}
	if (t->jump.flags & DRM_VNPU_JUMP_VALUE_ADDR) {
		pick_range(w, c, 8, &va, &len);
		t->jump.value = one_in(r, 4) ? 1ull << 40 : va;
	} else {
		t->jump.value = one_in(r, 2) ? 0 : rnd64(r);
	}
	if (t->jump.target <= i)
		b->heavy = true;
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
	/* JUMPs with edge fields, in small batches. */
	if (count && count <= 64 && one_in(r, 4)) {
		uint32_t n = 1 + rnd(r, 2);

		while (n--) {
			struct drm_vnpu_task t;

			i = rnd(r, count);
			gen_jump(w, c, b, &t, i, count);
			memcpy((uint8_t *)b->tasks + (size_t)i * stride, &t,
			       stride < sizeof(t) ? stride : sizeof(t));
		}
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
					     "write", "wait", "kernel", "spin", "jump" };
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
		else if (t->type && t->type <= DRM_VNPU_TASK_JUMP)
			n += snprintf(buf + n, len - n, "(%llx,%llx,%llx)",
				      (unsigned long long)t->raw[0],
				      (unsigned long long)t->raw[1],
				      (unsigned long long)t->raw[2]);
	}
	if (n < (int)len - 8)
		n += snprintf(buf + n, len - n, "%s]", i < b->count ? " ..." : "");
	if (b->note[0] && n < (int)len - 8)
		n += snprintf(buf + n, len - n, " {%s}", b->note);
	return n;
}

/* ------------------------------------------------------ edge shapes -- */

void batch_alloc(struct batch *b, uint32_t count)
{
	memset(b, 0, sizeof(*b));
	b->count = count;
	b->stride = sizeof(struct drm_vnpu_task);
	b->tasks = calloc(count ? count : 1, sizeof(struct drm_vnpu_task));
	b->cap_args = 64 * 1024;
	b->args = calloc(1, b->cap_args);
	if (!b->tasks || !b->args) {
		perror("calloc");
		exit(2);
	}
}

uint32_t fuzz_nops(void)
{
	return ARRAY_SIZE(all_ops);
}

static void kernel_finish(struct kbuild *k)
{
	k->hdr.attr_size = k->has_attrs ? sizeof(k->attrs) : 0;
}

uint32_t batch_edge(struct worker *w, struct fctx *c, struct batch *b,
		    uint32_t opi, uint32_t ti, uint32_t d, uint32_t mode,
		    uint32_t *rank)
{
	struct rng *r = &w->r;
	struct fbo *ar = arena(w, c);
	uint32_t op = opt.edge_op ? opt.edge_op : all_ops[opi % ARRAY_SIZE(all_ops)], n;
	struct kbuild k = { 0 };
	char note[80] = "";

	batch_alloc(b, 1);
	k.base = ar ? ar->va : DRM_VNPU_VA_DEVICE_START;
	k.limit = ar ? ar->size : 4096;
	k.off = rnd(r, 4) * 64;
	kernel_template(r, op, &k);
	n = k.hdr.num_inputs + k.hdr.num_outputs;
	if (n) {
		edge_empty(r, &k, ti, d, mode, note, sizeof(note));
		*rank = k.t[ti % n].rank;
	} else {
		*rank = 0;
	}
	kernel_finish(&k);
	put_kernel(b, b->tasks, &k, op);
	snprintf(b->note, sizeof(b->note), "op%u %s", op, note);
	return n;
}

void batch_kernel_at(struct worker *w, struct batch *b, struct drm_vnpu_task *t,
		     uint64_t base, uint64_t limit)
{
	struct rng *r = &w->r;
	uint32_t op = all_ops[rnd(r, ARRAY_SIZE(all_ops))];
	struct kbuild k = { 0 };

	memset(t, 0, sizeof(*t));
	k.base = base;
	k.limit = limit;
	k.off = 64 * rnd(r, 4);
	kernel_template(r, op, &k);
	if (one_in(r, 4))
		edge_empty(r, &k, rnd(r, 16), rnd(r, 8), rnd(r, 8), NULL, 0);
	kernel_finish(&k);
	put_kernel(b, t, &k, op);
}

/* ------------------------------------------------------ split rows -- */

static const uint32_t split_ops[] = {
	DRM_VNPU_OP_SORT, DRM_VNPU_OP_TOPK, DRM_VNPU_OP_REDUCE_SUM,
	DRM_VNPU_OP_REDUCE_MEAN, DRM_VNPU_OP_REDUCE_SUM_SQUARE,
	DRM_VNPU_OP_REDUCE_L2, DRM_VNPU_OP_REDUCE_MAX, DRM_VNPU_OP_REDUCE_MIN,
	DRM_VNPU_OP_ARGMAX, DRM_VNPU_OP_ARGMIN, DRM_VNPU_OP_SOFTMAX,
	DRM_VNPU_OP_LOG_SOFTMAX, DRM_VNPU_OP_LAYER_NORM, DRM_VNPU_OP_RMS_NORM,
};

/* A tensor of [rows, len] (or [rows] with len 0) at the next place in k. */
static bool place2(struct kbuild *k, bool in, uint32_t dt, int64_t rows, int64_t len,
		   int64_t rs, int64_t es)
{
	struct drm_vnpu_tensor *t = &k->t[k->hdr.num_inputs + k->hdr.num_outputs];
	uint64_t span;

	memset(t, 0, sizeof(*t));
	t->dtype = dt;
	if (len) {
		t->rank = 2;
		t->shape[0] = rows;
		t->shape[1] = len;
		t->strides[0] = rs;
		t->strides[1] = es;
		span = ((uint64_t)(rows - 1) * rs + (uint64_t)(len - 1) * es + 1) *
		       vnpu_dtype_size(dt);
	} else {
		t->rank = 1;
		t->shape[0] = rows;
		t->strides[0] = rs;
		span = ((uint64_t)(rows - 1) * rs + 1) * vnpu_dtype_size(dt);
	}
	if (k->off + span > k->limit)
		return false;
	t->va = k->base + k->off;
	k->off = (k->off + span + 63) & ~63ull;
	if (in)
		k->hdr.num_inputs++;
	else
		k->hdr.num_outputs++;
	return true;
}

/*
 * SORT, TOPK, the split reductions and the split norms on rows longer
 * than one chunk (64 Ki elements): contiguous rows, stride-0 rows (every
 * row the same memory, so many rows cost no memory) and strided rows,
 * with element strides of 1 and now and then 2 or 0. The work is kept
 * to 2^22 elements (2^20 for SORT and TOPK), about a second in the
 * emulated guest, except SORT and TOPK on [65536, 131072] with stride-0
 * rows, which the kernel must refuse or bound.
 */
void batch_split(struct worker *w, struct batch *b, const struct fbo *big)
{
	static const int64_t lens[] = { 65536, 65537, 98304, 131072, 131073, 262144 };
	static const int64_t zrows[] = { 1, 2, 3, 64, 1024, 4096 };
	struct rng *r = &w->r;
	uint32_t op = split_ops[rnd(r, ARRAY_SIZE(split_ops))], i;
	int64_t len = lens[rnd(r, ARRAY_SIZE(lens))], rows, es = 1, rs, ors, kk = 0;
	uint32_t dt = one_in(r, 8) ? pick_float(r) : DRM_VNPU_DTYPE_FLOAT;
	uint32_t ixdt = DRM_VNPU_DTYPE_INT64, mode = rnd(r, 3);
	struct kbuild k = { 0 };
	bool known = false, sort;
	uint64_t budget;
	int tries;

	/* --op aims this generator too when it names one of its operators */
	for (i = 0; i < ARRAY_SIZE(split_ops); i++)
		if (opt.edge_op == split_ops[i])
			op = opt.edge_op;
	sort = op == DRM_VNPU_OP_SORT || op == DRM_VNPU_OP_TOPK;
	budget = sort ? 1ull << 20 : 1ull << 22;
	batch_alloc(b, 1);
	if (one_in(r, 6))
		es = one_in(r, 4) ? 0 : 2;
	if (mode == 1) {
		rows = zrows[rnd(r, ARRAY_SIZE(zrows))];
		if (sort && one_in(r, 4)) {
			/* the shape that ran for 20 minutes */
			rows = 65536;
			len = 131072;
			es = 1;
			known = true;
		}
	} else {
		rows = 1 + rnd(r, 4);
	}
	while (!known && rows > 1 && (uint64_t)rows * len > budget)
		rows /= 2;
	if (op == DRM_VNPU_OP_TOPK) {
		static const int64_t ks[] = { 1, 2, 16, 1000, 65536 };

		kk = one_in(r, 4) ? len : ks[rnd(r, ARRAY_SIZE(ks))];
	}
	for (tries = 0; tries < 4; tries++) {
		k = (struct kbuild){ 0 };
		k.base = big->va;
		k.limit = big->size;
		rs = mode == 1 ? 0 : mode == 0 ? len * (es ? es : 1) :
		     len * (es ? es : 1) + 16 * (1 + rnd(r, 4));
		/* outputs: stride-0 rows when the input has them, often */
		ors = mode == 1 && (known || one_in(r, 2)) ? 0 : len;
		if (!place2(&k, true, dt, rows, len, rs, es))
			goto smaller;
		switch (op) {
		case DRM_VNPU_OP_SORT:
			k.attrs.ints[0] = 1;
			k.attrs.ints[1] = rnd(r, 2);
			if (!place2(&k, false, dt, rows, len, ors, 1) ||
			    !place2(&k, false, ixdt, rows, len, ors, 1))
				goto smaller;
			break;
		case DRM_VNPU_OP_TOPK:
			k.attrs.ints[0] = 1;
			k.attrs.ints[2] = rnd(r, 2);
			k.attrs.ints[3] = !one_in(r, 4);
			if (!place2(&k, false, dt, rows, kk, ors ? kk : 0, 1) ||
			    !place2(&k, false, ixdt, rows, kk, ors ? kk : 0, 1))
				goto smaller;
			break;
		case DRM_VNPU_OP_SOFTMAX:
		case DRM_VNPU_OP_LOG_SOFTMAX:
			k.attrs.ints[0] = 1;
			if (!place2(&k, false, dt, rows, len, ors, 1))
				goto smaller;
			break;
		case DRM_VNPU_OP_LAYER_NORM:
		case DRM_VNPU_OP_RMS_NORM:
			k.attrs.ints[0] = 1;
			k.attrs.floats[0] = 0x3727c5ac;
			if (one_in(r, 2) && !place2(&k, true, dt, len, 0, 1, 1))
				goto smaller;
			if (k.hdr.num_inputs == 2 && op == DRM_VNPU_OP_LAYER_NORM &&
			    one_in(r, 2) && !place2(&k, true, dt, len, 0, 1, 1))
				goto smaller;
			if (!place2(&k, false, dt, rows, len, ors, 1))
				goto smaller;
			break;
		default:
			/* reductions over dim 1 */
			k.attrs.ints[0] = 2;
			if (!place2(&k, false, op == DRM_VNPU_OP_ARGMAX ||
				    op == DRM_VNPU_OP_ARGMIN ? ixdt : dt, rows, 0,
				    ors ? 1 : 0, 1))
				goto smaller;
			break;
		}
		break;
smaller:
		if (known || rows == 1)
			mode = 1;	/* stride-0 rows fit anywhere */
		else
			rows /= 2;
	}
	k.has_attrs = true;
	if (one_in(r, 40))
		mutate_kernel(r, &k, &op);
	kernel_finish(&k);
	put_kernel(b, b->tasks, &k, op);
	snprintf(b->note, sizeof(b->note), "split op%u [%lld,%lld] strides [%lld,%lld] out_rows %lld%s",
		 op, (long long)rows, (long long)len, (long long)rs, (long long)es,
		 (long long)ors, known ? " (known)" : "");
	b->heavy = known;
}
