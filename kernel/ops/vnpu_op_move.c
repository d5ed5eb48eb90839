// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Data movement.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_ops_impl.h"

const struct vnpu_op_impl vnpu_ops_move[] = {
	{ 0 }
};
