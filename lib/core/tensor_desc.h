/* SPDX-License-Identifier: MIT */
/*
 * aclTensorDesc's insides and the operations on it that lib/mdl and
 * lib/op need. lib/api's acl*TensorDesc* entry points are thin wrappers
 * over these or work on the fields directly.
 *
 * GE's conventions: a dim of -1 is unknown, the shape {-2} means the rank
 * itself is unknown, and numDims 0 is a scalar.
 *
 * Functions taking func record failures under that name, so a wrapper
 * passes its own and messages read as before.
 */
#ifndef VNPU_CORE_TENSOR_DESC_H
#define VNPU_CORE_TENSOR_DESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base_mdl.h"
#include "acl/acl_mdl.h"

#define TD_MAX_DIMS ACL_MAX_DIM_CNT
#define TD_UNKNOWN_RANK_DIM (-2)

struct td_shape {
	int num;
	int64_t dims[TD_MAX_DIMS];
};

struct aclTensorDesc {
	aclDataType dtype;
	aclFormat format;
	aclFormat origin_format;
	aclFormat storage_format;
	struct td_shape shape;
	struct td_shape origin_shape;
	struct td_shape storage_shape;
	size_t num_ranges;
	int64_t (*ranges)[ACL_TENSOR_SHAPE_RANGE_NUM];
	size_t num_values;
	int64_t (*values)[ACL_TENSOR_VALUE_RANGE_NUM];
	char *name;
	char *dynamic_input;
	void *const_data;
	size_t const_len;
	aclMemType placement;
	void *address;
};

/* Set s to num dims; a bad shape is ACL_ERROR_INVALID_PARAM, s kept. */
aclError td_shape_set_at(const char *func, struct td_shape *s, int num,
			 const int64_t *dims);
/* The shape {-2}: not even the rank is known. */
bool td_shape_unknown_rank(const struct td_shape *s);

/* A new description (aclCreateTensorDesc); NULL on failure, recorded. */
aclTensorDesc *tensor_desc_create(const char *func, aclDataType dtype,
				  int num_dims, const int64_t *dims,
				  aclFormat format);
/* Free desc and everything it owns; NULL is ignored. */
void tensor_desc_destroy(const aclTensorDesc *desc);
/* Replace the shape (aclSetTensorShape). */
aclError tensor_desc_set_shape(const char *func, aclTensorDesc *desc,
			       int num_dims, const int64_t *dims);

/* Getters: a NULL desc reads as undefined type/format and 0 dims. */
aclDataType tensor_desc_dtype(const aclTensorDesc *desc);
aclFormat tensor_desc_format(const aclTensorDesc *desc);
/* The rank, or ACL_UNKNOWN_RANK for the shape {-2}. */
size_t tensor_desc_num_dims(const aclTensorDesc *desc);
/* Dim index into *dim (aclGetTensorDescDimV2). */
aclError tensor_desc_dim(const char *func, const aclTensorDesc *desc,
			 size_t index, int64_t *dim);

#endif /* VNPU_CORE_TENSOR_DESC_H */
