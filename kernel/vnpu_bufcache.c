// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: a file's cache of batch buffers. Every SUBMIT copies its task
 * array and argument block into fresh kernel memory; with init_on_alloc
 * (Debian's default) each of those allocations is zeroed in full before
 * the copy overwrites it, and a batch of a hundred small operators is
 * tens of KiB (a thousand of them, most of a MiB). The buffers of a
 * finished batch are kept here, up to VNPU_BUFCACHE_SLOTS buffers and
 * VNPU_BUFCACHE_BYTES per file, and the next batch of the same size class
 * takes them over.
 *
 * A buffer only ever holds its file's own batches, and a batch reads no
 * byte it has not copied in (batch->count tasks, args_size bytes of
 * arguments), so what a reused buffer held before is never looked at.
 * The buffers stay charged to the memory cgroup that first allocated
 * them and are freed when the file's last reference goes.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "vnpu_drv.h"

/* Smallest class: below this kmalloc is cheap and nothing is cached. */
#define VNPU_BUFCACHE_MIN	SZ_4K

/**
 * vnpu_bufcache_init() - an empty cache for @vfile
 * @vfile: the file
 */
void vnpu_bufcache_init(struct vnpu_file *vfile)
{
	spin_lock_init(&vfile->bufcache.lock);
	vfile->bufcache.count = 0;
	vfile->bufcache.bytes = 0;
}

/**
 * vnpu_bufcache_fini() - free every buffer @vfile's cache holds
 * @vfile: the file; nothing may use its cache any more
 */
void vnpu_bufcache_fini(struct vnpu_file *vfile)
{
	struct vnpu_device *vdev = vfile->vdev;
	struct vnpu_bufcache *c = &vfile->bufcache;

	while (c->count) {
		c->count--;
		c->bytes -= c->cap[c->count];
		atomic64_sub(c->cap[c->count], &vdev->bufcache_bytes);
		kvfree(c->buf[c->count]);
	}
}

/* Buffers of this capacity are kept for reuse. */
static bool vnpu_bufcache_keeps(size_t cap)
{
	return cap >= VNPU_BUFCACHE_MIN && cap <= VNPU_BUFCACHE_MAX &&
	       is_power_of_2(cap);
}

/* The capacity a buffer of @size gets: its power-of-two class. */
static size_t vnpu_bufcache_class(size_t size)
{
	if (size < VNPU_BUFCACHE_MIN || size > VNPU_BUFCACHE_MAX)
		return size;
	return roundup_pow_of_two(size);
}

/**
 * vnpu_bufcache_get() - a buffer of at least @size bytes
 * @vfile: the file whose cache it comes from
 * @size: bytes needed (> 0)
 *
 * The contents are undefined: the caller writes all @size bytes before
 * anything reads them.
 *
 * Return: the buffer, or NULL when memory is short.
 */
void *vnpu_bufcache_get(struct vnpu_file *vfile, size_t size)
{
	struct vnpu_device *vdev = vfile->vdev;
	struct vnpu_bufcache *c = &vfile->bufcache;
	size_t class = vnpu_bufcache_class(size);
	bool keeps = vnpu_bufcache_keeps(class);
	void *buf = NULL;
	u32 i;

	if (keeps) {
		spin_lock(&c->lock);
		for (i = 0; i < c->count; i++) {
			if (c->cap[i] != class)
				continue;
			buf = c->buf[i];
			c->bytes -= class;
			c->count--;
			c->buf[i] = c->buf[c->count];
			c->cap[i] = c->cap[c->count];
			break;
		}
		spin_unlock(&c->lock);
	}
	if (buf) {
		atomic64_sub(class, &vdev->bufcache_bytes);
		atomic64_inc(&vdev->bufcache_hits);
		return buf;
	}
	if (keeps)
		atomic64_inc(&vdev->bufcache_misses);
	/*
	 * Sized by user space: charged to the caller's memory cgroup, and
	 * failing with -ENOMEM at its limit instead of waking its OOM killer.
	 */
	return kvmalloc(class, GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL |
			__GFP_NOWARN);
}

/**
 * vnpu_bufcache_put() - give a buffer back
 * @vfile: the file whose cache may keep it
 * @buf: the buffer from vnpu_bufcache_get(), or NULL
 * @size: the size it was got with (its class is the capacity)
 *
 * Keeps the buffer when it is of a cached class, a slot is free and the
 * file's cached bytes stay within VNPU_BUFCACHE_BYTES; frees it otherwise.
 */
void vnpu_bufcache_put(struct vnpu_file *vfile, void *buf, size_t size)
{
	struct vnpu_bufcache *c = &vfile->bufcache;
	size_t cap = vnpu_bufcache_class(size);
	bool kept = false;

	if (!buf)
		return;
	if (vnpu_bufcache_keeps(cap)) {
		spin_lock(&c->lock);
		if (c->count < VNPU_BUFCACHE_SLOTS &&
		    c->bytes + cap <= VNPU_BUFCACHE_BYTES) {
			c->buf[c->count] = buf;
			c->cap[c->count] = cap;
			c->count++;
			c->bytes += cap;
			kept = true;
		}
		spin_unlock(&c->lock);
	}
	if (kept)
		atomic64_add(cap, &vfile->vdev->bufcache_bytes);
	else
		kvfree(buf);
}
