// SPDX-License-Identifier: MIT
/*
 * Lowering of the indexing operators to one driver task each:
 * GatherElements (GATHER), GatherND, Scatter/ScatterElements (SCATTER
 * with its reduction), ScatterND, OneHot (ONE_HOT on a view of the output
 * that puts the depth last), Tile, ReverseSequence, and Slice with a
 * negative step (SLICE; positive steps stay strided copies in
 * lower_simple.c).
 */
#include <string.h>

#include "infer_util.h"
#include "lower_int.h"

static bool is(const struct ir_node *n, const char *op)
{
	return !strcmp(n->op_type, op);
}

static int input(const struct ir_node *n, int i)
{
	return i < n->nin ? n->inputs[i] : -1;
}

/* Views of inputs 0 .. nin - 1 and of output 0 at v[nin]. */
static int io_views(struct lower *L, const struct ir_node *n, int nin,
		    struct lw_view *v)
{
	int i;

	for (i = 0; i < nin; i++) {
		if (input(n, i) < 0)
			return lw_fail(L, "input %d is missing", i);
		if (lw_ir_view(L, n->inputs[i], &v[i]))
			return -1;
	}
	if (n->nout < 1 || n->outputs[0] < 0)
		return lw_fail(L, "output 0 is missing");
	return lw_ir_view(L, n->outputs[0], &v[nin]);
}

/* Axis attribute name of node n normalised to rank r. */
static int axis_attr(struct lower *L, const struct ir_node *n,
		     const char *name, int64_t dflt, uint32_t r, __s64 *out)
{
	int64_t a = ir_attr_int(n, name, dflt);

	if (a < 0)
		a += r;
	if (a < 0 || a >= (int64_t)r)
		return lw_fail(L, "%s %lld is outside rank %u", name,
			       (long long)ir_attr_int(n, name, dflt), r);
	*out = a;
	return 0;
}

static int lower_gather_elements(struct lower *L, const struct ir_node *n)
{
	struct drm_vnpu_op_attrs at;
	struct lw_view v[3];

	memset(&at, 0, sizeof(at));
	if (io_views(L, n, 2, v) ||
	    axis_attr(L, n, "axis", 0, v[0].t.rank, &at.ints[0]))
		return -1;
	return lw_emit(L, DRM_VNPU_OP_GATHER, v, 2, 1, &at);
}

static int lower_gather_nd(struct lower *L, const struct ir_node *n)
{
	struct drm_vnpu_op_attrs at;
	struct lw_view v[3];

	memset(&at, 0, sizeof(at));
	at.ints[0] = ir_attr_int(n, "batch_dims", 0);
	if (io_views(L, n, 2, v))
		return -1;
	return lw_emit(L, DRM_VNPU_OP_GATHER_ND, v, 2, 1, &at);
}

static int lower_scatter(struct lower *L, const struct ir_node *n)
{
	struct drm_vnpu_op_attrs at;
	struct lw_view v[4];
	int red = scatter_reduction(n);

	if (red < 0)
		return lw_fail(L, "unknown reduction");
	memset(&at, 0, sizeof(at));
	if (io_views(L, n, 3, v) ||
	    axis_attr(L, n, "axis", 0, v[0].t.rank, &at.ints[0]))
		return -1;
	at.ints[1] = red;
	return lw_emit(L, DRM_VNPU_OP_SCATTER, v, 3, 1, &at);
}

static int lower_scatter_nd(struct lower *L, const struct ir_node *n)
{
	struct drm_vnpu_op_attrs at;
	struct lw_view v[4];
	int red = scatter_reduction(n);

	if (red < 0)
		return lw_fail(L, "unknown reduction");
	memset(&at, 0, sizeof(at));
	at.ints[0] = red;
	if (io_views(L, n, 3, v))
		return -1;
	return lw_emit(L, DRM_VNPU_OP_SCATTER_ND, v, 3, 1, &at);
}

/* A contiguous arena view of dtype and shape (a scratch tensor). */
static int scratch_view(struct lower *L, uint32_t dtype, uint32_t rank,
			const int64_t *shape, struct lw_view *v)
{
	uint64_t bytes = ir_dtype_size((int)dtype);
	int64_t s = 1;
	uint32_t k;

	memset(v, 0, sizeof(*v));
	for (k = 0; k < rank; k++)
		bytes *= (uint64_t)shape[k];
	v->buf = lw_new_buf(L, bytes);
	if (v->buf < 0)
		return -1;
	v->t.loc = OM_LOC_ARENA;
	v->t.dtype = dtype;
	v->t.rank = rank;
	for (k = rank; k-- > 0;) {
		v->t.shape[k] = shape[k];
		v->t.strides[k] = s;
		s *= shape[k];
	}
	return 0;
}

/*
 * OneHot: indices of another dtype are cast to INT64 first; the output is
 * seen with the depth dim moved last, the layout ONE_HOT writes.
 */
static int lower_one_hot(struct lower *L, const struct ir_node *n)
{
	struct lw_view v[4], idx, vals, out, cast[2];
	__s64 axis;
	uint32_t r, k, j = 0;

	if (input(n, 2) < 0 || lw_ir_view(L, input(n, 0), &idx) ||
	    lw_ir_view(L, n->inputs[2], &vals) ||
	    lw_ir_view(L, n->outputs[0], &out))
		return -1;
	r = out.t.rank;
	if (axis_attr(L, n, "axis", -1, r, &axis))
		return -1;
	if (idx.t.dtype != DT_INT32 && idx.t.dtype != DT_INT64) {
		cast[0] = idx;
		if (scratch_view(L, DT_INT64, idx.t.rank, idx.t.shape, &cast[1]) ||
		    lw_emit(L, DRM_VNPU_OP_CAST, cast, 1, 1, NULL))
			return -1;
		idx = cast[1];
	}
	v[0] = idx;
	/* ONNX's values [off, on]: two one-element views of it */
	vals.t.rank = 1;
	vals.t.shape[0] = 1;
	vals.t.strides[0] = 1;
	v[1] = vals;
	v[2] = vals;
	v[2].t.offset += ir_dtype_size((int)vals.t.dtype);
	v[3] = out;
	for (k = 0; k < r; k++) {
		if ((int64_t)k == axis)
			continue;
		v[3].t.shape[j] = out.t.shape[k];
		v[3].t.strides[j++] = out.t.strides[k];
	}
	v[3].t.shape[r - 1] = out.t.shape[axis];
	v[3].t.strides[r - 1] = out.t.strides[axis];
	return lw_emit(L, DRM_VNPU_OP_ONE_HOT, v, 3, 1, NULL);
}

static int lower_tile(struct lower *L, const struct ir_node *n)
{
	struct lw_view v[2];

	if (lw_ir_view(L, input(n, 0), &v[0]) ||
	    lw_ir_view(L, n->outputs[0], &v[1]))
		return -1;
	return lw_emit(L, DRM_VNPU_OP_TILE, v, 1, 1, NULL);
}

static int lower_reverse_sequence(struct lower *L, const struct ir_node *n)
{
	struct drm_vnpu_op_attrs at;
	struct lw_view v[3];

	memset(&at, 0, sizeof(at));
	if (io_views(L, n, 2, v) ||
	    axis_attr(L, n, "batch_axis", 1, v[0].t.rank, &at.ints[0]) ||
	    axis_attr(L, n, "time_axis", 0, v[0].t.rank, &at.ints[1]))
		return -1;
	return lw_emit(L, DRM_VNPU_OP_REVERSE_SEQUENCE, v, 2, 1, &at);
}

/* Slice with a negative step somewhere: 1 (not handled) otherwise. */
static int lower_slice_back(struct lower *L, const struct ir_node *n)
{
	int64_t first[IR_MAX_RANK], step[IR_MAX_RANK], dims[IR_MAX_RANK];
	struct drm_vnpu_op_attrs at;
	struct lw_view v[2];
	bool back = false;
	int d;

	/* slice_params only reads the graph */
	if (slice_params((struct ir_graph *)L->g, (struct ir_node *)n, first,
			 step, dims, L->err, L->errlen))
		return -1;
	for (d = 0; d < L->g->tensors[n->inputs[0]].rank; d++)
		if (step[d] < 0)
			back = true;
	if (!back)
		return 1;
	if (io_views(L, n, 1, v))
		return -1;
	memset(&at, 0, sizeof(at));
	for (d = 0; d < (int)v[0].t.rank; d++) {
		if (dims[d] != v[1].t.shape[d])
			return lw_fail(L, "the slice does not give the inferred shape");
		at.ints[d] = dims[d] ? first[d] : 0;
		at.ints[8 + d] = step[d];
	}
	return lw_emit(L, DRM_VNPU_OP_SLICE, v, 1, 1, &at);
}

int lower_index(struct lower *L, const struct ir_node *n)
{
	if (n->domain && *n->domain)
		return 1;
	if (is(n, "GatherElements"))
		return lower_gather_elements(L, n);
	if (is(n, "GatherND"))
		return lower_gather_nd(L, n);
	if (is(n, "Scatter") || is(n, "ScatterElements"))
		return lower_scatter(L, n);
	if (is(n, "ScatterND"))
		return lower_scatter_nd(L, n);
	if (is(n, "OneHot"))
		return lower_one_hot(L, n);
	if (is(n, "Tile"))
		return lower_tile(L, n);
	if (is(n, "ReverseSequence"))
		return lower_reverse_sequence(L, n);
	if (is(n, "Slice"))
		return lower_slice_back(L, n);
	return 1;
}
