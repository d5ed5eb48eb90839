/* SPDX-License-Identifier: MIT */
/*
 * The runtime's lifecycle events, for the layers above core (models,
 * single-op models) that keep state of their own: a stream going away,
 * the child side of a fork, aclFinalize. They register their hooks when
 * aclInit starts; core calls them and includes nothing of theirs, so the
 * arrows between the layers only point down.
 */
#ifndef VNPU_CORE_LIFECYCLE_H
#define VNPU_CORE_LIFECYCLE_H

#include <stdint.h>

struct rt_stream;

struct rt_lifecycle {
	const char *name;
	/* The stream is being destroyed: drop every reference to it. */
	void (*forget_stream)(const struct rt_stream *s);
	/* In a fork's child, before anything else runs: drop the parent's. */
	void (*after_fork)(void);
	/* aclFinalize, before contexts and devices go. */
	void (*teardown)(void);
	/*
	 * A device's node was opened (fd) or is about to be closed; called
	 * with rt_lock held, so the hook must not call back into device
	 * functions that take it (the profiler's rings, lib/prof).
	 */
	void (*device_open)(int32_t id, int fd);
	void (*device_close)(int32_t id, int fd);
};

/*
 * Add @lc (static storage; any hook may be NULL). Registering the same
 * one again does nothing. Hooks run in registration order. Returns 0, or
 * -ENOSPC when the table is full.
 */
int rt_lifecycle_register(const struct rt_lifecycle *lc);

void rt_lifecycle_forget_stream(const struct rt_stream *s);
void rt_lifecycle_after_fork(void);
void rt_lifecycle_teardown(void);
void rt_lifecycle_device_open(int32_t id, int fd);
void rt_lifecycle_device_close(int32_t id, int fd);

#endif /* VNPU_CORE_LIFECYCLE_H */
