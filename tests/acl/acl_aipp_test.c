// SPDX-License-Identifier: MIT
/*
 * Model AIPP on the device (Documentation/aipp.md). A Conv+Relu model
 * (tests/acl/acl_aipp_model.py) compiled by atc at build time three
 * ways: plain, with static AIPP (tests/acl/acl_aipp_static.cfg: NV12 to
 * RGB with the samples' matrix, mean, min, var) and with dynamic AIPP.
 *
 * - static: the AIPP model fed an NV12 image gives the plain model's
 *   output for the image preprocessed here (the same formula, written
 *   separately); aclmdlGetAippType and aclmdlGetFirstAippInfo report it;
 * - dynamic: the ascend_dynamic_aipp_data input found by name, parameters
 *   set with aclmdlSetInputAIPP and aclmdlSetAIPPByInputIndex for two
 *   crops, each run against the plain model; parameters written past the
 *   API's checks fail the execution (the device refuses them);
 * - every argument check of the aclmdlAIPP calls, with its code.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/acl_mdl.h"
#include "kselftest_harness.h"

#pragma GCC diagnostic ignored "-Wclobbered"

#define DIR	"build/tests/acl/aipp_models/"
#define IMG	8
#define NOUT	(4 * IMG * IMG)

struct pre {
	int src_w, src_h;
	int crop_x, crop_y;	/* an IMG x IMG window */
	float min[3], var[3];
	int mean[3];
};

/* NV12 pixel (x, y) to RGB with the samples' matrix, integers, floor. */
static void rgb_of(const uint8_t *img, int w, int h, int x, int y, int rgb[3])
{
	const uint8_t *uv = img + w * h + (y / 2) * w + (x / 2) * 2;
	long Y = img[y * w + x], U = uv[0] - 128, V = uv[1] - 128;
	long v[3] = { 256 * Y + 359 * V, 256 * Y - 88 * U - 183 * V, 256 * Y + 454 * U };

	for (int c = 0; c < 3; c++) {
		long q = (long)floor((double)v[c] / 256.0);

		rgb[c] = q < 0 ? 0 : q > 255 ? 255 : (int)q;
	}
}

static void preprocess(const struct pre *P, const uint8_t *img, float *x)
{
	for (int c = 0; c < 3; c++)
		for (int y = 0; y < IMG; y++)
			for (int xx = 0; xx < IMG; xx++) {
				int rgb[3];

				rgb_of(img, P->src_w, P->src_h, P->crop_x + xx,
				       P->crop_y + y, rgb);
				x[(c * IMG + y) * IMG + xx] =
					((float)rgb[c] - P->mean[c] - P->min[c]) * P->var[c];
			}
}

static void random_bytes(uint8_t *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (uint8_t)(seed >> 16);
	}
}

/* Run a model on host inputs; its one output into y. */
static aclError run(uint32_t id, void *const *in, const size_t *size, int nin,
		    float *y)
{
	aclmdlDataset *di = aclmdlCreateDataset(), *dout = aclmdlCreateDataset();
	void *dev[3] = { NULL }, *dy = NULL;
	aclError e = ACL_SUCCESS;
	int i;

	for (i = 0; i < nin && !e; i++) {
		e = aclrtMalloc(&dev[i], size[i], ACL_MEM_MALLOC_HUGE_FIRST);
		if (!e)
			e = aclrtMemcpy(dev[i], size[i], in[i], size[i],
					ACL_MEMCPY_HOST_TO_DEVICE);
		if (!e)
			e = aclmdlAddDatasetBuffer(di, aclCreateDataBuffer(dev[i], size[i]));
	}
	if (!e)
		e = aclrtMalloc(&dy, NOUT * 4, ACL_MEM_MALLOC_HUGE_FIRST);
	if (!e)
		e = aclmdlAddDatasetBuffer(dout, aclCreateDataBuffer(dy, NOUT * 4));
	if (!e)
		e = aclmdlExecute(id, di, dout);
	if (!e)
		e = aclrtMemcpy(y, NOUT * 4, dy, NOUT * 4, ACL_MEMCPY_DEVICE_TO_HOST);
	for (i = 0; i < nin; i++) {
		aclDestroyDataBuffer(aclmdlGetDatasetBuffer(di, (size_t)i));
		aclrtFree(dev[i]);
	}
	aclDestroyDataBuffer(aclmdlGetDatasetBuffer(dout, 0));
	aclrtFree(dy);
	aclmdlDestroyDataset(di);
	aclmdlDestroyDataset(dout);
	return e;
}

static double max_err(const float *a, const float *b)
{
	double e = 0, big = 1;

	for (int i = 0; i < NOUT; i++) {
		e = fmax(e, fabs((double)a[i] - b[i]));
		big = fmax(big, fabs((double)b[i]));
	}
	return e / big;
}

FIXTURE(aipp) {
	uint32_t plain, stat, dyn;
};

FIXTURE_SETUP(aipp)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromFile(DIR "plain.om", &self->plain));
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromFile(DIR "static.om", &self->stat));
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromFile(DIR "dynamic.om", &self->dyn));
}

FIXTURE_TEARDOWN(aipp)
{
	aclmdlUnload(self->plain);
	aclmdlUnload(self->stat);
	aclmdlUnload(self->dyn);
	aclrtResetDevice(0);
	aclFinalize();
}

TEST_F(aipp, static_model_takes_nv12_like_the_plain_model)
{
	const struct pre P = { .src_w = IMG, .src_h = IMG,
			       .min = { 123.675f, 116.28f, 103.53f },
			       .var = { 0.0171247538f, 0.0175070028f, 0.0174291939f },
			       .mean = { 3, 5, 7 } };
	uint8_t img[IMG * IMG * 3 / 2];
	float x[3 * IMG * IMG], y0[NOUT], y1[NOUT];
	aclmdlDesc *d = aclmdlCreateDesc();
	void *in[1];
	size_t size[1];

	ASSERT_EQ(ACL_SUCCESS, aclmdlGetDesc(d, self->stat));
	ASSERT_EQ(1u, aclmdlGetNumInputs(d));
	EXPECT_STREQ("x", aclmdlGetInputNameByIndex(d, 0));
	EXPECT_EQ(ACL_UINT8, aclmdlGetInputDataType(d, 0));
	EXPECT_EQ(sizeof(img), aclmdlGetInputSizeByIndex(d, 0));
	aclmdlDestroyDesc(d);

	random_bytes(img, sizeof(img), 42);
	preprocess(&P, img, x);
	in[0] = x;
	size[0] = sizeof(x);
	ASSERT_EQ(ACL_SUCCESS, run(self->plain, in, size, 1, y0));
	in[0] = img;
	size[0] = sizeof(img);
	ASSERT_EQ(ACL_SUCCESS, run(self->stat, in, size, 1, y1));
	EXPECT_GT(1e-5, max_err(y1, y0)) TH_LOG("error %g: %g %g / %g %g", max_err(y1, y0),
						y1[0], y1[1], y0[0], y0[1]);
}

TEST_F(aipp, types_and_static_info)
{
	aclmdlInputAippType type;
	size_t att = 0;
	aclAippInfo info;

	ASSERT_EQ(ACL_SUCCESS, aclmdlGetAippType(self->stat, 0, &type, &att));
	EXPECT_EQ(ACL_DATA_WITH_STATIC_AIPP, type);
	EXPECT_EQ(0xFFFFFFFFu, att);
	ASSERT_EQ(ACL_SUCCESS, aclmdlGetAippType(self->plain, 0, &type, &att));
	EXPECT_EQ(ACL_DATA_WITHOUT_AIPP, type);
	EXPECT_EQ(0xFFFFFFFFu, att);
	ASSERT_EQ(ACL_SUCCESS, aclmdlGetAippType(self->dyn, 0, &type, &att));
	EXPECT_EQ(ACL_DATA_WITH_DYNAMIC_AIPP, type);
	EXPECT_EQ(1u, att);
	ASSERT_EQ(ACL_SUCCESS, aclmdlGetAippType(self->dyn, 1, &type, &att));
	EXPECT_EQ(ACL_DYNAMIC_AIPP_NODE, type);
	EXPECT_EQ(0xFFFFFFFFu, att);

	memset(&info, 0xa5, sizeof(info));
	ASSERT_EQ(ACL_SUCCESS, aclmdlGetFirstAippInfo(self->stat, 0, &info));
	EXPECT_EQ(ACL_YUV420SP_U8, info.inputFormat);
	EXPECT_EQ(8, info.srcImageSizeW);
	EXPECT_EQ(8, info.srcImageSizeH);
	EXPECT_EQ(0, info.cropSwitch);
	EXPECT_EQ(0, info.resizeSwitch);
	EXPECT_EQ(0, info.paddingSwitch);
	EXPECT_EQ(1, info.cscSwitch);
	EXPECT_EQ(0, info.rbuvSwapSwitch);
	EXPECT_EQ(256, info.matrixR0C0);
	EXPECT_EQ(359, info.matrixR0C2);
	EXPECT_EQ(-88, info.matrixR1C1);
	EXPECT_EQ(454, info.matrixR2C1);
	EXPECT_EQ(0, info.inputBias0);
	EXPECT_EQ(128, info.inputBias2);
	EXPECT_EQ(5, info.meanChn1);
	EXPECT_EQ(123.675f, info.minChn0);
	EXPECT_EQ(0.0174291939f, info.varReciChn2);
	EXPECT_EQ(1.0f, info.varReciChn3);
	EXPECT_EQ(ACL_UINT8, info.srcDatatype);
	EXPECT_EQ(2u, info.srcDimNum);
	ASSERT_EQ(1u, info.shapeCount);
	EXPECT_EQ(2u, info.outDims[0].srcDims.dimCount);
	EXPECT_EQ(96, info.outDims[0].srcDims.dims[1]);
	EXPECT_EQ(96u, info.outDims[0].srcSize);
	EXPECT_EQ(4u, info.outDims[0].aippOutdims.dimCount);
	EXPECT_EQ(3, info.outDims[0].aippOutdims.dims[1]);
	EXPECT_EQ(8, info.outDims[0].aippOutdims.dims[3]);
	EXPECT_EQ(3u * 8 * 8 * 4, info.outDims[0].aippOutSize);
	EXPECT_EQ(NULL, info.aippExtend);

	/* no static AIPP: dynamic, its data input, none */
	EXPECT_EQ(ACL_ERROR_NOT_STATIC_AIPP, aclmdlGetFirstAippInfo(self->dyn, 0, &info));
	EXPECT_EQ(ACL_ERROR_NOT_STATIC_AIPP, aclmdlGetFirstAippInfo(self->dyn, 1, &info));
	EXPECT_EQ(ACL_ERROR_NOT_STATIC_AIPP, aclmdlGetFirstAippInfo(self->plain, 0, &info));
	/* arguments */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlGetFirstAippInfo(self->stat, 0, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlGetFirstAippInfo(self->stat, 1, &info));
	EXPECT_EQ(ACL_ERROR_INVALID_MODEL_ID, aclmdlGetFirstAippInfo(9999, 0, &info));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlGetAippType(self->stat, 1, &type, &att));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlGetAippType(self->stat, 0, NULL, &att));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlGetAippType(self->stat, 0, &type, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_MODEL_ID, aclmdlGetAippType(9999, 0, &type, &att));
}

/* An AIPP object for the dynamic model: 16x12 NV12, crop at (cx, cy). */
static aclmdlAIPP *dyn_params(int cx, int cy)
{
	aclmdlAIPP *a = aclmdlCreateAIPP(1);

	if (!a ||
	    aclmdlSetAIPPInputFormat(a, ACL_YUV420SP_U8) ||
	    aclmdlSetAIPPSrcImageSize(a, 16, 12) ||
	    aclmdlSetAIPPCscParams(a, 1, 256, 0, 359, 256, -88, -183, 256, 454, 0,
				   0, 0, 0, 0, 128, 128) ||
	    aclmdlSetAIPPCropParams(a, 1, cx, cy, IMG, IMG, 0) ||
	    aclmdlSetAIPPDtcPixelMean(a, 1, 2, 3, 0, 0) ||
	    aclmdlSetAIPPDtcPixelMin(a, 0.5f, 0, 0, 0, 0) ||
	    aclmdlSetAIPPPixelVarReci(a, 0.25f, 0.5f, 1, 1, 0)) {
		aclmdlDestroyAIPP(a);
		return NULL;
	}
	return a;
}

TEST_F(aipp, dynamic_parameters_for_two_crops)
{
	uint8_t img[16 * 12 * 3 / 2];
	float x[3 * IMG * IMG], y0[NOUT], y1[NOUT];
	aclmdlDesc *d = aclmdlCreateDesc();
	aclmdlDataset *di = aclmdlCreateDataset(), *dout = aclmdlCreateDataset();
	void *dimg, *dpar, *dy;
	size_t idx = 99, psize = 0;
	void *in[1];
	size_t size[1];

	ASSERT_EQ(ACL_SUCCESS, aclmdlGetDesc(d, self->dyn));
	ASSERT_EQ(2u, aclmdlGetNumInputs(d));
	ASSERT_EQ(ACL_SUCCESS, aclmdlGetInputIndexByName(d, ACL_DYNAMIC_AIPP_NAME, &idx));
	EXPECT_EQ(1u, idx);
	EXPECT_EQ(sizeof(img), aclmdlGetInputSizeByIndex(d, 0));
	ASSERT_EQ(ACL_SUCCESS, aclmdlGetAippDataSize(1, &psize));
	EXPECT_EQ(aclmdlGetInputSizeByIndex(d, 1), psize);
	aclmdlDestroyDesc(d);

	random_bytes(img, sizeof(img), 7);
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&dimg, sizeof(img), ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&dpar, psize, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&dy, NOUT * 4, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(dimg, sizeof(img), img, sizeof(img),
					   ACL_MEMCPY_HOST_TO_DEVICE));
	aclmdlAddDatasetBuffer(di, aclCreateDataBuffer(dimg, sizeof(img)));
	aclmdlAddDatasetBuffer(di, aclCreateDataBuffer(dpar, psize));
	aclmdlAddDatasetBuffer(dout, aclCreateDataBuffer(dy, NOUT * 4));

	for (int k = 0; k < 2; k++) {
		const struct pre P = { .src_w = 16, .src_h = 12, .crop_x = 2 + 6 * k,
				       .crop_y = 4 * k, .min = { 0.5f, 0, 0 },
				       .var = { 0.25f, 0.5f, 1 }, .mean = { 1, 2, 3 } };
		aclmdlAIPP *a = dyn_params(P.crop_x, P.crop_y);

		ASSERT_NE(NULL, a);
		/* by the data input the first time, by the image input then */
		ASSERT_EQ(ACL_SUCCESS, k ? aclmdlSetAIPPByInputIndex(self->dyn, di, 0, a) :
					   aclmdlSetInputAIPP(self->dyn, di, idx, a));
		ASSERT_EQ(ACL_SUCCESS, aclmdlExecute(self->dyn, di, dout));
		ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(y1, sizeof(y1), dy, sizeof(y1),
						   ACL_MEMCPY_DEVICE_TO_HOST));
		preprocess(&P, img, x);
		in[0] = x;
		size[0] = sizeof(x);
		ASSERT_EQ(ACL_SUCCESS, run(self->plain, in, size, 1, y0));
		EXPECT_GT(1e-5, max_err(y1, y0)) TH_LOG("crop %d", k);
		aclmdlDestroyAIPP(a);
	}

	/* bytes the API would refuse, written directly: the device refuses them */
	{
		uint8_t bad[156];

		ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(bad, sizeof(bad), dpar, sizeof(bad),
						   ACL_MEMCPY_DEVICE_TO_HOST));
		bad[155] = 1;	/* reserved */
		ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(dpar, sizeof(bad), bad, sizeof(bad),
						   ACL_MEMCPY_HOST_TO_DEVICE));
		EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, aclmdlExecute(self->dyn, di, dout));
	}
	aclDestroyDataBuffer(aclmdlGetDatasetBuffer(di, 0));
	aclDestroyDataBuffer(aclmdlGetDatasetBuffer(di, 1));
	aclDestroyDataBuffer(aclmdlGetDatasetBuffer(dout, 0));
	aclmdlDestroyDataset(di);
	aclmdlDestroyDataset(dout);
	aclrtFree(dimg);
	aclrtFree(dpar);
	aclrtFree(dy);
}

TEST_F(aipp, parameter_object_argument_checks)
{
	aclmdlAIPP *a = aclmdlCreateAIPP(2);
	size_t s = 0;

	ASSERT_NE(NULL, a);
	EXPECT_EQ(NULL, aclmdlCreateAIPP(0));
	EXPECT_EQ(NULL, aclmdlCreateAIPP(33));
	EXPECT_EQ(ACL_SUCCESS, aclmdlGetAippDataSize(2, &s));
	EXPECT_EQ(312u, s);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlGetAippDataSize(0, &s));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlGetAippDataSize(1, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlDestroyAIPP(NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPInputFormat(NULL, ACL_RGB888_U8));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPInputFormat(a, ACL_YUV422SP_U8));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPInputFormat(a, ACL_AIPP_RESERVED));
	EXPECT_EQ(ACL_SUCCESS, aclmdlSetAIPPInputFormat(a, ACL_XRGB8888_U8));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclmdlSetAIPPCscParams(a, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclmdlSetAIPPCscParams(NULL, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPRbuvSwapSwitch(a, -1));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPRbuvSwapSwitch(NULL, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPAxSwapSwitch(a, 2));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPAxSwapSwitch(NULL, 1));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPSrcImageSize(a, 0, 8));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPSrcImageSize(a, 8, 8193));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPSrcImageSize(NULL, 8, 8));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPScfParams(a, 1, 8, 8, 4, 4, 2));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPScfParams(a, 3, 8, 8, 4, 4, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPScfParams(a, 1, 8, 8, 0, 4, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPScfParams(a, 1, -8, 8, 4, 4, 0));
	EXPECT_EQ(ACL_SUCCESS, aclmdlSetAIPPScfParams(a, 1, 8, 8, 4, 4, 1));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPCropParams(a, 1, 0, 0, 4, 4, 2));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPCropParams(a, 1, -1, 0, 4, 4, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPCropParams(a, 1, 0, 0, 0, 4, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPCropParams(a, -1, 0, 0, 4, 4, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPPaddingParams(a, 1, 0, 0, 0, 0, 5));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPPaddingParams(a, 1, -1, 0, 0, 0, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPPaddingParams(a, 2, 0, 0, 0, 0, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPDtcPixelMean(a, 0, 0, 0, 0, 2));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPDtcPixelMean(NULL, 0, 0, 0, 0, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPDtcPixelMin(a, 0, 0, 0, 0, 2));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPDtcPixelMin(a, NAN, 0, 0, 0, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPPixelVarReci(a, 1, 1, 1, 1, 2));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPPixelVarReci(a, 1, INFINITY, 1, 1, 1));
	EXPECT_EQ(ACL_SUCCESS, aclmdlDestroyAIPP(a));
}

TEST_F(aipp, set_input_aipp_refusals)
{
	aclmdlDataset *di = aclmdlCreateDataset(), *ds2;
	void *dimg, *dpar, *small;
	aclmdlAIPP *a = dyn_params(2, 2), *two = aclmdlCreateAIPP(2);

	ASSERT_NE(NULL, a);
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&dimg, 288, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&dpar, 156, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&small, 100, ACL_MEM_MALLOC_HUGE_FIRST));
	aclmdlAddDatasetBuffer(di, aclCreateDataBuffer(dimg, 288));
	aclmdlAddDatasetBuffer(di, aclCreateDataBuffer(dpar, 156));

	EXPECT_EQ(ACL_SUCCESS, aclmdlSetInputAIPP(self->dyn, di, 1, a));
	/* not the data input; not an image with dynamic AIPP */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetInputAIPP(self->dyn, di, 0, a));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPByInputIndex(self->dyn, di, 1, a));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetInputAIPP(self->stat, di, 0, a));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetAIPPByInputIndex(self->plain, di, 0, a));
	EXPECT_EQ(ACL_ERROR_INVALID_MODEL_ID, aclmdlSetInputAIPP(9999, di, 1, a));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetInputAIPP(self->dyn, NULL, 1, a));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetInputAIPP(self->dyn, di, 1, NULL));
	/* two images for a model of one */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetInputAIPP(self->dyn, di, 1, two));
	/* the crop leaves the 16x12 image */
	ASSERT_EQ(ACL_SUCCESS, aclmdlSetAIPPCropParams(a, 1, 9, 0, IMG, IMG, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetInputAIPP(self->dyn, di, 1, a));
	/* the result is not the model's 8x8 */
	ASSERT_EQ(ACL_SUCCESS, aclmdlSetAIPPCropParams(a, 1, 0, 0, 6, 6, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetInputAIPP(self->dyn, di, 1, a));
	/* scaled to 8x8, but the scaling's input is not the crop's size */
	ASSERT_EQ(ACL_SUCCESS, aclmdlSetAIPPScfParams(a, 1, 7, 6, IMG, IMG, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetInputAIPP(self->dyn, di, 1, a));
	ASSERT_EQ(ACL_SUCCESS, aclmdlSetAIPPScfParams(a, 1, 6, 6, IMG, IMG, 0));
	EXPECT_EQ(ACL_SUCCESS, aclmdlSetInputAIPP(self->dyn, di, 1, a));
	/* an image larger than the input's 288 bytes */
	ASSERT_EQ(ACL_SUCCESS, aclmdlSetAIPPSrcImageSize(a, 16, 14));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetInputAIPP(self->dyn, di, 1, a));
	ASSERT_EQ(ACL_SUCCESS, aclmdlSetAIPPSrcImageSize(a, 16, 12));
	/* a grey image for three channels */
	ASSERT_EQ(ACL_SUCCESS, aclmdlSetAIPPInputFormat(a, ACL_YUV400_U8));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetInputAIPP(self->dyn, di, 1, a));
	ASSERT_EQ(ACL_SUCCESS, aclmdlSetAIPPInputFormat(a, ACL_YUV420SP_U8));
	/* a parameter buffer smaller than aclmdlGetAippDataSize */
	ds2 = aclmdlCreateDataset();
	aclmdlAddDatasetBuffer(ds2, aclCreateDataBuffer(dimg, 288));
	aclmdlAddDatasetBuffer(ds2, aclCreateDataBuffer(small, 100));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetInputAIPP(self->dyn, ds2, 1, a));
	aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds2, 1));
	aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds2, 0));
	aclmdlDestroyDataset(ds2);
	/* a dataset without that buffer */
	ds2 = aclmdlCreateDataset();
	aclmdlAddDatasetBuffer(ds2, aclCreateDataBuffer(dimg, 288));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetInputAIPP(self->dyn, ds2, 1, a));
	aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds2, 0));
	aclmdlDestroyDataset(ds2);
	aclDestroyDataBuffer(aclmdlGetDatasetBuffer(di, 0));
	aclDestroyDataBuffer(aclmdlGetDatasetBuffer(di, 1));
	aclmdlDestroyDataset(di);
	aclmdlDestroyAIPP(a);
	aclmdlDestroyAIPP(two);
	aclrtFree(dimg);
	aclrtFree(dpar);
	aclrtFree(small);
}

TEST_HARNESS_MAIN
