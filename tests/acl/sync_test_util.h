/* SPDX-License-Identifier: MIT */
/*
 * Shared by the tests of syncs that could deadlock (acl_sync_lock_test,
 * acl_graph_sync_enter_test): a watchdog that turns a hang into this
 * test's failure instead of a hung suite, a thread that releases a value
 * wait only after launching on the stream being synced, and a read-back
 * of device bytes. Include after kselftest_harness.h.
 */
#ifndef SYNC_TEST_UTIL_H
#define SYNC_TEST_UTIL_H

#include <signal.h>
#include <stddef.h>
#include <unistd.h>

#include "acl/acl.h"

#define SYNC_WATCHDOG_S 60
#define SYNC_EXPECT_MAX 4096

static void sync_watchdog_fired(int sig)
{
	static const char msg[] = "# watchdog: the sync did not return (deadlock)\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	_exit(2);
}

/* Fail the test (exit 2) unless it is over within s seconds; 0 disarms. */
static inline void sync_watchdog(unsigned int s)
{
	signal(SIGALRM, sync_watchdog_fired);
	alarm(s);
}

/*
 * Thread main: launches on s (dst's 64 bytes := 0x33), then writes 1 to
 * word through u, which a value wait may be waiting for. Started before
 * a sync of s: were the sync to hold s's lock while it waits, the launch
 * could never get it.
 */
struct sync_gate {
	aclrtStream s, u;
	void *dst, *word;
	aclError r1, r2;
};

static void *sync_gate_main(void *arg)
{
	struct sync_gate *g = arg;

	aclrtSetDevice(0);
	usleep(200000);		/* the sync is waiting by now */
	g->r1 = aclrtMemsetAsync(g->dst, 64, 0x33, 64, g->s);
	g->r2 = aclrtValueWrite(g->word, 1, 0, g->u);
	return NULL;
}

/* The n bytes at dev + off are all value (n at most SYNC_EXPECT_MAX). */
static inline void expect_dev_bytes(struct __test_metadata *_metadata,
				    const void *dev, size_t off, size_t n,
				    int value)
{
	unsigned char h[SYNC_EXPECT_MAX];

	ASSERT_LE(n, sizeof(h));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(h, n, (const char *)dev + off, n,
					   ACL_MEMCPY_DEVICE_TO_HOST));
	for (size_t i = 0; i < n; i++) {
		ASSERT_EQ(value, h[i]) TH_LOG("byte %zu", off + i);
	}
}

#endif /* SYNC_TEST_UTIL_H */
