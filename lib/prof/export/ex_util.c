/* SPDX-License-Identifier: MIT */
/*
 * Small helpers of the exporter: errors, growing arrays, strict number
 * parsing (a raw file is input, not trusted), µs formatting, CSV and JSON
 * quoting, and output files written under a temporary name so that a
 * reader never sees half a file.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export.h"

int ex_fail(struct ex_data *d, int err, const char *fmt, ...)
{
	va_list ap;

	if (d->why && d->why_len) {
		va_start(ap, fmt);
		vsnprintf(d->why, d->why_len, fmt, ap);
		va_end(ap);
	}
	return -err;
}

/* Room for one more element of size bytes, zeroed; NULL when out of memory. */
void *ex_push(void **arr, size_t *n, size_t size)
{
	size_t cap = 16;
	char *p;

	while (cap < *n + 1)
		cap *= 2;
	/* The capacity is a function of n: grow at 0 and at powers of two. */
	if (*n == 0 || (*n >= 16 && (*n & (*n - 1)) == 0)) {
		p = realloc(*arr, cap * size);
		if (!p)
			return NULL;
		*arr = p;
	}
	p = (char *)*arr + *n * size;
	memset(p, 0, size);
	(*n)++;
	return p;
}

int ex_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

int ex_u32(const char *s, uint32_t *out)
{
	uint64_t v;

	if (ex_u64(s, &v) || v > UINT32_MAX)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

int ex_i32(const char *s, int32_t *out)
{
	uint64_t v;

	if (s && s[0] == '-') {
		if (ex_u64(s + 1, &v) || v > (uint64_t)INT32_MAX + 1)
			return -EINVAL;
		*out = (int32_t)-(int64_t)v;
		return 0;
	}
	if (ex_u64(s, &v) || v > INT32_MAX)
		return -EINVAL;
	*out = (int32_t)v;
	return 0;
}

const char *ex_us(char *buf, uint64_t ns)
{
	snprintf(buf, 32, "%" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
	return buf;
}

const char *ex_na(const char *s)
{
	return s && *s ? s : "N/A";
}

/* RFC 4180: quote a field holding a comma, quote or line break. */
void ex_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/*
 * A JSON string. '<', '>' and '&' are escaped too, so the same text can
 * sit inside an HTML <script> element.
 */
void ex_json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '<':
		case '>':
		case '&':
			fprintf(f, "\\u%04x", *p);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

int ex_out_open(struct ex_data *d, struct ex_out *o, const char *base,
		const char *ext)
{
	char dir[PATH_MAX];
	int n;

	o->f = NULL;
	o->tmp = o->path = NULL;
	n = snprintf(dir, sizeof(dir), "%s/mindstudio_profiler_output", d->dir);
	if (n < 0 || (size_t)n >= sizeof(dir))
		return ex_fail(d, ENAMETOOLONG, "%s: path too long", d->dir);
	if (mkdir(dir, 0755) && errno != EEXIST)
		return ex_fail(d, errno, "%s: %s", dir, strerror(errno));
	if (asprintf(&o->path, "%s/%s_%s%s", dir, base, d->stamp, ext) < 0) {
		o->path = NULL;
		return ex_fail(d, ENOMEM, "out of memory");
	}
	if (asprintf(&o->tmp, "%s.tmp", o->path) < 0) {
		o->tmp = NULL;
		free(o->path);
		o->path = NULL;
		return ex_fail(d, ENOMEM, "out of memory");
	}
	o->f = fopen(o->tmp, "w");
	if (!o->f) {
		n = errno;
		free(o->tmp);
		free(o->path);
		o->tmp = o->path = NULL;
		return ex_fail(d, n, "%s_%s%s: %s", base, d->stamp, ext,
			       strerror(n));
	}
	return 0;
}

int ex_out_close(struct ex_data *d, struct ex_out *o)
{
	int ret = 0;
	int bad;

	if (!o->f)
		return 0;
	bad = ferror(o->f);
	if (fclose(o->f) || bad)
		ret = ex_fail(d, EIO, "%s: write failed", o->path);
	else if (rename(o->tmp, o->path))
		ret = ex_fail(d, errno, "%s: %s", o->path, strerror(errno));
	if (ret)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	o->f = NULL;
	o->tmp = o->path = NULL;
	return ret;
}

void ex_out_abort(struct ex_out *o)
{
	if (o->f) {
		fclose(o->f);
		unlink(o->tmp);
	}
	free(o->tmp);
	free(o->path);
	o->f = NULL;
	o->tmp = o->path = NULL;
}
