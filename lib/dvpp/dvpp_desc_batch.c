/* SPDX-License-Identifier: MIT */
/*
 * acldvppBatchPicDesc: 1..256 picture descriptions in one allocation, as
 * the batch VPC calls take them. The elements are reached with
 * acldvppGetPicDesc, carry in_batch so that acldvppDestroyPicDesc refuses
 * them, and die with the batch.
 */
#include <stdlib.h>

#include "dvpp_check.h"
#include "dvpp_desc.h"
#include "../core/prof_rt.h"

acldvppBatchPicDesc *acldvppCreateBatchPicDesc(uint32_t batchSize)
{
	PROF_API();
	struct acldvppBatchPicDesc *b;
	uint32_t i;

	if (batchSize == 0 || batchSize > DVPP_BATCH_MAX) {
		acl_fail(ACL_ERROR_INVALID_PARAM,
			 "batchSize %u is out of range [1, %u]", batchSize,
			 DVPP_BATCH_MAX);
		return NULL;
	}
	b = malloc(sizeof(*b));
	if (b)
		b->pics = calloc(batchSize, sizeof(*b->pics));
	if (!b || !b->pics) {
		free(b);
		acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	for (i = 0; i < batchSize; i++) {
		dvpp_pic_init(&b->pics[i]);
		b->pics[i].in_batch = true;
	}
	b->count = batchSize;
	b->magic = DVPP_MAGIC_BATCH;
	return b;
}

acldvppPicDesc *acldvppGetPicDesc(acldvppBatchPicDesc *batchPicDesc, uint32_t index)
{
	PROF_API();
	DVPP_REQUIRE_OR_NULL(batchPicDesc, BATCH, "acldvppBatchPicDesc");
	if (index >= batchPicDesc->count) {
		acl_fail(ACL_ERROR_INVALID_PARAM,
			 "index %u is out of range: the batch has %u pictures",
			 index, batchPicDesc->count);
		return NULL;
	}
	return &batchPicDesc->pics[index];
}

aclError acldvppDestroyBatchPicDesc(acldvppBatchPicDesc *batchPicDesc)
{
	PROF_API();
	uint32_t i;

	DVPP_REQUIRE(batchPicDesc, BATCH, "acldvppBatchPicDesc");
	/* Views a program kept of the elements must not pass as live. */
	for (i = 0; i < batchPicDesc->count; i++)
		batchPicDesc->pics[i].magic = 0;
	batchPicDesc->magic = 0;
	free(batchPicDesc->pics);
	free(batchPicDesc);
	return ACL_SUCCESS;
}
