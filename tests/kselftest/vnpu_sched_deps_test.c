// SPDX-License-Identifier: GPL-2.0-only
/*
 * Dependencies between jobs: in-syncs on another queue's point, out-syncs,
 * unsubmitted points and WAIT_FOR_SUBMIT, and WAIT_VALUE between queues,
 * within a file and on a value the host writes. Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_sched_test_util.h"

/*
 * Job B of queue 2 waits for queue 1's timeline point of job A: it starts
 * after A ended and sees what A wrote.
 */
TEST_F(sched, in_sync_on_other_queue_point)
{
	struct ubuf m = { 0 };
	struct drm_vnpu_task a[4], b[2];
	struct drm_vnpu_sync in;
	uint32_t q1, so1, q2, so2;
	uint64_t sa, sb;

	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q1, &so1));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q2, &so2));
	/* A: [0] start, spin, [1] = 0xa11, [2] end */
	a[0] = t_ts(m.va);
	a[1] = t_spin(200 * NS_PER_MS);
	a[2] = t_write(m.va + 8, 0xa11);
	a[3] = t_ts(m.va + 16);
	/* B: [3] start, copy [1] to [4] */
	b[0] = t_ts(m.va + 24);
	b[1] = t_copy(m.va + 8, m.va + 32, 8);

	ASSERT_EQ(0, submit(self->fd, q1, a, 4, &sa));
	in = (struct drm_vnpu_sync){ .handle = so1, .point = sa };
	ASSERT_EQ(0, submit_full(self->fd, q2, b, 2, &in, 1, NULL, 0, &sb));
	ASSERT_EQ(0, wait_point(self->fd, so2, sb, 10000));
	EXPECT_TRUE(point_signalled(self->fd, so1, sa));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q1, sa));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q2, sb));
	EXPECT_GE(m.p[3], m.p[2]) TH_LOG("B started %lld ns before A ended",
					 (long long)(m.p[2] - m.p[3]));
	EXPECT_EQ(0xa11, m.p[4]);
	ubuf_free(self->fd, &m);
}

/*
 * Out-syncs: a binary syncobj and a point of a user timeline syncobj are
 * signalled when the job ends, not before; a signalled binary in-sync
 * does not hold a job back.
 */
TEST_F(sched, out_syncs_signal_when_job_ends)
{
	struct ubuf m = { 0 };
	struct drm_vnpu_task t[3];
	struct drm_vnpu_sync out[2], in;
	uint32_t q, so, bin, tl, pre;
	uint64_t seq, point;

	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	ASSERT_EQ(0, syncobj_create(self->fd, 0, &bin));
	ASSERT_EQ(0, syncobj_create(self->fd, 0, &tl));
	ASSERT_EQ(0, syncobj_create(self->fd, DRM_SYNCOBJ_CREATE_SIGNALED, &pre));
	spin_job(t, m.va, 300 * NS_PER_MS);
	out[0] = (struct drm_vnpu_sync){ .handle = bin, .point = 0 };
	out[1] = (struct drm_vnpu_sync){ .handle = tl, .point = 9 };
	in = (struct drm_vnpu_sync){ .handle = pre, .point = 0 };

	ASSERT_EQ(0, submit_full(self->fd, q, t, 3, &in, 1, out, 2, &seq));
	/* Running: submitted, not signalled. */
	EXPECT_FALSE(point_signalled(self->fd, bin, 0));
	EXPECT_FALSE(point_signalled(self->fd, tl, 9));
	ASSERT_EQ(0, query_point(self->fd, tl, 0, &point));
	EXPECT_EQ(0, point);
	ASSERT_EQ(0, query_point(self->fd, tl, DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED,
				 &point));
	EXPECT_EQ(9, point);

	ASSERT_EQ(0, wait_point(self->fd, bin, 0, 10000));
	/* The binary one signalled at the end of the job, not earlier. */
	EXPECT_NE(0, m.p[1]);
	EXPECT_GE(m.p[1] - m.p[0], 300 * NS_PER_MS);
	ASSERT_EQ(0, wait_point(self->fd, tl, 9, 10000));
	ASSERT_EQ(0, query_point(self->fd, tl, 0, &point));
	EXPECT_EQ(9, point);
	EXPECT_TRUE(point_signalled(self->fd, so, seq));
	EXPECT_EQ(1, fence_status(self->fd, bin));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q, seq));
	syncobj_destroy(self->fd, bin);
	syncobj_destroy(self->fd, tl);
	syncobj_destroy(self->fd, pre);
	ubuf_free(self->fd, &m);
}

/*
 * An in-sync on a point nobody submitted yet is refused with -EINVAL
 * without DRM_VNPU_SYNC_WAIT_FOR_SUBMIT, and nothing is queued.
 */
TEST_F(sched, in_sync_unsubmitted_point_einval)
{
	struct drm_vnpu_task t = t_nop();
	struct drm_vnpu_sync in;
	uint32_t q1, so1, q2, so2, empty;
	uint64_t seq = 0;

	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q1, &so1));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q2, &so2));
	ASSERT_EQ(0, syncobj_create(self->fd, 0, &empty));

	/* Queue 1 has no job at all yet. */
	in = (struct drm_vnpu_sync){ .handle = so1, .point = 1 };
	EXPECT_EQ(-EINVAL, submit_full(self->fd, q2, &t, 1, &in, 1, NULL, 0, &seq));
	/* An empty binary syncobj. */
	in = (struct drm_vnpu_sync){ .handle = empty, .point = 0 };
	EXPECT_EQ(-EINVAL, submit_full(self->fd, q2, &t, 1, &in, 1, NULL, 0, &seq));
	/* Queue 1 has job 1 but not job 2. */
	ASSERT_EQ(0, submit(self->fd, q1, &t, 1, &seq));
	ASSERT_EQ(1, seq);
	in = (struct drm_vnpu_sync){ .handle = so1, .point = 2 };
	EXPECT_EQ(-EINVAL, submit_full(self->fd, q2, &t, 1, &in, 1, NULL, 0, &seq));
	/* Point 1 exists: accepted, and as queue 2's first job. */
	in.point = 1;
	ASSERT_EQ(0, submit_full(self->fd, q2, &t, 1, &in, 1, NULL, 0, &seq));
	EXPECT_EQ(1, seq);
	ASSERT_EQ(0, wait_point(self->fd, so2, 1, 10000));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q2, 1));
	syncobj_destroy(self->fd, empty);
}

struct late_producer {
	int fd;
	uint32_t queue;
	unsigned int delay_ms;
	const struct drm_vnpu_task *tasks;
	uint32_t count;
	uint64_t submitted_ns;
	uint64_t seq;
	int ret;
};

static void *late_submit(void *arg)
{
	struct late_producer *p = arg;

	sleep_ms(p->delay_ms);
	p->submitted_ns = now_ns();
	p->ret = submit(p->fd, p->queue, p->tasks, p->count, &p->seq);
	return NULL;
}

/*
 * With DRM_VNPU_SYNC_WAIT_FOR_SUBMIT the consumer's SUBMIT waits until
 * another thread submitted the producer, then runs after it.
 */
TEST_F(sched, in_sync_wait_for_submit)
{
	struct ubuf m = { 0 };
	struct drm_vnpu_task a[2], b[2];
	struct drm_vnpu_sync in;
	struct late_producer p = { 0 };
	uint32_t q1, so1, q2, so2;
	uint64_t seq = 0, t0, t1;
	pthread_t th;

	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q1, &so1));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q2, &so2));
	a[0] = t_spin(100 * NS_PER_MS);
	a[1] = t_write(m.va, 0x7e7e);
	b[0] = t_copy(m.va, m.va + 8, 8);
	b[1] = t_ts(m.va + 16);

	p.fd = self->fd;
	p.queue = q1;
	p.delay_ms = 300;
	p.tasks = a;
	p.count = 2;
	p.ret = 1;
	in = (struct drm_vnpu_sync){ .handle = so1, .point = 1,
				     .flags = DRM_VNPU_SYNC_WAIT_FOR_SUBMIT };
	ASSERT_EQ(0, pthread_create(&th, NULL, late_submit, &p));
	t0 = now_ns();
	EXPECT_EQ(0, submit_full(self->fd, q2, b, 2, &in, 1, NULL, 0, &seq));
	t1 = now_ns();
	pthread_join(th, NULL);
	ASSERT_EQ(0, p.ret);
	ASSERT_EQ(1, p.seq);
	ASSERT_EQ(1, seq);
	/* The consumer's SUBMIT returned only after the producer's. */
	EXPECT_GE(t1, p.submitted_ns);
	EXPECT_GE(t1 - t0, 250 * NS_PER_MS);
	ASSERT_EQ(0, wait_point(self->fd, so2, 1, 10000));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q1, 1));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q2, 1));
	EXPECT_EQ(0x7e7e, m.p[1]);
	ubuf_free(self->fd, &m);
}

/*
 * WAIT_VALUE on queue 2 for a value WRITE_VALUE of queue 1 stores after a
 * spin: the waiter goes on only after the write.
 */
TEST_F(sched, wait_value_across_queues)
{
	struct ubuf m = { 0 };
	struct drm_vnpu_task w[2], p[3];
	uint32_t q1, so1, q2, so2;
	uint64_t s1, s2;

	if (self->engines < 2)
		SKIP(return, "needs two engines, have %ld", self->engines);
	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q1, &so1));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q2, &so2));
	/* Waiter: [0] >= 5, then [1] = time. */
	w[0] = t_wait(m.va, 5, DRM_VNPU_WAIT_GEQ, 5000 * NS_PER_MS);
	w[1] = t_ts(m.va + 8);
	/* Producer: spin, [2] = time, [0] = 5. */
	p[0] = t_spin(200 * NS_PER_MS);
	p[1] = t_ts(m.va + 16);
	p[2] = t_write(m.va, 5);

	ASSERT_EQ(0, submit(self->fd, q2, w, 2, &s2));
	sleep_ms(50);
	EXPECT_FALSE(point_signalled(self->fd, so2, s2));
	ASSERT_EQ(0, submit(self->fd, q1, p, 3, &s1));
	ASSERT_EQ(0, wait_point(self->fd, so2, s2, 15000));
	ASSERT_EQ(0, wait_point(self->fd, so1, s1, 15000));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q1, s1));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q2, s2));
	EXPECT_NE(0, m.p[2]);
	EXPECT_GE(m.p[1], m.p[2]) TH_LOG("waiter went on %lld ns before the write",
					 (long long)(m.p[2] - m.p[1]));
	ubuf_free(self->fd, &m);
}

/*
 * A file's WAIT_VALUE steps aside for the same file's jobs: with a waiter
 * on every engine, the job that releases them all still gets an engine
 * (before, it waited behind the waiters until they timed out).
 */
static __attribute__((noinline)) void
waiters_released_by_own_file(struct __test_metadata *_metadata,
			     int fd, long n, struct ubuf *mb)
{
	struct ubuf m = *mb;
	struct drm_vnpu_task w[2], p[64];
	uint32_t wq[64], wso[64], pq, pso;
	uint64_t ws[64], ps, start;
	long i;

	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, queue_create(fd, DRM_VNPU_PRIORITY_NORMAL,
					  &wq[i], &wso[i]));
		/* word i == 7, then word 64 + i = time; gives up after 8 s */
		w[0] = t_wait(m.va + 8 * i, 7, DRM_VNPU_WAIT_EQ, 8000 * NS_PER_MS);
		w[1] = t_ts(m.va + 8 * (64 + i));
		ASSERT_EQ(0, submit(fd, wq[i], w, 2, &ws[i]));
	}
	sleep_ms(100);	/* every waiter is on an engine, polling */
	for (i = 0; i < n; i++)
		EXPECT_EQ(DRM_VNPU_JOB_PENDING, job_state(fd, wq[i], ws[i]));
	ASSERT_EQ(0, queue_create(fd, DRM_VNPU_PRIORITY_NORMAL, &pq, &pso));
	for (i = 0; i < n; i++)
		p[i] = t_write(m.va + 8 * i, 7);
	start = now_ns();
	ASSERT_EQ(0, submit(fd, pq, p, n, &ps));
	ASSERT_EQ(0, wait_point(fd, pso, ps, 15000));
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, wait_point(fd, wso[i], ws[i], 15000));
		EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(fd, wq[i], ws[i]));
		EXPECT_NE(0, m.p[64 + i]);
	}
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(fd, pq, ps));
	/* released in well under the waiters' 8 s */
	EXPECT_LT(now_ns() - start, 4000 * NS_PER_MS);
}

TEST_F(sched, wait_value_yields_to_its_own_file)
{
	struct ubuf m = { 0 };

	ASSERT_LE(self->engines, 64);
	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	waiters_released_by_own_file(_metadata, self->fd, self->engines, &m);
	ubuf_free(self->fd, &m);
}

/* WAIT_VALUE for a value the host writes into a registered user page. */
TEST_F(sched, wait_value_from_host)
{
	struct ubuf m = { 0 };
	struct drm_vnpu_task w[2];
	uint32_t q, so;
	uint64_t seq, written;

	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	w[0] = t_wait(m.va, 0x1234, DRM_VNPU_WAIT_EQ, 10000 * NS_PER_MS);
	w[1] = t_ts(m.va + 8);
	ASSERT_EQ(0, submit(self->fd, q, w, 2, &seq));
	sleep_ms(200);
	EXPECT_FALSE(point_signalled(self->fd, so, seq));
	EXPECT_EQ(DRM_VNPU_JOB_PENDING, job_state(self->fd, q, seq));
	m.p[0] = 0x1233;	/* not equal yet */
	sleep_ms(50);
	EXPECT_FALSE(point_signalled(self->fd, so, seq));
	written = now_ns();
	__atomic_store_n(&m.p[0], 0x1234, __ATOMIC_SEQ_CST);
	ASSERT_EQ(0, wait_point(self->fd, so, seq, 10000));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q, seq));
	EXPECT_GE(m.p[1], written);
	ubuf_free(self->fd, &m);
}

TEST_HARNESS_MAIN
