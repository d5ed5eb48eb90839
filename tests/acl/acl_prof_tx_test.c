// SPDX-License-Identifier: MIT
/*
 * msproftx and mstx on the real driver (issue 34): the markers of a
 * session land in host/data/tx.tsv with the documented columns (one Mark,
 * nested Push/Pop, a range started on one thread and stopped on another,
 * a MarkEx whose device task record carries its tag, mstx marks and
 * ranges in the default and a named domain, step timestamps), and every
 * misuse gives its code: outside a session, bad stamps, a Pop without a
 * Push, unknown range ids, bad messages and streams, the stamp limit.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "mstx/ms_tools_ext.h"
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"
#include "prof_test_util.h"

enum { C_PID, C_TID, C_CAT, C_TYPE, C_PTYPE, C_PVAL, C_START, C_END, C_MTYPE,
       C_MSG, C_DOMAIN, C_DEV, C_QUEUE, C_TAG, TX_COLS };

FIXTURE(tx) {
	char out[256], dir[512];
	aclrtStream s;
	aclprofConfig *cfg;
	uint32_t dev;
};

FIXTURE_SETUP(tx)
{
	setenv("VNPU_PROF_EXPORT", "0", 1);
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s));
	ASSERT_EQ(0, pt_mkdir(self->out, sizeof(self->out)));
	self->dev = 0;
	self->cfg = aclprofCreateConfig(&self->dev, 1, ACL_AICORE_NONE, NULL,
					ACL_PROF_MSPROFTX | ACL_PROF_TASK_TIME);
	ASSERT_NE(NULL, self->cfg);
}

FIXTURE_TEARDOWN(tx)
{
	pt_rmtree(self->out);
	aclprofDestroyConfig(self->cfg);
	aclrtDestroyStream(self->s);
	aclrtResetDevice(0);
	aclFinalize();
}

static void start(struct __test_metadata *_metadata, FIXTURE_DATA(tx) *self)
{
	ASSERT_EQ(ACL_SUCCESS, aclprofInit(self->out, strlen(self->out)));
	ASSERT_EQ(ACL_SUCCESS, aclprofStart(self->cfg));
}

static void stop(struct __test_metadata *_metadata, FIXTURE_DATA(tx) *self)
{
	ASSERT_EQ(ACL_SUCCESS, aclprofStop(self->cfg));
	ASSERT_EQ(ACL_SUCCESS, aclprofFinalize());
	ASSERT_EQ(0, pt_session_dir(self->out, self->dir, sizeof(self->dir)));
}

static void *stamp_with(const char *msg)
{
	void *st = aclprofCreateStamp();

	if (st && aclprofSetStampTraceMessage(st, msg, (uint32_t)strlen(msg)))
		return NULL;
	return st;
}

struct stopper {
	uint32_t id;
	aclError ret;
	uint32_t tid;
};

static void *stop_range(void *arg)
{
	struct stopper *p = arg;

	p->tid = (uint32_t)syscall(SYS_gettid);
	p->ret = aclprofRangeStop(p->id);
	return NULL;
}

TEST_F(tx, markers_in_tx_tsv)
{
	struct pt_table t, tasks, tags;
	void *mark, *outer, *inner, *range;
	struct stopper sp = { 0 };
	mstxDomainHandle_t dom;
	mstxRangeId mid;
	pthread_t th;
	char tag[16];
	int r, ro, ri, k;

	start(_metadata, self);
	mark = stamp_with("mark one");
	outer = stamp_with("outer");
	inner = stamp_with("inner");
	range = stamp_with("cross thread");
	ASSERT_NE(NULL, mark);
	ASSERT_NE(NULL, range);
	ASSERT_EQ(ACL_SUCCESS, aclprofMark(mark));
	ASSERT_EQ(ACL_SUCCESS, aclprofPush(outer));
	ASSERT_EQ(ACL_SUCCESS, aclprofPush(inner));
	usleep(1000);
	ASSERT_EQ(ACL_SUCCESS, aclprofPop());
	ASSERT_EQ(ACL_SUCCESS, aclprofPop());
	ASSERT_EQ(ACL_SUCCESS, aclprofRangeStart(range, &sp.id));
	ASSERT_NE(0u, sp.id);
	ASSERT_EQ(0, pthread_create(&th, NULL, stop_range, &sp));
	ASSERT_EQ(0, pthread_join(th, NULL));
	ASSERT_EQ(ACL_SUCCESS, sp.ret);
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofRangeStop(sp.id));
	ASSERT_EQ(ACL_SUCCESS, aclprofMarkEx("device mark", 11, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	mstxMarkA("mstx mark", NULL);
	mid = mstxRangeStartA("mstx range", NULL);
	ASSERT_NE(MSTX_INVALID_ID, mid);
	mstxRangeEnd(mid);
	dom = mstxDomainCreateA("my domain");
	ASSERT_NE(NULL, dom);
	mstxDomainMarkA(dom, "domain mark", NULL);
	mid = mstxDomainRangeStartA(dom, "domain range", NULL);
	ASSERT_NE(MSTX_INVALID_ID, mid);
	mstxDomainRangeEnd(dom, mid);
	for (int i = 0; i < 4; i++)
		aclprofDestroyStamp((void *[]){ mark, outer, inner, range }[i]);
	stop(_metadata, self);

	ASSERT_EQ(0, pt_read(self->dir, "host/data/tx.tsv", &t));
	ASSERT_STREQ("#pid\ttid\tcategory\tevent_type\tpayload_type\tpayload_value\t"
		     "start_ns\tend_ns\tmessage_type\tmessage\tdomain\tdevice\tqueue\ttag",
		     t.header);
	ASSERT_EQ(9, t.nrows);
	for (r = 0; r < t.nrows; r++) {
		ASSERT_EQ(TX_COLS, t.ncols[r]);
		ASSERT_EQ((unsigned long long)getpid(), pt_u64(&t, r, C_PID));
		ASSERT_LE(pt_u64(&t, r, C_START), pt_u64(&t, r, C_END));
	}
	r = pt_find(&t, C_MSG, "mark one", 0);
	ASSERT_LE(0, r);
	ASSERT_STREQ("Mark", t.col[r][C_TYPE]);
	ASSERT_EQ(pt_u64(&t, r, C_START), pt_u64(&t, r, C_END));
	ASSERT_EQ((unsigned long long)syscall(SYS_gettid), pt_u64(&t, r, C_TID));
	ASSERT_STREQ("-", t.col[r][C_DOMAIN]);
	ASSERT_STREQ("-1", t.col[r][C_DEV]);
	ASSERT_STREQ("0", t.col[r][C_TAG]);
	/* Nesting: the inner range lies inside the outer one, popped first. */
	ri = pt_find(&t, C_MSG, "inner", 0);
	ro = pt_find(&t, C_MSG, "outer", 0);
	ASSERT_LE(0, ri);
	ASSERT_LT(ri, ro);
	ASSERT_STREQ("Push/Pop", t.col[ri][C_TYPE]);
	ASSERT_STREQ("Push/Pop", t.col[ro][C_TYPE]);
	ASSERT_LE(pt_u64(&t, ro, C_START), pt_u64(&t, ri, C_START));
	ASSERT_GE(pt_u64(&t, ro, C_END), pt_u64(&t, ri, C_END));
	ASSERT_LE(1000000ull, pt_u64(&t, ri, C_END) - pt_u64(&t, ri, C_START));
	/* The range: stopped on the other thread, whose id it carries. */
	r = pt_find(&t, C_MSG, "cross thread", 0);
	ASSERT_LE(0, r);
	ASSERT_STREQ("Start/Stop", t.col[r][C_TYPE]);
	ASSERT_EQ((unsigned long long)sp.tid, pt_u64(&t, r, C_TID));
	/* mstx: default and named domains. */
	r = pt_find(&t, C_MSG, "mstx mark", 0);
	ASSERT_LE(0, r);
	ASSERT_STREQ("Mark", t.col[r][C_TYPE]);
	ASSERT_STREQ("default", t.col[r][C_DOMAIN]);
	r = pt_find(&t, C_MSG, "mstx range", 0);
	ASSERT_LE(0, r);
	ASSERT_STREQ("Start/Stop", t.col[r][C_TYPE]);
	r = pt_find(&t, C_MSG, "domain mark", 0);
	ASSERT_LE(0, r);
	ASSERT_STREQ("my domain", t.col[r][C_DOMAIN]);
	r = pt_find(&t, C_MSG, "domain range", 0);
	ASSERT_LE(0, r);
	ASSERT_STREQ("my domain", t.col[r][C_DOMAIN]);
	/* MarkEx: a task on the stream's queue whose record has the tag. */
	r = pt_find(&t, C_MSG, "device mark", 0);
	ASSERT_LE(0, r);
	ASSERT_STREQ("MarkEx", t.col[r][C_TYPE]);
	ASSERT_STREQ("0", t.col[r][C_DEV]);
	ASSERT_NE(0ull, pt_u64(&t, r, C_QUEUE));
	ASSERT_NE(0ull, pt_u64(&t, r, C_TAG));
	snprintf(tag, sizeof(tag), "%s", t.col[r][C_TAG]);
	ASSERT_EQ(0, pt_read(self->dir, "device_0/data/task.tsv", &tasks));
	k = pt_find(&tasks, 5, tag, 0);
	ASSERT_LE(0, k);
	ASSERT_STREQ("task", tasks.col[k][0]);
	ASSERT_STREQ(t.col[r][C_QUEUE], tasks.col[k][2]);
	ASSERT_LE(pt_u64(&t, r, C_START), pt_u64(&tasks, k, 9));
	ASSERT_EQ(-1, pt_find(&tasks, 5, tag, k + 1));
	ASSERT_EQ(0, pt_read(self->dir, "host/data/tags.tsv", &tags));
	k = pt_find(&tags, 0, tag, 0);
	ASSERT_LE(0, k);
	ASSERT_STREQ("MarkEx", tags.col[k][2]);
	ASSERT_STREQ("device mark", tags.col[k][3]);
	ASSERT_STREQ("MARK", tags.col[k][4]);
}

TEST_F(tx, step_timestamps)
{
	aclprofStepInfo *si = aclprofCreateStepInfo();
	struct pt_table t;
	int r;

	ASSERT_NE(NULL, si);
	start(_metadata, self);
	ASSERT_EQ(ACL_SUCCESS, aclprofGetStepTimestamp(si, ACL_STEP_START, self->s));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofGetStepTimestamp(si, ACL_STEP_START, self->s));
	ASSERT_EQ(ACL_ERROR_RT_PARAM_INVALID,
		  aclprofGetStepTimestamp(si, ACL_STEP_END, (aclrtStream)&t));
	ASSERT_EQ(ACL_SUCCESS, aclprofGetStepTimestamp(si, ACL_STEP_END, self->s));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofGetStepTimestamp(si, ACL_STEP_END, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	aclprofDestroyStepInfo(si);
	stop(_metadata, self);
	ASSERT_EQ(0, pt_read(self->dir, "host/data/tx.tsv", &t));
	ASSERT_EQ(2, t.nrows);
	r = pt_find(&t, C_DOMAIN, "step", 0);
	ASSERT_LE(0, r);
	ASSERT_STREQ("MarkEx", t.col[r][C_TYPE]);
	ASSERT_NE(0ull, pt_u64(&t, r, C_TAG));
	ASSERT_LE(0, pt_find(&t, C_DOMAIN, "step", r + 1));
}

TEST_F(tx, misuse)
{
	char msg[200];
	void *st, *dead;
	uint32_t id = 77;
	aclrtStream gone;

	/* Outside a session. */
	ASSERT_EQ(NULL, aclprofCreateStamp());
	ASSERT_EQ(ACL_ERROR_PROF_NOT_RUN, aclprofMark(NULL));
	ASSERT_EQ(ACL_ERROR_PROF_NOT_RUN, aclprofPush(NULL));
	ASSERT_EQ(ACL_ERROR_PROF_NOT_RUN, aclprofPop());
	ASSERT_EQ(ACL_ERROR_PROF_NOT_RUN, aclprofRangeStart(NULL, &id));
	ASSERT_EQ(ACL_ERROR_PROF_NOT_RUN, aclprofRangeStop(1));
	ASSERT_EQ(ACL_ERROR_PROF_NOT_RUN, aclprofMarkEx("x", 1, self->s));
	ASSERT_EQ(MSTX_INVALID_ID, mstxRangeStartA("x", NULL));

	start(_metadata, self);
	st = aclprofCreateStamp();
	ASSERT_NE(NULL, st);
	dead = aclprofCreateStamp();
	ASSERT_NE(NULL, dead);
	aclprofDestroyStamp(dead);
	/* Stamps and messages. */
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofMark(NULL));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofMark(dead));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofMark(&id));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofPush(dead));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofSetStampTraceMessage(st, NULL, 3));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofSetStampTraceMessage(st, "abc", 0));
	memset(msg, 'a', sizeof(msg));
	msg[199] = 0;
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofSetStampTraceMessage(st, msg, 128));
	ASSERT_EQ(ACL_SUCCESS, aclprofSetStampTraceMessage(st, msg, 127));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofSetStampTraceMessage(dead, "abc", 3));
	/* Pop and ranges. */
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofPop());
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofRangeStart(st, NULL));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofRangeStart(dead, &id));
	ASSERT_EQ(77u, id);
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofRangeStop(123456));
	/* MarkEx's message and stream. */
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofMarkEx(NULL, 3, self->s));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofMarkEx("abc", 0, self->s));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofMarkEx("abc", 2, self->s));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofMarkEx(msg, 128, self->s));
	msg[127] = 0;
	ASSERT_EQ(ACL_SUCCESS, aclprofMarkEx(msg, 127, self->s));
	ASSERT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclprofMarkEx("abc", 3, (aclrtStream)&id));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&gone));
	ASSERT_EQ(ACL_SUCCESS, aclrtDestroyStream(gone));
	ASSERT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclprofMarkEx("abc", 3, gone));
	ASSERT_EQ(ACL_SUCCESS, aclprofMarkEx("abc", 3, NULL));	/* default stream */
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	aclprofDestroyStamp(st);
	stop(_metadata, self);
}

TEST_F(tx, no_msproftx_bit)
{
	aclprofConfig *c = aclprofCreateConfig(&self->dev, 1, ACL_AICORE_NONE,
					       NULL, ACL_PROF_TASK_TIME);

	ASSERT_NE(NULL, c);
	ASSERT_EQ(ACL_SUCCESS, aclprofInit(self->out, strlen(self->out)));
	ASSERT_EQ(ACL_SUCCESS, aclprofStart(c));
	ASSERT_EQ(NULL, aclprofCreateStamp());
	ASSERT_EQ(ACL_ERROR_PROF_NOT_RUN, aclprofPop());
	ASSERT_EQ(MSTX_INVALID_ID, mstxRangeStartA("x", NULL));
	ASSERT_EQ(ACL_SUCCESS, aclprofStop(c));
	ASSERT_EQ(ACL_SUCCESS, aclprofFinalize());
	aclprofDestroyConfig(c);
}

TEST_F(tx, stamp_limit)
{
	void **st = calloc(10001, sizeof(*st));
	uint64_t tool = 0;

	ASSERT_NE(NULL, st);
	start(_metadata, self);
	mstxGetToolId(&tool);
	ASSERT_EQ(MSTX_TOOL_MSPROF_ID, tool);
	for (int i = 0; i < 10000; i++) {
		st[i] = aclprofCreateStamp();
		ASSERT_NE(NULL, st[i]);
	}
	ASSERT_EQ(NULL, aclprofCreateStamp());
	aclprofDestroyStamp(st[5000]);
	st[5000] = aclprofCreateStamp();
	ASSERT_NE(NULL, st[5000]);
	for (int i = 0; i < 10000; i++)
		aclprofDestroyStamp(st[i]);
	free(st);
	stop(_metadata, self);
}

/* CANN's other habit: acl.json's "profiler" section turns markers on. */
TEST(acl_json_session)
{
	char out[256], json[320], dir[512];
	struct pt_table t;
	void *st;
	FILE *f;
	int r;

	setenv("VNPU_PROF_EXPORT", "0", 1);
	ASSERT_EQ(0, pt_mkdir(out, sizeof(out)));
	snprintf(json, sizeof(json), "%s/acl.json", out);
	f = fopen(json, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "{\"profiler\": {\"switch\": \"on\", \"msproftx\": \"on\", "
		   "\"output\": \"%s\"}}\n", out);
	fclose(f);
	ASSERT_EQ(ACL_SUCCESS, aclInit(json));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	st = aclprofCreateStamp();
	ASSERT_NE(NULL, st);
	ASSERT_EQ(ACL_SUCCESS, aclprofSetStampTraceMessage(st, "from acl.json", 13));
	ASSERT_EQ(ACL_SUCCESS, aclprofMark(st));
	mstxMarkA("mstx from acl.json", NULL);
	aclprofDestroyStamp(st);
	ASSERT_EQ(ACL_SUCCESS, aclrtResetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclFinalize());
	ASSERT_EQ(0, pt_session_dir(out, dir, sizeof(dir)));
	ASSERT_EQ(0, pt_read(dir, "host/data/tx.tsv", &t));
	ASSERT_EQ(2, t.nrows);
	r = pt_find(&t, C_MSG, "from acl.json", 0);
	ASSERT_LE(0, r);
	ASSERT_STREQ("Mark", t.col[r][C_TYPE]);
	ASSERT_LE(0, pt_find(&t, C_MSG, "mstx from acl.json", 0));
	/* The session ended with aclFinalize: markers are refused again. */
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(NULL, aclprofCreateStamp());
	ASSERT_EQ(ACL_SUCCESS, aclFinalize());
	pt_rmtree(out);
}

TEST_HARNESS_MAIN
