/* SPDX-License-Identifier: MIT */
/*
 * kmd: the driver's io_uring commands (SUBMIT, WAIT, NOP) on a ring with
 * 128-byte SQEs and 32-byte CQEs (the second half carries a SUBMIT's
 * sequence number). A batch of commands goes to the kernel with one
 * io_uring_enter that also waits for all of their completions; a ring is
 * only used by one thread at a time, so every completion it reaps belongs
 * to the batch being run.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <liburing.h>
#include <drm/vnpu_accel.h>

#include "kmd.h"

#define KMD_RING_MAX_ENTRIES 256

struct kmd_ring {
	struct io_uring ring;
	unsigned int entries;
};

int kmd_ring_create(unsigned int entries, struct kmd_ring **out)
{
	struct kmd_ring *r;
	int ret;

	if (entries < 2 || entries > KMD_RING_MAX_ENTRIES)
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	/*
	 * One thread submits and reaps: completion work can wait until that
	 * thread asks for completions, instead of interrupting it.
	 */
	ret = io_uring_queue_init(entries, &r->ring,
				  IORING_SETUP_SQE128 | IORING_SETUP_CQE32 |
				  IORING_SETUP_SINGLE_ISSUER |
				  IORING_SETUP_DEFER_TASKRUN);
	if (ret == -EINVAL)	/* a kernel before 6.1 */
		ret = io_uring_queue_init(entries, &r->ring,
					  IORING_SETUP_SQE128 | IORING_SETUP_CQE32);
	if (ret) {
		free(r);
		return ret;
	}
	/*
	 * A registered ring fd spares every io_uring_enter the lookup of the
	 * ring's file (and its reference count, shared by all threads). Old
	 * kernels refuse it; the ring works the same without.
	 */
	io_uring_register_ring_fd(&r->ring);
	r->entries = entries;
	*out = r;
	return 0;
}

void kmd_ring_destroy(struct kmd_ring *r)
{
	if (!r)
		return;
	io_uring_queue_exit(&r->ring);
	free(r);
}

/* Fill one URING_CMD SQE; the payload is copied into the SQE. */
/*
 * On an SQE128 ring an SQE is 128 bytes and its payload runs past the end
 * of struct io_uring_sqe, which GCC's bounds checks cannot know.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
#pragma GCC diagnostic ignored "-Wstringop-overflow"
static void prep_cmd(struct io_uring_sqe *sqe, const struct kmd_ucmd *c,
		     uint64_t user_data)
{
	uint8_t *cmd = (uint8_t *)sqe + offsetof(struct io_uring_sqe, cmd);

	memset(sqe, 0, 128);
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = c->fd;
	sqe->cmd_op = c->op;
	sqe->user_data = user_data;
	if (c->op == DRM_VNPU_URING_CMD_SUBMIT)
		memcpy(cmd, &c->submit, sizeof(c->submit));
	else if (c->op == DRM_VNPU_URING_CMD_WAIT)
		memcpy(cmd, &c->wait, sizeof(c->wait));
}
#pragma GCC diagnostic pop

/* Queue cmds[0..n) (n small enough for the ring); returns CQEs to expect. */
static unsigned int queue_batch(struct kmd_ring *r, struct kmd_ucmd *cmds,
				unsigned int n, struct __kernel_timespec *ts)
{
	unsigned int expect = 0;

	for (unsigned int i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&r->ring);
		struct kmd_ucmd *c = &cmds[i];

		prep_cmd(sqe, c, i + 1);
		expect++;
		/* The last command of a batch never links past it. */
		if (c->link && i + 1 < n)
			sqe->flags |= IOSQE_IO_LINK;
		if (c->timeout_ns >= 0) {
			struct io_uring_sqe *t;

			sqe->flags |= IOSQE_IO_LINK;
			ts[i].tv_sec = c->timeout_ns / 1000000000;
			ts[i].tv_nsec = c->timeout_ns % 1000000000;
			t = io_uring_get_sqe(&r->ring);
			io_uring_prep_link_timeout(t, &ts[i], 0);
			t->user_data = 0;	/* its CQE is only counted */
			expect++;
		}
		c->res = -EINPROGRESS;
		c->seq = 0;
	}
	return expect;
}

/* Reap expect completions of the batch into cmds. */
static int reap(struct kmd_ring *r, struct kmd_ucmd *cmds, unsigned int n,
		unsigned int expect)
{
	struct io_uring_cqe *cqe;
	int ret;

	while (expect) {
		ret = io_uring_wait_cqe(&r->ring, &cqe);
		if (ret == -EINTR)
			continue;
		if (ret)
			return ret;
		if (cqe->user_data && cqe->user_data <= n) {
			struct kmd_ucmd *c = &cmds[cqe->user_data - 1];

			c->res = cqe->res;
			c->seq = cqe->big_cqe[0];
		}
		io_uring_cqe_seen(&r->ring, cqe);
		expect--;
	}
	return 0;
}

int kmd_ring_run(struct kmd_ring *r, struct kmd_ucmd *cmds, unsigned int n)
{
	/* Each command may bring a link timeout: half the ring per round. */
	struct __kernel_timespec ts[KMD_RING_MAX_ENTRIES / 2];
	unsigned int step = r->entries / 2;
	int ret = 0;

	for (unsigned int done = 0; !ret && done < n; done += step) {
		unsigned int k = n - done < step ? n - done : step;
		unsigned int expect = queue_batch(r, cmds + done, k, ts);

		do {
			ret = io_uring_submit_and_wait(&r->ring, expect);
		} while (ret == -EINTR);
		if (ret >= 0)
			ret = reap(r, cmds + done, k, expect);
	}
	/* A WAIT cancelled by its link timeout timed out. */
	for (unsigned int i = 0; !ret && i < n; i++)
		if (cmds[i].timeout_ns >= 0 && cmds[i].res == -ECANCELED)
			cmds[i].res = -ETIME;
	return ret < 0 ? ret : 0;
}
