/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vnpu: element sizes of the tensor dtypes, the one table of the project:
 * the operator library, the driver's validation, libacl's aclnn layer and
 * the tests all use it, so every side rejects the same dtypes (size 0).
 * It needs only the UAPI header (for __u32 and DRM_VNPU_DTYPE_*), which
 * the includer provides, kernel or user space.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_DTYPE_H__
#define __VNPU_DTYPE_H__

/* Bytes per element of DRM_VNPU_DTYPE_* @dtype, or 0 for an unknown one. */
static inline __u32 vnpu_dtype_size(__u32 dtype)
{
	switch (dtype) {
	case DRM_VNPU_DTYPE_BOOL:
	case DRM_VNPU_DTYPE_INT8:
	case DRM_VNPU_DTYPE_UINT8:
		return 1;
	case DRM_VNPU_DTYPE_FLOAT16:
	case DRM_VNPU_DTYPE_BF16:
	case DRM_VNPU_DTYPE_INT16:
	case DRM_VNPU_DTYPE_UINT16:
		return 2;
	case DRM_VNPU_DTYPE_FLOAT:
	case DRM_VNPU_DTYPE_INT32:
	case DRM_VNPU_DTYPE_UINT32:
		return 4;
	case DRM_VNPU_DTYPE_INT64:
	case DRM_VNPU_DTYPE_UINT64:
	case DRM_VNPU_DTYPE_DOUBLE:
		return 8;
	default:
		return 0;
	}
}

/*
 * Whether operators compute in @dtype: every known dtype (each family's
 * check() then says which of them its operators take).
 */
static inline int vnpu_dtype_is_compute(__u32 dtype)
{
	return vnpu_dtype_size(dtype) != 0;
}

#endif /* __VNPU_DTYPE_H__ */
