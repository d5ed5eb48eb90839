// SPDX-License-Identifier: MIT
/*
 * Host ("AI CPU") nodes of a model, run in stream order
 * (Documentation/aicpu.md).
 *
 * A host node is four tasks in the variant's command buffers, on two
 * 64-bit semaphores in a host BO the library maps:
 *     WRITE done = 0; WRITE ready = 1;
 *     WAIT done >= 1; WAIT done == 1 (timeout 1 ns)
 * The library's host-node thread sees ready == 1, clears it, runs the
 * operator and stores done = 1, or 2 when the operator failed: then the
 * second wait times out at once and the job fails, which fails the
 * stream as any failed job does; the failure is noted first
 * (lib/core/aicpu_fail.c), so the stream reports it as CANN does, as
 * ACL_ERROR_RT_AICPU_EXCEPTION rather than a task timeout. The device is never blocked on the
 * caller: aclmdlExecuteAsync only submits.
 *
 * Semaphore addresses are fixed in a command buffer, so every arena of
 * the pool has its own block of semaphores and its own registration of
 * the command buffers; an execution uses its arena's block, whose
 * bindings (struct mdl_hblock) say where the tensors are. A capture gets
 * a block of its own, its bindings fixed for every replay.
 *
 * The operator reads and writes device memory with DRM_VNPU_MEMCPY on
 * its tensors' device addresses: a bad address fails the copy (and the
 * node), never the process.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "../aicpu/aicpu.h"
#include "../core/host_bo.h"
#include "../core/log.h"
#include "../core/device_io.h"
#include "../core/tensor_desc.h"
#include "mdl_api.h"

static pthread_mutex_t hosts_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hosts_cond = PTHREAD_COND_INITIALIZER;
static struct mdl_model *hosts;	/* models with host nodes, loaded */
static pthread_once_t thread_once = PTHREAD_ONCE_INIT;
static int thread_err;

static size_t slots_bytes(const struct mdl_model *m)
{
	return (size_t)MDL_HOST_BLOCKS * m->hmax * 2 * sizeof(uint64_t);
}

uint64_t model_host_slot_va(const struct mdl_model *m, uint32_t block,
			    uint32_t slot)
{
	return m->slots_va + 8ull * ((uint64_t)block * m->hmax * 2 + slot);
}

static uint64_t *slot_ptr(const struct mdl_model *m, uint32_t block,
			  uint32_t slot)
{
	return &m->slots[(size_t)block * m->hmax * 2 + slot];
}

int model_host_init(struct mdl_model *m, const struct om_image *img)
{
	void *map;
	int ret;

	for (uint32_t v = 0; v < img->nvariants; v++) {
		const struct om_variant *ov = &img->variants[v];
		struct mdl_variant *va = &m->var[v];
		uint32_t n = 0;

		for (uint32_t i = 0; i < ov->node_count; i++)
			n += !!(img->nodes[ov->first_node + i].op & OM_OP_HOST);
		if (!n)
			continue;
		va->hnodes = calloc(n, sizeof(*va->hnodes));
		if (!va->hnodes)
			return -ENOMEM;
		for (uint32_t i = 0; i < ov->node_count; i++) {
			const struct om_node *on = &img->nodes[ov->first_node + i];
			struct mdl_hnode *h = &va->hnodes[va->nhost];

			if (!(on->op & OM_OP_HOST))
				continue;
			h->op = on->op & ~OM_OP_HOST;
			h->nin = on->num_inputs;
			h->nout = on->num_outputs;
			for (uint32_t k = 0; k < h->nin + h->nout; k++)
				h->t[k] = img->tensors[on->tensors[k]];
			memcpy(h->ints, on->ints, sizeof(h->ints));
			memcpy(h->floats, on->floats, sizeof(h->floats));
			snprintf(h->name, sizeof(h->name), "%s", img->strings + on->name);
			va->nhost++;
		}
		if (n > m->hmax)
			m->hmax = n;
	}
	if (!m->hmax)
		return 0;
	m->blocks = calloc(MDL_HOST_BLOCKS, sizeof(*m->blocks));
	m->cur_out = calloc(m->nout, sizeof(*m->cur_out));
	if (!m->blocks || !m->cur_out)
		return -ENOMEM;
	m->nblocks = m->fixed ? 1 : MDL_POOL_MAX;
	ret = host_bo_create(m->dev->fd, slots_bytes(m), &m->slots_handle,
			     &m->slots_va, &map);
	if (ret)
		return ret;
	m->slots = map;
	memset(m->slots, 0, slots_bytes(m));
	return 0;
}

void model_host_free(struct mdl_model *m, bool kernel)
{
	for (uint32_t v = 0; m->var && v < m->nvar; v++) {
		free(m->var[v].hnodes);
		m->var[v].hnodes = NULL;
	}
	if (m->slots && kernel)
		host_bo_destroy(m->dev->fd, m->slots_handle, m->slots,
				slots_bytes(m));
	else if (m->slots)
		munmap(m->slots, slots_bytes(m));	/* the handle died with the reset */
	m->slots = NULL;
	free(m->blocks);
	free(m->cur_out);
	m->blocks = NULL;
	m->cur_out = NULL;
}

void model_host_arm(struct mdl_model *m, uint32_t b, struct mdl_variant *v,
		    const uint64_t *table, struct aclmdlDataset *out,
		    uint32_t queue_id)
{
	struct mdl_hblock *blk = &m->blocks[b];

	/*
	 * The block's last job is done (arena_pick_idle saw it end): its
	 * semaphores are at rest, and the host thread's last use of the
	 * block happened before (host_edge.c carries that edge).
	 */
	host_done_acquire();
	for (uint32_t k = 0; k < 2 * m->hmax; k++)
		__atomic_store_n(slot_ptr(m, b, k), 0, __ATOMIC_RELAXED);
	memcpy(blk->table, table, sizeof(blk->table));
	blk->out = out;
	blk->capture = false;
	blk->queue_id = queue_id;
	__atomic_store_n(&blk->var, v, __ATOMIC_RELEASE);
	pthread_mutex_lock(&hosts_lock);
	m->hpending += v->nhost;
	pthread_cond_broadcast(&hosts_cond);
	pthread_mutex_unlock(&hosts_lock);
}

int model_host_capture_block(struct mdl_model *m, struct mdl_variant *v,
			     const uint64_t *table)
{
	struct mdl_hblock *blk;
	uint32_t b;

	pthread_mutex_lock(&hosts_lock);
	if (m->ncaps >= MDL_CAP_BLOCKS) {
		pthread_mutex_unlock(&hosts_lock);
		return -ENOSPC;
	}
	b = MDL_POOL_MAX + m->ncaps++;
	blk = &m->blocks[b];
	memcpy(blk->table, table, sizeof(blk->table));
	blk->out = NULL;
	blk->capture = true;
	__atomic_store_n(&blk->var, v, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&hosts_cond);
	pthread_mutex_unlock(&hosts_lock);
	return (int)b;
}

/* Device address of a node's tensor in the bindings of blk. */
static uint64_t tensor_va(const struct mdl_model *m, const struct mdl_hblock *blk,
			  const struct om_tensor *t)
{
	switch (t->loc) {
	case OM_LOC_WEIGHT:
		return m->weights_va + t->offset;
	case OM_LOC_INPUT:
		return blk->table[t->index] + t->offset;
	case OM_LOC_OUTPUT:
		return blk->table[m->nin + t->index] + t->offset;
	default:
		return blk->table[m->nin + m->nout] + t->offset;
	}
}

/* The real dims of a dynamic output: the model's, the dataset's desc. */
static void report_dims(struct mdl_model *m, struct mdl_hblock *blk,
			const struct om_tensor *t, const struct aicpu_tensor *r)
{
	struct om_dims *d;

	if (t->loc != OM_LOC_OUTPUT || t->offset || t->index >= m->nout ||
	    !(m->io[m->nin + t->index].flags & OM_IO_DYNAMIC))
		return;
	d = &m->cur_out[t->index];
	d->rank = r->rank;
	memcpy(d->dims, r->dims, sizeof(d->dims));
	/* Failures are recorded under the public name, as before. */
	if (blk->out && t->index < blk->out->n && blk->out->desc[t->index])
		tensor_desc_set_shape("aclSetTensorShape",
				      blk->out->desc[t->index], (int)r->rank,
				      r->dims);
}

/* Stage the tensors, run the operator, write the outputs back. */
static int run_node(struct mdl_model *m, struct mdl_hblock *blk,
		    const struct mdl_hnode *h)
{
	struct aicpu_call *c = calloc(1, sizeof(*c));
	uint32_t nt = h->nin + h->nout, k;
	int ret = c ? 0 : -ENOMEM;

	for (k = 0; !ret && k < nt; k++) {
		const struct om_tensor *t = &h->t[k];
		uint64_t bytes = om_dense_bytes(t->dtype, t->rank, t->shape);

		c->t[k].dtype = t->dtype;
		c->t[k].rank = t->rank;
		memcpy(c->t[k].dims, t->shape, sizeof(c->t[k].dims));
		c->t[k].cap = bytes;
		c->t[k].data = malloc(bytes ? bytes : 1);
		if (!c->t[k].data)
			ret = -ENOMEM;
		else if (k < h->nin && bytes)
			ret = device_copy(m->dev, (uintptr_t)c->t[k].data,
					 tensor_va(m, blk, t), bytes,
					 DRM_VNPU_MEMCPY_SRC_DEVICE);
	}
	if (!ret) {
		c->op = h->op;
		c->nin = h->nin;
		c->nout = h->nout;
		memcpy(c->ints, h->ints, sizeof(c->ints));
		memcpy(c->floats, h->floats, sizeof(c->floats));
		ret = aicpu_run(c);
		if (ret)
			rt_log(LOG_ERROR, "host node %s: %s", h->name, c->why);
	}
	for (k = h->nin; !ret && k < nt; k++) {
		uint64_t bytes = (uint64_t)aicpu_numel(&c->t[k]) *
				 aicpu_dtype_size(c->t[k].dtype);

		/* a string tensor's text follows its heads: the whole buffer */
		if (c->t[k].dtype == OM_DTYPE_STRING)
			bytes = c->t[k].cap;

		if (bytes)
			ret = device_copy(m->dev, tensor_va(m, blk, &h->t[k]),
					 (uintptr_t)c->t[k].data, bytes,
					 DRM_VNPU_MEMCPY_DST_DEVICE);
		if (!ret)
			report_dims(m, blk, &h->t[k], &c->t[k]);
	}
	for (k = 0; c && k < nt; k++)
		free(c->t[k].data);
	free(c);
	return ret;
}

/*
 * Run every host node whose "ready" is set. Called with hosts_lock held;
 * the operator runs without it (executions being armed meanwhile take
 * it), the model kept on the list by hrunning.
 */
static int serve_locked(void)
{
	int ran = 0;

again:
	for (struct mdl_model *m = hosts; m; m = m->hnext)
		for (uint32_t b = 0; b < MDL_HOST_BLOCKS; b++) {
			struct mdl_hblock *blk = &m->blocks[b];
			struct mdl_variant *v = __atomic_load_n(&blk->var, __ATOMIC_ACQUIRE);

			for (uint32_t k = 0; v && k < v->nhost; k++) {
				uint64_t *ready = slot_ptr(m, b, 2 * k);
				bool armed;
				int ret;

				if (__atomic_load_n(ready, __ATOMIC_ACQUIRE) != 1)
					continue;
				__atomic_store_n(ready, 0, __ATOMIC_RELAXED);
				/* once "done" is set the block may be armed again */
				armed = !blk->capture;
				m->hrunning++;
				pthread_mutex_unlock(&hosts_lock);
				ret = run_node(m, blk, &v->hnodes[k]);
				/* noted before "done" = 2 makes the job fail */
				if (ret)
					aicpu_fail_note(m->dev, blk->queue_id,
							blk->capture);
				host_done_release();	/* before "done" lets the job go on */
				pthread_mutex_lock(&hosts_lock);
				__atomic_store_n(slot_ptr(m, b, 2 * k + 1), ret ? 2 : 1,
						 __ATOMIC_RELEASE);
				if (armed && m->hpending)
					m->hpending--;
				m->hrunning--;
				pthread_cond_broadcast(&hosts_cond);
				ran++;
				goto again;	/* the list may have changed */
			}
		}
	return ran;
}

/* Whether some model may have a host node about to be ready. */
static bool awaited_locked(void)
{
	for (struct mdl_model *m = hosts; m; m = m->hnext)
		if (m->hpending || m->ncaps)
			return true;
	return false;
}

static void *host_thread(void *unused)
{
	struct timespec ts = { 0, 0 };
	long us = 20;

	(void)unused;
	pthread_mutex_lock(&hosts_lock);
	for (;;) {
		while (!awaited_locked()) {
			pthread_cond_wait(&hosts_cond, &hosts_lock);
			us = 20;
		}
		if (serve_locked()) {
			us = 20;
			continue;
		}
		pthread_mutex_unlock(&hosts_lock);
		ts.tv_nsec = us * 1000;
		nanosleep(&ts, NULL);
		if (us < 1000)
			us *= 2;
		pthread_mutex_lock(&hosts_lock);
	}
	return NULL;
}

static void thread_start(void)
{
	pthread_attr_t a;
	pthread_t t;

	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	thread_err = -pthread_create(&t, &a, host_thread, NULL);
	pthread_attr_destroy(&a);
}

int model_host_start(struct mdl_model *m)
{
	if (!m->hmax)
		return 0;
	pthread_once(&thread_once, thread_start);
	if (thread_err)
		return thread_err;
	pthread_mutex_lock(&hosts_lock);
	m->hnext = hosts;
	hosts = m;
	pthread_mutex_unlock(&hosts_lock);
	return 0;
}

/*
 * In a forked child the parent's models are not ours (their BOs belong to
 * the parent's drm_file) and the thread did not survive the fork.
 */
void model_host_forget_after_fork(void)
{
	pthread_mutex_init(&hosts_lock, NULL);
	pthread_cond_init(&hosts_cond, NULL);
	hosts = NULL;
	thread_once = (pthread_once_t)PTHREAD_ONCE_INIT;
	thread_err = 0;
}

/* After the model's jobs are done: off the list (not running a node). */
void model_host_stop(struct mdl_model *m)
{
	if (!m->hmax)
		return;
	pthread_mutex_lock(&hosts_lock);
	while (m->hrunning)
		pthread_cond_wait(&hosts_cond, &hosts_lock);
	for (struct mdl_model **pp = &hosts; *pp; pp = &(*pp)->hnext)
		if (*pp == m) {
			*pp = m->hnext;
			break;
		}
	pthread_mutex_unlock(&hosts_lock);
}
