/* SPDX-License-Identifier: MIT */
/* Finding vnpu devices among the accel nodes. */
#ifndef VNPU_CORE_DEVICE_SCAN_H
#define VNPU_CORE_DEVICE_SCAN_H

#include <stdint.h>

#define VNPU_MAX_DEVICES 64
#define VNPU_PATH_MAX 256

/* One usable device, ordered by its driver-reported index. */
struct device_node_info {
	char path[VNPU_PATH_MAX];
	uint32_t index;		/* DRM_VNPU_PARAM_DEVICE_INDEX */
};

struct device_scan {
	struct device_node_info devs[VNPU_MAX_DEVICES];
	uint32_t count;
	/* Why nodes were skipped, for the "no device" message; may be empty. */
	char notes[512];
};

/*
 * Scan the accel directory ($VNPU_ACCEL_DIR, default /dev/accel) for nodes
 * whose DRM driver is "vnpu". Nodes of other drivers are ignored. Returns
 * 0, or -EPROTO with why filled when a vnpu node has an incompatible UAPI.
 */
int device_scan(struct device_scan *scan, char *why, size_t len);

#endif /* VNPU_CORE_DEVICE_SCAN_H */
