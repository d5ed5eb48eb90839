// SPDX-License-Identifier: MIT
/*
 * Lowering of the host ("AI CPU") operators: one host node each
 * (OM_OP_HOST | enum aicpu_op), its present tensors as dense views and
 * the masks that say which ONNX inputs and outputs they are. An output
 * whose dims depend on the data must be a graph output written in place
 * (the runtime reports its real dims); nothing may read it.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "infer_util.h"
#include "lower_int.h"
#include "../aicpu/aicpu_ops.h"
#include "../om/om_format.h"

static const struct {
	const char *op_type;
	uint32_t id;
} host_ops[] = {
	{ "NonZero", AICPU_OP_NONZERO }, { "Unique", AICPU_OP_UNIQUE },
	{ "Compress", AICPU_OP_COMPRESS }, { "NonMaxSuppression", AICPU_OP_NMS },
	{ "Det", AICPU_OP_DET }, { "Adagrad", AICPU_OP_ADAGRAD },
	{ "Adam", AICPU_OP_ADAM }, { "Momentum", AICPU_OP_MOMENTUM },
	{ "RNN", AICPU_OP_RNN }, { "GRU", AICPU_OP_GRU }, { "LSTM", AICPU_OP_LSTM },
	{ "DFT", AICPU_OP_DFT }, { "STFT", AICPU_OP_STFT },
	{ "TfIdfVectorizer", AICPU_OP_TFIDF },
	{ "StringNormalizer", AICPU_OP_STRNORM },
};

static uint32_t f32_bits(float f)
{
	uint32_t b;

	memcpy(&b, &f, sizeof(b));
	return b;
}

static int act_code(const char *name)
{
	static const char *const names[] = {
		"Sigmoid", "Tanh", "Relu", "Affine", "LeakyRelu", "ThresholdedRelu",
		"ScaledTanh", "HardSigmoid", "Elu", "Softsign", "Softplus",
	};

	for (int i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++)
		if (!strcasecmp(name, names[i]))
			return i;
	return -1;
}

/* Which activations take an alpha and a beta; the spec's defaults. */
static bool takes_alpha(int code)
{
	return code >= 3 && code <= 8;
}

static bool takes_beta(int code)
{
	return code == 3 || code == 6 || code == 7;
}

static void act_defaults(int code, float *a, float *b)
{
	*a = code == 4 ? 0.01f : code == 7 ? 0.2f : 1.0f;
	*b = code == 7 ? 0.5f : code == 3 ? 0.0f : 1.0f;
}

static int rnn_attrs(struct lower *L, const struct ir_node *n, uint32_t id,
		     struct drm_vnpu_op_attrs *at)
{
	static const int defaults[3][3] = { { 1 }, { 0, 1 }, { 0, 1, 1 } };
	int per = id == AICPU_OP_RNN ? 1 : id == AICPU_OP_GRU ? 2 : 3;
	const struct ir_attr *acts = ir_attr(n, "activations");
	const struct ir_attr *al = ir_attr(n, "activation_alpha");
	const struct ir_attr *be = ir_attr(n, "activation_beta");
	const struct ir_attr *dir = ir_attr(n, "direction");
	const struct ir_attr *clip = ir_attr(n, "clip");
	int dirs = 1, k = 0;
	char buf[256], *save = NULL, *tok;

	at->ints[0] = ir_attr_int(n, "hidden_size", 0);
	if (dir && dir->s) {
		if (!strcmp(dir->s, "reverse"))
			at->ints[1] = 1;
		else if (!strcmp(dir->s, "bidirectional"))
			at->ints[1] = 2;
		else if (strcmp(dir->s, "forward"))
			return lw_fail(L, "direction %s", dir->s);
	}
	dirs = at->ints[1] == 2 ? 2 : 1;
	at->ints[2] = ir_attr_int(n, "layout", 0);
	at->ints[3] = ir_attr_int(n, "linear_before_reset", 0);
	at->ints[4] = ir_attr_int(n, "input_forget", 0);
	if (clip) {
		at->ints[5] = 1;
		lw_set_float(at, 0, clip->f);
	}
	for (int d = 0; d < dirs; d++)
		for (int j = 0; j < per; j++)
			at->ints[8 + d * per + j] = defaults[per - 1][j];
	if (acts && acts->s) {
		snprintf(buf, sizeof(buf), "%s", acts->s);
		for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			int code = act_code(tok);

			if (code < 0 || k >= dirs * per)
				return lw_fail(L, "activation %s (number %d)", tok, k);
			at->ints[8 + k++] = code;
		}
		if (k != dirs * per)
			return lw_fail(L, "%d activations, expected %d", k, dirs * per);
	}
	/* alpha and beta are listed for the activations that take them */
	for (int i = 0, ai = 0, bi = 0; i < dirs * per; i++) {
		int code = (int)at->ints[8 + i];
		float a, b;

		act_defaults(code, &a, &b);
		if (takes_alpha(code) && al && (size_t)ai < al->count)
			a = al->floats[ai++];
		if (takes_beta(code) && be && (size_t)bi < be->count)
			b = be->floats[bi++];
		at->ints[14 + i] = (int64_t)((uint64_t)f32_bits(a) << 32 | f32_bits(b));
	}
	return 0;
}

static int attrs_of(struct lower *L, const struct ir_node *n, uint32_t id,
		    struct drm_vnpu_op_attrs *at)
{
	const struct ir_attr *a;

	switch (id) {
	case AICPU_OP_UNIQUE:
		at->ints[0] = ir_attr_int(n, "sorted", 1);
		a = ir_attr(n, "axis");
		at->ints[1] = a != NULL;
		at->ints[2] = a ? a->i : 0;
		return 0;
	case AICPU_OP_COMPRESS:
		a = ir_attr(n, "axis");
		at->ints[0] = a != NULL;
		at->ints[1] = a ? a->i : 0;
		return 0;
	case AICPU_OP_NMS:
		at->ints[0] = ir_attr_int(n, "center_point_box", 0);
		return 0;
	case AICPU_OP_ADAGRAD:
		lw_set_float(at, 0, ir_attr_float(n, "norm_coefficient", 0));
		lw_set_float(at, 1, ir_attr_float(n, "epsilon", 1e-6f));
		lw_set_float(at, 2, ir_attr_float(n, "decay_factor", 0));
		return 0;
	case AICPU_OP_ADAM:
		lw_set_float(at, 0, ir_attr_float(n, "alpha", 0.9f));
		lw_set_float(at, 1, ir_attr_float(n, "beta", 0.999f));
		lw_set_float(at, 2, ir_attr_float(n, "epsilon", 1e-6f));
		lw_set_float(at, 3, ir_attr_float(n, "norm_coefficient", 0));
		lw_set_float(at, 4, ir_attr_float(n, "norm_coefficient_post", 0));
		return 0;
	case AICPU_OP_MOMENTUM:
		a = ir_attr(n, "mode");
		lw_set_float(at, 0, ir_attr_float(n, "alpha", 0));
		lw_set_float(at, 1, ir_attr_float(n, "beta", 0));
		lw_set_float(at, 2, ir_attr_float(n, "norm_coefficient", 0));
		if (a && a->s && strcmp(a->s, "standard") && strcmp(a->s, "nesterov"))
			return lw_fail(L, "mode %s", a->s);
		at->ints[0] = a && a->s && !strcmp(a->s, "nesterov");
		return 0;
	case AICPU_OP_RNN: case AICPU_OP_GRU: case AICPU_OP_LSTM:
		return rnn_attrs(L, n, id, at);
	case AICPU_OP_DFT: {
		const struct ir_tensor *x = &L->g->tensors[n->inputs[0]];
		int64_t axis = ir_attr_int(n, "axis", 1);

		at->ints[0] = axis < 0 ? axis + x->rank : axis;
		at->ints[1] = x->dims[at->ints[0]];
		if (n->nin > 1 && n->inputs[1] >= 0)
			at->ints[1] = ir_get_i64(&L->g->tensors[n->inputs[1]], 0);
		at->ints[2] = ir_attr_int(n, "inverse", 0) != 0;
		at->ints[3] = ir_attr_int(n, "onesided", 0) != 0;
		return 0;
	}
	case AICPU_OP_STFT: {
		int64_t step, len;
		char e[160];

		if (stft_params(L->g, n, &step, &len, e, sizeof(e)))
			return lw_fail(L, "%s", e);
		at->ints[0] = step;
		at->ints[1] = len;
		at->ints[2] = ir_attr_int(n, "onesided", 1) != 0;
		return 0;
	}
	default:
		return 0;
	}
}

/* An attribute list as a weight tensor the host node reads. */
static int attr_weight(struct lower *L, const struct ir_attr *a, bool floats,
		       struct lw_view *v)
{
	size_t n = a ? a->count : 0, es = floats ? 4 : 8;
	int64_t off = om_add_weight(L->b, n ? (floats ? (const void *)a->floats :
					      (const void *)a->ints) : "", n * es);

	if (off < 0)
		return lw_fail(L, "out of memory");
	memset(v, 0, sizeof(*v));
	v->t.loc = OM_LOC_WEIGHT;
	v->t.offset = (uint64_t)off;
	v->t.dtype = floats ? 0 : 9;	/* FLOAT, INT64 */
	v->t.rank = 1;
	v->t.shape[0] = (int64_t)n;
	v->t.strides[0] = 1;
	v->buf = -1;
	return 0;
}

/* TfIdfVectorizer: X, then its pool attributes as weights. */
static int tfidf_inputs(struct lower *L, const struct ir_node *n,
			struct lw_view *v, uint32_t *nin,
			struct drm_vnpu_op_attrs *at)
{
	static const char *const lists[] = {
		"pool_int64s", "ngram_counts", "ngram_indexes", "weights",
	};
	const struct ir_attr *mode = ir_attr(n, "mode");

	for (int k = 0; k < 4; k++) {
		const struct ir_attr *a = ir_attr(n, lists[k]);

		if (!a)
			continue;
		if (attr_weight(L, a, k == 3, &v[(*nin)++]))
			return -1;
		at->ints[AICPU_ATTR_IN] |= 1ll << (k + 1);
	}
	at->ints[0] = !mode || !mode->s || !strcmp(mode->s, "TF") ? 0 :
		      !strcmp(mode->s, "IDF") ? 1 : 2;
	at->ints[1] = ir_attr_int(n, "min_gram_length", 1);
	at->ints[2] = ir_attr_int(n, "max_gram_length", 1);
	at->ints[3] = ir_attr_int(n, "max_skip_count", 0);
	return 0;
}

/*
 * StringNormalizer's stopwords as a UINT8 weight laid out as a string
 * buffer (heads, then each word and a NUL): the host op reads it with
 * the string tensor code. ints[2] is their number.
 */
static int stopwords_input(struct lower *L, const struct ir_node *n,
			   struct lw_view *v, uint32_t *nin,
			   struct drm_vnpu_op_attrs *at)
{
	const struct ir_attr *a = ir_attr(n, "stopwords");
	size_t count = a && a->kind == IR_ATTR_STRINGS ? a->count : 0;
	size_t bytes = count * sizeof(struct om_string_head), off = 0, pos;
	uint8_t *buf;
	int64_t w;

	if (!count)
		return 0;
	for (size_t i = 0; i < count; i++)
		bytes += (size_t)a->ints[i] + 1;
	buf = calloc(1, bytes);
	if (!buf)
		return lw_fail(L, "out of memory");
	pos = count * sizeof(struct om_string_head);
	for (size_t i = 0; i < count; i++) {
		struct om_string_head h = { (int64_t)pos, a->ints[i] };

		memcpy(buf + i * sizeof(h), &h, sizeof(h));
		memcpy(buf + pos, a->s + off, (size_t)a->ints[i]);
		pos += (size_t)a->ints[i] + 1;
		off += (size_t)a->ints[i] + 1;	/* the joining comma */
	}
	w = om_add_weight(L->b, buf, bytes);
	free(buf);
	if (w < 0)
		return lw_fail(L, "out of memory");
	memset(&v[*nin], 0, sizeof(v[*nin]));
	v[*nin].t.loc = OM_LOC_WEIGHT;
	v[*nin].t.offset = (uint64_t)w;
	v[*nin].t.dtype = 4;	/* UINT8 */
	v[*nin].t.rank = 1;
	v[*nin].t.shape[0] = (int64_t)bytes;
	v[*nin].t.strides[0] = 1;
	v[*nin].buf = -1;
	(*nin)++;
	at->ints[AICPU_ATTR_IN] |= 1ll << 1;
	at->ints[2] = (int64_t)count;
	return 0;
}

static int strnorm_attrs(struct lower *L, const struct ir_node *n,
			 struct drm_vnpu_op_attrs *at)
{
	const struct ir_attr *a = ir_attr(n, "case_change_action");

	at->ints[0] = !a || !a->s || !strcmp(a->s, "NONE") ? 0 :
		      !strcmp(a->s, "LOWER") ? 1 : 2;
	at->ints[1] = ir_attr_int(n, "is_case_sensitive", 0) != 0;
	return 0;
}

/* Cast or CastLike to or from STRING: a host node on input 0. */
static bool string_cast(const struct lower *L, const struct ir_node *n)
{
	const struct ir_graph *g = L->g;

	if (strcmp(n->op_type, "Cast") && strcmp(n->op_type, "CastLike"))
		return false;
	return g->tensors[n->inputs[0]].dtype == OM_DTYPE_STRING ||
	       g->tensors[n->outputs[0]].dtype == OM_DTYPE_STRING;
}

bool lower_aicpu_strings(const struct lower *L, const struct ir_node *n)
{
	return !strcmp(n->op_type, "StringNormalizer") || string_cast(L, n);
}

/* A dynamic output: written in place into its graph output, read by none. */
static int check_dynamic(struct lower *L, const struct ir_node *n, int ti,
			 const struct lw_view *v)
{
	const struct ir_graph *g = L->g;

	if (!g->tensors[ti].dynamic)
		return 0;
	if (v->t.loc != OM_LOC_OUTPUT || v->t.offset)
		return lw_fail(L, "'%s' has data-dependent dims: it must be a graph output",
			       g->tensors[ti].name);
	for (int i = 0; i < g->nnodes; i++) {
		if (g->nodes[i].dead || &g->nodes[i] == n)
			continue;
		for (int k = 0; k < g->nodes[i].nin; k++)
			if (g->nodes[i].inputs[k] == ti)
				return lw_fail(L, "'%s' has data-dependent dims: node '%s' cannot read it",
					       g->tensors[ti].name, g->nodes[i].name);
	}
	return 0;
}

int lower_aicpu(struct lower *L, const struct ir_node *n)
{
	struct lw_view v[OM_MAX_NODE_TENSORS];
	struct drm_vnpu_op_attrs at;
	uint32_t id = 0, nin = 0, nout = 0;
	size_t i;

	for (i = 0; i < sizeof(host_ops) / sizeof(host_ops[0]); i++)
		if (!strcmp(n->op_type, host_ops[i].op_type))
			id = host_ops[i].id;
	if (!id && string_cast(L, n))
		id = AICPU_OP_CAST_STRING;
	if (!id)
		return 1;
	memset(&at, 0, sizeof(at));
	if (n->nin > OM_MAX_NODE_TENSORS || n->nout > OM_MAX_NODE_TENSORS)
		return lw_fail(L, "%d inputs and %d outputs are too many", n->nin, n->nout);
	for (int k = 0; k < n->nin; k++) {
		/* CastLike's second input only gives the type */
		if (n->inputs[k] < 0 || (id == AICPU_OP_CAST_STRING && k))
			continue;
		if (nin >= OM_MAX_NODE_TENSORS)
			return lw_fail(L, "too many tensors for one node");
		if (lw_ir_view(L, n->inputs[k], &v[nin++]))
			return -1;
		at.ints[AICPU_ATTR_IN] |= 1ll << k;
	}
	if (id == AICPU_OP_TFIDF && tfidf_inputs(L, n, v, &nin, &at))
		return -1;
	if (id == AICPU_OP_STRNORM &&
	    (stopwords_input(L, n, v, &nin, &at) || strnorm_attrs(L, n, &at)))
		return -1;
	for (int k = 0; k < n->nout; k++) {
		if (n->outputs[k] < 0)
			continue;
		if (nin + nout >= OM_MAX_NODE_TENSORS)
			return lw_fail(L, "too many tensors for one node");
		if (lw_ir_view(L, n->outputs[k], &v[nin + nout]) ||
		    check_dynamic(L, n, n->outputs[k], &v[nin + nout]))
			return -1;
		nout++;
		at.ints[AICPU_ATTR_OUT] |= 1ll << k;
	}
	if (attrs_of(L, n, id, &at))
		return -1;
	return lw_emit(L, OM_OP_HOST | id, v, nin, nout, &at);
}
