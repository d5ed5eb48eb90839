// SPDX-License-Identifier: MIT
/*
 * ACL host callbacks on the real driver: aclrtSubscribeReport /
 * aclrtLaunchCallback / aclrtProcessReport / aclrtUnSubscribeReport and
 * aclrtLaunchHostFunc. Callbacks run in stream order on the subscribed
 * thread; ACL_CALLBACK_BLOCK holds later tasks until the callback returns.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "kselftest_harness.h"

/* The harness fixture macros trip -Wclobbered at -O1. */
#pragma GCC diagnostic ignored "-Wclobbered"

#define N 64

struct handler {
	pthread_t t;
	atomic_int stop;
	int32_t dev;
};

static void *handler_main(void *arg)
{
	struct handler *h = arg;

	aclrtSetDevice(h->dev);
	while (!atomic_load(&h->stop))
		aclrtProcessReport(10);
	aclrtResetDevice(h->dev);
	return NULL;
}

static void handler_start(struct handler *h, int32_t dev)
{
	atomic_store(&h->stop, 0);
	h->dev = dev;
	pthread_create(&h->t, NULL, handler_main, h);
}

static void handler_stop(struct handler *h)
{
	atomic_store(&h->stop, 1);
	pthread_join(h->t, NULL);
}

struct order {
	int log[N];
	atomic_int n;
};

struct step {
	struct order *o;
	int id;
};

static void record(void *arg)
{
	struct step *s = arg;

	s->o->log[atomic_fetch_add(&s->o->n, 1)] = s->id;
}

FIXTURE(cb) {
	aclrtStream s;
	struct handler h;
};

FIXTURE_SETUP(cb)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s));
	handler_start(&self->h, 0);
	ASSERT_EQ(ACL_SUCCESS, aclrtSubscribeReport((uint64_t)self->h.t, self->s));
}

FIXTURE_TEARDOWN(cb)
{
	aclrtUnSubscribeReport((uint64_t)self->h.t, self->s);
	handler_stop(&self->h);
	aclrtDestroyStream(self->s);
	aclrtResetDevice(0);
	aclFinalize();
}

TEST_F(cb, run_in_order_on_subscribed_thread)
{
	struct order o = { .n = 0 };
	struct step st[N];

	for (int i = 0; i < N; i++) {
		st[i] = (struct step){ &o, i };
		ASSERT_EQ(ACL_SUCCESS, aclrtLaunchCallback(record, &st[i],
			  i % 2 ? ACL_CALLBACK_BLOCK : ACL_CALLBACK_NO_BLOCK, self->s));
	}
	/* The last one blocks: the sync returns after it ran. */
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	for (int tries = 0; atomic_load(&o.n) < N && tries < 1000; tries++)
		usleep(1000);
	ASSERT_EQ(N, atomic_load(&o.n));
	for (int i = 0; i < N; i++)
		EXPECT_EQ(i, o.log[i]);
}

struct fill_arg {
	char *host;
	size_t len;
	int ran;
};

static void fill_host(void *arg)
{
	struct fill_arg *f = arg;

	usleep(20000);	/* the stream must really wait */
	memset(f->host, 0x7e, f->len);
	f->ran = 1;
}

TEST_F(cb, block_holds_later_tasks)
{
	const size_t len = 1 << 20;
	struct fill_arg f = { .len = len };
	void *dev;
	char *out = malloc(len);

	ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost((void **)&f.host, len));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&dev, len, ACL_MEM_MALLOC_HUGE_FIRST));
	memset(f.host, 0, len);
	ASSERT_EQ(ACL_SUCCESS, aclrtLaunchCallback(fill_host, &f, ACL_CALLBACK_BLOCK,
						   self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(dev, len, f.host, len,
						ACL_MEMCPY_HOST_TO_DEVICE, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	EXPECT_EQ(1, f.ran);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(out, len, dev, len, ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(0x7e, out[0]);
	EXPECT_EQ(0x7e, out[len - 1]);
	aclrtFree(dev);
	aclrtFreeHost(f.host);
	free(out);
}

struct copy_arg {
	void *dev;
	unsigned char got[16];
	aclError ret;
};

/* pyACL samples read results back with aclrtMemcpy inside the callback. */
static void copy_back(void *arg)
{
	struct copy_arg *c = arg;

	c->ret = aclrtMemcpy(c->got, sizeof(c->got), c->dev, sizeof(c->got),
			     ACL_MEMCPY_DEVICE_TO_HOST);
}

TEST_F(cb, memcpy_inside_a_blocking_callback)
{
	struct copy_arg c = { .ret = -1 };

	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&c.dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(c.dev, 64, 0x3c, 64, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtLaunchCallback(copy_back, &c, ACL_CALLBACK_BLOCK,
						   self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(c.dev, 64, 0x11, 64, self->s));
	/* It waited for its own stream before: a hang, now a bounded wait. */
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStreamWithTimeout(self->s, 10000));
	EXPECT_EQ(ACL_SUCCESS, c.ret);
	EXPECT_EQ(0x3c, c.got[0]);	/* the memset before, not the one after */
	EXPECT_EQ(0x3c, c.got[15]);
	aclrtFree(c.dev);
}

TEST_F(cb, error_codes)
{
	aclrtStream other;

	EXPECT_EQ(ACL_ERROR_RT_THREAD_SUBSCRIBE, aclrtProcessReport(10));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtProcessReport(0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtProcessReport(-2));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_SUBSCRIBE,
		  aclrtSubscribeReport((uint64_t)self->h.t, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&other));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_NO_CB_REG,
		  aclrtLaunchCallback(record, NULL, ACL_CALLBACK_BLOCK, other));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtLaunchCallback(NULL, NULL, ACL_CALLBACK_BLOCK, self->s));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclrtLaunchCallback(record, NULL, (aclrtCallbackBlockType)7, self->s));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_SUBSCRIBE,
		  aclrtUnSubscribeReport((uint64_t)pthread_self(), other));
	/* This thread subscribed, but nothing launched: a timeout. */
	ASSERT_EQ(ACL_SUCCESS, aclrtSubscribeReport((uint64_t)pthread_self(), other));
	EXPECT_EQ(ACL_ERROR_RT_REPORT_TIMEOUT, aclrtProcessReport(20));
	/* Launch, then process it here. */
	struct order o = { .n = 0 };
	struct step st = { &o, 5 };
	ASSERT_EQ(ACL_SUCCESS, aclrtLaunchCallback(record, &st, ACL_CALLBACK_NO_BLOCK, other));
	EXPECT_EQ(ACL_SUCCESS, aclrtProcessReport(5000));
	EXPECT_EQ(1, atomic_load(&o.n));
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(other));
	EXPECT_EQ(ACL_SUCCESS, aclrtUnSubscribeReport((uint64_t)pthread_self(), other));
	EXPECT_EQ(ACL_ERROR_RT_THREAD_SUBSCRIBE, aclrtProcessReport(10));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(other));
}

static void host_fn(void *arg)
{
	struct fill_arg *f = arg;

	fill_host(f);
}

TEST_F(cb, host_func_blocks_stream)
{
	const size_t len = 4096;
	struct fill_arg f = { .len = len };
	void *dev;
	char out[4096];

	ASSERT_EQ(ACL_SUCCESS, aclrtMallocHost((void **)&f.host, len));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&dev, len, ACL_MEM_MALLOC_HUGE_FIRST));
	memset(f.host, 0, len);
	ASSERT_EQ(ACL_SUCCESS, aclrtLaunchHostFunc(NULL, host_fn, &f));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpyAsync(dev, len, f.host, len,
						ACL_MEMCPY_HOST_TO_DEVICE, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(NULL));
	EXPECT_EQ(1, f.ran);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(out, len, dev, len, ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(0x7e, out[100]);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclrtLaunchHostFunc(NULL, NULL, NULL));
	aclrtFree(dev);
	aclrtFreeHost(f.host);
}

#define HF_THREADS 4
#define HF_EACH 50

struct hf_worker {
	aclrtContext ctx;
	aclrtStream s;
	int count;	/* only host functions touch it, one at a time */
	int seen;	/* count, read after each sync */
	int errors;
};

static void hf_count(void *arg)
{
	struct hf_worker *w = arg;

	w->count++;
}

static void *hf_worker_main(void *arg)
{
	struct hf_worker *w = arg;

	if (aclrtSetCurrentContext(w->ctx) || aclrtCreateStream(&w->s)) {
		w->errors++;
		return NULL;
	}
	for (int i = 0; i < HF_EACH; i++) {
		if (aclrtLaunchHostFunc(w->s, hf_count, w) ||
		    aclrtSynchronizeStream(w->s))
			w->errors++;
		/* The sync returned after the function ran: its write shows. */
		if (w->count != i + 1)
			w->errors++;
	}
	w->seen = w->count;
	if (aclrtDestroyStream(w->s))
		w->errors++;
	return NULL;
}

/*
 * Host functions launched from several threads run on the library's one
 * thread; each launcher reads what its functions wrote once its stream's
 * sync returns. That read is ordered after the function through the
 * device and the kernel, and for ThreadSanitizer through host_edge.c.
 */
TEST(host_funcs_from_threads)
{
	struct hf_worker w[HF_THREADS] = { 0 };
	pthread_t t[HF_THREADS];
	aclrtContext ctx;

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&ctx));
	for (int i = 0; i < HF_THREADS; i++) {
		w[i].ctx = ctx;
		ASSERT_EQ(0, pthread_create(&t[i], NULL, hf_worker_main, &w[i]));
	}
	for (int i = 0; i < HF_THREADS; i++) {
		pthread_join(t[i], NULL);
		EXPECT_EQ(0, w[i].errors);
		EXPECT_EQ(HF_EACH, w[i].seen);
	}
	EXPECT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
	EXPECT_EQ(ACL_SUCCESS, aclFinalize());
}

TEST_HARNESS_MAIN
