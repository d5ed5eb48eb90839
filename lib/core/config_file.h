/* SPDX-License-Identifier: MIT */
/* The JSON configuration file that aclInit may be given. */
#ifndef VNPU_CORE_CONFIG_FILE_H
#define VNPU_CORE_CONFIG_FILE_H

#include <stddef.h>

/* Nesting of { and [ that ACL accepts in the configuration file. */
#define CONFIG_MAX_DEPTH 10
/* Larger files are refused rather than read. */
#define CONFIG_MAX_BYTES (1 << 20)

/*
 * Check that path can be read and holds JSON-shaped text: balanced braces
 * and brackets outside strings, nested at most CONFIG_MAX_DEPTH deep. An
 * empty file means defaults. The one option read today is "log_level":
 * "debug", "info", "warning", "error" or "null" (or 0 to 4); *log_level
 * gets it, or -1 when the file has none. Returns 0, -EIO (cannot read:
 * why says so) or -EBADMSG (malformed: why says where).
 */
int config_file_check(const char *path, int *log_level, char *why, size_t len);

#endif /* VNPU_CORE_CONFIG_FILE_H */
