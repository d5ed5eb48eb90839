/* SPDX-License-Identifier: MIT */
/* Registered hooks of the runtime (hooks.c). */
#ifndef VNPU_CORE_HOOKS_H
#define VNPU_CORE_HOOKS_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_rt.h"
#include "rt_objects.h"

#define HOOKS_MAX	32	/* hooks of one kind */
#define HOOK_NAME_MAX	64	/* state callback names, with the NUL */

/* Exception callbacks (aclrtExceptionInfoCallbackRegister). */
int hooks_exception_add(rt_exception_cb cb);
void hooks_exception_remove(rt_exception_cb cb);
void hooks_exception_call(struct rtExceptionInfo *info);

/* State callbacks by name; a NULL fn removes the name's hook. */
typedef aclrtStreamStateCallback hook_stream_fn;
typedef aclrtDeviceStateCallback hook_device_fn;
int hooks_stream_state_set(const char *name, hook_stream_fn fn, void *args);
int hooks_device_state_set(const char *name, hook_device_fn fn, void *args);
void hooks_stream_state(void *stream, aclrtStreamState state);
void hooks_device_state(int32_t id, aclrtDeviceState state);

/* aclInit / aclFinalize callbacks, by (type, function). */
typedef aclInitCallbackFunc hook_init_fn;
typedef aclFinalizeCallbackFunc hook_finalize_fn;
int hooks_init_add(int type, hook_init_fn fn, void *data);
int hooks_init_remove(int type, hook_init_fn fn);
int hooks_finalize_add(int type, hook_finalize_fn fn, void *data);
int hooks_finalize_remove(int type, hook_finalize_fn fn);
/* Run them: the first non-zero result stops init (and is returned). */
int hooks_init_call(const char *config, size_t len);
int hooks_finalize_call(void);

#endif /* VNPU_CORE_HOOKS_H */
