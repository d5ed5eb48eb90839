/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vnpu: what every side needs to know of a tensor dtype, derived from the
 * one list, vnpu_dtypes.def: the operator library, the driver's
 * validation, libacl (aclnn, the AI CPU operators), atc and the tests all
 * use these, so every side knows the same dtypes (an unknown one has size
 * 0) with the same sizes and classes. It needs only the UAPI header (for
 * __u32 and DRM_VNPU_DTYPE_*), which the includer provides, kernel or
 * user space.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_DTYPE_H__
#define __VNPU_DTYPE_H__

/* What kind of number a dtype holds (0: not a dtype). */
#define VNPU_DTYPE_CLASS_FLOAT	1
#define VNPU_DTYPE_CLASS_INT	2	/* signed integer */
#define VNPU_DTYPE_CLASS_UINT	3	/* unsigned integer */
#define VNPU_DTYPE_CLASS_BOOL	4

/* Room for every DRM_VNPU_DTYPE_* value (the largest, BF16, is 27). */
#define VNPU_DTYPE_SLOTS	32

/*
 * A macro of vnpu_dtypes.def that makes the case label of each dtype, for
 * a switch on one class: #define VNPU_DTYPE_FLOAT VNPU_DTYPE_CASE.
 */
#define VNPU_DTYPE_CASE(NAME, ...)	case DRM_VNPU_DTYPE_##NAME:

struct vnpu_dtype_info {
	__u8 size;		/* bytes per element */
	__u8 cls;		/* VNPU_DTYPE_CLASS_* */
	const char *name;	/* numpy's name: "float32", "bfloat16", ... */
};

/* The row of DRM_VNPU_DTYPE_* @dtype, or NULL for an unknown one. */
static inline const struct vnpu_dtype_info *vnpu_dtype_info(__u32 dtype)
{
	static const struct vnpu_dtype_info info[VNPU_DTYPE_SLOTS] = {
#define VNPU_DTYPE(NAME, type, size, cls, name)				\
		[DRM_VNPU_DTYPE_##NAME] = { size, VNPU_DTYPE_CLASS_##cls, name },
#include "vnpu_dtypes.def"
	};

	if (dtype >= VNPU_DTYPE_SLOTS || !info[dtype].size)
		return 0;
	return &info[dtype];
}

/* Bytes per element of DRM_VNPU_DTYPE_* @dtype, or 0 for an unknown one. */
static inline __u32 vnpu_dtype_size(__u32 dtype)
{
	const struct vnpu_dtype_info *d = vnpu_dtype_info(dtype);

	return d ? d->size : 0;
}

/* VNPU_DTYPE_CLASS_* of @dtype, or 0 for an unknown one. */
static inline int vnpu_dtype_class(__u32 dtype)
{
	const struct vnpu_dtype_info *d = vnpu_dtype_info(dtype);

	return d ? d->cls : 0;
}

/* numpy's name of @dtype, or NULL for an unknown one. */
static inline const char *vnpu_dtype_name(__u32 dtype)
{
	const struct vnpu_dtype_info *d = vnpu_dtype_info(dtype);

	return d ? d->name : 0;
}

/* A floating-point dtype, DOUBLE included. */
static inline int vnpu_dtype_is_fp(__u32 dtype)
{
	return vnpu_dtype_class(dtype) == VNPU_DTYPE_CLASS_FLOAT;
}

/* An integer dtype, signed or not (BOOL is not one). */
static inline int vnpu_dtype_is_int(__u32 dtype)
{
	int c = vnpu_dtype_class(dtype);

	return c == VNPU_DTYPE_CLASS_INT || c == VNPU_DTYPE_CLASS_UINT;
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
