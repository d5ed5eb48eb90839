/* SPDX-License-Identifier: MIT */
/*
 * The caching device allocator behind aclrtMalloc. Requests are rounded
 * as ACL does (up to 32 bytes, plus 32 bytes of padding) and then to
 * ALLOC_ALIGN, so every pointer is ALLOC_ALIGN-aligned, then carved
 * first-fit from DEVICE
 * BOs ("chunks") that are kept until the device is released, so
 * malloc/free after warm-up make no ioctl. Chunks grow with use: the
 * first is 2 MiB, each next one as big as all before it, up to 64 MiB,
 * because a chunk's pages are all allocated (and zeroed by the kernel)
 * on its first device access: a program that allocates a few small
 * buffers should not pay for 64 MiB of them. Requests of 16 MiB and more
 * get a BO of their own, closed by aclrtFree. The pointer is the device
 * VA. aclrtFree waits for the device's submitted work (every stream of
 * the device is flushed and synchronized) before the range can be reused,
 * as cudaFree does: the simplest rule that is always correct. Failed jobs
 * found meanwhile stay for their stream's next sync to report.
 *
 * A freed block of up to 1 MiB is not merged back into its chunk at once
 * but kept whole in a cache by size, so the next request of that size
 * takes it back in O(1) without touching the free lists or the heap: a
 * cached malloc/free pair is a few hundred nanoseconds of work under one
 * uncontended mutex. When no chunk has room for a request, the cache is
 * given back to the chunks (merging) before a new chunk is made.
 *
 * aclrtMallocHost memory is a HOST BO mapped into the process; its list
 * maps host pointers back to device VAs so async copies can use them.
 */
#include <errno.h>
#include <stdlib.h>

#include "../kmd/kmd.h"
#include "host_bo.h"
#include "rt_objects.h"

/*
 * CANN documents 64-byte aligned pointers, but its driver hands out
 * whole pages and clients count on more: ggml's CANN buffers align
 * tensors to 128 bytes inside an aclrtMalloc block and run out of room
 * when the block itself is only 64-aligned. 512 bytes, the block size of
 * the framework caching allocators, covers them at little cost.
 */
#define ALLOC_ALIGN	512ULL
#define CHUNK_MIN	(2ULL << 20)
#define CHUNK_MAX	(64ULL << 20)
#define DEDICATED_MIN	(CHUNK_MAX / 4)
/* Freed blocks up to CACHE_MAX bytes are cached, at most CACHE_BLOCKS. */
#define CACHE_MAX	(1ULL << 20)
#define CACHE_BLOCKS	1024

struct alloc_range {
	uint64_t off, size;
	struct alloc_range *next;	/* sorted by off */
};

struct alloc_chunk {
	uint32_t handle;
	uint64_t va, size;
	struct alloc_range *free;
	struct alloc_chunk *next;
};

struct alloc_block {
	uint64_t va, size;
	struct alloc_chunk *chunk;	/* NULL: a dedicated BO */
	uint32_t handle;		/* dedicated BO */
	struct alloc_block *next;
};

struct host_buf {
	void *ptr;
	uint64_t size, va;
	uint32_t handle;
	bool user;		/* aclrtHostRegister: the caller's pages */
	uint64_t map_off;	/* user: ptr - page-aligned start of the BO */
	struct host_buf *next;
};

static unsigned bucket(uint64_t va)
{
	return (unsigned)((va >> 6) % ALLOC_BUCKETS);
}

/* First fit inside one chunk; returns the offset or UINT64_MAX. */
static uint64_t chunk_take(struct alloc_chunk *c, uint64_t size)
{
	struct alloc_range **pp, *r;
	uint64_t off;

	for (pp = &c->free; (r = *pp); pp = &r->next) {
		if (r->size < size)
			continue;
		off = r->off;
		r->off += size;
		r->size -= size;
		if (!r->size) {
			*pp = r->next;
			free(r);
		}
		return off;
	}
	return UINT64_MAX;
}

/* Give a range back, merging with its neighbours. */
static int chunk_give(struct alloc_chunk *c, uint64_t off, uint64_t size)
{
	struct alloc_range **pp, *r, *prev = NULL, *n;

	for (pp = &c->free; (r = *pp) && r->off < off; pp = &r->next)
		prev = r;
	if (prev && prev->off + prev->size == off) {
		prev->size += size;
		if (r && off + size == r->off) {
			prev->size += r->size;
			prev->next = r->next;
			free(r);
		}
		return 0;
	}
	if (r && off + size == r->off) {
		r->off = off;
		r->size += size;
		return 0;
	}
	n = malloc(sizeof(*n));
	if (!n)
		return -ENOMEM;
	*n = (struct alloc_range){ .off = off, .size = size, .next = r };
	*pp = n;
	return 0;
}

/* A new DEVICE BO at [va, va + size): widen the device's bounds. */
static void note_bounds(struct rt_device *dev, uint64_t va, uint64_t size)
{
	if (!dev->dva_lo || va < dev->dva_lo)
		dev->dva_lo = va;
	if (va + size > dev->dva_hi)
		dev->dva_hi = va + size;
}

bool alloc_owns(struct rt_device *dev, uint64_t va)
{
	return va >= dev->dva_lo && va < dev->dva_hi;
}

/* The next chunk's size: what the chunks hold so far, within bounds. */
static uint64_t chunk_size(const struct rt_device *dev, uint64_t want)
{
	uint64_t size = dev->chunk_bytes;

	size = size < CHUNK_MIN ? CHUNK_MIN : size > CHUNK_MAX ? CHUNK_MAX : size;
	if (size < want)	/* want < DEDICATED_MIN <= CHUNK_MAX */
		size = (want + CHUNK_MIN - 1) / CHUNK_MIN * CHUNK_MIN;
	return size;
}

static int chunk_new(struct rt_device *dev, uint64_t want,
		     struct alloc_chunk **out)
{
	struct alloc_chunk *c = calloc(1, sizeof(*c));
	int ret;

	if (!c)
		return -ENOMEM;
	c->size = chunk_size(dev, want);
	ret = kmd_bo_create(dev->fd, c->size, DRM_VNPU_PLACEMENT_DEVICE,
			    &c->handle, &c->va);
	if (!ret)
		ret = chunk_give(c, 0, c->size);
	if (ret) {
		free(c);
		return ret;
	}
	note_bounds(dev, c->va, c->size);
	dev->chunk_bytes += c->size;
	c->next = dev->chunks;
	dev->chunks = c;
	*out = c;
	return 0;
}

static unsigned cache_class(uint64_t size)
{
	return (unsigned)((size / ALLOC_ALIGN) % ALLOC_CACHE_CLASSES);
}

/* A cached block of exactly @size, taken out of the cache, or NULL. */
static struct alloc_block *cache_take(struct rt_device *dev, uint64_t size)
{
	struct alloc_block **pp, *b;

	for (pp = &dev->cached[cache_class(size)]; (b = *pp); pp = &b->next)
		if (b->size == size) {
			*pp = b->next;
			dev->ncached--;
			return b;
		}
	return NULL;
}

/* Keep a freed chunk block for reuse; false when the cache is full. */
static bool cache_put(struct rt_device *dev, struct alloc_block *b)
{
	unsigned k = cache_class(b->size);

	if (!b->chunk || b->size > CACHE_MAX || dev->ncached >= CACHE_BLOCKS)
		return false;
	b->next = dev->cached[k];
	dev->cached[k] = b;
	dev->ncached++;
	return true;
}

/* Give every cached block back to its chunk, merging free ranges. */
static void cache_flush(struct rt_device *dev)
{
	for (unsigned k = 0; k < ALLOC_CACHE_CLASSES; k++)
		while (dev->cached[k]) {
			struct alloc_block *b = dev->cached[k];

			dev->cached[k] = b->next;
			chunk_give(b->chunk, b->va - b->chunk->va, b->size);
			free(b);
		}
	dev->ncached = 0;
}

/* First fit over the chunks; UINT64_MAX when none has room. */
static uint64_t chunks_take(struct rt_device *dev, uint64_t want,
			    struct alloc_chunk **out)
{
	struct alloc_chunk *c;
	uint64_t off;

	for (c = dev->chunks; c; c = c->next)
		if ((off = chunk_take(c, want)) != UINT64_MAX) {
			*out = c;
			return off;
		}
	return UINT64_MAX;
}

/* Room for a new block @b of @want bytes: in a chunk, else a BO of its own. */
static int block_place(struct rt_device *dev, struct alloc_block *b,
		       uint64_t want)
{
	struct alloc_chunk *c = NULL;
	uint64_t off = UINT64_MAX;
	int ret;

	if (want < DEDICATED_MIN) {
		off = chunks_take(dev, want, &c);
		if (off == UINT64_MAX && dev->ncached) {
			cache_flush(dev);
			off = chunks_take(dev, want, &c);
		}
		if (off == UINT64_MAX && !chunk_new(dev, want, &c))
			off = chunk_take(c, want);
	}
	if (off != UINT64_MAX) {
		b->chunk = c;
		b->va = c->va + off;
		return 0;
	}
	/* Big, or no room for another chunk: a BO of its own. */
	ret = kmd_bo_create(dev->fd, want, DRM_VNPU_PLACEMENT_DEVICE,
			    &b->handle, &b->va);
	if (!ret)
		note_bounds(dev, b->va, want);
	return ret;
}

int alloc_device(struct rt_device *dev, size_t size, bool pad, void **ptr)
{
	uint64_t want = ((uint64_t)size + 31) / 32 * 32 + (pad ? 32 : 0);
	struct alloc_block *b;
	int ret = 0;

	want = (want + ALLOC_ALIGN - 1) / ALLOC_ALIGN * ALLOC_ALIGN;
	pthread_mutex_lock(&dev->lock);
	b = want <= CACHE_MAX ? cache_take(dev, want) : NULL;
	if (!b) {
		b = calloc(1, sizeof(*b));
		ret = b ? block_place(dev, b, want) : -ENOMEM;
	}
	if (!ret) {
		b->size = want;
		b->next = dev->blocks[bucket(b->va)];
		dev->blocks[bucket(b->va)] = b;
		*ptr = (void *)(uintptr_t)b->va;
		dev->dev_used += want;
		if (dev->dev_used > dev->dev_peak)
			dev->dev_peak = dev->dev_used;
	}
	pthread_mutex_unlock(&dev->lock);
	if (ret)
		free(b);
	return ret;
}

/* A block freed by the caller goes back (cache, chunk or BO). Lock held. */
static struct alloc_block *block_release_locked(struct rt_device *dev,
						struct alloc_block *b)
{
	dev->dev_used -= b->size;
	if (cache_put(dev, b))
		return NULL;
	if (b->chunk)
		chunk_give(b->chunk, b->va - b->chunk->va, b->size);
	else
		kmd_gem_close(dev->fd, b->handle);
	return b;	/* for the caller to free, outside the lock */
}

int alloc_free(struct rt_device *dev, void *ptr)
{
	uint64_t va = (uintptr_t)ptr;
	struct alloc_block **pp, *b;

	pthread_mutex_lock(&dev->lock);
	for (pp = &dev->blocks[bucket(va)]; (b = *pp); pp = &b->next)
		if (b->va == va)
			break;
	if (b)
		*pp = b->next;	/* nobody else can free it now */
	/* The common case: no work in flight could still use the range. */
	if (b && device_known_quiet(dev)) {
		b = block_release_locked(dev, b);
		pthread_mutex_unlock(&dev->lock);
		free(b);
		return 0;
	}
	pthread_mutex_unlock(&dev->lock);
	if (!b)
		return -ENOENT;
	/* Work submitted so far may still use the range. */
	device_drain(dev);
	pthread_mutex_lock(&dev->lock);
	b = block_release_locked(dev, b);
	pthread_mutex_unlock(&dev->lock);
	free(b);
	return 0;
}

int alloc_host(struct rt_device *dev, size_t size, void **ptr)
{
	struct host_buf *h = calloc(1, sizeof(*h));
	int ret;

	if (!h)
		return -ENOMEM;
	h->size = size;
	ret = host_bo_create(dev->fd, size, &h->handle, &h->va, &h->ptr);
	if (ret) {
		free(h);
		return ret;
	}
	pthread_mutex_lock(&dev->lock);
	h->next = dev->host_bufs;
	dev->host_bufs = h;
	dev->host_used += size;
	if (dev->host_used > dev->host_peak)
		dev->host_peak = dev->host_used;
	pthread_mutex_unlock(&dev->lock);
	*ptr = h->ptr;
	return 0;
}

int alloc_free_host(struct rt_device *dev, void *ptr)
{
	struct host_buf **pp, *h;

	pthread_mutex_lock(&dev->lock);
	for (pp = &dev->host_bufs; (h = *pp); pp = &h->next)
		if (h->ptr == ptr && !h->user)
			break;
	if (h) {
		*pp = h->next;
		dev->host_used -= h->size;
	}
	pthread_mutex_unlock(&dev->lock);
	if (!h)
		return -ENOENT;
	device_drain(dev);
	host_bo_destroy(dev->fd, h->handle, h->ptr, h->size);
	free(h);
	return 0;
}

uint64_t alloc_host_va(struct rt_device *dev, const void *ptr, size_t len)
{
	uintptr_t p = (uintptr_t)ptr;
	uint64_t va = 0;

	pthread_mutex_lock(&dev->lock);
	for (struct host_buf *h = dev->host_bufs; h; h = h->next) {
		uintptr_t base = (uintptr_t)h->ptr;

		if (p >= base && p - base <= h->size && len <= h->size - (p - base)) {
			va = h->va + (p - base);
			break;
		}
	}
	pthread_mutex_unlock(&dev->lock);
	return va;
}

/*
 * aclrtHostRegister: pin the pages around [ptr, ptr + size) as a USER BO;
 * the range then has a device VA (async copies use it, and *va is what
 * the caller gets as devPtr). -EEXIST when ptr is registered already.
 */
int alloc_host_register(struct rt_device *dev, void *ptr, size_t size,
			uint64_t *va)
{
	uint64_t page = 4096, start = (uintptr_t)ptr & ~(page - 1);
	uint64_t end = ((uintptr_t)ptr + size + page - 1) & ~(page - 1);
	struct host_buf *h;
	int ret;

	pthread_mutex_lock(&dev->lock);
	for (h = dev->host_bufs; h; h = h->next)
		if (h->user && h->ptr == ptr)
			break;
	pthread_mutex_unlock(&dev->lock);
	if (h)
		return -EEXIST;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	ret = kmd_bo_create_user(dev->fd, end - start, start, &h->handle, &h->va);
	if (ret) {
		free(h);
		return ret;
	}
	h->user = true;
	h->ptr = ptr;
	h->size = size;
	h->map_off = (uintptr_t)ptr - start;
	h->va += h->map_off;
	pthread_mutex_lock(&dev->lock);
	h->next = dev->host_bufs;
	dev->host_bufs = h;
	pthread_mutex_unlock(&dev->lock);
	*va = h->va;
	return 0;
}

int alloc_host_unregister(struct rt_device *dev, void *ptr)
{
	struct host_buf **pp, *h;

	pthread_mutex_lock(&dev->lock);
	for (pp = &dev->host_bufs; (h = *pp); pp = &h->next)
		if (h->ptr == ptr && h->user)
			break;
	if (h)
		*pp = h->next;
	pthread_mutex_unlock(&dev->lock);
	if (!h)
		return -ENOENT;
	device_drain(dev);
	kmd_gem_close(dev->fd, h->handle);
	free(h);
	return 0;
}

/* The device is being closed: every BO goes with it. */
void alloc_release_all(struct rt_device *dev)
{
	dev->dva_lo = 0;
	dev->dva_hi = 0;
	dev->dev_used = dev->dev_peak = dev->host_used = dev->host_peak = 0;
	for (unsigned k = 0; k < ALLOC_CACHE_CLASSES; k++)
		while (dev->cached[k]) {
			struct alloc_block *b = dev->cached[k];

			dev->cached[k] = b->next;
			free(b);	/* its chunk goes below */
		}
	dev->ncached = 0;
	dev->chunk_bytes = 0;
	for (unsigned i = 0; i < ALLOC_BUCKETS; i++)
		while (dev->blocks[i]) {
			struct alloc_block *b = dev->blocks[i];

			dev->blocks[i] = b->next;
			if (!b->chunk)
				kmd_gem_close(dev->fd, b->handle);
			free(b);
		}
	while (dev->chunks) {
		struct alloc_chunk *c = dev->chunks;

		dev->chunks = c->next;
		while (c->free) {
			struct alloc_range *r = c->free;

			c->free = r->next;
			free(r);
		}
		kmd_gem_close(dev->fd, c->handle);
		free(c);
	}
	while (dev->host_bufs) {
		struct host_buf *h = dev->host_bufs;

		dev->host_bufs = h->next;
		if (h->user)
			kmd_gem_close(dev->fd, h->handle);
		else
			host_bo_destroy(dev->fd, h->handle, h->ptr, h->size);
		free(h);
	}
}

/*
 * IPC export: the BO behind the allocation containing ptr (its chunk, or
 * its own BO) and ptr's offset in that BO; *avail is what is left of the
 * allocation from ptr. -ENOENT when ptr is not in an aclrtMalloc block.
 */
int alloc_lookup(struct rt_device *dev, const void *ptr, uint32_t *handle,
		 uint64_t *bo_off, uint64_t *avail)
{
	uint64_t va = (uintptr_t)ptr;
	int ret = -ENOENT;

	pthread_mutex_lock(&dev->lock);
	for (unsigned i = 0; i < ALLOC_BUCKETS && ret; i++)
		for (struct alloc_block *b = dev->blocks[i]; b; b = b->next) {
			if (va < b->va || va - b->va >= b->size)
				continue;
			*avail = b->size - (va - b->va);
			if (b->chunk) {
				*handle = b->chunk->handle;
				*bo_off = va - b->chunk->va;
			} else {
				*handle = b->handle;
				*bo_off = va - b->va;
			}
			ret = 0;
			break;
		}
	pthread_mutex_unlock(&dev->lock);
	return ret;
}
