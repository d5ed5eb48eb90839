// SPDX-License-Identifier: MIT
/*
 * Dynamic AIPP's parameters into a dataset: aclmdlSetInputAIPP (by the
 * ascend_dynamic_aipp_data input) and aclmdlSetAIPPByInputIndex (by the
 * image input it serves). The blocks are checked against the model with
 * the device's rules (Documentation/aipp.md) so that a mistake is a
 * refused call, not a failed execution, then copied into the input's
 * device buffer; the device checks them again when it runs.
 */
#include <stdio.h>
#include <string.h>

#include "../core/data_buffer.h"
#include "../core/device_io.h"
#include "../core/entry_check.h"
#include "mdl_aipp.h"
#include "../core/prof_rt.h"

static int channels(uint32_t f)
{
	return f == ACL_XRGB8888_U8 ? 4 : f == ACL_YUV400_U8 ? 1 : 3;
}

static int64_t image_bytes(const struct drm_vnpu_aipp_params *p)
{
	int64_t px = (int64_t)p->src_w * p->src_h;

	switch (p->input_format) {
	case ACL_YUV420SP_U8: return px * 3 / 2;
	case ACL_XRGB8888_U8: return px * 4;
	case ACL_RGB888_U8: return px * 3;
	default: return px;
	}
}

static aclError bad(const char *func, uint64_t i, const char *what)
{
	return acl_fail_at(func, ACL_ERROR_INVALID_PARAM, "image %llu: %s",
			   (unsigned long long)i, what);
}

aclError mdl_aipp_check(const char *func, const struct aclmdlAIPP *a,
			const struct om_aipp *rec, int64_t image_size)
{
	char msg[160];

	for (uint64_t i = 0; i < a->batch; i++) {
		const struct drm_vnpu_aipp_params *p = &a->p[i];
		int64_t ww = p->crop_switch ? p->crop_w : p->src_w;
		int64_t wh = p->crop_switch ? p->crop_h : p->src_h;
		int64_t sw = p->scf_switch ? p->scf_w : ww;
		int64_t sh = p->scf_switch ? p->scf_h : wh;
		uint32_t f = p->input_format;

		if (!f)
			return bad(func, i, "no input format (aclmdlSetAIPPInputFormat)");
		if (!p->src_w)
			return bad(func, i, "no image size (aclmdlSetAIPPSrcImageSize)");
		if (f == ACL_YUV420SP_U8 && (p->src_w % 2 || p->src_h % 2))
			return bad(func, i, "a YUV420SP_U8 image needs even sides");
		if (image_bytes(p) > image_size) {
			snprintf(msg, sizeof(msg), "a %d x %d image has %lld bytes, the input %lld",
				 p->src_w, p->src_h, (long long)image_bytes(p),
				 (long long)image_size);
			return bad(func, i, msg);
		}
		if (p->crop_switch && ((int64_t)p->crop_x + p->crop_w > p->src_w ||
				       (int64_t)p->crop_y + p->crop_h > p->src_h))
			return bad(func, i, "the crop is not inside the image");
		if (p->scf_switch && (a->scf_in[i][0] != ww || a->scf_in[i][1] != wh))
			return bad(func, i, "the scaling's input size is not the crop's (or the image's)");
		if (f == ACL_YUV400_U8 && (p->csc_switch || p->rbuv_swap))
			return bad(func, i, "a YUV400_U8 image has no colours to convert or swap");
		if (p->ax_swap && f != ACL_XRGB8888_U8)
			return bad(func, i, "the AX swap needs XRGB8888_U8");
		if (sh + p->pad_top + p->pad_bottom != rec->out_dims[2] ||
		    sw + p->pad_left + p->pad_right != rec->out_dims[3]) {
			snprintf(msg, sizeof(msg), "the result is %lld x %lld, the model takes %lld x %lld",
				 (long long)(sw + p->pad_left + p->pad_right),
				 (long long)(sh + p->pad_top + p->pad_bottom),
				 (long long)rec->out_dims[3], (long long)rec->out_dims[2]);
			return bad(func, i, msg);
		}
		if (rec->out_dims[1] > channels(f))
			return bad(func, i, "the format has fewer channels than the model's input");
	}
	return ACL_SUCCESS;
}

/* The blocks into dataset buffer @index, the parameter input of @rec. */
static aclError put(const char *func, struct mdl_model *m,
		    const struct om_aipp *rec, aclmdlDataset *ds, size_t index,
		    const struct aclmdlAIPP *a)
{
	uint64_t n = (uint64_t)m->io[rec->params_input].dims[0];
	size_t bytes = (size_t)a->batch * OM_AIPP_PARAMS_SIZE;
	const aclDataBuffer *b;
	aclError e;
	uint64_t va;

	if (m->dynamic && ds->batch)
		n = ds->batch;
	if (a->batch != n)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "the parameters are for %llu images, the model runs %llu",
				   (unsigned long long)a->batch, (unsigned long long)n);
	if (index >= ds->n || !ds->buf[index] || !ds->buf[index]->data)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "the dataset has no buffer %zu", index);
	b = ds->buf[index];
	if (b->size < bytes)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "buffer %zu has %zu bytes, the parameters %zu (aclmdlGetAippDataSize)",
				   index, b->size, bytes);
	e = mdl_aipp_check(func, a, rec, m->io[rec->input].dims[1]);
	if (e)
		return e;
	va = mdl_dev_va(m->dev, b->data, bytes);
	if (!va)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "buffer %zu (%p) is not memory of device %d", index,
				   b->data, m->dev->id);
	if (device_copy(m->dev, va, (uintptr_t)a->p, bytes, DRM_VNPU_MEMCPY_DST_DEVICE))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "buffer %zu cannot be written", index);
	return ACL_SUCCESS;
}

static aclError set(const char *func, uint32_t id, aclmdlDataset *ds,
		    size_t index, const aclmdlAIPP *a, bool by_image)
{
	const struct om_aipp *rec;
	struct mdl_model *m;
	aclError e;

	RT_REQUIRE_INIT();
	if (!ds || !a)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "dataset and aippParmsSet must not be NULL");
	if (model_get(id, &m))
		return mdl_id_error(func, id);
	rec = mdl_aipp_of(m, index);
	if (!rec || rec->mode != OM_AIPP_DYNAMIC ||
	    (by_image ? rec->input : rec->params_input) != index) {
		e = acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				by_image ? "input %zu of model %u has no dynamic AIPP" :
				"input %zu of model %u is not " ACL_DYNAMIC_AIPP_NAME,
				index, id);
	} else {
		e = put(func, m, rec, ds, rec->params_input, a);
	}
	model_put(m);
	return e;
}

aclError aclmdlSetInputAIPP(uint32_t modelId, aclmdlDataset *dataset, size_t index,
			    const aclmdlAIPP *aippParmsSet)
{
	PROF_API();
	return set(__func__, modelId, dataset, index, aippParmsSet, false);
}

aclError aclmdlSetAIPPByInputIndex(uint32_t modelId, aclmdlDataset *dataset,
				   size_t index, const aclmdlAIPP *aippParmsSet)
{
	PROF_API();
	return set(__func__, modelId, dataset, index, aippParmsSet, true);
}
