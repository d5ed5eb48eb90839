// SPDX-License-Identifier: MIT
/*
 * aclopExecute(V2) and the handle forms: find the single-op model of the
 * description, then run it on the stream. A handle does the lookup once.
 */
#include <stdlib.h>

#include "../core/entry_check.h"
#include "op.h"
#include "../core/prof_rt.h"

struct aclopHandle {
	struct op_entry *e;
	int nin, nout;
	op_handle_run_fn run;	/* a direct handle (op_handle_new_direct) */
	void *priv;
};

/* The loaded op of the description, or the code saying what differs. */
static aclError lookup(const char *func, const char *type, int nin,
		       const aclTensorDesc *const in[], int nout,
		       const aclTensorDesc *const out[], const aclopAttr *attr,
		       struct op_entry **e)
{
	struct sop_desc d;
	aclError why = ACL_SUCCESS;

	why = op_desc_make(func, type, nin, in, nout, out, attr, &d);
	if (why)
		return why;
	*e = op_registry_find(&d, &why);
	op_desc_drop(&d);
	if (!*e)
		return acl_fail_at(func, why,
				   why == ACL_ERROR_OP_NOT_FOUND ?
				   "no single-op model of type %s is loaded (aclopSetModelDir, aclopLoad or aclopCompile)" :
				   why == ACL_ERROR_OP_INPUT_NOT_MATCH ?
				   "the loaded %s models take other inputs (dtype, format or shape)" :
				   why == ACL_ERROR_OP_OUTPUT_NOT_MATCH ?
				   "the loaded %s models give other outputs (dtype, format or shape)" :
				   "the loaded %s models have other attributes", type);
	return ACL_SUCCESS;
}

aclError op_execute(const char *func, const char *type, int nin,
			const aclTensorDesc *const in_desc[],
			const aclDataBuffer *const in[], int nout,
			const aclTensorDesc *const out_desc[],
			aclDataBuffer *const out[], const aclopAttr *attr,
			aclrtStream stream)
{
	struct op_entry *e;
	aclError err;

	RT_REQUIRE_INIT();
	err = lookup(func, type, nin, in_desc, nout, out_desc, attr, &e);
	if (err)
		return err;
	return op_entry_run(func, e, nin, in, nout, out, stream);
}

aclError aclopExecute(const char *opType, int numInputs,
		      const aclTensorDesc *const inputDesc[],
		      const aclDataBuffer *const inputs[], int numOutputs,
		      const aclTensorDesc *const outputDesc[],
		      aclDataBuffer *const outputs[], const aclopAttr *attr,
		      aclrtStream stream)
{
	PROF_API();
	return op_execute(__func__, opType, numInputs, inputDesc, inputs,
		       numOutputs, outputDesc, outputs, attr, stream);
}

/* Static shapes: the output descriptions are already what the op writes. */
aclError aclopExecuteV2(const char *opType, int numInputs,
			aclTensorDesc *inputDesc[], aclDataBuffer *inputs[],
			int numOutputs, aclTensorDesc *outputDesc[],
			aclDataBuffer *outputs[], aclopAttr *attr,
			aclrtStream stream)
{
	PROF_API();
	return op_execute(__func__, opType, numInputs,
		       (const aclTensorDesc *const *)inputDesc,
		       (const aclDataBuffer *const *)inputs, numOutputs,
		       (const aclTensorDesc *const *)outputDesc, outputs, attr,
		       stream);
}

aclError aclopCreateHandle(const char *opType, int numInputs,
			   const aclTensorDesc *const inputDesc[],
			   int numOutputs, const aclTensorDesc *const outputDesc[],
			   const aclopAttr *opAttr, aclopHandle **handle)
{
	PROF_API();
	struct op_entry *e;
	aclError err;

	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(handle);
	err = lookup(__func__, opType, numInputs, inputDesc, numOutputs,
		     outputDesc, opAttr, &e);
	if (err)
		return err;
	*handle = malloc(sizeof(**handle));
	if (!*handle)
		return acl_fail(ACL_ERROR_BAD_ALLOC, "out of memory");
	(*handle)->e = e;
	(*handle)->nin = numInputs;
	(*handle)->nout = numOutputs;
	(*handle)->run = NULL;
	(*handle)->priv = NULL;
	return ACL_SUCCESS;
}

aclError op_handle_new_direct(int nin, int nout, op_handle_run_fn run,
			      void *priv, aclopHandle **handle)
{
	aclopHandle *h = malloc(sizeof(*h));

	if (!h) {
		free(priv);
		return acl_fail(ACL_ERROR_BAD_ALLOC, "out of memory");
	}
	*h = (aclopHandle){ .nin = nin, .nout = nout, .run = run, .priv = priv };
	*handle = h;
	return ACL_SUCCESS;
}

void aclopDestroyHandle(aclopHandle *handle)
{
	PROF_API();
	if (handle)
		free(handle->priv);
	free(handle);
}

aclError aclopExecWithHandle(aclopHandle *handle, int numInputs,
			     const aclDataBuffer *const inputs[], int numOutputs,
			     aclDataBuffer *const outputs[], aclrtStream stream)
{
	PROF_API();
	RT_REQUIRE_INIT();
	RT_REQUIRE_ARG(handle);
	if (numInputs != handle->nin || numOutputs != handle->nout)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"%d inputs and %d outputs, the handle's op has %d and %d",
				numInputs, numOutputs, handle->nin, handle->nout);
	if (handle->run) {
		if (!inputs || !outputs)
			return acl_fail(ACL_ERROR_INVALID_PARAM,
					"inputs and outputs must not be NULL");
		return handle->run(__func__, handle->priv, inputs, outputs,
				   stream);
	}
	return op_entry_run(__func__, handle->e, numInputs, inputs, numOutputs,
			    outputs, stream);
}
