// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Softmax and normalisation.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include "vnpu_ops_impl.h"

const struct vnpu_op_impl vnpu_ops_norm[] = {
	{ 0 }
};
