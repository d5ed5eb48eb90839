/* SPDX-License-Identifier: MIT */
/*
 * Data dump (Documentation/dump.md): the dump configuration that
 * aclmdlSetDump or acl.json's "dump" section sets, and the writer of the
 * per-operator dump files. The layers above (mdl, nn, op) read a tensor's
 * bytes after its operator ran and hand them here; this layer decides
 * which operators are wanted and where their files go. It knows nothing
 * of models or executors: names and bytes only.
 */
#ifndef VNPU_DUMP_DUMP_H
#define VNPU_DUMP_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DUMP_MAX_TENSORS	32
#define DUMP_MAX_RANK		8

/* dump_mode: which side of an operator is written. */
#define DUMP_INPUT	1u
#define DUMP_OUTPUT	2u

/* One tensor of a dumped operator; data is host memory of bytes bytes. */
struct dump_tensor {
	uint32_t output;		/* 0 input, 1 output */
	uint32_t index;			/* among the inputs or the outputs */
	uint32_t dtype;			/* aclDataType */
	uint32_t format;		/* aclFormat */
	uint32_t rank;
	int64_t dims[DUMP_MAX_RANK];
	uint64_t bytes;
	const void *data;
};

/* Where an operator ran: a model's node, or a single operator. */
struct dump_sel;
struct dump_where {
	const struct dump_sel *sel;	/* the model's selection; NULL: single op */
	const char *model;		/* NULL: a single operator */
	uint32_t model_id;
	uint64_t iteration;		/* model executions dumped so far */
	int32_t device;
	uint32_t stream;		/* the stream's queue id */
	uint32_t task;			/* the node's (or launch's) index */
};

/*
 * A model's selection, made at load (dump_model_select) and kept by the
 * model: configurations set later do not change a loaded model, as in
 * CANN. NULL: the model is not dumped.
 */
struct dump_sel *dump_model_select(const char *model_name);
bool dump_sel_layer(const struct dump_sel *sel, const char *layer);
uint32_t dump_sel_mode(const struct dump_sel *sel);
/* Whether execution iter (0-based) is one dump_step names. */
bool dump_sel_step(const struct dump_sel *sel, uint64_t iter);
void dump_sel_free(struct dump_sel *sel);

/* Dumping is on now (InitDump/SetDump or acl.json, not yet finalized). */
bool dump_active(void);
/* Single operators (aclnn launches, aclopExecute*) are dumped. */
bool dump_op_wanted(void);
uint32_t dump_op_mode(void);

/*
 * Write one operator's tensors: a file under the dump path, or chunks to
 * the acldumpRegCallback callback when one is registered. 0 or -errno.
 */
int dump_write_op(const struct dump_where *w, const char *op_type,
		  const char *op_name, const struct dump_tensor *t,
		  uint32_t nt);

/*
 * aclopStartDumpArgs: operator information (type, dtypes, formats,
 * shapes) once per distinct signature. Cheap test first.
 */
bool dump_args_on(void);
void dump_args_record(const char *op_type, const struct dump_tensor *t,
		      uint32_t nt);

/*
 * Gather a strided view of elem-byte elements from its storage copy src
 * (the first element at src) into dense dst. Used by the single-op hook.
 */
void dump_gather(void *dst, const void *src, uint32_t elem, uint32_t rank,
		 const int64_t *dims, const int64_t *strides);

/* aclInit's "dump" section: 0, or an aclError with a sentence in why. */
int dump_acl_init(const char *config_path, char *why, size_t len);
/* aclFinalize: dumping ends, its state is cleared. */
void dump_acl_finalize(void);

#endif /* VNPU_DUMP_DUMP_H */
