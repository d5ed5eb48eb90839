/* SPDX-License-Identifier: MIT */
/*
 * aclAppLog: an application's message in the runtime's log, under the
 * same switches (ASCEND_GLOBAL_LOG_LEVEL, ASCEND_SLOG_PRINT_TO_STDOUT).
 * The formatted text is limited to 1024 bytes with its terminator; a
 * longer one is cut and marked, as CANN does.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl_base_rt.h"
#include "../core/log.h"
#include "../core/prof_rt.h"

#define APP_LOG_MAX 1024
#define APP_LOG_CUT "...[truncated]"

void aclAppLog(aclLogLevel logLevel, const char *func, const char *file,
	       uint32_t line, const char *fmt, ...)
{
	PROF_API();
	char text[APP_LOG_MAX];
	const char *base;
	va_list ap;
	int n;

	if (!fmt || logLevel < ACL_DEBUG || logLevel > ACL_ERROR)
		return;
	va_start(ap, fmt);
	n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(text))
		memcpy(text + sizeof(text) - sizeof(APP_LOG_CUT), APP_LOG_CUT,
		       sizeof(APP_LOG_CUT));
	base = file ? strrchr(file, '/') : NULL;
	base = base ? base + 1 : file ? file : "?";
	/* aclLogLevel and the logger's levels share their numbering */
	log_msg((int)logLevel, func ? func : "?", "[APP] %s:%u %s", base,
		line, text);
}
