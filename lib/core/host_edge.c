/* SPDX-License-Identifier: MIT */
/*
 * Host work that a job waits for, made visible to whoever sees the job end.
 *
 * A blocking callback runs on the thread that serves it; the stream's next
 * task (a WAIT_VALUE) lets the job go on only once the callback stored its
 * "done" number, and another thread learns that the job ended from the
 * kernel (a syncobj, an io_uring WAIT). On the machine that chain orders
 * the callback's writes before the waiter's reads, but it runs through the
 * kernel, outside C11's memory model: in the model, and to ThreadSanitizer,
 * the two threads' accesses are unordered. This counter carries the edge
 * inside the model: bumped with release after every callback, loaded with
 * acquire whenever a wait or query finds device work ended.
 */
#include <stdatomic.h>

#include "rt_objects.h"

static atomic_ullong host_done;

void host_done_release(void)
{
	atomic_fetch_add_explicit(&host_done, 1, memory_order_release);
}

void host_done_acquire(void)
{
	(void)atomic_load_explicit(&host_done, memory_order_acquire);
}
