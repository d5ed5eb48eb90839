/* SPDX-License-Identifier: MIT */
/* See unsupported.h. */
#include <pthread.h>
#include <string.h>

#include "acl/error_codes/rt_error_codes.h"
#include "unsupported.h"
#include "../core/error.h"
#include "../core/log.h"

/* Function names already logged; a small fixed set, then no more logs. */
#define LOGGED_MAX 64
static const char *logged[LOGGED_MAX];
static int nlogged;
static pthread_mutex_t logged_lock = PTHREAD_MUTEX_INITIALIZER;

static int first_time(const char *func)
{
	int i, first = 1;

	pthread_mutex_lock(&logged_lock);
	for (i = 0; i < nlogged; i++)
		if (!strcmp(logged[i], func))
			first = 0;
	if (first && nlogged < LOGGED_MAX)
		logged[nlogged++] = func;
	else if (nlogged >= LOGGED_MAX)
		first = 0;
	pthread_mutex_unlock(&logged_lock);
	return first;
}

aclError acl_unsupported(const char *func)
{
	if (first_time(func))
		log_msg(LOG_WARN, func,
			"not supported on vnpu (see Documentation/api-coverage.md)");
	return acl_fail_at(func, ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			   "not supported on vnpu: the virtual NPU has no such feature");
}
