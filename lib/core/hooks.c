/* SPDX-License-Identifier: MIT */
/*
 * Registered hooks: exception callbacks (besides the single one of
 * aclrtSetExceptionInfoCallback, in stream.c), stream and device state
 * callbacks, and the init / finalize callbacks of aclInit and
 * aclFinalize. Each table is small and fixed; calls copy the table under
 * the lock and run the hooks without it, so a hook may call the runtime
 * (even register or unregister hooks).
 */
#include <errno.h>
#include <string.h>

#include "hooks.h"

static pthread_mutex_t hooks_lock = PTHREAD_MUTEX_INITIALIZER;

static rt_exception_cb exc[HOOKS_MAX];

int hooks_exception_add(rt_exception_cb cb)
{
	int ret = -ENOSPC, i;

	pthread_mutex_lock(&hooks_lock);
	for (i = 0; i < HOOKS_MAX && exc[i] != cb; i++)
		;
	if (i < HOOKS_MAX) {
		ret = 0;	/* already there: no duplicate */
	} else {
		for (i = 0; i < HOOKS_MAX && exc[i]; i++)
			;
		if (i < HOOKS_MAX) {
			exc[i] = cb;
			ret = 0;
		}
	}
	pthread_mutex_unlock(&hooks_lock);
	return ret;
}

void hooks_exception_remove(rt_exception_cb cb)
{
	pthread_mutex_lock(&hooks_lock);
	for (int i = 0; i < HOOKS_MAX; i++)
		if (exc[i] == cb)
			exc[i] = NULL;
	pthread_mutex_unlock(&hooks_lock);
}

void hooks_exception_call(struct rtExceptionInfo *info)
{
	rt_exception_cb copy[HOOKS_MAX];

	pthread_mutex_lock(&hooks_lock);
	memcpy(copy, exc, sizeof(copy));
	pthread_mutex_unlock(&hooks_lock);
	for (int i = 0; i < HOOKS_MAX; i++)
		if (copy[i])
			copy[i](info);
}

/* State callbacks, by registration name (as ACL identifies them). */
struct named_hook {
	char name[HOOK_NAME_MAX];
	void *fn;
	void *args;
};

static struct named_hook stream_hooks[HOOKS_MAX], device_hooks[HOOKS_MAX];

static int named_set(struct named_hook *tab, const char *name, void *fn,
		     void *args)
{
	int i, free_i = -1, ret = 0;

	if (strlen(name) >= HOOK_NAME_MAX)
		return -ENAMETOOLONG;
	pthread_mutex_lock(&hooks_lock);
	for (i = 0; i < HOOKS_MAX; i++) {
		if (tab[i].fn && !strcmp(tab[i].name, name))
			break;
		if (!tab[i].fn && free_i < 0)
			free_i = i;
	}
	if (i == HOOKS_MAX && fn)
		i = free_i;
	if (i < 0 || i == HOOKS_MAX) {
		ret = fn ? -ENOSPC : 0;	/* removing an unknown name: no-op */
	} else if (!fn) {
		tab[i].fn = NULL;
	} else {
		strcpy(tab[i].name, name);
		tab[i].fn = fn;
		tab[i].args = args;
	}
	pthread_mutex_unlock(&hooks_lock);
	return ret;
}

static void named_copy(const struct named_hook *tab, struct named_hook *copy)
{
	pthread_mutex_lock(&hooks_lock);
	memcpy(copy, tab, sizeof(*copy) * HOOKS_MAX);
	pthread_mutex_unlock(&hooks_lock);
}

int hooks_stream_state_set(const char *name, hook_stream_fn fn, void *args)
{
	return named_set(stream_hooks, name, (void *)fn, args);
}

int hooks_device_state_set(const char *name, hook_device_fn fn, void *args)
{
	return named_set(device_hooks, name, (void *)fn, args);
}

void hooks_stream_state(void *stream, aclrtStreamState state)
{
	struct named_hook copy[HOOKS_MAX];

	named_copy(stream_hooks, copy);
	for (int i = 0; i < HOOKS_MAX; i++)
		if (copy[i].fn)
			((hook_stream_fn)copy[i].fn)(stream, state, copy[i].args);
}

void hooks_device_state(int32_t id, aclrtDeviceState state)
{
	struct named_hook copy[HOOKS_MAX];

	named_copy(device_hooks, copy);
	for (int i = 0; i < HOOKS_MAX; i++)
		if (copy[i].fn)
			((hook_device_fn)copy[i].fn)(id, state, copy[i].args);
}

/* Init / finalize callbacks: one per (type, function) pair. */
struct typed_hook {
	bool used;
	int type;
	void *fn;
	void *data;
};

static struct typed_hook init_hooks[HOOKS_MAX], fini_hooks[HOOKS_MAX];

static int typed_add(struct typed_hook *tab, int type, void *fn, void *data)
{
	int i, free_i = -1, ret = 0;

	pthread_mutex_lock(&hooks_lock);
	for (i = 0; i < HOOKS_MAX; i++) {
		if (tab[i].used && tab[i].type == type && tab[i].fn == fn)
			break;
		if (!tab[i].used && free_i < 0)
			free_i = i;
	}
	if (i == HOOKS_MAX)
		i = free_i;
	if (i < 0)
		ret = -ENOSPC;
	else
		tab[i] = (struct typed_hook){ true, type, fn, data };
	pthread_mutex_unlock(&hooks_lock);
	return ret;
}

static int typed_remove(struct typed_hook *tab, int type, void *fn)
{
	int ret = -ENOENT;

	pthread_mutex_lock(&hooks_lock);
	for (int i = 0; i < HOOKS_MAX; i++)
		if (tab[i].used && tab[i].type == type && tab[i].fn == fn) {
			tab[i].used = false;
			ret = 0;
		}
	pthread_mutex_unlock(&hooks_lock);
	return ret;
}

int hooks_init_add(int type, hook_init_fn fn, void *data)
{
	return typed_add(init_hooks, type, (void *)fn, data);
}

int hooks_init_remove(int type, hook_init_fn fn)
{
	return typed_remove(init_hooks, type, (void *)fn);
}

int hooks_finalize_add(int type, hook_finalize_fn fn, void *data)
{
	return typed_add(fini_hooks, type, (void *)fn, data);
}

int hooks_finalize_remove(int type, hook_finalize_fn fn)
{
	return typed_remove(fini_hooks, type, (void *)fn);
}

int hooks_init_call(const char *config, size_t len)
{
	struct typed_hook copy[HOOKS_MAX];
	int ret = 0;

	pthread_mutex_lock(&hooks_lock);
	memcpy(copy, init_hooks, sizeof(copy));
	pthread_mutex_unlock(&hooks_lock);
	for (int i = 0; !ret && i < HOOKS_MAX; i++)
		if (copy[i].used)
			ret = ((hook_init_fn)copy[i].fn)(config, len, copy[i].data);
	return ret;
}

int hooks_finalize_call(void)
{
	struct typed_hook copy[HOOKS_MAX];
	int first = 0;

	pthread_mutex_lock(&hooks_lock);
	memcpy(copy, fini_hooks, sizeof(copy));
	pthread_mutex_unlock(&hooks_lock);
	/* Every hook runs; the first failure is reported. */
	for (int i = 0; i < HOOKS_MAX; i++)
		if (copy[i].used) {
			int ret = ((hook_finalize_fn)copy[i].fn)(copy[i].data);

			if (ret && !first)
				first = ret;
		}
	return first;
}
