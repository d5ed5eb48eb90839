/* SPDX-License-Identifier: MIT */
/*
 * The (type, length, pointer) parameter calls of the channel
 * descriptions (acldvpp/aclvdec/aclvenc Set/GetChannelDescParam): copying
 * one value in or out with CANN's length rules.
 */
#ifndef VNPU_DVPP_PARAM_H
#define VNPU_DVPP_PARAM_H

#include <stddef.h>

#include "acl/acl_base.h"

/*
 * Copy the caller's value of size bytes into dst. length must be the
 * value's size exactly and param not NULL; func names the caller in the
 * recorded message.
 */
aclError dvpp_param_in(const char *func, void *dst, size_t size,
		       size_t length, const void *param);

/*
 * Copy a value of size bytes out to param, whose buffer holds length
 * bytes (at least size), and report size in *ret_size.
 */
aclError dvpp_param_out(const char *func, const void *src, size_t size,
			size_t length, size_t *ret_size, void *param);

#endif /* VNPU_DVPP_PARAM_H */
