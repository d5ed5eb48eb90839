// SPDX-License-Identifier: MIT
/*
 * Host ("AI CPU") node failures, remembered until the stream whose job
 * they failed reports it.
 *
 * A failed host node makes its job's last WAIT time out (model_host.c),
 * so the driver reports the job as a timeout like any other. CANN
 * reports a failed AI CPU task as ACL_ERROR_RT_AICPU_EXCEPTION: the host
 * thread notes the failure here before it lets the job fail, and the
 * stream that collects a timed-out job takes the note and reports the
 * AI CPU exception instead (-EREMOTEIO inside core/).
 *
 * Notes are keyed by device and queue. A captured graph's host nodes run
 * for whichever stream replays it, so their notes match any queue of the
 * device. At most AICPU_FAIL_MAX are kept (the oldest goes first); a new
 * stream forgets those of an earlier queue with its number.
 */
#include <stdbool.h>
#include <string.h>

#include "rt_objects.h"

#define AICPU_FAIL_MAX 32

struct aicpu_fail {
	const struct rt_device *dev;	/* compared, never followed */
	uint32_t queue_id;
	bool any_queue;
};

static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;
static struct aicpu_fail fails[AICPU_FAIL_MAX];
static unsigned int nfails;

static void drop_locked(unsigned int i)
{
	memmove(&fails[i], &fails[i + 1], (nfails - i - 1) * sizeof(fails[0]));
	nfails--;
}

void aicpu_fail_note(const struct rt_device *dev, uint32_t queue_id,
		     bool any_queue)
{
	pthread_mutex_lock(&fail_lock);
	if (nfails == AICPU_FAIL_MAX)
		drop_locked(0);
	fails[nfails++] = (struct aicpu_fail){ .dev = dev, .queue_id = queue_id,
					       .any_queue = any_queue };
	pthread_mutex_unlock(&fail_lock);
}

/* The first note of dev for queue_id (any_queue: of a captured graph); -1. */
static int find_locked(const struct rt_device *dev, uint32_t queue_id,
		       bool any_queue)
{
	for (unsigned int i = 0; i < nfails; i++)
		if (fails[i].dev == dev && fails[i].any_queue == any_queue &&
		    (any_queue || fails[i].queue_id == queue_id))
			return (int)i;
	return -1;
}

bool aicpu_fail_take(const struct rt_device *dev, uint32_t queue_id)
{
	int i;

	pthread_mutex_lock(&fail_lock);
	/* the queue's own note first, then a captured graph's */
	i = find_locked(dev, queue_id, false);
	if (i < 0)
		i = find_locked(dev, queue_id, true);
	if (i >= 0)
		drop_locked((unsigned int)i);
	pthread_mutex_unlock(&fail_lock);
	return i >= 0;
}

void aicpu_fail_forget_queue(const struct rt_device *dev, uint32_t queue_id)
{
	int i;

	pthread_mutex_lock(&fail_lock);
	while ((i = find_locked(dev, queue_id, false)) >= 0)
		drop_locked((unsigned int)i);
	pthread_mutex_unlock(&fail_lock);
}

void aicpu_fail_forget_after_fork(void)
{
	pthread_mutex_init(&fail_lock, NULL);
	nfails = 0;
}
