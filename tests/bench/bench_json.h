/* SPDX-License-Identifier: MIT */
/*
 * Benchmark results as JSON: one entry per figure,
 * {"name", "value", "unit", "baseline", "ratio", "cpu"}, appended to a
 * file that holds a JSON array (the file is rewritten so it stays valid).
 * "cpu" names the machine: VNPU_BENCH_CPU when set (`make bench` sets it
 * to the host's CPU and the guest's vCPUs), else /proc/cpuinfo's model.
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

/* The CPU every figure was measured on (see above); never NULL. */
static inline const char *bench_cpu(void)
{
	static char cpu[160];
	const char *env = getenv("VNPU_BENCH_CPU");
	char line[256], *p;
	FILE *f;

	if (cpu[0])
		return cpu;
	snprintf(cpu, sizeof(cpu), "unknown");
	if (env && *env) {
		snprintf(cpu, sizeof(cpu), "%s", env);
	} else if ((f = fopen("/proc/cpuinfo", "r"))) {
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "model name", 10) && (p = strchr(line, ':'))) {
				p += 1 + (p[1] == ' ');
				p[strcspn(p, "\n")] = 0;
				snprintf(cpu, sizeof(cpu), "%s", p);
				break;
			}
		fclose(f);
	}
	/* Kept JSON-safe: no quotes or backslashes. */
	for (p = cpu; *p; p++)
		if (*p == '"' || *p == '\\')
			*p = '\'';
	return cpu;
}

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
			"\"baseline\": %.3f, \"ratio\": %.4f, \"cpu\": \"%s\"}%s\n",
			r->name, r->value, r->unit, r->baseline, r->ratio,
			bench_cpu(), i + 1 < bench_nresults ? "," : "");
	}
	fprintf(f, "]\n");
	return fclose(f) ? -1 : 0;
}

#endif /* VNPU_BENCH_JSON_H */
