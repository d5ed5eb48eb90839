// SPDX-License-Identifier: MIT
/*
 * The lifecycle hook table (lifecycle.h). Entries are only added, under a
 * lock, and the count is published after the entry, so the callers read
 * it without a lock (the fork child cannot take one).
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>

#include "lifecycle.h"

#define LIFECYCLE_MAX	8

static const struct rt_lifecycle *table[LIFECYCLE_MAX];
static unsigned int count;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

int rt_lifecycle_register(const struct rt_lifecycle *lc)
{
	unsigned int i;
	int ret = 0;

	pthread_mutex_lock(&table_lock);
	for (i = 0; i < count; i++)
		if (table[i] == lc)
			goto out;
	if (count == LIFECYCLE_MAX) {
		ret = -ENOSPC;
		goto out;
	}
	table[count] = lc;
	__atomic_store_n(&count, count + 1, __ATOMIC_RELEASE);
out:
	pthread_mutex_unlock(&table_lock);
	return ret;
}

static unsigned int registered(void)
{
	return __atomic_load_n(&count, __ATOMIC_ACQUIRE);
}

void rt_lifecycle_forget_stream(const struct rt_stream *s)
{
	unsigned int i, n = registered();

	for (i = 0; i < n; i++)
		if (table[i]->forget_stream)
			table[i]->forget_stream(s);
}

void rt_lifecycle_after_fork(void)
{
	unsigned int i, n = registered();

	/* the child has one thread and may hold no lock: no table_lock */
	for (i = 0; i < n; i++)
		if (table[i]->after_fork)
			table[i]->after_fork();
}

void rt_lifecycle_teardown(void)
{
	unsigned int i, n = registered();

	for (i = 0; i < n; i++)
		if (table[i]->teardown)
			table[i]->teardown();
}

void rt_lifecycle_device_open(int32_t id, int fd)
{
	unsigned int i, n = registered();

	for (i = 0; i < n; i++)
		if (table[i]->device_open)
			table[i]->device_open(id, fd);
}

void rt_lifecycle_device_close(int32_t id, int fd)
{
	unsigned int i, n = registered();

	for (i = 0; i < n; i++)
		if (table[i]->device_close)
			table[i]->device_close(id, fd);
}
