// SPDX-License-Identifier: MIT
/*
 * Inference of the operators that run on the host (lib/aicpu): outputs
 * whose size depends on the data get the largest dims the inputs allow
 * and are marked dynamic (the runtime reports the real ones).
 */
#include <string.h>

#include "infer_util.h"
#include "../om/om_format.h"

/* Output k is data-dependent: dims are an upper bound. */
static void mark_dynamic(struct ir_graph *g, struct ir_node *n, int k)
{
	if (k < n->nout && n->outputs[k] >= 0)
		g->tensors[n->outputs[k]].dynamic = true;
}

INFER(nonzero)
{
	const struct ir_tensor *x = IN(0);
	int64_t d[2] = { x->rank ? x->rank : 1, ir_numel(x) };

	set_out(g, n, 0, DT_INT64, 2, d);
	mark_dynamic(g, n, 0);
	return 0;
}

INFER(compress)
{
	const struct ir_tensor *x = IN(0), *c = IN(1);
	const struct ir_attr *a = ir_attr(n, "axis");
	int64_t d[IR_MAX_RANK];
	int axis;

	if (c->rank != 1)
		return NERR(n, "condition must be 1-D, not rank %d", c->rank);
	if (a) {
		if (norm_axis(n, a->i, x->rank, &axis, err, errlen))
			return -1;
		memcpy(d, x->dims, sizeof(d));
		if (c->dims[0] < d[axis])
			d[axis] = c->dims[0];
		set_out(g, n, 0, x->dtype, x->rank, d);
	} else {
		d[0] = ir_numel(x) < c->dims[0] ? ir_numel(x) : c->dims[0];
		set_out(g, n, 0, x->dtype, 1, d);
	}
	mark_dynamic(g, n, 0);
	return 0;
}

INFER(unique)
{
	const struct ir_tensor *x = IN(0);
	const struct ir_attr *a = ir_attr(n, "axis");
	int64_t len = ir_numel(x);
	int axis;

	if (a) {
		if (norm_axis(n, a->i, x->rank, &axis, err, errlen))
			return -1;
		len = x->dims[axis];
		set_out_like(g, n, 0, x);
	} else {
		set_out(g, n, 0, x->dtype, 1, &len);
	}
	set_out(g, n, 1, DT_INT64, 1, &len);
	set_out(g, n, 2, DT_INT64, 1, &len);
	set_out(g, n, 3, DT_INT64, 1, &len);
	mark_dynamic(g, n, 0);
	mark_dynamic(g, n, 1);
	mark_dynamic(g, n, 3);
	return 0;
}

INFER(nms)
{
	const struct ir_tensor *b = IN(0), *s = IN(1);
	int64_t per = b->rank == 3 ? b->dims[1] : 0, max, d[2];

	if (b->rank != 3 || s->rank != 3 || b->dims[2] != 4 ||
	    s->dims[0] != b->dims[0] || s->dims[2] != b->dims[1])
		return NERR(n, "boxes must be [B, N, 4] and scores [B, C, N]");
	/* a constant max_output_boxes_per_class lowers the bound */
	if (HAS_IN(2) && ir_const_ints(g, n->inputs[2], &max, 1) == 1 &&
	    max >= 0 && max < per)
		per = max;
	d[0] = b->dims[0] * s->dims[1] * per;
	d[1] = 3;
	set_out(g, n, 0, DT_INT64, 2, d);
	mark_dynamic(g, n, 0);
	return 0;
}

INFER(det)
{
	const struct ir_tensor *x = IN(0);

	if (x->rank < 2 || x->dims[x->rank - 1] != x->dims[x->rank - 2])
		return NERR(n, "X must be [..., M, M]");
	return set_out(g, n, 0, x->dtype, x->rank - 2, x->dims);
}

/* Adagrad (3 kinds in, 2 out), Adam (4, 3), Momentum (3, 2). */
INFER(optimizer)
{
	int kin = !strcmp(n->op_type, "Adam") ? 4 : 3, kout = kin - 1, m, i, k;

	if (n->nin < 2 + kin || (n->nin - 2) % kin || n->nout != (n->nin - 2) / kin * kout)
		return NERR(n, "%d inputs and %d outputs do not make groups of %d and %d",
			    n->nin, n->nout, kin, kout);
	m = (n->nin - 2) / kin;
	for (k = 0; k < kout; k++)
		for (i = 0; i < m; i++)
			set_out_like(g, n, k * m + i, IN(2 + i));
	return 0;
}

/* DFT's signal axis among X's dims (the last is the complex pair). */
static int dft_axis(const struct ir_node *n, int rank, int *axis, char *err,
		    size_t errlen)
{
	int64_t a = ir_attr_int(n, "axis", 1);

	if (a < 0)
		a += rank;
	if (rank < 2 || a < 0 || a >= rank - 1)
		return NERR(n, "axis %lld of a rank-%d input", (long long)ir_attr_int(n, "axis", 1),
			    rank);
	*axis = (int)a;
	return 0;
}

/* The transform's length: dft_length (constant) or the axis' size. */
static int dft_len(struct ir_graph *g, const struct ir_node *n, int axis,
		   int64_t *len, char *err, size_t errlen)
{
	*len = IN(0)->dims[axis];
	if (HAS_IN(1) && ir_const_ints(g, n->inputs[1], len, 1) != 1)
		return NERR(n, "dft_length must be a constant");
	if (*len < 1)
		return NERR(n, "dft_length %lld", (long long)*len);
	return 0;
}

INFER(dft)
{
	const struct ir_tensor *x = IN(0);
	int64_t d[IR_MAX_RANK], len;
	int axis;

	if (dft_axis(n, x->rank, &axis, err, errlen) ||
	    dft_len(g, n, axis, &len, err, errlen))
		return -1;
	if (x->dims[x->rank - 1] != 1 && x->dims[x->rank - 1] != 2)
		return NERR(n, "the last dim must be 1 (real) or 2 (complex)");
	memcpy(d, x->dims, sizeof(d));
	d[axis] = ir_attr_int(n, "onesided", 0) ? len / 2 + 1 : len;
	d[x->rank - 1] = 2;
	return set_out(g, n, 0, x->dtype, x->rank, d);
}

/* STFT's frame step and length (constants; the length may be the window's). */
int stft_params(const struct ir_graph *g, const struct ir_node *n, int64_t *step,
		int64_t *len, char *err, size_t errlen)
{
	if (ir_const_ints(g, n->inputs[1], step, 1) != 1)
		return NERR(n, "frame_step must be a constant");
	if (HAS_IN(3)) {
		if (ir_const_ints(g, n->inputs[3], len, 1) != 1)
			return NERR(n, "frame_length must be a constant");
	} else if (HAS_IN(2) && IN(2)->rank == 1) {
		*len = IN(2)->dims[0];
	} else {
		return NERR(n, "needs a window or a frame_length");
	}
	return 0;
}

INFER(stft)
{
	const struct ir_tensor *x = IN(0);
	int64_t step, len, d[4];

	if (stft_params(g, n, &step, &len, err, errlen))
		return -1;
	if (x->rank != 3 || step < 1 || len < 1 || len > x->dims[1])
		return NERR(n, "signal [B, n, 1|2] with 1 <= frame_length <= n and frame_step >= 1");
	d[0] = x->dims[0];
	d[1] = (x->dims[1] - len) / step + 1;
	d[2] = ir_attr_int(n, "onesided", 1) ? len / 2 + 1 : len;
	d[3] = 2;
	return set_out(g, n, 0, x->dtype, 4, d);
}

/* TfIdfVectorizer on integer tokens: [N] -> [W], [B, N] -> [B, W]. */
INFER(tfidf)
{
	const struct ir_tensor *x = IN(0);
	const struct ir_attr *ix = ir_attr(n, "ngram_indexes");
	int64_t w = 0, d[2];

	if (ir_attr(n, "pool_strings"))
		return NERR(n, "string pools are not supported");
	if (!ix || !ir_attr(n, "pool_int64s") || !ir_attr(n, "ngram_counts") ||
	    x->rank < 1 || x->rank > 2 || ir_dtype_is_float(x->dtype))
		return NERR(n, "integer X [N] or [B, N] with pool_int64s, ngram_counts and ngram_indexes");
	for (size_t i = 0; i < ix->count; i++)
		if (ix->ints[i] + 1 > w)
			w = ix->ints[i] + 1;
	d[0] = x->dims[0];
	d[x->rank - 1] = w;
	return set_out(g, n, 0, DT_FLOAT, x->rank, d);
}

/* RNN, GRU, LSTM: Y, Y_h (and Y_c). */
INFER(rnn)
{
	const struct ir_tensor *x = IN(0), *w = IN(1);
	int64_t hid = ir_attr_int(n, "hidden_size", 0), seq, batch, dirs, y[4], st[3];
	bool bm = ir_attr_int(n, "layout", 0) == 1;

	if (x->rank != 3 || w->rank != 3 || hid <= 0)
		return NERR(n, "X and W must be 3-D and hidden_size given");
	seq = x->dims[bm ? 1 : 0];
	batch = x->dims[bm ? 0 : 1];
	dirs = w->dims[0];
	if (bm) {
		int64_t yb[4] = { batch, seq, dirs, hid }, sb[3] = { batch, dirs, hid };

		memcpy(y, yb, sizeof(y));
		memcpy(st, sb, sizeof(st));
	} else {
		int64_t ys[4] = { seq, dirs, batch, hid }, ss[3] = { dirs, batch, hid };

		memcpy(y, ys, sizeof(y));
		memcpy(st, ss, sizeof(st));
	}
	set_out(g, n, 0, x->dtype, 4, y);
	set_out(g, n, 1, x->dtype, 3, st);
	set_out(g, n, 2, x->dtype, 3, st);
	return 0;
}

/*
 * StringNormalizer: a STRING [C] or [1, C]; the output keeps the rank,
 * at most C elements (at least 1: all dropped leaves one empty string).
 */
INFER(strnorm)
{
	const struct ir_tensor *x = IN(0);
	int64_t d[2] = { 1, 1 };

	if (x->dtype != OM_DTYPE_STRING)
		return NERR(n, "input %s is %s, StringNormalizer takes strings",
			    x->name, ir_dtype_name(x->dtype));
	if (x->rank < 1 || x->rank > 2 || (x->rank == 2 && x->dims[0] != 1))
		return NERR(n, "input %s is %s: the operator takes [C] or [1, C]",
			    x->name, ir_dims_str(x, (char[64]){ 0 }, 64));
	d[x->rank - 1] = x->dims[x->rank - 1] ? x->dims[x->rank - 1] : 1;
	set_out(g, n, 0, OM_DTYPE_STRING, x->rank, d);
	mark_dynamic(g, n, 0);
	return 0;
}
