// SPDX-License-Identifier: MIT
/* Inference of the network operators: convolutions, pools, norms,
 * matrix products, reductions. */
#include <stdlib.h>
#include <string.h>

#include "infer_util.h"

/*
 * ints attribute name with exactly count values into out, or def for
 * every value when absent; NERR when the count differs.
 */
static int ints_attr(struct ir_node *n, const char *name, int count,
		     int64_t def, int64_t *out, char *err, size_t errlen)
{
	const struct ir_attr *a = ir_attr(n, name);
	int i;

	if (!a) {
		for (i = 0; i < count; i++)
			out[i] = def;
		return 0;
	}
	if (a->kind != IR_ATTR_INTS || a->count != (size_t)count)
		return NERR(n, "attribute %s needs %d integers", name, count);
	memcpy(out, a->ints, sizeof(int64_t) * (size_t)count);
	return 0;
}

struct window {
	int nsp;			/* spatial dims */
	int64_t k[IR_MAX_RANK], s[IR_MAX_RANK], d[IR_MAX_RANK];
	int64_t pads[2 * IR_MAX_RANK];
};

/*
 * Window attributes of a Conv or pool over x; SAME_* auto padding is
 * turned into explicit pads (rewritten on the node) so later passes see
 * one form. k: the kernel dims when they come from the weights.
 */
static int window_attrs(struct ir_graph *g, struct ir_node *n,
			const struct ir_tensor *x, const int64_t *k,
			struct window *w, char *err, size_t errlen)
{
	const struct ir_attr *ap = ir_attr(n, "auto_pad");
	const char *mode = ap && ap->s ? ap->s : "NOTSET";
	int i;

	w->nsp = x->rank - 2;
	if (w->nsp < 1)
		return NERR(n, "input %s has rank %d, needs N, C and spatial dims",
			    x->name, x->rank);
	if (k)
		memcpy(w->k, k, sizeof(int64_t) * (size_t)w->nsp);
	else if (!ir_attr(n, "kernel_shape"))
		return NERR(n, "needs kernel_shape");
	if ((!k && ints_attr(n, "kernel_shape", w->nsp, 1, w->k, err, errlen)) ||
	    ints_attr(n, "strides", w->nsp, 1, w->s, err, errlen) ||
	    ints_attr(n, "dilations", w->nsp, 1, w->d, err, errlen) ||
	    ints_attr(n, "pads", 2 * w->nsp, 0, w->pads, err, errlen))
		return -1;
	for (i = 0; i < w->nsp; i++) {
		if (w->k[i] < 1 || w->s[i] < 1 || w->d[i] < 1 ||
		    w->pads[i] < 0 || w->pads[i + w->nsp] < 0)
			return NERR(n, "kernel, strides and dilations must be >= 1 and pads >= 0");
		if (w->k[i] > (1 << 20) || w->s[i] > (1 << 20) ||
		    w->d[i] > (1 << 20) || w->pads[i] > (1 << 20) ||
		    w->pads[i + w->nsp] > (1 << 20))
			return NERR(n, "a window attribute is above 2^20");
	}
	if (!strcmp(mode, "SAME_UPPER") || !strcmp(mode, "SAME_LOWER")) {
		for (i = 0; i < w->nsp; i++) {
			int64_t in = x->dims[i + 2];
			int64_t out = (in + w->s[i] - 1) / w->s[i];
			int64_t total = (out - 1) * w->s[i] +
					(w->k[i] - 1) * w->d[i] + 1 - in;

			if (total < 0)
				total = 0;
			w->pads[i] = mode[5] == 'U' ? total / 2 : total - total / 2;
			w->pads[i + w->nsp] = total - w->pads[i];
		}
	} else if (!strcmp(mode, "VALID")) {
		memset(w->pads, 0, sizeof(w->pads));
	} else if (strcmp(mode, "NOTSET")) {
		return NERR(n, "auto_pad %s is not one ONNX defines", mode);
	}
	if (strcmp(mode, "NOTSET")) {
		/* now explicit: the node says NOTSET and carries the pads */
		struct ir_attr *a = (struct ir_attr *)ap;
		char *notset = strdup("NOTSET");

		if (!notset)
			return NERR(n, "out of memory");
		free(a->s);
		a->s = notset;
		if (ir_set_attr_ints(n, "pads", w->pads, 2 * (size_t)w->nsp))
			return NERR(n, "out of memory");
	}
	return 0;
}

/* Spatial output size of a window; NERR when it is not positive. */
static int window_out(struct ir_node *n, const struct window *w, int i,
		      int64_t in, bool ceil_mode, int64_t *out,
		      char *err, size_t errlen)
{
	int64_t span = in + w->pads[i] + w->pads[i + w->nsp] -
		       (w->k[i] - 1) * w->d[i] - 1;

	if (span < 0)
		return NERR(n, "the window (%lld) is larger than the padded input (%lld) in spatial dim %d",
			    (long long)((w->k[i] - 1) * w->d[i] + 1),
			    (long long)(in + w->pads[i] + w->pads[i + w->nsp]),
			    i);
	*out = (ceil_mode ? (span + w->s[i] - 1) : span) / w->s[i] + 1;
	/* a ceil window must start inside the input or left padding */
	if (ceil_mode && (*out - 1) * w->s[i] >= in + w->pads[i])
		(*out)--;
	return 0;
}

INFER(conv)
{
	bool qlinear = !strcmp(n->op_type, "QLinearConv");
	bool integer = qlinear || !strcmp(n->op_type, "ConvInteger");
	int bi = qlinear ? 8 : 2;	/* where the bias is */
	const struct ir_tensor *x = IN(0), *wt = IN(qlinear ? 3 : 1);
	int64_t group = ir_attr_int(n, "group", 1), dims[IR_MAX_RANK];
	struct window w;
	int i;

	if (integer ? (x->dtype != 2 && x->dtype != 4) ||
		      (wt->dtype != 2 && wt->dtype != 4) :
		      !ir_dtype_is_float(x->dtype) || wt->dtype != x->dtype)
		return NERR(n, "input and weight must have one float type (int8/uint8 for ConvInteger, QLinearConv)");
	if (wt->rank != x->rank)
		return NERR(n, "weight %s has rank %d, the input %d", wt->name,
			    wt->rank, x->rank);
	if (group < 1 || x->dims[1] % group || wt->dims[0] % group ||
	    wt->dims[1] * group != x->dims[1])
		return NERR(n, "input channels %lld, weight %lldx%lld and group %lld do not agree",
			    (long long)x->dims[1], (long long)wt->dims[0],
			    (long long)wt->dims[1], (long long)group);
	if ((!integer || qlinear) && HAS_IN(bi) &&
	    (IN(bi)->rank != 1 || IN(bi)->dims[0] != wt->dims[0]))
		return NERR(n, "bias %s must have %lld values", IN(bi)->name,
			    (long long)wt->dims[0]);
	if (window_attrs(g, n, x, wt->dims + 2, &w, err, errlen))
		return -1;
	dims[0] = x->dims[0];
	dims[1] = wt->dims[0];
	for (i = 0; i < w.nsp; i++)
		if (window_out(n, &w, i, x->dims[i + 2], false, &dims[i + 2],
			       err, errlen))
			return -1;
	return set_out(g, n, 0, qlinear ? IN(7)->dtype : integer ? DT_INT32 :
			    x->dtype, x->rank, dims);
}

/*
 * ConvTranspose's output_shape and SAME auto_pad fix the output size;
 * the pads that give it are written on the node (auto_pad NOTSET). A
 * negative total padding means rows past the last input's reach, which
 * the device fills with the bias alone.
 */
static int conv_transpose_pads(struct ir_graph *g, struct ir_node *n,
			       const struct ir_tensor *x,
			       const struct ir_tensor *wt, char *err,
			       size_t errlen)
{
	const struct ir_attr *os = ir_attr(n, "output_shape");
	const struct ir_attr *ap = ir_attr(n, "auto_pad");
	const char *mode = ap && ap->s ? ap->s : "NOTSET";
	int64_t s[IR_MAX_RANK], d[IR_MAX_RANK], op[IR_MAX_RANK];
	int64_t pads[2 * IR_MAX_RANK];
	int nsp = x->rank - 2, i;
	bool upper = !strcmp(mode, "SAME_UPPER");

	if (nsp < 1 || (!os && strncmp(mode, "SAME_", 5)))
		return 0;
	if (os && (os->kind != IR_ATTR_INTS ||
		   (os->count != (size_t)nsp && os->count != (size_t)x->rank)))
		return NERR(n, "output_shape needs %d values", nsp);
	if (ints_attr(n, "strides", nsp, 1, s, err, errlen) ||
	    ints_attr(n, "dilations", nsp, 1, d, err, errlen) ||
	    ints_attr(n, "output_padding", nsp, 0, op, err, errlen))
		return -1;
	for (i = 0; i < nsp; i++) {
		int64_t in = x->dims[i + 2], out, total;

		if (s[i] < 1 || s[i] > (1 << 20) || d[i] < 1 || d[i] > (1 << 20))
			return NERR(n, "strides and dilations must be in 1 .. 2^20");
		out = os ? os->ints[os->count - (size_t)nsp + (size_t)i] :
			   in * s[i];
		total = s[i] * (in - 1) + op[i] + (wt->dims[i + 2] - 1) * d[i] +
			1 - out;
		if (total < 0)
			total = 0;
		pads[i] = upper ? total / 2 : total - total / 2;
		pads[i + nsp] = total - pads[i];
	}
	if (strcmp(mode, "NOTSET")) {
		/* explicit now: later passes read the pads */
		struct ir_attr *a = (struct ir_attr *)ap;
		char *notset = strdup("NOTSET");

		if (!notset)
			return NERR(n, "out of memory");
		free(a->s);
		a->s = notset;
	}
	/* last: adding an attribute may move the node's attributes */
	if (ir_set_attr_ints(n, "pads", pads, 2 * (size_t)nsp))
		return NERR(n, "out of memory");
	return 0;
}

INFER(conv_transpose)
{
	const struct ir_tensor *x = IN(0), *wt = IN(1);
	int64_t group = ir_attr_int(n, "group", 1), dims[IR_MAX_RANK];
	int64_t opad[IR_MAX_RANK];
	struct window w;
	int i;

	if (!ir_dtype_is_float(x->dtype) || wt->dtype != x->dtype)
		return NERR(n, "input and weight must have one float type");
	if (wt->rank != x->rank || group < 1 || wt->dims[0] != x->dims[1] ||
	    x->dims[1] % group)
		return NERR(n, "input channels %lld, weight dim 0 %lld and group %lld do not agree",
			    (long long)x->dims[1], (long long)wt->dims[0],
			    (long long)group);
	if (conv_transpose_pads(g, n, x, wt, err, errlen) ||
	    window_attrs(g, n, x, wt->dims + 2, &w, err, errlen) ||
	    ints_attr(n, "output_padding", w.nsp, 0, opad, err, errlen))
		return -1;
	dims[0] = x->dims[0];
	dims[1] = wt->dims[1] * group;
	if (HAS_IN(2) && (IN(2)->rank != 1 || IN(2)->dims[0] != dims[1]))
		return NERR(n, "bias %s must have %lld values", IN(2)->name,
			    (long long)dims[1]);
	if (ir_attr(n, "output_shape")) {
		/* the pads were derived from it; the rest is output padding */
		const struct ir_attr *os = ir_attr(n, "output_shape");

		for (i = 0; i < w.nsp; i++) {
			dims[i + 2] = os->ints[os->count - (size_t)w.nsp + (size_t)i];
			if (dims[i + 2] < 1 || dims[i + 2] > (1LL << 31))
				return NERR(n, "output_shape %d is %lld", i,
					    (long long)dims[i + 2]);
		}
		return set_out(g, n, 0, x->dtype, x->rank, dims);
	}
	for (i = 0; i < w.nsp; i++) {
		dims[i + 2] = w.s[i] * (x->dims[i + 2] - 1) + opad[i] +
			      (w.k[i] - 1) * w.d[i] + 1 - w.pads[i] -
			      w.pads[i + w.nsp];
		if (opad[i] < 0 || (opad[i] >= w.s[i] && opad[i] >= w.d[i]))
			return NERR(n, "output_padding must be below the stride or dilation");
		if (dims[i + 2] < 1)
			return NERR(n, "the output would be empty in spatial dim %d", i);
	}
	return set_out(g, n, 0, x->dtype, x->rank, dims);
}

INFER(pool)
{
	const struct ir_tensor *x = IN(0);
	bool ceil_mode = ir_attr_int(n, "ceil_mode", 0);
	int64_t dims[IR_MAX_RANK];
	struct window w;
	int i;

	if (!ir_dtype_is_float(x->dtype) && (strcmp(n->op_type, "MaxPool") ||
					      (x->dtype != 2 && x->dtype != 4)))
		return NERR(n, "input %s is %s, pools take a float type (MaxPool also int8/uint8)",
			    x->name, ir_dtype_name(x->dtype));
	if (window_attrs(g, n, x, NULL, &w, err, errlen))
		return -1;
	dims[0] = x->dims[0];
	dims[1] = x->dims[1];
	for (i = 0; i < w.nsp; i++)
		if (window_out(n, &w, i, x->dims[i + 2], ceil_mode, &dims[i + 2],
			       err, errlen))
			return -1;
	/* MaxPool's optional second output: flat INT64 indices */
	if (n->nout > 1 && n->outputs[1] >= 0 &&
	    set_out(g, n, 1, DT_INT64, x->rank, dims))
		return -1;
	return set_out(g, n, 0, x->dtype, x->rank, dims);
}

INFER(global_pool)
{
	int64_t dims[IR_MAX_RANK];
	int i;

	if (IN(0)->rank < 3 || !ir_dtype_is_float(IN(0)->dtype))
		return NERR(n, "needs a float input with N, C and spatial dims");
	dims[0] = IN(0)->dims[0];
	dims[1] = IN(0)->dims[1];
	for (i = 2; i < IN(0)->rank; i++)
		dims[i] = 1;
	return set_out(g, n, 0, IN(0)->dtype, IN(0)->rank, dims);
}

INFER(batchnorm)
{
	int k;

	if (IN(0)->rank < 2 || !ir_dtype_is_float(IN(0)->dtype))
		return NERR(n, "needs a float input with N and C dims");
	for (k = 1; k < 5; k++)
		if (IN(k)->rank != 1 || IN(k)->dims[0] != IN(0)->dims[1])
			return NERR(n, "%s must have %lld values (the channels)",
				    IN(k)->name, (long long)IN(0)->dims[1]);
	/* training mode's running mean and variance: one value per channel */
	for (k = 1; k < n->nout && k < 3; k++)
		if (n->outputs[k] >= 0 &&
		    set_out(g, n, k, IN(0)->dtype, 1, &IN(0)->dims[1]))
			return -1;
	if (n->nout > 3 && n->outputs[3] >= 0)
		return NERR(n, "the saved mean and variance outputs are not supported");
	return set_out_like(g, n, 0, IN(0));
}

INFER(layernorm)
{
	int axis, k, d;

	if (!ir_dtype_is_float(IN(0)->dtype))
		return NERR(n, "needs a float input");
	if (norm_axis(n, ir_attr_int(n, "axis", -1), IN(0)->rank, &axis, err,
		      errlen))
		return -1;
	for (k = 1; k < 3; k++) {
		if (!HAS_IN(k))
			continue;
		for (d = 0; d < IN(k)->rank; d++)
			if (IN(k)->rank > IN(0)->rank - axis ||
			    IN(k)->dims[IN(k)->rank - 1 - d] !=
			    IN(0)->dims[IN(0)->rank - 1 - d])
				return NERR(n, "%s does not match the normalized dims",
					    IN(k)->name);
	}
	/* Mean and InvStdDev: x's dims with the normalized ones 1 */
	if (n->nout > 1) {
		int64_t dims[IR_MAX_RANK];

		for (d = 0; d < IN(0)->rank; d++)
			dims[d] = d < axis ? IN(0)->dims[d] : 1;
		for (k = 1; k < n->nout && k < 3; k++)
			if (n->outputs[k] >= 0 &&
			    set_out(g, n, k, IN(0)->dtype, IN(0)->rank, dims))
				return -1;
	}
	return set_out_like(g, n, 0, IN(0));
}

INFER(matmul)
{
	const struct ir_tensor *a = IN(0), *b = IN(1);
	int64_t ad[IR_MAX_RANK], bd[IR_MAX_RANK], dims[IR_MAX_RANK];
	int ra = a->rank, rb = b->rank, r, i;

	if (!ra || !rb)
		return NERR(n, "inputs must have rank >= 1");
	if (a->dtype != b->dtype)
		return NERR(n, "inputs %s and %s differ in type", a->name, b->name);
	/* 1-D operands are promoted, the added dim dropped afterwards */
	memcpy(ad, a->dims, sizeof(ad));
	memcpy(bd, b->dims, sizeof(bd));
	if (ra == 1) {
		ad[1] = ad[0];
		ad[0] = 1;
		ra = 2;
	}
	if (rb == 1) {
		bd[1] = 1;
		rb = 2;
	}
	if (ad[ra - 1] != bd[rb - 2])
		return NERR(n, "inner dims differ: %lld and %lld",
			    (long long)ad[ra - 1], (long long)bd[rb - 2]);
	if (ir_broadcast(ra - 2, ad, rb - 2, bd, &r, dims))
		return NERR(n, "batch dims do not broadcast");
	if (r + 2 > IR_MAX_RANK)
		return NERR(n, "the output rank is above %d", IR_MAX_RANK);
	i = r;
	if (a->rank > 1)
		dims[i++] = ad[ra - 2];
	if (b->rank > 1)
		dims[i++] = bd[rb - 1];
	if (HAS_IN(2) && (IN(2)->rank != 1 || !b->rank ||
			  IN(2)->dims[0] != bd[rb - 1]))
		return NERR(n, "bias %s must be a vector over the last output dim",
			    IN(2)->name);
	return set_out(g, n, 0, a->dtype, i, dims);
}

INFER(gemm)
{
	const struct ir_tensor *a = IN(0), *b = IN(1);
	bool ta = ir_attr_int(n, "transA", 0), tb = ir_attr_int(n, "transB", 0);
	int64_t dims[2], k;

	if (a->rank != 2 || b->rank != 2)
		return NERR(n, "A and B must be 2-D (%s has rank %d, %s %d)",
			    a->name, a->rank, b->name, b->rank);
	if (a->dtype != b->dtype || !ir_dtype_is_float(a->dtype))
		return NERR(n, "A and B must have one float type");
	dims[0] = a->dims[ta ? 1 : 0];
	k = a->dims[ta ? 0 : 1];
	if (k != b->dims[tb ? 1 : 0])
		return NERR(n, "inner dims differ: %lld and %lld", (long long)k,
			    (long long)b->dims[tb ? 1 : 0]);
	dims[1] = b->dims[tb ? 0 : 1];
	if (HAS_IN(2)) {
		int64_t out[IR_MAX_RANK];
		int r;

		if (ir_broadcast(2, dims, IN(2)->rank, IN(2)->dims, &r, out) ||
		    r != 2 || out[0] != dims[0] || out[1] != dims[1])
			return NERR(n, "C %s does not broadcast to %lldx%lld",
				    IN(2)->name, (long long)dims[0],
				    (long long)dims[1]);
	}
	return set_out(g, n, 0, a->dtype, 2, dims);
}

/* ReduceMean, ReduceSum, ReduceMax: axes as attribute or input by opset. */
INFER(reduce)
{
	const struct ir_tensor *x = IN(0);
	int64_t axes[IR_MAX_RANK], dims[IR_MAX_RANK];
	bool keep = ir_attr_int(n, "keepdims", 1), red[IR_MAX_RANK] = { 0 };
	const struct ir_attr *a = ir_attr(n, "axes");
	int naxes = 0, i, r = 0;

	if (HAS_IN(1)) {
		naxes = ir_const_ints(g, n->inputs[1], axes, IR_MAX_RANK);
		if (naxes < 0)
			return NERR(n, "axes %s must be a constant of at most %d values",
				    IN(1)->name, IR_MAX_RANK);
	} else if (a) {
		if (a->kind != IR_ATTR_INTS || a->count > IR_MAX_RANK)
			return NERR(n, "bad axes attribute");
		naxes = (int)a->count;
		memcpy(axes, a->ints, sizeof(int64_t) * (size_t)naxes);
	}
	if (!naxes && ir_attr_int(n, "noop_with_empty_axes", 0))
		return set_out_like(g, n, 0, x);
	for (i = 0; i < naxes; i++) {
		int ax;

		if (norm_axis(n, axes[i], x->rank, &ax, err, errlen))
			return -1;
		if (red[ax])
			return NERR(n, "axis %lld is given twice", (long long)axes[i]);
		red[ax] = true;
	}
	for (i = 0; i < x->rank; i++) {
		if (!naxes || red[i]) {
			if (keep)
				dims[r++] = 1;
		} else {
			dims[r++] = x->dims[i];
		}
	}
	return set_out(g, n, 0, x->dtype, r, dims);
}
