/* SPDX-License-Identifier: MIT */
/*
 * msproftx and mstx markers (prof_tx*.c, prof_mstx.c, prof_step.c): the
 * stamps, and the one writer of host/data/tx.tsv rows
 * (Documentation/profiling.md, "msproftx and mstx").
 */
#ifndef VNPU_PROF_PROF_TX_H
#define VNPU_PROF_PROF_TX_H

#include <stdbool.h>
#include <stdint.h>

#include "acl/acl_base.h"

/* CANN's limits: a stamp's message holds 127 bytes, 10000 stamps live. */
#define TX_MSG_MAX	127
#define TX_STAMPS_MAX	10000

/* event_type column */
enum tx_event {
	TX_MARK = 0,		/* "Mark" */
	TX_PUSH_POP = 1,	/* "Push/Pop" */
	TX_START_STOP = 2,	/* "Start/Stop" */
	TX_MARK_EX = 3,		/* "MarkEx" */
};

/* message_type column */
enum {
	TX_MSG_STRING = 0,
	TX_MSG_TENSOR_INFO = 1,
};

/* One row of tx.tsv. */
struct tx_row {
	uint32_t tid;		/* 0: the calling thread */
	uint32_t category;
	enum tx_event type;
	uint64_t start_ns, end_ns;
	uint32_t message_type;
	const char *message;	/* NULL or "": written as "-" */
	const char *domain;	/* NULL: "-" (aclprof* markers) */
	int32_t device;		/* -1, queue 0, tag 0: no device task */
	uint32_t queue;
	uint32_t tag;
};

/* Append the row (a no-op when no session runs); 0 or -errno. */
int tx_write(const struct tx_row *row);

/* Whether markers are collected now (a session with ACL_PROF_MSPROFTX). */
bool tx_on(void);

/* The calling thread's id (gettid). */
uint32_t tx_tid(void);

/* A stamp (aclprofCreateStamp). */
struct tx_stamp {
	uint32_t magic;		/* TX_STAMP_MAGIC while live */
	uint32_t category;
	uint64_t start_ns;
	char msg[TX_MSG_MAX + 1];
};

/* p when it is a live stamp of the pool, else NULL. */
struct tx_stamp *tx_stamp_get(void *p);

/*
 * A task on the stream (NULL: the current context's default) carrying a
 * tag named (op_type, op_name) of kind PROF_TASK_MARK, so its device
 * record gives the device time; row gets device, queue and tag.
 */
aclError tx_device_mark(const char *func, aclrtStream stream,
			const char *op_type, const char *op_name,
			struct tx_row *row);

#endif /* VNPU_PROF_PROF_TX_H */

/*
 * Ranges that may end on another thread (aclprofRangeStart/Stop,
 * mstxRangeStartA/End): process-wide, ids from 1 (prof_tx_range.c).
 * Open copies row (start_ns, message, domain, ...) and returns the id (0:
 * out of memory). Close finds id (and, when domain is not NULL, checks
 * that it was opened in that domain), removes it and fills row; -ENOENT
 * when it is not open.
 */
uint64_t tx_range_open(const struct tx_row *row);
int tx_range_close(uint64_t id, const char *domain, struct tx_row *row);
