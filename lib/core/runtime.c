/* SPDX-License-Identifier: MIT */
/* Process-wide runtime state. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "runtime.h"

static struct {
	pthread_mutex_t lock;
	uint64_t refs;		/* aclInit calls not yet finalized */
	struct device_scan scan;
} rt = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

int runtime_init(char *why, size_t len)
{
	int ret = 0;

	pthread_mutex_lock(&rt.lock);
	if (rt.refs) {
		rt.refs++;
		ret = 1;
		goto out;
	}
	ret = device_scan(&rt.scan, why, len);
	if (!ret)
		rt.refs = 1;
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

bool runtime_initialized(void)
{
	bool ret;

	pthread_mutex_lock(&rt.lock);
	ret = rt.refs != 0;
	pthread_mutex_unlock(&rt.lock);
	return ret;
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
