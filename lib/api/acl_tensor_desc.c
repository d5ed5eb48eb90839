/* SPDX-License-Identifier: MIT */
/*
 * aclTensorDesc: what a model or single-op call says about a tensor (type,
 * layout, shape, the shape it had in the framework, ranges for dynamic
 * dims, a name, constant data). It describes; it owns no device memory.
 *
 * GE's conventions: a dim of -1 is unknown, the shape {-2} means the rank
 * itself is unknown (aclGetTensorDescNumDims then reports
 * ACL_UNKNOWN_RANK), and numDims 0 is a scalar.
 *
 * The struct and the operations lib/mdl and lib/op use too are core's
 * (core/tensor_desc.h); the entry points here wrap those.
 */
#include <stdlib.h>
#include <string.h>

#include "acl/acl_base_mdl.h"
#include "acl/acl_mdl.h"
#include "../core/error.h"
#include "../core/tensor_desc.h"
#include "../core/prof_rt.h"

aclTensorDesc *aclCreateTensorDesc(aclDataType dataType, int numDims,
				   const int64_t *dims, aclFormat format)
{
	PROF_API();
	return tensor_desc_create(__func__, dataType, numDims, dims, format);
}

void aclDestroyTensorDesc(const aclTensorDesc *desc)
{
	PROF_API();
	tensor_desc_destroy(desc);
}

aclDataType aclGetTensorDescType(const aclTensorDesc *desc)
{
	PROF_API();
	return tensor_desc_dtype(desc);
}

aclFormat aclGetTensorDescFormat(const aclTensorDesc *desc)
{
	PROF_API();
	return tensor_desc_format(desc);
}

/* 0 when a dim is unknown or the product does not fit. */
size_t aclGetTensorDescElementCount(const aclTensorDesc *desc)
{
	PROF_API();
	size_t n = 1;
	int i;

	if (!desc)
		return 0;
	for (i = 0; i < desc->shape.num; i++) {
		if (desc->shape.dims[i] < 0 ||
		    __builtin_mul_overflow(n, (size_t)desc->shape.dims[i], &n))
			return 0;
	}
	return n;
}

size_t aclGetTensorDescSize(const aclTensorDesc *desc)
{
	PROF_API();
	size_t n = aclGetTensorDescElementCount(desc), bytes;

	if (!n)
		return 0;
	if (desc->dtype == ACL_INT4)	/* two per byte, rounded up */
		return n / 2 + (n & 1);
	if (desc->dtype == ACL_UINT1)
		return n / 8 + !!(n & 7);
	if (__builtin_mul_overflow(n, aclDataTypeSize(desc->dtype), &bytes))
		return 0;
	return bytes;
}

size_t aclGetTensorDescNumDims(const aclTensorDesc *desc)
{
	PROF_API();
	return tensor_desc_num_dims(desc);
}

int64_t aclGetTensorDescDim(const aclTensorDesc *desc, size_t index)
{
	PROF_API();
	if (!desc || index >= (size_t)desc->shape.num) {
		acl_fail(ACL_ERROR_INVALID_PARAM, "index %zu is out of range",
			 index);
		return -1;
	}
	return desc->shape.dims[index];
}

aclError aclGetTensorDescDimV2(const aclTensorDesc *desc, size_t index,
			       int64_t *dimSize)
{
	PROF_API();
	return tensor_desc_dim(__func__, desc, index, dimSize);
}

/* A known dim's range is [dim, dim]; an unknown one's comes from the
 * shape range set for it, else [0, -1] (no bound). */
aclError aclGetTensorDescDimRange(const aclTensorDesc *desc, size_t index,
				  size_t dimRangeNum, int64_t *dimRange)
{
	PROF_API();
	int64_t dim;

	if (!desc || !dimRange)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "%s must not be NULL",
				!desc ? "desc" : "dimRange");
	if (dimRangeNum < ACL_TENSOR_SHAPE_RANGE_NUM)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"dimRangeNum %zu is smaller than %d",
				dimRangeNum, ACL_TENSOR_SHAPE_RANGE_NUM);
	if (index >= (size_t)desc->shape.num)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"index %zu is out of range: %d dims", index,
				desc->shape.num);
	dim = desc->shape.dims[index];
	if (dim >= 0) {
		dimRange[0] = dim;
		dimRange[1] = dim;
	} else if (index < desc->num_ranges) {
		dimRange[0] = desc->ranges[index][0];
		dimRange[1] = desc->ranges[index][1];
	} else {
		dimRange[0] = 0;
		dimRange[1] = -1;
	}
	return ACL_SUCCESS;
}

static char *dup_name(const char *s)
{
	return s ? strdup(s) : NULL;
}

void aclSetTensorDescName(aclTensorDesc *desc, const char *name)
{
	PROF_API();
	char *copy;

	if (!desc)
		return;
	copy = dup_name(name);
	if (name && !copy)
		return;		/* out of memory: keep the old name */
	free(desc->name);
	desc->name = copy;
}

const char *aclGetTensorDescName(aclTensorDesc *desc)
{
	PROF_API();
	if (!desc)
		return NULL;
	return desc->name ? desc->name : "";
}

/* Tensor descriptions handed out as an array (aclmdlCreateAndGetOpDesc). */
aclTensorDesc *aclGetTensorDescByIndex(aclTensorDesc *desc, size_t index)
{
	PROF_API();
	if (!desc) {
		acl_fail(ACL_ERROR_INVALID_PARAM, "desc must not be NULL");
		return NULL;
	}
	return desc + index;
}

void *aclGetTensorDescAddress(const aclTensorDesc *desc)
{
	PROF_API();
	return desc ? desc->address : NULL;
}

static aclError copy_ranges(const char *func, void **dst, size_t *count,
			    size_t n, const void *src, size_t row)
{
	void *copy = NULL;

	if (n > TD_MAX_DIMS || (n && !src))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "count %zu must be 0..%d with ranges given",
				   n, TD_MAX_DIMS);
	if (n) {
		copy = malloc(n * row);
		if (!copy)
			return acl_fail_at(func, ACL_ERROR_BAD_ALLOC,
					   "out of host memory");
		memcpy(copy, src, n * row);
	}
	free(*dst);
	*dst = copy;
	*count = n;
	return ACL_SUCCESS;
}

aclError aclSetTensorShapeRange(aclTensorDesc *desc, size_t dimsCount,
				int64_t dimsRange[][ACL_TENSOR_SHAPE_RANGE_NUM])
{
	PROF_API();
	size_t i;

	if (!desc)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "desc must not be NULL");
	for (i = 0; dimsRange && i < dimsCount && i < TD_MAX_DIMS; i++)
		if (dimsRange[i][1] != -1 && dimsRange[i][0] > dimsRange[i][1])
			return acl_fail(ACL_ERROR_INVALID_PARAM,
					"range %zu is [%lld, %lld]: min above max",
					i, (long long)dimsRange[i][0],
					(long long)dimsRange[i][1]);
	return copy_ranges(__func__, (void **)&desc->ranges, &desc->num_ranges,
			   dimsCount, dimsRange, sizeof(dimsRange[0]));
}

aclError aclSetTensorValueRange(aclTensorDesc *desc, size_t valueCount,
				int64_t valueRange[][ACL_TENSOR_VALUE_RANGE_NUM])
{
	PROF_API();
	if (!desc)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "desc must not be NULL");
	return copy_ranges(__func__, (void **)&desc->values, &desc->num_values,
			   valueCount, valueRange, sizeof(valueRange[0]));
}

static aclError set_shape(const char *func, aclTensorDesc *desc,
			  struct td_shape *s, int numDims, const int64_t *dims)
{
	if (!desc)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "desc must not be NULL");
	return td_shape_set_at(func, s, numDims, dims);
}

aclError aclSetTensorShape(aclTensorDesc *desc, int numDims,
			   const int64_t *dims)
{
	PROF_API();
	return tensor_desc_set_shape(__func__, desc, numDims, dims);
}

aclError aclSetTensorOriginShape(aclTensorDesc *desc, int numDims,
				 const int64_t *dims)
{
	PROF_API();
	return set_shape(__func__, desc, desc ? &desc->origin_shape : NULL,
			 numDims, dims);
}

aclError aclSetTensorStorageShape(aclTensorDesc *desc, int numDims,
				  const int64_t *dims)
{
	PROF_API();
	return set_shape(__func__, desc, desc ? &desc->storage_shape : NULL,
			 numDims, dims);
}

static aclError set_format(const char *func, aclTensorDesc *desc,
			   aclFormat *field, aclFormat format)
{
	if (!desc)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "desc must not be NULL");
	*field = format;
	return ACL_SUCCESS;
}

aclError aclSetTensorFormat(aclTensorDesc *desc, aclFormat format)
{
	PROF_API();
	return set_format(__func__, desc, desc ? &desc->format : NULL, format);
}

aclError aclSetTensorOriginFormat(aclTensorDesc *desc, aclFormat format)
{
	PROF_API();
	return set_format(__func__, desc, desc ? &desc->origin_format : NULL,
			  format);
}

aclError aclSetTensorStorageFormat(aclTensorDesc *desc, aclFormat format)
{
	PROF_API();
	return set_format(__func__, desc, desc ? &desc->storage_format : NULL,
			  format);
}

aclError aclSetTensorDynamicInput(aclTensorDesc *desc,
				  const char *dynamicInputName)
{
	PROF_API();
	char *copy;

	if (!desc || !dynamicInputName)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "%s must not be NULL",
				!desc ? "desc" : "dynamicInputName");
	copy = strdup(dynamicInputName);
	if (!copy)
		return acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
	free(desc->dynamic_input);
	desc->dynamic_input = copy;
	return ACL_SUCCESS;
}

/* The bytes are copied: the caller may free its buffer afterwards. */
aclError aclSetTensorConst(aclTensorDesc *desc, void *dataBuffer, size_t length)
{
	PROF_API();
	void *copy;

	if (!desc || !dataBuffer)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "%s must not be NULL",
				!desc ? "desc" : "dataBuffer");
	if (!length)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "length must not be 0");
	copy = malloc(length);
	if (!copy)
		return acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
	memcpy(copy, dataBuffer, length);
	free(desc->const_data);
	desc->const_data = copy;
	desc->const_len = length;
	return ACL_SUCCESS;
}

aclError aclSetTensorPlaceMent(aclTensorDesc *desc, aclMemType memType)
{
	PROF_API();
	if (!desc)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "desc must not be NULL");
	if (memType != ACL_MEMTYPE_DEVICE && memType != ACL_MEMTYPE_HOST &&
	    memType != ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "memType %d is unknown",
				(int)memType);
	desc->placement = memType;
	return ACL_SUCCESS;
}

/* Where N, C, H and W sit in each plain 4-D layout. */
static const int *plain_axes(aclFormat f)
{
	static const int nchw[4] = { 0, 1, 2, 3 };
	static const int nhwc[4] = { 0, 3, 1, 2 };
	static const int hwcn[4] = { 3, 2, 0, 1 };

	switch (f) {
	case ACL_FORMAT_NCHW:
		return nchw;
	case ACL_FORMAT_NHWC:
		return nhwc;
	case ACL_FORMAT_HWCN:
		return hwcn;
	default:
		return NULL;
	}
}

/*
 * Only layouts vnpu keeps in memory can be derived: the same format, or
 * a 4-D shape moved between NCHW, NHWC and HWCN. The Ascend-private
 * packed layouts (NC1HWC0, FRACTAL_*) do not exist on this device.
 */
aclError aclTransTensorDescFormat(const aclTensorDesc *srcDesc,
				  aclFormat dstFormat, aclTensorDesc **dstDesc)
{
	PROF_API();
	const int *from, *to;
	int64_t dims[4];
	aclTensorDesc *d;
	int i;

	if (!srcDesc || !dstDesc)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "%s must not be NULL",
				!srcDesc ? "srcDesc" : "dstDesc");
	from = plain_axes(srcDesc->format);
	to = plain_axes(dstFormat);
	if (srcDesc->format != dstFormat &&
	    (!from || !to || srcDesc->shape.num != 4))
		return acl_fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
				"vnpu derives only NCHW, NHWC and HWCN shapes of 4 dims from each other (format %d to %d, %d dims)",
				(int)srcDesc->format, (int)dstFormat,
				srcDesc->shape.num);
	d = aclCreateTensorDesc(srcDesc->dtype, srcDesc->shape.num,
				srcDesc->shape.dims, dstFormat);
	if (!d)
		return acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
	if (srcDesc->format != dstFormat) {
		for (i = 0; i < 4; i++)		/* i walks N, C, H, W */
			dims[to[i]] = srcDesc->shape.dims[from[i]];
		memcpy(d->shape.dims, dims, sizeof(dims));
	}
	d->origin_format = srcDesc->origin_format;
	d->origin_shape = srcDesc->origin_shape;
	d->placement = srcDesc->placement;
	if (srcDesc->name)
		aclSetTensorDescName(d, srcDesc->name);
	*dstDesc = d;
	return ACL_SUCCESS;
}
