/* SPDX-License-Identifier: MIT */
/*
 * The process-wide runtime: initialisation state and the devices found by
 * aclInit. Everything is guarded by one lock; API calls here are rare.
 */
#ifndef VNPU_CORE_RUNTIME_H
#define VNPU_CORE_RUNTIME_H

#include <stdbool.h>
#include <stdint.h>

#include "device_scan.h"

/*
 * Initialise once (scanning the devices); later calls only count. Returns
 * 1 when already initialised, 0 on first success, -errno on failure with
 * why filled.
 */
int runtime_init(char *why, size_t len);

/*
 * Drop references: all of them (aclFinalize) or one (aclFinalizeReference).
 * Tears down when none remain. Returns the remaining count, or -EALREADY
 * when not initialised.
 */
int64_t runtime_finalize(bool all);

/* In a forked child of an initialised process: the parent's pid, else 0. */
#include <sys/types.h>
pid_t runtime_forked_from(void);

/* Whether aclInit has succeeded and not been finalized. */
bool runtime_initialized(void);

/*
 * Number of devices; 0 with why filled (the reasons the scan found none)
 * when there are none. Returns -EALREADY when not initialised.
 */
int runtime_device_count(uint32_t *count, char *why, size_t len);

/*
 * The node of device id (0 .. count - 1). -EALREADY when not initialised,
 * -ENODEV for an id out of range.
 */
int runtime_device_path(uint32_t id, char *path, size_t len);

#endif /* VNPU_CORE_RUNTIME_H */
