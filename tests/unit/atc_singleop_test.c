// SPDX-License-Identifier: MIT
/*
 * Single-op models on the host: the description key (canonical, order
 * free, exact), sop_compile of CANN op types run with the operator
 * library's host build against references (MatMulV2's transposes,
 * Conv2D's CANN pad order), every refusal with its status, and
 * atc --singleop's JSON reader: files, names and exit statuses.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "om_host_exec.h"
#include "om_read.h"
#include "singleop.h"
#include "kselftest_harness.h"

#pragma GCC diagnostic ignored "-Wclobbered"

static struct sop_tensor tens(int dtype, int format, int rank, const int64_t *d)
{
	struct sop_tensor t;

	memset(&t, 0, sizeof(t));
	t.dtype = dtype;
	t.format = format;
	t.rank = rank;
	memcpy(t.dims, d, sizeof(int64_t) * (size_t)rank);
	return t;
}

static void attr_ints(struct sop_desc *d, const char *name, int n,
		      const int64_t *v)
{
	struct sop_attr *a = &d->attrs[d->nattrs++];

	a->name = strdup(name);
	a->kind = SOP_LIST_INT;
	a->count = n;
	a->ints = malloc(sizeof(int64_t) * (size_t)n);
	memcpy(a->ints, v, sizeof(int64_t) * (size_t)n);
}

static void attr_scalar(struct sop_desc *d, const char *name, int kind,
			int64_t i, float f)
{
	struct sop_attr *a = &d->attrs[d->nattrs++];

	a->name = strdup(name);
	a->kind = kind;
	a->i = i;
	a->f = f;
}

/* Compile d, check the image and its key, run it on the host. */
static int compile_run(struct sop_desc *d, void **io)
{
	char err[512], key[SOP_KEY_MAX];
	struct om_image img;
	struct om_exec x;
	uint8_t *buf;
	size_t len;
	int r;

	r = sop_compile(d, &buf, &len, err, sizeof(err));
	if (r) {
		fprintf(stderr, "sop_compile: %s\n", err);
		return r;
	}
	if (om_read(buf, len, &img, err, sizeof(err)) || !img.op_key ||
	    sop_key(d, key, sizeof(key)) < 0 || strcmp(key, img.op_key) ||
	    omx_open(&x, buf, len) || omx_run(&x, 0, io)) {
		free(buf);
		return 99;
	}
	free(buf);
	return 0;
}

TEST(key_is_canonical_and_exact)
{
	struct sop_desc a, b;
	char ka[SOP_KEY_MAX], kb[SOP_KEY_MAX];
	static const int64_t d[2] = { 2, 3 }, p[2] = { 1, 2 };

	memset(&a, 0, sizeof(a));
	strcpy(a.type, "X");
	a.nin = a.nout = 1;
	a.in[0] = a.out[0] = tens(0, 2, 2, d);
	b = a;
	attr_scalar(&a, "alpha", SOP_FLOAT, 0, 1.5f);
	attr_ints(&a, "pads", 2, p);
	attr_ints(&b, "pads", 2, p);
	attr_scalar(&b, "alpha", SOP_FLOAT, 0, 1.5f);
	ASSERT_GT(sop_key(&a, ka, sizeof(ka)), 0);
	ASSERT_GT(sop_key(&b, kb, sizeof(kb)), 0);
	EXPECT_STREQ(ka, kb);
	/* one ulp apart is another op */
	b.attrs[1].f = nextafterf(1.5f, 2.0f);
	sop_key(&b, kb, sizeof(kb));
	EXPECT_STRNE(ka, kb);
	/* a format is part of the key */
	b.attrs[1].f = 1.5f;
	b.in[0].format = 0;
	sop_key(&b, kb, sizeof(kb));
	EXPECT_STRNE(ka, kb);
	EXPECT_EQ(-1, sop_key(&a, ka, 8));
	sop_desc_free(&a);
	sop_desc_free(&b);
}

TEST(matmul_v2_transposes)
{
	static const int64_t da[2] = { 4, 3 }, db[2] = { 5, 4 }, dy[2] = { 3, 5 };
	float a[12], b[20], y[15];
	void *io[3] = { a, b, y };
	struct sop_desc d;

	memset(&d, 0, sizeof(d));
	strcpy(d.type, "MatMulV2");
	d.nin = 2;
	d.nout = 1;
	d.in[0] = tens(0, 2, 2, da);
	d.in[1] = tens(0, 2, 2, db);
	d.out[0] = tens(0, 2, 2, dy);
	attr_scalar(&d, "transpose_x1", SOP_BOOL, 1, 0);
	attr_scalar(&d, "transpose_x2", SOP_BOOL, 1, 0);
	for (int i = 0; i < 12; i++)
		a[i] = (float)i - 5.0f;
	for (int i = 0; i < 20; i++)
		b[i] = 0.5f * (float)(i % 6);
	ASSERT_EQ(0, compile_run(&d, io));
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 5; j++) {
			float r = 0;

			for (int k = 0; k < 4; k++)
				r += a[k * 3 + i] * b[j * 4 + k];
			EXPECT_LT(fabsf(r - y[i * 5 + j]), 1e-5f);
		}
	sop_desc_free(&d);
}

/* CANN's pads are top, bottom, left, right: [2, 0, 0, 1] here. */
TEST(conv2d_cann_pad_order)
{
	static const int64_t dx[4] = { 1, 1, 4, 4 }, dw[4] = { 1, 1, 2, 2 },
			     dy[4] = { 1, 1, 5, 4 };
	static const int64_t st[4] = { 1, 1, 1, 1 }, pd[4] = { 2, 0, 0, 1 };
	float x[16], w[4] = { 1, 2, 3, 4 }, y[20];
	void *io[3] = { x, w, y };
	struct sop_desc d;

	memset(&d, 0, sizeof(d));
	strcpy(d.type, "Conv2D");
	d.nin = 2;
	d.nout = 1;
	d.in[0] = tens(0, 0, 4, dx);
	d.in[1] = tens(0, 0, 4, dw);
	d.out[0] = tens(0, 0, 4, dy);
	attr_ints(&d, "strides", 4, st);
	attr_ints(&d, "pads", 4, pd);
	for (int i = 0; i < 16; i++)
		x[i] = (float)(i + 1);
	ASSERT_EQ(0, compile_run(&d, io));
	for (int oh = 0; oh < 5; oh++)
		for (int ow = 0; ow < 4; ow++) {
			float r = 0;

			for (int kh = 0; kh < 2; kh++)
				for (int kw = 0; kw < 2; kw++) {
					int ih = oh - 2 + kh, iw = ow + kw;

					if (ih >= 0 && ih < 4 && iw < 4)
						r += x[ih * 4 + iw] * w[kh * 2 + kw];
				}
			EXPECT_EQ(r, y[oh * 4 + ow]);
		}
	sop_desc_free(&d);
}

/*
 * Conv2D described in NHWC, as CANN's single-op files may: x [1, 4, 4, 2]
 * NHWC, strides [1, 2, 2, 1] in x's layout, pads (top, bottom, left,
 * right) [0, 1, 0, 1], the filter once HWCN [2, 2, 2, 3] and once NHWC
 * [3, 2, 2, 2], y [1, 2, 2, 3] NHWC; against a direct NHWC reference.
 */
TEST(conv2d_nhwc)
{
	static const int64_t dx[4] = { 1, 4, 4, 2 }, dhwcn[4] = { 2, 2, 2, 3 },
			     dohwi[4] = { 3, 2, 2, 2 }, dy[4] = { 1, 2, 2, 3 };
	static const int64_t st[4] = { 1, 2, 2, 1 }, pd[4] = { 0, 1, 0, 1 };
	float x[32], whwcn[24], wohwi[24], y[12];
	void *io[3] = { x, whwcn, y };
	char err[512];
	uint8_t *img = NULL;
	size_t len;
	struct sop_desc d;
	int i, pass;

	for (i = 0; i < 32; i++)
		x[i] = (float)((i * 7) % 11) - 5.0f;
	for (i = 0; i < 24; i++)
		whwcn[i] = (float)((i * 5) % 7) - 3.0f;
	/* the same filter as [out][kh][kw][in] */
	for (int kh = 0; kh < 2; kh++)
		for (int kw = 0; kw < 2; kw++)
			for (int c = 0; c < 2; c++)
				for (int o = 0; o < 3; o++)
					wohwi[((o * 2 + kh) * 2 + kw) * 2 + c] =
						whwcn[((kh * 2 + kw) * 2 + c) * 3 + o];
	for (pass = 0; pass < 2; pass++) {
		memset(&d, 0, sizeof(d));
		strcpy(d.type, "Conv2D");
		d.nin = 2;
		d.nout = 1;
		d.in[0] = tens(0, 1, 4, dx);
		d.in[1] = pass ? tens(0, 1, 4, dohwi) : tens(0, 16, 4, dhwcn);
		d.out[0] = tens(0, 1, 4, dy);
		attr_ints(&d, "strides", 4, st);
		attr_ints(&d, "pads", 4, pd);
		io[1] = pass ? wohwi : whwcn;
		memset(y, 0, sizeof(y));
		ASSERT_EQ(0, compile_run(&d, io));
		for (int oh = 0; oh < 2; oh++)
			for (int ow = 0; ow < 2; ow++)
				for (int o = 0; o < 3; o++) {
					float r = 0;

					for (int kh = 0; kh < 2; kh++)
						for (int kw = 0; kw < 2; kw++)
							for (int c = 0; c < 2; c++) {
								int ih = oh * 2 + kh, iw = ow * 2 + kw;

								if (ih < 4 && iw < 4)
									r += x[(ih * 4 + iw) * 2 + c] *
									     whwcn[((kh * 2 + kw) * 2 + c) * 3 + o];
							}
					EXPECT_EQ(r, y[(oh * 2 + ow) * 3 + o]);
				}
		sop_desc_free(&d);
	}
	/* data_format NCHW against an NHWC x, and an NHWC x with an NCHW y */
	memset(&d, 0, sizeof(d));
	strcpy(d.type, "Conv2D");
	d.nin = 2;
	d.nout = 1;
	d.in[0] = tens(0, 1, 4, dx);
	d.in[1] = tens(0, 16, 4, dhwcn);
	d.out[0] = tens(0, 0, 4, dy);
	attr_ints(&d, "strides", 4, st);
	attr_ints(&d, "pads", 4, pd);
	EXPECT_EQ(SOP_EINVAL, sop_compile(&d, &img, &len, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "output 0"));
	d.out[0] = tens(0, 1, 4, dy);
	d.attrs[d.nattrs].name = strdup("data_format");
	d.attrs[d.nattrs].kind = SOP_STRING;
	d.attrs[d.nattrs++].s = strdup("NCHW");
	EXPECT_EQ(SOP_EINVAL, sop_compile(&d, &img, &len, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "data_format"));
	EXPECT_EQ(NULL, img);
	sop_desc_free(&d);
}

/*
 * Slice with CANN's constant offsets and size inputs (size -1: to the
 * end), and SliceD with them as attributes: x [3, 4] = 0..11, offsets
 * [1, 1], size [2, -1] gives rows 1..2, columns 1..3.
 */
TEST(slice_and_slice_d)
{
	static const int64_t dx[2] = { 3, 4 }, d2[1] = { 2 }, dy[2] = { 2, 3 },
			     off[2] = { 1, 1 }, sz[2] = { 2, -1 }, big[2] = { 3, 1 };
	static const float want[6] = { 5, 6, 7, 9, 10, 11 };
	float x[12], y[6];
	int32_t o32[2] = { 1, 1 }, s32[2] = { 2, -1 };
	void *io[4] = { x, o32, s32, y };
	char err[512], k1[SOP_KEY_MAX], k2[SOP_KEY_MAX];
	uint8_t *img = NULL;
	size_t len;
	struct sop_desc d;
	int i;

	for (i = 0; i < 12; i++)
		x[i] = (float)i;
	memset(&d, 0, sizeof(d));
	strcpy(d.type, "Slice");
	d.nin = 3;
	d.nout = 1;
	d.in[0] = tens(0, 2, 2, dx);
	d.in[1] = d.in[2] = tens(3, 2, 1, d2);
	d.out[0] = tens(0, 2, 2, dy);
	/* not constant: refused */
	EXPECT_EQ(SOP_EINVAL, sop_compile(&d, &img, &len, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "constant"));
	d.in[1].nconst = d.in[2].nconst = 2;
	memcpy(d.in[1].cval, off, sizeof(off));
	memcpy(d.in[2].cval, sz, sizeof(sz));
	ASSERT_EQ(0, compile_run(&d, io));
	for (i = 0; i < 6; i++)
		EXPECT_EQ(want[i], y[i]);
	/* the values are part of the key */
	ASSERT_GT(sop_key(&d, k1, sizeof(k1)), 0);
	d.in[1].cval[0] = 0;
	ASSERT_GT(sop_key(&d, k2, sizeof(k2)), 0);
	EXPECT_STRNE(k1, k2);
	/* a slice past the end */
	memcpy(d.in[1].cval, big, sizeof(big));
	EXPECT_EQ(SOP_EINVAL, sop_compile(&d, &img, &len, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "outside"));
	EXPECT_EQ(NULL, img);

	memset(&d, 0, sizeof(d));
	strcpy(d.type, "SliceD");
	d.nin = d.nout = 1;
	d.in[0] = tens(0, 2, 2, dx);
	d.out[0] = tens(0, 2, 2, dy);
	attr_ints(&d, "offsets", 2, off);
	attr_ints(&d, "size", 2, sz);
	io[1] = y;
	memset(y, 0, sizeof(y));
	ASSERT_EQ(0, compile_run(&d, io));
	for (i = 0; i < 6; i++)
		EXPECT_EQ(want[i], y[i]);
	sop_desc_free(&d);
	memset(&d, 0, sizeof(d));
	strcpy(d.type, "SliceD");
	d.nin = d.nout = 1;
	d.in[0] = tens(0, 2, 2, dx);
	d.out[0] = tens(0, 2, 2, dy);
	attr_ints(&d, "offsets", 1, off);
	attr_ints(&d, "size", 2, sz);
	EXPECT_EQ(SOP_EINVAL, sop_compile(&d, &img, &len, err, sizeof(err)));
	sop_desc_free(&d);
}

TEST(refusals)
{
	static const int64_t d3[1] = { 3 }, d4[1] = { 4 }, neg[1] = { -1 },
			     x4[4] = { 1, 1, 4, 4 };
	char err[512];
	struct sop_desc d;
	uint8_t *img = NULL;
	size_t len;

	memset(&d, 0, sizeof(d));
	strcpy(d.type, "NoSuchOp");
	d.nin = d.nout = 1;
	d.in[0] = d.out[0] = tens(0, 2, 1, d3);
	EXPECT_EQ(SOP_EUNSUPPORTED, sop_compile(&d, &img, &len, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "NoSuchOp"));
	strcpy(d.type, "Relu");
	d.out[0] = tens(0, 2, 1, d4);
	EXPECT_EQ(SOP_EINVAL, sop_compile(&d, &img, &len, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "output 0"));
	d.out[0] = tens(0, 2, 1, d3);
	d.nin = 2;
	d.in[1] = d.in[0];
	EXPECT_EQ(SOP_EINVAL, sop_compile(&d, &img, &len, err, sizeof(err)));
	d.nin = 1;
	d.in[0] = tens(0, 2, 1, neg);
	EXPECT_EQ(SOP_EINVAL, sop_compile(&d, &img, &len, err, sizeof(err)));
	d.in[0] = tens(99, 2, 1, d3);
	EXPECT_EQ(SOP_EINVAL, sop_compile(&d, &img, &len, err, sizeof(err)));
	/* Conv2D without strides, and in NHWC */
	strcpy(d.type, "Conv2D");
	d.nin = 2;
	d.in[0] = d.in[1] = d.out[0] = tens(0, 0, 4, x4);
	EXPECT_EQ(SOP_EINVAL, sop_compile(&d, &img, &len, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "strides"));
	EXPECT_EQ(NULL, img);
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

#define DIR "build/tests/unit/singleop_json"
#define ADD_JSON "[{\"op\":\"Add\",\"input_desc\":[{\"format\":\"ND\",\"shape\":[2,3],\"type\":\"float16\"}," \
	"{\"format\":\"ND\",\"shape\":[2,3],\"type\":\"float16\"}],\"output_desc\":[{\"format\":\"ND\"," \
	"\"shape\":[2,3],\"type\":\"float16\"}]}]"

TEST(json_files_and_statuses)
{
	struct stat st;

	mkdir("build/tests/unit", 0755);
	mkdir(DIR, 0755);
	ASSERT_EQ(0, write_text(DIR "/ok.json", ADD_JSON));
	EXPECT_EQ(0, sop_compile_json(DIR "/ok.json", DIR "/out", 0));
	EXPECT_EQ(0, stat(DIR "/out/0_Add_1_2_2_3_1_2_2_3_1_2_2_3.om", &st));
	ASSERT_EQ(0, write_text(DIR "/bad.json", "[{\"op\": \"Add\", "));
	EXPECT_EQ(1, sop_compile_json(DIR "/bad.json", DIR "/out", 0));
	EXPECT_EQ(1, sop_compile_json(DIR "/missing.json", DIR "/out", 0));
	ASSERT_EQ(0, write_text(DIR "/empty.json", "[]"));
	EXPECT_EQ(1, sop_compile_json(DIR "/empty.json", DIR "/out", 0));
	ASSERT_EQ(0, write_text(DIR "/type.json",
		"[{\"op\":\"Relu\",\"input_desc\":[{\"format\":\"ND\",\"shape\":[2],\"type\":\"quaternion\"}],"
		"\"output_desc\":[{\"format\":\"ND\",\"shape\":[2],\"type\":\"float\"}]}]"));
	EXPECT_EQ(1, sop_compile_json(DIR "/type.json", DIR "/out", 0));
	ASSERT_EQ(0, write_text(DIR "/attr.json",
		"[{\"op\":\"Relu\",\"input_desc\":[{\"format\":\"ND\",\"shape\":[2],\"type\":\"float\"}],"
		"\"output_desc\":[{\"format\":\"ND\",\"shape\":[2],\"type\":\"float\"}],"
		"\"attr\":[{\"name\":\"x\",\"type\":\"list_int\",\"value\":[1,\"two\"]}]}]"));
	EXPECT_EQ(1, sop_compile_json(DIR "/attr.json", DIR "/out", 0));
	ASSERT_EQ(0, write_text(DIR "/unknown.json",
		"[{\"op\":\"Frobnicate\",\"input_desc\":[{\"format\":\"ND\",\"shape\":[2],\"type\":\"float\"}],"
		"\"output_desc\":[{\"format\":\"ND\",\"shape\":[2],\"type\":\"float\"}]}]"));
	EXPECT_EQ(4, sop_compile_json(DIR "/unknown.json", DIR "/out", 0));
	ASSERT_EQ(0, write_text(DIR "/dyn.json",
		"[{\"op\":\"Relu\",\"input_desc\":[{\"format\":\"ND\",\"shape\":[-1],\"type\":\"float\"}],"
		"\"output_desc\":[{\"format\":\"ND\",\"shape\":[-1],\"type\":\"float\"}]}]"));
	EXPECT_EQ(1, sop_compile_json(DIR "/dyn.json", DIR "/out", 0));
}

/* CANN's single-op JSON forms: Slice's constant inputs, Conv2D in NHWC. */
TEST(json_slice_and_nhwc_conv)
{
	struct stat st;

	mkdir("build/tests/unit", 0755);
	mkdir(DIR, 0755);
	ASSERT_EQ(0, write_text(DIR "/slice.json",
		"[{\"op\":\"Slice\",\"input_desc\":[{\"format\":\"ND\",\"shape\":[3,4],\"type\":\"float\"},"
		"{\"format\":\"ND\",\"shape\":[2],\"type\":\"int32\",\"is_const\":true,\"const_value\":[1,1]},"
		"{\"format\":\"ND\",\"shape\":[2],\"type\":\"int32\",\"is_const\":true,\"const_value\":[2,-1]}],"
		"\"output_desc\":[{\"format\":\"ND\",\"shape\":[2,3],\"type\":\"float\"}]},"
		"{\"op\":\"Conv2D\",\"input_desc\":[{\"format\":\"NHWC\",\"shape\":[1,16,16,3],\"type\":\"float16\"},"
		"{\"format\":\"HWCN\",\"shape\":[3,3,3,8],\"type\":\"float16\"}],"
		"\"output_desc\":[{\"format\":\"NHWC\",\"shape\":[1,16,16,8],\"type\":\"float16\"}],"
		"\"attr\":[{\"name\":\"strides\",\"type\":\"list_int\",\"value\":[1,1,1,1]},"
		"{\"name\":\"pads\",\"type\":\"list_int\",\"value\":[1,1,1,1]},"
		"{\"name\":\"dilations\",\"type\":\"list_int\",\"value\":[1,1,1,1]},"
		"{\"name\":\"data_format\",\"type\":\"string\",\"value\":\"NHWC\"}]}]"));
	EXPECT_EQ(0, sop_compile_json(DIR "/slice.json", DIR "/out", 0));
	EXPECT_EQ(0, stat(DIR "/out/0_Slice_0_2_3_4_3_2_2_3_2_2_0_2_2_3.om", &st));
	EXPECT_EQ(0, stat(DIR "/out/1_Conv2D_1_1_1_16_16_3_1_16_3_3_3_8_1_1_1_16_16_8.om", &st));
	/* is_const without const_value, and a const_value of the wrong length */
	ASSERT_EQ(0, write_text(DIR "/slice_bad.json",
		"[{\"op\":\"Slice\",\"input_desc\":[{\"format\":\"ND\",\"shape\":[3,4],\"type\":\"float\"},"
		"{\"format\":\"ND\",\"shape\":[2],\"type\":\"int32\",\"is_const\":true},"
		"{\"format\":\"ND\",\"shape\":[2],\"type\":\"int32\",\"is_const\":true,\"const_value\":[2,-1]}],"
		"\"output_desc\":[{\"format\":\"ND\",\"shape\":[2,3],\"type\":\"float\"}]}]"));
	EXPECT_EQ(1, sop_compile_json(DIR "/slice_bad.json", DIR "/out", 0));
	ASSERT_EQ(0, write_text(DIR "/slice_bad2.json",
		"[{\"op\":\"Slice\",\"input_desc\":[{\"format\":\"ND\",\"shape\":[3,4],\"type\":\"float\"},"
		"{\"format\":\"ND\",\"shape\":[2],\"type\":\"int32\",\"is_const\":true,\"const_value\":[1]},"
		"{\"format\":\"ND\",\"shape\":[2],\"type\":\"int32\",\"is_const\":true,\"const_value\":[2,-1]}],"
		"\"output_desc\":[{\"format\":\"ND\",\"shape\":[2,3],\"type\":\"float\"}]}]"));
	EXPECT_EQ(1, sop_compile_json(DIR "/slice_bad2.json", DIR "/out", 0));
}

TEST_HARNESS_MAIN
