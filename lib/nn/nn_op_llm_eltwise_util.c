/* SPDX-License-Identifier: MIT */
/* See nn_llm_eltwise.h. */
#include <string.h>

#include "nn_llm_eltwise.h"

bool llm_bcast(const aclTensor *const *ts, int n, uint64_t *rank,
	       int64_t *shape)
{
	uint64_t r = 0, i;
	int k;

	for (k = 0; k < n; k++)
		if (ts[k]->ndim > r)
			r = ts[k]->ndim;
	for (i = 0; i < r; i++)
		shape[i] = 1;
	for (k = 0; k < n; k++) {
		const aclTensor *t = ts[k];
		uint64_t lead = r - t->ndim;

		for (i = 0; i < t->ndim; i++) {
			int64_t d = t->dims[i], *o = &shape[lead + i];

			if (d == *o || d == 1)
				continue;
			if (*o != 1)
				return false;
			*o = d;
		}
	}
	*rank = r;
	return true;
}

bool llm_bcasts_to(const aclTensor *t, uint64_t rank, const int64_t *shape)
{
	uint64_t lead, i;

	if (t->ndim > rank)
		return false;
	lead = rank - t->ndim;
	for (i = 0; i < t->ndim; i++)
		if (t->dims[i] != 1 && t->dims[i] != shape[lead + i])
			return false;
	return true;
}

struct nn_ref llm_expand(struct nn_ref r, uint32_t rank, const int64_t *shape)
{
	struct nn_ref e = r;
	uint32_t lead = rank - r.rank, i;

	e.rank = rank;
	for (i = 0; i < rank; i++) {
		bool have = i >= lead;
		int64_t d = have ? r.shape[i - lead] : 1;

		e.shape[i] = shape[i];
		e.strides[i] = have && d == shape[i] ? r.strides[i - lead] : 0;
	}
	return e;
}

double llm_scalar_f(const aclScalar *s)
{
	return s->is_float ? s->v.f : (double)s->v.i;
}

void llm_fill_attrs(struct drm_vnpu_op_attrs *at, uint32_t dt, double v)
{
	memset(at, 0, sizeof(*at));
	if (nn_dtype_category(dt) == 2)
		nn_set_float(at, 0, (float)v);
	else
		at->ints[0] = (int64_t)v;
}

struct nn_ref llm_fill_scalar(aclOpExecutor *ex, uint32_t dt,
			      const aclScalar *s)
{
	struct drm_vnpu_op_attrs at;
	struct nn_ref r = nn_ws(ex, dt, 0, NULL);

	llm_fill_attrs(&at, dt, llm_scalar_f(s));
	/* an integer scalar keeps all 64 bits */
	if (nn_dtype_category(dt) < 2 && !s->is_float)
		at.ints[0] = s->v.i;
	nn_task(ex, DRM_VNPU_OP_FILL, NULL, 0, &r, &at);
	return r;
}

int llm_copy(aclOpExecutor *ex, struct nn_ref src, struct nn_ref dst)
{
	return nn_task(ex, src.dtype == dst.dtype ? DRM_VNPU_OP_STRIDED_COPY :
		       DRM_VNPU_OP_CAST, &src, 1, &dst, NULL);
}

struct nn_ref llm_narrow(struct nn_ref r, uint32_t d, int64_t i, int64_t n)
{
	r.off += i * r.strides[d];
	r.shape[d] = n;
	return r;
}

aclnnStatus llm_check(const char *func, const aclTensor *t, const char *name,
		      uint64_t mask)
{
	aclnnStatus st = nn_check_tensor_any(func, t, name);

	if (st)
		return st;
	if ((unsigned)t->dtype >= 64 || !(mask & DT(t->dtype)))
		return acl_fail_at(func, ACLNN_ERR_PARAM_INVALID,
				   "%s: dtype %d is not supported", name,
				   (int)t->dtype);
	return ACLNN_SUCCESS;
}
