/* SPDX-License-Identifier: MIT */
/*
 * Shared by the runtime entry points (lib/api only): stream creation and
 * priorities, the op wait timeout. The checks and error conversion that
 * lib/mdl and lib/op use too are core's (core/entry_check.h).
 */
#ifndef VNPU_API_RT_COMMON_H
#define VNPU_API_RT_COMMON_H

#include "acl/acl.h"
#include "../core/entry_check.h"
#include "../core/error.h"
#include "../core/rt_objects.h"
#include "../core/runtime.h"
#include "../core/prof_rt.h"
#include "../prof/prof.h"

/*
 * Create a stream in the current context on driver priority prio,
 * remembering the ACL priority and flags it was asked for; state
 * callbacks hear of it.
 */
aclError rt_stream_create(const char *func, aclrtStream *stream, uint32_t prio,
			  uint32_t acl_priority, uint32_t flags);
/* ACL stream priority 0..7 as a driver level. */
uint32_t rt_driver_priority(uint32_t acl_priority);

/* aclrtSetOpWaitTimeout as a WAIT_VALUE timeout (0: the driver's longest). */
uint64_t rt_op_wait_ns(void);

/*
 * After a successful synchronize: while a session runs, hand the device
 * rings' records to their consumers now, so what the sync waited for is
 * in the files (and with subscribers) without waiting for the drainer.
 */
static inline void rt_prof_synced(void)
{
	if (prof_rt_on(~0ull))
		prof_device_drain_all();
}

#endif /* VNPU_API_RT_COMMON_H */
