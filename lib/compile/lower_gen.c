// SPDX-License-Identifier: MIT
/*
 * Generator operators whose every input is a scalar parameter needed at
 * compile time (the output's shape depends on it): HannWindow,
 * HammingWindow, BlackmanWindow and MelWeightMatrix. Their values are
 * computed here into the weights, and one copy task writes the output.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "infer_util.h"
#include "lower_int.h"

static int window_kind(const char *op_type)
{
	return !strcmp(op_type, "HannWindow") ? 1 :
	       !strcmp(op_type, "HammingWindow") ? 2 :
	       !strcmp(op_type, "BlackmanWindow") ? 3 : 0;
}

/* output_datatype (an ONNX TensorProto type, default FLOAT). */
static int out_dtype(const struct ir_node *n)
{
	return ir_dtype_from_onnx((int32_t)ir_attr_int(n, "output_datatype", 1));
}

/* A scalar input that must be a compile-time constant. */
static int scalar(struct ir_graph *g, const struct ir_node *n, int k, double *v)
{
	const struct ir_tensor *t;

	if (!HAS_IN(k))
		return -1;
	if (!ir_is_const(g, n->inputs[k])) {
		ir_need_value(g, n->inputs[k]);
		return -1;
	}
	t = &g->tensors[n->inputs[k]];
	if (ir_numel(t) != 1)
		return -1;
	*v = ir_get_f64(t, 0);
	return 0;
}

INFER(window)
{
	double size;
	int64_t d;
	int dt = out_dtype(n);

	if (scalar(g, n, 0, &size))
		return NERR(n, "size must be a constant scalar");
	if (size < 0 || size > (1 << 24) || dt < 0)
		return NERR(n, "size %g or output_datatype is out of range", size);
	d = (int64_t)size;
	return set_out(g, n, 0, dt, 1, &d);
}

INFER(melweight)
{
	double bins = 0, dft = 0, rate = 0, lo = 0, hi = 0;
	int64_t d[2];
	int dt = out_dtype(n);

	/* all five, so that every missing one is named at once */
	int bad = scalar(g, n, 0, &bins) | scalar(g, n, 1, &dft) |
		  scalar(g, n, 2, &rate) | scalar(g, n, 3, &lo) | scalar(g, n, 4, &hi);

	if (bad)
		return NERR(n, "every input must be a constant scalar");
	if (bins < 1 || bins > 4096 || dft < 1 || dft > (1 << 20) || rate <= 0 ||
	    lo < 0 || hi <= lo || dt < 0)
		return NERR(n, "parameters out of range");
	d[0] = (int64_t)dft / 2 + 1;
	d[1] = (int64_t)bins;
	return set_out(g, n, 0, dt, 2, d);
}

static double window_at(int kind, int64_t i, int64_t size, bool periodic)
{
	double den = periodic ? (double)size : (double)(size - 1);
	double x = den > 0 ? 2 * M_PI * (double)i / den : 0;

	if (kind == 1)
		return 0.5 - 0.5 * cos(x);
	if (kind == 2)
		return 25.0 / 46.0 - (1 - 25.0 / 46.0) * cos(x);
	return 0.42 - 0.5 * cos(x) + 0.08 * cos(2 * x);
}

/* The spec's triangular filters on floor-rounded DFT bins. */
static void mel(struct ir_tensor *t, int64_t bins, int64_t dft, double rate,
		double lo, double hi)
{
	int64_t nspec = dft / 2 + 1, *f = malloc((size_t)(bins + 2) * sizeof(*f));
	double mlo = 2595 * log10(1 + lo / 700), mhi = 2595 * log10(1 + hi / 700);
	double step = (mhi - mlo) / (double)(bins + 2);

	if (!f)
		return;
	for (int64_t i = 0; i < bins + 2; i++) {
		double hz = 700 * (pow(10, ((double)i * step + mlo) / 2595) - 1);

		f[i] = (int64_t)floor((double)(dft + 1) * hz / rate);
		if (f[i] < 0)
			f[i] = 0;
		if (f[i] >= nspec)
			f[i] = nspec - 1;
	}
	for (int64_t i = 0; i < nspec * bins; i++)
		ir_put_f64(t, i, 0);
	for (int64_t m = 0; m < bins; m++) {
		int64_t l = f[m], c = f[m + 1], h = f[m + 2];

		if (c == l)
			ir_put_f64(t, c * bins + m, 1);
		else
			for (int64_t j = l; j <= c; j++)
				ir_put_f64(t, j * bins + m, (double)(j - l) / (double)(c - l));
		for (int64_t j = c; h > c && j < h; j++)
			ir_put_f64(t, j * bins + m, (double)(h - j) / (double)(h - c));
	}
	free(f);
}

int lower_gen(struct lower *L, const struct ir_node *n)
{
	const struct ir_graph *g = L->g;
	int kind = window_kind(n->op_type);
	struct ir_tensor t;
	struct lw_view v[2];
	int64_t off, cnt;
	size_t bytes;

	if (!kind && strcmp(n->op_type, "MelWeightMatrix"))
		return 1;
	if (n->nout < 1 || n->outputs[0] < 0 || lw_ir_view(L, n->outputs[0], &v[1]))
		return -1;
	t = g->tensors[n->outputs[0]];
	cnt = ir_numel(&t);
	bytes = (size_t)cnt * ir_dtype_size(t.dtype);
	t.data = calloc(bytes ? bytes : 1, 1);
	if (!t.data)
		return lw_fail(L, "out of memory");
	if (kind) {
		bool periodic = ir_attr_int(n, "periodic", 1) != 0;

		for (int64_t i = 0; i < cnt; i++)
			ir_put_f64(&t, i, window_at(kind, i, cnt, periodic));
	} else {
		const struct ir_tensor *in[5];

		for (int k = 0; k < 5; k++)
			in[k] = &g->tensors[n->inputs[k]];
		mel(&t, t.dims[1], ir_get_i64(in[1], 0), ir_get_f64(in[2], 0),
		    ir_get_f64(in[3], 0), ir_get_f64(in[4], 0));
	}
	off = om_add_weight(L->b, t.data, bytes);
	free(t.data);
	if (off < 0)
		return lw_fail(L, "out of memory");
	if (!cnt)
		return 0;	/* an empty output: nothing to write */
	v[0] = v[1];
	v[0].t.loc = OM_LOC_WEIGHT;
	v[0].t.index = 0;
	v[0].t.offset = (uint64_t)off;
	v[0].buf = -1;
	return lw_emit(L, OM_OP_COPY, v, 1, 1, NULL);
}
