/* SPDX-License-Identifier: MIT */
/*
 * kmd: the only layer of libacl that talks to the vnpu kernel driver.
 * One function per ioctl; every function returns 0 or a negative errno.
 */
#ifndef VNPU_KMD_H
#define VNPU_KMD_H

#include <stddef.h>
#include <stdint.h>

/* Open an accel node for reading and writing; returns an fd or -errno. */
int kmd_open(const char *path);

/* Close an fd returned by kmd_open. */
void kmd_close(int fd);

/* DRM_IOCTL_VERSION: copy the driver name into name (NUL-terminated). */
int kmd_driver_name(int fd, char *name, size_t len);

/* DRM_IOCTL_VNPU_GET_PARAM. */
int kmd_get_param(int fd, uint32_t param, uint32_t index, uint64_t *value);

#endif /* VNPU_KMD_H */
