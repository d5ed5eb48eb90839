// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu: each file's share of each engine. An engine's scheduler hands a
 * job over (run_job) only while it has credits left; credits are shared by
 * all files, and a scheduler with none left hands nothing over, whoever
 * waits. So that one file cannot use them all (many queues, each with a
 * long job), a file may hold at most VNPU_FILE_ENGINE_JOBS jobs on an
 * engine: the scheduler's prepare_job asks for a slot, and a job of a file
 * that has none left gets a fence to wait for instead. A waiting job
 * takes no credit and its entity is not ready, so the scheduler looks past
 * it to other files' jobs. The fence signals when one of the file's jobs
 * leaves the engine; the waiting jobs then ask again.
 *
 * The fence is allocated without sleeping (prepare_job runs where the
 * scheduler's fences are signalled). If that fails, the job waits for the
 * hardware fence of one of its file's jobs on the engine instead.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#include <linux/dma-fence.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "vnpu_drv.h"
#include "vnpu_job.h"

/**
 * struct vnpu_slot_fence - signalled when a file's slot of an engine frees
 * @base: the fence (first: the core frees it as a dma_fence)
 * @lock: its lock; each fence has its own, so it may outlive the file
 */
struct vnpu_slot_fence {
	struct dma_fence base;
	spinlock_t lock; /* the fence's */
};

static const char *vnpu_slot_fence_driver_name(struct dma_fence *fence)
{
	return VNPU_DRIVER_NAME;
}

static const char *vnpu_slot_fence_timeline_name(struct dma_fence *fence)
{
	return "vnpu-engine-slot";
}

static const struct dma_fence_ops vnpu_slot_fence_ops = {
	.get_driver_name = vnpu_slot_fence_driver_name,
	.get_timeline_name = vnpu_slot_fence_timeline_name,
};

/**
 * vnpu_slots_init() - give a new file its share of every engine
 * @vfile: the file being opened
 *
 * Return: 0 or -ENOMEM.
 */
int vnpu_slots_init(struct vnpu_file *vfile)
{
	u32 n = vfile->vdev->num_engines;

	spin_lock_init(&vfile->slots_lock);
	vfile->slots = kcalloc(n, sizeof(*vfile->slots), GFP_KERNEL_ACCOUNT);
	if (!vfile->slots)
		return -ENOMEM;
	vfile->slot_context = dma_fence_context_alloc(n);
	return 0;
}

/**
 * vnpu_slots_fini() - free a file's shares
 * @vfile: the file, with no jobs left (each job holds the file)
 */
void vnpu_slots_fini(struct vnpu_file *vfile)
{
	u32 i;

	for (i = 0; vfile->slots && i < vfile->vdev->num_engines; i++) {
		struct dma_fence *f = vfile->slots[i].wait;

		WARN_ON(vfile->slots[i].used);
		if (f) {
			dma_fence_signal(f);
			dma_fence_put(f);
		}
	}
	kfree(vfile->slots);
}

/* A hardware fence of one of @vfile's jobs on @engine, or NULL. */
static struct dma_fence *vnpu_slot_any_job(struct vnpu_engine *engine,
					   struct vnpu_file *vfile)
{
	struct dma_fence *f = NULL;
	struct vnpu_job *j;

	spin_lock(&engine->lock);
	list_for_each_entry(j, &engine->jobs, link) {
		if (j->vfile == vfile && j->hw_ready) {
			f = dma_fence_get(&j->hw->base);
			break;
		}
	}
	spin_unlock(&engine->lock);
	return f;
}

/*
 * Take a slot if one is free (NULL), else return a reference to the wait
 * fence, made from *@fresh (then set to NULL) when there is none yet;
 * -EAGAIN when a fence has to be made and @fresh has none.
 */
static struct dma_fence *vnpu_slot_try(struct vnpu_job *job,
				       struct vnpu_slots *s,
				       struct vnpu_slot_fence **fresh)
{
	struct vnpu_file *vfile = job->vfile;
	struct dma_fence *f = NULL;

	spin_lock(&vfile->slots_lock);
	if (s->used < VNPU_FILE_ENGINE_JOBS) {
		s->used++;
		job->slot = true;
	} else if (s->wait) {
		f = dma_fence_get(s->wait);
	} else if (*fresh) {
		dma_fence_init(&(*fresh)->base, &vnpu_slot_fence_ops,
			       &(*fresh)->lock,
			       vfile->slot_context + job->slot_engine,
			       ++s->seqno);
		s->wait = &(*fresh)->base;
		*fresh = NULL;
		f = dma_fence_get(s->wait);
	} else {
		f = ERR_PTR(-EAGAIN);
	}
	spin_unlock(&vfile->slots_lock);
	return f;
}

/**
 * vnpu_slot_take() - a slot of @engine for @job, or a fence to wait for
 * @engine: the engine the scheduler picked for the job
 * @job: the job (prepare_job; the scheduler calls again once the returned
 *	fence has signalled)
 *
 * Return: NULL when the job holds a slot (released by vnpu_slot_release()),
 * or a fence reference to wait for before asking again.
 */
struct dma_fence *vnpu_slot_take(struct vnpu_engine *engine,
				 struct vnpu_job *job)
{
	struct vnpu_slots *s = &job->vfile->slots[engine->index];
	struct vnpu_slot_fence *fresh = NULL;
	struct dma_fence *f;

	if (job->slot)
		return NULL;
	job->slot_engine = engine->index;
	for (;;) {
		f = vnpu_slot_try(job, s, &fresh);
		if (!IS_ERR(f))
			return f;
		fresh = kzalloc(sizeof(*fresh), GFP_NOWAIT | __GFP_NOWARN);
		if (fresh) {
			spin_lock_init(&fresh->lock);
			f = vnpu_slot_try(job, s, &fresh);
			/* Not made into a fence: somebody was quicker. */
			kfree(fresh);
			return f;
		}
		/* No memory: wait for one of the file's jobs to end. */
		f = vnpu_slot_any_job(engine, job->vfile);
		if (f)
			return f;
		/* They left meanwhile: a slot is free, or about to be. */
		cond_resched();
	}
}

/**
 * vnpu_slot_release() - give back a job's slot, if it holds one
 * @job: a job leaving its engine (or never reaching it)
 */
void vnpu_slot_release(struct vnpu_job *job)
{
	struct vnpu_file *vfile = job->vfile;
	struct vnpu_slots *s;
	struct dma_fence *f;

	if (!job->slot)
		return;
	s = &vfile->slots[job->slot_engine];
	spin_lock(&vfile->slots_lock);
	s->used--;
	f = s->wait;
	s->wait = NULL;
	job->slot = false;
	spin_unlock(&vfile->slots_lock);
	if (f) {
		dma_fence_signal(f);
		dma_fence_put(f);
	}
}
