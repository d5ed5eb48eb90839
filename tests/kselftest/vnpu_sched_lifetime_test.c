// SPDX-License-Identifier: GPL-2.0-only
/*
 * Lifetime of jobs whose process, file or queue goes away (killed, closed,
 * destroyed, hung), SUBMIT waiting for room in its queue, engines still
 * shared after cancelled jobs, queue ids and limits, and each device's own
 * engines. Runs in the VM with vnpu.ko loaded, after the suites that need
 * queues spread over engines (see vnpu_sched_test_util.h).
 *
 * The binary is also the helper of vnpu_sched_lifetime.sh:
 *   vnpu_sched_lifetime_test --hold NODE COUNT SPIN_MS
 * 	submit COUNT jobs of one SPIN_MS spin each to one queue, print
 * 	"ready" once the queue is full (queue_depth jobs) or all are
 * 	submitted, go on submitting, wait to be killed
 *   vnpu_sched_lifetime_test --smoke NODE
 * 	run one job; exit 0 when it wrote its value and ended OK
 */
#include "vnpu_sched_test_util.h"

/* Run one job on fd that writes a value; 0 when it ended OK. */
static int smoke_job(int fd)
{
	struct ubuf m = { 0 };
	struct drm_vnpu_task t[2];
	uint32_t q, so;
	uint64_t seq;
	int ret;

	ret = ubuf_create(fd, 4096, &m);
	if (ret)
		return ret;
	ret = queue_create(fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so);
	if (ret)
		goto out;
	t[0] = t_write(m.va, 0x5eed);
	t[1] = t_ts(m.va + 8);
	ret = submit(fd, q, t, 2, &seq);
	if (!ret)
		ret = wait_point(fd, so, seq, 10000);
	if (!ret && (job_state(fd, q, seq) != DRM_VNPU_JOB_OK ||
		     m.p[0] != 0x5eed || !m.p[1]))
		ret = -EIO;
	queue_destroy(fd, q);
	syncobj_destroy(fd, so);
out:
	ubuf_free(fd, &m);
	return ret;
}

/*
 * Submit count jobs of one spin_ms spin to a new queue on node, writing
 * ready to ready_fd after the first ready_after of them (later submits may
 * block for room in the queue), then wait to be killed. Exits 1 on failure.
 */
static void hold_jobs(const char *node, unsigned int count, unsigned int spin_ms,
		      unsigned int ready_after, int ready_fd, const char *ready)
{
	struct drm_vnpu_task t = t_spin(spin_ms * NS_PER_MS);
	uint32_t q, so;
	uint64_t seq;
	unsigned int i;
	int fd;

	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0 || queue_create(fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so))
		_exit(1);
	for (i = 0; i < count; i++) {
		if (i == ready_after &&
		    write(ready_fd, ready, strlen(ready)) != (ssize_t)strlen(ready))
			_exit(1);
		if (submit(fd, q, &t, 1, &seq))
			_exit(1);
	}
	if (count <= ready_after &&
	    write(ready_fd, ready, strlen(ready)) != (ssize_t)strlen(ready))
		_exit(1);
	for (;;)
		pause();
}

/*
 * A process killed half-way through submitting 100 jobs (5 ms spins; it
 * may be blocked in SUBMIT waiting for room in its queue): its jobs are
 * released within a few seconds, its queue disappears, and the device
 * keeps working.
 */
TEST_F(sched, killed_process_jobs_are_released)
{
	struct queue_line ql;
	int pipefd[2], status;
	char c = 0;
	pid_t pid;

	ASSERT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		close(pipefd[0]);
		hold_jobs(self->node, 100, 5, 50, pipefd[1], "S");
	}
	close(pipefd[1]);
	ASSERT_EQ(1, read(pipefd[0], &c, 1)) TH_LOG("the child could not submit");
	close(pipefd[0]);

	/* Mid-way: jobs in flight, not everything submitted or done. */
	ASSERT_EQ(0, queue_line_read(self->dir, pid, 0, &ql));
	EXPECT_GE(ql.submitted, 50);
	EXPECT_LT(ql.completed, ql.submitted);
	EXPECT_GT(stat_read(self->dir, "jobs_alive"), 0);
	TH_LOG("killed with %llu submitted and %llu done of 100 jobs",
	       ql.submitted, ql.completed);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));

	EXPECT_EQ(0, wait_jobs_alive_zero(self->dir, 5000))
		TH_LOG("jobs_alive still %lld", stat_read(self->dir, "jobs_alive"));
	EXPECT_EQ(-1, queue_line_read(self->dir, pid, 0, NULL));
	EXPECT_EQ(0, smoke_job(self->fd));
}

/*
 * close() of a file with three seconds of work queued returns at once;
 * its jobs end (the timeline, shared with another file, reaches the last
 * point) without getting to their writes.
 */
TEST_F(sched, close_with_jobs_in_flight)
{
	struct drm_syncobj_handle h2f = { 0 }, f2h = { 0 };
	struct drm_vnpu_task t[2];
	struct ubuf m = { 0 };
	uint32_t q, so;
	const int n = self->depth < 10 ? self->depth : 10;
	uint64_t seq, t0, dt, dt_end;
	int fd2, i, written = 0;

	fd2 = open(self->node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, ubuf_create(fd2, 4096, &m));
	ASSERT_EQ(0, queue_create(fd2, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	for (i = 0; i < n; i++) {
		t[0] = t_spin(3000 / n * NS_PER_MS);
		t[1] = t_write(m.va + 8 * i, 1);
		ASSERT_EQ(0, submit(fd2, q, t, 2, &seq));
	}
	ASSERT_EQ(n, seq);
	/* Keep the queue's timeline through the other file. */
	h2f.handle = so;
	ASSERT_EQ(0, xioctl(fd2, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h2f));
	f2h.fd = h2f.fd;
	ASSERT_EQ(0, xioctl(self->fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &f2h));
	close(h2f.fd);
	EXPECT_FALSE(point_signalled(self->fd, f2h.handle, n));

	t0 = now_ns();
	close(fd2);
	dt = now_ns() - t0;
	ASSERT_EQ(0, wait_point(self->fd, f2h.handle, n, 5000));
	dt_end = now_ns() - t0;
	/* Three seconds of spinning were queued. */
	EXPECT_LT(dt, 1000 * NS_PER_MS) TH_LOG("close took %llu ms",
					     (unsigned long long)(dt / NS_PER_MS));
	EXPECT_LT(dt_end, 1500 * NS_PER_MS) TH_LOG("last job ended %llu ms after close",
						 (unsigned long long)(dt_end / NS_PER_MS));
	EXPECT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	/* None of them got to its write. */
	for (i = 0; i < n; i++)
		written += !!m.p[i];
	EXPECT_EQ(0, written);
	syncobj_destroy(self->fd, f2h.handle);
	munmap((void *)m.p, m.size);
}

/*
 * QUEUE_DESTROY while one job runs and up to four wait: the running one
 * finishes, the waiting ones are cancelled (they do not run; their fences
 * carry -ECANCELED or -ESRCH), every timeline point still signals, the id
 * is gone, and QUEUE_DESTROY did not wait for the running job.
 */
TEST_F(sched, queue_destroy_cancels_queued_jobs)
{
	const int n = self->depth < 5 ? self->depth : 5;
	struct drm_vnpu_task t[4];
	struct drm_vnpu_sync out;
	struct ubuf m = { 0 };
	uint32_t q, so, bin[5];
	uint64_t seq, t0, dt;
	int i, st;

	if (n < 2)
		SKIP(return, "needs queue_depth >= 2, have %ld", self->depth);
	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, syncobj_create(self->fd, 0, &bin[i]));
		out = (struct drm_vnpu_sync){ .handle = bin[i] };
		if (!i) {
			/* [0] start, spin, [1] = 1, [6] end */
			t[0] = t_ts(m.va);
			t[1] = t_spin(300 * NS_PER_MS);
			t[2] = t_write(m.va + 8, 1);
			t[3] = t_ts(m.va + 48);
			ASSERT_EQ(0, submit_full(self->fd, q, t, 4, NULL, 0, &out, 1, &seq));
		} else {
			/* [1 + i] = i + 1 */
			t[0] = t_write(m.va + 8 + 8 * i, i + 1);
			ASSERT_EQ(0, submit_full(self->fd, q, t, 1, NULL, 0, &out, 1, &seq));
		}
	}
	ASSERT_EQ(n, seq);
	ASSERT_EQ(0, wait_nonzero(&m.p[0], 5000));

	t0 = now_ns();
	ASSERT_EQ(0, queue_destroy(self->fd, q));
	dt = now_ns() - t0;
	/* The timeline outlives the queue and reaches the last point. */
	ASSERT_EQ(0, wait_point(self->fd, so, n, 5000));
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, wait_point(self->fd, bin[i], 0, 5000));

	/* The running job finished. */
	EXPECT_EQ(1, m.p[1]);
	EXPECT_GE(m.p[6] - m.p[0], 300 * NS_PER_MS);
	EXPECT_EQ(1, fence_status(self->fd, bin[0]));
	/* The queued ones did not run. */
	for (i = 1; i < n; i++) {
		st = fence_status(self->fd, bin[i]);
		EXPECT_EQ(0, m.p[1 + i]) TH_LOG("queued job %d ran", i + 1);
		EXPECT_TRUE(st == -ECANCELED || st == -ESRCH)
			TH_LOG("queued job %d: fence status %d", i + 1, st);
	}
	EXPECT_LT(dt, 200 * NS_PER_MS) TH_LOG("QUEUE_DESTROY took %llu ms",
					    (unsigned long long)(dt / NS_PER_MS));
	EXPECT_EQ(-ENOENT, job_state(self->fd, q, 1));
	EXPECT_EQ(-ENOENT, submit(self->fd, q, t, 1, &seq));
	EXPECT_EQ(-ENOENT, queue_destroy(self->fd, q));
	EXPECT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	for (i = 0; i < n; i++)
		syncobj_destroy(self->fd, bin[i]);
	syncobj_destroy(self->fd, so);
	ubuf_free(self->fd, &m);
}

/*
 * A file whose job hangs is closed: the hung job ends at once (no need to
 * wait for the hang detector) and nothing is counted as a reset.
 */
TEST_F(sched, close_with_hung_job)
{
	struct engine_sums e0, e1;
	struct drm_vnpu_task t = t_nop();
	uint32_t q, so;
	uint64_t seq, t0, dt;
	int fd2, kfd;

	ASSERT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	ASSERT_EQ(0, engines_read(self->dir, &e0));
	kfd = kmsg_open_end();
	ASSERT_GE(kfd, 0);
	fd2 = open(self->node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, queue_create(fd2, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	ASSERT_EQ(0, knob_write(self->dir, "hang_next_job", 1));
	ASSERT_EQ(0, submit(fd2, q, &t, 1, &seq));
	if (self->depth >= 2)	/* and one behind it */
		ASSERT_EQ(0, submit(fd2, q, &t, 1, &seq));
	sleep_ms(100);
	EXPECT_FALSE(point_signalled(fd2, so, 1));

	t0 = now_ns();
	close(fd2);
	EXPECT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	dt = now_ns() - t0;
	EXPECT_LT(dt, self->timeout_ms * NS_PER_MS / 2)
		TH_LOG("the hung job lasted %llu ms after close",
		       (unsigned long long)(dt / NS_PER_MS));
	ASSERT_EQ(0, engines_read(self->dir, &e1));
	EXPECT_EQ(e0.resets, e1.resets);
	EXPECT_EQ(0, kmsg_count(kfd, "made no progress", NULL, 0));
	close(kfd);
	EXPECT_EQ(0, smoke_job(self->fd));
}

static void on_usr1(int sig)
{
}

struct room_probe {
	int fd;
	uint32_t queue;
	pthread_t target;	/* signalled with SIGUSR1 when set */
	bool destroy;		/* destroy the queue instead */
	int destroyed;		/* QUEUE_DESTROY's result */
	unsigned int delay_ms;
	int state;		/* JOB_STATUS of job 1 */
	uint64_t status_ns;	/* how long JOB_STATUS took */
	int listed;		/* the debugfs queue line was readable */
	char dir[320];
};

static void *room_probe(void *arg)
{
	struct room_probe *p = arg;
	uint64_t t0;

	sleep_ms(p->delay_ms);
	t0 = now_ns();
	p->state = job_state(p->fd, p->queue, 1);
	p->status_ns = now_ns() - t0;
	p->listed = !queue_line_read(p->dir, getpid(), p->queue, NULL);
	if (p->destroy)
		p->destroyed = queue_destroy(p->fd, p->queue);
	else if (p->target)
		pthread_kill(p->target, SIGUSR1);
	return NULL;
}

/*
 * A queue takes queue_depth unfinished jobs; one more SUBMIT waits for
 * room (JOB_STATUS and debugfs stay usable meanwhile) and returns once the
 * oldest job finished. A signal interrupts the wait without using a
 * sequence number; QUEUE_DESTROY ends it with -ENOENT.
 */
TEST_F(sched, submit_waits_for_room_in_queue)
{
	const long d = self->depth;
	struct sigaction sa = { .sa_handler = on_usr1 }, old_sa;
	struct drm_vnpu_task first[3], nop = t_nop();
	struct drm_vnpu_submit raw;
	struct room_probe probe = { 0 };
	struct ubuf m = { 0 };
	uint32_t q, so;
	uint64_t seq, t0, back;
	pthread_t th;
	long i;
	int ret;

	if (d > 256)
		SKIP(return, "queue_depth %ld: too many jobs to fill", d);
	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	spin_job(first, m.va, 800 * NS_PER_MS);

	/* Fill the queue: a spin and depth - 1 NOPs behind it. */
	ASSERT_EQ(0, submit(self->fd, q, first, 3, &seq));
	for (i = 1; i < d; i++)
		ASSERT_EQ(0, submit(self->fd, q, &nop, 1, &seq));
	ASSERT_EQ((uint64_t)d, seq);
	ASSERT_FALSE(point_signalled(self->fd, so, 1)) TH_LOG("filling took too long");

	probe.fd = self->fd;
	probe.queue = q;
	probe.delay_ms = 100;
	probe.state = -1;
	snprintf(probe.dir, sizeof(probe.dir), "%s", self->dir);
	ASSERT_EQ(0, pthread_create(&th, NULL, room_probe, &probe));
	t0 = now_ns();
	ASSERT_EQ(0, submit(self->fd, q, &nop, 1, &seq));
	back = now_ns();
	pthread_join(th, NULL);
	EXPECT_EQ(d + 1, seq);
	/* It came back only after the spin ended. */
	EXPECT_NE(0, m.p[1]);
	EXPECT_GE(back, m.p[1]);
	EXPECT_GE(back - t0, 100 * NS_PER_MS);
	/* While it waited, JOB_STATUS answered at once. */
	EXPECT_EQ(DRM_VNPU_JOB_PENDING, probe.state);
	EXPECT_LT(probe.status_ns, 50 * NS_PER_MS);
	EXPECT_TRUE(probe.listed);
	ASSERT_EQ(0, wait_point(self->fd, so, d + 1, 10000));

	/* Again, and this time a signal interrupts the waiting SUBMIT. */
	m.p[0] = 0;
	m.p[1] = 0;
	ASSERT_EQ(0, submit(self->fd, q, first, 3, &seq));
	for (i = 1; i < d; i++)
		ASSERT_EQ(0, submit(self->fd, q, &nop, 1, &seq));
	ASSERT_EQ((uint64_t)(2 * d + 1), seq);
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, &old_sa));	/* no SA_RESTART */
	probe.target = pthread_self();
	ASSERT_EQ(0, pthread_create(&th, NULL, room_probe, &probe));
	memset(&raw, 0, sizeof(raw));
	raw.queue_id = q;
	raw.tasks = (uintptr_t)&nop;
	raw.task_count = 1;
	raw.task_stride = sizeof(nop);
	t0 = now_ns();
	ret = ioctl(self->fd, DRM_IOCTL_VNPU_SUBMIT, &raw);
	back = now_ns();
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(EINTR, errno);
	pthread_join(th, NULL);
	sigaction(SIGUSR1, &old_sa, NULL);
	EXPECT_FALSE(point_signalled(self->fd, so, d + 2)) TH_LOG("the spin ended first");
	EXPECT_LT(back - t0, 700 * NS_PER_MS);
	/* The interrupted SUBMIT queued nothing: the next one is 2d + 2. */
	ASSERT_EQ(0, submit(self->fd, q, &nop, 1, &seq));
	EXPECT_EQ((uint64_t)(2 * d + 2), seq);
	ASSERT_EQ(0, wait_point(self->fd, so, seq, 10000));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q, seq));

	/* Full once more; the queue is destroyed under the waiting SUBMIT. */
	ASSERT_EQ(0, submit(self->fd, q, first, 3, &seq));
	for (i = 1; i < d; i++)
		ASSERT_EQ(0, submit(self->fd, q, &nop, 1, &seq));
	probe.target = 0;
	probe.destroy = true;
	probe.destroyed = 1;
	ASSERT_EQ(0, pthread_create(&th, NULL, room_probe, &probe));
	t0 = now_ns();
	EXPECT_EQ(-ENOENT, submit(self->fd, q, &nop, 1, &seq));
	back = now_ns();
	pthread_join(th, NULL);
	EXPECT_EQ(0, probe.destroyed);
	EXPECT_LT(back - t0, 700 * NS_PER_MS);
	/* Everything submitted still ends: the last point is 3d + 2. */
	ASSERT_EQ(0, wait_point(self->fd, so, 3 * d + 2, 5000));
	EXPECT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	ubuf_free(self->fd, &m);
}

/*
 * Cancelled jobs leave no trace in how queues are spread over engines:
 * after a queue was destroyed with jobs queued, and again after a file was
 * closed with jobs queued, one new queue per engine still run side by
 * side. (One round each: rounds landing on every engine alike could hide
 * an imbalance.)
 */
TEST_F(sched, engines_still_shared_after_cancelled_jobs)
{
	const long n = self->depth - 1 < 32 ? self->depth - 1 : 32;
	const uint64_t spin_ns = CONC_SPIN_MS * NS_PER_MS;
	struct drm_vnpu_task spin = t_spin(200 * NS_PER_MS), nop = t_nop();
	struct ubuf ts = { 0 };
	uint64_t seq, wall;
	uint32_t q, so;
	int round, fd2;
	long i;

	if (self->engines < 2)
		SKIP(return, "needs two engines, have %ld", self->engines);
	if (n < 1)
		SKIP(return, "needs queue_depth >= 2, have %ld", self->depth);
	ASSERT_LE(self->engines, 64);
	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &ts));
	for (round = 0; round < 2; round++) {
		const char *how = round ? "close" : "QUEUE_DESTROY";

		/* A spin and n jobs behind it; destroyed (or closed) at once. */
		fd2 = round ? open(self->node, O_RDWR | O_CLOEXEC) : self->fd;
		ASSERT_GE(fd2, 0);
		ASSERT_EQ(0, queue_create(fd2, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
		ASSERT_EQ(0, submit(fd2, q, &spin, 1, &seq));
		for (i = 0; i < n; i++)
			ASSERT_EQ(0, submit(fd2, q, &nop, 1, &seq));
		if (!round) {
			ASSERT_EQ(0, queue_destroy(fd2, q));
			syncobj_destroy(fd2, so);
		} else {
			close(fd2);
		}
		ASSERT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));

		ASSERT_EQ(0, run_spins(self->fd, self->engines, ts.p, ts.va, &wall));
		EXPECT_GT(0, spins_apart(ts.p, self->engines))
			TH_LOG("after %s (%ld jobs cancelled), the last of %ld spins started %lld ms after the first ended",
			       how, n, self->engines,
			       (long long)spins_apart(ts.p, self->engines) / (long long)NS_PER_MS);
		EXPECT_LT(wall, spin_ns * 16 / 10)
			TH_LOG("after %s, %ld spins of %u ms on new queues took %llu ms",
			       how, self->engines, CONC_SPIN_MS,
			       (unsigned long long)(wall / NS_PER_MS));
	}
	ubuf_free(self->fd, &ts);
}

/*
 * Queue ids: at most DRM_VNPU_MAX_QUEUES per file, never 0, freed ids
 * are reusable; destroy, reset and status of unknown ids are -ENOENT.
 */
TEST_F(sched, queue_ids_and_limits)
{
	static uint32_t q[DRM_VNPU_MAX_QUEUES], so[DRM_VNPU_MAX_QUEUES];
	struct drm_vnpu_queue_create qc = { 0 };
	struct drm_vnpu_queue_destroy qd = { 0 };
	struct drm_vnpu_task t = t_nop();
	uint32_t extra, extra_so, q2, so2;
	uint64_t seq;
	int i, fd2;

	for (i = 0; i < DRM_VNPU_MAX_QUEUES; i++) {
		ASSERT_EQ(0, queue_create(self->fd, i % 3, &q[i], &so[i])) TH_LOG("queue %d", i);
		ASSERT_NE(0, q[i]);
		ASSERT_NE(0, so[i]);
	}
	EXPECT_EQ(-ENOSPC, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &extra,
					&extra_so));
	/* Priorities and flags are checked. */
	ASSERT_EQ(0, queue_destroy(self->fd, q[7]));
	qc.priority = DRM_VNPU_PRIORITY_HIGH + 1;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &qc));
	qc.priority = DRM_VNPU_PRIORITY_LOW;
	qc.flags = 1;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &qc));
	/* The freed id is used again; the new queue counts from 1. */
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_LOW, &extra, &extra_so));
	EXPECT_EQ(q[7], extra);
	ASSERT_EQ(0, submit(self->fd, extra, &t, 1, &seq));
	EXPECT_EQ(1, seq);
	ASSERT_EQ(0, wait_point(self->fd, extra_so, 1, 10000));

	EXPECT_EQ(-ENOENT, queue_destroy(self->fd, 0));
	EXPECT_EQ(-ENOENT, queue_destroy(self->fd, DRM_VNPU_MAX_QUEUES + 1));
	EXPECT_EQ(-ENOENT, queue_reset(self->fd, DRM_VNPU_MAX_QUEUES + 1));
	EXPECT_EQ(-ENOENT, job_state(self->fd, DRM_VNPU_MAX_QUEUES + 1, 1));
	qd.queue_id = q[0];
	qd.pad = 1;
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_VNPU_QUEUE_DESTROY, &qd));
	EXPECT_EQ(-EINVAL, xioctl(self->fd, DRM_IOCTL_VNPU_QUEUE_RESET, &qd));
	/* JOB_STATUS of a job never submitted. */
	EXPECT_EQ(-EINVAL, job_state(self->fd, extra, 0));
	EXPECT_EQ(-EINVAL, job_state(self->fd, extra, 2));
	EXPECT_EQ(-EINVAL, job_state(self->fd, q[0], 1));
	/* Another file has its own ids. */
	fd2 = open(self->node, O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, queue_create(fd2, DRM_VNPU_PRIORITY_NORMAL, &q2, &so2));
	EXPECT_EQ(1, q2);
	EXPECT_EQ(-ENOENT, submit(fd2, q[1] == 1 ? q[2] : q[1], &t, 1, &seq));
	close(fd2);
	/* Destroying every queue leaves the syncobjs usable until closed. */
	for (i = 0; i < DRM_VNPU_MAX_QUEUES; i++)
		if (i != 7)
			ASSERT_EQ(0, queue_destroy(self->fd, q[i]));
	ASSERT_EQ(0, queue_destroy(self->fd, extra));
	EXPECT_EQ(0, wait_point(self->fd, extra_so, 1, 0));
	for (i = 0; i < DRM_VNPU_MAX_QUEUES; i++)
		ASSERT_EQ(0, syncobj_destroy(self->fd, so[i]));
}

/* Accel node number i into buf; returns the number of nodes. */
static __attribute__((noinline)) int nth_node(int i, char *buf, size_t len)
{
	char paths[VNPU_TEST_MAX_NODES][64];
	int n = vnpu_list_nodes(paths, VNPU_TEST_MAX_NODES);

	if (i < n)
		snprintf(buf, len, "%s", paths[i]);
	return n;
}

/* Each device has its own engines: a job on one never shows on another. */
TEST_F(sched, devices_have_their_own_engines)
{
	char node1[64], dir1[320];
	struct engine_sums a0, a1, b0, b1;
	struct drm_vnpu_task t = t_spin(50 * NS_PER_MS);
	uint32_t q, so;
	uint64_t seq;
	int n, fd1;

	n = nth_node(1, node1, sizeof(node1));
	if (n < 2)
		SKIP(return, "needs two devices, have %d", n);
	ASSERT_EQ(0, vnpu_debugfs_dir(node1, dir1, sizeof(dir1)));
	ASSERT_STRNE(self->dir, dir1);
	fd1 = open(node1, O_RDWR | O_CLOEXEC);
	ASSERT_GE(fd1, 0);
	ASSERT_EQ(0, engines_read(self->dir, &a0));
	ASSERT_EQ(0, engines_read(dir1, &b0));
	ASSERT_EQ(0, queue_create(fd1, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	ASSERT_EQ(0, submit(fd1, q, &t, 1, &seq));
	ASSERT_EQ(0, wait_point(fd1, so, seq, 10000));
	ASSERT_EQ(0, engines_read(self->dir, &a1));
	ASSERT_EQ(0, engines_read(dir1, &b1));
	EXPECT_EQ(a0.jobs, a1.jobs);
	EXPECT_EQ(a0.busy_ns, a1.busy_ns);
	EXPECT_EQ(b0.jobs + 1, b1.jobs);
	EXPECT_GE(b1.busy_ns - b0.busy_ns, 50 * NS_PER_MS);
	EXPECT_EQ(self->engines, b1.engines);
	close(fd1);
}

static int usage(const char *argv0)
{
	fprintf(stderr,
		"usage: %s [kselftest options]\n"
		"       %s --hold NODE COUNT SPIN_MS\n"
		"       %s --smoke NODE\n", argv0, argv0, argv0);
	return 2;
}

int main(int argc, char **argv)
{
	long depth;
	int fd, ret;

	if (argc >= 2 && !strcmp(argv[1], "--hold")) {
		if (argc != 5)
			return usage(argv[0]);
		/* Ready once the queue is full (or everything is queued). */
		depth = vnpu_module_param("queue_depth");
		hold_jobs(argv[2], atoi(argv[3]), atoi(argv[4]),
			  depth > 0 && depth < atoi(argv[3]) ? depth : atoi(argv[3]),
			  1, "ready\n");
	}
	if (argc >= 2 && !strcmp(argv[1], "--smoke")) {
		if (argc != 3)
			return usage(argv[0]);
		fd = open(argv[2], O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			perror(argv[2]);
			return 1;
		}
		ret = smoke_job(fd);
		if (ret)
			fprintf(stderr, "smoke job failed: %s\n", strerror(-ret));
		close(fd);
		return ret ? 1 : 0;
	}
	return test_harness_run(argc, argv);
}
