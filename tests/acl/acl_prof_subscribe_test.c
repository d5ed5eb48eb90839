// SPDX-License-Identifier: MIT
/*
 * Operator subscription on the real driver (issue 34), the way CANN's
 * sample does it: a pipe, the subscribe config made before the model is
 * loaded, a thread reading the read end in chunks of whole records until
 * aclprofModelUnSubscribe closes the write end. N executions of the
 * Add+Relu model deliver exactly N x 2 records (its KERNEL tasks), named
 * and typed after the model's nodes, with start <= end and duration ==
 * end - start; every misuse gives its code, and subscription and
 * collection sessions exclude each other.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"
#include "om_builder.h"
#include "prof_test_util.h"

#define RUNS 5

struct reader {
	int fd;
	size_t chunk;
	uint8_t *buf;
	size_t len, cap;
	int reads;
};

/* CANN's sample: read whole records until the write end is closed. */
static void *read_pipe(void *arg)
{
	struct reader *r = arg;
	uint8_t *tmp = malloc(r->chunk);

	for (;;) {
		ssize_t n = read(r->fd, tmp, r->chunk);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (r->len + (size_t)n > r->cap) {
			r->cap = (r->len + (size_t)n) * 2;
			r->buf = realloc(r->buf, r->cap);
		}
		memcpy(r->buf + r->len, tmp, (size_t)n);
		r->len += (size_t)n;
		r->reads++;
	}
	free(tmp);
	return NULL;
}

FIXTURE(sub) {
	int fds[2];
	aclprofSubscribeConfig *cfg;
	void *img;
	size_t size;
	uint32_t id;
	aclrtStream s;
	void *in[2], *out;
	aclmdlDataset *ids, *ods;
};

FIXTURE_SETUP(sub)
{
	setenv("VNPU_PROF_EXPORT", "0", 1);
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s));
	ASSERT_EQ(0, pipe(self->fds));
	self->cfg = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &self->fds[1]);
	ASSERT_NE(NULL, self->cfg);
	self->img = om_build_add_relu(&self->size);
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromMem(self->img, self->size, &self->id));
	self->ids = aclmdlCreateDataset();
	self->ods = aclmdlCreateDataset();
	for (int i = 0; i < 2; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&self->in[i], 24, ACL_MEM_MALLOC_HUGE_FIRST));
		ASSERT_EQ(ACL_SUCCESS, aclrtMemset(self->in[i], 24, 0, 24));
		aclmdlAddDatasetBuffer(self->ids, aclCreateDataBuffer(self->in[i], 24));
	}
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&self->out, 24, ACL_MEM_MALLOC_HUGE_FIRST));
	aclmdlAddDatasetBuffer(self->ods, aclCreateDataBuffer(self->out, 24));
}

FIXTURE_TEARDOWN(sub)
{
	for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(self->ids); i++)
		aclDestroyDataBuffer(aclmdlGetDatasetBuffer(self->ids, i));
	aclDestroyDataBuffer(aclmdlGetDatasetBuffer(self->ods, 0));
	aclmdlDestroyDataset(self->ids);
	aclmdlDestroyDataset(self->ods);
	aclmdlUnload(self->id);
	aclprofDestroySubscribeConfig(self->cfg);
	free(self->img);
	close(self->fds[0]);
	aclrtDestroyStream(self->s);
	aclrtResetDevice(0);
	aclFinalize();
}

TEST_F(sub, n_runs_deliver_n_times_the_kernel_tasks)
{
	struct reader rd = { .fd = self->fds[0] };
	int adds = 0, relus = 0;
	size_t desc = 0, len;
	uint32_t n = 0;
	pthread_t th;
	char buf[64];

	ASSERT_EQ(ACL_SUCCESS, aclprofGetOpDescSize(&desc));
	ASSERT_EQ(80u, desc);
	rd.chunk = desc * 4;
	ASSERT_EQ(0, pthread_create(&th, NULL, read_pipe, &rd));
	ASSERT_EQ(ACL_SUCCESS, aclprofModelSubscribe(self->id, self->cfg));
	for (int i = 0; i < RUNS; i++)
		ASSERT_EQ(ACL_SUCCESS, aclmdlExecute(self->id, self->ids, self->ods));
	ASSERT_EQ(ACL_SUCCESS, aclprofModelUnSubscribe(self->id));
	/* The write end is closed: the reader sees the end of the pipe. */
	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_EQ(-1, fcntl(self->fds[1], F_GETFD));
	ASSERT_EQ(RUNS * 2 * desc, rd.len);
	ASSERT_EQ(ACL_SUCCESS, aclprofGetOpNum(rd.buf, rd.len, &n));
	ASSERT_EQ(RUNS * 2u, n);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t st = aclprofGetOpStart(rd.buf, rd.len, i);
		uint64_t en = aclprofGetOpEnd(rd.buf, rd.len, i);

		ASSERT_NE(0u, st);
		ASSERT_LE(st, en);
		ASSERT_EQ(en - st, aclprofGetOpDuration(rd.buf, rd.len, i));
		ASSERT_EQ(self->id, aclprofGetModelId(rd.buf, rd.len, i));
		ASSERT_EQ(ACL_SUBSCRIBE_OP, aclprofGetOpFlag(rd.buf, rd.len, i));
		ASSERT_EQ(NULL, aclprofGetOpAttriValue(rd.buf, rd.len, i,
						       ACL_SUBSCRIBE_ATTRI_THREADID));
		ASSERT_EQ(ACL_SUCCESS, aclprofGetOpNameLen(rd.buf, rd.len, i, &len));
		ASSERT_GE(sizeof(buf), len);
		ASSERT_EQ(ACL_SUCCESS, aclprofGetOpName(rd.buf, rd.len, i, buf, len));
		ASSERT_EQ(len, strlen(buf) + 1);
		if (!strcmp(buf, "add")) {
			adds++;
			ASSERT_EQ(ACL_SUCCESS, aclprofGetOpType(rd.buf, rd.len, i, buf, sizeof(buf)));
			ASSERT_STREQ("Add", buf);
		} else {
			ASSERT_STREQ("relu", buf);
			relus++;
			ASSERT_EQ(ACL_SUCCESS, aclprofGetOpTypeLen(rd.buf, rd.len, i, &len));
			ASSERT_EQ(strlen("Relu") + 1, len);
			ASSERT_EQ(ACL_SUCCESS, aclprofGetOpType(rd.buf, rd.len, i, buf, len));
			ASSERT_STREQ("Relu", buf);
		}
	}
	ASSERT_EQ(RUNS, adds);
	ASSERT_EQ(RUNS, relus);
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofGetOpNum(rd.buf, rd.len - 1, &n));
	free(rd.buf);
	self->fds[1] = -1;
}

TEST_F(sub, runs_outside_the_subscription_are_not_delivered)
{
	struct reader rd = { .fd = self->fds[0], .chunk = 80 };
	pthread_t th;

	ASSERT_EQ(ACL_SUCCESS, aclmdlExecute(self->id, self->ids, self->ods));
	ASSERT_EQ(0, pthread_create(&th, NULL, read_pipe, &rd));
	ASSERT_EQ(ACL_SUCCESS, aclprofModelSubscribe(self->id, self->cfg));
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecute(self->id, self->ids, self->ods));
	ASSERT_EQ(ACL_SUCCESS, aclprofModelUnSubscribe(self->id));
	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_EQ(2 * 80u, rd.len);
	free(rd.buf);
	self->fds[1] = -1;
}

TEST_F(sub, misuse)
{
	int other[2];
	aclprofSubscribeConfig *rcfg;
	char out[256];

	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofModelSubscribe(self->id, NULL));
	ASSERT_EQ(ACL_ERROR_INVALID_MODEL_ID, aclprofModelSubscribe(self->id + 100, self->cfg));
	ASSERT_EQ(ACL_ERROR_INVALID_MODEL_ID, aclprofModelUnSubscribe(self->id));
	/* A config whose fd is a read end. */
	ASSERT_EQ(0, pipe(other));
	rcfg = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &other[0]);
	ASSERT_NE(NULL, rcfg);
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofModelSubscribe(self->id, rcfg));
	ASSERT_EQ(ACL_SUCCESS, aclprofDestroySubscribeConfig(rcfg));
	close(other[0]);
	close(other[1]);
	/* Twice, and against a collection session either way round. */
	ASSERT_EQ(ACL_SUCCESS, aclprofModelSubscribe(self->id, self->cfg));
	ASSERT_EQ(ACL_ERROR_PROF_REPEAT_SUBSCRIBE, aclprofModelSubscribe(self->id, self->cfg));
	ASSERT_EQ(0, pt_mkdir(out, sizeof(out)));
	ASSERT_EQ(ACL_ERROR_PROF_API_CONFLICT, aclprofInit(out, strlen(out)));
	ASSERT_EQ(ACL_SUCCESS, aclprofModelUnSubscribe(self->id));
	ASSERT_EQ(ACL_ERROR_INVALID_MODEL_ID, aclprofModelUnSubscribe(self->id));
	self->fds[1] = -1;
	ASSERT_EQ(0, pipe(other));
	ASSERT_EQ(ACL_SUCCESS, aclprofDestroySubscribeConfig(self->cfg));
	self->cfg = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &other[1]);
	ASSERT_NE(NULL, self->cfg);
	ASSERT_EQ(ACL_SUCCESS, aclprofInit(out, strlen(out)));
	ASSERT_EQ(ACL_ERROR_PROF_API_CONFLICT, aclprofModelSubscribe(self->id, self->cfg));
	ASSERT_EQ(ACL_SUCCESS, aclprofFinalize());
	ASSERT_EQ(ACL_SUCCESS, aclprofModelSubscribe(self->id, self->cfg));
	ASSERT_EQ(ACL_SUCCESS, aclprofModelUnSubscribe(self->id));
	close(other[0]);
	pt_rmtree(out);
	/* An unloaded model. */
	ASSERT_EQ(ACL_SUCCESS, aclmdlUnload(self->id));
	ASSERT_EQ(ACL_ERROR_INVALID_MODEL_ID, aclprofModelSubscribe(self->id, self->cfg));
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromMem(self->img, self->size, &self->id));
}

TEST_F(sub, time_switch_off_gives_records_without_times)
{
	struct reader rd = { .fd = self->fds[0], .chunk = 160 };
	aclprofSubscribeConfig *c = aclprofCreateSubscribeConfig(0, ACL_AICORE_NONE,
								  &self->fds[1]);
	uint32_t n = 0;
	pthread_t th;

	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, pthread_create(&th, NULL, read_pipe, &rd));
	ASSERT_EQ(ACL_SUCCESS, aclprofModelSubscribe(self->id, c));
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecute(self->id, self->ids, self->ods));
	ASSERT_EQ(ACL_SUCCESS, aclprofModelUnSubscribe(self->id));
	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclprofGetOpNum(rd.buf, rd.len, &n));
	ASSERT_EQ(2u, n);
	ASSERT_EQ(0u, aclprofGetOpStart(rd.buf, rd.len, 0));
	ASSERT_EQ(0u, aclprofGetOpDuration(rd.buf, rd.len, 1));
	ASSERT_EQ(self->id, aclprofGetModelId(rd.buf, rd.len, 1));
	ASSERT_EQ(ACL_SUCCESS, aclprofDestroySubscribeConfig(c));
	free(rd.buf);
	self->fds[1] = -1;
}

/* Two models on two pipes: each pipe gets its own model's records only. */
TEST_F(sub, two_models_two_pipes)
{
	struct reader ra = { .fd = self->fds[0], .chunk = 80 };
	struct reader rb = { .chunk = 240 };
	aclmdlDataset *ids = aclmdlCreateDataset(), *ods = aclmdlCreateDataset();
	aclprofSubscribeConfig *cb;
	aclDataBuffer *xb, *yb;
	uint32_t idb, n = 0;
	pthread_t ta, tb;
	int fdb[2];
	size_t size;
	void *img, *x, *y;
	char buf[32];

	img = om_build_matmul(&size);
	ASSERT_EQ(ACL_SUCCESS, aclmdlLoadFromMem(img, size, &idb));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&x, 32, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&y, 24, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(x, 32, 0, 32));
	xb = aclCreateDataBuffer(x, 32);
	yb = aclCreateDataBuffer(y, 24);
	aclmdlAddDatasetBuffer(ids, xb);
	aclmdlAddDatasetBuffer(ods, yb);
	ASSERT_EQ(0, pipe(fdb));
	rb.fd = fdb[0];
	cb = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fdb[1]);
	ASSERT_NE(NULL, cb);
	ASSERT_EQ(0, pthread_create(&ta, NULL, read_pipe, &ra));
	ASSERT_EQ(0, pthread_create(&tb, NULL, read_pipe, &rb));
	ASSERT_EQ(ACL_SUCCESS, aclprofModelSubscribe(self->id, self->cfg));
	ASSERT_EQ(ACL_SUCCESS, aclprofModelSubscribe(idb, cb));
	for (int i = 0; i < 3; i++) {
		ASSERT_EQ(ACL_SUCCESS, aclmdlExecute(self->id, self->ids, self->ods));
		if (i < 2)
			ASSERT_EQ(ACL_SUCCESS, aclmdlExecute(idb, ids, ods));
	}
	ASSERT_EQ(ACL_SUCCESS, aclprofModelUnSubscribe(idb));
	ASSERT_EQ(0, pthread_join(tb, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclmdlExecute(self->id, self->ids, self->ods));
	ASSERT_EQ(ACL_SUCCESS, aclprofModelUnSubscribe(self->id));
	ASSERT_EQ(0, pthread_join(ta, NULL));
	self->fds[1] = -1;
	ASSERT_EQ(ACL_SUCCESS, aclprofGetOpNum(ra.buf, ra.len, &n));
	ASSERT_EQ(8u, n);
	for (uint32_t i = 0; i < n; i++)
		ASSERT_EQ(self->id, aclprofGetModelId(ra.buf, ra.len, i));
	ASSERT_EQ(ACL_SUCCESS, aclprofGetOpNum(rb.buf, rb.len, &n));
	ASSERT_EQ(2u, n);
	for (uint32_t i = 0; i < n; i++) {
		ASSERT_EQ(idb, aclprofGetModelId(rb.buf, rb.len, i));
		ASSERT_EQ(ACL_SUCCESS, aclprofGetOpName(rb.buf, rb.len, i, buf, sizeof(buf)));
		ASSERT_STREQ("mm", buf);
		ASSERT_EQ(ACL_SUCCESS, aclprofGetOpType(rb.buf, rb.len, i, buf, sizeof(buf)));
		ASSERT_STREQ("Matmul", buf);
	}
	free(ra.buf);
	free(rb.buf);
	close(fdb[0]);
	ASSERT_EQ(ACL_SUCCESS, aclprofDestroySubscribeConfig(cb));
	aclDestroyDataBuffer(xb);
	aclDestroyDataBuffer(yb);
	aclmdlDestroyDataset(ids);
	aclmdlDestroyDataset(ods);
	aclrtFree(x);
	aclrtFree(y);
	ASSERT_EQ(ACL_SUCCESS, aclmdlUnload(idb));
	free(img);
}

TEST_HARNESS_MAIN
