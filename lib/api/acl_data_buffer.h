/* SPDX-License-Identifier: MIT */
/* aclDataBuffer's insides, for the model API (lib/mdl) that reads them. */
#ifndef VNPU_API_ACL_DATA_BUFFER_H
#define VNPU_API_ACL_DATA_BUFFER_H

#include <stddef.h>

#include "acl/acl_base_rt.h"

struct aclDataBuffer {
	void *data;
	size_t size;
};

#endif /* VNPU_API_ACL_DATA_BUFFER_H */
