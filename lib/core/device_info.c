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
#include <string.h>

#include "../kmd/kmd.h"
#include "rt_objects.h"
#include "runtime.h"

static const uint32_t info_params[] = {
	DRM_VNPU_PARAM_ENGINE_COUNT, DRM_VNPU_PARAM_MEM_TOTAL,
	DRM_VNPU_PARAM_DEVICE_INDEX, DRM_VNPU_PARAM_CAPABILITIES,
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
		uint64_t v[4];

		ret = read_params_locked(dev, info_params, v, 4);
		if (!ret)
			dev->info = (struct device_info){
				.engines = v[0], .mem_total = v[1],
				.index = v[2],
				.profile = v[3] & DRM_VNPU_CAP_PROFILE };
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

/*
 * The device's engines' busy time since the module loaded, every file's
 * (ENGINE_BUSY_NS summed); -EOPNOTSUPP when the driver has no counters.
 */
int device_engine_busy(int32_t id, uint64_t *ns)
{
	struct rt_device *dev = device_by_id(id);
	struct device_info info;
	int ret;

	if (!dev)
		return -ENODEV;
	ret = device_info_get(id, &info);
	if (ret)
		return ret;
	if (!info.profile)
		return -EOPNOTSUPP;
	*ns = 0;
	rt_lock();
	for (uint32_t e = 0; !ret && e < info.engines; e++) {
		uint32_t p = DRM_VNPU_PARAM_ENGINE_BUSY_NS;
		char path[VNPU_PATH_MAX];
		uint64_t v = 0;
		int fd = dev->fd;

		if (fd < 0) {
			ret = runtime_device_path((uint32_t)id, path, sizeof(path));
			fd = ret ? -1 : kmd_open(path);
			if (fd < 0) {
				ret = ret ? ret : fd;
				break;
			}
		}
		ret = kmd_get_param(fd, p, e, &v);
		if (fd != dev->fd)
			kmd_close(fd);
		*ns += v;
	}
	rt_unlock();
	return ret;
}

/*
 * What aclrtGetErrorVerbose reports: how the device's last failed job
 * ended (0 when none did) and the driver's record of this process's
 * device page faults (count 0 when there were none, or the device is not
 * open here).
 */
int device_error_state(int32_t id, int *job_err,
		       struct drm_vnpu_fault_info *fault)
{
	struct rt_device *dev = device_by_id(id);
	int ret = 0;

	if (!dev)
		return -ENODEV;
	memset(fault, 0, sizeof(*fault));
	*job_err = dev->last_job_err;
	rt_lock();	/* the fd stays open while it is asked */
	if (dev->fd >= 0)
		ret = kmd_fault_info(dev->fd, fault);
	rt_unlock();
	return ret;
}
