// SPDX-License-Identifier: MIT
/*
 * The single-operator data dump of aclnn launches (Documentation/dump.md):
 * with dump_op_switch on, a launch drains its stream and reads its input
 * tensors before its tasks are queued, then drains it again and reads the
 * outputs, and hands both to lib/dump as one operator. Synchronous on
 * purpose: the tensors are the user's memory and may change right after.
 * A stream being captured into a graph is not dumped (nothing runs yet).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn.h"
#include "../core/device_io.h"
#include "../core/rt_objects.h"
#include "../dump/dump.h"

struct nn_dump {
	const char *func;
	char type[64];
	uint32_t nt;
	struct dump_tensor t[DUMP_MAX_TENSORS];
	void *data[DUMP_MAX_TENSORS];
	bool data_on;			/* tensors are read (not args only) */
};

/* "aclnnInplaceAdd" -> "Add", as the profiler names them. */
static void op_type(char *out, size_t len, const char *func)
{
	const char *t = func;

	if (!strncmp(t, "aclnn", 5))
		t += 5;
	if (!strncmp(t, "Inplace", 7) && t[7])
		t += 7;
	snprintf(out, len, "%s", t);
}

/* Bind b's view as a dense host copy in *out; 0 or -errno. */
static int read_view(struct rt_device *dev, const struct nn_bind *b,
		     struct dump_tensor *d, void **out)
{
	const aclTensor *t = b->tensor;
	uint64_t esize = b->esize, span = 1, numel = 1;
	bool dense = true;
	int64_t expect = 1;
	uint8_t *raw, *dst;
	uint64_t va;

	for (uint32_t i = 0; i < t->ndim; i++)
		numel *= (uint64_t)t->dims[i];
	for (uint32_t i = t->ndim; i-- > 0;) {
		if (t->dims[i] > 1 && t->strides[i] != expect)
			dense = false;
		expect *= t->dims[i];
		if (t->dims[i] > 0)
			span += (uint64_t)(t->dims[i] - 1) * (uint64_t)t->strides[i];
	}
	d->bytes = numel * esize;
	*out = NULL;
	if (!numel || !esize)
		return 0;
	if (dense)
		span = numel;
	raw = malloc(span * esize);
	if (!raw)
		return -ENOMEM;
	va = copy_side_va(dev, (const uint8_t *)b->addr + b->offset * esize,
			  span * esize);
	if (!va || device_copy(dev, (uintptr_t)raw, va, span * esize,
			       DRM_VNPU_MEMCPY_SRC_DEVICE)) {
		free(raw);
		return -EFAULT;
	}
	if (dense) {
		*out = raw;
		return 0;
	}
	dst = malloc(d->bytes);
	if (dst)
		dump_gather(dst, raw, (uint32_t)esize, (uint32_t)t->ndim, t->dims,
			    t->strides);
	free(raw);
	*out = dst;
	return dst ? 0 : -ENOMEM;
}

/* Read the binds of one side (inputs or outputs) into d. */
static int read_side(struct nn_dump *d, const aclOpExecutor *ex,
		     struct rt_stream *s, bool output)
{
	uint32_t index = 0;
	int ret = d->data_on ? stream_sync(s, -1) : 0;

	for (uint32_t i = 0; !ret && i < ex->nbind; i++) {
		const struct nn_bind *b = &ex->bind[i];
		struct dump_tensor *t;

		if (b->output != output)
			continue;
		if (d->nt == DUMP_MAX_TENSORS)
			break;
		t = &d->t[d->nt];
		memset(t, 0, sizeof(*t));
		t->output = output;
		t->index = index++;
		t->dtype = (uint32_t)b->tensor->dtype;
		t->format = (uint32_t)b->tensor->format;
		t->rank = (uint32_t)b->tensor->ndim;
		memcpy(t->dims, b->tensor->dims, t->rank * sizeof(int64_t));
		if (d->data_on)
			ret = read_view(s->ctx->dev, b, t, &d->data[d->nt]);
		t->data = d->data[d->nt];
		d->nt++;
	}
	return ret;
}

static void dump_free(struct nn_dump *d)
{
	for (uint32_t i = 0; i < d->nt; i++)
		free(d->data[i]);
	free(d);
}

struct nn_dump *nn_dump_begin(const char *func, const aclOpExecutor *ex,
			      struct rt_stream *s)
{
	bool data = dump_op_wanted(), args = dump_args_on();
	struct nn_dump *d;

	if ((!data && !args) || s->graph)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->func = func;
	d->data_on = data;
	op_type(d->type, sizeof(d->type), func);
	/* Inputs before the operator runs (an in-place one overwrites). */
	if ((!data || (dump_op_mode() & DUMP_INPUT)) && read_side(d, ex, s, false)) {
		dump_free(d);
		return NULL;
	}
	return d;
}

void nn_dump_end(struct nn_dump *d, const aclOpExecutor *ex,
		 struct rt_stream *s, bool ok)
{
	static _Atomic uint32_t seq;
	struct dump_where w = { 0 };

	if (!d)
		return;
	if (ok && (!d->data_on || (dump_op_mode() & DUMP_OUTPUT)))
		ok = !read_side(d, ex, s, true);
	if (ok && dump_args_on())
		dump_args_record(d->type, d->t, d->nt);
	if (ok && d->data_on) {
		w.device = s->ctx->dev->id;
		w.stream = s->queue_id;
		w.task = seq++;
		(void)dump_write_op(&w, d->type, d->func, d->t, d->nt);
	}
	dump_free(d);
}
