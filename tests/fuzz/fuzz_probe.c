// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu_fuzz: the fairness probe. A process of its own, with a file of its
 * own on the first device, that once a second submits one NOP job and
 * times how long until its queue's timeline syncobj reaches the job's
 * point. Whatever the fuzzer's other files do, a NOP of another file must
 * not wait longer than --probe-limit-ms (5 s): the engines' time slices
 * are there for that. The supervisor reports the count, the longest wait
 * and the waits over the limit at the end (sh->probe_*); a NOP over the
 * limit fails the run.
 *
 * The probe dies with the supervisor (PR_SET_PDEATHSIG, checked against
 * a parent that is already gone) and ends by itself after a deadline.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

#define NS_PER_MS	1000000ull

static void probe_max(uint64_t ns)
{
	uint64_t cur = atomic_load(&sh->probe_max_ns);

	while (ns > cur && !atomic_compare_exchange_weak(&sh->probe_max_ns, &cur, ns))
		;
}

static int probe_queue(int fd, uint32_t *queue, uint32_t *syncobj)
{
	struct drm_vnpu_queue_create qc = { .priority = DRM_VNPU_PRIORITY_NORMAL };

	if (ioctl(fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &qc))
		return -errno;
	*queue = qc.queue_id;
	*syncobj = qc.syncobj;
	return 0;
}

static void probe_run(const char *node, uint64_t deadline)
{
	uint64_t limit = (uint64_t)opt.probe_limit_ms * NS_PER_MS;
	uint32_t queue = 0, syncobj = 0;
	int fd = open(node, O_RDWR | O_CLOEXEC), ret;

	if (fd < 0 || probe_queue(fd, &queue, &syncobj)) {
		fprintf(stderr, "# probe: cannot open %s or make a queue: %s\n", node,
			strerror(errno));
		atomic_fetch_add(&sh->probe_err, 1);
		return;
	}
	log_note("# probe: pid %d, %s fd %d queue %u, limit %d ms", getpid(), node, fd,
		 queue, opt.probe_limit_ms);
	log_flush();
	while (now_ns() < deadline) {
		struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_NOP };
		struct drm_vnpu_submit s = {
			.queue_id = queue, .tasks = (uintptr_t)&t, .task_count = 1,
			.task_stride = sizeof(t),
		};
		uint64_t t0 = now_ns(), lat, next = t0 + 1000000000ull;
		bool told = false;

		atomic_store(&sh->probe_wait_start_ns, t0);
		ret = ioctl(fd, DRM_IOCTL_VNPU_SUBMIT, &s) ? -errno : 0;
		if (ret == -EBADFD) {
			struct drm_vnpu_queue_destroy qr = { .queue_id = queue };

			ioctl(fd, DRM_IOCTL_VNPU_QUEUE_RESET, &qr);
		}
		while (!ret) {
			struct drm_syncobj_timeline_wait tw = { 0 };
			uint64_t pt = s.seq;

			tw.handles = (uintptr_t)&syncobj;
			tw.points = (uintptr_t)&pt;
			tw.count_handles = 1;
			tw.timeout_nsec = now_ns() + 500 * NS_PER_MS;
			ret = ioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &tw) ? -errno : 0;
			if (ret != -ETIME && ret != -EINTR)
				break;
			ret = 0;
			lat = now_ns() - t0;
			if (lat > limit && !told) {
				fprintf(stderr, "# probe: NOP %llu has waited %llu ms (limit %d ms)\n",
					(unsigned long long)s.seq,
					(unsigned long long)(lat / NS_PER_MS), opt.probe_limit_ms);
				told = true;
			}
			if (now_ns() > deadline)
				return;
		}
		lat = now_ns() - t0;
		atomic_store(&sh->probe_wait_start_ns, 0);
		if (ret) {
			atomic_fetch_add(&sh->probe_err, 1);
			log_note("# probe: NOP submit/wait failed: %d %s", ret,
				 strerrorname_np(-ret) ? strerrorname_np(-ret) : "");
		} else {
			atomic_fetch_add(&sh->probe_n, 1);
			probe_max(lat);
			if (lat > limit) {
				atomic_fetch_add(&sh->probe_over, 1);
				fprintf(stderr, "# probe: NOP %llu waited %llu ms (limit %d ms)\n",
					(unsigned long long)s.seq,
					(unsigned long long)(lat / NS_PER_MS), opt.probe_limit_ms);
			}
			log_note("# probe: NOP seq %llu %.1f ms", (unsigned long long)s.seq,
				 lat / 1e6);
		}
		log_flush();
		if (now_ns() < next) {
			uint64_t d = next - now_ns();
			struct timespec ts = { d / 1000000000ull, d % 1000000000ull };

			nanosleep(&ts, NULL);
		}
	}
}

pid_t probe_start(const char *node)
{
	pid_t parent = getpid(), pid;
	/* the whole run, its slack, and then some: never forever */
	uint64_t deadline = now_ns() + (uint64_t)(opt.seconds * 2 + 900) * 1000000000ull;

	fflush(NULL);
	log_flush();
	pid = fork();
	if (pid < 0) {
		perror("vnpu_fuzz: fork (probe)");
		return -1;
	}
	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);	/* the supervisor died before the prctl */
	signal(SIGALRM, SIG_IGN);
	probe_run(node, deadline);
	log_flush();
	_exit(0);
}

void probe_stop(pid_t pid)
{
	uint64_t end = now_ns() + 5000000000ull;
	uint64_t start = atomic_load(&sh->probe_wait_start_ns);

	if (pid <= 0)
		return;
	/* A NOP still waiting at the end counts with what it has waited. */
	if (start) {
		uint64_t lat = now_ns() - start;

		probe_max(lat);
		if (lat > (uint64_t)opt.probe_limit_ms * NS_PER_MS) {
			atomic_fetch_add(&sh->probe_over, 1);
			fprintf(stderr, "# probe: the last NOP still waited after %llu ms\n",
				(unsigned long long)(lat / NS_PER_MS));
		}
	}
	kill(pid, SIGKILL);
	/* A process stuck in the kernel may not go at once: do not hang on it. */
	while (waitpid(pid, NULL, WNOHANG) == 0 && now_ns() < end)
		usleep(10000);
}
