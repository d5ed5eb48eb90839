/* SPDX-License-Identifier: MIT */
/*
 * Profiling's view of models: the lookup lib/prof's operator subscription
 * uses (prof_model.h), and the tags of a model's tasks. Every KERNEL
 * task of a variant carries the tag of (its operator, its .om node's
 * name, the model id, AI_CORE, its shapes), so the kernel's task records
 * name the node (op_summary, subscription). Tags go into the registered
 * command buffers once, at load; only drivers that take tags get them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "vnpu_op_names.h"
#include "../core/prof_rt.h"
#include "../prof/prof_model.h"

static int model_prof_lookup(uint32_t id, int32_t *device)
{
	struct mdl_model *m;

	if (model_get(id, &m))
		return -ENOENT;
	*device = m->dev->id;
	model_put(m);
	return 0;
}

void model_prof_register(void)
{
	prof_model_register(model_prof_lookup);
}

/* "1,3,224,224;64,3,7,7|1,64,112,112": inputs, then outputs. */
static void node_shapes(const struct om_image *img, const struct om_node *n,
			char *buf, size_t len)
{
	uint32_t nt = n->num_inputs + n->num_outputs;
	size_t o = 0;

	buf[0] = '\0';
	for (uint32_t k = 0; k < nt && o < len; k++) {
		const struct om_tensor *t = &img->tensors[n->tensors[k]];

		if (k)
			o += (size_t)snprintf(buf + o, len - o, "%s",
					      k == n->num_inputs ? "|" : ";");
		for (uint32_t d = 0; d < t->rank && o < len; d++)
			o += (size_t)snprintf(buf + o, len - o, "%s%lld",
					      d ? "," : "",
					      (long long)t->shape[d]);
	}
}

static const char *op_type(uint32_t op)
{
	const char *s = op < sizeof(vnpu_op_names) / sizeof(vnpu_op_names[0]) ?
			vnpu_op_names[op] : NULL;

	return s ? s : "Unknown";
}

void model_prof_tag_tasks(struct mdl_model *m, const struct om_image *img)
{
	char shapes[512];

	if (!m->dev->prof_tags)
		return;
	for (uint32_t v = 0; v < m->nvar; v++) {
		const struct om_variant *ov = &img->variants[v];
		struct mdl_variant *va = &m->var[v];
		uint32_t k = 0;

		/* The walk of variant_tasks (model_tasks.c). */
		for (uint32_t i = 0; i < ov->node_count && k < va->ntasks; i++) {
			const struct om_node *n = &img->nodes[ov->first_node + i];
			struct drm_vnpu_task *t;

			if (n->op & OM_OP_HOST) {
				k += 4;
				continue;
			}
			t = &va->tasks[k++];
			if (t->type != DRM_VNPU_TASK_KERNEL)
				continue;
			node_shapes(img, n, shapes, sizeof(shapes));
			t->tag = prof_tag_intern(op_type(n->op),
						 img->strings + n->name, m->id,
						 PROF_TASK_AI_CORE, shapes);
		}
	}
}
