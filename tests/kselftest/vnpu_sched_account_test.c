// SPDX-License-Identifier: GPL-2.0-only
/*
 * Engine time accounting: a file's busy time in fdinfo and the engines' in
 * debugfs. Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_sched_test_util.h"

/* drm-engine-vnpu of fd in /proc/self/fdinfo, in ns; -1 when missing. */
static long long fdinfo_engine_ns(int fd)
{
	char path[64], line[256];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "drm-engine-vnpu:", 16))
			v = strtoll(line + 16, NULL, 10);
	fclose(f);
	return v;
}

/*
 * A spin shows up in the file's fdinfo engine time, in the engines'
 * busy time and job count, and in the queue's debugfs line.
 */
TEST_F(sched, engine_time_accounting)
{
	struct engine_sums e0, e1;
	struct drm_vnpu_task t = t_spin(200 * NS_PER_MS);
	struct queue_line ql;
	uint32_t q, so;
	uint64_t seq;
	long long f0, f1;

	ASSERT_EQ(0, queue_create(self->fd, DRM_VNPU_PRIORITY_HIGH, &q, &so));
	f0 = fdinfo_engine_ns(self->fd);
	ASSERT_GE(f0, 0) TH_LOG("no drm-engine-vnpu in fdinfo");
	ASSERT_EQ(0, engines_read(self->dir, &e0));
	ASSERT_EQ(self->engines, e0.engines);
	ASSERT_EQ(0, queue_line_read(self->dir, getpid(), q, &ql));
	EXPECT_EQ(0, ql.submitted);
	EXPECT_EQ(0, ql.completed);

	ASSERT_EQ(0, submit(self->fd, q, &t, 1, &seq));
	ASSERT_EQ(0, queue_line_read(self->dir, getpid(), q, &ql));
	EXPECT_EQ(1, ql.submitted);
	ASSERT_EQ(0, wait_point(self->fd, so, seq, 10000));

	f1 = fdinfo_engine_ns(self->fd);
	ASSERT_EQ(0, engines_read(self->dir, &e1));
	EXPECT_GE(f1 - f0, 200 * NS_PER_MS);
	EXPECT_LT(f1 - f0, 2000 * NS_PER_MS);
	EXPECT_GE(e1.busy_ns - e0.busy_ns, 200 * NS_PER_MS);
	EXPECT_EQ(e0.jobs + 1, e1.jobs);
	EXPECT_EQ(e0.resets, e1.resets);
	EXPECT_GT(e1.progress, e0.progress);
	ASSERT_EQ(0, queue_line_read(self->dir, getpid(), q, &ql));
	EXPECT_EQ(1, ql.submitted);
	EXPECT_EQ(1, ql.completed);
	EXPECT_STREQ("ok", ql.state);
	EXPECT_STREQ("high", ql.priority);
}

TEST_HARNESS_MAIN
