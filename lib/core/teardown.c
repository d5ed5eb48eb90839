/* SPDX-License-Identifier: MIT */
/*
 * aclFinalize releases everything the process still holds, as CANN does:
 * programs (C++ ones from destructors after main) often destroy their
 * streams, events and memory only afterwards, and those calls must then
 * find nothing to free twice, and nothing must be left to leak. The
 * layers above go first (lifecycle.h): models still loaded are unloaded
 * (that waits for their jobs), then the single-op registry is cleared. Explicit
 * contexts go with their streams and graphs, every event and notify is
 * freed, and each device is put, which releases its memory and closes it.
 */
#include "lifecycle.h"
#include "rt_objects.h"

void runtime_teardown(void)
{
	struct rt_context *ctx;
	struct rt_device *dev;
	const void *ev;

	rt_lifecycle_teardown();
	rt_lock();
	while ((ctx = context_any_explicit_locked())) {
		dev = ctx->dev;
		context_destroy_locked(ctx);
		device_put_locked(dev);
	}
	rt_unlock();
	while ((ev = handle_any(HANDLE_EVENT)))
		event_destroy((struct rt_event *)ev);
	while ((ev = handle_any(HANDLE_NOTIFY)) ||
	       (ev = handle_any(HANDLE_CNT_NOTIFY)))
		notify_destroy((struct rt_notify *)ev);
	device_reset_all();
}
