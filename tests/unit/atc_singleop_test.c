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
	struct sop_tensor t = { dtype, format, rank, { 0 } };

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

TEST_HARNESS_MAIN
