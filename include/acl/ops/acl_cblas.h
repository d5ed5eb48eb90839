/*
 * acl/ops/acl_cblas.h - CANN's BLAS-style matrix products: GEMM and GEMV
 * on device memory, queued on a stream (link -lacl_cblas).
 *
 * Matrices are row-major. The gemm forms compute
 *     C = alpha * op(A) * op(B) + beta * C
 * with op(A) m x k, op(B) k x n and C m x n; the gemv forms compute
 *     y = alpha * op(A) * x + beta * y
 * with op(A) m x n. alpha and beta point to device memory holding one
 * value of C's (y's) data type. When beta is 0, C (y) is only written.
 * Every call only queues work: the result is there once the stream is
 * synchronized. The handle forms describe a call once for
 * aclopExecWithHandle (inputs A, B, C, alpha, beta; output C).
 * Documentation/blas.md describes vnpu's implementation.
 */
#ifndef VNPU_ACL_OPS_ACL_CBLAS_H
#define VNPU_ACL_OPS_ACL_CBLAS_H

#include <stdint.h>

#include "acl/acl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a matrix argument is stored. */
typedef enum aclTransType {
	ACL_TRANS_N,		/* as is */
	ACL_TRANS_T,		/* transposed */
	ACL_TRANS_NZ,		/* FRACTAL_NZ layout */
	ACL_TRANS_NZ_T		/* FRACTAL_NZ, transposed */
} aclTransType;

typedef enum aclComputeType {
	ACL_COMPUTE_HIGH_PRECISION,
	ACL_COMPUTE_LOW_PRECISION
} aclComputeType;

/* y = alpha * op(A) * x + beta * y; op(A) is m x n. */
ACL_FUNC_VISIBILITY aclError aclblasGemvEx(aclTransType transA, int m, int n,
	const void *alpha, const void *a, int lda, aclDataType dataTypeA,
	const void *x, int incx, aclDataType dataTypeX,
	const void *beta, void *y, int incy, aclDataType dataTypeY,
	aclComputeType type, aclrtStream stream);

ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForGemvEx(aclTransType transA,
	int m, int n, aclDataType dataTypeA, aclDataType dataTypeX,
	aclDataType dataTypeY, aclComputeType type, aclopHandle **handle);

ACL_FUNC_VISIBILITY aclError aclblasHgemv(aclTransType transA, int m, int n,
	const aclFloat16 *alpha, const aclFloat16 *a, int lda,
	const aclFloat16 *x, int incx, const aclFloat16 *beta,
	aclFloat16 *y, int incy, aclComputeType type, aclrtStream stream);

ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForHgemv(aclTransType transA,
	int m, int n, aclComputeType type, aclopHandle **handle);

ACL_FUNC_VISIBILITY aclError aclblasS8gemv(aclTransType transA, int m, int n,
	const int32_t *alpha, const int8_t *a, int lda,
	const int8_t *x, int incx, const int32_t *beta,
	int32_t *y, int incy, aclComputeType type, aclrtStream stream);

ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForS8gemv(aclTransType transA,
	int m, int n, aclComputeType type, aclopHandle **handle);

/* C = alpha * op(A) * op(B) + beta * C; op(A) m x k, op(B) k x n. */
ACL_FUNC_VISIBILITY aclError aclblasGemmEx(aclTransType transA,
	aclTransType transB, aclTransType transC, int m, int n, int k,
	const void *alpha, const void *matrixA, int lda, aclDataType dataTypeA,
	const void *matrixB, int ldb, aclDataType dataTypeB,
	const void *beta, void *matrixC, int ldc, aclDataType dataTypeC,
	aclComputeType type, aclrtStream stream);

ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForGemmEx(aclTransType transA,
	aclTransType transB, aclTransType transC, int m, int n, int k,
	aclDataType dataTypeA, aclDataType dataTypeB, aclDataType dataTypeC,
	aclComputeType type, aclopHandle **handle);

ACL_FUNC_VISIBILITY aclError aclblasHgemm(aclTransType transA,
	aclTransType transB, aclTransType transC, int m, int n, int k,
	const aclFloat16 *alpha, const aclFloat16 *matrixA, int lda,
	const aclFloat16 *matrixB, int ldb, const aclFloat16 *beta,
	aclFloat16 *matrixC, int ldc, aclComputeType type, aclrtStream stream);

ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForHgemm(aclTransType transA,
	aclTransType transB, aclTransType transC, int m, int n, int k,
	aclComputeType type, aclopHandle **handle);

ACL_FUNC_VISIBILITY aclError aclblasS8gemm(aclTransType transA,
	aclTransType transB, aclTransType transC, int m, int n, int k,
	const int32_t *alpha, const int8_t *matrixA, int lda,
	const int8_t *matrixB, int ldb, const int32_t *beta,
	int32_t *matrixC, int ldc, aclComputeType type, aclrtStream stream);

ACL_FUNC_VISIBILITY aclError aclblasCreateHandleForS8gemm(aclTransType transA,
	aclTransType transB, aclTransType transC, int m, int n, int k,
	aclComputeType type, aclopHandle **handle);

#ifdef __cplusplus
}
#endif

#endif /* VNPU_ACL_OPS_ACL_CBLAS_H */
