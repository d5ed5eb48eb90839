/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the vnpu UAPI tests: the clock, an ioctl that
 * restarts, finding and opening the accel nodes, reading module parameters
 * and debugfs, and GET_PARAM without libdrm.
 */
#ifndef VNPU_TEST_UTIL_H
#define VNPU_TEST_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <drm/vnpu_accel.h>

#define VNPU_TEST_MAX_NODES 64
/* The highest GET_PARAM parameter this test suite knows. */
#define VNPU_TEST_LAST_PARAM DRM_VNPU_PARAM_ENGINE_BYTES

/*
 * The errnos xioctl() restarts on. A suite may widen the set before it
 * includes this header: the job suites restart on EAGAIN too
 * (vnpu_job_util.h). Calls that test EINTR or EAGAIN use ioctl() itself.
 */
#ifndef VNPU_XIOCTL_RESTART
#define VNPU_XIOCTL_RESTART(err)	((err) == EINTR)
#endif

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* ioctl returning 0 or -errno, restarted as VNPU_XIOCTL_RESTART says. */
static inline int xioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret && VNPU_XIOCTL_RESTART(errno));
	return ret ? -errno : 0;
}

/* Sorted accel node paths in /dev/accel; returns the count. */
static inline int vnpu_list_nodes(char paths[][64], int max)
{
	struct dirent **names;
	int n, i, count = 0;

	n = scandir("/dev/accel", &names, NULL, versionsort);
	if (n < 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (!strncmp(names[i]->d_name, "accel", 5) && count < max)
			snprintf(paths[count++], 64, "/dev/accel/%.50s",
				 names[i]->d_name);
		free(names[i]);
	}
	free(names);
	return count;
}

/* The first accel node, opened read-write; -ENODEV when there is none. */
static inline int open_node(void)
{
	char paths[VNPU_TEST_MAX_NODES][64];

	if (vnpu_list_nodes(paths, VNPU_TEST_MAX_NODES) < 1)
		return -ENODEV;
	return open(paths[0], O_RDWR | O_CLOEXEC);
}

/* A numeric module parameter of vnpu, or -1. */
static inline long vnpu_module_param(const char *name)
{
	char path[128];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/vnpu/parameters/%s", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/*
 * Set a numeric module parameter of vnpu (root only); returns its old
 * value, or -1 when it could not be read or written.
 */
static inline long vnpu_set_module_param(const char *name, long value)
{
	long old = vnpu_module_param(name);
	char path[128];
	FILE *f;
	int ok;

	if (old < 0)
		return -1;
	snprintf(path, sizeof(path), "/sys/module/vnpu/parameters/%s", name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	ok = fprintf(f, "%ld\n", value) > 0;
	if (fclose(f) || !ok)
		return -1;
	return old;
}

/* GET_PARAM through the raw ioctl; returns 0 or -errno. */
static inline int vnpu_get_param(int fd, uint32_t param, uint64_t *value)
{
	struct drm_vnpu_get_param gp = { .param = param };

	if (ioctl(fd, DRM_IOCTL_VNPU_GET_PARAM, &gp))
		return -errno;
	*value = gp.value;
	return 0;
}

/* A GET_PARAM value, or ~0 when the call fails. */
static inline uint64_t param(int fd, uint32_t p)
{
	uint64_t v = ~0ULL;

	vnpu_get_param(fd, p, &v);
	return v;
}

static inline int gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close gc = { .handle = handle };

	return xioctl(fd, DRM_IOCTL_GEM_CLOSE, &gc);
}

/* The DRM driver name of fd into buf; returns 0 or -errno. */
static inline int vnpu_driver_name(int fd, char *buf, size_t len)
{
	struct drm_version v;

	memset(&v, 0, sizeof(v));
	memset(buf, 0, len);
	v.name = buf;
	v.name_len = len - 1;
	if (ioctl(fd, DRM_IOCTL_VERSION, &v))
		return -errno;
	return 0;
}

/*
 * Value of "key: <number>" in the debugfs info file of the device behind
 * accel node path (found through sysfs), or -1.
 */
static inline long vnpu_debugfs_info(const char *node_path, const char *key)
{
	char link[256], sys[128], path[512], line[256];
	const char *node = strrchr(node_path, '/') + 1;
	size_t klen = strlen(key);
	ssize_t n;
	long v = -1;
	FILE *f;

	snprintf(sys, sizeof(sys), "/sys/class/accel/%s/device", node);
	n = readlink(sys, link, sizeof(link) - 1);
	if (n <= 0)
		return -1;
	link[n] = '\0';
	snprintf(path, sizeof(path), "/sys/kernel/debug/accel/%s/info",
		 strrchr(link, '/') ? strrchr(link, '/') + 1 : link);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == ':')
			v = strtol(line + klen + 1, NULL, 0);
	fclose(f);
	return v;
}

/*
 * The debugfs directory of the device behind accel node path, e.g.
 * /sys/kernel/debug/accel/vnpu.0, into buf; returns 0 or -1.
 */
static inline int vnpu_debugfs_dir(const char *node_path, char *buf, size_t len)
{
	char link[256], sys[128];
	const char *node = strrchr(node_path, '/') + 1;
	ssize_t n;

	snprintf(sys, sizeof(sys), "/sys/class/accel/%s/device", node);
	n = readlink(sys, link, sizeof(link) - 1);
	if (n <= 0)
		return -1;
	link[n] = '\0';
	/* Device names are short; the precision keeps the compiler calm. */
	snprintf(buf, len, "/sys/kernel/debug/accel/%.64s",
		 strrchr(link, '/') ? strrchr(link, '/') + 1 : link);
	return 0;
}

/*
 * Value of "key: <number>" in the debugfs file name (info, mem, ...) of the
 * device behind accel node path, or -1 when the file or key is missing.
 */
static inline long long vnpu_debugfs_value(const char *node_path,
					   const char *name, const char *key)
{
	char dir[256], path[320], line[256];
	size_t klen = strlen(key);
	long long v = -1;
	FILE *f;

	if (vnpu_debugfs_dir(node_path, dir, sizeof(dir)))
		return -1;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == ':')
			v = strtoll(line + klen + 1, NULL, 0);
	fclose(f);
	return v;
}

#endif /* VNPU_TEST_UTIL_H */
