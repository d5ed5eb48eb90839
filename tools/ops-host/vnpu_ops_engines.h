/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Host threads standing in for a device's engines, for tests and
 * benchmarks of the operator library: a call's pieces run on all of them,
 * phase by phase (struct vnpu_op_impl's phases), as the module's
 * kernel/vnpu_split.c runs them. Each engine has its own scratch memory;
 * all see the calling thread's shared memory (vnpu_ops_shared()).
 *
 * As in the module, the calling thread runs a phase's pieces itself and
 * workers join while the phase is open, taking pieces from a shared
 * counter; the caller waits only for the workers that joined, so a worker
 * that is not scheduled never holds a phase up. Workers spin for a while
 * after a phase so that the next phase or call starts without a wake-up,
 * then sleep on a condition variable.
 */
#ifndef __VNPU_OPS_ENGINES_H__
#define __VNPU_OPS_ENGINES_H__

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vnpu_ops.h"

#define VNPU_HOST_ENGINES_MAX	16
/* How long an idle worker spins before it sleeps. */
#define VNPU_HOST_SPIN_NS	500000ull

struct vnpu_host_engines;

struct vnpu_host_worker {
	struct vnpu_host_engines *e;
	u32 index;
	pthread_t thread;
	struct vnpu_op_call call;
	u64 pieces;	/* pieces this engine ran, over all calls */
};

/**
 * struct vnpu_host_engines - engines on host threads
 * @n: engines, the calling thread's included
 * @impl: the running call's operator
 * @next: next piece of the running phase
 * @end: end of the running phase
 * @gen: bumped to start a phase (or to stop, with @stop)
 * @open: the phase takes helpers (guarded by @lock)
 * @helpers: workers in the running phase (joined under @lock)
 * @stop: workers exit
 * @lock: guards @open and joining; with @wake, where idle workers sleep
 * @wake: signalled with every @gen
 * @w: the workers; w[0] is the calling thread's engine
 */
struct vnpu_host_engines {
	u32 n;
	const struct vnpu_op_impl *impl;
	atomic_ullong next;
	atomic_ullong end;
	atomic_uint gen;
	bool open;
	atomic_uint helpers;
	atomic_int stop;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct vnpu_host_worker w[VNPU_HOST_ENGINES_MAX];
};

static inline u64 vnpu_host_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

static inline void vnpu_host_pieces(struct vnpu_host_worker *w)
{
	struct vnpu_host_engines *e = w->e;
	u64 t;

	while ((t = atomic_fetch_add(&e->next, 1)) < atomic_load(&e->end)) {
		e->impl->run(&w->call, t);
		w->pieces++;
	}
}

static inline void *vnpu_host_worker_main(void *arg)
{
	struct vnpu_host_worker *w = arg;
	struct vnpu_host_engines *e = w->e;
	/* gen starts at 0, before the thread exists: no bump is missed. */
	unsigned int seen = 0;

	for (;;) {
		u64 t0 = vnpu_host_ns();
		u32 spins = 0;

		while (atomic_load(&e->gen) == seen) {
			/* On a busy machine the caller may need this CPU. */
			if (++spins % 64 == 0)
				sched_yield();
			if (spins % 1024 == 0 &&
			    vnpu_host_ns() - t0 > VNPU_HOST_SPIN_NS) {
				pthread_mutex_lock(&e->lock);
				while (atomic_load(&e->gen) == seen)
					pthread_cond_wait(&e->wake, &e->lock);
				pthread_mutex_unlock(&e->lock);
			}
		}
		seen = atomic_load(&e->gen);
		if (atomic_load(&e->stop))
			return NULL;
		pthread_mutex_lock(&e->lock);
		if (e->open)
			atomic_fetch_add(&e->helpers, 1);
		else
			w = NULL;
		pthread_mutex_unlock(&e->lock);
		if (!w) {		/* the phase closed before we came */
			w = arg;
			continue;
		}
		vnpu_host_pieces(w);
		atomic_fetch_sub(&e->helpers, 1);
	}
}

/* Start @n engines (1 .. VNPU_HOST_ENGINES_MAX); 0 or -1. */
static inline int vnpu_host_engines_start(struct vnpu_host_engines *e, u32 n)
{
	u32 i;

	memset(e, 0, sizeof(*e));
	if (n < 1 || n > VNPU_HOST_ENGINES_MAX)
		return -1;
	e->n = n;
	pthread_mutex_init(&e->lock, NULL);
	pthread_cond_init(&e->wake, NULL);
	for (i = 0; i < n; i++) {
		e->w[i].e = e;
		e->w[i].index = i;
		e->w[i].call.scratch = aligned_alloc(64, VNPU_OPS_SCRATCH);
		if (!e->w[i].call.scratch)
			return -1;
		if (i && pthread_create(&e->w[i].thread, NULL,
					vnpu_host_worker_main, &e->w[i]))
			return -1;
	}
	return 0;
}

static inline void vnpu_host_bump(struct vnpu_host_engines *e)
{
	pthread_mutex_lock(&e->lock);
	atomic_fetch_add(&e->gen, 1);
	pthread_cond_broadcast(&e->wake);
	pthread_mutex_unlock(&e->lock);
}

/*
 * Run @c (checked already; its own scratch memory holds the shared
 * memory) on all engines, phase by phase. Returns the number of phases.
 */
static inline u32 vnpu_host_engines_run(struct vnpu_host_engines *e,
					const struct vnpu_op_call *c)
{
	const struct vnpu_op_impl *impl = vnpu_op_find(c->op);
	u64 ends[VNPU_OPS_MAX_PHASES], start = 0;
	u32 i, ph, nph;

	if (!impl)
		return 0;
	nph = vnpu_op_phases(impl, c, ends);
	e->impl = impl;
	for (i = 0; i < e->n; i++) {
		void *scratch = e->w[i].call.scratch;

		e->w[i].call = *c;
		e->w[i].call.scratch = scratch;
		e->w[i].call.shared = vnpu_ops_shared(c);
	}
	for (ph = 0; ph < nph; start = ends[ph++]) {
		atomic_store(&e->next, start);
		atomic_store(&e->end, ends[ph]);
		if (e->n > 1) {
			pthread_mutex_lock(&e->lock);
			e->open = true;
			atomic_fetch_add(&e->gen, 1);
			pthread_cond_broadcast(&e->wake);
			pthread_mutex_unlock(&e->lock);
		}
		vnpu_host_pieces(&e->w[0]);
		if (e->n > 1) {
			pthread_mutex_lock(&e->lock);
			e->open = false;
			pthread_mutex_unlock(&e->lock);
			/* Every piece handed out is done when they are gone. */
			while (atomic_load(&e->helpers))
				;
		}
	}
	return nph;
}

/*
 * Bind engine i (the calling thread is engine 0) to the i-th CPU the
 * process may use, for benchmarks of n engines that each have a CPU.
 * Left to the scheduler, a spinning worker sometimes shared the caller's
 * CPU while the other CPU idled, and "2 engines" measured one. (The
 * module's engines are unbound kernel threads; nothing else runs in the
 * guest when it is measured.) Returns the number of engines bound, 0
 * when the process has one CPU.
 */
static inline u32 vnpu_host_engines_pin(struct vnpu_host_engines *e)
{
	int cpus[VNPU_HOST_ENGINES_MAX], c;
	cpu_set_t allowed, one;
	u32 i, n = 0, bound = 0;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return 0;
	for (c = 0; c < CPU_SETSIZE && n < VNPU_HOST_ENGINES_MAX; c++)
		if (CPU_ISSET(c, &allowed))
			cpus[n++] = c;
	if (n < 2)
		return 0;
	for (i = 0; i < e->n; i++) {
		CPU_ZERO(&one);
		CPU_SET(cpus[i % n], &one);
		if (!pthread_setaffinity_np(i ? e->w[i].thread : pthread_self(),
					    sizeof(one), &one))
			bound++;
	}
	return bound;
}

static inline void vnpu_host_engines_stop(struct vnpu_host_engines *e)
{
	u32 i;

	atomic_store(&e->stop, 1);
	vnpu_host_bump(e);
	for (i = 1; i < e->n; i++)
		pthread_join(e->w[i].thread, NULL);
	for (i = 0; i < e->n; i++)
		free(e->w[i].call.scratch);
	pthread_mutex_destroy(&e->lock);
	pthread_cond_destroy(&e->wake);
}

#endif /* __VNPU_OPS_ENGINES_H__ */
