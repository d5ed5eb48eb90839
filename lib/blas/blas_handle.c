// SPDX-License-Identifier: MIT
/*
 * The handle forms: CANN describes the GEMM op once and runs it with
 * aclopExecWithHandle(handle, 5, {A, B, C, alpha, beta}, 1, {C}, stream).
 * vnpu's handle carries the checked description (packed operands, as a
 * handle has no leading dimensions) and runs it through blas_run, which
 * needs no single-op model. Each buffer must cover its operand.
 */
#include <stdlib.h>

#include "blas.h"
#include "../op/op.h"
#include "../core/entry_check.h"

static aclError handle_run(const char *func, const void *priv,
			   const aclDataBuffer *const in[],
			   aclDataBuffer *const out[], aclrtStream stream)
{
	const struct blas_gemm *g = priv;
	uint64_t need[6] = { blas_span(g, 0), blas_span(g, 1), blas_span(g, 2),
			     0, 0, blas_span(g, 2) };
	const aclDataBuffer *b[6] = { in[0], in[1], in[2], in[3], in[4],
				      out[0] };
	void *p[6];

	need[3] = need[4] = (uint64_t)aclDataTypeSize(g->dc);
	for (int i = 0; i < 6; i++) {
		if (!b[i] || !(p[i] = aclGetDataBufferAddr(b[i])))
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "%s %d has no buffer or no address",
					   i < 5 ? "input" : "output", i < 5 ? i : 0);
		if (aclGetDataBufferSizeV2(b[i]) < need[i])
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "%s %d holds %zu bytes, the operand needs %llu",
					   i < 5 ? "input" : "output", i < 5 ? i : 0,
					   aclGetDataBufferSizeV2(b[i]),
					   (unsigned long long)need[i]);
	}
	return blas_run(func, g, p[3], p[0], p[1], p[4], p[2], p[5], stream);
}

aclError blas_handle_create(const char *func, aclTransType ta,
			    aclTransType tb, aclTransType tc, int m, int n,
			    int k, aclDataType da, aclDataType db,
			    aclDataType dc, aclComputeType type,
			    aclopHandle **handle)
{
	struct blas_gemm *g;
	aclError err;

	if (!runtime_initialized())
		return rt_uninit_error(func);
	if (!handle)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "handle must not be NULL");
	g = malloc(sizeof(*g));
	if (!g)
		return acl_fail_at(func, ACL_ERROR_BAD_ALLOC, "out of memory");
	err = blas_check(func, ta, tb, tc, m, n, k, -1, -1, -1, da, db, dc,
			 type, 0, g);
	if (err) {
		free(g);
		return err;
	}
	return op_handle_new_direct(5, 1, handle_run, g, handle);
}
