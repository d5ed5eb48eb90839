// SPDX-License-Identifier: MIT
/*
 * Profiling sessions on the real driver (lib/prof, Documentation/
 * profiling.md): every misuse code of aclprofCreateConfig, SetConfig,
 * Init, Start, Stop and Finalize; the raw data directory of a session
 * (task.tsv holds exactly the launched tasks, each tag naming its
 * operator in tags.tsv; api.tsv the called APIs); captured graphs,
 * models, threads and two devices; a ring too small (dropped records
 * reported); acl.json's "profiler" section and PROFILER_SAMPLECONFIG;
 * and tags without a session. Links the internal archive to read
 * prof_rt_mask and to watch the ring without a session.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"
#include "kselftest_harness.h"
#include "core/prof_rt.h"
#include "prof/prof.h"
#include "om_builder.h"

#define N 256			/* floats per tensor */
#define MAX_TAGS 4096

/* --- reading a raw data directory ----------------------------------- */

struct raw {
	char dir[512];
	char *tag_type[MAX_TAGS];	/* tags.tsv: tag -> op_type */
	char *tag_name[MAX_TAGS];
	uint32_t tag_model[MAX_TAGS];
};

/* The only PROF_* directory under base (0), or -1 (none or several). */
static int find_prof_dir(const char *base, char *out, size_t len)
{
	DIR *d = opendir(base);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "PROF_", 5)) {
			snprintf(out, len, "%s/%s", base, e->d_name);
			n++;
		}
	closedir(d);
	return n == 1 ? 0 : -1;
}

static int count_prof_dirs(const char *base)
{
	DIR *d = opendir(base);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, "PROF_", 5);
	closedir(d);
	return n;
}

/* Split a tsv line in place: up to max fields, returns the count. */
static int fields(char *line, char **f, int max)
{
	int n = 0;

	line[strcspn(line, "\n")] = 0;
	while (n < max) {
		f[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = 0;
	}
	return n;
}

static FILE *open_rel(const struct raw *r, const char *rel)
{
	char path[768];

	snprintf(path, sizeof(path), "%s/%s", r->dir, rel);
	return fopen(path, "r");
}

static int load_tags(struct raw *r)
{
	FILE *f = open_rel(r, "host/data/tags.tsv");
	char line[1024], *fl[8];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		if (fields(line, fl, 8) < 6)
			continue;
		unsigned t = (unsigned)strtoul(fl[0], NULL, 10);

		if (t && t < MAX_TAGS) {
			r->tag_type[t] = strdup(fl[2]);
			r->tag_name[t] = strdup(fl[3]);
			r->tag_model[t] = (uint32_t)strtoul(fl[1], NULL, 10);
		}
	}
	fclose(f);
	return 0;
}

static void raw_free(struct raw *r)
{
	for (int i = 0; i < MAX_TAGS; i++) {
		free(r->tag_type[i]);
		free(r->tag_name[i]);
	}
}

static int raw_open(struct raw *r, const char *base)
{
	memset(r, 0, sizeof(*r));
	if (find_prof_dir(base, r->dir, sizeof(r->dir)))
		return -1;
	return load_tags(r);
}

/* KERNEL task records of a device whose tag's op type is type (NULL: all). */
static int count_tasks(const struct raw *r, int dev, const char *type,
		       int *untagged)
{
	char rel[64], line[512], *fl[16];
	int n = 0;
	FILE *f;

	snprintf(rel, sizeof(rel), "device_%d/data/task.tsv", dev);
	f = open_rel(r, rel);
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned tag;

		if (line[0] == '#' || fields(line, fl, 16) < 14)
			continue;
		if (strcmp(fl[0], "task") || atoi(fl[6]) != DRM_VNPU_TASK_KERNEL)
			continue;
		tag = (unsigned)strtoul(fl[5], NULL, 10);
		if (!tag || tag >= MAX_TAGS || !r->tag_type[tag]) {
			if (untagged)
				(*untagged)++;
			continue;
		}
		if (!type || !strcmp(r->tag_type[tag], type))
			n++;
	}
	fclose(f);
	return n;
}

/* Task records of any type whose tag is (type, task_type in tags.tsv). */
static int count_typed(const struct raw *r, int dev, const char *type,
		       const char *task_type)
{
	FILE *t = open_rel(r, "host/data/tags.tsv"), *f;
	char line[1024], rel[64], *fl[16];
	static bool kind_ok[MAX_TAGS];
	int n = 0;

	memset(kind_ok, 0, sizeof(kind_ok));
	while (t && fgets(line, sizeof(line), t)) {
		if (line[0] != '#' && fields(line, fl, 8) >= 6 &&
		    !strcmp(fl[4], task_type) && strtoul(fl[0], NULL, 10) < MAX_TAGS)
			kind_ok[strtoul(fl[0], NULL, 10)] = true;
	}
	if (t)
		fclose(t);
	snprintf(rel, sizeof(rel), "device_%d/data/task.tsv", dev);
	f = open_rel(r, rel);
	while (f && fgets(line, sizeof(line), f)) {
		unsigned tag;

		if (line[0] == '#' || fields(line, fl, 16) < 14 || strcmp(fl[0], "task"))
			continue;
		tag = (unsigned)strtoul(fl[5], NULL, 10);
		if (tag && tag < MAX_TAGS && kind_ok[tag] && r->tag_type[tag] &&
		    !strcmp(r->tag_type[tag], type))
			n++;
	}
	if (f)
		fclose(f);
	return n;
}

static int count_lines(const struct raw *r, const char *rel)
{
	FILE *f = open_rel(r, rel);
	char line[1024];
	int n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		n += line[0] != '#';
	fclose(f);
	return n;
}

/* A number of a JSON file: "key": N. -1 when missing. */
static long long json_num(const struct raw *r, const char *rel, const char *key)
{
	char buf[8192], pat[64], *p;
	FILE *f = open_rel(r, rel);
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	snprintf(pat, sizeof(pat), "\"%s\"", key);
	p = strstr(buf, pat);
	if (!p)
		return -1;
	p = strchr(p, ':');
	return p ? strtoll(p + 1, NULL, 10) : -1;
}

/* api.tsv: lines naming name (all with start <= end), or -1 if one is not. */
static int api_count(const struct raw *r, const char *name)
{
	FILE *f = open_rel(r, "host/data/api.tsv");
	char line[512], *fl[8];
	int n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || fields(line, fl, 8) < 6)
			continue;
		if (strtoull(fl[4], NULL, 10) > strtoull(fl[5], NULL, 10)) {
			n = -1;
			break;
		}
		if (!strcmp(fl[1], name))
			n++;
	}
	fclose(f);
	return n;
}

static void rm_rf(const char *path)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	if (system(cmd))
		fprintf(stderr, "# could not remove %s\n", path);
}

/* --- running operators ------------------------------------------------- */

struct bufs {
	void *d[3];
	aclTensor *t[3];
};

static int bufs_make(struct bufs *b)
{
	int64_t dims[1] = { N };
	float h[N];

	for (int i = 0; i < N; i++)
		h[i] = (float)i;
	for (int i = 0; i < 3; i++) {
		if (aclrtMalloc(&b->d[i], sizeof(h), ACL_MEM_MALLOC_HUGE_FIRST) ||
		    aclrtMemcpy(b->d[i], sizeof(h), h, sizeof(h),
				ACL_MEMCPY_HOST_TO_DEVICE))
			return -1;
		b->t[i] = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0,
					  ACL_FORMAT_ND, dims, 1, b->d[i]);
		if (!b->t[i])
			return -1;
	}
	return 0;
}

static void bufs_free(struct bufs *b)
{
	for (int i = 0; i < 3; i++) {
		aclDestroyTensor(b->t[i]);
		aclrtFree(b->d[i]);
	}
}

static int add(struct bufs *b, aclrtStream s)
{
	float one = 1.0f;
	aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
	aclOpExecutor *ex;
	uint64_t ws = 0;
	int ret;

	ret = aclnnAddGetWorkspaceSize(b->t[0], b->t[1], alpha, b->t[2], &ws, &ex);
	if (!ret)
		ret = ws ? -1 : aclnnAdd(NULL, 0, ex, s);
	aclDestroyScalar(alpha);
	return ret;
}

static int mul(struct bufs *b, aclrtStream s)
{
	aclOpExecutor *ex;
	uint64_t ws = 0;
	int ret;

	ret = aclnnMulGetWorkspaceSize(b->t[0], b->t[1], b->t[2], &ws, &ex);
	if (!ret)
		ret = ws ? -1 : aclnnMul(NULL, 0, ex, s);
	return ret;
}

/* --- fixture ------------------------------------------------------------ */

FIXTURE(prof) {
	char base[64];
	aclrtStream s;
	struct bufs b;
	struct raw r;
	uint32_t ndev;
};

FIXTURE_SETUP(prof)
{
	snprintf(self->base, sizeof(self->base), "/tmp/acl_prof_XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->base));
	setenv("VNPU_PROF_EXPORT", "0", 1);
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetDeviceCount(&self->ndev));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s));
	ASSERT_EQ(0, bufs_make(&self->b));
	memset(&self->r, 0, sizeof(self->r));
}

FIXTURE_TEARDOWN(prof)
{
	bufs_free(&self->b);
	aclrtDestroyStream(self->s);
	aclrtResetDevice(0);
	aclFinalize();
	raw_free(&self->r);
	rm_rf(self->base);
	unsetenv("VNPU_PROF_RING_RECORDS");
}

static uint32_t dev0[1] = { 0 };

TEST_F(prof, create_config_rules)
{
	uint32_t devs[2] = { 0, 0 }, bad[1] = { self->ndev };
	aclprofConfig *c;

	/* aicoreEvents must be NULL. */
	EXPECT_EQ(NULL, aclprofCreateConfig(dev0, 1, ACL_AICORE_NONE,
					    (const aclprofAicoreEvents *)dev0,
					    ACL_PROF_TASK_TIME));
	EXPECT_NE(NULL, strstr(aclGetRecentErrMsg(), "aicoreEvents"));
	/* No devices: only for msproftx. */
	EXPECT_EQ(NULL, aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL,
					    ACL_PROF_TASK_TIME));
	EXPECT_NE(NULL, strstr(aclGetRecentErrMsg(), "deviceNums"));
	c = aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, ACL_PROF_MSPROFTX);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(ACL_SUCCESS, aclprofDestroyConfig(c));
	EXPECT_EQ(NULL, aclprofCreateConfig(NULL, 1, ACL_AICORE_NONE, NULL,
					    ACL_PROF_TASK_TIME));
	EXPECT_EQ(NULL, aclprofCreateConfig(bad, 1, ACL_AICORE_NONE, NULL,
					    ACL_PROF_TASK_TIME));
	EXPECT_NE(NULL, strstr(aclGetRecentErrMsg(), "does not exist"));
	EXPECT_EQ(NULL, aclprofCreateConfig(devs, 2, ACL_AICORE_NONE, NULL,
					    ACL_PROF_TASK_TIME));
	EXPECT_NE(NULL, strstr(aclGetRecentErrMsg(), "twice"));
	EXPECT_EQ(NULL, aclprofCreateConfig(dev0, 65, ACL_AICORE_NONE, NULL,
					    ACL_PROF_TASK_TIME));
	EXPECT_EQ(NULL, aclprofCreateConfig(dev0, 1, (aclprofAicoreMetrics)9,
					    NULL, ACL_PROF_TASK_TIME));
	EXPECT_NE(NULL, strstr(aclGetRecentErrMsg(), "aicoreMetrics"));
	EXPECT_EQ(NULL, aclprofCreateConfig(dev0, 1, ACL_AICORE_NONE, NULL,
					    ACL_PROF_TASK_TIME | 0x400));
	EXPECT_NE(NULL, strstr(aclGetRecentErrMsg(), "unknown bits"));
	/* Every metric and every public bit is accepted. */
	for (int m = 0; m <= 8; m++) {
		c = aclprofCreateConfig(dev0, 1, (aclprofAicoreMetrics)m, NULL,
					ACL_PROF_ACL_API | ACL_PROF_TASK_TIME |
					ACL_PROF_AICORE_METRICS | ACL_PROF_L2CACHE);
		ASSERT_NE(NULL, c);
		EXPECT_EQ(ACL_SUCCESS, aclprofDestroyConfig(c));
	}
	/* Destroyed once only; NULL and foreign pointers refused. */
	c = aclprofCreateConfig(dev0, 1, ACL_AICORE_PIPE_UTILIZATION, NULL,
				ACL_PROF_TASK_TIME);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(ACL_SUCCESS, aclprofDestroyConfig(c));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclprofDestroyConfig(c));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclprofDestroyConfig(NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclprofDestroyConfig((const aclprofConfig *)devs));
}

TEST_F(prof, set_config_rules)
{
	static const struct { aclprofConfigType t; const char *v; int ok; } cases[] = {
		{ ACL_PROF_STORAGE_LIMIT, "200", 1 },
		{ ACL_PROF_STORAGE_LIMIT, "4096MB", 1 },
		{ ACL_PROF_STORAGE_LIMIT, "199", 0 },
		{ ACL_PROF_STORAGE_LIMIT, "4294967296", 0 },
		{ ACL_PROF_STORAGE_LIMIT, "lots", 0 },
		{ ACL_PROF_SYS_HARDWARE_MEM_FREQ, "100", 1 },
		{ ACL_PROF_SYS_HARDWARE_MEM_FREQ, "0", 0 },
		{ ACL_PROF_SYS_HARDWARE_MEM_FREQ, "101", 0 },
		{ ACL_PROF_LLC_MODE, "read", 1 },
		{ ACL_PROF_LLC_MODE, "capacity", 0 },
		{ ACL_PROF_SYS_IO_FREQ, "1", 1 },
		{ ACL_PROF_SYS_INTERCONNECTION_FREQ, "50", 1 },
		{ ACL_PROF_SYS_INTERCONNECTION_FREQ, "51", 0 },
		{ ACL_PROF_DVPP_FREQ, "100", 1 },
		{ ACL_PROF_HOST_SYS, "cpu,mem", 1 },
		{ ACL_PROF_HOST_SYS, "disk", 0 },
		{ ACL_PROF_HOST_SYS_USAGE, "mem", 1 },
		{ ACL_PROF_HOST_SYS_USAGE_FREQ, "50", 1 },
		{ ACL_PROF_HOST_SYS_USAGE_FREQ, "51", 0 },
		{ ACL_PROF_LOW_POWER_FREQ, "7", 1 },
		{ ACL_PROF_SYS_CPU_FREQ, "51", 0 },
		{ ACL_PROF_NTS_METRICS, "PipeUtilization", 1 },
		{ ACL_PROF_NTS_METRICS, "Memory", 0 },
		{ ACL_PROF_OPTYPE, "Conv2D", 1 },
		{ ACL_PROF_SYS_MEM_SERVICEFLOW, "", 0 },
	};
	char longv[300];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		EXPECT_EQ(cases[i].ok ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM,
			  aclprofSetConfig(cases[i].t, cases[i].v,
					   strlen(cases[i].v) + 1)) {
			TH_LOG("type %d value '%s'", cases[i].t, cases[i].v);
		}
	}
	/* Types, NULL and lengths. */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclprofSetConfig(ACL_PROF_ARGS_MIN, "1", 2));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclprofSetConfig((aclprofConfigType)2, "1", 2));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclprofSetConfig(ACL_PROF_ARGS_MAX, "1", 2));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclprofSetConfig(ACL_PROF_DVPP_FREQ, NULL, 2));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclprofSetConfig(ACL_PROF_DVPP_FREQ, "1", 0));
	memset(longv, 'a', sizeof(longv));
	longv[sizeof(longv) - 1] = 0;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclprofSetConfig(ACL_PROF_OPTYPE, longv, 257));
	EXPECT_EQ(ACL_SUCCESS, aclprofSetConfig(ACL_PROF_OPTYPE, longv, 256));
	/* The length counts: "12" cut to one byte is "1". */
	EXPECT_EQ(ACL_SUCCESS, aclprofSetConfig(ACL_PROF_SYS_CPU_FREQ, "51", 1));
}

TEST_F(prof, init_rules)
{
	char longp[4200];

	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclprofInit(NULL, 10));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclprofInit(self->base, 0));
	memset(longp, 'a', sizeof(longp));
	longp[0] = '/';
	longp[sizeof(longp) - 1] = 0;
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclprofInit(longp, 4097));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclprofInit("", 1));
	/* A path that cannot be a directory. */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclprofInit("/proc/self/nope/x", 18));
	EXPECT_NE(NULL, strstr(aclGetRecentErrMsg(), "cannot create"));
	/* Nothing to stop, start or finalize before aclprofInit. */
	EXPECT_EQ(ACL_ERROR_PROF_NOT_RUN, aclprofFinalize());
	setenv("PROFILING_MODE", "dynamic", 1);
	EXPECT_EQ(ACL_ERROR_FEATURE_UNSUPPORTED,
		  aclprofInit(self->base, strlen(self->base)));
	unsetenv("PROFILING_MODE");
	ASSERT_EQ(ACL_SUCCESS, aclprofInit(self->base, strlen(self->base)));
	EXPECT_EQ(ACL_ERROR_REPEAT_INITIALIZE,
		  aclprofInit(self->base, strlen(self->base)));
	EXPECT_EQ(ACL_SUCCESS, aclprofFinalize());
	EXPECT_EQ(ACL_ERROR_PROF_NOT_RUN, aclprofFinalize());
	/* Init makes the directory; Init/Finalize pairs may repeat. */
	strcat(self->base, "/sub/dir");
	ASSERT_EQ(ACL_SUCCESS, aclprofInit(self->base, strlen(self->base)));
	EXPECT_EQ(ACL_SUCCESS, access(self->base, W_OK));
	EXPECT_EQ(ACL_SUCCESS, aclprofFinalize());
	self->base[strlen(self->base) - 8] = 0;
	/* Before aclInit. */
	aclFinalize();
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE,
		  aclprofInit(self->base, strlen(self->base)));
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
}

TEST_F(prof, start_stop_rules)
{
	aclprofConfig *c, *c2, *c3;
	uint32_t dev1[1] = { 1 };

	c = aclprofCreateConfig(dev0, 1, ACL_AICORE_NONE, NULL,
				ACL_PROF_TASK_TIME | ACL_PROF_ACL_API);
	c2 = aclprofCreateConfig(dev0, 1, ACL_AICORE_NONE, NULL,
				 ACL_PROF_ACL_API);
	ASSERT_NE(NULL, c);
	ASSERT_NE(NULL, c2);
	EXPECT_EQ(ACL_ERROR_PROF_NOT_RUN, aclprofStart(c));
	EXPECT_EQ(ACL_ERROR_PROF_NOT_RUN, aclprofStop(c));
	ASSERT_EQ(ACL_SUCCESS, aclprofInit(self->base, strlen(self->base)));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclprofStart(NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclprofStop(NULL));
	EXPECT_EQ(ACL_ERROR_PROF_NOT_RUN, aclprofStop(c));
	ASSERT_EQ(ACL_SUCCESS, aclprofStart(c));
	EXPECT_EQ(0u, prof_rt_mask & ~(ACL_PROF_TASK_TIME | ACL_PROF_ACL_API |
				       ACL_PROF_TASK_TIME_L0 |
				       ACL_PROF_TRAINING_TRACE |
				       0x4000000000000000ull));
	EXPECT_TRUE(prof_collecting(ACL_PROF_TASK_TIME));
	EXPECT_NE(NULL, prof_session_dir());
	/* The same config, or another on the same device. */
	EXPECT_EQ(ACL_ERROR_PROF_ALREADY_RUN, aclprofStart(c));
	EXPECT_EQ(ACL_ERROR_PROF_ALREADY_RUN, aclprofStart(c2));
	EXPECT_NE(NULL, strstr(aclGetRecentErrMsg(), "device 0"));
	/* Running: no config changes, no destroying its config. */
	EXPECT_EQ(ACL_ERROR_PROF_ALREADY_RUN,
		  aclprofSetConfig(ACL_PROF_DVPP_FREQ, "5", 2));
	EXPECT_EQ(ACL_ERROR_PROF_ALREADY_RUN, aclprofDestroyConfig(c));
	/* Stop takes the config that started. */
	EXPECT_EQ(ACL_ERROR_PROF_NOT_RUN, aclprofStop(c2));
	EXPECT_EQ(ACL_SUCCESS, aclprofStop(c));
	EXPECT_EQ(0u, prof_rt_mask);
	EXPECT_EQ(NULL, prof_session_dir());
	EXPECT_EQ(ACL_ERROR_PROF_NOT_RUN, aclprofStop(c));
	/* A device nobody opened. */
	if (self->ndev > 1) {
		c3 = aclprofCreateConfig(dev1, 1, ACL_AICORE_NONE, NULL,
					 ACL_PROF_TASK_TIME);
		ASSERT_NE(NULL, c3);
		EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclprofStart(c3));
		EXPECT_NE(NULL, strstr(aclGetRecentErrMsg(), "not open"));
		EXPECT_EQ(ACL_SUCCESS, aclprofDestroyConfig(c3));
	}
	/* Finalize stops what still runs. */
	ASSERT_EQ(ACL_SUCCESS, aclprofStart(c2));
	EXPECT_EQ(ACL_SUCCESS, aclprofFinalize());
	EXPECT_EQ(0u, prof_rt_mask);
	EXPECT_EQ(ACL_ERROR_PROF_NOT_RUN, aclprofStop(c2));
	EXPECT_EQ(ACL_SUCCESS, aclprofDestroyConfig(c));
	EXPECT_EQ(ACL_SUCCESS, aclprofDestroyConfig(c2));
	/* A destroyed config cannot start. */
	ASSERT_EQ(ACL_SUCCESS, aclprofInit(self->base, strlen(self->base)));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclprofStart(c));
	EXPECT_EQ(ACL_SUCCESS, aclprofFinalize());
	EXPECT_EQ(2, count_prof_dirs(self->base));
}

/* A subscriber counting KERNEL records tagged aclnnAdd. */
struct seen {
	pthread_mutex_t lock;
	int add, other;
};

static void watch(const struct prof_task_rec *rec, void *arg)
{
	struct seen *s = arg;
	struct prof_tag_info ti;

	if (rec->r.kind != DRM_VNPU_PROF_KIND_TASK ||
	    rec->r.type != DRM_VNPU_TASK_KERNEL)
		return;
	pthread_mutex_lock(&s->lock);
	if (!prof_tag_lookup(rec->r.tag, &ti) && !strcmp(ti.op_type, "Add") &&
	    !strcmp(ti.op_name, "aclnnAdd") && ti.kind == PROF_TASK_AI_CORE)
		s->add++;
	else
		s->other++;
	pthread_mutex_unlock(&s->lock);
}

/* Eager operators: one record per launched KERNEL task, tagged. */
TEST_F(prof, eager_ops)
{
	struct seen seen = { PTHREAD_MUTEX_INITIALIZER, 0, 0 };
	aclprofConfig *c;
	int untagged = 0, adds = 5, muls = 3, id;

	c = aclprofCreateConfig(dev0, 1, ACL_AICORE_PIPE_UTILIZATION, NULL,
				ACL_PROF_TASK_TIME | ACL_PROF_ACL_API);
	ASSERT_NE(NULL, c);
	/* Work before the start is not in the session. */
	ASSERT_EQ(0, add(&self->b, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, aclprofInit(self->base, strlen(self->base)));
	ASSERT_EQ(ACL_SUCCESS, aclprofStart(c));
	id = prof_device_subscribe(0, watch, &seen);
	ASSERT_LT(0, id);
	for (int i = 0; i < adds; i++)
		ASSERT_EQ(0, add(&self->b, self->s));
	for (int i = 0; i < muls; i++)
		ASSERT_EQ(0, mul(&self->b, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	/* The sync handed the records out; no waiting for the drainer. */
	pthread_mutex_lock(&seen.lock);
	EXPECT_EQ(adds, seen.add);
	EXPECT_EQ(muls, seen.other);
	pthread_mutex_unlock(&seen.lock);
	prof_device_unsubscribe(0, id);
	ASSERT_EQ(ACL_SUCCESS, aclprofStop(c));
	ASSERT_EQ(ACL_SUCCESS, aclprofFinalize());
	EXPECT_EQ(ACL_SUCCESS, aclprofDestroyConfig(c));

	ASSERT_EQ(0, raw_open(&self->r, self->base));
	EXPECT_EQ(adds, count_tasks(&self->r, 0, "Add", &untagged));
	EXPECT_EQ(muls, count_tasks(&self->r, 0, "Mul", &untagged));
	EXPECT_EQ(adds + muls, count_tasks(&self->r, 0, NULL, &untagged));
	EXPECT_EQ(0, untagged);
	/* Every launch is a task record, and the jobs are recorded. */
	EXPECT_EQ(adds + muls, count_lines(&self->r, "host/data/launch.tsv"));
	EXPECT_EQ(adds, api_count(&self->r, "aclnnAdd"));
	EXPECT_EQ(adds, api_count(&self->r, "aclnnAddGetWorkspaceSize"));
	EXPECT_EQ(muls, api_count(&self->r, "aclnnMul"));
	EXPECT_LE(1, api_count(&self->r, "aclrtSynchronizeStream"));
	EXPECT_EQ(0, json_num(&self->r, "device_0/info.json", "dropped"));
	EXPECT_EQ(count_lines(&self->r, "device_0/data/task.tsv"),
		  json_num(&self->r, "device_0/info.json", "records"));
	EXPECT_EQ(16384, json_num(&self->r, "device_0/info.json", "ring_records"));
	EXPECT_LT(0, json_num(&self->r, "device_0/info.json", "engines"));
	EXPECT_EQ(getpid(), json_num(&self->r, "info.json", "pid"));
	EXPECT_LT(0, json_num(&self->r, "info.json", "stop_ns"));
	EXPECT_EQ(1, json_num(&self->r, "info.json", "version"));
}

/* Tasks of a model node, checked against its tag's model and node name. */
static int count_node(const struct raw *r, const char *type, const char *node,
		      uint32_t model)
{
	FILE *f = open_rel(r, "device_0/data/task.tsv");
	char line[512], *fl[16];
	int n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned tag;

		if (line[0] == '#' || fields(line, fl, 16) < 14 || strcmp(fl[0], "task"))
			continue;
		tag = (unsigned)strtoul(fl[5], NULL, 10);
		if (tag && tag < MAX_TAGS && r->tag_type[tag] &&
		    !strcmp(r->tag_type[tag], type) &&
		    !strcmp(r->tag_name[tag], node) && r->tag_model[tag] == model)
			n++;
	}
	fclose(f);
	return n;
}

/* A model's every node once per execution, with its model id and shapes. */
TEST_F(prof, model_nodes)
{
	size_t size;
	void *img = om_build_add_relu(&size), *d[3];
	aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
	aclprofConfig *c;
	uint32_t id;
	char line[512];
	int shapes_ok = 0;
	FILE *f;

	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromMem(img, size, &id));
	for (int i = 0; i < 3; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&d[i], 24, ACL_MEM_MALLOC_HUGE_FIRST));
		ASSERT_EQ(ACL_SUCCESS, aclrtMemset(d[i], 24, 0, 24));
		ASSERT_EQ(ACL_SUCCESS,
			  aclmdlAddDatasetBuffer(i < 2 ? in : out,
						 aclCreateDataBuffer(d[i], 24)));
	}
	c = aclprofCreateConfig(dev0, 1, ACL_AICORE_NONE, NULL,
				ACL_PROF_TASK_TIME | ACL_PROF_ACL_API);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(ACL_SUCCESS, aclprofInit(self->base, strlen(self->base)));
	ASSERT_EQ(ACL_SUCCESS, aclprofStart(c));
	for (int k = 0; k < 4; k++)
		ASSERT_EQ(ACL_SUCCESS, aclmdlExecute(id, in, out));
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecuteAsync(id, in, out, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, aclprofStop(c));
	ASSERT_EQ(ACL_SUCCESS, aclprofFinalize());
	EXPECT_EQ(ACL_SUCCESS, aclprofDestroyConfig(c));
	ASSERT_EQ(0, raw_open(&self->r, self->base));
	EXPECT_EQ(5, count_node(&self->r, "Add", "add", id));
	EXPECT_EQ(5, count_node(&self->r, "Relu", "relu", id));
	EXPECT_EQ(5, count_lines(&self->r, "host/data/model.tsv"));
	EXPECT_EQ(4, api_count(&self->r, "aclmdlExecute"));
	EXPECT_EQ(1, api_count(&self->r, "aclmdlExecuteAsync"));
	f = open_rel(&self->r, "host/data/tags.tsv");
	ASSERT_NE(NULL, f);
	while (fgets(line, sizeof(line), f))
		shapes_ok += strstr(line, "\tAdd\tadd\tAI_CORE\t2,3;2,3|2,3\n") != NULL;
	fclose(f);
	EXPECT_EQ(1, shapes_ok);
	for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(in); i++)
		aclDestroyDataBuffer(aclmdlGetDatasetBuffer(in, i));
	aclDestroyDataBuffer(aclmdlGetDatasetBuffer(out, 0));
	aclmdlDestroyDataset(in);
	aclmdlDestroyDataset(out);
	for (int i = 0; i < 3; i++)
		aclrtFree(d[i]);
	EXPECT_EQ(ACL_SUCCESS, aclmdlUnload(id));
	free(img);
}

/* Memory events and runtime spans when asked for. */
TEST_F(prof, memory_and_runtime)
{
	aclprofConfig *c;
	void *p = NULL;
	char line[256], addr[32];
	long long alloc = 0, freed = 0;
	FILE *f;

	c = aclprofCreateConfig(dev0, 1, ACL_AICORE_NONE, NULL,
				ACL_PROF_TASK_MEMORY | ACL_PROF_RUNTIME_API |
				ACL_PROF_TASK_TIME);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(ACL_SUCCESS, aclprofInit(self->base, strlen(self->base)));
	ASSERT_EQ(ACL_SUCCESS, aclprofStart(c));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&p, 123456, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(p, 123456, 1, 123456, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtFree(p));
	ASSERT_EQ(ACL_SUCCESS, aclprofStop(c));
	ASSERT_EQ(ACL_SUCCESS, aclprofFinalize());
	EXPECT_EQ(ACL_SUCCESS, aclprofDestroyConfig(c));
	ASSERT_EQ(0, raw_open(&self->r, self->base));
	f = open_rel(&self->r, "host/data/mem.tsv");
	ASSERT_NE(NULL, f);
	snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)(uintptr_t)p);
	while (fgets(line, sizeof(line), f)) {
		char *fl[8];
		long long v;

		if (line[0] == '#' || fields(line, fl, 8) < 5 || strcmp(fl[3], addr))
			continue;
		v = strtoll(fl[4], NULL, 10);
		EXPECT_EQ(0, atoi(fl[0]));
		if (v > 0)
			alloc = v;
		else
			freed = v;
	}
	fclose(f);
	EXPECT_LE(123456, alloc);
	EXPECT_EQ(-alloc, freed);
	/* No AscendCL spans (not asked for); the runtime's are there. */
	EXPECT_EQ(0, api_count(&self->r, "aclrtMalloc"));
	EXPECT_LE(1, api_count(&self->r, "Submit") + api_count(&self->r, "SubmitWait"));
	/* The fill is a MEMCPY task named by its API. */
	EXPECT_LE(1, count_typed(&self->r, 0, "MemsetAsync", "MEMCPY"));
}

/* A captured graph replayed 3 times: 3 times its tasks, with their tags. */
TEST_F(prof, graph_replay)
{
	aclprofConfig *c;
	aclmdlRI ri;
	int untagged = 0;

	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s,
						    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	ASSERT_EQ(0, add(&self->b, self->s));
	ASSERT_EQ(0, mul(&self->b, self->s));
	ASSERT_EQ(0, add(&self->b, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));
	c = aclprofCreateConfig(dev0, 1, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(ACL_SUCCESS, aclprofInit(self->base, strlen(self->base)));
	ASSERT_EQ(ACL_SUCCESS, aclprofStart(c));
	for (int k = 0; k < 3; k++)
		ASSERT_EQ(ACL_SUCCESS, aclmdlRIExecuteAsync(ri, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, aclprofStop(c));
	ASSERT_EQ(ACL_SUCCESS, aclprofFinalize());
	EXPECT_EQ(ACL_SUCCESS, aclprofDestroyConfig(c));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
	ASSERT_EQ(0, raw_open(&self->r, self->base));
	EXPECT_EQ(6, count_tasks(&self->r, 0, "Add", &untagged));
	EXPECT_EQ(3, count_tasks(&self->r, 0, "Mul", &untagged));
	EXPECT_EQ(0, untagged);
	/* The replays are model executions of the graph. */
	EXPECT_EQ(3, count_lines(&self->r, "host/data/model.tsv"));
}

struct worker {
	struct bufs *b;
	aclrtContext ctx;
	aclrtStream s;
	int n, use_mul, ret;
	pthread_barrier_t *done;
};

static void *launcher(void *arg)
{
	struct worker *w = arg;

	w->ret = aclrtSetCurrentContext(w->ctx);
	for (int i = 0; i < w->n && !w->ret; i++)
		w->ret = w->use_mul ? mul(w->b, w->s) : add(w->b, w->s);
	if (!w->ret)
		w->ret = aclrtSynchronizeStream(w->s);
	/*
	 * Neither thread ends (freeing its submission ring) before both
	 * have synced: liburing maps rings with raw syscalls, so TSan would
	 * take a new ring at a freed one's address for a race.
	 */
	pthread_barrier_wait(w->done);
	return NULL;
}

/* Two threads on two streams: each op's tag stays with its thread. */
TEST_F(prof, threads)
{
	pthread_barrier_t done;
	struct worker w[2] = { { &self->b, NULL, self->s, 40, 0, 0, &done },
			       { &self->b, NULL, NULL, 30, 1, 0, &done } };
	aclprofConfig *c;
	pthread_t t[2];
	int untagged = 0;

	ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&w[0].ctx));
	w[1].ctx = w[0].ctx;
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&w[1].s));
	c = aclprofCreateConfig(dev0, 1, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(ACL_SUCCESS, aclprofInit(self->base, strlen(self->base)));
	ASSERT_EQ(ACL_SUCCESS, aclprofStart(c));
	ASSERT_EQ(0, pthread_barrier_init(&done, NULL, 2));
	for (int i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, launcher, &w[i]));
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&done);
	EXPECT_EQ(0, w[0].ret);
	EXPECT_EQ(0, w[1].ret);
	ASSERT_EQ(ACL_SUCCESS, aclprofStop(c));
	ASSERT_EQ(ACL_SUCCESS, aclprofFinalize());
	EXPECT_EQ(ACL_SUCCESS, aclprofDestroyConfig(c));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(w[1].s));
	ASSERT_EQ(0, raw_open(&self->r, self->base));
	EXPECT_EQ(40, count_tasks(&self->r, 0, "Add", &untagged));
	EXPECT_EQ(30, count_tasks(&self->r, 0, "Mul", &untagged));
	EXPECT_EQ(0, untagged);
	EXPECT_EQ(70, count_lines(&self->r, "host/data/launch.tsv"));
}

/* Two devices in one session: each device's tasks in its own file. */
TEST_F(prof, two_devices)
{
	uint32_t devs[2] = { 0, 1 };
	struct bufs b1;
	aclrtStream s1;
	aclprofConfig *c;
	int untagged = 0;

	if (self->ndev < 2)
		SKIP(return, "one device");
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(1));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&s1));
	ASSERT_EQ(0, bufs_make(&b1));
	c = aclprofCreateConfig(devs, 2, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(ACL_SUCCESS, aclprofInit(self->base, strlen(self->base)));
	ASSERT_EQ(ACL_SUCCESS, aclprofStart(c));
	for (int i = 0; i < 4; i++)
		ASSERT_EQ(0, mul(&b1, s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(s1));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	for (int i = 0; i < 2; i++)
		ASSERT_EQ(0, add(&self->b, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, aclprofStop(c));
	ASSERT_EQ(ACL_SUCCESS, aclprofFinalize());
	EXPECT_EQ(ACL_SUCCESS, aclprofDestroyConfig(c));
	ASSERT_EQ(0, raw_open(&self->r, self->base));
	EXPECT_EQ(2, count_tasks(&self->r, 0, "Add", &untagged));
	EXPECT_EQ(0, count_tasks(&self->r, 0, "Mul", &untagged));
	EXPECT_EQ(4, count_tasks(&self->r, 1, "Mul", &untagged));
	EXPECT_EQ(0, count_tasks(&self->r, 1, "Add", &untagged));
	EXPECT_EQ(0, untagged);
	EXPECT_EQ(1, json_num(&self->r, "device_1/info.json", "device"));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(1));
	bufs_free(&b1);
	aclrtDestroyStream(s1);
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDevice(1));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
}

/* A forked child is not part of its parent's session, and writes nothing. */
TEST_F(prof, fork_child_not_recorded)
{
	aclprofConfig *c;
	int status = -1, untagged = 0;
	pid_t pid;

	c = aclprofCreateConfig(dev0, 1, ACL_AICORE_NONE, NULL,
				ACL_PROF_TASK_TIME | ACL_PROF_ACL_API);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(ACL_SUCCESS, aclprofInit(self->base, strlen(self->base)));
	ASSERT_EQ(ACL_SUCCESS, aclprofStart(c));
	ASSERT_EQ(0, add(&self->b, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct bufs b;
		aclrtStream s;
		int rc = 0;

		/*
		 * Flush every stdio stream (a copy of a parent's raw file
		 * would write now) and leave without exit's leak check: the
		 * child keeps the parent's objects it was forked with.
		 */
		if (prof_rt_mask || prof_session_dir())
			rc = 2;
		else if (aclInit(NULL) || aclrtSetDevice(0) ||
			 aclrtCreateStream(&s) || bufs_make(&b))
			rc = 3;
		for (int i = 0; !rc && i < 5; i++)
			if (mul(&b, s))
				rc = 4;
		if (!rc && aclrtSynchronizeStream(s))
			rc = 5;
		fflush(NULL);
		_exit(rc);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, add(&self->b, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, aclprofStop(c));
	ASSERT_EQ(ACL_SUCCESS, aclprofFinalize());
	EXPECT_EQ(ACL_SUCCESS, aclprofDestroyConfig(c));
	ASSERT_EQ(0, raw_open(&self->r, self->base));
	EXPECT_EQ(2, count_tasks(&self->r, 0, "Add", &untagged));
	EXPECT_EQ(0, count_tasks(&self->r, 0, "Mul", &untagged));
	EXPECT_EQ(0, untagged);
	EXPECT_EQ(2, count_lines(&self->r, "host/data/launch.tsv"));
	EXPECT_EQ(2, api_count(&self->r, "aclnnAdd"));
	EXPECT_EQ(0, api_count(&self->r, "aclnnMul"));
}

/* A ring of 64 records and thousands of tasks: drops counted, no harm. */
TEST_F(prof, tiny_ring_drops)
{
	aclprofConfig *c;
	long long dropped, records;
	int n = 3000;

	setenv("VNPU_PROF_RING_RECORDS", "64", 1);
	c = aclprofCreateConfig(dev0, 1, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(ACL_SUCCESS, aclprofInit(self->base, strlen(self->base)));
	ASSERT_EQ(ACL_SUCCESS, aclprofStart(c));
	for (int i = 0; i < n; i++)
		ASSERT_EQ(0, add(&self->b, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, aclprofStop(c));
	ASSERT_EQ(ACL_SUCCESS, aclprofFinalize());
	EXPECT_EQ(ACL_SUCCESS, aclprofDestroyConfig(c));
	ASSERT_EQ(0, raw_open(&self->r, self->base));
	dropped = json_num(&self->r, "device_0/info.json", "dropped");
	records = json_num(&self->r, "device_0/info.json", "records");
	EXPECT_EQ(64, json_num(&self->r, "device_0/info.json", "ring_records"));
	EXPECT_GT(dropped, 0);
	EXPECT_EQ(records, count_lines(&self->r, "device_0/data/task.tsv"));
	/* Every task is either recorded or counted as dropped. */
	EXPECT_GE(records + dropped, n);
	EXPECT_LE(count_tasks(&self->r, 0, "Add", NULL), n);
	/* The stream still works. */
	ASSERT_EQ(0, add(&self->b, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
}

/* No session: tasks carry tags, nothing is written, the mask is 0. */
TEST_F(prof, tags_without_session)
{
	struct seen seen = { PTHREAD_MUTEX_INITIALIZER, 0, 0 };
	uint32_t t1, t2;
	int id;

	/* Interning: same arguments, same tag; ids from 1. */
	t1 = prof_tag_intern("X", "x", 0, PROF_TASK_AI_CORE, NULL);
	t2 = prof_tag_intern("X", "x", 0, PROF_TASK_AI_CORE, "1,2|1,2");
	EXPECT_NE(0u, t1);
	EXPECT_EQ(t1, t2);
	EXPECT_NE(t1, prof_tag_intern("X", "x", 1, PROF_TASK_AI_CORE, NULL));
	EXPECT_NE(t1, prof_tag_intern("X", "x", 0, PROF_TASK_MEMCPY, NULL));
	EXPECT_LE(t1, prof_tag_count());
	EXPECT_EQ(-ENOENT, prof_tag_lookup(0, &(struct prof_tag_info){ 0 }));
	EXPECT_EQ(-ENOENT, prof_tag_lookup(prof_tag_count() + 1,
					   &(struct prof_tag_info){ 0 }));
	EXPECT_EQ(0u, prof_tag_swap(t1));
	EXPECT_EQ(t1, prof_tag_current());
	EXPECT_EQ(t1, prof_tag_swap(0));

	EXPECT_EQ(0u, prof_rt_mask);
	EXPECT_FALSE(prof_collecting(~0ull));
	EXPECT_EQ(NULL, prof_session_dir());
	EXPECT_EQ(-ENOENT, prof_raw_append("host/data/x.tsv", "#x", "1"));
	/* Watch the ring as a subscriber would. */
	id = prof_device_subscribe(0, watch, &seen);
	ASSERT_LT(0, id);
	for (int i = 0; i < 7; i++)
		ASSERT_EQ(0, add(&self->b, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	prof_device_drain_all();
	prof_device_unsubscribe(0, id);
	EXPECT_EQ(7, seen.add);
	EXPECT_EQ(0, seen.other);
	EXPECT_EQ(0u, prof_rt_mask);
	EXPECT_EQ(0, count_prof_dirs(self->base));
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* acl.json's "profiler" section: a session from aclInit to aclFinalize. */
TEST_F(prof, acl_json_session)
{
	char cfg[128], json[512], out[128];
	int untagged = 0;

	snprintf(cfg, sizeof(cfg), "%s/acl.json", self->base);
	snprintf(out, sizeof(out), "%s/out", self->base);
	snprintf(json, sizeof(json),
		 "{\"profiler\": {\"switch\": \"on\", \"output\": \"%s\", "
		 "\"aic_metrics\": \"PipeUtilization\", \"task_time\": \"on\", "
		 "\"sys_hardware_mem_freq\": 50, \"storage_limit\": \"500MB\"}}",
		 out);
	write_file(cfg, json);
	bufs_free(&self->b);
	aclrtDestroyStream(self->s);
	aclrtResetDevice(0);
	ASSERT_EQ(ACL_SUCCESS, aclFinalize());
	ASSERT_EQ(ACL_SUCCESS, aclInit(cfg));
	EXPECT_TRUE(prof_collecting(ACL_PROF_TASK_TIME));
	EXPECT_TRUE(prof_collecting(ACL_PROF_ACL_API));
	EXPECT_TRUE(prof_collecting(ACL_PROF_RUNTIME_API));
	EXPECT_FALSE(prof_collecting(ACL_PROF_MSPROFTX));
	/* aclprofInit is refused while it runs. */
	EXPECT_EQ(ACL_ERROR_PROF_ALREADY_RUN, aclprofInit(self->base, strlen(self->base)));
	/* Devices opened later are covered. */
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s));
	ASSERT_EQ(0, bufs_make(&self->b));
	for (int i = 0; i < 4; i++)
		ASSERT_EQ(0, add(&self->b, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, aclFinalize());
	EXPECT_EQ(0u, prof_rt_mask);
	ASSERT_EQ(0, raw_open(&self->r, out));
	EXPECT_EQ(4, count_tasks(&self->r, 0, "Add", &untagged));
	EXPECT_EQ(0, untagged);
	EXPECT_EQ(4, api_count(&self->r, "aclnnAdd"));
	/* The fixture's teardown needs a runtime again. */
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s));
	ASSERT_EQ(0, bufs_make(&self->b));
}

/* Bad values of the section make aclInit fail. */
TEST_F(prof, acl_json_bad_values)
{
	static const char *const bad[] = {
		"\"task_time\": \"maybe\"",
		"\"ascendcl\": true",
		"\"aicpu\": \"yes\"",
		"\"aic_metrics\": \"Speed\"",
		"\"sys_hardware_mem_freq\": \"50\"",
		"\"sys_hardware_mem_freq\": 101",
		"\"sys_interconnection_freq\": 51",
		"\"storage_limit\": \"100MB\"",
		"\"ge_api\": \"l2\"",
		"\"host_sys\": \"disk\"",
		"\"llc_profiling\": \"all\"",
	};
	char cfg[128], json[512];

	snprintf(cfg, sizeof(cfg), "%s/acl.json", self->base);
	bufs_free(&self->b);
	aclrtDestroyStream(self->s);
	aclrtResetDevice(0);
	ASSERT_EQ(ACL_SUCCESS, aclFinalize());
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(json, sizeof(json),
			 "{\"profiler\": {\"switch\": \"on\", \"output\": \"%s\", %s}}",
			 self->base, bad[i]);
		write_file(cfg, json);
		EXPECT_EQ(ACL_ERROR_INVALID_PROFILING_CONFIG, aclInit(cfg)) {
			TH_LOG("%s", bad[i]);
		}
		EXPECT_EQ(0u, prof_rt_mask);
	}
	/* Switched off: not checked, nothing collected. */
	snprintf(json, sizeof(json),
		 "{\"profiler\": {\"switch\": \"off\", \"task_time\": \"maybe\"}}");
	write_file(cfg, json);
	ASSERT_EQ(ACL_SUCCESS, aclInit(cfg));
	EXPECT_EQ(0u, prof_rt_mask);
	ASSERT_EQ(ACL_SUCCESS, aclFinalize());
	EXPECT_EQ(0, count_prof_dirs(self->base));
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s));
	ASSERT_EQ(0, bufs_make(&self->b));
}

/* msprof's PROFILER_SAMPLECONFIG wins over acl.json. */
TEST_F(prof, sampleconfig_env)
{
	char cfg[128], json[512], out[128], out2[128], env[256];
	int untagged = 0;

	snprintf(cfg, sizeof(cfg), "%s/acl.json", self->base);
	snprintf(out, sizeof(out), "%s/env", self->base);
	snprintf(out2, sizeof(out2), "%s/json", self->base);
	snprintf(json, sizeof(json),
		 "{\"profiler\": {\"switch\": \"on\", \"output\": \"%s\"}}", out2);
	write_file(cfg, json);
	snprintf(env, sizeof(env),
		 "{\"output\": \"%s\", \"task_time\": \"on\", \"ascendcl\": \"off\", "
		 "\"msproftx\": \"on\"}", out);
	bufs_free(&self->b);
	aclrtDestroyStream(self->s);
	aclrtResetDevice(0);
	ASSERT_EQ(ACL_SUCCESS, aclFinalize());
	setenv("PROFILER_SAMPLECONFIG", "{not json", 1);
	EXPECT_EQ(ACL_ERROR_INVALID_PROFILING_CONFIG, aclInit(cfg));
	setenv("PROFILER_SAMPLECONFIG", env, 1);
	ASSERT_EQ(ACL_SUCCESS, aclInit(cfg));
	unsetenv("PROFILER_SAMPLECONFIG");
	EXPECT_TRUE(prof_collecting(ACL_PROF_MSPROFTX));
	EXPECT_FALSE(prof_collecting(ACL_PROF_ACL_API));
	EXPECT_EQ(ACL_ERROR_PROF_ALREADY_RUN, aclprofInit(self->base, strlen(self->base)));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s));
	ASSERT_EQ(0, bufs_make(&self->b));
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(0, mul(&self->b, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	bufs_free(&self->b);
	ASSERT_EQ(ACL_SUCCESS, aclFinalize());
	EXPECT_EQ(0, count_prof_dirs(out2));
	ASSERT_EQ(0, raw_open(&self->r, out));
	EXPECT_EQ(3, count_tasks(&self->r, 0, "Mul", &untagged));
	EXPECT_EQ(0, untagged);
	EXPECT_EQ(0, api_count(&self->r, "aclnnMul"));
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s));
	ASSERT_EQ(0, bufs_make(&self->b));
}

TEST_HARNESS_MAIN
