// SPDX-License-Identifier: MIT
/*
 * Native (host) speed of WQ_MATMUL against the FLOAT16 MATMUL of the same
 * shape, side by side: y[m, n] = x[m, k] @ W[k, n] with FLOAT16 x and y
 * and the weight stored as ggml stores it, [n][k] and seen transposed:
 * INT8 (Q8_0) or INT4 (Q4_0) with one FLOAT16 scale per 32 depth values,
 * against a FLOAT16 weight in the same layout. The figure is GFLOP/s
 * (2 m n k per call), the baseline the FLOAT16 matmul's, so the ratio
 * says what dequantising panels on the fly costs (or saves: the
 * quantised weight is 2x or 4x smaller to stream). m = 1 is a decode
 * step, m = 64 and 256 prefill. One engine, every piece in turn, best of
 * ROUNDS alternating rounds (as ops_bench).
 *
 * usage: ops_wqmm_bench [RESULTS.json]; OPS_BENCH_CPU overrides the
 * feature bits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vnpu_ops_impl.h"
#include "vnpu_ops_host.h"
#include "bench_json.h"

#define ROUNDS 5
#define ROUND_TIME 0.2
#define N_ 2048
#define K_ 2048
#define GS 32

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *scratch;

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

static double round_rate(const struct vnpu_op_call *c, double work)
{
	double t0 = now(), t;
	long reps = 0;

	do {
		run_call(c);
		reps++;
		t = now() - t0;
	} while (t < ROUND_TIME);
	return work * reps / t;
}

static void tv(struct vnpu_tview *v, void *data, u32 dtype, s64 d0, s64 d1,
	       s64 s0, s64 s1)
{
	memset(v, 0, sizeof(*v));
	v->data = data;
	v->dtype = dtype;
	v->rank = 2;
	v->shape[0] = d0;
	v->shape[1] = d1;
	v->strides[0] = s0;
	v->strides[1] = s1;
}

static u16 *f16v(size_t n, float scale)
{
	u16 *p = aligned_alloc(64, (n * 2 + 63) & ~(size_t)63);
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = vnpu_f32_to_f16(((float)rand() / RAND_MAX - 0.5f) * scale);
	return p;
}

static void bench(int m, unsigned int cpu)
{
	double flops = 2.0 * m * N_ * K_, wq[2] = { 0, 0 }, f16 = 0;
	u16 *x = f16v((size_t)m * K_, 1), *y = f16v((size_t)m * N_, 0);
	u16 *wf = f16v((size_t)N_ * K_, 0.1f), *sc = f16v((size_t)N_ * K_ / GS, 0.02f);
	s8 *wi = aligned_alloc(64, (size_t)N_ * K_);
	struct vnpu_op_call cw[2], cf;
	char name[96];
	size_t i;
	int r, p;

	for (i = 0; i < (size_t)N_ * K_; i++)
		wi[i] = (s8)(rand() % 256 - 128);
	memset(&cf, 0, sizeof(cf));
	cf.op = DRM_VNPU_OP_MATMUL;
	cf.num_in = 2;
	cf.num_out = 1;
	cf.scratch = scratch;
	cf.cpu = cpu;
	tv(&cf.t[0], x, DRM_VNPU_DTYPE_FLOAT16, m, K_, K_, 1);
	tv(&cf.t[1], wf, DRM_VNPU_DTYPE_FLOAT16, K_, N_, 1, K_);
	tv(&cf.t[2], y, DRM_VNPU_DTYPE_FLOAT16, m, N_, N_, 1);
	for (p = 0; p < 2; p++) {	/* 0: INT8, 1: INT4 (pairs along k) */
		memset(&cw[p], 0, sizeof(cw[p]));
		cw[p].op = DRM_VNPU_OP_WQ_MATMUL;
		cw[p].num_in = 3;
		cw[p].num_out = 1;
		cw[p].scratch = scratch;
		cw[p].cpu = cpu;
		cw[p].has_attrs = 1;
		cw[p].attrs.ints[0] = GS;
		cw[p].attrs.ints[1] = p;
		tv(&cw[p].t[0], x, DRM_VNPU_DTYPE_FLOAT16, m, K_, K_, 1);
		tv(&cw[p].t[1], wi, DRM_VNPU_DTYPE_INT8, p ? K_ / 2 : K_, N_, 1,
		   p ? K_ / 2 : K_);
		tv(&cw[p].t[2], sc, DRM_VNPU_DTYPE_FLOAT16, K_ / GS, N_, 1, K_ / GS);
		tv(&cw[p].t[3], y, DRM_VNPU_DTYPE_FLOAT16, m, N_, N_, 1);
		run_call(&cw[p]);	/* warm up */
	}
	run_call(&cf);
	for (r = 0; r < ROUNDS; r++) {
		double a;

		for (p = 0; p < 2; p++) {
			a = round_rate(&cw[p], flops);
			if (a > wq[p])
				wq[p] = a;
		}
		a = round_rate(&cf, flops);
		if (a > f16)
			f16 = a;
	}
	for (p = 0; p < 2; p++) {
		snprintf(name, sizeof(name), "wq_matmul_%s_g%d_m%d_n%d_k%d_vs_f16",
			 p ? "int4" : "int8", GS, m, N_, K_);
		bench_report(name, wq[p] * 1e-9, "GFLOP/s", f16 * 1e-9);
	}
	free(x);
	free(y);
	free(wf);
	free(sc);
	free(wi);
}

int main(int argc, char **argv)
{
	const char *out = argc > 1 ? argv[1] : NULL;
	unsigned int cpu;

	scratch = aligned_alloc(64, VNPU_OPS_SCRATCH);
	cpu = vnpu_ops_host_cpu();
	if (getenv("OPS_BENCH_CPU"))
		cpu = strtoul(getenv("OPS_BENCH_CPU"), NULL, 0);
	bench(1, cpu);
	bench(64, cpu);
	bench(256, cpu);
	if (out && bench_write_json(out)) {
		perror(out);
		return 1;
	}
	return 0;
}
