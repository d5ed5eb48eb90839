// SPDX-License-Identifier: MIT
/* device_io.h: the driver calls of the layers above, on core's fd. */
#include "../kmd/kmd.h"
#include "device_io.h"
#include "rt_objects.h"

int device_sync_query(struct rt_device *dev, uint32_t handle, uint64_t *point)
{
	return kmd_syncobj_query(dev->fd, handle, point);
}

int device_sync_wait(struct rt_device *dev, uint32_t handle, uint64_t point,
		     int64_t abs_timeout_ns)
{
	return kmd_syncobj_wait(dev->fd, handle, point, abs_timeout_ns);
}

int device_copy(struct rt_device *dev, uint64_t dst, uint64_t src,
		uint64_t size, uint32_t flags)
{
	return kmd_memcpy(dev->fd, dst, src, size, flags);
}

int device_cmdbuf_create(struct rt_device *dev,
			 const struct drm_vnpu_task *tasks, uint32_t count,
			 const void *args, uint32_t args_size,
			 uint32_t binding_count, uint32_t *handle)
{
	return kmd_cmdbuf_create_bound(dev->fd, tasks, count, args, args_size,
				       binding_count, handle);
}

int device_cmdbuf_destroy(struct rt_device *dev, uint32_t handle)
{
	return kmd_cmdbuf_destroy(dev->fd, handle);
}
