/* SPDX-License-Identifier: MIT */
/*
 * Einsum equations ("bij,bjk->bik", "...ii->...i", "i,i"): parsed into
 * one label per operand dim, the output's labels and every label's size,
 * so inference and lowering (lower_reduce.c) share one reading.
 */
#ifndef VNPU_ATC_EINSUM_H
#define VNPU_ATC_EINSUM_H

#include <stddef.h>
#include <stdint.h>

#include "ir.h"

#define EINSUM_MAX_OPS		8
/* Labels a-z are 0..25, A-Z 26..51, the dims an ellipsis covers 52..59. */
#define EINSUM_LABELS		(52 + IR_MAX_RANK)

struct einsum {
	int nops;
	int rank[EINSUM_MAX_OPS];
	int lab[EINSUM_MAX_OPS][IR_MAX_RANK];	/* label of each operand dim */
	int nout;
	int out[IR_MAX_RANK];			/* the output's labels */
	int nall;
	int all[IR_MAX_RANK];	/* the output's labels, then the summed ones */
	int64_t size[EINSUM_LABELS];
};

/*
 * Read equation eq for nops operands of the given ranks and dims. Returns
 * 0, or -1 with a message: a malformed equation, a term whose labels do not
 * match its operand's rank, sizes that disagree, more than IR_MAX_RANK
 * distinct labels.
 */
int einsum_parse(const char *eq, int nops, const struct ir_tensor *const *ops,
		 struct einsum *e, char *msg, size_t len);

#endif /* VNPU_ATC_EINSUM_H */
