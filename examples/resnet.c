/* SPDX-License-Identifier: MIT */
/*
 * resnet: offline-model inference, the CANN way.
 *
 *   init, set the device, create a context and a stream; load the model
 *   (an .om made by atc) and print its description; allocate the device
 *   buffers and the datasets; copy the input in, execute, copy the output
 *   back; print the top-5 classes with their scores; unload and release
 *   everything in reverse order.
 *
 * usage: resnet [MODEL.om [INPUT.bin]]
 * By default build/models/resnet18.om and the seeded test input
 * build/models/resnet18.input.bin next to it (`make models-om` makes
 * both). The input is raw float32, NCHW, already normalized.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

#define TOPK 5

/* Everything the example owns, released by release() whatever happened. */
struct infer {
	int32_t device;
	aclrtContext ctx;
	aclrtStream stream;
	uint32_t model_id;
	int loaded;
	aclmdlDesc *desc;
	aclmdlDataset *input, *output;
	void *in_dev[8], *out_dev[8];
	size_t n_in, n_out;
	float *host_out;
};

static const char *dtype_name(aclDataType t)
{
	switch (t) {
	case ACL_FLOAT: return "float32";
	case ACL_FLOAT16: return "float16";
	case ACL_INT8: return "int8";
	case ACL_INT32: return "int32";
	case ACL_INT64: return "int64";
	case ACL_UINT8: return "uint8";
	default: return "other";
	}
}

static void print_io(const char *kind, size_t i, const char *name,
		     const aclmdlIODims *d, aclDataType t, size_t size)
{
	printf("  %s %zu: %-8s dims [", kind, i, name ? name : "?");
	for (size_t k = 0; k < d->dimCount; k++)
		printf("%s%lld", k ? ", " : "", (long long)d->dims[k]);
	printf("]  %s  %zu bytes\n", dtype_name(t), size);
}

/* Loads the model and prints its inputs and outputs. */
static int load_model(struct infer *m, const char *path)
{
	aclmdlIODims dims;

	CHECK(aclmdlLoadFromFile(path, &m->model_id));
	m->loaded = 1;
	m->desc = aclmdlCreateDesc();
	if (!m->desc) {
		fprintf(stderr, "aclmdlCreateDesc failed\n");
		return 1;
	}
	CHECK(aclmdlGetDesc(m->desc, m->model_id));
	m->n_in = aclmdlGetNumInputs(m->desc);
	m->n_out = aclmdlGetNumOutputs(m->desc);
	printf("model %s: id %u, %zu input(s), %zu output(s)\n", path,
	       m->model_id, m->n_in, m->n_out);
	if (m->n_in > 8 || m->n_out > 8 || !m->n_in || !m->n_out) {
		fprintf(stderr, "unexpected number of inputs or outputs\n");
		return 1;
	}
	for (size_t i = 0; i < m->n_in; i++) {
		CHECK(aclmdlGetInputDims(m->desc, i, &dims));
		print_io("input ", i, aclmdlGetInputNameByIndex(m->desc, i), &dims,
			 aclmdlGetInputDataType(m->desc, i),
			 aclmdlGetInputSizeByIndex(m->desc, i));
	}
	for (size_t i = 0; i < m->n_out; i++) {
		CHECK(aclmdlGetOutputDims(m->desc, i, &dims));
		print_io("output", i, aclmdlGetOutputNameByIndex(m->desc, i), &dims,
			 aclmdlGetOutputDataType(m->desc, i),
			 aclmdlGetOutputSizeByIndex(m->desc, i));
	}
	return 0;
}

/* One device buffer per input and output, each in its dataset. */
static int create_datasets(struct infer *m)
{
	m->input = aclmdlCreateDataset();
	m->output = aclmdlCreateDataset();
	if (!m->input || !m->output) {
		fprintf(stderr, "aclmdlCreateDataset failed\n");
		return 1;
	}
	for (size_t i = 0; i < m->n_in + m->n_out; i++) {
		int is_in = i < m->n_in;
		size_t k = is_in ? i : i - m->n_in;
		size_t size = is_in ? aclmdlGetInputSizeByIndex(m->desc, k) :
				      aclmdlGetOutputSizeByIndex(m->desc, k);
		void **dev = is_in ? &m->in_dev[k] : &m->out_dev[k];
		aclDataBuffer *buf;

		CHECK(aclrtMalloc(dev, size, ACL_MEM_MALLOC_HUGE_FIRST));
		buf = aclCreateDataBuffer(*dev, size);
		if (!buf) {
			fprintf(stderr, "aclCreateDataBuffer failed\n");
			return 1;
		}
		if (aclmdlAddDatasetBuffer(is_in ? m->input : m->output, buf)) {
			aclDestroyDataBuffer(buf);
			fprintf(stderr, "aclmdlAddDatasetBuffer failed\n");
			return 1;
		}
	}
	return 0;
}

/* Reads the input file into input 0 (it must fill it exactly). */
static int copy_input(struct infer *m, const char *path)
{
	size_t size = aclmdlGetInputSizeByIndex(m->desc, 0), got;
	void *host = NULL;
	FILE *f = fopen(path, "rb");

	if (!f) {
		perror(path);
		return 1;
	}
	CHECK(aclrtMallocHost(&host, size));
	got = fread(host, 1, size, f);
	if (got != size || fgetc(f) != EOF) {
		fprintf(stderr, "%s: not %zu bytes of input\n", path, size);
		fclose(f);
		aclrtFreeHost(host);
		return 1;
	}
	fclose(f);
	CHECK(aclrtMemcpy(m->in_dev[0], size, host, size, ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK(aclrtFreeHost(host));
	return 0;
}

/* Output 0 back to the host; prints the top-5 logits with softmax scores. */
static int print_top5(struct infer *m)
{
	size_t size = aclmdlGetOutputSizeByIndex(m->desc, 0);
	size_t n = size / sizeof(float), top[TOPK];
	double sum = 0, mx;

	if (n < TOPK) {
		fprintf(stderr, "output 0 has %zu classes\n", n);
		return 1;
	}
	m->host_out = malloc(size);
	if (!m->host_out)
		return 1;
	CHECK(aclrtMemcpy(m->host_out, size, m->out_dev[0], size,
			  ACL_MEMCPY_DEVICE_TO_HOST));
	mx = m->host_out[0];
	for (size_t i = 1; i < n; i++)
		mx = fmax(mx, m->host_out[i]);
	for (size_t i = 0; i < n; i++)
		sum += exp(m->host_out[i] - mx);
	for (int k = 0; k < TOPK; k++) {
		size_t best = SIZE_MAX;

		for (size_t i = 0; i < n; i++) {
			int taken = 0;

			for (int j = 0; j < k; j++)
				taken |= top[j] == i;
			if (!taken && (best == SIZE_MAX || m->host_out[i] > m->host_out[best]))
				best = i;
		}
		top[k] = best;
	}
	printf("top-%d of %zu classes:\n", TOPK, n);
	for (int k = 0; k < TOPK; k++)
		printf("  #%d class %4zu  logit %9.5f  score %.5f\n", k + 1, top[k],
		       m->host_out[top[k]], exp(m->host_out[top[k]] - mx) / sum);
	printf("top1: %zu\n", top[0]);
	return 0;
}

static int run(struct infer *m, const char *model, const char *input)
{
	CHECK(aclInit(NULL));
	CHECK(aclrtSetDevice(m->device));
	CHECK(aclrtCreateContext(&m->ctx, m->device));
	CHECK(aclrtCreateStream(&m->stream));
	if (load_model(m, model) || create_datasets(m) || copy_input(m, input))
		return 1;
	CHECK(aclmdlExecute(m->model_id, m->input, m->output));
	return print_top5(m);
}

static void destroy_dataset(aclmdlDataset *ds)
{
	if (!ds)
		return;
	for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(ds); i++)
		aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds, i));
	aclmdlDestroyDataset(ds);
}

/* Releases in reverse order of creation; returns 1 if a release failed. */
static int release(struct infer *m)
{
	int bad = 0;

	free(m->host_out);
	destroy_dataset(m->input);
	destroy_dataset(m->output);
	for (size_t i = 0; i < 8; i++) {
		if (m->in_dev[i])
			bad |= aclrtFree(m->in_dev[i]) != ACL_SUCCESS;
		if (m->out_dev[i])
			bad |= aclrtFree(m->out_dev[i]) != ACL_SUCCESS;
	}
	if (m->desc)
		bad |= aclmdlDestroyDesc(m->desc) != ACL_SUCCESS;
	if (m->loaded)
		bad |= aclmdlUnload(m->model_id) != ACL_SUCCESS;
	if (m->stream)
		bad |= aclrtDestroyStream(m->stream) != ACL_SUCCESS;
	if (m->ctx)
		bad |= aclrtDestroyContext(m->ctx) != ACL_SUCCESS;
	aclrtResetDevice(m->device);
	bad |= aclFinalize() != ACL_SUCCESS;
	return bad;
}

int main(int argc, char **argv)
{
	char model[4096], input[4096], exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct infer m = { 0 };
	char *slash;
	int ret;

	/* The defaults sit in build/models, next to build/examples. */
	exe[n > 0 ? n : 0] = 0;
	slash = strrchr(exe, '/');
	if (slash)
		*slash = 0;
	if (argc > 1)
		snprintf(model, sizeof(model), "%s", argv[1]);
	else
		snprintf(model, sizeof(model), "%.4000s/../models/resnet18.om", exe);
	if (argc > 2) {
		snprintf(input, sizeof(input), "%s", argv[2]);
	} else {
		/* NAME.om -> NAME.input.bin */
		snprintf(input, sizeof(input), "%.*s.input.bin",
			 (int)(strlen(model) > 3 ? strlen(model) - 3 : 0), model);
	}
	ret = run(&m, model, input);
	if (release(&m))
		ret = 1;
	if (!ret)
		printf("resnet: done\n");
	return ret;
}
