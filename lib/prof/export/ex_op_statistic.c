/* SPDX-License-Identifier: MIT */
/*
 * op_statistic_<ts>.csv: the operator tasks of op_summary grouped by
 * (device, model, op type, core type), heaviest first; Ratio(%) is the
 * group's share of its device's operator time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"

static int cmp_key(const struct ex_opstat *x, const struct ex_opstat *y)
{
	int c;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	c = strcmp(x->model, y->model);
	if (!c)
		c = strcmp(x->op_type, y->op_type);
	if (!c)
		c = strcmp(x->core, y->core);
	return c;
}

static int cmp_group(const void *a, const void *b)
{
	return cmp_key(a, b);
}

static int cmp_heavy(const void *a, const void *b)
{
	const struct ex_opstat *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return cmp_key(x, y);
}

int ex_op_stats(struct ex_data *d, struct ex_opstat **out, size_t *n_out)
{
	struct ex_opstat *s;
	size_t i, n = 0, g = 0;

	s = calloc(d->n_tasks + 1, sizeof(*s));
	if (!s)
		return ex_fail(d, ENOMEM, "out of memory");
	for (i = 0; i < d->n_tasks; i++) {
		const struct ex_task *t = &d->tasks[i];
		uint32_t model_id = t->tg ? t->tg->model_id : 0;
		uint64_t dur = t->end - t->start;

		if (!ex_is_op(t))
			continue;
		s[n].dev = t->dev;
		s[n].model = ex_na(t->model >= 0 ? d->models[t->model].name :
				   model_id ? ex_model_name(d, model_id) : "");
		s[n].op_type = ex_na(ex_op_type(t));
		s[n].core = ex_task_type(t);
		s[n].count = 1;
		s[n].total = s[n].min = s[n].max = dur;
		n++;
	}
	qsort(s, n, sizeof(*s), cmp_group);
	for (i = 0; i < n; i++) {
		if (g && !cmp_key(&s[g - 1], &s[i])) {
			struct ex_opstat *p = &s[g - 1];

			p->count++;
			p->total += s[i].total;
			if (s[i].min < p->min)
				p->min = s[i].min;
			if (s[i].max > p->max)
				p->max = s[i].max;
		} else {
			s[g++] = s[i];
		}
	}
	qsort(s, g, sizeof(*s), cmp_heavy);
	*out = s;
	*n_out = g;
	return 0;
}

int ex_op_statistic(struct ex_data *d)
{
	struct ex_opstat *s;
	struct ex_out o;
	size_t i, j, n;
	char b[4][32];
	int ret;

	ret = ex_op_stats(d, &s, &n);
	if (ret)
		return ret;
	ret = ex_out_open(d, &o, "op_statistic", ".csv");
	if (ret) {
		free(s);
		return ret;
	}
	fputs("Device_id,Model Name,OP Type,Core Type,Count,Total Time(us),"
	      "Avg Time(us),Min Time(us),Max Time(us),Ratio(%)\n", o.f);
	for (i = 0; i < n; i = j) {
		uint64_t dev_total = 0;

		for (j = i; j < n && s[j].dev == s[i].dev; j++)
			dev_total += s[j].total;
		for (j = i; j < n && s[j].dev == s[i].dev; j++) {
			fprintf(o.f, "%d,", (int)s[j].dev);
			ex_csv_field(o.f, s[j].model);
			fputc(',', o.f);
			ex_csv_field(o.f, s[j].op_type);
			fputc(',', o.f);
			ex_csv_field(o.f, s[j].core);
			fprintf(o.f, ",%llu,%s,%s,%s,%s,%.3f\n",
				(unsigned long long)s[j].count,
				ex_us(b[0], s[j].total),
				ex_us(b[1], s[j].total / s[j].count),
				ex_us(b[2], s[j].min), ex_us(b[3], s[j].max),
				dev_total ? 100.0 * (double)s[j].total /
					    (double)dev_total : 0.0);
		}
	}
	free(s);
	return ex_out_close(d, &o);
}
