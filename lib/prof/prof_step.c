/* SPDX-License-Identifier: MIT */
/*
 * Training step timestamps: aclprofCreateStepInfo/DestroyStepInfo and
 * aclprofGetStepTimestamp. Each (stepInfo, tag) may be set once. While a
 * session runs the timestamp is a task on the stream (kind MARK, op type
 * "StepStart"/"StepEnd", op name "step <index>") and a MarkEx row of
 * tx.tsv in domain "step"; without a session the call only checks its
 * arguments and sets the flag, as CANN's does.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "acl/acl_prof.h"
#include "prof.h"
#include "prof_tx.h"
#include "../core/entry_check.h"
#include "../core/error.h"

#define STEP_MAGIC 0x50455453u	/* "STEP" */

struct aclprofStepInfo {
	uint32_t magic;
	bool started, ended;
	uint64_t index;
};

static _Atomic uint64_t next_index = 1;

aclprofStepInfo *aclprofCreateStepInfo(void)
{
	aclprofStepInfo *s = calloc(1, sizeof(*s));

	if (!s) {
		acl_fail(ACL_ERROR_BAD_ALLOC, "out of memory");
		return NULL;
	}
	s->magic = STEP_MAGIC;
	s->index = atomic_fetch_add(&next_index, 1);
	return s;
}

void aclprofDestroyStepInfo(aclprofStepInfo *stepinfo)
{
	if (!stepinfo || stepinfo->magic != STEP_MAGIC) {
		acl_fail(ACL_ERROR_INVALID_PARAM,
			 "stepinfo is not an aclprofStepInfo of aclprofCreateStepInfo");
		return;
	}
	stepinfo->magic = 0;
	free(stepinfo);
}

aclError aclprofGetStepTimestamp(aclprofStepInfo *stepInfo, aclprofStepTag tag,
				 aclrtStream stream)
{
	struct tx_row row = { .type = TX_MARK_EX, .domain = "step",
			      .device = -1 };
	char name[64];
	bool *flag;
	aclError e;

	if (!stepInfo || stepInfo->magic != STEP_MAGIC)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"stepInfo is not an aclprofStepInfo of aclprofCreateStepInfo");
	if (tag != ACL_STEP_START && tag != ACL_STEP_END)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"tag %d is neither ACL_STEP_START nor ACL_STEP_END",
				(int)tag);
	flag = tag == ACL_STEP_START ? &stepInfo->started : &stepInfo->ended;
	if (*flag)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"this stepInfo's %s was set already",
				tag == ACL_STEP_START ? "start" : "end");
	RT_REQUIRE_INIT();
	snprintf(name, sizeof(name), "step %llu",
		 (unsigned long long)stepInfo->index);
	if (prof_collecting(~0ULL)) {
		row.start_ns = row.end_ns = prof_rt_now();
		row.message = name;
		e = tx_device_mark(__func__, stream,
				   tag == ACL_STEP_START ? "StepStart" : "StepEnd",
				   name, &row);
		if (e)
			return e;
		tx_write(&row);
	} else {
		struct rt_stream *s;

		e = rt_stream_arg(__func__, stream, &s);
		if (e)
			return e;
	}
	*flag = true;
	return ACL_SUCCESS;
}
