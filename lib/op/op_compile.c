// SPDX-License-Identifier: MIT
/*
 * aclopCompile and aclopCompileAndExecute(V2): the op description goes
 * through the same compiler as atc --singleop, in process, and the image
 * joins the registry; a description already there is not compiled again.
 */
#include <stdlib.h>

#include "../core/entry_check.h"
#include "op.h"
#include "../core/prof_rt.h"

static _Atomic int compile_flag;

static aclError compile(const char *func, const char *type, int nin,
			const aclTensorDesc *const in[], int nout,
			const aclTensorDesc *const out[], const aclopAttr *attr,
			aclopEngineType engine, aclopCompileType flag,
			const char *path)
{
	char err[1024];
	struct sop_desc d;
	uint8_t *img = NULL;
	size_t len = 0;
	aclError e, miss;
	int r;

	if ((unsigned int)engine > ACL_ENGINE_VECTOR)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "engineType %d is not an aclopEngineType", engine);
	if (flag == ACL_COMPILE_UNREGISTERED)
		return acl_fail_at(func, ACL_ERROR_API_NOT_SUPPORT,
				   "custom operators (ACL_COMPILE_UNREGISTERED, opPath %s) are not supported",
				   path ? path : "NULL");
	if (flag != ACL_COMPILE_SYS)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "compileFlag %d is not an aclopCompileType", flag);
	e = op_desc_make(func, type, nin, in, nout, out, attr, &d);
	if (!e && !op_registry_find(&d, &miss)) {	/* else compiled before */
		r = sop_compile(&d, &img, &len, err, sizeof(err));
		if (!r)
			e = op_registry_add(func, img, len, type);
		else if (r == SOP_ENOMEM)
			e = acl_fail_at(func, ACL_ERROR_BAD_ALLOC, "%s", err);
		else
			e = acl_fail_at(func, sop_known(type) ? ACL_ERROR_INVALID_PARAM :
					ACL_ERROR_OP_NOT_FOUND, "%s", err);
		free(img);
	}
	op_desc_drop(&d);
	return e;
}

aclError aclopCompile(const char *opType, int numInputs,
		      const aclTensorDesc *const inputDesc[], int numOutputs,
		      const aclTensorDesc *const outputDesc[], const aclopAttr *attr,
		      aclopEngineType engineType, aclopCompileType compileFlag,
		      const char *opPath)
{
	PROF_API();
	RT_REQUIRE_INIT();
	return compile(__func__, opType, numInputs, inputDesc, numOutputs,
		       outputDesc, attr, engineType, compileFlag, opPath);
}

aclError aclopCompileAndExecute(const char *opType, int numInputs,
				const aclTensorDesc *const inputDesc[],
				const aclDataBuffer *const inputs[],
				int numOutputs,
				const aclTensorDesc *const outputDesc[],
				aclDataBuffer *const outputs[],
				const aclopAttr *attr, aclopEngineType engineType,
				aclopCompileType compileFlag, const char *opPath,
				aclrtStream stream)
{
	PROF_API();
	aclError e;

	RT_REQUIRE_INIT();
	e = compile(__func__, opType, numInputs, inputDesc, numOutputs,
		    outputDesc, attr, engineType, compileFlag, opPath);
	if (e)
		return e;
	return op_execute(__func__, opType, numInputs, inputDesc, inputs,
			  numOutputs, outputDesc, outputs, attr, stream);
}

aclError aclopCompileAndExecuteV2(const char *opType, int numInputs,
				  aclTensorDesc *inputDesc[],
				  aclDataBuffer *inputs[], int numOutputs,
				  aclTensorDesc *outputDesc[],
				  aclDataBuffer *outputs[], aclopAttr *attr,
				  aclopEngineType engineType,
				  aclopCompileType compileFlag,
				  const char *opPath, aclrtStream stream)
{
	PROF_API();
	aclError e;

	RT_REQUIRE_INIT();
	e = compile(__func__, opType, numInputs,
		    (const aclTensorDesc *const *)inputDesc, numOutputs,
		    (const aclTensorDesc *const *)outputDesc, attr, engineType,
		    compileFlag, opPath);
	if (e)
		return e;
	return op_execute(__func__, opType, numInputs,
			  (const aclTensorDesc *const *)inputDesc,
			  (const aclDataBuffer *const *)inputs, numOutputs,
			  (const aclTensorDesc *const *)outputDesc, outputs, attr,
			  stream);
}

/* Fuzzy compilation (dynamic shapes) has nothing to change here. */
aclError aclopSetCompileFlag(aclOpCompileFlag flag)
{
	PROF_API();
	if ((unsigned int)flag > ACL_OP_COMPILE_FUZZ)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"flag %d is not an aclOpCompileFlag", flag);
	compile_flag = flag;
	return ACL_SUCCESS;
}
