/* SPDX-License-Identifier: MIT */
/*
 * STUB, to be deleted when the exporter (lib/prof/export/) is merged:
 * a weak prof_export() that writes nothing, so sessions link and run
 * before it exists. The real definition overrides it.
 */
#include "prof.h"

__attribute__((weak)) int prof_export(const char *dir, char *why, size_t len)
{
	(void)dir;
	(void)why;
	(void)len;
	return 0;
}
