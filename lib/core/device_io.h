/* SPDX-License-Identifier: MIT */
/*
 * The driver calls the layers above core make on an open device: its
 * timelines, copies and command buffers. The device's file descriptor
 * stays core's; these pass it down to kmd.
 */
#ifndef VNPU_CORE_DEVICE_IO_H
#define VNPU_CORE_DEVICE_IO_H

#include <stdint.h>

#include <drm/vnpu_accel.h>

struct rt_device;

/* The timeline @handle's signalled point. */
int device_sync_query(struct rt_device *dev, uint32_t handle, uint64_t *point);
/* Wait until @handle reaches @point or CLOCK_MONOTONIC @abs_timeout_ns. */
int device_sync_wait(struct rt_device *dev, uint32_t handle, uint64_t point,
		     int64_t abs_timeout_ns);
/* A synchronous copy between device VAs and host pointers. */
int device_copy(struct rt_device *dev, uint64_t dst, uint64_t src,
		uint64_t size, uint32_t flags);
/* A command buffer of @count tasks with @binding_count bindings. */
int device_cmdbuf_create(struct rt_device *dev,
			 const struct drm_vnpu_task *tasks, uint32_t count,
			 const void *args, uint32_t args_size,
			 uint32_t binding_count, uint32_t *handle);
int device_cmdbuf_destroy(struct rt_device *dev, uint32_t handle);

#endif /* VNPU_CORE_DEVICE_IO_H */
