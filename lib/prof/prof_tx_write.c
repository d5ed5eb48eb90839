/* SPDX-License-Identifier: MIT */
/*
 * The rows of host/data/tx.tsv, and the device task a marker may put on
 * a stream (aclprofMarkEx, mstx with a stream, step timestamps).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "acl/acl_prof.h"
#include "prof.h"
#include "prof_tx.h"
#include "../core/entry_check.h"
#include "../core/rt_objects.h"

#define TX_FILE "host/data/tx.tsv"
#define TX_HEADER "#pid\ttid\tcategory\tevent_type\tpayload_type\t" \
		  "payload_value\tstart_ns\tend_ns\tmessage_type\tmessage\t" \
		  "domain\tdevice\tqueue\ttag"

static const char *const tx_names[] = {
	[TX_MARK] = "Mark",
	[TX_PUSH_POP] = "Push/Pop",
	[TX_START_STOP] = "Start/Stop",
	[TX_MARK_EX] = "MarkEx",
};

bool tx_on(void)
{
	return prof_collecting(ACL_PROF_MSPROFTX);
}

uint32_t tx_tid(void)
{
	static _Thread_local uint32_t tid;

	if (!tid)
		tid = (uint32_t)syscall(SYS_gettid);
	return tid;
}

/* s copied into buf without tabs or newlines; "-" when empty. */
static const char *tx_field(char *buf, size_t len, const char *s)
{
	if (!s || !*s)
		return "-";
	snprintf(buf, len, "%s", s);
	prof_raw_clean(buf);
	return buf;
}

int tx_write(const struct tx_row *r)
{
	char line[512], msg[TX_MSG_MAX + 1], dom[TX_MSG_MAX + 1];

	snprintf(line, sizeof(line),
		 "%d\t%" PRIu32 "\t%" PRIu32 "\t%s\t0\t0\t%" PRIu64 "\t%" PRIu64
		 "\t%" PRIu32 "\t%s\t%s\t%" PRId32 "\t%" PRIu32 "\t%" PRIu32,
		 (int)getpid(), r->tid ? r->tid : tx_tid(), r->category,
		 tx_names[r->type], r->start_ns, r->end_ns, r->message_type,
		 tx_field(msg, sizeof(msg), r->message),
		 tx_field(dom, sizeof(dom), r->domain), r->device, r->queue,
		 r->tag);
	return prof_raw_append(TX_FILE, TX_HEADER, line);
}

aclError tx_device_mark(const char *func, aclrtStream stream,
			const char *op_type, const char *op_name,
			struct tx_row *row)
{
	struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_NOP };
	struct rt_stream *s;
	uint32_t old;
	aclError e;
	int ret;

	e = rt_stream_arg(func, stream, &s);
	if (e)
		return e;
	/*
	 * One tag per message: the exporter pairs the n-th row of a tag on
	 * a queue with the n-th device record of that tag there.
	 */
	t.tag = prof_tag_intern(op_type, op_name, 0, PROF_TASK_MARK, NULL);
	old = prof_tag_swap(t.tag);
	ret = stream_push(s, &t, NULL);
	prof_tag_swap(old);
	if (ret)
		return rt_error_at(func, ret, ACL_ERROR_RT_WAIT_TIMEOUT,
				   "putting the mark's task on the stream");
	row->device = s->ctx->dev->id;
	row->queue = s->queue_id;
	row->tag = t.tag;
	return ACL_SUCCESS;
}
