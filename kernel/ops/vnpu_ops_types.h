/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Fixed-width types and the small kernel macros (ARRAY_SIZE, BIT, BIT_ULL) the
 * operator library uses, module flavour. The host
 * build finds tools/ops-host/vnpu_ops_types.h first instead.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_OPS_TYPES_H__
#define __VNPU_OPS_TYPES_H__

#include <linux/array_size.h>
#include <linux/bits.h>
#include <linux/types.h>

#endif /* __VNPU_OPS_TYPES_H__ */
