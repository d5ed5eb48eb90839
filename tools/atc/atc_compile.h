/* SPDX-License-Identifier: MIT */
/* atc's pipeline, from parsed options to the written .om. */
#ifndef VNPU_ATC_COMPILE_H
#define VNPU_ATC_COMPILE_H

#include <stdint.h>

#include "atc_options.h"
#include "compile/compile.h"

/* Exit statuses (Documentation/atc.md). */
enum atc_status {
	ATC_OK = COMPILE_OK,
	ATC_BAD_MODEL = COMPILE_BAD_MODEL,
	ATC_BAD_USAGE = COMPILE_BAD_USAGE,	/* command line */
	ATC_INTERNAL = COMPILE_INTERNAL,
	ATC_UNSUPPORTED = COMPILE_UNSUPPORTED,
};

/*
 * Parse --dynamic_batch_size ("1,2,4,8": distinct positive sizes, at most
 * OM_MAX_VARIANTS). Returns the count, or -1 with a message.
 */
int atc_parse_batches(const char *s, int64_t *out, char *err, size_t errlen);

/* Run every pass and write <output>.om; messages go to stderr. */
int atc_compile(const struct atc_options *o);

#endif /* VNPU_ATC_COMPILE_H */
