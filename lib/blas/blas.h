/* SPDX-License-Identifier: MIT */
/*
 * CANN's cblas (acl/ops/acl_cblas.h) on the device GEMM: a call is checked
 * (blas_check.c), turned into aclnn-style KERNEL tasks (blas_run.c) and
 * queued with a workspace kept per stream (blas_ws.c). The gemv forms
 * are gemms with n = 1, as in CANN. Documentation/blas.md.
 */
#ifndef VNPU_BLAS_BLAS_H
#define VNPU_BLAS_BLAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/ops/acl_cblas.h"

struct rt_stream;

/* A checked call: shapes, leading dimensions (resolved) and dtypes. */
struct blas_gemm {
	aclTransType ta, tb;
	int64_t m, n, k;
	int64_t lda, ldb, ldc;
	aclDataType da, db, dc;
};

/* Which arguments a check covers: a call has leading dims, a handle not. */
#define BLAS_CHECK_LD	1

/*
 * Check a gemm description the way CANN does (m, n, k > 0, the trans
 * values, HIGH_PRECISION), then what vnpu runs: leading dims -1 (packed)
 * or at least the row length, no FRACTAL_NZ (ACL_ERROR_API_NOT_SUPPORT),
 * a supported dtype combination (ACL_ERROR_UNSUPPORTED_DATA_TYPE), sizes
 * one device task takes (ACL_ERROR_INVALID_PARAM). Fills g.
 */
aclError blas_check(const char *func, aclTransType ta, aclTransType tb,
		    aclTransType tc, int m, int n, int k, int lda, int ldb,
		    int ldc, aclDataType da, aclDataType db, aclDataType dc,
		    aclComputeType type, unsigned int flags,
		    struct blas_gemm *g);

/* Bytes an operand spans: A (0), B (1), C (2). */
uint64_t blas_span(const struct blas_gemm *g, int which);

/*
 * Queue C_out = alpha * op(A) op(B) + beta * C_in on stream (C_in and
 * C_out may be the same memory); alpha and beta are device pointers.
 */
aclError blas_run(const char *func, const struct blas_gemm *g,
		  const void *alpha, const void *a, const void *b,
		  const void *beta, const void *c_in, void *c_out,
		  aclrtStream stream);

/* The gemm of a call with every argument as given (the public forms). */
aclError blas_gemm_call(const char *func, aclTransType ta, aclTransType tb,
			aclTransType tc, int m, int n, int k,
			const void *alpha, const void *a, int lda,
			aclDataType da, const void *b, int ldb,
			aclDataType db, const void *beta, void *c, int ldc,
			aclDataType dc, aclComputeType type,
			aclrtStream stream);

/* An aclopHandle for aclopExecWithHandle running this gemm. */
aclError blas_handle_create(const char *func, aclTransType ta,
			    aclTransType tb, aclTransType tc, int m, int n,
			    int k, aclDataType da, aclDataType db,
			    aclDataType dc, aclComputeType type,
			    aclopHandle **handle);

/*
 * The stream's workspace of at least size bytes (blas_ws.c), held until
 * blas_ws_put: the tasks that use it are queued in between. *tmp set:
 * a one-off buffer (the slot table was full) that blas_ws_put frees
 * after a stream sync.
 */
int blas_ws_get(struct rt_stream *s, size_t size, void **ws, bool *tmp);
int blas_ws_put(struct rt_stream *s, void *ws, bool tmp);

#endif /* VNPU_BLAS_BLAS_H */
