/* SPDX-License-Identifier: MIT */
/*
 * msproftx markers: aclprofMark, aclprofMarkEx, aclprofPush/Pop,
 * aclprofRangeStart/Stop and aclprofStr2Id. Each call records one row of
 * host/data/tx.tsv while a session collects ACL_PROF_MSPROFTX; outside
 * one the calls fail with ACL_ERROR_PROF_NOT_RUN (CANN reports a generic
 * failure there). Documentation/profiling.md, "msproftx and mstx".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_prof.h"
#include "prof.h"
#include "prof_tx.h"
#include "../core/error.h"

#define TX_DEPTH_MAX 1024	/* Push without Pop on one thread */

/* The thread's open aclprofPush stamps (copies). */
struct tx_pushed {
	uint64_t start_ns;
	uint32_t category;
	char msg[TX_MSG_MAX + 1];
};

static _Thread_local struct tx_pushed *stack;
static _Thread_local uint32_t depth, stack_cap;

static aclError not_running(const char *func)
{
	return acl_fail_at(func, ACL_ERROR_PROF_NOT_RUN,
			   "no profiling session collects ACL_PROF_MSPROFTX: call aclprofStart with it first");
}

static aclError bad_stamp(const char *func, const void *stamp)
{
	return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
			   "stamp %p is not a live stamp of aclprofCreateStamp",
			   stamp);
}

/* A row of type for stamp s, its times both now. */
static struct tx_row stamp_row(const struct tx_stamp *s, enum tx_event type)
{
	uint64_t now = prof_rt_now();

	return (struct tx_row){ .type = type, .category = s->category,
				.start_ns = now, .end_ns = now,
				.message = s->msg, .device = -1 };
}

static aclError written(const char *func, int ret)
{
	/* The session ended between the check and the write: not an error. */
	if (ret && ret != -ENOENT)
		return acl_fail_at(func, ACL_ERROR_PROFILING_FAILURE,
				   "writing tx.tsv failed (%s)", strerror(-ret));
	return ACL_SUCCESS;
}

aclError aclprofMark(void *stamp)
{
	struct tx_stamp *s;
	struct tx_row row;

	if (!tx_on())
		return not_running(__func__);
	s = tx_stamp_get(stamp);
	if (!s)
		return bad_stamp(__func__, stamp);
	row = stamp_row(s, TX_MARK);
	return written(__func__, tx_write(&row));
}

aclError aclprofMarkEx(const char *msg, size_t msgLen, aclrtStream stream)
{
	struct tx_row row = { .type = TX_MARK_EX, .device = -1 };
	char text[TX_MSG_MAX + 1];
	aclError e;

	if (!tx_on())
		return not_running(__func__);
	if (!msg || !msgLen)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"msg must not be NULL or empty");
	if (msgLen > TX_MSG_MAX)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"msgLen %zu is too long: at most %d characters",
				msgLen, TX_MSG_MAX);
	if (strnlen(msg, msgLen + 1) != msgLen)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"msgLen %zu is not the length of msg (%zu)",
				msgLen, strnlen(msg, msgLen + 1));
	memcpy(text, msg, msgLen);
	text[msgLen] = '\0';
	row.message = text;
	row.start_ns = row.end_ns = prof_rt_now();
	e = tx_device_mark(__func__, stream, "MarkEx", text, &row);
	if (e)
		return e;
	return written(__func__, tx_write(&row));
}

aclError aclprofPush(void *stamp)
{
	struct tx_pushed *p;
	struct tx_stamp *s;

	if (!tx_on())
		return not_running(__func__);
	s = tx_stamp_get(stamp);
	if (!s)
		return bad_stamp(__func__, stamp);
	if (depth == TX_DEPTH_MAX)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"%d aclprofPush calls of this thread are not popped",
				TX_DEPTH_MAX);
	if (depth == stack_cap) {
		uint32_t ncap = stack_cap ? stack_cap * 2 : 8;

		p = realloc(stack, ncap * sizeof(*p));
		if (!p)
			return acl_fail(ACL_ERROR_BAD_ALLOC, "out of memory");
		stack = p;
		stack_cap = ncap;
	}
	p = &stack[depth++];
	p->start_ns = prof_rt_now();
	p->category = s->category;
	memcpy(p->msg, s->msg, sizeof(p->msg));
	return ACL_SUCCESS;
}

aclError aclprofPop(void)
{
	struct tx_row row = { .type = TX_PUSH_POP, .device = -1 };
	struct tx_pushed *p;

	if (!tx_on())
		return not_running(__func__);
	if (!depth)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"no aclprofPush of this thread is open");
	p = &stack[--depth];
	row.start_ns = p->start_ns;
	row.end_ns = prof_rt_now();
	row.category = p->category;
	row.message = p->msg;
	return written(__func__, tx_write(&row));
}

aclError aclprofRangeStart(void *stamp, uint32_t *rangeId)
{
	struct tx_stamp *s;
	struct tx_row row;
	uint64_t id;

	if (!tx_on())
		return not_running(__func__);
	s = tx_stamp_get(stamp);
	if (!s)
		return bad_stamp(__func__, stamp);
	if (!rangeId)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"rangeId must not be NULL");
	row = stamp_row(s, TX_START_STOP);
	id = tx_range_open(&row);
	if (!id || id > UINT32_MAX) {
		if (id)
			tx_range_close(id, NULL, &row);
		return acl_fail(ACL_ERROR_BAD_ALLOC, "no range id left");
	}
	*rangeId = (uint32_t)id;
	return ACL_SUCCESS;
}

aclError aclprofRangeStop(uint32_t rangeId)
{
	struct tx_row row;

	if (!tx_on())
		return not_running(__func__);
	if (tx_range_close(rangeId, NULL, &row))
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"range %u was not started by aclprofRangeStart or is stopped already",
				rangeId);
	row.end_ns = prof_rt_now();
	row.tid = 0;	/* the stopping thread, as on CANN */
	return written(__func__, tx_write(&row));
}

/* 64-bit FNV-1a: the same id for the same string, in every process. */
uint64_t aclprofStr2Id(const char *message)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	if (!message)
		return 0;
	for (const unsigned char *p = (const void *)message; *p; p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	return h;
}
