// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scheduling order: 1000 jobs of a queue in order, queues side by side on
 * all engines, one queue's jobs one after the other, and a high-priority
 * job overtaking queued low ones. Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_sched_test_util.h"

#define ORDER_JOBS 1000

/*
 * 1000 jobs back to back in one queue: consecutive sequence numbers, each
 * one ran (its value is there), they ran in order (timestamps), and the
 * queue's timeline ends at the last one.
 */
TEST_F_TIMEOUT(sched, queue_runs_1000_jobs_in_order, 120)
{
	struct ubuf vals = { 0 }, ts = { 0 };
	struct drm_vnpu_task t[2];
	struct queue_line ql;
	uint32_t q, so;
	uint64_t seq = 0, point;
	long long failed0;
	int i, bad = 0, first_bad = -1;

	ASSERT_EQ(0, ubuf_create(self->fd, ORDER_JOBS * 8, &vals));
	ASSERT_EQ(0, ubuf_create(self->fd, ORDER_JOBS * 8, &ts));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	failed0 = stat_read(self->dir, "jobs_failed");

	for (i = 0; i < ORDER_JOBS; i++) {
		t[0] = t_write(vals.va + 8 * i, 0x1000 + i);
		t[1] = t_ts(ts.va + 8 * i);
		ASSERT_EQ(0, submit(self->fd, q, t, 2, &seq)) TH_LOG("job %d", i);
		ASSERT_EQ((uint64_t)i + 1, seq);
	}
	ASSERT_EQ(0, wait_point(self->fd, so, ORDER_JOBS, 90000));
	ASSERT_EQ(0, query_point(self->fd, so, 0, &point));
	EXPECT_EQ(ORDER_JOBS, point);

	for (i = 0; i < ORDER_JOBS; i++) {
		if (vals.p[i] == 0x1000 + (uint64_t)i && ts.p[i] &&
		    (!i || ts.p[i] >= ts.p[i - 1]))
			continue;
		if (!bad++)
			first_bad = i;
	}
	EXPECT_EQ(0, bad) TH_LOG("%d bad jobs, first %d: value 0x%llx ts %llu prev ts %llu",
				 bad, first_bad,
				 (unsigned long long)vals.p[first_bad],
				 (unsigned long long)ts.p[first_bad],
				 first_bad > 0 ? (unsigned long long)ts.p[first_bad - 1] : 0);

	/* The last DRM_VNPU_STATUS_HISTORY jobs are remembered, all OK. */
	for (i = ORDER_JOBS - DRM_VNPU_STATUS_HISTORY + 1; i <= ORDER_JOBS; i++)
		ASSERT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q, i)) TH_LOG("seq %d", i);
	EXPECT_EQ(-ENODATA, job_state(self->fd, q, 1));
	EXPECT_EQ(failed0, stat_read(self->dir, "jobs_failed"));

	ASSERT_EQ(0, queue_line_read(self->dir, getpid(), q, &ql));
	EXPECT_EQ(ORDER_JOBS, ql.submitted);
	EXPECT_EQ(ORDER_JOBS, ql.completed);
	EXPECT_STREQ("ok", ql.state);
	EXPECT_STREQ("normal", ql.priority);
	ubuf_free(self->fd, &vals);
	ubuf_free(self->fd, &ts);
}

/* One queue per engine: they all run side by side. */
TEST_F(sched, queues_run_concurrently_on_all_engines)
{
	const uint64_t spin = CONC_SPIN_MS * NS_PER_MS;
	const int n = self->engines;
	struct ubuf ts = { 0 };
	uint64_t wall;
	int i;

	if (n < 2)
		SKIP(return, "needs two engines, have %d", n);
	ASSERT_LE(n, 64);
	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &ts));
	ASSERT_EQ(0, run_spins(self->fd, n, ts.p, ts.va, &wall));
	for (i = 0; i < n; i++)
		EXPECT_GE(ts.p[2 * i + 1] - ts.p[2 * i], spin);
	/* Every spin overlaps every other ... */
	EXPECT_GT(0, spins_apart(ts.p, n)) TH_LOG("the last spin started %lld ms after the first ended",
						 (long long)spins_apart(ts.p, n) / (long long)NS_PER_MS);
	/* ... and all are done well before two in a row would be. */
	EXPECT_LT(wall, spin * 16 / 10) TH_LOG("%d spins of %u ms took %llu ms", n,
					      CONC_SPIN_MS,
					      (unsigned long long)(wall / NS_PER_MS));
	ubuf_free(self->fd, &ts);
}

/* Two jobs of one queue run one after the other. */
TEST_F(sched, one_queue_runs_jobs_serially)
{
	struct ubuf ts = { 0 };
	struct drm_vnpu_task a[3], b[3];
	uint32_t q, so;
	uint64_t seq, t0, wall;
	const uint64_t spin = CONC_SPIN_MS * NS_PER_MS;

	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &ts));
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_NORMAL, &q, &so));
	spin_job(a, ts.va, spin);
	spin_job(b, ts.va + 16, spin);

	t0 = now_ns();
	ASSERT_EQ(0, submit(self->fd, q, a, 3, &seq));
	ASSERT_EQ(0, submit(self->fd, q, b, 3, &seq));
	ASSERT_EQ(2, seq);
	ASSERT_EQ(0, wait_point(self->fd, so, 2, 10000));
	wall = now_ns() - t0;

	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q, 1));
	EXPECT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q, 2));
	/* The second started after the first ended. */
	EXPECT_GE(ts.p[2], ts.p[1]);
	EXPECT_GE(wall, 2 * spin);
	EXPECT_LT(wall, 3 * spin) TH_LOG("two %u ms spins took %llu ms",
					 CONC_SPIN_MS,
					 (unsigned long long)(wall / NS_PER_MS));
	ubuf_free(self->fd, &ts);
}

#define PRIO_FILL_MS	500

#define PRIO_LOW_MS	200

/*
 * Every engine busy with a long low-priority spin, more low-priority jobs
 * queued on other queues, then one high-priority job: when an engine comes
 * free the high job goes first. Only the first low job of another engine
 * may start before it (that engine may come free a little earlier); were
 * priorities ignored, the high job would wait for the low jobs queued
 * before it on its engine.
 */
TEST_F(sched, high_priority_overtakes_queued_low)
{
	const int e = self->engines, k = 2 * self->engines;
	struct ubuf m = { 0 };
	struct drm_vnpu_task t[3];
	uint32_t q[3 * 64 + 1], so[3 * 64 + 1];
	uint64_t seq[3 * 64 + 1], fill_end_max = 0, fill_end_min = ~0ULL, h;
	int i, n = 0, before = 0;

	ASSERT_LE(e, 64);
	ASSERT_EQ(0, ubuf_create(self->fd, 4096, &m));
	/* m: [0, 2e) fill start/end, [2e, 2e + k) low starts, [2e + k] high */
	for (i = 0; i < e; i++, n++) {
		ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_LOW, &q[n], &so[n]));
		spin_job(t, m.va + 16 * i, PRIO_FILL_MS * NS_PER_MS);
		ASSERT_EQ(0, submit(self->fd, q[n], t, 3, &seq[n]));
	}
	/* Every engine is spinning before anything else is queued. */
	for (i = 0; i < e; i++)
		ASSERT_EQ(0, wait_nonzero(&m.p[2 * i], 5000)) TH_LOG("fill %d did not start", i);
	for (i = 0; i < k; i++, n++) {
		ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_LOW, &q[n], &so[n]));
		t[0] = t_ts(m.va + 8 * (2 * e + i));
		t[1] = t_spin(PRIO_LOW_MS * NS_PER_MS);
		ASSERT_EQ(0, submit(self->fd, q[n], t, 2, &seq[n]));
	}
	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_HIGH, &q[n], &so[n]));
	t[0] = t_ts(m.va + 8 * (2 * e + k));
	ASSERT_EQ(0, submit(self->fd, q[n], t, 1, &seq[n]));
	n++;

	ASSERT_EQ(0, wait_points(self->fd, so, seq, n, 30000,
				 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL));
	for (i = 0; i < n; i++)
		ASSERT_EQ(DRM_VNPU_JOB_OK, job_state(self->fd, q[i], seq[i])) TH_LOG("job %d", i);
	for (i = 0; i < e; i++) {
		if (m.p[2 * i + 1] > fill_end_max)
			fill_end_max = m.p[2 * i + 1];
		if (m.p[2 * i + 1] < fill_end_min)
			fill_end_min = m.p[2 * i + 1];
	}
	h = m.p[2 * e + k];
	for (i = 0; i < k; i++)
		if (m.p[2 * e + i] < h)
			before++;
	/* It waited for an engine, then went first. */
	EXPECT_GE(h, fill_end_min);
	EXPECT_LE(before, e - 1) TH_LOG("%d of %d queued low jobs started before the high one",
					before, k);
	EXPECT_LT(h, fill_end_max + PRIO_LOW_MS * NS_PER_MS / 2)
		TH_LOG("high job started %lld ms after the last engine came free",
		       (long long)(h - fill_end_max) / (long long)NS_PER_MS);
	ubuf_free(self->fd, &m);
}

TEST_HARNESS_MAIN
