/* SPDX-License-Identifier: MIT */
/*
 * Test-only .om builder: writes valid offline models in memory for small
 * networks (Add+Relu, MatMul with a weight, a dynamic-batch model), so the
 * loader can be tested before and apart from atc. It has its own CRC-32
 * (not the library's) so that the two cross-check each other.
 *
 * Header-only (static functions) so host and guest tests can include it.
 */
#ifndef VNPU_TESTS_OM_BUILDER_H
#define VNPU_TESTS_OM_BUILDER_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <drm/vnpu_accel.h>
#include "../../lib/om/om_format.h"
#include "../../lib/aicpu/aicpu_ops.h"

#define OMB_MAX 64

struct omb {
	char strings[4096];
	uint32_t strings_len;
	struct om_tensor tensors[OMB_MAX];
	uint32_t ntensors;
	struct om_node nodes[OMB_MAX];
	uint32_t nnodes;
	struct om_io io[OMB_MAX];
	uint32_t nio;
	uint8_t weights[4096];
	uint32_t weights_len;
	struct om_variant variants[8];
	uint32_t nvariants;
	struct om_dims vdims[OMB_MAX];
	uint32_t nvdims;
	struct om_aipp aipp[4];		/* OM_SEC_AIPP when naipp > 0 */
	uint32_t naipp;
};

static inline uint32_t omb_crc(uint32_t crc, const void *p, size_t n)
{
	const uint8_t *b = p;

	crc = ~crc;
	while (n--) {
		crc ^= *b++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1)));
	}
	return ~crc;
}

static inline void omb_init(struct omb *b)
{
	memset(b, 0, sizeof(*b));
	b->strings_len = 1;	/* offset 0 is "" */
}

static inline uint32_t omb_str(struct omb *b, const char *s)
{
	uint32_t off = b->strings_len;

	memcpy(b->strings + off, s, strlen(s) + 1);
	b->strings_len += (uint32_t)strlen(s) + 1;
	return off;
}

static inline uint32_t omb_dtype_size(uint32_t dtype)
{
	switch (dtype) {
	case DRM_VNPU_DTYPE_INT64: case DRM_VNPU_DTYPE_UINT64:
	case DRM_VNPU_DTYPE_DOUBLE:
		return 8;
	case DRM_VNPU_DTYPE_FLOAT16: case DRM_VNPU_DTYPE_BF16:
	case DRM_VNPU_DTYPE_INT16: case DRM_VNPU_DTYPE_UINT16:
		return 2;
	case DRM_VNPU_DTYPE_INT8: case DRM_VNPU_DTYPE_UINT8:
	case DRM_VNPU_DTYPE_BOOL:
		return 1;
	case OM_DTYPE_STRING:
		return OM_STRING_ELEM_BYTES;
	default:
		return 4;
	}
}

/* A dense tensor (contiguous strides); returns its index. */
static inline uint32_t omb_tensor(struct omb *b, uint32_t loc, uint32_t index,
				  uint64_t offset, uint32_t dtype, uint32_t rank,
				  const int64_t *shape)
{
	struct om_tensor *t = &b->tensors[b->ntensors];
	int64_t stride = 1;

	memset(t, 0, sizeof(*t));
	t->loc = loc;
	t->index = index;
	t->offset = offset;
	t->dtype = dtype;
	t->rank = rank;
	for (int d = (int)rank - 1; d >= 0; d--) {
		t->shape[d] = shape[d];
		t->strides[d] = stride;
		stride *= shape[d];
	}
	return b->ntensors++;
}

/* Weight bytes, OM_WEIGHT_ALIGN-aligned; returns their offset. */
static inline uint64_t omb_weight(struct omb *b, const void *data, size_t len)
{
	uint32_t off = (b->weights_len + OM_WEIGHT_ALIGN - 1) /
		       OM_WEIGHT_ALIGN * OM_WEIGHT_ALIGN;

	memcpy(b->weights + off, data, len);
	b->weights_len = off + (uint32_t)len;
	return off;
}

static inline void omb_node(struct omb *b, uint32_t op, uint32_t nin,
			    uint32_t nout, const uint32_t *tensors,
			    const struct drm_vnpu_op_attrs *attrs,
			    const char *name)
{
	struct om_node *n = &b->nodes[b->nnodes++];

	memset(n, 0, sizeof(*n));
	n->op = op;
	n->num_inputs = nin;
	n->num_outputs = nout;
	memcpy(n->tensors, tensors, (nin + nout) * sizeof(uint32_t));
	n->name = name ? omb_str(b, name) : 0;
	if (attrs) {
		n->has_attrs = 1;
		memcpy(n->ints, attrs->ints, sizeof(n->ints));
		memcpy(n->floats, attrs->floats, sizeof(n->floats));
	}
}

static inline void omb_io(struct omb *b, const char *name, uint32_t dtype,
			  uint32_t rank, const int64_t *dims, uint32_t flags)
{
	struct om_io *io = &b->io[b->nio++];
	uint64_t size = omb_dtype_size(dtype);

	memset(io, 0, sizeof(*io));
	io->name = omb_str(b, name);
	io->dtype = dtype;
	io->format = 0;	/* ACL_FORMAT_NCHW */
	io->rank = rank;
	for (uint32_t d = 0; d < rank; d++) {
		io->dims[d] = dims[d];
		size *= (uint64_t)dims[d];
	}
	io->size = size;
	io->flags = flags;
}

static inline void omb_variant(struct omb *b, uint32_t batch, uint32_t first,
			       uint32_t count, uint64_t arena)
{
	struct om_variant *v = &b->variants[b->nvariants++];

	memset(v, 0, sizeof(*v));
	v->batch = batch;
	v->first_node = first;
	v->node_count = count;
	v->arena_size = arena;
	v->naive_size = arena;
	v->lower_bound = arena;
}

/* Dims of every io in the variant just added: io dims, dim 0 = batch. */
static inline void omb_variant_dims(struct omb *b, uint32_t batch)
{
	for (uint32_t i = 0; i < b->nio; i++) {
		struct om_dims *d = &b->vdims[b->nvdims++];

		memset(d, 0, sizeof(*d));
		d->rank = b->io[i].rank;
		memcpy(d->dims, b->io[i].dims, sizeof(d->dims));
		if (batch && (b->io[i].flags & OM_IO_BATCHED))
			d->dims[0] = batch;
	}
}

/* Recompute the header and section checksums of an image in place. */
static inline void omb_recrc(void *img, size_t size)
{
	struct om_header *h = img;
	struct om_section *s = (struct om_section *)(h + 1);
	uint64_t tab;

	if (size < sizeof(*h) || h->section_count > 64)
		return;
	tab = sizeof(*h) + (uint64_t)h->section_count * sizeof(*s);
	if (tab > size)
		return;
	for (uint32_t i = 0; i < h->section_count; i++)
		if (s[i].offset <= size && s[i].size <= size - s[i].offset)
			s[i].crc = omb_crc(0, (uint8_t *)img + s[i].offset, s[i].size);
	h->header_crc = 0;
	h->header_crc = omb_crc(0, img, tab);
}

/* The file: header, table, sections in type order. malloc'd. */
static inline void *omb_finish(struct omb *b, size_t *size)
{
	struct {
		uint32_t type, count;
		const void *p;
		uint64_t size;
	} sec[] = {
		{ OM_SEC_STRINGS, b->strings_len, b->strings, b->strings_len },
		{ OM_SEC_TENSORS, b->ntensors, b->tensors,
		  b->ntensors * sizeof(struct om_tensor) },
		{ OM_SEC_NODES, b->nnodes, b->nodes, b->nnodes * sizeof(struct om_node) },
		{ OM_SEC_IO, b->nio, b->io, b->nio * sizeof(struct om_io) },
		{ OM_SEC_WEIGHTS, b->weights_len, b->weights, b->weights_len },
		{ OM_SEC_VARIANTS, b->nvariants, b->variants,
		  b->nvariants * sizeof(struct om_variant) },
		{ OM_SEC_VARIANT_DIMS, b->nvdims, b->vdims,
		  b->nvdims * sizeof(struct om_dims) },
		{ OM_SEC_AIPP, b->naipp, b->aipp, b->naipp * sizeof(struct om_aipp) },
	};
	/* the optional AIPP section only when there are records */
	const uint32_t n = sizeof(sec) / sizeof(sec[0]) - !b->naipp;
	uint64_t off = sizeof(struct om_header) + n * sizeof(struct om_section);
	struct om_section *tab;
	struct om_header *h;
	uint8_t *img;

	for (uint32_t i = 0; i < n; i++)
		off = (off + 7) / 8 * 8 + sec[i].size;
	off = (off + 7) / 8 * 8;
	img = aligned_alloc(64, (off + 63) / 64 * 64);
	memset(img, 0, off);
	h = (struct om_header *)img;
	h->magic = OM_MAGIC;
	h->version_major = OM_VERSION_MAJOR;
	h->version_minor = OM_VERSION_MINOR;
	h->header_size = sizeof(*h);
	h->section_count = n;
	h->file_size = off;
	strcpy(h->producer, "om_builder (tests)");
	tab = (struct om_section *)(h + 1);
	off = sizeof(struct om_header) + n * sizeof(struct om_section);
	for (uint32_t i = 0; i < n; i++) {
		off = (off + 7) / 8 * 8;
		tab[i].type = sec[i].type;
		tab[i].count = sec[i].count;
		tab[i].offset = off;
		tab[i].size = sec[i].size;
		memcpy(img + off, sec[i].p, sec[i].size);
		off += sec[i].size;
	}
	*size = h->file_size;
	omb_recrc(img, *size);
	return img;
}

/*
 * AIPP in front of a RELU: image input "x" (UINT8 [1, 6], a 2x2 NV12
 * image), the AIPP task into the arena (FLOAT [1, 3, 2, 2]), RELU into
 * "y". Static: the parameters (the samples' matrix, var 1) are a weight
 * and the record's. Dynamic (1): they come from the input
 * ascend_dynamic_aipp_data (UINT8 [1, 156]). 2: a dynamic model with a
 * second, static record for the same input (for the loader's tests).
 */
static inline void omb_aipp_params(struct drm_vnpu_aipp_params *p)
{
	static const int16_t m[9] = { 256, 0, 359, 256, -88, -183, 256, 454, 0 };
	const float one = 1.0f;

	memset(p, 0, sizeof(*p));
	p->input_format = 1;	/* YUV420SP_U8 */
	p->src_w = 2;
	p->src_h = 2;
	p->csc_switch = 1;
	memcpy(p->csc_matrix, m, sizeof(m));
	p->csc_in_bias[1] = p->csc_in_bias[2] = 128;
	for (int c = 0; c < 4; c++)
		memcpy(&p->var_reci[c], &one, 4);
}

static inline void *om_build_aipp(size_t *size, int dynamic)
{
	static const int64_t img[2] = { 1, 6 }, par[2] = { 1, 156 };
	static const int64_t chw[4] = { 1, 3, 2, 2 };
	struct drm_vnpu_aipp_params p;
	struct omb *b = malloc(sizeof(*b));
	struct om_aipp *a;
	uint32_t x, w, t, o;
	void *out;

	omb_init(b);
	omb_aipp_params(&p);
	omb_io(b, "x", DRM_VNPU_DTYPE_UINT8, 2, img, 0);
	if (dynamic)
		omb_io(b, OM_AIPP_DYNAMIC_NAME, DRM_VNPU_DTYPE_UINT8, 2, par, 0);
	omb_io(b, "y", DRM_VNPU_DTYPE_FLOAT, 4, chw, OM_IO_OUTPUT);
	x = omb_tensor(b, OM_LOC_INPUT, 0, 0, DRM_VNPU_DTYPE_UINT8, 2, img);
	w = dynamic ? omb_tensor(b, OM_LOC_INPUT, 1, 0, DRM_VNPU_DTYPE_UINT8, 2, par) :
		      omb_tensor(b, OM_LOC_WEIGHT, 0, omb_weight(b, &p, sizeof(p)),
				 DRM_VNPU_DTYPE_UINT8, 2, par);
	t = omb_tensor(b, OM_LOC_ARENA, 0, 0, DRM_VNPU_DTYPE_FLOAT, 4, chw);
	o = omb_tensor(b, OM_LOC_OUTPUT, 0, 0, DRM_VNPU_DTYPE_FLOAT, 4, chw);
	omb_node(b, DRM_VNPU_OP_AIPP, 2, 1, (uint32_t[]){ x, w, t }, NULL, "x");
	omb_node(b, DRM_VNPU_OP_RELU, 1, 1, (uint32_t[]){ t, o }, NULL, "relu");
	omb_variant(b, 0, 0, 2, 64);
	omb_variant_dims(b, 0);
	a = &b->aipp[b->naipp++];
	memset(a, 0, sizeof(*a));
	a->mode = dynamic ? OM_AIPP_DYNAMIC : OM_AIPP_STATIC;
	a->input = 0;
	a->params_input = dynamic ? 1 : OM_AIPP_NO_INPUT;
	a->out_dtype = DRM_VNPU_DTYPE_FLOAT;
	a->out_rank = 4;
	memcpy(a->out_dims, chw, sizeof(chw));
	if (!dynamic)
		memcpy(a->params, &p, sizeof(p));
	if (dynamic == 2) {	/* for the loader's tests: a second record */
		struct om_aipp *s = &b->aipp[b->naipp++];

		*s = *a;
		s->mode = OM_AIPP_STATIC;
		s->params_input = OM_AIPP_NO_INPUT;
		memcpy(s->params, &p, sizeof(p));
	}
	out = omb_finish(b, size);
	free(b);
	return out;
}

/* out = relu(a + b), a, b, out float [2, 3]; arena holds a + b. */
static inline void *om_build_add_relu(size_t *size)
{
	static const int64_t shape[2] = { 2, 3 };
	struct omb *b = malloc(sizeof(*b));
	uint32_t a, c, t, o;
	void *img;

	omb_init(b);
	omb_io(b, "a", DRM_VNPU_DTYPE_FLOAT, 2, shape, 0);
	omb_io(b, "b", DRM_VNPU_DTYPE_FLOAT, 2, shape, 0);
	omb_io(b, "out", DRM_VNPU_DTYPE_FLOAT, 2, shape, OM_IO_OUTPUT);
	a = omb_tensor(b, OM_LOC_INPUT, 0, 0, DRM_VNPU_DTYPE_FLOAT, 2, shape);
	c = omb_tensor(b, OM_LOC_INPUT, 1, 0, DRM_VNPU_DTYPE_FLOAT, 2, shape);
	t = omb_tensor(b, OM_LOC_ARENA, 0, 0, DRM_VNPU_DTYPE_FLOAT, 2, shape);
	o = omb_tensor(b, OM_LOC_OUTPUT, 0, 0, DRM_VNPU_DTYPE_FLOAT, 2, shape);
	omb_node(b, DRM_VNPU_OP_ADD, 2, 1, (uint32_t[]){ a, c, t }, NULL, "add");
	omb_node(b, DRM_VNPU_OP_RELU, 1, 1, (uint32_t[]){ t, o }, NULL, "relu");
	omb_variant(b, 0, 0, 2, 64);
	omb_variant_dims(b, 0);
	img = omb_finish(b, size);
	free(b);
	return img;
}

/* The weight of the MatMul model: w[k][n] = (k + 1) * 0.5 - n. */
static inline float omb_matmul_w(int k, int n)
{
	return (float)(k + 1) * 0.5f - (float)n;
}

/* y [2, 3] = x [2, 4] @ w [4, 3], w a weight. */
static inline void *om_build_matmul(size_t *size)
{
	static const int64_t xs[2] = { 2, 4 }, ws[2] = { 4, 3 }, ys[2] = { 2, 3 };
	struct omb *b = malloc(sizeof(*b));
	float w[12];
	uint32_t x, wt, y;
	uint64_t woff;
	void *img;

	for (int k = 0; k < 4; k++)
		for (int n = 0; n < 3; n++)
			w[k * 3 + n] = omb_matmul_w(k, n);
	omb_init(b);
	omb_io(b, "x", DRM_VNPU_DTYPE_FLOAT, 2, xs, 0);
	omb_io(b, "y", DRM_VNPU_DTYPE_FLOAT, 2, ys, OM_IO_OUTPUT);
	woff = omb_weight(b, w, sizeof(w));
	x = omb_tensor(b, OM_LOC_INPUT, 0, 0, DRM_VNPU_DTYPE_FLOAT, 2, xs);
	wt = omb_tensor(b, OM_LOC_WEIGHT, 0, woff, DRM_VNPU_DTYPE_FLOAT, 2, ws);
	y = omb_tensor(b, OM_LOC_OUTPUT, 0, 0, DRM_VNPU_DTYPE_FLOAT, 2, ys);
	omb_node(b, DRM_VNPU_OP_MATMUL, 2, 1, (uint32_t[]){ x, wt, y }, NULL, "mm");
	omb_variant(b, 0, 0, 1, 0);
	omb_variant_dims(b, 0);
	img = omb_finish(b, size);
	free(b);
	return img;
}

/* The bias of the dynamic-batch model: bias[j] = j - 1.5. */
static inline float omb_dyn_bias(int j)
{
	return (float)j - 1.5f;
}

/*
 * y [B, 4] = relu(x [B, 4] + bias [4]) for B in 1, 2, 4: three variants,
 * each its own nodes and arena.
 */
static inline void *om_build_dynbatch(size_t *size)
{
	static const int64_t full[2] = { 4, 4 }, bs[1] = { 4 };
	static const uint32_t batches[3] = { 1, 2, 4 };
	struct omb *b = malloc(sizeof(*b));
	float bias[4];
	uint64_t boff;
	uint32_t bt;
	void *img;

	for (int j = 0; j < 4; j++)
		bias[j] = omb_dyn_bias(j);
	omb_init(b);
	omb_io(b, "x", DRM_VNPU_DTYPE_FLOAT, 2, full, OM_IO_BATCHED);
	omb_io(b, "y", DRM_VNPU_DTYPE_FLOAT, 2, full, OM_IO_BATCHED | OM_IO_OUTPUT);
	boff = omb_weight(b, bias, sizeof(bias));
	bt = omb_tensor(b, OM_LOC_WEIGHT, 0, boff, DRM_VNPU_DTYPE_FLOAT, 1, bs);
	for (int v = 0; v < 3; v++) {
		int64_t s[2] = { batches[v], 4 };
		uint32_t x = omb_tensor(b, OM_LOC_INPUT, 0, 0, DRM_VNPU_DTYPE_FLOAT, 2, s);
		uint32_t t = omb_tensor(b, OM_LOC_ARENA, 0, 0, DRM_VNPU_DTYPE_FLOAT, 2, s);
		uint32_t y = omb_tensor(b, OM_LOC_OUTPUT, 0, 0, DRM_VNPU_DTYPE_FLOAT, 2, s);

		omb_node(b, DRM_VNPU_OP_ADD, 2, 1, (uint32_t[]){ x, bt, t }, NULL, "add");
		omb_node(b, DRM_VNPU_OP_RELU, 1, 1, (uint32_t[]){ t, y }, NULL, "relu");
		omb_variant(b, batches[v], (uint32_t)v * 2, 2,
			    (uint64_t)batches[v] * 16);
		omb_variant_dims(b, batches[v]);
	}
	img = omb_finish(b, size);
	free(b);
	return img;
}

/*
 * Device and host nodes in one model, x float [8]:
 *   t = x + x (device, arena)
 *   nz = NonZero(t) (host) -> output 0, int64 [1, 8], dims dynamic
 *   d = Det(t as [2, 2, 2]) (host, arena [2])
 *   y = relu(d) (device) -> output 1, float [2]
 * so a device task reads what a host node wrote, after a host node read
 * what a device task wrote.
 */
static inline void *om_build_host_mix(size_t *size)
{
	static const int64_t xs[1] = { 8 }, nzs[2] = { 1, 8 }, ms[3] = { 2, 2, 2 };
	static const int64_t ds[1] = { 2 };
	struct omb *b = malloc(sizeof(*b));
	struct drm_vnpu_op_attrs at;
	uint32_t x, t, tm, nz, d, y;
	void *img;

	omb_init(b);
	omb_io(b, "x", DRM_VNPU_DTYPE_FLOAT, 1, xs, 0);
	omb_io(b, "nz", DRM_VNPU_DTYPE_INT64, 2, nzs, OM_IO_OUTPUT | OM_IO_DYNAMIC);
	omb_io(b, "y", DRM_VNPU_DTYPE_FLOAT, 1, ds, OM_IO_OUTPUT);
	x = omb_tensor(b, OM_LOC_INPUT, 0, 0, DRM_VNPU_DTYPE_FLOAT, 1, xs);
	t = omb_tensor(b, OM_LOC_ARENA, 0, 0, DRM_VNPU_DTYPE_FLOAT, 1, xs);
	tm = omb_tensor(b, OM_LOC_ARENA, 0, 0, DRM_VNPU_DTYPE_FLOAT, 3, ms);
	nz = omb_tensor(b, OM_LOC_OUTPUT, 0, 0, DRM_VNPU_DTYPE_INT64, 2, nzs);
	d = omb_tensor(b, OM_LOC_ARENA, 0, 64, DRM_VNPU_DTYPE_FLOAT, 1, ds);
	y = omb_tensor(b, OM_LOC_OUTPUT, 1, 0, DRM_VNPU_DTYPE_FLOAT, 1, ds);
	memset(&at, 0, sizeof(at));
	at.ints[AICPU_ATTR_IN] = 1;
	at.ints[AICPU_ATTR_OUT] = 1;
	omb_node(b, DRM_VNPU_OP_ADD, 2, 1, (uint32_t[]){ x, x, t }, NULL, "add");
	omb_node(b, OM_OP_HOST | AICPU_OP_NONZERO, 1, 1, (uint32_t[]){ t, nz }, &at, "nz");
	omb_node(b, OM_OP_HOST | AICPU_OP_DET, 1, 1, (uint32_t[]){ tm, d }, &at, "det");
	omb_node(b, DRM_VNPU_OP_RELU, 1, 1, (uint32_t[]){ d, y }, NULL, "relu");
	omb_variant(b, 0, 0, 4, 128);
	omb_variant_dims(b, 0);
	img = omb_finish(b, size);
	free(b);
	return img;
}

/*
 * A string model: STRING x [4] -> host StringNormalizer (stopword
 * "monday", case-insensitive, UPPER) -> STRING y [4] (dynamic). Node 0 is
 * the host node; the stopwords are a UINT8 weight in the string layout.
 */
static inline void *om_build_strnorm(size_t *size)
{
	static const int64_t xs[1] = { 4 };
	struct {
		struct om_string_head h;
		char text[8];
	} sw = { { 16, 6 }, "monday" };
	int64_t ws[1] = { sizeof(sw) };
	struct omb *b = malloc(sizeof(*b));
	struct drm_vnpu_op_attrs at;
	uint32_t x, w, y;
	uint64_t woff;
	void *img;

	omb_init(b);
	omb_io(b, "x", OM_DTYPE_STRING, 1, xs, 0);
	omb_io(b, "y", OM_DTYPE_STRING, 1, xs, OM_IO_OUTPUT | OM_IO_DYNAMIC);
	woff = omb_weight(b, &sw, sizeof(sw));
	x = omb_tensor(b, OM_LOC_INPUT, 0, 0, OM_DTYPE_STRING, 1, xs);
	w = omb_tensor(b, OM_LOC_WEIGHT, 0, woff, DRM_VNPU_DTYPE_UINT8, 1, ws);
	y = omb_tensor(b, OM_LOC_OUTPUT, 0, 0, OM_DTYPE_STRING, 1, xs);
	memset(&at, 0, sizeof(at));
	at.ints[AICPU_ATTR_IN] = 3;
	at.ints[AICPU_ATTR_OUT] = 1;
	at.ints[0] = 2;		/* UPPER */
	at.ints[1] = 0;		/* case-insensitive */
	at.ints[2] = 1;		/* one stopword */
	omb_node(b, OM_OP_HOST | AICPU_OP_STRNORM, 2, 1, (uint32_t[]){ x, w, y }, &at,
		 "strnorm");
	omb_variant(b, 0, 0, 1, 64);
	omb_variant_dims(b, 0);
	img = omb_finish(b, size);
	free(b);
	return img;
}

#endif /* VNPU_TESTS_OM_BUILDER_H */
