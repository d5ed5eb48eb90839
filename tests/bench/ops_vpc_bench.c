// SPDX-License-Identifier: MIT
/*
 * The VPC operator's compute alone (the operator library, every piece in
 * turn on this thread, as one engine runs them; no device, no submit):
 * the bilinear resize of a 1920x1080 NV12 picture to 224x224 that
 * dvpp_bench times through ACL, with each code path the CPU features
 * select (portable integer code, SSE2, AVX2's gathers), and the fixed
 * cost of a piece (a call whose destination is one unit of two rows of
 * the same picture, which sets up the same column taps). Medians of the calling thread's CPU
 * time. Run natively by `make bench`; run it in the guest too to see
 * what TCG makes of each path.
 *
 * usage: ops_vpc_bench [RESULTS.json]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vnpu_ops.h"
#include "vnpu_ops_host.h"
#include "bench_json.h"

#define W 1920
#define H 1080
#define OW 224
#define OH 224
#define REPS 41

static void *scratch;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void view(struct vnpu_tview *v, void *p, size_t n)
{
	memset(v, 0, sizeof(*v));
	v->data = p;
	v->dtype = DRM_VNPU_DTYPE_UINT8;
	v->rank = 1;
	v->shape[0] = (s64)n;
	v->strides[0] = 1;
}

/*
 * Median seconds of the call resizing @src to @dst's rectangle of @rows
 * rows, with features @cpu; *@pieces its pieces.
 */
static double time_call(u8 *src, u8 *dst, s32 rows, u32 cpu, u64 *pieces)
{
	const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_VPC);
	static const s64 pic[10] = { 1, W, H, W, H, 1, OW, OH, OW, OH };
	struct vnpu_op_call c;
	double t[REPS], t0;
	u64 n, i;
	int r;

	memset(&c, 0, sizeof(c));
	c.op = DRM_VNPU_OP_VPC;
	c.num_in = 1;
	c.num_out = 1;
	c.has_attrs = 1;
	memcpy(c.attrs.ints, pic, sizeof(pic));
	c.attrs.ints[16] = OW;		/* destination rectangle 0, 0, OW, rows */
	c.attrs.ints[17] = rows;
	c.attrs.ints[18] = 1;		/* bilinear */
	view(&c.t[0], src, (size_t)W * H * 3 / 2);
	view(&c.t[1], dst, (size_t)OW * OH * 3 / 2);
	c.scratch = scratch;
	c.cpu = cpu;
	if (!impl || vnpu_op_check(impl, &c)) {
		fprintf(stderr, "ops_vpc_bench: the call is refused\n");
		exit(1);
	}
	n = impl->tiles(&c);
	for (r = 0; r < REPS; r++) {
		t0 = now();
		for (i = 0; i < n; i++)
			impl->run(&c, i);
		t[r] = now() - t0;
	}
	qsort(t, REPS, sizeof(t[0]), cmp);
	*pieces = n;
	return t[REPS / 2];
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		u32 need;
	} paths[] = {
		{ "portable", 0 },	/* no CPU features: the integer pairs */
		{ "sse2", VNPU_CPU_SSE2 },
		{ "avx2", VNPU_CPU_AVX2_FMA },	/* its gathers: SSE2 would take over */
	};
	u32 host = vnpu_ops_host_cpu();
	u8 *src = malloc((size_t)W * H * 3 / 2), *dst = malloc(OW * OH * 3 / 2);
	double portable = 0, t, unit;
	char name[96];
	u64 pieces, up;
	size_t i;

	scratch = aligned_alloc(64, VNPU_OPS_SCRATCH);
	if (!src || !dst || !scratch)
		return 1;
	for (i = 0; i < (size_t)W * H * 3 / 2; i++)
		src[i] = (u8)(i * 2654435761u >> 13);
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		if ((host & paths[i].need) != paths[i].need)
			continue;
		t = time_call(src, dst, OH, paths[i].need, &pieces);
		unit = time_call(src, dst, 2, paths[i].need, &up);
		if (!i)
			portable = t;
		printf("# VPC 1920x1080 NV12 -> 224x224 bilinear, %s: %.1f us in %llu piece(s); "
		       "a piece of one unit: %.1f us\n", paths[i].name, t * 1e6,
		       (unsigned long long)pieces, unit * 1e6);
		snprintf(name, sizeof(name), "vpc_resize_1080p_to_224_%s_vs_portable",
			 paths[i].name);
		bench_report(name, 1.0 / t, "op/s", 1.0 / portable);
	}
	free(src);
	free(dst);
	free(scratch);
	return argc > 1 && bench_write_json(argv[1]) ? 1 : 0;
}
