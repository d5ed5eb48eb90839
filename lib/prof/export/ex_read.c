/* SPDX-License-Identifier: MIT */
/*
 * Reading the .tsv files of a raw data directory. Each starts with a
 * "#name name ..." header that must name at least the columns this reader
 * knows, in order; later columns are ignored (the contract lets writers
 * add some). A missing file is an empty one. Any malformed line (too few
 * fields, a bad number, an end before its start, an unknown enum word, a
 * NUL byte, a last line without its newline) fails the whole export with
 * "file:line: what", rather than writing summaries from half the data.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"

#define MAX_FIELDS 64

struct tsv {
	struct ex_data *d;
	const char *rel;
	size_t line;
	int32_t dev;		/* task.tsv: the device of its folder */
};

typedef int (*row_fn)(struct tsv *t, char **f);

static int bad(struct tsv *t, const char *what, const char *col)
{
	return ex_fail(t->d, EINVAL, "%s:%zu: %s%s%s", t->rel, t->line, what,
		       col ? " " : "", col ? col : "");
}

static char *dup_field(struct tsv *t, const char *s, char **out)
{
	if (!strcmp(s, "-"))
		s = "";
	*out = strdup(s);
	if (!*out)
		ex_fail(t->d, ENOMEM, "out of memory");
	return *out;
}

#define U64(i, dst, name) \
	do { if (ex_u64(f[i], dst)) return bad(t, "bad number in", name); } while (0)
#define U32(i, dst, name) \
	do { if (ex_u32(f[i], dst)) return bad(t, "bad number in", name); } while (0)
#define I32(i, dst, name) \
	do { if (ex_i32(f[i], dst)) return bad(t, "bad number in", name); } while (0)
#define STR(i, dst) \
	do { if (!dup_field(t, f[i], dst)) return -ENOMEM; } while (0)
#define PUSH(arr, n) \
	ex_push((void **)&t->d->arr, &t->d->n, sizeof(*t->d->arr))

static const char *const api_cols[] = {
	"level", "name", "pid", "tid", "start_ns", "end_ns", NULL };

static int api_row(struct tsv *t, char **f)
{
	struct ex_api *a = PUSH(apis, n_apis);

	if (!a)
		return ex_fail(t->d, ENOMEM, "out of memory");
	U64(2, &a->pid, "pid");
	U64(3, &a->tid, "tid");
	U64(4, &a->start, "start_ns");
	U64(5, &a->end, "end_ns");
	if (a->end < a->start)
		return bad(t, "end_ns before start_ns", NULL);
	STR(0, &a->level);
	STR(1, &a->name);
	return 0;
}

static const char *const launch_cols[] = {
	"device", "queue", "seq", "task", "tag", "tid", "time_ns", NULL };

static int launch_row(struct tsv *t, char **f)
{
	struct ex_launch *l = PUSH(launches, n_launches);

	if (!l)
		return ex_fail(t->d, ENOMEM, "out of memory");
	I32(0, &l->dev, "device");
	U32(1, &l->queue, "queue");
	U64(2, &l->seq, "seq");
	U32(3, &l->task, "task");
	U32(4, &l->tag, "tag");
	U64(5, &l->tid, "tid");
	U64(6, &l->time, "time_ns");
	return 0;
}

static const char *const model_cols[] = {
	"device", "model_id", "model_name", "queue", "tid", "start_ns",
	"end_ns", NULL };

static int model_row(struct tsv *t, char **f)
{
	struct ex_model *m = PUSH(models, n_models);

	if (!m)
		return ex_fail(t->d, ENOMEM, "out of memory");
	I32(0, &m->dev, "device");
	U32(1, &m->model_id, "model_id");
	U32(3, &m->queue, "queue");
	U64(4, &m->tid, "tid");
	U64(5, &m->start, "start_ns");
	U64(6, &m->end, "end_ns");
	if (m->end < m->start)
		return bad(t, "end_ns before start_ns", NULL);
	STR(2, &m->name);
	return 0;
}

static const char *const tag_cols[] = {
	"tag", "model_id", "op_type", "op_name", "task_type", "shapes", NULL };
static const char *const task_types[] = {
	"AI_CORE", "AI_CPU", "MEMCPY", "DVPP", "MARK", NULL };

static int one_of(const char *s, const char *const *words)
{
	for (; *words; words++)
		if (!strcmp(s, *words))
			return 1;
	return 0;
}

static int tag_row(struct tsv *t, char **f)
{
	struct ex_tag *g = PUSH(tags, n_tags);

	if (!g)
		return ex_fail(t->d, ENOMEM, "out of memory");
	U32(0, &g->tag, "tag");
	U32(1, &g->model_id, "model_id");
	if (!one_of(f[4], task_types))
		return bad(t, "unknown task_type", f[4]);
	STR(2, &g->op_type);
	STR(3, &g->op_name);
	STR(4, &g->task_type);
	STR(5, &g->shapes);
	return 0;
}

static const char *const tx_cols[] = {
	"pid", "tid", "category", "event_type", "payload_type",
	"payload_value", "start_ns", "end_ns", "message_type", "message",
	"domain", "device", "queue", "tag", NULL };
static const char *const tx_types[] = {
	"Mark", "Push/Pop", "Start/Stop", "MarkEx", NULL };

static int tx_row(struct tsv *t, char **f)
{
	struct ex_tx *x = PUSH(txs, n_txs);

	if (!x)
		return ex_fail(t->d, ENOMEM, "out of memory");
	x->task = -1;
	U64(0, &x->pid, "pid");
	U64(1, &x->tid, "tid");
	U64(6, &x->start, "start_ns");
	U64(7, &x->end, "end_ns");
	I32(11, &x->dev, "device");
	U32(12, &x->queue, "queue");
	U32(13, &x->tag, "tag");
	if (!one_of(f[3], tx_types))
		return bad(t, "unknown event_type", f[3]);
	/* A mark is an instant: its end may be written as 0. */
	if (x->end == 0 && (!strcmp(f[3], "Mark") || !strcmp(f[3], "MarkEx")))
		x->end = x->start;
	if (x->end < x->start)
		return bad(t, "end_ns before start_ns", NULL);
	STR(2, &x->category);
	STR(3, &x->event_type);
	STR(4, &x->payload_type);
	STR(5, &x->payload_value);
	STR(8, &x->message_type);
	STR(9, &x->message);
	STR(10, &x->domain);
	return 0;
}

static const char *const task_cols[] = {
	"kind", "engine", "queue", "seq", "task", "tag", "type", "status",
	"op", "start_ns", "end_ns", "bytes", "pieces", "parks", NULL };

static int task_row(struct tsv *t, char **f)
{
	uint64_t start, end;

	U64(9, &start, "start_ns");
	U64(10, &end, "end_ns");
	if (end < start)
		return bad(t, "end_ns before start_ns", NULL);
	if (!strcmp(f[0], "task")) {
		struct ex_task *k = PUSH(tasks, n_tasks);

		if (!k)
			return ex_fail(t->d, ENOMEM, "out of memory");
		k->dev = t->dev;
		k->start = start;
		k->end = end;
		k->model = -1;
		k->launch = -1;
		U32(1, &k->engine, "engine");
		U32(2, &k->queue, "queue");
		U64(3, &k->seq, "seq");
		U32(4, &k->task, "task");
		U32(5, &k->tag, "tag");
		U32(6, &k->type, "type");
		U32(7, &k->status, "status");
		U32(8, &k->op, "op");
		U64(11, &k->bytes, "bytes");
		U32(12, &k->pieces, "pieces");
		U32(13, &k->parks, "parks");
	} else if (!strcmp(f[0], "job")) {
		struct ex_job *j = PUSH(jobs, n_jobs);

		if (!j)
			return ex_fail(t->d, ENOMEM, "out of memory");
		j->dev = t->dev;
		j->start = start;
		j->end = end;
		U32(1, &j->engine, "engine");
		U32(2, &j->queue, "queue");
		U64(3, &j->seq, "seq");
		U32(4, &j->tasks, "task");
		U32(7, &j->status, "status");
		U64(11, &j->submit, "bytes");
		U32(12, &j->slices, "pieces");
		U32(13, &j->parks, "parks");
	} else {
		return bad(t, "unknown kind", f[0]);
	}
	return 0;
}

static size_t split(char *s, char **f)
{
	size_t n = 0;

	for (;;) {
		f[n++] = s;
		s = strchr(s, '\t');
		if (!s || n == MAX_FIELDS)
			return n;
		*s++ = '\0';
	}
}

static int check_header(struct tsv *t, char *line, const char *const *cols)
{
	char *f[MAX_FIELDS];
	size_t n, i;

	n = split(line + 1, f);
	for (i = 0; cols[i]; i++) {
		if (i >= n)
			return bad(t, "header lacks column", cols[i]);
		if (strcmp(f[i], cols[i]))
			return bad(t, "header names a column", f[i]);
	}
	return 0;
}

static int read_tsv(struct ex_data *d, const char *rel, int32_t dev,
		    const char *const *cols, row_fn fn)
{
	struct tsv t = { .d = d, .rel = rel, .dev = dev };
	char path[PATH_MAX], *line = NULL, *f[MAX_FIELDS];
	size_t cap = 0, ncols = 0, n;
	ssize_t len;
	FILE *fp;
	int ret = 0;

	while (cols[ncols])
		ncols++;
	if (snprintf(path, sizeof(path), "%s/%s", d->dir, rel) >=
	    (int)sizeof(path))
		return ex_fail(d, ENAMETOOLONG, "%s: path too long", rel);
	fp = fopen(path, "r");
	if (!fp)
		return errno == ENOENT ? 0 : ex_fail(d, errno, "%s: %s", rel,
						     strerror(errno));
	while (!ret && (len = getline(&line, &cap, fp)) > 0) {
		t.line++;
		if ((size_t)len != strlen(line)) {
			ret = bad(&t, "NUL byte in line", NULL);
			break;
		}
		if (line[len - 1] != '\n') {
			ret = bad(&t, "truncated line (no newline)", NULL);
			break;
		}
		line[--len] = '\0';
		if (t.line == 1) {
			ret = line[0] == '#' ? check_header(&t, line, cols) :
					       bad(&t, "no #header line", NULL);
			continue;
		}
		if (len == 0)
			continue;
		n = split(line, f);
		if (n < ncols) {
			ret = ex_fail(d, EINVAL, "%s:%zu: %zu fields, expected %zu",
				      rel, t.line, n, ncols);
			break;
		}
		ret = fn(&t, f);
	}
	if (!ret && ferror(fp))
		ret = ex_fail(d, EIO, "%s: read error", rel);
	free(line);
	fclose(fp);
	return ret;
}

/* device_<id> folders: the id is a small decimal number. */
static int device_of(const char *name, int32_t *dev)
{
	char canon[32];

	if (strncmp(name, "device_", 7) || ex_i32(name + 7, dev) ||
	    *dev < 0 || *dev > 1023)
		return 0;
	snprintf(canon, sizeof(canon), "device_%d", (int)*dev);
	return !strcmp(canon, name);	/* not device_007 */
}

int ex_read_all(struct ex_data *d)
{
	char rel[64];
	struct dirent *e;
	int32_t dev;
	DIR *dir;
	int ret;

	ret = read_tsv(d, "host/data/tags.tsv", 0, tag_cols, tag_row);
	if (!ret)
		ret = read_tsv(d, "host/data/api.tsv", 0, api_cols, api_row);
	if (!ret)
		ret = read_tsv(d, "host/data/launch.tsv", 0, launch_cols,
			       launch_row);
	if (!ret)
		ret = read_tsv(d, "host/data/model.tsv", 0, model_cols,
			       model_row);
	if (!ret)
		ret = read_tsv(d, "host/data/tx.tsv", 0, tx_cols, tx_row);
	if (ret)
		return ret;
	dir = opendir(d->dir);
	if (!dir)
		return ex_fail(d, errno, "%s: %s", d->dir, strerror(errno));
	while (!ret && (e = readdir(dir))) {
		if (!device_of(e->d_name, &dev))
			continue;
		snprintf(rel, sizeof(rel), "device_%d/data/task.tsv", (int)dev);
		ret = read_tsv(d, rel, dev, task_cols, task_row);
	}
	closedir(dir);
	return ret;
}

void ex_free(struct ex_data *d)
{
	size_t i;

	for (i = 0; i < d->n_tags; i++) {
		free(d->tags[i].op_type);
		free(d->tags[i].op_name);
		free(d->tags[i].task_type);
		free(d->tags[i].shapes);
	}
	for (i = 0; i < d->n_apis; i++) {
		free(d->apis[i].level);
		free(d->apis[i].name);
	}
	for (i = 0; i < d->n_models; i++)
		free(d->models[i].name);
	for (i = 0; i < d->n_txs; i++) {
		struct ex_tx *x = &d->txs[i];

		free(x->category);
		free(x->event_type);
		free(x->payload_type);
		free(x->payload_value);
		free(x->message_type);
		free(x->message);
		free(x->domain);
	}
	free(d->tags);
	free(d->tasks);
	free(d->jobs);
	free(d->apis);
	free(d->launches);
	free(d->models);
	free(d->txs);
	free(d->app);
	free(d->cpu);
	free(d->aic_metrics);
	free(d->data_type_config);
}
