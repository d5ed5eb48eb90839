/* SPDX-License-Identifier: MIT */
/*
 * aclInit's configuration file. No option changes behaviour yet, so the
 * file is only checked for shape: a file that real ACL would reject is
 * rejected here too, with a message saying why.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_file.h"

static int check_text(const char *text, size_t n, char *why, size_t len)
{
	char stack[CONFIG_MAX_DEPTH];
	int depth = 0;
	int line = 1;
	int in_string = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		char c = text[i];

		if (c == '\n')
			line++;
		if (in_string) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_string = 0;
			continue;
		}
		switch (c) {
		case '"':
			in_string = 1;
			break;
		case '{':
		case '[':
			if (depth == CONFIG_MAX_DEPTH) {
				snprintf(why, len, "line %d: nested deeper than %d levels",
					 line, CONFIG_MAX_DEPTH);
				return -EBADMSG;
			}
			stack[depth++] = c == '{' ? '}' : ']';
			break;
		case '}':
		case ']':
			if (!depth || stack[depth - 1] != c) {
				snprintf(why, len, "line %d: unexpected '%c'", line, c);
				return -EBADMSG;
			}
			depth--;
			break;
		default:
			break;
		}
	}
	if (in_string || depth) {
		snprintf(why, len, "unexpected end of file (unclosed %s)",
			 in_string ? "string" : "brace or bracket");
		return -EBADMSG;
	}
	return 0;
}

int config_file_check(const char *path, char *why, size_t len)
{
	FILE *f = fopen(path, "rb");
	char *text;
	size_t n;
	int ret;

	if (!f) {
		snprintf(why, len, "cannot open '%s': %s", path, strerror(errno));
		return -EIO;
	}
	text = malloc(CONFIG_MAX_BYTES + 1);
	if (!text) {
		fclose(f);
		snprintf(why, len, "out of memory reading '%s'", path);
		return -ENOMEM;
	}
	n = fread(text, 1, CONFIG_MAX_BYTES + 1, f);
	if (ferror(f)) {
		snprintf(why, len, "cannot read '%s': %s", path, strerror(errno));
		ret = -EIO;
	} else if (n > CONFIG_MAX_BYTES) {
		snprintf(why, len, "'%s' is larger than %d bytes", path,
			 CONFIG_MAX_BYTES);
		ret = -EIO;
	} else {
		ret = check_text(text, n, why, len);
	}
	free(text);
	fclose(f);
	return ret;
}
