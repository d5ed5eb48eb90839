// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu_hold: keep a vnpu buffer object alive without an open accel file,
 * for module lifetime tests. Creates a device BO on NODE, then holds it by
 * MODE ("dmabuf": an exported dma-buf fd; "mmap": a CPU mapping), closes
 * the accel fd, prints "ready" and waits until killed.
 *
 * usage: vnpu_hold NODE dmabuf|mmap
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <drm/vnpu_accel.h>

int main(int argc, char **argv)
{
	struct drm_vnpu_bo_create create = {
		.size = 1 << 20, .placement = DRM_VNPU_PLACEMENT_DEVICE,
	};
	struct drm_vnpu_bo_info info = { 0 };
	struct drm_prime_handle prime = { 0 };
	void *map;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: %s NODE dmabuf|mmap\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &create)) {
		perror("create");
		return 1;
	}
	if (!strcmp(argv[2], "dmabuf")) {
		prime.handle = create.handle;
		prime.flags = DRM_CLOEXEC | DRM_RDWR;
		if (ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &prime)) {
			perror("export");
			return 1;
		}
	} else {
		info.handle = create.handle;
		if (ioctl(fd, DRM_IOCTL_VNPU_BO_INFO, &info)) {
			perror("info");
			return 1;
		}
		map = mmap(NULL, create.size, PROT_READ | PROT_WRITE,
			   MAP_SHARED, fd, info.mmap_offset);
		if (map == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		memset(map, 1, create.size);
	}
	close(fd);
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
