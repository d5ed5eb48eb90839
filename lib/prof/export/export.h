/* SPDX-License-Identifier: MIT */
/*
 * The exporter's insides: the raw data directory read into memory
 * (Documentation/profiling.md, "Raw data directory"), the indexes the
 * writers share, and one writer per output file. Nothing here touches a
 * device: the exporter runs in msprof as well as in the library.
 */
#ifndef VNPU_PROF_EXPORT_H
#define VNPU_PROF_EXPORT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* host/data/tags.tsv */
struct ex_tag {
	uint32_t tag;
	uint32_t model_id;
	char *op_type, *op_name, *task_type, *shapes;
};

/* device_<id>/data/task.tsv, kind "task" */
struct ex_task {
	int32_t dev;
	uint32_t engine, queue, task, tag, type, status, op, pieces, parks;
	uint64_t seq, start, end, bytes;
	const struct ex_tag *tg;	/* NULL: the tag is not named */
	uint32_t task_id;		/* running index in (dev, queue) */
	int32_t model;			/* index into models, or -1 */
	int32_t launch;			/* index into launches, or -1 */
};

/* device_<id>/data/task.tsv, kind "job" */
struct ex_job {
	int32_t dev;
	uint32_t engine, queue, tasks, status, slices, parks;
	uint64_t seq, start, end, submit;
};

/* host/data/api.tsv */
struct ex_api {
	char *level, *name;
	uint64_t pid, tid, start, end;
};

/* host/data/launch.tsv */
struct ex_launch {
	int32_t dev;
	uint32_t queue, task, tag;
	uint64_t seq, tid, time;
};

/* host/data/model.tsv */
struct ex_model {
	int32_t dev;
	uint32_t model_id, queue, infer;	/* infer: 1.. per (dev, model) */
	char *name;
	uint64_t tid, start, end;
};

/* host/data/tx.tsv */
struct ex_tx {
	uint64_t pid, tid, start, end;
	char *category, *event_type, *payload_type, *payload_value;
	char *message_type, *message, *domain;
	int32_t dev;
	uint32_t queue, tag;
	int32_t task;			/* index into tasks, or -1 */
};

struct ex_data {
	const char *dir;
	char *why;
	size_t why_len;

	/* info.json */
	uint64_t pid, start_ns, stop_ns, start_wall_us;
	char *app, *cpu, *aic_metrics, *data_type_config;
	char stamp[32];			/* YYYYmmddHHMMSS of start_wall_us */

	struct ex_tag *tags;	size_t n_tags;
	struct ex_task *tasks;	size_t n_tasks;
	struct ex_job *jobs;	size_t n_jobs;
	struct ex_api *apis;	size_t n_apis;
	struct ex_launch *launches; size_t n_launches;
	struct ex_model *models; size_t n_models;
	struct ex_tx *txs;	size_t n_txs;
};

/* ex_util.c */
int ex_fail(struct ex_data *d, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void *ex_push(void **arr, size_t *n, size_t size);
int ex_u64(const char *s, uint64_t *out);
int ex_i32(const char *s, int32_t *out);
int ex_u32(const char *s, uint32_t *out);
/* ns as µs with 3 decimals ("12.345"); buf of 32 bytes. */
const char *ex_us(char *buf, uint64_t ns);
void ex_csv_field(FILE *f, const char *s);
void ex_json_str(FILE *f, const char *s);
const char *ex_na(const char *s);	/* "N/A" for NULL or "" */

struct ex_out {
	FILE *f;
	char *tmp, *path;
};
/* <dir>/mindstudio_profiler_output/<base>_<stamp><ext>, via a temporary. */
int ex_out_open(struct ex_data *d, struct ex_out *o, const char *base,
		const char *ext);
int ex_out_close(struct ex_data *d, struct ex_out *o);
void ex_out_abort(struct ex_out *o);	/* drop the temporary */

/* ex_info.c, ex_read.c, ex_index.c */
int ex_read_info(struct ex_data *d);
int ex_read_all(struct ex_data *d);
int ex_index(struct ex_data *d);
void ex_free(struct ex_data *d);

/* What a task is, for the summaries (ex_index.c). */
const char *ex_task_type(const struct ex_task *t);	/* AI_CORE, MEMCPY, ... */
const char *ex_kernel_type(const struct ex_task *t);	/* KERNEL_AICORE, ... */
const char *ex_task_name(const struct ex_task *t);	/* op name or type */
/* The tag's op type; untagged kernels: the DRM_VNPU_OP_* name; or "". */
const char *ex_op_type(const struct ex_task *t);
int ex_is_op(const struct ex_task *t);			/* op_summary row? */
const char *ex_model_name(const struct ex_data *d, uint32_t model_id);

/* The writers. */
int ex_op_summary(struct ex_data *d);
int ex_op_statistic(struct ex_data *d);
int ex_api_statistic(struct ex_data *d);
int ex_task_time(struct ex_data *d);
int ex_msprof_tx(struct ex_data *d);
int ex_trace(struct ex_data *d);
int ex_html(struct ex_data *d);

/* Per (device, model, op type, task type) totals (ex_op_statistic.c). */
struct ex_opstat {
	int32_t dev;
	const char *model, *op_type, *core;
	uint64_t count, total, min, max;
};
int ex_op_stats(struct ex_data *d, struct ex_opstat **out, size_t *n);

#endif /* VNPU_PROF_EXPORT_H */
