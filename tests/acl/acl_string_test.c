// SPDX-License-Identifier: MIT
/*
 * String tensors through aclmdl on the real driver: om_build_strnorm's
 * host StringNormalizer (stopword "monday", case-insensitive, UPPER) run
 * with aclmdlExecute and aclmdlExecuteAsync. Checked: the strings read
 * back from the output buffer (heads and text, om_format.h's layout),
 * the output's real dims through the output dataset's tensor desc and
 * aclmdlGetCurOutputDims, the buffer sizes aclmdlGetInputSizeByIndex
 * gives (OM_STRING_ELEM_BYTES per element), and an input whose heads
 * point outside its buffer: refused by aclmdlExecute before any work,
 * failing the stream when it comes through aclmdlExecuteAsync.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"
#include "om_builder.h"

#define NSTR	4
#define BUF	(NSTR * OM_STRING_ELEM_BYTES)

/* n strings packed after their heads into buf (BUF bytes). */
static void pack(uint8_t *buf, const char *const *s, int n)
{
	int64_t pos = 16 * (int64_t)n;

	memset(buf, 0, BUF);
	for (int i = 0; i < n; i++) {
		int64_t len = (int64_t)strlen(s[i]);

		memcpy(buf + 16 * i, &pos, 8);
		memcpy(buf + 16 * i + 8, &len, 8);
		memcpy(buf + pos, s[i], (size_t)len);
		pos += len + 1;
	}
}

/* Whether string i of buf (BUF bytes) is want. */
static int str_is(const uint8_t *buf, int i, const char *want)
{
	int64_t off, len;

	memcpy(&off, buf + 16 * i, 8);
	memcpy(&len, buf + 16 * i + 8, 8);
	return off >= 0 && len == (int64_t)strlen(want) && off + len <= BUF &&
	       !memcmp(buf + off, want, (size_t)len);
}

FIXTURE(s) {
	void *img, *x, *y;
	size_t size;
	uint32_t id;
	aclrtStream st;
	aclmdlDataset *in, *out;
	aclDataBuffer *bx, *by;
	uint8_t host[BUF];
};

FIXTURE_SETUP(s)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->st));
	self->img = om_build_strnorm(&self->size);
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromMem(self->img, self->size, &self->id));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&self->x, BUF, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&self->y, BUF, ACL_MEM_MALLOC_HUGE_FIRST));
	self->bx = aclCreateDataBuffer(self->x, BUF);
	self->by = aclCreateDataBuffer(self->y, BUF);
	self->in = aclmdlCreateDataset();
	self->out = aclmdlCreateDataset();
	ASSERT_EQ(ACL_SUCCESS, aclmdlAddDatasetBuffer(self->in, self->bx));
	ASSERT_EQ(ACL_SUCCESS, aclmdlAddDatasetBuffer(self->out, self->by));
}

FIXTURE_TEARDOWN(s)
{
	aclmdlDestroyDataset(self->in);
	aclmdlDestroyDataset(self->out);
	aclDestroyDataBuffer(self->bx);
	aclDestroyDataBuffer(self->by);
	aclrtFree(self->x);
	aclrtFree(self->y);
	aclmdlUnload(self->id);
	aclrtDestroyStream(self->st);
	free(self->img);
	aclrtResetDevice(0);
	aclFinalize();
}

/* The output's dims as the dataset's desc and the model report them. */
static int64_t out_len(struct __test_metadata *_metadata, uint32_t id,
		       aclmdlDataset *out)
{
	aclTensorDesc *d = aclmdlGetDatasetTensorDesc(out, 0);
	aclmdlDesc *md = aclmdlCreateDesc();
	aclmdlIODims dims;
	int64_t dim = -1;

	EXPECT_NE(NULL, d);
	if (d) {
		EXPECT_EQ(1, (int)aclGetTensorDescNumDims(d));
		EXPECT_EQ(ACL_SUCCESS, aclGetTensorDescDimV2(d, 0, &dim));
		EXPECT_EQ(ACL_STRING, aclGetTensorDescType(d));
	}
	EXPECT_EQ(ACL_SUCCESS, aclmdlGetDesc(md, id));
	EXPECT_EQ(ACL_SUCCESS, aclmdlGetCurOutputDims(md, 0, &dims));
	EXPECT_EQ(1, (int)dims.dimCount);
	EXPECT_EQ(dim, dims.dims[0]);
	EXPECT_EQ(ACL_SUCCESS, aclmdlGetOutputDims(md, 0, &dims));
	EXPECT_EQ(NSTR, dims.dims[0]);	/* the bound */
	aclmdlDestroyDesc(md);
	return dim;
}

TEST_F(s, sizes_are_the_upper_bound)
{
	aclmdlDesc *md = aclmdlCreateDesc();

	ASSERT_EQ(ACL_SUCCESS, aclmdlGetDesc(md, self->id));
	EXPECT_EQ(ACL_STRING, aclmdlGetInputDataType(md, 0));
	EXPECT_EQ(ACL_STRING, aclmdlGetOutputDataType(md, 0));
	EXPECT_EQ((size_t)BUF, aclmdlGetInputSizeByIndex(md, 0));
	EXPECT_EQ((size_t)BUF, aclmdlGetOutputSizeByIndex(md, 0));
	aclmdlDestroyDesc(md);
}

TEST_F(s, execute_sync)
{
	static const char *const in[NSTR] = { "Monday", "tuesday", "monday", "Fri" };

	pack(self->host, in, NSTR);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(self->x, BUF, self->host, BUF,
					   ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecute(self->id, self->in, self->out))
		TH_LOG("%s", aclGetRecentErrMsg());
	EXPECT_EQ(2, out_len(_metadata, self->id, self->out));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(self->host, BUF, self->y, BUF,
					   ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_TRUE(str_is(self->host, 0, "TUESDAY"));
	EXPECT_TRUE(str_is(self->host, 1, "FRI"));
}

/* Queued behind the input copy on a stream; nothing dropped this time. */
TEST_F(s, execute_async)
{
	static const char *const in[NSTR] = { "a", "Bé", "", "sunday" };
	uint8_t *h;

	ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost((void **)&h, BUF));
	pack(h, in, NSTR);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(self->x, BUF, h, BUF,
						ACL_MEMCPY_HOST_TO_DEVICE, self->st));
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecuteAsync(self->id, self->in, self->out, self->st));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(h, BUF, self->y, BUF,
						ACL_MEMCPY_DEVICE_TO_HOST, self->st));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->st));
	EXPECT_EQ(NSTR, out_len(_metadata, self->id, self->out));
	EXPECT_TRUE(str_is(h, 0, "A"));
	EXPECT_TRUE(str_is(h, 1, "BÉ"));
	EXPECT_TRUE(str_is(h, 2, ""));
	EXPECT_TRUE(str_is(h, 3, "SUNDAY"));
	aclrtFreeHost(h);
}

/* A head past the buffer: aclmdlExecute refuses it and runs nothing. */
TEST_F(s, bad_heads_are_refused)
{
	static const char *const in[NSTR] = { "x", "y", "z", "w" };
	int64_t off = BUF - 2, len = 5;

	pack(self->host, in, NSTR);
	memcpy(self->host + 16 * 2, &off, 8);
	memcpy(self->host + 16 * 2 + 8, &len, 8);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(self->x, BUF, self->host, BUF,
					   ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(self->y, BUF, 0x5a, BUF));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlExecute(self->id, self->in, self->out));
	EXPECT_NE(NULL, strstr(aclGetRecentErrMsg(), "outside"))
		TH_LOG("%s", aclGetRecentErrMsg());
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(self->host, BUF, self->y, BUF,
					   ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(0x5a, self->host[0]);	/* the output untouched */
	/* a negative offset, into the heads */
	pack(self->host, in, NSTR);
	off = -8;
	memcpy(self->host + 16, &off, 8);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(self->x, BUF, self->host, BUF,
					   ACL_MEMCPY_HOST_TO_DEVICE));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlExecute(self->id, self->in, self->out));
	/* asynchronously the host node finds it: the stream fails */
	EXPECT_EQ(ACL_SUCCESS, aclmdlExecuteAsync(self->id, self->in, self->out, self->st));
	EXPECT_EQ(ACL_ERROR_RT_AICPU_EXCEPTION, aclrtSynchronizeStream(self->st));
}

TEST_HARNESS_MAIN
