/* SPDX-License-Identifier: MIT */
/*
 * vnpu-smi: show the vnpu devices, in the spirit of "npu-smi info".
 * Reads each accel node's parameters with GET_PARAM and, when debugfs is
 * readable, the driver's per-device info file.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>
#include <drm/vnpu_accel.h>

struct npu {
	char node[256];
	char name[PATH_MAX];	/* platform device name, e.g. vnpu.0 */
	uint64_t p[DRM_VNPU_PARAM_DEVICE_COUNT + 1];
	long contexts;		/* from debugfs, -1 when unreadable */
};

static int get_param(int fd, uint32_t param, uint64_t *value)
{
	struct drm_vnpu_get_param gp = { .param = param };

	if (drmIoctl(fd, DRM_IOCTL_VNPU_GET_PARAM, &gp))
		return -errno;
	*value = gp.value;
	return 0;
}

static void read_debugfs(struct npu *n)
{
	char path[PATH_MAX], line[128];
	FILE *f;

	n->contexts = -1;
	snprintf(path, sizeof(path), "/sys/kernel/debug/accel/%s/info", n->name);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "open_files: %ld", &n->contexts) == 1)
			n->contexts--;	/* not counting ourselves */
	fclose(f);
}

static int probe(const char *node, struct npu *n)
{
	char path[PATH_MAX], link[PATH_MAX];
	drmVersionPtr v;
	uint32_t i;
	ssize_t len;
	int fd, ret = -ENODEV;

	snprintf(path, sizeof(path), "/dev/accel/%s", node);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "vnpu-smi: %s: %s\n", path, strerror(errno));
		return -errno;
	}
	v = drmGetVersion(fd);
	if (!v || strcmp(v->name, "vnpu") != 0)
		goto out;

	memset(n, 0, sizeof(*n));
	snprintf(n->node, sizeof(n->node), "%s", node);
	for (i = 0; i <= DRM_VNPU_PARAM_DEVICE_COUNT; i++) {
		ret = get_param(fd, i, &n->p[i]);
		if (ret) {
			fprintf(stderr, "vnpu-smi: %s: GET_PARAM %u: %s\n",
				path, i, strerror(-ret));
			goto out;
		}
	}
	snprintf(path, sizeof(path), "/sys/class/accel/%s/device", node);
	len = readlink(path, link, sizeof(link) - 1);
	if (len > 0) {
		link[len] = '\0';
		snprintf(n->name, sizeof(n->name), "%s", basename(link));
	}
	read_debugfs(n);
	ret = 0;
out:
	if (v)
		drmFreeVersion(v);
	close(fd);
	return ret;
}

static int by_node(const void *a, const void *b)
{
	const struct npu *x = a, *y = b;

	return (int)x->p[DRM_VNPU_PARAM_DEVICE_INDEX] -
	       (int)y->p[DRM_VNPU_PARAM_DEVICE_INDEX];
}

static void print_table(const struct npu *n, int count)
{
	const char *rule =
		"+-----+----------+----------+---------+---------------------+-------+-------------+\n";
	int i;

	printf("%s", rule);
	printf("| %-79s |\n", "vnpu-smi                   virtual NPU devices");
	printf("%s", rule);
	printf("| NPU | Node     | Device   | Engines | Memory used / total | Queue | Contexts    |\n");
	printf("%s", rule);
	for (i = 0; i < count; i++) {
		const uint64_t *p = n[i].p;
		char mem[48], ctx[24];

		snprintf(mem, sizeof(mem), "%llu / %llu MiB",
			 (unsigned long long)(p[DRM_VNPU_PARAM_MEM_USED] >> 20),
			 (unsigned long long)(p[DRM_VNPU_PARAM_MEM_TOTAL] >> 20));
		if (n[i].contexts >= 0)
			snprintf(ctx, sizeof(ctx), "%ld", n[i].contexts);
		else
			snprintf(ctx, sizeof(ctx), "-");
		printf("| %3llu | %-8s | %-8s | %7llu | %19s | %5llu | %-11s |\n",
		       (unsigned long long)p[DRM_VNPU_PARAM_DEVICE_INDEX],
		       n[i].node, n[i].name,
		       (unsigned long long)p[DRM_VNPU_PARAM_ENGINE_COUNT], mem,
		       (unsigned long long)p[DRM_VNPU_PARAM_QUEUE_DEPTH], ctx);
	}
	printf("%s", rule);
	if (count)
		printf("UAPI %llu.%llu, capabilities 0x%llx, job timeout %llu ms\n",
		       (unsigned long long)(n[0].p[DRM_VNPU_PARAM_UAPI_VERSION] >> 16),
		       (unsigned long long)(n[0].p[DRM_VNPU_PARAM_UAPI_VERSION] & 0xffff),
		       (unsigned long long)n[0].p[DRM_VNPU_PARAM_CAPABILITIES],
		       (unsigned long long)n[0].p[DRM_VNPU_PARAM_JOB_TIMEOUT_MS]);
}

int main(int argc, char **argv)
{
	struct npu npus[64];
	struct dirent *de;
	int count = 0;
	DIR *d;

	if (argc > 1) {
		fprintf(stderr, "usage: %s\n  Lists the vnpu devices.\n", argv[0]);
		return strcmp(argv[1], "-h") && strcmp(argv[1], "--help") ? 2 : 0;
	}
	d = opendir("/dev/accel");
	if (!d) {
		fprintf(stderr, "vnpu-smi: /dev/accel: %s (is vnpu.ko loaded?)\n",
			strerror(errno));
		return 1;
	}
	while ((de = readdir(d)) && count < 64)
		if (!strncmp(de->d_name, "accel", 5) &&
		    !probe(de->d_name, &npus[count]))
			count++;
	closedir(d);
	qsort(npus, count, sizeof(npus[0]), by_node);
	print_table(npus, count);
	if (!count) {
		fprintf(stderr, "vnpu-smi: no vnpu device found\n");
		return 1;
	}
	return 0;
}
