/* SPDX-License-Identifier: MIT */
/*
 * atc --insert_op_conf: CANN's aipp.cfg, protobuf text format
 * (aipp_op { key: value ... } blocks), read into the compiler's
 * struct compile_aipp. Documentation/aipp.md lists the keys.
 */
#ifndef VNPU_ATC_AIPP_CFG_H
#define VNPU_ATC_AIPP_CFG_H

#include <stddef.h>

#include "compile/compile.h"

/*
 * Parse the text of a configuration into at most max blocks. Returns the
 * number of blocks (at least 1), or -1 with "line N: ..." in err.
 */
int aipp_cfg_parse(const char *text, struct compile_aipp *out, int max,
		   char *err, size_t errlen);

/* The same for a file; errors name the file. */
int aipp_cfg_load(const char *path, struct compile_aipp *out, int max,
		  char *err, size_t errlen);

#endif /* VNPU_ATC_AIPP_CFG_H */
