// SPDX-License-Identifier: MIT
/*
 * DVPP's VPC through acl_dvpp.h on the real driver, the way CANN's
 * samples call it: acldvppMalloc'd pictures, descriptions set field by
 * field, the task queued on a stream and read back after a synchronize.
 * Results are checked against references written here: exact for crops,
 * pastes, nearest decimation, NV12/NV21 swaps, PyrDown and borders; within
 * one level for bilinear and the colour matrices. Every argument rule of
 * the VPC calls has a one-field-off call with its exact error code.
 */
#include <math.h>
#include <stdio.h>

#include "dvpp_test_util.h"

/* The harness's setjmp and the larger test bodies trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#define INVAL ACL_ERROR_INVALID_PARAM

/* A call that must succeed; its message when it does not. */
#define OK(call)							\
	do {								\
		aclError e_ = (call);					\
		if (e_)							\
			TH_LOG("%s: %s", #call, aclGetRecentErrMsg());	\
		ASSERT_EQ(ACL_SUCCESS, e_);				\
	} while (0)

FIXTURE(vpc) {
	aclrtStream s;
	acldvppChannelDesc *ch;
	acldvppResizeConfig *nearest, *bilinear;
};

FIXTURE_SETUP(vpc)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s));
	self->ch = acldvppCreateChannelDesc();
	ASSERT_NE(NULL, self->ch);
	ASSERT_EQ(ACL_SUCCESS, acldvppCreateChannel(self->ch));
	self->nearest = acldvppCreateResizeConfig();
	self->bilinear = acldvppCreateResizeConfig();
	ASSERT_EQ(ACL_SUCCESS, acldvppSetResizeConfigInterpolation(self->nearest, 2));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetResizeConfigInterpolation(self->bilinear, 1));
}

FIXTURE_TEARDOWN(vpc)
{
	acldvppDestroyResizeConfig(self->nearest);
	acldvppDestroyResizeConfig(self->bilinear);
	acldvppDestroyChannel(self->ch);
	acldvppDestroyChannelDesc(self->ch);
	aclrtDestroyStream(self->s);
	aclrtResetDevice(0);
	aclFinalize();
}

/* An NV12 picture of w x h (strides 16 / 2) filled with the pattern. */
static uint8_t *nv12_pattern(uint32_t w, uint32_t h, uint32_t seed, uint32_t *n)
{
	uint32_t ws = ALIGN_UP(w, 16), hs = ALIGN_UP(h, 2);
	uint8_t *b;

	*n = nv12_size(ws, hs);
	b = malloc(*n);
	for (uint32_t i = 0; b && i < *n; i++)
		b[i] = pat(i, seed);
	return b;
}

/* Luma byte (x, y) and chroma pair byte k of chroma sample (cx, cy). */
#define Y_AT(b, ws, x, y) ((b)[(size_t)(y) * (ws) + (x)])
#define UV_AT(b, ws, hs, cx, cy, k) \
	((b)[(size_t)(ws) * (hs) + (size_t)(cy) * (ws) + 2 * (cx) + (k)])

TEST_F(vpc, resize_nearest_halves_exactly)
{
	struct pic in, out;
	uint32_t n, m = nv12_size(32, 16);
	uint8_t *src = nv12_pattern(64, 32, 1, &n), *dst = malloc(m);

	ASSERT_EQ(0, pic_nv12(&in, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 32));
	ASSERT_EQ(0, pic_nv12(&out, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 32, 16));
	ASSERT_EQ(ACL_SUCCESS, pic_put(&in, src, n));
	ASSERT_EQ(ACL_SUCCESS, acldvppVpcResizeAsync(self->ch, in.desc, out.desc,
						     self->nearest, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, pic_get(&out, dst, m));
	EXPECT_EQ(0u, acldvppGetPicDescRetCode(out.desc));
	for (uint32_t y = 0; y < 16; y++)
		for (uint32_t x = 0; x < 32; x++)
			ASSERT_EQ(Y_AT(src, 64, 2 * x, 2 * y), Y_AT(dst, 32, x, y));
	for (uint32_t cy = 0; cy < 8; cy++)
		for (uint32_t cx = 0; cx < 16; cx++)
			for (int k = 0; k < 2; k++)
				ASSERT_EQ(UV_AT(src, 64, 32, 2 * cx, 2 * cy, k),
					  UV_AT(dst, 32, 16, cx, cy, k));
	pic_free(&in);
	pic_free(&out);
	free(src);
	free(dst);
}

/* CANN rounds an odd input size down to even before it scales. */
TEST_F(vpc, odd_input_width_is_rounded_down)
{
	struct pic in, out;
	uint32_t n, m = nv12_size(32, 8);
	uint8_t *src = nv12_pattern(48, 16, 2, &n), *dst = malloc(m);

	ASSERT_EQ(0, pic_new(&in, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 33, 17, 48, 18,
			     nv12_size(48, 18)));
	ASSERT_EQ(0, pic_nv12(&out, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 16, 8));
	ASSERT_EQ(ACL_SUCCESS, pic_put(&in, src, n));
	OK(acldvppVpcResizeAsync(self->ch, in.desc, out.desc, self->nearest, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, pic_get(&out, dst, m));
	/* 32 x 16 of the 33 x 17 picture, halved */
	for (uint32_t y = 0; y < 8; y++)
		for (uint32_t x = 0; x < 16; x++)
			ASSERT_EQ(Y_AT(src, 48, 2 * x, 2 * y), Y_AT(dst, 32, x, y));
	pic_free(&in);
	pic_free(&out);
	free(src);
	free(dst);
}

/* OpenCV's bilinear halving is the 2 x 2 average (fixed point). */
TEST_F(vpc, resize_bilinear_halving_is_the_block_average)
{
	struct pic in, out;
	uint32_t n, m = nv12_size(32, 16);
	uint8_t *src = nv12_pattern(64, 32, 3, &n), *dst = malloc(m);
	int worst = 0;

	ASSERT_EQ(0, pic_nv12(&in, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 32));
	ASSERT_EQ(0, pic_nv12(&out, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 32, 16));
	ASSERT_EQ(ACL_SUCCESS, pic_put(&in, src, n));
	ASSERT_EQ(ACL_SUCCESS, acldvppVpcResizeAsync(self->ch, in.desc, out.desc,
						     self->bilinear, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, pic_get(&out, dst, m));
	for (uint32_t y = 0; y < 16; y++)
		for (uint32_t x = 0; x < 32; x++) {
			int a = Y_AT(src, 64, 2 * x, 2 * y) + Y_AT(src, 64, 2 * x + 1, 2 * y) +
				Y_AT(src, 64, 2 * x, 2 * y + 1) +
				Y_AT(src, 64, 2 * x + 1, 2 * y + 1);
			int d = abs((a + 2) / 4 - Y_AT(dst, 32, x, y));

			worst = d > worst ? d : worst;
		}
	EXPECT_LE(worst, 1);
	pic_free(&in);
	pic_free(&out);
	free(src);
	free(dst);
}

/* A crop to an output of its own size is a copy, whatever the filter. */
TEST_F(vpc, crop_is_an_exact_copy)
{
	struct pic in, out;
	uint32_t n, m = nv12_size(32, 16);
	uint8_t *src = nv12_pattern(64, 32, 4, &n), *dst = malloc(m);
	acldvppRoiConfig *crop = acldvppCreateRoiConfig(16, 47, 8, 23);

	ASSERT_NE(NULL, crop);
	ASSERT_EQ(0, pic_nv12(&in, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 32));
	ASSERT_EQ(0, pic_nv12(&out, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 32, 16));
	ASSERT_EQ(ACL_SUCCESS, pic_put(&in, src, n));
	ASSERT_EQ(ACL_SUCCESS, acldvppVpcCropAsync(self->ch, in.desc, out.desc, crop,
						   self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, pic_get(&out, dst, m));
	for (uint32_t y = 0; y < 16; y++)
		for (uint32_t x = 0; x < 32; x++)
			ASSERT_EQ(Y_AT(src, 64, 16 + x, 8 + y), Y_AT(dst, 32, x, y));
	for (uint32_t cy = 0; cy < 8; cy++)
		for (uint32_t cx = 0; cx < 16; cx++)
			for (int k = 0; k < 2; k++)
				ASSERT_EQ(UV_AT(src, 64, 32, 8 + cx, 4 + cy, k),
					  UV_AT(dst, 32, 16, cx, cy, k));
	acldvppDestroyRoiConfig(crop);
	pic_free(&in);
	pic_free(&out);
	free(src);
	free(dst);
}

/* Paste writes its rectangle and nothing else of the output. */
TEST_F(vpc, crop_and_paste_leaves_the_rest)
{
	struct pic in, out;
	uint32_t n, m = nv12_size(64, 32);
	uint8_t *src = nv12_pattern(64, 32, 5, &n), *dst = malloc(m);
	uint8_t *fill = malloc(m);
	acldvppRoiConfig *crop = acldvppCreateRoiConfig(0, 31, 0, 15);
	acldvppRoiConfig *paste = acldvppCreateRoiConfig(16, 47, 2, 17);

	memset(fill, 0x5a, m);
	ASSERT_EQ(0, pic_nv12(&in, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 32));
	ASSERT_EQ(0, pic_nv12(&out, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 32));
	ASSERT_EQ(ACL_SUCCESS, pic_put(&in, src, n));
	ASSERT_EQ(ACL_SUCCESS, pic_put(&out, fill, m));
	ASSERT_EQ(ACL_SUCCESS, acldvppVpcCropAndPasteAsync(self->ch, in.desc, out.desc,
							   crop, paste, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, pic_get(&out, dst, m));
	for (uint32_t y = 0; y < 32; y++)
		for (uint32_t x = 0; x < 64; x++) {
			bool in_rect = x >= 16 && x < 48 && y >= 2 && y < 18;

			ASSERT_EQ(in_rect ? Y_AT(src, 64, x - 16, y - 2) : 0x5a,
				  Y_AT(dst, 64, x, y));
		}
	for (uint32_t cy = 0; cy < 16; cy++)
		for (uint32_t cx = 0; cx < 32; cx++) {
			bool in_rect = cx >= 8 && cx < 24 && cy >= 1 && cy < 9;

			for (int k = 0; k < 2; k++)
				ASSERT_EQ(in_rect ? UV_AT(src, 64, 32, cx - 8, cy - 1, k) :
						    0x5a,
					  UV_AT(dst, 64, 32, cx, cy, k));
		}
	acldvppDestroyRoiConfig(crop);
	acldvppDestroyRoiConfig(paste);
	pic_free(&in);
	pic_free(&out);
	free(src);
	free(dst);
	free(fill);
}

/* ConvertColor fills in an output size of 0; NV12 to NV21 swaps U, V. */
TEST_F(vpc, convert_nv12_to_nv21_swaps_chroma)
{
	struct pic in, out;
	uint32_t n, m;
	uint8_t *src = nv12_pattern(48, 20, 6, &n), *dst = malloc(n);

	ASSERT_EQ(0, pic_nv12(&in, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 48, 20));
	ASSERT_EQ(0, pic_new(&out, PIXEL_FORMAT_YVU_SEMIPLANAR_420, 0, 0, 0, 0, n));
	ASSERT_EQ(ACL_SUCCESS, pic_put(&in, src, n));
	ASSERT_EQ(ACL_SUCCESS, acldvppVpcConvertColorAsync(self->ch, in.desc, out.desc,
							   self->s));
	EXPECT_EQ(48u, acldvppGetPicDescWidth(out.desc));
	EXPECT_EQ(20u, acldvppGetPicDescHeight(out.desc));
	EXPECT_EQ(48u, acldvppGetPicDescWidthStride(out.desc));
	EXPECT_EQ(20u, acldvppGetPicDescHeightStride(out.desc));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	m = nv12_size(48, 20);
	ASSERT_EQ(ACL_SUCCESS, pic_get(&out, dst, m));
	EXPECT_EQ(0, memcmp(src, dst, 48 * 20));
	for (uint32_t i = 48 * 20; i < m; i += 2) {
		ASSERT_EQ(src[i], dst[i + 1]);
		ASSERT_EQ(src[i + 1], dst[i]);
	}
	pic_free(&in);
	pic_free(&out);
	free(src);
	free(dst);
}

/* BT.601 video range to RGB: R = 1.164 (Y-16) + 1.596 (V-128), ... */
TEST_F(vpc, convert_nv12_to_rgb_bt601_narrow)
{
	struct pic in, out;
	uint32_t n, ws = ALIGN_UP(32 * 3, 16), m = ws * 16;
	uint8_t *src = nv12_pattern(32, 16, 7, &n), *dst = malloc(m);
	uint32_t csc = ACL_DVPP_CSC_MATRIX_BT601_NARROW;
	int worst = 0;

	ASSERT_EQ(ACL_SUCCESS, acldvppDestroyChannel(self->ch));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetChannelDescParam(self->ch,
			ACL_DVPP_CSC_MATRIX_UINT32, sizeof(csc), &csc));
	ASSERT_EQ(ACL_SUCCESS, acldvppCreateChannel(self->ch));
	ASSERT_EQ(0, pic_nv12(&in, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 32, 16));
	ASSERT_EQ(0, pic_new(&out, PIXEL_FORMAT_RGB_888, 32, 16, ws, 16, m));
	ASSERT_EQ(ACL_SUCCESS, pic_put(&in, src, n));
	ASSERT_EQ(ACL_SUCCESS, acldvppVpcConvertColorAsync(self->ch, in.desc, out.desc,
							   self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, pic_get(&out, dst, m));
	for (uint32_t y = 0; y < 16; y++)
		for (uint32_t x = 0; x < 32; x++) {
			double Y = Y_AT(src, 32, x, y) - 16.0;
			double U = UV_AT(src, 32, 16, x / 2, y / 2, 0) - 128.0;
			double V = UV_AT(src, 32, 16, x / 2, y / 2, 1) - 128.0;
			double rgb[3] = { 1.164 * Y + 1.596 * V,
					  1.164 * Y - 0.392 * U - 0.813 * V,
					  1.164 * Y + 2.017 * U };

			for (int c = 0; c < 3; c++) {
				double v = rgb[c] < 0 ? 0 : rgb[c] > 255 ? 255 : rgb[c];
				int d = abs((int)lround(v) - dst[y * ws + 3 * x + c]);

				worst = d > worst ? d : worst;
			}
		}
	EXPECT_LE(worst, 2);
	pic_free(&in);
	pic_free(&out);
	free(src);
	free(dst);
}

/* The 5 x 5 Gaussian of OpenCV's pyrDown, borders reflected (101). */
static int refl101(int i, int n)
{
	if (i < 0)
		i = -i;
	if (i >= n)
		i = 2 * n - 2 - i;
	return i;
}

TEST_F(vpc, pyrdown_matches_the_gaussian)
{
	static const int k[5] = { 1, 4, 6, 4, 1 };
	struct pic in, out;
	uint32_t w = 64, h = 32, ow = 32, oh = 16, m = ALIGN_UP(ow, 16) * oh;
	uint8_t *src = malloc(w * h), *dst = malloc(m);

	for (uint32_t i = 0; i < w * h; i++)
		src[i] = pat(i, 8);
	ASSERT_EQ(0, pic_new(&in, PIXEL_FORMAT_YUV_400, w, h, w, h, w * h));
	ASSERT_EQ(0, pic_new(&out, PIXEL_FORMAT_YUV_400, ow, oh, ALIGN_UP(ow, 16), oh, m));
	ASSERT_EQ(ACL_SUCCESS, pic_put(&in, src, w * h));
	ASSERT_EQ(ACL_SUCCESS, acldvppVpcPyrDownAsync(self->ch, in.desc, out.desc, NULL,
						      self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, pic_get(&out, dst, m));
	for (uint32_t y = 0; y < oh; y++)
		for (uint32_t x = 0; x < ow; x++) {
			int acc = 0;

			for (int i = 0; i < 5; i++)
				for (int j = 0; j < 5; j++)
					acc += k[i] * k[j] *
					       src[refl101(2 * y + i - 2, h) * w +
						   refl101(2 * x + j - 2, w)];
			ASSERT_EQ((acc + 128) >> 8, dst[y * ALIGN_UP(ow, 16) + x]);
		}
	pic_free(&in);
	pic_free(&out);
	free(src);
	free(dst);
}

TEST_F(vpc, make_border_constant_rgb)
{
	struct pic in, out;
	uint32_t w = 16, h = 8, ow = 20, oh = 14, iws = 48, ows = ALIGN_UP(ow * 3, 16);
	uint8_t *src = malloc(iws * h), *dst = malloc(ows * oh);
	acldvppBorderConfig *b = acldvppCreateBorderConfig();

	ASSERT_NE(NULL, b);
	for (uint32_t i = 0; i < iws * h; i++)
		src[i] = pat(i, 9);
	/* 10 x 6 is the VPC's smallest picture: pad a 16 x 8 one */
	ASSERT_EQ(ACL_SUCCESS, acldvppSetBorderConfigTop(b, 2));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetBorderConfigBottom(b, 4));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetBorderConfigLeft(b, 1));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetBorderConfigRight(b, 3));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetBorderConfigBorderType(b, BORDER_CONSTANT));
	for (uint32_t c = 0; c < 3; c++)
		ASSERT_EQ(ACL_SUCCESS, acldvppSetBorderConfigValue(b, c, 10.0 + c));
	ASSERT_EQ(0, pic_new(&in, PIXEL_FORMAT_RGB_888, w, h, iws, h, iws * h));
	ASSERT_EQ(0, pic_new(&out, PIXEL_FORMAT_RGB_888, ow, oh, ows, oh, ows * oh));
	ASSERT_EQ(ACL_SUCCESS, pic_put(&in, src, iws * h));
	ASSERT_EQ(ACL_SUCCESS, acldvppVpcMakeBorderAsync(self->ch, in.desc, out.desc, b,
							 self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, pic_get(&out, dst, ows * oh));
	for (uint32_t y = 0; y < oh; y++)
		for (uint32_t x = 0; x < ow; x++)
			for (uint32_t c = 0; c < 3; c++) {
				bool inside = x >= 1 && x < 17 && y >= 2 && y < 10;
				uint8_t want = inside ? src[(y - 2) * iws + (x - 1) * 3 + c] :
							(uint8_t)(10 + c);

				ASSERT_EQ(want, dst[y * ows + x * 3 + c]);
			}
	acldvppDestroyBorderConfig(b);
	pic_free(&in);
	pic_free(&out);
	free(src);
	free(dst);
}

/* Two sources, three areas: roiNums {2, 1}; every area an exact crop. */
TEST_F(vpc, batch_crop_takes_areas_in_source_order)
{
	acldvppBatchPicDesc *src = acldvppCreateBatchPicDesc(2);
	acldvppBatchPicDesc *dst = acldvppCreateBatchPicDesc(3);
	acldvppRoiConfig *rois[3] = { acldvppCreateRoiConfig(0, 15, 0, 7),
				      acldvppCreateRoiConfig(32, 47, 16, 23),
				      acldvppCreateRoiConfig(16, 31, 8, 15) };
	uint32_t roi_nums[2] = { 2, 1 }, n, m = nv12_size(32, 8);
	const uint32_t from[3] = { 0, 0, 1 }, x0[3] = { 0, 32, 16 }, y0[3] = { 0, 16, 8 };
	uint8_t *host[2], *out = malloc(m);
	void *sbuf[2], *dbuf[3];

	ASSERT_NE(NULL, src);
	ASSERT_NE(NULL, dst);
	for (int i = 0; i < 2; i++) {
		acldvppPicDesc *p = acldvppGetPicDesc(src, i);

		host[i] = nv12_pattern(64, 32, 10 + i, &n);
		ASSERT_EQ(ACL_SUCCESS, acldvppMalloc(&sbuf[i], n));
		ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(sbuf[i], n, host[i], n,
						   ACL_MEMCPY_HOST_TO_DEVICE));
		acldvppSetPicDescData(p, sbuf[i]);
		acldvppSetPicDescSize(p, n);
		acldvppSetPicDescFormat(p, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
		acldvppSetPicDescWidth(p, 64);
		acldvppSetPicDescHeight(p, 32);
		acldvppSetPicDescWidthStride(p, 64);
		acldvppSetPicDescHeightStride(p, 32);
	}
	for (int j = 0; j < 3; j++) {
		acldvppPicDesc *p = acldvppGetPicDesc(dst, j);

		ASSERT_EQ(ACL_SUCCESS, acldvppMalloc(&dbuf[j], m));
		acldvppSetPicDescData(p, dbuf[j]);
		acldvppSetPicDescSize(p, m);
		acldvppSetPicDescFormat(p, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
		acldvppSetPicDescWidth(p, 16);
		acldvppSetPicDescHeight(p, 8);
		acldvppSetPicDescWidthStride(p, 32);	/* at least 32 */
		acldvppSetPicDescHeightStride(p, 8);
	}
	OK(acldvppVpcBatchCropAsync(self->ch, src, roi_nums, 2, dst, rois, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	for (int j = 0; j < 3; j++) {
		ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(out, m, dbuf[j], m,
						   ACL_MEMCPY_DEVICE_TO_HOST));
		for (uint32_t y = 0; y < 8; y++)
			for (uint32_t x = 0; x < 16; x++)
				ASSERT_EQ(Y_AT(host[from[j]], 64, x0[j] + x, y0[j] + y),
					  Y_AT(out, 32, x, y));
		EXPECT_EQ(0u, acldvppGetPicDescRetCode(acldvppGetPicDesc(dst, j)));
	}
	/* more areas than destination pictures; nothing is queued */
	roi_nums[1] = 2;
	EXPECT_EQ(INVAL, acldvppVpcBatchCropAsync(self->ch, src, roi_nums, 2, dst, rois,
						  self->s));
	roi_nums[1] = 0;
	EXPECT_EQ(INVAL, acldvppVpcBatchCropAsync(self->ch, src, roi_nums, 2, dst, rois,
						  self->s));
	roi_nums[1] = 1;
	EXPECT_EQ(INVAL, acldvppVpcBatchCropAsync(self->ch, src, roi_nums, 3, dst, rois,
						  self->s));
	EXPECT_EQ(INVAL, acldvppVpcBatchCropAsync(self->ch, src, roi_nums, 0, dst, rois,
						  self->s));
	EXPECT_EQ(INVAL, acldvppVpcBatchCropAsync(self->ch, src, NULL, 2, dst, rois,
						  self->s));
	EXPECT_EQ(INVAL, acldvppVpcBatchCropAsync(self->ch, src, roi_nums, 2, dst, NULL,
						  self->s));
	EXPECT_EQ(INVAL, acldvppVpcBatchCropAsync(self->ch, (acldvppBatchPicDesc *)rois[0],
						  roi_nums, 2, dst, rois, self->s));
	for (int i = 0; i < 2; i++) {
		acldvppFree(sbuf[i]);
		free(host[i]);
	}
	for (int j = 0; j < 3; j++) {
		acldvppFree(dbuf[j]);
		acldvppDestroyRoiConfig(rois[j]);
	}
	acldvppDestroyBatchPicDesc(src);
	acldvppDestroyBatchPicDesc(dst);
	free(out);
}

/* Up to 256 areas in one call; 257 are refused. */
TEST_F(vpc, batch_area_limit)
{
	acldvppBatchPicDesc *src = acldvppCreateBatchPicDesc(1);
	acldvppBatchPicDesc *dst = acldvppCreateBatchPicDesc(256);
	acldvppRoiConfig *rois[257];
	uint32_t roi_nums[1] = { 257 };

	ASSERT_NE(NULL, src);
	ASSERT_NE(NULL, dst);
	for (int i = 0; i < 257; i++)
		rois[i] = NULL;
	EXPECT_EQ(INVAL, acldvppVpcBatchCropAsync(self->ch, src, roi_nums, 1, dst, rois,
						  self->s));
	acldvppDestroyBatchPicDesc(src);
	acldvppDestroyBatchPicDesc(dst);
}

/* Copy in, resize, copy out on one stream: a single synchronize. */
TEST_F(vpc, stream_order_with_async_copies)
{
	struct pic in, out;
	uint32_t n, m = nv12_size(32, 16);
	uint8_t *src = nv12_pattern(64, 32, 12, &n), *pin, *dpin;

	ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost((void **)&pin, n));
	ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost((void **)&dpin, m));
	memcpy(pin, src, n);
	ASSERT_EQ(0, pic_nv12(&in, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 32));
	ASSERT_EQ(0, pic_nv12(&out, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 32, 16));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(in.dev, n, pin, n,
						ACL_MEMCPY_HOST_TO_DEVICE, self->s));
	ASSERT_EQ(ACL_SUCCESS, acldvppVpcResizeAsync(self->ch, in.desc, out.desc,
						     self->nearest, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(dpin, m, out.dev, m,
						ACL_MEMCPY_DEVICE_TO_HOST, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	for (uint32_t y = 0; y < 16; y++)
		for (uint32_t x = 0; x < 32; x++)
			ASSERT_EQ(Y_AT(src, 64, 2 * x, 2 * y), Y_AT(dpin, 32, x, y));
	pic_free(&in);
	pic_free(&out);
	aclrtFreeHost(pin);
	aclrtFreeHost(dpin);
	free(src);
}

/* A VPC task captured into a graph replays with the input's new values. */
TEST_F(vpc, captured_into_a_graph)
{
	struct pic in, out;
	uint32_t n, m = nv12_size(32, 16);
	uint8_t *src = nv12_pattern(64, 32, 13, &n), *dst = malloc(m);
	aclmdlRI ri = NULL;

	ASSERT_EQ(0, pic_nv12(&in, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 32));
	ASSERT_EQ(0, pic_nv12(&out, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 32, 16));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s,
						    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(ACL_SUCCESS, acldvppVpcResizeAsync(self->ch, in.desc, out.desc,
						     self->nearest, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));
	for (uint32_t round = 0; round < 2; round++) {
		for (uint32_t i = 0; i < n; i++)
			src[i] = pat(i, 20 + round);
		ASSERT_EQ(ACL_SUCCESS, pic_put(&in, src, n));
		ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s));
		ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
		ASSERT_EQ(ACL_SUCCESS, pic_get(&out, dst, m));
		for (uint32_t y = 0; y < 16; y++)
			for (uint32_t x = 0; x < 32; x++)
				ASSERT_EQ(Y_AT(src, 64, 2 * x, 2 * y), Y_AT(dst, 32, x, y));
	}
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
	pic_free(&in);
	pic_free(&out);
	free(src);
	free(dst);
}

/* acldvppMalloc(size) takes ALIGN_UP(size, 32) + 32 bytes, no more. */
TEST_F(vpc, dvpp_memory_rules)
{
	void *p = NULL, *q = NULL, *r = NULL, *dev = NULL;
	acldvppPicDesc *in = acldvppCreatePicDesc(), *out = acldvppCreatePicDesc();

	EXPECT_EQ(INVAL, acldvppMalloc(NULL, 64));
	EXPECT_EQ(INVAL, acldvppMalloc(&p, 0));
	EXPECT_EQ(INVAL, acldvppMalloc(&p, (size_t)8 << 30));
	/* 64 x 48 NV12: 4608 bytes; a 4600-byte block has 4640, 4500 4544 */
	ASSERT_EQ(ACL_SUCCESS, acldvppMalloc(&p, 4600));
	ASSERT_EQ(ACL_SUCCESS, acldvppMalloc(&q, 4500));
	/* 32 x 24 NV12: 1152 bytes; a 1100-byte block has exactly 1152 */
	ASSERT_EQ(ACL_SUCCESS, acldvppMalloc(&r, 1100));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&dev, 8192, ACL_MEM_MALLOC_HUGE_FIRST));
	acldvppSetPicDescFormat(in, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
	acldvppSetPicDescWidth(in, 64);
	acldvppSetPicDescHeight(in, 48);
	acldvppSetPicDescWidthStride(in, 64);
	acldvppSetPicDescHeightStride(in, 48);
	acldvppSetPicDescSize(in, 4608);
	acldvppSetPicDescData(in, p);
	acldvppSetPicDescFormat(out, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
	acldvppSetPicDescWidth(out, 32);
	acldvppSetPicDescHeight(out, 24);
	acldvppSetPicDescWidthStride(out, 32);
	acldvppSetPicDescHeightStride(out, 24);
	acldvppSetPicDescSize(out, 32 * 24 * 3 / 2);
	acldvppSetPicDescData(out, r);
	/* both pictures end within their blocks: accepted */
	EXPECT_EQ(ACL_SUCCESS, acldvppVpcResizeAsync(self->ch, in, out, self->nearest,
						     self->s));
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	/* 16 bytes on, the output runs past its block */
	acldvppSetPicDescData(out, (char *)r + 16);
	EXPECT_EQ(INVAL, acldvppVpcResizeAsync(self->ch, in, out, self->nearest,
					       self->s));
	acldvppSetPicDescData(out, r);
	acldvppSetPicDescData(in, q);	/* 4544 bytes < 4608 */
	EXPECT_EQ(INVAL, acldvppVpcResizeAsync(self->ch, in, out, self->nearest,
					       self->s));
	acldvppSetPicDescData(in, dev);	/* aclrtMalloc, not acldvppMalloc */
	EXPECT_EQ(INVAL, acldvppVpcResizeAsync(self->ch, in, out, self->nearest,
					       self->s));
	EXPECT_EQ(INVAL, acldvppFree(dev));
	EXPECT_EQ(ACL_SUCCESS, acldvppFree(p));
	EXPECT_EQ(INVAL, acldvppFree(p));
	EXPECT_EQ(INVAL, acldvppFree(NULL));
	EXPECT_EQ(ACL_SUCCESS, acldvppFree(q));
	EXPECT_EQ(ACL_SUCCESS, acldvppFree(r));
	EXPECT_EQ(ACL_SUCCESS, aclrtFree(dev));
	acldvppDestroyPicDesc(in);
	acldvppDestroyPicDesc(out);
}

TEST_F(vpc, channel_rules)
{
	acldvppChannelDesc *c = acldvppCreateChannelDesc();
	struct pic in, out;

	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, pic_nv12(&in, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 32));
	ASSERT_EQ(0, pic_nv12(&out, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 32, 16));
	/* not created yet */
	EXPECT_EQ(INVAL, acldvppVpcResizeAsync(c, in.desc, out.desc, self->nearest,
					       self->s));
	EXPECT_EQ(INVAL, acldvppDestroyChannel(c));
	EXPECT_EQ(INVAL, acldvppCreateChannel(NULL));
	EXPECT_EQ(INVAL, acldvppCreateChannel((acldvppChannelDesc *)in.desc));
	/* a JPEG decoder channel does not resize */
	ASSERT_EQ(ACL_SUCCESS, acldvppSetChannelDescMode(c, DVPP_CHNMODE_JPEGD));
	ASSERT_EQ(ACL_SUCCESS, acldvppCreateChannel(c));
	EXPECT_EQ(INVAL, acldvppCreateChannel(c));
	EXPECT_EQ(INVAL, acldvppVpcResizeAsync(c, in.desc, out.desc, self->nearest,
					       self->s));
	ASSERT_EQ(ACL_SUCCESS, acldvppDestroyChannel(c));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetChannelDescMode(c, DVPP_CHNMODE_VPC |
							    DVPP_CHNMODE_JPEGD));
	ASSERT_EQ(ACL_SUCCESS, acldvppCreateChannel(c));
	EXPECT_EQ(ACL_SUCCESS, acldvppVpcResizeAsync(c, in.desc, out.desc,
						     self->nearest, self->s));
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyChannel(c));
	EXPECT_EQ(INVAL, acldvppDestroyChannel(c));
	EXPECT_EQ(INVAL, acldvppVpcResizeAsync(c, in.desc, out.desc, self->nearest,
					       self->s));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyChannelDesc(c));
	pic_free(&in);
	pic_free(&out);
}

/* Each picture rule, one field off a good call. */
TEST_F(vpc, picture_rules)
{
	struct pic in, out;
	acldvppPicDesc *i, *o;

	ASSERT_EQ(0, pic_nv12(&in, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 32));
	ASSERT_EQ(0, pic_nv12(&out, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 32, 16));
	i = in.desc;
	o = out.desc;
#define RESIZE() acldvppVpcResizeAsync(self->ch, i, o, self->nearest, self->s)
#define OFF(set, bad, good) do { set; EXPECT_EQ(INVAL, RESIZE()); } while (0); good
	ASSERT_EQ(ACL_SUCCESS, RESIZE());
	EXPECT_EQ(INVAL, acldvppVpcResizeAsync(self->ch, NULL, o, self->nearest, self->s));
	EXPECT_EQ(INVAL, acldvppVpcResizeAsync(self->ch, i, NULL, self->nearest, self->s));
	EXPECT_EQ(INVAL, acldvppVpcResizeAsync(self->ch, i, o, NULL, self->s));
	EXPECT_EQ(INVAL, acldvppVpcResizeAsync(self->ch, i, o,
					       (acldvppResizeConfig *)self->ch, self->s));
	EXPECT_EQ(INVAL, acldvppVpcResizeAsync(NULL, i, o, self->nearest, self->s));
	/* formats the VPC does not take */
	OFF(acldvppSetPicDescFormat(i, PIXEL_FORMAT_RGB_BAYER_8BPP), 0,
	    acldvppSetPicDescFormat(i, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
	OFF(acldvppSetPicDescFormat(o, PIXEL_FORMAT_FLOAT32), 0,
	    acldvppSetPicDescFormat(o, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
	/* no data, unaligned data */
	EXPECT_EQ(INVAL, acldvppSetPicDescData(i, NULL));	/* refused when set */
	OFF(acldvppSetPicDescData(i, (char *)in.dev + 8), 0,
	    acldvppSetPicDescData(i, in.dev));
	/* sizes: below 10 x 6, above 8192 (input) and 4096 (output) */
	OFF(acldvppSetPicDescWidth(i, 8), 0, acldvppSetPicDescWidth(i, 64));
	OFF(acldvppSetPicDescHeight(i, 4), 0, acldvppSetPicDescHeight(i, 32));
	OFF(acldvppSetPicDescWidth(i, 8194), 0, acldvppSetPicDescWidth(i, 64));
	OFF(acldvppSetPicDescWidth(o, 4098), 0, acldvppSetPicDescWidth(o, 32));
	/* an NV12 output of odd width or height */
	OFF(acldvppSetPicDescWidth(o, 31), 0, acldvppSetPicDescWidth(o, 32));
	OFF(acldvppSetPicDescHeight(o, 15), 0, acldvppSetPicDescHeight(o, 16));
	/* width stride: a multiple of 16, at least the row and 32, at most 16384 */
	OFF(acldvppSetPicDescWidthStride(i, 72), 0, acldvppSetPicDescWidthStride(i, 64));
	OFF(acldvppSetPicDescWidthStride(i, 48), 0, acldvppSetPicDescWidthStride(i, 64));
	OFF(acldvppSetPicDescWidthStride(o, 16), 0, acldvppSetPicDescWidthStride(o, 32));
	OFF(acldvppSetPicDescWidthStride(i, 16400), 0, acldvppSetPicDescWidthStride(i, 64));
	/* height stride: even, at least the height, at most 16384 */
	OFF(acldvppSetPicDescHeightStride(i, 33), 0, acldvppSetPicDescHeightStride(i, 32));
	OFF(acldvppSetPicDescHeightStride(i, 30), 0, acldvppSetPicDescHeightStride(i, 32));
	OFF(acldvppSetPicDescHeightStride(i, 16386), 0, acldvppSetPicDescHeightStride(i, 32));
	/* size below what the strides take */
	OFF(acldvppSetPicDescSize(i, 64 * 32 * 3 / 2 - 1), 0,
	    acldvppSetPicDescSize(i, in.size));
	OFF(acldvppSetPicDescSize(o, 32 * 16 * 3 / 2 - 1), 0,
	    acldvppSetPicDescSize(o, out.size));
	/* scaling beyond 1/32 .. 16 */
	acldvppSetPicDescWidth(i, 1024);
	acldvppSetPicDescWidthStride(i, 1024);
	acldvppSetPicDescSize(i, 1024 * 32 * 3 / 2);
	EXPECT_EQ(INVAL, RESIZE());	/* the buffer is too small, and 1/32 */
	pic_free(&in);
	ASSERT_EQ(0, pic_nv12(&in, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 1088, 32));
	i = in.desc;
	EXPECT_EQ(INVAL, RESIZE());	/* 1088 -> 32 is below 1/32 */
	acldvppSetPicDescWidth(i, 1024);
	EXPECT_EQ(ACL_SUCCESS, RESIZE());	/* exactly 1/32 */
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	pic_free(&in);
	pic_free(&out);
#undef OFF
#undef RESIZE
}

TEST_F(vpc, roi_rules)
{
	struct pic in, out;
	acldvppRoiConfig *crop = acldvppCreateRoiConfig(16, 47, 8, 23);
	acldvppRoiConfig *paste = acldvppCreateRoiConfig(16, 47, 8, 23);

	ASSERT_EQ(0, pic_nv12(&in, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 32));
	ASSERT_EQ(0, pic_nv12(&out, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 32));
#define CP() acldvppVpcCropAndPasteAsync(self->ch, in.desc, out.desc, crop, paste, self->s)
	ASSERT_EQ(ACL_SUCCESS, CP());
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	EXPECT_EQ(INVAL, acldvppVpcCropAndPasteAsync(self->ch, in.desc, out.desc, NULL,
						     paste, self->s));
	EXPECT_EQ(INVAL, acldvppVpcCropAndPasteAsync(self->ch, in.desc, out.desc, crop,
						     NULL, self->s));
	EXPECT_EQ(INVAL, acldvppVpcCropAsync(self->ch, in.desc, out.desc, NULL, self->s));
	/* parity: left and top even, right and bottom odd */
	acldvppSetRoiConfigLeft(crop, 17);
	EXPECT_EQ(INVAL, CP());
	acldvppSetRoiConfigLeft(crop, 16);
	acldvppSetRoiConfigTop(crop, 9);
	EXPECT_EQ(INVAL, CP());
	acldvppSetRoiConfigTop(crop, 8);
	acldvppSetRoiConfigRight(crop, 46);
	EXPECT_EQ(INVAL, CP());
	acldvppSetRoiConfigRight(crop, 47);
	acldvppSetRoiConfigBottom(crop, 22);
	EXPECT_EQ(INVAL, CP());
	acldvppSetRoiConfigBottom(crop, 23);
	/* a paste area's left is a multiple of 16 */
	acldvppSetRoiConfig(paste, 18, 49, 8, 23);
	EXPECT_EQ(INVAL, CP());
	/* outside the picture */
	acldvppSetRoiConfig(paste, 32, 65, 8, 23);
	EXPECT_EQ(INVAL, CP());
	acldvppSetRoiConfig(paste, 16, 47, 8, 33);
	EXPECT_EQ(INVAL, CP());
	/* right before left; smaller than 10 x 6 */
	acldvppSetRoiConfig(crop, 48, 47, 8, 23);
	EXPECT_EQ(INVAL, CP());
	acldvppSetRoiConfig(crop, 16, 23, 8, 23);
	acldvppSetRoiConfig(paste, 16, 23, 8, 23);
	EXPECT_EQ(INVAL, CP());
	acldvppSetRoiConfig(crop, 16, 47, 8, 11);
	acldvppSetRoiConfig(paste, 16, 47, 8, 11);
	EXPECT_EQ(INVAL, CP());
	/* the same areas at legal sizes pass again */
	acldvppSetRoiConfig(crop, 16, 47, 8, 23);
	acldvppSetRoiConfig(paste, 16, 47, 8, 23);
	EXPECT_EQ(ACL_SUCCESS, CP());
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
#undef CP
	acldvppDestroyRoiConfig(crop);
	acldvppDestroyRoiConfig(paste);
	pic_free(&in);
	pic_free(&out);
}

TEST_F(vpc, pyrdown_and_border_rules)
{
	struct pic in, out, rgb;
	acldvppBorderConfig *b = acldvppCreateBorderConfig();
	int x;

	ASSERT_EQ(0, pic_new(&in, PIXEL_FORMAT_YUV_400, 64, 32, 64, 32, 64 * 32));
	ASSERT_EQ(0, pic_new(&out, PIXEL_FORMAT_YUV_400, 32, 16, 32, 16, 32 * 16));
	ASSERT_EQ(0, pic_nv12(&rgb, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 32, 16));
	EXPECT_EQ(INVAL, acldvppVpcPyrDownAsync(self->ch, in.desc, out.desc, &x, self->s));
	EXPECT_EQ(INVAL, acldvppVpcPyrDownAsync(self->ch, in.desc, rgb.desc, NULL,
						self->s));
	acldvppSetPicDescWidth(out.desc, 30);
	EXPECT_EQ(INVAL, acldvppVpcPyrDownAsync(self->ch, in.desc, out.desc, NULL,
						self->s));
	acldvppSetPicDescWidth(out.desc, 32);
	EXPECT_EQ(ACL_SUCCESS, acldvppVpcPyrDownAsync(self->ch, in.desc, out.desc, NULL,
						      self->s));
	/* borders must add up to the output's size, format kept */
	acldvppSetBorderConfigLeft(b, 16);
	EXPECT_EQ(INVAL, acldvppVpcMakeBorderAsync(self->ch, out.desc, in.desc, b,
						   self->s));
	acldvppSetBorderConfigRight(b, 16);
	acldvppSetBorderConfigBottom(b, 16);
	EXPECT_EQ(INVAL, acldvppVpcMakeBorderAsync(self->ch, out.desc, in.desc, NULL,
						   self->s));
	EXPECT_EQ(INVAL, acldvppVpcMakeBorderAsync(self->ch, rgb.desc, in.desc, b,
						   self->s));
	EXPECT_EQ(ACL_SUCCESS, acldvppVpcMakeBorderAsync(self->ch, out.desc, in.desc, b,
							 self->s));
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	acldvppDestroyBorderConfig(b);
	pic_free(&in);
	pic_free(&out);
	pic_free(&rgb);
}

/*
 * What vnpu does not do (Documentation/dvpp.md) says so: each call is
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT with a message naming it.
 */
TEST_F(vpc, unsupported_calls_say_so)
{
	acldvppHist *hist = acldvppCreateHist();
	acldvppLutMap *lut = acldvppCreateLutMap();
	aclvencChannelDesc *venc = aclvencCreateChannelDesc();
	const aclError no = ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	uint32_t one = 1;

	EXPECT_EQ(no, acldvppVpcCalcHistAsync(self->ch, NULL, hist, NULL, self->s));
	EXPECT_NE(NULL, strstr(aclGetRecentErrMsg(), "acldvppVpcCalcHistAsync"));
	EXPECT_EQ(no, acldvppVpcEqualizeHistAsync(self->ch, NULL, NULL, lut, self->s));
	EXPECT_EQ(no, acldvppVpcBatchCropResizeMakeBorderAsync(self->ch, NULL, &one, 1, NULL,
							       NULL, NULL, NULL, self->s));
	EXPECT_EQ(no, aclvencCreateChannel(venc));
	EXPECT_EQ(no, aclvencSendFrame(venc, NULL, NULL, NULL, NULL));
	EXPECT_EQ(no, aclvencDestroyChannel(venc));
	EXPECT_NE(NULL, strstr(aclGetRecentErrMsg(), "aclvencDestroyChannel"));
	aclvencDestroyChannelDesc(venc);
	acldvppDestroyLutMap(lut);
	acldvppDestroyHist(hist);
}

/* Before aclInit nothing that needs a device runs. */
TEST(before_init)
{
	void *p = NULL;
	acldvppChannelDesc *c = acldvppCreateChannelDesc();

	ASSERT_NE(NULL, c);	/* descriptions need no device */
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, acldvppMalloc(&p, 64));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, acldvppCreateChannel(c));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, acldvppFree(p));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyChannelDesc(c));
}

TEST_HARNESS_MAIN
