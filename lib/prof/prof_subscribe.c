/* SPDX-License-Identifier: MIT */
/*
 * Operator subscription: aclprofCreateSubscribeConfig/Destroy and
 * aclprofModelSubscribe/UnSubscribe. A subscription holds the model's
 * device ring (prof_device_subscribe); its sink turns every KERNEL task
 * record whose tag belongs to the model into a ProfOpDesc written to the
 * subscriber's pipe. UnSubscribe drains the rings, so the records of
 * finished executions are all written, then closes the pipe's write end
 * as CANN does. Not mixable with collection sessions.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl_prof.h"
#include "prof.h"
#include "prof_model.h"
#include "prof_subscribe.h"
#include "../core/entry_check.h"
#include "../core/error.h"

#define SUB_CFG_MAGIC 0x47464353u	/* "SCFG" */

struct aclprofSubscribeConfig {
	uint32_t magic;
	int8_t time_info;
	aclprofAicoreMetrics metrics;
	int fd;
};

struct sub {
	uint32_t model_id;
	int32_t device;
	int sink;
	int fd;
	bool time_info;
	bool live;		/* subscribed; records go to fd */
	bool leaving;		/* an UnSubscribe is draining it (subs_lock) */
	pthread_mutex_t lock;	/* fd, live */
	struct sub *next;
};

static _Atomic prof_model_lookup_fn model_lookup;
static pthread_mutex_t subs_lock = PTHREAD_MUTEX_INITIALIZER;
/* Subscriptions, live or ended (kept: a drain may still hold one). */
static struct sub *subs;

void prof_model_register(prof_model_lookup_fn fn)
{
	model_lookup = fn;
}

bool prof_subscribe_active(void)
{
	bool any = false;

	pthread_mutex_lock(&subs_lock);
	for (struct sub *s = subs; s && !any; s = s->next)
		any = s->live;
	pthread_mutex_unlock(&subs_lock);
	return any;
}

aclprofSubscribeConfig *aclprofCreateSubscribeConfig(int8_t timeInfoSwitch,
						     aclprofAicoreMetrics aicoreMetrics,
						     void *fd)
{
	aclprofSubscribeConfig *c;

	if (!fd) {
		acl_fail(ACL_ERROR_INVALID_PARAM, "fd must not be NULL");
		return NULL;
	}
	if (timeInfoSwitch != 0 && timeInfoSwitch != 1) {
		acl_fail(ACL_ERROR_INVALID_PARAM,
			 "timeInfoSwitch %d is neither 0 nor 1",
			 timeInfoSwitch);
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		acl_fail(ACL_ERROR_BAD_ALLOC, "out of memory");
		return NULL;
	}
	c->magic = SUB_CFG_MAGIC;
	c->time_info = timeInfoSwitch;
	c->metrics = aicoreMetrics;
	c->fd = *(int *)fd;
	return c;
}

aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig *cfg)
{
	if (!cfg || cfg->magic != SUB_CFG_MAGIC)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"profSubscribeConfig is not a config of aclprofCreateSubscribeConfig");
	((aclprofSubscribeConfig *)cfg)->magic = 0;
	free((void *)cfg);
	return ACL_SUCCESS;
}

/* Write all of buf; a reader that went away is not a signal. */
static void pipe_write(int fd, const void *buf, size_t len)
{
	const struct timespec zero = { 0, 0 };
	sigset_t pipe_set, old;
	const char *p = buf;
	bool broken = false;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			broken = errno == EPIPE;
			break;
		}
		p += n;
		len -= (size_t)n;
	}
	if (broken && !sigismember(&old, SIGPIPE))
		sigtimedwait(&pipe_set, NULL, &zero);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void sub_sink(const struct prof_task_rec *rec, void *arg)
{
	struct sub *s = arg;
	struct prof_tag_info info;
	struct prof_op_desc d;
	uint64_t start, end;

	if (rec->r.kind != DRM_VNPU_PROF_KIND_TASK ||
	    rec->r.type != DRM_VNPU_TASK_KERNEL || !rec->r.tag ||
	    rec->device != s->device ||
	    prof_tag_lookup(rec->r.tag, &info) || info.model_id != s->model_id)
		return;
	memset(&d, 0, sizeof(d));
	d.model_id = s->model_id;
	d.flag = ACL_SUBSCRIBE_OP;
	d.op_index = rec->r.tag;
	d.dev_id = (uint32_t)rec->device;
	if (s->time_info) {
		start = rec->r.start_ns / 1000;
		end = rec->r.end_ns / 1000;
		d.start = start;
		d.end = end >= start ? end : start;
		d.duration = d.end - d.start;
		d.execution_time = d.duration;
	}
	prof_op_sign(&d);
	pthread_mutex_lock(&s->lock);
	if (s->live)
		pipe_write(s->fd, &d, sizeof(d));
	pthread_mutex_unlock(&s->lock);
}

/* With subs_lock held: the subscription record of id (live or not). */
static struct sub *find_locked(uint32_t id)
{
	struct sub *s;

	for (s = subs; s && s->model_id != id; s = s->next)
		;
	return s;
}

aclError aclprofModelSubscribe(uint32_t modelId,
			       const aclprofSubscribeConfig *cfg)
{
	prof_model_lookup_fn lookup = model_lookup;
	aclError e = ACL_SUCCESS;
	int32_t device;
	struct sub *s;
	int flags, id;

	RT_REQUIRE_INIT();
	if (!cfg || cfg->magic != SUB_CFG_MAGIC)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"profSubscribeConfig is not a config of aclprofCreateSubscribeConfig");
	if (prof_api_initialized() || prof_session_dir() ||
	    prof_collecting(~0ULL))
		return acl_fail(ACL_ERROR_PROF_API_CONFLICT,
				"aclprofInit was called, or a session (acl.json, msprof) runs: subscription cannot be mixed with it");
	if (!lookup || lookup(modelId, &device))
		return acl_fail(ACL_ERROR_INVALID_MODEL_ID,
				"model %u is not loaded", modelId);
	flags = fcntl(cfg->fd, F_GETFL);
	if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"the config's fd %d is not open for writing",
				cfg->fd);
	pthread_mutex_lock(&subs_lock);
	s = find_locked(modelId);
	if (s && (s->live || s->leaving)) {
		e = acl_fail(ACL_ERROR_PROF_REPEAT_SUBSCRIBE,
			     "model %u is subscribed already", modelId);
		goto out;
	}
	if (!s) {
		s = calloc(1, sizeof(*s));
		if (!s) {
			e = acl_fail(ACL_ERROR_BAD_ALLOC, "out of memory");
			goto out;
		}
		pthread_mutex_init(&s->lock, NULL);
		s->model_id = modelId;
		s->next = subs;
		subs = s;
	}
	pthread_mutex_lock(&s->lock);
	s->device = device;
	s->fd = cfg->fd;
	s->time_info = cfg->time_info;
	s->live = true;
	pthread_mutex_unlock(&s->lock);
	id = prof_device_subscribe(device, sub_sink, s);
	if (id < 0) {
		pthread_mutex_lock(&s->lock);
		s->live = false;
		pthread_mutex_unlock(&s->lock);
		e = acl_fail(id == -EOPNOTSUPP ?
			     ACL_ERROR_PROF_MODULES_UNSUPPORTED :
			     ACL_ERROR_PROFILING_FAILURE,
			     "turning device %d's profile ring on failed (%s)",
			     (int)device, strerror(-id));
		goto out;
	}
	s->sink = id;
out:
	pthread_mutex_unlock(&subs_lock);
	return e;
}

aclError aclprofModelUnSubscribe(uint32_t modelId)
{
	struct sub *s;
	int fd;

	RT_REQUIRE_INIT();
	pthread_mutex_lock(&subs_lock);
	s = find_locked(modelId);
	if (!s || !s->live || s->leaving) {
		pthread_mutex_unlock(&subs_lock);
		return acl_fail(ACL_ERROR_INVALID_MODEL_ID,
				"model %u is not subscribed", modelId);
	}
	s->leaving = true;	/* a second UnSubscribe now fails */
	pthread_mutex_unlock(&subs_lock);
	/* Everything the finished executions left in the rings goes out. */
	prof_device_drain_all();
	prof_device_unsubscribe(s->device, s->sink);
	pthread_mutex_lock(&subs_lock);
	pthread_mutex_lock(&s->lock);
	fd = s->fd;
	s->live = false;
	s->fd = -1;
	pthread_mutex_unlock(&s->lock);
	s->leaving = false;
	pthread_mutex_unlock(&subs_lock);
	close(fd);
	return ACL_SUCCESS;
}
