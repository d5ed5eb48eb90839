/* SPDX-License-Identifier: MIT */
/*
 * Dynamic AIPP's parameter object (aclmdlAIPP) and what the model calls
 * share: one struct drm_vnpu_aipp_params per image of the batch, the
 * layout of the ascend_dynamic_aipp_data input (Documentation/aipp.md).
 */
#ifndef VNPU_MDL_AIPP_H
#define VNPU_MDL_AIPP_H

#include <stdint.h>

#include <drm/vnpu_accel.h>

#include "mdl_api.h"

/* Images one parameter object holds at most (CANN's limit too). */
#define MDL_AIPP_MAX_BATCH	32

/* The value of dynamicAttachedDataIndex when there is none (CANN's). */
#define MDL_AIPP_NO_INDEX	0xFFFFFFFFu

struct aclmdlAIPP {
	uint64_t batch;
	/* per image; the shared fields (format, CSC, swaps, source size) alike */
	struct drm_vnpu_aipp_params *p;
	/* per image: the scaling's input size as set, checked against the crop */
	int32_t (*scf_in)[2];
};

/*
 * Check the blocks of @a for the model's AIPP record @rec (the image
 * input's bytes per image and the layer's [N, C, H, W]) with the device's
 * rules; 0, or ACL_ERROR_INVALID_PARAM recorded under @func.
 */
aclError mdl_aipp_check(const char *func, const struct aclmdlAIPP *a,
			const struct om_aipp *rec, int64_t image_bytes);

/* The model's AIPP record for input @index (image or parameters), or NULL. */
const struct om_aipp *mdl_aipp_of(const struct mdl_model *m, size_t index);

#endif /* VNPU_MDL_AIPP_H */
