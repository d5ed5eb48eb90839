/* SPDX-License-Identifier: MIT */
/* The type name of a device operator (enum drm_vnpu_op), for tags. */
#ifndef VNPU_CORE_OP_NAMES_H
#define VNPU_CORE_OP_NAMES_H

#include <stdbool.h>
#include <stdint.h>

/*
 * "Add", "Conv2d", "BatchNorm", ...; "Op<n>" for an unknown one (that
 * string is the calling thread's until its next call).
 */
const char *op_type_name(uint32_t op);

#endif /* VNPU_CORE_OP_NAMES_H */
