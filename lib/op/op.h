/* SPDX-License-Identifier: MIT */
/*
 * The single-operator API (acl_op.h, acl_op_compiler.h): an op call is a
 * description (type, tensor descriptions, attributes) that must name a
 * single-op model loaded with aclopSetModelDir / aclopLoad or built by
 * aclopCompile; executing it runs that model on the stream, as one
 * SUBMIT of its bound command buffer (Documentation/aclop.md).
 */
#ifndef VNPU_OP_OP_H
#define VNPU_OP_OP_H

#include "acl/acl_op.h"
#include "acl/acl_op_compiler.h"
#include "../compile/compile.h"

/* An attribute set: CANN's aclopAttr, the list a description carries. */
struct aclopAttr {
	struct sop_attr a[SOP_MAX_ATTRS];
	int n;
};

struct op_entry;

/*
 * The description of a call: opType, the tensor descriptions and attr
 * (NULL: none) into d. ACL_SUCCESS or ACL_ERROR_INVALID_PARAM with a
 * message naming the bad argument.
 */
aclError op_desc_make(const char *func, const char *type, int nin,
		      const aclTensorDesc *const in[], int nout,
		      const aclTensorDesc *const out[], const aclopAttr *attr,
		      struct sop_desc *d);
/* d's attributes are borrowed from an aclopAttr: forget, don't free. */
void op_desc_drop(struct sop_desc *d);

/* Register a single-op image (copied); ACL_SUCCESS or the load error. */
aclError op_registry_add(const char *func, const void *img, size_t len,
			 const char *what);
/*
 * The entry whose key is d's, or NULL with the code that says how close
 * the nearest one came (OP_NOT_FOUND, OP_INPUT_NOT_MATCH, ...) in *why.
 */
struct op_entry *op_registry_find(const struct sop_desc *d, aclError *why);
/* Run entry e with these buffers on stream (NULL: default). */
aclError op_entry_run(const char *func, struct op_entry *e, int nin,
		      const aclDataBuffer *const in[], int nout,
		      aclDataBuffer *const out[], aclrtStream stream);
/* Look the description up and run it (aclopExecute and its kin). */
aclError op_execute(const char *func, const char *type, int nin,
		    const aclTensorDesc *const in_desc[],
		    const aclDataBuffer *const in[], int nout,
		    const aclTensorDesc *const out_desc[],
		    aclDataBuffer *const out[], const aclopAttr *attr,
		    aclrtStream stream);
/*
 * A handle whose call is run by a layer above (lib/blas, which builds
 * device tasks itself instead of loading a single-op model): run gets
 * the handle's private description (priv, malloc'ed, freed with the
 * handle) and aclopExecWithHandle's buffers, their count already
 * checked against nin / nout.
 */
typedef aclError (*op_handle_run_fn)(const char *func, const void *priv,
				     const aclDataBuffer *const in[],
				     aclDataBuffer *const out[],
				     aclrtStream stream);
aclError op_handle_new_direct(int nin, int nout, op_handle_run_fn run,
			      void *priv, aclopHandle **handle);
/* Drop every entry (aclFinalize). */
void op_registry_clear(void);
/* Hand core op_registry_clear for aclFinalize (lifecycle.h). */
void op_lifecycle_register(void);

/*
 * op_dump.c: the single-op data dump around one execution (NULL from
 * begin: nothing dumped, and end does nothing).
 */
struct op_dump;
struct mdl_model;
struct rt_stream;
struct op_dump *op_dump_begin(const char *key, struct mdl_model *m,
			      struct rt_stream *s, const uint64_t *in_va);
void op_dump_end(struct op_dump *d, const char *func, struct mdl_model *m,
		 struct rt_stream *s, const uint64_t *out_va, bool ok);

#endif /* VNPU_OP_OP_H */
