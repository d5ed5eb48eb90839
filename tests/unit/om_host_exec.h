/* SPDX-License-Identifier: MIT */
/*
 * A host executor of .om files for atc's tests: it runs one variant's
 * nodes in order with the host build of the operator library (the code
 * the device runs), every tensor resolved from its location (arena,
 * weights, input or output buffer) as a loader resolves it. Minimal
 * checks: it is for files atc just wrote, not a loader.
 */
#ifndef OM_HOST_EXEC_H
#define OM_HOST_EXEC_H

#include <stdlib.h>
#include <string.h>

#include "om_format.h"
#include "vnpu_ops_host.h"
#include "../../lib/aicpu/aicpu.h"

/* Bytes per element as the .om sizes buffers: a string's share of its buffer. */
static inline uint64_t omx_dtype_size(uint32_t dtype)
{
	return dtype == OM_DTYPE_STRING ? OM_STRING_ELEM_BYTES : vnpu_dtype_size(dtype);
}

/* An output's dims after a run (the io record's unless a host node set them). */
struct omx_dims {
	uint32_t rank;
	int64_t dims[OM_MAX_RANK];
};

struct om_exec {
	const uint8_t *file;
	const struct om_section *sec[8];	/* by type */
};

static inline int omx_open(struct om_exec *x, const uint8_t *file, size_t len)
{
	const struct om_header *h = (const void *)file;
	const struct om_section *s = (const void *)(file + sizeof(*h));
	uint32_t i;

	memset(x, 0, sizeof(*x));
	if (len < sizeof(*h) || h->magic != OM_MAGIC || h->section_count > 16)
		return -1;
	x->file = file;
	for (i = 0; i < h->section_count; i++)
		if (s[i].type < 8)
			x->sec[s[i].type] = &s[i];
	for (i = OM_SEC_STRINGS; i <= OM_SEC_VARIANT_DIMS; i++)
		if (!x->sec[i])
			return -1;
	return 0;
}

static inline const void *omx_sec(const struct om_exec *x, uint32_t type)
{
	return x->file + x->sec[type]->offset;
}

/* Run a host node on the resolved tensors; outputs' dims into out_dims. */
static inline int omx_host_node(const struct om_node *n,
				const struct om_tensor *ts, uint8_t **base,
				struct omx_dims *out_dims)
{
	struct aicpu_call *c = calloc(1, sizeof(*c));
	uint32_t k, nt = n->num_inputs + n->num_outputs;
	int ret;

	if (!c)
		return -1;
	c->op = n->op & ~OM_OP_HOST;
	c->nin = n->num_inputs;
	c->nout = n->num_outputs;
	memcpy(c->ints, n->ints, sizeof(c->ints));
	memcpy(c->floats, n->floats, sizeof(c->floats));
	for (k = 0; k < nt; k++) {
		const struct om_tensor *o = &ts[n->tensors[k]];
		uint64_t bytes = omx_dtype_size(o->dtype);
		uint32_t d;

		for (d = 0; d < o->rank; d++)
			bytes *= (uint64_t)o->shape[d];
		c->t[k].data = base[k];
		c->t[k].dtype = o->dtype;
		c->t[k].rank = o->rank;
		memcpy(c->t[k].dims, o->shape, sizeof(o->shape));
		c->t[k].cap = bytes;
	}
	ret = aicpu_run(c);
	for (k = n->num_inputs; !ret && out_dims && k < nt; k++) {
		const struct om_tensor *o = &ts[n->tensors[k]];

		if (o->loc != OM_LOC_OUTPUT || o->offset)
			continue;
		out_dims[o->index].rank = c->t[k].rank;
		memcpy(out_dims[o->index].dims, c->t[k].dims,
		       sizeof(out_dims[0].dims));
	}
	free(c);
	return ret;
}

/*
 * Run variant v with io[k] the caller's buffers (inputs, then outputs).
 * Returns 0, or the index + 1 of the node whose check() failed or whose
 * pieces refused their data (vnpu_op_bad_data()). When
 * out_dims is not NULL it gets every output's dims: the variant's, or
 * those a host node wrote.
 */
static inline int omx_run_dims(const struct om_exec *x, uint32_t v, void **io,
			       struct omx_dims *out_dims)
{
	const struct om_variant *var = (const struct om_variant *)
				       omx_sec(x, OM_SEC_VARIANTS) + v;
	const struct om_node *nodes = omx_sec(x, OM_SEC_NODES);
	const struct om_tensor *ts = omx_sec(x, OM_SEC_TENSORS);
	const struct om_io *ios = omx_sec(x, OM_SEC_IO);
	uint8_t *weights = (uint8_t *)omx_sec(x, OM_SEC_WEIGHTS);
	uint8_t *arena = aligned_alloc(64, (var->arena_size + 63) & ~63ull);
	void *scratch = aligned_alloc(64, VNPU_OPS_SCRATCH);
	struct vnpu_op_call *c = calloc(1, sizeof(*c));
	uint32_t nin = 0, i, k, cpu = vnpu_ops_host_cpu(), bad = 0;
	int ret = 0;

	while (nin < x->sec[OM_SEC_IO]->count && !(ios[nin].flags & OM_IO_OUTPUT))
		nin++;
	for (i = 0; out_dims && nin + i < x->sec[OM_SEC_IO]->count; i++) {
		const struct om_dims *vd = (const struct om_dims *)
			omx_sec(x, OM_SEC_VARIANT_DIMS) +
			(size_t)v * x->sec[OM_SEC_IO]->count + nin + i;

		out_dims[i].rank = vd->rank;
		memcpy(out_dims[i].dims, vd->dims, sizeof(vd->dims));
	}
	/* garbage in the arena: a plan that reads before writing shows */
	memset(arena, 0x7f, var->arena_size);
	for (i = var->first_node; i < var->first_node + var->node_count && !ret; i++) {
		const struct om_node *n = &nodes[i];
		const struct vnpu_op_impl *impl;
		uint64_t t;

		uint8_t *hb[OM_MAX_NODE_TENSORS];

		memset(c, 0, sizeof(*c));
		for (k = 0; k < n->num_inputs + n->num_outputs; k++) {
			const struct om_tensor *o = &ts[n->tensors[k]];
			uint8_t *base = o->loc == OM_LOC_ARENA ? arena :
					o->loc == OM_LOC_WEIGHT ? weights :
					o->loc == OM_LOC_INPUT ? io[o->index] :
					io[nin + o->index];

			c->t[k].data = base + o->offset;
			hb[k] = base + o->offset;
			c->t[k].dtype = o->dtype;
			c->t[k].rank = o->rank;
			memcpy(c->t[k].shape, o->shape, sizeof(o->shape));
			memcpy(c->t[k].strides, o->strides, sizeof(o->strides));
		}
		if (n->op & OM_OP_HOST) {
			if (omx_host_node(n, ts, hb, out_dims)) {
				ret = (int)(i - var->first_node) + 1;
				break;
			}
			continue;
		}
		if (n->op == OM_OP_COPY) {
			uint64_t bytes = omx_dtype_size(c->t[0].dtype) *
					 vnpu_tview_elems(&c->t[0]);

			memmove(c->t[1].data, c->t[0].data, bytes);
			continue;
		}
		c->op = n->op;
		c->num_in = n->num_inputs;
		c->num_out = n->num_outputs;
		c->has_attrs = n->has_attrs;
		memcpy(c->attrs.ints, n->ints, sizeof(n->ints));
		memcpy(c->attrs.floats, n->floats, sizeof(n->floats));
		c->scratch = scratch;
		c->cpu = cpu;
		impl = vnpu_op_find(n->op);
		if (!impl || vnpu_op_check(impl, c)) {
			ret = (int)(i - var->first_node) + 1;
			break;
		}
		/* values an operator refuses at run time fail the node too */
		c->bad_data = &bad;
		for (t = 0; t < impl->tiles(c); t++)
			impl->run(c, t);
		if (bad)
			ret = (int)(i - var->first_node) + 1;
	}
	free(c);
	free(scratch);
	free(arena);
	return ret;
}

static inline int omx_run(const struct om_exec *x, uint32_t v, void **io)
{
	return omx_run_dims(x, v, io, NULL);
}

#endif /* OM_HOST_EXEC_H */
