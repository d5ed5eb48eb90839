// SPDX-License-Identifier: MIT
/*
 * Ops lowered through the runtime's own aclnn phase 1: for an IR node we
 * describe its tensors as aclTensors, call the matching
 * aclnn*GetWorkspaceSize and copy the executor's prepared KERNEL tasks,
 * turning each reference to a bound aclTensor into the IR tensor's place
 * and each workspace reference into a scratch buffer of the arena. A model
 * thus runs exactly the tasks the op-by-op API runs. Phase 1 touches no
 * device, so atc needs no aclInit.
 */
#include <string.h>

#include "lower_int.h"
#include "../nn/nn.h"
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_adaptive_avg_pool2d.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_log_softmax.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_max_pool2d.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_tanh.h"

#define MAX_ARGS	(OM_MAX_NODE_TENSORS)

/* The aclTensors made for one node and the IR tensors they stand for. */
struct args {
	aclTensor *t[MAX_ARGS];
	int ir[MAX_ARGS];
	int n;
	aclTensorList *list;	/* owns the tensors it holds */
	int list_from, list_count;
	aclIntArray *arr[4];
	int narr;
	aclScalar *scalar;
};

static aclTensor *arg(struct lower *L, struct args *a, int ti)
{
	const struct ir_tensor *t;
	int64_t strides[OM_MAX_RANK], s = 1;
	struct tloc l;
	int i;

	if (ti < 0 || a->n == MAX_ARGS || lw_locate(L, ti, &l))
		return NULL;
	t = &L->g->tensors[ti];
	for (i = t->rank; i-- > 0;) {
		strides[i] = s;
		s *= t->dims[i];
	}
	/* No data: phase 1 only records which tensor a task reads. */
	a->t[a->n] = aclCreateTensor(t->dims, (uint64_t)t->rank,
				     (aclDataType)t->dtype, strides, 0,
				     ACL_FORMAT_ND, t->dims, (uint64_t)t->rank,
				     NULL);
	if (!a->t[a->n])
		return NULL;
	a->ir[a->n] = ti;
	return a->t[a->n++];
}

static aclIntArray *ints(struct args *a, const int64_t *v, uint64_t n)
{
	if (a->narr == 4)
		return NULL;
	a->arr[a->narr] = aclCreateIntArray(v, n);
	return a->arr[a->narr++];
}

static void args_free(struct args *a)
{
	int i;

	for (i = 0; i < a->n; i++)
		if (a->t[i] && !(a->list && i >= a->list_from &&
				 i < a->list_from + a->list_count))
			aclDestroyTensor(a->t[i]);
	if (a->list)
		aclDestroyTensorList(a->list);
	for (i = 0; i < a->narr; i++)
		aclDestroyIntArray(a->arr[i]);
	if (a->scalar)
		aclDestroyScalar(a->scalar);
}

/* Turn the executor's tasks into .om nodes. */
static int translate(struct lower *L, const struct args *a,
		     const aclOpExecutor *ex)
{
	struct lw_view v[OM_MAX_NODE_TENSORS];
	int ws = -1;
	uint32_t i, j, k;

	for (i = 0; i < ex->ntasks; i++) {
		const struct nn_task *t = &ex->tasks[i];

		for (j = 0; j < t->nin + t->nout; j++) {
			const struct nn_ref *r = &t->t[j];
			uint64_t off;

			if (r->bind >= 0) {
				const struct nn_bind *b = &ex->bind[r->bind];

				for (k = 0; k < (uint32_t)a->n; k++)
					if (a->t[k] == b->tensor)
						break;
				if (k == (uint32_t)a->n)
					return lw_fail(L, "task %u reads a tensor atc did not make", i);
				if (lw_ir_view(L, a->ir[k], &v[j]))
					return -1;
				off = (uint64_t)(b->offset + r->off) * b->esize;
			} else {
				if (ws < 0) {
					ws = lw_new_buf(L, ex->ws_size);
					if (ws < 0)
						return -1;
				}
				memset(&v[j], 0, sizeof(v[j]));
				v[j].t.loc = OM_LOC_ARENA;
				v[j].buf = ws;
				off = r->ws_off + (uint64_t)r->off *
				      ir_dtype_size((int)r->dtype);
			}
			v[j].t.offset += off;
			v[j].t.dtype = r->dtype;
			v[j].t.rank = r->rank;
			memset(v[j].t.shape, 0, sizeof(v[j].t.shape));
			memset(v[j].t.strides, 0, sizeof(v[j].t.strides));
			memcpy(v[j].t.shape, r->shape, r->rank * sizeof(int64_t));
			memcpy(v[j].t.strides, r->strides,
			       r->rank * sizeof(int64_t));
		}
		if (lw_emit(L, t->op, v, t->nin, t->nout,
			    t->has_attrs ? &t->attrs : NULL))
			return -1;
	}
	return 0;
}

static int in(const struct ir_node *n, int i)
{
	return i < n->nin ? n->inputs[i] : -1;
}

static bool is(const struct ir_node *n, const char *op)
{
	return !strcmp(n->op_type, op);
}

/* Two ints of an INTS attribute that must be the same at both ends. */
static int sym_pads(const struct ir_node *n, int64_t *p)
{
	const struct ir_attr *a = ir_attr(n, "pads");

	p[0] = p[1] = 0;
	if (!a)
		return 0;
	if (a->kind != IR_ATTR_INTS || a->count != 4 ||
	    a->ints[0] != a->ints[2] || a->ints[1] != a->ints[3])
		return -1;
	p[0] = a->ints[0];
	p[1] = a->ints[1];
	return 0;
}

static int pair_attr(const struct ir_node *n, const char *name, int64_t *p,
		     int64_t def)
{
	const struct ir_attr *a = ir_attr(n, name);

	p[0] = p[1] = def;
	if (!a)
		return 0;
	if (a->kind != IR_ATTR_INTS || a->count != 2)
		return -1;
	p[0] = a->ints[0];
	p[1] = a->ints[1];
	return 0;
}

/* Phase 1 of the aclnn call that computes node n; 1: no such op here. */
static int call(struct lower *L, const struct ir_node *n, struct args *a,
		aclOpExecutor **ex, aclnnStatus *st)
{
	uint64_t ws = 0;
	aclTensor *x = arg(L, a, in(n, 0)), *y = NULL, *o;
	int64_t p[4][2];

	if (!x)
		return -1;
	if (n->nin > 1 && !is(n, "Concat") && !is(n, "BatchNormalization") &&
	    !is(n, "LayerNormalization") && in(n, 1) >= 0) {
		y = arg(L, a, in(n, 1));
		if (!y)
			return -1;
	}
	if (n->nout < 1)
		return lw_fail(L, "has no output");
	o = arg(L, a, n->outputs[0]);
	if (!o)
		return -1;
	if (is(n, "Add") || is(n, "Sub")) {
		float one = 1.0f;
		int64_t ione = 1;

		if (!y)
			return lw_fail(L, "needs two inputs");
		a->scalar = nn_dtype_is_float(x->dtype) ?
			    aclCreateScalar(&one, ACL_FLOAT) :
			    aclCreateScalar(&ione, ACL_INT64);
		*st = is(n, "Add") ?
		      aclnnAddGetWorkspaceSize(x, y, a->scalar, o, &ws, ex) :
		      aclnnSubGetWorkspaceSize(x, y, a->scalar, o, &ws, ex);
	} else if (is(n, "Mul") && y) {
		*st = aclnnMulGetWorkspaceSize(x, y, o, &ws, ex);
	} else if (is(n, "Div") && y) {
		*st = aclnnDivGetWorkspaceSize(x, y, o, &ws, ex);
	} else if (is(n, "Pow") && y) {
		*st = aclnnPowTensorTensorGetWorkspaceSize(x, y, o, &ws, ex);
	} else if (is(n, "MatMul") && y) {
		*st = aclnnMatmulGetWorkspaceSize(x, y, o, 0, &ws, ex);
	} else if (is(n, "Relu")) {
		*st = aclnnReluGetWorkspaceSize(x, o, &ws, ex);
	} else if (is(n, "Sigmoid")) {
		*st = aclnnSigmoidGetWorkspaceSize(x, o, &ws, ex);
	} else if (is(n, "Tanh")) {
		*st = aclnnTanhGetWorkspaceSize(x, o, &ws, ex);
	} else if (is(n, "Exp")) {
		*st = aclnnExpGetWorkspaceSize(x, o, &ws, ex);
	} else if (is(n, "Log")) {
		*st = aclnnLogGetWorkspaceSize(x, o, &ws, ex);
	} else if (is(n, "Sqrt")) {
		*st = aclnnSqrtGetWorkspaceSize(x, o, &ws, ex);
	} else if (is(n, "Neg")) {
		*st = aclnnNegGetWorkspaceSize(x, o, &ws, ex);
	} else if (is(n, "Abs")) {
		*st = aclnnAbsGetWorkspaceSize(x, o, &ws, ex);
	} else if (is(n, "Gelu")) {
		const struct ir_attr *ap = ir_attr(n, "approximate");

		int64_t tanh_form = ap && ap->s && !strcmp(ap->s, "tanh");

		if (ap && ap->s && !tanh_form && strcmp(ap->s, "none"))
			return lw_fail(L, "Gelu approximate='%s' is not supported", ap->s);
		/* GeluV2: 0 is ONNX's exact (erf) form, 1 the tanh one. */
		*st = aclnnGeluV2GetWorkspaceSize(x, tanh_form, o, &ws, ex);
	} else if (is(n, "Softmax") || is(n, "LogSoftmax")) {
		int64_t r = (int64_t)x->ndim;
		int64_t ax = ir_attr_int(n, "axis", L->g->opset >= 13 ? -1 : 1);

		if (ax < 0)
			ax += r;
		/* Before opset 13 the axis flattens the dims after it. */
		if (L->g->opset < 13 && ax != r - 1)
			return lw_fail(L, "axis %lld of opset %lld (flattening) is not supported",
				       (long long)ax, (long long)L->g->opset);
		*st = is(n, "Softmax") ?
		      aclnnSoftmaxGetWorkspaceSize(x, ax, o, &ws, ex) :
		      aclnnLogSoftmaxGetWorkspaceSize(x, ax, o, &ws, ex);
	} else if (is(n, "MaxPool") || is(n, "AveragePool")) {
		if (n->nout > 1 && n->outputs[1] >= 0)
			return lw_fail(L, "the indices output is not supported");
		if (pair_attr(n, "kernel_shape", p[0], 1) ||
		    pair_attr(n, "strides", p[1], 1) ||
		    pair_attr(n, "dilations", p[3], 1) || sym_pads(n, p[2]))
			return lw_fail(L, "only 2-D pooling with symmetric pads is supported");
		if (is(n, "MaxPool"))
			*st = aclnnMaxPool2dGetWorkspaceSize(x, ints(a, p[0], 2),
				ints(a, p[1], 2), ints(a, p[2], 2), ints(a, p[3], 2),
				ir_attr_int(n, "ceil_mode", 0) != 0, o, &ws, ex);
		else if (p[3][0] != 1 || p[3][1] != 1)
			return lw_fail(L, "dilated average pooling is not supported");
		else
			*st = aclnnAvgPool2dGetWorkspaceSize(x, ints(a, p[0], 2),
				ints(a, p[1], 2), ints(a, p[2], 2),
				ir_attr_int(n, "ceil_mode", 0) != 0,
				ir_attr_int(n, "count_include_pad", 0) != 0, 0, 0,
				o, &ws, ex);
	} else if (is(n, "GlobalAveragePool")) {
		int64_t one[2] = { 1, 1 };

		*st = aclnnAdaptiveAvgPool2dGetWorkspaceSize(x, ints(a, one, 2),
							     o, &ws, ex);
	} else if (is(n, "BatchNormalization")) {
		aclTensor *sc = arg(L, a, in(n, 1)), *b = arg(L, a, in(n, 2));
		aclTensor *m = arg(L, a, in(n, 3)), *v = arg(L, a, in(n, 4));

		if (!sc || !b || !m || !v)
			return lw_fail(L, "needs X, scale, B, mean and var");
		if (ir_attr_int(n, "training_mode", 0))
			return lw_fail(L, "training mode is not supported");
		*st = aclnnBatchNormGetWorkspaceSize(x, sc, b, m, v, false, 0.1,
			ir_attr_float(n, "epsilon", 1e-5f), o, NULL, NULL, &ws, ex);
	} else if (is(n, "LayerNormalization")) {
		aclTensor *sc = arg(L, a, in(n, 1));
		aclTensor *b = in(n, 2) >= 0 ? arg(L, a, in(n, 2)) : NULL;
		int64_t r = (int64_t)x->ndim, ax = ir_attr_int(n, "axis", -1);

		if (ax < 0)
			ax += r;
		if (!sc || ax < 0 || ax >= r)
			return lw_fail(L, "needs a scale and an axis inside the rank");
		*st = aclnnLayerNormGetWorkspaceSize(x, ints(a, x->dims + ax,
			(uint64_t)(r - ax)), sc, b,
			ir_attr_float(n, "epsilon", 1e-5f), o, NULL, NULL, &ws, ex);
	} else if (is(n, "Transpose")) {
		const struct ir_attr *pa = ir_attr(n, "perm");
		int64_t perm[OM_MAX_RANK];
		uint64_t i, r = x->ndim;

		for (i = 0; i < r; i++)
			perm[i] = pa && pa->count == r ? pa->ints[i] :
				  (int64_t)(r - 1 - i);
		*st = aclnnPermuteGetWorkspaceSize(x, ints(a, perm, r), o, &ws, ex);
	} else if (is(n, "Concat")) {
		int i;

		/* the list's tensors come after x and o */
		aclDestroyTensor(x);
		a->t[0] = NULL;
		a->list_from = a->n;
		for (i = 0; i < n->nin; i++)
			if (!arg(L, a, n->inputs[i]))
				return lw_fail(L, "bad input %d", i);
		a->list_count = a->n - a->list_from;
		a->list = aclCreateTensorList((const aclTensor *const *)
					      &a->t[a->list_from],
					      (uint64_t)a->list_count);
		if (!a->list)
			return lw_fail(L, "out of memory");
		*st = aclnnCatGetWorkspaceSize(a->list, ir_attr_int(n, "axis", 0),
					       o, &ws, ex);
	} else {
		return 1;
	}
	return 0;
}

/*
 * MatMul with a third input (fuse.c's form of MatMul + Add for operands
 * Gemm cannot take): the bias vector is added over the last dim, in place
 * on the product.
 */
static int add_bias(struct lower *L, const struct ir_node *n)
{
	struct lw_view v[3];
	uint32_t r, i;

	if (lw_ir_view(L, n->outputs[0], &v[0]) ||
	    lw_ir_view(L, n->inputs[2], &v[1]))
		return -1;
	r = v[0].t.rank;
	if (v[1].t.rank != 1 || !r || v[1].t.shape[0] != v[0].t.shape[r - 1])
		return lw_fail(L, "the bias must be a vector over the last output dim");
	/* the vector seen with the output's rank: zero strides in front */
	v[1].t.rank = r;
	for (i = 0; i < r; i++) {
		v[1].t.shape[i] = i == r - 1 ? v[0].t.shape[r - 1] : 1;
		v[1].t.strides[i] = i == r - 1 ? 1 : 0;
	}
	v[2] = v[0];
	return lw_emit(L, DRM_VNPU_OP_ADD, v, 2, 1, NULL);
}

int lower_aclnn(struct lower *L, const struct ir_node *n)
{
	struct args a = { .n = 0 };
	aclOpExecutor *ex = NULL;
	aclnnStatus st = ACLNN_SUCCESS;
	int ret, i;

	if (n->domain && *n->domain)
		return 1;
	for (i = 1; i < n->nout; i++)
		if (n->outputs[i] >= 0 && !is(n, "MaxPool") &&
		    !is(n, "BatchNormalization") && !is(n, "LayerNormalization") &&
		    !is(n, "Dropout"))
			return lw_fail(L, "more than one output is not supported");
	ret = call(L, n, &a, &ex, &st);
	if (!ret && (st != ACLNN_SUCCESS || !ex)) {
		const char *m = aclGetRecentErrMsg();

		ret = lw_fail(L, "the operator library rejects it: %s",
			      m ? m : "(no message)");
	} else if (!ret) {
		ret = translate(L, &a, ex);
		if (!ret && is(n, "MatMul") && in(n, 2) >= 0)
			ret = add_bias(L, n);
	}
	if (ex)
		aclDestroyAclOpExecutor(ex);
	args_free(&a);
	return ret;
}
