/* SPDX-License-Identifier: MIT */
/*
 * IPC memory (aclrtIpcMemGetExportKey / ImportByKey / Close) over PRIME.
 *
 * The exporter turns the BO behind an aclrtMalloc allocation into a
 * dma-buf fd and keeps it open until aclrtIpcMemClose. Small allocations
 * live inside a shared 64 MiB chunk BO: the chunk is exported and the
 * allocation's offset goes in the key (the importer can reach the whole
 * chunk; processes sharing memory trust each other, as with CANN's
 * whitelist-free mode). The key is text:
 *     "vnpu-ipc:<pid>:<fd>:<offset>:<size>"
 * The importer takes the fd out of the exporter with pidfd_open +
 * pidfd_getfd (same uid, or CAP_SYS_PTRACE), imports it with
 * PRIME_FD_TO_HANDLE and returns the BO's VA in its own context plus the
 * offset. aclrtIpcMemSetImportPid is accepted and recorded only: access
 * control is the kernel's ptrace check on pidfd_getfd.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../kmd/kmd.h"
#include "rt_objects.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

#define IPC_KEY_PREFIX "vnpu-ipc:"

struct ipc_entry {
	char key[65];
	bool exported;		/* else imported */
	struct rt_device *dev;
	int dmabuf;		/* exported */
	uint32_t handle;	/* imported */
	struct ipc_entry *next;
};

static pthread_mutex_t ipc_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct ipc_entry *entries;

static int parse_key(const char *key, int *pid, int *fd, uint64_t *off,
		     uint64_t *size)
{
	char tail;

	if (strncmp(key, IPC_KEY_PREFIX, strlen(IPC_KEY_PREFIX)) ||
	    strnlen(key, 65) > 64)
		return -EINVAL;
	if (sscanf(key + strlen(IPC_KEY_PREFIX), "%d:%d:%" SCNu64 ":%" SCNu64 "%c",
		   pid, fd, off, size, &tail) != 4 || *pid <= 0 || *fd < 0 ||
	    !*size)
		return -EINVAL;
	return 0;
}

int ipc_export(struct rt_device *dev, void *ptr, size_t size, char *key,
	       size_t len)
{
	struct ipc_entry *e;
	uint32_t handle;
	uint64_t off, avail;
	int ret, dmabuf;

	ret = alloc_lookup(dev, ptr, &handle, &off, &avail);
	if (ret)
		return ret;
	if (!size || size > avail)
		return -EINVAL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	ret = kmd_prime_export(dev->fd, handle, &dmabuf);
	if (ret) {
		free(e);
		return ret;
	}
	snprintf(e->key, sizeof(e->key), IPC_KEY_PREFIX "%d:%d:%" PRIu64 ":%zu",
		 (int)getpid(), dmabuf, off, size);
	if (strlen(e->key) + 1 > len) {
		close(dmabuf);
		free(e);
		return -ENOSPC;
	}
	e->exported = true;
	e->dev = dev;
	e->dmabuf = dmabuf;
	memcpy(key, e->key, strlen(e->key) + 1);
	pthread_mutex_lock(&ipc_mutex);
	e->next = entries;
	entries = e;
	pthread_mutex_unlock(&ipc_mutex);
	return 0;
}

int ipc_import(struct rt_device *dev, const char *key, void **ptr)
{
	int pid, fd, pidfd, dmabuf, ret;
	uint64_t off, size, va, bo_size;
	struct ipc_entry *e;
	uint32_t handle;

	ret = parse_key(key, &pid, &fd, &off, &size);
	if (ret)
		return ret;
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0)
		return errno == ESRCH ? -EINVAL : -errno;
	dmabuf = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	ret = dmabuf < 0 ? (errno == EBADF ? -EINVAL : -errno) : 0;
	close(pidfd);
	if (ret)
		return ret;
	ret = kmd_prime_import(dev->fd, dmabuf, &handle, &va, &bo_size);
	close(dmabuf);	/* the handle holds the BO */
	if (ret)
		return ret == -EBADF || ret == -ENOENT ? -EINVAL : ret;
	if (off >= bo_size || size > bo_size - off) {
		kmd_gem_close(dev->fd, handle);
		return -EINVAL;
	}
	e = calloc(1, sizeof(*e));
	if (!e) {
		kmd_gem_close(dev->fd, handle);
		return -ENOMEM;
	}
	snprintf(e->key, sizeof(e->key), "%s", key);
	e->dev = dev;
	e->handle = handle;
	pthread_mutex_lock(&ipc_mutex);
	e->next = entries;
	entries = e;
	pthread_mutex_unlock(&ipc_mutex);
	*ptr = (void *)(uintptr_t)(va + off);
	return 0;
}

/* Close the newest entry for key: the exporter's fd or an import. */
int ipc_close(const char *key)
{
	struct ipc_entry **pp, *e;
	int pid, fd;
	uint64_t off, size;

	if (parse_key(key, &pid, &fd, &off, &size))
		return -EINVAL;
	pthread_mutex_lock(&ipc_mutex);
	for (pp = &entries; (e = *pp); pp = &e->next)
		if (!strcmp(e->key, key))
			break;
	if (e)
		*pp = e->next;
	pthread_mutex_unlock(&ipc_mutex);
	if (!e)
		return -ENOENT;
	if (e->exported) {
		close(e->dmabuf);
	} else {
		device_drain(e->dev);
		kmd_gem_close(e->dev->fd, e->handle);
	}
	free(e);
	return 0;
}

int ipc_set_pid(const char *key)
{
	int pid, fd;
	uint64_t off, size;
	struct ipc_entry *e;
	int ret = -ENOENT;

	if (parse_key(key, &pid, &fd, &off, &size))
		return -EINVAL;
	pthread_mutex_lock(&ipc_mutex);
	for (e = entries; e; e = e->next)
		if (e->exported && !strcmp(e->key, key))
			ret = 0;
	pthread_mutex_unlock(&ipc_mutex);
	return ret;
}

void ipc_forget_after_fork(void)
{
	pthread_mutex_init(&ipc_mutex, NULL);
	entries = NULL;		/* the parent's; exported fds stay open */
}
