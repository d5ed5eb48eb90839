/* SPDX-License-Identifier: MIT */
/*
 * aclmdlRIDebugJsonPrint: the graph in Chrome's trace event format, which
 * chrome://tracing and Perfetto load. Every member stream is a thread,
 * every task a 1 us slice placed at the earliest time its stream and its
 * dependencies allow, every cross-stream dependency a flow arrow. The
 * "otherData" object sums the graph up for a reader of the raw file.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "graph.h"

/* A JSON string (quotes included) of user text. */
static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static const char *task_name(uint16_t type)
{
	switch (type) {
	case DRM_VNPU_TASK_NOP: return "NOP";
	case DRM_VNPU_TASK_COPY: return "COPY";
	case DRM_VNPU_TASK_COPY_2D: return "COPY_2D";
	case DRM_VNPU_TASK_FILL: return "FILL";
	case DRM_VNPU_TASK_TIMESTAMP: return "EVENT_RECORD";
	case DRM_VNPU_TASK_WRITE_VALUE: return "VALUE_WRITE";
	case DRM_VNPU_TASK_WAIT_VALUE: return "VALUE_WAIT";
	case DRM_VNPU_TASK_KERNEL: return "KERNEL";
	case DRM_VNPU_TASK_SPIN: return "SPIN";
	case DRM_VNPU_TASK_JUMP: return "JUMP";
	default: return "UNKNOWN";
	}
}

static void task_args(FILE *f, const struct graph_seg *seg, uint32_t k)
{
	const struct drm_vnpu_task *t = &seg->tasks[k];
	const struct drm_vnpu_kernel_args *ka;

	switch (t->type) {
	case DRM_VNPU_TASK_COPY:
		fprintf(f, ",\"src\":\"0x%" PRIx64 "\",\"dst\":\"0x%" PRIx64
			"\",\"size\":%" PRIu64, (uint64_t)t->copy.src,
			(uint64_t)t->copy.dst, (uint64_t)t->copy.size);
		break;
	case DRM_VNPU_TASK_FILL:
		fprintf(f, ",\"dst\":\"0x%" PRIx64 "\",\"size\":%" PRIu64,
			(uint64_t)t->fill.dst, (uint64_t)t->fill.size);
		break;
	case DRM_VNPU_TASK_WRITE_VALUE:
	case DRM_VNPU_TASK_WAIT_VALUE:
		fprintf(f, ",\"addr\":\"0x%" PRIx64 "\",\"value\":%" PRIu64,
			(uint64_t)t->value.addr, (uint64_t)t->value.value);
		break;
	case DRM_VNPU_TASK_KERNEL:
		ka = (const void *)(seg->args + seg->arg_off[k]);
		fprintf(f, ",\"op\":%u,\"inputs\":%u,\"outputs\":%u,\"tensors\":[",
			t->kernel.op, ka->num_inputs, ka->num_outputs);
		for (uint32_t i = 0; i < ka->num_inputs + ka->num_outputs; i++) {
			const struct drm_vnpu_tensor *te = &ka->tensors[i];

			fprintf(f, "%s{\"va\":\"0x%" PRIx64 "\",\"dtype\":%u,\"shape\":[",
				i ? "," : "", (uint64_t)te->va, te->dtype);
			for (uint32_t d = 0; d < te->rank && d < DRM_VNPU_MAX_RANK; d++)
				fprintf(f, "%s%" PRId64, d ? "," : "",
					(int64_t)te->shape[d]);
			fputs("]}", f);
		}
		fputc(']', f);
		break;
	default:
		break;
	}
}

/* Start time (us) of every segment: after its stream and dependencies. */
static int schedule(const struct rt_graph *g, uint64_t *start, uint64_t *end)
{
	uint64_t *stream_end = calloc(g->nmembers ? g->nmembers : 1,
				      sizeof(*stream_end));

	if (!stream_end)
		return -ENOMEM;
	for (uint32_t i = 0; i < g->nsegs; i++) {
		const struct graph_seg *seg = &g->segs[i];
		uint64_t t = stream_end[seg->member];

		for (uint32_t d = 0; d < seg->ndeps; d++)
			if (end[seg->deps[d]] > t)
				t = end[seg->deps[d]];
		start[i] = t;
		end[i] = t + (seg->ntasks ? seg->ntasks : 1);
		stream_end[seg->member] = end[i];
	}
	free(stream_end);
	return 0;
}

static void print_events(FILE *f, const struct rt_graph *g, bool verbose,
			 const uint64_t *start, const uint64_t *end)
{
	uint32_t flow = 0;

	fprintf(f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%u,\"args\":{\"name\":",
		g->id);
	put_string(f, g->name[0] ? g->name : "aclmdlRI");
	fputs("}}", f);
	for (uint32_t m = 0; m < g->nmembers; m++)
		fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":\"%s %u\"}}",
			g->id, m, m ? "stream" : "head stream", m);
	for (uint32_t i = 0; i < g->nsegs; i++) {
		const struct graph_seg *seg = &g->segs[i];

		for (uint32_t k = 0; k < seg->ntasks; k++) {
			fprintf(f, ",\n{\"name\":\"%s\",\"cat\":\"task\",\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"ts\":%" PRIu64 ",\"dur\":1,\"args\":{\"segment\":%u,\"task\":%u",
				task_name(seg->tasks[k].type), g->id, seg->member,
				start[i] + k, i, k);
			if (verbose)
				task_args(f, seg, k);
			fputs("}}", f);
		}
		for (uint32_t d = 0; d < seg->ndeps; d++) {
			const struct graph_seg *from = &g->segs[seg->deps[d]];

			fprintf(f, ",\n{\"name\":\"wait\",\"cat\":\"dependency\",\"ph\":\"s\",\"id\":%u,\"pid\":%u,\"tid\":%u,\"ts\":%" PRIu64 "}",
				flow, g->id, from->member, end[seg->deps[d]] - 1);
			fprintf(f, ",\n{\"name\":\"wait\",\"cat\":\"dependency\",\"ph\":\"f\",\"bp\":\"e\",\"id\":%u,\"pid\":%u,\"tid\":%u,\"ts\":%" PRIu64 "}",
				flow, g->id, seg->member, start[i]);
			flow++;
		}
	}
}

int graph_json_print(struct rt_graph *g, const char *path, bool verbose)
{
	uint64_t *start, *end;
	uint32_t pieces = 0;
	FILE *f;
	int ret;

	pthread_mutex_lock(&g->lock);
	start = calloc(g->nsegs + 1, sizeof(*start));
	end = calloc(g->nsegs + 1, sizeof(*end));
	ret = start && end ? schedule(g, start, end) : -ENOMEM;
	f = ret ? NULL : fopen(path, "w");
	if (!ret && !f)
		ret = -errno;
	if (f) {
		for (uint32_t i = 0; i < g->nsegs; i++)
			pieces += g->segs[i].npieces;
		fputs("{\"traceEvents\":[\n", f);
		print_events(f, g, verbose, start, end);
		fprintf(f, "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"modelRI\":%u,\"name\":",
			g->id);
		put_string(f, g->name);
		fprintf(f, ",\"streams\":%u,\"segments\":%u,\"tasks\":%" PRIu64 ",\"commandBuffers\":%u,\"replays\":%" PRIu64 ",\"note\":\"slices show order and dependencies, not measured times\"}}\n",
			g->nmembers, g->nsegs, g->ntasks,
			pieces, g->replays);
		if (fclose(f))
			ret = -errno;
	}
	pthread_mutex_unlock(&g->lock);
	free(start);
	free(end);
	return ret;
}
