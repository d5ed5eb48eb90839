/* SPDX-License-Identifier: MIT */
/*
 * A model's data dump (Documentation/dump.md): for each node the dump
 * configuration selects, COPY tasks right after the node's own tasks put
 * its input and output tensors into a device buffer of the variant; once
 * the execution's job is done the buffer is read back and each node
 * written as one dump file. The copies are ordered after the node in the
 * command buffer, so an arena block a later node reuses is copied first.
 */
#ifndef VNPU_MDL_MODEL_DUMP_H
#define VNPU_MDL_MODEL_DUMP_H

#include <stdbool.h>
#include <stdint.h>

#include "../om/om_read.h"

struct mdl_model;
struct mdl_variant;
struct rt_stream;

/* One dumped node: its names and its tensors in the dump buffer. */
struct mdl_dump_node {
	char *type, *name;
	uint32_t index;			/* node index in the variant */
	uint32_t first, count;		/* in mdl_vdump.t */
};

struct mdl_dump_tensor {
	uint32_t output, index, dtype, format, rank;
	int64_t dims[OM_MAX_RANK];
	uint64_t bytes, off;		/* in the dump buffer */
	uint32_t task;			/* its COPY task in the list; ~0u: none */
};

struct mdl_vdump {
	struct mdl_dump_node *nodes;
	uint32_t nnodes;
	struct mdl_dump_tensor *t;
	uint32_t nt;
	void *buf;			/* device memory */
	uint64_t buf_va, size;
};

/* The COPY tasks node n adds to variant v's list (0: not dumped). */
uint32_t model_dump_tasks_of(const struct mdl_model *m, const struct om_image *img,
			     const struct om_node *n);
/* Append node n's copy tasks to va's list (after its own tasks). */
int model_dump_node(struct mdl_model *m, const struct om_image *img,
		    const struct om_node *n, uint32_t index,
		    struct mdl_variant *va);
/* Size, allocate and address the buffers: after every variant's list. */
int model_dump_alloc(struct mdl_model *m);
/* After an execution of v on s: wait for it and write the files. */
int model_dump_after(struct mdl_model *m, struct mdl_variant *v,
		     struct rt_stream *s);
/* Free it all; the device buffers only while the device lives. */
void model_dump_free(struct mdl_model *m, bool dev_alive);

#endif /* VNPU_MDL_MODEL_DUMP_H */
