// SPDX-License-Identifier: MIT
/*
 * The test models of issue 13 run through aclmdl and compared with
 * PyTorch: ResNet-18, MobileNetV2 and a TransformerEncoderLayer, made by
 * tests/models/make_models.py and converted by atc into build/models/
 * (tests/models/models.mk), and ResNet-18 built for the dynamic batch
 * sizes 1, 2 and 4 run at each of them. Every case loads the .om with
 * aclmdlLoadFromFile, prints and checks its description, runs it with
 * aclmdlExecute and reports the largest absolute difference from
 * PyTorch's output, which must be at most 1e-3 (fp32).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "kselftest_harness.h"

/* The harness's setjmp and the fixture's inlined teardown trip -Wclobbered. */
#pragma GCC diagnostic ignored "-Wclobbered"

#define MAX_ABS_ERR 1e-3
/* Seconds per test: a ResNet-18 inference takes seconds under TCG. */
#define MODEL_TIMEOUT 300
/*
 * The path of build/models/<file>: the test is build/tests/acl/<self>,
 * so the models are ../../models from its directory, wherever it runs.
 */
static void model_path(char *out, size_t len, const char *file)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	exe[n > 0 ? n : 0] = 0;
	slash = strrchr(exe, '/');
	if (slash)
		*slash = 0;
	snprintf(out, len, "%s/../../models/%s", exe, file);
}

/* Reads a whole file; NULL (and a message) when it cannot. */
static void *read_all(const char *file, size_t *size)
{
	char path[4096];
	FILE *f;
	void *buf = NULL;
	long n;

	model_path(path, sizeof(path), file);
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "# cannot open %s (make models-om)\n", path);
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 &&
	    fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc(n);
		if (buf && fread(buf, 1, n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*size = n;
	}
	fclose(f);
	return buf;
}

static void print_dims(const char *what, size_t i, const char *name,
		       const aclmdlIODims *d, aclDataType dt, size_t size)
{
	char s[256];
	int off = 0;

	for (size_t k = 0; k < d->dimCount && off < (int)sizeof(s) - 24; k++)
		off += snprintf(s + off, sizeof(s) - off, "%s%lld", k ? "," : "",
				(long long)d->dims[k]);
	s[off] = 0;
	printf("#   %s %zu: %s [%s] dtype %d, %zu bytes\n", what, i,
	       name ? name : "(null)", s, (int)dt, size);
}

/* One loaded model with a one-input, one-output dataset pair. */
struct run {
	uint32_t id;
	aclmdlDesc *desc;
	aclmdlDataset *in, *out;
	void *din, *dout, *dbatch;
	size_t in_size, out_size;
	size_t batch_index;	/* of ACL_DYNAMIC_TENSOR_NAME; SIZE_MAX: none */
};

static aclmdlDataset *dataset_of(void *dev, size_t size)
{
	aclmdlDataset *ds = aclmdlCreateDataset();
	aclDataBuffer *b = aclCreateDataBuffer(dev, size);

	if (!ds || !b || aclmdlAddDatasetBuffer(ds, b)) {
		aclDestroyDataBuffer(b);
		aclmdlDestroyDataset(ds);
		return NULL;
	}
	return ds;
}

static void destroy_dataset(aclmdlDataset *ds)
{
	if (!ds)
		return;
	for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(ds); i++)
		aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds, i));
	aclmdlDestroyDataset(ds);
}

FIXTURE(m) {
	struct run r;
};

FIXTURE_SETUP(m)
{
	memset(&self->r, 0, sizeof(self->r));
	self->r.batch_index = SIZE_MAX;
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
}

FIXTURE_TEARDOWN(m)
{
	struct run *r = &self->r;

	destroy_dataset(r->in);
	destroy_dataset(r->out);
	aclrtFree(r->din);
	aclrtFree(r->dout);
	aclrtFree(r->dbatch);
	if (r->desc)
		aclmdlDestroyDesc(r->desc);
	if (r->id)
		EXPECT_EQ(ACL_SUCCESS, aclmdlUnload(r->id));
	aclrtResetDevice(0);
	aclFinalize();
}

/*
 * Loads NAME.om, prints its description and checks it has one float
 * input of in_name and one float output; allocates the buffers and the
 * datasets (with the dynamic batch input last when there is one).
 */
static __attribute__((noinline)) int load(struct __test_metadata *_metadata, struct run *r,
		const char *name, const char *in_name)
{
	char path[4096], file[256];
	aclmdlIODims d;
	size_t n_in, n_real = 1;

	snprintf(file, sizeof(file), "%s.om", name);
	model_path(path, sizeof(path), file);
	EXPECT_EQ(ACL_SUCCESS, aclmdlLoadFromFile(path, &r->id)) {
		fprintf(stderr, "# %s: %s\n", path, aclGetRecentErrMsg());
		return -1;
	}
	r->desc = aclmdlCreateDesc();
	EXPECT_NE(NULL, r->desc) return -1;
	EXPECT_EQ(ACL_SUCCESS, aclmdlGetDesc(r->desc, r->id)) return -1;

	n_in = aclmdlGetNumInputs(r->desc);
	if (aclmdlGetInputIndexByName(r->desc, ACL_DYNAMIC_TENSOR_NAME,
				      &r->batch_index) != ACL_SUCCESS)
		r->batch_index = SIZE_MAX;
	else
		n_real = 2;
	printf("# %s: model %u, %zu input(s), %zu output(s)\n", name, r->id, n_in,
	       aclmdlGetNumOutputs(r->desc));
	for (size_t i = 0; i < n_in; i++) {
		EXPECT_EQ(ACL_SUCCESS, aclmdlGetInputDims(r->desc, i, &d)) return -1;
		print_dims("input", i, aclmdlGetInputNameByIndex(r->desc, i), &d,
			   aclmdlGetInputDataType(r->desc, i),
			   aclmdlGetInputSizeByIndex(r->desc, i));
	}
	EXPECT_EQ(ACL_SUCCESS, aclmdlGetOutputDims(r->desc, 0, &d)) return -1;
	print_dims("output", 0, aclmdlGetOutputNameByIndex(r->desc, 0), &d,
		   aclmdlGetOutputDataType(r->desc, 0),
		   aclmdlGetOutputSizeByIndex(r->desc, 0));

	EXPECT_EQ(n_real, n_in) return -1;
	EXPECT_EQ(1, aclmdlGetNumOutputs(r->desc)) return -1;
	/* The batch size input comes after the image. */
	if (r->batch_index != SIZE_MAX)
		EXPECT_EQ(1, r->batch_index) return -1;
	EXPECT_STREQ(in_name, aclmdlGetInputNameByIndex(r->desc, 0)) return -1;
	EXPECT_STREQ("output", aclmdlGetOutputNameByIndex(r->desc, 0)) return -1;
	EXPECT_EQ(ACL_FLOAT, aclmdlGetInputDataType(r->desc, 0)) return -1;
	EXPECT_EQ(ACL_FLOAT, aclmdlGetOutputDataType(r->desc, 0)) return -1;

	r->in_size = aclmdlGetInputSizeByIndex(r->desc, 0);
	r->out_size = aclmdlGetOutputSizeByIndex(r->desc, 0);
	EXPECT_LT(0, r->in_size) return -1;
	EXPECT_LT(0, r->out_size) return -1;
	EXPECT_EQ(ACL_SUCCESS, aclrtMalloc(&r->din, r->in_size,
					   ACL_MEM_MALLOC_HUGE_FIRST)) return -1;
	EXPECT_EQ(ACL_SUCCESS, aclrtMalloc(&r->dout, r->out_size,
					   ACL_MEM_MALLOC_HUGE_FIRST)) return -1;
	r->in = dataset_of(r->din, r->in_size);
	r->out = dataset_of(r->dout, r->out_size);
	EXPECT_NE(NULL, r->in) return -1;
	EXPECT_NE(NULL, r->out) return -1;
	if (r->batch_index != SIZE_MAX) {
		size_t bs = aclmdlGetInputSizeByIndex(r->desc, r->batch_index);
		aclDataBuffer *b;

		EXPECT_EQ(ACL_SUCCESS, aclrtMalloc(&r->dbatch, bs ? bs : 8,
						   ACL_MEM_MALLOC_HUGE_FIRST)) return -1;
		b = aclCreateDataBuffer(r->dbatch, bs ? bs : 8);
		EXPECT_EQ(ACL_SUCCESS, aclmdlAddDatasetBuffer(r->in, b)) return -1;
	}
	return 0;
}

/*
 * Copies STEM.input.bin in, executes, copies the output back and
 * compares it with STEM.output.bin: the input's and the output's sizes
 * are the files' (at most the buffers'), the error at most MAX_ABS_ERR.
 */
static __attribute__((noinline)) void run_case(struct __test_metadata *_metadata, struct run *r,
		     const char *label, const char *stem)
{
	char file[256];
	size_t in_n = 0, ref_n = 0;
	float *x, *ref, *y;
	double err = 0;
	size_t worst = 0, bad = 0;

	snprintf(file, sizeof(file), "%s.input.bin", stem);
	x = read_all(file, &in_n);
	snprintf(file, sizeof(file), "%s.output.bin", stem);
	ref = read_all(file, &ref_n);
	ASSERT_NE(NULL, x);
	ASSERT_NE(NULL, ref);
	ASSERT_GE(r->in_size, in_n);
	ASSERT_GE(r->out_size, ref_n);
	y = calloc(1, r->out_size);
	ASSERT_NE(NULL, y);

	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(r->din, r->in_size, x, in_n,
					   ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecute(r->id, r->in, r->out)) {
		fprintf(stderr, "# %s\n", aclGetRecentErrMsg());
	}
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(y, r->out_size, r->dout, ref_n,
					   ACL_MEMCPY_DEVICE_TO_HOST));
	for (size_t i = 0; i < ref_n / sizeof(float); i++) {
		double e = fabs((double)y[i] - (double)ref[i]);

		/* A NaN never compares greater: count it as a failure. */
		if (!(e <= MAX_ABS_ERR))
			bad++;
		if (!(e <= err)) {
			err = e;
			worst = i;
		}
	}
	printf("# %s: max abs error %.3g (element %zu: %.6f, PyTorch %.6f), "
	       "%zu of %zu elements over %.0e\n", label, err, worst, y[worst],
	       ref[worst], bad, ref_n / sizeof(float), MAX_ABS_ERR);
	EXPECT_EQ(0, bad);
	free(x);
	free(ref);
	free(y);
}

/* The static model NAME compared with NAME.output.bin. */
static __attribute__((noinline)) void static_model(struct __test_metadata *_metadata, struct run *r,
			 const char *name, const char *in_name,
			 int64_t d0, int64_t d1, int64_t d2, int64_t d3)
{
	int64_t want[4] = { d0, d1, d2, d3 };
	size_t rank = d3 ? 4 : 3, elems = 1;
	aclmdlIODims d;

	ASSERT_EQ(0, load(_metadata, r, name, in_name));
	ASSERT_EQ(SIZE_MAX, r->batch_index);
	ASSERT_EQ(ACL_SUCCESS, aclmdlGetInputDims(r->desc, 0, &d));
	ASSERT_EQ(rank, d.dimCount);
	for (size_t k = 0; k < rank; k++) {
		EXPECT_EQ(want[k], d.dims[k]);
		elems *= want[k];
	}
	EXPECT_EQ(elems * sizeof(float), r->in_size);
	run_case(_metadata, r, name, name);
}

TEST_F_TIMEOUT(m, resnet18, MODEL_TIMEOUT)
{
	static_model(_metadata, &self->r, "resnet18", "input", 1, 3, 224, 224);
	EXPECT_EQ(1000 * sizeof(float), self->r.out_size);
}

TEST_F_TIMEOUT(m, mobilenet_v2, MODEL_TIMEOUT)
{
	static_model(_metadata, &self->r, "mobilenet_v2", "input", 1, 3, 224, 224);
	EXPECT_EQ(1000 * sizeof(float), self->r.out_size);
}

TEST_F_TIMEOUT(m, transformer_encoder_layer, MODEL_TIMEOUT)
{
	static_model(_metadata, &self->r, "transformer", "input", 2, 16, 64, 0);
	EXPECT_EQ(2 * 16 * 64 * sizeof(float), self->r.out_size);
}

/*
 * ResNet-18 on 64x64 images built for batch 1, 2 and 4 (atc
 * --dynamic_batch_size="1,2,4"; the small images keep six emulated
 * inferences well inside the timeout):
 * the batch sizes are in the description, the buffers are the largest
 * batch's, and batch 4 then 2 (the largest, then one that leaves the
 * buffers' tail unused), set with aclmdlSetDynamicBatchSize, run against
 * PyTorch's reference at that batch, the output dims following. Batch 1
 * is left to the static model: each inference costs seconds under TCG.
 */
static __attribute__((noinline)) void dynamic_batch(struct __test_metadata *_metadata,
						   struct run *r)
{
	static const uint64_t sizes[] = { 4, 2 };
	aclmdlBatch batch;
	aclmdlIODims d;

	ASSERT_EQ(0, load(_metadata, r, "resnet18_dyn", "input"));
	ASSERT_NE(SIZE_MAX, r->batch_index);
	ASSERT_EQ(ACL_SUCCESS, aclmdlGetDynamicBatch(r->desc, &batch));
	ASSERT_EQ(3, batch.batchCount);
	EXPECT_EQ(1, batch.batch[0]);
	EXPECT_EQ(2, batch.batch[1]);
	EXPECT_EQ(4, batch.batch[2]);
	EXPECT_EQ((size_t)4 * 3 * 64 * 64 * sizeof(float), r->in_size);
	EXPECT_EQ((size_t)4 * 1000 * sizeof(float), r->out_size);
	/* A size it was not built for. */
	EXPECT_NE(ACL_SUCCESS, aclmdlSetDynamicBatchSize(r->id, r->in,
							 r->batch_index, 3));

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char stem[64], label[64];

		snprintf(stem, sizeof(stem), "resnet18.b%llu",
			 (unsigned long long)sizes[i]);
		snprintf(label, sizeof(label), "resnet18 dynamic batch %llu",
			 (unsigned long long)sizes[i]);
		ASSERT_EQ(ACL_SUCCESS, aclmdlSetDynamicBatchSize(r->id, r->in,
								 r->batch_index,
								 sizes[i]));
		run_case(_metadata, r, label, stem);
		ASSERT_EQ(ACL_SUCCESS, aclmdlGetCurOutputDims(r->desc, 0, &d));
		ASSERT_EQ(2, d.dimCount);
		EXPECT_EQ((int64_t)sizes[i], d.dims[0]);
		EXPECT_EQ(1000, d.dims[1]);
	}
}

TEST_F_TIMEOUT(m, resnet18_dynamic_batch, MODEL_TIMEOUT)
{
	dynamic_batch(_metadata, &self->r);
}

TEST_HARNESS_MAIN
