/* SPDX-License-Identifier: MIT */
/*
 * aclOpExecutor: the KERNEL tasks phase 1 prepared. Task tensors refer to
 * a bound API tensor (address resolved at launch: data + offset * esize)
 * or to the workspace (workspace + offset), so a repeatable executor
 * picks up addresses changed by aclSet*TensorAddr.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "nn.h"
#include "../core/rt_objects.h"
#include "../core/runtime.h"
#include "../core/prof_rt.h"

#define WS_ALIGN 64

/*
 * A new executor. Its task and binding lists start in the object itself
 * and are not zeroed: a task or binding is written whole when it is added
 * (2.8 KB a task slot, which zeroing would cost every aclnn call).
 */
aclOpExecutor *nn_exec_new(const char *name)
{
	aclOpExecutor *ex = malloc(sizeof(*ex));

	if (ex) {
		memset(ex, 0, offsetof(aclOpExecutor, inline_tasks));
		ex->magic = EXEC_MAGIC;
		ex->name = name;
		ex->tasks = ex->inline_tasks;
		ex->cap_tasks = NN_INLINE_TASKS;
		ex->bind = ex->inline_binds;
		ex->cap_bind = NN_INLINE_BINDS;
	}
	return ex;
}

void nn_exec_free(aclOpExecutor *ex)
{
	if (ex) {
		ex->magic = 0;
		if (ex->tasks != ex->inline_tasks)
			free(ex->tasks);
		if (ex->bind != ex->inline_binds)
			free(ex->bind);
		free(ex);
	}
}

/*
 * Room for one more element in *arr (n used of *cap, elements of size sz);
 * an array still in the executor (inline) moves to the heap.
 */
static int grow(void **arr, const void *inline_arr, uint32_t n,
		uint32_t *cap, size_t sz)
{
	uint32_t c = *cap * 2;
	void *p;

	if (n < *cap)
		return 0;
	if (*arr == inline_arr) {
		p = malloc((size_t)c * sz);
		if (p)
			memcpy(p, *arr, (size_t)n * sz);
	} else {
		p = realloc(*arr, (size_t)c * sz);
	}
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = c;
	return 0;
}

static void ref_shape(struct nn_ref *r, uint32_t rank, const int64_t *shape)
{
	int64_t s = 1;
	uint32_t i;

	r->rank = rank;
	for (i = 0; i < rank; i++)
		r->shape[i] = shape[i];
	for (i = rank; i-- > 0;) {
		r->strides[i] = s;
		s *= shape[i];
	}
}

struct nn_ref nn_bind_tensor(aclOpExecutor *ex, const aclTensor *t,
			     bool output)
{
	struct nn_ref r = { .bind = (int)ex->nbind, .dtype = t->dtype,
			    .rank = (uint32_t)t->ndim };
	struct nn_bind *b;

	if (grow((void **)&ex->bind, ex->inline_binds, ex->nbind,
		 &ex->cap_bind, sizeof(*ex->bind))) {
		ex->failed = true;	/* r is never launched */
		r.bind = 0;
		return r;
	}
	b = &ex->bind[ex->nbind++];
	b->tensor = t;
	b->addr = t->data;
	b->offset = t->offset;
	b->esize = nn_dtype_size(t->dtype);
	b->output = output;
	if (output)
		ex->nout++;
	else
		ex->nin++;
	memcpy(r.shape, t->dims, sizeof(r.shape));
	memcpy(r.strides, t->strides, sizeof(r.strides));
	return r;
}

struct nn_ref nn_ws(aclOpExecutor *ex, uint32_t dtype, uint32_t rank,
		    const int64_t *shape)
{
	struct nn_ref r = { .bind = -1, .dtype = dtype };
	uint64_t n = nn_dtype_size(dtype);
	uint32_t i;

	ref_shape(&r, rank, shape);
	for (i = 0; i < rank; i++)
		n *= (uint64_t)shape[i];
	r.ws_off = ex->ws_size;
	ex->ws_size += (n + WS_ALIGN - 1) & ~(uint64_t)(WS_ALIGN - 1);
	if (!n)
		ex->ws_size += WS_ALIGN;
	return r;
}

/* The bytes [*lo, *hi) a bound view reaches; false when it has none. */
static bool bound_range(const aclOpExecutor *ex, const struct nn_ref *r,
			uint64_t *lo, uint64_t *hi)
{
	const struct nn_bind *b;
	uint64_t last = 0;
	uint32_t d;

	if (r->bind < 0)
		return false;
	b = &ex->bind[r->bind];
	if (!b->addr)
		return false;	/* no data yet (atc lowers with NULL) */
	for (d = 0; d < r->rank; d++) {
		if (r->shape[d] <= 0)
			return false;
		last += (uint64_t)(r->shape[d] - 1) * (uint64_t)r->strides[d];
	}
	*lo = (uint64_t)(uintptr_t)b->addr + (uint64_t)(b->offset + r->off) * b->esize;
	*hi = *lo + (last + 1) * b->esize;
	return true;
}

static bool same_ref(const aclOpExecutor *ex, const struct nn_ref *a,
		     const struct nn_ref *b)
{
	uint64_t alo, ahi, blo, bhi;

	return bound_range(ex, a, &alo, &ahi) && bound_range(ex, b, &blo, &bhi) &&
	       alo == blo && a->dtype == b->dtype && a->rank == b->rank &&
	       !memcmp(a->shape, b->shape, a->rank * sizeof(a->shape[0])) &&
	       !memcmp(a->strides, b->strides, a->rank * sizeof(a->strides[0]));
}

int nn_task(aclOpExecutor *ex, uint32_t op, const struct nn_ref *in,
	    uint32_t nin, const struct nn_ref *out,
	    const struct drm_vnpu_op_attrs *attrs)
{
	struct nn_task *t;
	uint32_t i;

	if (nin + 1 > NN_MAX_TT) {
		ex->failed = true;
		return -ENOSPC;
	}
	if (grow((void **)&ex->tasks, ex->inline_tasks, ex->ntasks,
		 &ex->cap_tasks, sizeof(*ex->tasks))) {
		ex->failed = true;
		return -ENOMEM;
	}
	/* Only what launch reads: t[] below nin + nout, attrs if present. */
	t = &ex->tasks[ex->ntasks++];
	t->op = op;
	t->nin = nin;
	t->nout = 1;
	for (i = 0; i < nin; i++)
		t->t[i] = in[i];
	t->t[nin] = *out;
	t->has_attrs = attrs != NULL;
	if (attrs)
		t->attrs = *attrs;
	return 0;
}

/*
 * The driver lets a task write over one of its inputs only when the task
 * is elementwise and the two are the same view. CANN's operators take
 * in-place calls (ggml makes many: RmsNorm, Softmax, RoPE with out == x),
 * so at the end of phase 1 every output that overlaps an input of its
 * task is moved to the workspace and copied into place after the last
 * task.
 */
static bool overlaps_input(const aclOpExecutor *ex, const struct nn_task *t,
			   uint32_t o)
{
	uint64_t olo, ohi, ilo, ihi;
	uint32_t i;

	if (!bound_range(ex, &t->t[o], &olo, &ohi))
		return false;
	for (i = 0; i < t->nin; i++) {
		if (!bound_range(ex, &t->t[i], &ilo, &ihi) || ilo >= ohi ||
		    olo >= ihi)
			continue;
		if (t->op < DRM_VNPU_OP_CAST && same_ref(ex, &t->t[i], &t->t[o]))
			continue;
		return true;
	}
	return false;
}

/* The same binding seen the same way (not merely the same address). */
static bool same_bind_view(const struct nn_ref *a, const struct nn_ref *b)
{
	return a->bind >= 0 && a->bind == b->bind && a->off == b->off &&
	       a->dtype == b->dtype && a->rank == b->rank &&
	       !memcmp(a->shape, b->shape, a->rank * sizeof(a->shape[0])) &&
	       !memcmp(a->strides, b->strides, a->rank * sizeof(a->strides[0]));
}

void nn_bounce_inplace(aclOpExecutor *ex)
{
	uint32_t k, o, j, i, n = ex->ntasks;

	for (k = 0; k < n && !ex->failed; k++) {
		for (o = ex->tasks[k].nin;
		     o < ex->tasks[k].nin + ex->tasks[k].nout; o++) {
			struct nn_ref dst = ex->tasks[k].t[o], tmp;

			if (!overlaps_input(ex, &ex->tasks[k], o))
				continue;
			/*
			 * Later tasks may still read the input's old values
			 * (RmsNorm's rstd reads x after y is made), so the
			 * result stays in the workspace until the end: later
			 * uses of the output's own binding (not the input's,
			 * though both have one address) take tmp, and one
			 * copy comes last.
			 */
			tmp = nn_ws(ex, dst.dtype, dst.rank, dst.shape);
			ex->tasks[k].t[o] = tmp;
			for (j = k + 1; j < n; j++) {
				struct nn_task *t = &ex->tasks[j];

				for (i = 0; i < t->nin + t->nout; i++)
					if (same_bind_view(&t->t[i], &dst))
						t->t[i] = tmp;
			}
			if (nn_task(ex, DRM_VNPU_OP_CAST, &tmp, 1, &dst, NULL))
				return;
		}
	}
}

struct nn_ref nn_cast(aclOpExecutor *ex, struct nn_ref r, uint32_t dtype)
{
	struct nn_ref c;

	if (r.dtype == dtype)
		return r;
	c = nn_ws(ex, dtype, r.rank, r.shape);
	nn_task(ex, DRM_VNPU_OP_CAST, &r, 1, &c, NULL);
	return c;
}

int nn_task_to_out(aclOpExecutor *ex, uint32_t op, const struct nn_ref *in,
		   uint32_t nin, struct nn_ref out, uint32_t cdt,
		   const struct drm_vnpu_op_attrs *attrs)
{
	struct nn_ref tmp;
	int ret;

	if (out.dtype == cdt)
		return nn_task(ex, op, in, nin, &out, attrs);
	tmp = nn_ws(ex, cdt, out.rank, out.shape);
	ret = nn_task(ex, op, in, nin, &tmp, attrs);
	return ret ? ret : nn_task(ex, DRM_VNPU_OP_CAST, &tmp, 1, &out, NULL);
}

static struct {
	struct drm_vnpu_kernel_args h;
	struct drm_vnpu_tensor t[NN_MAX_TT];
	struct drm_vnpu_op_attrs a;
} __attribute__((aligned(8))) args_buf_proto;

/*
 * The profiler's tag of a launch function (its static name): type "Add"
 * for "aclnnAdd" (and "aclnnInplaceAdd"). Interned once per function and
 * then found here without a lock: keys are the name pointers.
 */
#define TAG_SLOTS 1024u
static struct {
	_Atomic(const char *) key;
	_Atomic uint32_t tag;
} tag_cache[TAG_SLOTS];

static uint32_t op_tag(const char *func)
{
	uint32_t h = (uint32_t)(((uintptr_t)func >> 3) * 2654435761u);

#ifdef VNPU_PROF_COMPILED_OUT
	return 0;	/* no tags: the launch path as it was before profiling */
#endif

	for (uint32_t n = 0; n < TAG_SLOTS; n++) {
		uint32_t i = (h + n) % TAG_SLOTS;
		const char *k = atomic_load(&tag_cache[i].key);
		const char *type = func;
		uint32_t t;

		if (k == func) {
			t = atomic_load(&tag_cache[i].tag);
			if (t)
				return t;
		} else if (k) {
			continue;
		}
		if (!strncmp(type, "aclnn", 5))
			type += 5;
		if (!strncmp(type, "Inplace", 7) && type[7])
			type += 7;
		t = prof_tag_intern(type, func, 0, PROF_TASK_AI_CORE, NULL);
		if (!k) {
			const char *expect = NULL;

			if (!atomic_compare_exchange_strong(&tag_cache[i].key,
							    &expect, func) &&
			    expect != func)
				continue;	/* another function took it */
		}
		atomic_store(&tag_cache[i].tag, t);
		return t;
	}
	return prof_tag_intern(func, func, 0, PROF_TASK_AI_CORE, NULL);
}

/*
 * ASCEND_LAUNCH_BLOCKING=1 (torch_npu's switch): wait for every operator
 * as it is launched, so a task that fails on the device is reported by
 * the launch that queued it rather than by a later, unrelated sync.
 */
static bool launch_blocking(void)
{
	static int on = -1;

	if (on < 0) {
		const char *v = getenv("ASCEND_LAUNCH_BLOCKING");

		on = v && v[0] == '1';
	}
	return on;
}

static aclnnStatus launch_wait(const char *func, aclOpExecutor *ex,
			       struct rt_stream *s)
{
	int ret;

	if (stream_check_not_capturing(s))
		return ACLNN_SUCCESS;	/* a capture runs later */
	ret = stream_sync(s, -1);
	if (!ret)
		return ACLNN_SUCCESS;
	return acl_fail_at(func, ACLNN_ERR_RUNTIME_ERROR,
			   "%s failed on the device: %s", ex->name,
			   s->err_msg[0] ? s->err_msg : "see the stream's error");
}

aclnnStatus nn_launch(const char *func, void *workspace, uint64_t ws_size,
		      aclOpExecutor *ex, aclrtStream stream)
{
	struct rt_stream *s;
	struct nn_dump *dump;
	aclnnStatus st = ACLNN_SUCCESS;
	uint32_t i, j, old_tag;
	int ret;

	if (!ex || ex->magic != EXEC_MAGIC)
		return acl_fail_at(func, ACLNN_ERR_INNER_NULLPTR,
				   "executor is NULL or not a live executor");
	if (ex->ws_size && (!workspace || ws_size < ex->ws_size)) {
		st = acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				 "the operator needs a workspace of %llu bytes (got %p, %llu)",
				 (unsigned long long)ex->ws_size, workspace,
				 (unsigned long long)ws_size);
		goto out;
	}
	for (i = 0; i < ex->nbind; i++)
		if (!ex->bind[i].addr) {
			st = acl_fail_at(func, ACLNN_ERR_PARAM_NULLPTR,
					 "tensor %u has no device address", i);
			goto out;
		}
	if (!runtime_initialized()) {
		st = acl_fail_at(func, ACLNN_ERR_RUNTIME_ERROR,
				 "call aclInit before launching operators");
		goto out;
	}
	ret = stream_resolve(stream, &s);
	if (ret) {
		st = acl_fail_at(func, ACLNN_ERR_RUNTIME_ERROR,
				 "stream %p is not usable in the current context (%d)",
				 stream, ret);
		goto out;
	}
	dump = nn_dump_begin(func, ex, s);
	old_tag = prof_tag_swap(op_tag(func));
	for (i = 0; i < ex->ntasks && !st; i++) {
		const struct nn_task *t = &ex->tasks[i];
		__typeof__(args_buf_proto) a;
		uint32_t n = t->nin + t->nout;
		size_t size = sizeof(a.h) + n * sizeof(a.t[0]);

		/* Only the bytes sent: zeroing all 16 tensors cost 2.5 KB. */
		memset(&a.h, 0, sizeof(a.h));
		a.h.num_inputs = t->nin;
		a.h.num_outputs = t->nout;
		for (j = 0; j < n; j++) {
			const struct nn_ref *r = &t->t[j];
			struct drm_vnpu_tensor *d = &a.t[j];

			memset(d, 0, sizeof(*d));	/* shape past rank: 0 */

			if (r->bind >= 0) {
				const struct nn_bind *b = &ex->bind[r->bind];

				d->va = (uint64_t)(uintptr_t)b->addr +
					(uint64_t)(b->offset + r->off) * b->esize;
			} else {
				d->va = (uint64_t)(uintptr_t)workspace + r->ws_off +
					(uint64_t)r->off * nn_dtype_size(r->dtype);
			}
			d->dtype = r->dtype;
			d->rank = r->rank;
			memcpy(d->shape, r->shape, r->rank * sizeof(int64_t));
			memcpy(d->strides, r->strides, r->rank * sizeof(int64_t));
		}
		if (t->has_attrs) {
			a.h.attr_size = sizeof(a.a);
			memcpy((char *)&a + size, &t->attrs, sizeof(t->attrs));
			size += sizeof(a.a);
		}
		ret = stream_push_kernel(s, t->op, &a, (uint32_t)size, NULL);
		if (ret)
			st = acl_fail_at(func, ACLNN_ERR_RUNTIME_ERROR,
					 "queueing task %u of %s failed (%d)",
					 i, ex->name, ret);
	}
	prof_tag_swap(old_tag);
	nn_dump_end(dump, ex, s, !st);
	if (!st && launch_blocking())
		st = launch_wait(func, ex, s);
out:
	if (!ex->repeatable)
		nn_exec_free(ex);
	return st;
}

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor)
{
	PROF_API();
	if (!executor || executor->magic != EXEC_MAGIC)
		return nn_fail(ACLNN_ERR_INNER_NULLPTR, "executor is NULL");
	executor->repeatable = true;
	return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor)
{
	PROF_API();
	if (!executor || executor->magic != EXEC_MAGIC)
		return nn_fail(ACLNN_ERR_INNER_NULLPTR, "executor is NULL");
	nn_exec_free(executor);
	return ACLNN_SUCCESS;
}

/* kind: 0 inputs, 1 outputs, 2 all (inputs then outputs). */
static aclnnStatus set_addr(const char *func, aclOpExecutor *ex, size_t index,
			    aclTensor *tensor, void *addr, int kind)
{
	size_t k = 0;
	uint32_t i;

	if (!ex || ex->magic != EXEC_MAGIC)
		return acl_fail_at(func, ACLNN_ERR_INNER_NULLPTR,
				   "executor is NULL");
	/* Binds are inputs first, then outputs. */
	for (i = 0; i < ex->nbind; i++) {
		if ((kind == 0 && ex->bind[i].output) ||
		    (kind == 1 && !ex->bind[i].output))
			continue;
		if (k++ == index)
			break;
	}
	if (i == ex->nbind)
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "index %zu is out of range", index);
	ex->bind[i].addr = addr;
	if (tensor)
		tensor->data = addr;
	return ACLNN_SUCCESS;
}

aclnnStatus aclSetInputTensorAddr(aclOpExecutor *executor, const size_t index,
				  aclTensor *tensor, void *addr)
{
	PROF_API();
	return set_addr(__func__, executor, index, tensor, addr, 0);
}

aclnnStatus aclSetOutputTensorAddr(aclOpExecutor *executor, const size_t index,
				   aclTensor *tensor, void *addr)
{
	PROF_API();
	return set_addr(__func__, executor, index, tensor, addr, 1);
}

aclnnStatus aclSetTensorAddr(aclOpExecutor *executor, const size_t index,
			     aclTensor *tensor, void *addr)
{
	PROF_API();
	return set_addr(__func__, executor, index, tensor, addr, 2);
}
