// SPDX-License-Identifier: MIT
/*
 * Submission cost of the vnpu driver, as multiples of a null system call
 * (getppid) measured in the same run: per task for NOP and tiny COPY tasks
 * submitted one per ioctl, in batches of 16 and 256, and as a replayed
 * 256-task command buffer; and the round trip of an empty job (submit and
 * wait on the queue's timeline). Every figure is the best of ROUNDS.
 *
 * usage: submit_bench [RESULTS.json]   (runs in the VM)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <drm/vnpu_accel.h>

#include "bench_json.h"

#define ROUNDS 3
#define TASKS_PER_ROUND 8192

static int fd;
static uint32_t queue, syncobj;
static uint64_t src_va, dst_va;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void wait_point(uint64_t point)
{
	struct drm_syncobj_timeline_wait w = {
		.handles = (uintptr_t)&syncobj,
		.points = (uintptr_t)&point,
		.count_handles = 1,
		.timeout_nsec = INT64_MAX,
		.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
	};

	if (ioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w))
		die("timeline wait");
}

static uint64_t submit(struct drm_vnpu_task *tasks, uint32_t n, uint32_t cmdbuf)
{
	struct drm_vnpu_submit s = { .queue_id = queue };

	if (cmdbuf) {
		s.flags = DRM_VNPU_SUBMIT_CMDBUF;
		s.cmdbuf = cmdbuf;
	} else {
		s.tasks = (uintptr_t)tasks;
		s.task_count = n;
		s.task_stride = sizeof(*tasks);
	}
	if (ioctl(fd, DRM_IOCTL_VNPU_SUBMIT, &s))
		die("submit");
	return s.seq;
}

static void make_tasks(struct drm_vnpu_task *t, uint32_t n, int copy)
{
	uint32_t i;

	memset(t, 0, n * sizeof(*t));
	for (i = 0; i < n; i++) {
		if (!copy)
			continue;
		t[i].type = DRM_VNPU_TASK_COPY;
		t[i].copy.src = src_va;
		t[i].copy.dst = dst_va;
		t[i].copy.size = 64;
	}
}

/* Nanoseconds per task: batches of n tasks (or command buffer replays). */
static double per_task_ns(struct drm_vnpu_task *t, uint32_t n, uint32_t cmdbuf)
{
	uint32_t jobs = TASKS_PER_ROUND / n, i;
	double best = 1e30;
	uint64_t seq = 0;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		double t0 = now(), dt;

		for (i = 0; i < jobs; i++)
			seq = submit(t, n, cmdbuf);
		wait_point(seq);
		dt = (now() - t0) * 1e9 / ((double)jobs * n);
		if (dt < best)
			best = dt;
	}
	return best;
}

static double null_syscall_ns(void)
{
	double best = 1e30;
	int r, i;

	for (r = 0; r < ROUNDS; r++) {
		double t0 = now(), dt;

		for (i = 0; i < 100000; i++)
			syscall(SYS_getppid);
		dt = (now() - t0) * 1e9 / 100000;
		if (dt < best)
			best = dt;
	}
	return best;
}

static double round_trip_ns(void)
{
	struct drm_vnpu_task nop = { .type = DRM_VNPU_TASK_NOP };
	double best = 1e30;
	int r, i;

	for (r = 0; r < ROUNDS; r++) {
		double t0 = now(), dt;

		for (i = 0; i < 200; i++)
			wait_point(submit(&nop, 1, 0));
		dt = (now() - t0) * 1e9 / 200;
		if (dt < best)
			best = dt;
	}
	return best;
}

static uint64_t make_bo(void)
{
	struct drm_vnpu_bo_create c = {
		.size = 4096, .placement = DRM_VNPU_PLACEMENT_DEVICE,
	};

	if (ioctl(fd, DRM_IOCTL_VNPU_BO_CREATE, &c))
		die("bo create");
	return c.va;
}

int main(int argc, char **argv)
{
	static struct drm_vnpu_task tasks[256];
	struct drm_vnpu_queue_create qc = { .priority = DRM_VNPU_PRIORITY_NORMAL };
	struct drm_vnpu_cmdbuf_create cc = {
		.tasks = (uintptr_t)tasks, .task_count = 256,
		.task_stride = sizeof(tasks[0]),
	};
	static const char *const kind[] = { "nop", "copy64" };
	double sys, single = 0, cost;
	char name[96];
	int copy;

	fd = open("/dev/accel/accel0", O_RDWR | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &qc))
		die("queue");
	queue = qc.queue_id;
	syncobj = qc.syncobj;
	src_va = make_bo();
	dst_va = make_bo();

	sys = null_syscall_ns();
	bench_report("null_syscall", sys, "ns", sys);
	for (copy = 0; copy < 2; copy++) {
		make_tasks(tasks, 256, copy);
		single = per_task_ns(tasks, 1, 0);
		snprintf(name, sizeof(name), "submit_%s_1_per_ioctl", kind[copy]);
		bench_report(name, single, "ns/task", sys);
		cost = per_task_ns(tasks, 16, 0);
		snprintf(name, sizeof(name), "submit_%s_batch16", kind[copy]);
		bench_report(name, cost, "ns/task", sys);
		cost = per_task_ns(tasks, 256, 0);
		snprintf(name, sizeof(name), "submit_%s_batch256", kind[copy]);
		bench_report(name, cost, "ns/task", sys);

		cc.handle = 0;
		if (ioctl(fd, DRM_IOCTL_VNPU_CMDBUF_CREATE, &cc))
			die("cmdbuf");
		cost = per_task_ns(tasks, 256, cc.handle);
		snprintf(name, sizeof(name), "submit_%s_cmdbuf256_replay", kind[copy]);
		bench_report(name, cost, "ns/task", sys);
		/* The goal: a replayed task costs at most 1/20 of a lone one. */
		snprintf(name, sizeof(name), "cmdbuf_replay_speedup_%s", kind[copy]);
		bench_report(name, single / cost, "x", 20);
	}
	bench_report("job_round_trip", round_trip_ns(), "ns", sys);

	if (argc > 1 && bench_write_json(argv[1]))
		die(argv[1]);
	return 0;
}
