/* SPDX-License-Identifier: MIT */
/*
 * aclDataBuffer's insides: lib/api creates and updates the buffers,
 * lib/mdl and lib/op read them.
 */
#ifndef VNPU_CORE_DATA_BUFFER_H
#define VNPU_CORE_DATA_BUFFER_H

#include <stddef.h>

#include "acl/acl_base_rt.h"

struct aclDataBuffer {
	void *data;
	size_t size;
};

#endif /* VNPU_CORE_DATA_BUFFER_H */
