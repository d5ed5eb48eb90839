// SPDX-License-Identifier: MIT
/*
 * The single-operator API (aclop) on the real driver, written the way
 * CANN's single-op samples are: op models made by `atc --singleop` from
 * tests/acl/acl_op_models.json (built next to this test), loaded with
 * aclopSetModelDir, run with aclopExecuteV2 and through handles, values
 * read back against host references; ops compiled in process with
 * aclopCompile / aclopCompileAndExecuteV2; attributes; and every misuse
 * with its code.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"
#include "om_builder.h"

#ifndef OP_MODEL_DIR
#define OP_MODEL_DIR "build/tests/acl/op_models"
#endif

#define MAXT 6

/* A call: descriptions, device buffers and their host copies. */
struct call {
	int nin, nout;
	aclTensorDesc *desc[MAXT];
	aclDataBuffer *buf[MAXT];
	void *dev[MAXT];
	size_t size[MAXT];
};

static void call_tensor(struct call *c, int k, aclDataType dt, int rank,
			const int64_t *dims, aclFormat fmt, const void *host)
{
	size_t n = aclDataTypeSize(dt);

	for (int i = 0; i < rank; i++)
		n *= (size_t)dims[i];
	c->desc[k] = aclCreateTensorDesc(dt, rank, dims, fmt);
	c->size[k] = n;
	aclrtMalloc(&c->dev[k], n ? n : 1, ACL_MEM_MALLOC_HUGE_FIRST);
	if (host)
		aclrtMemcpy(c->dev[k], n, host, n, ACL_MEMCPY_HOST_TO_DEVICE);
	else
		aclrtMemset(c->dev[k], n, 0xff, n);
	c->buf[k] = aclCreateDataBuffer(c->dev[k], n);
}

static void call_free(struct call *c)
{
	for (int k = 0; k < c->nin + c->nout; k++) {
		aclDestroyTensorDesc(c->desc[k]);
		aclDestroyDataBuffer(c->buf[k]);
		aclrtFree(c->dev[k]);
	}
	memset(c, 0, sizeof(*c));
}

static aclError call_run(struct call *c, const char *type, aclopAttr *attr,
			 aclrtStream s)
{
	return aclopExecuteV2(type, c->nin, c->desc, c->buf, c->nout,
			      c->desc + c->nin, c->buf + c->nin, attr, s);
}

static void call_out(struct call *c, int k, void *host)
{
	aclrtMemcpy(host, c->size[c->nin + k], c->dev[c->nin + k],
		    c->size[c->nin + k], ACL_MEMCPY_DEVICE_TO_HOST);
}

/* The Add int32 [8,16] call of the model list. */
static void add_call(struct call *c, int32_t *a, int32_t *b)
{
	static const int64_t d[2] = { 8, 16 };

	for (int i = 0; i < 128; i++) {
		a[i] = i * 3 - 100;
		b[i] = 7 - i * i;
	}
	memset(c, 0, sizeof(*c));
	c->nin = 2;
	c->nout = 1;
	call_tensor(c, 0, ACL_INT32, 2, d, ACL_FORMAT_ND, a);
	call_tensor(c, 1, ACL_INT32, 2, d, ACL_FORMAT_ND, b);
	call_tensor(c, 2, ACL_INT32, 2, d, ACL_FORMAT_ND, NULL);
}

static aclopAttr *matmul_attr(int t1, int t2)
{
	aclopAttr *a = aclopCreateAttr();

	aclopSetAttrBool(a, "transpose_x1", (uint8_t)t1);
	aclopSetAttrBool(a, "transpose_x2", (uint8_t)t2);
	return a;
}

FIXTURE(op) {
	aclrtStream stream;
};

FIXTURE_SETUP(op)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclopSetModelDir(OP_MODEL_DIR));
}

FIXTURE_TEARDOWN(op)
{
	aclrtDestroyStream(self->stream);
	aclrtResetDevice(0);
	aclFinalize();
}

TEST_F(op, add_from_model_dir)
{
	int32_t a[128], b[128], y[128];
	struct call c;

	add_call(&c, a, b);
	ASSERT_EQ(ACL_SUCCESS, call_run(&c, "Add", NULL, self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->stream));
	call_out(&c, 0, y);
	for (int i = 0; i < 128; i++)
		ASSERT_EQ(a[i] + b[i], y[i]);
	call_free(&c);
}

TEST_F(op, matmul_v2_transposed)
{
	static const int64_t da[2] = { 4, 3 }, db[2] = { 5, 4 }, dy[2] = { 3, 5 };
	float a[12], b[20], y[15];
	aclopAttr *attr = matmul_attr(1, 1);
	struct call c = { .nin = 2, .nout = 1 };

	for (int i = 0; i < 12; i++)
		a[i] = 0.25f * (float)i - 1.0f;
	for (int i = 0; i < 20; i++)
		b[i] = 0.5f * (float)(i % 7) - 1.5f;
	call_tensor(&c, 0, ACL_FLOAT, 2, da, ACL_FORMAT_ND, a);
	call_tensor(&c, 1, ACL_FLOAT, 2, db, ACL_FORMAT_ND, b);
	call_tensor(&c, 2, ACL_FLOAT, 2, dy, ACL_FORMAT_ND, NULL);
	ASSERT_EQ(ACL_SUCCESS, call_run(&c, "MatMulV2", attr, self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->stream));
	call_out(&c, 0, y);
	/* y = a^T (3x4) @ b^T (4x5) */
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 5; j++) {
			float r = 0;

			for (int k = 0; k < 4; k++)
				r += a[k * 3 + i] * b[j * 4 + k];
			ASSERT_LT(fabsf(r - y[i * 5 + j]), 1e-5f);
		}
	aclopDestroyAttr(attr);
	call_free(&c);
}

TEST_F(op, conv2d_strides_and_pads)
{
	static const int64_t dx[4] = { 1, 3, 6, 6 }, dw[4] = { 4, 3, 3, 3 },
			     dy[4] = { 1, 4, 3, 3 };
	static const int64_t st[4] = { 1, 1, 2, 2 }, pd[4] = { 1, 0, 1, 0 },
			     dl[4] = { 1, 1, 1, 1 };
	float x[108], w[108], y[36];
	aclopAttr *attr = aclopCreateAttr();
	struct call c = { .nin = 2, .nout = 1 };

	for (int i = 0; i < 108; i++) {
		x[i] = (float)((i * 7) % 11) - 5.0f;
		w[i] = 0.125f * (float)((i * 5) % 9) - 0.5f;
	}
	/* set out of order: the key sorts attributes by name */
	aclopSetAttrListInt(attr, "pads", 4, pd);
	aclopSetAttrListInt(attr, "dilations", 4, dl);
	aclopSetAttrListInt(attr, "strides", 4, st);
	call_tensor(&c, 0, ACL_FLOAT, 4, dx, ACL_FORMAT_NCHW, x);
	call_tensor(&c, 1, ACL_FLOAT, 4, dw, ACL_FORMAT_NCHW, w);
	call_tensor(&c, 2, ACL_FLOAT, 4, dy, ACL_FORMAT_NCHW, NULL);
	ASSERT_EQ(ACL_SUCCESS, call_run(&c, "Conv2D", attr, self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->stream));
	call_out(&c, 0, y);
	/* pads: top 1, bottom 0, left 1, right 0; stride 2 */
	for (int o = 0; o < 4; o++)
		for (int oh = 0; oh < 3; oh++)
			for (int ow = 0; ow < 3; ow++) {
				float r = 0;

				for (int ci = 0; ci < 3; ci++)
					for (int kh = 0; kh < 3; kh++)
						for (int kw = 0; kw < 3; kw++) {
							int ih = oh * 2 - 1 + kh, iw = ow * 2 - 1 + kw;

							if (ih < 0 || iw < 0 || ih >= 6 || iw >= 6)
								continue;
							r += x[(ci * 6 + ih) * 6 + iw] *
							     w[((o * 3 + ci) * 3 + kh) * 3 + kw];
						}
				ASSERT_LT(fabsf(r - y[(o * 3 + oh) * 3 + ow]), 1e-4f);
			}
	aclopDestroyAttr(attr);
	call_free(&c);
}

/*
 * CANN's Slice with its offsets and size as constant inputs
 * (aclSetTensorConst; "is_const"/"const_value" in the model list): x
 * [3, 4] = 0..11, offsets [1, 1], size [2, -1] is rows 1..2, columns
 * 1..3. The constants are part of the description: other values, or no
 * constant at all, find no model.
 */
TEST_F(op, slice_const_inputs)
{
	static const int64_t dx[2] = { 3, 4 }, d2[1] = { 2 }, dy[2] = { 2, 3 };
	static const float want[6] = { 5, 6, 7, 9, 10, 11 };
	int32_t off[2] = { 1, 1 }, sz[2] = { 2, -1 }, other[2] = { 0, 1 };
	float x[12], y[6];
	struct call c = { .nin = 3, .nout = 1 };

	for (int i = 0; i < 12; i++)
		x[i] = (float)i;
	call_tensor(&c, 0, ACL_FLOAT, 2, dx, ACL_FORMAT_ND, x);
	call_tensor(&c, 1, ACL_INT32, 1, d2, ACL_FORMAT_ND, off);
	call_tensor(&c, 2, ACL_INT32, 1, d2, ACL_FORMAT_ND, sz);
	call_tensor(&c, 3, ACL_FLOAT, 2, dy, ACL_FORMAT_ND, NULL);
	EXPECT_EQ(ACL_ERROR_OP_INPUT_NOT_MATCH, call_run(&c, "Slice", NULL, self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclSetTensorConst(c.desc[1], other, sizeof(other)));
	ASSERT_EQ(ACL_SUCCESS, aclSetTensorConst(c.desc[2], sz, sizeof(sz)));
	EXPECT_EQ(ACL_ERROR_OP_INPUT_NOT_MATCH, call_run(&c, "Slice", NULL, self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclSetTensorConst(c.desc[1], off, sizeof(off)));
	ASSERT_EQ(ACL_SUCCESS, call_run(&c, "Slice", NULL, self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->stream));
	call_out(&c, 0, y);
	for (int i = 0; i < 6; i++)
		EXPECT_EQ(want[i], y[i]);
	call_free(&c);
}

/*
 * Conv2D described in NHWC with an HWCN filter, strides [1, 2, 2, 1] in
 * x's layout and pads (top, bottom, left, right) [0, 1, 0, 1].
 */
TEST_F(op, conv2d_nhwc_hwcn)
{
	static const int64_t dx[4] = { 1, 4, 4, 2 }, dw[4] = { 2, 2, 2, 3 },
			     dy[4] = { 1, 2, 2, 3 };
	static const int64_t st[4] = { 1, 2, 2, 1 }, pd[4] = { 0, 1, 0, 1 },
			     dl[4] = { 1, 1, 1, 1 };
	float x[32], w[24], y[12];
	aclopAttr *attr = aclopCreateAttr();
	struct call c = { .nin = 2, .nout = 1 };

	for (int i = 0; i < 32; i++)
		x[i] = (float)((i * 7) % 11) - 5.0f;
	for (int i = 0; i < 24; i++)
		w[i] = 0.25f * (float)((i * 5) % 7) - 0.75f;
	aclopSetAttrListInt(attr, "strides", 4, st);
	aclopSetAttrListInt(attr, "pads", 4, pd);
	aclopSetAttrListInt(attr, "dilations", 4, dl);
	aclopSetAttrString(attr, "data_format", "NHWC");
	call_tensor(&c, 0, ACL_FLOAT, 4, dx, ACL_FORMAT_NHWC, x);
	call_tensor(&c, 1, ACL_FLOAT, 4, dw, ACL_FORMAT_HWCN, w);
	call_tensor(&c, 2, ACL_FLOAT, 4, dy, ACL_FORMAT_NHWC, NULL);
	ASSERT_EQ(ACL_SUCCESS, call_run(&c, "Conv2D", attr, self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->stream));
	call_out(&c, 0, y);
	for (int oh = 0; oh < 2; oh++)
		for (int ow = 0; ow < 2; ow++)
			for (int o = 0; o < 3; o++) {
				float r = 0;

				for (int kh = 0; kh < 2; kh++)
					for (int kw = 0; kw < 2; kw++)
						for (int ci = 0; ci < 2; ci++) {
							int ih = oh * 2 + kh, iw = ow * 2 + kw;

							if (ih < 4 && iw < 4)
								r += x[(ih * 4 + iw) * 2 + ci] *
								     w[((kh * 2 + kw) * 2 + ci) * 3 + o];
						}
				ASSERT_LT(fabsf(r - y[(oh * 2 + ow) * 3 + o]), 1e-4f);
			}
	aclopDestroyAttr(attr);
	call_free(&c);
}

/* CANN's gemm sample: fp16, alpha and beta as scalar tensors. */
TEST_F(op, gemm_fp16_alpha_beta)
{
	static const int64_t d[2] = { 16, 16 };
	aclFloat16 a[256], b[256], cc[256], al, be, y[256];
	aclopAttr *attr = aclopCreateAttr();
	struct call c = { .nin = 5, .nout = 1 };

	for (int i = 0; i < 256; i++) {
		a[i] = aclFloatToFloat16(0.0625f * (float)(i % 13) - 0.25f);
		b[i] = aclFloatToFloat16(0.125f * (float)(i % 5) - 0.25f);
		cc[i] = aclFloatToFloat16((float)(i % 3));
	}
	al = aclFloatToFloat16(1.5f);
	be = aclFloatToFloat16(-0.5f);
	aclopSetAttrBool(attr, "transpose_a", 0);
	aclopSetAttrBool(attr, "transpose_b", 0);
	call_tensor(&c, 0, ACL_FLOAT16, 2, d, ACL_FORMAT_ND, a);
	call_tensor(&c, 1, ACL_FLOAT16, 2, d, ACL_FORMAT_ND, b);
	call_tensor(&c, 2, ACL_FLOAT16, 2, d, ACL_FORMAT_ND, cc);
	call_tensor(&c, 3, ACL_FLOAT16, 0, NULL, ACL_FORMAT_ND, &al);
	call_tensor(&c, 4, ACL_FLOAT16, 0, NULL, ACL_FORMAT_ND, &be);
	call_tensor(&c, 5, ACL_FLOAT16, 2, d, ACL_FORMAT_ND, NULL);
	ASSERT_EQ(ACL_SUCCESS, call_run(&c, "GEMM", attr, self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->stream));
	call_out(&c, 0, y);
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 16; j++) {
			float r = 0, got = aclFloat16ToFloat(y[i * 16 + j]);

			for (int k = 0; k < 16; k++)
				r += aclFloat16ToFloat(a[i * 16 + k]) *
				     aclFloat16ToFloat(b[k * 16 + j]);
			r = 1.5f * r - 0.5f * aclFloat16ToFloat(cc[i * 16 + j]);
			ASSERT_LT(fabsf(r - got), 0.02f + 0.005f * fabsf(r));
		}
	aclopDestroyAttr(attr);
	call_free(&c);
}

TEST_F(op, reduce_sum_keep_dims)
{
	static const int64_t dx[3] = { 2, 3, 4 }, dy[3] = { 2, 1, 4 },
			     axes[1] = { 1 };
	float x[24], y[8];
	aclopAttr *attr = aclopCreateAttr();
	struct call c = { .nin = 1, .nout = 1 };

	for (int i = 0; i < 24; i++)
		x[i] = (float)i * 0.5f;
	aclopSetAttrListInt(attr, "axes", 1, axes);
	aclopSetAttrBool(attr, "keep_dims", 1);
	call_tensor(&c, 0, ACL_FLOAT, 3, dx, ACL_FORMAT_ND, x);
	call_tensor(&c, 1, ACL_FLOAT, 3, dy, ACL_FORMAT_ND, NULL);
	ASSERT_EQ(ACL_SUCCESS, call_run(&c, "ReduceSumD", attr, self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->stream));
	call_out(&c, 0, y);
	for (int n = 0; n < 2; n++)
		for (int k = 0; k < 4; k++)
			ASSERT_EQ(x[n * 12 + k] + x[n * 12 + 4 + k] + x[n * 12 + 8 + k],
				  y[n * 4 + k]);
	aclopDestroyAttr(attr);
	call_free(&c);
}

/* One lookup, many runs, in stream order with a copy after them. */
TEST_F(op, handle_runs_in_stream_order)
{
	int32_t a[128], b[128], y[128];
	aclopHandle *h = NULL;
	struct call c;

	add_call(&c, a, b);
	ASSERT_EQ(ACL_SUCCESS, aclopCreateHandle("Add", 2,
		(const aclTensorDesc *const *)c.desc, 1,
		(const aclTensorDesc *const *)c.desc + 2, NULL, &h));
	/* y = a + b, then a = y (device copy) ten times: a + 10 b */
	for (int r = 0; r < 10; r++) {
		ASSERT_EQ(ACL_SUCCESS, aclopExecWithHandle(h, 2,
			(const aclDataBuffer *const *)c.buf, 1, c.buf + 2,
			self->stream));
		ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(c.dev[0], 512, c.dev[2], 512,
			ACL_MEMCPY_DEVICE_TO_DEVICE, self->stream));
	}
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->stream));
	call_out(&c, 0, y);
	for (int i = 0; i < 128; i++)
		ASSERT_EQ(a[i] + 10 * b[i], y[i]);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopExecWithHandle(h, 1,
		(const aclDataBuffer *const *)c.buf, 1, c.buf + 2, self->stream));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopExecWithHandle(NULL, 2,
		(const aclDataBuffer *const *)c.buf, 1, c.buf + 2, self->stream));
	aclopDestroyHandle(h);
	call_free(&c);
}

/* Compiled in process: an op the model list lacks, then run. */
TEST_F(op, compile_then_execute)
{
	static const int64_t d[1] = { 37 };
	float x[37], y[37];
	struct call c = { .nin = 1, .nout = 1 };

	for (int i = 0; i < 37; i++)
		x[i] = (float)i - 18.5f;
	call_tensor(&c, 0, ACL_FLOAT, 1, d, ACL_FORMAT_ND, x);
	call_tensor(&c, 1, ACL_FLOAT, 1, d, ACL_FORMAT_ND, NULL);
	EXPECT_EQ(ACL_ERROR_OP_NOT_FOUND, call_run(&c, "Relu", NULL, self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclopCompile("Relu", 1,
		(const aclTensorDesc *const *)c.desc, 1,
		(const aclTensorDesc *const *)c.desc + 1, NULL, ACL_ENGINE_SYS,
		ACL_COMPILE_SYS, NULL));
	ASSERT_EQ(ACL_SUCCESS, call_run(&c, "Relu", NULL, self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->stream));
	call_out(&c, 0, y);
	for (int i = 0; i < 37; i++)
		ASSERT_EQ(x[i] > 0 ? x[i] : 0.0f, y[i]);
	call_free(&c);
}

/*
 * CANN's Gelu op is the tanh approximation (its golden computes
 * 0.5x(1 + tanh(sqrt(2/pi)(x + 0.044715x^3)))); at x = -3 the erf form
 * differs from it by about 2e-4, far beyond the tolerance here.
 */
TEST_F(op, gelu_is_the_tanh_form)
{
	static const int64_t d[1] = { 13 };
	float x[13], y[13];
	struct call c = { .nin = 1, .nout = 1 };

	for (int i = 0; i < 13; i++)
		x[i] = (float)i * 0.5f - 3.0f;
	call_tensor(&c, 0, ACL_FLOAT, 1, d, ACL_FORMAT_ND, x);
	call_tensor(&c, 1, ACL_FLOAT, 1, d, ACL_FORMAT_ND, NULL);
	ASSERT_EQ(ACL_SUCCESS, aclopCompile("Gelu", 1,
		(const aclTensorDesc *const *)c.desc, 1,
		(const aclTensorDesc *const *)c.desc + 1, NULL, ACL_ENGINE_SYS,
		ACL_COMPILE_SYS, NULL));
	ASSERT_EQ(ACL_SUCCESS, call_run(&c, "Gelu", NULL, self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->stream));
	call_out(&c, 0, y);
	for (int i = 0; i < 13; i++) {
		double v = x[i], k = sqrt(2.0 / M_PI);
		double want = 0.5 * v * (1.0 + tanh(k * (v + 0.044715 * v * v * v)));
		double erf_form = 0.5 * v * (1.0 + erf(v / sqrt(2.0)));

		ASSERT_TRUE(fabs(want - y[i]) < 2e-5) TH_LOG("x %g: %g, want %g", v, y[i], want);
		if (i == 0)
			ASSERT_TRUE(fabs(erf_form - want) > 1e-4);
	}
	call_free(&c);
}

TEST_F(op, compile_and_execute_v2)
{
	static const int64_t d[2] = { 3, 7 };
	float a[21], b[21], y[21];
	struct call c = { .nin = 2, .nout = 1 };

	for (int i = 0; i < 21; i++) {
		a[i] = (float)i;
		b[i] = (float)(i % 4) + 1.0f;
	}
	call_tensor(&c, 0, ACL_FLOAT, 2, d, ACL_FORMAT_ND, a);
	call_tensor(&c, 1, ACL_FLOAT, 2, d, ACL_FORMAT_ND, b);
	call_tensor(&c, 2, ACL_FLOAT, 2, d, ACL_FORMAT_ND, NULL);
	for (int r = 0; r < 3; r++)	/* compiled once, found twice */
		ASSERT_EQ(ACL_SUCCESS, aclopCompileAndExecuteV2("RealDiv", 2,
			c.desc, c.buf, 1, c.desc + 2, c.buf + 2, NULL,
			ACL_ENGINE_AICORE, ACL_COMPILE_SYS, NULL, self->stream));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->stream));
	call_out(&c, 0, y);
	for (int i = 0; i < 21; i++)
		ASSERT_EQ(a[i] / b[i], y[i]);
	call_free(&c);
}

/* Each part of a description that differs has its own code. */
TEST_F(op, mismatches_name_the_part)
{
	static const int64_t d44[2] = { 4, 4 }, da[2] = { 4, 3 },
			     db[2] = { 5, 4 }, dy[2] = { 3, 5 }, dbad[2] = { 5, 3 };
	aclopAttr *t11 = matmul_attr(1, 1), *t10 = matmul_attr(1, 0);
	struct call c = { .nin = 2, .nout = 1 }, m = { .nin = 2, .nout = 1 };

	call_tensor(&c, 0, ACL_INT32, 2, d44, ACL_FORMAT_ND, NULL);
	call_tensor(&c, 1, ACL_INT32, 2, d44, ACL_FORMAT_ND, NULL);
	call_tensor(&c, 2, ACL_INT32, 2, d44, ACL_FORMAT_ND, NULL);
	EXPECT_EQ(ACL_ERROR_OP_INPUT_NOT_MATCH, call_run(&c, "Add", NULL, self->stream));
	EXPECT_EQ(ACL_ERROR_OP_NOT_FOUND, call_run(&c, "NoSuchOp", NULL, self->stream));
	call_tensor(&m, 0, ACL_FLOAT, 2, da, ACL_FORMAT_ND, NULL);
	call_tensor(&m, 1, ACL_FLOAT, 2, db, ACL_FORMAT_ND, NULL);
	call_tensor(&m, 2, ACL_FLOAT, 2, dbad, ACL_FORMAT_ND, NULL);
	EXPECT_EQ(ACL_ERROR_OP_OUTPUT_NOT_MATCH, call_run(&m, "MatMulV2", t11, self->stream));
	aclDestroyTensorDesc(m.desc[2]);
	m.desc[2] = aclCreateTensorDesc(ACL_FLOAT, 2, dy, ACL_FORMAT_ND);
	EXPECT_EQ(ACL_ERROR_OP_ATTR_NOT_MATCH, call_run(&m, "MatMulV2", t10, self->stream));
	EXPECT_EQ(ACL_ERROR_OP_ATTR_NOT_MATCH, call_run(&m, "MatMulV2", NULL, self->stream));
	/* a format is part of the description too */
	aclDestroyTensorDesc(m.desc[0]);
	m.desc[0] = aclCreateTensorDesc(ACL_FLOAT, 2, da, ACL_FORMAT_NCHW);
	EXPECT_EQ(ACL_ERROR_OP_INPUT_NOT_MATCH, call_run(&m, "MatMulV2", t11, self->stream));
	aclopDestroyAttr(t11);
	aclopDestroyAttr(t10);
	call_free(&c);
	call_free(&m);
}

TEST_F(op, bad_arguments)
{
	int32_t a[128], b[128], host[128];
	aclDataBuffer *small, *hostbuf, *bufs[3];
	aclopHandle *h = NULL;
	struct call c;

	add_call(&c, a, b);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopExecuteV2(NULL, 2, c.desc, c.buf, 1,
		c.desc + 2, c.buf + 2, NULL, self->stream));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopExecuteV2("Add", -1, c.desc, c.buf, 1,
		c.desc + 2, c.buf + 2, NULL, self->stream));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopExecuteV2("Add", 2, NULL, c.buf, 1,
		c.desc + 2, c.buf + 2, NULL, self->stream));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopExecuteV2("Add", 2, c.desc, NULL, 1,
		c.desc + 2, c.buf + 2, NULL, self->stream));
	/* a buffer smaller than the tensor, and host memory */
	small = aclCreateDataBuffer(c.dev[1], 100);
	hostbuf = aclCreateDataBuffer(host, sizeof(host));
	bufs[0] = c.buf[0];
	bufs[1] = small;
	bufs[2] = c.buf[2];
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopExecuteV2("Add", 2, c.desc, bufs, 1,
		c.desc + 2, bufs + 2, NULL, self->stream));
	bufs[1] = hostbuf;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopExecuteV2("Add", 2, c.desc, bufs, 1,
		c.desc + 2, bufs + 2, NULL, self->stream));
	bufs[1] = NULL;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopExecuteV2("Add", 2, c.desc, bufs, 1,
		c.desc + 2, bufs + 2, NULL, self->stream));
	/* a stream that is not one */
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, call_run(&c, "Add", NULL, (aclrtStream)host));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopCreateHandle("Add", 2,
		(const aclTensorDesc *const *)c.desc, 1,
		(const aclTensorDesc *const *)c.desc + 2, NULL, NULL));
	EXPECT_EQ(ACL_ERROR_OP_NOT_FOUND, aclopCreateHandle("Sub", 2,
		(const aclTensorDesc *const *)c.desc, 1,
		(const aclTensorDesc *const *)c.desc + 2, NULL, &h));
	EXPECT_EQ(NULL, h);
	aclDestroyDataBuffer(small);
	aclDestroyDataBuffer(hostbuf);
	call_free(&c);
}

TEST_F(op, compile_errors)
{
	static const int64_t d[1] = { 8 }, d9[1] = { 9 };
	aclTensorDesc *x = aclCreateTensorDesc(ACL_FLOAT, 1, d, ACL_FORMAT_ND);
	aclTensorDesc *y9 = aclCreateTensorDesc(ACL_FLOAT, 1, d9, ACL_FORMAT_ND);
	const aclTensorDesc *in[1] = { x }, *out[1] = { x }, *bad[1] = { y9 };

	EXPECT_EQ(ACL_ERROR_OP_NOT_FOUND, aclopCompile("NoSuchOp", 1, in, 1, out,
		NULL, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL));
	/* the op gives [8], not [9] */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopCompile("Relu", 1, in, 1, bad,
		NULL, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopCompile("Relu", 1, in, 1, out,
		NULL, (aclopEngineType)7, ACL_COMPILE_SYS, NULL));
	EXPECT_EQ(ACL_ERROR_API_NOT_SUPPORT, aclopCompile("Relu", 1, in, 1, out,
		NULL, ACL_ENGINE_SYS, ACL_COMPILE_UNREGISTERED, "/nonexistent"));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopCompile("Relu", 2, in, 1, out,
		NULL, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL));
	EXPECT_EQ(ACL_SUCCESS, aclopSetCompileFlag(ACL_OP_COMPILE_FUZZ));
	EXPECT_EQ(ACL_SUCCESS, aclopSetCompileFlag(ACL_OP_COMPILE_DEFAULT));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopSetCompileFlag((aclOpCompileFlag)5));
	aclDestroyTensorDesc(x);
	aclDestroyTensorDesc(y9);
}

TEST_F(op, load_errors)
{
	static const char junk[64] = "not a model";
	uint64_t big[64];

	memset(big, 0, sizeof(big));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopLoad(NULL, 10));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopLoad(junk, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_FILE, aclopLoad(junk, sizeof(junk)));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopSetModelDir(NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopSetModelDir("/nonexistent/op_models"));
	EXPECT_EQ(ACL_SUCCESS, aclopSetMaxOpQueueNum(128));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopSetMaxOpQueueNum(0));
}

/* A model file (not a single-op one) is refused by aclopLoad. */
TEST_F(op, load_refuses_a_whole_model)
{
	size_t n = 0;
	void *img = om_build_add_relu(&n);

	ASSERT_NE(NULL, img);
	EXPECT_EQ(ACL_ERROR_PARSE_MODEL, aclopLoad(img, n));
	free(img);
}

/* The Add model of the list, read into memory and given to aclopLoad. */
static aclError load_add_from_memory(void)
{
	FILE *f = fopen(OP_MODEL_DIR "/0_Add_3_2_8_16_3_2_8_16_3_2_8_16.om", "rb");
	static char img[1 << 16];
	size_t n;

	if (!f)
		return -1;
	n = fread(img, 1, sizeof(img), f);
	fclose(f);
	return aclopLoad(img, n);
}

/* The same op loaded from memory works like one from the directory. */
TEST_F(op, load_from_memory_after_finalize)
{
	int32_t a[128], b[128], y[128];
	struct call c;

	/* aclFinalize forgets the loaded ops */
	aclrtDestroyStream(self->stream);
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclFinalize());
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->stream));
	add_call(&c, a, b);
	EXPECT_EQ(ACL_ERROR_OP_NOT_FOUND, call_run(&c, "Add", NULL, self->stream));
	ASSERT_EQ(ACL_SUCCESS, load_add_from_memory());
	ASSERT_EQ(ACL_SUCCESS, call_run(&c, "Add", NULL, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeDevice());
	call_out(&c, 0, y);
	for (int i = 0; i < 128; i++)
		ASSERT_EQ(a[i] + b[i], y[i]);
	call_free(&c);
}

TEST(attrs_every_setter_and_misuse)
{
	static const int64_t li[3] = { 1, -2, 3 }, l0[1] = { 4 };
	static const float lf[2] = { 0.5f, -1.0f };
	static const uint8_t lb[2] = { 1, 0 };
	static const aclDataType ldt[2] = { ACL_FLOAT, ACL_INT64 };
	const char *ls[2] = { "a", "bc" };
	const int64_t *lli[2] = { li, l0 };
	const int nl[2] = { 3, 1 };
	aclopAttr *a = aclopCreateAttr();

	ASSERT_NE(NULL, a);
	EXPECT_EQ(ACL_SUCCESS, aclopSetAttrBool(a, "b", 1));
	EXPECT_EQ(ACL_SUCCESS, aclopSetAttrInt(a, "i", -7));
	EXPECT_EQ(ACL_SUCCESS, aclopSetAttrFloat(a, "f", 2.5f));
	EXPECT_EQ(ACL_SUCCESS, aclopSetAttrString(a, "s", "NCHW"));
	EXPECT_EQ(ACL_SUCCESS, aclopSetAttrDataType(a, "dt", ACL_FLOAT16));
	EXPECT_EQ(ACL_SUCCESS, aclopSetAttrListBool(a, "lb", 2, lb));
	EXPECT_EQ(ACL_SUCCESS, aclopSetAttrListInt(a, "li", 3, li));
	EXPECT_EQ(ACL_SUCCESS, aclopSetAttrListFloat(a, "lf", 2, lf));
	EXPECT_EQ(ACL_SUCCESS, aclopSetAttrListString(a, "ls", 2, ls));
	EXPECT_EQ(ACL_SUCCESS, aclopSetAttrListDataType(a, "ldt", 2, ldt));
	EXPECT_EQ(ACL_SUCCESS, aclopSetAttrListListInt(a, "lli", 2, nl, lli));
	EXPECT_EQ(ACL_SUCCESS, aclopSetAttrInt(a, "i", 9));	/* replaces */
	EXPECT_EQ(ACL_SUCCESS, aclopSetAttrListInt(a, "empty", 0, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopSetAttrInt(NULL, "i", 1));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopSetAttrInt(a, NULL, 1));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopSetAttrInt(a, "", 1));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopSetAttrString(a, "s2", NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopSetAttrListInt(a, "x", -1, li));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopSetAttrListInt(a, "x", 2, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclopSetAttrListListInt(a, "x", 2, NULL, lli));
	aclopDestroyAttr(a);
	aclopDestroyAttr(NULL);
}

TEST(calls_before_init)
{
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclopSetModelDir(OP_MODEL_DIR));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclopLoad("x", 1));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclopExecuteV2("Add", 0, NULL, NULL, 0,
		NULL, NULL, NULL, NULL));
}

TEST_HARNESS_MAIN
