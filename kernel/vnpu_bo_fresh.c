// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: the first write into an object nobody has mapped yet.
 *
 * vnpu_bo_kmap() maps a whole object, which makes shmem allocate every
 * page and zero it first; a copy or fill then overwrites the zeros.
 * Under software emulation the kernel's page clearing (string stores)
 * runs far below memory speed, so a first copy into fresh device memory
 * costs mostly zeroing. Here the first write goes straight into the
 * page cache instead: each page is taken with SGP_WRITE (no clearing),
 * the parts of a new page the write does not cover are zeroed, the
 * written bytes are stored and the page is marked up to date, as a
 * write() into a tmpfs file does. Whoever maps the object later finds
 * these pages in place; pages nobody wrote are zeroed as before.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/highmem.h>
#include <linux/memcontrol.h>
#include <linux/pagemap.h>
#include <linux/sched/mm.h>
#include <linux/shmem_fs.h>
#include <drm/drm_gem.h>

#include "vnpu_gem.h"
#include "vnpu_job.h"

/**
 * vnpu_bo_fresh() - is @bo a shmem object with no pages in use yet?
 * @bo: the object
 *
 * Such an object has no kernel mapping and no page array (no mmap, no
 * vmap); its first device write can use vnpu_bo_write_fresh(). A racing
 * map is harmless: both sides go through the same page cache.
 *
 * Return: true when the fresh-write path applies.
 */
bool vnpu_bo_fresh(struct vnpu_bo *bo)
{
	struct drm_gem_object *obj = vnpu_bo_obj(bo);

	return obj->filp && !obj->import_attach && !READ_ONCE(bo->kva) &&
	       !READ_ONCE(bo->base.pages);
}

/* Store @n bytes at @in of @kaddr: from @src, or the byte @c. */
static void vnpu_fresh_store(u8 *kaddr, size_t in, const u8 *src, int c,
			     size_t n)
{
	if (src)
		vnpu_copy_kernel(kaddr + in, src, n);
	else
		memset(kaddr + in, c, n);
}

/* One page's part of the write; the folio comes back locked. */
static int vnpu_fresh_page(struct inode *inode, u64 off, const u8 *src, int c,
			   size_t n)
{
	pgoff_t index = off >> PAGE_SHIFT;
	size_t in = offset_in_page(off);
	struct folio *folio;
	struct page *page;
	bool fresh;
	u8 *kaddr;
	int ret;

	ret = shmem_get_folio(inode, index, off + n, &folio, SGP_WRITE);
	if (ret)
		return ret;
	fresh = !folio_test_uptodate(folio);
	if (fresh && folio_test_large(folio)) {
		/* A huge folio: clear it all, as shmem would have. */
		folio_zero_range(folio, 0, folio_size(folio));
		fresh = false;
		folio_mark_uptodate(folio);
	}
	page = folio_file_page(folio, index);
	kaddr = kmap_local_page(page);
	if (fresh) {
		memset(kaddr, 0, in);
		memset(kaddr + in + n, 0, PAGE_SIZE - in - n);
	}
	vnpu_fresh_store(kaddr, in, src, c, n);
	kunmap_local(kaddr);
	if (fresh) {
		flush_dcache_folio(folio);
		folio_mark_uptodate(folio);
	}
	folio_mark_dirty(folio);
	folio_unlock(folio);
	folio_put(folio);
	return 0;
}

/**
 * vnpu_bo_write_fresh() - write bytes into an object through its pages
 * @bo: a shmem object (see vnpu_bo_fresh())
 * @off: first byte in the object
 * @src: the bytes, or NULL to store @c
 * @c: the fill byte when @src is NULL
 * @len: bytes; the caller checked [@off, @off + @len) against @bo->size
 *
 * New pages are charged to the object's memory cgroup, as
 * vnpu_bo_kmap() charges them.
 *
 * Return: 0, or -ENOMEM/-ENOSPC when a page cannot be had (the bytes
 * before it are written).
 */
int vnpu_bo_write_fresh(struct vnpu_bo *bo, u64 off, const void *src, int c,
			u64 len)
{
	struct inode *inode = file_inode(vnpu_bo_obj(bo)->filp);
	struct mem_cgroup *old_memcg;
	const u8 *s = src;
	int ret = 0;

	old_memcg = set_active_memcg(bo->memcg);
	while (len) {
		size_t n = min_t(u64, len, PAGE_SIZE - offset_in_page(off));

		ret = vnpu_fresh_page(inode, off, s, c, n);
		if (ret)
			break;
		off += n;
		len -= n;
		if (s)
			s += n;
	}
	set_active_memcg(old_memcg);
	return ret;
}
