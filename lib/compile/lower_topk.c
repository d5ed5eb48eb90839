// SPDX-License-Identifier: MIT
/*
 * TopK on the device (DRM_VNPU_OP_TOPK): K must be known at compile time
 * (it is the outputs' size along the axis). The device's sort is stable,
 * so equal values keep the lower index first, as ONNX requires.
 */
#include <string.h>

#include "infer_util.h"
#include "lower_int.h"

INFER(topk)
{
	const struct ir_tensor *x = IN(0);
	int64_t k, d[IR_MAX_RANK];
	int axis;

	if (ir_const_ints(g, n->inputs[1], &k, 1) != 1)
		return NERR(n, "K must be a constant");
	if (norm_axis(n, ir_attr_int(n, "axis", -1), x->rank, &axis, err, errlen))
		return -1;
	if (k < 0 || k > x->dims[axis])
		return NERR(n, "K %lld is not in 0..%lld", (long long)k,
			    (long long)x->dims[axis]);
	memcpy(d, x->dims, sizeof(d));
	d[axis] = k;
	set_out(g, n, 0, x->dtype, x->rank, d);
	return set_out(g, n, 1, DT_INT64, x->rank, d);
}

int lower_topk(struct lower *L, const struct ir_node *n)
{
	const struct ir_tensor *x;
	struct drm_vnpu_op_attrs at;
	struct lw_view v[3];
	int64_t axis;
	int scratch = -1;

	if (strcmp(n->op_type, "TopK"))
		return 1;
	x = &L->g->tensors[n->inputs[0]];
	axis = ir_attr_int(n, "axis", -1);
	if (axis < 0)
		axis += x->rank;
	if (lw_ir_view(L, n->inputs[0], &v[0]))
		return -1;
	/* an omitted output still needs somewhere to go */
	for (int k = 0; k < 2; k++) {
		if (n->nout > k && n->outputs[k] >= 0) {
			if (lw_ir_view(L, n->outputs[k], &v[1 + k]))
				return -1;
			continue;
		}
		if (k == 0 || n->nout < 1 || n->outputs[0] < 0)
			return lw_fail(L, "TopK needs its Values output");
		v[2] = v[1];
		scratch = lw_new_buf(L, (uint64_t)ir_numel(&L->g->tensors[n->outputs[0]]) * 8);
		if (scratch < 0)
			return -1;
		v[2].t.loc = OM_LOC_ARENA;
		v[2].t.index = 0;
		v[2].t.offset = 0;
		v[2].t.dtype = DT_INT64;
		v[2].t.name = 0;
		v[2].buf = scratch;
	}
	memset(&at, 0, sizeof(at));
	at.ints[0] = axis;
	at.ints[2] = ir_attr_int(n, "largest", 1) != 0;
	at.ints[3] = ir_attr_int(n, "sorted", 1) != 0;
	return lw_emit(L, DRM_VNPU_OP_TOPK, v, 1, 2, &at);
}
