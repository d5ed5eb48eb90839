/* SPDX-License-Identifier: MIT */
/*
 * What the aclnn VM tests share: a fixture with a stream and the device
 * buffers it frees, and helpers to make device copies and tensors, run an
 * executor and read results back. Include after kselftest_harness.h.
 */
#ifndef VNPU_ACLNN_TEST_UTIL_H
#define VNPU_ACLNN_TEST_UTIL_H

FIXTURE(nn) {
	aclrtStream s;
	void *bufs[16];
	int nbufs;
};

FIXTURE_SETUP(nn)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s));
	self->nbufs = 0;
}

FIXTURE_TEARDOWN(nn)
{
	int i;

	for (i = 0; i < self->nbufs; i++)
		aclrtFree(self->bufs[i]);
	aclrtDestroyStream(self->s);
	aclrtResetDevice(0);
	aclFinalize();
}

/* Device copy of host data (or zeroed when data is NULL). */
static inline void *dev(FIXTURE_DATA(nn) *f, const void *data, size_t size)
{
	void *p = NULL;

	if (aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST))
		return NULL;
	f->bufs[f->nbufs++] = p;
	if (data)
		aclrtMemcpy(p, size, data, size, ACL_MEMCPY_HOST_TO_DEVICE);
	else
		aclrtMemset(p, size, 0, size);
	return p;
}

static inline aclTensor *tens(const int64_t *dims, uint64_t n, aclDataType dt, void *d)
{
	return aclCreateTensor(dims, n, dt, NULL, 0, ACL_FORMAT_ND, dims, n, d);
}

/* Run a prepared executor and wait; returns the first failure. */
typedef aclnnStatus (*launch_fn)(void *, uint64_t, aclOpExecutor *, aclrtStream);

static inline int run(FIXTURE_DATA(nn) *f, launch_fn fn, uint64_t ws, aclOpExecutor *ex)
{
	void *w = NULL;
	int ret;

	if (ws)
		w = dev(f, NULL, ws);
	ret = fn(w, ws, ex, f->s);
	if (ret)
		return ret;
	return aclrtSynchronizeStream(f->s);
}

static inline void get(void *host, void *d, size_t size)
{
	aclrtMemcpy(host, size, d, size, ACL_MEMCPY_DEVICE_TO_HOST);
}

#define INV ACLNN_ERR_PARAM_INVALID
#define NUL ACLNN_ERR_PARAM_NULLPTR

/* Deterministic test data in [-1.5, 1.8]. */
static inline float frand(int i) { return (float)((i * 37 + 11) % 23) / 7.0f - 1.5f; }

static inline aclIntArray *ia(const int64_t *v, uint64_t n) { return aclCreateIntArray(v, n); }

/* A view with explicit strides and element offset into storage of size elems. */
static inline aclTensor *view(const int64_t *dims, uint64_t n, const int64_t *strides,
			      int64_t off, int64_t elems, aclDataType dt, void *d)
{
	return aclCreateTensor(dims, n, dt, strides, off, ACL_FORMAT_ND, &elems, 1, d);
}

#define CLOSE(a, b) (fabsf((a) - (b)) <= 1e-4f + 1e-4f * fabsf(b))

#endif /* VNPU_ACLNN_TEST_UTIL_H */
