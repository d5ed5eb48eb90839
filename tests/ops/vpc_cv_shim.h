/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * DRM_VNPU_OP_VPC through the host build of the operator library, for
 * C++ (the library's headers are C only): tests/ops/vpc_cv_shim.c.
 */
#ifndef VNPU_VPC_CV_SHIM_H
#define VNPU_VPC_CV_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Check the call (ints[24], floats[8] as DRM_VNPU_OP_VPC's attributes)
 * and run every piece in order: 0, or -22 when check() refuses it.
 * @pieces, when not NULL, receives the number of pieces.
 */
int vpc_shim_run(const int64_t *ints, const uint32_t *floats, void *src,
		 size_t src_bytes, void *dst, size_t dst_bytes, uint64_t *pieces);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_VPC_CV_SHIM_H */
