/* SPDX-License-Identifier: MIT */
/*
 * What the host ("AI CPU") operator tests share: the ACL dtype numbers
 * they use, a tensor over a caller's buffer, and a call with every input
 * and output marked present.
 */
#ifndef AICPU_TEST_CALL_H
#define AICPU_TEST_CALL_H

#include <string.h>

#include "../../lib/aicpu/aicpu.h"

#define F32 0
#define I8 2
#define I32 3
#define U8 4
#define I64 9
#define U64 10
#define F64 11
#define BOOL 12
#define STR 13

static inline struct aicpu_tensor tens(void *data, uint32_t dtype,
				       uint32_t rank, const int64_t *dims,
				       uint64_t cap)
{
	struct aicpu_tensor t = { .data = data, .dtype = dtype, .rank = rank, .cap = cap };

	if (rank)
		memcpy(t.dims, dims, rank * sizeof(*dims));
	return t;
}

static inline void call_init(struct aicpu_call *c, uint32_t op, uint32_t nin,
			     uint32_t nout)
{
	memset(c, 0, sizeof(*c));
	c->op = op;
	c->nin = nin;
	c->nout = nout;
	c->ints[AICPU_ATTR_IN] = (1 << nin) - 1;
	c->ints[AICPU_ATTR_OUT] = (1 << nout) - 1;
}

#endif
