/* SPDX-License-Identifier: MIT */
/*
 * Static memory planning: every activation buffer of one variant gets an
 * offset in one arena from its liveness interval, so buffers whose
 * lifetimes do not overlap share memory.
 */
#ifndef VNPU_ATC_PLAN_H
#define VNPU_ATC_PLAN_H

#include <stdint.h>

#define PLAN_ALIGN	64

struct plan_buf {
	uint64_t size;		/* bytes (rounded up to PLAN_ALIGN inside) */
	int first, last;	/* tasks: first write .. last read; first < 0: unused */
	int alias;		/* a view: the buffer whose memory it is, else -1 */
	/*
	 * Buffers this one may be written over (an elementwise task's
	 * input, same size, read exactly where the output goes) when they
	 * die at this buffer's first task; -1 for none.
	 */
	int inplace[2];
	uint64_t offset;	/* out: bytes into the arena */
};

struct plan_stats {
	uint64_t arena_size;	/* bytes the plan needs */
	uint64_t naive_size;	/* one buffer per non-view tensor */
	uint64_t lower_bound;	/* most bytes live at one task */
	int inplace;		/* buffers placed over a dying input */
};

/* Plan b[0..n-1]. Returns 0 or -1 (out of memory, bad alias index). */
int plan_arena(struct plan_buf *b, int n, struct plan_stats *st);

#endif /* VNPU_ATC_PLAN_H */
