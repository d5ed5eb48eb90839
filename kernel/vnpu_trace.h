/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vnpu: tracepoints of a job's life (events/vnpu/ in tracefs).
 *
 * Copyright (C) 2026 The vnpu authors
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM vnpu

#if !defined(__VNPU_TRACE_H__) || defined(TRACE_HEADER_MULTI_READ)
#define __VNPU_TRACE_H__

#include <linux/tracepoint.h>

#include "vnpu_drv.h"
#include "vnpu_job.h"

DECLARE_EVENT_CLASS(vnpu_job_event,
		    TP_PROTO(struct vnpu_job *job),
		    TP_ARGS(job),
		    TP_STRUCT__entry(__field(u32, device)
				     __field(u32, queue)
				     __field(u64, seq)
				     __field(u32, tasks)
				     __field(s32, engine)
				     __field(u32, state)),
		    TP_fast_assign(__entry->device = job->vdev->index;
				   __entry->queue = job->queue->id;
				   __entry->seq = job->seq;
				   __entry->tasks = job->batch->count;
				   __entry->engine = job->engine ?
						     job->engine->index : -1;
				   __entry->state = job->rec.state;),
		    TP_printk("dev=%u queue=%u seq=%llu tasks=%u engine=%d state=%u",
			      __entry->device, __entry->queue, __entry->seq,
			      __entry->tasks, __entry->engine, __entry->state)
);

DEFINE_EVENT(vnpu_job_event, vnpu_job_submit,
	     TP_PROTO(struct vnpu_job *job), TP_ARGS(job));
DEFINE_EVENT(vnpu_job_event, vnpu_job_run,
	     TP_PROTO(struct vnpu_job *job), TP_ARGS(job));
DEFINE_EVENT(vnpu_job_event, vnpu_job_done,
	     TP_PROTO(struct vnpu_job *job), TP_ARGS(job));
DEFINE_EVENT(vnpu_job_event, vnpu_job_timeout,
	     TP_PROTO(struct vnpu_job *job), TP_ARGS(job));

#endif /* __VNPU_TRACE_H__ */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE vnpu_trace
#include <trace/define_trace.h>
