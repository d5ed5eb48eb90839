// SPDX-License-Identifier: MIT
/*
 * Streaming operators of the operator library against memcpy, natively on
 * the host, side by side in one run: fp32 ADD over 64 MiB and SOFTMAX over
 * 1 Mi elements, as bandwidth (bytes read + written per second) relative to
 * memcpy's bandwidth on buffers of the same size. Operators run through
 * the same check/tiles/run path the module uses, on one thread.
 *
 * usage: ops_stream_bench [RESULTS.json]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vnpu_ops_impl.h"
#include "vnpu_ops_host.h"
#include "bench_json.h"

#define ROUNDS 7

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void view1d(struct vnpu_tview *v, void *data, s64 n)
{
	memset(v, 0, sizeof(*v));
	v->data = data;
	v->dtype = DRM_VNPU_DTYPE_FLOAT;
	v->rank = 1;
	v->shape[0] = n;
	v->strides[0] = 1;
}

/* Seconds for one call of @op over the tensors already in @c. */
static double time_op(struct vnpu_op_call *c)
{
	const struct vnpu_op_impl *impl = vnpu_op_find(c->op);
	double t0;
	u64 n, i;

	if (!impl || impl->check(c)) {
		fprintf(stderr, "operator %u unavailable or rejected\n", c->op);
		exit(1);
	}
	n = impl->tiles(c);
	t0 = now();
	for (i = 0; i < n; i++)
		impl->run(c, i);
	return now() - t0;
}

static double time_memcpy(void *dst, const void *src, size_t bytes)
{
	double t0 = now();

	memcpy(dst, src, bytes);
	return now() - t0;
}

int main(int argc, char **argv)
{
	const s64 add_n = (64 << 20) / 4, sm_n = 1 << 20;
	struct vnpu_op_call *c = calloc(1, sizeof(*c));
	float *a = aligned_alloc(64, add_n * 4), *b = aligned_alloc(64, add_n * 4);
	float *o = aligned_alloc(64, add_n * 4);
	double best_op = 1e9, best_cp = 1e9, t, op_bw, cp_bw;
	s64 i;
	int r;

	if (!c || !a || !b || !o)
		return 1;
	c->scratch = aligned_alloc(64, VNPU_OPS_SCRATCH);
	c->cpu = vnpu_ops_host_cpu();
	for (i = 0; i < add_n; i++) {
		a[i] = (float)(i % 1000) * 0.5f;
		b[i] = (float)(i % 777) * 0.25f;
		o[i] = 0;
	}

	/* ADD: 64 MiB out, two 64 MiB inputs; memcpy of 64 MiB alongside. */
	c->op = DRM_VNPU_OP_ADD;
	c->num_in = 2;
	c->num_out = 1;
	view1d(&c->t[0], a, add_n);
	view1d(&c->t[1], b, add_n);
	view1d(&c->t[2], o, add_n);
	for (r = 0; r < ROUNDS; r++) {
		t = time_op(c);
		best_op = t < best_op ? t : best_op;
		t = time_memcpy(o, a, add_n * 4);
		best_cp = t < best_cp ? t : best_cp;
	}
	op_bw = 3.0 * add_n * 4 / best_op / (1 << 20);
	cp_bw = 2.0 * add_n * 4 / best_cp / (1 << 20);
	bench_report("op_add_f32_64MiB", op_bw, "MiB/s", cp_bw);

	/* SOFTMAX over 1 Mi elements (one row), against memcpy of 4 MiB. */
	best_op = best_cp = 1e9;
	c->op = DRM_VNPU_OP_SOFTMAX;
	c->num_in = 1;
	c->num_out = 1;
	c->has_attrs = 1;
	memset(&c->attrs, 0, sizeof(c->attrs));
	view1d(&c->t[0], a, sm_n);
	view1d(&c->t[1], o, sm_n);
	for (r = 0; r < ROUNDS; r++) {
		t = time_op(c);
		best_op = t < best_op ? t : best_op;
		t = time_memcpy(o, a, sm_n * 4);
		best_cp = t < best_cp ? t : best_cp;
	}
	op_bw = 2.0 * sm_n * 4 / best_op / (1 << 20);
	cp_bw = 2.0 * sm_n * 4 / best_cp / (1 << 20);
	bench_report("op_softmax_f32_1Mi", op_bw, "MiB/s", cp_bw);

	if (argc > 1 && bench_write_json(argv[1]))
		return 1;
	return 0;
}
