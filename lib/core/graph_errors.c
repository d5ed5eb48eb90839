/* SPDX-License-Identifier: MIT */
/* The aclError and wording of each capture failure (graph.h). */
#include "acl/acl_base.h"
#include "graph.h"

static const struct {
	aclError code;
	const char *text;
} caperr_table[CAPERR_END - CAPERR_BASE] = {
	[CAPERR_STREAM_CAPTURED - CAPERR_BASE] = { ACL_ERROR_RT_STREAM_CAPTURED,
		"the stream is capturing or bound to a graph" },
	[CAPERR_EVENT_CAPTURED - CAPERR_BASE] = { ACL_ERROR_RT_EVENT_CAPTURED,
		"the event was recorded in a capture that is still going on" },
	[CAPERR_NOT_CAPTURED - CAPERR_BASE] = { ACL_ERROR_RT_STREAM_NOT_CAPTURED,
		"the stream is not capturing" },
	[CAPERR_MODE - CAPERR_BASE] = { ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
		"operation not permitted while a stream is capturing and this thread's capture mode is not relaxed (see aclmdlRICaptureThreadExchangeMode)" },
	[CAPERR_IMPLICIT - CAPERR_BASE] = { ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT,
		"the default stream cannot take part in a capture" },
	[CAPERR_CONFLICT - CAPERR_BASE] = { ACL_ERROR_STREAM_CAPTURE_CONFLICT,
		"the stream belongs to another capture" },
	[CAPERR_UNMATCHED - CAPERR_BASE] = { ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED,
		"the capture must be ended on the stream that began it" },
	[CAPERR_WRONG_THREAD - CAPERR_BASE] = { ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD,
		"the capture must be ended by the thread that began it (unless its mode is relaxed)" },
	[CAPERR_UNJOINED - CAPERR_BASE] = { ACL_ERROR_RT_STREAM_UNJOINED,
		"a stream pulled into the graph did not join back to the head stream (record an event on it and wait for it on the head stream), or no head stream" },
	[CAPERR_DEPENDENCY - CAPERR_BASE] = { ACL_ERROR_RT_CAPTURE_DEPENDENCY,
		"the graph cannot depend on work outside it" },
	[CAPERR_INVALIDATED - CAPERR_BASE] = { ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
		"the capture was invalidated by an earlier error" },
	[CAPERR_BLOCK_ASYNC - CAPERR_BASE] = { ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC,
		"an async copy of pageable host memory runs synchronously, which the capture mode forbids" },
	[CAPERR_PAGEABLE - CAPERR_BASE] = { ACL_ERROR_RT_PARAM_INVALID,
		"a capture cannot record copies of pageable host memory: use aclrtMallocHost memory" },
	[CAPERR_STREAM_MODEL - CAPERR_BASE] = { ACL_ERROR_RT_STREAM_MODEL,
		"the stream is not bound to this graph" },
	[CAPERR_MODEL_STATE - CAPERR_BASE] = { ACL_ERROR_RT_PARAM_INVALID,
		"the graph is not in a state that allows this (building, capturing or finished)" },
	[CAPERR_SUB_CAPTURING - CAPERR_BASE] = { ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING,
		"a conditional sub-graph of this graph is still capturing: end its capture first" },
	[CAPERR_MODEL_CAPTURED - CAPERR_BASE] = { ACL_ERROR_RT_MODEL_CAPTURED,
		"the graph was captured already: capture into the sub-graphs aclmdlRIAddCondTask returns, once each" },
	[CAPERR_COND_UNSUPPORTED - CAPERR_BASE] = { ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
		"vnpu does not support this conditional graph (nested conditions, a sub-graph of several streams, or more than one command buffer of tasks; see Documentation/graphs.md)" },
	[CAPERR_TASKGRP_STATUS - CAPERR_BASE] = { ACL_ERROR_STREAM_TASK_GROUP_STATUS,
		"task group status error (a group begun twice or not begun, a stream already updating a group, a group being updated by another stream, or a graph still being captured)" },
	[CAPERR_TASKGRP_UPDATE - CAPERR_BASE] = { ACL_ERROR_RT_INTERNAL_ERROR,
		"the tasks re-captured for a task group do not match it in number or type" },
};

aclError caperr_code(int err)
{
	return caperr_is(err) ? caperr_table[-err - CAPERR_BASE].code :
	       ACL_ERROR_RT_INTERNAL_ERROR;
}

const char *caperr_text(int err)
{
	return caperr_is(err) ? caperr_table[-err - CAPERR_BASE].text :
	       "unknown capture error";
}
