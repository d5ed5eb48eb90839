// SPDX-License-Identifier: MIT
/*
 * The model side of the data dump (model_dump.h): the selected nodes'
 * tensors copied by COPY tasks into a per-variant device buffer, read
 * back after the execution and handed to lib/dump one node at a time.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../aicpu/aicpu.h"
#include "../core/device_io.h"
#include "../core/op_names.h"
#include "../dump/dump.h"
#include "model.h"
#include "model_dump.h"

#define DUMP_ALIGN 64

static const char *node_type(const struct om_node *n)
{
	if (n->op & OM_OP_HOST)
		return aicpu_op_name(n->op & ~OM_OP_HOST);
	return op_type_name(n->op);
}

static bool wanted(const struct mdl_model *m, const struct om_image *img,
		   const struct om_node *n)
{
	return m->dump && n->op != OM_OP_COPY &&
	       dump_sel_layer(m->dump, img->strings + n->name);
}

/* Whether tensor k of n (inputs first) is on a side the mode keeps. */
static bool side_kept(const struct mdl_model *m, const struct om_node *n,
		      uint32_t k)
{
	uint32_t mode = dump_sel_mode(m->dump);

	return k < n->num_inputs ? (mode & DUMP_INPUT) : (mode & DUMP_OUTPUT);
}

uint32_t model_dump_tasks_of(const struct mdl_model *m, const struct om_image *img,
			     const struct om_node *n)
{
	uint32_t c = 0;

	if (!wanted(m, img, n))
		return 0;
	for (uint32_t k = 0; k < n->num_inputs + n->num_outputs; k++)
		c += side_kept(m, n, k);
	return c;
}

static int grow(void **p, uint32_t n, size_t sz)
{
	void *q;

	/* Powers of two: grow when n reaches one. */
	if (n & (n - 1))
		return 0;
	q = realloc(*p, (n ? 2 * (size_t)n : 4) * sz);
	if (!q)
		return -ENOMEM;
	*p = q;
	return 0;
}

int model_dump_node(struct mdl_model *m, const struct om_image *img,
		    const struct om_node *n, uint32_t index,
		    struct mdl_variant *va)
{
	struct mdl_vdump *d;
	struct mdl_dump_node *dn;

	if (!wanted(m, img, n))
		return 0;
	if (!va->dump && !(va->dump = calloc(1, sizeof(*va->dump))))
		return -ENOMEM;
	d = va->dump;
	if (grow((void **)&d->nodes, d->nnodes, sizeof(*d->nodes)))
		return -ENOMEM;
	dn = &d->nodes[d->nnodes];
	dn->type = strdup(node_type(n));
	dn->name = strdup(img->strings + n->name);
	if (!dn->type || !dn->name) {
		free(dn->type);
		free(dn->name);
		return -ENOMEM;
	}
	d->nnodes++;
	dn->index = index;
	dn->first = d->nt;
	dn->count = 0;
	for (uint32_t k = 0; k < n->num_inputs + n->num_outputs; k++) {
		const struct om_tensor *ot = &img->tensors[n->tensors[k]];
		struct mdl_dump_tensor *t;
		struct drm_vnpu_task *task;

		if (!side_kept(m, n, k))
			continue;
		if (grow((void **)&d->t, d->nt, sizeof(*d->t)))
			return -ENOMEM;
		t = &d->t[d->nt++];
		dn->count++;
		memset(t, 0, sizeof(*t));
		t->output = k >= n->num_inputs;
		t->index = t->output ? k - n->num_inputs : k;
		t->dtype = ot->dtype;
		t->format = 2;	/* ACL_FORMAT_ND: the .om keeps no format */
		t->rank = ot->rank;
		memcpy(t->dims, ot->shape, sizeof(t->dims));
		t->bytes = om_dense_bytes(ot->dtype, ot->rank, ot->shape);
		t->off = d->size;
		t->task = ~0u;
		d->size += (t->bytes + DUMP_ALIGN - 1) & ~(uint64_t)(DUMP_ALIGN - 1);
		if (!t->bytes)
			continue;
		/* The destination is patched in model_dump_alloc. */
		t->task = va->ntasks;
		task = &va->tasks[va->ntasks++];
		memset(task, 0, sizeof(*task));
		task->type = DRM_VNPU_TASK_COPY;
		task->copy.size = t->bytes;
		task->copy.dst = t->off;
		task->copy.src = model_tensor_va(m, ot);
	}
	return 0;
}

int model_dump_alloc(struct mdl_model *m)
{
	for (uint32_t v = 0; v < m->nvar; v++) {
		struct mdl_variant *va = &m->var[v];
		struct mdl_vdump *d = va->dump;
		int ret;

		if (!d || !d->size)
			continue;
		ret = alloc_device(m->dev, d->size, false, &d->buf);
		if (ret)
			return ret;
		d->buf_va = copy_side_va(m->dev, d->buf, d->size);
		for (uint32_t i = 0; i < d->nt; i++)
			if (d->t[i].task != ~0u)
				va->tasks[d->t[i].task].copy.dst += d->buf_va;
	}
	return 0;
}

int model_dump_after(struct mdl_model *m, struct mdl_variant *v,
		     struct rt_stream *s)
{
	struct mdl_vdump *d = v->dump;
	struct dump_tensor t[DUMP_MAX_TENSORS];
	struct dump_where w = { 0 };
	uint8_t *host;
	int ret;

	if (!d || !dump_active() || s->graph)
		return 0;
	w.iteration = atomic_fetch_add(&m->dump_iter, 1);
	if (!dump_sel_step(m->dump, w.iteration))
		return 0;
	ret = stream_sync(s, -1);
	if (ret)
		return ret;
	host = malloc(d->size ? d->size : 1);
	if (!host)
		return -ENOMEM;
	if (d->size)
		ret = device_copy(m->dev, (uintptr_t)host, d->buf_va, d->size,
				  DRM_VNPU_MEMCPY_SRC_DEVICE);
	w.sel = m->dump;
	w.model = m->name;
	w.model_id = m->id;
	w.device = m->dev->id;
	w.stream = s->queue_id;
	for (uint32_t i = 0; !ret && i < d->nnodes; i++) {
		const struct mdl_dump_node *dn = &d->nodes[i];
		uint32_t nt = dn->count < DUMP_MAX_TENSORS ? dn->count : DUMP_MAX_TENSORS;

		for (uint32_t k = 0; k < nt; k++) {
			const struct mdl_dump_tensor *mt = &d->t[dn->first + k];

			memset(&t[k], 0, sizeof(t[k]));
			t[k].output = mt->output;
			t[k].index = mt->index;
			t[k].dtype = mt->dtype;
			t[k].format = mt->format;
			t[k].rank = mt->rank;
			memcpy(t[k].dims, mt->dims, sizeof(t[k].dims));
			t[k].bytes = mt->bytes;
			t[k].data = host + mt->off;
		}
		w.task = dn->index;
		/* A file that cannot be written is logged; the run stands. */
		(void)dump_write_op(&w, dn->type, dn->name, t, nt);
	}
	free(host);
	return ret;
}

void model_dump_free(struct mdl_model *m, bool dev_alive)
{
	for (uint32_t v = 0; m->var && v < m->nvar; v++) {
		struct mdl_vdump *d = m->var[v].dump;

		if (!d)
			continue;
		for (uint32_t i = 0; i < d->nnodes; i++) {
			free(d->nodes[i].type);
			free(d->nodes[i].name);
		}
		free(d->nodes);
		free(d->t);
		if (d->buf && dev_alive)
			alloc_free(m->dev, d->buf);
		free(d);
		m->var[v].dump = NULL;
	}
	dump_sel_free(m->dump);
	m->dump = NULL;
	free(m->name);
	m->name = NULL;
}
