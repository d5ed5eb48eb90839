// SPDX-License-Identifier: MIT
/*
 * Conditional graphs on the real driver: IF (one and two branches, both
 * taken across replays as the device word changes between them), the
 * ASSIGN_DEFAULT reset and a condition set by the graph itself, WHILE
 * counting down on the device with aclnn adds in its body, SWITCH over
 * three branches, the loop bound, and every misuse with its code.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "kselftest_harness.h"

#define BYTES 4096

FIXTURE(c) {
	aclrtStream s, sub, exec;
	uint8_t *out;		/* device: what the branches write */
	uint64_t *word;		/* the condition word */
};

FIXTURE_SETUP(c)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->sub));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->exec));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc((void **)&self->out, BYTES,
					   ACL_MEM_MALLOC_HUGE_FIRST));
}

FIXTURE_TEARDOWN(c)
{
	aclrtFree(self->out);
	aclrtDestroyStream(self->s);
	aclrtDestroyStream(self->sub);
	aclrtDestroyStream(self->exec);
	aclrtResetDevice(0);
	aclFinalize();
}

static void put_word(uint64_t *word, uint64_t v)
{
	aclrtMemcpy(word, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE);
}

static uint64_t get_word(uint64_t *word)
{
	uint64_t v = 0xdeadbeef;

	aclrtMemcpy(&v, 8, word, 8, ACL_MEMCPY_DEVICE_TO_HOST);
	return v;
}

static int byte_at(uint8_t *dev, size_t off)
{
	uint8_t b = 0xee;

	if (aclrtMemcpy(&b, 1, dev + off, 1, ACL_MEMCPY_DEVICE_TO_HOST))
		return -1;
	return b;
}

/* Replay ri on stream s and wait. */
static int replay(aclmdlRI ri, aclrtStream s)
{
	int ret = aclmdlRIExecuteAsync(ri, s);

	return ret ? ret : aclrtSynchronizeStream(s);
}

/* Begin a capture on s and make a condition handle of its graph. */
static int begin_with_handle(aclrtStream s, uint32_t defval, int flag,
			     aclmdlRI *ri, aclmdlRICondHandle *h,
			     uint64_t **word)
{
	aclmdlRICaptureStatus st;
	int ret;

	ret = aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL);
	if (!ret)
		ret = aclmdlRICaptureGetInfo(s, &st, ri);
	if (!ret)
		ret = aclmdlRICondHandleCreate(*ri, defval,
					       (aclmdlRICondHandleFlag)flag, h);
	if (!ret)
		ret = aclmdlRICondHandleGetCondPtr(*h, word);
	return ret;
}

/* Capture one memset of byte v at out + off into sub-graph sub. */
static int sub_memset(aclrtStream s, aclmdlRI sub, uint8_t *out, size_t off,
		      int v)
{
	aclmdlRI got = NULL;
	int ret = aclmdlRICaptureToModelRIBegin(s, sub,
						ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL);

	if (!ret)
		ret = aclrtMemsetAsync(out + off, 16, v, 16, s);
	if (!ret)
		ret = aclmdlRICaptureEnd(s, &got);
	if (!ret && got != sub)
		ret = -1;
	return ret;
}

TEST_F(c, if_else_follows_the_word)
{
	aclmdlRICondTaskParams p = { 0 };
	aclmdlRI ri = NULL, subs[2] = { 0 };
	aclmdlRICondHandle h = NULL;
	uint64_t *word = NULL;

	ASSERT_EQ(ACL_SUCCESS, begin_with_handle(self->s, 0, 0, &ri, &h, &word));
	ASSERT_NE(NULL, word);
	/* before and after the cond task: stream order around it */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(self->out + 64, 16, 0x01, 16, self->s));
	p.handle = h;
	p.type = ACL_MODEL_RI_COND_TYPE_IF;
	p.size = 2;
	p.modelRIArray = subs;
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIAddCondTask(p, self->s, 0));
	ASSERT_NE(NULL, subs[0]);
	ASSERT_NE(NULL, subs[1]);
	ASSERT_NE(subs[0], subs[1]);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(self->out + 128, 16, 0x02, 16, self->s));
	ASSERT_EQ(ACL_SUCCESS, sub_memset(self->sub, subs[0], self->out, 0, 0x11));
	ASSERT_EQ(ACL_SUCCESS, sub_memset(self->sub, subs[1], self->out, 0, 0x22));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));

	/* Nothing ran at capture. */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(self->out, BYTES, 0, BYTES));
	EXPECT_EQ(0, byte_at(self->out, 0));
	put_word(word, 1);
	ASSERT_EQ(ACL_SUCCESS, replay(ri, self->exec));
	EXPECT_EQ(0x11, byte_at(self->out, 0));
	EXPECT_EQ(0x01, byte_at(self->out, 64));
	EXPECT_EQ(0x02, byte_at(self->out, 128));
	put_word(word, 0);
	ASSERT_EQ(ACL_SUCCESS, replay(ri, self->exec));
	EXPECT_EQ(0x22, byte_at(self->out, 0));
	/* any non-zero value is true, also a negative one */
	put_word(word, (uint64_t)-5);
	ASSERT_EQ(ACL_SUCCESS, replay(ri, self->exec));
	EXPECT_EQ(0x11, byte_at(self->out, 0));
	put_word(word, 1ull << 40);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(self->out, 16, 0, 16));
	ASSERT_EQ(ACL_SUCCESS, replay(ri, self->s));	/* the capture stream too */
	EXPECT_EQ(0x11, byte_at(self->out, 0));
	/* The word is the graph's: replays leave it as the host set it. */
	EXPECT_EQ(1ull << 40, get_word(word));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

TEST_F(c, if_without_else)
{
	aclmdlRICondTaskParams p = { 0 };
	aclmdlRI ri = NULL, subs[1] = { 0 };
	aclmdlRICondHandle h = NULL;
	uint64_t *word = NULL;

	ASSERT_EQ(ACL_SUCCESS, begin_with_handle(self->s, 0, 0, &ri, &h, &word));
	p.handle = h;
	p.type = ACL_MODEL_RI_COND_TYPE_IF;
	p.size = 1;
	p.modelRIArray = subs;
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIAddCondTask(p, self->s, 0));
	ASSERT_EQ(ACL_SUCCESS, sub_memset(self->sub, subs[0], self->out, 0, 0x33));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(self->out, BYTES, 0, BYTES));
	put_word(word, 0);
	ASSERT_EQ(ACL_SUCCESS, replay(ri, self->exec));
	EXPECT_EQ(0, byte_at(self->out, 0));
	put_word(word, 2);
	ASSERT_EQ(ACL_SUCCESS, replay(ri, self->exec));
	EXPECT_EQ(0x33, byte_at(self->out, 0));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

/*
 * ASSIGN_DEFAULT resets the word at every launch, so a host write before
 * the launch does not count (as in CANN's cond_model sample); a value the
 * graph itself writes before the cond task does.
 */
TEST_F(c, assign_default_and_device_set_condition)
{
	aclmdlRICondTaskParams p = { 0 };
	aclmdlRI ri = NULL, ri2 = NULL, subs[2] = { 0 };
	aclmdlRICondHandle h = NULL;
	uint64_t *word = NULL;

	ASSERT_EQ(ACL_SUCCESS, begin_with_handle(self->s, 0,
		  ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &ri, &h, &word));
	p.handle = h;
	p.type = ACL_MODEL_RI_COND_TYPE_IF;
	p.size = 2;
	p.modelRIArray = subs;
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIAddCondTask(p, self->s, 0));
	ASSERT_EQ(ACL_SUCCESS, sub_memset(self->sub, subs[0], self->out, 0, 0x44));
	ASSERT_EQ(ACL_SUCCESS, sub_memset(self->sub, subs[1], self->out, 0, 0x55));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));
	put_word(word, 1);
	ASSERT_EQ(ACL_SUCCESS, replay(ri, self->exec));
	EXPECT_EQ(0x55, byte_at(self->out, 0));
	EXPECT_EQ(0, get_word(word));

	/* default 1; the graph writes 0 itself before the cond task */
	ASSERT_EQ(ACL_SUCCESS, begin_with_handle(self->s, 1,
		  ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &ri2, &h, &word));
	p.handle = h;
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIAddCondTask(p, self->s, 0));
	ASSERT_EQ(ACL_SUCCESS, sub_memset(self->sub, subs[0], self->out, 0, 0x66));
	ASSERT_EQ(ACL_SUCCESS, sub_memset(self->sub, subs[1], self->out, 0, 0x77));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri2));
	EXPECT_EQ(1, get_word(word));	/* starts at the default value */
	put_word(word, 0);
	ASSERT_EQ(ACL_SUCCESS, replay(ri2, self->exec));
	EXPECT_EQ(0x66, byte_at(self->out, 0));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri2));

	ASSERT_EQ(ACL_SUCCESS, begin_with_handle(self->s, 1,
		  ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &ri2, &h, &word));
	ASSERT_EQ(ACL_SUCCESS, aclrtValueWrite(word, 0, 0, self->s));
	p.handle = h;
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIAddCondTask(p, self->s, 0));
	ASSERT_EQ(ACL_SUCCESS, sub_memset(self->sub, subs[0], self->out, 0, 0x66));
	ASSERT_EQ(ACL_SUCCESS, sub_memset(self->sub, subs[1], self->out, 0, 0x77));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri2));
	ASSERT_EQ(ACL_SUCCESS, replay(ri2, self->exec));
	EXPECT_EQ(0x77, byte_at(self->out, 0));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri2));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

/* One INT64 element tensor at dev. */
static aclTensor *i64(void *dev)
{
	int64_t dims[1] = { 1 };

	return aclCreateTensor(dims, 1, ACL_INT64, NULL, 0, ACL_FORMAT_ND,
			       dims, 1, dev);
}

static int add_i64(aclTensor *a, aclTensor *b, aclTensor *out, aclrtStream s)
{
	int64_t one = 1;
	aclScalar *al = aclCreateScalar(&one, ACL_INT64);
	aclOpExecutor *ex = NULL;
	uint64_t wsz = 0;
	void *ws = NULL;
	int ret = aclnnAddGetWorkspaceSize(a, b, al, out, &wsz, &ex);

	if (!ret && wsz)
		ret = aclrtMalloc(&ws, wsz, ACL_MEM_MALLOC_HUGE_FIRST);
	if (!ret)
		ret = aclnnAdd(ws, wsz, ex, s);
	aclDestroyScalar(al);
	return ret;
}

/* while (word) { word += -1; acc += 1; } all on the device */
TEST_F(c, while_counts_down_on_the_device)
{
	aclmdlRICondTaskParams p = { 0 };
	aclmdlRI ri = NULL, body[1] = { 0 }, got = NULL;
	aclmdlRICondHandle h = NULL;
	int64_t consts[2] = { -1, 1 };
	uint64_t *word = NULL;
	int64_t *k = NULL, *acc = NULL;
	aclTensor *tw, *tm1, *tone, *tacc;

	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc((void **)&k, 16, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc((void **)&acc, 8, ACL_MEM_MALLOC_HUGE_FIRST));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(k, 16, consts, 16, ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, begin_with_handle(self->s, 0, 0, &ri, &h, &word));
	tw = i64(word);
	tm1 = i64(k);
	tone = i64(k + 1);
	tacc = i64(acc);
	p.handle = h;
	p.type = ACL_MODEL_RI_COND_TYPE_WHILE;
	p.size = 1;
	p.modelRIArray = body;
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIAddCondTask(p, self->s, 0));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureToModelRIBegin(self->sub, body[0],
		  ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
	ASSERT_EQ(ACL_SUCCESS, add_i64(tw, tm1, tw, self->sub));
	ASSERT_EQ(ACL_SUCCESS, add_i64(tacc, tone, tacc, self->sub));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->sub, &got));
	ASSERT_EQ(body[0], got);
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));

	put_word(word, 5);
	put_word((uint64_t *)acc, 0);
	ASSERT_EQ(ACL_SUCCESS, replay(ri, self->exec));
	EXPECT_EQ(0, get_word(word));
	EXPECT_EQ(5, get_word((uint64_t *)acc));
	put_word(word, 3);
	ASSERT_EQ(ACL_SUCCESS, replay(ri, self->exec));
	EXPECT_EQ(8, get_word((uint64_t *)acc));
	/* checked before the first iteration: 0 runs no body */
	put_word(word, 0);
	ASSERT_EQ(ACL_SUCCESS, replay(ri, self->exec));
	EXPECT_EQ(8, get_word((uint64_t *)acc));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
	aclDestroyTensor(tw);
	aclDestroyTensor(tm1);
	aclDestroyTensor(tone);
	aclDestroyTensor(tacc);
	aclrtFree(k);
	aclrtFree(acc);
}

/* A WHILE whose word never changes stops at the driver's loop bound. */
TEST_F(c, endless_while_fails_the_replay)
{
	aclmdlRICondTaskParams p = { 0 };
	aclmdlRI ri = NULL, body[1] = { 0 };
	aclmdlRICondHandle h = NULL;
	uint64_t *word = NULL;

	ASSERT_EQ(ACL_SUCCESS, begin_with_handle(self->s, 0, 0, &ri, &h, &word));
	p.handle = h;
	p.type = ACL_MODEL_RI_COND_TYPE_WHILE;
	p.size = 1;
	p.modelRIArray = body;
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIAddCondTask(p, self->s, 0));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(self->out, 16, 0x5a, 16, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(self->out, 16, 0, 16));
	put_word(word, 1);
	EXPECT_NE(ACL_SUCCESS, replay(ri, self->exec));
	/* the task after the loop never ran */
	EXPECT_EQ(0, byte_at(self->out, 0));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

TEST_F(c, switch_over_three_branches)
{
	aclmdlRICondTaskParams p = { 0 };
	aclmdlRI ri = NULL, cases[3] = { 0 };
	aclmdlRICondHandle h = NULL;
	uint64_t *word = NULL;

	ASSERT_EQ(ACL_SUCCESS, begin_with_handle(self->s, 0, 0, &ri, &h, &word));
	p.handle = h;
	p.type = ACL_MODEL_RI_COND_TYPE_SWITCH;
	p.size = 3;
	p.modelRIArray = cases;
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIAddCondTask(p, self->s, 0));
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(ACL_SUCCESS, sub_memset(self->sub, cases[i], self->out,
						  16 * i, 0x10 + i));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));
	for (int v = 0; v < 3; v++) {
		ASSERT_EQ(ACL_SUCCESS, aclrtMemset(self->out, 64, 0, 64));
		put_word(word, (uint64_t)v);
		ASSERT_EQ(ACL_SUCCESS, replay(ri, self->exec));
		for (int i = 0; i < 3; i++) {
			int want = i == v ? 0x10 + i : 0;

			EXPECT_EQ(want, byte_at(self->out, 16 * i))
				TH_LOG("word %d case %d", v, i);
		}
	}
	/* out of range: no case runs */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemset(self->out, 64, 0, 64));
	put_word(word, 3);
	ASSERT_EQ(ACL_SUCCESS, replay(ri, self->exec));
	put_word(word, (uint64_t)-1);
	ASSERT_EQ(ACL_SUCCESS, replay(ri, self->exec));
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(0, byte_at(self->out, 16 * i));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

TEST_F(c, handle_misuse)
{
	aclmdlRI ri = NULL, built = NULL;
	aclmdlRICondHandle h = NULL;
	aclmdlRICaptureStatus st;
	uint64_t *word = NULL;
	aclrtStream ps = NULL;

	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureGetInfo(self->s, &st, &ri));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRICondHandleCreate(NULL, 0,
		  ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &h));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRICondHandleCreate(ri, 0,
		  ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, NULL));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRICondHandleCreate(ri, 0,
		  (aclmdlRICondHandleFlag)2, &h));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRICondHandleCreate((aclmdlRI)&st, 0,
		  ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &h));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICondHandleCreate(ri, 0,
		  ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &h));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRICondHandleGetCondPtr(NULL, &word));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRICondHandleGetCondPtr(h, NULL));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRICondHandleGetCondPtr((void *)&st, &word));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));
	/* after the end: no new handle */
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRICondHandleCreate(ri, 0,
		  ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &h));
	/* the handle dies with its graph */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICondHandleGetCondPtr(h, &word));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRICondHandleGetCondPtr(h, &word));

	/* built graphs have no condition handles */
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStreamWithConfig(&ps, 0, ACL_STREAM_PERSISTENT));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIBuildBegin(&built, 0));
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclmdlRICondHandleCreate(built, 0,
		  ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &h));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(built));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(ps));
}

TEST_F(c, add_cond_task_misuse)
{
	aclmdlRI ri = NULL, ri2 = NULL, subs[4] = { 0 };
	aclmdlRICondTaskParams p = { 0 };
	aclmdlRICondHandle h = NULL, h2 = NULL;
	uint64_t *word = NULL, *word2 = NULL;

	ASSERT_EQ(ACL_SUCCESS, begin_with_handle(self->s, 0, 0, &ri, &h, &word));
	p.handle = h;
	p.type = ACL_MODEL_RI_COND_TYPE_IF;
	p.size = 1;
	p.modelRIArray = subs;
	/* the stream must capture */
	EXPECT_EQ(ACL_ERROR_RT_STREAM_NOT_CAPTURED, aclmdlRIAddCondTask(p, self->exec, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRIAddCondTask(p, NULL, 0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIAddCondTask(p, self->s, 1));
	p.type = (aclmdlRICondTaskType)3;
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIAddCondTask(p, self->s, 0));
	p.type = ACL_MODEL_RI_COND_TYPE_IF;
	p.handle = NULL;
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIAddCondTask(p, self->s, 0));
	p.handle = (void *)&p;
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIAddCondTask(p, self->s, 0));
	p.handle = h;
	p.modelRIArray = NULL;
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIAddCondTask(p, self->s, 0));
	p.modelRIArray = subs;
	/* sizes */
	p.size = 0;
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIAddCondTask(p, self->s, 0));
	p.size = 3;
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIAddCondTask(p, self->s, 0));
	p.type = ACL_MODEL_RI_COND_TYPE_WHILE;
	p.size = 2;
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIAddCondTask(p, self->s, 0));
	p.type = ACL_MODEL_RI_COND_TYPE_SWITCH;
	p.size = 0;
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIAddCondTask(p, self->s, 0));
	EXPECT_EQ(NULL, subs[0]);	/* nothing made by a refused call */

	/* a handle of another graph */
	ASSERT_EQ(ACL_SUCCESS, begin_with_handle(self->exec, 0, 0, &ri2, &h2, &word2));
	p.handle = h2;
	p.type = ACL_MODEL_RI_COND_TYPE_IF;
	p.size = 1;
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIAddCondTask(p, self->s, 0));
	EXPECT_EQ(NULL, subs[0]);
	/* a handle is used once */
	p.handle = h;
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIAddCondTask(p, self->s, 0));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIAddCondTask(p, self->s, 0));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->exec, &ri2));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri2));
}

TEST_F(c, sub_graph_misuse)
{
	aclmdlRI ri = NULL, ri2 = NULL, subs[2] = { 0 }, got = NULL, inner[1];
	aclmdlRICondTaskParams p = { 0 };
	aclmdlRICondHandle h = NULL, h2 = NULL;
	aclmdlRICaptureStatus st;
	aclmdlRI cur = NULL;
	uint64_t *word = NULL;

	ASSERT_EQ(ACL_SUCCESS, begin_with_handle(self->s, 0, 0, &ri, &h, &word));
	p.handle = h;
	p.type = ACL_MODEL_RI_COND_TYPE_IF;
	p.size = 2;
	p.modelRIArray = subs;
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIAddCondTask(p, self->s, 0));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureToModelRIBegin(NULL, subs[0],
		  ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureToModelRIBegin(self->sub, NULL,
		  ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
	/* a graph that is not an empty sub-graph */
	EXPECT_EQ(ACL_ERROR_RT_MODEL_CAPTURED, aclmdlRICaptureToModelRIBegin(self->sub, ri,
		  ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
	/* the capturing stream itself cannot start another capture */
	EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURED, aclmdlRICaptureToModelRIBegin(self->s, subs[0],
		  ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
	ASSERT_EQ(ACL_SUCCESS, sub_memset(self->sub, subs[0], self->out, 0, 1));
	/* captured once */
	EXPECT_EQ(ACL_ERROR_RT_MODEL_CAPTURED, aclmdlRICaptureToModelRIBegin(self->sub, subs[0],
		  ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureToModelRIBegin(self->sub, subs[1],
		  ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureGetInfo(self->sub, &st, &cur));
	EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE, st);
	EXPECT_EQ(subs[1], cur);
	/* no nesting: a cond task inside a sub-graph */
	p.handle = h;
	p.size = 1;
	p.modelRIArray = inner;
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclmdlRIAddCondTask(p, self->sub, 0));
	/* the parent cannot end while a sub-graph captures */
	EXPECT_EQ(ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING, aclmdlRICaptureEnd(self->s, &ri2));
	/* the parent is gone with its sub-graphs; both streams are free */
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->sub));
	EXPECT_EQ(ACL_ERROR_RT_STREAM_NOT_CAPTURED, aclmdlRICaptureEnd(self->sub, &got));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRICondHandleGetCondPtr(h, &word));

	/* a sub-graph is its parent's: no replay, no destroy of its own */
	ASSERT_EQ(ACL_SUCCESS, begin_with_handle(self->s, 0, 0, &ri, &h2, &word));
	p.handle = h2;
	p.size = 1;
	p.modelRIArray = subs;
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIAddCondTask(p, self->s, 0));
	ASSERT_EQ(ACL_SUCCESS, sub_memset(self->sub, subs[0], self->out, 0, 1));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIExecuteAsync(subs[0], self->exec));
	EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, aclmdlRIDestroy(subs[0]));
	EXPECT_EQ(ACL_SUCCESS, aclmdlRIDestroy(ri));
}

/* A sub-graph of two streams cannot be inlined into one segment. */
TEST_F(c, sub_graph_of_two_streams_is_refused)
{
	aclmdlRI ri = NULL, subs[1] = { 0 }, got = NULL;
	aclmdlRICondTaskParams p = { 0 };
	aclmdlRICondHandle h = NULL;
	aclrtEvent e1, e2;
	aclrtStream other;
	uint64_t *word = NULL;

	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&other));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e1));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateEvent(&e2));
	ASSERT_EQ(ACL_SUCCESS, begin_with_handle(self->s, 0, 0, &ri, &h, &word));
	p.handle = h;
	p.type = ACL_MODEL_RI_COND_TYPE_IF;
	p.size = 1;
	p.modelRIArray = subs;
	ASSERT_EQ(ACL_SUCCESS, aclmdlRIAddCondTask(p, self->s, 0));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureToModelRIBegin(self->sub, subs[0],
		  ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e1, self->sub));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(other, e1));
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(self->out, 16, 1, 16, other));
	ASSERT_EQ(ACL_SUCCESS, aclrtRecordEvent(e2, other));
	ASSERT_EQ(ACL_SUCCESS, aclrtStreamWaitEvent(self->sub, e2));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->sub, &got));
	EXPECT_EQ(subs[0], got);
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclmdlRICaptureEnd(self->s, &ri));
	/* everything is released */
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(other));
	EXPECT_EQ(ACL_SUCCESS, aclrtDestroyStream(other));
	aclrtDestroyEvent(e1);
	aclrtDestroyEvent(e2);
}

TEST_HARNESS_MAIN
