/* SPDX-License-Identifier: MIT */
/* The model API's own objects: aclmdlDesc and aclmdlDataset. */
#ifndef VNPU_MDL_MDL_API_H
#define VNPU_MDL_MDL_API_H

#include "acl/acl_mdl.h"
#include "model.h"

/*
 * A dynamic-batch model reports one input more than its .om has: as on
 * CANN, the last input is ACL_DYNAMIC_TENSOR_NAME, the buffer the batch
 * size goes with (8 bytes, INT64). Its buffer is part of the dataset but
 * not bound: the batch chosen by aclmdlSetDynamicBatchSize selects the
 * variant.
 */
#define MDL_DYN_DTYPE	ACL_INT64
#define MDL_DYN_SIZE	8

struct aclmdlDesc {
	uint32_t model_id;		/* 0: not filled by aclmdlGetDesc */
	uint32_t nin, nout;		/* as reported */
	struct mdl_io *io;		/* nin, then nout */
	bool dynamic;
	uint32_t nbatch;
	uint64_t batch[OM_MAX_VARIANTS];
};

struct aclmdlDataset {
	aclDataBuffer **buf;
	aclTensorDesc **desc;
	size_t n, cap;
	uint32_t batch;			/* aclmdlSetDynamicBatchSize, 0: none */
	uint64_t own;			/* descs made by the runtime (bit i) */
};

/* The ACL code of a model id that is not loaded. */
aclError mdl_id_error(const char *func, uint32_t id);

#endif /* VNPU_MDL_MDL_API_H */
