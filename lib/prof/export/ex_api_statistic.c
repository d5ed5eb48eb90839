/* SPDX-License-Identifier: MIT */
/*
 * api_statistic_<ts>.csv: the host API spans of api.tsv grouped by
 * (level, API name), heaviest first. Variance is the population variance
 * of the spans' durations in µs².
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"

static int cmp_name(const void *a, const void *b)
{
	const struct ex_api *x = *(const struct ex_api *const *)a;
	const struct ex_api *y = *(const struct ex_api *const *)b;
	int c = strcmp(x->level, y->level);

	return c ? c : strcmp(x->name, y->name);
}

struct group {
	const struct ex_api *first;
	size_t at, count;
	uint64_t total, min, max;
};

static int cmp_heavy(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return cmp_name(&x->first, &y->first);
}

int ex_api_statistic(struct ex_data *d)
{
	const struct ex_api **v;
	struct group *g;
	struct ex_out o;
	size_t i, j, n = 0;
	char b[4][32];
	int ret;

	v = calloc(d->n_apis + 1, sizeof(*v));
	g = calloc(d->n_apis + 1, sizeof(*g));
	if (!v || !g) {
		free(v);
		free(g);
		return ex_fail(d, ENOMEM, "out of memory");
	}
	for (i = 0; i < d->n_apis; i++)
		v[i] = &d->apis[i];
	qsort(v, d->n_apis, sizeof(*v), cmp_name);
	for (i = 0; i < d->n_apis; i++) {
		uint64_t dur = v[i]->end - v[i]->start;
		struct group *p = n ? &g[n - 1] : NULL;

		if (!p || cmp_name(&p->first, &v[i])) {
			p = &g[n++];
			p->first = v[i];
			p->at = i;
			p->min = dur;
		}
		p->count++;
		p->total += dur;
		if (dur < p->min)
			p->min = dur;
		if (dur > p->max)
			p->max = dur;
	}
	qsort(g, n, sizeof(*g), cmp_heavy);
	ret = ex_out_open(d, &o, "api_statistic", ".csv");
	if (!ret) {
		fputs("Device_id,Level,API Name,Time(us),Count,Avg(us),Min(us),"
		      "Max(us),Variance\n", o.f);
		for (i = 0; i < n; i++) {
			double mean = (double)g[i].total / 1000.0 /
				      (double)g[i].count, var = 0;

			for (j = g[i].at; j < g[i].at + g[i].count; j++) {
				double x = (double)(v[j]->end - v[j]->start) /
					   1000.0 - mean;

				var += x * x;
			}
			var /= (double)g[i].count;
			fputs("host,", o.f);
			ex_csv_field(o.f, g[i].first->level);
			fputc(',', o.f);
			ex_csv_field(o.f, g[i].first->name);
			fprintf(o.f, ",%s,%zu,%s,%s,%s,%.3f\n",
				ex_us(b[0], g[i].total), g[i].count,
				ex_us(b[1], g[i].total / g[i].count),
				ex_us(b[2], g[i].min), ex_us(b[3], g[i].max),
				var);
		}
		ret = ex_out_close(d, &o);
	}
	free(v);
	free(g);
	return ret;
}
