// SPDX-License-Identifier: MIT
/*
 * aclmdlDataset: an ordered list of aclDataBuffers (the caller keeps
 * owning them and their memory), with an optional aclTensorDesc per
 * buffer and the batch size chosen for a dynamic-batch model.
 */
#include <stdlib.h>

#include "../core/entry_check.h"
#include "../core/tensor_desc.h"
#include "mdl_api.h"
#include "../core/prof_rt.h"

aclmdlDataset *aclmdlCreateDataset(void)
{
	PROF_API();
	aclmdlDataset *d = calloc(1, sizeof(*d));

	if (!d)
		acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
	return d;
}

aclError aclmdlDestroyDataset(const aclmdlDataset *dataset)
{
	PROF_API();
	RT_REQUIRE_ARG(dataset);
	for (size_t i = 0; i < dataset->n && i < 64; i++)
		if (dataset->own & (1ull << i))
			tensor_desc_destroy(dataset->desc[i]);
	free(dataset->buf);
	free(dataset->desc);
	free((void *)dataset);
	return ACL_SUCCESS;
}

aclError aclmdlAddDatasetBuffer(aclmdlDataset *dataset, aclDataBuffer *dataBuffer)
{
	PROF_API();
	RT_REQUIRE_ARG(dataset);
	RT_REQUIRE_ARG(dataBuffer);
	if (dataset->n == dataset->cap) {
		size_t cap = dataset->cap ? dataset->cap * 2 : 4;
		aclDataBuffer **b = realloc(dataset->buf, cap * sizeof(*b));
		aclTensorDesc **t;

		if (!b)
			return acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
		dataset->buf = b;
		t = realloc(dataset->desc, cap * sizeof(*t));
		if (!t)
			return acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
		dataset->desc = t;
		dataset->cap = cap;
	}
	dataset->desc[dataset->n] = NULL;
	dataset->buf[dataset->n++] = dataBuffer;
	return ACL_SUCCESS;
}

size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset *dataset)
{
	PROF_API();
	return dataset ? dataset->n : 0;
}

aclDataBuffer *aclmdlGetDatasetBuffer(const aclmdlDataset *dataset, size_t index)
{
	PROF_API();
	if (!dataset || index >= dataset->n) {
		acl_fail(ACL_ERROR_INVALID_PARAM, "index %zu is out of range (%zu buffers)",
			 index, dataset ? dataset->n : 0);
		return NULL;
	}
	return dataset->buf[index];
}

aclError aclmdlSetDatasetTensorDesc(aclmdlDataset *dataset, aclTensorDesc *tensorDesc,
				    size_t index)
{
	PROF_API();
	RT_REQUIRE_ARG(dataset);
	RT_REQUIRE_ARG(tensorDesc);
	if (index >= dataset->n)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "index %zu is out of range (%zu buffers)",
				index, dataset->n);
	if (index < 64 && (dataset->own & (1ull << index))) {
		tensor_desc_destroy(dataset->desc[index]);
		dataset->own &= ~(1ull << index);
	}
	dataset->desc[index] = tensorDesc;
	return ACL_SUCCESS;
}

aclTensorDesc *aclmdlGetDatasetTensorDesc(const aclmdlDataset *dataset, size_t index)
{
	PROF_API();
	if (!dataset || index >= dataset->n)
		return NULL;
	return dataset->desc[index];
}
