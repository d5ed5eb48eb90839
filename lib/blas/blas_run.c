// SPDX-License-Identifier: MIT
/*
 * A checked gemm as KERNEL tasks on the stream, the same device GEMM as
 * aclnnMatmul. alpha and beta are device values, so they are tensors of
 * the tasks, not attributes:
 *   P = op(A) @ op(B)          MATMUL in fp32 (fp16 operands widened) or
 *                              MATMUL_INT into int32 for int8
 *   X = alpha * P,  S = X + beta * C
 *   C = beta != 0 ? S : X      WHERE on beta cast to BOOL, so that with
 *                              beta 0 C is only written (NaN stays out)
 * Leading dimensions and transposes are strides of the views; the
 * intermediates live in the stream's workspace (blas_ws.c).
 */
#include <string.h>

#include "blas.h"
#include "../nn/nn.h"
#include "../core/entry_check.h"
#include "../core/rt_objects.h"

/* A 2-D view of device memory (rank 0 for a scalar). */
static void view(aclTensor *t, aclDataType dt, const void *p, int rank,
		 int64_t d0, int64_t d1, int64_t s0, int64_t s1)
{
	memset(t, 0, sizeof(*t));
	t->magic = TENSOR_MAGIC;
	t->dtype = dt;
	t->format = ACL_FORMAT_ND;
	t->ndim = (uint64_t)rank;
	t->dims[0] = d0;
	t->dims[1] = d1;
	t->strides[0] = s0;
	t->strides[1] = s1;
	t->data = (void *)(uintptr_t)p;
}

/* The tasks of g into ex; 0 or what nn_task returned. */
static int build(aclOpExecutor *ex, const struct blas_gemm *g,
		 const aclTensor *ta, const aclTensor *tb,
		 const aclTensor *tal, const aclTensor *tbe,
		 const aclTensor *tc, const aclTensor *to)
{
	uint32_t cd = g->dc == ACL_INT32 ? ACL_INT32 : ACL_FLOAT;
	int64_t mn[2] = { g->m, g->n };
	struct nn_ref a, b, al, be, c, o, p, x, y, s, bb, in[3];
	int ret;

	a = nn_bind_tensor(ex, ta, false);
	b = nn_bind_tensor(ex, tb, false);
	c = nn_bind_tensor(ex, tc, false);
	al = nn_bind_tensor(ex, tal, false);
	be = nn_bind_tensor(ex, tbe, false);
	o = nn_bind_tensor(ex, to, true);
	if (g->da == ACL_INT8) {
		p = nn_ws(ex, ACL_INT32, 2, mn);
		in[0] = a;
		in[1] = b;
		ret = nn_task(ex, DRM_VNPU_OP_MATMUL_INT, in, 2, &p, NULL);
		p = nn_cast(ex, p, cd);
	} else {
		p = nn_ws(ex, ACL_FLOAT, 2, mn);
		in[0] = nn_cast(ex, a, ACL_FLOAT);
		in[1] = nn_cast(ex, b, ACL_FLOAT);
		ret = nn_task(ex, DRM_VNPU_OP_MATMUL, in, 2, &p, NULL);
	}
	al = nn_cast(ex, al, cd);
	be = nn_cast(ex, be, cd);
	c = nn_cast(ex, c, cd);
	x = nn_ws(ex, cd, 2, mn);
	y = nn_ws(ex, cd, 2, mn);
	s = nn_ws(ex, cd, 2, mn);
	in[0] = al;
	in[1] = p;
	ret = ret ? ret : nn_task(ex, DRM_VNPU_OP_MUL, in, 2, &x, NULL);
	in[0] = be;
	in[1] = c;
	ret = ret ? ret : nn_task(ex, DRM_VNPU_OP_MUL, in, 2, &y, NULL);
	in[0] = x;
	in[1] = y;
	ret = ret ? ret : nn_task(ex, DRM_VNPU_OP_ADD, in, 2, &s, NULL);
	bb = nn_cast(ex, be, ACL_BOOL);
	in[0] = bb;
	in[1] = s;
	in[2] = x;
	ret = ret ? ret : nn_task_to_out(ex, DRM_VNPU_OP_WHERE, in, 3, o, cd,
					 NULL);
	return ret ? ret : ex->failed ? -1 : 0;
}

aclError blas_run(const char *func, const struct blas_gemm *g,
		  const void *alpha, const void *a, const void *b,
		  const void *beta, const void *c_in, void *c_out,
		  aclrtStream stream)
{
	aclTensor ta, tb, tal, tbe, tc, to;
	struct rt_stream *s;
	aclOpExecutor *ex;
	aclnnStatus st;
	aclError err;
	void *ws = NULL;
	bool tmp;
	int ret;

	err = rt_stream_arg(func, stream, &s);
	if (err)
		return err;
	if (g->ta == ACL_TRANS_T)
		view(&ta, g->da, a, 2, g->m, g->k, 1, g->lda);
	else
		view(&ta, g->da, a, 2, g->m, g->k, g->lda, 1);
	if (g->tb == ACL_TRANS_T)
		view(&tb, g->db, b, 2, g->k, g->n, 1, g->ldb);
	else
		view(&tb, g->db, b, 2, g->k, g->n, g->ldb, 1);
	view(&tc, g->dc, c_in, 2, g->m, g->n, g->ldc, 1);
	view(&to, g->dc, c_out, 2, g->m, g->n, g->ldc, 1);
	view(&tal, g->dc, alpha, 0, 0, 0, 0, 0);
	view(&tbe, g->dc, beta, 0, 0, 0, 0, 0);
	ex = nn_exec_new(func);
	if (!ex)
		return acl_fail_at(func, ACL_ERROR_BAD_ALLOC, "out of memory");
	if (build(ex, g, &ta, &tb, &tal, &tbe, &tc, &to)) {
		nn_exec_free(ex);
		return acl_fail_at(func, ACL_ERROR_BAD_ALLOC,
				   "out of memory building the tasks");
	}
	ret = blas_ws_get(s, ex->ws_size, &ws, &tmp);
	if (ret) {
		nn_exec_free(ex);
		return rt_error_at(func, ret, ACL_ERROR_RT_WAIT_TIMEOUT,
				   "getting the workspace");
	}
	st = nn_launch(func, ws, ex->ws_size, ex, stream);	/* frees ex */
	ret = blas_ws_put(s, ws, tmp);
	if (st)
		return acl_fail_at(func, ACL_ERROR_INTERNAL_ERROR,
				   "queueing the tasks failed (%d)", (int)st);
	return ret ? rt_error_at(func, ret, ACL_ERROR_RT_WAIT_TIMEOUT,
				 "syncing the stream") : ACL_SUCCESS;
}
