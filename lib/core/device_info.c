/* SPDX-License-Identifier: MIT */
/*
 * Device attributes (aclrtGetDeviceInfo, aclGetDeviceCapability): the
 * driver parameters that stay fixed while the module is loaded, read once
 * per device and process and kept in the device. A device that is open
 * answers through its fd; one that nobody has set is opened for that one
 * read. Opening per query would make a DRM file, that is a context with
 * its own address space, every time.
 */
#include <errno.h>

#include "../kmd/kmd.h"
#include "rt_objects.h"
#include "runtime.h"

static int read_info(int fd, struct device_info *info)
{
	int ret = kmd_get_param(fd, DRM_VNPU_PARAM_ENGINE_COUNT, 0,
				&info->engines);

	if (!ret)
		ret = kmd_get_param(fd, DRM_VNPU_PARAM_MEM_TOTAL, 0,
				    &info->mem_total);
	return ret;
}

/* Called with rt_lock held. */
static int fill_locked(struct rt_device *dev)
{
	char path[VNPU_PATH_MAX];
	int fd, ret;

	if (dev->fd >= 0)
		return read_info(dev->fd, &dev->info);
	ret = runtime_device_path((uint32_t)dev->id, path, sizeof(path));
	if (ret)
		return ret;
	fd = kmd_open(path);
	if (fd < 0)
		return fd;
	ret = read_info(fd, &dev->info);
	kmd_close(fd);
	return ret;
}

int device_info_get(int32_t id, struct device_info *out)
{
	struct rt_device *dev = device_by_id(id);
	int ret = 0;

	if (!dev)
		return -ENODEV;
	rt_lock();
	if (!dev->info_valid) {
		ret = fill_locked(dev);
		dev->info_valid = !ret;
	}
	if (!ret)
		*out = dev->info;
	rt_unlock();
	return ret;
}
