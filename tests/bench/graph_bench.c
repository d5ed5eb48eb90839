// SPDX-License-Identifier: MIT
/*
 * Graph replay vs eager submission, side by side in one run.
 *
 * Host time per task of a chain of N tiny aclnnAdd tasks (N = 10, 100,
 * 1000) with one synchronize at the end:
 *   - eager, ioctl submission: both aclnn phases per task;
 *   - eager, io_uring submission (VNPU_SUBMIT=uring), when available;
 *   - the chain captured once and replayed with aclmdlRIExecuteAsync,
 *     with ioctl and with io_uring submission (the headline ratio is the
 *     replay on io_uring, the default path, against eager ioctls);
 * and the same with 4 streams (threads) submitting concurrently; then
 * 4 streams driven from one thread with one aclrtSynchronizeDevice, eager
 * and as a fork/join graph, where io_uring batches all streams' SUBMITs
 * (and WAITs, and the graph's command buffers) into single enters.
 *
 * "Host time" is the submitting threads' CPU time (CLOCK_THREAD_CPUTIME_ID):
 * what the runtime costs the application, without the device's own work,
 * which is the same for all three. Wall time is reported next to it. The
 * paths take turns ROUNDS times; each keeps its lowest figure, and the
 * io_uring/ioctl ratios are the medians of the rounds' ratios.
 * usage: graph_bench OUT.json
 * GRAPH_BENCH_CASES="N:S ..." runs only those cases (S = streams, or "f"
 * for the one-thread fan-out), e.g. "1000:1 100:f" when profiling; "1:s"
 * and "4:s" are the bare syncs (a memset and aclrtSynchronizeStream, or
 * one memset on each of 4 streams and aclrtSynchronizeDevice), "0:s" the
 * replay of a one-memset graph, a memset and aclrtSynchronizeStream.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "bench_json.h"

#define CHECK(x) do { if ((x) != ACL_SUCCESS) { \
	fprintf(stderr, "%s failed: %s\n", #x, aclGetRecentErrMsg()); \
	exit(1); } } while (0)

#define MAX_STREAMS 4
#define ELEMS 16

enum mode { EAGER, GRAPH };

struct chain {
	aclrtContext ctx;
	aclrtStream s;
	void *dev;
	aclTensor *a, *o;
	aclScalar *alpha;
	aclmdlRI ri;
	int n;
	enum mode mode;
	int reps;
	double cpu_ns;
};

static double clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void add_once(struct chain *c)
{
	aclOpExecutor *ex;
	uint64_t ws;

	CHECK(aclnnAddGetWorkspaceSize(c->a, c->a, c->alpha, c->o, &ws, &ex));
	CHECK(aclnnAdd(NULL, 0, ex, c->s));
}

static void chain_setup(struct chain *c, int n, enum mode mode)
{
	int64_t shape[1] = { ELEMS };
	float one = 1.0f;

	memset(c, 0, sizeof(*c));
	c->n = n;
	c->mode = mode;
	/* Replays are cheap: more of them keep the short figures steady. */
	if (mode == GRAPH)
		c->reps = n >= 1000 ? 40 : n >= 100 ? 100 : 400;
	else
		c->reps = n >= 1000 ? 4 : n >= 100 ? 30 : 200;
	CHECK(aclrtGetCurrentContext(&c->ctx));
	CHECK(aclrtCreateStream(&c->s));
	CHECK(aclrtMalloc(&c->dev, 8192, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMemset(c->dev, 8192, 0, 8192));
	c->a = aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND,
			       shape, 1, c->dev);
	c->o = aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND,
			       shape, 1, (char *)c->dev + 4096);
	c->alpha = aclCreateScalar(&one, ACL_FLOAT);
	if (mode == GRAPH) {
		CHECK(aclmdlRICaptureBegin(c->s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
		for (int i = 0; i < n; i++)
			add_once(c);
		CHECK(aclmdlRICaptureEnd(c->s, &c->ri));
	}
}

static void chain_teardown(struct chain *c)
{
	if (c->ri)
		CHECK(aclmdlRIDestroy(c->ri));
	aclDestroyScalar(c->alpha);
	aclDestroyTensor(c->a);
	aclDestroyTensor(c->o);
	CHECK(aclrtFree(c->dev));
	CHECK(aclrtDestroyStream(c->s));
}

/* One chain: N tasks then one synchronize. */
static void chain_run(struct chain *c)
{
	if (c->mode == GRAPH) {
		CHECK(aclmdlRIExecuteAsync(c->ri, c->s));
	} else {
		for (int i = 0; i < c->n; i++)
			add_once(c);
	}
	CHECK(aclrtSynchronizeStream(c->s));
}

static void *chain_thread(void *arg)
{
	struct chain *c = arg;
	double t;

	CHECK(aclrtSetCurrentContext(c->ctx));
	chain_run(c);		/* warm up */
	t = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	for (int r = 0; r < c->reps; r++)
		chain_run(c);
	c->cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID) - t;
	return NULL;
}

/* CPU and wall ns per task with nstreams threads, each its own chain. */
static void measure(int n, enum mode mode, int nstreams, double *cpu,
		    double *wall)
{
	struct chain c[MAX_STREAMS];
	pthread_t th[MAX_STREAMS];
	double t, sum = 0;

	for (int i = 0; i < nstreams; i++)
		chain_setup(&c[i], n, mode);
	t = clock_ns(CLOCK_MONOTONIC);
	for (int i = 0; i < nstreams; i++)
		pthread_create(&th[i], NULL, chain_thread, &c[i]);
	for (int i = 0; i < nstreams; i++) {
		pthread_join(th[i], NULL);
		sum += c[i].cpu_ns;
	}
	t = clock_ns(CLOCK_MONOTONIC) - t;
	*cpu = sum / ((double)c[0].reps * n * nstreams);
	/* Wall time includes the warm-up chain of each thread. */
	*wall = t / ((double)(c[0].reps + 1) * n * nstreams);
	for (int i = 0; i < nstreams; i++)
		chain_teardown(&c[i]);
}

#define ROUNDS 5

/* The median of n values (n <= ROUNDS); sorts them. */
static double median(double *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
			double t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void runtime_up(const char *submit)
{
	setenv("VNPU_SUBMIT", submit, 1);
	CHECK(aclInit(NULL));
	CHECK(aclrtSetDevice(0));
}

static void runtime_down(void)
{
	CHECK(aclrtResetDevice(0));
	CHECK(aclFinalize());
}

/*
 * One thread, four streams: n tasks on each (round robin), then one
 * aclrtSynchronizeDevice (eager); or the same captured as a fork/join
 * graph over the four streams and replayed. CPU ns per task.
 */
static double fan_cpu(int n, enum mode mode)
{
	struct chain c[MAX_STREAMS];
	aclrtEvent fork, join[MAX_STREAMS];
	aclmdlRI ri = NULL;
	int reps = mode == GRAPH ? (n >= 100 ? 100 : 400) : (n >= 100 ? 20 : 100);
	double t;

	for (int i = 0; i < MAX_STREAMS; i++) {
		chain_setup(&c[i], n, EAGER);
		CHECK(aclrtCreateEvent(&join[i]));
	}
	CHECK(aclrtCreateEvent(&fork));
	if (mode == GRAPH) {
		CHECK(aclmdlRICaptureBegin(c[0].s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
		CHECK(aclrtRecordEvent(fork, c[0].s));
		for (int i = 1; i < MAX_STREAMS; i++)
			CHECK(aclrtStreamWaitEvent(c[i].s, fork));
		for (int k = 0; k < n; k++)
			for (int i = 0; i < MAX_STREAMS; i++)
				add_once(&c[i]);
		for (int i = 1; i < MAX_STREAMS; i++) {
			CHECK(aclrtRecordEvent(join[i], c[i].s));
			CHECK(aclrtStreamWaitEvent(c[0].s, join[i]));
		}
		CHECK(aclmdlRICaptureEnd(c[0].s, &ri));
	}
	t = 0;
	for (int r = -1; r < reps; r++) {	/* r = -1 warms up */
		double t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);

		if (mode == GRAPH) {
			CHECK(aclmdlRIExecuteAsync(ri, c[0].s));
		} else {
			for (int k = 0; k < n; k++)
				for (int i = 0; i < MAX_STREAMS; i++)
					add_once(&c[i]);
		}
		CHECK(aclrtSynchronizeDevice());
		if (r >= 0)
			t += clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
	}
	if (ri)
		CHECK(aclmdlRIDestroy(ri));
	CHECK(aclrtDestroyEvent(fork));
	for (int i = 0; i < MAX_STREAMS; i++) {
		CHECK(aclrtDestroyEvent(join[i]));
		chain_teardown(&c[i]);
	}
	return t / ((double)reps * n * MAX_STREAMS);
}

static void fan_report(int n)
{
	double e[2] = { 1e18, 1e18 }, g[2] = { 1e18, 1e18 }, v[2][2];
	double er[ROUNDS], gr[ROUNDS];
	static const char *const path[2] = { "ioctl", "uring" };
	char name[96];

	for (int r = 0; r < ROUNDS; r++) {
		for (int p = 0; p < 2; p++) {
			runtime_up(path[p]);
			v[p][0] = fan_cpu(n, EAGER);
			e[p] = v[p][0] < e[p] ? v[p][0] : e[p];
			v[p][1] = fan_cpu(n, GRAPH);
			g[p] = v[p][1] < g[p] ? v[p][1] : g[p];
			runtime_down();
		}
		er[r] = v[0][0] / v[1][0];
		gr[r] = v[0][1] / v[1][1];
	}
	printf("fan-out, 4 streams x N=%d in one thread, one device sync: CPU ns per task eager ioctl %6.0f uring %6.0f; fork/join graph ioctl %5.0f uring %5.0f\n",
	       n, e[0], e[1], g[0], g[1]);
	printf("          uring speedup vs ioctl, median of %d interleaved rounds: eager %4.2fx, graph %4.2fx\n",
	       ROUNDS, median(er, ROUNDS), median(gr, ROUNDS));
	snprintf(name, sizeof(name), "fan4_eager_uring_speedup_vs_ioctl_n%d", n);
	bench_report(name, median(er, ROUNDS), "x", n == 100 ? 1.3 : 1);
	snprintf(name, sizeof(name), "fan4_graph_uring_speedup_vs_ioctl_n%d", n);
	bench_report(name, median(gr, ROUNDS), "x", n == 100 ? 1.3 : 1);
	snprintf(name, sizeof(name), "fan4_graph_speedup_vs_eager_ioctl_n%d", n);
	bench_report(name, e[0] / g[1], "x", 1);
}

/*
 * The sync itself: a 64-byte aclrtMemsetAsync on each of ns streams, then
 * aclrtSynchronizeStream (ns = 1) or aclrtSynchronizeDevice (ns = 4);
 * ns = 0 is one stream that first replays a graph of one 64-byte memset
 * (a device-only replay, which the sync may wait for in one enter).
 * CPU ns per round; what io_uring saves or costs per sync, undiluted by
 * aclnn work.
 */
static double sync_cpu(int ns)
{
	aclrtStream s[MAX_STREAMS];
	int nstreams = ns ? ns : 1;
	aclmdlRI ri = NULL;
	void *dev;
	const int reps = 400;
	double t = 0;

	CHECK(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	for (int i = 0; i < nstreams; i++)
		CHECK(aclrtCreateStream(&s[i]));
	if (!ns) {
		CHECK(aclmdlRICaptureBegin(s[0], ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
		CHECK(aclrtMemsetAsync((char *)dev + 1024, 64, 1, 64, s[0]));
		CHECK(aclmdlRICaptureEnd(s[0], &ri));
	}
	for (int r = -20; r < reps; r++) {	/* r < 0 warms up */
		double t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);

		if (ri)
			CHECK(aclmdlRIExecuteAsync(ri, s[0]));
		for (int i = 0; i < nstreams; i++)
			CHECK(aclrtMemsetAsync((char *)dev + 64 * i, 64, r & 0xff,
					       64, s[i]));
		if (nstreams == 1)
			CHECK(aclrtSynchronizeStream(s[0]));
		else
			CHECK(aclrtSynchronizeDevice());
		if (r >= 0)
			t += clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
	}
	if (ri)
		CHECK(aclmdlRIDestroy(ri));
	for (int i = 0; i < nstreams; i++)
		CHECK(aclrtDestroyStream(s[i]));
	CHECK(aclrtFree(dev));
	return t / reps;
}

/* sync_cpu(ns) on both paths; what says it, tag names its figure. */
static void sync_report(int ns, const char *what, const char *tag)
{
	static const char *const path[2] = { "ioctl", "uring" };
	double best[2] = { 1e18, 1e18 }, v[2], ratio[ROUNDS];
	char name[96];

	for (int r = 0; r < ROUNDS; r++) {
		for (int p = 0; p < 2; p++) {
			runtime_up(path[p]);
			v[p] = sync_cpu(ns);
			best[p] = v[p] < best[p] ? v[p] : best[p];
			runtime_down();
		}
		ratio[r] = v[0] / v[1];
	}
	printf("sync, %s: CPU ns per sync ioctl %6.0f uring %6.0f; uring speedup vs ioctl, median of %d interleaved rounds: %4.2fx\n",
	       what, best[0], best[1], ROUNDS, median(ratio, ROUNDS));
	snprintf(name, sizeof(name), "%s_uring_speedup_vs_ioctl", tag);
	bench_report(name, median(ratio, ROUNDS), "x", 1);
}

/* Is case N:S (S a number of streams, 'f', or 's' for the sync cases) selected? */
static int selected(int n, char s)
{
	const char *only = getenv("GRAPH_BENCH_CASES");
	char want[24];

	if (!only || !*only)
		return 1;
	snprintf(want, sizeof(want), "%d:%c", n, s);
	for (const char *p = strstr(only, want); p; p = strstr(p + 1, want))
		if ((p == only || p[-1] == ' ') &&
		    (p[strlen(want)] == ' ' || !p[strlen(want)]))
			return 1;
	return 0;
}

static void keep_min(double *cpu, double c, double *wall, double w)
{
	if (c < *cpu)
		*cpu = c;
	if (w < *wall)
		*wall = w;
}

int main(int argc, char **argv)
{
	static const int sizes[] = { 10, 100, 1000 };
	static const int streams[] = { 1, MAX_STREAMS };
	const char *out = argc > 1 ? argv[1] : "graph_bench.json";
	char name[96];

	for (unsigned int si = 0; si < 2; si++) {
		for (unsigned int k = 0; k < 3; k++) {
			int n = sizes[k], ns = streams[si];
			double ecpu = 1e18, ewall = 1e18, ucpu = 1e18, uwall = 1e18;
			double gcpu = 1e18, gwall = 1e18, gucpu = 1e18, guwall = 1e18;

			double eur[ROUNDS], gur[ROUNDS];

			if (!selected(n, (char)('0' + ns)))
				continue;

			/*
			 * The paths take turns, ROUNDS times; each keeps its
			 * lowest figure (noise on a shared machine only adds),
			 * and the io_uring/ioctl ratios are the medians of the
			 * rounds' ratios (each round runs both side by side).
			 */
			for (int r = 0; r < ROUNDS; r++) {
				double c, w, ce, cg;

				runtime_up("ioctl");
				measure(n, EAGER, ns, &ce, &w);
				keep_min(&ecpu, ce, &ewall, w);
				measure(n, GRAPH, ns, &cg, &w);
				keep_min(&gcpu, cg, &gwall, w);
				runtime_down();
				runtime_up("uring");
				measure(n, EAGER, ns, &c, &w);
				keep_min(&ucpu, c, &uwall, w);
				eur[r] = ce / c;
				measure(n, GRAPH, ns, &c, &w);
				keep_min(&gucpu, c, &guwall, w);
				gur[r] = cg / c;
				runtime_down();
			}
			printf("N=%4d streams=%d  host CPU ns per task (wall): eager ioctl %6.0f (%6.0f)  eager uring %6.0f (%6.0f)  graph ioctl %5.0f (%5.0f)  graph uring %5.0f (%5.0f)\n",
			       n, ns, ecpu, ewall, ucpu, uwall, gcpu, gwall, gucpu, guwall);
			printf("          graph speedup vs eager ioctl: %5.1fx (replay via ioctls %5.1fx); uring speedup vs ioctl, median of %d interleaved rounds: eager %4.2fx, graph %4.2fx\n",
			       ecpu / gucpu, ecpu / gcpu, ROUNDS, median(eur, ROUNDS), median(gur, ROUNDS));
			snprintf(name, sizeof(name), "graph_replay_speedup_vs_eager_ioctl_n%d_s%d", n, ns);
			bench_report(name, ecpu / gucpu, "x", n == 100 && ns == 1 ? 10 : 1);
			snprintf(name, sizeof(name), "graph_replay_ioctl_speedup_vs_eager_ioctl_n%d_s%d", n, ns);
			bench_report(name, ecpu / gcpu, "x", 1);
			snprintf(name, sizeof(name), "eager_uring_speedup_vs_ioctl_n%d_s%d", n, ns);
			bench_report(name, median(eur, ROUNDS), "x",
				     n == 100 && ns == MAX_STREAMS ? 1.3 : 1);
			snprintf(name, sizeof(name), "graph_uring_speedup_vs_ioctl_n%d_s%d", n, ns);
			bench_report(name, median(gur, ROUNDS), "x",
				     n == 100 && ns == MAX_STREAMS ? 1.3 : 1);
			snprintf(name, sizeof(name), "graph_replay_wall_speedup_n%d_s%d", n, ns);
			bench_report(name, ewall / guwall, "x", 1);
			snprintf(name, sizeof(name), "eager_ioctl_cpu_per_task_n%d_s%d", n, ns);
			bench_report(name, ecpu, "ns", 0);
		}
	}
	if (selected(10, 'f'))
		fan_report(10);
	if (selected(100, 'f'))
		fan_report(100);
	if (selected(0, 's'))
		sync_report(0, "graph replay + 64-byte memset + aclrtSynchronizeStream",
			    "replay_memset_sync");
	if (selected(1, 's'))
		sync_report(1, "64-byte memset on 1 stream + aclrtSynchronizeStream",
			    "stream_sync");
	if (selected(4, 's'))
		sync_report(MAX_STREAMS,
			    "64-byte memset on 4 streams + aclrtSynchronizeDevice",
			    "device_sync4");
	return bench_write_json(out) ? 1 : 0;
}
