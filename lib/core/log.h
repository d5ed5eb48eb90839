/* SPDX-License-Identifier: MIT */
/*
 * A tiny logger with CANN's switches: ASCEND_GLOBAL_LOG_LEVEL (0 debug,
 * 1 info, 2 warning, 3 error, 4 null; default 3) and
 * ASCEND_SLOG_PRINT_TO_STDOUT. CANN writes log files; this runtime writes
 * nothing unless ASCEND_SLOG_PRINT_TO_STDOUT=1, and then prints to stdout.
 * The variables are read by aclInit.
 */
#ifndef VNPU_CORE_LOG_H
#define VNPU_CORE_LOG_H

enum { LOG_DEBUG, LOG_INFO, LOG_WARN, LOG_ERROR, LOG_NULL };

void log_init(void);
/* aclInit's configured level wins over the environment and prints. */
void log_set_level(int level);
void log_msg(int level, const char *func, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define rt_log(level, ...) log_msg((level), __func__, __VA_ARGS__)

#endif /* VNPU_CORE_LOG_H */
