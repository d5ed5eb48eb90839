// SPDX-License-Identifier: MIT
/*
 * AIPP blocks applied to a graph (see aipp.h). A static block's values
 * are checked here against the model input with the rules the device
 * applies at run time (Documentation/aipp.md), so that a configuration
 * that could never run fails at atc with the key to fix, not at every
 * execution. Fields of a stage whose switch is off are cleared, as CANN
 * ignores them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aipp.h"

#define SIDE_MAX	8192

struct ctx {
	const struct compile_aipp *a;
	int block;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 2, 3)))
static int fail(struct ctx *C, const char *fmt, ...)
{
	size_t n = (size_t)snprintf(C->err, C->errlen,
				    "--insert_op_conf: aipp_op %d (line %d, input %d): ",
				    C->block + 1, C->a->line, C->a->input);
	va_list ap;

	if (n < C->errlen) {
		va_start(ap, fmt);
		vsnprintf(C->err + n, C->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

int64_t aipp_image_bytes(uint32_t format, int64_t w, int64_t h)
{
	switch (format) {
	case 1:		/* YUV420SP_U8 */
		return w * h * 3 / 2;
	case 2:		/* XRGB8888_U8 */
		return w * h * 4;
	case 3:		/* RGB888_U8 */
		return w * h * 3;
	case 4:		/* YUV400_U8 */
		return w * h;
	default:
		return 0;
	}
}

static int channels(uint32_t format)
{
	return format == 2 ? 4 : format == 4 ? 1 : 3;
}

/* A size the block left 0 becomes @want; a given one must equal it. */
static int size_is(struct ctx *C, int32_t *v, int64_t want, const char *key,
		   const char *why)
{
	if (!*v)
		*v = (int32_t)want;
	if (*v != want)
		return fail(C, "%s is %d but %s needs %lld", key, *v, why,
			    (long long)want);
	return 0;
}

static int need(struct ctx *C, int32_t v, const char *key, const char *with)
{
	if (!v)
		return fail(C, "%s is needed with %s", key, with);
	return 0;
}

/* Stages switched off: their fields cleared (CANN ignores them). */
static void clear_off(struct drm_vnpu_aipp_params *p)
{
	if (!p->csc_switch) {
		memset(p->csc_matrix, 0, sizeof(p->csc_matrix));
		memset(p->csc_in_bias, 0, sizeof(p->csc_in_bias));
		memset(p->csc_out_bias, 0, sizeof(p->csc_out_bias));
	}
	if (!p->crop_switch)
		p->crop_x = p->crop_y = p->crop_w = p->crop_h = 0;
	if (!p->scf_switch)
		p->scf_w = p->scf_h = 0;
	if (!p->pad_switch)
		p->pad_top = p->pad_bottom = p->pad_left = p->pad_right = 0;
}

/* Sizes derived backwards from the layer's H x W, then every rule. */
static int resolve(struct ctx *C, struct drm_vnpu_aipp_params *p, int64_t ch,
		   int64_t h, int64_t w)
{
	uint32_t f = p->input_format;
	int64_t tw, th;

	clear_off(p);
	tw = w - p->pad_left - p->pad_right;
	th = h - p->pad_top - p->pad_bottom;
	if (tw < 1 || th < 1 || tw > SIDE_MAX || th > SIDE_MAX)
		return fail(C, "the padding leaves %lld x %lld of the input's %lld x %lld (1..%d a side)",
			    (long long)tw, (long long)th, (long long)w,
			    (long long)h, SIDE_MAX);
	if (p->scf_switch) {
		if (size_is(C, &p->scf_w, tw, "resize_output_w", "the input's width less the padding") ||
		    size_is(C, &p->scf_h, th, "resize_output_h", "the input's height less the padding"))
			return -1;
		if (p->crop_switch ?
		    need(C, p->crop_w, "crop_size_w", "resize") ||
		    need(C, p->crop_h, "crop_size_h", "resize") :
		    need(C, p->src_w, "src_image_size_w", "resize") ||
		    need(C, p->src_h, "src_image_size_h", "resize"))
			return -1;
	}
	if (p->crop_switch) {
		if (!p->scf_switch &&
		    (size_is(C, &p->crop_w, tw, "crop_size_w", "the input's width less the padding") ||
		     size_is(C, &p->crop_h, th, "crop_size_h", "the input's height less the padding")))
			return -1;
		if (need(C, p->src_w, "src_image_size_w", "crop") ||
		    need(C, p->src_h, "src_image_size_h", "crop"))
			return -1;
		if ((int64_t)p->crop_x + p->crop_w > p->src_w ||
		    (int64_t)p->crop_y + p->crop_h > p->src_h)
			return fail(C, "the crop (%d, %d) + %d x %d is not inside the %d x %d image",
				    p->crop_x, p->crop_y, p->crop_w, p->crop_h,
				    p->src_w, p->src_h);
	} else if (!p->scf_switch) {
		if (size_is(C, &p->src_w, tw, "src_image_size_w", "the input's width less the padding") ||
		    size_is(C, &p->src_h, th, "src_image_size_h", "the input's height less the padding"))
			return -1;
	}
	if (f == 1 && (p->src_w % 2 || p->src_h % 2))
		return fail(C, "a YUV420SP_U8 image needs even sides, not %d x %d",
			    p->src_w, p->src_h);
	if (f == 4 && (p->csc_switch || p->rbuv_swap))
		return fail(C, "a YUV400_U8 image has no colours: csc_switch and rbuv_swap_switch must be false");
	if (p->ax_swap && f != 2)
		return fail(C, "ax_swap_switch needs input_format XRGB8888_U8");
	if (ch > channels(f))
		return fail(C, "the input has %lld channels, a %s image gives %d",
			    (long long)ch, f == 4 ? "YUV400_U8" : f == 2 ?
			    "XRGB8888_U8" : "3-channel", channels(f));
	return 0;
}

/* The new node goes first: producers move up by one. */
static void node_to_front(struct ir_graph *g, int ni)
{
	struct ir_node n = g->nodes[ni];
	int i;

	memmove(&g->nodes[1], &g->nodes[0], (size_t)ni * sizeof(n));
	g->nodes[0] = n;
	for (i = 0; i < g->ntensors; i++)
		if (g->tensors[i].producer >= 0 && g->tensors[i].producer < ni)
			g->tensors[i].producer++;
		else if (g->tensors[i].producer == ni)
			g->tensors[i].producer = 0;
}

/* A new graph input of UINT8 [n, bytes], number @index. */
static int new_input(struct ir_graph *g, const char *name, int index,
		     int64_t n, int64_t bytes, bool batched)
{
	int ti = ir_add_tensor(g, name);
	struct ir_tensor *t;

	if (ti < 0)
		return -1;
	t = &g->tensors[ti];
	t->dtype = DT_UINT8;
	t->rank = 2;
	t->dims[0] = n;
	t->dims[1] = bytes;
	t->input_index = index;
	t->batched = batched;
	return ti;
}

static int apply_one(struct ctx *C, struct ir_graph *g, struct om_aipp *rec)
{
	const struct compile_aipp *a = C->a;
	struct drm_vnpu_aipp_params p = a->p;
	int64_t n, bytes, pdims[2] = { 1, OM_AIPP_PARAMS_SIZE };
	int ti, src, par, ni, *ins;
	struct ir_tensor *t;
	char *name, *old;
	bool batched;

	if (a->input >= g->ninputs)
		return fail(C, "related_input_rank %d: the model has %d inputs",
			    a->input, g->ninputs);
	ti = g->inputs[a->input];
	t = &g->tensors[ti];
	if (t->rank != 4 || (t->dtype != DT_FLOAT && t->dtype != DT_FLOAT16) ||
	    t->dims[0] < 1 || t->dims[1] < 1 || t->dims[1] > 4 ||
	    t->dims[2] < 1 || t->dims[3] < 1)
		return fail(C, "input '%s' is not FLOAT or FLOAT16 [N, C, H, W] with 1..4 channels",
			    t->name);
	n = t->dims[0];
	batched = t->batched;
	if (a->mode == OM_AIPP_STATIC) {
		if (resolve(C, &p, t->dims[1], t->dims[2], t->dims[3]))
			return -1;
		bytes = aipp_image_bytes(p.input_format, p.src_w, p.src_h);
	} else {
		bytes = a->max_src_size;
	}
	memset(rec, 0, sizeof(*rec));
	rec->mode = (uint32_t)a->mode;
	rec->input = (uint32_t)a->input;
	rec->params_input = OM_AIPP_NO_INPUT;
	rec->out_dtype = (uint32_t)t->dtype;
	rec->out_rank = 4;
	memcpy(rec->out_dims, t->dims, 4 * sizeof(t->dims[0]));
	if (a->mode == OM_AIPP_STATIC)
		memcpy(rec->params, &p, sizeof(p));

	/* The layer's old input keeps its tensor under another name. */
	old = t->name;
	if (asprintf(&name, "%s:aipp", old) < 0)
		return fail(C, "out of memory");
	t->name = name;
	t->input_index = -1;
	src = new_input(g, old, a->input, n, bytes, batched);
	free(old);
	if (src < 0)
		return fail(C, "out of memory");
	g->inputs[a->input] = src;
	if (a->mode == OM_AIPP_STATIC) {
		par = ir_add_const(g, "aipp_params", DT_UINT8, 2, pdims, &p);
	} else {
		ins = realloc(g->inputs, (size_t)(g->ninputs + 1) * sizeof(*ins));
		if (!ins)
			return fail(C, "out of memory");
		g->inputs = ins;
		par = new_input(g, OM_AIPP_DYNAMIC_NAME, g->ninputs, n,
				OM_AIPP_PARAMS_SIZE, batched);
		if (par >= 0)
			g->inputs[g->ninputs++] = par;
		rec->params_input = (uint32_t)(g->ninputs - 1);
	}
	if (par < 0)
		return fail(C, "out of memory (or a tensor named %s already)",
			    OM_AIPP_DYNAMIC_NAME);
	ni = ir_add_node(g, g->tensors[ti].name, AIPP_OP_TYPE, 2, 1);
	if (ni < 0)
		return fail(C, "out of memory");
	free(g->nodes[ni].domain);
	g->nodes[ni].domain = strdup("vnpu");
	if (!g->nodes[ni].domain)
		return fail(C, "out of memory");
	g->nodes[ni].inputs[0] = src;
	g->nodes[ni].inputs[1] = par;
	g->nodes[ni].outputs[0] = ti;
	g->tensors[ti].producer = ni;
	node_to_front(g, ni);
	return 0;
}

int aipp_apply(struct ir_graph *g, const struct compile_aipp *blocks, int n,
	       const char *input_format, struct om_aipp *rec, char *err,
	       size_t errlen)
{
	struct ctx C = { .err = err, .errlen = errlen };
	int i;

	for (i = 0; i < n; i++) {
		C.a = &blocks[i];
		C.block = i;
		if (input_format && strcmp(input_format, "NCHW"))
			return fail(&C, "AIPP writes NCHW: --input_format=%s does not go with it",
				    input_format);
		if (apply_one(&C, g, &rec[i]))
			return -1;
	}
	return 0;
}
