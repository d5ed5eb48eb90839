// SPDX-License-Identifier: MIT
/*
 * Host checks of the profiling calls that need no device and no session
 * (issue 34): the subscription record getters on records built here, with
 * the signature computed by this test's own CRC-32C walk; the msproftx,
 * mstx and step-info argument checks; the codes outside a session.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "mstx/ms_tools_ext.h"
#include "core/prof_rt.h"
#include "kselftest_harness.h"

/* CANN's ProfOpDesc, written out here independently of lib/prof. */
struct op_desc {
	uint32_t signature, model_id, flag, thread_id;
	uint64_t op_index, duration, start, end, exec, cube, vector;
	uint32_t dev_id;
};

/* Bitwise reflected CRC-32C from ~0, no final inversion. */
static uint32_t sig_of(const void *p, size_t len)
{
	const uint8_t *b = p;
	uint32_t c = ~0u;

	for (size_t i = 0; i < len; i++) {
		c ^= b[i];
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1)));
	}
	return c;
}

static void sign(struct op_desc *d)
{
	d->signature = sig_of((const uint8_t *)d + 4, sizeof(*d) - 4);
}

static uint32_t tag_conv, tag_relu;
static struct op_desc recs[3];

static void build(void)
{
	tag_conv = prof_tag_intern("Conv2D", "layer1/conv1", 7,
				   PROF_TASK_AI_CORE, NULL);
	tag_relu = prof_tag_intern("Relu", "layer1/relu", 7,
				   PROF_TASK_AI_CORE, NULL);
	memset(recs, 0, sizeof(recs));
	for (int i = 0; i < 3; i++) {
		recs[i].model_id = 7;
		recs[i].op_index = i == 1 ? tag_relu : tag_conv;
		recs[i].start = 1000 + 10 * i;
		recs[i].end = 1005 + 10 * i;
		recs[i].duration = 5;
		recs[i].dev_id = 0;
	}
	recs[2].flag = ACL_SUBSCRIBE_OP_THREAD;
	recs[2].thread_id = 4321;
	for (int i = 0; i < 3; i++)
		sign(&recs[i]);
}

TEST(signature_is_crc32c_without_final_inversion)
{
	/* The table's second entry: the walk of byte 0x01 from 0. */
	uint8_t one = 1;

	/* From ~0 the walk of "123456789" is ~0xE3069283 (CRC-32C check). */
	ASSERT_EQ(0xE3069283u, ~sig_of("123456789", 9));
	(void)one;
}

TEST(desc_size)
{
	size_t n = 0;

	ASSERT_EQ(ACL_SUCCESS, aclprofGetOpDescSize(&n));
	ASSERT_EQ(80u, n);
	ASSERT_EQ(sizeof(struct op_desc), n);
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofGetOpDescSize(NULL));
}

TEST(op_num)
{
	uint32_t n = 99;
	struct op_desc bad[3];

	build();
	ASSERT_EQ(ACL_SUCCESS, aclprofGetOpNum(recs, sizeof(recs), &n));
	ASSERT_EQ(3u, n);
	ASSERT_EQ(ACL_SUCCESS, aclprofGetOpNum(recs, 80, &n));
	ASSERT_EQ(1u, n);
	ASSERT_EQ(ACL_SUCCESS, aclprofGetOpNum(recs, 0, &n));
	ASSERT_EQ(0u, n);
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofGetOpNum(recs, 79, &n));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofGetOpNum(recs, 81, &n));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofGetOpNum(NULL, 80, &n));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofGetOpNum(recs, 80, NULL));
	/* A changed byte anywhere in [4, 80) of any record is caught. */
	memcpy(bad, recs, sizeof(bad));
	bad[2].end++;
	n = 99;
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofGetOpNum(bad, sizeof(bad), &n));
	ASSERT_EQ(99u, n);
	memcpy(bad, recs, sizeof(bad));
	((uint8_t *)&bad[1])[79] ^= 1;
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofGetOpNum(bad, sizeof(bad), &n));
	memcpy(bad, recs, sizeof(bad));
	bad[0].signature ^= 0x100;
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofGetOpNum(bad, sizeof(bad), &n));
}

TEST(op_type_and_name)
{
	char buf[64];
	size_t len = 0;

	build();
	ASSERT_EQ(ACL_SUCCESS, aclprofGetOpTypeLen(recs, sizeof(recs), 0, &len));
	ASSERT_EQ(strlen("Conv2D") + 1, len);
	ASSERT_EQ(ACL_SUCCESS, aclprofGetOpType(recs, sizeof(recs), 0, buf, len));
	ASSERT_STREQ("Conv2D", buf);
	ASSERT_EQ(ACL_SUCCESS, aclprofGetOpNameLen(recs, sizeof(recs), 1, &len));
	ASSERT_EQ(strlen("layer1/relu") + 1, len);
	ASSERT_EQ(ACL_SUCCESS, aclprofGetOpName(recs, sizeof(recs), 1, buf, len));
	ASSERT_STREQ("layer1/relu", buf);
	ASSERT_EQ(ACL_SUCCESS, aclprofGetOpType(recs, sizeof(recs), 1, buf, sizeof(buf)));
	ASSERT_STREQ("Relu", buf);
	/* Not consumed: the same name again. */
	ASSERT_EQ(ACL_SUCCESS, aclprofGetOpName(recs, sizeof(recs), 1, buf, sizeof(buf)));
	ASSERT_STREQ("layer1/relu", buf);
	/* One byte short of the terminator: cut by one, as CANN does. */
	ASSERT_EQ(ACL_SUCCESS, aclprofGetOpType(recs, sizeof(recs), 0, buf, 6));
	ASSERT_STREQ("Conv2", buf);
	/* Shorter than the string: refused. */
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofGetOpType(recs, sizeof(recs), 0, buf, 5));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofGetOpName(recs, sizeof(recs), 0, buf, 0));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofGetOpName(recs, sizeof(recs), 0, NULL, 8));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofGetOpNameLen(recs, sizeof(recs), 0, NULL));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofGetOpTypeLen(NULL, sizeof(recs), 0, &len));
	/* Index range, length and signature checks. */
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofGetOpTypeLen(recs, sizeof(recs), 3, &len));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofGetOpTypeLen(recs, sizeof(recs), UINT32_MAX, &len));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofGetOpNameLen(recs, 100, 0, &len));
	recs[1].start++;
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofGetOpTypeLen(recs, sizeof(recs), 0, &len));
	/* An op this process never named. */
	build();
	recs[0].op_index = 0xfffffff0u;
	sign(&recs[0]);
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofGetOpTypeLen(recs, sizeof(recs), 0, &len));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofGetOpName(recs, sizeof(recs), 0, buf, sizeof(buf)));
}

TEST(times_model_flag)
{
	build();
	ASSERT_EQ(1010u, aclprofGetOpStart(recs, sizeof(recs), 1));
	ASSERT_EQ(1015u, aclprofGetOpEnd(recs, sizeof(recs), 1));
	ASSERT_EQ(5u, aclprofGetOpDuration(recs, sizeof(recs), 1));
	ASSERT_EQ(7u, aclprofGetModelId(recs, sizeof(recs), 2));
	ASSERT_EQ(0u, aclprofGetOpStart(recs, sizeof(recs), 3));
	ASSERT_EQ(0u, aclprofGetOpEnd(NULL, sizeof(recs), 0));
	ASSERT_EQ(0u, aclprofGetOpDuration(recs, 81, 0));
	ASSERT_EQ((size_t)ACL_ERROR_INVALID_PARAM, aclprofGetModelId(recs, sizeof(recs), 3));
	ASSERT_EQ(ACL_SUBSCRIBE_OP, aclprofGetOpFlag(recs, sizeof(recs), 0));
	ASSERT_EQ(ACL_SUBSCRIBE_OP_THREAD, aclprofGetOpFlag(recs, sizeof(recs), 2));
	ASSERT_EQ(ACL_SUBSCRIBE_NONE, aclprofGetOpFlag(recs, sizeof(recs), 3));
	ASSERT_EQ(ACL_SUBSCRIBE_NONE, aclprofGetOpFlag(NULL, sizeof(recs), 0));
	ASSERT_STREQ("4321", aclprofGetOpAttriValue(recs, sizeof(recs), 2,
						    ACL_SUBSCRIBE_ATTRI_THREADID));
	ASSERT_EQ(NULL, aclprofGetOpAttriValue(recs, sizeof(recs), 0,
					       ACL_SUBSCRIBE_ATTRI_THREADID));
	ASSERT_EQ(NULL, aclprofGetOpAttriValue(recs, sizeof(recs), 2,
					       ACL_SUBSCRIBE_ATTRI_NONE));
	ASSERT_EQ(NULL, aclprofGetOpAttriValue(recs, sizeof(recs), 3,
					       ACL_SUBSCRIBE_ATTRI_THREADID));
	/* A damaged signature fails the time getters. */
	recs[0].end = 1;
	ASSERT_EQ(0u, aclprofGetOpEnd(recs, sizeof(recs), 0));
	ASSERT_EQ(0u, aclprofGetOpStart(recs, sizeof(recs), 1));
}

TEST(tx_outside_a_session)
{
	uint32_t id = 5;

	ASSERT_EQ(NULL, aclprofCreateStamp());
	ASSERT_EQ(ACL_ERROR_PROF_NOT_RUN, aclprofMark(NULL));
	ASSERT_EQ(ACL_ERROR_PROF_NOT_RUN, aclprofPush(NULL));
	ASSERT_EQ(ACL_ERROR_PROF_NOT_RUN, aclprofPop());
	ASSERT_EQ(ACL_ERROR_PROF_NOT_RUN, aclprofRangeStart(NULL, &id));
	ASSERT_EQ(5u, id);
	ASSERT_EQ(ACL_ERROR_PROF_NOT_RUN, aclprofRangeStop(1));
	ASSERT_EQ(ACL_ERROR_PROF_NOT_RUN, aclprofMarkEx("m", 1, NULL));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofSetStampTraceMessage(NULL, "m", 1));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclprofSetStampTraceMessage((void *)&id, "m", 1));
	aclprofDestroyStamp(NULL);
	aclprofDestroyStamp(&id);	/* not a stamp: ignored */
}

TEST(str2id_is_stable_fnv1a)
{
	ASSERT_EQ(0xcbf29ce484222325ull, aclprofStr2Id(""));
	ASSERT_EQ(0xaf63dc4c8601ec8cull, aclprofStr2Id("a"));
	ASSERT_EQ(aclprofStr2Id("Conv2D"), aclprofStr2Id("Conv2D"));
	ASSERT_NE(aclprofStr2Id("Conv2D"), aclprofStr2Id("Conv3D"));
	ASSERT_EQ(0u, aclprofStr2Id(NULL));
}

TEST(range_push_ex_checks)
{
	aclprofTensor t[2] = {
		{ .type = 0, .shapeDim = 4, .shape = { 1, 3, 224, 224 } },
		{ .type = 1, .shapeDim = 2, .shape = { 1, 1000 } },
	};
	aclprofTensorInfo info = { .opNameId = aclprofStr2Id("fc"),
				   .opTypeId = aclprofStr2Id("MatMul"),
				   .tensorNum = 2, .tensors = t };
	aclprofEventAttributes a = {
		.version = ACL_PROF_EVENT_ATTR_VERSION,
		.size = sizeof(aclprofEventAttributes),
		.messageType = ACL_PROF_MESSAGE_TYPE_TENSOR_INFO,
		.message.tensorInfo = &info,
	};
	aclprofEventAttributes b;

	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofRangePop());
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofRangePushEx(NULL));
	b = a; b.version = 2;
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofRangePushEx(&b));
	b = a; b.size = 8;
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofRangePushEx(&b));
	b = a; b.messageType = 1;
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofRangePushEx(&b));
	b = a; b.message.tensorInfo = NULL;
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofRangePushEx(&b));
	info.tensors = NULL;
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofRangePushEx(&a));
	info.tensors = t;
	t[1].shapeDim = 9;
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofRangePushEx(&a));
	t[1].shapeDim = 8;
	/* Valid: the pair works without a session and records nothing. */
	ASSERT_EQ(ACL_SUCCESS, aclprofRangePushEx(&a));
	ASSERT_EQ(ACL_SUCCESS, aclprofRangePushEx(&a));
	ASSERT_EQ(ACL_SUCCESS, aclprofRangePop());
	ASSERT_EQ(ACL_SUCCESS, aclprofRangePop());
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofRangePop());
}

TEST(step_info_checks)
{
	aclprofStepInfo *s = aclprofCreateStepInfo();

	ASSERT_NE(NULL, s);
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofGetStepTimestamp(NULL, ACL_STEP_START, NULL));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM,
		  aclprofGetStepTimestamp(s, (aclprofStepTag)2, NULL));
	/* Arguments fine, runtime not initialised. */
	ASSERT_EQ(ACL_ERROR_UNINITIALIZE, aclprofGetStepTimestamp(s, ACL_STEP_START, NULL));
	aclprofDestroyStepInfo(s);
	aclprofDestroyStepInfo(NULL);
}

TEST(subscribe_config_checks)
{
	int fds[2];
	aclprofSubscribeConfig *c;

	ASSERT_EQ(0, pipe(fds));
	ASSERT_EQ(NULL, aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, NULL));
	ASSERT_EQ(NULL, aclprofCreateSubscribeConfig(2, ACL_AICORE_NONE, &fds[1]));
	ASSERT_EQ(NULL, aclprofCreateSubscribeConfig(-1, ACL_AICORE_NONE, &fds[1]));
	c = aclprofCreateSubscribeConfig(1, ACL_AICORE_PIPE_UTILIZATION, &fds[1]);
	ASSERT_NE(NULL, c);
	/* Before aclInit. */
	ASSERT_EQ(ACL_ERROR_UNINITIALIZE, aclprofModelSubscribe(1, c));
	ASSERT_EQ(ACL_ERROR_UNINITIALIZE, aclprofModelUnSubscribe(1));
	ASSERT_EQ(ACL_SUCCESS, aclprofDestroySubscribeConfig(c));
	ASSERT_EQ(ACL_ERROR_INVALID_PARAM, aclprofDestroySubscribeConfig(NULL));
	close(fds[0]);
	close(fds[1]);
}

TEST(mstx_outside_a_session)
{
	mstxDomainHandle_t d = mstxDomainCreateA("unit");
	uint64_t tool = 77;

	ASSERT_NE(NULL, d);
	ASSERT_EQ(d, mstxDomainCreateA("unit"));
	ASSERT_EQ(NULL, mstxDomainCreateA(NULL));
	ASSERT_EQ(NULL, mstxDomainCreateA(""));
	ASSERT_EQ(MSTX_INVALID_ID, mstxRangeStartA("r", NULL));
	ASSERT_EQ(MSTX_INVALID_ID, mstxDomainRangeStartA(d, "r", NULL));
	mstxMarkA("m", NULL);
	mstxMarkA(NULL, NULL);
	mstxDomainMarkA(d, "m", NULL);
	mstxRangeEnd(12345);
	mstxGetToolId(&tool);
	ASSERT_EQ(MSTX_TOOL_INVALID_ID, tool);
	mstxGetToolId(NULL);
	mstxDomainDestroy(d);
	/* A destroyed handle is refused, not followed. */
	ASSERT_EQ(MSTX_INVALID_ID, mstxDomainRangeStartA(d, "r", NULL));
	mstxDomainMarkA(d, "m", NULL);
}

TEST_HARNESS_MAIN
