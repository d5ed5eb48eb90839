/* SPDX-License-Identifier: MIT */
/*
 * Argument checks shared by the description objects of lib/dvpp: a
 * pointer that is NULL, of another kind or already destroyed is refused
 * with ACL_ERROR_INVALID_PARAM and a message naming the argument.
 */
#ifndef VNPU_DVPP_CHECK_H
#define VNPU_DVPP_CHECK_H

#include "../core/error.h"
#include "dvpp.h"

static inline aclError dvpp_bad_object(const char *func, const void *p,
				       const char *arg, const char *type)
{
	if (!p)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s must not be NULL", arg);
	return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
			   "%s is not a live %s (another kind of object, or destroyed)",
			   arg, type);
}

/* Return ACL_ERROR_INVALID_PARAM unless p is a live object of its kind. */
#define DVPP_REQUIRE(p, kind, type)					\
	do {								\
		if (!DVPP_IS(p, kind))					\
			return dvpp_bad_object(__func__, (p), #p, (type)); \
	} while (0)

/* The same for functions that return a pointer: NULL on failure. */
#define DVPP_REQUIRE_OR_NULL(p, kind, type)				\
	do {								\
		if (!DVPP_IS(p, kind)) {				\
			dvpp_bad_object(__func__, (p), #p, (type));	\
			return NULL;					\
		}							\
	} while (0)

/* ACL_ERROR_INVALID_PARAM unless v is in [0, max]; name is v's name. */
static inline aclError dvpp_check_max(const char *func, const char *name,
				      uint32_t v, uint32_t max)
{
	if (v > max)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s %u is out of range [0, %u]", name, v, max);
	return ACL_SUCCESS;
}

#define DVPP_REQUIRE_MAX(v, max)					\
	do {								\
		aclError r_ = dvpp_check_max(__func__, #v,		\
					     (uint32_t)(v), (max));	\
		if (r_)							\
			return r_;					\
	} while (0)

#endif /* VNPU_DVPP_CHECK_H */
