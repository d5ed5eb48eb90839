// SPDX-License-Identifier: MIT
/*
 * aclopStartDumpArgs / aclopStopDumpArgs: while on, every single operator
 * launched writes, once per distinct signature (type, dtypes, formats,
 * shapes), a text file describing it under the path given:
 *   <path>/<OpType>.<signature hash>.txt
 * with one line per tensor ("input0 dtype=0 format=2 shape=[4,2]").
 * CANN writes the operator's args for the AI Core; vnpu has no such
 * binary args, so the file holds what they would describe.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "acl/acl.h"
#include "../core/error.h"
#include "../core/prof_rt.h"
#include "dump_int.h"

#define SEEN_MAX 4096

static atomic_bool args_on;
static char args_path[PATH_MAX];
static uint64_t seen[SEEN_MAX];
static uint32_t nseen;

void dump_args_reset(void)
{
	pthread_mutex_lock(&dump_lock);
	atomic_store(&args_on, false);
	nseen = 0;
	pthread_mutex_unlock(&dump_lock);
}

bool dump_args_on(void)
{
	return atomic_load_explicit(&args_on, memory_order_relaxed);
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		h = (h ^ *b++) * 1099511628211ull;
	return h;
}

void dump_args_record(const char *op_type, const struct dump_tensor *t,
		      uint32_t nt)
{
	uint64_t h = fnv(14695981039346656037ull, op_type, strlen(op_type));
	char path[PATH_MAX + 256];
	bool fresh = true;
	FILE *f;

	for (uint32_t i = 0; i < nt; i++) {
		h = fnv(h, &t[i].output, sizeof(uint32_t) * 5);
		h = fnv(h, t[i].dims, t[i].rank * sizeof(int64_t));
	}
	pthread_mutex_lock(&dump_lock);
	for (uint32_t i = 0; i < nseen && fresh; i++)
		fresh = seen[i] != h;
	if (fresh && nseen < SEEN_MAX)
		seen[nseen++] = h;
	snprintf(path, sizeof(path), "%s/%s.%016llx.txt", args_path, op_type,
		 (unsigned long long)h);
	pthread_mutex_unlock(&dump_lock);
	if (!fresh || !(f = fopen(path, "w")))
		return;
	fprintf(f, "op_type %s\n", op_type);
	for (uint32_t i = 0; i < nt; i++) {
		fprintf(f, "%s%u dtype=%u format=%u shape=[", t[i].output ? "output" : "input",
			t[i].index, t[i].dtype, t[i].format);
		for (uint32_t d = 0; d < t[i].rank; d++)
			fprintf(f, d ? ",%lld" : "%lld", (long long)t[i].dims[d]);
		fprintf(f, "]\n");
	}
	fclose(f);
}

aclError aclopStartDumpArgs(uint32_t dumpType, const char *path)
{
	PROF_API();
	struct stat st;

	if (!path)
		return acl_fail(ACL_ERROR_FAILURE, "path must not be NULL");
	if ((dumpType & ACL_OP_DUMP_OP_AICORE_ARGS) != ACL_OP_DUMP_OP_AICORE_ARGS)
		return acl_fail(ACL_ERROR_FAILURE,
				"dumpType %u is not ACL_OP_DUMP_OP_AICORE_ARGS", dumpType);
	if (!*path || strlen(path) >= sizeof(args_path) ||
	    (mkdir(path, 0750) && errno != EEXIST) || stat(path, &st) ||
	    !S_ISDIR(st.st_mode))
		return acl_fail(ACL_ERROR_FAILURE, "'%s' is not a directory that can be made",
				path);
	pthread_mutex_lock(&dump_lock);
	snprintf(args_path, sizeof(args_path), "%s", path);
	nseen = 0;
	atomic_store(&args_on, true);
	pthread_mutex_unlock(&dump_lock);
	return ACL_SUCCESS;
}

aclError aclopStopDumpArgs(uint32_t dumpType)
{
	PROF_API();
	if ((dumpType & ACL_OP_DUMP_OP_AICORE_ARGS) == ACL_OP_DUMP_OP_AICORE_ARGS)
		atomic_store(&args_on, false);
	return ACL_SUCCESS;
}
