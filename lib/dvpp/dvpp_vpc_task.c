// SPDX-License-Identifier: MIT
/*
 * A VPC call becomes one DRM_VNPU_OP_VPC kernel task on the user's
 * stream: the pictures are whole UINT8 buffers, the geometry and formats
 * attributes (include/uapi/drm/vnpu_accel.h). The task runs on the AI
 * core engines in stream order, through the MMU, and records into a
 * captured graph like any other.
 */
#include <stdio.h>
#include <string.h>

#include "../core/entry_check.h"
#include "../core/rt_objects.h"
#include "dvpp_vpc.h"
#include "../core/prof_rt.h"

struct vpc_args {
	struct drm_vnpu_kernel_args h;
	struct drm_vnpu_tensor t[2];
	struct drm_vnpu_op_attrs a;
} __attribute__((aligned(8)));

struct dvpp_rect dvpp_rect_whole(const acldvppPicDesc *p,
				 const struct dvpp_format *f)
{
	return (struct dvpp_rect){ 0, 0, p->width / f->w_align * f->w_align,
				   p->height / f->h_align * f->h_align };
}

struct dvpp_rect dvpp_rect_roi(const acldvppRoiConfig *r)
{
	return (struct dvpp_rect){ r->left, r->top, r->right - r->left + 1,
				   r->bottom - r->top + 1 };
}

static void pic_tensor(struct drm_vnpu_tensor *t, const acldvppPicDesc *p)
{
	memset(t, 0, sizeof(*t));
	t->va = (uint64_t)(uintptr_t)p->data;
	t->dtype = DRM_VNPU_DTYPE_UINT8;
	t->rank = 1;
	t->shape[0] = p->size;
	t->strides[0] = 1;
}

/* CANN rounds an odd size of a subsampled picture down to even first. */
static void pic_ints(__s64 *v, const acldvppPicDesc *p)
{
	const struct dvpp_format *f = dvpp_format_find(p->format);
	uint32_t wa = f ? f->w_align : 1, ha = f ? f->h_align : 1;

	v[0] = p->format;
	v[1] = p->width / wa * wa;
	v[2] = p->height / ha * ha;
	v[3] = p->width_stride;
	v[4] = p->height_stride;
}

static void rect_ints(__s64 *v, const struct dvpp_rect *r)
{
	v[0] = r->x;
	v[1] = r->y;
	v[2] = r->w;
	v[3] = r->h;
}

static uint32_t float_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

/* The profiler's tag of a VPC call: "VpcResize" for acldvppVpcResizeAsync. */
static uint32_t vpc_tag(const char *func)
{
	const char *t = strncmp(func, "acldvpp", 7) ? func : func + 7;
	char type[64];
	size_t n;

	snprintf(type, sizeof(type), "%s", t);
	n = strlen(type);
	if (n > 5 && !strcmp(type + n - 5, "Async"))
		type[n - 5] = 0;
	return prof_tag_intern(type, func, 0, PROF_TASK_DVPP, NULL);
}

aclError dvpp_vpc_push(const char *func, struct rt_stream *s,
		       const struct dvpp_vpc_task *t)
{
	struct vpc_args a;
	uint32_t old;
	int ret;

	memset(&a, 0, sizeof(a));
	a.h.num_inputs = 1;
	a.h.num_outputs = 1;
	a.h.attr_size = sizeof(a.a);
	pic_tensor(&a.t[0], t->in);
	pic_tensor(&a.t[1], t->out);
	pic_ints(&a.a.ints[0], t->in);
	pic_ints(&a.a.ints[5], t->out);
	rect_ints(&a.a.ints[10], &t->crop);
	rect_ints(&a.a.ints[14], &t->paste);
	a.a.ints[18] = t->interpolation;
	a.a.ints[19] = t->csc;
	a.a.ints[20] = t->kind;
	if (t->border) {
		a.a.ints[21] = t->border->type;
		for (int i = 0; i < 4; i++)
			a.a.floats[i] = float_bits((float)t->border->value[i]);
	}
	old = prof_tag_swap(vpc_tag(func));
	ret = stream_push_kernel(s, DRM_VNPU_OP_VPC, &a, sizeof(a), NULL);
	prof_tag_swap(old);
	if (ret)
		return rt_error_at(func, ret, ACL_ERROR_RT_WAIT_TIMEOUT,
				   "queueing a VPC task");
	((acldvppPicDesc *)t->out)->ret_code = 0;
	return ACL_SUCCESS;
}

aclError dvpp_stream_arg(const char *func, aclrtStream stream,
			 struct rt_stream **s)
{
	if (!runtime_initialized())
		return rt_uninit_error(func);
	return rt_stream_arg(func, stream, s);
}
