// SPDX-License-Identifier: MIT
/*
 * What a loaded model says about its AIPP: aclmdlGetAippType for any
 * input, aclmdlGetFirstAippInfo for an input with static AIPP (the
 * parameters atc baked in, and the shapes before and after the AIPP
 * stage for each batch variant). From the .om's AIPP records
 * (Documentation/om-format.md).
 */
#include <stdio.h>
#include <string.h>

#include "../core/entry_check.h"
#include "mdl_aipp.h"
#include "../core/prof_rt.h"

const struct om_aipp *mdl_aipp_of(const struct mdl_model *m, size_t index)
{
	for (uint32_t i = 0; i < m->naipp; i++)
		if (m->aipp[i].input == index ||
		    (m->aipp[i].mode == OM_AIPP_DYNAMIC &&
		     m->aipp[i].params_input == index))
			return &m->aipp[i];
	return NULL;
}

aclError aclmdlGetAippType(uint32_t modelId, size_t index, aclmdlInputAippType *type,
			   size_t *dynamicAttachedDataIndex)
{
	PROF_API();
	const struct om_aipp *rec;
	struct mdl_model *m;
	aclError e = ACL_SUCCESS;

	RT_REQUIRE_INIT();
	if (!type || !dynamicAttachedDataIndex)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"type and dynamicAttachedDataIndex must not be NULL");
	if (model_get(modelId, &m))
		return mdl_id_error(__func__, modelId);
	if (index >= m->nin + m->dynamic) {
		e = acl_fail(ACL_ERROR_INVALID_PARAM, "model %u has %u inputs, not %zu",
			     modelId, m->nin + m->dynamic, index + 1);
		goto out;
	}
	rec = mdl_aipp_of(m, index);
	*dynamicAttachedDataIndex = MDL_AIPP_NO_INDEX;
	if (!rec) {
		*type = ACL_DATA_WITHOUT_AIPP;
	} else if (rec->mode == OM_AIPP_STATIC) {
		*type = ACL_DATA_WITH_STATIC_AIPP;
	} else if (rec->input == index) {
		*type = ACL_DATA_WITH_DYNAMIC_AIPP;
		*dynamicAttachedDataIndex = rec->params_input;
	} else {
		*type = ACL_DYNAMIC_AIPP_NODE;
	}
out:
	model_put(m);
	return e;
}

static void fill_params(aclAippInfo *info, const struct drm_vnpu_aipp_params *p)
{
	int32_t *mat[9] = { &info->matrixR0C0, &info->matrixR0C1, &info->matrixR0C2,
			    &info->matrixR1C0, &info->matrixR1C1, &info->matrixR1C2,
			    &info->matrixR2C0, &info->matrixR2C1, &info->matrixR2C2 };
	int32_t *ob[3] = { &info->outputBias0, &info->outputBias1, &info->outputBias2 };
	int32_t *ib[3] = { &info->inputBias0, &info->inputBias1, &info->inputBias2 };
	int32_t *mean[4] = { &info->meanChn0, &info->meanChn1, &info->meanChn2,
			     &info->meanChn3 };
	float *min[4] = { &info->minChn0, &info->minChn1, &info->minChn2, &info->minChn3 };
	float *var[4] = { &info->varReciChn0, &info->varReciChn1, &info->varReciChn2,
			  &info->varReciChn3 };

	info->inputFormat = (aclAippInputFormat)p->input_format;
	info->srcImageSizeW = p->src_w;
	info->srcImageSizeH = p->src_h;
	info->cropSwitch = p->crop_switch;
	info->loadStartPosW = p->crop_x;
	info->loadStartPosH = p->crop_y;
	info->cropSizeW = p->crop_w;
	info->cropSizeH = p->crop_h;
	info->resizeSwitch = p->scf_switch;
	info->resizeOutputW = p->scf_w;
	info->resizeOutputH = p->scf_h;
	info->paddingSwitch = p->pad_switch;
	info->leftPaddingSize = p->pad_left;
	info->rightPaddingSize = p->pad_right;
	info->topPaddingSize = p->pad_top;
	info->bottomPaddingSize = p->pad_bottom;
	info->cscSwitch = p->csc_switch;
	info->rbuvSwapSwitch = p->rbuv_swap;
	info->axSwapSwitch = p->ax_swap;
	info->singleLineMode = 0;
	for (int k = 0; k < 9; k++)
		*mat[k] = p->csc_matrix[k];
	for (int k = 0; k < 3; k++) {
		*ob[k] = p->csc_out_bias[k];
		*ib[k] = p->csc_in_bias[k];
	}
	for (int k = 0; k < 4; k++) {
		*mean[k] = p->mean[k];
		memcpy(min[k], &p->min[k], sizeof(float));
		memcpy(var[k], &p->var_reci[k], sizeof(float));
	}
}

/* The shapes before and after AIPP in each variant. */
static void fill_dims(aclAippInfo *info, const struct mdl_model *m,
		      const struct om_aipp *rec)
{
	const struct mdl_io *io = &m->io[rec->input];
	uint32_t esize = om_dtype_size(rec->out_dtype);

	info->srcFormat = (aclFormat)io->format;
	info->srcDatatype = (aclDataType)io->dtype;
	info->srcDimNum = io->rank;
	info->shapeCount = m->nvar < ACL_MAX_SHAPE_COUNT ? m->nvar : ACL_MAX_SHAPE_COUNT;
	for (size_t v = 0; v < info->shapeCount; v++) {
		const struct om_dims *d = &m->var[v].dims[rec->input];
		aclAippDims *o = &info->outDims[v];
		size_t out = esize;

		/* a name longer than the field is cut */
		snprintf(o->srcDims.name, sizeof(o->srcDims.name), "%.*s",
			 (int)sizeof(o->srcDims.name) - 1, io->name);
		o->srcDims.dimCount = d->rank;
		for (uint32_t k = 0; k < d->rank && k < ACL_MAX_DIM_CNT; k++)
			o->srcDims.dims[k] = d->dims[k];
		o->srcSize = (size_t)m->var[v].io_size[rec->input];
		snprintf(o->aippOutdims.name, sizeof(o->aippOutdims.name), "%.*s",
			 (int)sizeof(o->aippOutdims.name) - 1, io->name);
		o->aippOutdims.dimCount = 4;
		for (int k = 0; k < 4; k++) {
			/* the batch follows the variant's */
			o->aippOutdims.dims[k] = k ? rec->out_dims[k] : d->dims[0];
			out *= (size_t)o->aippOutdims.dims[k];
		}
		o->aippOutSize = out;
	}
}

aclError aclmdlGetFirstAippInfo(uint32_t modelId, size_t index, aclAippInfo *aippInfo)
{
	PROF_API();
	const struct om_aipp *rec;
	struct mdl_model *m;
	aclError e = ACL_SUCCESS;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(aippInfo);
	if (model_get(modelId, &m))
		return mdl_id_error(__func__, modelId);
	rec = mdl_aipp_of(m, index);
	if (index >= m->nin + m->dynamic) {
		e = acl_fail(ACL_ERROR_INVALID_PARAM, "model %u has %u inputs, not %zu",
			     modelId, m->nin + m->dynamic, index + 1);
	} else if (!rec || rec->mode != OM_AIPP_STATIC) {
		e = acl_fail(ACL_ERROR_NOT_STATIC_AIPP, "input %zu of model %u has %s",
			     index, modelId, rec ? "dynamic AIPP" : "no AIPP");
	} else {
		memset(aippInfo, 0, sizeof(*aippInfo));
		fill_params(aippInfo, (const struct drm_vnpu_aipp_params *)rec->params);
		fill_dims(aippInfo, m, rec);
	}
	model_put(m);
	return e;
}
