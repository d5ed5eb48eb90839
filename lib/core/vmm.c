/* SPDX-License-Identifier: MIT */
/*
 * The runtime's book of reservations, physical allocations and mappings.
 * The driver enforces every rule; this book answers what it cannot:
 * which device a reserved pointer belongs to, which handle a mapping
 * uses (aclrtMemRetainAllocationHandle), where a reservation starts
 * (aclrtMemGetAddressRange), and whether a user's handle is still live
 * before it is dereferenced.
 *
 * A handle's GEM handle is closed when its last reference goes
 * (aclrtFreePhysical); mappings made from it keep the memory in the
 * driver, so its record stays until they are unmapped as well.
 *
 * One lock guards all of it; the ioctls run under it, so the book and
 * the driver never disagree.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "../kmd/kmd.h"
#include "vmm.h"

struct vmm_resv {
	struct rt_device *dev;
	uint64_t va, size;
	uint32_t maps;
	struct vmm_resv *next;
};

struct vmm_map {
	uint64_t va, size;
	struct vmm_phys *phys;
	struct vmm_resv *resv;
	struct vmm_map *next;
};

static pthread_mutex_t vmm_lock = PTHREAD_MUTEX_INITIALIZER;
static struct vmm_resv *resvs;
static struct vmm_phys *physs;
static struct vmm_map *maps;

bool vmm_in_window(uint64_t va)
{
	return va >= DRM_VNPU_VA_RESERVE_START &&
	       va - DRM_VNPU_VA_RESERVE_START < DRM_VNPU_VA_RANGE_SIZE;
}

static struct vmm_resv *resv_at(uint64_t va)
{
	for (struct vmm_resv *r = resvs; r; r = r->next)
		if (va >= r->va && va - r->va < r->size)
			return r;
	return NULL;
}

static struct vmm_map *map_at(uint64_t va)
{
	for (struct vmm_map *m = maps; m; m = m->next)
		if (va >= m->va && va - m->va < m->size)
			return m;
	return NULL;
}

static bool phys_live(const struct vmm_phys *p)
{
	for (struct vmm_phys *q = physs; q; q = q->next)
		if (q == p)
			return q->refs > 0;
	return false;
}

/* Free p's record once nothing refers to it. */
static void phys_reap(struct vmm_phys *p)
{
	struct vmm_phys **pp;

	if (p->refs || p->maps)
		return;
	for (pp = &physs; *pp; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			free(p);
			return;
		}
}

int vmm_reserve(struct rt_device *dev, uint64_t size, uint64_t align,
		uint64_t *va)
{
	struct vmm_resv *r = calloc(1, sizeof(*r));
	int ret;

	if (!r)
		return -ENOMEM;
	pthread_mutex_lock(&vmm_lock);
	ret = kmd_vm_reserve(dev->fd, size, align, &r->va);
	if (!ret) {
		r->dev = dev;
		r->size = size;
		r->next = resvs;
		resvs = r;
		*va = r->va;
	}
	pthread_mutex_unlock(&vmm_lock);
	if (ret)
		free(r);
	return ret;
}

int vmm_release(uint64_t va)
{
	struct vmm_resv **rp, *r = NULL;
	int ret = -ENOENT;

	pthread_mutex_lock(&vmm_lock);
	for (rp = &resvs; *rp; rp = &(*rp)->next)
		if ((*rp)->va == va) {
			r = *rp;
			break;
		}
	if (r && r->maps) {
		ret = -EBUSY;
	} else if (r) {
		ret = kmd_vm_release(r->dev->fd, va);
		if (!ret)
			*rp = r->next;
	}
	pthread_mutex_unlock(&vmm_lock);
	if (!ret)
		free(r);
	return ret;
}

int vmm_phys_create(struct rt_device *dev, uint64_t size, int32_t mem_attr,
		    uint32_t handle_type, struct vmm_phys **out)
{
	struct vmm_phys *p = calloc(1, sizeof(*p));
	int ret;

	if (!p)
		return -ENOMEM;
	pthread_mutex_lock(&vmm_lock);
	ret = kmd_bo_create_phys(dev->fd, size, &p->handle);
	if (!ret) {
		p->dev = dev;
		p->size = size;
		p->mem_attr = mem_attr;
		p->handle_type = handle_type;
		p->refs = 1;
		p->next = physs;
		physs = p;
		*out = p;
	}
	pthread_mutex_unlock(&vmm_lock);
	if (ret)
		free(p);
	return ret;
}

int vmm_phys_put(struct vmm_phys *p)
{
	int ret = -ENOENT;

	pthread_mutex_lock(&vmm_lock);
	if (phys_live(p)) {
		ret = 0;
		if (!--p->refs) {
			kmd_gem_close(p->dev->fd, p->handle);
			p->handle = 0;
			phys_reap(p);
		}
	}
	pthread_mutex_unlock(&vmm_lock);
	return ret;
}

int vmm_phys_get_info(struct vmm_phys *p, struct vmm_phys *out)
{
	int ret = -ENOENT;

	pthread_mutex_lock(&vmm_lock);
	if (phys_live(p)) {
		*out = *p;
		ret = 0;
	}
	pthread_mutex_unlock(&vmm_lock);
	return ret;
}

int vmm_map(uint64_t va, uint64_t size, uint64_t offset, struct vmm_phys *p)
{
	struct vmm_map *m = calloc(1, sizeof(*m));
	struct vmm_resv *r;
	int ret;

	if (!m)
		return -ENOMEM;
	pthread_mutex_lock(&vmm_lock);
	r = resv_at(va);
	if (!phys_live(p))
		ret = -ENOENT;
	else if (offset > p->size || size > p->size - offset)
		ret = -EINVAL;
	else if (!r || r->dev != p->dev || size > r->size - (va - r->va))
		ret = -ERANGE;
	else
		ret = kmd_vm_map(p->dev->fd, va, size, offset, p->handle);
	if (!ret) {
		m->va = va;
		m->size = size;
		m->phys = p;
		m->resv = r;
		m->next = maps;
		maps = m;
		r->maps++;
		p->maps++;
	}
	pthread_mutex_unlock(&vmm_lock);
	if (ret)
		free(m);
	return ret;
}

int vmm_unmap(uint64_t va)
{
	struct vmm_map **mp, *m = NULL;
	int ret = -ENOENT;

	pthread_mutex_lock(&vmm_lock);
	for (mp = &maps; *mp; mp = &(*mp)->next)
		if ((*mp)->va == va) {
			m = *mp;
			break;
		}
	if (m)
		ret = kmd_vm_unmap(m->phys->dev->fd, va, m->size);
	if (!ret) {
		*mp = m->next;
		m->resv->maps--;
		m->phys->maps--;
		phys_reap(m->phys);
	}
	pthread_mutex_unlock(&vmm_lock);
	if (!ret)
		free(m);
	return ret;
}

struct rt_device *vmm_map_device(uint64_t va)
{
	struct rt_device *dev = NULL;

	pthread_mutex_lock(&vmm_lock);
	for (struct vmm_map *m = maps; m; m = m->next)
		if (m->va == va)
			dev = m->phys->dev;
	pthread_mutex_unlock(&vmm_lock);
	return dev;
}

int vmm_retain(uint64_t va, struct vmm_phys **out)
{
	struct vmm_map *m;
	int ret = -ENOENT;

	pthread_mutex_lock(&vmm_lock);
	m = map_at(va);
	/* A handle freed while mapped comes back to life with a new ref. */
	if (m && m->phys->handle) {
		m->phys->refs++;
		*out = m->phys;
		ret = 0;
	}
	pthread_mutex_unlock(&vmm_lock);
	return ret;
}

bool vmm_mapped(uint64_t va, uint64_t size, struct rt_device **dev)
{
	struct vmm_map *m;
	uint64_t end = va + size;
	bool ok = size && end > va;

	pthread_mutex_lock(&vmm_lock);
	m = ok ? map_at(va) : NULL;
	ok = m != NULL;
	if (ok)
		*dev = m->phys->dev;
	/* Walk the mappings that follow each other to the end. */
	while (m && m->va + m->size < end) {
		struct vmm_map *n = map_at(m->va + m->size);

		if (!n || n->resv != m->resv)
			ok = false;
		m = n;
	}
	pthread_mutex_unlock(&vmm_lock);
	return ok;
}

int vmm_address_range(uint64_t va, uint64_t *base, uint64_t *size)
{
	struct vmm_resv *r;

	pthread_mutex_lock(&vmm_lock);
	r = resv_at(va);
	if (r) {
		*base = r->va;
		*size = r->size;
	}
	pthread_mutex_unlock(&vmm_lock);
	return r ? 0 : -ENOENT;
}

bool vmm_owns(struct rt_device *dev, uint64_t va)
{
	struct vmm_resv *r;

	if (!vmm_in_window(va))
		return false;
	pthread_mutex_lock(&vmm_lock);
	r = resv_at(va);
	pthread_mutex_unlock(&vmm_lock);
	return r && r->dev == dev;
}

void vmm_release_dev(struct rt_device *dev)
{
	struct vmm_map **mp = &maps, *m;
	struct vmm_resv **rp = &resvs, *r;
	struct vmm_phys **pp = &physs, *p;

	/* Closing the fd releases everything in the driver. */
	pthread_mutex_lock(&vmm_lock);
	while ((m = *mp))
		if (m->phys->dev == dev) {
			*mp = m->next;
			free(m);
		} else {
			mp = &m->next;
		}
	while ((r = *rp))
		if (r->dev == dev) {
			*rp = r->next;
			free(r);
		} else {
			rp = &r->next;
		}
	while ((p = *pp))
		if (p->dev == dev) {
			*pp = p->next;
			free(p);
		} else {
			pp = &p->next;
		}
	pthread_mutex_unlock(&vmm_lock);
}
