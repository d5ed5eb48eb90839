/* SPDX-License-Identifier: MIT */
/*
 * What both conformance runners (host and guest) share: reading a test's
 * manifest.txt (written by tools/conformance/prepare.py), loading its
 * input files, writing result.txt and the outputs, and running each test
 * in a forked child with a time limit so a crash or a hang is that test's
 * "crash" and the run goes on.
 *
 * manifest.txt, one record a line:
 *   in <name> <aclDataType> <rank> <dims...> <file>   an input to feed
 *   frozen <name> <aclDataType> <rank> <dims...> <file>  compiled in
 *   out <index> <name> <aclDataType> <rank> <dims...>  an expected output
 * result.txt (in <test>/<mode>/):
 *   status ok | status error <why>
 *   out <index> <name> <aclDataType> <rank> <dims...>  (file out_<index>.bin)
 */
#ifndef VNPU_CONF_IO_H
#define VNPU_CONF_IO_H

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define CONF_MAX_IO	32
#define CONF_MAX_RANK	8
#define CONF_NAME_MAX	256
/*
 * Output buffers are filled with this byte before a run, so an output no
 * task writes can never pass by matching what the memory held before
 * (zeros, or the previous test's data); as a bool it is neither 0 nor 1.
 */
#define CONF_POISON	0xa5

struct conf_in {
	char name[CONF_NAME_MAX];
	int dtype;
	int rank;
	int64_t dims[CONF_MAX_RANK];
	char file[CONF_NAME_MAX];
	int frozen;
};

struct conf_test {
	char dir[4096];
	struct conf_in in[CONF_MAX_IO];
	int nin;
};

/* Parse <dir>/manifest.txt; 0, or -1 with why. */
static inline int conf_read_manifest(struct conf_test *t, const char *dir,
				     char *why, size_t len)
{
	char path[4200], line[4096];
	FILE *f;

	memset(t, 0, sizeof(*t));
	snprintf(t->dir, sizeof(t->dir), "%s", dir);
	snprintf(path, sizeof(path), "%s/manifest.txt", dir);
	f = fopen(path, "r");
	if (!f) {
		snprintf(why, len, "no manifest: %s", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct conf_in *c;
		char kind[16], *p;
		int used, k;

		if (sscanf(line, "%15s %n", kind, &used) < 1 ||
		    (strcmp(kind, "in") && strcmp(kind, "frozen")))
			continue;
		if (t->nin == CONF_MAX_IO) {
			snprintf(why, len, "more than %d inputs", CONF_MAX_IO);
			fclose(f);
			return -1;
		}
		c = &t->in[t->nin++];
		c->frozen = !strcmp(kind, "frozen");
		p = line + used;
		if (sscanf(p, "%255s %d %d %n", c->name, &c->dtype, &c->rank, &used) < 3 ||
		    c->rank < 0 || c->rank > CONF_MAX_RANK)
			goto bad;
		p += used;
		for (k = 0; k < c->rank; k++) {
			long long d;

			if (sscanf(p, "%lld %n", &d, &used) < 1)
				goto bad;
			c->dims[k] = d;
			p += used;
		}
		if (sscanf(p, "%255s", c->file) < 1)
			goto bad;
	}
	fclose(f);
	return 0;
bad:
	snprintf(why, len, "malformed manifest line: %s", line);
	fclose(f);
	return -1;
}

/* The fed input named name, or NULL. */
static inline const struct conf_in *conf_find_input(const struct conf_test *t,
						    const char *name)
{
	int i;

	for (i = 0; i < t->nin; i++)
		if (!t->in[i].frozen && !strcmp(t->in[i].name, name))
			return &t->in[i];
	return NULL;
}

/* Read a whole file of exactly want bytes into buf; 0 or -1. */
static inline int conf_read_file(const char *dir, const char *file, void *buf,
				 size_t want)
{
	char path[4400];
	FILE *f;
	size_t got;
	int extra;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "rb");
	if (!f)
		return -1;
	got = want ? fread(buf, 1, want, f) : 0;
	extra = fgetc(f);
	fclose(f);
	return got == want && extra == EOF ? 0 : -1;
}

/*
 * A string input's file (heads and text, tools/conformance/conf_common.py
 * pack_strings): at most cap bytes into buf, its size in *got; 0 or -1.
 */
static inline int conf_read_upto(const char *dir, const char *file, void *buf,
				 size_t cap, size_t *got)
{
	char path[4400];
	FILE *f;
	int extra;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "rb");
	if (!f)
		return -1;
	*got = cap ? fread(buf, 1, cap, f) : 0;
	extra = fgetc(f);
	fclose(f);
	return extra == EOF ? 0 : -1;
}

#define CONF_ACL_STRING	13

/* The result directory <dir>/<mode>, emptied of an old result. */
static inline int conf_result_dir(const struct conf_test *t, const char *mode,
				  char *out, size_t len)
{
	char path[4400];

	snprintf(out, len, "%s/%s", t->dir, mode);
	if (mkdir(out, 0755) && errno != EEXIST)
		return -1;
	snprintf(path, sizeof(path), "%s/result.txt", out);
	unlink(path);
	return 0;
}

/* Write <rdir>/out_<k>.bin; 0 or -1. */
static inline int conf_write_output(const char *rdir, int k, const void *data,
				    size_t bytes)
{
	char path[4400];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/out_%d.bin", rdir, k);
	f = fopen(path, "wb");
	if (!f)
		return -1;
	ok = (!bytes || fwrite(data, 1, bytes, f) == bytes);
	return fclose(f) || !ok ? -1 : 0;
}

/* Append a line to <rdir>/result.txt. */
static inline void conf_result(const char *rdir, const char *fmt, ...)
{
	char path[4400];
	va_list ap;
	FILE *f;

	snprintf(path, sizeof(path), "%s/result.txt", rdir);
	f = fopen(path, "a");
	if (!f)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fclose(f);
}

static inline void conf_result_out(const char *rdir, int k, const char *name,
				   int dtype, int rank, const int64_t *dims)
{
	char buf[512];
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < rank && used < sizeof(buf); i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, " %lld",
					 (long long)dims[i]);
	conf_result(rdir, "out %d %s %d %d%s", k, name, dtype, rank, buf);
}

/*
 * Run fn(dir, arg) in a child with a limit of secs seconds; 0 when the
 * child exited 0, else a status line for the test written to
 * <dir>/<mode>/result.txt ("status crash signal N" / "timeout").
 */
static inline int conf_isolated(const char *dir, const char *mode, unsigned int secs,
				int (*fn)(const char *dir, void *arg), void *arg)
{
	char rdir[4400];
	pid_t pid;
	int st;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		alarm(secs);
		_exit(fn(dir, arg) ? 1 : 0);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st))
		return WEXITSTATUS(st) ? 1 : 0;
	snprintf(rdir, sizeof(rdir), "%s/%s", dir, mode);
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
		conf_result(rdir, "status crash timeout after %u s", secs);
	else
		conf_result(rdir, "status crash signal %d", WIFSIGNALED(st) ? WTERMSIG(st) : -1);
	return 1;
}

#endif /* VNPU_CONF_IO_H */
