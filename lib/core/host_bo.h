/* SPDX-License-Identifier: MIT */
/*
 * HOST-placement buffer objects mapped into this process: the device
 * reaches them by VA and the CPU through the mapping (pinned host memory,
 * the event and callback slot pages).
 */
#ifndef VNPU_CORE_HOST_BO_H
#define VNPU_CORE_HOST_BO_H

#include <stddef.h>
#include <stdint.h>

/*
 * Create a HOST object of size bytes on the device fd and map it read-write
 * and shared. On success *handle, *va and *map are set. On failure
 * (-errno) nothing is left behind: no mapping, no handle, and the outputs
 * are untouched.
 */
int host_bo_create(int fd, size_t size, uint32_t *handle, uint64_t *va,
		   void **map);

/* Undo host_bo_create(): unmap, then close the handle. */
void host_bo_destroy(int fd, uint32_t handle, void *map, size_t size);

#endif /* VNPU_CORE_HOST_BO_H */
