/* SPDX-License-Identifier: MIT */
/*
 * msproftx stamps: aclprofCreateStamp/DestroyStamp and the message a
 * stamp carries. Stamps live in a pool of chunks so that a handle can be
 * checked before use (a stale or foreign pointer is an error, not a
 * crash) and so that at most TX_STAMPS_MAX are live, as on CANN.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_prof.h"
#include "prof_tx.h"
#include "../core/error.h"

#define TX_STAMP_MAGIC	0x54535458u	/* "XTST" */
#define TX_CHUNK	100
#define TX_CHUNKS	(TX_STAMPS_MAX / TX_CHUNK)

static pthread_mutex_t stamp_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tx_stamp *chunks[TX_CHUNKS];
static uint32_t nchunks, live;

/* With stamp_lock held. */
static struct tx_stamp *find_locked(const void *p)
{
	for (uint32_t i = 0; i < nchunks; i++) {
		const char *lo = (const char *)chunks[i];
		const char *hi = (const char *)(chunks[i] + TX_CHUNK);
		const char *c = p;

		if (c < lo || c >= hi)
			continue;
		if ((size_t)(c - lo) % sizeof(struct tx_stamp))
			return NULL;
		return (struct tx_stamp *)p;
	}
	return NULL;
}

struct tx_stamp *tx_stamp_get(void *p)
{
	struct tx_stamp *s;

	if (!p)
		return NULL;
	pthread_mutex_lock(&stamp_lock);
	s = find_locked(p);
	if (s && s->magic != TX_STAMP_MAGIC)
		s = NULL;
	pthread_mutex_unlock(&stamp_lock);
	return s;
}

/* With stamp_lock held: a free slot, growing the pool by a chunk. */
static struct tx_stamp *take_locked(void)
{
	for (uint32_t i = 0; i < nchunks; i++)
		for (uint32_t j = 0; j < TX_CHUNK; j++)
			if (chunks[i][j].magic != TX_STAMP_MAGIC)
				return &chunks[i][j];
	if (nchunks == TX_CHUNKS)
		return NULL;
	chunks[nchunks] = calloc(TX_CHUNK, sizeof(struct tx_stamp));
	if (!chunks[nchunks])
		return NULL;
	return &chunks[nchunks++][0];
}

void *aclprofCreateStamp(void)
{
	struct tx_stamp *s;

	if (!tx_on()) {
		acl_fail(ACL_ERROR_PROF_NOT_RUN,
			 "no profiling session collects ACL_PROF_MSPROFTX: call aclprofStart with it first");
		return NULL;
	}
	pthread_mutex_lock(&stamp_lock);
	s = live < TX_STAMPS_MAX ? take_locked() : NULL;
	if (s) {
		memset(s, 0, sizeof(*s));
		s->magic = TX_STAMP_MAGIC;
		live++;
	}
	pthread_mutex_unlock(&stamp_lock);
	if (!s)
		acl_fail(ACL_ERROR_BAD_ALLOC,
			 "%u stamps are live, the most there may be: destroy some with aclprofDestroyStamp",
			 (unsigned)TX_STAMPS_MAX);
	return s;
}

void aclprofDestroyStamp(void *stamp)
{
	struct tx_stamp *s;

	if (!stamp)
		return;
	pthread_mutex_lock(&stamp_lock);
	s = find_locked(stamp);
	if (s && s->magic == TX_STAMP_MAGIC) {
		s->magic = 0;
		live--;
	} else {
		s = NULL;
	}
	pthread_mutex_unlock(&stamp_lock);
	if (!s)
		acl_fail(ACL_ERROR_INVALID_PARAM,
			 "stamp %p is not a live stamp of aclprofCreateStamp",
			 stamp);
}

aclError aclprofSetStampTraceMessage(void *stamp, const char *msg,
				     uint32_t msgLen)
{
	struct tx_stamp *s = tx_stamp_get(stamp);
	size_t n;

	if (!s)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"stamp %p is not a live stamp of aclprofCreateStamp",
				stamp);
	if (!msg || !msgLen)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"msg must not be NULL or empty");
	if (msgLen > TX_MSG_MAX)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"msgLen %u is too long: at most %d bytes",
				msgLen, TX_MSG_MAX);
	n = strnlen(msg, msgLen);
	pthread_mutex_lock(&stamp_lock);
	memcpy(s->msg, msg, n);
	s->msg[n] = '\0';
	pthread_mutex_unlock(&stamp_lock);
	return ACL_SUCCESS;
}
