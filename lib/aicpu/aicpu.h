/* SPDX-License-Identifier: MIT */
/*
 * The host operators: plain C over host copies of a node's tensors. The
 * runtime (lib/mdl/model_host.c) stages a node's inputs from device
 * memory, calls aicpu_run and writes the outputs back; atc's host executor
 * (tests/unit/om_host_exec.h) calls it on its own buffers. An op checks
 * every dim, dtype and attribute it reads and fails with a sentence
 * instead of touching memory it was not given.
 */
#ifndef VNPU_AICPU_H
#define VNPU_AICPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aicpu_ops.h"

#define AICPU_MAX_RANK		8
#define AICPU_MAX_TENSORS	16

struct aicpu_tensor {
	void *data;
	uint32_t dtype;			/* aclDataType */
	uint32_t rank;
	int64_t dims[AICPU_MAX_RANK];	/* outputs: the op writes the real ones */
	uint64_t cap;			/* bytes at data */
};

struct aicpu_call {
	uint32_t op;			/* enum aicpu_op */
	uint32_t nin, nout;		/* tensors present */
	struct aicpu_tensor t[AICPU_MAX_TENSORS];	/* inputs, then outputs */
	int64_t ints[24];
	float floats[8];
	char why[160];			/* set on failure */
};

/* Run c; 0, or -EINVAL / -ENOMEM with c->why set. */
int aicpu_run(struct aicpu_call *c);
const char *aicpu_op_name(uint32_t op);

/* --- for the op files (aicpu_util.c) --- */
int aicpu_fail(struct aicpu_call *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* ONNX input/output k (by the presence masks), or NULL when absent. */
struct aicpu_tensor *aicpu_in(struct aicpu_call *c, uint32_t k);
struct aicpu_tensor *aicpu_out(struct aicpu_call *c, uint32_t k);
size_t aicpu_dtype_size(uint32_t dtype);
bool aicpu_dtype_float(uint32_t dtype);
/* Elements of t's dims; -1 when they overflow or are negative. */
int64_t aicpu_numel(const struct aicpu_tensor *t);
/* numel * element size fits in t->cap: 0, else a failure naming what. */
int aicpu_check(struct aicpu_call *c, const struct aicpu_tensor *t,
		const char *what);
double aicpu_get(const struct aicpu_tensor *t, int64_t i);
int64_t aicpu_get_int(const struct aicpu_tensor *t, int64_t i);
void aicpu_put(struct aicpu_tensor *t, int64_t i, double v);
void aicpu_put_int(struct aicpu_tensor *t, int64_t i, int64_t v);
/* Set an output's dims (rank r) after checking they fit its buffer. */
int aicpu_set_dims(struct aicpu_call *c, struct aicpu_tensor *t, uint32_t r,
		   const int64_t *dims);

/*
 * String tensors (aicpu_string.c), laid out as lib/om/om_format.h says:
 * AICPU_STR_HEAD bytes of {int64 offset, int64 len} per element, then
 * the text. A string tensor's numel * AICPU_STR_HEAD must fit its cap
 * (aicpu_check); its heads are checked by aicpu_str_check.
 */
#define AICPU_DT_STRING	13	/* ACL_STRING */
#define AICPU_STR_HEAD	16u
/* Index of the first of n heads in buf (cap bytes) that points outside
 * it (0 when the heads do not fit), -1 when all are inside. */
int64_t aicpu_str_bad_head(const void *buf, uint64_t cap, int64_t n);
int aicpu_str_check(struct aicpu_call *c, const struct aicpu_tensor *t,
		    int64_t n, const char *what);
/* Text of element i of a checked string tensor. */
void aicpu_str_get(const struct aicpu_tensor *t, int64_t i, const char **p,
		   int64_t *len);
/* Writing an n-element string output: text packed after the heads. */
struct aicpu_str_out {
	struct aicpu_tensor *t;
	uint64_t used;
};
void aicpu_str_begin(struct aicpu_str_out *w, struct aicpu_tensor *t, int64_t n);
int aicpu_str_put(struct aicpu_call *c, struct aicpu_str_out *w, int64_t i,
		  const char *p, int64_t len);

/* The op families. */
int aicpu_nonzero(struct aicpu_call *c);
int aicpu_unique(struct aicpu_call *c);
int aicpu_compress(struct aicpu_call *c);
int aicpu_nms(struct aicpu_call *c);
int aicpu_det(struct aicpu_call *c);
int aicpu_adagrad(struct aicpu_call *c);
int aicpu_adam(struct aicpu_call *c);
int aicpu_momentum(struct aicpu_call *c);
int aicpu_rnn(struct aicpu_call *c);
int aicpu_dft(struct aicpu_call *c);
int aicpu_stft(struct aicpu_call *c);
int aicpu_tfidf(struct aicpu_call *c);
int aicpu_strnorm(struct aicpu_call *c);
int aicpu_cast_string(struct aicpu_call *c);

#endif /* VNPU_AICPU_H */
