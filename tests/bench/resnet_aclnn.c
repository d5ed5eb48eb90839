// SPDX-License-Identifier: MIT
/*
 * ResNet-18 op by op through aclnn (see resnet_aclnn.h). Every operator
 * is a descriptor built once at create; an inference runs both aclnn
 * phases of each (GetWorkspaceSize, then the launch) as an application
 * would, sharing one workspace that is ordered by the stream.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aclnnop/aclnn_adaptive_avg_pool2d.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_max_pool2d.h"
#include "aclnnop/aclnn_relu.h"
#include "resnet_aclnn.h"

#define MAX_TENSORS 128
#define MAX_OPS 64
#define WORKSPACE (64u << 20)

enum kind { CONV, RELU, ADD, MAXPOOL, AVGPOOL, ADDMM };

struct op {
	enum kind kind;
	aclTensor *x, *y, *w, *b, *out;
	aclIntArray *stride, *pad, *dil, *outpad;
};

struct resnet_aclnn {
	void *dev[MAX_TENSORS];
	aclTensor *t[MAX_TENSORS];
	int nt;
	struct op ops[MAX_OPS];
	int nops;
	aclIntArray *k3, *s2, *p1, *d1, *p0, *s1, *one;
	aclScalar *alpha;
	void *ws;
	int err;
};

/* A contiguous float tensor of the given NCHW (or lower-rank) dims. */
static aclTensor *tensor(struct resnet_aclnn *r, int rank, int64_t d0,
			 int64_t d1, int64_t d2, int64_t d3)
{
	int64_t dims[4] = { d0, d1, d2, d3 }, strides[4];
	size_t n = 1;
	void *dev;

	if (r->err || r->nt == MAX_TENSORS) {
		r->err = 1;
		return NULL;
	}
	for (int i = rank - 1; i >= 0; i--) {
		strides[i] = (int64_t)n;
		n *= (size_t)dims[i];
	}
	if (aclrtMalloc(&dev, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST) ||
	    aclrtMemset(dev, n * sizeof(float), 0, n * sizeof(float))) {
		r->err = 1;
		return NULL;
	}
	r->dev[r->nt] = dev;
	r->t[r->nt] = aclCreateTensor(dims, rank, ACL_FLOAT, strides, 0,
				      rank == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_ND,
				      dims, rank, dev);
	if (!r->t[r->nt])
		r->err = 1;
	return r->t[r->nt++];
}

static struct op *add_op(struct resnet_aclnn *r, enum kind kind)
{
	if (r->nops == MAX_OPS) {
		r->err = 1;
		return &r->ops[0];
	}
	memset(&r->ops[r->nops], 0, sizeof(r->ops[0]));
	r->ops[r->nops].kind = kind;
	return &r->ops[r->nops++];
}

/* conv (+ folded BN bias) of x [1,cin,h,w] into a new [1,cout,h/s,w/s]. */
static aclTensor *conv(struct resnet_aclnn *r, aclTensor *x, int64_t cin,
		       int64_t cout, int64_t k, int64_t s, int64_t h)
{
	int64_t st[2] = { s, s }, pd[2] = { k / 2, k / 2 };
	struct op *o = add_op(r, CONV);

	o->x = x;
	o->w = tensor(r, 4, cout, cin, k, k);
	o->b = tensor(r, 1, cout, 0, 0, 0);
	o->out = tensor(r, 4, 1, cout, h / s, h / s);
	o->stride = aclCreateIntArray(st, 2);
	o->pad = aclCreateIntArray(pd, 2);
	return o->out;
}

static aclTensor *relu(struct resnet_aclnn *r, aclTensor *x, int64_t c, int64_t h)
{
	struct op *o = add_op(r, RELU);

	o->x = x;
	o->out = tensor(r, 4, 1, c, h, h);
	return o->out;
}

static aclTensor *add(struct resnet_aclnn *r, aclTensor *a, aclTensor *b,
		      int64_t c, int64_t h)
{
	struct op *o = add_op(r, ADD);

	o->x = a;
	o->y = b;
	o->out = tensor(r, 4, 1, c, h, h);
	return o->out;
}

/* A basic block: two 3x3 convs, the shortcut (1x1 conv when it shrinks). */
static aclTensor *block(struct resnet_aclnn *r, aclTensor *x, int64_t cin,
			int64_t cout, int64_t s, int64_t h)
{
	aclTensor *y, *sc = x;

	y = relu(r, conv(r, x, cin, cout, 3, s, h), cout, h / s);
	y = conv(r, y, cout, cout, 3, 1, h / s);
	if (s != 1 || cin != cout)
		sc = conv(r, x, cin, cout, 1, s, h);
	return relu(r, add(r, y, sc, cout, h / s), cout, h / s);
}

struct resnet_aclnn *resnet_aclnn_create(int64_t hw)
{
	struct resnet_aclnn *r = calloc(1, sizeof(*r));
	int64_t v3[2] = { 3, 3 }, v2[2] = { 2, 2 }, v1[2] = { 1, 1 };
	int64_t v0[2] = { 0, 0 };
	float one = 1.0f;
	aclTensor *x;
	struct op *o;
	int64_t c = 64, h = hw / 4;

	if (!r)
		return NULL;
	if (hw < 32 || hw % 32) {
		free(r);
		return NULL;
	}
	r->k3 = aclCreateIntArray(v3, 2);
	r->s2 = aclCreateIntArray(v2, 2);
	r->p1 = aclCreateIntArray(v1, 2);
	r->d1 = aclCreateIntArray(v1, 2);
	r->s1 = aclCreateIntArray(v1, 2);
	r->p0 = aclCreateIntArray(v0, 2);
	r->one = aclCreateIntArray(v1, 2);
	r->alpha = aclCreateScalar(&one, ACL_FLOAT);
	if (aclrtMalloc(&r->ws, WORKSPACE, ACL_MEM_MALLOC_HUGE_FIRST))
		r->err = 1;

	x = tensor(r, 4, 1, 3, hw, hw);
	x = relu(r, conv(r, x, 3, 64, 7, 2, hw), 64, hw / 2);
	o = add_op(r, MAXPOOL);
	o->x = x;
	o->out = x = tensor(r, 4, 1, 64, h, h);
	for (int stage = 0; stage < 4; stage++) {
		int64_t cout = 64 << stage, s = stage ? 2 : 1;

		x = block(r, x, c, cout, s, h);
		h /= s;
		c = cout;
		x = block(r, x, c, c, 1, h);
	}
	o = add_op(r, AVGPOOL);
	o->x = x;
	o->out = tensor(r, 4, 1, 512, 1, 1);
	/* The pooled [1,512,1,1] seen as [1,512] for the classifier. */
	o = add_op(r, ADDMM);
	{
		int64_t d[2] = { 1, 512 }, st[2] = { 512, 1 };

		if (!r->err) {
			r->t[r->nt] = aclCreateTensor(d, 2, ACL_FLOAT, st, 0,
						      ACL_FORMAT_ND, d, 2,
						      r->dev[r->nt - 1]);
			o->x = r->t[r->nt];
			r->dev[r->nt++] = NULL;	/* not its own memory */
		}
	}
	o->b = tensor(r, 2, 1, 1000, 0, 0);
	o->w = tensor(r, 2, 512, 1000, 0, 0);
	o->out = tensor(r, 2, 1, 1000, 0, 0);
	if (r->err) {
		resnet_aclnn_destroy(r);
		return NULL;
	}
	return r;
}

int resnet_aclnn_ops(const struct resnet_aclnn *r)
{
	return r->nops;
}

int resnet_aclnn_issue(struct resnet_aclnn *r, aclrtStream s)
{
	for (int i = 0; i < r->nops; i++) {
		struct op *o = &r->ops[i];
		aclOpExecutor *ex = NULL;
		uint64_t ws = 0;
		int ret;

		switch (o->kind) {
		case CONV:
			ret = aclnnConvolutionGetWorkspaceSize(o->x, o->w, o->b,
				o->stride, o->pad, r->d1, false, r->p0, 1, o->out,
				0, &ws, &ex);
			if (!ret && ws <= WORKSPACE)
				ret = aclnnConvolution(r->ws, ws, ex, s);
			break;
		case RELU:
			ret = aclnnReluGetWorkspaceSize(o->x, o->out, &ws, &ex);
			if (!ret && ws <= WORKSPACE)
				ret = aclnnRelu(r->ws, ws, ex, s);
			break;
		case ADD:
			ret = aclnnAddGetWorkspaceSize(o->x, o->y, r->alpha, o->out,
						       &ws, &ex);
			if (!ret && ws <= WORKSPACE)
				ret = aclnnAdd(r->ws, ws, ex, s);
			break;
		case MAXPOOL:
			ret = aclnnMaxPool2dGetWorkspaceSize(o->x, r->k3, r->s2, r->p1,
							     r->d1, false, o->out,
							     &ws, &ex);
			if (!ret && ws <= WORKSPACE)
				ret = aclnnMaxPool2d(r->ws, ws, ex, s);
			break;
		case AVGPOOL:
			ret = aclnnAdaptiveAvgPool2dGetWorkspaceSize(o->x, r->one,
								     o->out, &ws, &ex);
			if (!ret && ws <= WORKSPACE)
				ret = aclnnAdaptiveAvgPool2d(r->ws, ws, ex, s);
			break;
		default:
			ret = aclnnAddmmGetWorkspaceSize(o->b, o->x, o->w, r->alpha,
							 r->alpha, o->out, 0, &ws, &ex);
			if (!ret && ws <= WORKSPACE)
				ret = aclnnAddmm(r->ws, ws, ex, s);
			break;
		}
		if (ret || ws > WORKSPACE) {
			fprintf(stderr, "resnet_aclnn: op %d (kind %d): status %d, "
				"workspace %llu: %s\n", i, o->kind, ret,
				(unsigned long long)ws, aclGetRecentErrMsg());
			return ret ? ret : -1;
		}
	}
	return 0;
}

void resnet_aclnn_destroy(struct resnet_aclnn *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->nops; i++) {
		aclDestroyIntArray(r->ops[i].stride);
		aclDestroyIntArray(r->ops[i].pad);
	}
	for (int i = 0; i < r->nt; i++) {
		aclDestroyTensor(r->t[i]);
		if (r->dev[i])
			aclrtFree(r->dev[i]);
	}
	aclDestroyIntArray(r->k3);
	aclDestroyIntArray(r->s2);
	aclDestroyIntArray(r->p1);
	aclDestroyIntArray(r->d1);
	aclDestroyIntArray(r->s1);
	aclDestroyIntArray(r->p0);
	aclDestroyIntArray(r->one);
	aclDestroyScalar(r->alpha);
	if (r->ws)
		aclrtFree(r->ws);
	free(r);
}
