// SPDX-License-Identifier: MIT
/*
 * Synchronous copy bandwidth of the vnpu driver against the guest's own
 * memcpy, side by side in one run: host-to-device and device-to-host with
 * DRM_IOCTL_VNPU_MEMCPY, and the same through an mmap of the object, at
 * 4 KiB, 64 KiB, 4 MiB and 64 MiB. Every figure is the best of several
 * rounds, each round long enough to swamp timer noise.
 *
 * usage: mem_copy_bench [RESULTS.json]   (runs in the VM)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <drm/vnpu_accel.h>

#include "bench_json.h"

#define ROUNDS 5
/* Bytes moved per round, so small copies repeat enough. */
#define ROUND_BYTES (256u << 20)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

enum method { MEMCPY, IOCTL_H2D, IOCTL_D2H, MMAP_H2D, MMAP_D2H };

struct setup {
	int fd;
	uint64_t va;
	uint8_t *map;		/* the object, mmapped */
	uint8_t *a, *b;		/* host buffers */
};

static void copy_once(const struct setup *s, enum method m, size_t size)
{
	struct drm_vnpu_memcpy mc = { .size = size };
	int ret = 0;

	switch (m) {
	case MEMCPY:
		memcpy(s->b, s->a, size);
		break;
	case IOCTL_H2D:
		mc.dst = s->va;
		mc.src = (uintptr_t)s->a;
		mc.flags = DRM_VNPU_MEMCPY_DST_DEVICE;
		ret = ioctl(s->fd, DRM_IOCTL_VNPU_MEMCPY, &mc);
		break;
	case IOCTL_D2H:
		mc.dst = (uintptr_t)s->b;
		mc.src = s->va;
		mc.flags = DRM_VNPU_MEMCPY_SRC_DEVICE;
		ret = ioctl(s->fd, DRM_IOCTL_VNPU_MEMCPY, &mc);
		break;
	case MMAP_H2D:
		memcpy(s->map, s->a, size);
		break;
	case MMAP_D2H:
		memcpy(s->b, s->map, size);
		break;
	}
	if (ret) {
		perror("DRM_IOCTL_VNPU_MEMCPY");
		exit(1);
	}
}

#define METHODS (MMAP_D2H + 1)

/*
 * Best bandwidth in MiB/s of every method over ROUNDS rounds. The methods
 * take turns within each round, so the baseline and the driver see the
 * same machine conditions.
 */
static void bandwidths(const struct setup *s, size_t size, double *best)
{
	size_t reps = ROUND_BYTES / size ? ROUND_BYTES / size : 1;
	int r, m;

	for (m = 0; m < METHODS; m++) {
		best[m] = 0;
		copy_once(s, m, size);	/* warm up: fault everything in */
	}
	for (r = 0; r < ROUNDS; r++) {
		for (m = 0; m < METHODS; m++) {
			double t0 = now(), bw;
			size_t i;

			for (i = 0; i < reps; i++)
				copy_once(s, m, size);
			bw = (double)size * reps / (now() - t0) / (1 << 20);
			if (bw > best[m])
				best[m] = bw;
		}
	}
}

static int setup(struct setup *s, const char *node, size_t size)
{
	struct drm_vnpu_bo_create create = {
		.size = size, .placement = DRM_VNPU_PLACEMENT_DEVICE,
	};
	struct drm_vnpu_bo_info info = { 0 };

	memset(s, 0, sizeof(*s));
	s->fd = open(node, O_RDWR | O_CLOEXEC);
	if (s->fd < 0 || ioctl(s->fd, DRM_IOCTL_VNPU_BO_CREATE, &create))
		return -errno;
	info.handle = create.handle;
	if (ioctl(s->fd, DRM_IOCTL_VNPU_BO_INFO, &info))
		return -errno;
	s->va = create.va;
	s->map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd,
		      info.mmap_offset);
	s->a = aligned_alloc(4096, size);
	s->b = aligned_alloc(4096, size);
	if (s->map == MAP_FAILED || !s->a || !s->b)
		return -ENOMEM;
	memset(s->a, 0x5a, size);
	memset(s->b, 0xa5, size);
	memset(s->map, 0x11, size);
	return 0;
}

static void teardown(struct setup *s, size_t size)
{
	munmap(s->map, size);
	free(s->a);
	free(s->b);
	close(s->fd);	/* frees the object */
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 4 << 10, 64 << 10, 4 << 20, 64 << 20 };
	static const char *const label[] = { "4KiB", "64KiB", "4MiB", "64MiB" };
	const char *out = argc > 1 ? argv[1] : NULL;
	char name[96];
	unsigned int i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		static const char *const what[METHODS] = {
			NULL, "ioctl_h2d", "ioctl_d2h", "mmap_h2d", "mmap_d2h",
		};
		double bw[METHODS];
		struct setup s;
		int m;
		int ret = setup(&s, "/dev/accel/accel0", sizes[i]);

		if (ret) {
			fprintf(stderr, "setup %s: %s\n", label[i], strerror(-ret));
			return 1;
		}
		bandwidths(&s, sizes[i], bw);
		for (m = IOCTL_H2D; m < METHODS; m++) {
			snprintf(name, sizeof(name), "memcpy_%s_%s", what[m],
				 label[i]);
			bench_report(name, bw[m], "MiB/s", bw[MEMCPY]);
		}
		teardown(&s, sizes[i]);
	}
	if (out && bench_write_json(out)) {
		perror(out);
		return 1;
	}
	return 0;
}
