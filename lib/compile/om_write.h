/* SPDX-License-Identifier: MIT */
/* Serialising an om_build into the .om file format (lib/om/om_format.h). */
#ifndef VNPU_ATC_OM_WRITE_H
#define VNPU_ATC_OM_WRITE_H

#include "om_build.h"

#define OM_PRODUCER	"vnpu atc 0.13"
#define OM_SECTIONS	7	/* every section type is written, empty or not */

/* The whole file in memory (*buf malloc'ed). Returns 0 or -1 (memory). */
int om_serialize(const struct om_build *b, uint8_t **buf, size_t *len);
/* Write path; 0 or -1 with a message naming the file. */
int om_write_file(const struct om_build *b, const char *path, char *err,
		  size_t errlen);

#endif /* VNPU_ATC_OM_WRITE_H */
