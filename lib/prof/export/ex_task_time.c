/* SPDX-License-Identifier: MIT */
/*
 * task_time_<ts>.csv: every task record, copies and fills included, in
 * start order per device. kernel_type is KERNEL_AICORE or KERNEL_AICPU
 * for operators, else what the task was (MEMCPY, MEMSET, DVPP, MARK, or
 * the task type's name).
 */
#include <errno.h>
#include <stdlib.h>

#include "export.h"

static int cmp_start(const void *a, const void *b)
{
	const struct ex_task *x = *(const struct ex_task *const *)a;
	const struct ex_task *y = *(const struct ex_task *const *)b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->queue != y->queue)
		return x->queue < y->queue ? -1 : 1;
	return x->task_id < y->task_id ? -1 : x->task_id > y->task_id;
}

int ex_task_time(struct ex_data *d)
{
	const struct ex_task **v;
	struct ex_out o;
	char b[3][32];
	size_t i;
	int ret;

	v = calloc(d->n_tasks + 1, sizeof(*v));
	if (!v)
		return ex_fail(d, ENOMEM, "out of memory");
	for (i = 0; i < d->n_tasks; i++)
		v[i] = &d->tasks[i];
	qsort(v, d->n_tasks, sizeof(*v), cmp_start);
	ret = ex_out_open(d, &o, "task_time", ".csv");
	if (!ret) {
		fputs("Device_id,kernel_name,kernel_type,stream_id,task_id,"
		      "task_time(us),task_start(us),task_stop(us)\n", o.f);
		for (i = 0; i < d->n_tasks; i++) {
			fprintf(o.f, "%d,", (int)v[i]->dev);
			ex_csv_field(o.f, ex_task_name(v[i]));
			fputc(',', o.f);
			ex_csv_field(o.f, ex_kernel_type(v[i]));
			fprintf(o.f, ",%u,%u,%s,%s,%s\n", v[i]->queue,
				v[i]->task_id,
				ex_us(b[0], v[i]->end - v[i]->start),
				ex_us(b[1], v[i]->start), ex_us(b[2], v[i]->end));
		}
		ret = ex_out_close(d, &o);
	}
	free(v);
	return ret;
}
