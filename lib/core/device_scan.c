/* SPDX-License-Identifier: MIT */
/* Device discovery: keep the accel nodes that belong to vnpu. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <drm/vnpu_accel.h>

#include "device_scan.h"
#include "uapi_check.h"
#include "../kmd/kmd.h"

static void note(struct device_scan *scan, const char *fmt, const char *path,
		 int err)
{
	size_t used = strlen(scan->notes);

	if (used < sizeof(scan->notes))
		snprintf(scan->notes + used, sizeof(scan->notes) - used, fmt,
			 path, strerror(-err));
}

/* Probe one node: 1 if it is a usable vnpu device, 0 if not ours, <0 error. */
static int probe_node(struct device_scan *scan, const char *path,
		      struct device_node_info *info, char *why, size_t len)
{
	char name[64];
	uint64_t version, index;
	int fd, ret;

	fd = kmd_open(path);
	if (fd < 0) {
		note(scan, "cannot open %s: %s; ", path, fd);
		return 0;
	}
	ret = kmd_driver_name(fd, name, sizeof(name));
	if (ret || strcmp(name, "vnpu") != 0) {
		ret = 0;
		goto out;
	}
	ret = kmd_get_param(fd, DRM_VNPU_PARAM_UAPI_VERSION, 0, &version);
	if (ret) {
		snprintf(why, len, "%s: reading the UAPI version failed: %s",
			 path, strerror(-ret));
		ret = -EPROTO;
		goto out;
	}
	ret = uapi_check(version, why, len);
	if (ret)
		goto out;
	ret = kmd_get_param(fd, DRM_VNPU_PARAM_DEVICE_INDEX, 0, &index);
	if (ret) {
		note(scan, "%s: reading the device index failed: %s; ", path,
		     ret);
		ret = 0;
		goto out;
	}
	snprintf(info->path, sizeof(info->path), "%s", path);
	info->index = (uint32_t)index;
	ret = 1;
out:
	kmd_close(fd);
	return ret;
}

static int by_index(const void *a, const void *b)
{
	const struct device_node_info *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

int device_scan(struct device_scan *scan, char *why, size_t len)
{
	const char *dir = getenv("VNPU_ACCEL_DIR");
	char path[VNPU_PATH_MAX];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	memset(scan, 0, sizeof(*scan));
	if (!dir || !*dir)
		dir = "/dev/accel";
	d = opendir(dir);
	if (!d) {
		snprintf(scan->notes, sizeof(scan->notes),
			 "%s does not exist (is vnpu.ko loaded?)", dir);
		return 0;
	}
	while ((de = readdir(d)) != NULL && scan->count < VNPU_MAX_DEVICES) {
		if (strncmp(de->d_name, "accel", 5) != 0)
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				     de->d_name) >= sizeof(path))
			continue;	/* cannot be opened by name anyway */
		ret = probe_node(scan, path, &scan->devs[scan->count], why,
				 len);
		if (ret < 0)
			break;
		scan->count += (uint32_t)ret;
		ret = 0;
	}
	closedir(d);
	if (ret < 0) {
		scan->count = 0;
		return ret;
	}
	qsort(scan->devs, scan->count, sizeof(scan->devs[0]), by_index);
	if (!scan->count && !scan->notes[0])
		snprintf(scan->notes, sizeof(scan->notes),
			 "no node in %s belongs to the vnpu driver (is vnpu.ko loaded?)",
			 dir);
	return 0;
}
