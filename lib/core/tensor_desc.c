/* SPDX-License-Identifier: MIT */
/*
 * The aclTensorDesc operations shared by lib/api (the public entry
 * points) and lib/mdl, lib/op (which build and read descriptions while
 * running models and single ops).
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "tensor_desc.h"

aclError td_shape_set_at(const char *func, struct td_shape *s, int num,
			 const int64_t *dims)
{
	int i;

	if (num < 0 || num > TD_MAX_DIMS || (num > 0 && !dims))
		goto bad;
	for (i = 0; i < num; i++)
		if (dims[i] < TD_UNKNOWN_RANK_DIM)
			goto bad;
	s->num = num;
	if (num)
		memcpy(s->dims, dims, (size_t)num * sizeof(dims[0]));
	return ACL_SUCCESS;
bad:
	return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
			   "numDims %d must be 0..%d with dims given and each dim >= -2",
			   num, TD_MAX_DIMS);
}

bool td_shape_unknown_rank(const struct td_shape *s)
{
	return s->num == 1 && s->dims[0] == TD_UNKNOWN_RANK_DIM;
}

aclTensorDesc *tensor_desc_create(const char *func, aclDataType dtype,
				  int num_dims, const int64_t *dims,
				  aclFormat format)
{
	aclTensorDesc *d = calloc(1, sizeof(*d));

	if (!d) {
		acl_fail_at(func, ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	if (td_shape_set_at(func, &d->shape, num_dims, dims)) {
		free(d);
		return NULL;
	}
	d->dtype = dtype;
	d->format = format;
	d->origin_format = format;
	d->storage_format = ACL_FORMAT_UNDEFINED;
	d->origin_shape = d->shape;
	d->placement = ACL_MEMTYPE_DEVICE;
	return d;
}

void tensor_desc_destroy(const aclTensorDesc *desc)
{
	aclTensorDesc *d = (aclTensorDesc *)desc;

	if (!d)
		return;
	free(d->ranges);
	free(d->values);
	free(d->name);
	free(d->dynamic_input);
	free(d->const_data);
	free(d);
}

aclError tensor_desc_set_shape(const char *func, aclTensorDesc *desc,
			       int num_dims, const int64_t *dims)
{
	if (!desc)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "desc must not be NULL");
	return td_shape_set_at(func, &desc->shape, num_dims, dims);
}

aclDataType tensor_desc_dtype(const aclTensorDesc *desc)
{
	return desc ? desc->dtype : ACL_DT_UNDEFINED;
}

aclFormat tensor_desc_format(const aclTensorDesc *desc)
{
	return desc ? desc->format : ACL_FORMAT_UNDEFINED;
}

size_t tensor_desc_num_dims(const aclTensorDesc *desc)
{
	if (!desc)
		return 0;
	if (td_shape_unknown_rank(&desc->shape))
		return (size_t)ACL_UNKNOWN_RANK;
	return (size_t)desc->shape.num;
}

aclError tensor_desc_dim(const char *func, const aclTensorDesc *desc,
			 size_t index, int64_t *dim)
{
	if (!desc || !dim)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s must not be NULL", !desc ? "desc" : "dimSize");
	if (index >= (size_t)desc->shape.num)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "index %zu is out of range: %d dims", index,
				   desc->shape.num);
	*dim = desc->shape.dims[index];
	return ACL_SUCCESS;
}
