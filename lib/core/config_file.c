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
#include <strings.h>

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

/* The "log_level" option, if present: 0..4, -1 when absent, or -EBADMSG. */
static int find_log_level(const char *text, size_t n, char *why, size_t len)
{
	static const char *const names[] = {
		"debug", "info", "warning", "error", "null",
	};
	const char *key = "\"log_level\"";
	const char *p = NULL, *end = text + n;
	size_t i, klen = strlen(key);

	for (i = 0; i + klen <= n; i++) {
		if (!memcmp(text + i, key, klen)) {
			p = text + i + klen;
			break;
		}
	}
	if (!p)
		return -1;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	if (p < end && *p == ':')
		p++;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	if (p < end && *p >= '0' && *p <= '4' &&
	    (p + 1 == end || p[1] < '0' || p[1] > '9'))
		return *p - '0';
	for (i = 0; p < end && *p == '"' && i < 5; i++) {
		size_t l = strlen(names[i]);

		if (p + l + 1 < end && !strncasecmp(p + 1, names[i], l) &&
		    p[l + 1] == '"')
			return (int)i;
	}
	snprintf(why, len, "\"log_level\" must be one of \"debug\", \"info\", \"warning\", \"error\", \"null\" or 0 to 4");
	return -EBADMSG;
}

int config_file_check(const char *path, int *log_level, char *why, size_t len)
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
		if (!ret) {
			*log_level = find_log_level(text, n, why, len);
			if (*log_level == -EBADMSG)
				ret = -EBADMSG;
		}
	}
	free(text);
	fclose(f);
	return ret;
}
