/* SPDX-License-Identifier: MIT */
/*
 * Operator type names for the profiler's tags: the UAPI's enum
 * drm_vnpu_op names (DRM_VNPU_OP_BATCH_NORM -> "BatchNorm"), made once.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "op_names.h"

static const char *const upper[] = {
#include "vnpu_op_names.h"
};

#define NOPS (sizeof(upper) / sizeof(upper[0]))

static char names[NOPS][40];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void make_names(void)
{
	for (size_t i = 0; i < NOPS; i++) {
		const char *u = upper[i];
		char *o = names[i];
		size_t n = 0;
		bool start = true;

		for (; u && *u && n + 1 < sizeof(names[i]); u++) {
			if (*u == '_') {
				start = true;
				continue;
			}
			o[n++] = start ? *u : (char)tolower((unsigned char)*u);
			start = isdigit((unsigned char)*u);
		}
		o[n] = 0;
	}
}

const char *op_type_name(uint32_t op)
{
	static _Thread_local char buf[24];

	pthread_once(&once, make_names);
	if (op < NOPS && names[op][0])
		return names[op];
	snprintf(buf, sizeof(buf), "Op%u", op);
	return buf;
}
