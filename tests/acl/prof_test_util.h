/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the profiling tests (acl_prof_*_test.c): a fresh output
 * directory under build/, the PROF_* directory a session wrote there, and
 * the rows of one of its .tsv files.
 */
#ifndef PROF_TEST_UTIL_H
#define PROF_TEST_UTIL_H

#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PT_COLS 16
#define PT_ROWS 512

struct pt_table {
	char header[512];
	int nrows;
	int ncols[PT_ROWS];
	char *col[PT_ROWS][PT_COLS];
	char *lines[PT_ROWS];
};

/* A new empty directory (under build/ when it exists, else /tmp). */
static inline int pt_mkdir(char *out, size_t len)
{
	struct stat st;

	snprintf(out, len, "%s/prof_test.XXXXXX",
		 stat("build", &st) == 0 ? "build" : "/tmp");
	return mkdtemp(out) ? 0 : -1;
}

static inline int pt_rm_one(const char *path, const struct stat *st, int flag,
			    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Remove a directory the test made, and everything in it. */
static inline void pt_rmtree(const char *dir)
{
	if (dir[0])
		nftw(dir, pt_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The one PROF_* directory under out (0), or -1 when none or several. */
static inline int pt_session_dir(const char *out, char *dir, size_t len)
{
	DIR *d = opendir(out);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "PROF_", 5)) {
			snprintf(dir, len, "%s/%s", out, e->d_name);
			n++;
		}
	closedir(d);
	return n == 1 ? 0 : -1;
}

/* Read dir/rel: the header line, then each row split at tabs. */
static inline int pt_read(const char *dir, const char *rel, struct pt_table *t)
{
	char path[1024], line[2048];
	FILE *f;

	memset(t, 0, sizeof(*t));
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(t->header, sizeof(t->header), f)) {
		fclose(f);
		return -1;
	}
	t->header[strcspn(t->header, "\n")] = 0;
	while (t->nrows < PT_ROWS && fgets(line, sizeof(line), f)) {
		char *s, *save = NULL;
		int r = t->nrows++;

		line[strcspn(line, "\n")] = 0;
		t->lines[r] = strdup(line);
		s = strdup(line);
		for (char *tok = strtok_r(s, "\t", &save);
		     tok && t->ncols[r] < PT_COLS; tok = strtok_r(NULL, "\t", &save))
			t->col[r][t->ncols[r]++] = tok;
	}
	fclose(f);
	return 0;
}

/* The first row whose column c is v, from row from; -1 when none. */
static inline int pt_find(const struct pt_table *t, int c, const char *v, int from)
{
	for (int r = from; r < t->nrows; r++)
		if (t->ncols[r] > c && !strcmp(t->col[r][c], v))
			return r;
	return -1;
}

static inline unsigned long long pt_u64(const struct pt_table *t, int r, int c)
{
	return strtoull(t->col[r][c], NULL, 10);
}

#endif /* PROF_TEST_UTIL_H */
