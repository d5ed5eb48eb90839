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

static const uint32_t info_params[] = {
	DRM_VNPU_PARAM_ENGINE_COUNT, DRM_VNPU_PARAM_MEM_TOTAL,
	DRM_VNPU_PARAM_DEVICE_INDEX,
};

/*
 * Read n parameters through the device's fd, or through a file opened for
 * this read when nobody has set the device. Called with rt_lock held.
 */
static int read_params_locked(struct rt_device *dev, const uint32_t *params,
			      uint64_t *values, int n)
{
	char path[VNPU_PATH_MAX];
	int fd = dev->fd, ret = 0;

	if (fd < 0) {
		ret = runtime_device_path((uint32_t)dev->id, path, sizeof(path));
		if (ret)
			return ret;
		fd = kmd_open(path);
		if (fd < 0)
			return fd;
	}
	for (int i = 0; !ret && i < n; i++)
		ret = kmd_get_param(fd, params[i], 0, &values[i]);
	if (fd != dev->fd)
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
		uint64_t v[3];

		ret = read_params_locked(dev, info_params, v, 3);
		if (!ret)
			dev->info = (struct device_info){ .engines = v[0],
							  .mem_total = v[1],
							  .index = v[2] };
		dev->info_valid = !ret;
	}
	if (!ret)
		*out = dev->info;
	rt_unlock();
	return ret;
}

int device_param_read(int32_t id, uint32_t param, uint64_t *value)
{
	struct rt_device *dev = device_by_id(id);
	int ret;

	if (!dev)
		return -ENODEV;
	rt_lock();
	ret = read_params_locked(dev, &param, value, 1);
	rt_unlock();
	return ret;
}
