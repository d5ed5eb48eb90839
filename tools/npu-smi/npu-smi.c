/* SPDX-License-Identifier: MIT */
/*
 * npu-smi: the subset of CANN's npu-smi that build scripts read.
 *
 * "npu-smi info" prints CANN's device table: two lines per NPU, the
 * chip name in the third field of the first (ggml's CMake takes field 3
 * of line 7 as the SoC). With vnpu.ko loaded the rows are the vnpu
 * devices, in device-index order, with their memory use; on a build host
 * without the module the table has one row naming the SoC vnpu emulates
 * and no usage, so configuring still works. vnpu-smi shows the rest.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <xf86drm.h>
#include <drm/vnpu_accel.h>

#include "../../lib/core/soc.h"

#define CHIP_NAME	VNPU_CHIP_NAME
#define NPU_SMI_VERSION	"vnpu"
#define MAX_NPUS	64

struct npu {
	uint64_t index, mem_total, mem_used;
};

static int get_param(int fd, uint32_t param, uint64_t *value)
{
	struct drm_vnpu_get_param gp = { .param = param };

	if (drmIoctl(fd, DRM_IOCTL_VNPU_GET_PARAM, &gp))
		return -errno;
	*value = gp.value;
	return 0;
}

/* Fill @n from the node, or return nonzero when it is not a vnpu device. */
static int read_npu(const char *node, struct npu *n)
{
	char path[300];
	drmVersionPtr v;
	int fd, ret = -ENODEV;

	snprintf(path, sizeof(path), "/dev/accel/%s", node);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	v = drmGetVersion(fd);
	if (v && !strcmp(v->name, "vnpu")) {
		ret = get_param(fd, DRM_VNPU_PARAM_DEVICE_INDEX, &n->index);
		if (!ret)
			ret = get_param(fd, DRM_VNPU_PARAM_MEM_TOTAL,
					&n->mem_total);
		if (!ret)
			ret = get_param(fd, DRM_VNPU_PARAM_MEM_USED,
					&n->mem_used);
	}
	if (v)
		drmFreeVersion(v);
	close(fd);
	return ret;
}

static int by_index(const void *a, const void *b)
{
	const struct npu *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

static int scan(struct npu *npus)
{
	struct dirent *de;
	int count = 0;
	DIR *d;

	d = opendir("/dev/accel");
	if (!d)
		return 0;
	while ((de = readdir(d)) && count < MAX_NPUS)
		if (!strncmp(de->d_name, "accel", 5) &&
		    !read_npu(de->d_name, &npus[count]))
			count++;
	closedir(d);
	qsort(npus, (size_t)count, sizeof(*npus), by_index);
	return count;
}

static void rule(char c)
{
	printf("+%s+%s+%s+\n", c == '=' ?
	       "===========================" : "---------------------------",
	       c == '=' ? "===============" : "---------------",
	       c == '=' ? "====================================================" :
			  "----------------------------------------------------");
}

static void info(void)
{
	static struct npu npus[MAX_NPUS];
	int i, count = scan(npus);

	rule('-');
	printf("| npu-smi %-18s Version: %-59s|\n", NPU_SMI_VERSION,
	       NPU_SMI_VERSION);
	rule('-');
	printf("| %-26s| %-14s| %-51s|\n", "NPU   Name", "Health",
	       "Power(W)    Temp(C)           Hugepages-Usage(page)");
	printf("| %-26s| %-14s| %-51s|\n", "Chip", "Bus-Id",
	       "AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)");
	rule('=');
	if (!count) {
		/* No module: the SoC vnpu emulates, nothing measured. */
		printf("| %-5d %-20s| %-14s| %-11s %-17s %-21s|\n", 0, CHIP_NAME,
		       "NotLoaded", "-", "-", "-");
		printf("| %-26d| %-14s| %-11s %-17s %-21s|\n", 0, "-", "-", "-",
		       "-");
		rule('=');
		return;
	}
	for (i = 0; i < count; i++) {
		char hbm[32];

		snprintf(hbm, sizeof(hbm), "%llu / %llu",
			 (unsigned long long)(npus[i].mem_used >> 20),
			 (unsigned long long)(npus[i].mem_total >> 20));
		printf("| %-5llu %-20s| %-14s| %-11s %-17s %-21s|\n",
		       (unsigned long long)npus[i].index, CHIP_NAME, "OK",
		       "0.0", "0", "0    / 0");
		printf("| %-26d| vnpu.%-9llu| %-11s %-17s %-21s|\n", 0,
		       (unsigned long long)npus[i].index, "0", "0    / 0", hbm);
		rule('=');
	}
}

static int usage(FILE *f, int code)
{
	fprintf(f, "usage: npu-smi info\n"
		"  CANN's device table for the vnpu devices (or, without\n"
		"  vnpu.ko, the SoC vnpu emulates). See vnpu-smi for more.\n");
	return code;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "info")) {
		info();
		return 0;
	}
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
		return usage(stdout, 0);
	return usage(stderr, 2);
}
