/* SPDX-License-Identifier: MIT */
/*
 * aclDataBuffer: a (pointer, length) pair naming memory the caller owns.
 * As on CANN, creation accepts anything (NULL and 0 included) and
 * destroying never frees the memory it names.
 */
#include <stdlib.h>

#include "../core/data_buffer.h"
#include "../core/error.h"
#include "../core/prof_rt.h"

aclDataBuffer *aclCreateDataBuffer(void *data, size_t size)
{
	PROF_API();
	aclDataBuffer *b = malloc(sizeof(*b));

	if (!b) {
		acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	b->data = data;
	b->size = size;
	return b;
}

aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer)
{
	PROF_API();
	if (!dataBuffer)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"dataBuffer must not be NULL");
	free((void *)dataBuffer);
	return ACL_SUCCESS;
}

aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size)
{
	PROF_API();
	if (!dataBuffer)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"dataBuffer must not be NULL");
	dataBuffer->data = data;
	dataBuffer->size = size;
	return ACL_SUCCESS;
}

void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer)
{
	PROF_API();
	return dataBuffer ? dataBuffer->data : NULL;
}

/* The deprecated form truncates to 32 bits, as CANN's does. */
uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer)
{
	PROF_API();
	return dataBuffer ? (uint32_t)dataBuffer->size : 0;
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer)
{
	PROF_API();
	return dataBuffer ? dataBuffer->size : 0;
}
