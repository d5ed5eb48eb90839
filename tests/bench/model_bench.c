// SPDX-License-Identifier: MIT
/*
 * The model benchmarks of issue 13, side by side in one run:
 *
 *  1. memory plan: for ResNet-18 and MobileNetV2, the activation arena
 *     atc planned against one buffer per tensor and against the lower
 *     bound (most bytes live at one moment), read from the .om's variant
 *     records (lib/om/om_format.h);
 *  2. host cost per inference: the submitting thread's CPU time
 *     (CLOCK_THREAD_CPUTIME_ID) per inference of HOST_PIPE back-to-back
 *     aclmdlExecuteAsync calls of ResNet-18 and one synchronize, against
 *     the same network issued op by op through aclnn (resnet_aclnn.c,
 *     both phases of 48 operators). Measured on 32x32 images
 *     (resnet18_32.om): the host's work per inference does not depend on
 *     the image size, and at 224x224 the engines' seconds of emulated
 *     compute share the guest's two vCPUs with the submitting thread and
 *     inflate its CPU time by interrupts and contention. The 224x224
 *     figures (one inference at a time) are reported as well;
 *  3. latency: ResNet-18 at batch 1, the median aclmdlExecute against
 *     PyTorch on the CPU with one thread in the same guest (the figure
 *     tests/bench/torch_latency.py wrote before, passed as argv[2]);
 *  4. throughput: 4 streams, one thread each, executing asynchronously
 *     against one stream executing synchronously (inferences per second),
 *     with both vCPUs and again with the second one offline, to show what
 *     the second vCPU (a second host thread under MTTCG) brings.
 *
 * usage: model_bench OUT.json [TORCH_LATENCY.json]
 * (by default torch_latency.json next to OUT.json, as run-bench.sh
 * leaves it when torch_latency.py runs first)
 * The models come from build/models (make models-om); without them only
 * the op-by-op figure is measured.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "bench_json.h"
#include "om/om_format.h"
#include "resnet_aclnn.h"

#define CHECK(x) do { if ((x) != ACL_SUCCESS) { \
	fprintf(stderr, "%s failed: %s\n", #x, aclGetRecentErrMsg()); \
	exit(1); } } while (0)

#define STREAMS 4

static char models_dir[4200];

static double now_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---------------------------------------------------------- memory plan -- */

/* The variant records of an .om; 0 when read. */
static int om_variants(const char *path, struct om_variant *out, uint32_t *n)
{
	struct om_header h;
	struct om_section sec;
	FILE *f = fopen(path, "rb");
	int ret = -1;

	if (!f)
		return -1;
	if (fread(&h, sizeof(h), 1, f) != 1 || h.magic != OM_MAGIC ||
	    h.section_count > 64)
		goto out;
	for (uint32_t i = 0; i < h.section_count; i++) {
		if (fread(&sec, sizeof(sec), 1, f) != 1)
			goto out;
		if (sec.type != OM_SEC_VARIANTS)
			continue;
		if (!sec.count || sec.count > OM_MAX_VARIANTS ||
		    sec.size != sec.count * sizeof(*out) ||
		    fseek(f, (long)sec.offset, SEEK_SET) ||
		    fread(out, sizeof(*out), sec.count, f) != sec.count)
			goto out;
		*n = sec.count;
		ret = 0;
		break;
	}
out:
	fclose(f);
	return ret;
}

static void memory_plan(const char *name)
{
	struct om_variant v[OM_MAX_VARIANTS];
	char path[4400], fig[96];
	uint32_t n = 0;

	snprintf(path, sizeof(path), "%s/%s.om", models_dir, name);
	if (om_variants(path, v, &n)) {
		printf("memory plan %s: no readable %s (make models-om)\n", name, path);
		return;
	}
	printf("memory plan %s (batch %u): arena %llu bytes, one buffer per tensor %llu, "
	       "lower bound %llu: %.1f%% less than naive, %.3fx the lower bound\n",
	       name, v[0].batch, (unsigned long long)v[0].arena_size,
	       (unsigned long long)v[0].naive_size,
	       (unsigned long long)v[0].lower_bound,
	       100.0 * (1 - (double)v[0].arena_size / v[0].naive_size),
	       (double)v[0].arena_size / v[0].lower_bound);
	snprintf(fig, sizeof(fig), "%s_arena_bytes_vs_one_buffer_per_tensor", name);
	bench_report(fig, (double)v[0].arena_size, "B", (double)v[0].naive_size);
	snprintf(fig, sizeof(fig), "%s_arena_bytes_vs_lower_bound", name);
	bench_report(fig, (double)v[0].arena_size, "B", (double)v[0].lower_bound);
}

/* ---------------------------------------------------- the loaded model -- */

struct io {
	aclmdlDataset *in, *out;
	void *din, *dout;
};

static uint32_t model_id;
static aclmdlDesc *desc;

/* Load build/models/NAME.om into *id with its description in *d. */
static int load_om(const char *name, uint32_t *id, aclmdlDesc **d)
{
	char path[4400];

	snprintf(path, sizeof(path), "%s/%s.om", models_dir, name);
	if (access(path, R_OK))
		return -1;
	if (aclmdlLoadFromFile(path, id) != ACL_SUCCESS) {
		printf("%s: %s\n", path, aclGetRecentErrMsg());
		return -1;
	}
	*d = aclmdlCreateDesc();
	CHECK(aclmdlGetDesc(*d, *id));
	return 0;
}

static int load_resnet(void)
{
	return load_om("resnet18", &model_id, &desc);
}

static aclmdlDataset *one_buffer(void **dev, size_t size)
{
	aclmdlDataset *ds = aclmdlCreateDataset();

	CHECK(aclrtMalloc(dev, size, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMemset(*dev, size, 0, size));
	CHECK(aclmdlAddDatasetBuffer(ds, aclCreateDataBuffer(*dev, size)));
	return ds;
}

static void io_create_for(struct io *io, aclmdlDesc *d)
{
	io->in = one_buffer(&io->din, aclmdlGetInputSizeByIndex(d, 0));
	io->out = one_buffer(&io->dout, aclmdlGetOutputSizeByIndex(d, 0));
}

static void io_create(struct io *io)
{
	io_create_for(io, desc);
}

static void io_destroy(struct io *io)
{
	aclDestroyDataBuffer(aclmdlGetDatasetBuffer(io->in, 0));
	aclDestroyDataBuffer(aclmdlGetDatasetBuffer(io->out, 0));
	aclmdlDestroyDataset(io->in);
	aclmdlDestroyDataset(io->out);
	aclrtFree(io->din);
	aclrtFree(io->dout);
}

/* ------------------------------------------------------------ host cost -- */

#define HOST_REPS 3

/*
 * Thread CPU ns of one inference (the model, or op by op when net is set),
 * medians: *issue of the enqueue calls alone, the return value of the
 * enqueue and the synchronize together (what reaches the driver may be
 * deferred to the synchronize: aclnn launches are batched per stream);
 * *wall is the wall ns from issue to done. The device's work runs in the
 * driver's threads, not in this one.
 */
static double host_cost(aclrtStream s, struct io *io, struct resnet_aclnn *net,
			double *issue, double *wall)
{
	double cpu[HOST_REPS], enq[HOST_REPS], w[HOST_REPS];

	for (int i = -1; i < HOST_REPS; i++) {
		double t0 = now_ns(CLOCK_THREAD_CPUTIME_ID), t1;
		double w0 = now_ns(CLOCK_MONOTONIC);

		if (net) {
			if (resnet_aclnn_issue(net, s))
				exit(1);
		} else {
			CHECK(aclmdlExecuteAsync(model_id, io->in, io->out, s));
		}
		t1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		CHECK(aclrtSynchronizeStream(s));
		if (i >= 0) {
			enq[i] = t1 - t0;
			cpu[i] = now_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
			w[i] = now_ns(CLOCK_MONOTONIC) - w0;
		}
	}
	*issue = median(enq, HOST_REPS);
	*wall = median(w, HOST_REPS);
	return median(cpu, HOST_REPS);
}

#define HOST_PIPE 16

/*
 * Thread CPU ns per inference of HOST_PIPE inferences issued back to back
 * (model id with io, or op by op when net is set) and one synchronize;
 * the median of HOST_REPS rounds after a warm-up round.
 */
static double host_cost_pipelined(aclrtStream s, uint32_t id, struct io *io,
				  struct resnet_aclnn *net)
{
	double cpu[HOST_REPS];

	for (int r = -1; r < HOST_REPS; r++) {
		double t0 = now_ns(CLOCK_THREAD_CPUTIME_ID);

		for (int i = 0; i < HOST_PIPE; i++) {
			if (net) {
				if (resnet_aclnn_issue(net, s))
					exit(1);
			} else {
				CHECK(aclmdlExecuteAsync(id, io->in, io->out, s));
			}
		}
		CHECK(aclrtSynchronizeStream(s));
		if (r >= 0)
			cpu[r] = (now_ns(CLOCK_THREAD_CPUTIME_ID) - t0) / HOST_PIPE;
	}
	return median(cpu, HOST_REPS);
}

/* Host cost per inference at 32x32: the model against op by op. */
static void host_cost_small(aclrtStream s)
{
	struct resnet_aclnn *net = resnet_aclnn_create(32);
	double model_cpu, aclnn_cpu;
	aclmdlDesc *d;
	struct io io;
	uint32_t id;

	if (!net) {
		fprintf(stderr, "resnet_aclnn_create(32) failed\n");
		exit(1);
	}
	aclnn_cpu = host_cost_pipelined(s, 0, NULL, net);
	resnet_aclnn_destroy(net);
	if (load_om("resnet18_32", &id, &d)) {
		printf("no loadable %s/resnet18_32.om: host cost op by op only, %.0f us\n",
		       models_dir, aclnn_cpu / 1e3);
		bench_report("resnet18_32px_host_us_aclnn_op_by_op", aclnn_cpu / 1e3, "us", 0);
		return;
	}
	io_create_for(&io, d);
	model_cpu = host_cost_pipelined(s, id, &io, NULL);
	printf("host CPU per inference, 32x32, %d in flight: aclmdlExecuteAsync "
	       "%.1f us, op by op through aclnn %.1f us: %.1fx cheaper\n",
	       HOST_PIPE, model_cpu / 1e3, aclnn_cpu / 1e3, aclnn_cpu / model_cpu);
	bench_report("resnet18_32px_host_us_execute_async_vs_aclnn_op_by_op",
		     model_cpu / 1e3, "us", aclnn_cpu / 1e3);
	bench_report("resnet18_host_cost_aclnn_op_by_op_over_execute_async",
		     aclnn_cpu / model_cpu, "x", 1.0);
	io_destroy(&io);
	CHECK(aclmdlUnload(id));
	aclmdlDestroyDesc(d);
}

/* -------------------------------------------------------------- latency -- */

/* The value of "name" in a bench JSON file; 0 when absent. */
static double json_value(const char *path, const char *name)
{
	char line[512], key[128];
	FILE *f = path ? fopen(path, "r") : NULL;
	double v = 0;
	char *p;

	if (!f)
		return 0;
	snprintf(key, sizeof(key), "\"name\": \"%s\"", name);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, key) && (p = strstr(line, "\"value\": ")))
			v = strtod(p + 9, NULL);
	fclose(f);
	return v;
}

/* Median wall ns of aclmdlExecute. */
static double latency(struct io *io, int reps)
{
	double v[32];

	CHECK(aclmdlExecute(model_id, io->in, io->out));	/* warm */
	for (int i = 0; i < reps; i++) {
		double t0 = now_ns(CLOCK_MONOTONIC);

		CHECK(aclmdlExecute(model_id, io->in, io->out));
		v[i] = now_ns(CLOCK_MONOTONIC) - t0;
	}
	return median(v, reps);
}

/* ----------------------------------------------------------- throughput -- */

/*
 * One stream's worker: the loaded model, or (without one) its own
 * op-by-op ResNet-18 at THROUGHPUT_HW pixels, small enough for a few
 * inferences per second of TCG.
 */
#define THROUGHPUT_HW 64

struct worker {
	pthread_t th;
	aclrtContext ctx;
	aclrtStream s;
	struct io io;
	struct resnet_aclnn *net;
	int iters;
};

static void infer_async(struct worker *w)
{
	if (w->net) {
		if (resnet_aclnn_issue(w->net, w->s))
			exit(1);
	} else {
		CHECK(aclmdlExecuteAsync(model_id, w->io.in, w->io.out, w->s));
	}
}

static void *worker_run(void *arg)
{
	struct worker *w = arg;

	CHECK(aclrtSetCurrentContext(w->ctx));
	for (int i = 0; i < w->iters; i++) {
		infer_async(w);
		CHECK(aclrtSynchronizeStream(w->s));
	}
	return NULL;
}

/* Inferences per second: nstreams threads of iters each, or (0) one
 * thread executing synchronously. */
static double qps(struct worker *w, int nstreams, int iters)
{
	double t0 = now_ns(CLOCK_MONOTONIC);

	if (!nstreams) {
		for (int i = 0; i < iters; i++) {
			if (w[0].net) {
				infer_async(&w[0]);
				CHECK(aclrtSynchronizeStream(w[0].s));
			} else {
				CHECK(aclmdlExecute(model_id, w[0].io.in, w[0].io.out));
			}
		}
		return iters / ((now_ns(CLOCK_MONOTONIC) - t0) / 1e9);
	}
	for (int i = 0; i < nstreams; i++) {
		w[i].iters = iters;
		pthread_create(&w[i].th, NULL, worker_run, &w[i]);
	}
	for (int i = 0; i < nstreams; i++)
		pthread_join(w[i].th, NULL);
	return (double)nstreams * iters / ((now_ns(CLOCK_MONOTONIC) - t0) / 1e9);
}

/* Sets vCPU 1 online (1) or offline (0); 0 when done. */
static int cpu1_online(int on)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu1/online", "w");
	int ret;

	if (!f)
		return -1;
	ret = fprintf(f, "%d\n", on) < 0;
	ret |= fclose(f) != 0;
	if (!ret)
		usleep(200000);
	return ret ? -1 : 0;
}

/*
 * 4 streams asynchronously vs 1 synchronously, with every vCPU and with
 * vCPU 1 offline. what names the workload in the figures; iters is per
 * stream (the synchronous run does as many in all).
 */
static void throughput(const char *what, int use_model, int iters)
{
	struct worker w[STREAMS];
	double single, multi, single1, multi1;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	char fig[96];

	memset(w, 0, sizeof(w));
	for (int i = 0; i < STREAMS; i++) {
		CHECK(aclrtGetCurrentContext(&w[i].ctx));
		CHECK(aclrtCreateStream(&w[i].s));
		if (use_model) {
			io_create(&w[i].io);
		} else if (!(w[i].net = resnet_aclnn_create(THROUGHPUT_HW))) {
			fprintf(stderr, "resnet_aclnn_create failed\n");
			exit(1);
		}
	}
	qps(w, STREAMS, 1);	/* warm every stream */
	single = qps(w, 0, iters * STREAMS);
	multi = qps(w, STREAMS, iters);
	printf("throughput %s (%ld vCPUs online): 1 stream synchronous %.3f QPS, "
	       "%d streams asynchronous %.3f QPS (%.2fx)\n", what, ncpu, single,
	       STREAMS, multi, multi / single);
	snprintf(fig, sizeof(fig), "%s_qps_%d_streams_vs_1_sync_%ldvcpu", what,
		 STREAMS, ncpu);
	bench_report(fig, multi, "QPS", single);
	if (ncpu >= 2 && cpu1_online(0) == 0) {
		single1 = qps(w, 0, iters * STREAMS);
		multi1 = qps(w, STREAMS, iters);
		if (cpu1_online(1))
			fprintf(stderr, "could not bring vCPU 1 back online\n");
		printf("throughput %s (vCPU 1 offline): 1 stream synchronous %.3f QPS, "
		       "%d streams asynchronous %.3f QPS (%.2fx); %d streams on "
		       "%ld vCPUs vs 1: %.2fx\n", what, single1, STREAMS, multi1,
		       multi1 / single1, STREAMS, ncpu, multi / multi1);
		snprintf(fig, sizeof(fig), "%s_qps_%d_streams_1vcpu_vs_1_sync", what,
			 STREAMS);
		bench_report(fig, multi1, "QPS", single1);
		snprintf(fig, sizeof(fig), "%s_qps_%d_streams_%ldvcpu_vs_1vcpu", what,
			 STREAMS, ncpu);
		bench_report(fig, multi, "QPS", multi1);
	} else {
		printf("throughput: vCPU 1 cannot go offline here; no 1-vCPU figure\n");
	}
	for (int i = 0; i < STREAMS; i++) {
		if (use_model)
			io_destroy(&w[i].io);
		resnet_aclnn_destroy(w[i].net);
		CHECK(aclrtDestroyStream(w[i].s));
	}
}

int main(int argc, char **argv)
{
	const char *out = argc > 1 ? argv[1] : "model_bench.json";
	char exe[4096], torch_json[4200], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct resnet_aclnn *net;
	double model_cpu = 0, aclnn_cpu, aclnn_issue, wall, torch_ns;
	aclrtStream s;
	struct io io;
	int have_model;

	/* build/tests/bench/model_bench -> build/models */
	exe[n > 0 ? n : 0] = 0;
	slash = strrchr(exe, '/');
	if (slash)
		*slash = 0;
	snprintf(models_dir, sizeof(models_dir), "%s/../../models", exe);
	if (argc > 2) {
		snprintf(torch_json, sizeof(torch_json), "%s", argv[2]);
	} else {
		snprintf(torch_json, sizeof(torch_json), "%s", out);
		slash = strrchr(torch_json, '/');
		snprintf(slash ? slash + 1 : torch_json,
			 sizeof(torch_json) - (slash ? slash + 1 - torch_json : 0),
			 "torch_latency.json");
	}
	printf("CPU: %s\n", bench_cpu());

	memory_plan("resnet18");
	memory_plan("mobilenet_v2");

	CHECK(aclInit(NULL));
	CHECK(aclrtSetDevice(0));
	CHECK(aclrtCreateStream(&s));
	have_model = load_resnet() == 0;
	if (have_model)
		io_create(&io);

	host_cost_small(s);
	net = resnet_aclnn_create(224);
	if (!net) {
		fprintf(stderr, "resnet_aclnn_create failed\n");
		return 1;
	}
	aclnn_cpu = host_cost(s, NULL, net, &aclnn_issue, &wall);
	printf("op by op: %d aclnn operators, host CPU per inference %.0f us "
	       "(enqueue %.0f us), %.1f ms issue to completion\n",
	       resnet_aclnn_ops(net), aclnn_cpu / 1e3, aclnn_issue / 1e3, wall / 1e6);
	if (have_model) {
		double mwall, missue;

		model_cpu = host_cost(s, &io, NULL, &missue, &mwall);
		printf("aclmdlExecuteAsync: host CPU per inference %.0f us (enqueue "
		       "%.0f us), %.1f ms issue to completion; op by op %.2fx dearer "
		       "(enqueue alone %.2fx)\n", model_cpu / 1e3, missue / 1e3,
		       mwall / 1e6, aclnn_cpu / model_cpu, aclnn_issue / missue);
		bench_report("resnet18_host_us_execute_async_vs_aclnn_op_by_op",
			     model_cpu / 1e3, "us", aclnn_cpu / 1e3);
		bench_report("resnet18_224px_host_cost_aclnn_op_by_op_over_execute_async",
			     aclnn_cpu / model_cpu, "x", 1.0);
		bench_report("resnet18_enqueue_us_execute_async_vs_aclnn_op_by_op",
			     missue / 1e3, "us", aclnn_issue / 1e3);
	} else {
		bench_report("resnet18_host_us_aclnn_op_by_op", aclnn_cpu / 1e3, "us", 0);
		printf("no loadable %s/resnet18.om: model figures skipped\n",
		       models_dir);
	}
	resnet_aclnn_destroy(net);

	if (have_model) {
		double lat = latency(&io, 5);

		torch_ns = json_value(torch_json, "resnet18_b1_latency_ms_torch_cpu_1thread") * 1e6;
		printf("latency: aclmdlExecute %.1f ms, PyTorch CPU 1 thread %.1f ms "
		       "(%.2fx)\n", lat / 1e6, torch_ns / 1e6,
		       torch_ns > 0 ? torch_ns / lat : 0);
		bench_report("resnet18_b1_latency_ms_vnpu_vs_torch_1thread", lat / 1e6,
			     "ms", torch_ns / 1e6);
		bench_report("resnet18_b1_speedup_vnpu_over_torch_1thread",
			     torch_ns > 0 ? torch_ns / lat : 0, "x", 1.0);
		/* About 10 s of the single stream per measurement. */
		throughput("resnet18", 1, lat > 0 ? (int)(10e9 / lat / STREAMS) + 1 : 1);
		io_destroy(&io);
		CHECK(aclmdlDestroyDesc(desc));
		CHECK(aclmdlUnload(model_id));
	}
	/* The same comparison op by op on a small image: it needs no model. */
	throughput("resnet18_aclnn_64px", 0, 2);
	CHECK(aclrtDestroyStream(s));
	CHECK(aclrtResetDevice(0));
	CHECK(aclFinalize());
	return bench_write_json(out) ? 1 : 0;
}
