// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every task type with its results read back: NOP, COPY (every placement
 * pair and size, 2D), FILL, TIMESTAMP, WRITE_VALUE, WAIT_VALUE (every
 * condition, released by the host), KERNEL (ADD) and SPIN; the largest
 * batch, objects unmapped under a running job and more objects than the
 * translation cache holds. Runs in the VM with vnpu.ko loaded.
 */
#include "vnpu_job_test_util.h"

#define MiB		(1ull << 20)

/* Index of the first byte of p[0..n) that is not c, or -1. */
static long first_not(const uint8_t *p, size_t n, uint8_t c)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != c)
			return i;
	return -1;
}

TEST(nop)
{
	struct fix *self = fix_setup(_metadata);
	static struct drm_vnpu_task many[1000];
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t = T_NOP();
	uint64_t seq = 0;
	int i;

	ASSERT_EQ(0, run_job(&self->q, &t, 1, NULL, 0, &st, &seq));
	EXPECT_EQ(1, seq);
	EXPECT_JOB_OK(st);
	EXPECT_EQ(0, st.task);
	EXPECT_EQ(0, st.fault_va);
	EXPECT_EQ(0, st.fault_access);
	EXPECT_EQ(0, st.fault_reason);
	EXPECT_EQ(0, st.reserved);

	for (i = 0; i < 1000; i++)
		many[i] = T_NOP();
	ASSERT_EQ(0, run_job(&self->q, many, 1000, NULL, 0, &st, &seq));
	EXPECT_EQ(2, seq);
	EXPECT_JOB_OK(st);
}

/* The largest batch runs every task, as a submit and as a command buffer. */
TEST(max_tasks_batch)
{
	struct fix *self = fix_setup(_metadata);
	const uint32_t n = DRM_VNPU_MAX_TASKS;
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task *t;
	uint32_t i, handle = 0;
	uint64_t seq = 0;
	struct buf b;

	t = calloc(n, sizeof(*t));
	ASSERT_NE(NULL, t);
	ASSERT_EQ(0, buf_create(self->fd, &b, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	memset(b.cpu, 0, 4096);
	for (i = 0; i < n; i++)
		t[i] = T_NOP();
	t[0] = T_WRITE(b.va, 1);
	t[n / 2] = T_WRITE(b.va + 8, 2);
	t[n - 1] = T_WRITE(b.va + 16, 3);
	ASSERT_EQ(0, run_job(&self->q, t, n, NULL, 0, &st, &seq));
	EXPECT_JOB_OK(st);
	EXPECT_EQ(1, buf_read_u64(&b, 0));
	EXPECT_EQ(2, buf_read_u64(&b, 8));
	EXPECT_EQ(3, buf_read_u64(&b, 16));

	memset(b.cpu, 0, 4096);
	ASSERT_EQ(0, cmdbuf_create(self->fd, t, n, NULL, 0, &handle));
	ASSERT_EQ(0, submit_cmdbuf(&self->q, handle, &seq));
	ASSERT_EQ(0, job_wait(&self->q, seq));
	ASSERT_EQ(0, job_status(&self->q, seq, &st));
	EXPECT_JOB_OK(st);
	EXPECT_EQ(1, buf_read_u64(&b, 0));
	EXPECT_EQ(2, buf_read_u64(&b, 8));
	EXPECT_EQ(3, buf_read_u64(&b, 16));
	free(t);
}

/*
 * Copy size bytes from offset 5 of a src_pl object to offset 13 of a
 * dst_pl object; check the copy and that nothing else of dst changed.
 */
static void copy_case(struct __test_metadata *_metadata, struct queue *q,
		      uint32_t src_pl, uint32_t dst_pl, uint64_t size)
{
	const uint64_t soff = 5, doff = 13;
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t;
	struct buf src, dst;
	uint8_t *want, *got;
	long bad;

	ASSERT_EQ(0, buf_create(q->fd, &src, size + soff + 64, src_pl, 0));
	ASSERT_EQ(0, buf_create(q->fd, &dst, size + doff + 4096, dst_pl, 0));
	want = malloc(src.size);
	got = malloc(dst.size);
	ASSERT_NE(NULL, want);
	ASSERT_NE(NULL, got);
	fill_random(want, src.size, size * 31 + src_pl * 7 + dst_pl);
	ASSERT_EQ(0, buf_write(&src, 0, want, src.size));
	ASSERT_EQ(0, buf_set(&dst, 0xee));

	t = T_COPY(src.va + soff, dst.va + doff, size);
	ASSERT_EQ(0, run_job(q, &t, 1, NULL, 0, &st, NULL));
	EXPECT_JOB_OK(st);

	ASSERT_EQ(0, buf_read(&dst, 0, got, dst.size));
	EXPECT_EQ(-1, first_not(got, doff, 0xee)) TH_LOG("before the destination");
	EXPECT_EQ(0, memcmp(got + doff, want + soff, size))
		TH_LOG("%u -> %u size %llu: data differs", src_pl, dst_pl,
		       (unsigned long long)size);
	bad = first_not(got + doff + size, dst.size - doff - size, 0xee);
	EXPECT_EQ(-1, bad) TH_LOG("%u -> %u size %llu: byte %ld after the end changed",
				  src_pl, dst_pl, (unsigned long long)size, bad);
	free(want);
	free(got);
	buf_destroy(&src);
	buf_destroy(&dst);
}

TEST(copy_placements_and_sizes)
{
	struct fix *self = fix_setup(_metadata);
	static const uint32_t pairs[][2] = {
		{ DRM_VNPU_PLACEMENT_DEVICE, DRM_VNPU_PLACEMENT_DEVICE },
		{ DRM_VNPU_PLACEMENT_DEVICE, DRM_VNPU_PLACEMENT_HOST },
		{ DRM_VNPU_PLACEMENT_HOST, DRM_VNPU_PLACEMENT_USER },
		{ DRM_VNPU_PLACEMENT_USER, DRM_VNPU_PLACEMENT_DEVICE },
	};
	static const uint64_t sizes[] = { 1, 63, 4096, MiB + 7 };
	unsigned int p, s;

	for (p = 0; p < 4; p++)
		for (s = 0; s < 4; s++)
			copy_case(_metadata, &self->q, pairs[p][0], pairs[p][1],
				  sizes[s]);
}

/* A copy within one object, to a later non-overlapping part. */
TEST(copy_within_one_object)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t;
	uint8_t want[8192], got[8192];
	struct buf b;

	ASSERT_EQ(0, buf_create(self->fd, &b, 8192, DRM_VNPU_PLACEMENT_DEVICE, 0));
	fill_random(want, sizeof(want), 99);
	ASSERT_EQ(0, buf_write(&b, 0, want, sizeof(want)));
	t = T_COPY(b.va + 1, b.va + 4097, 3000);
	ASSERT_EQ(0, run_job(&self->q, &t, 1, NULL, 0, &st, NULL));
	EXPECT_JOB_OK(st);
	memcpy(want + 4097, want + 1, 3000);
	ASSERT_EQ(0, buf_read(&b, 0, got, sizeof(got)));
	EXPECT_EQ(0, memcmp(want, got, sizeof(got)));
	buf_destroy(&b);
}

/*
 * A pitched copy of h rows of w bytes into a host object filled with 0x5a:
 * every row lands at its pitch, the gaps between rows and everything
 * around them stay 0x5a.
 */
static void copy_2d_case(struct __test_metadata *_metadata, struct queue *q,
			 uint64_t w, uint64_t h, uint64_t sp, uint64_t dp,
			 uint64_t soff, uint64_t doff)
{
	const uint64_t ssize = soff + h * sp + 64, dsize = doff + h * dp + 4096;
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t;
	uint8_t *src, *got;
	uint64_t row, i;
	struct buf s, d;

	src = malloc(ssize);
	got = malloc(dsize);
	ASSERT_TRUE(src && got);
	ASSERT_EQ(0, buf_create(q->fd, &s, ssize, DRM_VNPU_PLACEMENT_DEVICE, 0));
	ASSERT_EQ(0, buf_create(q->fd, &d, dsize, DRM_VNPU_PLACEMENT_HOST, 0));
	fill_random(src, ssize, w * h);
	ASSERT_EQ(0, buf_write(&s, 0, src, ssize));
	ASSERT_EQ(0, buf_set(&d, 0x5a));

	t = T_COPY_2D(s.va + soff, d.va + doff, sp, dp, w, h);
	ASSERT_EQ(0, run_job(q, &t, 1, NULL, 0, &st, NULL));
	EXPECT_JOB_OK(st);
	ASSERT_EQ(0, buf_read(&d, 0, got, dsize));

	for (i = 0; i < dsize; i++) {
		bool in_row = false;
		uint8_t want = 0x5a;

		if (i >= doff && (i - doff) / dp < h && (i - doff) % dp < w) {
			row = (i - doff) / dp;
			in_row = true;
			want = src[soff + row * sp + (i - doff) % dp];
		}
		if (got[i] != want) {
			EXPECT_EQ(want, got[i]) TH_LOG("%llux%llu: dst byte %llu (%s)",
				(unsigned long long)w, (unsigned long long)h,
				(unsigned long long)i, in_row ? "row" : "gap");
			break;
		}
	}
	free(src);
	free(got);
	buf_destroy(&s);
	buf_destroy(&d);
}

TEST(copy_2d_rows_and_gaps)
{
	struct fix *self = fix_setup(_metadata);

	copy_2d_case(_metadata, &self->q, 100, 20, 128, 160, 8, 24);
	/* Many short rows, odd sizes, pitches of either order. */
	copy_2d_case(_metadata, &self->q, 33, 300, 40, 48, 5, 3);
	copy_2d_case(_metadata, &self->q, 7, 129, 4096, 8, 1, 0);
	/* Pitch equal to width: one contiguous block. */
	copy_2d_case(_metadata, &self->q, 64, 64, 64, 64, 0, 0);
	/* One row. */
	copy_2d_case(_metadata, &self->q, 1000, 1, 1000, 1000, 3, 11);
}

/*
 * FILL of size bytes at offset off of a device object filled with 0xc3:
 * the low pattern_size bytes of the pattern in little-endian order, over
 * and over, and nothing outside the range.
 */
static void fill_case(struct __test_metadata *_metadata, struct queue *q,
		      uint64_t off, uint64_t size, uint32_t ps)
{
	const uint64_t pattern = 0x1122334455667788ull, bsize = off + size + 4096;
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t;
	uint8_t *got;
	uint64_t i;
	struct buf b;

	got = malloc(bsize);
	ASSERT_NE(NULL, got);
	ASSERT_EQ(0, buf_create(q->fd, &b, bsize, DRM_VNPU_PLACEMENT_DEVICE, 0));
	ASSERT_EQ(0, buf_set(&b, 0xc3));
	t = T_FILL(b.va + off, size, pattern, ps);
	ASSERT_EQ(0, run_job(q, &t, 1, NULL, 0, &st, NULL));
	EXPECT_JOB_OK(st);
	ASSERT_EQ(0, buf_read(&b, 0, got, bsize));
	EXPECT_EQ(-1, first_not(got, off, 0xc3));
	for (i = 0; i < size; i++) {
		uint8_t want = pattern >> (8 * (i % ps));

		if (got[off + i] != want) {
			EXPECT_EQ(want, got[off + i])
				TH_LOG("pattern size %u, size %llu, byte %llu", ps,
				       (unsigned long long)size,
				       (unsigned long long)i);
			break;
		}
	}
	EXPECT_EQ(-1, first_not(got + off + size, bsize - off - size, 0xc3))
		TH_LOG("pattern size %u wrote past the end", ps);
	free(got);
	buf_destroy(&b);
}

TEST(fill_pattern_sizes)
{
	struct fix *self = fix_setup(_metadata);
	uint32_t ps;

	for (ps = 1; ps <= 8; ps *= 2) {
		fill_case(_metadata, &self->q, 3, 4000, ps);
		fill_case(_metadata, &self->q, 0, ps, ps);
		/* Several of the engine's 256 KiB steps. */
		fill_case(_metadata, &self->q, 5, MiB + 24, ps);
	}
}

TEST(fill_size_not_multiple_of_pattern_einval)
{
	struct fix *self = fix_setup(_metadata);
	static const struct { uint64_t size; uint32_t ps; } bad[] = {
		{ 3, 2 }, { 6, 4 }, { 4097, 4 }, { 12, 8 }, { 4, 8 },
	};
	struct drm_vnpu_task t;
	uint64_t seq = 0;
	unsigned int i;
	struct buf b;

	ASSERT_EQ(0, buf_create(self->fd, &b, 8192, DRM_VNPU_PLACEMENT_DEVICE, 0));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t = T_FILL(b.va, bad[i].size, 0, bad[i].ps);
		EXPECT_EQ(-EINVAL, submit(&self->q, &t, 1, NULL, 0, &seq))
			TH_LOG("size %llu pattern size %u",
			       (unsigned long long)bad[i].size, bad[i].ps);
	}
	t = T_FILL(b.va, 4096, 0, 8);
	ASSERT_EQ(0, submit(&self->q, &t, 1, NULL, 0, &seq));
	EXPECT_EQ(1, seq);
	ASSERT_EQ(0, job_wait(&self->q, seq));
	buf_destroy(&b);
}

TEST(timestamps_ordered_and_in_window)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t[3];
	uint64_t before, after, a, b, c;
	struct buf buf;

	ASSERT_EQ(0, buf_create(self->fd, &buf, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	buf_set(&buf, 0);
	t[0] = T_TIMESTAMP(buf.va + 0);
	t[1] = T_SPIN(2 * NSEC_PER_MS);
	t[2] = T_TIMESTAMP(buf.va + 8);
	before = now_ns();
	ASSERT_EQ(0, run_job(&self->q, t, 3, NULL, 0, &st, NULL));
	EXPECT_JOB_OK(st);
	t[0] = T_TIMESTAMP(buf.va + 16);
	ASSERT_EQ(0, run_job(&self->q, t, 1, NULL, 0, &st, NULL));
	EXPECT_JOB_OK(st);
	after = now_ns();

	a = buf_read_u64(&buf, 0);
	b = buf_read_u64(&buf, 8);
	c = buf_read_u64(&buf, 16);
	EXPECT_LE(before, a);
	EXPECT_LE(a, b);
	EXPECT_GE(b - a, 2 * NSEC_PER_MS) TH_LOG("a 2 ms spin between the two");
	EXPECT_LE(b, c);
	EXPECT_LE(c, after);
	/* Nothing else written. */
	EXPECT_EQ(-1, first_not(buf.cpu + 24, 4096 - 24, 0));
	buf_destroy(&buf);
}

TEST(write_value)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t[2];
	struct buf b;

	ASSERT_EQ(0, buf_create(self->fd, &b, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	buf_set(&b, 0x77);
	t[0] = T_WRITE(b.va + 8, 0x0123456789abcdefull);
	t[1] = T_WRITE(b.va + 4088, ~0ull);
	ASSERT_EQ(0, run_job(&self->q, t, 2, NULL, 0, &st, NULL));
	EXPECT_JOB_OK(st);
	EXPECT_EQ(0x0123456789abcdefull, buf_read_u64(&b, 8));
	EXPECT_EQ(~0ull, buf_read_u64(&b, 4088));
	EXPECT_EQ(0xef, b.cpu[8]) TH_LOG("the value is stored little endian");
	EXPECT_EQ(-1, first_not(b.cpu, 8, 0x77));
	EXPECT_EQ(-1, first_not(b.cpu + 16, 4088 - 16, 0x77));
	buf_destroy(&b);
}

struct wait_case {
	uint32_t cond;
	uint64_t mem, value;
	bool met;
};

static const struct wait_case wait_cases[] = {
	{ DRM_VNPU_WAIT_EQ, 42, 42, true },
	{ DRM_VNPU_WAIT_EQ, 42, 43, false },
	{ DRM_VNPU_WAIT_GEQ, 43, 42, true },
	{ DRM_VNPU_WAIT_GEQ, 42, 42, true },
	{ DRM_VNPU_WAIT_GEQ, 41, 42, false },
	{ DRM_VNPU_WAIT_GEQ, 1ull << 63, 2, true },	/* unsigned */
	{ DRM_VNPU_WAIT_AND, 0x0f0, 0x010, true },
	{ DRM_VNPU_WAIT_AND, 0x0f0, 0x00f, false },
	{ DRM_VNPU_WAIT_NOR, 0x0f0, 0x00f, true },
	{ DRM_VNPU_WAIT_NOR, 0xffff0000ffff0000ull, 0x0000ffff0000ffffull, false },
	{ DRM_VNPU_WAIT_NOR, ~0ull, 0, false },
};

/* Satisfied waits pass; unsatisfied ones time out at the wait task. */
TEST(wait_value_conditions)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t[3];
	uint64_t seq, t0, dt;
	unsigned int i;
	struct buf b;

	ASSERT_EQ(0, buf_create(self->fd, &b, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	for (i = 0; i < sizeof(wait_cases) / sizeof(wait_cases[0]); i++) {
		const struct wait_case *c = &wait_cases[i];

		memset(b.cpu, 0, 4096);
		memcpy(b.cpu + 64, &c->mem, 8);
		t[0] = T_NOP();
		t[1] = T_WAIT(b.va + 64, c->value, c->cond, 20 * NSEC_PER_MS);
		t[2] = T_WRITE(b.va + 128, 1);
		t0 = now_ns();
		ASSERT_EQ(0, run_job(&self->q, t, 3, NULL, 0, &st, &seq));
		dt = now_ns() - t0;
		if (c->met) {
			EXPECT_EQ(DRM_VNPU_JOB_OK, st.state) TH_LOG("case %u", i);
			EXPECT_EQ(0, st.error) TH_LOG("case %u", i);
			EXPECT_EQ(1, buf_read_u64(&b, 128)) TH_LOG("case %u", i);
			continue;
		}
		EXPECT_EQ(DRM_VNPU_JOB_TIMEOUT, st.state) TH_LOG("case %u", i);
		EXPECT_EQ(-ETIME, st.error) TH_LOG("case %u", i);
		EXPECT_EQ(1, st.task) TH_LOG("case %u", i);
		EXPECT_EQ(DRM_VNPU_FAULT_NONE, st.fault_reason);
		EXPECT_GE(dt, 20 * NSEC_PER_MS) TH_LOG("case %u: timed out early", i);
		EXPECT_EQ(0, buf_read_u64(&b, 128)) TH_LOG("case %u: ran past the wait", i);
		/* The timeout put the queue in its error state. */
		EXPECT_EQ(-EBADFD, submit(&self->q, t, 1, NULL, 0, NULL));
		ASSERT_EQ(0, queue_reset(&self->q));
	}
	buf_destroy(&b);
}

/* A job waiting on memory is released by the host writing it. */
TEST(wait_value_released_by_host)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t[2];
	volatile uint64_t *mem;
	uint64_t seq = 0;
	struct buf b;

	ASSERT_EQ(0, buf_create(self->fd, &b, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	memset(b.cpu, 0, 4096);
	mem = (volatile uint64_t *)(b.cpu + 256);
	/* timeout_ns 0: the maximum, not "at once". */
	t[0] = T_WAIT(b.va + 256, 0xabc, DRM_VNPU_WAIT_EQ, 0);
	t[1] = T_WRITE(b.va + 512, 0x600d);
	ASSERT_EQ(0, submit(&self->q, t, 2, NULL, 0, &seq));
	usleep(100 * 1000);
	ASSERT_EQ(0, job_status(&self->q, seq, &st));
	EXPECT_EQ(DRM_VNPU_JOB_PENDING, st.state);
	EXPECT_EQ(0, buf_read_u64(&b, 512));
	*mem = 0xabb;		/* not yet */
	usleep(20 * 1000);
	ASSERT_EQ(0, job_status(&self->q, seq, &st));
	EXPECT_EQ(DRM_VNPU_JOB_PENDING, st.state);
	*mem = 0xabc;
	ASSERT_EQ(0, job_wait(&self->q, seq));
	ASSERT_EQ(0, job_status(&self->q, seq, &st));
	EXPECT_JOB_OK(st);
	EXPECT_EQ(0x600d, buf_read_u64(&b, 512));
	buf_destroy(&b);
}

/*
 * A mapping that goes away while a job runs: the engine's cached
 * translation of it is dropped, and the job's next access faults.
 */
TEST(unmap_during_job_faults_later_tasks)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t[4];
	volatile uint64_t *gate;
	uint64_t seq = 0, dst_va;
	struct buf dst, mark;

	ASSERT_EQ(0, buf_create(self->fd, &dst, 4096, DRM_VNPU_PLACEMENT_DEVICE, 0));
	ASSERT_EQ(0, buf_create(self->fd, &mark, 4096, DRM_VNPU_PLACEMENT_HOST, 0));
	memset(mark.cpu, 0, 4096);
	gate = (volatile uint64_t *)mark.cpu;
	dst_va = dst.va;
	t[0] = T_WRITE(dst.va, 1);
	t[1] = T_WAIT(mark.va, 1, DRM_VNPU_WAIT_EQ, 0);
	t[2] = T_WRITE(dst.va + 8, 2);
	t[3] = T_WRITE(mark.va + 512, 7);
	ASSERT_EQ(0, submit(&self->q, t, 4, NULL, 0, &seq));
	usleep(50 * 1000);
	ASSERT_EQ(0, job_status(&self->q, seq, &st));
	ASSERT_EQ(DRM_VNPU_JOB_PENDING, st.state);
	EXPECT_EQ(1, buf_read_u64(&dst, 0));
	buf_destroy(&dst);
	*gate = 1;
	ASSERT_EQ(0, job_wait(&self->q, seq));
	ASSERT_EQ(0, job_status(&self->q, seq, &st));
	EXPECT_EQ(DRM_VNPU_JOB_FAULT, st.state);
	EXPECT_EQ(-ENXIO, st.error);
	EXPECT_EQ(2, st.task);
	EXPECT_EQ(dst_va + 8, st.fault_va);
	EXPECT_EQ(DRM_VNPU_ACCESS_WRITE, st.fault_access);
	EXPECT_EQ(DRM_VNPU_FAULT_UNMAPPED, st.fault_reason);
	EXPECT_EQ(0, buf_read_u64(&mark, 512)) TH_LOG("the job went on");
	ASSERT_EQ(0, queue_reset(&self->q));
	buf_destroy(&mark);
}

/*
 * More objects in one job than an engine caches translations for: every
 * access still lands in its own object, whether its translation was
 * cached, replaced, or made again.
 */
TEST(more_objects_than_cached_translations)
{
	struct fix *self = fix_setup(_metadata);
	enum { NB = 12, ROUNDS = 3 };
	struct drm_vnpu_task t[NB * ROUNDS + NB];
	struct drm_vnpu_job_status st;
	struct buf b[NB];
	unsigned int i, r, n = 0;

	for (i = 0; i < NB; i++)
		ASSERT_EQ(0, buf_create(self->fd, &b[i], 4096,
					DRM_VNPU_PLACEMENT_DEVICE, 0));
	for (r = 0; r < ROUNDS; r++)
		for (i = 0; i < NB; i++)
			t[n++] = T_WRITE(b[i].va + 8 * r, 1000 * i + r);
	/* Each object's first 24 bytes go to the next one's offset 64. */
	for (i = 0; i < NB; i++)
		t[n++] = T_COPY(b[i].va, b[(i + 1) % NB].va + 64, 24);
	ASSERT_EQ(0, run_job(&self->q, t, n, NULL, 0, &st, NULL));
	EXPECT_JOB_OK(st);
	for (i = 0; i < NB; i++) {
		unsigned int from = (i + NB - 1) % NB;

		for (r = 0; r < ROUNDS; r++) {
			EXPECT_EQ(1000 * i + r, buf_read_u64(&b[i], 8 * r))
				TH_LOG("object %u round %u", i, r);
		}
		for (r = 0; r < ROUNDS; r++)
			EXPECT_EQ(1000 * from + r, buf_read_u64(&b[i], 64 + 8 * r))
				TH_LOG("object %u copied word %u", i, r);
	}
	for (i = 0; i < NB; i++)
		buf_destroy(&b[i]);
}

static void add_case(struct __test_metadata *_metadata, struct queue *q,
		     uint32_t dtype, uint32_t rank, const int64_t *shape)
{
	struct drm_vnpu_job_status st;
	uint64_t n = 1, bytes, i;
	uint32_t *a, *b, *want, *got;
	struct drm_vnpu_task t;
	struct buf ba, bb, bo;
	uint64_t args[64];
	uint8_t tail[64];
	uint32_t asz;

	for (i = 0; i < rank; i++)
		n *= shape[i];
	bytes = n * 4;
	a = malloc(bytes);
	b = malloc(bytes);
	want = malloc(bytes);
	got = malloc(bytes);
	ASSERT_TRUE(a && b && want && got);
	for (i = 0; i < n; i++) {
		if (dtype == DRM_VNPU_DTYPE_FLOAT) {
			float x = (float)i * 0.37f - 1000.0f, y = 1.0f / (float)(i + 3);

			memcpy(&a[i], &x, 4);
			memcpy(&b[i], &y, 4);
			x = x + y;
			memcpy(&want[i], &x, 4);
		} else {
			/* Around INT32_MAX/MIN, so sums wrap. */
			a[i] = 0x7fffff00u + (uint32_t)i * 7u;
			b[i] = (i & 1) ? 0x80000000u + (uint32_t)i : (uint32_t)i * 13u;
			want[i] = a[i] + b[i];
		}
	}
	ASSERT_EQ(0, buf_create(q->fd, &ba, bytes, DRM_VNPU_PLACEMENT_DEVICE, 0));
	ASSERT_EQ(0, buf_create(q->fd, &bb, bytes, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, buf_create(q->fd, &bo, bytes + 64, DRM_VNPU_PLACEMENT_DEVICE, 0));
	ASSERT_EQ(0, buf_write(&ba, 0, a, bytes));
	ASSERT_EQ(0, buf_write(&bb, 0, b, bytes));
	ASSERT_EQ(0, buf_set(&bo, 0xab));

	memset(args, 0, sizeof(args));
	asz = add_args(args, 8, dtype, rank, shape, ba.va, bb.va, bo.va);
	t = T_KERNEL(DRM_VNPU_OP_ADD, 8, asz);
	ASSERT_EQ(0, run_job(q, &t, 1, args, 8 + asz, &st, NULL));
	EXPECT_JOB_OK(st);
	ASSERT_EQ(0, buf_read(&bo, 0, got, bytes));
	for (i = 0; i < n; i++)
		if (got[i] != want[i]) {
			EXPECT_EQ(want[i], got[i]) TH_LOG("dtype %u element %llu",
				dtype, (unsigned long long)i);
			break;
		}
	ASSERT_EQ(0, buf_read(&bo, bytes, tail, 64));
	EXPECT_EQ(-1, first_not(tail, 64, 0xab)) TH_LOG("wrote past the output");
	free(a);
	free(b);
	free(want);
	free(got);
	buf_destroy(&ba);
	buf_destroy(&bb);
	buf_destroy(&bo);
}

TEST(kernel_add_fp32)
{
	struct fix *self = fix_setup(_metadata);
	const int64_t flat[] = { 100000 };
	const int64_t shape3[] = { 10, 25, 400 };

	add_case(_metadata, &self->q, DRM_VNPU_DTYPE_FLOAT, 1, flat);
	add_case(_metadata, &self->q, DRM_VNPU_DTYPE_FLOAT, 3, shape3);
}

TEST(kernel_add_int32_wraps)
{
	struct fix *self = fix_setup(_metadata);
	const int64_t flat[] = { 100000 };
	const int64_t shape2[] = { 250, 400 };

	add_case(_metadata, &self->q, DRM_VNPU_DTYPE_INT32, 1, flat);
	add_case(_metadata, &self->q, DRM_VNPU_DTYPE_INT32, 2, shape2);
}

/*
 * Two KERNEL tasks of one batch use their own arguments of one block:
 * int32 at offset 0, fp32 at offset ADD_ARGS_SIZE; the second reads the
 * first one's output.
 */
TEST(kernel_tasks_share_an_argument_block)
{
	struct fix *self = fix_setup(_metadata);
	const int64_t shape[2] = { 8, 128 };
	const uint32_t n = 8 * 128;
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t[2];
	uint32_t a[1024], b[1024], sum[1024], got[1024], i;
	uint64_t args[2 * ADD_ARGS_SIZE / 8];
	struct buf ba, bb, bs, bd;
	uint32_t off;

	for (i = 0; i < n; i++) {
		a[i] = i * 3;
		b[i] = 0x3f800000u;		/* 1.0f, and an int32 */
		sum[i] = a[i] + b[i];
	}
	ASSERT_EQ(0, buf_create(self->fd, &ba, 4 * n, DRM_VNPU_PLACEMENT_DEVICE, 0));
	ASSERT_EQ(0, buf_create(self->fd, &bb, 4 * n, DRM_VNPU_PLACEMENT_USER, 0));
	ASSERT_EQ(0, buf_create(self->fd, &bs, 4 * n, DRM_VNPU_PLACEMENT_DEVICE, 0));
	ASSERT_EQ(0, buf_create(self->fd, &bd, 4 * n, DRM_VNPU_PLACEMENT_HOST, 0));
	ASSERT_EQ(0, buf_write(&ba, 0, a, 4 * n));
	ASSERT_EQ(0, buf_write(&bb, 0, b, 4 * n));

	off = add_args(args, 0, DRM_VNPU_DTYPE_INT32, 2, shape, ba.va, bb.va, bs.va);
	add_args(args, off, DRM_VNPU_DTYPE_FLOAT, 2, shape, bs.va, bb.va, bd.va);
	t[0] = T_KERNEL(DRM_VNPU_OP_ADD, 0, off);
	t[1] = T_KERNEL(DRM_VNPU_OP_ADD, off, ADD_ARGS_SIZE);
	ASSERT_EQ(0, run_job(&self->q, t, 2, args, sizeof(args), &st, NULL));
	EXPECT_JOB_OK(st);

	ASSERT_EQ(0, buf_read(&bs, 0, got, 4 * n));
	EXPECT_EQ(0, memcmp(sum, got, 4 * n)) TH_LOG("int32 sum");
	ASSERT_EQ(0, buf_read(&bd, 0, got, 4 * n));
	for (i = 0; i < n; i++) {
		float x, y;

		memcpy(&x, &sum[i], 4);
		x = x + 1.0f;
		memcpy(&y, &got[i], 4);
		if (memcmp(&x, &y, 4)) {
			EXPECT_EQ(0, memcmp(&x, &y, 4)) TH_LOG("fp32 element %u", i);
			break;
		}
	}
}

TEST(spin_takes_its_time)
{
	struct fix *self = fix_setup(_metadata);
	struct drm_vnpu_job_status st;
	struct drm_vnpu_task t = T_SPIN(50 * NSEC_PER_MS);
	uint64_t t0, dt;

	t0 = now_ns();
	ASSERT_EQ(0, run_job(&self->q, &t, 1, NULL, 0, &st, NULL));
	dt = now_ns() - t0;
	EXPECT_JOB_OK(st);
	EXPECT_GE(dt, 50 * NSEC_PER_MS);
}

TEST_HARNESS_MAIN
