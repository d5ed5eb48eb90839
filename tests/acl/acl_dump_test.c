// SPDX-License-Identifier: MIT
/*
 * Data dump (Documentation/dump.md) on the real driver: aclmdlInitDump /
 * aclmdlSetDump / aclmdlFinalizeDump with a model from om_builder.h, the
 * files that appear (the listed nodes only, in CANN's directory tree),
 * their tensors read back against a host computation for dump_mode
 * input, output and all, dump_step, the load-time rule; aclnn single-op
 * dump with dump_op_switch, acl.json's "dump" section given to aclInit
 * and the dump callback as CANN's adump samples use them, the args dump;
 * and every misuse with its code.
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "acl/acl_op_compiler.h"
#include "aclnnop/aclnn_add.h"
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"
#include "om_builder.h"

/* ------------------------------------------------------------ helpers -- */

#define MAXF 64

/* A dump file as Documentation/dump.md lays it out. */
struct dtensor {
	uint32_t output, index, dtype, format, rank;
	int64_t dims[8];
	uint64_t bytes;
	const uint8_t *data;
};

struct dfile {
	char path[PATH_MAX];
	uint8_t *buf;
	size_t size;
	uint32_t ntensors, flags, model_id, stream, task;
	uint64_t iteration;
	char type[64], name[128], model[128];
	struct dtensor t[16];
};

static size_t pad8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* Parse buf (size bytes) into f; 0 or -1 when it is not a dump. */
static int parse_dump(struct dfile *f)
{
	const uint8_t *b = f->buf;
	uint16_t tl, nl, ml;
	size_t o;

	if (f->size < 64 || memcmp(b, "VNPUDUMP", 8))
		return -1;
	if (*(const uint32_t *)(b + 8) != 1 || *(const uint32_t *)(b + 12) != 64)
		return -1;
	f->ntensors = *(const uint32_t *)(b + 16);
	f->flags = *(const uint32_t *)(b + 20);
	f->model_id = *(const uint32_t *)(b + 24);
	f->iteration = *(const uint64_t *)(b + 32);
	f->stream = *(const uint32_t *)(b + 48);
	f->task = *(const uint32_t *)(b + 52);
	tl = *(const uint16_t *)(b + 56);
	nl = *(const uint16_t *)(b + 58);
	ml = *(const uint16_t *)(b + 60);
	if (tl >= sizeof(f->type) || nl >= sizeof(f->name) || ml >= sizeof(f->model) ||
	    f->ntensors > 16)
		return -1;
	memcpy(f->type, b + 64, tl);
	f->type[tl] = 0;
	memcpy(f->name, b + 64 + tl, nl);
	f->name[nl] = 0;
	memcpy(f->model, b + 64 + tl + nl, ml);
	f->model[ml] = 0;
	o = 64 + pad8((size_t)tl + nl + ml);
	for (uint32_t i = 0; i < f->ntensors; i++) {
		struct dtensor *t = &f->t[i];
		const uint32_t *r = (const uint32_t *)(b + o);

		if (o + 24 > f->size)
			return -1;
		t->output = r[0];
		t->index = r[1];
		t->dtype = r[2];
		t->format = r[3];
		t->rank = r[4];
		if (t->rank > 8)
			return -1;
		o += 24;
		memcpy(t->dims, b + o, t->rank * 8);
		o += t->rank * 8;
		memcpy(&t->bytes, b + o, 8);
		o += 8;
		if (o + t->bytes > f->size)
			return -1;
		t->data = b + o;
		o += pad8(t->bytes);
	}
	return o == f->size ? 0 : -1;
}

static struct dfile *g_files;
static int g_nfiles;

static int collect_cb(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	struct dfile *f;
	FILE *fp;

	if (type != FTW_F || g_nfiles == MAXF)
		return 0;
	f = &g_files[g_nfiles++];
	memset(f, 0, sizeof(*f));
	snprintf(f->path, sizeof(f->path), "%s", path);
	f->size = (size_t)st->st_size;
	f->buf = malloc(f->size ? f->size : 1);
	fp = fopen(path, "rb");
	if (!fp || fread(f->buf, 1, f->size, fp) != f->size)
		f->size = 0;
	if (fp)
		fclose(fp);
	return 0;
}

/* Every file under dir, parsed (files[i].ntensors etc.); the count. */
static int collect(const char *dir, struct dfile *files)
{
	g_files = files;
	g_nfiles = 0;
	nftw(dir, collect_cb, 16, FTW_PHYS);
	for (int i = 0; i < g_nfiles; i++)
		if (parse_dump(&files[i]))
			files[i].type[0] = '?';
	return g_nfiles;
}

static void release(struct dfile *files, int n)
{
	for (int i = 0; i < n; i++)
		free(files[i].buf);
}

static const struct dfile *find(const struct dfile *files, int n, const char *type,
				uint64_t iter)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(files[i].type, type) && files[i].iteration == iter)
			return &files[i];
	return NULL;
}

static int rm_cb(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	return remove(path);
}

static void rm_rf(const char *dir)
{
	nftw(dir, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* A config file in dir with "dump": {PATH_KEY: dir, rest} */
static void write_cfg(char *cfg, size_t len, const char *dir, const char *rest)
{
	char text[2048];

	snprintf(cfg, len, "%s/cfg.json", dir);
	snprintf(text, sizeof(text), "{\"dump\": {\"dump_path\": \"%s/out\"%s%s}}", dir,
		 *rest ? ", " : "", rest);
	write_text(cfg, text);
}

static bool same_floats(const struct dtensor *t, const float *want, int n)
{
	return t->bytes == (uint64_t)n * 4 && !memcmp(t->data, want, (size_t)n * 4);
}

static bool near_floats(const struct dtensor *t, const float *want, int n, float tol)
{
	const float *v = (const float *)t->data;

	if (t->bytes != (uint64_t)n * 4)
		return false;
	for (int i = 0; i < n; i++)
		if (!(v[i] - want[i] <= tol && want[i] - v[i] <= tol))
			return false;
	return true;
}

/* ------------------------------------------------------------- model -- */

FIXTURE(d) {
	char dir[64], out[96], om[96], hm[96], cfg[128];
	aclrtStream s;
	void *in[2], *outbuf;
	aclmdlDataset *ids, *ods;
	float a[6], b[6];
	struct dfile *files;
};

FIXTURE_SETUP(d)
{
	void *img;
	size_t size;
	FILE *f;

	snprintf(self->dir, sizeof(self->dir), "/tmp/vnpu_dump_XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->out, sizeof(self->out), "%s/out", self->dir);
	ASSERT_EQ(0, mkdir(self->out, 0755));
	snprintf(self->om, sizeof(self->om), "%s/addrelu.om", self->dir);
	img = om_build_add_relu(&size);
	f = fopen(self->om, "wb");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(size, fwrite(img, 1, size, f));
	fclose(f);
	free(img);
	snprintf(self->hm, sizeof(self->hm), "%s/hostmix.om", self->dir);
	img = om_build_host_mix(&size);
	f = fopen(self->hm, "wb");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(size, fwrite(img, 1, size, f));
	fclose(f);
	free(img);
	self->files = calloc(MAXF, sizeof(*self->files));
	ASSERT_NE(NULL, self->files);

	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s));
	for (int i = 0; i < 6; i++) {
		self->a[i] = (float)i - 2.5f;
		self->b[i] = (float)(i % 2) * 1.25f;
	}
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&self->in[0], 24, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&self->in[1], 24, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&self->outbuf, 24, ACL_MEM_MALLOC_HUGE_FIRST));
	aclrtMemcpy(self->in[0], 24, self->a, 24, ACL_MEMCPY_HOST_TO_DEVICE);
	aclrtMemcpy(self->in[1], 24, self->b, 24, ACL_MEMCPY_HOST_TO_DEVICE);
	self->ids = aclmdlCreateDataset();
	self->ods = aclmdlCreateDataset();
	aclmdlAddDatasetBuffer(self->ids, aclCreateDataBuffer(self->in[0], 24));
	aclmdlAddDatasetBuffer(self->ids, aclCreateDataBuffer(self->in[1], 24));
	aclmdlAddDatasetBuffer(self->ods, aclCreateDataBuffer(self->outbuf, 24));
}

FIXTURE_TEARDOWN(d)
{
	for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(self->ids); i++)
		aclDestroyDataBuffer(aclmdlGetDatasetBuffer(self->ids, i));
	for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(self->ods); i++)
		aclDestroyDataBuffer(aclmdlGetDatasetBuffer(self->ods, i));
	aclmdlDestroyDataset(self->ids);
	aclmdlDestroyDataset(self->ods);
	aclrtFree(self->in[0]);
	aclrtFree(self->in[1]);
	aclrtFree(self->outbuf);
	aclmdlFinalizeDump();	/* may be finalized already */
	aclrtDestroyStream(self->s);
	aclrtResetDevice(0);
	aclFinalize();
	free(self->files);
	rm_rf(self->dir);
}

/* InitDump + SetDump with "dump": {dump_path: <dir>/out, rest}. */
static aclError set_dump(FIXTURE_DATA(d) *self, const char *rest)
{
	aclError e = aclmdlInitDump();

	if (e && e != ACL_ERROR_REPEAT_INITIALIZE)
		return e;
	write_cfg(self->cfg, sizeof(self->cfg), self->dir, rest);
	return aclmdlSetDump(self->cfg);
}

static aclError exec_once(FIXTURE_DATA(d) *self, uint32_t id)
{
	return aclmdlExecute(id, self->ids, self->ods);
}

TEST_F(d, model_mode_all_every_node_with_values)
{
	float sum[6], rl[6], got[6];
	const struct dfile *add, *relu;
	char want[64];
	uint32_t id;
	int n;

	ASSERT_EQ(ACL_SUCCESS, set_dump(self,
		"\"dump_list\": [{\"model_name\": \"addrelu\"}], \"dump_mode\": \"all\""));
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromFile(self->om, &id));
	ASSERT_EQ(ACL_SUCCESS, exec_once(self, id));
	for (int i = 0; i < 6; i++) {
		sum[i] = self->a[i] + self->b[i];
		rl[i] = sum[i] > 0 ? sum[i] : 0;
	}
	/* the model's own result is unchanged by the dump */
	aclrtMemcpy(got, 24, self->outbuf, 24, ACL_MEMCPY_DEVICE_TO_HOST);
	EXPECT_EQ(0, memcmp(got, rl, 24));

	n = collect(self->out, self->files);
	ASSERT_EQ(2, n);
	add = find(self->files, n, "Add", 0);
	relu = find(self->files, n, "Relu", 0);
	ASSERT_NE(NULL, add);
	ASSERT_NE(NULL, relu);
	EXPECT_STREQ("add", add->name);
	EXPECT_STREQ("addrelu", add->model);
	EXPECT_EQ(1u, add->flags);
	EXPECT_EQ(id, add->model_id);
	EXPECT_EQ(0u, add->task);
	EXPECT_EQ(1u, relu->task);
	/* inputs a, b; output the arena tensor a + b, copied before relu ran */
	ASSERT_EQ(3u, add->ntensors);
	EXPECT_EQ(0u, add->t[0].output);
	EXPECT_EQ(1u, add->t[1].index);
	EXPECT_EQ(1u, add->t[2].output);
	EXPECT_EQ(2u, add->t[2].rank);
	EXPECT_EQ(2, add->t[2].dims[0]);
	EXPECT_EQ(3, add->t[2].dims[1]);
	EXPECT_EQ((uint32_t)ACL_FLOAT, add->t[2].dtype);
	EXPECT_TRUE(same_floats(&add->t[0], self->a, 6));
	EXPECT_TRUE(same_floats(&add->t[1], self->b, 6));
	EXPECT_TRUE(same_floats(&add->t[2], sum, 6));
	ASSERT_EQ(2u, relu->ntensors);
	EXPECT_TRUE(same_floats(&relu->t[0], sum, 6));
	EXPECT_TRUE(same_floats(&relu->t[1], rl, 6));
	/* CANN's tree: <path>/<time>/<device>/<model>/<id>/<iteration>/<Type>.<Name>... */
	snprintf(want, sizeof(want), "/0/addrelu/%u/0/Add.add.0.", id);
	EXPECT_NE(NULL, strstr(add->path, want));
	release(self->files, n);

	/* a second execution: iteration 1, two more files */
	ASSERT_EQ(ACL_SUCCESS, exec_once(self, id));
	n = collect(self->out, self->files);
	EXPECT_EQ(4, n);
	EXPECT_NE(NULL, find(self->files, n, "Relu", 1));
	release(self->files, n);
	EXPECT_EQ(ACL_SUCCESS, aclmdlUnload(id));
}

TEST_F(d, model_layer_list_and_mode_output)
{
	float sum[6], rl[6];
	const struct dfile *relu;
	uint32_t id;
	int n;

	ASSERT_EQ(ACL_SUCCESS, set_dump(self,
		"\"dump_list\": [{\"model_name\": \"addrelu\", \"layer\": [\"relu\"]}], "
		"\"dump_mode\": \"output\""));
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromFile(self->om, &id));
	ASSERT_EQ(ACL_SUCCESS, exec_once(self, id));
	n = collect(self->out, self->files);
	ASSERT_EQ(1, n);
	relu = find(self->files, n, "Relu", 0);
	ASSERT_NE(NULL, relu);
	for (int i = 0; i < 6; i++) {
		sum[i] = self->a[i] + self->b[i];
		rl[i] = sum[i] > 0 ? sum[i] : 0;
	}
	ASSERT_EQ(1u, relu->ntensors);
	EXPECT_EQ(1u, relu->t[0].output);
	EXPECT_TRUE(same_floats(&relu->t[0], rl, 6));
	release(self->files, n);
	aclmdlUnload(id);
}

TEST_F(d, model_mode_input_and_default_output)
{
	const struct dfile *add;
	uint32_t id;
	int n;

	ASSERT_EQ(ACL_SUCCESS, set_dump(self,
		"\"dump_list\": [{\"model_name\": \"addrelu\", \"layer\": [\"add\"]}], "
		"\"dump_mode\": \"input\""));
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromFile(self->om, &id));
	ASSERT_EQ(ACL_SUCCESS, exec_once(self, id));
	n = collect(self->out, self->files);
	ASSERT_EQ(1, n);
	add = find(self->files, n, "Add", 0);
	ASSERT_NE(NULL, add);
	ASSERT_EQ(2u, add->ntensors);
	EXPECT_EQ(0u, add->t[0].output);
	EXPECT_EQ(0u, add->t[1].output);
	EXPECT_TRUE(same_floats(&add->t[0], self->a, 6));
	EXPECT_TRUE(same_floats(&add->t[1], self->b, 6));
	release(self->files, n);
	aclmdlUnload(id);
	rm_rf(self->out);
	ASSERT_EQ(0, mkdir(self->out, 0755));

	/* no dump_mode: CANN's default, outputs only; a second SetDump wins */
	ASSERT_EQ(ACL_SUCCESS, set_dump(self, "\"dump_list\": [{\"model_name\": \"addrelu\"}]"));
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromFile(self->om, &id));
	ASSERT_EQ(ACL_SUCCESS, exec_once(self, id));
	n = collect(self->out, self->files);
	ASSERT_EQ(2, n);
	for (int i = 0; i < n; i++) {
		EXPECT_EQ(1u, self->files[i].ntensors);
		EXPECT_EQ(1u, self->files[i].t[0].output);
	}
	release(self->files, n);
	aclmdlUnload(id);
}

TEST_F(d, model_not_listed_or_loaded_before_is_not_dumped)
{
	uint32_t id, early;

	ASSERT_EQ(ACL_SUCCESS, aclmdlInitDump());
	/* loaded before aclmdlSetDump: untouched (CANN's rule) */
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromFile(self->om, &early));
	ASSERT_EQ(ACL_SUCCESS, set_dump(self, "\"dump_list\": [{\"model_name\": \"other\"}]"));
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromFile(self->om, &id));
	ASSERT_EQ(ACL_SUCCESS, exec_once(self, id));
	ASSERT_EQ(ACL_SUCCESS, exec_once(self, early));
	EXPECT_EQ(0, collect(self->out, self->files));
	aclmdlUnload(id);
	/* now listed: the early model still is not dumped, a new load is */
	ASSERT_EQ(ACL_SUCCESS, set_dump(self, "\"dump_list\": [{\"model_name\": \"addrelu\"}]"));
	ASSERT_EQ(ACL_SUCCESS, exec_once(self, early));
	EXPECT_EQ(0, collect(self->out, self->files));
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromFile(self->om, &id));
	ASSERT_EQ(ACL_SUCCESS, exec_once(self, id));
	EXPECT_EQ(2, collect(self->out, self->files));
	release(self->files, 2);
	/* after aclmdlFinalizeDump nothing more is written */
	ASSERT_EQ(ACL_SUCCESS, aclmdlFinalizeDump());
	ASSERT_EQ(ACL_SUCCESS, exec_once(self, id));
	EXPECT_EQ(2, collect(self->out, self->files));
	release(self->files, 2);
	aclmdlUnload(id);
	aclmdlUnload(early);
}

TEST_F(d, model_dump_step_and_from_memory)
{
	char want[32];
	uint32_t id;
	void *img;
	size_t size;
	int n;

	/* every model (no model_name), iterations 1 and 3 only */
	ASSERT_EQ(ACL_SUCCESS, set_dump(self, "\"dump_list\": [{}], \"dump_step\": \"1|3\""));
	img = om_build_add_relu(&size);
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromMem(img, size, &id));
	free(img);
	for (int i = 0; i < 4; i++) {
		ASSERT_EQ(ACL_SUCCESS, exec_once(self, id));
	}
	n = collect(self->out, self->files);
	ASSERT_EQ(4, n);
	EXPECT_NE(NULL, find(self->files, n, "Add", 1));
	EXPECT_NE(NULL, find(self->files, n, "Add", 3));
	EXPECT_EQ(NULL, find(self->files, n, "Add", 0));
	EXPECT_EQ(NULL, find(self->files, n, "Add", 2));
	/* a model from memory is called model_<id> */
	snprintf(want, sizeof(want), "model_%u", id);
	EXPECT_STREQ(want, self->files[0].model);
	release(self->files, n);
	aclmdlUnload(id);
}

TEST_F(d, model_async_execute_and_host_nodes)
{
	float x[8], t[8], y[2], det[2];
	aclmdlDataset *ids = aclmdlCreateDataset(), *ods = aclmdlCreateDataset();
	void *xb, *nzb, *yb;
	const struct dfile *f;
	int n, dets = 0, relus = 0;
	uint32_t id;

	ASSERT_EQ(ACL_SUCCESS, set_dump(self, "\"dump_list\": [{}], \"dump_mode\": \"all\""));
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromFile(self->hm, &id));
	for (int i = 0; i < 8; i++) {
		x[i] = (float)((i * 5) % 7) - 3.0f;
		t[i] = x[i] + x[i];
	}
	for (int k = 0; k < 2; k++) {
		const float *m = &t[4 * k];

		det[k] = m[0] * m[3] - m[1] * m[2];
	}
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&xb, 32, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&nzb, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&yb, 8, ACL_MEM_MALLOC_HUGE_FIRST));
	aclrtMemcpy(xb, 32, x, 32, ACL_MEMCPY_HOST_TO_DEVICE);
	aclmdlAddDatasetBuffer(ids, aclCreateDataBuffer(xb, 32));
	aclmdlAddDatasetBuffer(ods, aclCreateDataBuffer(nzb, 64));
	aclmdlAddDatasetBuffer(ods, aclCreateDataBuffer(yb, 8));
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecuteAsync(id, ids, ods, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	aclrtMemcpy(y, 8, yb, 8, ACL_MEMCPY_DEVICE_TO_HOST);
	n = collect(self->out, self->files);
	EXPECT_EQ(4, n);
	f = find(self->files, n, "Add", 0);
	ASSERT_NE(NULL, f);
	EXPECT_TRUE(same_floats(&f->t[2], t, 8));
	/* the host node's output, then the device node that read it */
	for (int i = 0; i < n; i++) {
		f = &self->files[i];
		if (!strcmp(f->name, "det")) {
			ASSERT_EQ(2u, f->ntensors);
			EXPECT_TRUE(near_floats(&f->t[1], det, 2, 1e-4f));
			dets++;
		}
		if (!strcmp(f->name, "relu")) {
			EXPECT_TRUE(near_floats(&f->t[0], det, 2, 1e-4f));
			EXPECT_TRUE(same_floats(&f->t[1], y, 2));
			relus++;
		}
	}
	EXPECT_EQ(1, dets);
	EXPECT_EQ(1, relus);
	release(self->files, n);
	for (int i = 0; i < 1; i++)
		aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ids, i));
	for (int i = 0; i < 2; i++)
		aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ods, i));
	aclmdlDestroyDataset(ids);
	aclmdlDestroyDataset(ods);
	aclmdlUnload(id);
	aclrtFree(xb);
	aclrtFree(nzb);
	aclrtFree(yb);
}

/* tools/dump/vnpu-dump of this tree, found from the test's own path. */
static bool tool_path(char *out, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *cut;

	if (n <= 0)
		return false;
	exe[n] = 0;
	cut = strstr(exe, "/build/tests/acl/");
	if (!cut)
		return false;
	*cut = 0;
	if (snprintf(out, len, "%s/tools/dump/vnpu-dump", exe) >= (int)len)
		return false;
	return access(out, R_OK) == 0;
}

static int tool(const char *t, const char *args)
{
	char cmd[1024];
	int st;

	snprintf(cmd, sizeof(cmd), "/usr/bin/python3 %s %s > /dev/null", t, args);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* One run of the model into <dir>/<name>, the model loaded for it. */
static void dump_run(FIXTURE_DATA(d) *self, const char *name,
		     struct __test_metadata *_metadata)
{
	char text[512], path[128];
	uint32_t id;

	snprintf(path, sizeof(path), "%s/%s", self->dir, name);
	ASSERT_EQ(0, mkdir(path, 0755));
	snprintf(self->cfg, sizeof(self->cfg), "%s/%s.json", self->dir, name);
	snprintf(text, sizeof(text), "{\"dump\": {\"dump_path\": \"%s\", \"dump_mode\": \"all\", "
		 "\"dump_list\": [{\"model_name\": \"addrelu\"}]}}", path);
	write_text(self->cfg, text);
	ASSERT_EQ(ACL_SUCCESS, aclmdlSetDump(self->cfg));
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromFile(self->om, &id));
	ASSERT_EQ(ACL_SUCCESS, exec_once(self, id));
	ASSERT_EQ(ACL_SUCCESS, aclmdlUnload(id));
}

/* The files as vnpu-dump reads them: a rerun agrees, a changed input not. */
TEST_F(d, vnpu_dump_tool_on_real_dumps)
{
	char t[PATH_MAX], args[512];
	float a0 = self->a[0] + 3.0f;

	if (!tool_path(t, sizeof(t)))
		SKIP(return, "tools/dump/vnpu-dump is not beside this build");
	ASSERT_EQ(ACL_SUCCESS, aclmdlInitDump());
	dump_run(self, "ref", _metadata);
	dump_run(self, "rerun", _metadata);
	aclrtMemcpy(self->in[0], 4, &a0, 4, ACL_MEMCPY_HOST_TO_DEVICE);
	dump_run(self, "changed", _metadata);
	snprintf(args, sizeof(args), "list %s/ref", self->dir);
	EXPECT_EQ(0, tool(t, args));
	snprintf(args, sizeof(args), "show %s/ref", self->dir);
	EXPECT_EQ(0, tool(t, args));
	snprintf(args, sizeof(args), "compare %s/rerun %s/ref", self->dir, self->dir);
	EXPECT_EQ(0, tool(t, args));
	snprintf(args, sizeof(args), "compare %s/changed %s/ref", self->dir, self->dir);
	EXPECT_EQ(1, tool(t, args));
	snprintf(args, sizeof(args), "compare %s/changed %s/ref --atol 3.5", self->dir, self->dir);
	EXPECT_EQ(0, tool(t, args));
}

/* ---------------------------------------------------------- single op -- */

static const int64_t DIMS24[2] = { 2, 4 }, DIMS42[2] = { 4, 2 }, DIMS18[2] = { 1, 8 };

/* out = self + 2 * other on dims (8 elements), or in place into self. */
static aclnnStatus add_op_dims(FIXTURE_DATA(d) *self, void *sd, void *od, void *outd,
			       bool inplace, const int64_t *dims)
{
	float two = 2.0f;
	void *w = NULL;
	aclTensor *ts = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 2, sd);
	aclTensor *to = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 2, od);
	aclTensor *tt = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 2, outd);
	aclScalar *al = aclCreateScalar(&two, ACL_FLOAT);
	aclOpExecutor *ex = NULL;
	uint64_t ws = 0;
	aclnnStatus st;

	st = inplace ? aclnnInplaceAddGetWorkspaceSize(ts, to, al, &ws, &ex) :
		       aclnnAddGetWorkspaceSize(ts, to, al, tt, &ws, &ex);
	if (!st && ws)
		st = aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST);
	if (!st)
		st = inplace ? aclnnInplaceAdd(w, ws, ex, self->s) :
			       aclnnAdd(w, ws, ex, self->s);
	if (!st)
		st = aclrtSynchronizeStream(self->s);
	aclrtFree(w);
	aclDestroyTensor(ts);
	aclDestroyTensor(to);
	aclDestroyTensor(tt);
	aclDestroyScalar(al);
	return st;
}

static aclnnStatus add_op(FIXTURE_DATA(d) *self, void *sd, void *od, void *outd,
			  bool inplace)
{
	return add_op_dims(self, sd, od, outd, inplace, DIMS24);
}

struct op_bufs {
	float s[8], o[8], want[8];
	void *sd, *od, *outd;
};

static void op_bufs_make(struct op_bufs *b)
{
	for (int i = 0; i < 8; i++) {
		b->s[i] = (float)i * 0.5f - 1.0f;
		b->o[i] = (float)(i % 3);
		b->want[i] = b->s[i] + 2.0f * b->o[i];
	}
	aclrtMalloc(&b->sd, 32, ACL_MEM_MALLOC_HUGE_FIRST);
	aclrtMalloc(&b->od, 32, ACL_MEM_MALLOC_HUGE_FIRST);
	aclrtMalloc(&b->outd, 32, ACL_MEM_MALLOC_HUGE_FIRST);
	aclrtMemcpy(b->sd, 32, b->s, 32, ACL_MEMCPY_HOST_TO_DEVICE);
	aclrtMemcpy(b->od, 32, b->o, 32, ACL_MEMCPY_HOST_TO_DEVICE);
	aclrtMemset(b->outd, 32, 0, 32);
}

static void op_bufs_free(struct op_bufs *b)
{
	aclrtFree(b->sd);
	aclrtFree(b->od);
	aclrtFree(b->outd);
}

TEST_F(d, aclnn_single_op_switch)
{
	struct op_bufs b;
	const struct dfile *f;
	int n;

	op_bufs_make(&b);
	/* dump_op_switch off: aclnn launches are not dumped */
	ASSERT_EQ(ACL_SUCCESS, set_dump(self, "\"dump_list\": [{}], \"dump_mode\": \"all\""));
	ASSERT_EQ(ACLNN_SUCCESS, add_op(self, b.sd, b.od, b.outd, false));
	EXPECT_EQ(0, collect(self->out, self->files));

	ASSERT_EQ(ACL_SUCCESS, set_dump(self, "\"dump_list\": [{}], \"dump_mode\": \"all\", "
					"\"dump_op_switch\": \"on\", \"dump_data\": \"tensor\""));
	ASSERT_EQ(ACLNN_SUCCESS, add_op(self, b.sd, b.od, b.outd, false));
	n = collect(self->out, self->files);
	ASSERT_EQ(1, n);
	f = &self->files[0];
	EXPECT_STREQ("Add", f->type);
	EXPECT_STREQ("aclnnAdd", f->name);
	EXPECT_EQ(0u, f->flags);	/* a single operator */
	ASSERT_EQ(3u, f->ntensors);
	EXPECT_TRUE(same_floats(&f->t[0], b.s, 8));
	EXPECT_TRUE(same_floats(&f->t[1], b.o, 8));
	EXPECT_EQ(1u, f->t[2].output);
	EXPECT_EQ(2, f->t[2].dims[0]);
	EXPECT_EQ(4, f->t[2].dims[1]);
	EXPECT_TRUE(same_floats(&f->t[2], b.want, 8));
	/* single operators sit right under <path>/<time>/<device>/ */
	EXPECT_NE(NULL, strstr(f->path, "/0/Add.aclnnAdd."));
	release(self->files, n);
	rm_rf(self->out);
	ASSERT_EQ(0, mkdir(self->out, 0755));

	/* in place: the input is the value before the operator ran */
	ASSERT_EQ(ACL_SUCCESS, set_dump(self, "\"dump_op_switch\": \"on\", \"dump_mode\": \"all\""));
	ASSERT_EQ(ACLNN_SUCCESS, add_op(self, b.sd, b.od, NULL, true));
	n = collect(self->out, self->files);
	ASSERT_EQ(1, n);
	f = &self->files[0];
	EXPECT_STREQ("aclnnInplaceAdd", f->name);
	ASSERT_EQ(3u, f->ntensors);
	EXPECT_TRUE(same_floats(&f->t[0], b.s, 8));
	EXPECT_TRUE(same_floats(&f->t[2], b.want, 8));
	release(self->files, n);
	rm_rf(self->out);
	ASSERT_EQ(0, mkdir(self->out, 0755));

	/* dump_mode input: two tensors, no output */
	aclrtMemcpy(b.sd, 32, b.s, 32, ACL_MEMCPY_HOST_TO_DEVICE);
	ASSERT_EQ(ACL_SUCCESS, set_dump(self, "\"dump_op_switch\": \"on\", \"dump_mode\": \"input\""));
	ASSERT_EQ(ACLNN_SUCCESS, add_op(self, b.sd, b.od, b.outd, false));
	n = collect(self->out, self->files);
	ASSERT_EQ(1, n);
	ASSERT_EQ(2u, self->files[0].ntensors);
	EXPECT_EQ(0u, self->files[0].t[1].output);
	release(self->files, n);
	/* after aclmdlFinalizeDump: nothing */
	ASSERT_EQ(ACL_SUCCESS, aclmdlFinalizeDump());
	ASSERT_EQ(ACLNN_SUCCESS, add_op(self, b.sd, b.od, b.outd, false));
	EXPECT_EQ(1, collect(self->out, self->files));
	release(self->files, 1);
	op_bufs_free(&b);
}

/* aclop: a Relu compiled in process, dumped as a single operator. */
TEST_F(d, aclop_single_op)
{
	static const int64_t dims[1] = { 6 };
	aclTensorDesc *desc[2];
	aclDataBuffer *buf[2];
	const struct dfile *f;
	float want[6];
	int n;

	desc[0] = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
	desc[1] = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
	buf[0] = aclCreateDataBuffer(self->in[0], 24);
	buf[1] = aclCreateDataBuffer(self->outbuf, 24);
	for (int i = 0; i < 6; i++)
		want[i] = self->a[i] > 0 ? self->a[i] : 0;
	ASSERT_EQ(ACL_SUCCESS, set_dump(self, "\"dump_op_switch\": \"on\", \"dump_mode\": \"all\""));
	ASSERT_EQ(ACL_SUCCESS, aclopCompileAndExecuteV2("Relu", 1, desc, buf, 1, desc + 1,
		buf + 1, NULL, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	n = collect(self->out, self->files);
	ASSERT_EQ(1, n);
	f = &self->files[0];
	EXPECT_STREQ("Relu", f->type);
	EXPECT_EQ(0u, f->flags);
	ASSERT_EQ(2u, f->ntensors);
	EXPECT_TRUE(same_floats(&f->t[0], self->a, 6));
	EXPECT_EQ(1u, f->t[1].output);
	EXPECT_EQ(6, f->t[1].dims[0]);
	EXPECT_TRUE(same_floats(&f->t[1], want, 6));
	release(self->files, n);
	/* the single-op model is not dumped as a model besides */
	ASSERT_EQ(ACL_SUCCESS, aclmdlFinalizeDump());
	ASSERT_EQ(ACL_SUCCESS, aclopExecuteV2("Relu", 1, desc, buf, 1, desc + 1, buf + 1,
		NULL, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	EXPECT_EQ(1, collect(self->out, self->files));
	release(self->files, 1);
	for (int i = 0; i < 2; i++) {
		aclDestroyTensorDesc(desc[i]);
		aclDestroyDataBuffer(buf[i]);
	}
}

/* What the callback received: one file, reassembled. */
static struct {
	char name[ACL_DUMP_MAX_FILE_PATH_LENGTH];
	uint8_t buf[4096];
	size_t len;
	int chunks, last, bad;
} cbdata;

static int32_t dump_cb(const acldumpChunk *c, int32_t len)
{
	if ((int64_t)sizeof(*c) + c->bufLen != len || c->offset != (int64_t)cbdata.len ||
	    cbdata.len + c->bufLen > sizeof(cbdata.buf))
		cbdata.bad++;
	else
		memcpy(cbdata.buf + cbdata.len, c->dataBuf, c->bufLen);
	cbdata.len += c->bufLen;
	snprintf(cbdata.name, sizeof(cbdata.name), "%s", c->fileName);
	cbdata.chunks++;
	cbdata.last += c->isLastChunk;
	return 0;
}

/* The adump samples: acl.json's "dump" given to aclInit, a callback. */
TEST(acl_json_and_callback)
{
	char dir[] = "/tmp/vnpu_dump_XXXXXX", cfg[128], text[512], real[PATH_MAX];
	struct dfile *files = calloc(MAXF, sizeof(*files)), f;
	struct op_bufs b;
	FIXTURE_DATA(d) fx;
	const char *p;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(cfg, sizeof(cfg), "%s/acl.json", dir);
	snprintf(text, sizeof(text),
		 "{\"dump\": {\"dump_path\": \"%s\", \"dump_list\": [], "
		 "\"dump_op_switch\": \"on\", \"dump_data\": \"tensor\"}}", dir);
	write_text(cfg, text);
	ASSERT_EQ(ACL_SUCCESS, aclInit(cfg));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&fx.s));
	/* configured by aclInit: InitDump refuses, the path is known */
	EXPECT_EQ(ACL_ERROR_DUMP_ALREADY_RUN, aclmdlInitDump());
	EXPECT_EQ(ACL_ERROR_DUMP_NOT_RUN, aclmdlFinalizeDump());
	p = acldumpGetPath(DATA_DUMP);
	ASSERT_NE(NULL, p);
	ASSERT_NE(NULL, realpath(dir, real));
	EXPECT_STREQ(real, p);
	EXPECT_EQ(NULL, acldumpGetPath(AIC_ERR_BRIEF_DUMP));

	EXPECT_EQ(ACL_ERROR_FAILURE, acldumpRegCallback(NULL, 0));
	EXPECT_EQ(ACL_ERROR_FAILURE, acldumpRegCallback(dump_cb, 1));
	ASSERT_EQ(ACL_SUCCESS, acldumpRegCallback(dump_cb, 0));
	op_bufs_make(&b);
	memset(&cbdata, 0, sizeof(cbdata));
	ASSERT_EQ(ACLNN_SUCCESS, add_op(&fx, b.sd, b.od, b.outd, false));
	/* the data went to the callback, whole, and to no file */
	EXPECT_EQ(0, cbdata.bad);
	EXPECT_EQ(1, cbdata.last);
	EXPECT_EQ(1, cbdata.chunks);
	EXPECT_EQ(1, collect(dir, files));	/* acl.json only */
	release(files, 1);
	EXPECT_EQ(0, strncmp(cbdata.name, real, strlen(real)));
	EXPECT_NE(NULL, strstr(cbdata.name, "Add.aclnnAdd."));
	memset(&f, 0, sizeof(f));
	f.buf = cbdata.buf;
	f.size = cbdata.len;
	ASSERT_EQ(0, parse_dump(&f));
	ASSERT_EQ(1u, f.ntensors);	/* default dump_mode: output */
	EXPECT_TRUE(same_floats(&f.t[0], b.want, 8));

	/* unregistered: files again */
	acldumpUnregCallback();
	ASSERT_EQ(ACLNN_SUCCESS, add_op(&fx, b.sd, b.od, b.outd, false));
	EXPECT_EQ(2, collect(dir, files));
	release(files, 2);
	op_bufs_free(&b);
	aclrtDestroyStream(fx.s);
	aclrtResetDevice(0);
	ASSERT_EQ(ACL_SUCCESS, aclFinalize());
	/* a later aclInit without the file: no dump */
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	EXPECT_EQ(NULL, acldumpGetPath(DATA_DUMP));
	EXPECT_EQ(ACL_SUCCESS, aclmdlInitDump());
	EXPECT_EQ(ACL_SUCCESS, aclmdlFinalizeDump());
	aclFinalize();
	rm_rf(dir);
	free(files);
}

TEST(acl_json_bad_dump_section)
{
	char dir[] = "/tmp/vnpu_dump_XXXXXX", cfg[128], text[256];

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(cfg, sizeof(cfg), "%s/acl.json", dir);
	snprintf(text, sizeof(text), "{\"dump\": {\"dump_path\": \"%s/none\"}}", dir);
	write_text(cfg, text);
	EXPECT_EQ(ACL_ERROR_INVALID_DUMP_CONFIG, aclInit(cfg));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclmdlInitDump());
	snprintf(text, sizeof(text), "{\"dump\": {\"dump_path\": \"%s\", \"dump_mode\": 1}}", dir);
	write_text(cfg, text);
	EXPECT_EQ(ACL_ERROR_INVALID_DUMP_CONFIG, aclInit(cfg));
	/* dump_path is required once "dump" has keys (CANN's adump) */
	write_text(cfg, "{\n  \"dump\": {\"dump_list\": [ ]},\n  \"err_msg_mode\": \"1\"\n}\n");
	EXPECT_EQ(ACL_ERROR_INVALID_DUMP_CONFIG, aclInit(cfg));
	/* without a "dump" section acl.json leaves dump alone */
	write_text(cfg, "{\"log_level\": \"error\"}");
	ASSERT_EQ(ACL_SUCCESS, aclInit(cfg));
	EXPECT_EQ(ACL_SUCCESS, aclmdlInitDump());
	EXPECT_EQ(ACL_SUCCESS, aclmdlFinalizeDump());
	aclFinalize();
	rm_rf(dir);
}

TEST(args_dump)
{
	char dir[] = "/tmp/vnpu_dump_XXXXXX", args[96], text[512] = "";
	struct dfile *files = calloc(MAXF, sizeof(*files));
	struct op_bufs b;
	FIXTURE_DATA(d) fx;
	FILE *fp;
	int n;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(args, sizeof(args), "%s/args", dir);
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&fx.s));
	EXPECT_EQ(ACL_ERROR_FAILURE, aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, NULL));
	EXPECT_EQ(ACL_ERROR_FAILURE, aclopStartDumpArgs(2, args));
	ASSERT_EQ(ACL_SUCCESS, aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, args));
	op_bufs_make(&b);
	/* twice the same signature: one file */
	ASSERT_EQ(ACLNN_SUCCESS, add_op(&fx, b.sd, b.od, b.outd, false));
	ASSERT_EQ(ACLNN_SUCCESS, add_op(&fx, b.sd, b.od, b.outd, false));
	n = collect(args, files);
	ASSERT_EQ(1, n);
	EXPECT_NE(NULL, strstr(files[0].path, "/Add."));
	fp = fopen(files[0].path, "r");
	ASSERT_NE(NULL, fp);
	EXPECT_LT(0u, fread(text, 1, sizeof(text) - 1, fp));
	fclose(fp);
	EXPECT_NE(NULL, strstr(text, "op_type Add\n"));
	EXPECT_NE(NULL, strstr(text, "input0 dtype=0 format=2 shape=[2,4]\n"));
	EXPECT_NE(NULL, strstr(text, "output0 dtype=0 format=2 shape=[2,4]\n"));
	release(files, n);
	/* another shape is another signature */
	ASSERT_EQ(ACLNN_SUCCESS, add_op_dims(&fx, b.sd, b.od, b.outd, false, DIMS42));
	EXPECT_EQ(2, collect(args, files));
	release(files, 2);
	ASSERT_EQ(ACL_SUCCESS, aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS));
	ASSERT_EQ(ACLNN_SUCCESS, add_op_dims(&fx, b.sd, b.od, b.outd, false, DIMS18));
	EXPECT_EQ(2, collect(args, files));
	release(files, 2);
	op_bufs_free(&b);
	aclrtDestroyStream(fx.s);
	aclrtResetDevice(0);
	aclFinalize();
	rm_rf(dir);
	free(files);
}

/* ------------------------------------------------------------- misuse -- */

TEST(before_acl_init)
{
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclmdlInitDump());
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclmdlSetDump("/tmp/x.json"));
	EXPECT_EQ(ACL_ERROR_UNINITIALIZE, aclmdlFinalizeDump());
}

TEST(order_and_repeats)
{
	char dir[] = "/tmp/vnpu_dump_XXXXXX", cfg[128];

	ASSERT_NE(NULL, mkdtemp(dir));
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	write_cfg(cfg, sizeof(cfg), dir, "\"dump_op_switch\": \"on\"");
	mkdir(strcat(strcpy((char[128]){ 0 }, dir), "/out"), 0755);
	EXPECT_EQ(ACL_ERROR_DUMP_NOT_RUN, aclmdlSetDump(cfg));
	EXPECT_EQ(ACL_ERROR_DUMP_NOT_RUN, aclmdlFinalizeDump());
	EXPECT_EQ(ACL_SUCCESS, aclmdlInitDump());
	EXPECT_EQ(ACL_ERROR_REPEAT_INITIALIZE, aclmdlInitDump());
	EXPECT_EQ(ACL_SUCCESS, aclmdlSetDump(cfg));
	EXPECT_NE(NULL, acldumpGetPath(DATA_DUMP));
	EXPECT_EQ(ACL_SUCCESS, aclmdlFinalizeDump());
	EXPECT_EQ(NULL, acldumpGetPath(DATA_DUMP));
	EXPECT_EQ(ACL_ERROR_DUMP_NOT_RUN, aclmdlFinalizeDump());
	EXPECT_EQ(ACL_ERROR_DUMP_NOT_RUN, aclmdlSetDump(cfg));
	/* again, as CANN's two-model sequence does */
	EXPECT_EQ(ACL_SUCCESS, aclmdlInitDump());
	EXPECT_EQ(ACL_SUCCESS, aclmdlSetDump(cfg));
	EXPECT_EQ(ACL_SUCCESS, aclmdlFinalizeDump());
	aclFinalize();
	/* aclFinalize ends an InitDump left open */
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	EXPECT_EQ(ACL_SUCCESS, aclmdlInitDump());
	aclFinalize();
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	EXPECT_EQ(ACL_SUCCESS, aclmdlInitDump());
	EXPECT_EQ(ACL_SUCCESS, aclmdlFinalizeDump());
	aclFinalize();
	rm_rf(dir);
}

struct bad_cfg {
	const char *text;	/* %s: the temporary directory */
	aclError want;
};

TEST(bad_configs)
{
	static const struct bad_cfg cases[] = {
		{ "{\"dump\": {\"dump_path\": \"%s\"", ACL_ERROR_INVALID_DUMP_CONFIG },
		{ "{\"dump\": [1, 2]}", ACL_ERROR_INVALID_DUMP_CONFIG },
		{ "not json at all", ACL_ERROR_INVALID_DUMP_CONFIG },
		{ "{\"dump\": {\"dump_list\": []}}", ACL_ERROR_INVALID_DUMP_CONFIG },
		{ "{\"dump\": {\"dump_path\": \"\"}}", ACL_ERROR_INVALID_DUMP_CONFIG },
		{ "{\"dump\": {\"dump_path\": \"%s/missing\"}}", ACL_ERROR_INVALID_DUMP_CONFIG },
		{ "{\"dump\": {\"dump_path\": \"%s/file\"}}", ACL_ERROR_INVALID_DUMP_CONFIG },
		{ "{\"dump\": {\"dump_path\": 5}}", ACL_ERROR_INVALID_DUMP_CONFIG },
		{ "{\"dump\": {\"dump_path\": \"%s\", \"dump_mode\": \"both\"}}",
		  ACL_ERROR_INVALID_DUMP_CONFIG },
		{ "{\"dump\": {\"dump_path\": \"%s\", \"dump_op_switch\": \"yes\"}}",
		  ACL_ERROR_INVALID_DUMP_CONFIG },
		{ "{\"dump\": {\"dump_path\": \"%s\", \"dump_data\": \"bytes\"}}",
		  ACL_ERROR_INVALID_DUMP_CONFIG },
		{ "{\"dump\": {\"dump_path\": \"%s\", \"dump_level\": \"layer\"}}",
		  ACL_ERROR_INVALID_DUMP_CONFIG },
		{ "{\"dump\": {\"dump_path\": \"%s\", \"dump_list\": {}}}",
		  ACL_ERROR_INVALID_DUMP_CONFIG },
		{ "{\"dump\": {\"dump_path\": \"%s\", \"dump_list\": [3]}}",
		  ACL_ERROR_INVALID_DUMP_CONFIG },
		{ "{\"dump\": {\"dump_path\": \"%s\", \"dump_list\": [{\"model_name\": \"\"}]}}",
		  ACL_ERROR_INVALID_DUMP_CONFIG },
		{ "{\"dump\": {\"dump_path\": \"%s\", \"dump_list\": [{\"model_name\": \"m\", "
		  "\"layer\": []}]}}", ACL_ERROR_INVALID_DUMP_CONFIG },
		{ "{\"dump\": {\"dump_path\": \"%s\", \"dump_list\": [{\"model_name\": \"m\", "
		  "\"layer\": [\"a\", 2]}]}}", ACL_ERROR_INVALID_DUMP_CONFIG },
		{ "{\"dump\": {\"dump_path\": \"%s\", \"dump_step\": \"5-3\"}}",
		  ACL_ERROR_INVALID_DUMP_CONFIG },
		{ "{\"dump\": {\"dump_path\": \"%s\", \"dump_step\": \"1|x\"}}",
		  ACL_ERROR_INVALID_DUMP_CONFIG },
		/* accepted: every key, and exception dump (nothing to write) */
		{ "{\"dump\": {\"dump_path\": \"%s\", \"dump_list\": [{\"model_name\": \"m\", "
		  "\"layer\": [\"a\"]}], \"dump_mode\": \"all\", \"dump_op_switch\": \"off\", "
		  "\"dump_data\": \"stats\", \"dump_level\": \"op\", \"dump_step\": \"0|2-4\"}}",
		  ACL_SUCCESS },
		{ "{\"dump\": {\"dump_scene\": \"lite_exception\"}}", ACL_SUCCESS },
		/* no "dump", or an empty one: nothing to set (adump) */
		{ "{\"other\": {}}", ACL_SUCCESS },
		{ "{\"dump\": {}}", ACL_SUCCESS },
	};
	char dir[] = "/tmp/vnpu_dump_XXXXXX", cfg[128], text[1024], path[128];
	char *long_path;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/file", dir);
	write_text(path, "x");
	snprintf(cfg, sizeof(cfg), "%s/cfg.json", dir);
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclmdlInitDump());
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), cases[i].text, dir);
		write_text(cfg, text);
		EXPECT_EQ(cases[i].want, aclmdlSetDump(cfg)) {
			TH_LOG("config %zu: %s", i, text);
		}
	}
	/* a rejected configuration leaves dump off */
	write_text(cfg, "{\"dump\": {\"dump_mode\": \"all\"}}");
	EXPECT_EQ(ACL_ERROR_INVALID_DUMP_CONFIG, aclmdlSetDump(cfg));
	EXPECT_EQ(NULL, acldumpGetPath(DATA_DUMP));
	/* a dump_path longer than CANN's 512 bytes */
	long_path = malloc(700);
	memset(long_path, 'a', 600);
	long_path[600] = 0;
	snprintf(text, sizeof(text), "{\"dump\": {\"dump_path\": \"/%s\"}}", long_path);
	write_text(cfg, text);
	EXPECT_EQ(ACL_ERROR_INVALID_DUMP_CONFIG, aclmdlSetDump(cfg));
	free(long_path);
	/* the file itself */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlSetDump(NULL));
	snprintf(path, sizeof(path), "%s/nothing.json", dir);
	EXPECT_EQ(ACL_ERROR_INVALID_FILE, aclmdlSetDump(path));
	EXPECT_EQ(ACL_ERROR_INVALID_FILE, aclmdlSetDump(dir));
	/* an empty file configures nothing */
	write_text(cfg, "");
	EXPECT_EQ(ACL_SUCCESS, aclmdlSetDump(cfg));
	EXPECT_EQ(NULL, acldumpGetPath(DATA_DUMP));
	/* a path alone, no list and no op switch: valid, and nothing to dump */
	snprintf(text, sizeof(text), "{\"dump\": {\"dump_path\": \"%s\", \"dump_list\": []}}", dir);
	write_text(cfg, text);
	EXPECT_EQ(ACL_SUCCESS, aclmdlSetDump(cfg));
	EXPECT_EQ(NULL, acldumpGetPath(DATA_DUMP));
	EXPECT_EQ(ACL_SUCCESS, aclmdlFinalizeDump());
	aclFinalize();
	rm_rf(dir);
}

TEST(unwritable_dump_path)
{
	char dir[] = "/tmp/vnpu_dump_XXXXXX", ro[96], cfg[128], text[256];
	bool mounted;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(ro, sizeof(ro), "%s/ro", dir);
	ASSERT_EQ(0, mkdir(ro, 0755));
	/* root writes anywhere: a read-only tmpfs is unwritable for everyone */
	mounted = !mount("tmpfs", ro, "tmpfs", MS_RDONLY, NULL);
	if (!mounted) {
		ASSERT_EQ(0, chmod(ro, 0555));
	}
	snprintf(cfg, sizeof(cfg), "%s/cfg.json", dir);
	snprintf(text, sizeof(text), "{\"dump\": {\"dump_path\": \"%s\"}}", ro);
	write_text(cfg, text);
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclmdlInitDump());
	if (mounted || geteuid()) {
		EXPECT_EQ(ACL_ERROR_INVALID_DUMP_CONFIG, aclmdlSetDump(cfg));
	}
	EXPECT_EQ(ACL_SUCCESS, aclmdlFinalizeDump());
	aclFinalize();
	if (mounted)
		umount(ro);
	rm_rf(dir);
}

TEST_HARNESS_MAIN
