// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Matrix multiplication.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_ops_impl.h"

const struct vnpu_op_impl vnpu_ops_matmul[] = {
	{ 0 }
};
