/* SPDX-License-Identifier: MIT */
/*
 * op_summary_<ts>.csv: one row per operator task (ex_is_op), in start
 * order, with CANN's columns. What vnpu has no counterpart for is N/A
 * (Documentation/profiling.md, "Output files" lists which and why).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"

static const char header[] =
	"Device_id,Model Name,Model ID,Task ID,Stream ID,Infer ID,Op Name,"
	"OP Type,OP State,Task Type,Task Start Time(us),Task Duration(us),"
	"Task Wait Time(us),Block Num,HF32 Eligible,Mix Block Num,"
	"Input Shapes,Input Data Types,Input Formats,Output Shapes,"
	"Output Data Types,Output Formats,Context ID,aicore_time(us),"
	"total_cycles\n";

struct row {
	const struct ex_task *t;
	uint64_t wait;
};

static int cmp_start(const struct ex_task *x, const struct ex_task *y)
{
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->queue != y->queue)
		return x->queue < y->queue ? -1 : 1;
	return x->task_id < y->task_id ? -1 : x->task_id > y->task_id;
}

/* Per stream, by start: for the wait since the stream's previous op. */
static int cmp_stream(const void *a, const void *b)
{
	const struct ex_task *x = ((const struct row *)a)->t;
	const struct ex_task *y = ((const struct row *)b)->t;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->queue != y->queue)
		return x->queue < y->queue ? -1 : 1;
	return cmp_start(x, y);
}

static int cmp_out(const void *a, const void *b)
{
	const struct ex_task *x = ((const struct row *)a)->t;
	const struct ex_task *y = ((const struct row *)b)->t;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return cmp_start(x, y);
}

/* "in0;in1|out0": the inputs' or the outputs' part, N/A when unknown. */
static void shapes(FILE *f, const struct ex_task *t, int out)
{
	const char *s = t->tg ? t->tg->shapes : "";
	const char *bar = strchr(s, '|');
	char *part;

	if (out)
		part = strdup(bar ? bar + 1 : "");
	else
		part = bar ? strndup(s, (size_t)(bar - s)) : strdup(s);
	ex_csv_field(f, part && *part ? part : "N/A");
	free(part);
}

static void write_row(FILE *f, const struct ex_data *d, const struct row *r)
{
	const struct ex_task *t = r->t;
	const struct ex_model *m = t->model >= 0 ? &d->models[t->model] : NULL;
	uint32_t model_id = t->tg ? t->tg->model_id : 0;
	const char *type = ex_task_type(t);
	char b[32];

	fprintf(f, "%d,", (int)t->dev);
	ex_csv_field(f, ex_na(m ? m->name : model_id ?
			      ex_model_name(d, model_id) : ""));
	if (model_id)
		fprintf(f, ",%u,", model_id);
	else
		fputs(",N/A,", f);
	fprintf(f, "%u,%u,", t->task_id, t->queue);
	if (m)
		fprintf(f, "%u,", m->infer);
	else
		fputs("N/A,", f);
	ex_csv_field(f, ex_task_name(t));
	fputc(',', f);
	ex_csv_field(f, ex_na(ex_op_type(t)));
	fputs(",N/A,", f);
	ex_csv_field(f, type);
	fprintf(f, ",%s,", ex_us(b, t->start));
	fprintf(f, "%s,", ex_us(b, t->end - t->start));
	fprintf(f, "%s,", ex_us(b, r->wait));
	fprintf(f, "%u,N/A,N/A,", t->pieces);
	shapes(f, t, 0);
	fputs(",N/A,N/A,", f);
	shapes(f, t, 1);
	fputs(",N/A,N/A,N/A,", f);
	if (!strcmp(type, "AI_CORE"))
		fputs(ex_us(b, t->end - t->start), f);
	else
		fputs("N/A", f);
	fputs(",N/A\n", f);
}

int ex_op_summary(struct ex_data *d)
{
	struct row *rows;
	struct ex_out o;
	size_t i, n = 0;
	int ret;

	rows = calloc(d->n_tasks + 1, sizeof(*rows));
	if (!rows)
		return ex_fail(d, ENOMEM, "out of memory");
	for (i = 0; i < d->n_tasks; i++)
		if (ex_is_op(&d->tasks[i]))
			rows[n++].t = &d->tasks[i];
	qsort(rows, n, sizeof(*rows), cmp_stream);
	for (i = 1; i < n; i++) {
		const struct ex_task *p = rows[i - 1].t, *t = rows[i].t;

		if (p->dev == t->dev && p->queue == t->queue &&
		    t->start > p->end)
			rows[i].wait = t->start - p->end;
	}
	qsort(rows, n, sizeof(*rows), cmp_out);
	ret = ex_out_open(d, &o, "op_summary", ".csv");
	if (!ret) {
		fputs(header, o.f);
		for (i = 0; i < n; i++)
			write_row(o.f, d, &rows[i]);
		ret = ex_out_close(d, &o);
	}
	free(rows);
	return ret;
}
