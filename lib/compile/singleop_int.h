/* SPDX-License-Identifier: MIT */
/* What singleop_build.c and the CANN op mappings (singleop_map.c) share. */
#ifndef VNPU_ATC_SINGLEOP_INT_H
#define VNPU_ATC_SINGLEOP_INT_H

#include "ir.h"
#include "singleop.h"

/* A graph being built from one op description. */
struct sop_graph {
	struct ir_graph *g;
	const struct sop_desc *d;
	int in[SOP_MAX_IO];		/* tensors of the description's inputs */
	int out[SOP_MAX_IO];		/* and outputs */
	int ntmp;
	char *err;
	size_t errlen;
};

/* A new intermediate tensor; its index or -1. */
int sg_tmp(struct sop_graph *s);
/* An int64 constant vector (rank 1, or rank 0 when scalar is set). */
int sg_const_ints(struct sop_graph *s, const int64_t *v, int n, int scalar);
/*
 * Node op_type reading ins and writing outs (-1 ends each list early is
 * not allowed: pass the exact counts); the node's index or -1.
 */
int sg_node(struct sop_graph *s, const char *op_type, const int *ins, int nin,
	    const int *outs, int nout);
/* A message about the description; evaluates to SOP_EINVAL. */
int sg_fail(struct sop_graph *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* How one CANN op type becomes ONNX-form IR nodes. */
struct sop_map {
	const char *type;		/* CANN's op type */
	int min_in, max_in, nout;
	int (*build)(struct sop_graph *s);
};

const struct sop_map *sop_map_find(const char *type);

#endif /* VNPU_ATC_SINGLEOP_INT_H */
