// SPDX-License-Identifier: MIT
/*
 * Native (host) speed of the operator library's fused FLASH_ATTN against
 * the composed path an unfused runtime takes: MATMUL (q kᵀ), SOFTMAX over
 * the keys, MATMUL (p v), with the scores materialised in between. fp32,
 * multi-head (N = Nkv), q pre-scaled on both sides; a prefill shape
 * (Sq = Skv = 256, 8 heads of 64) and a decode one (Sq = 1, Skv = 2048,
 * 32 heads of 128). Figures are query rows per second, best of several
 * rounds, the two paths alternating; the baseline is the composed path.
 *
 * usage: ops_attn_bench [RESULTS.json]; OPS_BENCH_CPU overrides the
 * VNPU_CPU_* bits both paths run with (13: AVX2 + FMA, no AVX-512).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vnpu_ops.h"
#include "vnpu_ops_host.h"
#include "bench_json.h"

#define ROUNDS 5
#define ROUND_TIME 0.2

static void *scratch;
static unsigned int host_cpu;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void view(struct vnpu_tview *v, void *data, u32 rank, const s64 *shape)
{
	s64 stride = 1;
	int d;

	memset(v, 0, sizeof(*v));
	v->data = data;
	v->dtype = DRM_VNPU_DTYPE_FLOAT;
	v->rank = rank;
	for (d = (int)rank - 1; d >= 0; d--) {
		v->shape[d] = shape[d];
		v->strides[d] = stride;
		stride *= shape[d];
	}
}

static void run_call(const struct vnpu_op_call *c)
{
	const struct vnpu_op_impl *impl = vnpu_op_find(c->op);
	u64 tiles, i;

	if (!impl || vnpu_op_check(impl, c)) {
		fprintf(stderr, "op %u: check failed\n", c->op);
		exit(1);
	}
	tiles = impl->tiles(c);
	for (i = 0; i < tiles; i++)
		impl->run(c, i);
}

static float *randv(size_t n)
{
	float *p = aligned_alloc(64, (n * sizeof(float) + 63) & ~(size_t)63);
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (float)rand() / RAND_MAX - 0.5f;
	return p;
}

struct attn {
	struct vnpu_op_call fused, qk, sm, pv;
};

static void fused(void *p)
{
	run_call(&((struct attn *)p)->fused);
}

static void composed(void *p)
{
	struct attn *a = p;

	run_call(&a->qk);
	run_call(&a->sm);
	run_call(&a->pv);
}

static double round_rate(void (*fn)(void *), void *arg, double work)
{
	double t0 = now(), t;
	long reps = 0;

	do {
		fn(arg);
		reps++;
		t = now() - t0;
	} while (t < ROUND_TIME);
	return work * reps / t;
}

static void call(struct vnpu_op_call *c, u32 op, u32 nin)
{
	c->op = op;
	c->num_in = nin;
	c->num_out = 1;
	c->scratch = scratch;
	c->cpu = host_cpu;
}

static void bench(const char *name, s64 n, s64 sq, s64 skv, s64 d)
{
	s64 qs[4] = { 1, n, sq, d }, ks[4] = { 1, n, skv, d }, ss[3] = { n, sq, skv };
	s64 q3[3] = { n, sq, d }, k3[3] = { n, skv, d };
	float *q = randv(n * sq * d), *k = randv(n * skv * d), *v = randv(n * skv * d);
	float *o1 = randv(n * sq * d), *o2 = randv(n * sq * d), *s = randv(n * sq * skv);
	float *p = randv(n * sq * skv), scale = 1.0f;
	struct attn *a = calloc(1, sizeof(*a));
	double rf = 0, rc = 0, err = 0;
	s64 i;
	int r;

	call(&a->fused, DRM_VNPU_OP_FLASH_ATTN, 3);
	view(&a->fused.t[0], q, 4, qs);
	view(&a->fused.t[1], k, 4, ks);
	view(&a->fused.t[2], v, 4, ks);
	view(&a->fused.t[3], o1, 4, qs);
	a->fused.has_attrs = 1;
	memcpy(&a->fused.attrs.floats[0], &scale, 4);

	call(&a->qk, DRM_VNPU_OP_MATMUL, 2);
	view(&a->qk.t[0], q, 3, q3);
	view(&a->qk.t[1], k, 3, k3);
	view(&a->qk.t[2], s, 3, ss);
	a->qk.has_attrs = 1;
	a->qk.attrs.ints[1] = 1;	/* kᵀ */
	call(&a->sm, DRM_VNPU_OP_SOFTMAX, 1);
	view(&a->sm.t[0], s, 3, ss);
	view(&a->sm.t[1], p, 3, ss);
	a->sm.has_attrs = 1;
	a->sm.attrs.ints[0] = 2;
	call(&a->pv, DRM_VNPU_OP_MATMUL, 2);
	view(&a->pv.t[0], p, 3, ss);
	view(&a->pv.t[1], v, 3, k3);
	view(&a->pv.t[2], o2, 3, q3);

	fused(a);
	composed(a);
	for (i = 0; i < n * sq * d; i++) {
		double e = o1[i] - o2[i];

		err = e * e > err ? e * e : err;
	}
	if (err > 1e-8) {
		fprintf(stderr, "%s: fused and composed differ (%g)\n", name, err);
		exit(1);
	}
	for (r = 0; r < ROUNDS; r++) {
		double x = round_rate(fused, a, (double)(n * sq));
		double y = round_rate(composed, a, (double)(n * sq));

		rf = x > rf ? x : rf;
		rc = y > rc ? y : rc;
	}
	bench_report(name, rf, "rows/s", rc);
	free(q);
	free(k);
	free(v);
	free(o1);
	free(o2);
	free(s);
	free(p);
	free(a);
}

int main(int argc, char **argv)
{
	const char *out = argc > 1 ? argv[1] : NULL;

	scratch = aligned_alloc(64, VNPU_OPS_SCRATCH);
	host_cpu = vnpu_ops_host_cpu();
	if (getenv("OPS_BENCH_CPU"))
		host_cpu = strtoul(getenv("OPS_BENCH_CPU"), NULL, 0);
	bench("flash_attn_prefill_256x256_h8_d64", 8, 256, 256, 64);
	bench("flash_attn_decode_1x2048_h32_d128", 32, 1, 2048, 128);
	if (out && bench_write_json(out)) {
		perror(out);
		return 1;
	}
	return 0;
}
