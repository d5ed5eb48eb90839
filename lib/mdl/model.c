// SPDX-License-Identifier: MIT
/*
 * Loading and unloading models, and the table of model ids. A load reads
 * nothing the validator has not checked (om_read), puts the weights in
 * device memory once, turns every variant's nodes into a bound command
 * buffer and only then gives the model an id; any failure undoes all of
 * it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/lifecycle.h"
#include "../core/device_io.h"
#include "model.h"
#include "model_dump.h"
#include "../dump/dump.h"

static pthread_mutex_t models_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mdl_model *models;
static uint32_t next_id = 1;

uint64_t mdl_dev_va(struct rt_device *dev, const void *p, size_t len)
{
	uint64_t va = copy_side_va(dev, p, len);

	/* Every device's memory lies in one range: is it this device's? */
	if (va >= DRM_VNPU_VA_DEVICE_START &&
	    va < DRM_VNPU_VA_DEVICE_START + DRM_VNPU_VA_RANGE_SIZE &&
	    !alloc_owns(dev, va))
		return 0;
	return va;
}

bool model_stale(const struct mdl_model *m)
{
	return m->dev->fd < 0 || m->dev->open_gen != m->gen;
}

struct mdl_variant *model_variant(struct mdl_model *m, uint32_t batch)
{
	for (uint32_t v = 0; v < m->nvar; v++)
		if (m->var[v].batch == batch)
			return &m->var[v];
	return NULL;
}

static void copy_io(struct mdl_model *m, const struct om_image *img)
{
	for (uint32_t i = 0; i < m->nin + m->nout; i++) {
		const struct om_io *src = &img->io[i];
		struct mdl_io *io = &m->io[i];

		snprintf(io->name, sizeof(io->name), "%s", img->strings + src->name);
		io->dtype = src->dtype;
		io->format = src->format;
		io->rank = src->rank;
		io->flags = src->flags;
		memcpy(io->dims, src->dims, sizeof(io->dims));
		io->size = src->size;
	}
}

static int copy_variants(struct mdl_model *m, const struct om_image *img)
{
	uint32_t nio = m->nin + m->nout;

	m->var = calloc(img->nvariants, sizeof(*m->var));
	if (!m->var)
		return -ENOMEM;
	m->nvar = img->nvariants;
	m->dynamic = img->variants[0].batch != 0;
	for (uint32_t v = 0; v < m->nvar; v++) {
		struct mdl_variant *va = &m->var[v];

		va->batch = img->variants[v].batch;
		va->arena_size = img->variants[v].arena_size;
		if (va->arena_size > m->arena_size)
			m->arena_size = va->arena_size;
		va->dims = calloc(nio, sizeof(*va->dims));
		va->io_size = calloc(nio, sizeof(*va->io_size));
		if (!va->dims || !va->io_size)
			return -ENOMEM;
		for (uint32_t i = 0; i < nio; i++) {
			va->dims[i] = *om_vdims(img, v, i);
			va->io_size[i] = om_dense_bytes(m->io[i].dtype, va->dims[i].rank,
							va->dims[i].dims);
		}
	}
	return 0;
}

static void model_free(struct mdl_model *m)
{
	free(m->aipp);
	for (uint32_t v = 0; m->var && v < m->nvar; v++) {
		free(m->var[v].dims);
		free(m->var[v].io_size);
	}
	free(m->var);
	free(m->io);
	pthread_mutex_destroy(&m->lock);
	pthread_cond_destroy(&m->idle);
	free(m);
}

/* Weights to device memory: ours, or the caller's weight memory. */
static int load_weights(struct mdl_model *m, const struct om_image *img,
			const struct mdl_mem *mem, char *why, size_t len)
{
	int ret;

	m->weights_size = img->weights_size;
	if (!img->weights_size)
		return 0;
	if (mem && mem->weight) {
		m->weights = mem->weight;
	} else {
		ret = alloc_device(m->dev, img->weights_size, false, &m->weights);
		if (ret)
			return ret;
		m->weights_own = true;
	}
	m->weights_va = copy_side_va(m->dev, m->weights, img->weights_size);
	return device_copy(m->dev, m->weights_va, (uintptr_t)img->weights,
			  img->weights_size, DRM_VNPU_MEMCPY_DST_DEVICE);
}

/* The caller's work memory is the one arena of every execution. */
static void fixed_arena(struct mdl_model *m, const struct mdl_mem *mem)
{
	if (!mem || !mem->work)
		return;
	m->fixed = true;
	m->narenas = 1;
	m->arenas[0].ptr = mem->work;
	m->arenas[0].va = copy_side_va(m->dev, mem->work, mem->work_size);
}

static void undo_load(struct mdl_model *m)
{
	model_release_tasks(m, true);
	model_host_free(m, true);
	arena_pool_free(m);
	if (m->weights_own)
		alloc_free(m->dev, m->weights);
	model_dump_free(m, true);
	model_free(m);
}

int model_load(struct rt_context *ctx, const struct om_image *img,
	       const struct mdl_mem *mem, const char *name, uint32_t *id,
	       char *why, size_t len)
{
	struct mdl_model *m = calloc(1, sizeof(*m));
	int ret;

	if (!m)
		return -ENOMEM;
	pthread_mutex_init(&m->lock, NULL);
	pthread_cond_init(&m->idle, NULL);
	m->dev = ctx->dev;
	m->gen = ctx->dev->open_gen;
	m->nin = img->nin;
	m->nout = img->nout;
	m->io = calloc(m->nin + m->nout, sizeof(*m->io));
	if (!m->io) {
		model_free(m);
		return -ENOMEM;
	}
	copy_io(m, img);
	/* The id now: the profiler's tags in the command buffers carry it. */
	pthread_mutex_lock(&models_lock);
	m->id = next_id++;
	pthread_mutex_unlock(&models_lock);
	ret = copy_variants(m, img);
	if (!ret && name) {
		char anon[32];

		/* A model from memory has no name but its id. */
		snprintf(anon, sizeof(anon), "model_%u", m->id);
		/* The dump configuration in force now is the model's. */
		m->name = strdup(*name ? name : anon);
		if (!m->name)
			ret = -ENOMEM;
		else
			m->dump = dump_model_select(name);
	}
	if (!ret && img->naipp) {
		m->aipp = malloc(img->naipp * sizeof(*m->aipp));
		if (m->aipp) {
			memcpy(m->aipp, img->aipp, img->naipp * sizeof(*m->aipp));
			m->naipp = img->naipp;
		} else {
			ret = -ENOMEM;
		}
	}
	if (!ret)
		ret = load_weights(m, img, mem, why, len);
	if (!ret) {
		fixed_arena(m, mem);
		ret = model_host_init(m, img);
	}
	if (!ret)
		ret = model_build_tasks(m, img);
	if (!ret)
		ret = model_register(m);
	if (!ret)
		ret = model_host_start(m);
	if (ret) {
		pthread_mutex_lock(&models_lock);
		if (next_id == m->id + 1)
			next_id = m->id;	/* the failed load's id is free */
		pthread_mutex_unlock(&models_lock);
		undo_load(m);
		return ret;
	}
	pthread_mutex_lock(&models_lock);
	m->next = models;
	models = m;
	pthread_mutex_unlock(&models_lock);
	*id = m->id;
	return 0;
}

int model_get(uint32_t id, struct mdl_model **out)
{
	struct mdl_model *m;

	pthread_mutex_lock(&models_lock);
	for (m = models; m && m->id != id; m = m->next)
		;
	if (m && !m->dying)
		m->busy++;
	else
		m = NULL;
	pthread_mutex_unlock(&models_lock);
	if (!m)
		return -ENOENT;
	*out = m;
	return 0;
}

void model_put(struct mdl_model *m)
{
	pthread_mutex_lock(&models_lock);
	if (!--m->busy)
		pthread_cond_broadcast(&m->idle);
	pthread_mutex_unlock(&models_lock);
}

/*
 * Take the id away at once, wait for calls still using the model, then
 * for its jobs; a model of a reset device has nothing left in the kernel.
 */
int model_unload(uint32_t id)
{
	struct mdl_model *m, **pp;

	pthread_mutex_lock(&models_lock);
	for (pp = &models; *pp && (*pp)->id != id; pp = &(*pp)->next)
		;
	m = *pp;
	if (!m || m->dying) {
		pthread_mutex_unlock(&models_lock);
		return -ENOENT;
	}
	m->dying = true;
	while (m->busy)
		pthread_cond_wait(&m->idle, &models_lock);
	*pp = m->next;
	pthread_mutex_unlock(&models_lock);
	if (model_stale(m)) {
		model_host_stop(m);
		model_release_tasks(m, false);
		model_host_free(m, false);
		model_dump_free(m, false);
		model_free(m);
		return 0;
	}
	arena_pool_drain(m);
	model_host_stop(m);
	undo_load(m);
	return 0;
}

/*
 * aclFinalize: unload what the program left loaded (before the streams
 * and devices go, since an unload waits for the model's jobs).
 */
void model_unload_all(void)
{
	struct mdl_model *m;
	uint32_t id;

	do {
		pthread_mutex_lock(&models_lock);
		for (m = models; m && m->dying; m = m->next)
			;
		id = m ? m->id : 0;
		pthread_mutex_unlock(&models_lock);
	} while (m && !model_unload(id));
}

/*
 * stream_destroy, after draining s: the arenas s used last are idle. They
 * must forget it, since its timeline syncobj is destroyed next and the
 * kernel hands the same handle to the next stream created, whose lower
 * points would make a wait for the old job's point (an unload, rule 4 of
 * arena_pick) last forever.
 */
void model_forget_stream(const struct rt_stream *s)
{
	pthread_mutex_lock(&models_lock);
	for (struct mdl_model *m = models; m; m = m->next) {
		pthread_mutex_lock(&m->lock);
		for (uint32_t i = 0; i < m->narenas; i++)
			if (m->arenas[i].stream == s) {
				m->arenas[i].stream = NULL;
				m->arenas[i].seq = 0;
			}
		pthread_mutex_unlock(&m->lock);
	}
	pthread_mutex_unlock(&models_lock);
}

static const struct rt_lifecycle model_lifecycle = {
	.name = "mdl",
	.forget_stream = model_forget_stream,
	.after_fork = model_host_forget_after_fork,
	.teardown = model_unload_all,
};

void model_lifecycle_register(void)
{
	rt_lifecycle_register(&model_lifecycle);
	model_prof_register();
}
