// SPDX-License-Identifier: MIT
/*
 * The single-operator data dump of aclop executions (Documentation/dump.md),
 * as nn_dump.c does it for aclnn: with dump_op_switch on, drain the stream
 * and read the inputs before the op's model runs, drain it again and read
 * the outputs after, then hand both to lib/dump. Shapes, dtypes and
 * formats are the single-op model's (its key fixed them).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../core/device_io.h"
#include "../dump/dump.h"
#include "../mdl/model.h"
#include "op.h"

struct op_dump {
	char type[64];
	uint32_t nt;
	struct dump_tensor t[DUMP_MAX_TENSORS];
	void *data[DUMP_MAX_TENSORS];
};

/* Read n buffers at va[] (io records first..) as one side into d. */
static int read_side(struct op_dump *d, struct mdl_model *m, struct rt_stream *s,
		     const uint64_t *va, uint32_t first, uint32_t n, bool output)
{
	int ret = stream_sync(s, -1);

	for (uint32_t i = 0; !ret && i < n && d->nt < DUMP_MAX_TENSORS; i++) {
		const struct mdl_io *io = &m->io[first + i];
		struct dump_tensor *t = &d->t[d->nt];
		uint64_t bytes = m->var[0].io_size[first + i];

		memset(t, 0, sizeof(*t));
		t->output = output;
		t->index = i;
		t->dtype = io->dtype;
		t->format = io->format;
		t->rank = io->rank;
		memcpy(t->dims, io->dims, io->rank * sizeof(int64_t));
		t->bytes = bytes;
		d->data[d->nt] = malloc(bytes ? bytes : 1);
		if (!d->data[d->nt])
			return -ENOMEM;
		if (bytes)
			ret = device_copy(m->dev, (uintptr_t)d->data[d->nt], va[i], bytes,
					  DRM_VNPU_MEMCPY_SRC_DEVICE);
		t->data = d->data[d->nt++];
	}
	return ret;
}

static void dump_free(struct op_dump *d)
{
	for (uint32_t i = 0; i < d->nt; i++)
		free(d->data[i]);
	free(d);
}

struct op_dump *op_dump_begin(const char *key, struct mdl_model *m,
			      struct rt_stream *s, const uint64_t *in_va)
{
	struct op_dump *d;
	size_t n = strcspn(key, "|");

	if (!dump_op_wanted() || s->graph)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	if (n >= sizeof(d->type))
		n = sizeof(d->type) - 1;
	memcpy(d->type, key, n);
	if ((dump_op_mode() & DUMP_INPUT) &&
	    read_side(d, m, s, in_va, 0, m->nin, false)) {
		dump_free(d);
		return NULL;
	}
	return d;
}

void op_dump_end(struct op_dump *d, const char *func, struct mdl_model *m,
		 struct rt_stream *s, const uint64_t *out_va, bool ok)
{
	static _Atomic uint32_t seq;
	struct dump_where w = { 0 };

	if (!d)
		return;
	if (ok && (dump_op_mode() & DUMP_OUTPUT))
		ok = !read_side(d, m, s, out_va, m->nin, m->nout, true);
	if (ok) {
		w.device = m->dev->id;
		w.stream = s->queue_id;
		w.task = seq++;
		(void)dump_write_op(&w, d->type, func, d->t, d->nt);
	}
	dump_free(d);
}
