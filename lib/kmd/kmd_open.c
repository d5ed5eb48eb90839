/* SPDX-License-Identifier: MIT */
/* kmd: opening and closing accel nodes. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "kmd.h"

int kmd_open(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

void kmd_close(int fd)
{
	if (fd >= 0)
		close(fd);
}
