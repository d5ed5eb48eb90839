// SPDX-License-Identifier: MIT
/*
 * One execution of a model variant on a stream. Normally, through core's
 * stream_submit_cmdbufs() (which holds the stream's lock, then ours):
 * flush the stream's pending batch, then one SUBMIT per command buffer of
 * the variant with the binding table (inputs, outputs, arena) as the
 * stream's next jobs, so events, syncs and queries see them like any other work.
 * On a capturing stream the variant's tasks are recorded instead, their
 * bindings resolved to this call's buffers and to an arena kept for
 * captured graphs.
 *
 * A model with host nodes (model_host.c) takes an arena whose last job is
 * done and submits that arena's registration of the command buffers; a
 * capture records the host nodes' semaphore tasks on a capture block.
 */
#include <errno.h>
#include <string.h>

#include "../core/graph.h"
#include "model.h"

static int capture_run(struct mdl_model *m, struct mdl_variant *v,
		       struct rt_stream *s, uint64_t *table)
{
	uint8_t args[sizeof(struct drm_vnpu_kernel_args) +
		     OM_MAX_NODE_TENSORS * sizeof(struct drm_vnpu_tensor) +
		     sizeof(struct drm_vnpu_op_attrs)];
	int ret = 0, b = 0;

	pthread_mutex_lock(&m->lock);
	if (!m->cap_arena && m->arena_size) {
		ret = alloc_device(m->dev, m->arena_size, false, &m->cap_arena);
		if (!ret)
			m->cap_va = copy_side_va(m->dev, m->cap_arena, m->arena_size);
	}
	table[m->nin + m->nout] = m->cap_va;
	pthread_mutex_unlock(&m->lock);
	if (!ret && v->nhost) {
		b = model_host_capture_block(m, v, table);
		ret = b < 0 ? b : 0;
	}
	for (uint32_t i = 0; !ret && i < v->ntasks; i++) {
		struct drm_vnpu_task t = v->tasks[i];
		struct drm_vnpu_kernel_args *ka = (void *)args;

		if (v->hslot[i]) {
			t.value.addr = model_host_slot_va(m, (uint32_t)b, v->hslot[i] - 1);
			ret = stream_push(s, &t, NULL);
			continue;
		}
		if (t.type != DRM_VNPU_TASK_KERNEL) {
			t.copy.src = binding_resolve(t.copy.src, table);
			t.copy.dst = binding_resolve(t.copy.dst, table);
			ret = stream_push(s, &t, NULL);
			continue;
		}
		memcpy(args, v->args + t.kernel.args_offset, t.kernel.args_size);
		for (uint32_t k = 0; k < ka->num_inputs + ka->num_outputs; k++)
			ka->tensors[k].va = binding_resolve(ka->tensors[k].va, table);
		ret = stream_push_kernel(s, t.kernel.op, args, t.kernel.args_size, NULL);
	}
	return ret;
}

/* One execution's state, for stream_submit_cmdbufs()'s callbacks. */
struct run {
	struct mdl_model *m;
	struct mdl_variant *v;
	struct aclmdlDataset *out;
	uint64_t *table;
	struct mdl_arena *a;
	struct drm_vnpu_sync wait;
	bool must_wait;
	uint64_t base;		/* the arena's block of command buffers */
};

/* Under the stream's lock: the model's lock, then an arena. */
static int run_begin(void *arg, const struct rt_stream *s,
		     const struct stream_point *now)
{
	struct run *r = arg;
	struct mdl_model *m = r->m;
	int ret;

	pthread_mutex_lock(&m->lock);
	if (m->hmax)
		ret = arena_pick_idle(m, &r->a);
	else
		ret = arena_pick(m, s, now, &r->a, &r->wait, &r->must_wait);
	if (ret)
		pthread_mutex_unlock(&m->lock);
	return ret;
}

/* The stream's earlier tasks went out: bind the arena, arm host nodes. */
static int run_ready(void *arg, uint32_t queue_id)
{
	struct run *r = arg;
	struct mdl_model *m = r->m;

	r->table[m->nin + m->nout] = r->a->va;
	if (r->v->nhost) {
		r->base = (uint64_t)(r->a - m->arenas) * r->v->npieces;
		model_host_arm(m, (uint32_t)(r->a - m->arenas), r->v, r->table,
			       r->out, queue_id);
	}
	return 0;
}

static bool run_next(void *arg, uint32_t p, struct drm_vnpu_submit *sub)
{
	struct run *r = arg;
	struct mdl_model *m = r->m;

	if (p >= r->v->npieces)
		return false;
	*sub = (struct drm_vnpu_submit){
		.flags = DRM_VNPU_SUBMIT_CMDBUF | DRM_VNPU_SUBMIT_BINDINGS,
		.cmdbuf = r->v->cmdbufs[r->base + p],
		.args = (uintptr_t)r->table,
		.args_size = (m->nin + m->nout + 1) * sizeof(*r->table),
		.in_syncs = (uintptr_t)&r->wait,
		.in_sync_count = p == 0 && r->must_wait,
	};
	return true;
}

static void run_end(void *arg, const struct rt_stream *s,
		    const struct stream_point *after, bool moved)
{
	struct run *r = arg;

	/* Even a partly submitted run holds its arena until it ends. */
	if (moved)
		arena_used(r->a, s, after);
	pthread_mutex_unlock(&r->m->lock);
}

int model_run(struct mdl_model *m, struct mdl_variant *v,
	      struct rt_stream *s, const uint64_t *in_va,
	      const uint64_t *out_va, struct aclmdlDataset *out)
{
	uint64_t table[OM_MAX_SLOTS];
	struct run r = { .m = m, .v = v, .out = out, .table = table };
	const struct stream_cmdbuf_run run = {
		.begin = run_begin, .ready = run_ready, .next = run_next,
		.end = run_end, .arg = &r,
	};
	int ret;

	memcpy(table, in_va, m->nin * sizeof(*table));
	memcpy(table + m->nin, out_va, m->nout * sizeof(*table));
	table[m->nin + m->nout] = 0;
	ret = stream_submit_cmdbufs(s, &run);
	if (ret == STREAM_CAPTURING)
		return capture_run(m, v, s, table);
	return ret;
}
