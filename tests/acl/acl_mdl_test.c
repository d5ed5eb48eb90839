// SPDX-License-Identifier: MIT
/*
 * The aclmdl API on the real driver, with models from the test-only .om
 * builder (om_builder.h): load in every form, describe, execute sync and
 * async with values read back against a host computation, dynamic batch,
 * two models at once, one model from 4 threads on 4 streams, both
 * devices, capture into an aclmdlRI and replay, every misuse with its
 * code, and the counts of 100 executions (SUBMITs from the driver's
 * debugfs statistics, buffer objects from GET_PARAM).
 */
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "acl/acl.h"
/*
 * GCC inlines the longer test bodies into the harness's wrapper and then
 * warns about the harness's own vfork variable; nothing of ours is live
 * across it.
 */
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"
#include "vnpu_param.h"
#include "om_builder.h"

/* Inputs of the Add+Relu model: a[i] = i - 2.5, b[i] = scale * (i % 2). */
static void add_relu_inputs(float *a, float *b, float scale)
{
	for (int i = 0; i < 6; i++) {
		a[i] = (float)i - 2.5f;
		b[i] = scale * (float)(i % 2);
	}
}

static float relu(float x)
{
	return x > 0 ? x : 0;
}

struct run {
	void *in[2], *out;
	aclDataBuffer *ib[3], *ob;
	aclmdlDataset *ids, *ods;
};

/* Device buffers and datasets for the Add+Relu model. */
static int run_make(struct run *r, float scale)
{
	float a[6], b[6];

	add_relu_inputs(a, b, scale);
	memset(r, 0, sizeof(*r));
	if (aclrtMalloc(&r->in[0], 24, ACL_MEM_MALLOC_HUGE_FIRST) ||
	    aclrtMalloc(&r->in[1], 24, ACL_MEM_MALLOC_HUGE_FIRST) ||
	    aclrtMalloc(&r->out, 24, ACL_MEM_MALLOC_HUGE_FIRST))
		return -1;
	aclrtMemcpy(r->in[0], 24, a, 24, ACL_MEMCPY_HOST_TO_DEVICE);
	aclrtMemcpy(r->in[1], 24, b, 24, ACL_MEMCPY_HOST_TO_DEVICE);
	aclrtMemset(r->out, 24, 0xff, 24);
	r->ids = aclmdlCreateDataset();
	r->ods = aclmdlCreateDataset();
	for (int i = 0; i < 2; i++) {
		r->ib[i] = aclCreateDataBuffer(r->in[i], 24);
		aclmdlAddDatasetBuffer(r->ids, r->ib[i]);
	}
	r->ob = aclCreateDataBuffer(r->out, 24);
	aclmdlAddDatasetBuffer(r->ods, r->ob);
	return 0;
}

static void run_free(struct run *r)
{
	aclmdlDestroyDataset(r->ids);
	aclmdlDestroyDataset(r->ods);
	for (int i = 0; i < 2; i++) {
		aclDestroyDataBuffer(r->ib[i]);
		aclrtFree(r->in[i]);
	}
	aclDestroyDataBuffer(r->ob);
	aclrtFree(r->out);
}

/* The output of an Add+Relu run equals relu(a + b)? */
static int run_ok(struct run *r, float scale)
{
	float a[6], b[6], o[6];

	add_relu_inputs(a, b, scale);
	if (aclrtMemcpy(o, 24, r->out, 24, ACL_MEMCPY_DEVICE_TO_HOST))
		return 0;
	for (int i = 0; i < 6; i++)
		if (o[i] != relu(a[i] + b[i])) {
			fprintf(stderr, "out[%d] = %f, want %f\n", i, o[i],
				relu(a[i] + b[i]));
			return 0;
		}
	return 1;
}

static uint64_t debugfs_jobs(int dev)
{
	char path[96], line[128];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/accel/vnpu.%d/stats", dev);
	f = fopen(path, "r");
	if (!f)
		return UINT64_MAX;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "jobs_submitted: %llu", &v) == 1)
			break;
	fclose(f);
	return v;
}

FIXTURE(m) {
	void *img;
	size_t size;
	uint32_t id;
	aclrtStream s;
};

FIXTURE_SETUP(m)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s));
	self->img = om_build_add_relu(&self->size);
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromMem(self->img, self->size, &self->id));
}

FIXTURE_TEARDOWN(m)
{
	aclmdlUnload(self->id);	/* may be unloaded already */
	aclrtDestroyStream(self->s);
	free(self->img);
	aclrtResetDevice(0);
	aclFinalize();
}

TEST_F(m, describe)
{
	aclmdlDesc *d = aclmdlCreateDesc();
	aclmdlIODims dims;
	size_t idx;

	ASSERT_EQ(ACL_SUCCESS, aclmdlGetDesc(d, self->id));
	EXPECT_EQ(2, aclmdlGetNumInputs(d));
	EXPECT_EQ(1, aclmdlGetNumOutputs(d));
	EXPECT_EQ(24, aclmdlGetInputSizeByIndex(d, 1));
	EXPECT_EQ(24, aclmdlGetOutputSizeByIndex(d, 0));
	EXPECT_EQ(0, aclmdlGetInputSizeByIndex(d, 2));
	EXPECT_STREQ("b", aclmdlGetInputNameByIndex(d, 1));
	EXPECT_STREQ("out", aclmdlGetOutputNameByIndex(d, 0));
	EXPECT_EQ(NULL, aclmdlGetOutputNameByIndex(d, 1));
	ASSERT_EQ(ACL_SUCCESS, aclmdlGetInputDims(d, 0, &dims));
	EXPECT_STREQ("a", dims.name);
	EXPECT_EQ(2, dims.dimCount);
	EXPECT_EQ(2, dims.dims[0]);
	EXPECT_EQ(3, dims.dims[1]);
	ASSERT_EQ(ACL_SUCCESS, aclmdlGetInputDimsV2(d, 0, &dims));
	EXPECT_EQ(2, dims.dims[0]);
	ASSERT_EQ(ACL_SUCCESS, aclmdlGetOutputDims(d, 0, &dims));
	EXPECT_EQ(3, dims.dims[1]);
	ASSERT_EQ(ACL_SUCCESS, aclmdlGetCurOutputDims(d, 0, &dims));
	EXPECT_EQ(2, dims.dims[0]);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlGetInputDims(d, 2, &dims));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlGetOutputDims(d, 0, NULL));
	EXPECT_EQ(ACL_FLOAT, aclmdlGetInputDataType(d, 0));
	EXPECT_EQ(ACL_FLOAT, aclmdlGetOutputDataType(d, 0));
	EXPECT_EQ(ACL_DT_UNDEFINED, aclmdlGetOutputDataType(d, 3));
	EXPECT_EQ(ACL_FORMAT_NCHW, aclmdlGetInputFormat(d, 0));
	EXPECT_EQ(ACL_FORMAT_UNDEFINED, aclmdlGetOutputFormat(d, 1));
	ASSERT_EQ(ACL_SUCCESS, aclmdlGetInputIndexByName(d, "b", &idx));
	EXPECT_EQ(1, idx);
	ASSERT_EQ(ACL_SUCCESS, aclmdlGetOutputIndexByName(d, "out", &idx));
	EXPECT_EQ(0, idx);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlGetInputIndexByName(d, "out", &idx));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlGetOutputIndexByName(d, NULL, &idx));
	EXPECT_EQ(ACL_ERROR_INVALID_MODEL_ID, aclmdlGetDesc(d, self->id + 1000));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlGetDesc(NULL, self->id));
	/* The description outlives the model. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlUnload(self->id));
	EXPECT_STREQ("a", aclmdlGetInputNameByIndex(d, 0));
	EXPECT_EQ(ACL_SUCCESS, aclmdlDestroyDesc(d));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlDestroyDesc(NULL));
}

TEST_F(m, datasets)
{
	aclmdlDataset *ds = aclmdlCreateDataset();
	aclDataBuffer *b = aclCreateDataBuffer((void *)0x1000, 8);
	int64_t shape[2] = { 2, 3 };
	aclTensorDesc *td = aclCreateTensorDesc(ACL_FLOAT, 2, shape, ACL_FORMAT_ND);

	ASSERT_NE(NULL, ds);
	EXPECT_EQ(0, aclmdlGetDatasetNumBuffers(ds));
	EXPECT_EQ(ACL_SUCCESS, aclmdlAddDatasetBuffer(ds, b));
	EXPECT_EQ(ACL_SUCCESS, aclmdlAddDatasetBuffer(ds, b));
	EXPECT_EQ(2, aclmdlGetDatasetNumBuffers(ds));
	EXPECT_EQ(b, aclmdlGetDatasetBuffer(ds, 1));
	EXPECT_EQ(NULL, aclmdlGetDatasetBuffer(ds, 2));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlAddDatasetBuffer(ds, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlAddDatasetBuffer(NULL, b));
	EXPECT_EQ(NULL, aclmdlGetDatasetTensorDesc(ds, 0));
	EXPECT_EQ(ACL_SUCCESS, aclmdlSetDatasetTensorDesc(ds, td, 1));
	EXPECT_EQ(td, aclmdlGetDatasetTensorDesc(ds, 1));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetDatasetTensorDesc(ds, td, 2));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetDatasetTensorDesc(ds, NULL, 0));
	EXPECT_EQ(ACL_SUCCESS, aclmdlDestroyDataset(ds));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlDestroyDataset(NULL));
	EXPECT_EQ((void *)0x1000, aclGetDataBufferAddr(b));
	aclDestroyDataBuffer(b);
	aclDestroyTensorDesc(td);
}

TEST_F(m, execute_sync_and_async)
{
	struct run r;
	float b[6];

	ASSERT_EQ(0, run_make(&r, 4.0f));
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecute(self->id, r.ids, r.ods));
	EXPECT_TRUE(run_ok(&r, 4.0f));
	aclrtMemset(r.out, 24, 0, 24);
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecuteAsync(self->id, r.ids, r.ods, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	EXPECT_TRUE(run_ok(&r, 4.0f));
	/* Ordered with other work on the stream: a copy into b before it. */
	for (int i = 0; i < 6; i++)
		b[i] = 10.0f * (float)(i % 2);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(r.in[1], 24, b, 24,
						ACL_MEMCPY_HOST_TO_DEVICE, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecuteAsync(self->id, r.ids, r.ods, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	EXPECT_TRUE(run_ok(&r, 10.0f));
	run_free(&r);
}

/*
 * The model's arenas remembered the timeline (syncobj handle, point) of
 * the stream they last ran on; once that stream was destroyed, the next
 * stream got the same syncobj handle back at point 0, and the unload
 * waited for the old point forever (the harness's timeout fails it).
 */
TEST_F(m, unload_after_its_stream_is_destroyed)
{
	aclrtStream a, b;
	struct run r;

	ASSERT_EQ(0, run_make(&r, 2.0f));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&a));
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(ACL_SUCCESS, aclmdlExecuteAsync(self->id, r.ids, r.ods, a));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(a));
	EXPECT_TRUE(run_ok(&r, 2.0f));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(a));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&b));
	EXPECT_EQ(ACL_SUCCESS, aclmdlUnload(self->id));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(b));
	run_free(&r);
}

TEST_F(m, misuse_codes)
{
	struct run r;
	aclDataBuffer *small, *nul;
	aclmdlDataset *bad;

	ASSERT_EQ(0, run_make(&r, 1.0f));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlExecute(self->id, NULL, r.ods));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlExecuteAsync(self->id, r.ids, NULL, self->s));
	EXPECT_EQ(ACL_ERROR_INVALID_MODEL_ID, aclmdlExecute(self->id + 77, r.ids, r.ods));
	/* Too few buffers, a buffer too small, a buffer without memory. */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlExecute(self->id, r.ods, r.ods));
	bad = aclmdlCreateDataset();
	small = aclCreateDataBuffer(r.in[0], 20);
	nul = aclCreateDataBuffer(NULL, 24);
	aclmdlAddDatasetBuffer(bad, r.ib[0]);
	aclmdlAddDatasetBuffer(bad, small);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlExecute(self->id, bad, r.ods));
	aclUpdateDataBuffer(small, NULL, 24);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlExecute(self->id, bad, r.ods));
	/* Host memory is not device memory. */
	aclUpdateDataBuffer(small, (void *)&r, 24);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlExecute(self->id, bad, r.ods));
	aclmdlDestroyDataset(bad);
	aclDestroyDataBuffer(small);
	aclDestroyDataBuffer(nul);
	/* Not dynamic. */
	EXPECT_EQ(ACL_ERROR_MODEL_NOT_DYNAMIC, aclmdlSetDynamicBatchSize(self->id, r.ids, 2, 1));
	/* Unloaded: every later use of the id. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlUnload(self->id));
	EXPECT_EQ(ACL_ERROR_INVALID_MODEL_ID, aclmdlUnload(self->id));
	EXPECT_EQ(ACL_ERROR_INVALID_MODEL_ID, aclmdlExecute(self->id, r.ids, r.ods));
	EXPECT_EQ(ACL_ERROR_INVALID_MODEL_ID,
		  aclmdlExecuteAsync(self->id, r.ids, r.ods, self->s));
	EXPECT_EQ(ACL_ERROR_INVALID_MODEL_ID, aclmdlSetDynamicBatchSize(self->id, r.ids, 2, 1));
	run_free(&r);
}

TEST_F(m, load_errors)
{
	uint32_t id;
	size_t size;
	uint8_t *p = om_build_add_relu(&size);
	struct om_node *n;

	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlLoadFromMem(NULL, size, &id));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlLoadFromMem(p, size, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_FILE, aclmdlLoadFromMem(p, 10, &id));
	EXPECT_EQ(ACL_ERROR_INVALID_FILE, aclmdlLoadFromFile("/nonexistent.om", &id));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlLoadFromFile(NULL, &id));
	EXPECT_EQ(ACL_ERROR_PARSE_MODEL, aclmdlLoadFromMem(p, size - 8, &id));
	/* A node with an unknown operator, checksums intact. */
	n = (struct om_node *)(p + ((struct om_section *)(p + sizeof(struct om_header)))[2].offset);
	n->op = 9999;	/* no such operator (250 became WQ_MATMUL in UAPI 1.10) */
	omb_recrc(p, size);
	EXPECT_EQ(ACL_ERROR_PARSE_MODEL, aclmdlLoadFromMem(p, size, &id));
	n->op = DRM_VNPU_OP_ADD;
	((struct om_header *)p)->magic = 0x12345678;
	EXPECT_EQ(ACL_ERROR_INVALID_FILE, aclmdlLoadFromMem(p, size, &id));
	free(p);
}

/*
 * A model whose only node copies an empty input to an empty output (ONNX
 * models with zero-size tensors compile to this): the copy becomes a NOP
 * task, which the driver takes only with its payload zero.
 */
TEST_F(m, empty_copy_loads)
{
	static const int64_t shape[2] = { 2, 0 };
	struct omb *b = malloc(sizeof(*b));
	uint32_t in, out, id;
	size_t size;
	void *img;

	omb_init(b);
	omb_io(b, "a", DRM_VNPU_DTYPE_FLOAT, 2, shape, 0);
	omb_io(b, "out", DRM_VNPU_DTYPE_FLOAT, 2, shape, OM_IO_OUTPUT);
	in = omb_tensor(b, OM_LOC_INPUT, 0, 0, DRM_VNPU_DTYPE_FLOAT, 2, shape);
	out = omb_tensor(b, OM_LOC_OUTPUT, 0, 0, DRM_VNPU_DTYPE_FLOAT, 2, shape);
	omb_node(b, OM_OP_COPY, 1, 1, (uint32_t[]){ in, out }, NULL, "copy");
	omb_variant(b, 0, 0, 1, 0);
	omb_variant_dims(b, 0);
	img = omb_finish(b, &size);
	free(b);
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromMem(img, size, &id));
	EXPECT_EQ(ACL_SUCCESS, aclmdlUnload(id));
	free(img);
}

TEST_F(m, load_from_file_and_query)
{
	const char *path = "/tmp/acl_mdl_test_matmul.om";
	size_t size, work, weight;
	void *p = om_build_matmul(&size);
	float x[8], y[6], want;
	void *dx, *dy;
	aclDataBuffer *bx, *by;
	aclmdlDataset *in, *out;
	uint32_t id;
	FILE *f = fopen(path, "w");

	ASSERT_NE(NULL, f);
	ASSERT_EQ(1, fwrite(p, size, 1, f));
	fclose(f);
	ASSERT_EQ(ACL_SUCCESS, aclmdlQuerySize(path, &work, &weight));
	EXPECT_EQ(0, work);
	EXPECT_EQ(48, weight);
	ASSERT_EQ(ACL_SUCCESS, aclmdlQuerySizeFromMem(p, size, &work, &weight));
	EXPECT_EQ(48, weight);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlQuerySize(path, NULL, &weight));
	EXPECT_EQ(ACL_ERROR_INVALID_FILE, aclmdlQuerySize("/nonexistent.om", &work, &weight));
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromFile(path, &id));
	for (int i = 0; i < 8; i++)
		x[i] = (float)i * 0.25f - 1.0f;
	aclrtMalloc(&dx, sizeof(x), ACL_MEM_MALLOC_HUGE_FIRST);
	aclrtMalloc(&dy, sizeof(y), ACL_MEM_MALLOC_HUGE_FIRST);
	aclrtMemcpy(dx, sizeof(x), x, sizeof(x), ACL_MEMCPY_HOST_TO_DEVICE);
	in = aclmdlCreateDataset();
	out = aclmdlCreateDataset();
	bx = aclCreateDataBuffer(dx, sizeof(x));
	by = aclCreateDataBuffer(dy, sizeof(y));
	aclmdlAddDatasetBuffer(in, bx);
	aclmdlAddDatasetBuffer(out, by);
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecute(id, in, out));
	aclrtMemcpy(y, sizeof(y), dy, sizeof(y), ACL_MEMCPY_DEVICE_TO_HOST);
	for (int r = 0; r < 2; r++)
		for (int c = 0; c < 3; c++) {
			want = 0;
			for (int k = 0; k < 4; k++)
				want += x[r * 4 + k] * omb_matmul_w(k, c);
			EXPECT_TRUE(fabsf(want - y[r * 3 + c]) < 1e-5f);
		}
	EXPECT_EQ(ACL_SUCCESS, aclmdlUnload(id));
	aclmdlDestroyDataset(in);
	aclmdlDestroyDataset(out);
	aclDestroyDataBuffer(bx);
	aclDestroyDataBuffer(by);
	aclrtFree(dx);
	aclrtFree(dy);
	unlink(path);
	free(p);
}

TEST_F(m, load_with_caller_memory)
{
	size_t size, work, weight;
	void *p = om_build_add_relu(&size), *wk, *wt;
	uint32_t id;
	struct run r;

	ASSERT_EQ(ACL_SUCCESS, aclmdlQuerySizeFromMem(p, size, &work, &weight));
	EXPECT_EQ(64, work);
	EXPECT_EQ(0, weight);
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&wk, work, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&wt, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclmdlLoadFromMemWithMem(p, size, &id, wk, work - 1, NULL, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclmdlLoadFromMemWithMem(p, size, &id, (void *)&r, work, NULL, 0));
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromMemWithMem(p, size, &id, wk, work, wt, 64));
	ASSERT_EQ(0, run_make(&r, 2.0f));
	/* The one arena serializes executions on two streams: still right. */
	for (int i = 0; i < 5; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclmdlExecuteAsync(id, r.ids, r.ods, self->s));
		ASSERT_EQ(ACL_SUCCESS, aclmdlExecuteAsync(id, r.ids, r.ods, NULL));
	}
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeDevice());
	EXPECT_TRUE(run_ok(&r, 2.0f));
	EXPECT_EQ(ACL_SUCCESS, aclmdlUnload(id));
	run_free(&r);
	aclrtFree(wk);
	aclrtFree(wt);
	free(p);
}

TEST_F(m, dynamic_batch)
{
	size_t size, idx;
	void *p = om_build_dynbatch(&size), *dx, *dy, *dm;
	aclmdlDesc *d = aclmdlCreateDesc();
	aclDataBuffer *bx, *by, *bm;
	aclmdlDataset *in, *out;
	aclmdlIODims dims;
	aclmdlBatch batch;
	float x[16], y[16];
	uint32_t id;

	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromMem(p, size, &id));
	ASSERT_EQ(ACL_SUCCESS, aclmdlGetDesc(d, id));
	ASSERT_EQ(2, aclmdlGetNumInputs(d));
	ASSERT_EQ(ACL_SUCCESS, aclmdlGetInputIndexByName(d, ACL_DYNAMIC_TENSOR_NAME, &idx));
	EXPECT_EQ(1, idx);
	EXPECT_EQ(64, aclmdlGetInputSizeByIndex(d, 0));
	ASSERT_EQ(ACL_SUCCESS, aclmdlGetDynamicBatch(d, &batch));
	ASSERT_EQ(3, batch.batchCount);
	EXPECT_EQ(1, batch.batch[0]);
	EXPECT_EQ(4, batch.batch[2]);
	ASSERT_EQ(ACL_SUCCESS, aclmdlGetInputDims(d, 0, &dims));
	EXPECT_EQ(-1, dims.dims[0]);
	ASSERT_EQ(ACL_SUCCESS, aclmdlGetInputDimsV2(d, 0, &dims));
	EXPECT_EQ(4, dims.dims[0]);
	for (int i = 0; i < 16; i++)
		x[i] = (float)(i % 5) - 2.0f;
	aclrtMalloc(&dx, 64, ACL_MEM_MALLOC_HUGE_FIRST);
	aclrtMalloc(&dy, 64, ACL_MEM_MALLOC_HUGE_FIRST);
	aclrtMalloc(&dm, aclmdlGetInputSizeByIndex(d, idx), ACL_MEM_MALLOC_HUGE_FIRST);
	aclrtMemcpy(dx, 64, x, 64, ACL_MEMCPY_HOST_TO_DEVICE);
	in = aclmdlCreateDataset();
	out = aclmdlCreateDataset();
	bx = aclCreateDataBuffer(dx, 64);
	bm = aclCreateDataBuffer(dm, aclmdlGetInputSizeByIndex(d, idx));
	by = aclCreateDataBuffer(dy, 64);
	aclmdlAddDatasetBuffer(in, bx);
	aclmdlAddDatasetBuffer(in, bm);
	aclmdlAddDatasetBuffer(out, by);
	/* No batch chosen yet; then bad index, bad size. */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlExecute(id, in, out));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetDynamicBatchSize(id, in, 0, 2));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetDynamicBatchSize(id, in, idx, 3));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetDynamicBatchSize(id, NULL, idx, 2));
	for (uint32_t bsz = 1; bsz <= 4; bsz *= 2) {
		aclrtMemset(dy, 64, 0, 64);
		ASSERT_EQ(ACL_SUCCESS, aclmdlSetDynamicBatchSize(id, in, idx, bsz));
		ASSERT_EQ(ACL_SUCCESS, aclmdlExecute(id, in, out));
		ASSERT_EQ(ACL_SUCCESS, aclmdlGetCurOutputDims(d, 0, &dims));
		EXPECT_EQ(bsz, dims.dims[0]);
		aclrtMemcpy(y, 64, dy, 64, ACL_MEMCPY_DEVICE_TO_HOST);
		for (uint32_t i = 0; i < 16; i++) {
			float want = i < bsz * 4 ? relu(x[i] + omb_dyn_bias(i % 4)) : 0.0f;

			EXPECT_EQ(want, y[i]);
		}
	}
	/* A buffer large enough for batch 1 only. */
	aclUpdateDataBuffer(bx, dx, 16);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlExecute(id, in, out));
	ASSERT_EQ(ACL_SUCCESS, aclmdlSetDynamicBatchSize(id, in, idx, 1));
	EXPECT_EQ(ACL_SUCCESS, aclmdlExecute(id, in, out));
	EXPECT_EQ(ACL_SUCCESS, aclmdlUnload(id));
	aclmdlDestroyDataset(in);
	aclmdlDestroyDataset(out);
	aclDestroyDataBuffer(bx);
	aclDestroyDataBuffer(by);
	aclDestroyDataBuffer(bm);
	aclrtFree(dx);
	aclrtFree(dy);
	aclrtFree(dm);
	aclmdlDestroyDesc(d);
	free(p);
}

TEST_F(m, two_models_at_once)
{
	size_t size;
	void *p = om_build_add_relu(&size);
	struct run r1, r2;
	uint32_t id2;

	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromMem(p, size, &id2));
	EXPECT_NE(self->id, id2);
	ASSERT_EQ(0, run_make(&r1, 1.0f));
	ASSERT_EQ(0, run_make(&r2, 7.0f));
	for (int i = 0; i < 10; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclmdlExecuteAsync(self->id, r1.ids, r1.ods, self->s));
		ASSERT_EQ(ACL_SUCCESS, aclmdlExecuteAsync(id2, r2.ids, r2.ods, self->s));
	}
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	EXPECT_TRUE(run_ok(&r1, 1.0f));
	EXPECT_TRUE(run_ok(&r2, 7.0f));
	EXPECT_EQ(ACL_SUCCESS, aclmdlUnload(id2));
	run_free(&r1);
	run_free(&r2);
	free(p);
}

struct worker {
	uint32_t id;
	aclrtContext ctx;
	float scale;
	int ok;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	aclrtStream s;
	struct run r;

	w->ok = 0;
	if (aclrtSetCurrentContext(w->ctx) || aclrtCreateStream(&s) ||
	    run_make(&r, w->scale))
		return NULL;
	w->ok = 1;
	for (int i = 0; i < 25 && w->ok; i++) {
		/* Each round: new inputs, run, check. */
		float b[6];

		for (int k = 0; k < 6; k++)
			b[k] = w->scale * (float)(k % 2);
		w->ok = !aclrtMemcpyAsync(r.in[1], 24, b, 24, ACL_MEMCPY_HOST_TO_DEVICE, s) &&
			!aclmdlExecuteAsync(w->id, r.ids, r.ods, s) &&
			!aclrtSynchronizeStream(s) && run_ok(&r, w->scale);
	}
	run_free(&r);
	aclrtDestroyStream(s);
	return NULL;
}

TEST_F(m, four_threads_four_streams)
{
	struct worker w[4];
	pthread_t t[4];
	aclrtContext ctx;

	ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&ctx));
	for (int i = 0; i < 4; i++) {
		w[i] = (struct worker){ self->id, ctx, (float)(i + 1) * 3.0f, 0 };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, worker_main, &w[i]));
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		EXPECT_TRUE(w[i].ok) TH_LOG("worker %d", i);
	}
}

TEST_F(m, counts_of_100_executions)
{
	uint64_t jobs0, bos0, bos1;
	struct run r;

	ASSERT_EQ(0, run_make(&r, 5.0f));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeDevice());
	/* The first execution may grow the pool; none after it allocates. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecuteAsync(self->id, r.ids, r.ods, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	jobs0 = debugfs_jobs(0);
	bos0 = bo_count();
	ASSERT_NE(UINT64_MAX, jobs0);
	ASSERT_NE(UINT64_MAX, bos0);
	for (int i = 0; i < 100; i++)
		ASSERT_EQ(ACL_SUCCESS, aclmdlExecuteAsync(self->id, r.ids, r.ods, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	bos1 = bo_count();
	TH_LOG("100 executions: %llu SUBMITs, %lld buffer objects created",
	       (unsigned long long)(debugfs_jobs(0) - jobs0),
	       (long long)(bos1 - bos0));
	EXPECT_EQ(100, debugfs_jobs(0) - jobs0);
	EXPECT_EQ(bos0, bos1);
	EXPECT_TRUE(run_ok(&r, 5.0f));
	run_free(&r);
}

TEST_F(m, capture_and_replay)
{
	aclmdlRI ri;
	struct run r;
	float b[6], o[6];

	ASSERT_EQ(0, run_make(&r, 1.0f));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecuteAsync(self->id, r.ids, r.ods, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));
	/* Recorded, not run: still the 0xff fill, a NaN. */
	aclrtMemcpy(o, 24, r.out, 24, ACL_MEMCPY_DEVICE_TO_HOST);
	EXPECT_TRUE(isnan(o[0]));
	for (int k = 0; k < 6; k++)
		b[k] = 9.0f * (float)(k % 2);
	aclrtMemcpy(r.in[1], 24, b, 24, ACL_MEMCPY_HOST_TO_DEVICE);
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	EXPECT_TRUE(run_ok(&r, 9.0f));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
	run_free(&r);
}

TEST_F(m, other_device_and_reset)
{
	uint32_t count = 0, id1;
	struct run r, r1;
	aclrtStream s1;

	ASSERT_EQ(ACL_SUCCESS, aclrtGetDeviceCount(&count));
	if (count < 2)
		SKIP(return, "one device");
	ASSERT_EQ(0, run_make(&r, 3.0f));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(1));
	/* Model of device 0, device 1 current: stream and default stream. */
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s1));
	EXPECT_EQ(ACL_ERROR_RT_MODEL_CONTEXT, aclmdlExecuteAsync(self->id, r.ids, r.ods, s1));
	EXPECT_EQ(ACL_ERROR_RT_MODEL_CONTEXT, aclmdlExecute(self->id, r.ids, r.ods));
	/* A model of its own on device 1 runs there. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromMem(self->img, self->size, &id1));
	ASSERT_EQ(0, run_make(&r1, 6.0f));
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecuteAsync(id1, r1.ids, r1.ods, s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s1));
	EXPECT_TRUE(run_ok(&r1, 6.0f));
	/* Device 0's buffers are not device 1's memory. */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlExecuteAsync(id1, r.ids, r1.ods, s1));
	run_free(&r1);
	aclrtDestroyStream(s1);
	/* Reset device 1 under its model: executing fails, unloading is clean. */
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDevice(1));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(1));
	ASSERT_EQ(0, run_make(&r1, 6.0f));
	EXPECT_EQ(ACL_ERROR_RT_MODEL_CONTEXT, aclmdlExecute(id1, r1.ids, r1.ods));
	run_free(&r1);
	EXPECT_EQ(ACL_SUCCESS, aclmdlUnload(id1));
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDevice(1));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecute(self->id, r.ids, r.ods));
	EXPECT_TRUE(run_ok(&r, 3.0f));
	run_free(&r);
}

TEST(no_context_and_no_init)
{
	size_t size;
	void *p = om_build_add_relu(&size);
	uint32_t id;

	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclmdlLoadFromMem(p, size, &id));
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, aclmdlLoadFromMem(p, size, &id));
	aclFinalize();
	free(p);
}

TEST_HARNESS_MAIN
