/* SPDX-License-Identifier: MIT */
/*
 * What the runtime records for the profiler (prof_rt.h): the collection
 * mask, the task tag registry, the calling thread's tag and the host
 * event buffer. lib/prof turns collection on and drains the buffer.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl_prof.h"
#include "prof_rt.h"

_Atomic uint64_t prof_rt_mask;

uint64_t prof_rt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* --- tags ------------------------------------------------------------ */

struct tag_ent {
	struct prof_tag_info info;
	uint64_t hash;
	uint32_t next;		/* next tag in the hash chain, 0: none */
};

#define TAG_BUCKETS 4096u

static pthread_mutex_t tag_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tag_ent *tags;	/* tags[t - 1] */
static uint32_t ntags, tags_cap;
static uint32_t buckets[TAG_BUCKETS];

static uint64_t mix(uint64_t h, const char *s)
{
	/* FNV-1a; NULL and "" hash alike but compare apart. */
	for (; s && *s; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
	return (h ^ 0xff) * 0x100000001b3ull;
}

static bool str_eq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

static char *dup_or_null(const char *s, bool *oom)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*oom = true;
	return d;
}

uint32_t prof_tag_intern(const char *op_type, const char *op_name,
			 uint32_t model_id, uint32_t kind, const char *shapes)
{
	uint64_t h = mix(mix(0xcbf29ce484222325ull, op_type), op_name);
	struct tag_ent *e;
	bool oom = false;
	uint32_t t;

	h = (h ^ model_id) * 0x100000001b3ull;
	h = (h ^ kind) * 0x100000001b3ull;
	pthread_mutex_lock(&tag_lock);
	for (t = buckets[h % TAG_BUCKETS]; t; t = tags[t - 1].next) {
		e = &tags[t - 1];
		if (e->hash == h && e->info.model_id == model_id &&
		    e->info.kind == kind && str_eq(e->info.op_type, op_type) &&
		    str_eq(e->info.op_name, op_name)) {
			pthread_mutex_unlock(&tag_lock);
			return t;
		}
	}
	if (ntags == tags_cap) {
		uint32_t cap = tags_cap ? 2 * tags_cap : 256;
		struct tag_ent *p = realloc(tags, cap * sizeof(*p));

		if (!p) {
			pthread_mutex_unlock(&tag_lock);
			return 0;
		}
		tags = p;
		tags_cap = cap;
	}
	e = &tags[ntags];
	memset(e, 0, sizeof(*e));
	e->info.op_type = dup_or_null(op_type, &oom);
	e->info.op_name = dup_or_null(op_name, &oom);
	e->info.shapes = dup_or_null(shapes, &oom);
	if (oom) {
		free((char *)e->info.op_type);
		free((char *)e->info.op_name);
		free((char *)e->info.shapes);
		pthread_mutex_unlock(&tag_lock);
		return 0;
	}
	e->info.model_id = model_id;
	e->info.kind = kind;
	e->hash = h;
	t = ++ntags;
	e->next = buckets[h % TAG_BUCKETS];
	buckets[h % TAG_BUCKETS] = t;
	pthread_mutex_unlock(&tag_lock);
	return t;
}

int prof_tag_lookup(uint32_t tag, struct prof_tag_info *out)
{
	int ret = -ENOENT;

	pthread_mutex_lock(&tag_lock);
	if (tag && tag <= ntags) {
		*out = tags[tag - 1].info;	/* the strings never move */
		ret = 0;
	}
	pthread_mutex_unlock(&tag_lock);
	return ret;
}

uint32_t prof_tag_count(void)
{
	uint32_t n;

	pthread_mutex_lock(&tag_lock);
	n = ntags;
	pthread_mutex_unlock(&tag_lock);
	return n;
}

static _Thread_local uint32_t cur_tag;

uint32_t prof_tag_swap(uint32_t tag)
{
	uint32_t old = cur_tag;

	cur_tag = tag;
	return old;
}

uint32_t prof_tag_current(void)
{
	return cur_tag;
}

uint32_t prof_tag_cached(_Atomic uint32_t *cache, const char *type,
			 const char *name, uint32_t kind)
{
	uint32_t t = atomic_load_explicit(cache, memory_order_relaxed);

	if (!t) {
		t = prof_tag_intern(type, name, 0, kind, NULL);
		atomic_store_explicit(cache, t, memory_order_relaxed);
	}
	return t;
}

void prof_tag_restore(uint32_t *old)
{
	cur_tag = *old;
}

/* --- host events ------------------------------------------------------ */

/* At most this many events wait for a drain; later ones are counted lost. */
#define EV_CAP (1u << 20)

static pthread_mutex_t ev_lock = PTHREAD_MUTEX_INITIALIZER;
static struct prof_event *evs;
static uint32_t nevs, evs_cap;
static uint64_t ev_lost;

static uint32_t my_tid(void)
{
	static _Thread_local uint32_t tid;

	if (!tid)
		tid = (uint32_t)syscall(SYS_gettid);
	return tid;
}

void prof_rt_record(const struct prof_event *e)
{
	uint32_t tid = my_tid();

	pthread_mutex_lock(&ev_lock);
	if (nevs == evs_cap) {
		uint32_t cap = evs_cap ? 2 * evs_cap : 1024;
		struct prof_event *p = NULL;

		if (cap <= EV_CAP)
			p = realloc(evs, cap * sizeof(*p));
		if (!p) {
			ev_lost++;
			pthread_mutex_unlock(&ev_lock);
			return;
		}
		evs = p;
		evs_cap = cap;
	}
	evs[nevs] = *e;
	evs[nevs].tid = tid;
	nevs++;
	pthread_mutex_unlock(&ev_lock);
}

uint64_t prof_rt_drain(void (*fn)(const struct prof_event *e, void *arg),
		       void *arg)
{
	struct prof_event *batch;
	uint32_t n;
	uint64_t lost;

	/* Take the buffer whole so recorders never wait for the writer. */
	pthread_mutex_lock(&ev_lock);
	batch = evs;
	n = nevs;
	lost = ev_lost;
	evs = NULL;
	nevs = 0;
	evs_cap = 0;
	ev_lost = 0;
	pthread_mutex_unlock(&ev_lock);
	for (uint32_t i = 0; i < n; i++)
		fn(&batch[i], arg);
	free(batch);
	return lost;
}

/* --- API spans -------------------------------------------------------- */

struct prof_api_scope prof_api_begin_on(const char *name)
{
	struct prof_api_scope s = { name, prof_rt_now() };

	return s;
}

void prof_api_end_on(struct prof_api_scope *s)
{
	struct prof_event e = { .kind = PROF_EV_API, .level = PROF_LEVEL_ACL };

	e.name = s->name;
	e.start_ns = s->start;
	e.end_ns = prof_rt_now();
	e.device = -1;
	prof_rt_record(&e);
}

/* --- strings and model events ---------------------------------------- */

static pthread_mutex_t str_lock = PTHREAD_MUTEX_INITIALIZER;
static char **strs;
static size_t nstrs, strs_cap;

const char *prof_rt_string(const char *s)
{
	const char *r = NULL;

	if (!s)
		return NULL;
	pthread_mutex_lock(&str_lock);
	for (size_t i = 0; i < nstrs && !r; i++)
		if (!strcmp(strs[i], s))
			r = strs[i];
	if (!r && nstrs == strs_cap) {
		size_t cap = strs_cap ? 2 * strs_cap : 64;
		char **p = realloc(strs, cap * sizeof(*p));

		if (p) {
			strs = p;
			strs_cap = cap;
		}
	}
	if (!r && nstrs < strs_cap) {
		char *d = strdup(s);

		if (d)
			r = strs[nstrs++] = d;
	}
	pthread_mutex_unlock(&str_lock);
	return r;
}

void prof_rt_model(uint32_t id, const char *name, int32_t device,
		   uint32_t queue, uint64_t start)
{
	struct prof_event e = { .kind = PROF_EV_MODEL,
				.level = PROF_LEVEL_MODEL };

	if (!atomic_load_explicit(&prof_rt_mask, memory_order_relaxed))
		return;
	e.name = prof_rt_string(name);
	e.start_ns = start;
	e.end_ns = prof_rt_now();
	e.device = device;
	e.queue = queue;
	e.seq = id;
	prof_rt_record(&e);
}

void prof_rt_mem(int32_t device, const void *p, int64_t size)
{
	struct prof_event e = { .kind = PROF_EV_MEM };

	if (!prof_rt_on(ACL_PROF_TASK_MEMORY))
		return;
	e.start_ns = e.end_ns = prof_rt_now();
	e.device = device;
	e.addr = (uint64_t)(uintptr_t)p;
	e.value = size;
	prof_rt_record(&e);
}

struct prof_api_scope prof_runtime_begin(const char *name)
{
	struct prof_api_scope s = { 0 };

	if (prof_rt_on(ACL_PROF_RUNTIME_API)) {
		s.name = name;
		s.start = prof_rt_now();
	}
	return s;
}

void prof_runtime_end(struct prof_api_scope *s)
{
	struct prof_event e = { .kind = PROF_EV_API,
				.level = PROF_LEVEL_RUNTIME };

	if (!s->name)
		return;
	e.name = s->name;
	e.start_ns = s->start;
	e.end_ns = prof_rt_now();
	e.device = -1;
	prof_rt_record(&e);
}
