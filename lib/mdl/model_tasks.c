// SPDX-License-Identifier: MIT
/*
 * A variant's nodes as driver tasks: a KERNEL task per operator node (its
 * argument block holds the tensors and, when the node has them, the
 * attributes), a COPY task per copy node. Weights get their real device
 * addresses; inputs, outputs and the arena get binding addresses
 * (DRM_VNPU_BINDING_VA), which each replay's table fills in. The list is
 * registered as command buffers, cut where the driver's limits on tasks
 * and argument bytes per buffer require. A host node becomes the four
 * semaphore tasks of model_host.c, registered once per arena block with
 * that block's semaphore addresses.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../aicpu/aicpu.h"
#include "../core/device_io.h"
#include "../core/op_names.h"
#include "../core/prof_rt.h"
#include "model.h"
#include "model_dump.h"

#define KARGS_MAX (sizeof(struct drm_vnpu_kernel_args) + \
		   OM_MAX_NODE_TENSORS * sizeof(struct drm_vnpu_tensor) + \
		   sizeof(struct drm_vnpu_op_attrs))

static uint64_t tensor_va(const struct mdl_model *m, const struct om_tensor *t)
{
	switch (t->loc) {
	case OM_LOC_WEIGHT:
		return m->weights_va + t->offset;
	case OM_LOC_INPUT:
		return DRM_VNPU_BINDING_VA(t->index, t->offset);
	case OM_LOC_OUTPUT:
		return DRM_VNPU_BINDING_VA(m->nin + t->index, t->offset);
	default:
		return DRM_VNPU_BINDING_VA(m->nin + m->nout, t->offset);
	}
}

/* The argument block of an operator node; returns its size in bytes. */
static uint32_t kernel_args(const struct mdl_model *m, const struct om_image *img,
			    const struct om_node *n, uint8_t *out)
{
	struct drm_vnpu_kernel_args *ka = (void *)out;
	struct drm_vnpu_tensor *dt = ka->tensors;
	uint32_t nt = n->num_inputs + n->num_outputs;

	memset(out, 0, KARGS_MAX);
	ka->num_inputs = n->num_inputs;
	ka->num_outputs = n->num_outputs;
	for (uint32_t k = 0; k < nt; k++) {
		const struct om_tensor *t = &img->tensors[n->tensors[k]];

		dt[k].va = tensor_va(m, t);
		dt[k].dtype = t->dtype;
		dt[k].rank = t->rank;
		memcpy(dt[k].shape, t->shape, sizeof(dt[k].shape));
		memcpy(dt[k].strides, t->strides, sizeof(dt[k].strides));
	}
	if (n->has_attrs) {
		struct drm_vnpu_op_attrs *at = (void *)&dt[nt];

		ka->attr_size = sizeof(*at);
		memcpy(at->ints, n->ints, sizeof(at->ints));
		memcpy(at->floats, n->floats, sizeof(at->floats));
	}
	return (uint32_t)(sizeof(*ka) + nt * sizeof(*dt) + ka->attr_size);
}

/* "in0;in1|out0" with dims as "1,3,224,224", for the profiler. */
static void node_shapes(const struct om_image *img, const struct om_node *n,
			char *out, size_t len)
{
	size_t o = 0;

	out[0] = 0;
	for (uint32_t k = 0; k < n->num_inputs + n->num_outputs; k++) {
		const struct om_tensor *t = &img->tensors[n->tensors[k]];

		if (k && o < len)
			o += (size_t)snprintf(out + o, len - o, "%s",
					      k == n->num_inputs ? "|" : ";");
		for (uint32_t d = 0; d < t->rank && o < len; d++)
			o += (size_t)snprintf(out + o, len - o, d ? ",%lld" : "%lld",
					      (long long)t->shape[d]);
	}
	if (o >= len)
		out[len - 1] = 0;
}

/*
 * The tag of a node's tasks: its operator, its node name, the model.
 * Made at load so the command buffers carry it.
 */
static uint32_t node_tag(const struct mdl_model *m, const struct om_image *img,
			 const struct om_node *n)
{
	char shapes[512];
	const char *type;
	uint32_t kind = PROF_TASK_AI_CORE;

	if (n->op & OM_OP_HOST) {
		type = aicpu_op_name(n->op & ~OM_OP_HOST);
		kind = PROF_TASK_AI_CPU;
	} else if (n->op == OM_OP_COPY) {
		type = "Copy";
		kind = PROF_TASK_MEMCPY;
	} else {
		type = op_type_name(n->op);
	}
	node_shapes(img, n, shapes, sizeof(shapes));
	return prof_tag_intern(type, img->strings + n->name, m->id, kind,
			       shapes);
}

/* The four tasks of host node k (semaphore slots 2k and 2k + 1). */
static void host_tasks(struct mdl_variant *va, uint32_t k)
{
	struct drm_vnpu_task *t = &va->tasks[va->ntasks];
	uint32_t *hs = &va->hslot[va->ntasks];

	memset(t, 0, 4 * sizeof(*t));
	t[0].type = DRM_VNPU_TASK_WRITE_VALUE;	/* done = 0 */
	hs[0] = 2 * k + 2;
	t[1].type = DRM_VNPU_TASK_WRITE_VALUE;	/* ready = 1 */
	t[1].value.value = 1;
	hs[1] = 2 * k + 1;
	t[2].type = DRM_VNPU_TASK_WAIT_VALUE;	/* done >= 1 */
	t[2].value.value = 1;
	t[2].value.cond = DRM_VNPU_WAIT_GEQ;
	hs[2] = 2 * k + 2;
	t[3].type = DRM_VNPU_TASK_WAIT_VALUE;	/* done == 1, or fail now */
	t[3].value.value = 1;
	t[3].value.cond = DRM_VNPU_WAIT_EQ;
	t[3].value.timeout_ns = 1;
	hs[3] = 2 * k + 2;
	va->ntasks += 4;
}

static int variant_tasks(struct mdl_model *m, const struct om_image *img,
			 uint32_t v)
{
	const struct om_variant *ov = &img->variants[v];
	struct mdl_variant *va = &m->var[v];
	size_t cap = (size_t)ov->node_count * KARGS_MAX;
	uint32_t k = 0;

	size_t ntasks = (size_t)ov->node_count + 3 * va->nhost;

	for (uint32_t i = 0; i < ov->node_count; i++)
		ntasks += model_dump_tasks_of(m, img, &img->nodes[ov->first_node + i]);
	va->tasks = calloc(ntasks, sizeof(*va->tasks));
	va->hslot = calloc(ntasks, sizeof(*va->hslot));
	va->args = malloc(cap);
	if (!va->tasks || !va->args || !va->hslot)
		return -ENOMEM;
	va->ntasks = 0;
	for (uint32_t i = 0; i < ov->node_count; i++) {
		const struct om_node *n = &img->nodes[ov->first_node + i];
		struct drm_vnpu_task *t = &va->tasks[va->ntasks];
		/* Older drivers reject a non-zero tag. */
		uint32_t tag = m->dev->prof_tags ? node_tag(m, img, n) : 0;

		if (n->op & OM_OP_HOST) {
			host_tasks(va, k++);
			for (int h = 0; h < 4; h++)
				t[h].tag = tag;
			if (model_dump_node(m, img, n, i, va))
				return -ENOMEM;
			continue;
		}
		va->ntasks++;

		if (n->op == OM_OP_COPY) {
			const struct om_tensor *src = &img->tensors[n->tensors[0]];

			t->type = DRM_VNPU_TASK_COPY;
			t->copy.src = tensor_va(m, src);
			t->copy.dst = tensor_va(m, &img->tensors[n->tensors[1]]);
			t->copy.size = om_dense_bytes(src->dtype, src->rank, src->shape);
			if (!t->copy.size) {
				/* an empty tensor: a NOP, whose payload must be zero */
				memset(t, 0, sizeof(*t));
				t->type = DRM_VNPU_TASK_NOP;
			}
			t->tag = tag;
			continue;
		}
		t->tag = tag;
		t->type = DRM_VNPU_TASK_KERNEL;
		t->kernel.op = n->op;
		t->kernel.args_offset = va->args_len;
		t->kernel.args_size = kernel_args(m, img, n, va->args + va->args_len);
		va->args_len += t->kernel.args_size;
		if (model_dump_node(m, img, n, i, va))
			return -ENOMEM;
	}
	return 0;
}

uint64_t model_tensor_va(const struct mdl_model *m, const struct om_tensor *t)
{
	return tensor_va(m, t);
}

int model_build_tasks(struct mdl_model *m, const struct om_image *img)
{
	int ret = 0;

	for (uint32_t v = 0; !ret && v < m->nvar; v++)
		ret = variant_tasks(m, img, v);
	if (!ret && m->dump)
		ret = model_dump_alloc(m);
	return ret;
}

/*
 * Register one variant, cut into pieces the driver accepts; with host
 * nodes, for arena block b (their semaphores' addresses). Every block
 * cuts the same pieces.
 */
static int variant_register(struct mdl_model *m, struct mdl_variant *va,
			    uint32_t b)
{
	uint32_t slots = m->nin + m->nout + 1, i = 0;
	struct drm_vnpu_task *tasks = malloc(va->ntasks * sizeof(*tasks));
	uint8_t *args = malloc(va->args_len ? va->args_len : 1);
	uint32_t nb = va->nhost ? m->nblocks : 1;
	int ret = 0;

	if (!va->cmdbufs)
		va->cmdbufs = calloc((size_t)va->ntasks * nb, sizeof(*va->cmdbufs));
	if (!tasks || !args || !va->cmdbufs)
		ret = -ENOMEM;
	while (!ret && i < va->ntasks) {
		uint32_t count = 0, alen = 0;

		while (i < va->ntasks && count < DRM_VNPU_MAX_TASKS) {
			struct drm_vnpu_task t = va->tasks[i];

			if (t.type == DRM_VNPU_TASK_KERNEL) {
				if (alen + t.kernel.args_size > DRM_VNPU_MAX_ARGS_SIZE)
					break;
				memcpy(args + alen, va->args + t.kernel.args_offset,
				       t.kernel.args_size);
				t.kernel.args_offset = alen;
				alen += t.kernel.args_size;
			}
			if (va->hslot[i])
				t.value.addr = model_host_slot_va(m, b, va->hslot[i] - 1);
			tasks[count++] = t;
			i++;
		}
		ret = device_cmdbuf_create(m->dev, tasks, count,
					      alen ? args : NULL, alen, slots,
					      &va->cmdbufs[va->npieces]);
		if (!ret)
			va->npieces++;
	}
	free(tasks);
	free(args);
	return ret;
}

int model_register(struct mdl_model *m)
{
	int ret = 0;

	for (uint32_t v = 0; !ret && v < m->nvar; v++) {
		struct mdl_variant *va = &m->var[v];
		uint32_t per;

		ret = variant_register(m, va, 0);
		per = va->npieces;
		for (uint32_t b = 1; !ret && va->nhost && b < m->nblocks; b++) {
			ret = variant_register(m, va, b);
			if (!ret && va->npieces != per * (b + 1))
				ret = -EINVAL;	/* the cuts depend only on the tasks */
		}
		if (va->nhost)
			va->npieces = per;	/* per block; the rest follow */
	}
	return ret;
}

void model_release_tasks(struct mdl_model *m, bool kernel)
{
	for (uint32_t v = 0; m->var && v < m->nvar; v++) {
		struct mdl_variant *va = &m->var[v];

		uint32_t total = va->npieces * (va->nhost ? m->nblocks : 1);

		for (uint32_t p = 0; kernel && va->cmdbufs && p < total; p++)
			device_cmdbuf_destroy(m->dev, va->cmdbufs[p]);
		free(va->cmdbufs);
		free(va->hslot);
		va->hslot = NULL;
		free(va->tasks);
		free(va->args);
		va->cmdbufs = NULL;
		va->tasks = NULL;
		va->args = NULL;
		va->npieces = 0;
	}
}
