/* SPDX-License-Identifier: MIT */
/*
 * What the writers share, computed once after reading: each task's tag,
 * its Task ID (a running index per device and stream, in submission
 * order), the launch that pushed it, the model execution it belongs to,
 * the task that carried each msproftx device mark; and the names of what
 * a task is.
 */
#include <drm/vnpu_accel.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/op_names.h"
#include "export.h"

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_tag(const void *a, const void *b)
{
	const struct ex_tag *x = a, *y = b;

	return cmp_u64(x->tag, y->tag);
}

/* (device, queue, seq, task): the order tasks were pushed in. */
static int cmp_task(const void *a, const void *b)
{
	const struct ex_task *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->queue != y->queue)
		return cmp_u64(x->queue, y->queue);
	if (x->seq != y->seq)
		return cmp_u64(x->seq, y->seq);
	return cmp_u64(x->task, y->task);
}

static int cmp_launch(const void *a, const void *b)
{
	const struct ex_launch *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->queue != y->queue)
		return cmp_u64(x->queue, y->queue);
	if (x->seq != y->seq)
		return cmp_u64(x->seq, y->seq);
	return cmp_u64(x->task, y->task);
}

static int cmp_job(const void *a, const void *b)
{
	const struct ex_job *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->queue != y->queue)
		return cmp_u64(x->queue, y->queue);
	return cmp_u64(x->seq, y->seq);
}

static int cmp_model(const void *a, const void *b)
{
	const struct ex_model *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->model_id != y->model_id)
		return cmp_u64(x->model_id, y->model_id);
	return cmp_u64(x->start, y->start);
}

/* The execution of (dev, model_id) whose window holds t, or -1. */
static int32_t find_model(const struct ex_data *d, int32_t dev,
			  uint32_t model_id, uint32_t queue, uint64_t t)
{
	size_t lo = 0, hi = d->n_models, mid;
	int32_t found = -1;
	int steps = 0;

	/* First execution that sorts after (dev, model_id, t). */
	while (lo < hi) {
		const struct ex_model *m;

		mid = (lo + hi) / 2;
		m = &d->models[mid];
		if (m->dev < dev || (m->dev == dev && (m->model_id < model_id ||
		    (m->model_id == model_id && m->start <= t))))
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Executions may overlap (threads): look back a little. */
	while (lo-- > 0 && steps++ < 64) {
		const struct ex_model *m = &d->models[lo];

		if (m->dev != dev || m->model_id != model_id)
			break;
		if (t > m->end)
			continue;
		if (m->queue == queue)
			return (int32_t)lo;
		if (found < 0)
			found = (int32_t)lo;
	}
	return found;
}

/* Tasks by (device, queue, tag, start): to find the task of a device mark. */
static int cmp_mark(const void *a, const void *b, void *arg)
{
	const struct ex_task *base = arg;
	const struct ex_task *x = &base[*(const size_t *)a];
	const struct ex_task *y = &base[*(const size_t *)b];

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->queue != y->queue)
		return cmp_u64(x->queue, y->queue);
	if (x->tag != y->tag)
		return cmp_u64(x->tag, y->tag);
	return cmp_u64(x->start, y->start);
}

/*
 * The task that carried device mark x: same device, queue and tag, the
 * earliest unclaimed one that started after the host call (else the
 * earliest unclaimed one).
 */
static void match_tx(struct ex_data *d, struct ex_tx *x, const size_t *by,
		     char *used)
{
	size_t lo = 0, hi = d->n_tasks, i, first = SIZE_MAX;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct ex_task *t = &d->tasks[by[mid]];

		if (t->dev < x->dev || (t->dev == x->dev && (t->queue < x->queue ||
		    (t->queue == x->queue && t->tag < x->tag))))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < d->n_tasks; i++) {
		const struct ex_task *t = &d->tasks[by[i]];

		if (t->dev != x->dev || t->queue != x->queue || t->tag != x->tag)
			break;
		if (used[by[i]])
			continue;
		if (first == SIZE_MAX)
			first = i;
		if (t->start >= x->start) {
			first = i;
			break;
		}
	}
	if (first != SIZE_MAX) {
		used[by[first]] = 1;
		x->task = (int32_t)by[first];
	}
}

int ex_index(struct ex_data *d)
{
	uint32_t next_id = 0;
	size_t i, *by;
	char *used;

	if (d->n_tags)
		qsort(d->tags, d->n_tags, sizeof(*d->tags), cmp_tag);
	if (d->n_tasks)
		qsort(d->tasks, d->n_tasks, sizeof(*d->tasks), cmp_task);
	if (d->n_jobs)
		qsort(d->jobs, d->n_jobs, sizeof(*d->jobs), cmp_job);
	if (d->n_launches)
		qsort(d->launches, d->n_launches, sizeof(*d->launches),
		      cmp_launch);
	if (d->n_models)
		qsort(d->models, d->n_models, sizeof(*d->models), cmp_model);
	for (i = 0; i < d->n_models; i++) {
		struct ex_model *m = &d->models[i];

		if (i && m[-1].dev == m->dev && m[-1].model_id == m->model_id)
			m->infer = m[-1].infer + 1;
		else
			m->infer = 1;
	}
	for (i = 0; i < d->n_tasks; i++) {
		struct ex_task *t = &d->tasks[i];
		struct ex_tag key = { .tag = t->tag };
		struct ex_launch lk = { .dev = t->dev, .queue = t->queue,
					.seq = t->seq, .task = t->task };
		struct ex_launch *l;
		uint64_t when;

		if (i && (t[-1].dev != t->dev || t[-1].queue != t->queue))
			next_id = 0;
		t->task_id = next_id++;
		if (t->tag && d->n_tags)
			t->tg = bsearch(&key, d->tags, d->n_tags,
					sizeof(*d->tags), cmp_tag);
		l = d->n_launches ? bsearch(&lk, d->launches, d->n_launches,
					    sizeof(*d->launches), cmp_launch) :
				    NULL;
		if (l)
			t->launch = (int32_t)(l - d->launches);
		/* A model's task was pushed while the execution ran. */
		when = l ? l->time : t->start;
		if (t->tg && t->tg->model_id)
			t->model = find_model(d, t->dev, t->tg->model_id,
					      t->queue, when);
	}
	if (!d->n_txs)
		return 0;
	used = calloc(d->n_tasks + 1, 1);
	by = calloc(d->n_tasks + 1, sizeof(*by));
	if (!used || !by) {
		free(used);
		free(by);
		return ex_fail(d, ENOMEM, "out of memory");
	}
	for (i = 0; i < d->n_tasks; i++)
		by[i] = i;
	qsort_r(by, d->n_tasks, sizeof(*by), cmp_mark, d->tasks);
	for (i = 0; i < d->n_txs; i++)
		if (d->txs[i].dev >= 0 && d->txs[i].tag)
			match_tx(d, &d->txs[i], by, used);
	free(used);
	free(by);
	return 0;
}

/* An untagged kernel task is named by its operator (core/op_names.c). */
static const char *op_name(const struct ex_task *t)
{
	if (t->type != DRM_VNPU_TASK_KERNEL)
		return NULL;
	return op_type_name(t->op);
}

const char *ex_op_type(const struct ex_task *t)
{
	if (t->tg)
		return t->tg->op_type;
	return op_name(t) ? op_name(t) : "";
}

static const char *type_name(uint32_t type)
{
	static const char *const names[] = {
		[DRM_VNPU_TASK_NOP] = "NOP",
		[DRM_VNPU_TASK_COPY] = "COPY",
		[DRM_VNPU_TASK_COPY_2D] = "COPY_2D",
		[DRM_VNPU_TASK_FILL] = "FILL",
		[DRM_VNPU_TASK_TIMESTAMP] = "TIMESTAMP",
		[DRM_VNPU_TASK_WRITE_VALUE] = "WRITE_VALUE",
		[DRM_VNPU_TASK_WAIT_VALUE] = "WAIT_VALUE",
		[DRM_VNPU_TASK_KERNEL] = "KERNEL",
		[DRM_VNPU_TASK_SPIN] = "SPIN",
		[DRM_VNPU_TASK_JUMP] = "JUMP",
	};

	if (type < sizeof(names) / sizeof(names[0]) && names[type])
		return names[type];
	return "OTHER";
}

const char *ex_task_type(const struct ex_task *t)
{
	if (t->tg)
		return t->tg->task_type;
	switch (t->type) {
	case DRM_VNPU_TASK_KERNEL:
		return "AI_CORE";
	case DRM_VNPU_TASK_COPY:
	case DRM_VNPU_TASK_COPY_2D:
		return "MEMCPY";
	case DRM_VNPU_TASK_FILL:
		return "MEMSET";
	default:
		return type_name(t->type);
	}
}

const char *ex_kernel_type(const struct ex_task *t)
{
	const char *k = ex_task_type(t);

	if (!strcmp(k, "AI_CORE"))
		return "KERNEL_AICORE";
	if (!strcmp(k, "AI_CPU"))
		return "KERNEL_AICPU";
	return k;
}

const char *ex_task_name(const struct ex_task *t)
{
	if (t->tg && t->tg->op_name[0])
		return t->tg->op_name;
	if (ex_op_type(t)[0])
		return ex_op_type(t);
	return type_name(t->type);
}

/*
 * op_summary lists operators: kernel tasks, and AI CPU operators
 * (which run on the host and reach the device as another task type).
 */
int ex_is_op(const struct ex_task *t)
{
	if (t->tg && !strcmp(t->tg->task_type, "AI_CPU"))
		return 1;
	return t->type == DRM_VNPU_TASK_KERNEL;
}

const char *ex_model_name(const struct ex_data *d, uint32_t model_id)
{
	size_t i;

	for (i = 0; i < d->n_models; i++)
		if (d->models[i].model_id == model_id && d->models[i].name[0])
			return d->models[i].name;
	return "";
}
