// SPDX-License-Identifier: MIT
/*
 * aclmdlAIPP: dynamic AIPP's parameters, set piece by piece by the
 * program (aclmdlSetAIPP*) and handed to a model by aclmdlSetInputAIPP.
 * The setters check what they can alone (switches 0 or 1, sizes not
 * negative, the batch index); how the pieces fit together and with the
 * model is checked when they reach it (mdl_aipp_input.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/entry_check.h"
#include "mdl_aipp.h"
#include "../core/prof_rt.h"

static uint32_t fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

aclmdlAIPP *aclmdlCreateAIPP(uint64_t batchSize)
{
	PROF_API();
	struct aclmdlAIPP *a;

	if (!batchSize || batchSize > MDL_AIPP_MAX_BATCH) {
		acl_fail(ACL_ERROR_INVALID_PARAM, "batch size %llu is not in 1..%d",
			 (unsigned long long)batchSize, MDL_AIPP_MAX_BATCH);
		return NULL;
	}
	a = calloc(1, sizeof(*a));
	if (a) {
		a->p = calloc(batchSize, sizeof(*a->p));
		a->scf_in = calloc(batchSize, sizeof(*a->scf_in));
	}
	if (!a || !a->p || !a->scf_in) {
		if (a) {
			free(a->p);
			free(a->scf_in);
		}
		free(a);
		acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	a->batch = batchSize;
	/* as CANN: no normalisation until the program sets one */
	for (uint64_t i = 0; i < batchSize; i++)
		for (int c = 0; c < 4; c++)
			a->p[i].var_reci[c] = fbits(1.0f);
	return a;
}

aclError aclmdlDestroyAIPP(const aclmdlAIPP *aippParmsSet)
{
	PROF_API();
	struct aclmdlAIPP *a = (struct aclmdlAIPP *)aippParmsSet;

	RT_REQUIRE_ARG(aippParmsSet);
	free(a->p);
	free(a->scf_in);
	free(a);
	return ACL_SUCCESS;
}

aclError aclmdlGetAippDataSize(uint64_t batchSize, size_t *size)
{
	PROF_API();
	RT_REQUIRE_ARG(size);
	if (!batchSize || batchSize > MDL_AIPP_MAX_BATCH)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "batch size %llu is not in 1..%d",
				(unsigned long long)batchSize, MDL_AIPP_MAX_BATCH);
	*size = (size_t)batchSize * OM_AIPP_PARAMS_SIZE;
	return ACL_SUCCESS;
}

static aclError bad_switch(const char *func, const char *what, int v)
{
	return acl_fail_at(func, ACL_ERROR_INVALID_PARAM, "%s is %d, not 0 or 1",
			   what, v);
}

aclError aclmdlSetAIPPInputFormat(aclmdlAIPP *aippParmsSet, aclAippInputFormat inputFormat)
{
	PROF_API();
	RT_REQUIRE_ARG(aippParmsSet);
	if (inputFormat < ACL_YUV420SP_U8 || inputFormat > ACL_YUV400_U8)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"input format %d is not supported by vnpu's AIPP (YUV420SP_U8, XRGB8888_U8, RGB888_U8 and YUV400_U8 are)",
				(int)inputFormat);
	for (uint64_t i = 0; i < aippParmsSet->batch; i++)
		aippParmsSet->p[i].input_format = (uint32_t)inputFormat;
	return ACL_SUCCESS;
}

aclError aclmdlSetAIPPCscParams(aclmdlAIPP *aippParmsSet, int8_t cscSwitch,
				int16_t cscMatrixR0C0, int16_t cscMatrixR0C1, int16_t cscMatrixR0C2,
				int16_t cscMatrixR1C0, int16_t cscMatrixR1C1, int16_t cscMatrixR1C2,
				int16_t cscMatrixR2C0, int16_t cscMatrixR2C1, int16_t cscMatrixR2C2,
				uint8_t cscOutputBiasR0, uint8_t cscOutputBiasR1, uint8_t cscOutputBiasR2,
				uint8_t cscInputBiasR0, uint8_t cscInputBiasR1, uint8_t cscInputBiasR2)
{
	PROF_API();
	const int16_t m[9] = { cscMatrixR0C0, cscMatrixR0C1, cscMatrixR0C2,
			       cscMatrixR1C0, cscMatrixR1C1, cscMatrixR1C2,
			       cscMatrixR2C0, cscMatrixR2C1, cscMatrixR2C2 };
	const uint8_t ob[3] = { cscOutputBiasR0, cscOutputBiasR1, cscOutputBiasR2 };
	const uint8_t ib[3] = { cscInputBiasR0, cscInputBiasR1, cscInputBiasR2 };

	RT_REQUIRE_ARG(aippParmsSet);
	if (cscSwitch != 0 && cscSwitch != 1)
		return bad_switch(__func__, "cscSwitch", cscSwitch);
	for (uint64_t i = 0; i < aippParmsSet->batch; i++) {
		struct drm_vnpu_aipp_params *p = &aippParmsSet->p[i];

		p->csc_switch = cscSwitch;
		/* switched off, the values do not count (as CANN) */
		memset(p->csc_matrix, 0, sizeof(p->csc_matrix));
		memset(p->csc_out_bias, 0, sizeof(p->csc_out_bias));
		memset(p->csc_in_bias, 0, sizeof(p->csc_in_bias));
		if (cscSwitch) {
			memcpy(p->csc_matrix, m, sizeof(m));
			memcpy(p->csc_out_bias, ob, sizeof(ob));
			memcpy(p->csc_in_bias, ib, sizeof(ib));
		}
	}
	return ACL_SUCCESS;
}

aclError aclmdlSetAIPPRbuvSwapSwitch(aclmdlAIPP *aippParmsSet, int8_t rbuvSwapSwitch)
{
	PROF_API();
	RT_REQUIRE_ARG(aippParmsSet);
	if (rbuvSwapSwitch != 0 && rbuvSwapSwitch != 1)
		return bad_switch(__func__, "rbuvSwapSwitch", rbuvSwapSwitch);
	for (uint64_t i = 0; i < aippParmsSet->batch; i++)
		aippParmsSet->p[i].rbuv_swap = rbuvSwapSwitch;
	return ACL_SUCCESS;
}

aclError aclmdlSetAIPPAxSwapSwitch(aclmdlAIPP *aippParmsSet, int8_t axSwapSwitch)
{
	PROF_API();
	RT_REQUIRE_ARG(aippParmsSet);
	if (axSwapSwitch != 0 && axSwapSwitch != 1)
		return bad_switch(__func__, "axSwapSwitch", axSwapSwitch);
	for (uint64_t i = 0; i < aippParmsSet->batch; i++)
		aippParmsSet->p[i].ax_swap = axSwapSwitch;
	return ACL_SUCCESS;
}

aclError aclmdlSetAIPPSrcImageSize(aclmdlAIPP *aippParmsSet, int32_t srcImageSizeW,
				   int32_t srcImageSizeH)
{
	PROF_API();
	RT_REQUIRE_ARG(aippParmsSet);
	if (srcImageSizeW < 1 || srcImageSizeH < 1 || srcImageSizeW > 8192 ||
	    srcImageSizeH > 8192)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "image size %d x %d is not in 1..8192 a side",
				srcImageSizeW, srcImageSizeH);
	for (uint64_t i = 0; i < aippParmsSet->batch; i++) {
		aippParmsSet->p[i].src_w = srcImageSizeW;
		aippParmsSet->p[i].src_h = srcImageSizeH;
	}
	return ACL_SUCCESS;
}

/* The checks of the per-image setters; the image's block or NULL. */
static struct drm_vnpu_aipp_params *image(const char *func, aclmdlAIPP *a,
					  int8_t sw, uint64_t batchIndex,
					  aclError *e)
{
	if (!a) {
		*e = acl_fail_at(func, ACL_ERROR_INVALID_PARAM, "aippParmsSet is NULL");
		return NULL;
	}
	if (sw != 0 && sw != 1) {
		*e = bad_switch(func, "the switch", sw);
		return NULL;
	}
	if (batchIndex >= a->batch) {
		*e = acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				 "batch index %llu is not below the batch size %llu",
				 (unsigned long long)batchIndex,
				 (unsigned long long)a->batch);
		return NULL;
	}
	return &a->p[batchIndex];
}

static bool sizes_ok(int32_t a, int32_t b, int32_t c, int32_t d)
{
	return a >= 0 && b >= 0 && c >= 0 && d >= 0 && a <= 8192 && b <= 8192 &&
	       c <= 8192 && d <= 8192;
}

aclError aclmdlSetAIPPScfParams(aclmdlAIPP *aippParmsSet, int8_t scfSwitch,
				int32_t scfInputSizeW, int32_t scfInputSizeH,
				int32_t scfOutputSizeW, int32_t scfOutputSizeH,
				uint64_t batchIndex)
{
	PROF_API();
	aclError e = ACL_SUCCESS;
	struct drm_vnpu_aipp_params *p = image(__func__, aippParmsSet, scfSwitch,
					       batchIndex, &e);

	if (!p)
		return e;
	if (!sizes_ok(scfInputSizeW, scfInputSizeH, scfOutputSizeW, scfOutputSizeH) ||
	    (scfSwitch && (!scfOutputSizeW || !scfOutputSizeH)))
		return acl_fail(ACL_ERROR_INVALID_PARAM, "sizes %d x %d -> %d x %d are not in 1..8192",
				scfInputSizeW, scfInputSizeH, scfOutputSizeW, scfOutputSizeH);
	p->scf_switch = scfSwitch;
	p->scf_w = scfSwitch ? scfOutputSizeW : 0;
	p->scf_h = scfSwitch ? scfOutputSizeH : 0;
	aippParmsSet->scf_in[batchIndex][0] = scfSwitch ? scfInputSizeW : 0;
	aippParmsSet->scf_in[batchIndex][1] = scfSwitch ? scfInputSizeH : 0;
	return ACL_SUCCESS;
}

aclError aclmdlSetAIPPCropParams(aclmdlAIPP *aippParmsSet, int8_t cropSwitch,
				 int32_t cropStartPosW, int32_t cropStartPosH,
				 int32_t cropSizeW, int32_t cropSizeH, uint64_t batchIndex)
{
	PROF_API();
	aclError e = ACL_SUCCESS;
	struct drm_vnpu_aipp_params *p = image(__func__, aippParmsSet, cropSwitch,
					       batchIndex, &e);

	if (!p)
		return e;
	if (!sizes_ok(cropStartPosW, cropStartPosH, cropSizeW, cropSizeH) ||
	    (cropSwitch && (!cropSizeW || !cropSizeH)))
		return acl_fail(ACL_ERROR_INVALID_PARAM, "crop (%d, %d) + %d x %d is not valid",
				cropStartPosW, cropStartPosH, cropSizeW, cropSizeH);
	p->crop_switch = cropSwitch;
	p->crop_x = cropSwitch ? cropStartPosW : 0;
	p->crop_y = cropSwitch ? cropStartPosH : 0;
	p->crop_w = cropSwitch ? cropSizeW : 0;
	p->crop_h = cropSwitch ? cropSizeH : 0;
	return ACL_SUCCESS;
}

aclError aclmdlSetAIPPPaddingParams(aclmdlAIPP *aippParmsSet, int8_t paddingSwitch,
				    int32_t paddingSizeTop, int32_t paddingSizeBottom,
				    int32_t paddingSizeLeft, int32_t paddingSizeRight,
				    uint64_t batchIndex)
{
	PROF_API();
	aclError e = ACL_SUCCESS;
	struct drm_vnpu_aipp_params *p = image(__func__, aippParmsSet, paddingSwitch,
					       batchIndex, &e);

	if (!p)
		return e;
	if (!sizes_ok(paddingSizeTop, paddingSizeBottom, paddingSizeLeft, paddingSizeRight))
		return acl_fail(ACL_ERROR_INVALID_PARAM, "padding %d %d %d %d is not in 0..8192",
				paddingSizeTop, paddingSizeBottom, paddingSizeLeft,
				paddingSizeRight);
	p->pad_switch = paddingSwitch;
	p->pad_top = paddingSwitch ? paddingSizeTop : 0;
	p->pad_bottom = paddingSwitch ? paddingSizeBottom : 0;
	p->pad_left = paddingSwitch ? paddingSizeLeft : 0;
	p->pad_right = paddingSwitch ? paddingSizeRight : 0;
	return ACL_SUCCESS;
}

aclError aclmdlSetAIPPDtcPixelMean(aclmdlAIPP *aippParmsSet, int16_t dtcPixelMeanChn0,
				   int16_t dtcPixelMeanChn1, int16_t dtcPixelMeanChn2,
				   int16_t dtcPixelMeanChn3, uint64_t batchIndex)
{
	PROF_API();
	aclError e = ACL_SUCCESS;
	struct drm_vnpu_aipp_params *p = image(__func__, aippParmsSet, 0, batchIndex, &e);

	if (!p)
		return e;
	p->mean[0] = dtcPixelMeanChn0;
	p->mean[1] = dtcPixelMeanChn1;
	p->mean[2] = dtcPixelMeanChn2;
	p->mean[3] = dtcPixelMeanChn3;
	return ACL_SUCCESS;
}

static aclError four_floats(const char *func, aclmdlAIPP *a, uint64_t batchIndex,
			    const float v[4], bool min)
{
	aclError e = ACL_SUCCESS;
	struct drm_vnpu_aipp_params *p = image(func, a, 0, batchIndex, &e);

	if (!p)
		return e;
	for (int c = 0; c < 4; c++)
		if (!isfinite(v[c]))
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "channel %d: %g is not finite", c, v[c]);
	for (int c = 0; c < 4; c++)
		(min ? p->min : p->var_reci)[c] = fbits(v[c]);
	return ACL_SUCCESS;
}

aclError aclmdlSetAIPPDtcPixelMin(aclmdlAIPP *aippParmsSet, float dtcPixelMinChn0,
				  float dtcPixelMinChn1, float dtcPixelMinChn2,
				  float dtcPixelMinChn3, uint64_t batchIndex)
{
	PROF_API();
	const float v[4] = { dtcPixelMinChn0, dtcPixelMinChn1, dtcPixelMinChn2,
			     dtcPixelMinChn3 };

	return four_floats(__func__, aippParmsSet, batchIndex, v, true);
}

aclError aclmdlSetAIPPPixelVarReci(aclmdlAIPP *aippParmsSet, float dtcPixelVarReciChn0,
				   float dtcPixelVarReciChn1, float dtcPixelVarReciChn2,
				   float dtcPixelVarReciChn3, uint64_t batchIndex)
{
	PROF_API();
	const float v[4] = { dtcPixelVarReciChn0, dtcPixelVarReciChn1,
			     dtcPixelVarReciChn2, dtcPixelVarReciChn3 };

	return four_floats(__func__, aippParmsSet, batchIndex, v, false);
}
