// SPDX-License-Identifier: MIT
/*
 * Streaming operators of the operator library against memcpy, natively on
 * the host, side by side in one run: fp32 ADD over 64 MiB and SOFTMAX over
 * 1 Mi elements, as bandwidth (bytes read + written per second) relative to
 * memcpy's bandwidth on buffers of the same size. Operators run through
 * the same check/tiles/run path the module uses, on one thread.
 *
 * Then the long rows the operators split into chunks (Documentation/ops.md,
 * "Long rows split across engines"): one 1 Mi-element row of SOFTMAX,
 * LOG_SOFTMAX, LAYER_NORM, RMS_NORM, and REDUCE_SUM, REDUCE_MAX and ARGMAX
 * to one value, each on one engine and on as many host threads standing
 * in for engines as the machine has CPUs (at most 4; VNPU_BENCH_ENGINES
 * overrides), interleaved with a memcpy of the row's bytes (in cache),
 * median of ROUNDS_SPLIT rounds of REPS calls.
 *
 * Last SORT and TOPK (k = 100, largest) of one 1 Mi-element fp32 row, split
 * into chunks, on one engine and on the host threads, interleaved with
 * libc's qsort of the row's (value, index) pairs, as elements per second
 * against the qsort's (ratio > 1: faster than qsort).
 *
 * usage: ops_stream_bench [RESULTS.json]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <unistd.h>

#include "vnpu_ops_impl.h"
#include "vnpu_ops_host.h"
#include "vnpu_ops_engines.h"
#include "bench_json.h"

#define ROUNDS 7
#define ROUNDS_SPLIT 9
#define REPS 8

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

	if (!impl || vnpu_op_check(impl, c)) {
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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/* A row element for qsort: ascending value (NaN last), then index. */
struct qs_elem {
	float v;
	u32 i;
};

static int qs_cmp(const void *pa, const void *pb)
{
	const struct qs_elem *a = pa, *b = pb;

	if (a->v != b->v && !(a->v != a->v && b->v != b->v)) {
		if (a->v != a->v)
			return 1;
		if (b->v != b->v)
			return -1;
		return a->v < b->v ? -1 : 1;
	}
	return a->i < b->i ? -1 : a->i > b->i;
}

/* qsort of @n elements of @x (the baseline), into @tmp. */
static void qsort_row(const float *x, struct qs_elem *tmp, s64 n)
{
	s64 i;

	for (i = 0; i < n; i++) {
		tmp[i].v = x[i];
		tmp[i].i = (u32)i;
	}
	qsort(tmp, n, sizeof(*tmp), qs_cmp);
}

/* The baseline a split call is measured against, one call of it. */
struct split_base {
	void (*run)(const struct split_base *b);
	void *dst;
	const void *src;
	size_t bytes;		/* memcpy */
	struct qs_elem *tmp;
	s64 n;			/* qsort of n floats at src into tmp */
};

/*
 * ROUNDS_SPLIT rounds, each timing @reps calls of the baseline, of every
 * piece of @c in order on one engine, and of @c on @e's engines, in turn:
 * seconds per call in @base, @one and @many. Returns the phases; *pieces
 * how many pieces the call has.
 */
static u32 time_split(const char *name, struct vnpu_op_call *c,
		      struct vnpu_host_engines *e, int reps,
		      const struct split_base *b, double *base, double *one,
		      double *many, u64 *pieces)
{
	const struct vnpu_op_impl *impl = vnpu_op_find(c->op);
	u64 ends[VNPU_OPS_MAX_PHASES], i;
	double t0;
	int r, k;
	u32 nph;

	if (!impl || vnpu_op_check(impl, c)) {
		fprintf(stderr, "%s: rejected\n", name);
		exit(1);
	}
	nph = vnpu_op_phases(impl, c, ends);
	*pieces = ends[nph - 1];
	for (r = 0; r < ROUNDS_SPLIT; r++) {
		t0 = now();
		for (k = 0; k < reps; k++)
			b->run(b);
		base[r] = (now() - t0) / reps;
		t0 = now();
		for (k = 0; k < reps; k++)
			for (i = 0; i < *pieces; i++)
				impl->run(c, i);
		one[r] = (now() - t0) / reps;
		t0 = now();
		for (k = 0; k < reps; k++)
			vnpu_host_engines_run(e, c);
		many[r] = (now() - t0) / reps;
	}
	return nph;
}

static void base_memcpy(const struct split_base *b)
{
	memcpy(b->dst, b->src, b->bytes);
}

/*
 * Figures for one split call already in @c: @bytes moved (read + written)
 * per call, against a memcpy of @cp_bytes (moving 2 * @cp_bytes), on one
 * engine and on @e's. Each round times REPS calls of each, interleaved.
 */
static void bench_split(const char *name, struct vnpu_op_call *c,
			struct vnpu_host_engines *e, double bytes,
			size_t cp_bytes, void *cp_dst, const void *cp_src)
{
	struct split_base b = { .run = base_memcpy, .dst = cp_dst,
				.src = cp_src, .bytes = cp_bytes };
	double one[ROUNDS_SPLIT], many[ROUNDS_SPLIT], cp[ROUNDS_SPLIT];
	double m_one, m_many, m_cp;
	char fig[96];
	u64 n;
	u32 nph;

	nph = time_split(name, c, e, REPS, &b, cp, one, many, &n);
	/* median() sorts the rounds: the best are then the first. */
	m_one = median(one, ROUNDS_SPLIT);
	m_many = median(many, ROUNDS_SPLIT);
	m_cp = median(cp, ROUNDS_SPLIT);
	printf("# %s: %u phases, %llu pieces; %.1f us on 1 engine, %.1f us on %u, memcpy %.1f us (best rounds %.1f, %.1f, %.1f us)\n",
	       name, nph, (unsigned long long)n, m_one * 1e6, m_many * 1e6,
	       e->n, m_cp * 1e6, one[0] * 1e6, many[0] * 1e6, cp[0] * 1e6);
	snprintf(fig, sizeof(fig), "%s_1engine", name);
	bench_report(fig, bytes / m_one / (1 << 20), "MiB/s",
		     2.0 * cp_bytes / m_cp / (1 << 20));
	snprintf(fig, sizeof(fig), "%s_%uengines", name, e->n);
	bench_report(fig, bytes / m_many / (1 << 20), "MiB/s",
		     2.0 * cp_bytes / m_cp / (1 << 20));
}


static void base_qsort(const struct split_base *b)
{
	qsort_row(b->src, b->tmp, b->n);
}

/*
 * A split SORT or TOPK already in @c over an @n-element row of @x: one
 * engine, @e's engines and a qsort of the row, interleaved, REPS_SORT calls
 * a round; elements per second against qsort's.
 */
#define REPS_SORT 2
static void bench_sort(const char *name, struct vnpu_op_call *c,
		       struct vnpu_host_engines *e, const float *x, s64 n,
		       struct qs_elem *tmp)
{
	struct split_base b = { .run = base_qsort, .src = x, .tmp = tmp,
				.n = n };
	double one[ROUNDS_SPLIT], many[ROUNDS_SPLIT], qs[ROUNDS_SPLIT];
	char fig[96];
	u64 pieces;
	u32 nph;

	nph = time_split(name, c, e, REPS_SORT, &b, qs, one, many, &pieces);
	printf("# %s: %u phases, %llu pieces; %.0f us on 1 engine, %.0f us on %u, qsort %.0f us; vs qsort %.2f (1), %.2f (%u); %u vs 1 engine %.2f\n",
	       name, nph, (unsigned long long)pieces,
	       median(one, ROUNDS_SPLIT) * 1e6, median(many, ROUNDS_SPLIT) * 1e6,
	       e->n, median(qs, ROUNDS_SPLIT) * 1e6,
	       median(qs, ROUNDS_SPLIT) / median(one, ROUNDS_SPLIT),
	       median(qs, ROUNDS_SPLIT) / median(many, ROUNDS_SPLIT), e->n, e->n,
	       median(one, ROUNDS_SPLIT) / median(many, ROUNDS_SPLIT));
	snprintf(fig, sizeof(fig), "%s_1engine", name);
	bench_report(fig, n / median(one, ROUNDS_SPLIT) / 1e6, "Melem/s",
		     n / median(qs, ROUNDS_SPLIT) / 1e6);
	snprintf(fig, sizeof(fig), "%s_%uengines", name, e->n);
	bench_report(fig, n / median(many, ROUNDS_SPLIT) / 1e6, "Melem/s",
		     n / median(qs, ROUNDS_SPLIT) / 1e6);
}

static u32 bench_engines(void)
{
	const char *env = getenv("VNPU_BENCH_ENGINES");
	long n = env ? atol(env) : sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 4 ? 4 : (u32)n;
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

	/* Long rows split into chunks, on 1 and on several engines. */
	{
		struct vnpu_host_engines *e = calloc(1, sizeof(*e));
		static float g[1 << 20], bt[1 << 20], sum[1];
		static s64 amax;

		if (!e || vnpu_host_engines_start(e, bench_engines()))
			return 1;
		for (i = 0; i < sm_n; i++) {
			g[i] = 1.0f + (float)(i % 7) * 0.125f;
			bt[i] = (float)(i % 5) * 0.25f;
		}
		printf("# long rows: %u engines (host threads, %u bound to their own CPUs), %s\n",
		       e->n, vnpu_host_engines_pin(e), bench_cpu());
		c->op = DRM_VNPU_OP_SOFTMAX;
		c->num_in = 1;
		c->num_out = 1;
		c->has_attrs = 1;
		memset(&c->attrs, 0, sizeof(c->attrs));
		view1d(&c->t[0], a, sm_n);
		view1d(&c->t[1], o, sm_n);
		bench_split("op_softmax_f32_1Mi_row", c, e, 2.0 * sm_n * 4,
			    sm_n * 4, b, a);
		c->op = DRM_VNPU_OP_LOG_SOFTMAX;
		bench_split("op_log_softmax_f32_1Mi_row", c, e, 2.0 * sm_n * 4,
			    sm_n * 4, b, a);

		c->op = DRM_VNPU_OP_LAYER_NORM;
		c->num_in = 3;
		c->attrs.ints[0] = 0;
		view1d(&c->t[1], g, sm_n);
		view1d(&c->t[2], bt, sm_n);
		view1d(&c->t[3], o, sm_n);
		bench_split("op_layer_norm_f32_1Mi_row", c, e, 4.0 * sm_n * 4,
			    sm_n * 4, b, a);

		c->op = DRM_VNPU_OP_RMS_NORM;
		c->num_in = 2;
		c->attrs.ints[0] = 0;
		view1d(&c->t[2], o, sm_n);
		bench_split("op_rms_norm_f32_1Mi_row", c, e, 3.0 * sm_n * 4,
			    sm_n * 4, b, a);

		c->op = DRM_VNPU_OP_REDUCE_SUM;
		c->num_in = 1;
		c->has_attrs = 0;
		view1d(&c->t[0], a, sm_n);
		memset(&c->t[1], 0, sizeof(c->t[1]));
		c->t[1].data = sum;
		c->t[1].dtype = DRM_VNPU_DTYPE_FLOAT;
		bench_split("op_reduce_sum_f32_1Mi_to_1", c, e, 1.0 * sm_n * 4,
			    sm_n * 4, b, a);
		c->op = DRM_VNPU_OP_REDUCE_MAX;
		bench_split("op_reduce_max_f32_1Mi_to_1", c, e, 1.0 * sm_n * 4,
			    sm_n * 4, b, a);
		c->op = DRM_VNPU_OP_ARGMAX;
		c->t[1].data = &amax;
		c->t[1].dtype = DRM_VNPU_DTYPE_INT64;
		bench_split("op_argmax_f32_1Mi_to_1", c, e, 1.0 * sm_n * 4,
			    sm_n * 4, b, a);

		/* SORT and TOPK of a 1 Mi row: values in o, indices in b. */
		{
			struct qs_elem *tmp = malloc(sm_n * sizeof(*tmp));
			u64 st = 88172645463325252ull;

			if (!tmp)
				return 1;
			for (i = 0; i < sm_n; i++) {
				st ^= st << 13;
				st ^= st >> 7;
				st ^= st << 17;
				a[i] = (float)(st >> 40) * 0x1p-12f - 2048.0f;
			}
			c->op = DRM_VNPU_OP_SORT;
			c->num_in = 1;
			c->num_out = 2;
			c->has_attrs = 0;
			view1d(&c->t[0], a, sm_n);
			view1d(&c->t[1], o, sm_n);
			view1d(&c->t[2], b, sm_n);
			c->t[2].dtype = DRM_VNPU_DTYPE_INT64;
			bench_sort("op_sort_f32_1Mi_row", c, e, a, sm_n, tmp);
			c->op = DRM_VNPU_OP_TOPK;
			c->t[1].shape[0] = 100;
			c->t[2].shape[0] = 100;
			bench_sort("op_topk100_f32_1Mi_row", c, e, a, sm_n, tmp);
			free(tmp);
		}
		vnpu_host_engines_stop(e);
		free(e);
	}

	if (argc > 1 && bench_write_json(argv[1]))
		return 1;
	return 0;
}
