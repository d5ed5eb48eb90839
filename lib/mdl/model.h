/* SPDX-License-Identifier: MIT */
/*
 * A loaded model (Documentation/models.md, "Execution"): weights in
 * device memory, one bound command buffer (or a few, when the driver's
 * per-buffer limits cut it) per batch variant, and a pool of activation
 * arenas. An execution is a SUBMIT of the variant's command buffers with
 * a binding table: slots 0..nin-1 the inputs, nin..nin+nout-1 the
 * outputs, nin+nout the arena.
 *
 * Locking: a model's lock sits between a stream's lock and a device's
 * lock in the order of core/rt_objects.h (an execution holds the stream's
 * lock, then the model's; the pool may allocate, which takes the
 * device's). models_lock (model.c) guards the table of ids and is never
 * held with another lock.
 */
#ifndef VNPU_MDL_MODEL_H
#define VNPU_MDL_MODEL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "../om/om_read.h"
#include "../core/rt_objects.h"
#include "../core/stream_cmdbufs.h"

struct dump_sel;
struct mdl_vdump;

#define MDL_POOL_MAX	8	/* arenas a model allocates at most */
#define MDL_CAP_BLOCKS	8	/* captures of a model with host nodes */
#define MDL_HOST_BLOCKS	(MDL_POOL_MAX + MDL_CAP_BLOCKS)

/* An input or output as the description reports it. */
struct mdl_io {
	char name[OM_NAME_MAX];
	uint32_t dtype, format, rank, flags;
	int64_t dims[OM_MAX_RANK];	/* the largest variant's */
	uint64_t size;
};

/* A host node of a variant (model_host.c runs it). */
struct mdl_hnode {
	uint32_t op;			/* enum aicpu_op */
	uint32_t nin, nout;
	struct om_tensor t[OM_MAX_NODE_TENSORS];
	int64_t ints[24];
	uint32_t floats[8];
	char name[64];
};

/*
 * Where the host nodes of one execution find their tensors: one block
 * per arena of the pool, and one per capture. Each block has its own
 * host-memory semaphores ("ready", "done") per host node, so executions
 * on different arenas never share them.
 */
struct mdl_hblock {
	struct mdl_variant *var;	/* NULL: never used */
	uint64_t table[OM_MAX_SLOTS];	/* the execution's bindings */
	struct aclmdlDataset *out;	/* gets the real dims; NULL (capture) */
	bool capture;			/* replays come at any time */
	uint32_t queue_id;		/* of the armed execution (not capture) */
};

struct mdl_variant {
	uint32_t batch;			/* 0: static model */
	uint64_t arena_size;
	struct om_dims *dims;		/* per io */
	uint64_t *io_size;		/* per io: bytes at this batch */
	/* The task list, addresses as bindings (kept for capture). */
	struct drm_vnpu_task *tasks;
	uint32_t ntasks;
	uint8_t *args;
	uint32_t args_len;
	/* Registered command buffers, replayed in order. */
	uint32_t *cmdbufs;
	uint32_t npieces;
	/*
	 * Host nodes: each is 4 tasks on the semaphores of a block;
	 * hslot[task] is the slot (within a block) + 1 a value task uses,
	 * 0 for other tasks. With host nodes there is one run of npieces
	 * command buffers per arena block (cmdbufs[block * npieces + p]).
	 */
	struct mdl_hnode *hnodes;
	uint32_t nhost;
	uint32_t *hslot;
	struct mdl_vdump *dump;		/* model_dump.c; NULL: no node dumped */
};

/* One activation arena and the last job that used it. */
struct mdl_arena {
	void *ptr;
	uint64_t va;
	const struct rt_stream *stream;	/* last user, compared, never followed */
	uint32_t queue_id, syncobj;
	uint64_t seq;			/* 0: never used */
};

struct mdl_model {
	uint32_t id;
	struct rt_device *dev;
	uint64_t gen;			/* dev->open_gen at load */
	pthread_mutex_t lock;		/* the pool, the capture arena */
	pthread_cond_t idle;		/* busy dropped to 0 */
	uint32_t busy;			/* calls using it (models_lock) */
	bool dying;			/* unloading (models_lock) */
	uint32_t nin, nout;		/* of the .om: slots */
	struct mdl_io *io;		/* nin inputs, nout outputs */
	bool dynamic;			/* variants have batch sizes */
	struct mdl_variant *var;
	uint32_t nvar;
	_Atomic uint32_t cur_batch;	/* last aclmdlSetDynamicBatchSize */
	/* Weights: ours (allocated) or the caller's (WithMem). */
	void *weights;
	uint64_t weights_va, weights_size;
	bool weights_own;
	/* The arena pool; fixed is the caller's work memory (WithMem). */
	struct mdl_arena arenas[MDL_POOL_MAX];
	uint32_t narenas, next_wait;
	bool fixed;
	uint64_t arena_size;		/* the largest variant's */
	uint64_t arena_allocs;		/* arenas allocated so far */
	/* The arena of graphs captured from this model (first capture). */
	void *cap_arena;
	uint64_t cap_va;
	struct mdl_model *next;
	/* Host nodes (model_host.c); hmax 0: none. */
	uint32_t hmax;			/* most host nodes of one variant */
	uint32_t nblocks;		/* arena blocks with command buffers */
	uint32_t ncaps;			/* capture blocks used */
	struct mdl_hblock *blocks;	/* MDL_HOST_BLOCKS */
	uint32_t slots_handle;
	uint64_t slots_va;
	uint64_t *slots;		/* mapped: 2 per host node per block */
	uint32_t hpending;		/* host node runs awaited (arenas) */
	uint32_t hrunning;		/* host nodes running now */
	struct om_dims *cur_out;	/* per output: last dims a host node set */
	struct om_aipp *aipp;		/* the .om's AIPP records (mdl_aipp*.c) */
	uint32_t naipp;
	struct mdl_model *hnext;	/* on the host-node thread's list */
	/* Data dump (model_dump.c): the selection taken at load, if any. */
	char *name;			/* for dump_list's model_name */
	struct dump_sel *dump;
	_Atomic uint64_t dump_iter;	/* executions dumped so far */
};

/* Caller-provided memory of the WithMem forms (NULL ptrs: none). */
struct mdl_mem {
	void *work, *weight;
	size_t work_size, weight_size;
};

/* model.c: load, look up, unload. Return 0 or -errno / OM_ERR_*. */
/*
 * name: the model's name for dump_list ("": "model_<id>"; NULL: a
 * single-op model, never dumped as a model).
 */
int model_load(struct rt_context *ctx, const struct om_image *img,
	       const struct mdl_mem *mem, const char *name, uint32_t *id,
	       char *why, size_t len);
/* The model of id with busy taken, or -ENOENT; put it back with model_put. */
int model_get(uint32_t id, struct mdl_model **out);
void model_put(struct mdl_model *m);
int model_unload(uint32_t id);
/* Unload every model (aclFinalize). */
void model_unload_all(void);
/* Hand core the hooks above (lifecycle.h); aclInit calls it. */
void model_lifecycle_register(void);
/* model_prof.c: hand lib/prof the model lookup (model_lifecycle_register). */
void model_prof_register(void);
/* model_host.c: in a fork's child, the parent's host-node models. */
void model_host_forget_after_fork(void);
/* A drained stream is being destroyed: its arenas are idle (stream_destroy). */
void model_forget_stream(const struct rt_stream *s);
/* p's device address when [p, +len) is memory dev can use, else 0. */
uint64_t mdl_dev_va(struct rt_device *dev, const void *p, size_t len);
/* Whether the model's device was reset (closed) since it was loaded. */
bool model_stale(const struct mdl_model *m);
/* The variant of batch (0 for a static model), or NULL. */
struct mdl_variant *model_variant(struct mdl_model *m, uint32_t batch);

/* model_tasks.c: the variants' task lists and command buffers. */
int model_build_tasks(struct mdl_model *m, const struct om_image *img);
/* A tensor's address in the tasks: a weight's VA, else a binding. */
uint64_t model_tensor_va(const struct mdl_model *m, const struct om_tensor *t);
int model_register(struct mdl_model *m);
void model_release_tasks(struct mdl_model *m, bool kernel);

/* arena_pool.c: with m->lock held. */
int arena_pick(struct mdl_model *m, const struct rt_stream *s,
	       const struct stream_point *pt, struct mdl_arena **out,
	       struct drm_vnpu_sync *wait, bool *must_wait);
/* The same for a model with host nodes: an arena whose last job is done. */
int arena_pick_idle(struct mdl_model *m, struct mdl_arena **out);
void arena_used(struct mdl_arena *a, const struct rt_stream *s,
		const struct stream_point *pt);
/* Wait for every arena's last job; then free what the pool allocated. */
void arena_pool_drain(struct mdl_model *m);
void arena_pool_free(struct mdl_model *m);

/* mdl_run.c: one execution of variant v on s (capturing or not). */
struct aclmdlDataset;
int model_run(struct mdl_model *m, struct mdl_variant *v,
	      struct rt_stream *s, const uint64_t *in_va,
	      const uint64_t *out_va, struct aclmdlDataset *out);

/*
 * model_host.c: host nodes. model_host_init copies them at load (and maps
 * the semaphores), start/stop put the model on and off the host-node
 * thread's list; the semaphore address of slot k of block b.
 */
int model_host_init(struct mdl_model *m, const struct om_image *img);
int model_host_start(struct mdl_model *m);
void model_host_stop(struct mdl_model *m);
void model_host_free(struct mdl_model *m, bool kernel);
uint64_t model_host_slot_va(const struct mdl_model *m, uint32_t block,
			    uint32_t slot);
/*
 * Before an execution on block b: its bindings, its dataset, the queue
 * its jobs go to (a failed node is reported there), armed.
 */
void model_host_arm(struct mdl_model *m, uint32_t b, struct mdl_variant *v,
		    const uint64_t *table, struct aclmdlDataset *out,
		    uint32_t queue_id);
/* A capture block for a graph: its index, or -ENOSPC. */
int model_host_capture_block(struct mdl_model *m, struct mdl_variant *v,
			     const uint64_t *table);

/* Replace a binding address by the table's entry plus its offset. */
static inline uint64_t binding_resolve(uint64_t va, const uint64_t *table)
{
	if (!(va & DRM_VNPU_BINDING_FLAG))
		return va;
	return table[DRM_VNPU_BINDING_SLOT(va)] + DRM_VNPU_BINDING_OFFSET(va);
}

#endif /* VNPU_MDL_MODEL_H */
