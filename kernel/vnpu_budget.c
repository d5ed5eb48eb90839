// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: per-file budgets. A budget counts the objects a file holds of one
 * kind (command buffers, jobs in flight) and the memory they take, against
 * a count limit and a memory limit (see Documentation/resource-limits.md).
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/bug.h>
#include <linux/minmax.h>
#include <linux/spinlock.h>

#include "vnpu_drv.h"
#include "vnpu_job.h"

/**
 * vnpu_budget_charge() - count one more object in a file's budget
 * @vfile: the file
 * @budget: one of its budgets
 * @count_lim: the limit on the number of objects
 * @mb_lim: the limit on their memory, in MiB
 * @bytes: the new object's memory
 *
 * Return: NULL when counted, or which limit is reached ("count" or
 * "memory"), for the caller's debug message; nothing is counted then.
 */
const char *vnpu_budget_charge(struct vnpu_file *vfile,
			       struct vnpu_budget *budget,
			       enum vnpu_limit_id count_lim,
			       enum vnpu_limit_id mb_lim, u64 bytes)
{
	u64 max_bytes = vnpu_limit_mb(mb_lim);
	const char *full = NULL;

	spin_lock(&vfile->limits_lock);
	if (budget->count >= vnpu_limit(count_lim)) {
		full = "count";
	} else if (budget->bytes > max_bytes ||
		   bytes > max_bytes - budget->bytes) {
		full = "memory";
	} else {
		budget->count++;
		budget->bytes += bytes;
	}
	spin_unlock(&vfile->limits_lock);
	return full;
}

/**
 * vnpu_budget_uncharge() - undo vnpu_budget_charge()
 * @vfile: the file
 * @budget: the budget charged
 * @bytes: the memory charged for the object
 */
void vnpu_budget_uncharge(struct vnpu_file *vfile, struct vnpu_budget *budget,
			  u64 bytes)
{
	spin_lock(&vfile->limits_lock);
	WARN_ON(!budget->count || bytes > budget->bytes);
	budget->count--;
	budget->bytes -= min(bytes, budget->bytes);
	spin_unlock(&vfile->limits_lock);
}

/**
 * vnpu_budget_add_bytes() - count more memory for an object already counted
 * @vfile: the file
 * @budget: one of its budgets
 * @bytes: the memory
 *
 * Never fails: CMDBUF_UPDATE's new contents of a command buffer count
 * while replays still hold the old ones, which the jobs in flight limit
 * bounds (see vnpu_cmdbuf.c).
 */
void vnpu_budget_add_bytes(struct vnpu_file *vfile, struct vnpu_budget *budget,
			   u64 bytes)
{
	spin_lock(&vfile->limits_lock);
	budget->bytes += bytes;
	spin_unlock(&vfile->limits_lock);
}

/**
 * vnpu_budget_sub_bytes() - undo vnpu_budget_add_bytes(), or the memory
 *	part of vnpu_budget_charge()
 * @vfile: the file
 * @budget: the budget charged
 * @bytes: the memory
 */
void vnpu_budget_sub_bytes(struct vnpu_file *vfile, struct vnpu_budget *budget,
			   u64 bytes)
{
	spin_lock(&vfile->limits_lock);
	WARN_ON(bytes > budget->bytes);
	budget->bytes -= min(bytes, budget->bytes);
	spin_unlock(&vfile->limits_lock);
}
