// SPDX-License-Identifier: MIT
/*
 * Native (host) speed of the operator library's GEMM engine against
 * single-threaded OpenBLAS, side by side: fp32 GEMM at n = 256, 512, 1024
 * (GFLOP/s), and a ResNet-style 3x3 convolution (N=1, 64 -> 64 channels,
 * 56x56, pad 1) against im2col + cblas_sgemm. The library runs through
 * check/tiles/run exactly as the module does (every tile in turn, one
 * engine). Every figure is the best of several rounds, ours and
 * OpenBLAS's taken in alternate rounds so that both see the same machine.
 * The GEMM and the convolution run twice: with the kernels this CPU picks
 * (AVX-512 where present) and forced to the AVX2 kernels ("_avx2"
 * figures), against the same OpenBLAS. OPS_BENCH_CPU overrides the
 * feature bits of the first run (e.g. 1 for AVX2 only).
 *
 * usage: ops_bench [RESULTS.json]
 * build: gcc -O2 -std=gnu11 -Itools/ops-host -Ikernel/ops -Iinclude
 *        -I/usr/include/libdrm -o build/ops_bench tests/bench/ops_bench.c
 *        build/ops/libvnpuops.a -lopenblas -lm
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cblas.h>

#include "vnpu_ops.h"
#include "vnpu_ops_host.h"
#include "bench_json.h"

#define ROUNDS 7
/* Seconds each round lasts at least. */
#define ROUND_TIME 0.2

/*
 * The calling thread's CPU time: everything measured runs on this one
 * thread (OpenBLAS with one thread too), and on a shared machine the time
 * other processes hold the CPU would otherwise count against whichever
 * side was unlucky.
 */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *scratch;
static unsigned int host_cpu;

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

/* check, tiles, then every tile: what an engine does with one call. */
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

/* Rate (work units per second) of one round of fn. */
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

/*
 * Best rates of fa and fb over ROUNDS rounds each, alternating, into
 * *ra and *rb.
 */
static void best_rates(void (*fa)(void *), void (*fb)(void *), void *arg,
		       double work, double *ra, double *rb)
{
	int r;

	*ra = *rb = 0;
	fa(arg);		/* warm up */
	fb(arg);
	for (r = 0; r < ROUNDS; r++) {
		double a = round_rate(fa, arg, work);
		double b = round_rate(fb, arg, work);

		if (a > *ra)
			*ra = a;
		if (b > *rb)
			*rb = b;
	}
}

static float *randv(size_t n)
{
	float *p = aligned_alloc(64, (n * sizeof(float) + 63) & ~(size_t)63);
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (float)rand() / RAND_MAX - 0.5f;
	return p;
}

struct gemm_arg {
	int n;
	float *a, *b, *c;
	struct vnpu_op_call call;
};

static void gemm_ours(void *p)
{
	run_call(&((struct gemm_arg *)p)->call);
}

static void gemm_blas(void *p)
{
	struct gemm_arg *g = p;

	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, g->n, g->n, g->n,
		    1.0f, g->a, g->n, g->b, g->n, 0.0f, g->c, g->n);
}

static void bench_gemm(int n, unsigned int cpu, const char *tag)
{
	struct gemm_arg g;
	s64 shape[2] = { n, n };
	double flops = 2.0 * n * n * n, ours, blas, err = 0;
	float *ref;
	size_t i;
	char name[96];

	g.n = n;
	g.a = randv((size_t)n * n);
	g.b = randv((size_t)n * n);
	g.c = randv((size_t)n * n);
	ref = randv((size_t)n * n);
	memset(&g.call, 0, sizeof(g.call));
	g.call.op = DRM_VNPU_OP_MATMUL;
	g.call.num_in = 2;
	g.call.num_out = 1;
	g.call.scratch = scratch;
	g.call.cpu = cpu;
	view(&g.call.t[0], g.a, 2, shape);
	view(&g.call.t[1], g.b, 2, shape);
	view(&g.call.t[2], g.c, 2, shape);

	gemm_ours(&g);
	memcpy(ref, g.c, (size_t)n * n * sizeof(float));
	gemm_blas(&g);
	for (i = 0; i < (size_t)n * n; i++) {
		double d = ref[i] - g.c[i];

		if ((d < 0 ? -d : d) > err)
			err = d < 0 ? -d : d;
	}
	best_rates(gemm_ours, gemm_blas, &g, flops, &ours, &blas);
	ours *= 1e-9;
	blas *= 1e-9;
	snprintf(name, sizeof(name), "gemm_f32_n%d%s", n, tag);
	bench_report(name, ours, "GFLOP/s", blas);
	if (err > 1e-3)
		fprintf(stderr, "gemm n=%d: max difference %g from OpenBLAS\n",
			n, err);
	free(g.a);
	free(g.b);
	free(g.c);
	free(ref);
}

/* The 3x3 convolution: ours through CONV2D, baseline im2col + sgemm. */
#define CV_C 64
#define CV_HW 56
#define CV_K 3

struct conv_arg {
	float *x, *w, *bias, *y, *col;
	struct vnpu_op_call call;
};

static void conv_ours(void *p)
{
	run_call(&((struct conv_arg *)p)->call);
}

static void conv_blas(void *p)
{
	struct conv_arg *cv = p;
	int ci, kh, kw, oh, ow, co;

	/* im2col: rows (ci, kh, kw), columns (oh, ow), pad 1, stride 1. */
	for (ci = 0; ci < CV_C; ci++)
		for (kh = 0; kh < CV_K; kh++)
			for (kw = 0; kw < CV_K; kw++) {
				float *row = cv->col + ((ci * CV_K + kh) * CV_K + kw) *
					     CV_HW * CV_HW;

				for (oh = 0; oh < CV_HW; oh++) {
					int ih = oh + kh - 1;

					for (ow = 0; ow < CV_HW; ow++) {
						int iw = ow + kw - 1;

						row[oh * CV_HW + ow] =
							ih < 0 || ih >= CV_HW || iw < 0 ||
							iw >= CV_HW ? 0 :
							cv->x[(ci * CV_HW + ih) * CV_HW + iw];
					}
				}
			}
	for (co = 0; co < CV_C; co++)
		for (oh = 0; oh < CV_HW * CV_HW; oh++)
			cv->y[co * CV_HW * CV_HW + oh] = cv->bias[co];
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, CV_C,
		    CV_HW * CV_HW, CV_C * CV_K * CV_K, 1.0f, cv->w,
		    CV_C * CV_K * CV_K, cv->col, CV_HW * CV_HW, 1.0f, cv->y,
		    CV_HW * CV_HW);
}

static void bench_conv(unsigned int cpu, const char *tag)
{
	s64 xs[4] = { 1, CV_C, CV_HW, CV_HW }, ws[4] = { CV_C, CV_C, CV_K, CV_K };
	s64 bs[1] = { CV_C };
	double flops = 2.0 * CV_C * CV_C * CV_K * CV_K * CV_HW * CV_HW;
	double ours, blas, err = 0;
	char name[96];
	struct conv_arg cv;
	size_t i, ny = (size_t)CV_C * CV_HW * CV_HW;
	float *ref;
	int d;

	cv.x = randv(ny);
	cv.w = randv((size_t)CV_C * CV_C * CV_K * CV_K);
	cv.bias = randv(CV_C);
	cv.y = randv(ny);
	ref = randv(ny);
	cv.col = randv((size_t)CV_C * CV_K * CV_K * CV_HW * CV_HW);
	memset(&cv.call, 0, sizeof(cv.call));
	cv.call.op = DRM_VNPU_OP_CONV2D;
	cv.call.num_in = 3;
	cv.call.num_out = 1;
	cv.call.scratch = scratch;
	cv.call.cpu = cpu;
	cv.call.has_attrs = 1;
	for (d = 0; d < 2; d++) {
		cv.call.attrs.ints[d] = 1;		/* stride */
		cv.call.attrs.ints[6 + d] = 1;		/* dilation */
	}
	for (d = 2; d < 6; d++)
		cv.call.attrs.ints[d] = 1;		/* pads */
	cv.call.attrs.ints[8] = 1;			/* groups */
	view(&cv.call.t[0], cv.x, 4, xs);
	view(&cv.call.t[1], cv.w, 4, ws);
	view(&cv.call.t[2], cv.bias, 1, bs);
	view(&cv.call.t[3], cv.y, 4, xs);

	conv_ours(&cv);
	memcpy(ref, cv.y, ny * sizeof(float));
	conv_blas(&cv);
	for (i = 0; i < ny; i++) {
		double e = ref[i] - cv.y[i];

		if ((e < 0 ? -e : e) > err)
			err = e < 0 ? -e : e;
	}
	if (err > 1e-3)
		fprintf(stderr, "conv: max difference %g from im2col+sgemm\n",
			err);
	best_rates(conv_ours, conv_blas, &cv, flops, &ours, &blas);
	snprintf(name, sizeof(name), "conv3x3_f32_64c_56x56%s", tag);
	bench_report(name, ours * 1e-9, "GFLOP/s", blas * 1e-9);
	free(cv.x);
	free(cv.w);
	free(cv.bias);
	free(cv.y);
	free(cv.col);
	free(ref);
}

int main(int argc, char **argv)
{
	const char *out = argc > 1 ? argv[1] : NULL;
	const char *only = getenv("OPS_BENCH_ONLY");
	int v;

	setenv("OPENBLAS_NUM_THREADS", "1", 1);
	openblas_set_num_threads(1);
	scratch = aligned_alloc(64, VNPU_OPS_SCRATCH);
	host_cpu = vnpu_ops_host_cpu();
	if (getenv("OPS_BENCH_CPU"))
		host_cpu = strtoul(getenv("OPS_BENCH_CPU"), NULL, 0);
	/* The kernels picked for this CPU, then the AVX2 ones if it has both. */
	for (v = 0; v < 2; v++) {
		unsigned int cpu = v ? VNPU_CPU_AVX2_FMA | (host_cpu & VNPU_CPU_F16C) :
			host_cpu;
		const char *tag = v ? "_avx2" : "";

		if (v && (!(host_cpu & VNPU_CPU_AVX512) ||
			  !(host_cpu & VNPU_CPU_AVX2_FMA)))
			break;
		if (!only || strstr(only, "gemm")) {
			bench_gemm(256, cpu, tag);
			bench_gemm(512, cpu, tag);
			bench_gemm(1024, cpu, tag);
		}
		if (!only || strstr(only, "conv"))
			bench_conv(cpu, tag);
	}
	if (out && bench_write_json(out)) {
		perror(out);
		return 1;
	}
	return 0;
}
