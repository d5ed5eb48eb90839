/* SPDX-License-Identifier: MIT */
/*
 * aclDataTypeSize: bytes per element as CANN reports them. This is the
 * public answer and keeps CANN's quirks: sub-byte types count one byte,
 * STRING and UNDEFINED are 0, and any value CANN does not list is 8.
 * The runtime's own validation uses its stricter tables, which reject
 * types it cannot compute with.
 */
#include "acl/acl_base_rt.h"
#include "../core/prof_rt.h"

size_t aclDataTypeSize(aclDataType dataType)
{
	PROF_API();
	switch (dataType) {
	case ACL_STRING:
	case ACL_DT_UNDEFINED:
		return 0;
	case ACL_UINT1:
	case ACL_INT4:
	case ACL_BOOL:
	case ACL_INT8:
	case ACL_UINT8:
	case ACL_HIFLOAT8:
	case ACL_FLOAT8_E5M2:
	case ACL_FLOAT8_E4M3FN:
	case ACL_FLOAT8_E8M0:
		return 1;
	case ACL_FLOAT16:
	case ACL_INT16:
	case ACL_UINT16:
	case ACL_BF16:
		return 2;
	case ACL_FLOAT:
	case ACL_INT32:
	case ACL_UINT32:
	case ACL_COMPLEX32:
		return 4;
	case ACL_COMPLEX128:
		return 16;
	default:
		return 8;	/* 64-bit types, COMPLEX64, and unknown values */
	}
}
