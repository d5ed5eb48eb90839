// SPDX-License-Identifier: MIT
/*
 * The caching allocator's fast paths (lib/core/alloc.c): chunks that grow
 * from 2 MiB, freed small blocks cached by size and handed back in O(1),
 * the cache merged back into its chunk when a request finds no room, a
 * free that still waits for work in flight (queued, or a graph replay
 * on a quiet device), and the per-thread context
 * check that takes no lock (lib/core/context.c). Each TEST is a fresh
 * process.
 */
#pragma GCC diagnostic ignored "-Wclobbered"
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <drm/vnpu_accel.h>

#include "acl/acl.h"
#include "kselftest_harness.h"
#include "vnpu_param.h"

#define MB (1u << 20)

FIXTURE(alloc) {
	int unused;
};

FIXTURE_SETUP(alloc)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
}

FIXTURE_TEARDOWN(alloc)
{
	aclrtResetDevice(0);
	aclFinalize();
}

/* A small first allocation costs a 2 MiB chunk; chunks then grow. */
TEST_F(alloc, chunks_grow_from_2mib)
{
	uint64_t used0 = vnpu_param(DRM_VNPU_PARAM_MEM_USED), used1, used2;
	void *a, *b;

	ASSERT_NE(UINT64_MAX, used0);
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&a, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
	used1 = vnpu_param(DRM_VNPU_PARAM_MEM_USED);
	EXPECT_EQ(2 * MB, used1 - used0);
	/* 3 MiB does not fit the first chunk: a 4 MiB one (2 MiB steps). */
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&b, 3 * MB, ACL_MEM_MALLOC_HUGE_FIRST));
	used2 = vnpu_param(DRM_VNPU_PARAM_MEM_USED);
	EXPECT_EQ(4 * MB, used2 - used1);
	/* Both usable, and freeing keeps the chunks (no ioctl). */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(b, 3 * MB, 0x5c, 3 * MB));
	ASSERT_EQ(ACL_SUCCESS, aclrtFree(a));
	ASSERT_EQ(ACL_SUCCESS, aclrtFree(b));
	EXPECT_EQ(used2, vnpu_param(DRM_VNPU_PARAM_MEM_USED));
}

/* A freed block comes back for the same size; it is not live meanwhile. */
TEST_F(alloc, cached_block_reused_and_not_live)
{
	void *p, *q, *r;

	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&p, 5000, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&r, 5000, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtFree(p));
	/* Cached, but freed: a second free and an interior pointer fail. */
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtFree(p));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtFree((char *)p + 64));
	/* Another size does not get it; the same size does. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&q, 7000, ACL_MEM_MALLOC_HUGE_FIRST));
	EXPECT_NE(p, q);
	ASSERT_EQ(ACL_SUCCESS, aclrtFree(q));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&q, 5000, ACL_MEM_MALLOC_HUGE_FIRST));
	EXPECT_EQ(p, q);
	ASSERT_EQ(ACL_SUCCESS, aclrtFree(q));
	ASSERT_EQ(ACL_SUCCESS, aclrtFree(r));
}

/*
 * Thirty 64 KiB blocks fill most of the first 2 MiB chunk; freed, they sit
 * in the cache. A request as big as the chunk then has room only once the
 * cache is merged back: it must land where the blocks were, in no new
 * chunk, and be fully usable.
 */
TEST_F(alloc, cache_merged_back_when_room_runs_out)
{
	enum { N = 30 };
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	uint64_t used;
	uint8_t *back;
	void *p[N], *big;
	size_t i, bad = 0, n = 2000000;

	for (i = 0; i < N; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&p[i], 64 << 10, ACL_MEM_MALLOC_HUGE_FIRST));
		lo = (uintptr_t)p[i] < lo ? (uintptr_t)p[i] : lo;
		hi = (uintptr_t)p[i] > hi ? (uintptr_t)p[i] : hi;
	}
	used = vnpu_param(DRM_VNPU_PARAM_MEM_USED);
	for (i = 0; i < N; i++)
		ASSERT_EQ(ACL_SUCCESS, aclrtFree(p[i]));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&big, n, ACL_MEM_MALLOC_HUGE_FIRST));
	EXPECT_EQ(used, vnpu_param(DRM_VNPU_PARAM_MEM_USED));
	EXPECT_LE(lo, (uintptr_t)big);
	EXPECT_GE(hi, (uintptr_t)big);
	back = malloc(n);
	ASSERT_NE(NULL, back);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(big, n, 0x6d, n));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(back, n, big, n, ACL_MEMCPY_DEVICE_TO_HOST));
	for (i = 0; i < n; i++)
		bad += back[i] != 0x6d;
	EXPECT_EQ(0, bad);
	free(back);
	/* The cached blocks are gone: their old pointers are not live. */
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclrtFree(p[N - 1]));
	ASSERT_EQ(ACL_SUCCESS, aclrtFree(big));
}

/*
 * p (512 KiB) was freed right after work on s that writes it: the free
 * flushed and waited, so s has nothing left, and the range, handed out
 * again, keeps what its next user writes (the old work does not undo it).
 */
static void free_waited(struct __test_metadata *_metadata, aclrtStream s, void *p)
{
	aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
	uint8_t back[4096];
	size_t i, bad = 0;
	void *q;

	ASSERT_EQ(ACL_SUCCESS, aclrtStreamQuery(s, &st));
	EXPECT_EQ(ACL_STREAM_STATUS_COMPLETE, st);
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&q, 512 << 10, ACL_MEM_MALLOC_HUGE_FIRST));
	EXPECT_EQ(p, q);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(q, 4096, 0x22, 4096));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(back, 4096, q, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
	for (i = 0; i < sizeof(back); i++)
		bad += back[i] != 0x22;
	EXPECT_EQ(0, bad);
	ASSERT_EQ(ACL_SUCCESS, aclrtFree(q));
}

/* A free with work queued still waits for it before the range is reused. */
TEST_F(alloc, free_waits_for_queued_work)
{
	aclrtStream s;
	void *p, *q;

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&p, 512 << 10, ACL_MEM_MALLOC_HUGE_FIRST));
	/* Quiet device: the fast path. Then work is queued, not synced. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&q, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtFree(q));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(p, 512 << 10, 0x11, 512 << 10, s));
	ASSERT_EQ(ACL_SUCCESS, aclrtFree(p));
	free_waited(_metadata, s, p);
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
}

/*
 * A graph replay makes a quiet device busy with one generation bump for
 * all its steps (lib/core/graph_exec.c): a free right after it still
 * waits, and the range's next user is not overwritten by the replay.
 */
TEST_F(alloc, free_waits_for_a_replay)
{
	aclmdlRI ri = NULL;
	aclrtStream s;
	void *p, *q;
	size_t i;

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&p, 512 << 10, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	for (i = 0; i < 8; i++)
		ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(p, 512 << 10, 0x11 + i, 512 << 10, s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(s, &ri));
	/* Quiet: the first free finds every stream idle, the second skips. */
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&q, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
		ASSERT_EQ(ACL_SUCCESS, aclrtFree(q));
	}
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, s));
	ASSERT_EQ(ACL_SUCCESS, aclrtFree(p));
	free_waited(_metadata, s, p);
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(s));
}

struct ctx_thread {
	aclrtContext ctx;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int stage;		/* 1: ctx current here, 2: ctx destroyed */
	aclError before, after;
};

static void stage_wait(struct ctx_thread *t, int stage)
{
	pthread_mutex_lock(&t->lock);
	while (t->stage < stage)
		pthread_cond_wait(&t->cond, &t->lock);
	pthread_mutex_unlock(&t->lock);
}

static void stage_set(struct ctx_thread *t, int stage)
{
	pthread_mutex_lock(&t->lock);
	t->stage = stage;
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
}

static void *ctx_user(void *arg)
{
	struct ctx_thread *t = arg;
	void *p = NULL;

	aclrtSetCurrentContext(t->ctx);
	t->before = aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST);
	if (!t->before)
		aclrtFree(p);
	stage_set(t, 1);
	stage_wait(t, 2);
	/* Destroyed by the other thread: this thread must notice. */
	t->after = aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST);
	return NULL;
}

/* The lock-free current-context check sees another thread's destroy. */
TEST_F(alloc, context_destroyed_elsewhere_is_noticed)
{
	struct ctx_thread t = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.cond = PTHREAD_COND_INITIALIZER,
		.before = -1, .after = -1,
	};
	pthread_t th;

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateContext(&t.ctx, 0));
	ASSERT_EQ(0, pthread_create(&th, NULL, ctx_user, &t));
	stage_wait(&t, 1);
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyContext(t.ctx));
	stage_set(&t, 2);
	pthread_join(th, NULL);
	EXPECT_EQ(ACL_SUCCESS, t.before);
	EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, t.after);
}

TEST_HARNESS_MAIN
