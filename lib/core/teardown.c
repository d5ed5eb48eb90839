/* SPDX-License-Identifier: MIT */
/*
 * aclFinalize releases everything the process still holds, as CANN does:
 * programs (C++ ones from destructors after main) often destroy their
 * streams, events and memory only afterwards, and those calls must then
 * find nothing to free twice, and nothing must be left to leak. Models
 * still loaded are unloaded first (that waits for their jobs). Explicit
 * contexts go with their streams and graphs, every event and notify is
 * freed, and each device is put, which releases its memory and closes it.
 */
#include "rt_objects.h"
#include "../mdl/model.h"
#include "../op/op.h"

void runtime_teardown(void)
{
	struct rt_context *ctx;
	struct rt_device *dev;
	const void *ev;

	model_unload_all();
	op_registry_clear();
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
