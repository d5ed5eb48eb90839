// SPDX-License-Identifier: MIT
/*
 * The argument rules of the cblas calls. CANN checks m, n, k, the trans
 * values and the compute type and only takes lda = ldb = ldc = -1; vnpu
 * also takes a leading dimension of at least the stored row length (a
 * superset, Documentation/blas.md). What CANN leaves to its GEMM op
 * model (dtypes, layouts, sizes) vnpu checks here, before anything is
 * queued, so a bad call never reaches the device.
 */
#include "blas.h"
#include "../core/error.h"

/* The most elements any operand may span, and the kernel's task sizes. */
#define BLAS_MAX_ELEMS	(1LL << 36)
#define BLAS_MAX_K_F	149796LL	/* MATMUL: 14 * 32 * K <= 2^26 */
#define BLAS_MAX_NK_I8	(1LL << 26)	/* MATMUL_INT: N * K <= 2^26 */

static bool combo_ok(aclDataType da, aclDataType db, aclDataType dc)
{
	if (da != db)
		return false;
	if (da == ACL_FLOAT16)
		return dc == ACL_FLOAT16 || dc == ACL_FLOAT;
	if (da == ACL_FLOAT)
		return dc == ACL_FLOAT;
	if (da == ACL_INT8)
		return dc == ACL_INT32 || dc == ACL_FLOAT;
	return false;
}

static size_t esize(aclDataType dt)
{
	return dt == ACL_INT8 ? 1 : dt == ACL_FLOAT16 ? 2 : 4;
}

/* Stored rows and columns of an operand (row-major, as given). */
static void stored(const struct blas_gemm *g, int which, int64_t *rows,
		   int64_t *cols, int64_t *ld)
{
	if (which == 0) {
		*rows = g->ta == ACL_TRANS_T ? g->k : g->m;
		*cols = g->ta == ACL_TRANS_T ? g->m : g->k;
		*ld = g->lda;
	} else if (which == 1) {
		*rows = g->tb == ACL_TRANS_T ? g->n : g->k;
		*cols = g->tb == ACL_TRANS_T ? g->k : g->n;
		*ld = g->ldb;
	} else {
		*rows = g->m;
		*cols = g->n;
		*ld = g->ldc;
	}
}

static int64_t span_elems(const struct blas_gemm *g, int which)
{
	int64_t rows, cols, ld;

	stored(g, which, &rows, &cols, &ld);
	return (rows - 1) * ld + cols;
}

uint64_t blas_span(const struct blas_gemm *g, int which)
{
	aclDataType dt = which == 0 ? g->da : which == 1 ? g->db : g->dc;

	return (uint64_t)span_elems(g, which) * esize(dt);
}

/* -1: packed; else at least the row length. */
static aclError ld_arg(const char *func, const char *name, int ld, int64_t cols,
		       int64_t *out)
{
	if (ld == -1) {
		*out = cols;
		return ACL_SUCCESS;
	}
	if (ld < cols)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s = %d: use -1 (packed) or at least the stored row length %lld",
				   name, ld, (long long)cols);
	*out = ld;
	return ACL_SUCCESS;
}

aclError blas_check(const char *func, aclTransType ta, aclTransType tb,
		    aclTransType tc, int m, int n, int k, int lda, int ldb,
		    int ldc, aclDataType da, aclDataType db, aclDataType dc,
		    aclComputeType type, unsigned int flags,
		    struct blas_gemm *g)
{
	int64_t rows, cols, ld;
	aclError err;

	if (m <= 0 || n <= 0 || k <= 0)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "m, n and k must be > 0 (m = %d, n = %d, k = %d)",
				   m, n, k);
	if ((int)ta < ACL_TRANS_N || (int)ta >= ACL_TRANS_NZ_T ||
	    (int)tb < ACL_TRANS_N || (int)tb >= ACL_TRANS_NZ_T)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "transA %d / transB %d: only ACL_TRANS_N, ACL_TRANS_T and ACL_TRANS_NZ",
				   (int)ta, (int)tb);
	if (tc != ACL_TRANS_N && tc != ACL_TRANS_NZ)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "transC %d: only ACL_TRANS_N and ACL_TRANS_NZ",
				   (int)tc);
	if (type != ACL_COMPUTE_HIGH_PRECISION)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "compute type %d: only ACL_COMPUTE_HIGH_PRECISION",
				   (int)type);
	if (ta == ACL_TRANS_NZ || tb == ACL_TRANS_NZ || tc == ACL_TRANS_NZ)
		return acl_fail_at(func, ACL_ERROR_API_NOT_SUPPORT,
				   "vnpu has no FRACTAL_NZ layout: pass the matrices in ND (ACL_TRANS_N or ACL_TRANS_T)");
	if (!combo_ok(da, db, dc))
		return acl_fail_at(func, ACL_ERROR_UNSUPPORTED_DATA_TYPE,
				   "A, B, C of dtypes %d, %d, %d: supported are fp16 x fp16 -> fp16 or fp32, fp32 x fp32 -> fp32, int8 x int8 -> int32 or fp32",
				   (int)da, (int)db, (int)dc);
	*g = (struct blas_gemm){ .ta = ta, .tb = tb, .m = m, .n = n, .k = k,
				 .lda = -1, .ldb = -1, .ldc = -1,
				 .da = da, .db = db, .dc = dc };
	if (!(flags & BLAS_CHECK_LD))
		lda = ldb = ldc = -1;
	stored(g, 0, &rows, &cols, &ld);
	err = ld_arg(func, "lda", lda, cols, &g->lda);
	stored(g, 1, &rows, &cols, &ld);
	if (!err)
		err = ld_arg(func, "ldb", ldb, cols, &g->ldb);
	if (!err)
		err = ld_arg(func, "ldc", ldc, (int64_t)n, &g->ldc);
	if (err)
		return err;
	for (int w = 0; w < 3; w++)
		if (span_elems(g, w) > BLAS_MAX_ELEMS)
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "%c spans %lld elements, more than the %lld a device task takes",
					   "ABC"[w], (long long)span_elems(g, w),
					   BLAS_MAX_ELEMS);
	if ((int64_t)m * n > BLAS_MAX_ELEMS / 4)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "m * n = %lld: the workspace would exceed 2^36 bytes",
				   (long long)m * n);
	if (da == ACL_INT8 ? (int64_t)n * k > BLAS_MAX_NK_I8 : k > BLAS_MAX_K_F)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   da == ACL_INT8 ?
				   "n * k = %lld: one int8 matrix row task takes at most 2^26" :
				   "k = %lld: one GEMM task takes at most 149796",
				   da == ACL_INT8 ? (long long)n * k : (long long)k);
	return ACL_SUCCESS;
}
