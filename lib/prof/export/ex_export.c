/* SPDX-License-Identifier: MIT */
/*
 * prof_export(): read one raw data directory, index it, and write every
 * output file. Reading fails as a whole on malformed input (ex_read.c);
 * the writers then only fail on I/O.
 */
#include <errno.h>
#include <string.h>

#include "../prof.h"
#include "export.h"

int prof_export(const char *dir, char *why, size_t len)
{
	int (*const writers[])(struct ex_data *) = {
		ex_op_summary, ex_op_statistic, ex_api_statistic,
		ex_task_time, ex_msprof_tx, ex_trace, ex_html,
	};
	struct ex_data d = { .dir = dir, .why = why, .why_len = len };
	size_t i;
	int ret;

	if (why && len)
		why[0] = '\0';
	if (!dir || !*dir)
		return ex_fail(&d, EINVAL, "no directory");
	ret = ex_read_info(&d);
	if (!ret)
		ret = ex_read_all(&d);
	if (!ret)
		ret = ex_index(&d);
	for (i = 0; !ret && i < sizeof(writers) / sizeof(writers[0]); i++)
		ret = writers[i](&d);
	ex_free(&d);
	return ret;
}
