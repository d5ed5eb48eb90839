// SPDX-License-Identifier: GPL-2.0-only
/*
 * The batch buffer cache: buffers reused and freed with their file, the
 * cache bounded by slots, size and bytes, and the buffer of a refused
 * batch reused. Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_sched_test_util.h"

/* 100 tasks: a 6400-byte array, in the 8 KiB class. */
#define BC_TASKS	100

#define BC_TASK_CLASS	8192

/* An argument block of 20000 bytes, in the 32 KiB class. */
#define BC_ARGS		20000

#define BC_ARGS_CLASS	32768

/*
 * Buffers a file keeps (VNPU_BUFCACHE_SLOTS), the largest class kept and
 * the most bytes a file keeps (VNPU_BUFCACHE_BYTES).
 */
#define BC_SLOTS	32

#define BC_MAX		(1024 * 1024)

#define BC_BYTES	(4 * BC_MAX)

/* Batches alive at once: more than the cache can keep. */
#define BC_ALIVE	(BC_SLOTS + 4)

struct bc_stats {
	long long hits, misses, bytes;
};

static void bc_read(const char *dir, struct bc_stats *b)
{
	b->hits = stat_read(dir, "bufcache_hits");
	b->misses = stat_read(dir, "bufcache_misses");
	b->bytes = stat_read(dir, "bufcache_bytes");
}

/*
 * A new file with a queue and a user buffer of size bytes, once no job of
 * the device is alive; b0 gets the cache's counts then.
 */
static int bc_file_open(const char *node, const char *dir, size_t size,
			int *fd, struct ubuf *m, uint32_t *q, uint32_t *so,
			struct bc_stats *b0)
{
	int ret;

	*fd = open(node, O_RDWR | O_CLOEXEC);
	if (*fd < 0)
		return -errno;
	ret = ubuf_create(*fd, size, m);
	if (!ret)
		ret = queue_create(*fd, DRM_VNPU_PRIORITY_NORMAL, q, so);
	if (!ret)
		ret = wait_jobs_alive_zero(dir, 5000);
	bc_read(dir, b0);
	if (!ret && (b0->hits < 0 || b0->misses < 0 || b0->bytes < 0))
		ret = -ENOENT;	/* no bufcache_* lines in debugfs stats */
	return ret;
}

/* Poll until the cached bytes are back to want; the last value read. */
static long long bc_wait_bytes(const char *dir, long long want)
{
	uint64_t end = now_ns() + 5000 * NS_PER_MS;
	long long v;

	while ((v = stat_read(dir, "bufcache_bytes")) != want && now_ns() < end)
		sleep_ms(10);
	return v;
}

/*
 * Ten batches of 100 tasks with a 20000-byte argument block, one after
 * the other on a new file: the first allocates a task array and an
 * argument block, the other nine take the same two buffers over; each
 * round's values are written (a reused buffer holds the new batch, not
 * the old one). The two buffers stay cached until the file goes.
 */
TEST_F(sched, batch_buffers_reused_then_freed_with_file)
{
	static uint64_t argblk[BC_ARGS / 8];
	static struct drm_vnpu_task t[BC_TASKS];
	struct bc_stats b0, b1;
	struct ubuf vals = { 0 };
	uint32_t q, so;
	uint64_t seq;
	int fd, r, i, bad = 0;

	ASSERT_EQ(0, bc_file_open(self->node, self->dir, BC_TASKS * 8, &fd,
				  &vals, &q, &so, &b0));

	for (r = 0; r < 10; r++) {
		for (i = 0; i < BC_TASKS; i++)
			t[i] = t_write(vals.va + 8 * i, ((uint64_t)r << 32) + i);
		memset(argblk, r, sizeof(argblk));
		ASSERT_EQ(0, submit_args(fd, q, t, BC_TASKS, argblk, BC_ARGS, &seq));
		ASSERT_EQ(0, wait_point(fd, so, seq, 5000));
		/* The job, and with it the batch, is freed after it signals. */
		ASSERT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
		for (i = 0; i < BC_TASKS; i++)
			bad += vals.p[i] != ((uint64_t)r << 32) + i;
	}
	EXPECT_EQ(0, bad);
	bc_read(self->dir, &b1);
	EXPECT_EQ(2, b1.misses - b0.misses);
	EXPECT_EQ(18, b1.hits - b0.hits);
	EXPECT_EQ(BC_TASK_CLASS + BC_ARGS_CLASS, b1.bytes - b0.bytes);

	ubuf_free(fd, &vals);
	close(fd);
	EXPECT_EQ(b0.bytes, bc_wait_bytes(self->dir, b0.bytes));
}

/*
 * Which buffers are kept: 36 batches alive at once (held behind a job
 * that waits for a value) allocate 36 task arrays, of which a file keeps
 * 32 once they end; a batch too small for the cache (3 tasks)
 * and a task array above the largest class (16400 tasks, just over
 * 1 MiB) are neither counted nor kept; the next 100-task batch takes a
 * kept array.
 */
TEST_F(sched, batch_buffer_cache_bounded_by_slots_and_size)
{
	static struct drm_vnpu_task t[BC_TASKS];
	struct drm_vnpu_task w, *big;
	struct bc_stats b0, b1;
	struct ubuf m = { 0 };
	uint64_t seq, last = 0;
	uint32_t q, so;
	int fd, j, nbig = BC_MAX / sizeof(*big) + 16;

	ASSERT_EQ(0, bc_file_open(self->node, self->dir, 4096, &fd, &m, &q,
				  &so, &b0));

	w = t_wait(m.va, 1, DRM_VNPU_WAIT_EQ, 10000 * NS_PER_MS);
	ASSERT_EQ(0, submit(fd, q, &w, 1, NULL));
	for (j = 0; j < BC_TASKS; j++)
		t[j] = t_write(m.va + 8 + 8 * (j % 8), j);
	for (j = 0; j < BC_ALIVE; j++)
		ASSERT_EQ(0, submit(fd, q, t, BC_TASKS, &last));
	bc_read(self->dir, &b1);
	EXPECT_EQ(BC_ALIVE, b1.misses - b0.misses);
	EXPECT_EQ(0, b1.hits - b0.hits);
	m.p[0] = 1;
	ASSERT_EQ(0, wait_point(fd, so, last, 10000));
	ASSERT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	bc_read(self->dir, &b1);
	EXPECT_EQ(BC_SLOTS * BC_TASK_CLASS, b1.bytes - b0.bytes);

	/* 3 tasks (192 bytes), then a task array just over 1 MiB: not cached. */
	ASSERT_EQ(0, submit(fd, q, t, 3, &seq));
	big = calloc(nbig, sizeof(*big));
	ASSERT_NE(NULL, big);
	for (j = 0; j < nbig; j++)
		big[j] = t_write(m.va + 8 + 8 * (j % 8), j);
	ASSERT_EQ(0, submit(fd, q, big, nbig, &seq));
	ASSERT_EQ(0, wait_point(fd, so, seq, 10000));
	ASSERT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	free(big);
	bc_read(self->dir, &b1);
	EXPECT_EQ(BC_ALIVE, b1.misses - b0.misses);
	EXPECT_EQ(0, b1.hits - b0.hits);
	EXPECT_EQ(BC_SLOTS * BC_TASK_CLASS, b1.bytes - b0.bytes);
	EXPECT_EQ((uint64_t)nbig - 1, m.p[1 + (nbig - 1) % 8]);

	ASSERT_EQ(0, submit(fd, q, t, BC_TASKS, &seq));
	ASSERT_EQ(0, wait_point(fd, so, seq, 10000));
	ASSERT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	bc_read(self->dir, &b1);
	EXPECT_EQ(1, b1.hits - b0.hits);
	EXPECT_EQ(BC_ALIVE, b1.misses - b0.misses);
	EXPECT_EQ(BC_SLOTS * BC_TASK_CLASS, b1.bytes - b0.bytes);

	ubuf_free(fd, &m);
	close(fd);
	EXPECT_EQ(b0.bytes, bc_wait_bytes(self->dir, b0.bytes));
}

/*
 * The byte budget: six batches alive at once, each with a 1 MiB argument
 * block (the largest class), leave four blocks cached once they end
 * (4 MiB, the most a file keeps); the next such batch takes one over.
 * 3-task arrays are below the smallest class and play no part.
 */
TEST_F(sched, batch_buffer_cache_bounded_by_bytes)
{
	static struct drm_vnpu_task t[3];
	struct drm_vnpu_task w;
	struct bc_stats b0, b1;
	struct ubuf m = { 0 };
	uint64_t seq, last = 0;
	uint32_t q, so;
	void *args;
	int fd, j;

	ASSERT_EQ(0, bc_file_open(self->node, self->dir, 4096, &fd, &m, &q,
				  &so, &b0));
	args = calloc(1, BC_MAX);
	ASSERT_NE(NULL, args);
	for (j = 0; j < 3; j++)
		t[j] = t_write(m.va + 8 + 8 * j, j + 1);

	w = t_wait(m.va, 1, DRM_VNPU_WAIT_EQ, 10000 * NS_PER_MS);
	ASSERT_EQ(0, submit(fd, q, &w, 1, NULL));
	for (j = 0; j < 6; j++)
		ASSERT_EQ(0, submit_args(fd, q, t, 3, args, BC_MAX, &last));
	bc_read(self->dir, &b1);
	EXPECT_EQ(6, b1.misses - b0.misses);
	m.p[0] = 1;
	ASSERT_EQ(0, wait_point(fd, so, last, 10000));
	ASSERT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	bc_read(self->dir, &b1);
	EXPECT_EQ(BC_BYTES, b1.bytes - b0.bytes);
	EXPECT_EQ(0, b1.hits - b0.hits);

	ASSERT_EQ(0, submit_args(fd, q, t, 3, args, BC_MAX, &seq));
	ASSERT_EQ(0, wait_point(fd, so, seq, 10000));
	ASSERT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	bc_read(self->dir, &b1);
	EXPECT_EQ(1, b1.hits - b0.hits);
	EXPECT_EQ(6, b1.misses - b0.misses);
	EXPECT_EQ(BC_BYTES, b1.bytes - b0.bytes);
	EXPECT_EQ(3, m.p[3]);
	free(args);

	ubuf_free(fd, &m);
	close(fd);
	EXPECT_EQ(b0.bytes, bc_wait_bytes(self->dir, b0.bytes));
}

/*
 * A batch that fails validation gives its buffers back like any other:
 * a bad task after a good copy-in leaves nothing allocated for good, and
 * the next batch of the class reuses the buffer.
 */
TEST_F(sched, batch_buffer_of_rejected_batch_reused)
{
	static struct drm_vnpu_task t[BC_TASKS];
	struct bc_stats b0, b1;
	struct ubuf m = { 0 };
	uint32_t q, so;
	uint64_t seq;
	int fd, j;

	ASSERT_EQ(0, bc_file_open(self->node, self->dir, 4096, &fd, &m, &q,
				  &so, &b0));
	for (j = 0; j < BC_TASKS; j++)
		t[j] = t_write(m.va + 8 * (j % 8), j);
	t[BC_TASKS - 1].type = 0xffff;
	EXPECT_EQ(-EINVAL, submit(fd, q, t, BC_TASKS, NULL));
	bc_read(self->dir, &b1);
	EXPECT_EQ(1, b1.misses - b0.misses);
	EXPECT_EQ(BC_TASK_CLASS, b1.bytes - b0.bytes);

	t[BC_TASKS - 1].type = DRM_VNPU_TASK_WRITE_VALUE;
	ASSERT_EQ(0, submit(fd, q, t, BC_TASKS, &seq));
	ASSERT_EQ(0, wait_point(fd, so, seq, 10000));
	EXPECT_EQ(BC_TASKS - 1, m.p[(BC_TASKS - 1) % 8]);
	ASSERT_EQ(0, wait_jobs_alive_zero(self->dir, 5000));
	bc_read(self->dir, &b1);
	EXPECT_EQ(1, b1.misses - b0.misses);
	EXPECT_EQ(1, b1.hits - b0.hits);
	EXPECT_EQ(BC_TASK_CLASS, b1.bytes - b0.bytes);

	ubuf_free(fd, &m);
	close(fd);
	EXPECT_EQ(b0.bytes, bc_wait_bytes(self->dir, b0.bytes));
}

TEST_HARNESS_MAIN
