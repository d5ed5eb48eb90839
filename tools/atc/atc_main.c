// SPDX-License-Identifier: MIT
/* atc: CANN's model converter, vnpu's version (ONNX to .om). */
#include <stdio.h>

#include <string.h>

#include "atc_compile.h"
#include "compile/compile.h"

int main(int argc, char **argv)
{
	struct atc_options o;
	char err[512];

	if (atc_parse_options(argc, argv, &o, err, sizeof(err))) {
		fprintf(stderr, "atc: %s\n", err);
		return ATC_BAD_USAGE;
	}
	if (o.singleop)
		return sop_compile_json(o.singleop, o.output,
					o.log && (!strcmp(o.log, "info") ||
						  !strcmp(o.log, "debug")));
	return atc_compile(&o);
}
