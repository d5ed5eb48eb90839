// SPDX-License-Identifier: MIT
/*
 * Host tests of the DVPP description objects (lib/dvpp/dvpp_desc_*.c),
 * which need neither a device nor aclInit: CANN's defaults, set/get round
 * trips, every range rule, NULL and wrong-kind arguments with their exact
 * error codes, the batch element rules, the parameter calls, and the
 * create / set / read back / destroy sequence the CANN samples use. They
 * link the public library only, as a CANN program does.
 */
#include <stdint.h>
#include <string.h>

#include "acl/acl.h"
#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"
#include "kselftest_harness.h"

#define INVALID ACL_ERROR_INVALID_PARAM

/* The recent error message names the function and contains what. */
static int errmsg_has(const char *func, const char *what)
{
	const char *m = aclGetRecentErrMsg();

	return m && strstr(m, func) && strstr(m, what);
}

static void vdec_cb(acldvppStreamDesc *in, acldvppPicDesc *out, void *user)
{
}

static void venc_cb(acldvppPicDesc *in, acldvppStreamDesc *out, void *user)
{
}

/* ------------------------------------------------------------ picture -- */

TEST(pic_defaults_and_round_trip)
{
	acldvppPicDesc *p = acldvppCreatePicDesc();
	static char buf[64];

	ASSERT_NE(NULL, p);
	EXPECT_EQ(NULL, acldvppGetPicDescData(p));
	EXPECT_EQ(0, acldvppGetPicDescSize(p));
	EXPECT_EQ(PIXEL_FORMAT_YUV_400, acldvppGetPicDescFormat(p));
	EXPECT_EQ(0, acldvppGetPicDescWidth(p));
	EXPECT_EQ(0, acldvppGetPicDescHeight(p));
	EXPECT_EQ(0, acldvppGetPicDescWidthStride(p));
	EXPECT_EQ(0, acldvppGetPicDescHeightStride(p));
	EXPECT_EQ(0, acldvppGetPicDescRetCode(p));

	EXPECT_EQ(ACL_SUCCESS, acldvppSetPicDescData(p, buf));
	EXPECT_EQ(ACL_SUCCESS, acldvppSetPicDescSize(p, 1920 * 1088 * 3 / 2));
	EXPECT_EQ(ACL_SUCCESS, acldvppSetPicDescFormat(p, PIXEL_FORMAT_YVU_SEMIPLANAR_420));
	EXPECT_EQ(ACL_SUCCESS, acldvppSetPicDescWidth(p, 1919));
	EXPECT_EQ(ACL_SUCCESS, acldvppSetPicDescHeight(p, 1081));
	EXPECT_EQ(ACL_SUCCESS, acldvppSetPicDescWidthStride(p, 1920));
	EXPECT_EQ(ACL_SUCCESS, acldvppSetPicDescHeightStride(p, 1088));
	EXPECT_EQ(ACL_SUCCESS, acldvppSetPicDescRetCode(p, 0xdead));
	EXPECT_EQ((void *)buf, acldvppGetPicDescData(p));
	EXPECT_EQ(1920 * 1088 * 3 / 2, acldvppGetPicDescSize(p));
	EXPECT_EQ(PIXEL_FORMAT_YVU_SEMIPLANAR_420, acldvppGetPicDescFormat(p));
	EXPECT_EQ(1919, acldvppGetPicDescWidth(p));
	EXPECT_EQ(1081, acldvppGetPicDescHeight(p));
	EXPECT_EQ(1920, acldvppGetPicDescWidthStride(p));
	EXPECT_EQ(1088, acldvppGetPicDescHeightStride(p));
	EXPECT_EQ(0xdead, acldvppGetPicDescRetCode(p));
	/* Values are stored as given: the VPC calls judge combinations. */
	EXPECT_EQ(ACL_SUCCESS, acldvppSetPicDescFormat(p, PIXEL_FORMAT_UNKNOWN));
	EXPECT_EQ(PIXEL_FORMAT_UNKNOWN, acldvppGetPicDescFormat(p));
	EXPECT_EQ(ACL_SUCCESS, acldvppSetPicDescWidth(p, UINT32_MAX));
	EXPECT_EQ(UINT32_MAX, acldvppGetPicDescWidth(p));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyPicDesc(p));
}

TEST(pic_null_and_wrong_kind)
{
	acldvppRoiConfig *roi = acldvppCreateRoiConfig(0, 1, 0, 1);
	acldvppPicDesc *wrong = (acldvppPicDesc *)roi;
	acldvppPicDesc *p = acldvppCreatePicDesc();
	acldvppPicDesc *bad[2] = { NULL, wrong };
	static char buf[8];
	int i;

	ASSERT_NE(NULL, roi);
	ASSERT_NE(NULL, p);
	for (i = 0; i < 2; i++) {
		acldvppPicDesc *d = bad[i];

		EXPECT_EQ(INVALID, acldvppSetPicDescData(d, buf));
		EXPECT_EQ(INVALID, acldvppSetPicDescSize(d, 1));
		EXPECT_EQ(INVALID, acldvppSetPicDescFormat(d, PIXEL_FORMAT_RGB_888));
		EXPECT_EQ(INVALID, acldvppSetPicDescWidth(d, 1));
		EXPECT_EQ(INVALID, acldvppSetPicDescHeight(d, 1));
		EXPECT_EQ(INVALID, acldvppSetPicDescWidthStride(d, 1));
		EXPECT_EQ(INVALID, acldvppSetPicDescHeightStride(d, 1));
		EXPECT_EQ(INVALID, acldvppSetPicDescRetCode(d, 1));
		EXPECT_EQ(NULL, acldvppGetPicDescData(d));
		EXPECT_EQ(0, acldvppGetPicDescSize(d));
		EXPECT_EQ(PIXEL_FORMAT_YUV_400, acldvppGetPicDescFormat(d));
		EXPECT_EQ(0, acldvppGetPicDescWidth(d));
		EXPECT_EQ(0, acldvppGetPicDescHeight(d));
		EXPECT_EQ(0, acldvppGetPicDescWidthStride(d));
		EXPECT_EQ(0, acldvppGetPicDescHeightStride(d));
		EXPECT_EQ(0, acldvppGetPicDescRetCode(d));
		EXPECT_EQ(INVALID, acldvppDestroyPicDesc(d));
	}
	EXPECT_TRUE(errmsg_has("acldvppDestroyPicDesc", "not a live acldvppPicDesc"));
	/* The ROI survived being offered as a picture. */
	EXPECT_EQ(ACL_SUCCESS, acldvppSetRoiConfigRight(roi, 3));
	EXPECT_EQ(INVALID, acldvppSetPicDescData(p, NULL));
	EXPECT_TRUE(errmsg_has("acldvppSetPicDescData", "dataDev"));
	EXPECT_EQ(NULL, acldvppGetPicDescData(p));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyPicDesc(p));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyRoiConfig(roi));
}

/* -------------------------------------------------------------- batch -- */

TEST(batch_sizes)
{
	acldvppBatchPicDesc *b;

	EXPECT_EQ(NULL, acldvppCreateBatchPicDesc(0));
	EXPECT_TRUE(errmsg_has("acldvppCreateBatchPicDesc", "batchSize 0"));
	EXPECT_EQ(NULL, acldvppCreateBatchPicDesc(257));
	EXPECT_EQ(NULL, acldvppCreateBatchPicDesc(UINT32_MAX));
	b = acldvppCreateBatchPicDesc(1);
	ASSERT_NE(NULL, b);
	EXPECT_NE(NULL, acldvppGetPicDesc(b, 0));
	EXPECT_EQ(NULL, acldvppGetPicDesc(b, 1));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyBatchPicDesc(b));
	b = acldvppCreateBatchPicDesc(256);
	ASSERT_NE(NULL, b);
	EXPECT_NE(NULL, acldvppGetPicDesc(b, 255));
	EXPECT_EQ(NULL, acldvppGetPicDesc(b, 256));
	EXPECT_TRUE(errmsg_has("acldvppGetPicDesc", "index 256"));
	EXPECT_EQ(NULL, acldvppGetPicDesc(b, UINT32_MAX));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyBatchPicDesc(b));
}

TEST(batch_elements)
{
	acldvppBatchPicDesc *b = acldvppCreateBatchPicDesc(4);
	acldvppPicDesc *e[4];
	static char buf[4][16];
	uint32_t i;

	ASSERT_NE(NULL, b);
	for (i = 0; i < 4; i++) {
		e[i] = acldvppGetPicDesc(b, i);
		ASSERT_NE(NULL, e[i]);
		/* Each element is a fresh picture description... */
		EXPECT_EQ(NULL, acldvppGetPicDescData(e[i]));
		EXPECT_EQ(PIXEL_FORMAT_YUV_400, acldvppGetPicDescFormat(e[i]));
		EXPECT_EQ(0, acldvppGetPicDescWidth(e[i]));
		/* ...and the same one every time it is asked for. */
		EXPECT_EQ(e[i], acldvppGetPicDesc(b, i));
	}
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(ACL_SUCCESS, acldvppSetPicDescData(e[i], buf[i]));
		EXPECT_EQ(ACL_SUCCESS, acldvppSetPicDescWidth(e[i], 100 + i));
		EXPECT_EQ(ACL_SUCCESS, acldvppSetPicDescFormat(e[i], PIXEL_FORMAT_RGB_888));
	}
	for (i = 0; i < 4; i++) {
		EXPECT_EQ((void *)buf[i], acldvppGetPicDescData(acldvppGetPicDesc(b, i)));
		EXPECT_EQ(100 + i, acldvppGetPicDescWidth(acldvppGetPicDesc(b, i)));
		EXPECT_NE(e[0], e[i == 0 ? 1 : i]);
	}
	/* Elements belong to the batch. */
	EXPECT_EQ(INVALID, acldvppDestroyPicDesc(e[2]));
	EXPECT_TRUE(errmsg_has("acldvppDestroyPicDesc", "acldvppBatchPicDesc"));
	EXPECT_EQ(102, acldvppGetPicDescWidth(e[2]));
	/* A picture description is not a batch, nor the other way round. */
	EXPECT_EQ(NULL, acldvppGetPicDesc((acldvppBatchPicDesc *)e[0], 0));
	EXPECT_EQ(INVALID, acldvppDestroyBatchPicDesc((acldvppBatchPicDesc *)e[0]));
	EXPECT_EQ(INVALID, acldvppSetPicDescWidth((acldvppPicDesc *)b, 1));
	EXPECT_EQ(NULL, acldvppGetPicDesc(NULL, 0));
	EXPECT_EQ(INVALID, acldvppDestroyBatchPicDesc(NULL));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyBatchPicDesc(b));
}

/* ---------------------------------------------------------------- ROI -- */

TEST(roi_create_set_and_ranges)
{
	acldvppRoiConfig *r = acldvppCreateRoiConfig(0, 65535, 65535, 0);

	ASSERT_NE(NULL, r);
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyRoiConfig(r));
	EXPECT_EQ(NULL, acldvppCreateRoiConfig(65536, 1, 0, 1));
	EXPECT_TRUE(errmsg_has("acldvppCreateRoiConfig", "left 65536"));
	EXPECT_EQ(NULL, acldvppCreateRoiConfig(0, 65536, 0, 1));
	EXPECT_EQ(NULL, acldvppCreateRoiConfig(0, 1, 65536, 1));
	EXPECT_EQ(NULL, acldvppCreateRoiConfig(0, 1, 0, UINT32_MAX));
	EXPECT_TRUE(errmsg_has("acldvppCreateRoiConfig", "bottom"));

	/* Parity is the VPC calls' business: odd left / even right are kept. */
	r = acldvppCreateRoiConfig(1, 2, 3, 4);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(ACL_SUCCESS, acldvppSetRoiConfigLeft(r, 65535));
	EXPECT_EQ(ACL_SUCCESS, acldvppSetRoiConfigRight(r, 0));
	EXPECT_EQ(ACL_SUCCESS, acldvppSetRoiConfigTop(r, 7));
	EXPECT_EQ(ACL_SUCCESS, acldvppSetRoiConfigBottom(r, 8));
	EXPECT_EQ(INVALID, acldvppSetRoiConfigLeft(r, 65536));
	EXPECT_TRUE(errmsg_has("acldvppSetRoiConfigLeft", "left 65536"));
	EXPECT_EQ(INVALID, acldvppSetRoiConfigRight(r, 65536));
	EXPECT_EQ(INVALID, acldvppSetRoiConfigTop(r, 65536));
	EXPECT_EQ(INVALID, acldvppSetRoiConfigBottom(r, 65536));
	EXPECT_EQ(ACL_SUCCESS, acldvppSetRoiConfig(r, 16, 31, 2, 9));
	EXPECT_EQ(INVALID, acldvppSetRoiConfig(r, 0, 1, 0, 65536));
	EXPECT_TRUE(errmsg_has("acldvppSetRoiConfig", "bottom 65536"));
	EXPECT_EQ(INVALID, acldvppSetRoiConfig(NULL, 0, 1, 0, 1));
	EXPECT_EQ(INVALID, acldvppSetRoiConfigLeft(NULL, 0));
	EXPECT_EQ(INVALID, acldvppSetRoiConfigRight(NULL, 0));
	EXPECT_EQ(INVALID, acldvppSetRoiConfigTop(NULL, 0));
	EXPECT_EQ(INVALID, acldvppSetRoiConfigBottom(NULL, 0));
	EXPECT_EQ(INVALID, acldvppDestroyRoiConfig(NULL));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyRoiConfig(r));
}

/* ------------------------------------------------- resize, jpege config -- */

TEST(resize_config)
{
	acldvppResizeConfig *c = acldvppCreateResizeConfig();
	acldvppJpegeConfig *j = acldvppCreateJpegeConfig();
	uint32_t i;

	ASSERT_NE(NULL, c);
	ASSERT_NE(NULL, j);
	EXPECT_EQ(0, acldvppGetResizeConfigInterpolation(c));
	for (i = 0; i <= 4; i++) {
		EXPECT_EQ(ACL_SUCCESS, acldvppSetResizeConfigInterpolation(c, i));
		EXPECT_EQ(i, acldvppGetResizeConfigInterpolation(c));
	}
	EXPECT_EQ(INVALID, acldvppSetResizeConfigInterpolation(c, 5));
	EXPECT_TRUE(errmsg_has("acldvppSetResizeConfigInterpolation", "interpolation 5"));
	EXPECT_EQ(4, acldvppGetResizeConfigInterpolation(c));
	EXPECT_EQ(INVALID, acldvppSetResizeConfigInterpolation(NULL, 1));
	EXPECT_EQ(INVALID, acldvppSetResizeConfigInterpolation((acldvppResizeConfig *)j, 1));
	EXPECT_EQ(0, acldvppGetResizeConfigInterpolation(NULL));
	EXPECT_EQ(INVALID, acldvppDestroyResizeConfig(NULL));
	EXPECT_EQ(INVALID, acldvppDestroyResizeConfig((acldvppResizeConfig *)j));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyResizeConfig(c));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyJpegeConfig(j));
}

TEST(jpege_config)
{
	acldvppJpegeConfig *j = acldvppCreateJpegeConfig();
	acldvppResizeConfig *c = acldvppCreateResizeConfig();

	ASSERT_NE(NULL, j);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(0, acldvppGetJpegeConfigLevel(j));
	EXPECT_EQ(ACL_SUCCESS, acldvppSetJpegeConfigLevel(j, 100));
	EXPECT_EQ(100, acldvppGetJpegeConfigLevel(j));
	EXPECT_EQ(ACL_SUCCESS, acldvppSetJpegeConfigLevel(j, 1));
	EXPECT_EQ(1, acldvppGetJpegeConfigLevel(j));
	EXPECT_EQ(INVALID, acldvppSetJpegeConfigLevel(j, 101));
	EXPECT_TRUE(errmsg_has("acldvppSetJpegeConfigLevel", "level 101"));
	EXPECT_EQ(1, acldvppGetJpegeConfigLevel(j));
	EXPECT_EQ(INVALID, acldvppSetJpegeConfigLevel(NULL, 50));
	EXPECT_EQ(INVALID, acldvppSetJpegeConfigLevel((acldvppJpegeConfig *)c, 50));
	EXPECT_EQ(0, acldvppGetJpegeConfigLevel(NULL));
	EXPECT_EQ(INVALID, acldvppDestroyJpegeConfig(NULL));
	EXPECT_EQ(INVALID, acldvppDestroyJpegeConfig((acldvppJpegeConfig *)c));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyJpegeConfig(j));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyResizeConfig(c));
}

/* ------------------------------------------------------------- border -- */

TEST(border_config)
{
	acldvppBorderConfig *b = acldvppCreateBorderConfig();
	acldvppHist *h = acldvppCreateHist();
	acldvppBorderConfig *wrong = (acldvppBorderConfig *)h;
	uint32_t i;

	ASSERT_NE(NULL, b);
	ASSERT_NE(NULL, h);
	EXPECT_EQ(BORDER_CONSTANT, acldvppGetBorderConfigBorderType(b));
	EXPECT_EQ(0, acldvppGetBorderConfigTop(b));
	EXPECT_EQ(0, acldvppGetBorderConfigBottom(b));
	EXPECT_EQ(0, acldvppGetBorderConfigLeft(b));
	EXPECT_EQ(0, acldvppGetBorderConfigRight(b));
	for (i = 0; i < 4; i++)
		EXPECT_EQ(0.0, acldvppGetBorderConfigValue(b, i));

	for (i = 0; i < 4; i++)
		EXPECT_EQ(ACL_SUCCESS, acldvppSetBorderConfigValue(b, i, 10.5 * (i + 1)));
	for (i = 0; i < 4; i++)
		EXPECT_EQ(10.5 * (i + 1), acldvppGetBorderConfigValue(b, i));
	EXPECT_EQ(INVALID, acldvppSetBorderConfigValue(b, 4, 1.0));
	EXPECT_TRUE(errmsg_has("acldvppSetBorderConfigValue", "index 4"));
	EXPECT_EQ(-1.0, acldvppGetBorderConfigValue(b, 4));
	EXPECT_EQ(-1.0, acldvppGetBorderConfigValue(NULL, 0));
	EXPECT_EQ(-1.0, acldvppGetBorderConfigValue(wrong, 0));

	EXPECT_EQ(ACL_SUCCESS, acldvppSetBorderConfigBorderType(b, BORDER_REFLECT_101));
	EXPECT_EQ(BORDER_REFLECT_101, acldvppGetBorderConfigBorderType(b));
	EXPECT_EQ(ACL_SUCCESS, acldvppSetBorderConfigBorderType(b, BORDER_REPLICATE));
	EXPECT_EQ(BORDER_REPLICATE, acldvppGetBorderConfigBorderType(b));
	EXPECT_EQ(INVALID, acldvppSetBorderConfigBorderType(b, (acldvppBorderType)4));
	EXPECT_TRUE(errmsg_has("acldvppSetBorderConfigBorderType", "borderType 4"));
	EXPECT_EQ(BORDER_REPLICATE, acldvppGetBorderConfigBorderType(b));

	EXPECT_EQ(ACL_SUCCESS, acldvppSetBorderConfigTop(b, 1));
	EXPECT_EQ(ACL_SUCCESS, acldvppSetBorderConfigBottom(b, 2));
	EXPECT_EQ(ACL_SUCCESS, acldvppSetBorderConfigLeft(b, 3));
	EXPECT_EQ(ACL_SUCCESS, acldvppSetBorderConfigRight(b, 65535));
	EXPECT_EQ(1, acldvppGetBorderConfigTop(b));
	EXPECT_EQ(2, acldvppGetBorderConfigBottom(b));
	EXPECT_EQ(3, acldvppGetBorderConfigLeft(b));
	EXPECT_EQ(65535, acldvppGetBorderConfigRight(b));
	EXPECT_EQ(INVALID, acldvppSetBorderConfigTop(b, 65536));
	EXPECT_EQ(INVALID, acldvppSetBorderConfigBottom(b, 65536));
	EXPECT_EQ(INVALID, acldvppSetBorderConfigLeft(b, 65536));
	EXPECT_EQ(INVALID, acldvppSetBorderConfigRight(b, 65536));
	EXPECT_EQ(65535, acldvppGetBorderConfigRight(b));

	EXPECT_EQ(INVALID, acldvppSetBorderConfigValue(wrong, 0, 1.0));
	EXPECT_EQ(INVALID, acldvppSetBorderConfigBorderType(NULL, BORDER_CONSTANT));
	EXPECT_EQ(INVALID, acldvppSetBorderConfigTop(wrong, 1));
	EXPECT_EQ(INVALID, acldvppSetBorderConfigBottom(NULL, 1));
	EXPECT_EQ(INVALID, acldvppSetBorderConfigLeft(wrong, 1));
	EXPECT_EQ(INVALID, acldvppSetBorderConfigRight(NULL, 1));
	EXPECT_EQ(BORDER_CONSTANT, acldvppGetBorderConfigBorderType(NULL));
	EXPECT_EQ(0, acldvppGetBorderConfigTop(wrong));
	EXPECT_EQ(0, acldvppGetBorderConfigBottom(NULL));
	EXPECT_EQ(0, acldvppGetBorderConfigLeft(NULL));
	EXPECT_EQ(0, acldvppGetBorderConfigRight(wrong));
	EXPECT_EQ(INVALID, acldvppDestroyBorderConfig(wrong));
	EXPECT_EQ(INVALID, acldvppDestroyBorderConfig(NULL));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyBorderConfig(b));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyHist(h));
}

/* ---------------------------------------------------------- LUT, hist -- */

TEST(lut_map)
{
	acldvppLutMap *m = acldvppCreateLutMap();
	uint8_t *d[3] = { NULL, NULL, NULL }, *x = NULL;
	uint32_t len = 0, i;

	ASSERT_NE(NULL, m);
	EXPECT_EQ(3, acldvppGetLutMapDims(m));
	for (i = 0; i < 3; i++) {
		len = 0;
		EXPECT_EQ(ACL_SUCCESS, acldvppGetLutMapData(m, i, &d[i], &len));
		EXPECT_EQ(256, len);
		ASSERT_NE(NULL, d[i]);
	}
	/* Three separate tables of 256 bytes each, writable by the caller. */
	EXPECT_TRUE(d[1] >= d[0] + 256 || d[0] >= d[1] + 256);
	EXPECT_TRUE(d[2] >= d[1] + 256 || d[1] >= d[2] + 256);
	for (i = 0; i < 256; i++) {
		d[0][i] = (uint8_t)(255 - i);
		d[2][i] = (uint8_t)i;
	}
	EXPECT_EQ(ACL_SUCCESS, acldvppGetLutMapData(m, 0, &x, &len));
	EXPECT_EQ(255, x[0]);
	EXPECT_EQ(0, x[255]);
	EXPECT_EQ(INVALID, acldvppGetLutMapData(m, 3, &x, &len));
	EXPECT_TRUE(errmsg_has("acldvppGetLutMapData", "dim 3"));
	EXPECT_EQ(INVALID, acldvppGetLutMapData(m, 0, NULL, &len));
	EXPECT_EQ(INVALID, acldvppGetLutMapData(m, 0, &x, NULL));
	EXPECT_EQ(INVALID, acldvppGetLutMapData(NULL, 0, &x, &len));
	EXPECT_EQ(0, acldvppGetLutMapDims(NULL));
	EXPECT_EQ(INVALID, acldvppDestroyLutMap(NULL));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyLutMap(m));
}

TEST(hist)
{
	acldvppHist *h = acldvppCreateHist();
	acldvppLutMap *m = acldvppCreateLutMap();
	uint32_t *d[3] = { NULL, NULL, NULL }, *x = NULL, i, k;
	uint16_t len = 0;

	ASSERT_NE(NULL, h);
	ASSERT_NE(NULL, m);
	EXPECT_EQ(3, acldvppGetHistDims(h));
	EXPECT_EQ(0, acldvppGetHistRetCode(h));
	for (i = 0; i < 3; i++) {
		len = 0;
		EXPECT_EQ(ACL_SUCCESS, acldvppGetHistData(h, i, &d[i], &len));
		EXPECT_EQ(256, len);
		ASSERT_NE(NULL, d[i]);
		for (k = 0; k < 256; k++)
			EXPECT_EQ(0, d[i][k]);
	}
	d[0][7] = 7;
	d[2][255] = 99;
	EXPECT_EQ(ACL_SUCCESS, acldvppGetHistData(h, 2, &x, &len));
	EXPECT_EQ(99, x[255]);
	EXPECT_EQ(ACL_SUCCESS, acldvppClearHist(h));
	EXPECT_EQ(0, d[0][7]);
	EXPECT_EQ(0, d[2][255]);
	EXPECT_EQ(INVALID, acldvppGetHistData(h, 3, &x, &len));
	EXPECT_TRUE(errmsg_has("acldvppGetHistData", "dim 3"));
	EXPECT_EQ(INVALID, acldvppGetHistData(h, 0, NULL, &len));
	EXPECT_EQ(INVALID, acldvppGetHistData(h, 0, &x, NULL));
	EXPECT_EQ(INVALID, acldvppGetHistData((acldvppHist *)m, 0, &x, &len));
	EXPECT_EQ(0, acldvppGetHistDims(NULL));
	/* CANN's quirk: the code of a bad histogram is INVALID_PARAM's value. */
	EXPECT_EQ((uint32_t)INVALID, acldvppGetHistRetCode(NULL));
	EXPECT_EQ((uint32_t)INVALID, acldvppGetHistRetCode((acldvppHist *)m));
	EXPECT_EQ(INVALID, acldvppClearHist(NULL));
	EXPECT_EQ(INVALID, acldvppDestroyHist((acldvppHist *)m));
	EXPECT_EQ(INVALID, acldvppDestroyLutMap((acldvppLutMap *)h));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyHist(h));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyLutMap(m));
}

/* ------------------------------------------------------------ channel -- */

TEST(channel_desc_mode_and_defaults)
{
	acldvppChannelDesc *c = acldvppCreateChannelDesc();
	uint32_t v = 0, mode;
	size_t n = 0;

	ASSERT_NE(NULL, c);
	EXPECT_EQ(0, acldvppGetChannelDescChannelId(c));
	EXPECT_EQ(ACL_SUCCESS, acldvppGetChannelDescParam(c, ACL_DVPP_MODE_UINT32, sizeof(v), &n, &v));
	EXPECT_EQ(0, v);
	EXPECT_EQ(sizeof(uint32_t), n);
	for (mode = 1; mode <= 15; mode++) {
		EXPECT_EQ(ACL_SUCCESS, acldvppSetChannelDescMode(c, mode));
		EXPECT_EQ(ACL_SUCCESS,
			  acldvppGetChannelDescParam(c, ACL_DVPP_MODE_UINT32, sizeof(v), &n, &v));
		EXPECT_EQ(mode, v);
	}
	EXPECT_EQ(INVALID, acldvppSetChannelDescMode(c, 0));
	EXPECT_TRUE(errmsg_has("acldvppSetChannelDescMode", "mode 0x0"));
	EXPECT_EQ(INVALID, acldvppSetChannelDescMode(c, 16));
	EXPECT_EQ(INVALID, acldvppSetChannelDescMode(c, DVPP_CHNMODE_VPC | 32));
	EXPECT_EQ(ACL_SUCCESS, acldvppGetChannelDescParam(c, ACL_DVPP_MODE_UINT32, sizeof(v), &n, &v));
	EXPECT_EQ(15, v);
	EXPECT_EQ(INVALID, acldvppSetChannelDescMode(NULL, 1));
	EXPECT_EQ(INVALID, acldvppDestroyChannelDesc(NULL));
	EXPECT_EQ(0, acldvppGetChannelDescChannelId(NULL));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyChannelDesc(c));
}

TEST(channel_desc_params)
{
	acldvppChannelDesc *c = acldvppCreateChannelDesc();
	acldvppPicDesc *p = acldvppCreatePicDesc();
	uint32_t v;
	uint64_t id = 77;
	acldvppJpegdPrecisionMode pm = ACL_YUVOUT_ALIGN_UP;
	unsigned char big[16];
	size_t n = 0;

	ASSERT_NE(NULL, c);
	ASSERT_NE(NULL, p);
	/* Defaults. */
	EXPECT_EQ(ACL_SUCCESS,
		  acldvppGetChannelDescParam(c, ACL_DVPP_CSC_MATRIX_UINT32, sizeof(v), &n, &v));
	EXPECT_EQ(ACL_DVPP_CSC_MATRIX_BT601_WIDE, v);
	EXPECT_EQ(ACL_SUCCESS,
		  acldvppGetChannelDescParam(c, ACL_DVPP_JPEGD_PRECISION_MODE_ENUM, sizeof(v), &n, &v));
	EXPECT_EQ(ACL_YUVOUT_ALIGN_DOWN, v);
	EXPECT_EQ(ACL_SUCCESS,
		  acldvppGetChannelDescParam(c, ACL_DVPP_CHANNEL_ID_UINT64, sizeof(id), &n, &id));
	EXPECT_EQ(0, id);
	EXPECT_EQ(sizeof(uint64_t), n);

	/* Round trips. */
	v = ACL_DVPP_CSC_MATRIX_BT2020_NARROW;
	EXPECT_EQ(ACL_SUCCESS, acldvppSetChannelDescParam(c, ACL_DVPP_CSC_MATRIX_UINT32, sizeof(v), &v));
	v = 1920;
	EXPECT_EQ(ACL_SUCCESS, acldvppSetChannelDescParam(c, ACL_DVPP_CHANNEL_WIDTH_UINT32, sizeof(v), &v));
	v = 1080;
	EXPECT_EQ(ACL_SUCCESS, acldvppSetChannelDescParam(c, ACL_DVPP_CHANNEL_HEIGHT_UINT32, sizeof(v), &v));
	v = DVPP_CHNMODE_JPEGD | DVPP_CHNMODE_PNGD;
	EXPECT_EQ(ACL_SUCCESS, acldvppSetChannelDescParam(c, ACL_DVPP_MODE_UINT32, sizeof(v), &v));
	EXPECT_EQ(ACL_SUCCESS,
		  acldvppSetChannelDescParam(c, ACL_DVPP_JPEGD_PRECISION_MODE_ENUM, sizeof(pm), &pm));
	EXPECT_EQ(ACL_SUCCESS,
		  acldvppGetChannelDescParam(c, ACL_DVPP_CSC_MATRIX_UINT32, sizeof(v), &n, &v));
	EXPECT_EQ(ACL_DVPP_CSC_MATRIX_BT2020_NARROW, v);
	EXPECT_EQ(ACL_SUCCESS,
		  acldvppGetChannelDescParam(c, ACL_DVPP_CHANNEL_WIDTH_UINT32, sizeof(v), &n, &v));
	EXPECT_EQ(1920, v);
	EXPECT_EQ(ACL_SUCCESS,
		  acldvppGetChannelDescParam(c, ACL_DVPP_CHANNEL_HEIGHT_UINT32, sizeof(v), &n, &v));
	EXPECT_EQ(1080, v);
	EXPECT_EQ(ACL_SUCCESS, acldvppGetChannelDescParam(c, ACL_DVPP_MODE_UINT32, sizeof(v), &n, &v));
	EXPECT_EQ(DVPP_CHNMODE_JPEGD | DVPP_CHNMODE_PNGD, v);
	EXPECT_EQ(ACL_SUCCESS,
		  acldvppGetChannelDescParam(c, ACL_DVPP_JPEGD_PRECISION_MODE_ENUM, sizeof(v), &n, &v));
	EXPECT_EQ(ACL_YUVOUT_ALIGN_UP, v);
	/* A bigger buffer is fine; the size reported is the value's. */
	EXPECT_EQ(ACL_SUCCESS,
		  acldvppGetChannelDescParam(c, ACL_DVPP_CHANNEL_WIDTH_UINT32, sizeof(big), &n, big));
	EXPECT_EQ(sizeof(uint32_t), n);

	/* Range and type rules; a refused value changes nothing. */
	v = 6;
	EXPECT_EQ(INVALID, acldvppSetChannelDescParam(c, ACL_DVPP_CSC_MATRIX_UINT32, sizeof(v), &v));
	EXPECT_TRUE(errmsg_has("acldvppSetChannelDescParam", "csc matrix 6"));
	v = 3;
	EXPECT_EQ(INVALID,
		  acldvppSetChannelDescParam(c, ACL_DVPP_JPEGD_PRECISION_MODE_ENUM, sizeof(v), &v));
	v = 0;
	EXPECT_EQ(INVALID, acldvppSetChannelDescParam(c, ACL_DVPP_MODE_UINT32, sizeof(v), &v));
	v = 64;
	EXPECT_EQ(INVALID, acldvppSetChannelDescParam(c, ACL_DVPP_MODE_UINT32, sizeof(v), &v));
	EXPECT_EQ(ACL_SUCCESS, acldvppGetChannelDescParam(c, ACL_DVPP_MODE_UINT32, sizeof(v), &n, &v));
	EXPECT_EQ(DVPP_CHNMODE_JPEGD | DVPP_CHNMODE_PNGD, v);
	EXPECT_EQ(INVALID, acldvppSetChannelDescParam(c, ACL_DVPP_CHANNEL_ID_UINT64, sizeof(id), &id));
	EXPECT_TRUE(errmsg_has("acldvppSetChannelDescParam", "read-only"));
	EXPECT_EQ(INVALID,
		  acldvppSetChannelDescParam(c, (acldvppChannelDescParamType)6, sizeof(v), &v));
	EXPECT_EQ(INVALID,
		  acldvppGetChannelDescParam(c, (acldvppChannelDescParamType)6, sizeof(v), &n, &v));
	v = 1;
	EXPECT_EQ(INVALID, acldvppSetChannelDescParam(c, ACL_DVPP_CHANNEL_WIDTH_UINT32, 8, &v));
	EXPECT_TRUE(errmsg_has("acldvppSetChannelDescParam", "length 8"));
	EXPECT_EQ(INVALID, acldvppSetChannelDescParam(c, ACL_DVPP_CHANNEL_WIDTH_UINT32, 2, &v));
	EXPECT_EQ(INVALID, acldvppSetChannelDescParam(c, ACL_DVPP_CHANNEL_WIDTH_UINT32, 4, NULL));
	EXPECT_EQ(INVALID, acldvppGetChannelDescParam(c, ACL_DVPP_CHANNEL_ID_UINT64, 4, &n, &id));
	EXPECT_EQ(INVALID, acldvppGetChannelDescParam(c, ACL_DVPP_CHANNEL_WIDTH_UINT32, 4, NULL, &v));
	EXPECT_EQ(INVALID, acldvppGetChannelDescParam(c, ACL_DVPP_CHANNEL_WIDTH_UINT32, 4, &n, NULL));
	EXPECT_EQ(INVALID, acldvppSetChannelDescParam(NULL, ACL_DVPP_CHANNEL_WIDTH_UINT32, 4, &v));
	EXPECT_EQ(INVALID, acldvppGetChannelDescParam(NULL, ACL_DVPP_CHANNEL_WIDTH_UINT32, 4, &n, &v));
	EXPECT_EQ(INVALID, acldvppSetChannelDescMode((acldvppChannelDesc *)p, 1));
	EXPECT_EQ(INVALID, acldvppDestroyChannelDesc((acldvppChannelDesc *)p));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyChannelDesc(c));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyPicDesc(p));
}

/* ------------------------------------------------------------- stream -- */

TEST(stream_desc)
{
	acldvppStreamDesc *s = acldvppCreateStreamDesc();
	acldvppPicDesc *p = acldvppCreatePicDesc();
	acldvppStreamDesc *bad[2] = { NULL, (acldvppStreamDesc *)p };
	static char buf[32];
	int i;

	ASSERT_NE(NULL, s);
	ASSERT_NE(NULL, p);
	EXPECT_EQ(NULL, acldvppGetStreamDescData(s));
	EXPECT_EQ(0, acldvppGetStreamDescSize(s));
	EXPECT_EQ(H265_MAIN_LEVEL, acldvppGetStreamDescFormat(s));
	EXPECT_EQ(0, acldvppGetStreamDescTimestamp(s));
	EXPECT_EQ(0, acldvppGetStreamDescRetCode(s));
	EXPECT_EQ(0, acldvppGetStreamDescEos(s));

	EXPECT_EQ(ACL_SUCCESS, acldvppSetStreamDescData(s, buf));
	EXPECT_EQ(ACL_SUCCESS, acldvppSetStreamDescSize(s, 32));
	EXPECT_EQ(ACL_SUCCESS, acldvppSetStreamDescFormat(s, H264_HIGH_LEVEL));
	EXPECT_EQ(ACL_SUCCESS, acldvppSetStreamDescTimestamp(s, 0x123456789abcULL));
	EXPECT_EQ(ACL_SUCCESS, acldvppSetStreamDescRetCode(s, 5));
	EXPECT_EQ(ACL_SUCCESS, acldvppSetStreamDescEos(s, 7));
	EXPECT_EQ((void *)buf, acldvppGetStreamDescData(s));
	EXPECT_EQ(32, acldvppGetStreamDescSize(s));
	EXPECT_EQ(H264_HIGH_LEVEL, acldvppGetStreamDescFormat(s));
	EXPECT_EQ(0x123456789abcULL, acldvppGetStreamDescTimestamp(s));
	EXPECT_EQ(5, acldvppGetStreamDescRetCode(s));
	EXPECT_EQ(1, acldvppGetStreamDescEos(s));	/* stored as a flag */
	EXPECT_EQ(ACL_SUCCESS, acldvppSetStreamDescEos(s, 0));
	EXPECT_EQ(0, acldvppGetStreamDescEos(s));

	EXPECT_EQ(INVALID, acldvppSetStreamDescFormat(s, (acldvppStreamFormat)4));
	EXPECT_TRUE(errmsg_has("acldvppSetStreamDescFormat", "format 4"));
	EXPECT_EQ(H264_HIGH_LEVEL, acldvppGetStreamDescFormat(s));
	EXPECT_EQ(INVALID, acldvppSetStreamDescData(s, NULL));
	EXPECT_EQ((void *)buf, acldvppGetStreamDescData(s));
	for (i = 0; i < 2; i++) {
		acldvppStreamDesc *d = bad[i];

		EXPECT_EQ(INVALID, acldvppSetStreamDescData(d, buf));
		EXPECT_EQ(INVALID, acldvppSetStreamDescSize(d, 1));
		EXPECT_EQ(INVALID, acldvppSetStreamDescFormat(d, H264_MAIN_LEVEL));
		EXPECT_EQ(INVALID, acldvppSetStreamDescTimestamp(d, 1));
		EXPECT_EQ(INVALID, acldvppSetStreamDescRetCode(d, 1));
		EXPECT_EQ(INVALID, acldvppSetStreamDescEos(d, 1));
		EXPECT_EQ(NULL, acldvppGetStreamDescData(d));
		EXPECT_EQ(0, acldvppGetStreamDescSize(d));
		EXPECT_EQ(H265_MAIN_LEVEL, acldvppGetStreamDescFormat(d));
		EXPECT_EQ(0, acldvppGetStreamDescTimestamp(d));
		EXPECT_EQ(0, acldvppGetStreamDescRetCode(d));
		EXPECT_EQ(0, acldvppGetStreamDescEos(d));
		EXPECT_EQ(INVALID, acldvppDestroyStreamDesc(d));
	}
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyStreamDesc(s));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyPicDesc(p));
}

/* --------------------------------------------------------------- VDEC -- */

TEST(vdec_desc_defaults_and_setters)
{
	aclvdecChannelDesc *c = aclvdecCreateChannelDesc();
	uint32_t id;

	ASSERT_NE(NULL, c);
	EXPECT_EQ(0, aclvdecGetChannelDescChannelId(c));
	EXPECT_EQ(0, aclvdecGetChannelDescThreadId(c));
	EXPECT_EQ(NULL, aclvdecGetChannelDescCallback(c));
	EXPECT_EQ(H265_MAIN_LEVEL, aclvdecGetChannelDescEnType(c));
	EXPECT_EQ(PIXEL_FORMAT_YUV_SEMIPLANAR_420, aclvdecGetChannelDescOutPicFormat(c));
	EXPECT_EQ(0, aclvdecGetChannelDescOutPicWidth(c));
	EXPECT_EQ(0, aclvdecGetChannelDescOutPicHeight(c));
	EXPECT_EQ(0, aclvdecGetChannelDescRefFrameNum(c));
	EXPECT_EQ(0, aclvdecGetChannelDescBitDepth(c));
	EXPECT_EQ(0, aclvdecGetChannelDescOutMode(c));

	for (id = 0; id <= 15; id++) {
		EXPECT_EQ(ACL_SUCCESS, aclvdecSetChannelDescChannelId(c, id));
		EXPECT_EQ(id, aclvdecGetChannelDescChannelId(c));
	}
	EXPECT_EQ(INVALID, aclvdecSetChannelDescChannelId(c, 16));
	EXPECT_TRUE(errmsg_has("aclvdecSetChannelDescChannelId", "channelId 16"));
	EXPECT_EQ(15, aclvdecGetChannelDescChannelId(c));
	EXPECT_EQ(ACL_SUCCESS, aclvdecSetChannelDescThreadId(c, 0xfeedfaceULL));
	EXPECT_EQ(0xfeedfaceULL, aclvdecGetChannelDescThreadId(c));
	EXPECT_EQ(ACL_SUCCESS, aclvdecSetChannelDescCallback(c, vdec_cb));
	EXPECT_EQ(&vdec_cb, aclvdecGetChannelDescCallback(c));
	EXPECT_EQ(INVALID, aclvdecSetChannelDescCallback(c, NULL));
	EXPECT_EQ(&vdec_cb, aclvdecGetChannelDescCallback(c));
	EXPECT_EQ(ACL_SUCCESS, aclvdecSetChannelDescEnType(c, H264_MAIN_LEVEL));
	EXPECT_EQ(H264_MAIN_LEVEL, aclvdecGetChannelDescEnType(c));
	EXPECT_EQ(INVALID, aclvdecSetChannelDescEnType(c, (acldvppStreamFormat)4));
	EXPECT_EQ(ACL_SUCCESS, aclvdecSetChannelDescOutPicFormat(c, PIXEL_FORMAT_YVU_SEMIPLANAR_420));
	EXPECT_EQ(PIXEL_FORMAT_YVU_SEMIPLANAR_420, aclvdecGetChannelDescOutPicFormat(c));
	EXPECT_EQ(ACL_SUCCESS, aclvdecSetChannelDescOutPicFormat(c, PIXEL_FORMAT_RGB_888));
	EXPECT_EQ(ACL_SUCCESS, aclvdecSetChannelDescOutPicFormat(c, PIXEL_FORMAT_BGR_888));
	EXPECT_EQ(INVALID, aclvdecSetChannelDescOutPicFormat(c, PIXEL_FORMAT_YUV_400));
	EXPECT_TRUE(errmsg_has("aclvdecSetChannelDescOutPicFormat", "outPicFormat 0"));
	EXPECT_EQ(INVALID, aclvdecSetChannelDescOutPicFormat(c, PIXEL_FORMAT_ARGB_8888));
	EXPECT_EQ(PIXEL_FORMAT_BGR_888, aclvdecGetChannelDescOutPicFormat(c));
	EXPECT_EQ(ACL_SUCCESS, aclvdecSetChannelDescOutPicWidth(c, 1920));
	EXPECT_EQ(ACL_SUCCESS, aclvdecSetChannelDescOutPicHeight(c, 1080));
	EXPECT_EQ(ACL_SUCCESS, aclvdecSetChannelDescRefFrameNum(c, 8));
	EXPECT_EQ(ACL_SUCCESS, aclvdecSetChannelDescBitDepth(c, 1));
	EXPECT_EQ(1920, aclvdecGetChannelDescOutPicWidth(c));
	EXPECT_EQ(1080, aclvdecGetChannelDescOutPicHeight(c));
	EXPECT_EQ(8, aclvdecGetChannelDescRefFrameNum(c));
	EXPECT_EQ(1, aclvdecGetChannelDescBitDepth(c));
	EXPECT_EQ(ACL_SUCCESS, aclvdecSetChannelDescOutMode(c, 1));
	EXPECT_EQ(1, aclvdecGetChannelDescOutMode(c));
	EXPECT_EQ(INVALID, aclvdecSetChannelDescOutMode(c, 2));
	EXPECT_TRUE(errmsg_has("aclvdecSetChannelDescOutMode", "outMode 2"));
	EXPECT_EQ(1, aclvdecGetChannelDescOutMode(c));
	EXPECT_EQ(ACL_SUCCESS, aclvdecDestroyChannelDesc(c));
}

TEST(vdec_desc_null_and_wrong_kind)
{
	aclvencChannelDesc *venc = aclvencCreateChannelDesc();
	aclvdecChannelDesc *bad[2] = { NULL, (aclvdecChannelDesc *)venc };
	aclvdecFrameConfig *f = aclvdecCreateFrameConfig();
	uint32_t v = 1;
	size_t n;
	int i;

	ASSERT_NE(NULL, venc);
	ASSERT_NE(NULL, f);
	for (i = 0; i < 2; i++) {
		aclvdecChannelDesc *d = bad[i];

		EXPECT_EQ(INVALID, aclvdecSetChannelDescChannelId(d, 1));
		EXPECT_EQ(INVALID, aclvdecSetChannelDescThreadId(d, 1));
		EXPECT_EQ(INVALID, aclvdecSetChannelDescCallback(d, vdec_cb));
		EXPECT_EQ(INVALID, aclvdecSetChannelDescEnType(d, H264_MAIN_LEVEL));
		EXPECT_EQ(INVALID, aclvdecSetChannelDescOutPicFormat(d, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
		EXPECT_EQ(INVALID, aclvdecSetChannelDescOutPicWidth(d, 1));
		EXPECT_EQ(INVALID, aclvdecSetChannelDescOutPicHeight(d, 1));
		EXPECT_EQ(INVALID, aclvdecSetChannelDescRefFrameNum(d, 1));
		EXPECT_EQ(INVALID, aclvdecSetChannelDescBitDepth(d, 1));
		EXPECT_EQ(INVALID, aclvdecSetChannelDescOutMode(d, 1));
		EXPECT_EQ(INVALID, aclvdecSetChannelDescParam(d, ACL_VDEC_OUT_MODE_UINT32, sizeof(v), &v));
		EXPECT_EQ(INVALID,
			  aclvdecGetChannelDescParam(d, ACL_VDEC_OUT_MODE_UINT32, sizeof(v), &n, &v));
		EXPECT_EQ(0, aclvdecGetChannelDescChannelId(d));
		EXPECT_EQ(0, aclvdecGetChannelDescThreadId(d));
		EXPECT_EQ(NULL, aclvdecGetChannelDescCallback(d));
		EXPECT_EQ(H265_MAIN_LEVEL, aclvdecGetChannelDescEnType(d));
		EXPECT_EQ(PIXEL_FORMAT_YUV_400, aclvdecGetChannelDescOutPicFormat(d));
		EXPECT_EQ(0, aclvdecGetChannelDescOutPicWidth(d));
		EXPECT_EQ(0, aclvdecGetChannelDescOutPicHeight(d));
		EXPECT_EQ(0, aclvdecGetChannelDescRefFrameNum(d));
		EXPECT_EQ(0, aclvdecGetChannelDescBitDepth(d));
		EXPECT_EQ(0, aclvdecGetChannelDescOutMode(d));
		EXPECT_EQ(INVALID, aclvdecDestroyChannelDesc(d));
	}
	EXPECT_EQ(INVALID, aclvdecDestroyFrameConfig(NULL));
	EXPECT_EQ(INVALID, aclvdecDestroyFrameConfig((aclvdecFrameConfig *)venc));
	EXPECT_EQ(ACL_SUCCESS, aclvdecDestroyFrameConfig(f));
	EXPECT_EQ(ACL_SUCCESS, aclvencDestroyChannelDesc(venc));
}

TEST(vdec_desc_params)
{
	aclvdecChannelDesc *c = aclvdecCreateChannelDesc();
	aclvdecCallback cb = vdec_cb, got_cb = NULL;
	uint64_t tid = 42, got_tid = 0;
	uint32_t v;
	size_t n = 0;
	static const struct {
		aclvdecChannelDescParamType type;
		uint32_t good, bad;
	} u32[] = {
		{ ACL_VDEC_CSC_MATRIX_UINT32, ACL_DVPP_CSC_MATRIX_BT709_NARROW, 6 },
		{ ACL_VDEC_OUT_MODE_UINT32, 1, 2 },
		{ ACL_VDEC_CHANNEL_ID_UINT32, 15, 16 },
		{ ACL_VDEC_ENCODE_TYPE_UINT32, H264_BASELINE_LEVEL, 4 },
		{ ACL_VDEC_OUT_PIC_FORMAT_UINT32, PIXEL_FORMAT_YVU_SEMIPLANAR_420, PIXEL_FORMAT_YUV_400 },
		{ ACL_VDEC_OUT_PIC_WIDTH_UINT32, 4096, UINT32_MAX },
		{ ACL_VDEC_OUT_PIC_HEIGHT_UINT32, 2160, UINT32_MAX },
		{ ACL_VDEC_REF_FRAME_NUM_UINT32, 16, UINT32_MAX },
		{ ACL_VDEC_BIT_DEPTH_UINT32, 1, UINT32_MAX },
	};
	size_t i;

	ASSERT_NE(NULL, c);
	EXPECT_EQ(ACL_SUCCESS,
		  aclvdecGetChannelDescParam(c, ACL_VDEC_CSC_MATRIX_UINT32, sizeof(v), &n, &v));
	EXPECT_EQ(ACL_DVPP_CSC_MATRIX_BT601_WIDE, v);
	for (i = 0; i < sizeof(u32) / sizeof(u32[0]); i++) {
		v = u32[i].good;
		EXPECT_EQ(ACL_SUCCESS, aclvdecSetChannelDescParam(c, u32[i].type, sizeof(v), &v));
		v = u32[i].bad;
		/* Width, height, reference frames and bit depth have no range. */
		if (u32[i].bad != UINT32_MAX)
			EXPECT_EQ(INVALID, aclvdecSetChannelDescParam(c, u32[i].type, sizeof(v), &v));
		v = 0xabababab;
		n = 0;
		EXPECT_EQ(ACL_SUCCESS, aclvdecGetChannelDescParam(c, u32[i].type, sizeof(v), &n, &v));
		EXPECT_EQ(u32[i].good, v);
		EXPECT_EQ(sizeof(uint32_t), n);
	}
	/* The typed getters see what the parameter calls set. */
	EXPECT_EQ(1, aclvdecGetChannelDescOutMode(c));
	EXPECT_EQ(15, aclvdecGetChannelDescChannelId(c));
	EXPECT_EQ(H264_BASELINE_LEVEL, aclvdecGetChannelDescEnType(c));
	EXPECT_EQ(PIXEL_FORMAT_YVU_SEMIPLANAR_420, aclvdecGetChannelDescOutPicFormat(c));
	EXPECT_EQ(4096, aclvdecGetChannelDescOutPicWidth(c));
	EXPECT_EQ(2160, aclvdecGetChannelDescOutPicHeight(c));
	EXPECT_EQ(16, aclvdecGetChannelDescRefFrameNum(c));
	EXPECT_EQ(1, aclvdecGetChannelDescBitDepth(c));

	EXPECT_EQ(ACL_SUCCESS, aclvdecSetChannelDescParam(c, ACL_VDEC_THREAD_ID_UINT64, sizeof(tid), &tid));
	EXPECT_EQ(ACL_SUCCESS, aclvdecSetChannelDescParam(c, ACL_VDEC_CALLBACK_PTR, sizeof(cb), &cb));
	EXPECT_EQ(42, aclvdecGetChannelDescThreadId(c));
	EXPECT_EQ(&vdec_cb, aclvdecGetChannelDescCallback(c));
	EXPECT_EQ(ACL_SUCCESS,
		  aclvdecGetChannelDescParam(c, ACL_VDEC_THREAD_ID_UINT64, sizeof(got_tid), &n, &got_tid));
	EXPECT_EQ(42, got_tid);
	EXPECT_EQ(sizeof(uint64_t), n);
	EXPECT_EQ(ACL_SUCCESS,
		  aclvdecGetChannelDescParam(c, ACL_VDEC_CALLBACK_PTR, sizeof(got_cb), &n, &got_cb));
	EXPECT_EQ(&vdec_cb, got_cb);
	cb = NULL;
	EXPECT_EQ(INVALID, aclvdecSetChannelDescParam(c, ACL_VDEC_CALLBACK_PTR, sizeof(cb), &cb));
	EXPECT_EQ(INVALID, aclvdecSetChannelDescParam(c, ACL_VDEC_THREAD_ID_UINT64, 4, &tid));
	EXPECT_EQ(INVALID, aclvdecSetChannelDescParam(c, ACL_VDEC_OUT_MODE_UINT32, 4, NULL));
	EXPECT_EQ(INVALID, aclvdecSetChannelDescParam(c, (aclvdecChannelDescParamType)11, 4, &v));
	EXPECT_EQ(INVALID, aclvdecGetChannelDescParam(c, (aclvdecChannelDescParamType)11, 4, &n, &v));
	EXPECT_EQ(INVALID, aclvdecGetChannelDescParam(c, ACL_VDEC_THREAD_ID_UINT64, 4, &n, &got_tid));
	EXPECT_EQ(ACL_SUCCESS, aclvdecDestroyChannelDesc(c));
}

/* --------------------------------------------------------------- VENC -- */

TEST(venc_desc)
{
	aclvencChannelDesc *c = aclvencCreateChannelDesc();
	aclvdecChannelDesc *vdec = aclvdecCreateChannelDesc();
	aclvencChannelDesc *wrong = (aclvencChannelDesc *)vdec;
	static char buf[64];

	ASSERT_NE(NULL, c);
	ASSERT_NE(NULL, vdec);
	EXPECT_EQ(0, aclvencGetChannelDescThreadId(c));
	EXPECT_EQ(NULL, aclvencGetChannelDescCallback(c));
	EXPECT_EQ(H265_MAIN_LEVEL, aclvencGetChannelDescEnType(c));
	EXPECT_EQ(PIXEL_FORMAT_YUV_SEMIPLANAR_420, aclvencGetChannelDescPicFormat(c));
	EXPECT_EQ(0, aclvencGetChannelDescPicWidth(c));
	EXPECT_EQ(0, aclvencGetChannelDescPicHeight(c));
	EXPECT_EQ(0, aclvencGetChannelDescKeyFrameInterval(c));
	EXPECT_EQ(NULL, aclvencGetChannelDescBufAddr(c));
	EXPECT_EQ(0, aclvencGetChannelDescBufSize(c));
	EXPECT_EQ(0, aclvencGetChannelDescRcMode(c));
	EXPECT_EQ(0, aclvencGetChannelDescSrcRate(c));
	EXPECT_EQ(0, aclvencGetChannelDescMaxBitRate(c));
	EXPECT_EQ(0, aclvencGetChannelDescChannelId(c));

	EXPECT_EQ(ACL_SUCCESS, aclvencSetChannelDescThreadId(c, 9));
	EXPECT_EQ(ACL_SUCCESS, aclvencSetChannelDescCallback(c, venc_cb));
	EXPECT_EQ(ACL_SUCCESS, aclvencSetChannelDescEnType(c, H264_HIGH_LEVEL));
	EXPECT_EQ(ACL_SUCCESS, aclvencSetChannelDescPicFormat(c, PIXEL_FORMAT_YVU_SEMIPLANAR_420));
	EXPECT_EQ(ACL_SUCCESS, aclvencSetChannelDescPicWidth(c, 1280));
	EXPECT_EQ(ACL_SUCCESS, aclvencSetChannelDescPicHeight(c, 720));
	EXPECT_EQ(ACL_SUCCESS, aclvencSetChannelDescKeyFrameInterval(c, 16));
	EXPECT_EQ(ACL_SUCCESS, aclvencSetChannelDescBufAddr(c, buf));
	EXPECT_EQ(ACL_SUCCESS, aclvencSetChannelDescBufSize(c, 64));
	EXPECT_EQ(ACL_SUCCESS, aclvencSetChannelDescRcMode(c, 2));
	EXPECT_EQ(ACL_SUCCESS, aclvencSetChannelDescSrcRate(c, 30));
	EXPECT_EQ(ACL_SUCCESS, aclvencSetChannelDescMaxBitRate(c, 2000));
	EXPECT_EQ(9, aclvencGetChannelDescThreadId(c));
	EXPECT_EQ(&venc_cb, aclvencGetChannelDescCallback(c));
	EXPECT_EQ(H264_HIGH_LEVEL, aclvencGetChannelDescEnType(c));
	EXPECT_EQ(PIXEL_FORMAT_YVU_SEMIPLANAR_420, aclvencGetChannelDescPicFormat(c));
	EXPECT_EQ(1280, aclvencGetChannelDescPicWidth(c));
	EXPECT_EQ(720, aclvencGetChannelDescPicHeight(c));
	EXPECT_EQ(16, aclvencGetChannelDescKeyFrameInterval(c));
	EXPECT_EQ((void *)buf, aclvencGetChannelDescBufAddr(c));
	EXPECT_EQ(64, aclvencGetChannelDescBufSize(c));
	EXPECT_EQ(2, aclvencGetChannelDescRcMode(c));
	EXPECT_EQ(30, aclvencGetChannelDescSrcRate(c));
	EXPECT_EQ(2000, aclvencGetChannelDescMaxBitRate(c));

	EXPECT_EQ(INVALID, aclvencSetChannelDescCallback(c, NULL));
	EXPECT_EQ(INVALID, aclvencSetChannelDescEnType(c, (acldvppStreamFormat)4));
	EXPECT_EQ(INVALID, aclvencSetChannelDescPicFormat(c, PIXEL_FORMAT_RGB_888));
	EXPECT_TRUE(errmsg_has("aclvencSetChannelDescPicFormat", "picFormat 12"));
	EXPECT_EQ(INVALID, aclvencSetChannelDescRcMode(c, 3));
	EXPECT_TRUE(errmsg_has("aclvencSetChannelDescRcMode", "rcMode 3"));
	EXPECT_EQ(&venc_cb, aclvencGetChannelDescCallback(c));
	EXPECT_EQ(H264_HIGH_LEVEL, aclvencGetChannelDescEnType(c));
	EXPECT_EQ(PIXEL_FORMAT_YVU_SEMIPLANAR_420, aclvencGetChannelDescPicFormat(c));
	EXPECT_EQ(2, aclvencGetChannelDescRcMode(c));

	EXPECT_EQ(INVALID, aclvencSetChannelDescThreadId(wrong, 1));
	EXPECT_EQ(INVALID, aclvencSetChannelDescCallback(NULL, venc_cb));
	EXPECT_EQ(INVALID, aclvencSetChannelDescEnType(wrong, H265_MAIN_LEVEL));
	EXPECT_EQ(INVALID, aclvencSetChannelDescPicFormat(NULL, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
	EXPECT_EQ(INVALID, aclvencSetChannelDescPicWidth(wrong, 1));
	EXPECT_EQ(INVALID, aclvencSetChannelDescPicHeight(NULL, 1));
	EXPECT_EQ(INVALID, aclvencSetChannelDescKeyFrameInterval(wrong, 1));
	EXPECT_EQ(INVALID, aclvencSetChannelDescBufAddr(NULL, buf));
	EXPECT_EQ(INVALID, aclvencSetChannelDescBufSize(wrong, 1));
	EXPECT_EQ(INVALID, aclvencSetChannelDescRcMode(NULL, 1));
	EXPECT_EQ(INVALID, aclvencSetChannelDescSrcRate(wrong, 1));
	EXPECT_EQ(INVALID, aclvencSetChannelDescMaxBitRate(NULL, 1));
	EXPECT_EQ(0, aclvencGetChannelDescThreadId(wrong));
	EXPECT_EQ(NULL, aclvencGetChannelDescCallback(NULL));
	EXPECT_EQ(H265_MAIN_LEVEL, aclvencGetChannelDescEnType(wrong));
	EXPECT_EQ(PIXEL_FORMAT_YUV_SEMIPLANAR_420, aclvencGetChannelDescPicFormat(NULL));
	EXPECT_EQ(0, aclvencGetChannelDescPicWidth(wrong));
	EXPECT_EQ(0, aclvencGetChannelDescPicHeight(NULL));
	EXPECT_EQ(0, aclvencGetChannelDescKeyFrameInterval(wrong));
	EXPECT_EQ(NULL, aclvencGetChannelDescBufAddr(NULL));
	EXPECT_EQ(0, aclvencGetChannelDescBufSize(wrong));
	EXPECT_EQ(0, aclvencGetChannelDescRcMode(NULL));
	EXPECT_EQ(0, aclvencGetChannelDescSrcRate(wrong));
	EXPECT_EQ(0, aclvencGetChannelDescMaxBitRate(NULL));
	EXPECT_EQ(0, aclvencGetChannelDescChannelId(wrong));
	EXPECT_EQ(INVALID, aclvencDestroyChannelDesc(wrong));
	EXPECT_EQ(INVALID, aclvencDestroyChannelDesc(NULL));
	EXPECT_EQ(ACL_SUCCESS, aclvencDestroyChannelDesc(c));
	EXPECT_EQ(ACL_SUCCESS, aclvdecDestroyChannelDesc(vdec));
}

TEST(venc_desc_params)
{
	aclvencChannelDesc *c = aclvencCreateChannelDesc();
	aclvencCallback cb = venc_cb, got_cb = NULL;
	void *addr = &cb, *got_addr = NULL;
	uint64_t tid = 5, got_tid = 0;
	uint32_t v;
	size_t n = 0, i;
	static const struct {
		aclvencChannelDescParamType type;
		uint32_t good, bad;
	} u32[] = {
		{ ACL_VENC_PIXEL_FORMAT_UINT32, PIXEL_FORMAT_YVU_SEMIPLANAR_420, PIXEL_FORMAT_YUV_400 },
		{ ACL_VENC_ENCODE_TYPE_UINT32, H264_MAIN_LEVEL, 4 },
		{ ACL_VENC_PIC_WIDTH_UINT32, 1920, UINT32_MAX },
		{ ACL_VENC_PIC_HEIGHT_UINT32, 1080, UINT32_MAX },
		{ ACL_VENC_KEY_FRAME_INTERVAL_UINT32, 30, UINT32_MAX },
		{ ACL_VENC_BUF_SIZE_UINT32, 1 << 20, UINT32_MAX },
		{ ACL_VENC_RC_MODE_UINT32, 1, 3 },
		{ ACL_VENC_SRC_RATE_UINT32, 25, UINT32_MAX },
		{ ACL_VENC_MAX_BITRATE_UINT32, 10000, UINT32_MAX },
		{ ACL_VENC_MAX_IP_PROP_UINT32, 40, UINT32_MAX },
	};

	ASSERT_NE(NULL, c);
	for (i = 0; i < sizeof(u32) / sizeof(u32[0]); i++) {
		v = u32[i].good;
		EXPECT_EQ(ACL_SUCCESS, aclvencSetChannelDescParam(c, u32[i].type, sizeof(v), &v));
		v = u32[i].bad;
		if (u32[i].bad != UINT32_MAX)
			EXPECT_EQ(INVALID, aclvencSetChannelDescParam(c, u32[i].type, sizeof(v), &v));
		v = 0;
		EXPECT_EQ(ACL_SUCCESS, aclvencGetChannelDescParam(c, u32[i].type, sizeof(v), &n, &v));
		EXPECT_EQ(u32[i].good, v);
		EXPECT_EQ(sizeof(uint32_t), n);
	}
	EXPECT_EQ(PIXEL_FORMAT_YVU_SEMIPLANAR_420, aclvencGetChannelDescPicFormat(c));
	EXPECT_EQ(1920, aclvencGetChannelDescPicWidth(c));
	EXPECT_EQ(1 << 20, aclvencGetChannelDescBufSize(c));
	EXPECT_EQ(10000, aclvencGetChannelDescMaxBitRate(c));
	EXPECT_EQ(ACL_SUCCESS, aclvencSetChannelDescParam(c, ACL_VENC_THREAD_ID_UINT64, sizeof(tid), &tid));
	EXPECT_EQ(ACL_SUCCESS, aclvencSetChannelDescParam(c, ACL_VENC_CALLBACK_PTR, sizeof(cb), &cb));
	EXPECT_EQ(ACL_SUCCESS, aclvencSetChannelDescParam(c, ACL_VENC_BUF_ADDR_PTR, sizeof(addr), &addr));
	EXPECT_EQ(ACL_SUCCESS,
		  aclvencGetChannelDescParam(c, ACL_VENC_THREAD_ID_UINT64, sizeof(got_tid), &n, &got_tid));
	EXPECT_EQ(5, got_tid);
	EXPECT_EQ(ACL_SUCCESS,
		  aclvencGetChannelDescParam(c, ACL_VENC_CALLBACK_PTR, sizeof(got_cb), &n, &got_cb));
	EXPECT_EQ(&venc_cb, got_cb);
	EXPECT_EQ(ACL_SUCCESS,
		  aclvencGetChannelDescParam(c, ACL_VENC_BUF_ADDR_PTR, sizeof(got_addr), &n, &got_addr));
	EXPECT_EQ(addr, got_addr);
	EXPECT_EQ(sizeof(void *), n);
	EXPECT_EQ(addr, aclvencGetChannelDescBufAddr(c));
	cb = NULL;
	EXPECT_EQ(INVALID, aclvencSetChannelDescParam(c, ACL_VENC_CALLBACK_PTR, sizeof(cb), &cb));
	EXPECT_EQ(INVALID, aclvencSetChannelDescParam(c, ACL_VENC_PIC_WIDTH_UINT32, 8, &tid));
	EXPECT_EQ(INVALID, aclvencSetChannelDescParam(c, ACL_VENC_PIC_WIDTH_UINT32, 4, NULL));
	EXPECT_EQ(INVALID, aclvencSetChannelDescParam(c, (aclvencChannelDescParamType)13, 4, &v));
	EXPECT_EQ(INVALID, aclvencGetChannelDescParam(c, (aclvencChannelDescParamType)13, 4, &n, &v));
	EXPECT_EQ(INVALID, aclvencGetChannelDescParam(c, ACL_VENC_BUF_ADDR_PTR, 4, &n, &v));
	EXPECT_EQ(INVALID, aclvencGetChannelDescParam(NULL, ACL_VENC_PIC_WIDTH_UINT32, 4, &n, &v));
	EXPECT_EQ(INVALID, aclvencSetChannelDescParam(NULL, ACL_VENC_PIC_WIDTH_UINT32, 4, &v));
	EXPECT_EQ(ACL_SUCCESS, aclvencDestroyChannelDesc(c));
}

TEST(venc_frame_config)
{
	aclvencFrameConfig *f = aclvencCreateFrameConfig();
	aclvdecFrameConfig *vf = aclvdecCreateFrameConfig();
	aclvencFrameConfig *wrong = (aclvencFrameConfig *)vf;

	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, vf);
	EXPECT_EQ(0, aclvencGetFrameConfigForceIFrame(f));
	EXPECT_EQ(0, aclvencGetFrameConfigEos(f));
	EXPECT_EQ(ACL_SUCCESS, aclvencSetFrameConfigForceIFrame(f, 3));
	EXPECT_EQ(ACL_SUCCESS, aclvencSetFrameConfigEos(f, 200));
	EXPECT_EQ(1, aclvencGetFrameConfigForceIFrame(f));
	EXPECT_EQ(1, aclvencGetFrameConfigEos(f));
	EXPECT_EQ(ACL_SUCCESS, aclvencSetFrameConfigEos(f, 0));
	EXPECT_EQ(0, aclvencGetFrameConfigEos(f));
	EXPECT_EQ(INVALID, aclvencSetFrameConfigForceIFrame(NULL, 1));
	EXPECT_EQ(INVALID, aclvencSetFrameConfigEos(wrong, 1));
	EXPECT_EQ(0, aclvencGetFrameConfigForceIFrame(wrong));
	EXPECT_EQ(0, aclvencGetFrameConfigEos(NULL));
	EXPECT_EQ(INVALID, aclvencDestroyFrameConfig(wrong));
	EXPECT_EQ(INVALID, aclvencDestroyFrameConfig(NULL));
	EXPECT_EQ(INVALID, aclvdecDestroyFrameConfig((aclvdecFrameConfig *)f));
	EXPECT_EQ(ACL_SUCCESS, aclvencDestroyFrameConfig(f));
	EXPECT_EQ(ACL_SUCCESS, aclvdecDestroyFrameConfig(vf));
}

/* -------------------------------------------------- the samples' order -- */

/*
 * As CANN's resize / crop samples do it: a channel description, input and
 * output picture descriptions filled for an NV12 1920x1080 decode result
 * and a 416x416 model input, a resize config and a crop area; every value
 * read back; destroyed input, output, config, channel description.
 */
TEST(sample_resize_sequence)
{
	static char in_buf[64], out_buf[64];
	uint32_t in_ws = (1920 + 15) / 16 * 16, in_hs = (1080 + 1) / 2 * 2;
	uint32_t out_ws = (416 + 15) / 16 * 16, out_hs = (416 + 1) / 2 * 2;
	acldvppChannelDesc *chan = acldvppCreateChannelDesc();
	acldvppPicDesc *in = acldvppCreatePicDesc();
	acldvppPicDesc *out = acldvppCreatePicDesc();
	acldvppResizeConfig *rc = acldvppCreateResizeConfig();
	acldvppRoiConfig *crop = acldvppCreateRoiConfig(0, 415, 0, 415);

	ASSERT_NE(NULL, chan);
	ASSERT_NE(NULL, in);
	ASSERT_NE(NULL, out);
	ASSERT_NE(NULL, rc);
	ASSERT_NE(NULL, crop);
	ASSERT_EQ(ACL_SUCCESS, acldvppSetPicDescData(in, in_buf));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetPicDescFormat(in, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetPicDescWidth(in, 1920));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetPicDescHeight(in, 1080));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetPicDescWidthStride(in, in_ws));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetPicDescHeightStride(in, in_hs));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetPicDescSize(in, in_ws * in_hs * 3 / 2));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetPicDescData(out, out_buf));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetPicDescFormat(out, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetPicDescWidth(out, 416));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetPicDescHeight(out, 416));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetPicDescWidthStride(out, out_ws));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetPicDescHeightStride(out, out_hs));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetPicDescSize(out, out_ws * out_hs * 3 / 2));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetResizeConfigInterpolation(rc, 1));

	EXPECT_EQ((void *)in_buf, acldvppGetPicDescData(in));
	EXPECT_EQ(1920, acldvppGetPicDescWidthStride(in));
	EXPECT_EQ(1080, acldvppGetPicDescHeightStride(in));
	EXPECT_EQ(1920 * 1080 * 3 / 2, acldvppGetPicDescSize(in));
	EXPECT_EQ((void *)out_buf, acldvppGetPicDescData(out));
	EXPECT_EQ(416, acldvppGetPicDescWidthStride(out));
	EXPECT_EQ(416 * 416 * 3 / 2, acldvppGetPicDescSize(out));
	EXPECT_EQ(PIXEL_FORMAT_YUV_SEMIPLANAR_420, acldvppGetPicDescFormat(out));
	EXPECT_EQ(1, acldvppGetResizeConfigInterpolation(rc));
	EXPECT_EQ(0, acldvppGetChannelDescChannelId(chan));

	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyRoiConfig(crop));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyPicDesc(in));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyPicDesc(out));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyResizeConfig(rc));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyChannelDesc(chan));
}

/* The VDEC sample's description: channel 0, callback, H.264 main, NV12 out. */
TEST(sample_vdec_sequence)
{
	static char frame[128], pic[128];
	aclvdecChannelDesc *vdec = aclvdecCreateChannelDesc();
	acldvppStreamDesc *in = acldvppCreateStreamDesc();
	acldvppPicDesc *out = acldvppCreatePicDesc();
	aclvdecFrameConfig *cfg = aclvdecCreateFrameConfig();

	ASSERT_NE(NULL, vdec);
	ASSERT_NE(NULL, in);
	ASSERT_NE(NULL, out);
	ASSERT_NE(NULL, cfg);
	ASSERT_EQ(ACL_SUCCESS, aclvdecSetChannelDescChannelId(vdec, 0));
	ASSERT_EQ(ACL_SUCCESS, aclvdecSetChannelDescThreadId(vdec, 1234));
	ASSERT_EQ(ACL_SUCCESS, aclvdecSetChannelDescCallback(vdec, vdec_cb));
	ASSERT_EQ(ACL_SUCCESS, aclvdecSetChannelDescEnType(vdec, H264_MAIN_LEVEL));
	ASSERT_EQ(ACL_SUCCESS, aclvdecSetChannelDescOutPicFormat(vdec, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetStreamDescData(in, frame));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetStreamDescSize(in, sizeof(frame)));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetPicDescData(out, pic));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetPicDescSize(out, sizeof(pic)));
	EXPECT_EQ(1234, aclvdecGetChannelDescThreadId(vdec));
	EXPECT_EQ(&vdec_cb, aclvdecGetChannelDescCallback(vdec));
	EXPECT_EQ(H264_MAIN_LEVEL, aclvdecGetChannelDescEnType(vdec));
	EXPECT_EQ((void *)frame, acldvppGetStreamDescData(in));
	EXPECT_EQ(sizeof(frame), acldvppGetStreamDescSize(in));
	EXPECT_EQ(ACL_SUCCESS, aclvdecDestroyFrameConfig(cfg));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyStreamDesc(in));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyPicDesc(out));
	EXPECT_EQ(ACL_SUCCESS, aclvdecDestroyChannelDesc(vdec));
}

/* None of the description calls needs aclInit: this binary never calls it. */
TEST(no_init_needed)
{
	acldvppPicDesc *p = acldvppCreatePicDesc();

	ASSERT_NE(NULL, p);
	EXPECT_EQ(ACL_SUCCESS, acldvppSetPicDescWidth(p, 2));
	EXPECT_EQ(ACL_SUCCESS, acldvppDestroyPicDesc(p));
}

TEST_HARNESS_MAIN
