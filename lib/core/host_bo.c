/* SPDX-License-Identifier: MIT */
/* See host_bo.h. */
#include <errno.h>
#include <sys/mman.h>
#include <drm/vnpu_accel.h>

#include "../kmd/kmd.h"
#include "host_bo.h"

int host_bo_create(int fd, size_t size, uint32_t *handle, uint64_t *va,
		   void **map)
{
	uint32_t h;
	uint64_t v, off;
	void *p;
	int ret;

	ret = kmd_bo_create(fd, size, DRM_VNPU_PLACEMENT_HOST, &h, &v);
	if (ret)
		return ret;
	ret = kmd_bo_info(fd, h, &off);
	if (ret)
		goto err_close;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)off);
	if (p == MAP_FAILED) {
		ret = -errno;
		goto err_close;
	}
	*handle = h;
	*va = v;
	*map = p;
	return 0;

err_close:
	kmd_gem_close(fd, h);
	return ret;
}

void host_bo_destroy(int fd, uint32_t handle, void *map, size_t size)
{
	munmap(map, size);
	kmd_gem_close(fd, handle);
}
