// SPDX-License-Identifier: MIT
/*
 * The compiler's pipeline for a model: per batch size a fresh graph from
 * the importer, the front-end passes, lowering and planning into one
 * variant; then the .om with every variant. atc (tools/atc) calls it with
 * its ONNX importer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aipp.h"
#include "compile.h"
#include "lower.h"
#include "om_write.h"

#define MSG_MAX 8192

struct run {
	const struct compile_model_opts *o;
	compile_import_fn import;
	void *arg;
	bool info;
	struct ir_graph g;
	struct om_build b;
	struct lower_weights w;
	const int64_t *batch;
	int nbatch;
	uint64_t tasks;
	int nodes;		/* IR nodes lowered, over all variants */
	struct om_aipp aipp[COMPILE_MAX_AIPP];	/* this variant's records */
};

static uint32_t io_format(const struct run *R, const struct ir_tensor *t,
			  bool input)
{
	const char *f = R->o->input_format;

	if (!input || t->rank != 4)
		return 2;	/* ACL_FORMAT_ND */
	if (f && !strcmp(f, "NHWC"))
		return 1;	/* ACL_FORMAT_NHWC */
	if (f && !strcmp(f, "ND"))
		return 2;
	return 0;		/* ACL_FORMAT_NCHW */
}

/* This variant's dims of every input and output; io records from the largest. */
static int record_io(struct run *R, uint32_t v, bool largest)
{
	uint32_t nio = R->b.nin + R->b.nout, k;
	int i;

	for (k = 0; k < nio; k++) {
		bool input = k < R->b.nin;
		int ti = input ? R->g.inputs[k] : R->g.outputs[k - R->b.nin];
		const struct ir_tensor *t = &R->g.tensors[ti];
		struct om_dims *d = &R->b.dims[v * nio + k];
		struct om_io *io = &R->b.io[k];
		uint64_t size = ir_dtype_size(t->dtype);

		memset(d, 0, sizeof(*d));
		d->rank = (uint32_t)t->rank;
		for (i = 0; i < t->rank; i++) {
			d->dims[i] = t->dims[i];
			size *= (uint64_t)t->dims[i];
		}
		if (!input)
			io->flags |= OM_IO_OUTPUT;
		if (!input && t->dynamic)
			io->flags |= OM_IO_DYNAMIC;
		if (!largest)
			continue;
		io->name = om_add_string(&R->b, t->name);
		if (io->name == UINT32_MAX)
			return -1;
		io->dtype = (uint32_t)t->dtype;
		io->format = io_format(R, t, input);
		io->rank = d->rank;
		memcpy(io->dims, d->dims, sizeof(io->dims));
		io->size = size;
	}
	return 0;
}

/*
 * An input or output is batched when its dim 0 is the batch size in
 * every variant (the loader checks exactly that).
 */
static void mark_batched(struct run *R)
{
	uint32_t nio = R->b.nin + R->b.nout, k, v;

	if (!R->nbatch)
		return;
	for (k = 0; k < nio; k++) {
		bool all = true;

		for (v = 0; v < R->b.nvariants; v++) {
			const struct om_dims *d = &R->b.dims[v * nio + k];

			if (!d->rank || d->dims[0] != R->batch[v])
				all = false;
		}
		if (all)
			R->b.io[k].flags |= OM_IO_BATCHED;
	}
}

static void log_lowering(const struct run *R, const struct lower_result *r,
			 const struct plan_stats *ps)
{
	int i;

	if (!R->info)
		return;
	for (i = 0; i < r->nstats; i++)
		fprintf(stderr, "atc: lower: %-20s %4d nodes -> %5d tasks\n",
			r->stats[i].op_type, r->stats[i].nodes, r->stats[i].tasks);
	fprintf(stderr, "atc: lower: %d views (no task), %d output copies, %u tensors\n",
		r->views, r->copies, r->tensor_count);
	fprintf(stderr, "atc: plan: %d buffers, %d in place, arena %llu, naive %llu, lower bound %llu\n",
		r->nbufs, ps->inplace, (unsigned long long)ps->arena_size,
		(unsigned long long)ps->naive_size,
		(unsigned long long)ps->lower_bound);
}

/* Lower and plan the graph as inferred now: one variant. */
static int compile_variant(struct run *R, uint32_t v, int64_t batch,
			   bool largest)
{
	struct om_variant *var = &R->b.variants[v];
	struct lower_result r;
	struct plan_stats ps;
	char err[MSG_MAX];

	if (lower_graph(&R->g, &R->b, &R->w, &r, err, sizeof(err))) {
		fprintf(stderr, "atc: cannot lower the model: %s\n", err);
		lower_result_free(&r);
		return COMPILE_UNSUPPORTED;
	}
	if (plan_arena(r.bufs, r.nbufs, &ps)) {
		fprintf(stderr, "atc: out of memory planning the arena\n");
		lower_result_free(&r);
		return COMPILE_INTERNAL;
	}
	lower_apply_plan(&R->b, &r);
	memset(var, 0, sizeof(*var));
	var->batch = (uint32_t)batch;
	var->first_node = r.first_node;
	var->node_count = r.node_count;
	var->arena_size = ps.arena_size;
	var->naive_size = ps.naive_size;
	var->lower_bound = ps.lower_bound;
	R->tasks += r.node_count;
	log_lowering(R, &r, &ps);
	lower_result_free(&r);
	if (record_io(R, v, largest)) {
		fprintf(stderr, "atc: out of memory\n");
		return COMPILE_INTERNAL;
	}
	if (largest) {
		/* the records describe the largest variant, as io does */
		memcpy(R->b.aipp, R->aipp, sizeof(R->b.aipp));
		R->b.naipp = (uint32_t)R->o->naipp;
	}
	return COMPILE_OK;
}

static int live_nodes(const struct ir_graph *g)
{
	int i, n = 0;

	for (i = 0; i < g->nnodes; i++)
		n += !g->nodes[i].dead;
	return n;
}

/*
 * The front end for one variant, on a graph built afresh from the model:
 * folding bakes shapes (the batch among them) into constants, so each
 * batch size gets its own graph.
 */
static int front(struct run *R, int64_t batch)
{
	static char msg[MSG_MAX];
	struct ir_fuse_stats fs;
	int ret;

	memset(&fs, 0, sizeof(fs));
	ret = R->import(R->arg, &R->g, msg, sizeof(msg));
	if (!ret)
		ret = ir_front_passes(&R->g, R->o->input_shape, batch, &fs, msg,
				      sizeof(msg));
	if (ret == IR_EUNSUPPORTED) {
		fprintf(stderr, "%s%s\n", strncmp(msg, "atc: ", 5) ? "atc: " : "",
			msg);
		return COMPILE_UNSUPPORTED;
	}
	if (ret) {
		fprintf(stderr, "atc: %s%s%.0lld: %s\n", R->o->model,
			batch ? ", batch " : "", (long long)batch, msg);
		return COMPILE_BAD_MODEL;
	}
	if (R->info) {
		ir_fuse_stats_str(&fs, msg, sizeof(msg));
		fprintf(stderr, "atc: front end%s%.0lld: %d nodes, %d tensors (opset %lld); fused: %s\n",
			batch ? ", batch " : "", (long long)batch,
			live_nodes(&R->g), R->g.ntensors, (long long)R->g.opset,
			msg);
	}
	if (R->o->naipp && aipp_apply(&R->g, R->o->aipp, R->o->naipp,
				      R->o->input_format, R->aipp, msg,
				      sizeof(msg))) {
		fprintf(stderr, "atc: %s\n", msg);
		return COMPILE_BAD_USAGE;
	}
	if (R->g.ninputs > OM_MAX_IO || R->g.noutputs > OM_MAX_IO ||
	    !R->g.noutputs) {
		fprintf(stderr, "atc: the model has %d inputs and %d outputs (0..%d and 1..%d)\n",
			R->g.ninputs, R->g.noutputs, OM_MAX_IO, OM_MAX_IO);
		return COMPILE_UNSUPPORTED;
	}
	if (R->b.nvariants && (R->b.nin != (uint32_t)R->g.ninputs ||
			       R->b.nout != (uint32_t)R->g.noutputs)) {
		fprintf(stderr, "atc: batch %lld changes the number of inputs or outputs\n",
			(long long)batch);
		return COMPILE_BAD_MODEL;
	}
	R->b.nin = (uint32_t)R->g.ninputs;
	R->b.nout = (uint32_t)R->g.noutputs;
	return COMPILE_OK;
}

static int compile(struct run *R)
{
	char err[MSG_MAX], *path;
	int v, nvar = R->nbatch ? R->nbatch : 1, largest = 0, ret;
	uint32_t i;

	for (v = 1; v < nvar; v++)
		if (R->batch[v] > R->batch[largest])
			largest = v;
	for (v = 0; v < nvar; v++) {
		int64_t batch = R->nbatch ? R->batch[v] : 0;

		ret = front(R, batch);
		if (!ret && lower_weights_init(&R->w, &R->g))
			ret = COMPILE_INTERNAL;
		if (!ret)
			ret = compile_variant(R, (uint32_t)v, batch, v == largest);
		if (!ret)
			R->nodes += live_nodes(&R->g);
		if (ret && R->g.nneed) {
			/* the runner freezes these (--input_values) and retries */
			fprintf(stderr, "atc: inputs needed at compile time: %s\n",
				ir_needs_str(&R->g, err, sizeof(err)));
			ret = COMPILE_BAD_MODEL;
		}
		lower_weights_free(&R->w);
		ir_free(&R->g);
		memset(&R->g, 0, sizeof(R->g));
		if (ret)
			return ret;
		R->b.nvariants++;
	}
	mark_batched(R);
	if (asprintf(&path, "%s.om", R->o->output) < 0) {
		fprintf(stderr, "atc: out of memory\n");
		return COMPILE_INTERNAL;
	}
	ret = om_write_file(&R->b, path, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "atc: %s\n", err);
		free(path);
		return COMPILE_INTERNAL;
	}
	printf("atc: %s: %d nodes, %llu tasks, %zu weight bytes\n", path,
	       R->nodes / nvar, (unsigned long long)R->tasks, R->b.nweights);
	for (i = 0; i < R->b.nvariants; i++) {
		const struct om_variant *x = &R->b.variants[i];

		printf("atc:   batch %u: %u tasks, arena %llu bytes (naive %llu, lower bound %llu, %.1f%% less than naive)\n",
		       x->batch, x->node_count, (unsigned long long)x->arena_size,
		       (unsigned long long)x->naive_size,
		       (unsigned long long)x->lower_bound,
		       x->naive_size ? 100.0 * (double)(x->naive_size - x->arena_size) /
				       (double)x->naive_size : 0.0);
	}
	free(path);
	return COMPILE_OK;
}

int compile_model(const struct compile_model_opts *o,
		  compile_import_fn import, void *arg)
{
	struct run R;
	int ret = COMPILE_OK;

	memset(&R, 0, sizeof(R));
	R.o = o;
	R.import = import;
	R.arg = arg;
	R.info = o->info;
	R.batch = o->batch;
	R.nbatch = o->nbatch;
	if (om_build_init(&R.b)) {
		fprintf(stderr, "atc: out of memory\n");
		ret = COMPILE_INTERNAL;
	}
	if (!ret)
		ret = compile(&R);
	om_build_free(&R.b);
	return ret;
}
