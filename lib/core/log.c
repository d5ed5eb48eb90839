/* SPDX-License-Identifier: MIT */
/* See log.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "log.h"

static int log_level = LOG_NULL;	/* silent until aclInit reads env */
static int config_level = -1;		/* from aclInit's file, if any */

void log_init(void)
{
	const char *out = getenv("ASCEND_SLOG_PRINT_TO_STDOUT");
	const char *lv = getenv("ASCEND_GLOBAL_LOG_LEVEL");
	int level = LOG_ERROR;

	if (__atomic_load_n(&config_level, __ATOMIC_RELAXED) >= 0)
		return;		/* the configuration file's level stays */
	if (lv && lv[0] >= '0' && lv[0] <= '4' && !lv[1])
		level = lv[0] - '0';
	__atomic_store_n(&log_level,
			 out && !strcmp(out, "1") ? level : LOG_NULL,
			 __ATOMIC_RELAXED);
}

void log_set_level(int level)
{
	__atomic_store_n(&config_level, level, __ATOMIC_RELAXED);
	__atomic_store_n(&log_level, level, __ATOMIC_RELAXED);
}

void log_msg(int level, const char *func, const char *fmt, ...)
{
	static const char *const names[] = { "DEBUG", "INFO", "WARNING", "ERROR" };
	char msg[2048];
	struct timespec ts;
	struct tm tm;
	va_list ap;

	if (level < __atomic_load_n(&log_level, __ATOMIC_RELAXED) ||
	    level >= LOG_NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	/* CANN's shape: [LEVEL] ASCENDCL(pid,tid):date time [func] message */
	fprintf(stdout, "[%s] ASCENDCL(%d,%ld):%04d-%02d-%02d-%02d:%02d:%02d.%03ld [%s] %s\n",
		names[level], (int)getpid(), (long)syscall(SYS_gettid),
		tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000, func, msg);
	fflush(stdout);
}
