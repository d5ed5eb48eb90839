// SPDX-License-Identifier: MIT
/*
 * Host tests of the ACL helpers that need no device: float16 conversions
 * (every half value, rounding and saturation), aclDataTypeSize,
 * aclDataBuffer, aclAppLog, the CANN attribute queries and aclTensorDesc.
 * They link the public library only, as a CANN program does.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_base_mdl.h"
#include "kselftest_harness.h"

/* Reference decode: IEEE for finite halves, CANN's rule for exponent 31. */
static float half_ref(uint16_t h)
{
	int e = (h >> 10) & 0x1f, m = h & 0x3ff;
	float v;

	if (e == 31)
		v = ldexpf(1.0f + m / 1024.0f, 16);
	else {
		_Float16 f;

		memcpy(&f, &h, sizeof(h));
		v = (float)f;
	}
	return (h & 0x8000) && e == 31 ? -v : v;
}

TEST(float16_to_float_every_value)
{
	unsigned int h, bad = 0;

	for (h = 0; h <= 0xffff; h++) {
		float got = aclFloat16ToFloat((aclFloat16)h);
		float want = half_ref((uint16_t)h);

		if (memcmp(&got, &want, sizeof(got)) && !(got == 0 && want == 0))
			bad++;
	}
	EXPECT_EQ(0, bad);
	EXPECT_EQ(65536.0f, aclFloat16ToFloat(0x7c00));
	EXPECT_EQ(-65536.0f, aclFloat16ToFloat(0xfc00));
	EXPECT_EQ(98304.0f, aclFloat16ToFloat(0x7e00));
	EXPECT_EQ(1.0f, aclFloat16ToFloat(0x3c00));
	EXPECT_EQ(ldexpf(1.0f, -24), aclFloat16ToFloat(0x0001));
	EXPECT_TRUE(signbit(aclFloat16ToFloat(0x8000)));
}

TEST(float_to_float16_round_trips_every_finite_half)
{
	unsigned int h, bad = 0;

	for (h = 0; h <= 0xffff; h++) {
		if (((h >> 10) & 0x1f) == 31)
			continue;
		if (aclFloatToFloat16(aclFloat16ToFloat((aclFloat16)h)) != h)
			bad++;
	}
	EXPECT_EQ(0, bad);
}

/* Against the compiler's IEEE conversion, saturating where it gives Inf. */
TEST(float_to_float16_matches_ieee_rounding)
{
	unsigned int i, bad = 0;
	uint32_t x = 12345;

	for (i = 0; i < 2000000; i++) {
		uint32_t bits;
		float f;
		_Float16 r;
		uint16_t want;

		x = x * 1664525u + 1013904223u;
		/* exponents around the half range, random mantissas */
		bits = (x & 0x807fffffu) | ((uint32_t)(100 + (x >> 8) % 60) << 23);
		memcpy(&f, &bits, sizeof(f));
		r = (_Float16)f;
		memcpy(&want, &r, sizeof(want));
		if ((want & 0x7fff) == 0x7c00)
			want = (want & 0x8000) | 0x7bff;
		if (aclFloatToFloat16(f) != want)
			bad++;
	}
	EXPECT_EQ(0, bad);
}

TEST(float_to_float16_ties_and_saturation)
{
	/* 1 + 2^-11 is halfway between 1 and the next half: ties to even */
	EXPECT_EQ(0x3c00, aclFloatToFloat16(1.0f + ldexpf(1.0f, -11)));
	EXPECT_EQ(0x3c02, aclFloatToFloat16(1.0f + 3 * ldexpf(1.0f, -11)));
	/* halfway between the two smallest subnormals, and below the first */
	EXPECT_EQ(0x0002, aclFloatToFloat16(ldexpf(3.0f, -25)));
	EXPECT_EQ(0x0000, aclFloatToFloat16(ldexpf(1.0f, -25)));
	EXPECT_EQ(0x0001, aclFloatToFloat16(ldexpf(1.5f, -25)));
	EXPECT_EQ(0x0400, aclFloatToFloat16(ldexpf(1023.5f, -24) + ldexpf(1.0f, -40)));
	EXPECT_EQ(0x7bff, aclFloatToFloat16(65504.0f));
	EXPECT_EQ(0x7bff, aclFloatToFloat16(65520.0f));
	EXPECT_EQ(0x7bff, aclFloatToFloat16(1e10f));
	EXPECT_EQ(0xfbff, aclFloatToFloat16(-1e10f));
	EXPECT_EQ(0x7bff, aclFloatToFloat16(INFINITY));
	EXPECT_EQ(0xfbff, aclFloatToFloat16(-INFINITY));
	EXPECT_EQ(0x7bff, aclFloatToFloat16(NAN));
	EXPECT_EQ(0x8000, aclFloatToFloat16(-0.0f));
}

TEST(data_type_size_follows_cann)
{
	EXPECT_EQ(4, aclDataTypeSize(ACL_FLOAT));
	EXPECT_EQ(2, aclDataTypeSize(ACL_FLOAT16));
	EXPECT_EQ(2, aclDataTypeSize(ACL_BF16));
	EXPECT_EQ(1, aclDataTypeSize(ACL_INT8));
	EXPECT_EQ(1, aclDataTypeSize(ACL_BOOL));
	EXPECT_EQ(2, aclDataTypeSize(ACL_INT16));
	EXPECT_EQ(2, aclDataTypeSize(ACL_UINT16));
	EXPECT_EQ(4, aclDataTypeSize(ACL_UINT32));
	EXPECT_EQ(8, aclDataTypeSize(ACL_INT64));
	EXPECT_EQ(8, aclDataTypeSize(ACL_DOUBLE));
	EXPECT_EQ(8, aclDataTypeSize(ACL_COMPLEX64));
	EXPECT_EQ(16, aclDataTypeSize(ACL_COMPLEX128));
	EXPECT_EQ(4, aclDataTypeSize(ACL_COMPLEX32));
	EXPECT_EQ(1, aclDataTypeSize(ACL_INT4));
	EXPECT_EQ(1, aclDataTypeSize(ACL_UINT1));
	EXPECT_EQ(1, aclDataTypeSize(ACL_FLOAT8_E4M3FN));
	EXPECT_EQ(0, aclDataTypeSize(ACL_STRING));
	EXPECT_EQ(0, aclDataTypeSize(ACL_DT_UNDEFINED));
	EXPECT_EQ(8, aclDataTypeSize((aclDataType)99));
	EXPECT_EQ(8, aclDataTypeSize(ACL_FLOAT4_E2M1));
}

TEST(data_buffer_wraps_without_owning)
{
	char mem[16];
	aclDataBuffer *b = aclCreateDataBuffer(mem, sizeof(mem));

	ASSERT_NE(NULL, b);
	EXPECT_EQ((void *)mem, aclGetDataBufferAddr(b));
	EXPECT_EQ(16, aclGetDataBufferSizeV2(b));
	EXPECT_EQ(16, aclGetDataBufferSize(b));
	EXPECT_EQ(ACL_SUCCESS, aclUpdateDataBuffer(b, mem + 8, (1ULL << 32) + 5));
	EXPECT_EQ((void *)(mem + 8), aclGetDataBufferAddr(b));
	EXPECT_EQ((1ULL << 32) + 5, aclGetDataBufferSizeV2(b));
	EXPECT_EQ(5, aclGetDataBufferSize(b));	/* truncated, as on CANN */
	EXPECT_EQ(ACL_SUCCESS, aclDestroyDataBuffer(b));
	mem[0] = 1;				/* still ours */

	b = aclCreateDataBuffer(NULL, 0);	/* allowed */
	ASSERT_NE(NULL, b);
	EXPECT_EQ(NULL, aclGetDataBufferAddr(b));
	EXPECT_EQ(ACL_SUCCESS, aclDestroyDataBuffer(b));
}

TEST(data_buffer_null_arguments)
{
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclDestroyDataBuffer(NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclUpdateDataBuffer(NULL, NULL, 0));
	EXPECT_EQ(NULL, aclGetDataBufferAddr(NULL));
	EXPECT_EQ(0, aclGetDataBufferSize(NULL));
	EXPECT_EQ(0, aclGetDataBufferSizeV2(NULL));
}

/* Run fn with stdout going to a file; return what it printed. */
static char *capture_stdout(void (*fn)(void))
{
	static char buf[8192];
	FILE *f = tmpfile();
	int saved = dup(1);
	size_t n;

	fflush(stdout);
	dup2(fileno(f), 1);
	fn();
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static void log_short(void)
{
	ACL_APP_LOG(ACL_WARNING, "answer %d", 42);
	ACL_APP_LOG(ACL_DEBUG, "hidden at level %d", 2);
}

static void log_long(void)
{
	char big[3000];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	aclAppLog(ACL_ERROR, "fn", "/a/b/file.c", 7, "%s", big);
}

TEST(app_log_prints_under_the_log_switches)
{
	char *out;

	setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "1", 1);
	setenv("ASCEND_GLOBAL_LOG_LEVEL", "2", 1);
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	out = capture_stdout(log_short);
	EXPECT_NE(NULL, strstr(out, "[WARNING]"));
	EXPECT_NE(NULL, strstr(out, "acl_helpers_test.c:"));
	EXPECT_NE(NULL, strstr(out, "answer 42"));
	EXPECT_EQ(NULL, strstr(out, "hidden"));

	out = capture_stdout(log_long);
	EXPECT_NE(NULL, strstr(out, "[ERROR]"));
	EXPECT_NE(NULL, strstr(out, "file.c:7"));
	EXPECT_EQ(NULL, strstr(out, "/a/b/"));
	EXPECT_NE(NULL, strstr(out, "x...[truncated]\n"));
	/* 1023 bytes of text, the mark included */
	EXPECT_EQ(1023 - strlen("...[truncated]"),
		  strspn(strstr(out, "xxx"), "x"));
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

TEST(app_log_silent_by_default)
{
	unsetenv("ASCEND_SLOG_PRINT_TO_STDOUT");
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	EXPECT_STREQ("", capture_stdout(log_short));
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

TEST(cann_attributes)
{
	const aclCannAttr *list = NULL;
	size_t n = 0, i;
	int32_t v = -1;
	int bf16 = 0;

	ASSERT_EQ(ACL_SUCCESS, aclGetCannAttributeList(&list, &n));
	ASSERT_EQ(2, n);
	for (i = 0; i < n; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclGetCannAttribute(list[i], &v));
		EXPECT_EQ(1, v);
		bf16 |= list[i] == ACL_CANN_ATTR_BF16;
	}
	EXPECT_TRUE(bf16);
	ASSERT_EQ(ACL_SUCCESS, aclGetCannAttribute(ACL_CANN_ATTR_JIT_COMPILE, &v));
	EXPECT_EQ(0, v);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclGetCannAttribute(ACL_CANN_ATTR_UNDEFINED, &v));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclGetCannAttribute((aclCannAttr)7, &v));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclGetCannAttribute(ACL_CANN_ATTR_BF16, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclGetCannAttributeList(NULL, &n));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclGetCannAttributeList(&list, NULL));
}

TEST(tensor_desc_describes_a_tensor)
{
	int64_t dims[] = { 2, 3, 4, 5 }, d = 0, r[2];
	aclTensorDesc *t = aclCreateTensorDesc(ACL_FLOAT16, 4, dims, ACL_FORMAT_NCHW);

	ASSERT_NE(NULL, t);
	EXPECT_EQ(ACL_FLOAT16, aclGetTensorDescType(t));
	EXPECT_EQ(ACL_FORMAT_NCHW, aclGetTensorDescFormat(t));
	EXPECT_EQ(4, aclGetTensorDescNumDims(t));
	EXPECT_EQ(120, aclGetTensorDescElementCount(t));
	EXPECT_EQ(240, aclGetTensorDescSize(t));
	EXPECT_EQ(4, aclGetTensorDescDim(t, 2));
	EXPECT_EQ(-1, aclGetTensorDescDim(t, 4));
	EXPECT_EQ(ACL_SUCCESS, aclGetTensorDescDimV2(t, 3, &d));
	EXPECT_EQ(5, d);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclGetTensorDescDimV2(t, 4, &d));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclGetTensorDescDimV2(t, 0, NULL));
	EXPECT_EQ(ACL_SUCCESS, aclGetTensorDescDimRange(t, 1, 2, r));
	EXPECT_EQ(3, r[0]);
	EXPECT_EQ(3, r[1]);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclGetTensorDescDimRange(t, 1, 1, r));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclGetTensorDescDimRange(t, 9, 2, r));
	EXPECT_STREQ("", aclGetTensorDescName(t));
	aclSetTensorDescName(t, "input0");
	EXPECT_STREQ("input0", aclGetTensorDescName(t));
	aclSetTensorDescName(t, NULL);
	EXPECT_STREQ("", aclGetTensorDescName(t));
	EXPECT_EQ(NULL, aclGetTensorDescAddress(t));
	EXPECT_EQ(t, aclGetTensorDescByIndex(t, 0));
	aclDestroyTensorDesc(t);
}

TEST(tensor_desc_dynamic_shapes)
{
	int64_t dims[] = { -1, 3 }, unknown[] = { -2 }, r[2];
	int64_t range[2][2] = { { 1, 8 }, { 3, 3 } }, bad[1][2] = { { 5, 2 } };
	int64_t vr[1][2] = { { 0, 255 } };
	aclTensorDesc *t = aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND);

	ASSERT_NE(NULL, t);
	EXPECT_EQ(0, aclGetTensorDescElementCount(t));
	EXPECT_EQ(0, aclGetTensorDescSize(t));
	EXPECT_EQ(ACL_SUCCESS, aclGetTensorDescDimRange(t, 0, 2, r));
	EXPECT_EQ(0, r[0]);
	EXPECT_EQ(-1, r[1]);
	EXPECT_EQ(ACL_SUCCESS, aclSetTensorShapeRange(t, 2, range));
	EXPECT_EQ(ACL_SUCCESS, aclGetTensorDescDimRange(t, 0, 2, r));
	EXPECT_EQ(1, r[0]);
	EXPECT_EQ(8, r[1]);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclSetTensorShapeRange(t, 1, bad));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclSetTensorShapeRange(t, 129, range));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclSetTensorShapeRange(NULL, 2, range));
	EXPECT_EQ(ACL_SUCCESS, aclSetTensorValueRange(t, 1, vr));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclSetTensorValueRange(t, 1, NULL));
	EXPECT_EQ(ACL_SUCCESS, aclSetTensorShape(t, 1, unknown));
	EXPECT_EQ((size_t)ACL_UNKNOWN_RANK, aclGetTensorDescNumDims(t));
	EXPECT_EQ(ACL_SUCCESS, aclSetTensorShape(t, 0, NULL));	/* scalar */
	EXPECT_EQ(0, aclGetTensorDescNumDims(t));
	EXPECT_EQ(1, aclGetTensorDescElementCount(t));
	EXPECT_EQ(4, aclGetTensorDescSize(t));
	aclDestroyTensorDesc(t);
}

TEST(tensor_desc_setters_and_rejections)
{
	int64_t dims[] = { 4, 6 }, neg[] = { -3 }, big[] = { 1LL << 62, 8 };
	uint8_t data[4] = { 1, 2, 3, 4 };
	aclTensorDesc *t = aclCreateTensorDesc(ACL_INT8, 2, dims, ACL_FORMAT_ND);

	ASSERT_NE(NULL, t);
	EXPECT_EQ(ACL_SUCCESS, aclSetTensorFormat(t, ACL_FORMAT_NCHW));
	EXPECT_EQ(ACL_FORMAT_NCHW, aclGetTensorDescFormat(t));
	EXPECT_EQ(ACL_SUCCESS, aclSetTensorOriginFormat(t, ACL_FORMAT_NHWC));
	EXPECT_EQ(ACL_SUCCESS, aclSetTensorOriginShape(t, 2, dims));
	EXPECT_EQ(ACL_SUCCESS, aclSetTensorStorageFormat(t, ACL_FORMAT_ND));
	EXPECT_EQ(ACL_SUCCESS, aclSetTensorStorageShape(t, 2, dims));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclSetTensorShape(t, -1, dims));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclSetTensorShape(t, 129, dims));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclSetTensorShape(t, 2, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclSetTensorShape(t, 1, neg));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclSetTensorShape(NULL, 2, dims));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclSetTensorFormat(NULL, ACL_FORMAT_ND));
	EXPECT_EQ(2, aclGetTensorDescNumDims(t));	/* unchanged by rejections */
	EXPECT_EQ(ACL_SUCCESS, aclSetTensorShape(t, 2, big));
	EXPECT_EQ(0, aclGetTensorDescSize(t));		/* overflow: no size */
	EXPECT_EQ(ACL_SUCCESS, aclSetTensorDynamicInput(t, "x"));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclSetTensorDynamicInput(t, NULL));
	EXPECT_EQ(ACL_SUCCESS, aclSetTensorConst(t, data, sizeof(data)));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclSetTensorConst(t, data, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclSetTensorConst(t, NULL, 4));
	EXPECT_EQ(ACL_SUCCESS, aclSetTensorPlaceMent(t, ACL_MEMTYPE_HOST));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclSetTensorPlaceMent(t, (aclMemType)9));
	aclDestroyTensorDesc(t);
	aclDestroyTensorDesc(NULL);

	EXPECT_EQ(NULL, aclCreateTensorDesc(ACL_FLOAT, -1, dims, ACL_FORMAT_ND));
	EXPECT_EQ(NULL, aclCreateTensorDesc(ACL_FLOAT, 2, NULL, ACL_FORMAT_ND));
	EXPECT_EQ(NULL, aclCreateTensorDesc(ACL_FLOAT, 1, neg, ACL_FORMAT_ND));
	EXPECT_EQ(0, aclGetTensorDescNumDims(NULL));
	EXPECT_EQ(ACL_DT_UNDEFINED, aclGetTensorDescType(NULL));
	EXPECT_EQ(ACL_FORMAT_UNDEFINED, aclGetTensorDescFormat(NULL));
	EXPECT_EQ(NULL, aclGetTensorDescName(NULL));
	EXPECT_EQ(NULL, aclGetTensorDescByIndex(NULL, 0));
}

TEST(tensor_desc_sub_byte_sizes)
{
	int64_t dims[] = { 7 };
	aclTensorDesc *t = aclCreateTensorDesc(ACL_INT4, 1, dims, ACL_FORMAT_ND);

	ASSERT_NE(NULL, t);
	EXPECT_EQ(4, aclGetTensorDescSize(t));
	aclDestroyTensorDesc(t);
	t = aclCreateTensorDesc(ACL_UINT1, 1, dims, ACL_FORMAT_ND);
	ASSERT_NE(NULL, t);
	EXPECT_EQ(1, aclGetTensorDescSize(t));
	aclDestroyTensorDesc(t);
}

TEST(tensor_desc_trans_format)
{
	int64_t dims[] = { 2, 3, 4, 5 }, d;
	aclTensorDesc *t = aclCreateTensorDesc(ACL_FLOAT, 4, dims, ACL_FORMAT_NCHW);
	aclTensorDesc *o = NULL, *back = NULL;
	int64_t nhwc[] = { 2, 4, 5, 3 }, hwcn[] = { 4, 5, 3, 2 };
	size_t i;

	ASSERT_NE(NULL, t);
	aclSetTensorDescName(t, "x");
	ASSERT_EQ(ACL_SUCCESS, aclTransTensorDescFormat(t, ACL_FORMAT_NHWC, &o));
	EXPECT_EQ(ACL_FORMAT_NHWC, aclGetTensorDescFormat(o));
	EXPECT_STREQ("x", aclGetTensorDescName(o));
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclGetTensorDescDimV2(o, i, &d));
		EXPECT_EQ(nhwc[i], d);
	}
	ASSERT_EQ(ACL_SUCCESS, aclTransTensorDescFormat(o, ACL_FORMAT_HWCN, &back));
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclGetTensorDescDimV2(back, i, &d));
		EXPECT_EQ(hwcn[i], d);
	}
	aclDestroyTensorDesc(back);
	ASSERT_EQ(ACL_SUCCESS, aclTransTensorDescFormat(o, ACL_FORMAT_NCHW, &back));
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclGetTensorDescDimV2(back, i, &d));
		EXPECT_EQ(dims[i], d);
	}
	aclDestroyTensorDesc(back);
	aclDestroyTensorDesc(o);
	o = NULL;
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
		  aclTransTensorDescFormat(t, ACL_FORMAT_NC1HWC0, &o));
	EXPECT_EQ(NULL, o);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclTransTensorDescFormat(t, ACL_FORMAT_NHWC, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclTransTensorDescFormat(NULL, ACL_FORMAT_NHWC, &o));
	aclDestroyTensorDesc(t);
}

TEST_HARNESS_MAIN
