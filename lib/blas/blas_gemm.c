// SPDX-License-Identifier: MIT
/*
 * The gemm entry points: aclblasGemmEx with its dtypes given, Hgemm
 * (fp16) and S8gemm (int8 into int32) as GemmEx with theirs, and the
 * handle forms (blas_handle.c).
 */
#include "blas.h"
#include "../core/entry_check.h"
#include "../core/prof_rt.h"

aclError blas_gemm_call(const char *func, aclTransType ta, aclTransType tb,
			aclTransType tc, int m, int n, int k,
			const void *alpha, const void *a, int lda,
			aclDataType da, const void *b, int ldb,
			aclDataType db, const void *beta, void *c, int ldc,
			aclDataType dc, aclComputeType type,
			aclrtStream stream)
{
	struct blas_gemm g;
	aclError err;

	if (!runtime_initialized())
		return rt_uninit_error(func);
	if (!alpha || !beta || !a || !b || !c)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s must not be NULL",
				   !alpha ? "alpha" : !beta ? "beta" :
				   !a ? "matrix A" : !b ? "matrix B" : "matrix C");
	err = blas_check(func, ta, tb, tc, m, n, k, lda, ldb, ldc, da, db, dc,
			 type, BLAS_CHECK_LD, &g);
	if (err)
		return err;
	return blas_run(func, &g, alpha, a, b, beta, c, c, stream);
}

aclError aclblasGemmEx(aclTransType transA, aclTransType transB,
		       aclTransType transC, int m, int n, int k,
		       const void *alpha, const void *matrixA, int lda,
		       aclDataType dataTypeA, const void *matrixB, int ldb,
		       aclDataType dataTypeB, const void *beta, void *matrixC,
		       int ldc, aclDataType dataTypeC, aclComputeType type,
		       aclrtStream stream)
{
	PROF_API();
	return blas_gemm_call(__func__, transA, transB, transC, m, n, k,
			      alpha, matrixA, lda, dataTypeA, matrixB, ldb,
			      dataTypeB, beta, matrixC, ldc, dataTypeC, type,
			      stream);
}

aclError aclblasHgemm(aclTransType transA, aclTransType transB,
		      aclTransType transC, int m, int n, int k,
		      const aclFloat16 *alpha, const aclFloat16 *matrixA,
		      int lda, const aclFloat16 *matrixB, int ldb,
		      const aclFloat16 *beta, aclFloat16 *matrixC, int ldc,
		      aclComputeType type, aclrtStream stream)
{
	PROF_API();
	return blas_gemm_call(__func__, transA, transB, transC, m, n, k,
			      alpha, matrixA, lda, ACL_FLOAT16, matrixB, ldb,
			      ACL_FLOAT16, beta, matrixC, ldc, ACL_FLOAT16,
			      type, stream);
}

aclError aclblasS8gemm(aclTransType transA, aclTransType transB,
		       aclTransType transC, int m, int n, int k,
		       const int32_t *alpha, const int8_t *matrixA, int lda,
		       const int8_t *matrixB, int ldb, const int32_t *beta,
		       int32_t *matrixC, int ldc, aclComputeType type,
		       aclrtStream stream)
{
	PROF_API();
	return blas_gemm_call(__func__, transA, transB, transC, m, n, k,
			      alpha, matrixA, lda, ACL_INT8, matrixB, ldb,
			      ACL_INT8, beta, matrixC, ldc, ACL_INT32, type,
			      stream);
}

aclError aclblasCreateHandleForGemmEx(aclTransType transA,
				      aclTransType transB,
				      aclTransType transC, int m, int n, int k,
				      aclDataType dataTypeA,
				      aclDataType dataTypeB,
				      aclDataType dataTypeC,
				      aclComputeType type, aclopHandle **handle)
{
	PROF_API();
	return blas_handle_create(__func__, transA, transB, transC, m, n, k,
				  dataTypeA, dataTypeB, dataTypeC, type,
				  handle);
}

aclError aclblasCreateHandleForHgemm(aclTransType transA,
				     aclTransType transB,
				     aclTransType transC, int m, int n, int k,
				     aclComputeType type, aclopHandle **handle)
{
	PROF_API();
	return blas_handle_create(__func__, transA, transB, transC, m, n, k,
				  ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, type,
				  handle);
}

aclError aclblasCreateHandleForS8gemm(aclTransType transA,
				      aclTransType transB,
				      aclTransType transC, int m, int n, int k,
				      aclComputeType type, aclopHandle **handle)
{
	PROF_API();
	return blas_handle_create(__func__, transA, transB, transC, m, n, k,
				  ACL_INT8, ACL_INT8, ACL_INT32, type, handle);
}
