/* SPDX-License-Identifier: MIT */
/* Process-wide runtime state. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <unistd.h>

#include "lifecycle.h"
#include "log.h"
#include "rt_objects.h"
#include "runtime.h"
#include "submit_path.h"

static struct {
	pthread_mutex_t lock;
	/* aclInit calls not yet finalized; written under lock, read without */
	_Atomic uint64_t refs;
	struct device_scan scan;
	pid_t init_pid;		/* process that called aclInit */
	pid_t forked_from;	/* child of a fork: that initialised parent */
} rt = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

/*
 * Fork safety: a child inherits the parent's runtime objects, whose fds
 * share the parent's drm_file (closing a handle there would free the
 * parent's). The child therefore starts uninitialised: every entry point
 * fails with ACL_ERROR_UNINITIALIZE and says so until aclInit is called
 * again in the child, which opens the devices afresh.
 */
static void atfork_child(void)
{
	pthread_mutex_init(&rt.lock, NULL);
	if (rt.refs)
		rt.forked_from = rt.init_pid;
	rt.refs = 0;
	memset(&rt.scan, 0, sizeof(rt.scan));
	device_forget_after_fork();
	context_forget_after_fork();
	cb_forget_after_fork();
	ipc_forget_after_fork();
	graph_forget_after_fork();
	rt_lifecycle_after_fork();
	aicpu_fail_forget_after_fork();
	handles_forget_after_fork();
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void atfork_register(void)
{
	pthread_atfork(NULL, NULL, atfork_child);
}

pid_t runtime_forked_from(void)
{
	return rt.forked_from;
}

int runtime_init(char *why, size_t len)
{
	int ret = 0;

	pthread_once(&atfork_once, atfork_register);
	log_init();
	pthread_mutex_lock(&rt.lock);
	if (rt.refs) {
		rt.refs++;
		ret = 1;
		goto out;
	}
	ret = device_scan(&rt.scan, why, len);
	if (!ret) {
		submit_path_configure();
		rt.refs = 1;
		rt.init_pid = getpid();
		rt.forked_from = 0;
	}
out:
	pthread_mutex_unlock(&rt.lock);
	return ret;
}

int64_t runtime_finalize(bool all)
{
	int64_t left;

	pthread_mutex_lock(&rt.lock);
	if (!rt.refs) {
		pthread_mutex_unlock(&rt.lock);
		return -EALREADY;
	}
	rt.refs = all ? 0 : rt.refs - 1;
	if (!rt.refs)
		memset(&rt.scan, 0, sizeof(rt.scan));
	left = (int64_t)rt.refs;
	pthread_mutex_unlock(&rt.lock);
	return left;
}

/* Every entry point asks: one atomic load, no lock. */
bool runtime_initialized(void)
{
	return rt.refs != 0;
}

int runtime_device_count(uint32_t *count, char *why, size_t len)
{
	int ret = 0;

	pthread_mutex_lock(&rt.lock);
	if (!rt.refs) {
		ret = -EALREADY;
	} else {
		*count = rt.scan.count;
		if (!rt.scan.count)
			snprintf(why, len, "%s", rt.scan.notes);
	}
	pthread_mutex_unlock(&rt.lock);
	return ret;
}

int runtime_device_path(uint32_t id, char *path, size_t len)
{
	int ret = 0;

	pthread_mutex_lock(&rt.lock);
	if (!rt.refs)
		ret = -EALREADY;
	else if (id >= rt.scan.count)
		ret = -ENODEV;
	else
		snprintf(path, len, "%s", rt.scan.devs[id].path);
	pthread_mutex_unlock(&rt.lock);
	return ret;
}
