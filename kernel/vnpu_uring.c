// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: io_uring command passthrough (IORING_OP_URING_CMD).
 *
 * NOP and SUBMIT complete while they are issued, and so does a WAIT whose
 * job has ended. Otherwise WAIT registers a callback on the job's
 * scheduler fence; the callback defers the completion to the submitting
 * task with a lazy wake (io_uring_cmd_do_in_task_lazy()), where the job's
 * record is read. A pending WAIT is cancelable: io_uring calls ->uring_cmd with
 * IO_URING_F_CANCEL when the ring is torn down or its task exits. The fence
 * callback and the cancellation race through dma_fence_remove_callback():
 * whoever takes the callback off the fence (the signalling, under the fence
 * lock, or the canceller) completes the command, exactly once.
 *
 * Issue, cancellation and task work all run under the ring's uring_lock,
 * so they never run concurrently with each other; only the fence callback
 * does, and it touches nothing but the command.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/dma-fence-chain.h>
#include <linux/io_uring/cmd.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <drm/drm_syncobj.h>
#include <uapi/drm/vnpu_accel.h>

#include "vnpu_drv.h"
#include "vnpu_job.h"

/* Size of the inline payload of a 128-byte SQE. */
#define VNPU_URING_PAYLOAD	80

/**
 * struct vnpu_uring_wait - a pending DRM_VNPU_URING_CMD_WAIT
 * @cmd: the command
 * @queue: the job's queue, referenced (its record outlives destruction)
 * @seq: the job
 * @fence: the job's finished fence, referenced
 * @cb: on @fence until it signals or the command is cancelled
 */
struct vnpu_uring_wait {
	struct io_uring_cmd *cmd;
	struct vnpu_queue *queue;
	u64 seq;
	struct dma_fence *fence;
	struct dma_fence_cb cb;
};

/**
 * struct vnpu_uring_pdu - driver state inside the io_uring command
 * @wait: the pending wait, once the callback is armed
 * @args: a WAIT's payload, while its issue is deferred to task context
 */
struct vnpu_uring_pdu {
	struct vnpu_uring_wait *wait;
	struct drm_vnpu_uring_wait args;
};

static struct vnpu_uring_pdu *vnpu_uring_pdu(struct io_uring_cmd *cmd)
{
	return io_uring_cmd_to_pdu(cmd, struct vnpu_uring_pdu);
}

static_assert(sizeof(struct drm_vnpu_submit) <= VNPU_URING_PAYLOAD);
static_assert(sizeof(struct drm_vnpu_uring_wait) <= VNPU_URING_PAYLOAD);

static int vnpu_uring_nop(struct drm_device *drm, const u8 *payload)
{
	if (memchr_inv(payload, 0, VNPU_URING_PAYLOAD)) {
		drm_dbg(drm, "uring nop: payload must be zero\n");
		return -EINVAL;
	}
	return DRM_VNPU_UAPI_VERSION(DRM_VNPU_UAPI_MAJOR, DRM_VNPU_UAPI_MINOR);
}

static int vnpu_uring_submit(struct io_uring_cmd *cmd, struct drm_file *file,
			     const u8 *payload, unsigned int issue_flags)
{
	struct drm_device *drm = file->minor->dev;
	struct drm_vnpu_submit args;
	int ret;

	memcpy(&args, payload, sizeof(args));
	if (args.seq || memchr_inv(payload + sizeof(args), 0,
				   VNPU_URING_PAYLOAD - sizeof(args))) {
		drm_dbg(drm, "uring submit: seq and the bytes after the request must be zero\n");
		return -EINVAL;
	}
	ret = vnpu_submit(file, &args, issue_flags & IO_URING_F_NONBLOCK);
	if (ret == -ERESTARTSYS)
		ret = -EINTR;	/* an io-wq worker was told to stop */
	if (ret)
		return ret;	/* -EAGAIN: io_uring retries from io-wq */
	/* Completed inline so that the sequence number reaches big_cqe[0]. */
	io_uring_cmd_done(cmd, 0, args.seq, issue_flags);
	return -EIOCBQUEUED;
}

/*
 * The finished fence of job @seq, referenced; NULL when the job's point has
 * left the timeline (it signalled and was collapsed) or cannot be found.
 */
static struct dma_fence *vnpu_queue_job_fence(struct vnpu_queue *queue, u64 seq)
{
	struct dma_fence *fence, *job_fence = NULL;
	struct dma_fence_chain *chain;

	fence = drm_syncobj_fence_get(queue->syncobj);
	if (!fence)
		return NULL;
	if (dma_fence_chain_find_seqno(&fence, seq))
		goto out;
	chain = fence ? to_dma_fence_chain(fence) : NULL;
	if (chain && fence->seqno == seq)
		job_fence = dma_fence_get(chain->fence);
out:
	dma_fence_put(fence);
	return job_fence;
}

/*
 * The result of a WAIT whose job has ended. A job killed before reaching
 * an engine (its queue or file went away) signals before its record is
 * written: that is the only way to end without one, so it was cancelled.
 */
static int vnpu_uring_wait_result(struct vnpu_queue *queue, u64 seq)
{
	struct vnpu_job_record rec;
	int ret;

	ret = vnpu_queue_job_record(queue, seq, &rec);
	if (ret)
		return ret;
	if (rec.state == DRM_VNPU_JOB_PENDING)
		return DRM_VNPU_JOB_CANCELLED;
	return rec.state;
}

static void vnpu_uring_wait_free(struct vnpu_uring_wait *w)
{
	dma_fence_put(w->fence);
	vnpu_queue_put(w->queue);
	kfree(w);
}

/* Task work after the fence signalled: post the CQE. */
static void vnpu_uring_wait_tw(struct io_uring_cmd *cmd,
			       unsigned int issue_flags)
{
	struct vnpu_uring_pdu *pdu = vnpu_uring_pdu(cmd);
	struct vnpu_uring_wait *w = pdu->wait;
	u64 seq = w->seq;
	int ret;

#ifdef HAVE_IO_URING_F_TASK_DEAD
	if (issue_flags & IO_URING_F_TASK_DEAD)
		ret = -ECANCELED;
	else
#endif
		ret = vnpu_uring_wait_result(w->queue, w->seq);
	pdu->wait = NULL;
	vnpu_uring_wait_free(w);
	io_uring_cmd_done(cmd, ret, seq, issue_flags);
}

/*
 * Fence callback: any context, the fence's lock held. The task work posts
 * exactly one CQE, which is what a lazy wake needs: on a DEFER_TASKRUN
 * ring the waiter is woken once when enough completions for its wait are
 * queued, not once per WAIT of a batch.
 */
static void vnpu_uring_wait_signalled(struct dma_fence *fence,
				      struct dma_fence_cb *cb)
{
	struct vnpu_uring_wait *w = container_of(cb, struct vnpu_uring_wait, cb);

	io_uring_cmd_do_in_task_lazy(w->cmd, vnpu_uring_wait_tw);
}

/*
 * Issue a WAIT, under the ring's uring_lock. Returns a result to complete
 * with, or -EIOCBQUEUED with the callback armed; *seq is the job.
 */
static int vnpu_uring_wait_issue(struct io_uring_cmd *cmd,
				 const struct drm_vnpu_uring_wait *args,
				 unsigned int issue_flags, u64 *seq)
{
	struct drm_file *file = cmd->file->private_data;
	struct vnpu_uring_pdu *pdu = vnpu_uring_pdu(cmd);
	struct vnpu_job_record rec;
	struct vnpu_uring_wait *w;
	struct vnpu_queue *queue;
	struct dma_fence *fence;
	int ret;

	*seq = args->seq;
	queue = vnpu_queue_get(file->driver_priv, args->queue_id);
	if (!queue)
		return -ENOENT;
	/*
	 * LATEST: the newest job now. A SUBMIT linked before this WAIT has
	 * completed (and published its number) before the WAIT is issued.
	 */
	if (args->flags & DRM_VNPU_URING_WAIT_LATEST) {
		/* Pairs with vnpu_submit(): the point is in the timeline. */
		*seq = smp_load_acquire(&queue->submitted);
	}
	ret = vnpu_queue_job_record(queue, *seq, &rec);
	if (ret || rec.state != DRM_VNPU_JOB_PENDING) {
		vnpu_queue_put(queue);
		return ret ?: rec.state;
	}
	fence = vnpu_queue_job_fence(queue, *seq);
	if (!fence) {
		ret = vnpu_uring_wait_result(queue, *seq);
		vnpu_queue_put(queue);
		return ret;
	}
	w = kzalloc(sizeof(*w), GFP_KERNEL_ACCOUNT);
	if (!w) {
		dma_fence_put(fence);
		vnpu_queue_put(queue);
		return -ENOMEM;
	}
	w->cmd = cmd;
	w->queue = queue;
	w->seq = *seq;
	w->fence = fence;
	pdu->wait = w;
	if (dma_fence_add_callback(fence, &w->cb, vnpu_uring_wait_signalled)) {
		/* Signalled meanwhile. */
		pdu->wait = NULL;
		ret = vnpu_uring_wait_result(queue, w->seq);
		vnpu_uring_wait_free(w);
		return ret;
	}
	/*
	 * The callback may already have run; its task work cannot run before
	 * we return (it needs the uring_lock we hold).
	 */
	io_uring_cmd_mark_cancelable(cmd, issue_flags);
	return -EIOCBQUEUED;
}

/* A WAIT issued from io-wq, re-issued in task context. */
static void vnpu_uring_wait_issue_tw(struct io_uring_cmd *cmd,
				     unsigned int issue_flags)
{
	struct vnpu_uring_pdu *pdu = vnpu_uring_pdu(cmd);
	u64 seq = 0;
	int ret;

#ifdef HAVE_IO_URING_F_TASK_DEAD
	if (issue_flags & IO_URING_F_TASK_DEAD)
		ret = -ECANCELED;
	else
#endif
		ret = vnpu_uring_wait_issue(cmd, &pdu->args, issue_flags, &seq);
	if (ret != -EIOCBQUEUED)
		io_uring_cmd_done(cmd, ret, seq, issue_flags);
}

static int vnpu_uring_wait(struct io_uring_cmd *cmd, struct drm_device *drm,
			   const u8 *payload, unsigned int issue_flags)
{
	struct vnpu_uring_pdu *pdu = vnpu_uring_pdu(cmd);
	struct drm_vnpu_uring_wait args;
	u64 seq;
	int ret;

	memcpy(&args, payload, sizeof(args));
	if ((args.flags & ~DRM_VNPU_URING_WAIT_FLAGS) ||
	    memchr_inv(payload + sizeof(args), 0,
		       VNPU_URING_PAYLOAD - sizeof(args))) {
		drm_dbg(drm, "uring wait: unknown flags or a non-zero byte after the request\n");
		return -EINVAL;
	}
	if ((args.flags & DRM_VNPU_URING_WAIT_LATEST) && args.seq) {
		drm_dbg(drm, "uring wait: LATEST takes no sequence number\n");
		return -EINVAL;
	}
	pdu->wait = NULL;
	if (issue_flags & IO_URING_F_UNLOCKED) {
		/*
		 * io-wq does not hold the uring_lock, which orders arming
		 * against cancellation: arm from task context (as ublk does).
		 */
		pdu->args = args;
		io_uring_cmd_complete_in_task(cmd, vnpu_uring_wait_issue_tw);
		return -EIOCBQUEUED;
	}
	ret = vnpu_uring_wait_issue(cmd, &args, issue_flags, &seq);
	if (ret == -EIOCBQUEUED)
		return ret;
	/* Completed here so that the job's number reaches big_cqe[0]. */
	io_uring_cmd_done(cmd, ret, seq, issue_flags);
	return -EIOCBQUEUED;
}

/* IO_URING_F_CANCEL: only armed WAITs are ever marked cancelable. */
static void vnpu_uring_cancel(struct io_uring_cmd *cmd,
			      unsigned int issue_flags)
{
	struct vnpu_uring_pdu *pdu = vnpu_uring_pdu(cmd);
	struct vnpu_uring_wait *w = pdu->wait;

	if (WARN_ON_ONCE(cmd->cmd_op != DRM_VNPU_URING_CMD_WAIT || !w))
		return;
	/* Lost the race: the signalled fence's task work completes it. */
	if (!dma_fence_remove_callback(w->fence, &w->cb))
		return;
	pdu->wait = NULL;
	vnpu_uring_wait_free(w);
	io_uring_cmd_done(cmd, -ECANCELED, 0, issue_flags);
}

/* Command numbers by _IOC_NR(), with the direction and size they take. */
static const u32 vnpu_uring_ops[] = {
	DRM_VNPU_URING_CMD_NOP,
	DRM_VNPU_URING_CMD_SUBMIT,
	DRM_VNPU_URING_CMD_WAIT,
};

/* -EOPNOTSUPP for an unknown command, -EINVAL for a bad encoding. */
static int vnpu_uring_check_op(struct drm_device *drm, u32 op)
{
	if (_IOC_TYPE(op) != DRM_VNPU_URING_CMD_TYPE ||
	    _IOC_NR(op) >= ARRAY_SIZE(vnpu_uring_ops)) {
		drm_dbg(drm, "uring: unknown cmd_op 0x%x\n", op);
		return -EOPNOTSUPP;
	}
	if (op != vnpu_uring_ops[_IOC_NR(op)]) {
		drm_dbg(drm, "uring: cmd_op 0x%x: wrong direction or size\n", op);
		return -EINVAL;
	}
	return 0;
}

/**
 * vnpu_uring_cmd() - the file's .uring_cmd
 * @cmd: the command; its SQE lives in the ring, which user space can write
 * @issue_flags: IO_URING_F_* flags
 *
 * Return: a result for the CQE, or -EIOCBQUEUED once commands complete
 * asynchronously.
 */
int vnpu_uring_cmd(struct io_uring_cmd *cmd, unsigned int issue_flags)
{
	struct drm_file *file = cmd->file->private_data;
	struct drm_device *drm = file->minor->dev;
	u8 payload[VNPU_URING_PAYLOAD];
	int ret;

	if (issue_flags & IO_URING_F_CANCEL) {
		vnpu_uring_cancel(cmd, issue_flags);
		return 0;
	}

	/* The payload is needed in full: refuse 64-byte SQE rings. */
	if (!(issue_flags & IO_URING_F_SQE128))
		return -EINVAL;

	/* Read the shared SQE once, then only look at the copy. */
	memcpy(payload, io_uring_sqe_cmd(cmd->sqe), sizeof(payload));

	ret = vnpu_uring_check_op(drm, cmd->cmd_op);
	if (ret)
		return ret;

	switch (cmd->cmd_op) {
	case DRM_VNPU_URING_CMD_NOP:
		return vnpu_uring_nop(drm, payload);
	case DRM_VNPU_URING_CMD_SUBMIT:
		return vnpu_uring_submit(cmd, file, payload, issue_flags);
	case DRM_VNPU_URING_CMD_WAIT:
		return vnpu_uring_wait(cmd, drm, payload, issue_flags);
	default:
		return -EOPNOTSUPP;
	}
}
