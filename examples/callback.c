/* SPDX-License-Identifier: MIT */
/*
 * callback: a host function run in stream order. A report thread is
 * subscribed to the stream (aclrtSubscribeReport) and loops in
 * aclrtProcessReport; the stream copies a buffer to the device and back,
 * then runs a callback (aclrtLaunchCallback) that checks the copies had
 * completed before it ran.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "common.h"

static atomic_int stop;
static int calls;
static uint64_t main_tid;

struct ctx {
	const int *back;   /* host buffer the stream copied back into */
	int sum_ok;        /* the callback saw all of it */
	uint64_t tid;      /* thread the callback ran on */
};

static void *report_thread(void *arg)
{
	(void)arg;
	aclrtSetDevice(0);
	while (!atomic_load(&stop))
		aclrtProcessReport(100); /* times out while idle: fine */
	aclrtResetDevice(0);
	return NULL;
}

static void on_done(void *user)
{
	struct ctx *c = user;

	/* Runs on the report thread once the copies before it finished. */
	c->sum_ok = 1;
	for (int i = 0; i < 1024; i++)
		if (c->back[i] != 1000 + i)
			c->sum_ok = 0;
	c->tid = (uint64_t)pthread_self();
	calls++;
}

int main(void)
{
	static int data[1024], back[1024];
	struct ctx c = { .back = back };
	void *dev;
	aclrtStream s;
	pthread_t th;
	int ok;

	for (int i = 0; i < 1024; i++)
		data[i] = 1000 + i;
	main_tid = (uint64_t)pthread_self();
	CHECK(aclInit(NULL));
	CHECK(aclrtSetDevice(0));
	CHECK(aclrtCreateStream(&s));
	CHECK(aclrtMalloc(&dev, sizeof(data), ACL_MEM_MALLOC_HUGE_FIRST));
	if (pthread_create(&th, NULL, report_thread, NULL))
		return 1;
	CHECK(aclrtSubscribeReport((uint64_t)th, s));
	printf("report thread subscribed to the stream\n");

	CHECK(aclrtMemcpyAsync(dev, sizeof(data), data, sizeof(data),
			       ACL_MEMCPY_HOST_TO_DEVICE, s));
	CHECK(aclrtMemcpyAsync(back, sizeof(back), dev, sizeof(data),
			       ACL_MEMCPY_DEVICE_TO_HOST, s));
	CHECK(aclrtLaunchCallback(on_done, &c, ACL_CALLBACK_BLOCK, s));
	printf("queued: copy 4 KiB to the device and back, then a blocking callback\n");
	CHECK(aclrtSynchronizeStream(s));

	ok = calls == 1 && c.sum_ok && c.tid == (uint64_t)th &&
	     c.tid != main_tid;
	printf("callback ran %d time(s) on the %s thread; the copied data was %s\n",
	       calls, c.tid == (uint64_t)th ? "report" : "wrong",
	       c.sum_ok ? "complete" : "NOT complete");

	CHECK(aclrtUnSubscribeReport((uint64_t)th, s));
	atomic_store(&stop, 1);
	pthread_join(th, NULL);
	CHECK(aclrtFree(dev));
	CHECK(aclrtDestroyStream(s));
	CHECK(aclrtResetDevice(0));
	CHECK(aclFinalize());
	printf("%s\n", ok ? "OK" : "FAILED");
	return ok ? 0 : 1;
}
