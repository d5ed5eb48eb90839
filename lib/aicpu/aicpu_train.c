// SPDX-License-Identifier: MIT
/*
 * The training optimizers of ai.onnx.preview.training: Adagrad, Adam and
 * Momentum. Inputs are R (learning rate), T (update count), then n
 * tensors of each kind grouped by kind (X1..Xn, G1..Gn, ...); outputs the
 * new values grouped the same way. Math in double, stored in the
 * output's dtype.
 */
#include <errno.h>
#include <math.h>

#include "aicpu.h"

/*
 * Check the groups: nin = 2 + kinds_in * n, nout = kinds_out * n, every
 * tensor of a slot the same numel as its X. Returns n or -1.
 */
static int64_t groups(struct aicpu_call *c, uint32_t kinds_in,
		      uint32_t kinds_out)
{
	uint32_t n;

	if (c->nin < 2 || (c->nin - 2) % kinds_in ||
	    c->nout != (c->nin - 2) / kinds_in * kinds_out || !c->nout ||
	    aicpu_numel(&c->t[0]) != 1 || aicpu_numel(&c->t[1]) != 1)
		return aicpu_fail(c, "%u inputs and %u outputs do not make groups of %u and %u",
				  c->nin, c->nout, kinds_in, kinds_out), -1;
	n = (c->nin - 2) / kinds_in;
	for (uint32_t i = 0; i < n; i++) {
		int64_t want = aicpu_numel(&c->t[2 + i]);

		for (uint32_t k = 1; k < kinds_in; k++)
			if (aicpu_numel(&c->t[2 + k * n + i]) != want)
				return aicpu_fail(c, "tensor %u of kind %u has another size than X%u",
						  i, k, i), -1;
		for (uint32_t k = 0; k < kinds_out; k++)
			if (aicpu_numel(&c->t[c->nin + k * n + i]) != want)
				return aicpu_fail(c, "output %u of kind %u has another size than X%u",
						  i, k, i), -1;
	}
	return n;
}

int aicpu_adagrad(struct aicpu_call *c)
{
	double norm = c->floats[0], eps = c->floats[1], decay = c->floats[2];
	int64_t n = groups(c, 3, 2);
	double r, t;

	if (n < 0)
		return -EINVAL;
	r = aicpu_get(&c->t[0], 0);
	t = (double)aicpu_get_int(&c->t[1], 0);
	r = r / (1 + t * decay);
	for (int64_t i = 0; i < n; i++) {
		struct aicpu_tensor *x = &c->t[2 + i], *g = &c->t[2 + n + i];
		struct aicpu_tensor *h = &c->t[2 + 2 * n + i];
		struct aicpu_tensor *xo = &c->t[c->nin + i], *ho = &c->t[c->nin + n + i];

		for (int64_t e = 0; e < aicpu_numel(x); e++) {
			double xv = aicpu_get(x, e);
			double gr = norm * xv + aicpu_get(g, e);
			double hn = aicpu_get(h, e) + gr * gr;

			aicpu_put(xo, e, xv - r * gr / (sqrt(hn) + eps));
			aicpu_put(ho, e, hn);
		}
	}
	return 0;
}

int aicpu_adam(struct aicpu_call *c)
{
	double alpha = c->floats[0], beta = c->floats[1], eps = c->floats[2];
	double norm = c->floats[3], post = c->floats[4];
	int64_t n = groups(c, 4, 3), t;
	double r;

	if (n < 0)
		return -EINVAL;
	r = aicpu_get(&c->t[0], 0);
	t = aicpu_get_int(&c->t[1], 0);
	if (t > 0)
		r = r * sqrt(1 - pow(beta, (double)t)) / (1 - pow(alpha, (double)t));
	for (int64_t i = 0; i < n; i++) {
		struct aicpu_tensor *x = &c->t[2 + i], *g = &c->t[2 + n + i];
		struct aicpu_tensor *v = &c->t[2 + 2 * n + i], *h = &c->t[2 + 3 * n + i];
		struct aicpu_tensor *xo = &c->t[c->nin + i];
		struct aicpu_tensor *vo = &c->t[c->nin + n + i];
		struct aicpu_tensor *ho = &c->t[c->nin + 2 * n + i];

		for (int64_t e = 0; e < aicpu_numel(x); e++) {
			double xv = aicpu_get(x, e);
			double gr = norm * xv + aicpu_get(g, e);
			double vn = alpha * aicpu_get(v, e) + (1 - alpha) * gr;
			double hn = beta * aicpu_get(h, e) + (1 - beta) * gr * gr;
			double xn = xv - r * (vn / (sqrt(hn) + eps));

			aicpu_put(xo, e, (1 - post) * xn);
			aicpu_put(vo, e, vn);
			aicpu_put(ho, e, hn);
		}
	}
	return 0;
}

/* ints[0]: 1 for Nesterov's form. */
int aicpu_momentum(struct aicpu_call *c)
{
	double alpha = c->floats[0], beta = c->floats[1], norm = c->floats[2];
	int64_t n = groups(c, 3, 2);
	double r;

	if (n < 0)
		return -EINVAL;
	r = aicpu_get(&c->t[0], 0);
	if (aicpu_get_int(&c->t[1], 0) <= 0)
		beta = 1;
	for (int64_t i = 0; i < n; i++) {
		struct aicpu_tensor *x = &c->t[2 + i], *g = &c->t[2 + n + i];
		struct aicpu_tensor *v = &c->t[2 + 2 * n + i];
		struct aicpu_tensor *xo = &c->t[c->nin + i], *vo = &c->t[c->nin + n + i];

		for (int64_t e = 0; e < aicpu_numel(x); e++) {
			double xv = aicpu_get(x, e);
			double gr = norm * xv + aicpu_get(g, e);
			double vn = alpha * aicpu_get(v, e) + beta * gr;

			aicpu_put(xo, e, c->ints[0] ? xv - r * (gr + alpha * vn) :
				  xv - r * vn);
			aicpu_put(vo, e, vn);
		}
	}
	return 0;
}
