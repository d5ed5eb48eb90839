/* SPDX-License-Identifier: MIT */
/*
 * Benchmark results as JSON: one entry per figure,
 * {"name", "value", "unit", "baseline", "ratio"}, appended to a file that
 * holds a JSON array (the file is rewritten so it stays valid).
 */
#ifndef VNPU_BENCH_JSON_H
#define VNPU_BENCH_JSON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_MAX_RESULTS 256

struct bench_result {
	char name[96];
	double value;
	char unit[16];
	double baseline;
	double ratio;
};

static struct bench_result bench_results[BENCH_MAX_RESULTS];
static int bench_nresults;

/* Record a figure; ratio is value / baseline (higher is better). */
static inline void bench_report(const char *name, double value,
				const char *unit, double baseline)
{
	struct bench_result *r;

	if (bench_nresults == BENCH_MAX_RESULTS)
		return;
	r = &bench_results[bench_nresults++];
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->unit, sizeof(r->unit), "%s", unit);
	r->value = value;
	r->baseline = baseline;
	r->ratio = baseline > 0 ? value / baseline : 0;
	printf("%-36s %12.1f %-6s baseline %12.1f  ratio %.3f\n", name, value,
	       unit, baseline, r->ratio);
}

/* Write every figure to path as a JSON array; returns 0 or -1. */
static inline int bench_write_json(const char *path)
{
	FILE *f = fopen(path, "w");
	int i;

	if (!f)
		return -1;
	fprintf(f, "[\n");
	for (i = 0; i < bench_nresults; i++) {
		const struct bench_result *r = &bench_results[i];

		fprintf(f, "  {\"name\": \"%s\", \"value\": %.3f, \"unit\": \"%s\", "
			"\"baseline\": %.3f, \"ratio\": %.4f}%s\n", r->name,
			r->value, r->unit, r->baseline, r->ratio,
			i + 1 < bench_nresults ? "," : "");
	}
	fprintf(f, "]\n");
	return fclose(f) ? -1 : 0;
}

#endif /* VNPU_BENCH_JSON_H */
