// SPDX-License-Identifier: MIT
/*
 * One execution of a model variant on a stream. Normally: flush the
 * stream's pending batch, then one SUBMIT per command buffer of the
 * variant with the binding table (inputs, outputs, arena) as the stream's
 * next jobs, so events, syncs and queries see them like any other work.
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

int model_run(struct mdl_model *m, struct mdl_variant *v,
	      struct rt_stream *s, const uint64_t *in_va,
	      const uint64_t *out_va, struct aclmdlDataset *out)
{
	uint64_t table[OM_MAX_SLOTS];
	struct drm_vnpu_sync wait;
	struct mdl_arena *a;
	uint64_t before, base = 0;
	bool must_wait = false;
	int ret;

	memcpy(table, in_va, m->nin * sizeof(*table));
	memcpy(table + m->nin, out_va, m->nout * sizeof(*table));
	pthread_mutex_lock(&s->lock);
	if (s->graph) {
		pthread_mutex_unlock(&s->lock);
		return capture_run(m, v, s, table);
	}
	pthread_mutex_lock(&m->lock);
	if (m->hmax)
		ret = arena_pick_idle(m, &a);
	else
		ret = arena_pick(m, s, &a, &wait, &must_wait);
	if (!ret)
		ret = stream_flush_locked(s);
	table[m->nin + m->nout] = ret ? 0 : a->va;
	if (!ret && v->nhost) {
		base = (uint64_t)(a - m->arenas) * v->npieces;
		model_host_arm(m, (uint32_t)(a - m->arenas), v, table, out,
			       s->queue_id);
	}
	before = s->last_seq;
	for (uint32_t p = 0; !ret && p < v->npieces; p++) {
		struct drm_vnpu_submit req = {
			.queue_id = s->queue_id,
			.flags = DRM_VNPU_SUBMIT_CMDBUF | DRM_VNPU_SUBMIT_BINDINGS,
			.cmdbuf = v->cmdbufs[base + p],
			.args = (uintptr_t)table,
			.args_size = (m->nin + m->nout + 1) * sizeof(*table),
			.in_syncs = (uintptr_t)&wait,
			.in_sync_count = p == 0 && must_wait,
		};

		ret = stream_submit_locked(s, &req, false);
	}
	/* Even a partly submitted run holds its arena until it ends. */
	if (s->last_seq != before)
		arena_used(a, s);
	pthread_mutex_unlock(&m->lock);
	pthread_mutex_unlock(&s->lock);
	return ret;
}
