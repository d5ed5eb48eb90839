// SPDX-License-Identifier: MIT
/*
 * The three reference models of issue 13 (exported by `make models`,
 * tests/models/make_models.py, into build/models/, with PyTorch's output
 * for a fixed input; skipped when they are missing) compiled by atc and
 * run on the host with the operator library's host build: the file passes
 * the loader's validation, and the output matches PyTorch's within 1e-3,
 * absolute and relative to the largest output.
 * The planned arena is also checked against its two bounds.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atc_compile.h"
#include "om_build.h"
#include "om_host_exec.h"
#include "kselftest_harness.h"

/* The harness's setjmp and short test bodies trip -Wclobbered at -O1. */
#pragma GCC diagnostic ignored "-Wclobbered"

#define MODELS_DIR "build/models"

static void *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = aligned_alloc(64, ((size_t)n + 63) & ~(size_t)63);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* A little-endian float32, C-ordered .npy: its data and element count. */
static float *npy_f32(const char *path, size_t *count, void **base)
{
	size_t len, hlen, off;
	uint8_t *b = slurp(path, &len);

	*base = b;
	if (!b || len < 12 || memcmp(b, "\x93NUMPY", 6))
		return NULL;
	if (b[6] == 1) {
		hlen = b[8] | (size_t)b[9] << 8;
		off = 10;
	} else {
		hlen = b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 |
		       (size_t)b[11] << 24;
		off = 12;
	}
	if (off + hlen > len || !memmem(b + off, hlen, "'<f4'", 5) ||
	    !memmem(b + off, hlen, "'fortran_order': False", 22))
		return NULL;
	*count = (len - off - hlen) / 4;
	return (float *)(b + off + hlen);
}

static void run_model(struct __test_metadata *_metadata, const char *name)
{
	char onnx[128], in[128], out[128], dir[] = "/tmp/atc_run_XXXXXX";
	char stem[160], om[170], why[256], cmd[64];
	struct atc_options o = { .framework = ATC_FRAMEWORK_ONNX,
				 .soc_version = "x", .log = "error" };
	void *xb = NULL, *yb = NULL;
	size_t nx, ny, len, i;
	struct om_exec ex;
	struct om_image img;
	float *x, *ref, *y;
	uint8_t *file;
	double err = 0, scale = 0;
	void *io[2];

	snprintf(onnx, sizeof(onnx), MODELS_DIR "/%s.onnx", name);
	snprintf(in, sizeof(in), MODELS_DIR "/%s.input.npy", name);
	snprintf(out, sizeof(out), MODELS_DIR "/%s.output.npy", name);
	if (access(onnx, R_OK) || access(in, R_OK) || access(out, R_OK))
		SKIP(return, "%s is missing (make models)",
		     onnx);
	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(stem, sizeof(stem), "%s/m", dir);
	snprintf(om, sizeof(om), "%s.om", stem);
	o.model = onnx;
	o.output = stem;
	ASSERT_EQ(ATC_OK, atc_compile(&o));
	file = slurp(om, &len);
	ASSERT_NE(NULL, file);
	ASSERT_EQ(0, om_read(file, len, &img, why, sizeof(why))) {
		TH_LOG("om_read: %s", why);
	}
	ASSERT_EQ(1u, img.nin);
	ASSERT_EQ(1u, img.nout);
	/* the plan lies between what must be live at once and no reuse */
	EXPECT_GE(img.variants[0].arena_size, img.variants[0].lower_bound);
	EXPECT_LE(img.variants[0].arena_size, img.variants[0].naive_size);
	TH_LOG("%s: %u tasks, arena %llu, naive %llu, lower bound %llu", name,
	       img.variants[0].node_count,
	       (unsigned long long)img.variants[0].arena_size,
	       (unsigned long long)img.variants[0].naive_size,
	       (unsigned long long)img.variants[0].lower_bound);
	x = npy_f32(in, &nx, &xb);
	ref = npy_f32(out, &ny, &yb);
	ASSERT_NE(NULL, x);
	ASSERT_NE(NULL, ref);
	ASSERT_EQ(img.io[0].size, nx * 4);
	ASSERT_EQ(img.io[1].size, ny * 4);
	y = calloc(ny, 4);
	io[0] = x;
	io[1] = y;
	ASSERT_EQ(0, omx_open(&ex, file, len));
	ASSERT_EQ(0, omx_run(&ex, 0, io));
	for (i = 0; i < ny; i++) {
		if (!(fabs((double)y[i] - ref[i]) <= err))
			err = fabs((double)y[i] - ref[i]);
		if (fabs(ref[i]) > scale)
			scale = fabs(ref[i]);
	}
	TH_LOG("%s: max abs error %g over %zu outputs (largest output %g)",
	       name, err, ny, scale);
	/* absolute as the issue asks, and relative for tiny outputs */
	EXPECT_TRUE(err <= 1e-3);
	EXPECT_TRUE(scale > 0 && err <= 1e-3 * scale);
	free(y);
	free(xb);
	free(yb);
	free(file);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		TH_LOG("could not remove %s", dir);
}

TEST(resnet18)
{
	run_model(_metadata, "resnet18");
}

TEST(mobilenet_v2)
{
	run_model(_metadata, "mobilenet_v2");
}

TEST(transformer)
{
	run_model(_metadata, "transformer");
}

TEST_HARNESS_MAIN
