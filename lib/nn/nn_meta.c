/* SPDX-License-Identifier: MIT */
/* aclnn descriptor objects of aclnn/acl_meta.h. */
#include <stdlib.h>
#include <string.h>

#include "nn.h"
#include "../../kernel/ops/vnpu_dtype.h"

struct aclIntArray {
	uint64_t size;
	int64_t v[];
};

struct aclFloatArray {
	uint64_t size;
	float v[];
};

struct aclBoolArray {
	uint64_t size;
	bool v[];
};

struct aclTensorList {
	uint64_t size;
	const aclTensor *v[];
};

struct aclScalarList {
	uint64_t size;
	const aclScalar *v[];
};

bool nn_dtype_defined(aclDataType dt)
{
	switch ((int)dt) {
	case ACL_FLOAT: case ACL_FLOAT16: case ACL_INT8: case ACL_INT32:
	case ACL_UINT8: case ACL_INT16: case ACL_UINT16: case ACL_UINT32:
	case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_BOOL:
	case ACL_STRING: case ACL_COMPLEX64: case ACL_COMPLEX128:
	case ACL_BF16: case ACL_INT4: case ACL_UINT1: case ACL_COMPLEX32:
	case ACL_HIFLOAT8: case ACL_FLOAT8_E5M2: case ACL_FLOAT8_E4M3FN:
	case ACL_FLOAT8_E8M0: case ACL_FLOAT6_E3M2: case ACL_FLOAT6_E2M3:
	case ACL_FLOAT4_E2M1: case ACL_FLOAT4_E1M2:
		return true;
	default:
		return false;
	}
}

/*
 * The device's dtypes are aclDataType's values (DRM_VNPU_DTYPE_*): every
 * dtype of the one list (kernel/ops/vnpu_dtypes.def) has the same number
 * as its ACL_ namesake, so descriptors pass to the driver unchanged.
 */
#define SAME_NUMBER(NAME, ...) \
	_Static_assert(ACL_##NAME == DRM_VNPU_DTYPE_##NAME, "dtype numbering");
#define VNPU_DTYPE SAME_NUMBER
#include "../../kernel/ops/vnpu_dtypes.def"
#include "../core/prof_rt.h"

size_t nn_dtype_size(aclDataType dt)
{
	return vnpu_dtype_size((__u32)dt);
}

/*
 * The dtypes the aclnn layer's promotion rules know (the device computes
 * in every dtype; the aclnn operators take these eight).
 */
bool nn_dtype_is_compute(aclDataType dt)
{
	switch (dt) {
	case ACL_BOOL:
	case ACL_INT8:
	case ACL_UINT8:
	case ACL_FLOAT16:
	case ACL_BF16:
	case ACL_FLOAT:
	case ACL_INT32:
	case ACL_INT64:
		return true;
	default:
		return false;
	}
}

bool nn_dtype_is_float(aclDataType dt)
{
	return dt == ACL_FLOAT || dt == ACL_FLOAT16 || dt == ACL_BF16;
}

bool nn_dtype_is_int(aclDataType dt)
{
	return dt == ACL_INT8 || dt == ACL_UINT8 || dt == ACL_INT32 ||
	       dt == ACL_INT64;
}

int64_t nn_numel(const aclTensor *t)
{
	int64_t n = 1;
	uint64_t i;

	for (i = 0; i < t->ndim; i++)
		n *= t->dims[i];
	return n;
}

static aclnnStatus init_tensor(aclTensor *t, const int64_t *viewDims,
			       uint64_t viewDimsNum, aclDataType dataType,
			       const int64_t *stride, int64_t offset,
			       aclFormat format, const int64_t *storageDims,
			       uint64_t storageDimsNum, void *data)
{
	uint64_t i;

	if ((!viewDims && viewDimsNum) || (!storageDims && storageDimsNum))
		return nn_fail(ACLNN_ERR_PARAM_NULLPTR,
			       "dims are NULL with a non-zero count");
	if (viewDimsNum > NN_MAX_RANK || storageDimsNum > NN_MAX_RANK)
		return nn_fail(ACLNN_ERR_PARAM_INVALID,
			       "at most %d dims are supported", NN_MAX_RANK);
	if (offset < 0)
		return nn_fail(ACLNN_ERR_PARAM_INVALID, "negative offset");
	if (!nn_dtype_defined(dataType))
		return nn_fail(ACLNN_ERR_PARAM_INVALID,
			       "%d is not an aclDataType", (int)dataType);
	for (i = 0; i < viewDimsNum; i++)
		if (viewDims[i] < 0 || (stride && stride[i] < 0))
			return nn_fail(ACLNN_ERR_PARAM_INVALID,
				       "dim %llu: negative size or stride",
				       (unsigned long long)i);
	memset(t, 0, sizeof(*t));
	t->magic = TENSOR_MAGIC;
	t->dtype = dataType;
	t->format = format;
	t->ndim = viewDimsNum;
	if (viewDimsNum)
		memcpy(t->dims, viewDims, viewDimsNum * sizeof(int64_t));
	if (stride) {
		if (viewDimsNum)
			memcpy(t->strides, stride, viewDimsNum * sizeof(int64_t));
	} else {
		int64_t s = 1;

		for (i = viewDimsNum; i-- > 0;) {
			t->strides[i] = s;
			s *= viewDims[i];
		}
	}
	t->offset = offset;
	t->sdim = storageDimsNum;
	if (storageDimsNum)
		memcpy(t->sdims, storageDims, storageDimsNum * sizeof(int64_t));
	t->data = data;
	return ACLNN_SUCCESS;
}

aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum,
			   aclDataType dataType, const int64_t *stride,
			   int64_t offset, aclFormat format,
			   const int64_t *storageDims, uint64_t storageDimsNum,
			   void *tensorData)
{
	PROF_API();
	aclTensor *t = malloc(sizeof(*t));

	if (!t)
		return NULL;
	if (init_tensor(t, viewDims, viewDimsNum, dataType, stride, offset,
			format, storageDims, storageDimsNum, tensorData)) {
		free(t);
		return NULL;
	}
	return t;
}

aclnnStatus aclInitTensor(aclTensor *tensor, const int64_t *viewDims,
			  uint64_t viewDimsNum, aclDataType dataType,
			  const int64_t *stride, int64_t offset,
			  aclFormat format, const int64_t *storageDims,
			  uint64_t storageDimsNum, void *tensorDataAddr)
{
	PROF_API();
	if (!tensor)
		return nn_fail(ACLNN_ERR_PARAM_NULLPTR, "tensor is NULL");
	return init_tensor(tensor, viewDims, viewDimsNum, dataType, stride,
			   offset, format, storageDims, storageDimsNum,
			   tensorDataAddr);
}

aclScalar *aclCreateScalar(void *value, aclDataType dataType)
{
	PROF_API();
	aclScalar *s;

	if (!value || !nn_dtype_defined(dataType))
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->dtype = dataType;
	s->is_float = true;
	s->numeric = true;
	switch ((int)dataType) {
	case ACL_FLOAT: s->v.f = *(float *)value; break;
	case ACL_DOUBLE: s->v.f = *(double *)value; break;
	case ACL_FLOAT16: case ACL_BF16: {
		/* Widen the 16-bit pattern. */
		uint16_t h = *(uint16_t *)value;
		uint32_t bits;
		float f;

		if (dataType == ACL_BF16) {
			bits = (uint32_t)h << 16;
			memcpy(&f, &bits, 4);
		} else {
			uint32_t sign = (h >> 15) & 1, e = (h >> 10) & 31,
				 m = h & 1023;
			if (e == 0)
				f = (float)m / 16777216.0f;
			else if (e == 31)
				f = m ? __builtin_nanf("") : __builtin_inff();
			else {
				bits = ((e + 112) << 23) | (m << 13);
				memcpy(&f, &bits, 4);
			}
			if (sign)
				f = -f;
		}
		s->v.f = f;
		break;
	}
	default:
		s->is_float = false;
		switch ((int)dataType) {
		case ACL_INT8: s->v.i = *(int8_t *)value; break;
		case ACL_UINT8: s->v.i = *(uint8_t *)value; break;
		case ACL_INT16: s->v.i = *(int16_t *)value; break;
		case ACL_UINT16: s->v.i = *(uint16_t *)value; break;
		case ACL_INT32: s->v.i = *(int32_t *)value; break;
		case ACL_UINT32: s->v.i = *(uint32_t *)value; break;
		case ACL_INT64: s->v.i = *(int64_t *)value; break;
		case ACL_UINT64: s->v.i = (int64_t)*(uint64_t *)value; break;
		case ACL_BOOL: s->v.i = *(bool *)value; break;
		default:
			/*
			 * Strings, complex numbers and the sub-byte and 8-bit
			 * float formats: a valid scalar, but no operator here
			 * takes its value (they report 161002).
			 */
			s->numeric = false;
			break;
		}
	}
	return s;
}

#define ARRAY_CREATE(fn, type, elem)					\
	type *fn(const elem *value, uint64_t size)			\
	{								\
		PROF_API();						\
		type *a;						\
		if (!value && size)					\
			return NULL;					\
		if (size > (1ull << 32))				\
			return NULL;					\
		a = malloc(sizeof(*a) + size * sizeof(elem));		\
		if (!a)							\
			return NULL;					\
		a->size = size;						\
		if (size)						\
			memcpy(a->v, value, size * sizeof(elem));	\
		return a;						\
	}

ARRAY_CREATE(aclCreateIntArray, aclIntArray, int64_t)
ARRAY_CREATE(aclCreateFloatArray, aclFloatArray, float)
ARRAY_CREATE(aclCreateBoolArray, aclBoolArray, bool)

aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size)
{
	PROF_API();
	aclTensorList *a;

	if ((!value && size) || size > (1ull << 32))
		return NULL;
	a = malloc(sizeof(*a) + size * sizeof(a->v[0]));
	if (!a)
		return NULL;
	a->size = size;
	if (size)
		memcpy(a->v, value, size * sizeof(a->v[0]));
	return a;
}

aclScalarList *aclCreateScalarList(const aclScalar *const *value, uint64_t size)
{
	PROF_API();
	aclScalarList *a;

	if ((!value && size) || size > (1ull << 32))
		return NULL;
	a = malloc(sizeof(*a) + size * sizeof(a->v[0]));
	if (!a)
		return NULL;
	a->size = size;
	if (size)
		memcpy(a->v, value, size * sizeof(a->v[0]));
	return a;
}

#define DESTROY(fn, type)						\
	aclnnStatus fn(const type *p)					\
	{								\
		PROF_API();						\
		if (!p)							\
			return nn_fail(ACLNN_ERR_PARAM_NULLPTR, "NULL");\
		free((void *)p);					\
		return ACLNN_SUCCESS;					\
	}

aclnnStatus aclDestroyTensor(const aclTensor *tensor)
{
	PROF_API();
	if (!tensor)
		return nn_fail(ACLNN_ERR_PARAM_NULLPTR, "tensor is NULL");
	((aclTensor *)tensor)->magic = 0;
	free((void *)tensor);
	return ACLNN_SUCCESS;
}

DESTROY(aclDestroyScalar, aclScalar)
DESTROY(aclDestroyIntArray, aclIntArray)
DESTROY(aclDestroyFloatArray, aclFloatArray)
DESTROY(aclDestroyBoolArray, aclBoolArray)

aclnnStatus aclDestroyTensorList(const aclTensorList *array)
{
	PROF_API();
	uint64_t i;

	if (!array)
		return nn_fail(ACLNN_ERR_PARAM_NULLPTR, "list is NULL");
	for (i = 0; i < array->size; i++)
		if (array->v[i])
			aclDestroyTensor(array->v[i]);
	free((void *)array);
	return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyScalarList(const aclScalarList *array)
{
	PROF_API();
	uint64_t i;

	if (!array)
		return nn_fail(ACLNN_ERR_PARAM_NULLPTR, "list is NULL");
	for (i = 0; i < array->size; i++)
		free((void *)array->v[i]);
	free((void *)array);
	return ACLNN_SUCCESS;
}

/* Getters returning a copy the caller frees (as CANN: delete[]; here free). */
static aclnnStatus dup_dims(const int64_t *src, uint64_t n, int64_t **out,
			    uint64_t *num)
{
	*out = malloc((n ? n : 1) * sizeof(int64_t));
	if (!*out)
		return ACLNN_ERR_INNER;
	if (n)
		memcpy(*out, src, n * sizeof(int64_t));
	*num = n;
	return ACLNN_SUCCESS;
}

#define REQ(x) do { if (!(x)) return nn_fail(ACLNN_ERR_PARAM_NULLPTR, "%s is NULL", #x); } while (0)

aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims,
			    uint64_t *viewDimsNum)
{
	PROF_API();
	REQ(tensor); REQ(viewDims); REQ(viewDimsNum);
	return dup_dims(tensor->dims, tensor->ndim, viewDims, viewDimsNum);
}

aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims,
			       uint64_t *storageDimsNum)
{
	PROF_API();
	REQ(tensor); REQ(storageDims); REQ(storageDimsNum);
	return dup_dims(tensor->sdims, tensor->sdim, storageDims,
			storageDimsNum);
}

aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue,
			      uint64_t *stridesNum)
{
	PROF_API();
	REQ(tensor); REQ(stridesValue); REQ(stridesNum);
	return dup_dims(tensor->strides, tensor->ndim, stridesValue,
			stridesNum);
}

aclnnStatus aclGetViewOffset(const aclTensor *tensor, int64_t *offset)
{
	PROF_API();
	REQ(tensor); REQ(offset);
	*offset = tensor->offset;
	return ACLNN_SUCCESS;
}

aclnnStatus aclGetFormat(const aclTensor *tensor, aclFormat *format)
{
	PROF_API();
	REQ(tensor); REQ(format);
	*format = tensor->format;
	return ACLNN_SUCCESS;
}

aclnnStatus aclGetDataType(const aclTensor *tensor, aclDataType *dataType)
{
	PROF_API();
	REQ(tensor); REQ(dataType);
	*dataType = tensor->dtype;
	return ACLNN_SUCCESS;
}

aclnnStatus aclGetRawTensorAddr(const aclTensor *tensor, void **addr)
{
	PROF_API();
	REQ(tensor); REQ(addr);
	*addr = tensor->data;
	return ACLNN_SUCCESS;
}

aclnnStatus aclSetRawTensorAddr(aclTensor *tensor, void *addr)
{
	PROF_API();
	REQ(tensor);
	tensor->data = addr;
	return ACLNN_SUCCESS;
}

#define SIZE_GETTER(fn, type)						\
	aclnnStatus fn(const type *array, uint64_t *size)		\
	{								\
		PROF_API();						\
		REQ(array); REQ(size);					\
		*size = array->size;					\
		return ACLNN_SUCCESS;					\
	}

SIZE_GETTER(aclGetIntArraySize, aclIntArray)
SIZE_GETTER(aclGetFloatArraySize, aclFloatArray)
SIZE_GETTER(aclGetBoolArraySize, aclBoolArray)
SIZE_GETTER(aclGetTensorListSize, aclTensorList)
SIZE_GETTER(aclGetScalarListSize, aclScalarList)

aclnnStatus aclnnInit(const char *configPath)
{
	PROF_API();
	(void)configPath;
	return ACLNN_SUCCESS;
}

aclnnStatus aclnnFinalize(void)
{
	PROF_API();
	return ACLNN_SUCCESS;
}

const int64_t *nn_int_array(const aclIntArray *a, uint64_t *n)
{
	*n = a ? a->size : 0;
	return a ? a->v : NULL;
}

const aclTensor *const *nn_tensor_list(const aclTensorList *l, uint64_t *n)
{
	*n = l ? l->size : 0;
	return l ? l->v : NULL;
}

const float *nn_float_array(const aclFloatArray *a, uint64_t *n)
{
	*n = a ? a->size : 0;
	return a ? a->v : NULL;
}
