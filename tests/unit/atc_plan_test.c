// SPDX-License-Identifier: MIT
/*
 * Host tests of atc's arena planner (lib/compile/plan.c): reuse of dead
 * buffers, overlapping lifetimes kept apart, views sharing memory,
 * in-place chains, in place refused while the input lives on, and a
 * property test over random interval sets (no two live buffers overlap,
 * arena >= lower bound, naive = sum of sizes).
 */
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "kselftest_harness.h"

static struct plan_buf buf(uint64_t size, int first, int last)
{
	struct plan_buf b = { .size = size, .first = first, .last = last,
			      .alias = -1, .inplace = { -1, -1 } };

	return b;
}

static int overlap_mem(const struct plan_buf *a, const struct plan_buf *b)
{
	uint64_t sa = (a->size + 63) & ~63ull, sb = (b->size + 63) & ~63ull;

	return a->offset < b->offset + sb && b->offset < a->offset + sa;
}

static int overlap_time(const struct plan_buf *a, const struct plan_buf *b)
{
	return a->first <= b->last && b->first <= a->last;
}

TEST(disjoint_lifetimes_share_memory)
{
	/* a chain: t0 writes A, t1 reads A writes B, t2 reads B writes C */
	struct plan_buf b[3] = { buf(1000, 0, 1), buf(1000, 1, 2), buf(1000, 2, 3) };
	struct plan_stats st;

	ASSERT_EQ(0, plan_arena(b, 3, &st));
	EXPECT_EQ(3 * 1024, st.naive_size);
	/* A and C never live together: two buffers are enough */
	EXPECT_EQ(2 * 1024, st.arena_size);
	EXPECT_EQ(2 * 1024, st.lower_bound);
	EXPECT_EQ(b[0].offset, b[2].offset);
	EXPECT_NE(b[0].offset, b[1].offset);
	EXPECT_EQ(0, st.inplace);
}

TEST(overlapping_lifetimes_kept_apart)
{
	struct plan_buf b[3] = { buf(64, 0, 5), buf(128, 1, 4), buf(192, 2, 3) };
	struct plan_stats st;

	ASSERT_EQ(0, plan_arena(b, 3, &st));
	EXPECT_EQ(384, st.arena_size);
	EXPECT_EQ(384, st.lower_bound);
	EXPECT_FALSE(overlap_mem(&b[0], &b[1]));
	EXPECT_FALSE(overlap_mem(&b[0], &b[2]));
	EXPECT_FALSE(overlap_mem(&b[1], &b[2]));
	EXPECT_EQ(0, b[0].offset % PLAN_ALIGN);
	EXPECT_EQ(0, b[1].offset % PLAN_ALIGN);
	EXPECT_EQ(0, b[2].offset % PLAN_ALIGN);
}

TEST(best_fit_takes_the_smallest_gap)
{
	/*
	 * Placed largest first: A@0, B@1024, C@2048, D@3072, E@3584. B and D
	 * die at t2, leaving holes of 1024 and 512 among the buffers live at
	 * t3; F (320 bytes) takes the smaller one, D's place.
	 */
	struct plan_buf b[6] = {
		buf(1024, 0, 10), buf(1024, 0, 2), buf(1024, 0, 10),
		buf(512, 0, 2), buf(512, 0, 10), buf(300, 3, 4),
	};
	struct plan_stats st;
	int i, j;

	ASSERT_EQ(0, plan_arena(b, 6, &st));
	EXPECT_EQ(1024, b[1].offset);
	EXPECT_EQ(3072, b[3].offset);
	EXPECT_EQ(b[3].offset, b[5].offset);
	EXPECT_EQ(4096, st.arena_size);
	for (i = 0; i < 6; i++)
		for (j = i + 1; j < 6; j++)
			if (overlap_time(&b[i], &b[j]))
				EXPECT_FALSE(overlap_mem(&b[i], &b[j]));
}

TEST(views_share_and_extend_the_interval)
{
	/*
	 * B is a view of A read at t5: A may not be reused before t5 even
	 * though its own last read is t1; C (t2..t3) must stay apart.
	 */
	struct plan_buf b[3] = { buf(256, 0, 1), buf(256, 1, 5), buf(256, 2, 3) };
	struct plan_stats st;

	b[1].alias = 0;
	ASSERT_EQ(0, plan_arena(b, 3, &st));
	EXPECT_EQ(b[0].offset, b[1].offset);
	EXPECT_FALSE(overlap_mem(&b[0], &b[2]));
	EXPECT_EQ(512, st.arena_size);
	EXPECT_EQ(512, st.naive_size);	/* a view has no memory of its own */
	EXPECT_EQ(512, st.lower_bound);
}

TEST(inplace_chain_uses_one_buffer)
{
	/* x -> relu -> add(., const) -> sigmoid: each writes over its input */
	struct plan_buf b[4] = { buf(4096, 0, 1), buf(4096, 1, 2),
				 buf(4096, 2, 3), buf(4096, 3, 4) };
	struct plan_stats st;
	int i;

	for (i = 1; i < 4; i++)
		b[i].inplace[0] = i - 1;
	ASSERT_EQ(0, plan_arena(b, 4, &st));
	EXPECT_EQ(3, st.inplace);
	EXPECT_EQ(4096, st.arena_size);
	EXPECT_EQ(4096, st.lower_bound);
	EXPECT_EQ(4 * 4096, st.naive_size);
	for (i = 1; i < 4; i++)
		EXPECT_EQ(b[0].offset, b[i].offset);
}

TEST(inplace_refused_while_the_input_lives_on)
{
	/* A is read again at t3 (a residual): B written at t1 cannot take it */
	struct plan_buf b[3] = { buf(1024, 0, 3), buf(1024, 1, 2), buf(1024, 2, 3) };
	struct plan_stats st;

	b[1].inplace[0] = 0;
	b[2].inplace[0] = 1;	/* but C may take B, which dies at t2 */
	ASSERT_EQ(0, plan_arena(b, 3, &st));
	EXPECT_EQ(1, st.inplace);
	EXPECT_NE(b[0].offset, b[1].offset);
	EXPECT_EQ(b[1].offset, b[2].offset);
	EXPECT_EQ(2048, st.arena_size);
}

TEST(inplace_refused_for_a_smaller_input)
{
	struct plan_buf b[2] = { buf(512, 0, 1), buf(1024, 1, 2) };
	struct plan_stats st;

	b[1].inplace[0] = 0;
	ASSERT_EQ(0, plan_arena(b, 2, &st));
	EXPECT_EQ(0, st.inplace);
	EXPECT_EQ(1536, st.arena_size);
}

TEST(second_inplace_candidate_used_when_first_lives)
{
	/* binary op at t2 reading A (lives to t4) and B (dies at t2) */
	struct plan_buf b[3] = { buf(640, 0, 4), buf(640, 1, 2), buf(640, 2, 4) };
	struct plan_stats st;

	b[2].inplace[0] = 0;
	b[2].inplace[1] = 1;
	ASSERT_EQ(0, plan_arena(b, 3, &st));
	EXPECT_EQ(1, st.inplace);
	EXPECT_EQ(b[1].offset, b[2].offset);
}

TEST(unused_buffers_and_empty_plan)
{
	struct plan_buf b[2] = { buf(4096, -1, -1), buf(100, 0, 0) };
	struct plan_stats st;

	ASSERT_EQ(0, plan_arena(b, 2, &st));
	EXPECT_EQ(128, st.arena_size);
	EXPECT_EQ(128, st.naive_size);
	ASSERT_EQ(0, plan_arena(b, 0, &st));
	EXPECT_EQ(0, st.arena_size);
	EXPECT_EQ(0, st.lower_bound);
}

TEST(bad_alias_index_rejected)
{
	struct plan_buf b[1] = { buf(64, 0, 1) };
	struct plan_stats st;

	b[0].alias = 7;
	EXPECT_EQ(-1, plan_arena(b, 1, &st));
}

/* Bytes live at task t, counted per buffer without views (no in place). */
static uint64_t live_at(const struct plan_buf *b, int n, int t)
{
	uint64_t s = 0;
	int i;

	for (i = 0; i < n; i++)
		if (b[i].first <= t && t <= b[i].last)
			s += (b[i].size + 63) & ~63ull;
	return s;
}

TEST(property_random_intervals)
{
	enum { N = 120, ROUNDS = 300 };
	static struct plan_buf b[N];
	unsigned int seed = 12345;
	int r, i, j, n;

	for (r = 0; r < ROUNDS; r++) {
		struct plan_stats st;
		uint64_t naive = 0, lb = 0;
		int tmax = 5 + rand_r(&seed) % 200;

		n = 1 + rand_r(&seed) % N;
		for (i = 0; i < n; i++) {
			int f = rand_r(&seed) % tmax;

			b[i] = buf(1 + rand_r(&seed) % 100000, f,
				   f + rand_r(&seed) % 30);
			naive += (b[i].size + 63) & ~63ull;
		}
		for (i = 0; i < tmax + 30; i++)
			if (live_at(b, n, i) > lb)
				lb = live_at(b, n, i);
		ASSERT_EQ(0, plan_arena(b, n, &st));
		ASSERT_EQ(naive, st.naive_size);
		ASSERT_EQ(lb, st.lower_bound);
		ASSERT_GE(st.arena_size, st.lower_bound);
		ASSERT_LE(st.arena_size, st.naive_size);
		for (i = 0; i < n; i++) {
			ASSERT_EQ(0, b[i].offset % PLAN_ALIGN);
			ASSERT_LE(b[i].offset + b[i].size, st.arena_size);
			for (j = i + 1; j < n; j++)
				if (overlap_time(&b[i], &b[j]))
					ASSERT_FALSE(overlap_mem(&b[i], &b[j])) {
						TH_LOG("round %d: %d [%d,%d]@%llu and %d [%d,%d]@%llu",
						       r, i, b[i].first, b[i].last,
						       (unsigned long long)b[i].offset,
						       j, b[j].first, b[j].last,
						       (unsigned long long)b[j].offset);
					}
		}
	}
}

TEST(property_random_inplace_chains)
{
	enum { N = 60 };
	static struct plan_buf b[N];
	unsigned int seed = 777;
	int r, i, j;

	for (r = 0; r < 200; r++) {
		struct plan_stats st;

		/* a random DAG in task order: buffer i written at task i */
		for (i = 0; i < N; i++) {
			b[i] = buf(64 * (1 + rand_r(&seed) % 4), i, i);
			if (i && rand_r(&seed) % 2)
				b[i].inplace[0] = rand_r(&seed) % i;
		}
		for (i = 0; i < N; i++)	/* readers: up to 3 later tasks */
			for (j = 0; j < 3; j++) {
				int t = i + 1 + rand_r(&seed) % 8;

				if (t < N && t > b[i].last)
					b[i].last = t;
			}
		ASSERT_EQ(0, plan_arena(b, N, &st));
		ASSERT_GE(st.arena_size, st.lower_bound);
		for (i = 0; i < N; i++)
			for (j = i + 1; j < N; j++) {
				int shared = b[j].inplace[0] == i &&
					     b[i].last == b[j].first;

				/* in place only at the reader's task: allowed */
				if (overlap_time(&b[i], &b[j]) && !shared &&
				    !(b[i].last == b[j].first &&
				      b[i].offset == b[j].offset))
					ASSERT_FALSE(overlap_mem(&b[i], &b[j]));
			}
	}
}

TEST_HARNESS_MAIN
