// SPDX-License-Identifier: MIT
/*
 * Every destroy and free of the runtime after aclrtResetDevice and after
 * aclFinalize, as C++ programs do from destructors: each returns its
 * documented code (Documentation/acl-runtime.md, "Cleanup after reset and
 * finalize"), nothing crashes, and aclFinalize leaves no device open.
 * Each TEST is a fresh process.
 */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "kselftest_harness.h"
#include "om_builder.h"

/* File descriptors of this process open on an accel node. */
static int accel_fds(void)
{
	char path[300], target[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir("/proc/self/fd");
	int n = 0;
	ssize_t len;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = 0;
		if (strstr(target, "/dev/accel/"))
			n++;
	}
	closedir(d);
	return n;
}

/* Everything a program may still hold when it tears down. */
struct held {
	aclrtStream s;
	aclrtEvent ev;
	void *dev, *host;
	aclmdlRI ri;
};

static int hold(struct held *h)
{
	if (aclrtCreateStream(&h->s) || aclrtCreateEvent(&h->ev) ||
	    aclrtMalloc(&h->dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST) ||
	    aclrtMallocHost(&h->host, 4096))
		return -1;
	if (aclrtRecordEvent(h->ev, h->s) ||
	    aclmdlRICaptureBegin(h->s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) ||
	    aclrtMemsetAsync(h->dev, 4096, 1, 4096, h->s) ||
	    aclmdlRICaptureEnd(h->s, &h->ri))
		return -1;
	return aclrtSynchronizeStream(h->s);
}

TEST(after_reset_device)
{
	struct held h;

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(0, hold(&h));
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
	/* The device is closed: its memory, streams and graphs are gone. */
	EXPECT_EQ(0, accel_fds());
	/* No context is current: calls that need one say so. */
	EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, aclrtDestroyStream(h.s));
	EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, aclrtFree(h.dev));
	EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, aclrtFreeHost(h.host));
	EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, aclrtFreeWithDevSync(h.dev));
	EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, aclrtFreeHostWithDevSync(h.host));
	/* The graph went with its context. */
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIDestroy(h.ri));
	/* Events belong to the program: destroying one still works, once. */
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyEvent(h.ev));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtDestroyEvent(h.ev));
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

/* With the device set again, the old handles are simply not live. */
TEST(after_reset_device_set_again)
{
	struct held h;
	void *p;

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(0, hold(&h));
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtDestroyStream(h.s));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtFreeHost(h.host));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIDestroy(h.ri));
	/* New memory may reuse the old address; it is then new memory. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	if (p != h.dev)
		EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtFree(h.dev));
	EXPECT_EQ(ACL_SUCCESS, aclrtFree(p));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyEvent(h.ev));
	EXPECT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

/* An explicit context outlives the reset of its device's default one. */
TEST(explicit_context_after_reset)
{
	aclrtContext c;
	aclrtStream s;

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateContext(&c, 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
	EXPECT_EQ(1, accel_fds());
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyContext(c));
	EXPECT_EQ(ACL_ERROR_RT_INVALID_HANDLE, aclrtDestroyContext(c));
	EXPECT_EQ(0, accel_fds());
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

/*
 * After aclFinalize every runtime call is ACL_ERROR_UNINITIALIZE; the
 * objects were released by aclFinalize itself, explicit contexts and
 * events included, so nothing leaks and no device stays open.
 */
TEST(after_finalize)
{
	struct held h;
	aclrtContext c;
	aclrtStream cs;
	aclrtEvent cev;
	aclrtNotify nt;
	aclrtCntNotify cnt;

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(0, hold(&h));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateNotify(&nt, 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCntNotifyCreate(&cnt, 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateContext(&c, 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&cs));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&cev));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(cev, cs));
	ASSERT_EQ(ACL_SUCCESS, aclFinalize());
	EXPECT_EQ(0, accel_fds());
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtDestroyStream(h.s));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtDestroyStream(cs));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtDestroyEvent(h.ev));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtDestroyEvent(cev));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtDestroyContext(c));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtDestroyNotify(nt));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtCntNotifyDestroy(cnt));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtFree(h.dev));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtFreeHost(h.host));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtFreeWithDevSync(h.dev));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtFreeHostWithDevSync(h.host));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclmdlRIDestroy(h.ri));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtResetDevice(0));
	EXPECT_EQ(ACL_ERROR_REPEAT_FINALIZE, aclFinalize());
	/* A new aclInit starts afresh: the old handles are not live in it. */
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtDestroyStream(h.s));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtDestroyEvent(h.ev));
	EXPECT_EQ(ACL_ERROR_RT_INVALID_HANDLE, aclrtDestroyContext(c));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtDestroyNotify(nt));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtCntNotifyDestroy(cnt));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIDestroy(h.ri));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtFreeHost(h.host));
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

/*
 * A model left loaded is unloaded by aclFinalize: its id is unknown to
 * the next aclInit, and the device memory it held (weights, arenas) is
 * back.
 */
TEST(model_after_finalize)
{
	size_t size, free0, total, free1;
	void *img = om_build_add_relu(&size);
	aclmdlDataset *in, *out;
	void *buf[3];
	uint32_t id;

	ASSERT_NE(NULL, img);
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetMemInfo(ACL_DDR_MEM, &free0, &total));
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromMem(img, size, &id));
	in = aclmdlCreateDataset();
	out = aclmdlCreateDataset();
	for (int i = 0; i < 3; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&buf[i], 24, ACL_MEM_MALLOC_HUGE_FIRST));
		ASSERT_EQ(ACL_SUCCESS, aclmdlAddDatasetBuffer(i < 2 ? in : out,
							      aclCreateDataBuffer(buf[i], 24)));
	}
	/* An execution leaves an arena in the model's pool. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecute(id, in, out));
	ASSERT_EQ(ACL_SUCCESS, aclFinalize());
	EXPECT_EQ(0, accel_fds());
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclmdlUnload(id));
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	EXPECT_EQ(ACL_ERROR_INVALID_MODEL_ID, aclmdlUnload(id));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetMemInfo(ACL_DDR_MEM, &free1, &total));
	EXPECT_EQ(free0, free1);
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
	for (int i = 0; i < 3; i++) {
		aclDestroyDataBuffer(aclmdlGetDatasetBuffer(i < 2 ? in : out, i < 2 ? i : 0));
	}
	aclmdlDestroyDataset(in);
	aclmdlDestroyDataset(out);
	free(img);
}

/* The last aclFinalizeReference tears down as aclFinalize does. */
TEST(after_finalize_reference)
{
	aclrtContext c;
	aclrtEvent ev;
	uint64_t refs = 9;

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_ERROR_REPEAT_INITIALIZE, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateContext(&c, 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&ev));
	ASSERT_EQ(ACL_SUCCESS, aclFinalizeReference(&refs));
	EXPECT_EQ(1, refs);
	EXPECT_EQ(1, accel_fds());
	ASSERT_EQ(ACL_SUCCESS, aclFinalizeReference(&refs));
	EXPECT_EQ(0, refs);
	EXPECT_EQ(0, accel_fds());
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtDestroyContext(c));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtDestroyEvent(ev));
}

/* Reserved addresses and physical handles (aclrtReserveMemAddress...). */
static int hold_vmm(void **base, aclrtDrvMemHandle *h)
{
	aclrtPhysicalMemProp p;

	memset(&p, 0, sizeof(p));
	p.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	p.memAttr = ACL_HBM_MEM_HUGE;
	p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	if (aclrtReserveMemAddress(base, 2u << 20, 0, NULL, 0) ||
	    aclrtMallocPhysical(h, 2u << 20, &p, 0))
		return -1;
	return aclrtMapMem(*base, 2u << 20, 0, *h, 0);
}

TEST(virtual_memory_after_reset_and_finalize)
{
	aclrtDrvMemHandle h;
	void *base;

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(0, hold_vmm(&base, &h));
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
	EXPECT_EQ(0, accel_fds());
	/* Closing the device dropped them: nothing is live any more. */
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtUnmapMem(base));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtFreePhysical(h));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtReleaseMemAddress(base));

	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(0, hold_vmm(&base, &h));
	ASSERT_EQ(ACL_SUCCESS, aclFinalize());
	EXPECT_EQ(0, accel_fds());
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtUnmapMem(base));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtFreePhysical(h));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclrtReleaseMemAddress(base));
}

/* aclnn descriptors are the program's host objects: freed, with success. */
TEST(aclnn_objects_after_finalize)
{
	int64_t dims[1] = { 16 };
	float one = 1.0f;
	const aclTensor *list[1];
	aclTensor *t, *u, *o;
	aclScalar *sc;
	aclIntArray *ia;
	aclTensorList *tl;
	aclOpExecutor *ex;
	uint64_t ws = 0;
	void *d;

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	t = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, d);
	u = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, d);
	o = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, d);
	list[0] = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, d);
	sc = aclCreateScalar(&one, ACL_FLOAT);
	ia = aclCreateIntArray(dims, 1);
	tl = aclCreateTensorList(list, 1);
	ASSERT_NE(NULL, t);
	ASSERT_NE(NULL, sc);
	ASSERT_NE(NULL, ia);
	ASSERT_NE(NULL, tl);
	ASSERT_EQ(ACLNN_SUCCESS, aclnnAddGetWorkspaceSize(t, u, sc, o, &ws, &ex));
	ASSERT_EQ(ACLNN_SUCCESS, aclSetAclOpExecutorRepeatable(ex));
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclFinalize());
	/* Launching needs the runtime; the failure is a code. */
	EXPECT_NE(ACLNN_SUCCESS, aclnnAdd(NULL, 0, ex, NULL));
	EXPECT_EQ(ACLNN_SUCCESS, aclDestroyAclOpExecutor(ex));
	EXPECT_EQ(ACLNN_SUCCESS, aclDestroyTensor(t));
	EXPECT_EQ(ACLNN_SUCCESS, aclDestroyTensor(u));
	EXPECT_EQ(ACLNN_SUCCESS, aclDestroyTensor(o));
	EXPECT_EQ(ACLNN_SUCCESS, aclDestroyScalar(sc));
	EXPECT_EQ(ACLNN_SUCCESS, aclDestroyIntArray(ia));
	EXPECT_EQ(ACLNN_SUCCESS, aclDestroyTensorList(tl));
}

/* A thread's current context named a device another thread reset. */
static void *destroy_in_thread(void *arg)
{
	aclrtStream s = arg;

	return (void *)(intptr_t)aclrtDestroyStream(s);
}

TEST(other_thread_after_reset)
{
	aclrtStream s;
	pthread_t th;
	void *ret;

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
	ASSERT_EQ(0, pthread_create(&th, NULL, destroy_in_thread, s));
	ASSERT_EQ(0, pthread_join(th, &ret));
	EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, (aclError)(intptr_t)ret);
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

TEST_HARNESS_MAIN
