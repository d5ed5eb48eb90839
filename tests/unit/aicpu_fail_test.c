// SPDX-License-Identifier: MIT
/*
 * The notes of failed host ("AI CPU") nodes (lib/core/aicpu_fail.c): a
 * note is taken once, by its device and queue; a captured graph's note
 * by any queue of its device, after the queue's own; a new queue forgets
 * older notes with its number; the oldest goes when the table is full.
 * The guest test acl_aicpu_test checks the code a stream then reports.
 */
#include "kselftest_harness.h"
#include "../../lib/core/rt_objects.h"

/* Two devices: only their addresses are compared. */
static const struct rt_device *const dev_a = (const void *)0x1000;
static const struct rt_device *const dev_b = (const void *)0x2000;

TEST(taken_once_by_its_device_and_queue)
{
	aicpu_fail_forget_after_fork();
	EXPECT_FALSE(aicpu_fail_take(dev_a, 3));
	aicpu_fail_note(dev_a, 3, false);
	EXPECT_FALSE(aicpu_fail_take(dev_a, 4));	/* another queue */
	EXPECT_FALSE(aicpu_fail_take(dev_b, 3));	/* another device */
	EXPECT_TRUE(aicpu_fail_take(dev_a, 3));
	EXPECT_FALSE(aicpu_fail_take(dev_a, 3));	/* once */
}

TEST(captured_graph_note_matches_any_queue_of_its_device)
{
	aicpu_fail_forget_after_fork();
	aicpu_fail_note(dev_a, 0, true);
	aicpu_fail_note(dev_a, 7, false);
	EXPECT_FALSE(aicpu_fail_take(dev_b, 7));
	/* queue 7 takes its own note first, then the capture's */
	EXPECT_TRUE(aicpu_fail_take(dev_a, 7));
	EXPECT_TRUE(aicpu_fail_take(dev_a, 7));
	EXPECT_FALSE(aicpu_fail_take(dev_a, 9));
}

TEST(new_queue_forgets_older_notes_with_its_number)
{
	aicpu_fail_forget_after_fork();
	aicpu_fail_note(dev_a, 5, false);
	aicpu_fail_note(dev_a, 5, false);
	aicpu_fail_note(dev_a, 6, false);
	aicpu_fail_note(dev_a, 0, true);
	aicpu_fail_forget_queue(dev_a, 5);
	EXPECT_TRUE(aicpu_fail_take(dev_a, 6));
	EXPECT_TRUE(aicpu_fail_take(dev_a, 5));	/* the capture's, kept */
	EXPECT_FALSE(aicpu_fail_take(dev_a, 5));
}

TEST(full_table_drops_the_oldest)
{
	uint32_t q;

	aicpu_fail_forget_after_fork();
	for (q = 0; q < 33; q++)	/* one more than it keeps */
		aicpu_fail_note(dev_a, q, false);
	EXPECT_FALSE(aicpu_fail_take(dev_a, 0));
	for (q = 1; q < 33; q++)
		EXPECT_TRUE(aicpu_fail_take(dev_a, q));
}

TEST_HARNESS_MAIN
