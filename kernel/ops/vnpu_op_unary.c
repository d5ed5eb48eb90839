// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Unary elementwise operators.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_ops_impl.h"

const struct vnpu_op_impl vnpu_ops_unary[] = {
	{ 0 }
};
