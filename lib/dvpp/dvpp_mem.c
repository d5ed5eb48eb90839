// SPDX-License-Identifier: MIT
/*
 * acldvppMalloc / acldvppFree: the memory the media engines take.
 *
 * DVPP memory is ordinary device memory of the current context's device,
 * sized as CANN sizes it (the request rounded up to 32 bytes, plus 32),
 * but remembered here: the VPC and codec calls accept picture and stream
 * buffers only inside a live acldvppMalloc block, as CANN's 310/910 do,
 * and acldvppFree refuses anything else.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "../core/entry_check.h"
#include "../core/rt_objects.h"
#include "dvpp.h"
#include "dvpp_mem.h"
#include "../core/prof_rt.h"

struct dvpp_block {
	uintptr_t start;
	uint64_t size;
	struct rt_device *dev;
	struct dvpp_block *next;
};

static pthread_mutex_t mem_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dvpp_block *blocks;

aclError acldvppMalloc(void **devPtr, size_t size)
{
	PROF_API();
	struct rt_context *ctx;
	struct dvpp_block *b;
	uint64_t want;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(devPtr);
	if (!size)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "size must not be 0");
	if (size > DVPP_MEM_MAX)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"size %zu is above DVPP's limit of %llu bytes", size,
				(unsigned long long)DVPP_MEM_MAX);
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "allocating DVPP memory");
	want = dvpp_mem_size(size);
	b = calloc(1, sizeof(*b));
	if (!b)
		return acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
	ret = alloc_device(ctx->dev, want, false, devPtr);
	if (ret) {
		free(b);
		return rt_error(ret, "allocating DVPP memory");
	}
	b->start = (uintptr_t)*devPtr;
	b->size = want;
	b->dev = ctx->dev;
	pthread_mutex_lock(&mem_lock);
	b->next = blocks;
	blocks = b;
	pthread_mutex_unlock(&mem_lock);
	return ACL_SUCCESS;
}

aclError acldvppFree(void *devPtr)
{
	PROF_API();
	struct dvpp_block **pp, *b = NULL;
	int ret;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(devPtr);
	pthread_mutex_lock(&mem_lock);
	for (pp = &blocks; *pp; pp = &(*pp)->next)
		if ((*pp)->start == (uintptr_t)devPtr) {
			b = *pp;
			*pp = b->next;
			break;
		}
	pthread_mutex_unlock(&mem_lock);
	if (!b)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"%p was not returned by acldvppMalloc, or is already freed",
				devPtr);
	ret = alloc_free(b->dev, devPtr);
	free(b);
	return ret ? rt_error(ret, "freeing DVPP memory") : ACL_SUCCESS;
}

uint64_t dvpp_mem_size(uint64_t size)
{
	return ((size + DVPP_MEM_ALIGN - 1) & ~(uint64_t)(DVPP_MEM_ALIGN - 1)) +
	       DVPP_MEM_ALIGN;
}

int dvpp_mem_check(const void *p, uint64_t len)
{
	uintptr_t a = (uintptr_t)p;
	int ret = -ENOENT;

	pthread_mutex_lock(&mem_lock);
	for (struct dvpp_block *b = blocks; b; b = b->next) {
		if (a < b->start || a - b->start >= b->size)
			continue;
		ret = len <= b->size - (a - b->start) ? 0 : -ERANGE;
		break;
	}
	pthread_mutex_unlock(&mem_lock);
	return ret;
}

/* aclFinalize, or a fork's child: the blocks went with the devices. */
void dvpp_mem_forget_all(void)
{
	struct dvpp_block *b;

	pthread_mutex_lock(&mem_lock);
	while ((b = blocks)) {
		blocks = b->next;
		free(b);
	}
	pthread_mutex_unlock(&mem_lock);
}
