// SPDX-License-Identifier: MIT
/*
 * The gemv entry points. As in CANN, y = alpha * op(A) * x + beta * y is
 * the gemm with op(A) m x n, x as n x 1 and y as m x 1, so incx and incy
 * are the leading dimensions of those one-column matrices: -1 (packed)
 * or a stride of at least 1 element.
 */
#include "blas.h"
#include "../core/prof_rt.h"

aclError aclblasGemvEx(aclTransType transA, int m, int n, const void *alpha,
		       const void *a, int lda, aclDataType dataTypeA,
		       const void *x, int incx, aclDataType dataTypeX,
		       const void *beta, void *y, int incy,
		       aclDataType dataTypeY, aclComputeType type,
		       aclrtStream stream)
{
	PROF_API();
	return blas_gemm_call(__func__, transA, ACL_TRANS_N, ACL_TRANS_N, m, 1,
			      n, alpha, a, lda, dataTypeA, x, incx, dataTypeX,
			      beta, y, incy, dataTypeY, type, stream);
}

aclError aclblasHgemv(aclTransType transA, int m, int n,
		      const aclFloat16 *alpha, const aclFloat16 *a, int lda,
		      const aclFloat16 *x, int incx, const aclFloat16 *beta,
		      aclFloat16 *y, int incy, aclComputeType type,
		      aclrtStream stream)
{
	PROF_API();
	return blas_gemm_call(__func__, transA, ACL_TRANS_N, ACL_TRANS_N, m, 1,
			      n, alpha, a, lda, ACL_FLOAT16, x, incx,
			      ACL_FLOAT16, beta, y, incy, ACL_FLOAT16, type,
			      stream);
}

aclError aclblasS8gemv(aclTransType transA, int m, int n,
		       const int32_t *alpha, const int8_t *a, int lda,
		       const int8_t *x, int incx, const int32_t *beta,
		       int32_t *y, int incy, aclComputeType type,
		       aclrtStream stream)
{
	PROF_API();
	return blas_gemm_call(__func__, transA, ACL_TRANS_N, ACL_TRANS_N, m, 1,
			      n, alpha, a, lda, ACL_INT8, x, incx, ACL_INT8,
			      beta, y, incy, ACL_INT32, type, stream);
}

aclError aclblasCreateHandleForGemvEx(aclTransType transA, int m, int n,
				      aclDataType dataTypeA,
				      aclDataType dataTypeX,
				      aclDataType dataTypeY,
				      aclComputeType type, aclopHandle **handle)
{
	PROF_API();
	return blas_handle_create(__func__, transA, ACL_TRANS_N, ACL_TRANS_N,
				  m, 1, n, dataTypeA, dataTypeX, dataTypeY,
				  type, handle);
}

aclError aclblasCreateHandleForHgemv(aclTransType transA, int m, int n,
				     aclComputeType type, aclopHandle **handle)
{
	PROF_API();
	return blas_handle_create(__func__, transA, ACL_TRANS_N, ACL_TRANS_N,
				  m, 1, n, ACL_FLOAT16, ACL_FLOAT16,
				  ACL_FLOAT16, type, handle);
}

aclError aclblasCreateHandleForS8gemv(aclTransType transA, int m, int n,
				      aclComputeType type, aclopHandle **handle)
{
	PROF_API();
	return blas_handle_create(__func__, transA, ACL_TRANS_N, ACL_TRANS_N,
				  m, 1, n, ACL_INT8, ACL_INT8, ACL_INT32, type,
				  handle);
}
