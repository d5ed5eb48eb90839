// SPDX-License-Identifier: MIT
/*
 * The conformance runner's guest mode: every compiled test's model.om
 * through libacl as a CANN application runs a model (aclInit,
 * aclrtSetDevice, aclmdlLoadFromFile, aclmdlGetDesc, datasets of device
 * buffers, aclmdlExecute, outputs copied back).
 *
 *   conf_run <tests.txt>     one test directory a line (prepare.py's)
 *
 * The tests run one after another in a worker process that initialises
 * ACL once; before each test the worker tells the parent which one it
 * starts. When the worker dies or a test passes its time limit, the
 * parent writes "status crash ..." for that test and starts a new worker
 * at the next one, so one crash or hang costs one test, not the run; a
 * failed execution also ends the worker, so a device error cannot spill
 * into the next test. A process per test (VNPU_CONF_ISOLATE=1) costs
 * about a second per test in the guest (aclInit to aclFinalize), which
 * would triple the run.
 * Writes <test>/guest/result.txt and out_<k>.bin; compare.py judges them.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <acl/acl.h>

#include "conf_io.h"

#define MODE "guest"
#define TEST_SECS 180
#define WORKER_RESTART 5	/* exit status: go on at the next test */

static char **tests;
static int ntests;
static bool one_per_worker;	/* VNPU_CONF_ISOLATE=1: a fresh process per test */

struct model_run {
	uint32_t id;
	aclmdlDesc *desc;
	aclmdlDataset *in, *out;
	bool loaded;
};

static void free_dataset(aclmdlDataset *ds)
{
	size_t i;

	if (!ds)
		return;
	for (i = 0; i < aclmdlGetDatasetNumBuffers(ds); i++) {
		aclDataBuffer *b = aclmdlGetDatasetBuffer(ds, i);

		aclrtFree(aclGetDataBufferAddr(b));
		aclDestroyDataBuffer(b);
	}
	aclmdlDestroyDataset(ds);
}

static void release(struct model_run *r)
{
	free_dataset(r->in);
	free_dataset(r->out);
	if (r->desc)
		aclmdlDestroyDesc(r->desc);
	if (r->loaded)
		aclmdlUnload(r->id);
}

/* A device buffer of size bytes: host's bytes, else CONF_POISON. */
static int add_buffer(aclmdlDataset *ds, size_t size, const void *host)
{
	void *dev = NULL;
	aclDataBuffer *b;

	if (aclrtMalloc(&dev, size ? size : 1, ACL_MEM_MALLOC_HUGE_FIRST))
		return -1;
	if (size && (host ? aclrtMemcpy(dev, size, host, size, ACL_MEMCPY_HOST_TO_DEVICE) :
		     aclrtMemset(dev, size, CONF_POISON, size))) {
		aclrtFree(dev);
		return -1;
	}
	b = aclCreateDataBuffer(dev, size);
	if (!b || aclmdlAddDatasetBuffer(ds, b)) {
		aclDestroyDataBuffer(b);
		aclrtFree(dev);
		return -1;
	}
	return 0;
}

static int feed_inputs(struct model_run *r, const struct conf_test *t,
		       const char *rdir)
{
	size_t n = aclmdlGetNumInputs(r->desc), i;

	for (i = 0; i < n; i++) {
		const char *name = aclmdlGetInputNameByIndex(r->desc, i);
		size_t size = aclmdlGetInputSizeByIndex(r->desc, i), want;
		aclDataType dt = aclmdlGetInputDataType(r->desc, i);
		const struct conf_in *c = conf_find_input(t, name ? name : "");
		void *host;
		int k;

		if (!c) {
			conf_result(rdir, "status error the model's input %s is not in the test data",
				    name ? name : "(null)");
			return -1;
		}
		if (dt == ACL_STRING && c->dtype == CONF_ACL_STRING) {
			/* heads and text in a buffer of the model's upper bound */
			host = calloc(1, size ? size : 1);
			if (!host || conf_read_upto(t->dir, c->file, host, size, &want)) {
				free(host);
				conf_result(rdir, "status error %s does not fit the %zu-byte input",
					    c->file, size);
				return -1;
			}
			k = add_buffer(r->in, size, host);
			free(host);
			if (k) {
				conf_result(rdir, "status error input %s: %s", name,
					    aclGetRecentErrMsg());
				return -1;
			}
			continue;
		}
		want = aclDataTypeSize((aclDataType)c->dtype);
		for (k = 0; k < c->rank; k++)
			want *= (size_t)c->dims[k];
		if ((int)dt != c->dtype || want != size) {
			conf_result(rdir, "status error input %s: dtype %d, %zu bytes given; the model takes dtype %d, %zu bytes",
				    name, c->dtype, want, (int)dt, size);
			return -1;
		}
		host = malloc(size ? size : 1);
		if (!host || conf_read_file(t->dir, c->file, host, size)) {
			free(host);
			conf_result(rdir, "status error cannot read %s", c->file);
			return -1;
		}
		k = add_buffer(r->in, size, host);
		free(host);
		if (k) {
			conf_result(rdir, "status error input %s: %s", name,
				    aclGetRecentErrMsg());
			return -1;
		}
	}
	return 0;
}

/* The dims output k came out with: the dataset's desc when set, else the model's. */
static int output_dims(const struct model_run *r, size_t k, int64_t *dims)
{
	aclTensorDesc *d = aclmdlGetDatasetTensorDesc(r->out, k);
	aclmdlIODims io;
	size_t i, rank;

	if (d) {
		rank = aclGetTensorDescNumDims(d);
		if (rank > CONF_MAX_RANK)
			return -1;
		for (i = 0; i < rank; i++)
			if (aclGetTensorDescDimV2(d, i, &dims[i]))
				return -1;
		return (int)rank;
	}
	if (aclmdlGetOutputDims(r->desc, k, &io) || io.dimCount > CONF_MAX_RANK)
		return -1;
	for (i = 0; i < io.dimCount; i++)
		dims[i] = io.dims[i];
	return (int)io.dimCount;
}

static int read_outputs(struct model_run *r, const char *rdir)
{
	size_t n = aclmdlGetNumOutputs(r->desc), k;

	for (k = 0; k < n; k++) {
		aclDataBuffer *b = aclmdlGetDatasetBuffer(r->out, k);
		aclDataType dt = aclmdlGetOutputDataType(r->desc, k);
		size_t cap = aclGetDataBufferSizeV2(b), bytes = aclDataTypeSize(dt);
		int64_t dims[CONF_MAX_RANK];
		int rank = output_dims(r, k, dims), i;
		void *host;

		if (rank < 0) {
			conf_result(rdir, "status error output %zu: no dims", k);
			return -1;
		}
		for (i = 0; i < rank; i++)
			bytes *= (size_t)dims[i];
		/* a string's text follows its heads anywhere in the buffer */
		if (dt == ACL_STRING)
			bytes = cap;
		if (bytes > cap) {
			conf_result(rdir, "status error output %zu: dims need %zu bytes, the buffer has %zu",
				    k, bytes, cap);
			return -1;
		}
		host = malloc(bytes ? bytes : 1);
		if (!host || (bytes && aclrtMemcpy(host, bytes, aclGetDataBufferAddr(b), bytes,
						   ACL_MEMCPY_DEVICE_TO_HOST)) ||
		    conf_write_output(rdir, (int)k, host, bytes)) {
			free(host);
			conf_result(rdir, "status error output %zu: cannot copy back (%s)", k,
				    aclGetRecentErrMsg());
			return -1;
		}
		free(host);
		conf_result_out(rdir, (int)k, aclmdlGetOutputNameByIndex(r->desc, k), (int)dt,
				rank, dims);
	}
	return 0;
}

/* Run one test; 1 when the execution failed (the worker then restarts,
 * so a device error left on its context cannot spill into the next). */
static int run_test(const char *dir)
{
	struct model_run r = { 0 };
	struct conf_test t;
	char rdir[4400], why[512], path[4400];
	size_t k;
	int failed = 0;

	if (conf_read_manifest(&t, dir, why, sizeof(why)) ||
	    conf_result_dir(&t, MODE, rdir, sizeof(rdir))) {
		fprintf(stderr, "conf_run: %s: %s\n", dir, why);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/model.om", dir);
	if (aclmdlLoadFromFile(path, &r.id)) {
		conf_result(rdir, "status error aclmdlLoadFromFile: %s", aclGetRecentErrMsg());
		return 0;
	}
	r.loaded = true;
	r.desc = aclmdlCreateDesc();
	r.in = aclmdlCreateDataset();
	r.out = aclmdlCreateDataset();
	if (!r.desc || !r.in || !r.out || aclmdlGetDesc(r.desc, r.id)) {
		conf_result(rdir, "status error aclmdlGetDesc: %s", aclGetRecentErrMsg());
		goto out;
	}
	if (feed_inputs(&r, &t, rdir))
		goto out;
	for (k = 0; k < aclmdlGetNumOutputs(r.desc); k++)
		if (add_buffer(r.out, aclmdlGetOutputSizeByIndex(r.desc, k), NULL)) {
			conf_result(rdir, "status error output %zu: %s", k, aclGetRecentErrMsg());
			goto out;
		}
	if (aclmdlExecute(r.id, r.in, r.out)) {
		conf_result(rdir, "status error aclmdlExecute: %s", aclGetRecentErrMsg());
		failed = 1;
		goto out;
	}
	if (!read_outputs(&r, rdir))
		conf_result(rdir, "status ok");
out:
	release(&r);
	return failed;
}

/* The worker: tests from first on, announcing each on fd. */
static void worker(int first, int fd)
{
	int i;

	if (aclInit(NULL) || aclrtSetDevice(0)) {
		fprintf(stderr, "conf_run: ACL does not start: %s\n", aclGetRecentErrMsg());
		_exit(3);
	}
	for (i = first; i < ntests; i++) {
		if (write(fd, &i, sizeof(i)) != sizeof(i))
			_exit(4);
		if (run_test(tests[i]) || one_per_worker)
			_exit(WORKER_RESTART);
	}
	aclrtResetDevice(0);
	aclFinalize();
	_exit(0);
}

static void mark_crash(int i, const char *fmt, int v)
{
	char rdir[4400], why[128];

	snprintf(rdir, sizeof(rdir), "%s/%s", tests[i], MODE);
	snprintf(why, sizeof(why), fmt, v);
	conf_result(rdir, "status crash %s", why);
	fprintf(stderr, "conf_run: %s: crash (%s)\n", tests[i], why);
}

/* Run tests from first on in one worker; the index to go on from, or ntests. */
static int supervise(int first)
{
	int pfd[2], cur = -1, st, ready;
	time_t started = 0;
	pid_t pid;

	if (pipe(pfd))
		return ntests;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return ntests;
	if (!pid) {
		close(pfd[0]);
		worker(first, pfd[1]);
	}
	close(pfd[1]);
	for (;;) {
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };
		int next;

		ready = poll(&p, 1, 1000);
		if (ready > 0) {
			ssize_t n = read(pfd[0], &next, sizeof(next));

			if (n == sizeof(next)) {
				cur = next;
				started = time(NULL);
				continue;
			}
			break;	/* EOF: the worker is gone */
		}
		if (cur >= 0 && time(NULL) - started > TEST_SECS) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			close(pfd[0]);
			mark_crash(cur, "timeout after %d s", TEST_SECS);
			return cur + 1;
		}
	}
	close(pfd[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return ntests;
	if (WIFEXITED(st) && WEXITSTATUS(st) == WORKER_RESTART && cur >= 0)
		return cur + 1;
	if (cur < 0) {
		fprintf(stderr, "conf_run: the worker failed before its first test\n");
		return ntests;
	}
	if (WIFSIGNALED(st))
		mark_crash(cur, "signal %d", WTERMSIG(st));
	else
		mark_crash(cur, "exit status %d", WEXITSTATUS(st));
	return cur + 1;
}

int main(int argc, char **argv)
{
	char line[4400], om[4500];
	FILE *list;
	int i;

	if (argc != 2) {
		fprintf(stderr, "usage: conf_run <tests.txt>\n");
		return 2;
	}
	list = fopen(argv[1], "r");
	if (!list) {
		perror(argv[1]);
		return 2;
	}
	while (fgets(line, sizeof(line), list)) {
		line[strcspn(line, "\n")] = '\0';
		snprintf(om, sizeof(om), "%s/model.om", line);
		if (!line[0] || access(om, R_OK))
			continue;	/* not compiled: prepare.py recorded why */
		tests = realloc(tests, (size_t)(ntests + 1) * sizeof(*tests));
		if (!tests || !(tests[ntests++] = strdup(line)))
			return 2;
	}
	fclose(list);
	one_per_worker = getenv("VNPU_CONF_ISOLATE") && !strcmp(getenv("VNPU_CONF_ISOLATE"), "1");
	for (i = 0; i < ntests; )
		i = supervise(i);
	printf("conf_run: ran %d compiled tests\n", ntests);
	return 0;
}
