/* SPDX-License-Identifier: MIT */
/*
 * The set of live stream and event handles. API calls look a handle up
 * here before touching the object, so a destroyed (freed) stream or event
 * is recognised without reading freed memory. Removal is the claim to
 * destroy: of two racing destroys only one finds the handle.
 *
 * Every operator launch looks its stream up, from every thread that
 * launches, so lookups share a read lock: threads on their own streams
 * do not queue behind each other.
 */
#include <errno.h>
#include <stdlib.h>

#include "rt_objects.h"

#define HANDLE_BUCKETS 256

struct handle_node {
	const void *p;
	enum handle_kind kind;
	struct handle_node *next;
};

/* Writers first: a stream's creation is never starved by launches. */
static pthread_rwlock_t handles_lock =
	PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;
static struct handle_node *buckets[HANDLE_BUCKETS];

static struct handle_node **bucket_of(const void *p)
{
	uintptr_t h = (uintptr_t)p >> 4;

	return &buckets[(h ^ (h >> 8)) % HANDLE_BUCKETS];
}

int handle_add(enum handle_kind kind, const void *p)
{
	struct handle_node *n = malloc(sizeof(*n));
	struct handle_node **b;

	if (!n)
		return -ENOMEM;
	n->p = p;
	n->kind = kind;
	pthread_rwlock_wrlock(&handles_lock);
	b = bucket_of(p);
	n->next = *b;
	*b = n;
	pthread_rwlock_unlock(&handles_lock);
	return 0;
}

bool handle_live(enum handle_kind kind, const void *p)
{
	bool live = false;

	if (!p)
		return false;
	pthread_rwlock_rdlock(&handles_lock);
	for (struct handle_node *n = *bucket_of(p); n; n = n->next)
		if (n->p == p && n->kind == kind) {
			live = true;
			break;
		}
	pthread_rwlock_unlock(&handles_lock);
	return live;
}

bool handle_remove(enum handle_kind kind, const void *p)
{
	struct handle_node **pp, *n = NULL;

	pthread_rwlock_wrlock(&handles_lock);
	for (pp = bucket_of(p); *pp; pp = &(*pp)->next)
		if ((*pp)->p == p && (*pp)->kind == kind) {
			n = *pp;
			*pp = n->next;
			break;
		}
	pthread_rwlock_unlock(&handles_lock);
	free(n);
	return n != NULL;
}

const void *handle_any(enum handle_kind kind)
{
	const void *p = NULL;

	pthread_rwlock_rdlock(&handles_lock);
	for (int i = 0; i < HANDLE_BUCKETS && !p; i++)
		for (struct handle_node *n = buckets[i]; n; n = n->next)
			if (n->kind == kind) {
				p = n->p;
				break;
			}
	pthread_rwlock_unlock(&handles_lock);
	return p;
}

/* In a forked child no handle of the parent is ours (nodes leak). */
void handles_forget_after_fork(void)
{
	pthread_rwlockattr_t attr;

	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setkind_np(&attr,
		PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&handles_lock, &attr);
	pthread_rwlockattr_destroy(&attr);
	for (int i = 0; i < HANDLE_BUCKETS; i++)
		buckets[i] = NULL;
}
