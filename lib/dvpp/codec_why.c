/* SPDX-License-Identifier: MIT */
/* The reason a codec call failed, for the entry point's message. */
#include <stdarg.h>
#include <stdio.h>

#include "dvpp_codec.h"

int dvpp_codec_fail(char *why, size_t why_len, int err, const char *fmt, ...)
{
	va_list ap;

	if (why && why_len) {
		va_start(ap, fmt);
		vsnprintf(why, why_len, fmt, ap);
		va_end(ap);
	}
	return err;
}
