// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu_load: keep a device's engines busy, for tests of tools that watch
 * them (vnpu_smi_test.sh). On NODE, QUEUES queues each keep a few SPIN
 * jobs of 20 ms in flight for SECONDS; prints "ready" once the first jobs
 * are queued, exits 0 at the end (1 when a job failed to submit).
 *
 * usage: vnpu_load NODE SECONDS [QUEUES]
 */
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <drm/vnpu_accel.h>

#define IN_FLIGHT	3
#define SPIN_NS		20000000ull

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	struct drm_vnpu_queue_create qc[8];
	unsigned long long end, seq[8] = { 0 };
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_SPIN,
				   .spin = { .ns = SPIN_NS } };
	int fd, nq = argc > 3 ? atoi(argv[3]) : 2, i, ready = 0;

	if (argc < 3 || nq < 1 || nq > 8) {
		fprintf(stderr, "usage: %s NODE SECONDS [QUEUES 1..8]\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	for (i = 0; i < nq; i++) {
		memset(&qc[i], 0, sizeof(qc[i]));
		if (ioctl(fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &qc[i])) {
			perror("QUEUE_CREATE");
			return 1;
		}
	}
	end = now_ns() + (unsigned long long)(atof(argv[2]) * 1e9);
	while (now_ns() < end) {
		for (i = 0; i < nq; i++) {
			struct drm_vnpu_submit s = {
				.queue_id = qc[i].queue_id, .tasks = (uintptr_t)&t,
				.task_count = 1, .task_stride = sizeof(t),
			};
			uint64_t point = seq[i] > IN_FLIGHT ? seq[i] - IN_FLIGHT : 0;
			struct drm_syncobj_timeline_wait w = {
				.handles = (uintptr_t)&qc[i].syncobj,
				.points = (uintptr_t)&point,
				.timeout_nsec = (int64_t)(now_ns() + 10000000000ull),
				.count_handles = 1,
				.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
			};

			/* Room for one more: the job IN_FLIGHT back is done. */
			if (point && ioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w) &&
			    errno != EINTR) {
				perror("SYNCOBJ_TIMELINE_WAIT");
				return 1;
			}
			if (ioctl(fd, DRM_IOCTL_VNPU_SUBMIT, &s)) {
				perror("SUBMIT");
				return 1;
			}
			seq[i] = s.seq;
		}
		if (!ready++) {
			printf("ready\n");
			fflush(stdout);
		}
	}
	return 0;
}
