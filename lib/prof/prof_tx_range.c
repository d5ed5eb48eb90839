/* SPDX-License-Identifier: MIT */
/*
 * Ranges that may start on one thread and stop on another: a small
 * process-wide table keyed by id. Messages and domains are copied, so
 * the caller's stamp or string may change or go away in between.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "prof_tx.h"

struct tx_range {
	uint64_t id;
	struct tx_row row;
	char msg[TX_MSG_MAX + 1];
	char domain[TX_MSG_MAX + 1];
	bool has_domain;
};

static pthread_mutex_t range_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tx_range *ranges;
static size_t nranges, cap;
static uint64_t next_id = 1;

static void copy_str(char *dst, const char *src)
{
	size_t n = src ? strnlen(src, TX_MSG_MAX) : 0;

	memcpy(dst, src ? src : "", n);
	dst[n] = '\0';
}

uint64_t tx_range_open(const struct tx_row *row)
{
	struct tx_range *r;
	uint64_t id = 0;

	pthread_mutex_lock(&range_lock);
	if (nranges == cap) {
		size_t ncap = cap ? cap * 2 : 16;
		struct tx_range *n = realloc(ranges, ncap * sizeof(*n));

		if (!n)
			goto out;
		ranges = n;
		cap = ncap;
	}
	r = &ranges[nranges++];
	r->id = id = next_id++;
	r->row = *row;
	copy_str(r->msg, row->message);
	r->has_domain = row->domain != NULL;
	copy_str(r->domain, row->domain);
out:
	pthread_mutex_unlock(&range_lock);
	return id;
}

int tx_range_close(uint64_t id, const char *domain, struct tx_row *row)
{
	static _Thread_local char msg[TX_MSG_MAX + 1], dom[TX_MSG_MAX + 1];
	int ret = -ENOENT;

	pthread_mutex_lock(&range_lock);
	for (size_t i = 0; i < nranges; i++) {
		struct tx_range *r = &ranges[i];

		if (r->id != id)
			continue;
		if (domain && (!r->has_domain || strcmp(r->domain, domain)))
			break;
		*row = r->row;
		memcpy(msg, r->msg, sizeof(msg));
		memcpy(dom, r->domain, sizeof(dom));
		row->message = msg;
		row->domain = r->has_domain ? dom : NULL;
		ranges[i] = ranges[--nranges];
		ret = 0;
		break;
	}
	pthread_mutex_unlock(&range_lock);
	return ret;
}
