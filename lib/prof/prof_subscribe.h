/* SPDX-License-Identifier: MIT */
/*
 * Operator subscription (prof_subscribe*.c): the records written to the
 * subscriber's pipe, CANN's ProfOpDesc (80 bytes on LP64), checked by a
 * signature over bytes [4, 80): the reflected CRC-32C table walk from
 * ~0 without the final inversion.
 */
#ifndef VNPU_PROF_PROF_SUBSCRIBE_H
#define VNPU_PROF_PROF_SUBSCRIBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct prof_op_desc {
	uint32_t signature;
	uint32_t model_id;
	uint32_t flag;		/* aclprofSubscribeOpFlag */
	uint32_t thread_id;	/* with ACL_SUBSCRIBE_OP_THREAD */
	uint64_t op_index;	/* the task's tag: prof_tag_lookup names it */
	uint64_t duration;	/* µs: end - start */
	uint64_t start;		/* µs, CLOCK_MONOTONIC */
	uint64_t end;		/* µs */
	uint64_t execution_time;	/* µs */
	uint64_t cube_fops;
	uint64_t vector_fops;
	uint32_t dev_id;
};

_Static_assert(sizeof(struct prof_op_desc) == 80, "ProfOpDesc is 80 bytes");

uint32_t prof_op_signature(const void *p, size_t len);

/* Fill d's signature from its other bytes. */
void prof_op_sign(struct prof_op_desc *d);

/*
 * Whether some model is subscribed now: aclprofInit/Start must refuse
 * with ACL_ERROR_PROF_API_CONFLICT while it is (as subscription refuses
 * while a collection session exists).
 */
bool prof_subscribe_active(void);

/* prof_session.c: between aclprofInit and aclprofFinalize. */
bool prof_api_initialized(void);

#endif /* VNPU_PROF_PROF_SUBSCRIBE_H */
