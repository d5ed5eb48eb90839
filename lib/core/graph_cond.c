/* SPDX-License-Identifier: MIT */
/*
 * Conditional graphs: aclmdlRICondHandleCreate, aclmdlRIAddCondTask and
 * the sub-graphs aclmdlRICaptureToModelRIBegin fills.
 *
 * A condition handle is an 8-byte device word owned by its graph. The
 * cond task is a placeholder task in the recording stream's segment; at
 * the parent's CaptureEnd every placeholder is replaced by the sub-graphs'
 * tasks, inlined, with DRM_VNPU_TASK_JUMP tasks that read the word:
 *
 *   IF     JUMP word==0 -> else; body0; [JUMP -> end; else: body1;] end:
 *   WHILE  JUMP word==0 -> end; top: body; JUMP word!=0 -> top; end:
 *   SWITCH JUMP word==0 -> c0; ... JUMP word==n-1 -> cn-1; JUMP -> end;
 *          c0: body0; JUMP -> end; ...; end:
 *
 * so a replay branches and loops on the device, with no host round trip.
 * With ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT the graph's first segment
 * starts with a WRITE_VALUE of the default value: every launch resets the
 * word. A WHILE runs at most DRM_VNPU_MAX_JUMPS iterations per launch.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_rt.h"
#include "graph.h"
#include "../kmd/kmd.h"

#define COND_MAGIC	0x434f4e44u

struct graph_cond {
	uint32_t magic;
	struct rt_graph *g;		/* owner of the word */
	void *word;			/* device address of the condition */
	uint32_t defval;
	bool assign_default;
	bool added;			/* AddCondTask used it */
	int type;
	uint32_t size;
	struct rt_graph **subs;
	uint32_t seg, pos;		/* the placeholder task */
	struct graph_cond *next;	/* the graph's handles */
	struct graph_cond *all_next;	/* every handle, for lookups */
};

static pthread_mutex_t conds_lock = PTHREAD_MUTEX_INITIALIZER;
static struct graph_cond *all_conds;

static struct graph_cond *cond_find_locked(void *handle)
{
	for (struct graph_cond *c = all_conds; c; c = c->all_next)
		if (c == handle && c->magic == COND_MAGIC)
			return c;
	return NULL;
}

int graph_cond_create(struct rt_graph *g, uint32_t defval, int flag,
		      struct graph_cond **out)
{
	struct rt_device *dev = g->ctx->dev;
	uint64_t v = defval;
	struct graph_cond *c;
	int ret;

	if (flag < 0 || flag > ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT)
		return -EINVAL;
	pthread_mutex_lock(&g->lock);
	ret = g->built ? -CAPERR_COND_UNSUPPORTED :
	      g->parent ? -CAPERR_COND_UNSUPPORTED :
	      g->state != GRAPH_CAPTURING ? -CAPERR_MODEL_STATE : 0;
	pthread_mutex_unlock(&g->lock);
	if (ret)
		return ret;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	ret = alloc_device(dev, sizeof(uint64_t), false, &c->word);
	if (!ret)
		ret = kmd_memcpy(dev->fd, (uintptr_t)c->word, (uintptr_t)&v,
				 sizeof(v), DRM_VNPU_MEMCPY_DST_DEVICE);
	if (ret) {
		if (c->word)
			alloc_free(dev, c->word);
		free(c);
		return ret;
	}
	c->magic = COND_MAGIC;
	c->g = g;
	c->defval = defval;
	c->assign_default = flag == ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT;
	c->type = -1;
	pthread_mutex_lock(&g->lock);
	c->next = g->conds;
	g->conds = c;
	pthread_mutex_unlock(&g->lock);
	pthread_mutex_lock(&conds_lock);
	c->all_next = all_conds;
	all_conds = c;
	pthread_mutex_unlock(&conds_lock);
	*out = c;
	return 0;
}

int graph_cond_ptr(void *handle, uint64_t **ptr)
{
	struct graph_cond *c;

	pthread_mutex_lock(&conds_lock);
	c = cond_find_locked(handle);
	if (c)
		*ptr = c->word;
	pthread_mutex_unlock(&conds_lock);
	return c ? 0 : -ENOENT;
}

static struct rt_graph *sub_new(struct rt_graph *parent)
{
	struct rt_graph *sub = calloc(1, sizeof(*sub));

	if (!sub)
		return NULL;
	pthread_mutex_init(&sub->lock, NULL);
	sub->ctx = parent->ctx;
	sub->parent = parent;
	sub->state = GRAPH_READY;	/* takes no task until captured into */
	sub->magic = GRAPH_MAGIC;
	return sub;
}

static int check_shape(int type, uint32_t size)
{
	switch (type) {
	case ACL_MODEL_RI_COND_TYPE_IF:
		return size == 1 || size == 2 ? 0 : -EINVAL;
	case ACL_MODEL_RI_COND_TYPE_WHILE:
		return size == 1 ? 0 : -EINVAL;
	case ACL_MODEL_RI_COND_TYPE_SWITCH:
		/* Each case costs a JUMP; keep the batch far from its limit. */
		return size && size <= 4096 ? 0 : -EINVAL;
	default:
		return -EINVAL;
	}
}

/*
 * s (capturing into c's graph) gets the placeholder; subs[] receives
 * size empty sub-graphs. -ENOENT: not a handle; -EINVAL: bad type or
 * size, or the handle was used; -EXDEV: the handle is another graph's.
 */
int graph_cond_add(void *handle, int type, uint32_t size,
		   struct rt_stream *s, void **subs)
{
	static const struct drm_vnpu_task nop = { .type = DRM_VNPU_TASK_NOP };
	struct rt_graph *g, *sg;
	struct graph_cond *c;
	struct rt_graph **made;
	int ret = 0;

	pthread_mutex_lock(&conds_lock);
	c = cond_find_locked(handle);
	pthread_mutex_unlock(&conds_lock);
	if (!c)
		return -ENOENT;
	g = c->g;
	pthread_mutex_lock(&s->lock);
	sg = graph_capturing_locked(s);
	if (!sg)
		ret = -CAPERR_NOT_CAPTURED;
	else if (sg->parent)
		ret = -CAPERR_COND_UNSUPPORTED;	/* nested */
	else if (sg != g)
		ret = -EXDEV;
	else if (check_shape(type, size))
		ret = -EINVAL;
	if (ret) {
		pthread_mutex_unlock(&s->lock);
		return ret;
	}
	pthread_mutex_lock(&g->lock);
	ret = c->added ? -EINVAL : 0;
	pthread_mutex_unlock(&g->lock);
	made = ret ? NULL : calloc(size, sizeof(*made));
	if (!ret && !made)
		ret = -ENOMEM;
	for (uint32_t i = 0; !ret && i < size; i++)
		if (!(made[i] = sub_new(g)))
			ret = -ENOMEM;
	if (!ret)
		ret = graph_record_locked(s, &nop, NULL, 0);
	if (!ret) {
		pthread_mutex_lock(&g->lock);
		c->added = true;
		c->type = type;
		c->size = size;
		c->subs = made;
		c->seg = (uint32_t)g->members[s->member].open_seg;
		c->pos = g->segs[c->seg].ntasks - 1;
		pthread_mutex_unlock(&g->lock);
		for (uint32_t i = 0; i < size; i++)
			subs[i] = made[i];
	} else if (made) {
		for (uint32_t i = 0; i < size; i++)
			if (made[i])
				graph_free(made[i]);
		free(made);
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

/* Forget what a failed capture recorded into a sub-graph. */
static void sub_reset_locked(struct rt_graph *sub)
{
	for (uint32_t i = 0; i < sub->nsegs; i++) {
		free(sub->segs[i].tasks);
		free(sub->segs[i].args);
		free(sub->segs[i].arg_off);
		free(sub->segs[i].deps);
	}
	free(sub->segs);
	sub->segs = NULL;
	sub->nsegs = sub->segs_cap = 0;
	sub->ntasks = 0;
	sub->invalid = 0;
	sub->nmembers = 0;
}

bool graph_cond_is_sub(struct rt_graph *g)
{
	bool found = false;

	pthread_mutex_lock(&conds_lock);
	for (struct graph_cond *c = all_conds; c && !found; c = c->all_next)
		for (uint32_t i = 0; c->subs && i < c->size; i++)
			found |= c->subs[i] == g;
	pthread_mutex_unlock(&conds_lock);
	return found;
}

int graph_cond_sub_lookup(void *handle, struct rt_graph **out)
{
	struct rt_graph *found = NULL;
	int ret = -ENOENT;

	pthread_mutex_lock(&conds_lock);
	for (struct graph_cond *c = all_conds; c && !found; c = c->all_next)
		for (uint32_t i = 0; c->subs && i < c->size; i++)
			if (c->subs[i] == handle)
				found = c->subs[i];
	if (found) {
		pthread_mutex_lock(&found->lock);
		ret = found->sub_captured || found->state != GRAPH_READY ?
		      -CAPERR_MODEL_CAPTURED : 0;
		if (!ret)
			sub_reset_locked(found);
		pthread_mutex_unlock(&found->lock);
	}
	pthread_mutex_unlock(&conds_lock);
	if (!ret)
		*out = found;
	return ret;
}

/* A growing task list with its argument blocks, as a segment keeps them. */
struct emit {
	struct drm_vnpu_task *t;
	uint32_t *off;
	uint32_t n, cap;
	uint8_t *args;
	size_t alen, acap;
};

static int emit_task(struct emit *e, const struct drm_vnpu_task *t,
		     const uint8_t *args, uint32_t arg_off)
{
	uint32_t off = UINT32_MAX;

	if (e->n == DRM_VNPU_MAX_TASKS)
		return -CAPERR_COND_UNSUPPORTED;	/* one command buffer */
	if (e->n == e->cap) {
		uint32_t cap = e->cap ? 2 * e->cap : 64;
		struct drm_vnpu_task *p = realloc(e->t, cap * sizeof(*p));
		uint32_t *o;

		if (!p)
			return -ENOMEM;
		e->t = p;
		o = realloc(e->off, cap * sizeof(*o));
		if (!o)
			return -ENOMEM;
		e->off = o;
		e->cap = cap;
	}
	if (arg_off != UINT32_MAX) {
		size_t sz = t->kernel.args_size;

		if (e->alen + sz > DRM_VNPU_MAX_ARGS_SIZE)
			return -CAPERR_COND_UNSUPPORTED;
		if (e->alen + sz > e->acap) {
			size_t cap = e->acap ? e->acap : 4096;
			uint8_t *p;

			while (cap < e->alen + sz)
				cap *= 2;
			p = realloc(e->args, cap);
			if (!p)
				return -ENOMEM;
			e->args = p;
			e->acap = cap;
		}
		memcpy(e->args + e->alen, args + arg_off, sz);
		off = (uint32_t)e->alen;
		e->alen += sz;
	}
	e->off[e->n] = off;
	e->t[e->n++] = *t;
	return 0;
}

static int emit_jump(struct emit *e, const struct graph_cond *c, uint32_t cond,
		     uint64_t value, uint32_t *at)
{
	struct drm_vnpu_task j = {
		.type = DRM_VNPU_TASK_JUMP,
		.jump = { .addr = (uintptr_t)c->word, .value = value,
			  .cond = cond },
	};

	*at = e->n;
	return emit_task(e, &j, NULL, UINT32_MAX);
}

static int emit_sub(struct emit *e, struct rt_graph *sub)
{
	int ret = 0;

	if (sub->nsegs > 1 || sub->nmembers > 1)
		return -CAPERR_COND_UNSUPPORTED;
	for (uint32_t i = 0; !ret && sub->nsegs && i < sub->segs[0].ntasks; i++)
		ret = emit_task(e, &sub->segs[0].tasks[i], sub->segs[0].args,
				sub->segs[0].arg_off[i]);
	return ret;
}

#define TARGET(e, at)	((e)->t[at].jump.target)

/* The code of one cond task; jump targets are indices into e. */
static int emit_cond(struct emit *e, const struct graph_cond *c)
{
	uint32_t j0, j1, top, i, *fix;
	int ret;

	switch (c->type) {
	case ACL_MODEL_RI_COND_TYPE_IF:
		ret = emit_jump(e, c, DRM_VNPU_JUMP_EQ, 0, &j0);
		if (!ret)
			ret = emit_sub(e, c->subs[0]);
		if (!ret && c->size == 2) {
			ret = emit_jump(e, c, DRM_VNPU_JUMP_ALWAYS, 0, &j1);
			if (ret)
				return ret;
			TARGET(e, j0) = e->n;
			ret = emit_sub(e, c->subs[1]);
			TARGET(e, j1) = e->n;
		} else if (!ret) {
			TARGET(e, j0) = e->n;
		}
		return ret;
	case ACL_MODEL_RI_COND_TYPE_WHILE:
		ret = emit_jump(e, c, DRM_VNPU_JUMP_EQ, 0, &j0);
		top = e->n;
		if (!ret)
			ret = emit_sub(e, c->subs[0]);
		if (!ret)
			ret = emit_jump(e, c, DRM_VNPU_JUMP_NE, 0, &j1);
		if (!ret) {
			TARGET(e, j1) = top;
			TARGET(e, j0) = e->n;
		}
		return ret;
	default:	/* SWITCH */
		fix = calloc(c->size + 1, sizeof(*fix));
		if (!fix)
			return -ENOMEM;
		for (i = 0, ret = 0; !ret && i < c->size; i++)
			ret = emit_jump(e, c, DRM_VNPU_JUMP_EQ, i, &fix[i]);
		if (!ret)
			ret = emit_jump(e, c, DRM_VNPU_JUMP_ALWAYS, 0, &j0);
		for (i = 0; !ret && i < c->size; i++) {
			TARGET(e, fix[i]) = e->n;
			ret = emit_sub(e, c->subs[i]);
			if (!ret)
				ret = emit_jump(e, c, DRM_VNPU_JUMP_ALWAYS, 0,
						&fix[i]);
		}
		for (i = 0; !ret && i < c->size; i++)
			TARGET(e, fix[i]) = e->n;
		if (!ret)
			TARGET(e, j0) = e->n;
		free(fix);
		return ret;
	}
}

/* Rebuild segment si with its cond tasks (and, for si 0, the resets). */
static int seg_inline(struct rt_graph *g, uint32_t si)
{
	struct graph_seg *seg = &g->segs[si];
	struct emit e = { 0 };
	struct graph_cond *c;
	int ret = 0;

	for (c = g->conds; !ret && si == 0 && c; c = c->next) {
		struct drm_vnpu_task w = {
			.type = DRM_VNPU_TASK_WRITE_VALUE,
			.value = { .addr = (uintptr_t)c->word,
				   .value = c->defval },
		};

		if (c->assign_default)
			ret = emit_task(&e, &w, NULL, UINT32_MAX);
	}
	for (uint32_t i = 0; !ret && i < seg->ntasks; i++) {
		for (c = g->conds; c; c = c->next)
			if (c->added && c->seg == si && c->pos == i)
				break;
		ret = c ? emit_cond(&e, c) :
		      emit_task(&e, &seg->tasks[i], seg->args, seg->arg_off[i]);
	}
	/* A jump may target the end: give it a task to land on. */
	for (uint32_t i = 0; !ret && i < e.n; i++)
		if (e.t[i].type == DRM_VNPU_TASK_JUMP && e.t[i].jump.target == e.n) {
			static const struct drm_vnpu_task nop = {
				.type = DRM_VNPU_TASK_NOP };

			ret = emit_task(&e, &nop, NULL, UINT32_MAX);
			break;
		}
	if (ret) {
		free(e.t);
		free(e.off);
		free(e.args);
		return ret;
	}
	free(seg->tasks);
	free(seg->arg_off);
	free(seg->args);
	g->ntasks += e.n - seg->ntasks;
	seg->tasks = e.t;
	seg->arg_off = e.off;
	seg->ntasks = seg->tasks_cap = e.n;
	seg->args = e.args;
	seg->args_len = e.alen;
	seg->args_cap = e.acap;
	return 0;
}

int graph_cond_finish_locked(struct rt_graph *g)
{
	bool any_default = false;
	struct graph_cond *c;
	int ret = 0;

	if (!g->conds)
		return 0;
	for (c = g->conds; c; c = c->next) {
		any_default |= c->assign_default;
		for (uint32_t i = 0; c->subs && i < c->size; i++) {
			struct rt_graph *sub = c->subs[i];
			bool capturing;

			pthread_mutex_lock(&sub->lock);
			capturing = sub->state == GRAPH_CAPTURING;
			pthread_mutex_unlock(&sub->lock);
			if (capturing)
				return -CAPERR_SUB_CAPTURING;
		}
	}
	for (uint32_t si = 0; !ret && si < g->nsegs; si++) {
		bool has = si == 0 && any_default;

		for (c = g->conds; c && !has; c = c->next)
			has = c->added && c->seg == si;
		if (has)
			ret = seg_inline(g, si);
	}
	return ret;
}

void graph_cond_destroy(struct rt_graph *g)
{
	struct graph_cond *c, *next;

	pthread_mutex_lock(&g->lock);
	c = g->conds;
	g->conds = NULL;
	pthread_mutex_unlock(&g->lock);
	for (; c; c = next) {
		next = c->next;
		pthread_mutex_lock(&conds_lock);
		for (struct graph_cond **pp = &all_conds; *pp;
		     pp = &(*pp)->all_next)
			if (*pp == c) {
				*pp = c->all_next;
				break;
			}
		c->magic = 0;
		pthread_mutex_unlock(&conds_lock);
		for (uint32_t i = 0; c->subs && i < c->size; i++) {
			/* A capture still going on into it is abandoned. */
			graph_capture_abort(c->subs[i]);
			graph_release_members(c->subs[i]);
			graph_free(c->subs[i]);
		}
		free(c->subs);
		alloc_free(g->ctx->dev, c->word);
		free(c);
	}
}
