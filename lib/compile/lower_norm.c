// SPDX-License-Identifier: MIT
/*
 * Normalizations and losses as driver tasks: the forms no aclnn call
 * computes. NORM_AXES normalizes over any set of dims and can also write
 * the mean and the variance (or 1/std), so it serves LayerNormalization
 * with its Mean/InvStdDev outputs, InstanceNormalization,
 * MeanVarianceNormalization and BatchNormalization in training mode (the
 * running statistics are two ADD/SUB tasks more). NegativeLogLikelihoodLoss
 * is one NLL_LOSS task; SoftmaxCrossEntropyLoss is LOG_SOFTMAX over the
 * classes (into its log_prob output or scratch) and NLL_LOSS. Softmax
 * before opset 13 flattens the input to 2-D at its axis: a view.
 */
#include <string.h>

#include "infer_util.h"
#include "lower_int.h"

#define NAX_EPS_ON_STD	1
#define NAX_STAT_VAR	2

static bool is(const struct ir_node *n, const char *op)
{
	return !strcmp(n->op_type, op);
}

static int input(const struct ir_node *n, int i)
{
	return i < n->nin ? n->inputs[i] : -1;
}

static bool has_out(const struct ir_node *n, int k)
{
	return k >= 0 && k < n->nout && n->outputs[k] >= 0;
}

/*
 * IR tensor ti as a parameter of NORM_AXES: x's rank r, its own dims at
 * first.., every other dim 1.
 */
static int param_view(struct lower *L, int ti, uint32_t r, uint32_t first,
		      struct lw_view *v)
{
	struct om_tensor t;
	uint32_t k;

	if (lw_ir_view(L, ti, v))
		return -1;
	t = v->t;
	if (first + t.rank > r)
		return lw_fail(L, "a parameter has more dims than the input");
	v->t.rank = r;
	for (k = 0; k < r; k++) {
		bool own = k >= first && k < first + t.rank;

		v->t.shape[k] = own ? t.shape[k - first] : 1;
		v->t.strides[k] = own ? t.strides[k - first] : 0;
	}
	return 0;
}

/* A contiguous scratch tensor of the arena. */
static int scratch_view(struct lower *L, uint32_t dtype, uint32_t rank,
			const int64_t *shape, struct lw_view *v)
{
	uint64_t n = 1;
	int64_t s = 1;
	uint32_t k;

	memset(v, 0, sizeof(*v));
	for (k = 0; k < rank; k++)
		n *= (uint64_t)shape[k];
	v->buf = lw_new_buf(L, n * ir_dtype_size((int)dtype));
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

/* Output k, or scratch shaped like x with the dims of mask 1. */
static int stat_view(struct lower *L, const struct ir_node *n, int k,
		     const struct lw_view *x, uint64_t mask, struct lw_view *v)
{
	int64_t shape[OM_MAX_RANK];
	uint32_t d;

	if (has_out(n, k))
		return lw_ir_view(L, n->outputs[k], v);
	for (d = 0; d < x->t.rank; d++)
		shape[d] = (mask >> d) & 1 ? 1 : x->t.shape[d];
	return scratch_view(L, x->t.dtype, x->t.rank, shape, v);
}

/*
 * NORM_AXES over the dims of mask: x, gamma and beta (IR tensors, -1 when
 * absent, placed at dim pfirst, or trailing when pfirst < 0); stats > 0
 * writes outputs 1 and 2 as well (scratch where not asked for), stats == 2
 * also into st[] for the caller.
 */
static int emit_norm(struct lower *L, const struct ir_node *n, uint64_t mask,
		     int gamma, int beta, int pfirst, int64_t flags, float eps,
		     int stats, struct lw_view *st)
{
	struct drm_vnpu_op_attrs at;
	struct lw_view v[6];
	uint32_t nin = 1, r, k;
	int p[2] = { gamma, beta }, i;

	if (lw_ir_view(L, input(n, 0), &v[0]))
		return -1;
	r = v[0].t.rank;
	for (i = 0; i < 2 && p[i] >= 0; i++) {
		uint32_t pr = (uint32_t)L->g->tensors[p[i]].rank;

		if (param_view(L, p[i], r, pfirst >= 0 ? (uint32_t)pfirst :
			       r - (pr < r ? pr : r), &v[nin]))
			return -1;
		nin++;
	}
	if (!has_out(n, 0))
		return lw_fail(L, "output 0 is missing");
	if (lw_ir_view(L, n->outputs[0], &v[nin]))
		return -1;
	if (stats) {
		for (k = 1; k < 3; k++)
			if (stat_view(L, n, stats == 2 ? -1 : (int)k, &v[0], mask,
				      &v[nin + k]))
				return -1;
		if (st) {
			st[0] = v[nin + 1];
			st[1] = v[nin + 2];
		}
	}
	memset(&at, 0, sizeof(at));
	at.ints[0] = (int64_t)mask;
	at.ints[1] = flags;
	lw_set_float(&at, 0, eps);
	return lw_emit(L, DRM_VNPU_OP_NORM_AXES, v, nin, stats ? 3 : 1, &at);
}

static int lower_layernorm(struct lower *L, const struct ir_node *n)
{
	const struct ir_tensor *x = &L->g->tensors[input(n, 0)];
	int64_t ax = ir_attr_int(n, "axis", -1);
	uint64_t mask = 0;
	int d;

	if (ax < 0)
		ax += x->rank;
	if (ax < 0 || ax >= x->rank)
		return lw_fail(L, "axis outside the rank");
	for (d = (int)ax; d < x->rank; d++)
		mask |= 1ULL << d;
	return emit_norm(L, n, mask, input(n, 1), input(n, 2), -1, 0,
			 ir_attr_float(n, "epsilon", 1e-5f), 1, NULL);
}

/* A rank-1 view of C values of a [1, C, 1...] statistic. */
static struct lw_view channel_vec(const struct lw_view *s)
{
	struct lw_view v = *s;

	v.t.rank = 1;
	v.t.shape[0] = s->t.shape[1];
	v.t.strides[0] = s->t.strides[1];
	memset(&v.t.shape[1], 0, sizeof(v.t.shape) - sizeof(v.t.shape[0]));
	memset(&v.t.strides[1], 0, sizeof(v.t.strides) - sizeof(v.t.strides[0]));
	return v;
}

/* running = batch + momentum * (input - batch), into output k. */
static int running_stat(struct lower *L, const struct ir_node *n, int k,
			const struct lw_view *batch, float momentum)
{
	struct drm_vnpu_op_attrs at;
	struct lw_view v[3], tmp;

	if (!has_out(n, k))
		return 0;
	if (lw_ir_view(L, input(n, 2 + k), &v[0]))
		return -1;
	v[1] = *batch;
	if (scratch_view(L, batch->t.dtype, 1, batch->t.shape, &tmp))
		return -1;
	v[2] = tmp;
	memset(&at, 0, sizeof(at));
	lw_set_float(&at, 0, 1.0f);
	if (lw_emit(L, DRM_VNPU_OP_SUB, v, 2, 1, &at))
		return -1;
	v[0] = *batch;
	v[1] = tmp;
	if (lw_ir_view(L, n->outputs[k], &v[2]))
		return -1;
	lw_set_float(&at, 0, momentum);
	return lw_emit(L, DRM_VNPU_OP_ADD, v, 2, 1, &at);
}

static int lower_bn_training(struct lower *L, const struct ir_node *n)
{
	const struct ir_tensor *x = &L->g->tensors[input(n, 0)];
	uint64_t mask = 0;
	struct lw_view st[2], mean, var;
	float momentum = ir_attr_float(n, "momentum", 0.9f);
	int d;

	for (d = 0; d < x->rank; d++)
		if (d != 1)
			mask |= 1ULL << d;
	if (emit_norm(L, n, mask, input(n, 1), input(n, 2), 1, NAX_STAT_VAR,
		      ir_attr_float(n, "epsilon", 1e-5f), 2, st))
		return -1;
	mean = channel_vec(&st[0]);
	var = channel_vec(&st[1]);
	if (running_stat(L, n, 1, &mean, momentum) ||
	    running_stat(L, n, 2, &var, momentum))
		return -1;
	return 0;
}

static int lower_mvn(struct lower *L, const struct ir_node *n)
{
	const struct ir_tensor *x = &L->g->tensors[input(n, 0)];
	const struct ir_attr *a = ir_attr(n, "axes");
	static const int64_t def[] = { 0, 2, 3 };
	const int64_t *axes = a ? a->ints : def;
	size_t na = a ? a->count : 3, i;
	uint64_t mask = 0;

	for (i = 0; i < na; i++) {
		int64_t ax = axes[i] < 0 ? axes[i] + x->rank : axes[i];

		if (ax < 0 || ax >= x->rank)
			return lw_fail(L, "axis %lld outside the rank",
				       (long long)axes[i]);
		mask |= 1ULL << ax;
	}
	return emit_norm(L, n, mask, -1, -1, 0, NAX_EPS_ON_STD, 1e-9f, 0, NULL);
}

static int lower_lrn(struct lower *L, const struct ir_node *n)
{
	struct drm_vnpu_op_attrs at;
	struct lw_view v[2];

	if (lw_ir_view(L, input(n, 0), &v[0]) ||
	    lw_ir_view(L, n->outputs[0], &v[1]))
		return -1;
	memset(&at, 0, sizeof(at));
	at.ints[0] = ir_attr_int(n, "size", 0);
	lw_set_float(&at, 0, ir_attr_float(n, "alpha", 0.0001f));
	lw_set_float(&at, 1, ir_attr_float(n, "beta", 0.75f));
	lw_set_float(&at, 2, ir_attr_float(n, "bias", 1.0f));
	return lw_emit(L, DRM_VNPU_OP_LRN, v, 1, 1, &at);
}

/* NLL_LOSS of the log-probabilities lp (a view) into output 0. */
static int emit_nll(struct lower *L, const struct ir_node *n,
		    const struct lw_view *lp)
{
	struct drm_vnpu_op_attrs at;
	struct lw_view v[4];
	uint32_t nin = 2;
	int red = loss_reduction(n);

	if (red < 0)
		return lw_fail(L, "unknown reduction");
	v[0] = *lp;
	if (lw_ir_view(L, input(n, 1), &v[1]))
		return -1;
	if (input(n, 2) >= 0 && lw_ir_view(L, input(n, 2), &v[nin++]))
		return -1;
	if (lw_ir_view(L, n->outputs[0], &v[nin]))
		return -1;
	memset(&at, 0, sizeof(at));
	at.ints[0] = red;
	at.ints[1] = ir_attr_int(n, "ignore_index", 0);
	at.ints[2] = ir_attr(n, "ignore_index") != NULL;
	return lw_emit(L, DRM_VNPU_OP_NLL_LOSS, v, nin, 1, &at);
}

static int lower_sce(struct lower *L, const struct ir_node *n)
{
	struct drm_vnpu_op_attrs at;
	struct lw_view v[2];

	if (lw_ir_view(L, input(n, 0), &v[0]))
		return -1;
	if (has_out(n, 1) ? lw_ir_view(L, n->outputs[1], &v[1]) :
	    scratch_view(L, v[0].t.dtype, v[0].t.rank, v[0].t.shape, &v[1]))
		return -1;
	memset(&at, 0, sizeof(at));
	at.ints[0] = 1;		/* the classes */
	if (lw_emit(L, DRM_VNPU_OP_LOG_SOFTMAX, v, 1, 1, &at))
		return -1;
	return emit_nll(L, n, &v[1]);
}

/* Softmax/LogSoftmax before opset 13: over the dims from axis on, as 2-D. */
static int lower_softmax_2d(struct lower *L, const struct ir_node *n)
{
	struct drm_vnpu_op_attrs at;
	struct lw_view v[2];
	int64_t rows = 1, cols = 1;
	uint32_t r, k;
	int64_t ax;

	if (lw_ir_view(L, input(n, 0), &v[0]) ||
	    lw_ir_view(L, n->outputs[0], &v[1]))
		return -1;
	r = v[0].t.rank;
	ax = ir_attr_int(n, "axis", 1);
	if (ax < 0)
		ax += r;
	if (ax < 0 || ax > (int64_t)r)
		return lw_fail(L, "axis outside the rank");
	for (k = 0; k < r; k++) {
		if (k < ax)
			rows *= v[0].t.shape[k];
		else
			cols *= v[0].t.shape[k];
	}
	for (k = 0; k < 2; k++) {
		memset(v[k].t.shape, 0, sizeof(v[k].t.shape));
		memset(v[k].t.strides, 0, sizeof(v[k].t.strides));
		v[k].t.rank = 2;
		v[k].t.shape[0] = rows;
		v[k].t.shape[1] = cols;
		v[k].t.strides[0] = cols;
		v[k].t.strides[1] = 1;
	}
	memset(&at, 0, sizeof(at));
	at.ints[0] = 1;
	return lw_emit(L, is(n, "Softmax") ? DRM_VNPU_OP_SOFTMAX :
		       DRM_VNPU_OP_LOG_SOFTMAX, v, 1, 1, &at);
}

int lower_norm(struct lower *L, const struct ir_node *n)
{
	if (n->domain && *n->domain)
		return 1;
	if (n->nout < 1 || n->outputs[0] < 0)
		return 1;
	if (is(n, "LayerNormalization") && (has_out(n, 1) || has_out(n, 2)))
		return lower_layernorm(L, n);
	if (is(n, "BatchNormalization")) {
		if (ir_attr_int(n, "training_mode", 0))
			return lower_bn_training(L, n);
		if (has_out(n, 1) || has_out(n, 2))
			return lw_fail(L, "running statistics need training_mode=1");
		return 1;
	}
	if (is(n, "InstanceNormalization"))
		return emit_norm(L, n, ~0ULL << 2 &
				 ((1ULL << L->g->tensors[input(n, 0)].rank) - 1),
				 input(n, 1), input(n, 2), 1, 0,
				 ir_attr_float(n, "epsilon", 1e-5f), 0, NULL);
	if (is(n, "MeanVarianceNormalization"))
		return lower_mvn(L, n);
	if (is(n, "LRN"))
		return lower_lrn(L, n);
	if (is(n, "NegativeLogLikelihoodLoss")) {
		struct lw_view lp;

		if (lw_ir_view(L, input(n, 0), &lp))
			return -1;
		return emit_nll(L, n, &lp);
	}
	if (is(n, "SoftmaxCrossEntropyLoss"))
		return lower_sce(L, n);
	if ((is(n, "Softmax") || is(n, "LogSoftmax")) && L->g->opset < 13)
		return lower_softmax_2d(L, n);
	return 1;
}
