/* SPDX-License-Identifier: MIT */
/*
 * The raw data directory's files (Documentation/profiling.md, "Raw data
 * directory"): appending lines to a session's .tsv files, the host
 * events, the device records, and the info files written at stop.
 */
#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/log.h"
#include "prof_int.h"

void prof_raw_clean(char *s)
{
	for (; s && *s; s++)
		if (*s == '\t' || *s == '\n' || *s == '\r')
			*s = ' ';
}

int prof_mkdirs(const char *path)
{
	char buf[PROF_PATH_MAX + 256];
	size_t n = strlen(path);

	if (!n || n >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, n + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

/* s's open file rel, made (with its folder and header) on first use. */
static FILE *file_locked(struct prof_session *s, const char *rel,
			 const char *header)
{
	char path[sizeof(s->dir) + 80];
	struct prof_file *free_slot = NULL;
	char *slash;
	FILE *f;

	for (int i = 0; i < PROF_MAX_FILES; i++) {
		if (s->files[i].f && !strcmp(s->files[i].rel, rel))
			return s->files[i].f;
		if (!s->files[i].f && !free_slot)
			free_slot = &s->files[i];
	}
	if (!free_slot || strlen(rel) >= sizeof(free_slot->rel) ||
	    strstr(rel, ".."))
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", s->dir, rel);
	slash = strrchr(path, '/');
	*slash = 0;
	if (prof_mkdirs(path))
		return NULL;
	*slash = '/';
	f = fopen(path, "ae");
	if (!f)
		return NULL;
	if (header && ftell(f) == 0)
		fprintf(f, "%s\n", header);
	snprintf(free_slot->rel, sizeof(free_slot->rel), "%s", rel);
	free_slot->f = f;
	return f;
}

int prof_raw_append_locked(struct prof_session *s, const char *rel,
			   const char *header, const char *line)
{
	FILE *f = file_locked(s, rel, header);

	if (!f)
		return -EIO;
	fputs(line, f);
	fputc('\n', f);
	return 0;
}

void prof_raw_close_locked(struct prof_session *s)
{
	for (int i = 0; i < PROF_MAX_FILES; i++) {
		if (s->files[i].f)
			fclose(s->files[i].f);
		s->files[i].f = NULL;
	}
}

/* The newest running session, locked; NULL when none runs. */
static struct prof_session *newest_locked(void)
{
	struct prof_session *best = NULL;

	for (int i = 0; i < PROF_MAX_SESSIONS; i++) {
		struct prof_session *s = &prof_sessions[i];

		if (s->running && (!best || s->start_ns > best->start_ns))
			best = s;
	}
	if (best) {
		pthread_mutex_lock(&best->lock);
		if (!best->running) {
			pthread_mutex_unlock(&best->lock);
			best = NULL;
		}
	}
	return best;
}

int prof_raw_append(const char *rel, const char *header, const char *line)
{
	struct prof_session *s = newest_locked();
	int ret;

	if (!s)
		return -ENOENT;
	if (!rel || !line)
		ret = -EINVAL;
	else
		ret = prof_raw_append_locked(s, rel, header, line);
	pthread_mutex_unlock(&s->lock);
	return ret;
}

const char *prof_session_dir(void)
{
	struct prof_session *s = newest_locked();
	const char *d;

	if (!s)
		return NULL;
	d = s->dir;	/* stays while the slot is not reused */
	pthread_mutex_unlock(&s->lock);
	return d;
}

/* --- host events ---------------------------------------------------- */

static const char *const level_names[] = { "AscendCL", "Runtime", "Model",
					   "Node" };

static bool has_dev(const struct prof_session *s, int32_t dev)
{
	if (s->p.all_devices)
		return true;
	for (uint32_t i = 0; i < s->p.ndev; i++)
		if (s->p.devs[i] == dev)
			return true;
	return false;
}

static void host_event(const struct prof_event *e, void *arg)
{
	char line[512], name[256];
	int pid = getpid();

	snprintf(name, sizeof(name), "%s", e->name && *e->name ? e->name : "-");
	prof_raw_clean(name);
	for (int i = 0; i < PROF_MAX_SESSIONS; i++) {
		struct prof_session *s = &prof_sessions[i];
		uint64_t m = s->p.mask;

		if (!s->running)
			continue;
		pthread_mutex_lock(&s->lock);
		if (!s->running || e->start_ns < s->start_ns) {
			pthread_mutex_unlock(&s->lock);
			continue;
		}
		switch (e->kind) {
		case PROF_EV_API:
			if (!(m & (e->level == PROF_LEVEL_RUNTIME ?
				   ACL_PROF_RUNTIME_API : ACL_PROF_ACL_API)))
				break;
			snprintf(line, sizeof(line),
				 "%s\t%s\t%d\t%u\t%" PRIu64 "\t%" PRIu64,
				 level_names[e->level & 3], name, pid, e->tid,
				 e->start_ns, e->end_ns);
			prof_raw_append_locked(s, "host/data/api.tsv",
					       "#level\tname\tpid\ttid\tstart_ns\tend_ns",
					       line);
			break;
		case PROF_EV_LAUNCH:
			if (!(m & PROF_RING_BITS) || !has_dev(s, e->device))
				break;
			snprintf(line, sizeof(line),
				 "%d\t%u\t%" PRIu64 "\t%u\t%u\t%u\t%" PRIu64,
				 e->device, e->queue, e->seq, e->task, e->tag,
				 e->tid, e->start_ns);
			prof_raw_append_locked(s, "host/data/launch.tsv",
					       "#device\tqueue\tseq\ttask\ttag\ttid\ttime_ns",
					       line);
			break;
		case PROF_EV_MODEL:
			if (e->device >= 0 && !has_dev(s, e->device))
				break;
			snprintf(line, sizeof(line),
				 "%d\t%" PRIu64 "\t%s\t%u\t%u\t%" PRIu64 "\t%" PRIu64,
				 e->device, e->seq, name, e->queue, e->tid,
				 e->start_ns, e->end_ns);
			prof_raw_append_locked(s, "host/data/model.tsv",
					       "#device\tmodel_id\tmodel_name\tqueue\ttid\tstart_ns\tend_ns",
					       line);
			break;
		case PROF_EV_MEM:
			if (!(m & ACL_PROF_TASK_MEMORY))
				break;
			snprintf(line, sizeof(line),
				 "%d\t%u\t%" PRIu64 "\t0x%" PRIx64 "\t%" PRId64,
				 e->device, e->tid, e->start_ns, e->addr,
				 e->value);
			prof_raw_append_locked(s, "host/data/mem.tsv",
					       "#device\ttid\ttime_ns\taddr\tsize",
					       line);
			break;
		default:
			break;
		}
		pthread_mutex_unlock(&s->lock);
	}
}

static pthread_mutex_t host_drain_lock = PTHREAD_MUTEX_INITIALIZER;

void prof_raw_drain_host(void)
{
	uint64_t lost;

	/* One drainer at a time keeps each file's lines in order. */
	pthread_mutex_lock(&host_drain_lock);
	lost = prof_rt_drain(host_event, NULL);
	if (lost) {
		rt_log(LOG_WARN, "profiling: %" PRIu64 " host events lost (buffer full)",
		       lost);
		for (int i = 0; i < PROF_MAX_SESSIONS; i++) {
			struct prof_session *s = &prof_sessions[i];

			pthread_mutex_lock(&s->lock);
			if (s->running)
				s->host_lost += lost;
			pthread_mutex_unlock(&s->lock);
		}
	}
	pthread_mutex_unlock(&host_drain_lock);
}

/* --- device records --------------------------------------------------- */

void prof_raw_task_sink(const struct prof_task_rec *rec, void *arg)
{
	struct prof_session *s = arg;
	const struct drm_vnpu_prof_record *r = &rec->r;
	char rel[64], line[320];

	if (rec->device < 0 || rec->device >= PROF_MAX_DEVICES)
		return;
	snprintf(rel, sizeof(rel), "device_%d/data/task.tsv", rec->device);
	snprintf(line, sizeof(line),
		 "%s\t%u\t%u\t%" PRIu64 "\t%u\t%u\t%u\t%u\t%u\t%" PRIu64
		 "\t%" PRIu64 "\t%" PRIu64 "\t%u\t%u",
		 r->kind == DRM_VNPU_PROF_KIND_JOB ? "job" : "task",
		 r->engine, r->queue, (uint64_t)r->seq, r->task, r->tag,
		 r->type, r->status, r->op, (uint64_t)r->start_ns,
		 (uint64_t)r->end_ns, (uint64_t)r->bytes, r->pieces, r->parks);
	pthread_mutex_lock(&s->lock);
	if (s->running) {
		prof_raw_append_locked(s, rel,
				       "#kind\tengine\tqueue\tseq\ttask\ttag\ttype\tstatus\top\tstart_ns\tend_ns\tbytes\tpieces\tparks",
				       line);
		s->records[rec->device]++;
		s->seen[rec->device] = true;
	}
	pthread_mutex_unlock(&s->lock);
}

/* --- info files -------------------------------------------------------- */

static const char *const kind_names[] = { "AI_CORE", "AI_CPU", "MEMCPY",
					  "DVPP", "MARK" };

static void write_tags_locked(struct prof_session *s)
{
	uint32_t n = prof_tag_count();
	char line[1200];

	for (uint32_t t = 1; t <= n; t++) {
		struct prof_tag_info ti;
		char type[256], name[512], shapes[256];

		if (prof_tag_lookup(t, &ti))
			continue;
		snprintf(type, sizeof(type), "%s",
			 ti.op_type && *ti.op_type ? ti.op_type : "-");
		snprintf(name, sizeof(name), "%s",
			 ti.op_name && *ti.op_name ? ti.op_name : "-");
		snprintf(shapes, sizeof(shapes), "%s",
			 ti.shapes && *ti.shapes ? ti.shapes : "-");
		prof_raw_clean(type);
		prof_raw_clean(name);
		prof_raw_clean(shapes);
		snprintf(line, sizeof(line), "%u\t%u\t%s\t%s\t%s\t%s", t,
			 ti.model_id, type, name,
			 ti.kind < 5 ? kind_names[ti.kind] : "AI_CORE", shapes);
		prof_raw_append_locked(s, "host/data/tags.tsv",
				       "#tag\tmodel_id\top_type\top_name\ttask_type\tshapes",
				       line);
	}
}

static void app_line(char *out, size_t len)
{
	FILE *f = fopen("/proc/self/cmdline", "re");
	size_t n = 0;

	*out = 0;
	if (f) {
		n = fread(out, 1, len - 1, f);
		fclose(f);
	}
	out[n] = 0;
	for (size_t i = 0; i + 1 < n; i++)
		if (!out[i])
			out[i] = ' ';
}

static void cpu_model(char *out, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];

	snprintf(out, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *c = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && c) {
			c++;
			while (*c == ' ')
				c++;
			c[strcspn(c, "\n")] = 0;
			snprintf(out, len, "%s", c);
			break;
		}
	}
	fclose(f);
}

static void write_json(const char *dir, const char *rel,
		       struct json_object *o)
{
	char path[PROF_PATH_MAX + 256];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	if (json_object_to_file_ext(path, o, JSON_C_TO_STRING_PRETTY))
		rt_log(LOG_WARN, "profiling: cannot write %s", path);
	json_object_put(o);
}

void prof_raw_finish(struct prof_session *s)
{
	struct json_object *o = json_object_new_object(), *devs;
	uint64_t dropped_now[PROF_MAX_DEVICES];
	uint32_t engines[PROF_MAX_DEVICES];
	char buf[PROF_PATH_MAX + 256], hex[32];

	/* Before s->lock: sinks take the ring lock, then a session's. */
	for (int d = 0; d < PROF_MAX_DEVICES; d++) {
		dropped_now[d] = prof_device_dropped(d);
		engines[d] = prof_device_engines(d);
	}
	pthread_mutex_lock(&s->lock);
	write_tags_locked(s);
	prof_raw_close_locked(s);
	json_object_object_add(o, "version", json_object_new_int(1));
	json_object_object_add(o, "pid", json_object_new_int(getpid()));
	app_line(buf, sizeof(buf));
	json_object_object_add(o, "app", json_object_new_string(buf));
	cpu_model(buf, sizeof(buf));
	json_object_object_add(o, "cpu", json_object_new_string(buf));
	json_object_object_add(o, "start_ns",
			       json_object_new_uint64(s->start_ns));
	json_object_object_add(o, "stop_ns", json_object_new_uint64(s->stop_ns));
	json_object_object_add(o, "start_wall_us",
			       json_object_new_uint64(s->start_wall_us));
	snprintf(hex, sizeof(hex), "0x%" PRIx64, s->p.mask);
	json_object_object_add(o, "data_type_config",
			       json_object_new_string(hex));
	json_object_object_add(o, "aic_metrics",
			       json_object_new_string(prof_metrics_name(s->p.aic_metrics)));
	devs = json_object_new_array();
	for (int d = 0; d < PROF_MAX_DEVICES; d++) {
		bool listed = s->p.all_devices ? s->seen[d] :
			      has_dev(s, d);
		struct json_object *di;
		uint64_t dropped;
		char rel[64];

		if (!listed)
			continue;
		json_object_array_add(devs, json_object_new_int(d));
		dropped = dropped_now[d] - s->dropped_base[d];
		if (dropped)
			rt_log(LOG_WARN, "profiling: device %d dropped %" PRIu64 " records (ring full; raise VNPU_PROF_RING_RECORDS)",
			       d, dropped);
		snprintf(rel, sizeof(rel), "device_%d", d);
		snprintf(buf, sizeof(buf), "%s/%s", s->dir, rel);
		prof_mkdirs(buf);
		di = json_object_new_object();
		json_object_object_add(di, "device", json_object_new_int(d));
		json_object_object_add(di, "engines",
				       json_object_new_int((int)engines[d]));
		json_object_object_add(di, "records",
				       json_object_new_uint64(s->records[d]));
		json_object_object_add(di, "dropped",
				       json_object_new_uint64(dropped));
		json_object_object_add(di, "ring_records",
				       json_object_new_int((int)prof_ring_records()));
		snprintf(rel, sizeof(rel), "device_%d/info.json", d);
		write_json(s->dir, rel, di);
	}
	json_object_object_add(o, "devices", devs);
	if (s->host_lost)
		json_object_object_add(o, "host_events_lost",
				       json_object_new_uint64(s->host_lost));
	write_json(s->dir, "info.json", o);
	pthread_mutex_unlock(&s->lock);
}
