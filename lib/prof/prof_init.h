/* SPDX-License-Identifier: MIT */
/*
 * What aclInit calls of the profiler (lib/api/acl_init.c): hook the
 * profiler into the runtime's lifecycle and start the session that
 * acl.json's "profiler" section or msprof's PROFILER_SAMPLECONFIG asks
 * for (prof_env.c).
 */
#ifndef VNPU_PROF_PROF_INIT_H
#define VNPU_PROF_PROF_INIT_H

#include <stddef.h>

/*
 * config_path: aclInit's file (NULL or "" for none). Returns 0, or an
 * aclError with why filled (ACL_ERROR_INVALID_PROFILING_CONFIG for a
 * bad "profiler" section or PROFILER_SAMPLECONFIG).
 */
int prof_acl_init(const char *config_path, char *why, size_t len);

#endif /* VNPU_PROF_PROF_INIT_H */
