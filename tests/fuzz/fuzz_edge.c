// SPDX-License-Identifier: GPL-2.0-only
/*
 * vnpu_fuzz: generators at the validators' edges, for what the UAPI got
 * after the fuzzer was first written:
 *
 * - every input and output of every operator with a 0 in its shape and
 *   strides of 0, 1 or 2^40 (do_edge_shapes, walking the operators);
 * - the split-phase operators on long rows (do_split_rows);
 * - VM_UNMAP, GEM_CLOSE, VM_MAP and VM_RELEASE on addresses a job in
 *   flight uses (do_vm_inflight);
 * - command buffers with bindings at the slot and offset limits, their
 *   objects closed between CMDBUF_CREATE and the replay (do_bind_edge);
 * - up to DRM_VNPU_MAX_QUEUES queues on one file, each with a job
 *   (do_many_queues);
 * - a thread tearing down everything another thread submits with
 *   (do_teardown_race).
 *
 * Jobs that ought to end soon are watched (watch_check): one still
 * running after --job-limit seconds is a finding.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "../../kernel/ops/vnpu_dtype.h"

#define U(x)		((unsigned long long)(x))
#define GRANULE		4096ull
#define BIG_SIZE	(8ull << 20)

/* ----------------------------------------------------------- helpers -- */

static struct fctx *ctx_by_gen(struct worker *w, uint32_t gen)
{
	int i;

	for (i = 0; i < w->nctx; i++)
		if (w->ctx[i].gen == gen)
			return &w->ctx[i];
	return NULL;
}

/* A queue of c to put a job on: its index in c->q, or -1. */
static int edge_queue(struct worker *w, struct fctx *c)
{
	if (!c->nq || (c->nq < MAX_QUEUES && one_in(&w->r, 30)))
		queue_create(w, c);
	if (!c->nq)
		return -1;
	return rnd(&w->r, c->nq);
}

static int submit_raw(struct fctx *c, uint32_t qid, struct drm_vnpu_submit *s,
		      const struct batch *b, const char *what)
{
	char desc[240] = "";
	struct call cl;
	int ret;

	s->queue_id = qid;
	if (b)
		batch_desc(b, desc, sizeof(desc));
	call_begin(&cl, "SUBMIT", "fd=%d queue=%u flags=0x%x cmdbuf=%u args_size=%u %s%s",
		   c->fd, qid, s->flags, s->cmdbuf, s->args_size, what, desc);
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_SUBMIT, s);
	call_end(&cl, ret, "seq=%llu", U(s->seq));
	return ret;
}

/* Submit a batch's tasks on queue qi of c; 0 and *seq, or -errno. */
static int submit_batch(struct fctx *c, int qi, const struct batch *b,
			const char *what, uint64_t *seq)
{
	struct drm_vnpu_submit s = {
		.tasks = (uintptr_t)b->tasks, .task_count = b->count,
		.task_stride = b->stride, .args = b->args_size ? (uintptr_t)b->args : 0,
		.args_size = b->args_size,
	};
	int ret = submit_raw(c, c->q[qi].id, &s, b, what);

	if (!ret) {
		if (s.seq <= c->q[qi].seq)
			finding("submit to queue %u returned seq %llu after %llu",
				c->q[qi].id, U(s.seq), U(c->q[qi].seq));
		c->q[qi].seq = s.seq;
		c->q[qi].inflight++;
		*seq = s.seq;
	}
	return ret;
}

/* Wait up to ms for point of syncobj h, in waits of at most a second. */
static int wait_point(struct fctx *c, uint32_t h, uint64_t point, int ms)
{
	uint64_t end = now_ns() + (uint64_t)ms * 1000000ull;
	int ret;

	do {
		struct drm_syncobj_timeline_wait tw = { 0 };
		uint64_t pt = point, t = now_ns() + 1000000000ull;
		struct call cl;

		tw.handles = (uintptr_t)&h;
		tw.points = (uintptr_t)&pt;
		tw.count_handles = 1;
		tw.timeout_nsec = t < end ? t : end;
		call_begin(&cl, "SYNCOBJ_TIMELINE_WAIT", "fd=%d handle=%u point=%llu",
			   c->fd, h, U(point));
		ret = fz_ioctl(c->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &tw);
		call_end(&cl, ret, NULL);
	} while ((ret == -ETIME || ret == -EINTR) && now_ns() < end);
	return ret;
}

/*
 * How job seq of queue qid ended; a state that does not exist is a
 * finding. A failed queue is reset. Returns the state or -errno.
 */
static int job_check(struct fctx *c, uint32_t qid, uint64_t seq)
{
	struct drm_vnpu_job_status js = { .queue_id = qid, .seq = seq };
	struct call cl;
	int ret;

	call_begin(&cl, "JOB_STATUS", "fd=%d queue=%u seq=%llu", c->fd, qid, U(seq));
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_JOB_STATUS, &js);
	call_end(&cl, ret, "state=%u error=%d task=%u access=%u va=0x%llx reason=%u",
		 js.state, js.error, js.task, js.fault_access, U(js.fault_va),
		 js.fault_reason);
	if (ret)
		return ret;
	if (js.state > DRM_VNPU_JOB_CANCELLED || js.error > 0 ||
	    js.fault_reason > DRM_VNPU_FAULT_READ_ONLY)
		finding("JOB_STATUS queue %u seq %llu: state %u error %d reason %u",
			qid, U(seq), js.state, js.error, js.fault_reason);
	if (js.state != DRM_VNPU_JOB_PENDING && js.state != DRM_VNPU_JOB_OK) {
		struct drm_vnpu_queue_destroy qr = { .queue_id = qid };

		call_begin(&cl, "QUEUE_RESET", "fd=%d queue_id=%u (after state %u)",
			   c->fd, qid, js.state);
		call_end(&cl, fz_ioctl(c->fd, DRM_IOCTL_VNPU_QUEUE_RESET, &qr), NULL);
	}
	return js.state;
}

static void queue_drop(struct fctx *c, uint32_t qid)
{
	struct drm_vnpu_queue_destroy qd = { .queue_id = qid };
	struct call cl;

	call_begin(&cl, "QUEUE_DESTROY", "fd=%d queue_id=%u", c->fd, qid);
	call_end(&cl, fz_ioctl(c->fd, DRM_IOCTL_VNPU_QUEUE_DESTROY, &qd), NULL);
}

/*
 * Wait a little for a job; then check how it ended, or watch it. With
 * own_queue the queue is the job's alone and goes when the job ended.
 */
static void settle_q(struct worker *w, struct fctx *c, struct fqueue *q, bool own_queue,
		     uint64_t seq, int ms, const char *what)
{
	if (!wait_point(c, q->syncobj, seq, ms)) {
		q->inflight = 0;
		job_check(c, q->id, seq);
		if (own_queue)
			queue_drop(c, q->id);
		return;
	}
	if (w->nwatch < (int)ARRAY_SIZE(w->watch)) {
		struct watch *wt = &w->watch[w->nwatch++];

		wt->gen = c->gen;
		wt->queue = q->id;
		wt->syncobj = q->syncobj;
		wt->own_queue = own_queue;
		wt->seq = seq;
		wt->t0 = now_ns() - (uint64_t)ms * 1000000ull;
		snprintf(wt->what, sizeof(wt->what), "%s", what);
	}
}

static void settle(struct worker *w, struct fctx *c, int qi, uint64_t seq,
		   int ms, const char *what)
{
	settle_q(w, c, &c->q[qi], false, seq, ms, what);
}

void watch_check(struct worker *w, bool final)
{
	uint64_t limit = (uint64_t)opt.job_limit_s * 1000000000ull;
	int i;

	for (i = 0; i < w->nwatch; i++) {
		struct watch *wt = &w->watch[i];
		struct fctx *c = ctx_by_gen(w, wt->gen);
		uint64_t age = now_ns() - wt->t0;
		int st;

		/* A closed file cancelled it; nothing left to ask. */
		st = c ? job_check(c, wt->queue, wt->seq) : -ENOENT;
		if (st == DRM_VNPU_JOB_PENDING && final && age < limit) {
			wait_point(c, wt->syncobj, wt->seq, (limit - age) / 1000000 + 1);
			st = job_check(c, wt->queue, wt->seq);
			age = now_ns() - wt->t0;
		}
		if (st == DRM_VNPU_JOB_PENDING && age >= limit)
			finding("job %llu of queue %u (%s) still runs after %llu s (limit %d s)",
				U(wt->seq), wt->queue, wt->what, U(age / 1000000000ull),
				opt.job_limit_s);
		if (st != DRM_VNPU_JOB_PENDING) {
			if (c && wt->own_queue)
				queue_drop(c, wt->queue);
			w->watch[i--] = w->watch[--w->nwatch];
		}
	}
}

/* ------------------------------------------------------ empty shapes -- */

/* Small values: coordinates around an image's edge, indices, scales. */
static const float seed_vals[] = { -1.5f, -1.0f, -0.5f, 0.0f, 0.25f, 0.5f, 1.0f, 2.0f, 3.5f };
static const uint16_t seed_f16[] = { 0xbe00, 0xbc00, 0xb800, 0, 0x3400, 0x3800,
				     0x3c00, 0x4000, 0x4300 };

static void seed_elem(struct rng *r, uint8_t *p, uint32_t dtype)
{
	uint32_t i = rnd(r, ARRAY_SIZE(seed_vals));
	int64_t v = (int64_t)rnd(r, 6) - 2;	/* -2 .. 3 */
	float f = seed_vals[i];
	double d = f;
	uint32_t u;

	memcpy(&u, &f, 4);
	switch (dtype) {
	case DRM_VNPU_DTYPE_FLOAT:
		memcpy(p, &f, 4);
		break;
	case DRM_VNPU_DTYPE_FLOAT16:
		memcpy(p, &seed_f16[i], 2);
		break;
	case DRM_VNPU_DTYPE_BF16:
		u >>= 16;
		memcpy(p, &u, 2);
		break;
	case DRM_VNPU_DTYPE_DOUBLE:
		memcpy(p, &d, 8);
		break;
	case DRM_VNPU_DTYPE_BOOL:
		*p = v & 1;
		break;
	default:
		memcpy(p, &v, vnpu_dtype_size(dtype) < 8 ? vnpu_dtype_size(dtype) : 8);
		break;
	}
}

/*
 * Write small values into the inputs of the batch's first KERNEL task, so
 * that coordinates, indices and lengths land near the edges the operator
 * must handle (a region around an empty image, an index of -1, ...).
 * Only inputs reaching at most 64 KiB; empty ones have nothing to write.
 */
static void seed_inputs(struct worker *w, struct fctx *c, const struct batch *b)
{
	const struct drm_vnpu_task *t = b->tasks;
	const struct drm_vnpu_kernel_args *ka;
	uint32_t i;

	if (t->type != DRM_VNPU_TASK_KERNEL ||
	    t->kernel.args_offset + sizeof(*ka) > b->args_size)
		return;
	ka = (const void *)((const uint8_t *)b->args + t->kernel.args_offset);
	for (i = 0; i < ka->num_inputs && i < DRM_VNPU_MAX_TENSORS; i++) {
		const struct drm_vnpu_tensor *ts = &ka->tensors[i];
		uint32_t es = vnpu_dtype_size(ts->dtype), d;
		uint64_t last = 0, span, k;
		struct drm_vnpu_memcpy mc = { .flags = DRM_VNPU_MEMCPY_DST_DEVICE };
		struct call cl;
		bool empty = false, big = false;

		if ((const uint8_t *)(ts + 1) > (const uint8_t *)b->args + b->args_size)
			break;
		if (!es || ts->rank > DRM_VNPU_MAX_RANK)
			continue;
		for (d = 0; d < ts->rank; d++) {
			if (ts->shape[d] <= 0) {
				empty = true;
				break;
			}
			if (ts->shape[d] > 65536 || ts->strides[d] < 0 ||
			    ts->strides[d] > 65536) {
				big = true;
				break;
			}
			last += (uint64_t)(ts->shape[d] - 1) * ts->strides[d];
		}
		span = (last + 1) * es;
		if (empty || big || span > 65536 || span > w->scratch_len)
			continue;
		for (k = 0; k + es <= span; k += es)
			seed_elem(&w->r, w->scratch + k, ts->dtype);
		mc.dst = ts->va;
		mc.src = (uintptr_t)w->scratch;
		mc.size = span;
		call_begin(&cl, "MEMCPY", "fd=%d h2d va=0x%llx size=0x%llx (input %u values)",
			   c->fd, U(mc.dst), U(mc.size), i);
		call_end(&cl, fz_ioctl(c->fd, DRM_IOCTL_VNPU_MEMCPY, &mc), NULL);
	}
}

void do_edge_shapes(struct worker *w, struct fctx *c)
{
	struct rng *r = &w->r;
	uint32_t rank = 0, n, mode = rnd(r, 8);
	struct batch b;
	uint64_t seq;
	int qi, ret;

	if (!w->edge_started) {
		w->edge_op = rnd(r, fuzz_nops());
		w->edge_started = true;
	}
	/* The dimension by chance: most empty ones reach the operator. */
	n = batch_edge(w, c, &b, w->edge_op, w->edge_t, rnd(r, 8), mode, &rank);
	/* Next: the next tensor, then the next operator. */
	if (++w->edge_t >= n) {
		w->edge_t = 0;
		w->edge_op = (w->edge_op + 1) % fuzz_nops();
	}
	qi = edge_queue(w, c);
	if (qi < 0)
		goto out;
	if (c->q[qi].inflight >= 24 &&
	    wait_point(c, c->q[qi].syncobj, c->q[qi].seq, 200))
		goto out;
	if (!one_in(r, 4))
		seed_inputs(w, c, &b);
	if (one_in(r, 4)) {
		/* the same through a command buffer and a replay */
		struct drm_vnpu_cmdbuf_create cc = {
			.tasks = (uintptr_t)b.tasks, .task_count = b.count,
			.task_stride = b.stride, .args = (uintptr_t)b.args,
			.args_size = b.args_size,
		};
		struct drm_vnpu_cmdbuf_destroy cd = { 0 };
		struct drm_vnpu_submit s = { .flags = DRM_VNPU_SUBMIT_CMDBUF };
		char desc[240];
		struct call cl;

		batch_desc(&b, desc, sizeof(desc));
		call_begin(&cl, "CMDBUF_CREATE", "fd=%d %s", c->fd, desc);
		ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_CMDBUF_CREATE, &cc);
		call_end(&cl, ret, "handle=%u", cc.handle);
		if (ret)
			goto out;
		s.cmdbuf = cc.handle;
		ret = submit_raw(c, c->q[qi].id, &s, NULL, "replay ");
		cd.handle = cc.handle;
		call_begin(&cl, "CMDBUF_DESTROY", "fd=%d handle=%u", c->fd, cd.handle);
		call_end(&cl, fz_ioctl(c->fd, DRM_IOCTL_VNPU_CMDBUF_DESTROY, &cd), NULL);
		if (!ret) {
			c->q[qi].seq = s.seq;
			settle(w, c, qi, s.seq, 2000, b.note);
		}
		goto out;
	}
	ret = submit_batch(c, qi, &b, "", &seq);
	if (!ret)
		settle(w, c, qi, seq, 2000, b.note);
out:
	batch_free(&b);
}

/* ------------------------------------------------------- split rows -- */

void do_split_rows(struct worker *w, struct fctx *c)
{
	struct drm_vnpu_queue_create qc = { .priority = DRM_VNPU_PRIORITY_NORMAL };
	struct drm_vnpu_submit s;
	struct fqueue q = { 0 };
	struct fbo *big = NULL;
	struct batch b;
	struct call cl;
	int i, ret;

	watch_check(w, false);
	if (w->nwatch >= (int)ARRAY_SIZE(w->watch))
		return;
	for (i = 0; i < c->nbo; i++)
		if (c->bos[i].size >= BIG_SIZE && !c->bos[i].flags &&
		    c->bos[i].placement == DRM_VNPU_PLACEMENT_DEVICE)
			big = &c->bos[i];
	if (!big) {
		i = bo_create(w, c, BIG_SIZE, DRM_VNPU_PLACEMENT_DEVICE, 0, false);
		if (i < 0)
			return;
		big = &c->bos[i];
	}
	/* A queue of its own: nothing else's jobs count in its time. */
	call_begin(&cl, "QUEUE_CREATE", "fd=%d (split)", c->fd);
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &qc);
	call_end(&cl, ret, "queue_id=%u syncobj=%u", qc.queue_id, qc.syncobj);
	if (ret)
		return;
	q.id = qc.queue_id;
	q.syncobj = qc.syncobj;
	batch_split(w, &b, big);
	memset(&s, 0, sizeof(s));
	s.tasks = (uintptr_t)b.tasks;
	s.task_count = b.count;
	s.task_stride = b.stride;
	s.args = (uintptr_t)b.args;
	s.args_size = b.args_size;
	if (!submit_raw(c, q.id, &s, &b, ""))
		settle_q(w, c, &q, true, s.seq, 1000, b.note);
	else
		queue_drop(c, q.id);
	batch_free(&b);
}

/* -------------------------------------------- VM with jobs in flight -- */

static int vm_call(struct fctx *c, unsigned long req, void *arg, const char *name,
		   uint64_t va, uint64_t size, uint32_t handle)
{
	struct call cl;
	int ret;

	call_begin(&cl, name, "fd=%d va=0x%llx size=0x%llx handle=%u (in flight)",
		   c->fd, U(va), U(size), handle);
	ret = fz_ioctl(c->fd, req, arg);
	if (req == DRM_IOCTL_VNPU_VM_RESERVE)
		call_end(&cl, ret, "va=0x%llx",
			 U(((struct drm_vnpu_vm_reserve *)arg)->va));
	else
		call_end(&cl, ret, NULL);
	return ret;
}

/* Tasks over [va, va + len): fills, copies, operators, values, spins. */
static void inflight_tasks(struct worker *w, struct batch *b, uint64_t va, uint64_t len)
{
	struct rng *r = &w->r;
	uint32_t i;

	for (i = 0; i < b->count; i++) {
		struct drm_vnpu_task *t = &b->tasks[i];
		uint64_t off = rnd(r, len), n = 1 + rnd(r, len - off);

		memset(t, 0, sizeof(*t));
		switch (rnd(r, 7)) {
		case 0:
			t->type = DRM_VNPU_TASK_FILL;
			t->fill.dst = va + (off & ~3ull);
			t->fill.size = (len - (off & ~3ull)) & ~3ull;
			t->fill.pattern = rnd64(r);
			t->fill.pattern_size = 4;
			if (!t->fill.size)
				t->type = DRM_VNPU_TASK_NOP;
			break;
		case 1:
			t->type = DRM_VNPU_TASK_COPY;
			t->copy.src = va + off;
			t->copy.dst = va + rnd(r, len - n + 1);
			t->copy.size = n;
			break;
		case 2:
			batch_kernel_at(w, b, t, va, len);
			break;
		case 3:
			t->type = DRM_VNPU_TASK_WRITE_VALUE;
			t->value.addr = va + (off & ~7ull);
			t->value.value = 1;
			break;
		case 4:
			t->type = DRM_VNPU_TASK_WAIT_VALUE;
			t->value.addr = va + (off & ~7ull);
			t->value.cond = DRM_VNPU_WAIT_GEQ;
			t->value.value = 0;		/* true at once */
			t->value.timeout_ns = 1000000;
			break;
		default:
			t->type = DRM_VNPU_TASK_SPIN;
			t->spin.ns = 100000 + rnd(r, 2000000);
			break;
		}
	}
}

void do_vm_inflight(struct worker *w, struct fctx *c)
{
	struct rng *r = &w->r;
	uint64_t size = GRANULE << rnd(r, 5), seq = 0, seq2 = 0;
	struct drm_vnpu_vm_reserve rv = { .size = 2 * size };
	struct drm_vnpu_vm_release rl = { 0 };
	uint32_t h[3] = { 0 }, mapped = 0;	/* bit i: h[i] is mapped */
	int bi[3] = { -1, -1, -1 }, qi, q2, i, steps, ret;
	struct batch b;

	qi = edge_queue(w, c);
	if (qi < 0 || c->nbo > MAX_BOS - 4)
		return;
	if (vm_call(c, DRM_IOCTL_VNPU_VM_RESERVE, &rv, "VM_RESERVE", 0, rv.size, 0))
		return;
	for (i = 0; i < 3; i++) {
		bi[i] = bo_create(w, c, size, DRM_VNPU_PLACEMENT_DEVICE,
				  DRM_VNPU_BO_NO_VA, false);
		if (bi[i] < 0)
			goto release;
		h[i] = c->bos[bi[i]].handle;
	}
	/* two adjacent mappings: the tasks cross the seam */
	for (i = 0; i < 2; i++) {
		struct drm_vnpu_vm_map m = { .va = rv.va + i * size, .size = size,
					     .handle = h[i] };

		if (!vm_call(c, DRM_IOCTL_VNPU_VM_MAP, &m, "VM_MAP", m.va, size, h[i]))
			mapped |= 1u << i;
	}
	batch_alloc(&b, 2 + rnd(r, 14));
	inflight_tasks(w, &b, rv.va, 2 * size);
	snprintf(b.note, sizeof(b.note), "vm 0x%llx+0x%llx", U(rv.va), U(2 * size));
	if (c->q[qi].inflight >= 24)
		wait_point(c, c->q[qi].syncobj, c->q[qi].seq, 200);
	ret = submit_batch(c, qi, &b, "", &seq);
	/* Now pull the addresses out from under it. */
	steps = 1 + rnd(r, 4);
	while (steps--) {
		uint32_t k = rnd(r, 2);

		switch (rnd(r, 7)) {
		case 0:
		case 1: {
			struct drm_vnpu_vm_unmap u = { .va = rv.va + k * size, .size = size };

			if (!vm_call(c, DRM_IOCTL_VNPU_VM_UNMAP, &u, "VM_UNMAP", u.va, size, h[k]))
				mapped &= ~(1u << k);
			break;
		}
		case 2: {
			struct drm_gem_close gc = { .handle = h[k] };

			if (bi[k] < 0 || !h[k])
				break;
			vm_call(c, DRM_IOCTL_GEM_CLOSE, &gc, "GEM_CLOSE", 0, 0, h[k]);
			for (i = 0; i < c->nbo; i++)
				if (c->bos[i].handle == h[k])
					ctx_forget_bo(c, i);
			h[k] = 0;
			break;
		}
		case 3: {
			/* another object where the job's addresses were */
			struct drm_vnpu_vm_map m = { .va = rv.va + k * size, .size = size,
						     .handle = h[2] };

			if (h[2] && !vm_call(c, DRM_IOCTL_VNPU_VM_MAP, &m, "VM_MAP", m.va,
					     size, h[2]))
				mapped |= 4u << k;	/* bit 2 or 3: h[2] at slot k */
			break;
		}
		case 4: {
			struct drm_vnpu_memcpy mc = {
				.dst = rv.va + rnd(r, 2 * size - 64), .src = (uintptr_t)w->scratch,
				.size = 64, .flags = DRM_VNPU_MEMCPY_DST_DEVICE,
			};

			vm_call(c, DRM_IOCTL_VNPU_MEMCPY, &mc, "MEMCPY", mc.dst, 64, 0);
			break;
		}
		case 5:
			rl.va = rv.va;
			if (!vm_call(c, DRM_IOCTL_VNPU_VM_RELEASE, &rl, "VM_RELEASE", rv.va,
				     rv.size, 0)) {
				if (mapped)
					finding("VM_RELEASE 0x%llx succeeded with mappings (0x%x)",
						U(rv.va), mapped);
				rv.va = 0;	/* gone: nothing left to clean up */
			}
			steps = rv.va ? steps : 0;
			break;
		default:
			/* a second job on the same addresses, another queue */
			q2 = edge_queue(w, c);
			if (q2 >= 0 && c->q[q2].inflight < 24)
				submit_batch(c, q2, &b, "", &seq2);
			break;
		}
	}
	if (!ret)
		settle(w, c, qi, seq, 3000, b.note);
	batch_free(&b);
	if (!rv.va)
		goto close;
	/* Clean up, or now and then leave it for the other calls. */
	if (one_in(r, 4) && c->nresv < MAX_RESV) {
		c->resv[c->nresv].va = rv.va;
		c->resv[c->nresv++].size = rv.size;
		for (i = 0; i < 2; i++)
			if ((mapped & (5u << i)) && c->nvmap < MAX_VMAPS) {
				c->vmaps[c->nvmap].va = rv.va + i * size;
				c->vmaps[c->nvmap++].size = size;
			}
		return;
	}
	for (i = 0; i < 2; i++)
		if (mapped & (5u << i)) {
			struct drm_vnpu_vm_unmap u = { .va = rv.va + i * size, .size = size };

			vm_call(c, DRM_IOCTL_VNPU_VM_UNMAP, &u, "VM_UNMAP", u.va, size, 0);
		}
release:
	rl.va = rv.va;
	vm_call(c, DRM_IOCTL_VNPU_VM_RELEASE, &rl, "VM_RELEASE", rv.va, rv.size, 0);
close:
	for (i = 0; i < 3; i++)
		if (h[i] && one_in(r, 2)) {
			struct drm_gem_close gc = { .handle = h[i] };
			int j;

			vm_call(c, DRM_IOCTL_GEM_CLOSE, &gc, "GEM_CLOSE", 0, 0, h[i]);
			for (j = 0; j < c->nbo; j++)
				if (c->bos[j].handle == h[i])
					ctx_forget_bo(c, j);
		}
}

/* ---------------------------------------------------- binding edges -- */

/* A slot near the limits of a table of count. */
static uint64_t edge_slot(struct rng *r, uint32_t count)
{
	switch (rnd(r, 8)) {
	case 0:
		return 0;
	case 1:
		return count ? count - 1 : 0;
	case 2:
		return count;				/* one past */
	case 3:
		return DRM_VNPU_MAX_BINDINGS - 1;
	case 4:
		return DRM_VNPU_MAX_BINDINGS;
	case 5:
		return (1u << 15) - 1;			/* every slot bit */
	default:
		return rnd(r, count ? count : 1);
	}
}

/* An offset near the end of an object of size for an access of len. */
static uint64_t edge_offset(struct rng *r, uint64_t size, uint64_t len)
{
	switch (rnd(r, 9)) {
	case 0:
		return 0;
	case 1:
		return size - len;			/* the last bytes */
	case 2:
		return size - len + 1;			/* one past */
	case 3:
		return size;
	case 4:
		return DRM_VNPU_BINDING_OFFSET_MASK;
	case 5:
		return DRM_VNPU_BINDING_OFFSET_MASK - len + 1;
	case 6:
		return 1ull << 47;
	default:
		return rnd(r, size);
	}
}

static int bind_tasks(struct worker *w, struct batch *b, uint32_t count, uint64_t size)
{
	struct rng *r = &w->r;
	uint32_t i;

	for (i = 0; i < b->count; i++) {
		struct drm_vnpu_task *t = &b->tasks[i];
		uint64_t len = 1 + rnd(r, size < 4096 ? size : 4096);
		uint64_t ref = DRM_VNPU_BINDING_VA(edge_slot(r, count),
						   edge_offset(r, size, len));
		uint64_t ref2 = DRM_VNPU_BINDING_VA(edge_slot(r, count),
						    edge_offset(r, size, len));

		memset(t, 0, sizeof(*t));
		switch (rnd(r, 4)) {
		case 0:
			t->type = DRM_VNPU_TASK_COPY;
			t->copy.src = ref;
			t->copy.dst = ref2;
			t->copy.size = len;
			break;
		case 1:
			t->type = DRM_VNPU_TASK_FILL;
			t->fill.dst = ref;
			t->fill.size = len;
			t->fill.pattern_size = 1;
			break;
		case 2:
			t->type = DRM_VNPU_TASK_COPY_2D;
			t->copy_2d.src = ref;
			t->copy_2d.dst = ref2;
			t->copy_2d.width = 1 + rnd(r, 64);
			t->copy_2d.height = 1 + rnd(r, 16);
			t->copy_2d.src_pitch = t->copy_2d.width + rnd(r, 64);
			t->copy_2d.dst_pitch = t->copy_2d.width + rnd(r, 64);
			break;
		default:
			/* tensors placed from the reference on */
			batch_kernel_at(w, b, t, ref & ~63ull, size);
			break;
		}
	}
	return 0;
}

/* The replay's table: live objects, closed ones' old addresses, junk. */
static void bind_table(struct worker *w, struct fctx *c, uint64_t *table, uint32_t n,
		       const uint64_t *old, int nold)
{
	struct rng *r = &w->r;
	uint32_t i;

	for (i = 0; i < n; i++) {
		switch (rnd(r, 8)) {
		case 0:
			table[i] = 0;
			break;
		case 1:
			table[i] = UINT64_MAX - rnd(r, 0x10000);
			break;
		case 2:
		case 3:
			table[i] = nold ? old[rnd(r, nold)] : 0;
			break;
		default:
			if (c->nbo) {
				const struct fbo *bo = &c->bos[rnd(r, c->nbo)];

				table[i] = bo->va + (one_in(r, 2) ? 0 : bo->size - 1);
			} else {
				table[i] = rnd_interesting(r);
			}
		}
	}
}

void do_bind_edge(struct worker *w, struct fctx *c)
{
	static const uint32_t counts[] = { 1, 2, 63, 64, 64, 65, 0 };
	struct rng *r = &w->r;
	uint32_t count = counts[rnd(r, ARRAY_SIZE(counts))], n, i;
	uint64_t table[DRM_VNPU_MAX_BINDINGS + 2], old[4], size, seq;
	struct drm_vnpu_cmdbuf_create cc = { 0 };
	struct drm_vnpu_submit s = { 0 };
	int nold = 0, k, qi, ret, bix[4], nb = 1 + rnd(r, 3);
	bool plain = one_in(r, 4);
	char desc[240];
	struct batch b;
	struct call cl;

	qi = edge_queue(w, c);
	if (qi < 0 || c->nbo > MAX_BOS - 4 || c->q[qi].inflight >= 24)
		return;
	size = 4096 * (1 + rnd(r, 16));
	for (k = 0; k < nb; k++) {
		bix[k] = bo_create(w, c, size, rnd(r, 2), 0, false);
		if (bix[k] < 0)
			return;
		old[nold++] = c->bos[bix[k]].va;
	}
	batch_alloc(&b, 1 + rnd(r, 8));
	if (plain) {
		/* no bindings: the objects' own addresses, closed before the replay */
		for (i = 0; i < b.count; i++)
			batch_kernel_at(w, &b, &b.tasks[i], old[rnd(r, nold)], size);
		count = 0;
	} else {
		bind_tasks(w, &b, count, size);
	}
	snprintf(b.note, sizeof(b.note), "bindings=%u size=0x%llx", count, U(size));
	cc.tasks = (uintptr_t)b.tasks;
	cc.task_count = b.count;
	cc.task_stride = b.stride;
	cc.args = b.args_size ? (uintptr_t)b.args : 0;
	cc.args_size = b.args_size;
	cc.flags = plain ? 0 : DRM_VNPU_CMDBUF_BINDINGS;
	cc.binding_count = count;
	batch_desc(&b, desc, sizeof(desc));
	call_begin(&cl, "CMDBUF_CREATE", "fd=%d flags=%u bindings=%u %s", c->fd, cc.flags,
		   cc.binding_count, desc);
	ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_CMDBUF_CREATE, &cc);
	call_end(&cl, ret, "handle=%u", cc.handle);
	if (ret && !plain && one_in(r, 2)) {
		/* the same tasks submitted directly: bit 63 means nothing there */
		if (!submit_batch(c, qi, &b, "bindrefs-direct ", &seq))
			settle(w, c, qi, seq, 1000, "binding refs without a command buffer");
	}
	batch_free(&b);
	if (ret)
		return;
	/* Close bound objects before the replay, sometimes all of them. */
	for (k = nb - 1; k >= 0; k--) {
		struct drm_gem_close gc;

		if (!one_in(r, 2))
			continue;
		gc.handle = c->bos[bix[k]].handle;
		gc.pad = 0;
		call_begin(&cl, "GEM_CLOSE", "fd=%d handle=%u (bound, before replay)", c->fd,
			   gc.handle);
		call_end(&cl, fz_ioctl(c->fd, DRM_IOCTL_GEM_CLOSE, &gc), NULL);
		ctx_forget_bo(c, bix[k]);
	}
	for (n = 0; n < 1 + rnd(r, 3); n++) {
		uint32_t tn = count;

		memset(&s, 0, sizeof(s));
		s.flags = DRM_VNPU_SUBMIT_CMDBUF;
		s.cmdbuf = cc.handle;
		if (count || one_in(r, 8)) {
			if (one_in(r, 6))
				tn = one_in(r, 2) ? count + 1 : (count ? count - 1 : 1);
			if (tn > ARRAY_SIZE(table))
				tn = ARRAY_SIZE(table);
			bind_table(w, c, table, tn, old, nold);
			s.flags |= one_in(r, 12) ? 0 : DRM_VNPU_SUBMIT_BINDINGS;
			s.args = (uintptr_t)table;
			s.args_size = tn * 8;
		}
		ret = submit_raw(c, c->q[qi].id, &s, NULL, "replay ");
		if (!ret)
			c->q[qi].seq = s.seq;
		if (one_in(r, 3) || n == 3) {
			/* destroyed under its replays: they keep running */
			struct drm_vnpu_cmdbuf_destroy cd = { .handle = cc.handle };

			call_begin(&cl, "CMDBUF_DESTROY", "fd=%d handle=%u (replay in flight)",
				   c->fd, cd.handle);
			call_end(&cl, fz_ioctl(c->fd, DRM_IOCTL_VNPU_CMDBUF_DESTROY, &cd), NULL);
			cc.handle = 0;
		}
		if (!ret)
			settle(w, c, qi, s.seq, 1000, "bound replay");
		if (!cc.handle)
			break;
	}
	if (cc.handle && c->ncb < MAX_CMDBUFS) {
		c->cb_bindings[c->ncb] = count;
		c->cmdbufs[c->ncb++] = cc.handle;
	}
}

/* ------------------------------------------------------ many queues -- */

#define MANY_MAX	(DRM_VNPU_MAX_QUEUES + 1)

void do_many_queues(struct worker *w)
{
	struct rng *r = &w->r;
	uint32_t qid[MANY_MAX], sob[MANY_MAX], nq = 0, want, i, kind = rnd(r, 4);
	uint64_t seq[MANY_MAX] = { 0 }, wait_ns, hold_ms = 0;
	struct fbo *hb;
	struct fctx *c;
	struct call cl;
	int k, ret;

	k = ctx_open(w, 0);	/* the probe's device */
	if (k < 0)
		return;
	c = &w->ctx[k];
	want = one_in(r, 3) ? MANY_MAX : 16 + rnd(r, 150);
	/*
	 * Long waits (up to 10 s) in a third of the episodes, and then the
	 * jobs are kept in flight for 6 to 10 s: longer than the probe's
	 * limit, so that a NOP of another file stuck behind them shows.
	 */
	if (one_in(r, 3)) {
		wait_ns = 500000000ull + rnd(r, 9500000000ull);
		hold_ms = 6000 + rnd(r, 4000);
		kind = 2;
	} else {
		wait_ns = 1000000ull + rnd(r, 200000000ull);
	}
	if (bo_create(w, c, 4096, DRM_VNPU_PLACEMENT_HOST, 0, true) < 0)
		goto close;
	hb = &c->bos[c->nbo - 1];
	log_note("# many queues: %u wanted, kind %u, waits %llu ms", want, kind,
		 U(wait_ns / 1000000));
	for (i = 0; i < want; i++) {
		struct drm_vnpu_queue_create qc = { .priority = rnd(r, 2) };

		call_begin(&cl, "QUEUE_CREATE", "fd=%d priority=%u (%u of %u)", c->fd,
			   qc.priority, i + 1, want);
		ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_QUEUE_CREATE, &qc);
		call_end(&cl, ret, "queue_id=%u syncobj=%u", qc.queue_id, qc.syncobj);
		if (ret) {
			if (ret != -ENOSPC && ret != -EINTR && ret != -ENOMEM)
				finding("QUEUE_CREATE %u on a fresh file: %d", i + 1, ret);
			break;
		}
		if (i >= DRM_VNPU_MAX_QUEUES)
			finding("QUEUE_CREATE made queue %u of a file (limit %u)", i + 1,
				DRM_VNPU_MAX_QUEUES);
		qid[nq] = qc.queue_id;
		sob[nq++] = qc.syncobj;
	}
	for (i = 0; i < nq; i++) {
		struct drm_vnpu_task t = { 0 };
		struct drm_vnpu_submit s = {
			.tasks = (uintptr_t)&t, .task_count = 1, .task_stride = sizeof(t),
		};
		uint32_t kd = kind == 3 ? rnd(r, 3) : kind;

		if (kd == 1) {
			t.type = DRM_VNPU_TASK_SPIN;
			t.spin.ns = rnd(r, 2000000);
		} else if (kd == 2) {
			/* released from the CPU below, or timing out */
			t.type = DRM_VNPU_TASK_WAIT_VALUE;
			t.value.addr = hb->va + 8 * (i % 8);
			t.value.value = 1;
			t.value.cond = DRM_VNPU_WAIT_EQ;
			t.value.timeout_ns = wait_ns;
		}
		if (submit_raw(c, qid[i], &s, NULL, kd == 2 ? "wait_value " :
			       kd == 1 ? "spin " : "nop "))
			continue;
		seq[i] = s.seq;
	}
	if (hb->cpu && !hold_ms && one_in(r, 2)) {
		usleep(rnd(r, 300000));
		log_note("# many queues: releasing the waits from the CPU");
		for (i = 0; i < 8; i++)
			((volatile uint64_t *)hb->cpu)[i] = 1;
	}
	/* not much past the slice's end: the short run keeps its time */
	if (hold_ms && now_ns() + hold_ms * 1000000ull > worker_end_ns + 2000000000ull)
		hold_ms = worker_end_ns + 2000000000ull > now_ns() ?
			  (worker_end_ns + 2000000000ull - now_ns()) / 1000000 : 0;
	if (hold_ms && nq) {
		/* Keep them in flight: the probe's NOPs have to get past. */
		uint64_t end = now_ns() + hold_ms * 1000000ull;
		uint32_t left = nq, idle = 0;

		log_note("# many queues: holding %llu ms", U(hold_ms));
		for (i = 0; now_ns() < end && left && idle < nq; i = (i + 1) % nq) {
			if (!seq[i]) {
				idle++;
				continue;
			}
			idle = 0;
			if (!wait_point(c, sob[i], seq[i], 100)) {
				seq[i] = 0;
				left--;
			}
		}
	}
	switch (rnd(r, 3)) {
	case 0:
		/* wait for all of them, a bounded time */
		for (i = 0; i < nq; i++)
			if (seq[i])
				wait_point(c, sob[i], seq[i], 200);
		break;
	case 1:
		/* destroy them with their jobs in flight */
		for (i = 0; i < nq; i++) {
			struct drm_vnpu_queue_destroy qd = { .queue_id = qid[i] };

			call_begin(&cl, "QUEUE_DESTROY", "fd=%d queue_id=%u", c->fd, qd.queue_id);
			call_end(&cl, fz_ioctl(c->fd, DRM_IOCTL_VNPU_QUEUE_DESTROY, &qd), NULL);
		}
		break;
	default:
		break;	/* the close does it */
	}
close:
	ctx_close(w, k);
}

/* ---------------------------------------------------- teardown race -- */

struct teardown {
	int fd;
	uint32_t q[4], nq;
	uint32_t bo[6], nbo;
	uint64_t va[6];
	uint32_t cb[3], ncb;
	uint32_t so[3], nso;
	uint64_t resv, resv_size;
	uint64_t map_va[2];
	uint32_t map_h[2];
	uint64_t seed;
	uint64_t end_ns;
	const char *node;
	_Atomic int stop;
};

/* The first thread: submits with everything, ioctl and io_uring. */
static void *td_submitter(void *arg)
{
	struct teardown *td = arg;
	struct rng r = { td->seed };
	struct io_uring ring;
	bool ring_ok = !io_uring_queue_init(16, &ring, IORING_SETUP_SQE128 |
					    IORING_SETUP_CQE32);
	extern __thread int tl_tid;
	uint64_t table[4];
	struct call cl;
	int ret;

	tl_tid = 1;
	while (!atomic_load(&td->stop) && now_ns() < td->end_ns) {
		struct drm_vnpu_task t[3] = { 0 };
		struct drm_vnpu_sync out = { 0 }, in = { 0 };
		struct drm_vnpu_submit s = { .tasks = (uintptr_t)t, .task_stride = 64 };
		uint32_t i;

		s.queue_id = td->q[rnd(&r, td->nq)];
		s.task_count = 1 + rnd(&r, 3);
		for (i = 0; i < s.task_count; i++) {
			uint64_t va = rnd(&r, 3) ? td->va[rnd(&r, td->nbo)] :
				      td->map_va[rnd(&r, 2)];

			switch (rnd(&r, 4)) {
			case 0:
				t[i].type = DRM_VNPU_TASK_FILL;
				t[i].fill.dst = va;
				t[i].fill.size = 4096;
				t[i].fill.pattern_size = 4;
				break;
			case 1:
				t[i].type = DRM_VNPU_TASK_SPIN;
				t[i].spin.ns = rnd(&r, 300000);
				break;
			case 2:
				t[i].type = DRM_VNPU_TASK_COPY;
				t[i].copy.src = va;
				t[i].copy.dst = td->va[rnd(&r, td->nbo)] + 2048;
				t[i].copy.size = 2048;
				break;
			default:
				t[i].type = DRM_VNPU_TASK_WRITE_VALUE;
				t[i].value.addr = va + 8 * rnd(&r, 4);
				break;
			}
		}
		if (td->nso && one_in(&r, 3)) {
			out.handle = td->so[rnd(&r, td->nso)];
			s.out_syncs = (uintptr_t)&out;
			s.out_sync_count = 1;
		}
		/* WAIT_FOR_SUBMIT on a syncobj nobody signals sleeps 5 s: rarely */
		if (td->nso && one_in(&r, 60)) {
			in.handle = td->so[rnd(&r, td->nso)];
			in.flags = DRM_VNPU_SYNC_WAIT_FOR_SUBMIT;
			s.in_syncs = (uintptr_t)&in;
			s.in_sync_count = 1;
		}
		if (td->ncb && one_in(&r, 4)) {
			uint32_t k = rnd(&r, td->ncb);

			s.flags = DRM_VNPU_SUBMIT_CMDBUF;
			s.cmdbuf = td->cb[k];
			s.tasks = 0;
			s.task_count = 0;
			s.task_stride = 0;
			if (k == 0) {
				/* the one with bindings */
				for (i = 0; i < 4; i++)
					table[i] = td->va[rnd(&r, td->nbo)];
				s.flags |= DRM_VNPU_SUBMIT_BINDINGS;
				s.args = (uintptr_t)table;
				s.args_size = sizeof(table);
			}
		}
		if (ring_ok && one_in(&r, 3)) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
			struct io_uring_cqe *cqe = NULL;
			struct __kernel_timespec ts = { 0, 20000000 };
			struct drm_vnpu_uring_wait wt = {
				.queue_id = s.queue_id, .flags = DRM_VNPU_URING_WAIT_LATEST,
			};

			if (!sqe)
				continue;
			memset(sqe, 0, 128);
			sqe->opcode = IORING_OP_URING_CMD;
			sqe->fd = td->fd;
			sqe->cmd_op = DRM_VNPU_URING_CMD_SUBMIT;
			sqe->flags = IOSQE_IO_LINK;
			memcpy(sqe->cmd, &s, sizeof(s));
			sqe = io_uring_get_sqe(&ring);
			if (sqe) {
				memset(sqe, 0, 128);
				sqe->opcode = IORING_OP_URING_CMD;
				sqe->fd = td->fd;
				sqe->cmd_op = DRM_VNPU_URING_CMD_WAIT;
				memcpy(sqe->cmd, &wt, sizeof(wt));
			}
			call_begin(&cl, "uring_SUBMIT+WAIT", "fd=%d queue=%u flags=0x%x",
				   td->fd, s.queue_id, s.flags);
			ret = io_uring_submit_and_wait_timeout(&ring, &cqe, 1, &ts, NULL);
			if (ret >= 0 && cqe) {
				ret = cqe->res;
				io_uring_cqe_seen(&ring, cqe);
			}
			call_end(&cl, ret, NULL);
			continue;
		}
		call_begin(&cl, "SUBMIT", "fd=%d queue=%u flags=0x%x cmdbuf=%u count=%u types=%u,%u,%u",
			   td->fd, s.queue_id, s.flags, s.cmdbuf, s.task_count, t[0].type,
			   t[1].type, t[2].type);
		ret = fz_ioctl(td->fd, DRM_IOCTL_VNPU_SUBMIT, &s);
		call_end(&cl, ret, "seq=%llu", U(s.seq));
	}
	if (ring_ok)
		io_uring_queue_exit(&ring);	/* cancels what is pending */
	return NULL;
}

/* The second thread: takes it all away, then closes the file. */
static void *td_destroyer(void *arg)
{
	struct teardown *td = arg;
	struct rng r = { td->seed ^ 0x7e4d };
	extern __thread int tl_tid;
	struct call cl;
	int steps = 4 + rnd(&r, 12), ret;

	tl_tid = 2;
	while (steps-- > 0 && now_ns() < td->end_ns) {
		usleep(rnd(&r, 20000));
		switch (rnd(&r, 7)) {
		case 0: {
			uint32_t i = rnd(&r, 2);
			struct drm_vnpu_vm_unmap u = { .va = td->map_va[i], .size = 65536 };

			call_begin(&cl, "VM_UNMAP", "fd=%d va=0x%llx (racing)", td->fd, U(u.va));
			call_end(&cl, fz_ioctl(td->fd, DRM_IOCTL_VNPU_VM_UNMAP, &u), NULL);
			break;
		}
		case 1: {
			struct drm_gem_close gc = { .handle = td->bo[rnd(&r, td->nbo)] };

			if (one_in(&r, 3))
				gc.handle = td->map_h[rnd(&r, 2)];
			call_begin(&cl, "GEM_CLOSE", "fd=%d handle=%u (racing)", td->fd, gc.handle);
			call_end(&cl, fz_ioctl(td->fd, DRM_IOCTL_GEM_CLOSE, &gc), NULL);
			break;
		}
		case 2: {
			struct drm_vnpu_queue_destroy qd = { .queue_id = td->q[rnd(&r, td->nq)] };

			call_begin(&cl, "QUEUE_DESTROY", "fd=%d queue_id=%u (racing)", td->fd,
				   qd.queue_id);
			call_end(&cl, fz_ioctl(td->fd, DRM_IOCTL_VNPU_QUEUE_DESTROY, &qd), NULL);
			break;
		}
		case 3: {
			struct drm_vnpu_cmdbuf_destroy cd = { .handle = td->cb[rnd(&r, 3)] };

			call_begin(&cl, "CMDBUF_DESTROY", "fd=%d handle=%u (racing)", td->fd,
				   cd.handle);
			call_end(&cl, fz_ioctl(td->fd, DRM_IOCTL_VNPU_CMDBUF_DESTROY, &cd), NULL);
			break;
		}
		case 4: {
			struct drm_syncobj_destroy sd = { .handle = td->so[rnd(&r, 3)] };

			call_begin(&cl, "SYNCOBJ_DESTROY", "fd=%d handle=%u (racing)", td->fd,
				   sd.handle);
			call_end(&cl, fz_ioctl(td->fd, DRM_IOCTL_SYNCOBJ_DESTROY, &sd), NULL);
			break;
		}
		case 5: {
			struct drm_vnpu_vm_release rl = { .va = td->resv };

			call_begin(&cl, "VM_RELEASE", "fd=%d va=0x%llx (racing)", td->fd,
				   U(rl.va));
			call_end(&cl, fz_ioctl(td->fd, DRM_IOCTL_VNPU_VM_RELEASE, &rl), NULL);
			break;
		}
		default: {
			struct drm_vnpu_queue_destroy qr = { .queue_id = td->q[rnd(&r, td->nq)] };

			call_begin(&cl, "QUEUE_RESET", "fd=%d queue_id=%u (racing)", td->fd,
				   qr.queue_id);
			call_end(&cl, fz_ioctl(td->fd, DRM_IOCTL_VNPU_QUEUE_RESET, &qr), NULL);
			break;
		}
		}
	}
	/* The file goes while the submitter still uses its number. */
	if (!one_in(&r, 4)) {
		int nfd = one_in(&r, 3) ? open("/dev/null", O_RDWR | O_CLOEXEC) :
			  open(td->node, O_RDWR | O_CLOEXEC);

		call_begin(&cl, "dup2_close", "fd=%d (file replaced under the submitter)", td->fd);
		ret = nfd < 0 ? -errno : dup2(nfd, td->fd) < 0 ? -errno : 0;
		call_end(&cl, ret, NULL);
		if (nfd >= 0)
			close(nfd);
	}
	usleep(rnd(&r, 30000));
	atomic_store(&td->stop, 1);
	return NULL;
}

void do_teardown_race(struct worker *w)
{
	struct rng *r = &w->r;
	struct teardown td;
	struct fctx *c;
	pthread_t th[2];
	int k, i, made = 0;

	k = ctx_open(w, rnd(r, 8));
	if (k < 0)
		return;
	c = &w->ctx[k];
	memset(&td, 0, sizeof(td));
	td.fd = c->fd;
	td.node = w->nodes[c->dev];
	for (i = 0; i < 2 + (int)rnd(r, 3); i++)
		queue_create(w, c);
	for (i = 0; i < c->nq && td.nq < 4; i++)
		td.q[td.nq++] = c->q[i].id;
	for (i = 0; i < 3 + (int)rnd(r, 3); i++) {
		int bi = bo_create(w, c, 8192 + 4096 * rnd(r, 4), rnd(r, 2), 0, one_in(r, 2));

		if (bi >= 0 && td.nbo < 6) {
			td.bo[td.nbo] = c->bos[bi].handle;
			td.va[td.nbo++] = c->bos[bi].va;
		}
	}
	if (!td.nq || !td.nbo)
		goto close;
	/* a reservation with two mappings of NO_VA objects */
	{
		struct drm_vnpu_vm_reserve rv = { .size = 2 * 65536 };
		struct call cl;

		int ret;

		call_begin(&cl, "VM_RESERVE", "fd=%d size=0x%llx", c->fd, U(rv.size));
		ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_VM_RESERVE, &rv);
		call_end(&cl, ret, "va=0x%llx", U(rv.va));
		td.resv = rv.va;
		for (i = 0; i < 2 && rv.va; i++) {
			int bi = bo_create(w, c, 65536, DRM_VNPU_PLACEMENT_DEVICE,
					   DRM_VNPU_BO_NO_VA, false);
			struct drm_vnpu_vm_map m = { .va = rv.va + i * 65536, .size = 65536 };

			if (bi < 0)
				break;
			m.handle = c->bos[bi].handle;
			td.map_h[i] = m.handle;
			td.map_va[i] = m.va;
			vm_call(c, DRM_IOCTL_VNPU_VM_MAP, &m, "VM_MAP", m.va, m.size, m.handle);
		}
	}
	/* command buffers: one with bindings (slot 0..3), plain ones */
	for (i = 0; i < 3; i++) {
		struct drm_vnpu_task t = { .type = DRM_VNPU_TASK_FILL };
		struct drm_vnpu_cmdbuf_create cc = {
			.tasks = (uintptr_t)&t, .task_count = 1, .task_stride = 64,
		};
		struct call cl;

		t.fill.size = 1024;
		t.fill.pattern_size = 1;
		if (i == 0) {
			t.fill.dst = DRM_VNPU_BINDING_VA(rnd(r, 4), 0);
			cc.flags = DRM_VNPU_CMDBUF_BINDINGS;
			cc.binding_count = 4;
		} else {
			t.fill.dst = i == 1 ? td.va[0] : td.map_va[1];
		}
		int ret;

		call_begin(&cl, "CMDBUF_CREATE", "fd=%d flags=%u bindings=%u fill(0x%llx)",
			   c->fd, cc.flags, cc.binding_count, U(t.fill.dst));
		ret = fz_ioctl(c->fd, DRM_IOCTL_VNPU_CMDBUF_CREATE, &cc);
		call_end(&cl, ret, "handle=%u", cc.handle);
		td.cb[td.ncb++] = cc.handle;	/* 0 when it failed: a bad handle */
	}
	for (i = 0; i < 3; i++) {
		struct drm_syncobj_create sc = { 0 };

		if (!ioctl(c->fd, DRM_IOCTL_SYNCOBJ_CREATE, &sc))
			td.so[td.nso++] = sc.handle;
	}
	td.seed = rnd64(r);
	td.end_ns = now_ns() + (100 + rnd(r, 400)) * 1000000ull;
	log_note("# teardown race: fd %d, %u queues, %u objects, reservation 0x%llx",
		 td.fd, td.nq, td.nbo, U(td.resv));
	log_flush();
	if (!pthread_create(&th[0], NULL, td_submitter, &td))
		made |= 1;
	if (!pthread_create(&th[1], NULL, td_destroyer, &td))
		made |= 2;
	if (!(made & 2))
		atomic_store(&td.stop, 1);
	for (i = 0; i < 2; i++)
		if (made & (1 << i))
			pthread_join(th[i], NULL);
close:
	/* Whatever the fd is now (the file, a new one or /dev/null): close it. */
	ctx_close(w, k);
}
