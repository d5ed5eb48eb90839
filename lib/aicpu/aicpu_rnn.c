// SPDX-License-Identifier: MIT
/*
 * RNN, GRU and LSTM (ONNX opset 14 semantics): forward, reverse or
 * bidirectional, batch-major or sequence-major layout, sequence lengths,
 * initial states, LSTM peepholes and coupled input/forget gates, clip,
 * and the activation functions of the spec with their alpha and beta.
 *
 * Attributes (ints): [0] hidden_size, [1] direction (0 forward,
 * 1 reverse, 2 bidirectional), [2] layout, [3] linear_before_reset,
 * [4] input_forget, [5] clip given (floats[0] the clip), [8..13] the
 * activations per direction (enum act), [14..19] their alpha and beta as
 * float bits (alpha << 32 | beta).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aicpu.h"

enum act {
	ACT_SIGMOID = 0, ACT_TANH, ACT_RELU, ACT_AFFINE, ACT_LEAKY_RELU,
	ACT_THRESHOLDED_RELU, ACT_SCALED_TANH, ACT_HARD_SIGMOID, ACT_ELU,
	ACT_SOFTSIGN, ACT_SOFTPLUS, ACT_COUNT
};

struct actf {
	int kind;
	double a, b;
};

static double act(const struct actf *f, double x)
{
	switch (f->kind) {
	case ACT_SIGMOID: return 1 / (1 + exp(-x));
	case ACT_TANH: return tanh(x);
	case ACT_RELU: return x > 0 ? x : 0;
	case ACT_AFFINE: return f->a * x + f->b;
	case ACT_LEAKY_RELU: return x >= 0 ? x : f->a * x;
	case ACT_THRESHOLDED_RELU: return x > f->a ? x : 0;
	case ACT_SCALED_TANH: return f->a * tanh(f->b * x);
	case ACT_HARD_SIGMOID: return fmax(0, fmin(1, f->a * x + f->b));
	case ACT_ELU: return x >= 0 ? x : f->a * (exp(x) - 1);
	case ACT_SOFTSIGN: return x / (1 + fabs(x));
	default: return log1p(exp(x));
	}
}

static float bits_float(uint32_t b)
{
	float f;

	memcpy(&f, &b, sizeof(f));
	return f;
}

struct rnn {
	struct aicpu_call *c;
	struct aicpu_tensor *x, *w, *r, *b, *lens, *h0, *c0, *p, *y, *yh, *yc;
	int64_t seq, batch, in, hid, dirs, gates;
	bool batch_major;
	double clip;
	bool has_clip;
	struct actf f[2][3];
};

/* X[t, b, i] in either layout. */
static double x_at(const struct rnn *r, int64_t t, int64_t b, int64_t i)
{
	int64_t k = r->batch_major ? (b * r->seq + t) * r->in + i :
		    (t * r->batch + b) * r->in + i;

	return aicpu_get(r->x, k);
}

/* Index of state [d, b, j] (initial_h/c, Y_h/c) in either layout. */
static int64_t st_at(const struct rnn *r, int64_t d, int64_t b, int64_t j)
{
	return r->batch_major ? (b * r->dirs + d) * r->hid + j :
	       (d * r->batch + b) * r->hid + j;
}

static int64_t y_at(const struct rnn *r, int64_t t, int64_t d, int64_t b,
		    int64_t j)
{
	return r->batch_major ? ((b * r->seq + t) * r->dirs + d) * r->hid + j :
	       ((t * r->dirs + d) * r->batch + b) * r->hid + j;
}

static double clipv(const struct rnn *r, double v)
{
	if (!r->has_clip)
		return v;
	return v < -r->clip ? -r->clip : v > r->clip ? r->clip : v;
}

/* W[d, g*hid + j, :] . x_t(b) + Wb + Rb (the input half of gate g). */
static double in_part(const struct rnn *r, int64_t d, int64_t g, int64_t j,
		      int64_t t, int64_t b, bool with_rb)
{
	int64_t row = g * r->hid + j;
	double s = 0;

	for (int64_t i = 0; i < r->in; i++)
		s += aicpu_get(r->w, (d * r->gates * r->hid + row) * r->in + i) *
		     x_at(r, t, b, i);
	if (r->b) {
		s += aicpu_get(r->b, d * 2 * r->gates * r->hid + row);
		if (with_rb)
			s += aicpu_get(r->b, d * 2 * r->gates * r->hid +
				       r->gates * r->hid + row);
	}
	return s;
}

/* R[d, g*hid + j, :] . h (the recurrent half, without its bias). */
static double rec_part(const struct rnn *r, int64_t d, int64_t g, int64_t j,
		       const double *h)
{
	int64_t row = g * r->hid + j;
	double s = 0;

	for (int64_t k = 0; k < r->hid; k++)
		s += aicpu_get(r->r, (d * r->gates * r->hid + row) * r->hid + k) * h[k];
	return s;
}

static double rbias(const struct rnn *r, int64_t d, int64_t g, int64_t j)
{
	return r->b ? aicpu_get(r->b, d * 2 * r->gates * r->hid +
				r->gates * r->hid + g * r->hid + j) : 0;
}

/* One step of direction d for batch b: h (and cs) updated in place. */
static void step(const struct rnn *r, int64_t d, int64_t t, int64_t b,
		 double *h, double *cs, double *nh, double *nc)
{
	const struct actf *f = r->f[d];
	int64_t H = r->hid;
	uint32_t op = r->c->op;

	/* GRU: the reset gates first (nc is free scratch for it) */
	for (int64_t k = 0; op == AICPU_OP_GRU && k < H; k++)
		nc[k] = act(&f[0], clipv(r, in_part(r, d, 1, k, t, b, true) +
					  rec_part(r, d, 1, k, h)));
	for (int64_t j = 0; j < H; j++) {
		if (op == AICPU_OP_RNN) {
			nh[j] = act(&f[0], clipv(r, in_part(r, d, 0, j, t, b, true) +
						  rec_part(r, d, 0, j, h)));
		} else if (op == AICPU_OP_GRU) {
			double z = act(&f[0], clipv(r, in_part(r, d, 0, j, t, b, true) +
						     rec_part(r, d, 0, j, h)));
			double hh, rh = 0;

			if (r->c->ints[3]) {
				hh = in_part(r, d, 2, j, t, b, false) +
				     nc[j] * (rec_part(r, d, 2, j, h) + rbias(r, d, 2, j));
			} else {
				/* (r . h) R_h^T, r from the reset gates of every unit */
				for (int64_t k = 0; k < H; k++)
					rh += aicpu_get(r->r, (d * 3 * H + 2 * H + j) * H + k) *
					      nc[k] * h[k];
				hh = in_part(r, d, 2, j, t, b, true) + rh;
			}
			hh = act(&f[1], clipv(r, hh));
			nh[j] = (1 - z) * hh + z * h[j];
		} else {
			double pi = r->p ? aicpu_get(r->p, d * 3 * H + j) : 0;
			double po = r->p ? aicpu_get(r->p, d * 3 * H + H + j) : 0;
			double pf = r->p ? aicpu_get(r->p, d * 3 * H + 2 * H + j) : 0;
			double i = act(&f[0], clipv(r, in_part(r, d, 0, j, t, b, true) +
						     rec_part(r, d, 0, j, h) + pi * cs[j]));
			double fg = act(&f[0], clipv(r, in_part(r, d, 2, j, t, b, true) +
						      rec_part(r, d, 2, j, h) + pf * cs[j]));
			double g = act(&f[1], clipv(r, in_part(r, d, 3, j, t, b, true) +
						     rec_part(r, d, 3, j, h)));
			double o;

			if (r->c->ints[4])
				fg = 1 - i;
			nc[j] = fg * cs[j] + i * g;
			o = act(&f[0], clipv(r, in_part(r, d, 1, j, t, b, true) +
					      rec_part(r, d, 1, j, h) + po * nc[j]));
			nh[j] = o * act(&f[2], nc[j]);
		}
	}
	memcpy(h, nh, (size_t)H * sizeof(*h));
	if (cs)
		memcpy(cs, nc, (size_t)H * sizeof(*cs));
}

static bool dims_are(const struct aicpu_tensor *t, uint32_t rank,
		     const int64_t *want)
{
	if (t->rank != rank)
		return false;
	for (uint32_t i = 0; i < rank; i++)
		if (t->dims[i] != want[i])
			return false;
	return true;
}

static int check(struct rnn *r)
{
	struct aicpu_call *c = r->c;
	int64_t G = r->gates, H, st[3];

	if (!r->x || !r->w || !r->r || r->x->rank != 3 || r->w->rank != 3 ||
	    r->r->rank != 3)
		return aicpu_fail(c, "X, W and R of rank 3 are required");
	r->hid = H = c->ints[0];
	r->dirs = c->ints[1] == 2 ? 2 : 1;
	if (c->ints[1] < 0 || c->ints[1] > 2 || H <= 0 || H > (1 << 20))
		return aicpu_fail(c, "direction %lld or hidden_size %lld",
				  (long long)c->ints[1], (long long)H);
	r->batch_major = c->ints[2] == 1;
	r->seq = r->x->dims[r->batch_major ? 1 : 0];
	r->batch = r->x->dims[r->batch_major ? 0 : 1];
	r->in = r->x->dims[2];
	if (!dims_are(r->w, 3, (int64_t[]){ r->dirs, G * H, r->in }) ||
	    !dims_are(r->r, 3, (int64_t[]){ r->dirs, G * H, H }) ||
	    (r->b && !dims_are(r->b, 2, (int64_t[]){ r->dirs, 2 * G * H })) ||
	    (r->p && !dims_are(r->p, 2, (int64_t[]){ r->dirs, 3 * H })) ||
	    (r->lens && !dims_are(r->lens, 1, &r->batch)))
		return aicpu_fail(c, "W, R, B, P or sequence_lens do not match X and hidden_size");
	if (r->batch_major) {
		st[0] = r->batch;
		st[1] = r->dirs;
	} else {
		st[0] = r->dirs;
		st[1] = r->batch;
	}
	st[2] = H;
	if ((r->h0 && !dims_are(r->h0, 3, st)) || (r->c0 && !dims_are(r->c0, 3, st)))
		return aicpu_fail(c, "an initial state's dims do not match");
	if ((r->yh && aicpu_set_dims(c, r->yh, 3, st)) ||
	    (r->yc && aicpu_set_dims(c, r->yc, 3, st)))
		return -EINVAL;
	if (r->y && aicpu_set_dims(c, r->y, 4, r->batch_major ?
			(int64_t[]){ r->batch, r->seq, r->dirs, H } :
			(int64_t[]){ r->seq, r->dirs, r->batch, H }))
		return -EINVAL;
	for (int64_t b = 0; r->lens && b < r->batch; b++) {
		int64_t l = aicpu_get_int(r->lens, b);

		if (l < 0 || l > r->seq)
			return aicpu_fail(c, "sequence_lens[%lld] = %lld is not in 0..%lld",
					  (long long)b, (long long)l, (long long)r->seq);
	}
	return 0;
}

int aicpu_rnn(struct aicpu_call *c)
{
	struct rnn r = { .c = c };
	uint32_t nact = c->op == AICPU_OP_RNN ? 1 : c->op == AICPU_OP_GRU ? 2 : 3;
	double *buf;
	int ret;

	r.gates = c->op == AICPU_OP_RNN ? 1 : c->op == AICPU_OP_GRU ? 3 : 4;
	r.x = aicpu_in(c, 0);
	r.w = aicpu_in(c, 1);
	r.r = aicpu_in(c, 2);
	r.b = aicpu_in(c, 3);
	r.lens = aicpu_in(c, 4);
	r.h0 = aicpu_in(c, 5);
	r.c0 = c->op == AICPU_OP_LSTM ? aicpu_in(c, 6) : NULL;
	r.p = c->op == AICPU_OP_LSTM ? aicpu_in(c, 7) : NULL;
	r.y = aicpu_out(c, 0);
	r.yh = aicpu_out(c, 1);
	r.yc = c->op == AICPU_OP_LSTM ? aicpu_out(c, 2) : NULL;
	r.has_clip = c->ints[5];
	r.clip = c->floats[0];
	for (uint32_t d = 0; d < 2; d++)
		for (uint32_t k = 0; k < nact; k++) {
			int64_t code = c->ints[8 + d * nact + k];
			uint64_t ab = (uint64_t)c->ints[14 + d * nact + k];

			if (code < 0 || code >= ACT_COUNT)
				return aicpu_fail(c, "activation code %lld", (long long)code);
			r.f[d][k].kind = (int)code;
			r.f[d][k].a = bits_float((uint32_t)(ab >> 32));
			r.f[d][k].b = bits_float((uint32_t)ab);
		}
	ret = check(&r);
	if (ret)
		return ret;
	buf = calloc((size_t)r.hid * 4, sizeof(*buf));
	if (!buf)
		return aicpu_fail(c, "out of memory"), -ENOMEM;
	for (int64_t d = 0; d < r.dirs; d++) {
		bool rev = c->ints[1] == 1 || d == 1;

		for (int64_t b = 0; b < r.batch; b++) {
			double *h = buf, *cs = buf + r.hid, *nh = cs + r.hid, *nc = nh + r.hid;
			int64_t len = r.lens ? aicpu_get_int(r.lens, b) : r.seq;

			for (int64_t j = 0; j < r.hid; j++) {
				h[j] = r.h0 ? aicpu_get(r.h0, st_at(&r, d, b, j)) : 0;
				cs[j] = r.c0 ? aicpu_get(r.c0, st_at(&r, d, b, j)) : 0;
			}
			for (int64_t s = 0; s < r.seq; s++) {
				int64_t t = rev ? len - 1 - s : s;

				if (s >= len) {
					/* past the sequence: Y is zero there */
					for (int64_t j = 0; r.y && j < r.hid; j++)
						aicpu_put(r.y, y_at(&r, s, d, b, j), 0);
					continue;
				}
				step(&r, d, t, b, h, c->op == AICPU_OP_LSTM ? cs : NULL, nh, nc);
				for (int64_t j = 0; r.y && j < r.hid; j++)
					aicpu_put(r.y, y_at(&r, t, d, b, j), h[j]);
			}
			for (int64_t j = 0; j < r.hid; j++) {
				if (r.yh)
					aicpu_put(r.yh, st_at(&r, d, b, j), h[j]);
				if (r.yc)
					aicpu_put(r.yc, st_at(&r, d, b, j), cs[j]);
			}
		}
	}
	free(buf);
	return 0;
}
