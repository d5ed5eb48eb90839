// SPDX-License-Identifier: MIT
/*
 * Validation of a .om image, in the order a reader meets the bytes: the
 * header, the section table, each section's bounds and checksum, then the
 * records (strings, io, variants, tensors, nodes) against each other.
 * Nothing is trusted before it is checked; every sum and product of file
 * numbers is overflow-checked; the image is only read.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <drm/vnpu_accel.h>

#include "om_read.h"
#include "../aicpu/aicpu_ops.h"

#define MAX_SECTIONS	64
#define LOC_SIZE_MAX	DRM_VNPU_BO_MAX_SIZE	/* io buffers, arenas */

struct reader {
	const uint8_t *base;
	size_t size;
	char *why;
	size_t len;
};

__attribute__((format(printf, 3, 4)))
static int fail(struct reader *r, int err, const char *fmt, ...)
{
	va_list ap;

	if (r->len) {
		va_start(ap, fmt);
		vsnprintf(r->why, r->len, fmt, ap);
		va_end(ap);
	}
	return err;
}

static bool str_ok(const struct om_image *img, uint32_t off)
{
	return off < img->strings_size &&
	       strnlen(img->strings + off, OM_NAME_MAX) < OM_NAME_MAX;
}

static int check_header(struct reader *r, const struct om_header *h,
			uint64_t *table_end)
{
	static const uint32_t zero;
	uint64_t tab;
	uint32_t crc;

	if (r->size < sizeof(*h))
		return fail(r, OM_ERR_FILE, "%zu bytes is too short for a model",
			    r->size);
	if (h->magic != OM_MAGIC)
		return fail(r, OM_ERR_FILE, "magic 0x%08x is not a vnpu model",
			    h->magic);
	if (h->version_major != OM_VERSION_MAJOR)
		return fail(r, OM_ERR_FILE, "format version %u.%u is not supported (major %u)",
			    h->version_major, h->version_minor, OM_VERSION_MAJOR);
	if (h->header_size != sizeof(*h))
		return fail(r, OM_ERR_PARSE, "header_size %u, expected %zu",
			    h->header_size, sizeof(*h));
	if (h->file_size != r->size)
		return fail(r, OM_ERR_PARSE, "file_size %llu but the image has %zu bytes",
			    (unsigned long long)h->file_size, r->size);
	if (h->flags)
		return fail(r, OM_ERR_PARSE, "header flags 0x%x are not zero",
			    h->flags);
	if (!memchr(h->producer, 0, sizeof(h->producer)))
		return fail(r, OM_ERR_PARSE, "producer is not NUL-terminated");
	if (!h->section_count || h->section_count > MAX_SECTIONS)
		return fail(r, OM_ERR_PARSE, "section_count %u is not in 1..%u",
			    h->section_count, MAX_SECTIONS);
	tab = sizeof(*h) + (uint64_t)h->section_count * sizeof(struct om_section);
	if (tab > r->size)
		return fail(r, OM_ERR_PARSE, "the section table runs past the end");
	crc = om_crc32(0, r->base, offsetof(struct om_header, header_crc));
	crc = om_crc32(crc, &zero, sizeof(zero));
	crc = om_crc32(crc, r->base + offsetof(struct om_header, producer),
		       tab - offsetof(struct om_header, producer));
	if (crc != h->header_crc)
		return fail(r, OM_ERR_PARSE, "header checksum 0x%08x, computed 0x%08x",
			    h->header_crc, crc);
	*table_end = tab;
	return 0;
}

static uint64_t record_size(uint32_t type)
{
	switch (type) {
	case OM_SEC_TENSORS: return sizeof(struct om_tensor);
	case OM_SEC_NODES: return sizeof(struct om_node);
	case OM_SEC_IO: return sizeof(struct om_io);
	case OM_SEC_VARIANTS: return sizeof(struct om_variant);
	case OM_SEC_VARIANT_DIMS: return sizeof(struct om_dims);
	case OM_SEC_AIPP: return sizeof(struct om_aipp);
	default: return 1;	/* STRINGS, WEIGHTS, unknown: bytes */
	}
}

/* Bounds, alignment, checksum, count; no two sections share a byte. */
static int check_sections(struct reader *r, const struct om_section *sec,
			  uint32_t n, uint64_t table_end,
			  const struct om_section *found[8],
			  const struct om_section **key,
			  const struct om_section **aipp)
{
	for (uint32_t i = 0; i < n; i++) {
		const struct om_section *s = &sec[i];
		uint64_t end, want;

		if (s->reserved)
			return fail(r, OM_ERR_PARSE, "section %u: reserved is not zero", i);
		if (s->offset % 8)
			return fail(r, OM_ERR_PARSE, "section %u: offset %llu is not 8-byte aligned",
				    i, (unsigned long long)s->offset);
		if (s->offset < table_end ||
		    __builtin_add_overflow(s->offset, s->size, &end) ||
		    end > r->size)
			return fail(r, OM_ERR_PARSE, "section %u: [%llu, +%llu) is outside the file",
				    i, (unsigned long long)s->offset,
				    (unsigned long long)s->size);
		if (__builtin_mul_overflow((uint64_t)s->count, record_size(s->type), &want) ||
		    want != s->size)
			return fail(r, OM_ERR_PARSE, "section %u (type %u): %u records do not make %llu bytes",
				    i, s->type, s->count, (unsigned long long)s->size);
		for (uint32_t j = 0; j < i; j++) {
			const struct om_section *o = &sec[j];

			if (s->size && o->size && s->offset < o->offset + o->size &&
			    o->offset < s->offset + s->size)
				return fail(r, OM_ERR_PARSE, "sections %u and %u overlap", j, i);
		}
		if (om_crc32(0, r->base + s->offset, s->size) != s->crc)
			return fail(r, OM_ERR_PARSE, "section %u (type %u): checksum mismatch", i,
				    s->type);
		if (s->type >= OM_SEC_STRINGS && s->type <= OM_SEC_VARIANT_DIMS) {
			if (found[s->type])
				return fail(r, OM_ERR_PARSE, "section type %u appears twice",
					    s->type);
			found[s->type] = s;
		}
		if (s->type == OM_SEC_OP_KEY || s->type == OM_SEC_AIPP) {
			const struct om_section **opt =
				s->type == OM_SEC_OP_KEY ? key : aipp;

			if (*opt)
				return fail(r, OM_ERR_PARSE, "section type %u appears twice",
					    s->type);
			*opt = s;
		}
	}
	for (uint32_t t = OM_SEC_STRINGS; t <= OM_SEC_VARIANT_DIMS; t++)
		if (!found[t] && t != OM_SEC_WEIGHTS)
			return fail(r, OM_ERR_PARSE, "section type %u is missing", t);
	return 0;
}

static int check_strings(struct reader *r, struct om_image *img)
{
	if (!img->strings_size || img->strings[0] ||
	    img->strings[img->strings_size - 1])
		return fail(r, OM_ERR_PARSE, "STRINGS must start and end with a NUL");
	return 0;
}

static bool dims_ok(uint32_t rank, const int64_t *dims)
{
	if (rank > OM_MAX_RANK)
		return false;
	for (uint32_t d = 0; d < OM_MAX_RANK; d++)
		if (d < rank ? dims[d] < 0 : dims[d] != 0)
			return false;
	return true;
}

static int check_io(struct reader *r, struct om_image *img, uint32_t count)
{
	uint32_t nin = 0;

	while (nin < count && !(img->io[nin].flags & OM_IO_OUTPUT))
		nin++;
	img->nin = nin;
	img->nout = count - nin;
	if (!img->nout || nin > OM_MAX_IO || img->nout > OM_MAX_IO ||
	    nin + img->nout + 1 > OM_MAX_SLOTS)
		return fail(r, OM_ERR_PARSE, "%u inputs and %u outputs: need 0..%u and 1..%u, %u bindings at most",
			    nin, img->nout, OM_MAX_IO, OM_MAX_IO, OM_MAX_SLOTS);
	for (uint32_t i = 0; i < count; i++) {
		const struct om_io *io = &img->io[i];

		if ((i >= nin) != !!(io->flags & OM_IO_OUTPUT) ||
		    io->flags & ~(OM_IO_BATCHED | OM_IO_OUTPUT | OM_IO_DYNAMIC) ||
		    ((io->flags & OM_IO_DYNAMIC) && !(io->flags & OM_IO_OUTPUT)) ||
		    io->reserved)
			return fail(r, OM_ERR_PARSE, "io %u: bad flags 0x%x or reserved (inputs first, then outputs)",
				    i, io->flags);
		if (!str_ok(img, io->name) || !img->strings[io->name])
			return fail(r, OM_ERR_PARSE, "io %u: name offset %u is not a name",
				    i, io->name);
		if (!om_dtype_size(io->dtype))
			return fail(r, OM_ERR_PARSE, "io %u: dtype %u is not a device dtype",
				    i, io->dtype);
		if (!dims_ok(io->rank, io->dims))
			return fail(r, OM_ERR_PARSE, "io %u: rank %u or dims are invalid",
				    i, io->rank);
		if ((io->flags & OM_IO_BATCHED) && !io->rank)
			return fail(r, OM_ERR_PARSE, "io %u: batched but rank 0", i);
		if (io->size != om_dense_bytes(io->dtype, io->rank, io->dims) ||
		    io->size > LOC_SIZE_MAX)
			return fail(r, OM_ERR_PARSE, "io %u: size %llu does not match its dims",
				    i, (unsigned long long)io->size);
	}
	return 0;
}

static int check_variants(struct reader *r, struct om_image *img)
{
	uint32_t nio = img->nin + img->nout;
	bool dynamic;

	if (!img->nvariants || img->nvariants > OM_MAX_VARIANTS)
		return fail(r, OM_ERR_PARSE, "%u variants: need 1..%u",
			    img->nvariants, OM_MAX_VARIANTS);
	dynamic = img->variants[0].batch != 0;
	for (uint32_t v = 0; v < img->nvariants; v++) {
		const struct om_variant *va = &img->variants[v];

		if (va->reserved || (va->batch != 0) != dynamic)
			return fail(r, OM_ERR_PARSE, "variant %u: reserved, or batch %u mixes static and dynamic",
				    v, va->batch);
		for (uint32_t w = 0; w < v; w++)
			if (img->variants[w].batch == va->batch)
				return fail(r, OM_ERR_PARSE, "variants %u and %u have batch %u",
					    w, v, va->batch);
		if (!va->node_count ||
		    (uint64_t)va->first_node + va->node_count > img->nnodes)
			return fail(r, OM_ERR_PARSE, "variant %u: nodes [%u, +%u) are not inside NODES (%u)",
				    v, va->first_node, va->node_count, img->nnodes);
		if (va->arena_size > LOC_SIZE_MAX)
			return fail(r, OM_ERR_PARSE, "variant %u: arena_size %llu is too large",
				    v, (unsigned long long)va->arena_size);
		for (uint32_t i = 0; i < nio; i++) {
			const struct om_dims *d = om_vdims(img, v, i);
			const struct om_io *io = &img->io[i];
			bool batched = dynamic && (io->flags & OM_IO_BATCHED);

			if (d->reserved || !dims_ok(d->rank, d->dims) ||
			    d->rank != io->rank)
				return fail(r, OM_ERR_PARSE, "variant %u io %u: bad dims record", v, i);
			for (uint32_t k = 0; k < d->rank; k++) {
				int64_t want = k == 0 && batched ? (int64_t)va->batch :
					       io->dims[k];

				if (d->dims[k] != want || d->dims[k] > io->dims[k])
					return fail(r, OM_ERR_PARSE, "variant %u io %u: dim %u is %lld, expected %lld",
						    v, i, k, (long long)d->dims[k],
						    (long long)want);
			}
		}
	}
	return 0;
}

static int check_tensor(struct reader *r, const struct om_image *img,
			uint32_t i)
{
	const struct om_tensor *t = &img->tensors[i];
	uint64_t esize = om_dtype_size(t->dtype), maxoff = 0, extent;

	if (t->loc > OM_LOC_OUTPUT || t->reserved)
		return fail(r, OM_ERR_PARSE, "tensor %u: loc %u or reserved is invalid",
			    i, t->loc);
	if ((t->loc == OM_LOC_ARENA || t->loc == OM_LOC_WEIGHT) ? t->index != 0 :
	    t->index >= (t->loc == OM_LOC_INPUT ? img->nin : img->nout))
		return fail(r, OM_ERR_PARSE, "tensor %u: index %u is out of range",
			    i, t->index);
	if (!esize)
		return fail(r, OM_ERR_PARSE, "tensor %u: dtype %u is not a device dtype",
			    i, t->dtype);
	if (!dims_ok(t->rank, t->shape) || !dims_ok(t->rank, t->strides))
		return fail(r, OM_ERR_PARSE, "tensor %u: rank %u, shape or strides are invalid",
			    i, t->rank);
	if (!str_ok(img, t->name))
		return fail(r, OM_ERR_PARSE, "tensor %u: name offset %u is invalid",
			    i, t->name);
	extent = t->offset;
	for (uint32_t d = 0; d < t->rank; d++) {
		uint64_t step;

		if (!t->shape[d])
			return 0;	/* empty: reads and writes nothing */
		if (__builtin_mul_overflow((uint64_t)(t->shape[d] - 1),
					   (uint64_t)t->strides[d], &step) ||
		    __builtin_add_overflow(maxoff, step, &maxoff))
			return fail(r, OM_ERR_PARSE, "tensor %u: extent overflows", i);
	}
	if (__builtin_add_overflow(maxoff, 1, &maxoff) ||
	    __builtin_mul_overflow(maxoff, esize, &maxoff) ||
	    __builtin_add_overflow(extent, maxoff, &extent) ||
	    extent > LOC_SIZE_MAX)
		return fail(r, OM_ERR_PARSE, "tensor %u: extent overflows", i);
	if (t->loc == OM_LOC_WEIGHT && extent > img->weights_size)
		return fail(r, OM_ERR_PARSE, "tensor %u: bytes up to %llu are past the weights (%llu)",
			    i, (unsigned long long)extent,
			    (unsigned long long)img->weights_size);
	return 0;
}

/* Where a tensor ends (offset + max element offset + element size). */
static uint64_t tensor_end(const struct om_tensor *t)
{
	uint64_t end = 0;

	for (uint32_t d = 0; d < t->rank; d++) {
		if (!t->shape[d])
			return t->offset;
		end += (uint64_t)(t->shape[d] - 1) * (uint64_t)t->strides[d];
	}
	return t->offset + (end + 1) * om_dtype_size(t->dtype);
}

static uint64_t tensor_bytes(const struct om_tensor *t)
{
	return om_dense_bytes(t->dtype, t->rank, t->shape);
}

static bool dense(const struct om_tensor *t)
{
	int64_t s = 1;

	for (uint32_t d = t->rank; d-- > 0;) {
		if (t->shape[d] != 1 && t->strides[d] != s)
			return false;
		s *= t->shape[d];
	}
	return true;
}

/* A dynamic output's tensor: only host nodes may read or write it. */
static bool dynamic_io(const struct om_image *img, const struct om_tensor *t)
{
	return t->loc == OM_LOC_OUTPUT && t->index < img->nout &&
	       (img->io[img->nin + t->index].flags & OM_IO_DYNAMIC);
}

static int check_host_node(struct reader *r, const struct om_image *img,
			   uint32_t i)
{
	const struct om_node *n = &img->nodes[i];
	uint32_t id = n->op & ~OM_OP_HOST;
	uint64_t in_mask = (uint64_t)n->ints[AICPU_ATTR_IN];
	uint64_t out_mask = (uint64_t)n->ints[AICPU_ATTR_OUT];

	if (!id || id >= AICPU_OP_COUNT)
		return fail(r, OM_ERR_PARSE, "node %u: host op %u is not a host operator",
			    i, id);
	if (n->has_attrs != 1)
		return fail(r, OM_ERR_PARSE, "node %u: a host node needs its attributes", i);
	if (in_mask >> OM_MAX_NODE_TENSORS || out_mask >> OM_MAX_NODE_TENSORS ||
	    (uint32_t)__builtin_popcountll(in_mask) != n->num_inputs ||
	    (uint32_t)__builtin_popcountll(out_mask) != n->num_outputs)
		return fail(r, OM_ERR_PARSE, "node %u: presence masks 0x%llx/0x%llx do not match %u inputs and %u outputs",
			    i, (unsigned long long)in_mask,
			    (unsigned long long)out_mask, n->num_inputs,
			    n->num_outputs);
	return 0;
}

static int check_node(struct reader *r, const struct om_image *img,
		      uint32_t i)
{
	const struct om_node *n = &img->nodes[i];
	uint64_t ntens = (uint64_t)n->num_inputs + n->num_outputs;
	bool host = n->op & OM_OP_HOST;

	if (host) {
		int ret = check_host_node(r, img, i);

		if (ret)
			return ret;
	} else if (!om_op_known(n->op)) {
		return fail(r, OM_ERR_PARSE, "node %u: op %u is not a device operator",
			    i, n->op);
	}
	if (!n->num_outputs || ntens > OM_MAX_NODE_TENSORS)
		return fail(r, OM_ERR_PARSE, "node %u: %u inputs and %u outputs (1..%u tensors, an output)",
			    i, n->num_inputs, n->num_outputs, OM_MAX_NODE_TENSORS);
	if (n->has_attrs > 1 || n->reserved)
		return fail(r, OM_ERR_PARSE, "node %u: has_attrs %u or reserved is invalid",
			    i, n->has_attrs);
	if (!str_ok(img, n->name))
		return fail(r, OM_ERR_PARSE, "node %u: name offset %u is invalid",
			    i, n->name);
	for (uint32_t k = 0; k < OM_MAX_NODE_TENSORS; k++) {
		uint32_t t = n->tensors[k];

		if (k >= ntens) {
			if (t)
				return fail(r, OM_ERR_PARSE, "node %u: unused tensor slot %u is not zero",
					    i, k);
			continue;
		}
		if (t >= img->ntensors)
			return fail(r, OM_ERR_PARSE, "node %u: tensor %u is out of range",
				    i, t);
		if (k >= n->num_inputs && (img->tensors[t].loc == OM_LOC_WEIGHT ||
					   img->tensors[t].loc == OM_LOC_INPUT))
			return fail(r, OM_ERR_PARSE, "node %u: writes to a weight or an input", i);
		if (host && !dense(&img->tensors[t]))
			return fail(r, OM_ERR_PARSE, "node %u: host node tensor %u is not dense",
				    i, t);
		if (!host && n->op != OM_OP_COPY &&
		    img->tensors[t].dtype == OM_DTYPE_STRING)
			return fail(r, OM_ERR_PARSE, "node %u: device operator %u cannot take string tensor %u",
				    i, n->op, t);
		if (!host && dynamic_io(img, &img->tensors[t]))
			return fail(r, OM_ERR_PARSE, "node %u: a device task uses dynamic output %u",
				    i, img->tensors[t].index);
	}
	if (n->op == OM_OP_COPY &&
	    (n->num_inputs != 1 || n->num_outputs != 1 || n->has_attrs ||
	     tensor_bytes(&img->tensors[n->tensors[0]]) !=
	     tensor_bytes(&img->tensors[n->tensors[1]])))
		return fail(r, OM_ERR_PARSE, "node %u: a copy takes one input and one output of the same size",
			    i);
	return 0;
}

/* Each variant's tensors fit in that variant's arena and io buffers. */
static int check_variant_extents(struct reader *r, const struct om_image *img)
{
	for (uint32_t v = 0; v < img->nvariants; v++) {
		const struct om_variant *va = &img->variants[v];

		for (uint32_t i = va->first_node; i < va->first_node + va->node_count; i++) {
			const struct om_node *n = &img->nodes[i];

			for (uint32_t k = 0; k < n->num_inputs + n->num_outputs; k++) {
				const struct om_tensor *t = &img->tensors[n->tensors[k]];
				uint64_t room;

				if (t->loc == OM_LOC_ARENA)
					room = va->arena_size;
				else if (t->loc == OM_LOC_WEIGHT)
					continue;
				else {
					uint32_t io = t->loc == OM_LOC_INPUT ? t->index :
						      img->nin + t->index;
					const struct om_dims *d = om_vdims(img, v, io);

					room = om_dense_bytes(img->io[io].dtype, d->rank, d->dims);
				}
				if (tensor_end(t) > room)
					return fail(r, OM_ERR_PARSE, "variant %u node %u: tensor %u ends at %llu, past its location (%llu)",
						    v, i, n->tensors[k],
						    (unsigned long long)tensor_end(t),
						    (unsigned long long)room);
			}
		}
	}
	return 0;
}

static const void *at(struct reader *r, const struct om_section *s)
{
	return s ? r->base + s->offset : NULL;
}

int om_read(const void *data, size_t size, struct om_image *img,
	    char *why, size_t len)
{
	struct reader r = { .base = data, .size = size, .why = why, .len = len };
	const struct om_section *found[8] = { 0 }, *key = NULL, *aipp = NULL;
	struct om_header h;
	uint64_t table_end = 0;
	int ret;

	if (len)
		why[0] = 0;
	if (!data)
		return fail(&r, OM_ERR_FILE, "no image");
	memset(&h, 0, sizeof(h));
	memcpy(&h, data, size < sizeof(h) ? size : sizeof(h));
	ret = check_header(&r, &h, &table_end);
	if (ret)
		return ret;
	/* Records are read in place: the image must be 8-byte aligned. */
	if ((uintptr_t)data % 8)
		return fail(&r, OM_ERR_PARSE, "the image is not 8-byte aligned in memory");
	ret = check_sections(&r, (const struct om_section *)(r.base + sizeof(h)),
			     h.section_count, table_end, found, &key, &aipp);
	if (ret)
		return ret;
	/* A key is text: NUL-terminated, no NUL before its end, bounded. */
	if (key && (!key->size || key->size > OM_OP_KEY_MAX ||
		    memchr(r.base + key->offset, 0, key->size) !=
		    (const void *)(r.base + key->offset + key->size - 1)))
		return fail(&r, OM_ERR_PARSE, "OP_KEY must be one NUL-terminated text of at most %u bytes",
			    OM_OP_KEY_MAX);
	memset(img, 0, sizeof(*img));
	img->strings = at(&r, found[OM_SEC_STRINGS]);
	img->strings_size = found[OM_SEC_STRINGS]->size;
	img->tensors = at(&r, found[OM_SEC_TENSORS]);
	img->ntensors = found[OM_SEC_TENSORS]->count;
	img->nodes = at(&r, found[OM_SEC_NODES]);
	img->nnodes = found[OM_SEC_NODES]->count;
	img->io = at(&r, found[OM_SEC_IO]);
	img->weights = at(&r, found[OM_SEC_WEIGHTS]);
	img->weights_size = found[OM_SEC_WEIGHTS] ? found[OM_SEC_WEIGHTS]->size : 0;
	img->variants = at(&r, found[OM_SEC_VARIANTS]);
	img->nvariants = found[OM_SEC_VARIANTS]->count;
	img->vdims = at(&r, found[OM_SEC_VARIANT_DIMS]);
	img->op_key = at(&r, key);
	img->aipp = at(&r, aipp);
	img->naipp = aipp ? aipp->count : 0;
	ret = check_strings(&r, img);
	if (!ret)
		ret = check_io(&r, img, found[OM_SEC_IO]->count);
	if (!ret && (uint64_t)img->nvariants * (img->nin + img->nout) !=
	    found[OM_SEC_VARIANT_DIMS]->count)
		ret = fail(&r, OM_ERR_PARSE, "VARIANT_DIMS has %u records, expected %u variants x %u io",
			   found[OM_SEC_VARIANT_DIMS]->count, img->nvariants,
			   img->nin + img->nout);
	if (!ret)
		ret = check_variants(&r, img);
	for (uint32_t i = 0; !ret && i < img->ntensors; i++)
		ret = check_tensor(&r, img, i);
	for (uint32_t i = 0; !ret && i < img->nnodes; i++)
		ret = check_node(&r, img, i);
	if (!ret)
		ret = check_variant_extents(&r, img);
	if (!ret)
		ret = om_check_aipp(img, why, len);
	return ret;
}
