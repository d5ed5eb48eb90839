/* SPDX-License-Identifier: MIT */
/*
 * msprof_<ts>.json: the timeline in Chrome's trace-event format, as
 * CANN's exporter writes it (a JSON array; "ts" a string of µs with three
 * decimals, "dur" a number). Processes:
 *
 *   1          CANN: the AscendCL API spans, one thread per host thread
 *   2          Model Execution: one thread per model
 *   3          msproftx: markers per host thread (marks as instants)
 *   100 + dev  Ascend Hardware (device dev): one thread per stream (the
 *              engine is in each task's args), and one per stream for
 *              the jobs
 *
 * and an "async_npu" flow from each launch to the task it became.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"

#define PID_HOST	1
#define PID_MODEL	2
#define PID_TX		3
#define PID_DEV(d)	(100 + (d))
#define TID_JOBS	1000000u

struct w {
	FILE *f;
	int first;
};

static void sep(struct w *w)
{
	fputs(w->first ? "\n" : ",\n", w->f);
	w->first = 0;
}

static void meta(struct w *w, const char *what, int pid, uint64_t tid,
		 const char *name)
{
	sep(w);
	fprintf(w->f, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d,\"tid\":%llu,"
		"\"args\":{\"name\":", what, pid, (unsigned long long)tid);
	ex_json_str(w->f, name);
	fputs("}}", w->f);
}

static void sort_index(struct w *w, int pid, int idx)
{
	sep(w);
	fprintf(w->f, "{\"name\":\"process_sort_index\",\"ph\":\"M\","
		"\"pid\":%d,\"tid\":0,\"args\":{\"sort_index\":%d}}", pid, idx);
}

/* {"name":..,"ph":"X","pid":..,"tid":..,"ts":"..","dur":..,"cat":.. */
static void span(struct w *w, const char *name, const char *cat, int pid,
		 uint64_t tid, uint64_t start, uint64_t end)
{
	char b[2][32];

	sep(w);
	fputs("{\"name\":", w->f);
	ex_json_str(w->f, name);
	fprintf(w->f, ",\"ph\":\"X\",\"pid\":%d,\"tid\":%llu,\"ts\":\"%s\","
		"\"dur\":%s,\"cat\":", pid, (unsigned long long)tid,
		ex_us(b[0], start), ex_us(b[1], end - start));
	ex_json_str(w->f, cat);
}

/* Unique host thread ids (sorted) of api.tsv and launch.tsv. */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static size_t uniq(uint64_t *v, size_t n)
{
	size_t i, k = 0;

	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

static int host_threads(struct w *w, struct ex_data *d)
{
	size_t i, n = 0;
	uint64_t *v;
	char name[48];

	v = calloc(d->n_apis + d->n_launches + 1, sizeof(*v));
	if (!v)
		return ex_fail(d, ENOMEM, "out of memory");
	for (i = 0; i < d->n_apis; i++)
		v[n++] = d->apis[i].tid;
	for (i = 0; i < d->n_launches; i++)
		v[n++] = d->launches[i].tid;
	n = uniq(v, n);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "Thread %llu",
			 (unsigned long long)v[i]);
		meta(w, "thread_name", PID_HOST, v[i], name);
	}
	free(v);
	return 0;
}

static void host(struct w *w, struct ex_data *d)
{
	size_t i;

	for (i = 0; i < d->n_apis; i++) {
		const struct ex_api *a = &d->apis[i];

		span(w, a->name, a->level, PID_HOST, a->tid, a->start, a->end);
		fputs(",\"args\":{\"level\":", w->f);
		ex_json_str(w->f, a->level);
		fprintf(w->f, ",\"pid\":%llu}}", (unsigned long long)a->pid);
	}
}

static void models(struct w *w, struct ex_data *d)
{
	char name[64];
	size_t i;

	for (i = 0; i < d->n_models; i++) {
		const struct ex_model *m = &d->models[i];

		if (!i || m[-1].model_id != m->model_id || m[-1].dev != m->dev) {
			char *t = NULL;

			if (asprintf(&t, "Model %u %s (device %d)", m->model_id,
				     m->name, (int)m->dev) > 0) {
				meta(w, "thread_name", PID_MODEL,
				     (uint64_t)m->dev * 100000u + m->model_id,
				     t);
				free(t);
			}
		}
		snprintf(name, sizeof(name), "Model %u #%u", m->model_id,
			 m->infer);
		span(w, name, "Model", PID_MODEL,
		     (uint64_t)m->dev * 100000u + m->model_id, m->start, m->end);
		fputs(",\"args\":{\"Model Name\":", w->f);
		ex_json_str(w->f, m->name);
		fprintf(w->f, ",\"Model ID\":%u,\"Infer ID\":%u,\"device\":%d,"
			"\"queue\":%u,\"tid\":%llu}}", m->model_id, m->infer,
			(int)m->dev, m->queue, (unsigned long long)m->tid);
	}
}

static void markers(struct w *w, struct ex_data *d)
{
	char b[32], name[48];
	uint64_t *v;
	size_t i, n;

	v = calloc(d->n_txs + 1, sizeof(*v));
	if (v) {
		for (i = 0; i < d->n_txs; i++)
			v[i] = d->txs[i].tid;
		n = uniq(v, d->n_txs);
		for (i = 0; i < n; i++) {
			snprintf(name, sizeof(name), "Thread %llu",
				 (unsigned long long)v[i]);
			meta(w, "thread_name", PID_TX, v[i], name);
		}
		free(v);
	}
	for (i = 0; i < d->n_txs; i++) {
		const struct ex_tx *x = &d->txs[i];
		int instant = !strcmp(x->event_type, "Mark") ||
			      !strcmp(x->event_type, "MarkEx");

		if (instant) {
			sep(w);
			fputs("{\"name\":", w->f);
			ex_json_str(w->f, x->message);
			fprintf(w->f, ",\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,"
				"\"tid\":%llu,\"ts\":\"%s\",\"cat\":\"MsTx\"",
				PID_TX, (unsigned long long)x->tid,
				ex_us(b, x->start));
		} else {
			span(w, x->message, "MsTx", PID_TX, x->tid, x->start,
			     x->end);
		}
		fputs(",\"args\":{\"event_type\":", w->f);
		ex_json_str(w->f, x->event_type);
		fputs(",\"category\":", w->f);
		ex_json_str(w->f, x->category);
		fputs(",\"payload_value\":", w->f);
		ex_json_str(w->f, x->payload_value);
		fputs(",\"domain\":", w->f);
		ex_json_str(w->f, x->domain);
		fprintf(w->f, ",\"device\":%d}}", (int)x->dev);
	}
}

/* Thread names of the device processes: streams and their jobs. */
static void device_threads(struct w *w, struct ex_data *d)
{
	char name[64];
	size_t i;

	for (i = 0; i < d->n_tasks; i++) {
		const struct ex_task *t = &d->tasks[i];

		if (i && t[-1].dev == t->dev && t[-1].queue == t->queue)
			continue;
		if (!i || t[-1].dev != t->dev) {
			snprintf(name, sizeof(name),
				 "Ascend Hardware (device %d)", (int)t->dev);
			meta(w, "process_name", PID_DEV(t->dev), 0, name);
			sort_index(w, PID_DEV(t->dev), 10 + t->dev);
		}
		snprintf(name, sizeof(name), "Stream %u", t->queue);
		meta(w, "thread_name", PID_DEV(t->dev), t->queue, name);
	}
	for (i = 0; i < d->n_jobs; i++) {
		const struct ex_job *j = &d->jobs[i];

		snprintf(name, sizeof(name), "Stream %u jobs", j->queue);
		/* Duplicates are harmless: the last name wins. */
		if (!i || j[-1].dev != j->dev || j[-1].queue != j->queue)
			meta(w, "thread_name", PID_DEV(j->dev),
			     TID_JOBS + j->queue, name);
	}
}

static void tasks(struct w *w, struct ex_data *d)
{
	size_t i;

	for (i = 0; i < d->n_tasks; i++) {
		const struct ex_task *t = &d->tasks[i];

		span(w, ex_task_name(t), ex_task_type(t), PID_DEV(t->dev),
		     t->queue, t->start, t->end);
		fputs(",\"args\":{\"Task Type\":", w->f);
		ex_json_str(w->f, ex_task_type(t));
		fputs(",\"OP Type\":", w->f);
		ex_json_str(w->f, ex_na(ex_op_type(t)));
		fprintf(w->f, ",\"Task ID\":%u,\"Stream ID\":%u,\"engine\":%u,"
			"\"seq\":%llu,\"task\":%u,\"status\":%u,\"bytes\":%llu,"
			"\"pieces\":%u,\"parks\":%u", t->task_id, t->queue,
			t->engine, (unsigned long long)t->seq, t->task,
			t->status, (unsigned long long)t->bytes, t->pieces,
			t->parks);
		if (t->model >= 0)
			fprintf(w->f, ",\"Model ID\":%u,\"Infer ID\":%u",
				d->models[t->model].model_id,
				d->models[t->model].infer);
		fputs("}}", w->f);
	}
	for (i = 0; i < d->n_jobs; i++) {
		const struct ex_job *j = &d->jobs[i];
		char name[48];

		snprintf(name, sizeof(name), "Job %llu",
			 (unsigned long long)j->seq);
		span(w, name, "Job", PID_DEV(j->dev), TID_JOBS + j->queue,
		     j->start, j->end);
		fprintf(w->f, ",\"args\":{\"engine\":%u,\"tasks\":%u,"
			"\"status\":%u,\"slices\":%u,\"parks\":%u,"
			"\"submit_ns\":%llu}}", j->engine, j->tasks, j->status,
			j->slices, j->parks, (unsigned long long)j->submit);
	}
}

static void flows(struct w *w, struct ex_data *d)
{
	unsigned long long id = 0;
	char b[32];
	size_t i;

	for (i = 0; i < d->n_tasks; i++) {
		const struct ex_task *t = &d->tasks[i];
		const struct ex_launch *l;

		if (t->launch < 0)
			continue;
		l = &d->launches[t->launch];
		id++;
		sep(w);
		fprintf(w->f, "{\"name\":\"async_npu\",\"ph\":\"s\","
			"\"cat\":\"async_npu\",\"id\":%llu,\"pid\":%d,"
			"\"tid\":%llu,\"ts\":\"%s\"}", id, PID_HOST,
			(unsigned long long)l->tid, ex_us(b, l->time));
		sep(w);
		fprintf(w->f, "{\"name\":\"async_npu\",\"ph\":\"f\","
			"\"cat\":\"async_npu\",\"id\":%llu,\"pid\":%d,"
			"\"tid\":%u,\"ts\":\"%s\",\"bp\":\"e\"}", id,
			PID_DEV(t->dev), t->queue, ex_us(b, t->start));
	}
}

int ex_trace(struct ex_data *d)
{
	struct ex_out o;
	struct w w;
	int ret;

	ret = ex_out_open(d, &o, "msprof", ".json");
	if (ret)
		return ret;
	w.f = o.f;
	w.first = 1;
	fputc('[', o.f);
	meta(&w, "process_name", PID_HOST, 0, "CANN");
	sort_index(&w, PID_HOST, 1);
	ret = host_threads(&w, d);
	if (ret) {
		ex_out_abort(&o);
		return ret;
	}
	host(&w, d);
	if (d->n_models) {
		meta(&w, "process_name", PID_MODEL, 0, "Model Execution");
		sort_index(&w, PID_MODEL, 2);
		models(&w, d);
	}
	if (d->n_txs) {
		meta(&w, "process_name", PID_TX, 0, "msproftx");
		sort_index(&w, PID_TX, 0);
		markers(&w, d);
	}
	device_threads(&w, d);
	tasks(&w, d);
	flows(&w, d);
	fputs("\n]\n", o.f);
	return ex_out_close(d, &o);
}
