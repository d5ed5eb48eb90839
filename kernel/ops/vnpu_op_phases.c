// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The phases of an operator call: what a runner needs to know to spread a
 * call's pieces over several engines (see struct vnpu_op_impl).
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_ops.h"

u32 vnpu_op_phases(const struct vnpu_op_impl *impl,
		   const struct vnpu_op_call *c, u64 *ends)
{
	bool work = false;
	u32 n, i;

	/*
	 * Operators only write their outputs: a call whose outputs have no
	 * elements has nothing to do, and its pieces would only see NULL
	 * data pointers.
	 */
	for (i = 0; i < c->num_out && c->num_in + i < VNPU_OPS_MAX_TENSORS; i++)
		work |= !vnpu_tview_empty(&c->t[c->num_in + i]);
	if (!work) {
		ends[0] = 0;
		return 1;
	}
	if (!impl->phases) {
		ends[0] = impl->tiles(c);
		return 1;
	}
	n = impl->phases(c, ends);
	/* A bad table entry must not make a runner read past @ends. */
	if (n < 1 || n > VNPU_OPS_MAX_PHASES) {
		ends[0] = impl->tiles(c);
		return 1;
	}
	for (i = 1; i < n; i++)
		if (ends[i] < ends[i - 1])
			ends[i] = ends[i - 1];
	return n;
}
