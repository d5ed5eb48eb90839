// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Host tests of DRM_VNPU_OP_VPC (Documentation/vpc.md): every check()
 * rule refused one field off a valid call; crops copied exactly in every
 * format and mode; pasting leaves the rest of the destination (and the
 * stride padding) alone; NV12 <-> NV21 and the packed orders swap bytes
 * only; the colour matrices against the formulas from Kr and Kb, in
 * double; chroma subsampled as the mean of its block; TensorFlow's
 * resizes against float references; PyrDown and MakeBorder against
 * direct references; the pieces cover the destination exactly once.
 * tests/ops/op_vpc_cv_test.cpp compares with OpenCV itself.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "ops_test_util.h"
#include "kselftest_harness.h"
#include "vnpu_vpc.h"
#include "vpc_test_pic.h"

struct vcall {
	s64 ints[24];
	u32 floats[8];
};

static void vc_init(struct vcall *v, const struct pic *s, const struct pic *d,
		    s64 interp)
{
	memset(v, 0, sizeof(*v));
	v->ints[0] = s->fmt;
	v->ints[1] = s->w;
	v->ints[2] = s->h;
	v->ints[3] = s->ws;
	v->ints[4] = s->hs;
	v->ints[5] = d->fmt;
	v->ints[6] = d->w;
	v->ints[7] = d->h;
	v->ints[8] = d->ws;
	v->ints[9] = d->hs;
	v->ints[18] = interp;
}

static void vc_rects(struct vcall *v, s64 sx, s64 sy, s64 sw, s64 sh, s64 dx,
		     s64 dy, s64 dw, s64 dh)
{
	v->ints[10] = sx;
	v->ints[11] = sy;
	v->ints[12] = sw;
	v->ints[13] = sh;
	v->ints[14] = dx;
	v->ints[15] = dy;
	v->ints[16] = dw;
	v->ints[17] = dh;
}

static void wrap(struct ot_tensor *t, struct pic *p, size_t bytes)
{
	memset(t, 0, sizeof(*t));
	t->v.data = p->buf;
	t->v.dtype = DRM_VNPU_DTYPE_UINT8;
	t->v.rank = 1;
	t->v.shape[0] = (s64)bytes;
	t->v.strides[0] = 1;
}

/* Run a call over whole buffers (tensor sizes are the pictures' sizes). */
static int vrun(struct pic *s, struct pic *d, const struct vcall *v)
{
	struct ot_tensor ts, td;
	struct ot_tensor *tt[2] = { &ts, &td };
	struct drm_vnpu_op_attrs at;

	wrap(&ts, s, s->size);
	wrap(&td, d, d->size);
	memcpy(at.ints, v->ints, sizeof(at.ints));
	memcpy(at.floats, v->floats, sizeof(at.floats));
	return ot_run(DRM_VNPU_OP_VPC, tt, 1, 1, &at, 0);
}

/* The same with CPU features @cpu (VNPU_CPU_*). */
static int vrun_cpu(struct pic *s, struct pic *d, const struct vcall *v, u32 cpu)
{
	struct ot_tensor ts, td;
	struct ot_tensor *tt[2] = { &ts, &td };
	struct drm_vnpu_op_attrs at;

	wrap(&ts, s, s->size);
	wrap(&td, d, d->size);
	memcpy(at.ints, v->ints, sizeof(at.ints));
	memcpy(at.floats, v->floats, sizeof(at.floats));
	return ot_run(DRM_VNPU_OP_VPC, tt, 1, 1, &at, cpu);
}

static struct vnpu_op_call *vcall_new(struct pic *s, struct pic *d,
				      const struct vcall *v)
{
	struct ot_tensor ts, td;
	struct ot_tensor *tt[2] = { &ts, &td };
	struct drm_vnpu_op_attrs at;

	wrap(&ts, s, s->size);
	wrap(&td, d, d->size);
	memcpy(at.ints, v->ints, sizeof(at.ints));
	memcpy(at.floats, v->floats, sizeof(at.floats));
	return ot_call_own(DRM_VNPU_OP_VPC, tt, 1, 1, &at, 0);
}

/* A picture with width stride @ws (its buffer sized for it). */
static void pic_make_ws(struct pic *p, u32 f, s32 w, s32 h, s32 ws)
{
	pic_make(p, f, w, h, 0);
	free(p->buf);
	p->ws = ws;
	p->size = pic_bytes(f, ws, p->hs);
	p->buf = calloc(1, p->size + 1);
}

static u8 sat8(double v)
{
	v = floor(v + 0.5);
	return v < 0 ? 0 : v > 255 ? 255 : (u8)v;
}

/* ---------------------------------------------------------- checks -- */

/* The valid call every negative case changes one field of. */
struct base {
	struct pic s, d;
	struct vcall v;
};

static void base_make(struct base *b, u32 sf, u32 df)
{
	pic_make(&b->s, sf, 64, 48, 0);
	pic_make(&b->d, df, 32, 24, 0);
	pic_fill(&b->s, 1);
	pic_fill(&b->d, 2);
	vc_init(&b->v, &b->s, &b->d, 1);
}

static void base_free(struct base *b)
{
	pic_free(&b->s);
	pic_free(&b->d);
}

/* The base with ints[i] = val: 0 or -EINVAL. */
static int with_int(struct base *b, int i, s64 val)
{
	struct vcall v = b->v;

	v.ints[i] = val;
	return vrun(&b->s, &b->d, &v);
}

TEST(check_pictures)
{
	struct base b;
	int side;

	base_make(&b, F_NV12, F_NV12);
	ASSERT_EQ(0, vrun(&b.s, &b.d, &b.v));
	for (side = 0; side < 2; side++) {
		int o = side * 5;
		s64 w = side ? 32 : 64, h = side ? 24 : 48;

		/* formats */
		EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, o, 18));
		EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, o, -1));
		EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, o, 1000));
		EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, o, 1LL << 32));
		/* sizes */
		EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, o + 1, 0));
		EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, o + 1, -2));
		EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, o + 1, 8194));
		EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, o + 1, (1LL << 32) + w));
		EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, o + 2, 0));
		EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, o + 2, 8194));
		EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, o + 2, (1LL << 32) + h));
		/* 4:2:0 wants even sizes */
		EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, o + 1, w - 1));
		EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, o + 2, h - 1));
		EXPECT_EQ(0, with_int(&b, o + 1, w - 2));
		/* strides: at least a row and the height, at most 16384 */
		EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, o + 3, w - 1));
		EXPECT_EQ(0, with_int(&b, o + 3, w));
		EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, o + 3, 16385));
		EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, o + 3, -64));
		EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, o + 4, h - 1));
		EXPECT_EQ(0, with_int(&b, o + 4, h));
		EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, o + 4, 16385));
		/* the buffer must hold both planes at these strides */
		EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, o + 4, h + 2));
		EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, o + 3, 16384));
	}
	base_free(&b);
}

TEST(check_subsampled_sizes)
{
	static const struct { u32 f; int odd_w_ok, odd_h_ok; } fm[] = {
		{ F_YUV400, 1, 1 }, { F_NV12, 0, 0 }, { F_NV21, 0, 0 },
		{ F_YUV422SP, 0, 1 }, { F_YVU422SP, 0, 1 }, { F_YUV444SP, 1, 1 },
		{ F_YUYV, 0, 1 }, { F_UYVY, 0, 1 }, { F_YVYU, 0, 1 }, { F_VYUY, 0, 1 },
		{ F_YUV444P, 1, 1 }, { F_RGB888, 1, 1 }, { F_BGRA, 1, 1 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fm); i++) {
		struct pic s, d, s2, s3;
		struct vcall v;

		/* odd width (then odd height) of the source picture */
		pic_make(&s, fm[i].f, 15, 10, 0);
		pic_make(&d, F_NV12, 8, 8, 0);
		pic_fill(&s, i);
		vc_init(&v, &s, &d, 2);
		EXPECT_EQ(fm[i].odd_w_ok ? 0 : -VNPU_OPS_EINVAL, vrun(&s, &d, &v))
			TH_LOG("format %u odd width", fm[i].f);
		pic_make(&s2, fm[i].f, 16, 9, 0);
		pic_fill(&s2, i);
		vc_init(&v, &s2, &d, 2);
		EXPECT_EQ(fm[i].odd_h_ok ? 0 : -VNPU_OPS_EINVAL, vrun(&s2, &d, &v))
			TH_LOG("format %u odd height", fm[i].f);
		/* a rectangle at an odd column / row, of odd width / height */
		pic_free(&d);
		pic_make(&s3, fm[i].f, 16, 10, 0);
		pic_fill(&s3, i);
		pic_make(&d, F_YUV400, 8, 8, 0);
		vc_init(&v, &s3, &d, 2);
		vc_rects(&v, 0, 0, 4, 4, 0, 0, 0, 0);
		EXPECT_EQ(0, vrun(&s3, &d, &v));
		vc_rects(&v, 1, 0, 4, 4, 0, 0, 0, 0);
		EXPECT_EQ(fm[i].odd_w_ok ? 0 : -VNPU_OPS_EINVAL, vrun(&s3, &d, &v));
		vc_rects(&v, 0, 0, 3, 4, 0, 0, 0, 0);
		EXPECT_EQ(fm[i].odd_w_ok ? 0 : -VNPU_OPS_EINVAL, vrun(&s3, &d, &v));
		vc_rects(&v, 0, 1, 4, 4, 0, 0, 0, 0);
		EXPECT_EQ(fm[i].odd_h_ok ? 0 : -VNPU_OPS_EINVAL, vrun(&s3, &d, &v));
		vc_rects(&v, 0, 0, 4, 3, 0, 0, 0, 0);
		EXPECT_EQ(fm[i].odd_h_ok ? 0 : -VNPU_OPS_EINVAL, vrun(&s3, &d, &v));
		/* the same of a destination rectangle */
		pic_free(&d);
		pic_make(&d, fm[i].f, 16, 10, 0);
		pic_fill(&d, 3);
		vc_init(&v, &s3, &d, 2);
		vc_rects(&v, 0, 0, 0, 0, 0, 0, 4, 4);
		EXPECT_EQ(0, vrun(&s3, &d, &v));
		vc_rects(&v, 0, 0, 0, 0, 1, 0, 4, 4);
		EXPECT_EQ(fm[i].odd_w_ok ? 0 : -VNPU_OPS_EINVAL, vrun(&s3, &d, &v));
		vc_rects(&v, 0, 0, 0, 0, 0, 0, 5, 4);
		EXPECT_EQ(fm[i].odd_w_ok ? 0 : -VNPU_OPS_EINVAL, vrun(&s3, &d, &v));
		vc_rects(&v, 0, 0, 0, 0, 0, 1, 4, 4);
		EXPECT_EQ(fm[i].odd_h_ok ? 0 : -VNPU_OPS_EINVAL, vrun(&s3, &d, &v));
		vc_rects(&v, 0, 0, 0, 0, 0, 0, 4, 5);
		EXPECT_EQ(fm[i].odd_h_ok ? 0 : -VNPU_OPS_EINVAL, vrun(&s3, &d, &v));
		pic_free(&s3);
		pic_free(&s);
		pic_free(&s2);
		pic_free(&d);
	}
}

TEST(check_rectangles)
{
	struct base b;
	int side;

	base_make(&b, F_YUV400, F_RGB888);
	ASSERT_EQ(0, vrun(&b.s, &b.d, &b.v));
	for (side = 0; side < 2; side++) {
		int o = 10 + side * 4;
		s64 w = side ? 32 : 64, h = side ? 24 : 48;
		struct vcall v = b.v;

		/* a valid rectangle, then each field off */
		v.ints[o] = 3;
		v.ints[o + 1] = 5;
		v.ints[o + 2] = w - 3;
		v.ints[o + 3] = h - 5;
		ASSERT_EQ(0, vrun(&b.s, &b.d, &v));
		v.ints[o + 2] = w - 2;
		EXPECT_EQ(-VNPU_OPS_EINVAL, vrun(&b.s, &b.d, &v));
		v.ints[o + 2] = w - 3;
		v.ints[o + 3] = h - 4;
		EXPECT_EQ(-VNPU_OPS_EINVAL, vrun(&b.s, &b.d, &v));
		v.ints[o + 3] = 0;
		EXPECT_EQ(-VNPU_OPS_EINVAL, vrun(&b.s, &b.d, &v));
		v.ints[o + 3] = -1;
		EXPECT_EQ(-VNPU_OPS_EINVAL, vrun(&b.s, &b.d, &v));
		v.ints[o + 3] = h - 5;
		v.ints[o] = -1;
		EXPECT_EQ(-VNPU_OPS_EINVAL, vrun(&b.s, &b.d, &v));
		v.ints[o] = w;
		EXPECT_EQ(-VNPU_OPS_EINVAL, vrun(&b.s, &b.d, &v));
		v.ints[o] = 3;
		v.ints[o + 1] = -1;
		EXPECT_EQ(-VNPU_OPS_EINVAL, vrun(&b.s, &b.d, &v));
		v.ints[o + 1] = 1LL << 40;
		EXPECT_EQ(-VNPU_OPS_EINVAL, vrun(&b.s, &b.d, &v));
		v.ints[o + 1] = 5;
		v.ints[o + 2] = -(1LL << 40);
		EXPECT_EQ(-VNPU_OPS_EINVAL, vrun(&b.s, &b.d, &v));
		v.ints[o + 2] = 1;
		v.ints[o + 3] = 1;
		EXPECT_EQ(0, vrun(&b.s, &b.d, &v));
		/* width 0 is the whole picture, and wants the others 0 */
		v.ints[o] = v.ints[o + 1] = v.ints[o + 2] = v.ints[o + 3] = 0;
		EXPECT_EQ(0, vrun(&b.s, &b.d, &v));
		v.ints[o] = 2;
		EXPECT_EQ(-VNPU_OPS_EINVAL, vrun(&b.s, &b.d, &v));
		v.ints[o] = 0;
		v.ints[o + 1] = 2;
		EXPECT_EQ(-VNPU_OPS_EINVAL, vrun(&b.s, &b.d, &v));
		v.ints[o + 1] = 0;
		v.ints[o + 3] = h;
		EXPECT_EQ(-VNPU_OPS_EINVAL, vrun(&b.s, &b.d, &v));
	}
	base_free(&b);
}

TEST(check_modes_and_tensors)
{
	struct base b;
	struct ot_tensor ts, td, te;
	struct ot_tensor *tt[3] = { &ts, &td, &te };
	struct drm_vnpu_op_attrs at;
	s64 i;

	base_make(&b, F_NV12, F_RGB888);
	for (i = 0; i <= 4; i++)
		EXPECT_EQ(0, with_int(&b, 18, i));
	EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, 18, 5));
	EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, 18, -1));
	for (i = 0; i <= 5; i++)
		EXPECT_EQ(0, with_int(&b, 19, i));
	EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, 19, 6));
	EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, 19, -1));
	EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, 20, 3));
	EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, 20, -1));
	for (i = 0; i <= 3; i++)
		EXPECT_EQ(0, with_int(&b, 21, i));
	EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, 21, 4));
	EXPECT_EQ(-VNPU_OPS_EINVAL, with_int(&b, 21, -1));

	/* the tensors: UINT8, rank 1, stride 1, large enough; one in, one out */
	memcpy(at.ints, b.v.ints, sizeof(at.ints));
	memset(at.floats, 0, sizeof(at.floats));
	wrap(&ts, &b.s, b.s.size);
	wrap(&td, &b.d, b.d.size);
	wrap(&te, &b.d, b.d.size);
	EXPECT_EQ(0, ot_run(DRM_VNPU_OP_VPC, tt, 1, 1, &at, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_VPC, tt, 1, 1, NULL, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_VPC, tt, 2, 1, &at, 0));
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_VPC, tt, 1, 2, &at, 0));
	for (i = 0; i < 2; i++) {
		struct ot_tensor *t = tt[i];
		struct ot_tensor keep = *t;

		t->v.dtype = DRM_VNPU_DTYPE_INT8;
		EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_VPC, tt, 1, 1, &at, 0));
		*t = keep;
		t->v.rank = 2;
		t->v.shape[1] = 1;
		t->v.strides[1] = 1;
		EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_VPC, tt, 1, 1, &at, 0));
		*t = keep;
		t->v.strides[0] = 2;
		t->v.shape[0] /= 2;
		EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_VPC, tt, 1, 1, &at, 0));
		*t = keep;
		t->v.shape[0]--;
		EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_VPC, tt, 1, 1, &at, 0));
		t->v.shape[0] = 0;
		EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_VPC, tt, 1, 1, &at, 0));
		*t = keep;
	}
	/* the largest strides want 805 MB of a 3-plane 4:4:4 picture */
	at.ints[0] = F_YUV444SP;
	at.ints[3] = 16384;
	at.ints[4] = 16384;
	EXPECT_EQ(-VNPU_OPS_EINVAL, ot_run(DRM_VNPU_OP_VPC, tt, 1, 1, &at, 0));
	base_free(&b);
}

TEST(check_pyrdown_and_border)
{
	struct pic s, d, n12;
	struct vcall v;

	pic_make(&s, F_YUV400, 15, 10, 0);
	pic_make_ws(&d, F_YUV400, 8, 5, 32);
	pic_fill(&s, 1);
	vc_init(&v, &s, &d, 0);
	v.ints[20] = 1;
	ASSERT_EQ(0, vrun(&s, &d, &v));
	v.ints[6] = 7;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vrun(&s, &d, &v));
	v.ints[6] = 8;
	v.ints[7] = 4;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vrun(&s, &d, &v));
	v.ints[7] = 5;
	v.ints[16] = 8;		/* rectangles are the whole pictures */
	EXPECT_EQ(-VNPU_OPS_EINVAL, vrun(&s, &d, &v));
	v.ints[16] = 0;
	v.ints[12] = 15;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vrun(&s, &d, &v));
	v.ints[12] = 0;
	v.ints[5] = F_YUV444P;	/* luma only, both sides */
	EXPECT_EQ(-VNPU_OPS_EINVAL, vrun(&s, &d, &v));
	pic_make(&n12, F_NV12, 16, 10, 0);
	vc_init(&v, &n12, &d, 0);
	v.ints[20] = 1;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vrun(&n12, &d, &v));
	pic_free(&d);

	/* MakeBorder: same format, a border format, same rectangle sizes */
	pic_make_ws(&d, F_YUV400, 21, 14, 64);
	vc_init(&v, &s, &d, 0);
	v.ints[20] = 2;
	vc_rects(&v, 0, 0, 0, 0, 3, 2, 15, 10);
	ASSERT_EQ(0, vrun(&s, &d, &v));
	v.ints[16] = 14;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vrun(&s, &d, &v));
	v.ints[16] = 15;
	v.ints[17] = 9;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vrun(&s, &d, &v));
	v.ints[17] = 10;
	v.ints[5] = F_RGB888;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vrun(&s, &d, &v));
	v.ints[5] = F_YUV400;
	v.floats[2] = 0x7fc00000;	/* a NaN value: refused for constant */
	EXPECT_EQ(-VNPU_OPS_EINVAL, vrun(&s, &d, &v));
	v.ints[21] = 1;
	EXPECT_EQ(0, vrun(&s, &d, &v));
	v.ints[21] = 0;
	v.floats[2] = 0x7f800000;	/* +Inf saturates */
	EXPECT_EQ(0, vrun(&s, &d, &v));
	vc_init(&v, &n12, &n12, 0);
	v.ints[20] = 2;
	EXPECT_EQ(-VNPU_OPS_EINVAL, vrun(&n12, &n12, &v));
	pic_free(&s);
	pic_free(&d);
	pic_free(&n12);
}

/* ---------------------------------------------------- exact copies -- */

/* Bytes of @d outside the rectangle's pixels equal @ref's. */
static int untouched_outside(const struct pic *d, const u8 *ref, int x0, int y0,
			     int w, int h)
{
	u8 *mask = calloc(1, d->size);
	size_t i;
	int x, y, c, bad = 0;

	for (y = y0; y < y0 + h; y++)
		for (x = x0; x < x0 + w; x++)
			for (c = 0; c < (pic_is_rgb(d->fmt) ? 3 + pic_has_alpha(d->fmt) :
					 pic_has_chroma(d->fmt) ? 3 : 1); c++)
				mask[(pic_is_rgb(d->fmt) ? pic_rgb(d, x, y, c) :
				      pic_yuv(d, x, y, c)) - d->buf] = 1;
	for (i = 0; i < d->size; i++)
		if (!mask[i] && d->buf[i] != ref[i])
			bad++;
	free(mask);
	return bad;
}

/* A crop pasted at the same size is a copy, in every format and mode. */
TEST(crop_and_paste_copy_exactly)
{
	u32 f, mode;

	for (f = 0; f < F_COUNT; f++)
		for (mode = 0; mode <= 4; mode++) {
			struct pic s, d;
			struct vcall v;
			u8 *ref;
			int x, y, c, bad = 0, nc;

			pic_make(&s, f, 38, 26, 0);
			pic_make(&d, f, 30, 22, 1);
			pic_fill(&s, f * 7 + mode);
			pic_fill(&d, 1000 + f);
			ref = malloc(d.size);
			memcpy(ref, d.buf, d.size);
			vc_init(&v, &s, &d, mode);
			vc_rects(&v, 6, 4, 20, 14, 8, 6, 20, 14);
			ASSERT_EQ(0, vrun(&s, &d, &v));
			nc = pic_is_rgb(f) ? 3 + pic_has_alpha(f) : pic_has_chroma(f) ? 3 : 1;
			for (y = 0; y < 14; y++)
				for (x = 0; x < 20; x++)
					for (c = 0; c < nc; c++) {
						u8 a = pic_is_rgb(f) ? *pic_rgb(&s, 6 + x, 4 + y, c) :
							*pic_yuv(&s, 6 + x, 4 + y, c);
						u8 b = pic_is_rgb(f) ? *pic_rgb(&d, 8 + x, 6 + y, c) :
							*pic_yuv(&d, 8 + x, 6 + y, c);

						bad += a != b;
					}
			EXPECT_EQ(0, bad) TH_LOG("format %u mode %u", f, mode);
			EXPECT_EQ(0, untouched_outside(&d, ref, 8, 6, 20, 14))
				TH_LOG("format %u mode %u", f, mode);
			free(ref);
			pic_free(&s);
			pic_free(&d);
		}
}

/* Resizing into a rectangle writes only that rectangle. */
TEST(paste_leaves_the_rest)
{
	static const u32 fm[] = { F_NV12, F_YUV422SP, F_YUYV, F_YVU444SP, F_RGB888,
				  F_ARGB };
	unsigned int i;
	u32 mode;

	for (i = 0; i < ARRAY_SIZE(fm); i++)
		for (mode = 0; mode <= 4; mode++) {
			struct pic s, d;
			struct vcall v;
			u8 *ref;

			pic_make(&s, F_NV12, 50, 40, 0);
			pic_make(&d, fm[i], 64, 48, 0);
			pic_fill(&s, 5);
			pic_fill(&d, 6);
			ref = malloc(d.size);
			memcpy(ref, d.buf, d.size);
			vc_init(&v, &s, &d, mode);
			vc_rects(&v, 2, 2, 40, 30, 16, 10, 22, 16);
			ASSERT_EQ(0, vrun(&s, &d, &v));
			EXPECT_EQ(0, untouched_outside(&d, ref, 16, 10, 22, 16))
				TH_LOG("format %u mode %u", fm[i], mode);
			EXPECT_NE(0, memcmp(ref, d.buf, d.size));
			free(ref);
			pic_free(&s);
			pic_free(&d);
		}
}

/* Between YUV formats of one subsampling, only the bytes move. */
TEST(yuv_orders_swap_bytes)
{
	static const u32 groups[][4] = {
		{ F_NV12, F_NV21, F_NV12, F_NV21 },
		{ F_YUV422SP, F_YVU422SP, F_YUYV, F_UYVY },
		{ F_YVYU, F_VYUY, F_YUYV, F_YVU422SP },
		{ F_YUV444SP, F_YVU444SP, F_YUV444P, F_YUV444SP },
	};
	unsigned int g, i, k;

	for (g = 0; g < ARRAY_SIZE(groups); g++)
		for (i = 0; i < 4; i++)
			for (k = 0; k < 4; k++) {
				struct pic s, d;
				struct vcall v;
				int x, y, c, bad = 0;

				pic_make(&s, groups[g][i], 24, 12, 0);
				pic_make(&d, groups[g][k], 24, 12, 0);
				pic_fill(&s, g * 16 + i);
				vc_init(&v, &s, &d, 1);
				ASSERT_EQ(0, vrun(&s, &d, &v));
				for (y = 0; y < 12; y++)
					for (x = 0; x < 24; x++)
						for (c = 0; c < 3; c++)
							bad += *pic_yuv(&s, x, y, c) !=
							       *pic_yuv(&d, x, y, c);
				EXPECT_EQ(0, bad) TH_LOG("%u -> %u", groups[g][i],
							 groups[g][k]);
				pic_free(&s);
				pic_free(&d);
			}
}

/* NV12 -> NV21 resized is NV12 -> NV12 resized with U and V swapped. */
TEST(nv12_nv21_swap_when_resizing)
{
	struct pic s, a, b;
	struct vcall v;
	u32 mode;

	pic_make(&s, F_NV12, 64, 36, 0);
	pic_fill(&s, 9);
	for (mode = 0; mode <= 4; mode++) {
		int x, y, bad = 0;

		pic_make(&a, F_NV12, 42, 30, 0);
		pic_make(&b, F_NV21, 42, 30, 0);
		vc_init(&v, &s, &a, mode);
		ASSERT_EQ(0, vrun(&s, &a, &v));
		vc_init(&v, &s, &b, mode);
		ASSERT_EQ(0, vrun(&s, &b, &v));
		for (y = 0; y < 30; y++)
			for (x = 0; x < 42; x++)
				bad += *pic_yuv(&a, x, y, 0) != *pic_yuv(&b, x, y, 0) ||
				       *pic_yuv(&a, x, y, 1) != *pic_yuv(&b, x, y, 1) ||
				       *pic_yuv(&a, x, y, 2) != *pic_yuv(&b, x, y, 2);
		EXPECT_EQ(0, bad);
		EXPECT_EQ(0, memcmp(a.buf, b.buf, (size_t)a.ws * a.hs));
		EXPECT_NE(0, memcmp(a.buf + a.ws * a.hs, b.buf + b.ws * b.hs,
				    a.size - (size_t)a.ws * a.hs));
		pic_free(&a);
		pic_free(&b);
	}
	pic_free(&s);
}

/* A constant picture stays constant in every mode, up and down. */
TEST(constant_stays_constant)
{
	static const s32 sizes[][4] = {
		{ 40, 30, 12, 8 }, { 12, 8, 50, 34 }, { 33, 17, 34, 18 }, { 2, 2, 64, 2 },
	};
	u32 f, mode, i;
	u8 val;

	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		for (mode = 0; mode <= 4; mode++)
			for (val = 0; val < 255; val = (u8)(val * 2 + 1))
				for (f = F_YUV400; f <= F_RGB888; f += F_RGB888) {
					struct pic s, d;
					struct vcall v;
					int x, y, bad = 0;

					pic_make(&s, f, sizes[i][0], sizes[i][1], 0);
					pic_make(&d, f, sizes[i][2], sizes[i][3], 0);
					memset(s.buf, val, s.size);
					vc_init(&v, &s, &d, mode);
					ASSERT_EQ(0, vrun(&s, &d, &v));
					for (y = 0; y < d.h; y++)
						for (x = 0; x < d.w * pic_bpp(f); x++)
							bad += d.buf[y * d.ws + x] != val;
					EXPECT_EQ(0, bad) TH_LOG("size %u mode %u value %u",
								 i, mode, val);
					pic_free(&s);
					pic_free(&d);
				}
}

/* ------------------------------------------------ colour matrices -- */

static const double kr_kb[3][2] = { { 0.299, 0.114 }, { 0.2126, 0.0722 },
				    { 0.2627, 0.0593 } };

/* The standards' formulas: YUV (possibly video range) to RGB, in double. */
static void ref_yuv_to_rgb(int m, double y, double u, double v, double *rgb)
{
	double kr = kr_kb[m / 2][0], kb = kr_kb[m / 2][1], kg = 1 - kr - kb;

	if (m & 1) {
		y = (y - 16) * 255.0 / 219.0;
		u = (u - 128) * 255.0 / 224.0;
		v = (v - 128) * 255.0 / 224.0;
	} else {
		u -= 128;
		v -= 128;
	}
	rgb[0] = y + 2 * (1 - kr) * v;
	rgb[2] = y + 2 * (1 - kb) * u;
	rgb[1] = (y - kr * rgb[0] - kb * rgb[2]) / kg;
}

static void ref_rgb_to_yuv(int m, const double *rgb, double *yuv)
{
	double kr = kr_kb[m / 2][0], kb = kr_kb[m / 2][1], kg = 1 - kr - kb;
	double y = kr * rgb[0] + kg * rgb[1] + kb * rgb[2];
	double u = (rgb[2] - y) / (2 * (1 - kb)), v = (rgb[0] - y) / (2 * (1 - kr));

	if (m & 1) {
		yuv[0] = 16 + y * 219.0 / 255.0;
		yuv[1] = 128 + u * 224.0 / 255.0;
		yuv[2] = 128 + v * 224.0 / 255.0;
	} else {
		yuv[0] = y;
		yuv[1] = 128 + u;
		yuv[2] = 128 + v;
	}
}

/* YUV 4:4:4 to RGB (and to BGRA): within 1 of the formula, mostly exact. */
TEST(csc_yuv_to_rgb)
{
	int m;

	for (m = 0; m < 6; m++) {
		struct pic s, d, d4;
		struct vcall v;
		int x, y, c, maxd = 0, off = 0, n = 0;

		pic_make(&s, F_YUV444P, 64, 64, 0);
		pic_make(&d, F_RGB888, 64, 64, 0);
		pic_make(&d4, F_BGRA, 64, 64, 0);
		pic_fill(&s, 40 + m);
		vc_init(&v, &s, &d, 2);
		v.ints[19] = m;
		ASSERT_EQ(0, vrun(&s, &d, &v));
		vc_init(&v, &s, &d4, 2);
		v.ints[19] = m;
		ASSERT_EQ(0, vrun(&s, &d4, &v));
		for (y = 0; y < 64; y++)
			for (x = 0; x < 64; x++) {
				double rgb[3];

				ref_yuv_to_rgb(m, *pic_yuv(&s, x, y, 0), *pic_yuv(&s, x, y, 1),
					       *pic_yuv(&s, x, y, 2), rgb);
				for (c = 0; c < 3; c++) {
					int dd = abs(*pic_rgb(&d, x, y, c) - sat8(rgb[c]));

					maxd = dd > maxd ? dd : maxd;
					off += dd != 0;
					n++;
					EXPECT_EQ(*pic_rgb(&d, x, y, c), *pic_rgb(&d4, x, y, c));
				}
				EXPECT_EQ(255, *pic_rgb(&d4, x, y, 3));
			}
		EXPECT_LE(maxd, 1) TH_LOG("matrix %d", m);
		EXPECT_LT(off * 100, n) TH_LOG("matrix %d: %d of %d off by one", m, off, n);
		pic_free(&s);
		pic_free(&d);
		pic_free(&d4);
	}
}

/* RGB to YUV 4:4:4, and grey to Y = grey, U = V = 128 exactly. */
TEST(csc_rgb_to_yuv)
{
	int m;

	for (m = 0; m < 6; m++) {
		struct pic s, d;
		struct vcall v;
		int x, y, c, maxd = 0, off = 0, n = 0;

		pic_make(&s, F_BGR888, 64, 64, 0);
		pic_make(&d, F_YVU444SP, 64, 64, 0);
		pic_fill(&s, 50 + m);
		for (x = 0; x < 64; x++)	/* row 0: greys */
			for (c = 0; c < 3; c++)
				*pic_rgb(&s, x, 0, c) = (u8)(x * 4 + 3);
		vc_init(&v, &s, &d, 4);
		v.ints[19] = m;
		ASSERT_EQ(0, vrun(&s, &d, &v));
		for (y = 0; y < 64; y++)
			for (x = 0; x < 64; x++) {
				double rgb[3], yuv[3];

				for (c = 0; c < 3; c++)
					rgb[c] = *pic_rgb(&s, x, y, c);
				ref_rgb_to_yuv(m, rgb, yuv);
				for (c = 0; c < 3; c++) {
					int dd = abs(*pic_yuv(&d, x, y, c) - sat8(yuv[c]));

					maxd = dd > maxd ? dd : maxd;
					off += dd != 0;
					n++;
				}
				if (y == 0) {
					EXPECT_EQ(sat8(yuv[0]), *pic_yuv(&d, x, y, 0));
					EXPECT_EQ(128, *pic_yuv(&d, x, y, 1));
					EXPECT_EQ(128, *pic_yuv(&d, x, y, 2));
				}
			}
		EXPECT_LE(maxd, 1) TH_LOG("matrix %d", m);
		EXPECT_LT(off * 100, n) TH_LOG("matrix %d: %d of %d off by one", m, off, n);
		pic_free(&s);
		pic_free(&d);
	}
}

/* RGB to NV12 / YUYV: chroma is the mean of its block's U and V. */
TEST(csc_chroma_is_the_block_mean)
{
	static const u32 fm[] = { F_NV12, F_NV21, F_YUYV, F_YVU422SP };
	unsigned int i;
	int m;

	for (i = 0; i < ARRAY_SIZE(fm); i++)
		for (m = 0; m < 6; m += 3) {
			struct pic s, d;
			struct vcall v;
			int sx = pic_sx(fm[i]), sy = pic_sy(fm[i]);
			int x, y, c, k, maxd = 0;

			pic_make(&s, F_RGBA, 32, 16, 0);
			pic_make(&d, fm[i], 32, 16, 0);
			pic_fill(&s, 60 + i);
			vc_init(&v, &s, &d, 1);
			v.ints[19] = m;
			ASSERT_EQ(0, vrun(&s, &d, &v));
			for (y = 0; y < 16; y += sy)
				for (x = 0; x < 32; x += sx)
					for (c = 1; c < 3; c++) {
						double sum = 0;

						for (k = 0; k < sx * sy; k++) {
							double rgb[3], yuv[3];
							int j;

							for (j = 0; j < 3; j++)
								rgb[j] = *pic_rgb(&s, x + k % sx,
										  y + k / sx, j);
							ref_rgb_to_yuv(m, rgb, yuv);
							sum += yuv[c];
						}
						k = abs(*pic_yuv(&d, x, y, c) - sat8(sum / (sx * sy)));
						maxd = k > maxd ? k : maxd;
					}
			EXPECT_LE(maxd, 1) TH_LOG("format %u matrix %d", fm[i], m);
			pic_free(&s);
			pic_free(&d);
		}
}

/* YUV400 gets grey chroma; going to YUV400 keeps luma only. */
TEST(yuv400_both_ways)
{
	struct pic g, n, r;
	struct vcall v;
	int x, y, bad = 0;

	pic_make(&g, F_YUV400, 20, 10, 0);
	pic_make(&n, F_NV12, 20, 10, 0);
	pic_make(&r, F_RGB888, 20, 10, 0);
	pic_fill(&g, 70);
	pic_fill(&n, 71);
	vc_init(&v, &g, &n, 2);
	ASSERT_EQ(0, vrun(&g, &n, &v));
	for (y = 0; y < 10; y++)
		for (x = 0; x < 20; x++)
			bad += *pic_yuv(&n, x, y, 0) != g.buf[y * g.ws + x] ||
			       *pic_yuv(&n, x, y, 1) != 128 || *pic_yuv(&n, x, y, 2) != 128;
	EXPECT_EQ(0, bad);
	/* YUV400 to RGB, full range: R = G = B = Y */
	vc_init(&v, &g, &r, 2);
	ASSERT_EQ(0, vrun(&g, &r, &v));
	for (y = 0; y < 10; y++)
		for (x = 0; x < 20; x++)
			bad += *pic_rgb(&r, x, y, 0) != g.buf[y * g.ws + x] ||
			       *pic_rgb(&r, x, y, 1) != g.buf[y * g.ws + x] ||
			       *pic_rgb(&r, x, y, 2) != g.buf[y * g.ws + x];
	EXPECT_EQ(0, bad);
	/* NV12 to YUV400: luma copied, nothing written past the luma plane */
	pic_fill(&n, 72);
	pic_free(&g);
	pic_make(&g, F_YUV400, 20, 10, 0);
	memset(g.buf, 0xa5, g.size + 1);
	vc_init(&v, &n, &g, 0);
	ASSERT_EQ(0, vrun(&n, &g, &v));
	for (y = 0; y < 10; y++)
		for (x = 0; x < 20; x++)
			bad += *pic_yuv(&n, x, y, 0) != g.buf[y * g.ws + x];
	EXPECT_EQ(0, bad);
	EXPECT_EQ(0xa5, g.buf[g.size]);
	pic_free(&g);
	pic_free(&n);
	pic_free(&r);
}

/* RGB orders: channels by name, alpha kept or (from RGB888) 255. */
TEST(rgb_orders)
{
	u32 a, b;

	for (a = F_RGB888; a < F_COUNT; a++)
		for (b = F_RGB888; b < F_COUNT; b++) {
			struct pic s, d;
			struct vcall v;
			int x, y, c, bad = 0;

			pic_make(&s, a, 10, 6, 0);
			pic_make(&d, b, 10, 6, 0);
			pic_fill(&s, a * 31 + b);
			vc_init(&v, &s, &d, 1);
			ASSERT_EQ(0, vrun(&s, &d, &v));
			for (y = 0; y < 6; y++)
				for (x = 0; x < 10; x++) {
					for (c = 0; c < 3; c++)
						bad += *pic_rgb(&s, x, y, c) != *pic_rgb(&d, x, y, c);
					if (pic_has_alpha(b))
						bad += *pic_rgb(&d, x, y, 3) !=
						       (pic_has_alpha(a) ? *pic_rgb(&s, x, y, 3) : 255);
				}
			EXPECT_EQ(0, bad) TH_LOG("%u -> %u", a, b);
			pic_free(&s);
			pic_free(&d);
		}
}

/* NV12 to RGB at the same size: chroma upsampled, nearest = its block's. */
TEST(nv12_to_rgb_nearest_uses_the_block_chroma)
{
	struct pic s, d;
	struct vcall v;
	int x, y, c, maxd = 0;

	pic_make(&s, F_NV12, 32, 16, 0);
	pic_make(&d, F_RGB888, 32, 16, 0);
	pic_fill(&s, 80);
	vc_init(&v, &s, &d, 2);
	v.ints[19] = 1;
	ASSERT_EQ(0, vrun(&s, &d, &v));
	for (y = 0; y < 16; y++)
		for (x = 0; x < 32; x++) {
			double rgb[3];

			ref_yuv_to_rgb(1, *pic_yuv(&s, x, y, 0), *pic_yuv(&s, x, y, 1),
				       *pic_yuv(&s, x, y, 2), rgb);
			for (c = 0; c < 3; c++) {
				int dd = abs(*pic_rgb(&d, x, y, c) - sat8(rgb[c]));

				maxd = dd > maxd ? dd : maxd;
			}
		}
	EXPECT_LE(maxd, 1);
	pic_free(&s);
	pic_free(&d);
}

/* ---------------------------------------------- TensorFlow resizes -- */

/* tf.image.resize_bilinear / resize_nearest_neighbor, legacy, in float. */
static double ref_tf(const u8 *p, int ws, int w, int h, int ow, int oh, int x,
		     int y, int linear)
{
	float sx = (float)w / ow, sy = (float)h / oh;
	float fx = (float)x * sx, fy = (float)y * sy;
	int x0 = (int)floorf(fx), y0 = (int)floorf(fy);
	int x1 = x0 + 1 < w ? x0 + 1 : w - 1, y1 = y0 + 1 < h ? y0 + 1 : h - 1;
	float lx = fx - x0, ly = fy - y0, top, bot;

	if (!linear)
		return p[(y0 < h ? y0 : h - 1) * ws + (x0 < w ? x0 : w - 1)];
	top = p[y0 * ws + x0] + (p[y0 * ws + x1] - p[y0 * ws + x0]) * lx;
	bot = p[y1 * ws + x0] + (p[y1 * ws + x1] - p[y1 * ws + x0]) * lx;
	return top + (bot - top) * ly;
}

TEST(tensorflow_modes)
{
	static const s32 sizes[][4] = {
		{ 64, 48, 20, 14 }, { 20, 14, 64, 48 }, { 37, 29, 50, 11 },
		{ 100, 3, 7, 9 }, { 1, 1, 5, 3 },
	};
	unsigned int i;
	int linear;

	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		for (linear = 0; linear < 2; linear++) {
			struct pic s, d;
			struct vcall v;
			int x, y, maxd = 0;

			pic_make(&s, F_YUV400, sizes[i][0], sizes[i][1], 0);
			pic_make(&d, F_YUV400, sizes[i][2], sizes[i][3], 0);
			pic_fill(&s, 90 + i);
			vc_init(&v, &s, &d, linear ? 3 : 4);
			ASSERT_EQ(0, vrun(&s, &d, &v));
			for (y = 0; y < d.h; y++)
				for (x = 0; x < d.w; x++) {
					int dd = abs(d.buf[y * d.ws + x] -
						     sat8(ref_tf(s.buf, s.ws, s.w, s.h, d.w,
								 d.h, x, y, linear)));

					maxd = dd > maxd ? dd : maxd;
				}
			EXPECT_LE(maxd, linear ? 1 : 0) TH_LOG("size %u", i);
			pic_free(&s);
			pic_free(&d);
		}
}

/* ------------------------------------------- PyrDown and MakeBorder -- */

static int reflect101(int p, int n)
{
	if (n == 1)
		return 0;
	while (p < 0 || p >= n)
		p = p < 0 ? -p : 2 * n - 2 - p;
	return p;
}

TEST(pyrdown_matches_the_direct_filter)
{
	static const s32 sizes[][2] = {
		{ 1, 1 }, { 2, 2 }, { 3, 5 }, { 4, 3 }, { 17, 9 }, { 64, 48 }, { 101, 77 },
	};
	static const int k[5] = { 1, 4, 6, 4, 1 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		struct pic s, d;
		struct vcall v;
		int x, y, a, b, bad = 0;

		pic_make(&s, F_YUV400, sizes[i][0], sizes[i][1], 0);
		pic_make(&d, F_YUV400, (sizes[i][0] + 1) / 2, (sizes[i][1] + 1) / 2, 0);
		pic_fill(&s, 100 + i);
		vc_init(&v, &s, &d, 0);
		v.ints[20] = 1;
		ASSERT_EQ(0, vrun(&s, &d, &v));
		for (y = 0; y < d.h; y++)
			for (x = 0; x < d.w; x++) {
				int sum = 0;

				for (a = 0; a < 5; a++)
					for (b = 0; b < 5; b++)
						sum += k[a] * k[b] *
						       s.buf[reflect101(2 * y + a - 2, s.h) * s.ws +
							     reflect101(2 * x + b - 2, s.w)];
				bad += d.buf[y * d.ws + x] != (sum + 128) >> 8;
			}
		EXPECT_EQ(0, bad) TH_LOG("size %d x %d", sizes[i][0], sizes[i][1]);
		pic_free(&s);
		pic_free(&d);
	}
}

/* OpenCV's borderInterpolate(), loop and all. */
static int ref_border(int p, int n, int type)
{
	if (p >= 0 && p < n)
		return p;
	if (type == 1)
		return p < 0 ? 0 : n - 1;
	if (n == 1)
		return 0;
	do {
		if (p < 0)
			p = -p - 1 + (type == 3);
		else
			p = n - 1 - (p - n) - (type == 3);
	} while (p < 0 || p >= n);
	return p;
}

TEST(make_border_types)
{
	static const u32 fm[] = { F_YUV400, F_RGB888, F_BGRA, F_YUV444P };
	static const s32 geo[][8] = {	/* src w, h, rect x, y, w, h; dst x, y */
		{ 20, 12, 0, 0, 20, 12, 5, 3 }, { 20, 12, 3, 2, 9, 7, 0, 0 },
		{ 9, 9, 4, 4, 2, 1, 30, 11 }, { 9, 9, 0, 0, 1, 1, 7, 20 },
	};
	float vals[4] = { 7.4f, 300.0f, -5.0f, 128.5f };
	u32 i, g, type;

	for (i = 0; i < ARRAY_SIZE(fm); i++)
		for (g = 0; g < ARRAY_SIZE(geo); g++)
			for (type = 0; type < 4; type++) {
				struct pic s, d;
				struct vcall v;
				int bpp = pic_bpp(fm[i]), x, y, c, bad = 0;
				u8 want_val[4] = { 7, 255, 0, 128 };

				pic_make(&s, fm[i], geo[g][0], geo[g][1], 0);
				pic_make(&d, fm[i], 40, 24, 0);
				pic_fill(&s, 110 + g);
				pic_fill(&d, 120 + g);
				vc_init(&v, &s, &d, 0);
				v.ints[20] = 2;
				v.ints[21] = type;
				memcpy(v.floats, vals, sizeof(vals));
				vc_rects(&v, geo[g][2], geo[g][3], geo[g][4], geo[g][5],
					 geo[g][6], geo[g][7], geo[g][4], geo[g][5]);
				ASSERT_EQ(0, vrun(&s, &d, &v));
				for (y = 0; y < d.h; y++)
					for (x = 0; x < d.w; x++) {
						int px = x - geo[g][6], py = y - geo[g][7];
						int in = px >= 0 && px < geo[g][4] &&
							 py >= 0 && py < geo[g][5];

						for (c = 0; c < bpp; c++) {
							u8 want;

							if (!in && type == 0) {
								want = want_val[c];
							} else {
								int sx = geo[g][2] + ref_border(px, geo[g][4], type);
								int sy = geo[g][3] + ref_border(py, geo[g][5], type);

								want = s.buf[sy * s.ws + sx * bpp + c];
							}
							bad += d.buf[y * d.ws + x * bpp + c] != want;
						}
					}
				EXPECT_EQ(0, bad) TH_LOG("format %u geometry %u type %u",
							 fm[i], g, type);
				pic_free(&s);
				pic_free(&d);
			}
}

/*
 * The vector path (AVX2 gathers, bilinear shrinking vertically) gives
 * the scalar code's bytes, including its first rows and columns, where
 * a gather would start before the picture and the scalar code runs.
 * Without VNPU_CPU_SSE2, which would take the planes of bytes and byte
 * pairs (below), the gathers do every plane.
 */
TEST(vector_path_gives_the_scalar_bytes)
{
	static const s32 sizes[][4] = {
		{ 1920, 1080, 224, 224 }, { 64, 48, 30, 20 }, { 10, 8, 6, 2 },
		{ 2, 4, 2, 2 }, { 300, 200, 18, 198 }, { 8, 4, 22, 2 },
	};
	static const u32 fm[][2] = { { F_NV12, F_NV12 }, { F_YUV400, F_YUV400 },
				     { F_NV21, F_RGB888 }, { F_BGRA, F_RGBA },
				     { F_UYVY, F_YUV444SP }, { F_RGB888, F_NV12 } };
	u32 cpu = vnpu_ops_host_cpu() & ~VNPU_CPU_SSE2;
	unsigned int i, k;
	int mode;

	if (!(cpu & VNPU_CPU_AVX2_FMA))
		SKIP(return, "no AVX2");
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		for (k = 0; k < ARRAY_SIZE(fm); k++)
			for (mode = 1; mode <= 3; mode += 2) {
				struct pic s, a, b;
				struct vcall v;

				/* tight strides: the first gather would start before it */
				pic_make(&s, fm[k][0], sizes[i][0], sizes[i][1], 1);
				pic_make(&a, fm[k][1], sizes[i][2], sizes[i][3], 0);
				pic_make(&b, fm[k][1], sizes[i][2], sizes[i][3], 0);
				pic_fill(&s, i * 8 + k);
				memset(a.buf, 0, a.size);
				memset(b.buf, 0, b.size);
				vc_init(&v, &s, &a, mode);
				ASSERT_EQ(0, vrun_cpu(&s, &a, &v, 0));
				ASSERT_EQ(0, vrun_cpu(&s, &b, &v, cpu));
				EXPECT_EQ(0, memcmp(a.buf, b.buf, a.size))
					TH_LOG("size %u formats %u mode %d", i, k, mode);
				pic_free(&s);
				pic_free(&a);
				pic_free(&b);
			}
}

/* The float code vpc_frac_weights() replaces, as OpenCV computes it. */
static void ref_frac_weights(float f, s32 *s, s16 *w0, s16 *w1)
{
	float fl = floorf(f), frac = f - fl;

	*s = (s32)fl;
	*w1 = (s16)rint((double)(frac * 2048.f));
	*w0 = (s16)rint((double)((1.f - frac) * 2048.f));
}

/*
 * The weights of a coordinate's fraction from its bits (integer code, so
 * that the taps cost little where floating point is emulated) are the
 * float code's: 1 float in 3 of [0.5, 1), 1 in 11 of [2^-31, 0.5), 1 in
 * 61 of [0, 2^13), and the refusals.
 */
TEST(frac_weights_match_the_float_code)
{
	static const float bad[] = { -1.f, -1e-30f, 1e30f, 1073741824.f };
	u32 b, bits[3][3] = { { 0x3f000000, 0x3f800000, 3 },
			      { 0x30000000, 0x3f000000, 11 },
			      { 0, 0x46000000, 61 } };
	s32 s, rs;
	s16 w0, w1, r0, r1;
	unsigned int i, wrong = 0, n = 0;
	float f, nan = __builtin_nanf("");

	for (i = 0; i < ARRAY_SIZE(bits); i++)
		for (b = bits[i][0]; b < bits[i][1]; b += bits[i][2], n++) {
			memcpy(&f, &b, sizeof(f));
			ASSERT_TRUE(vpc_frac_weights(f, &s, &w0, &w1));
			ref_frac_weights(f, &rs, &r0, &r1);
			if (s != rs || w0 != r0 || w1 != r1) {
				if (!wrong++)
					TH_LOG("%a: %d %d %d, float code %d %d %d", f, s,
					       w0, w1, rs, r0, r1);
			}
		}
	EXPECT_EQ(0, wrong) TH_LOG("%u of %u differ", wrong, n);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_FALSE(vpc_frac_weights(bad[i], &s, &w0, &w1)) TH_LOG("%a", bad[i]);
	EXPECT_FALSE(vpc_frac_weights(nan, &s, &w0, &w1));
	EXPECT_TRUE(vpc_frac_weights(536870912.f, &s, &w0, &w1));
	EXPECT_EQ(536870912, s);
}

/*
 * A picture's buffer between two inaccessible pages, flush against the
 * one after it (@at_end) or the one before: a read outside it faults.
 */
static void *guard_map(struct pic *p, int at_end, size_t *len)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t body = (p->size + pg - 1) / pg * pg;
	u8 *m;

	*len = body + 2 * pg;
	m = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	mprotect(m, pg, PROT_NONE);
	mprotect(m + pg + body, pg, PROT_NONE);
	free(p->buf);
	p->buf = m + pg + (at_end ? body - p->size : 0);
	return m;
}

/*
 * The SSE2 path (bilinear shrinking vertically, planes of bytes and of
 * byte pairs) gives the bytes of the code without CPU features (the
 * integer pairs there, the scalar loop for the other planes; both are
 * held to the documented sums below): the group of eight and the
 * pixels after the last whole group, taps clamped at both edges (a
 * rectangle one pixel wide, at the picture's left or right edge), NV21's
 * V before U, chroma through a conversion to RGB, and sources with tight
 * strides between inaccessible pages, so that a load past either end of
 * the picture would fault. Planes it does not take (packed, RGB) run the
 * scalar code and agree trivially.
 */
TEST(sse2_path_gives_the_scalar_bytes)
{
	/* source w, h, destination w, h, source rectangle x, y, w, h */
	static const s32 geo[][8] = {
		{ 1920, 1080, 224, 224 }, { 64, 48, 30, 20 }, { 10, 8, 6, 2 },
		{ 2, 4, 2, 2 }, { 300, 200, 18, 198 }, { 8, 4, 22, 2 },
		{ 2, 6, 34, 4 }, { 1000, 20, 998, 6 }, { 46, 30, 16, 10 },
		{ 40, 40, 20, 4, 38, 0, 2, 40 }, { 40, 40, 20, 4, 0, 2, 2, 36 },
		{ 40, 40, 20, 4, 14, 0, 2, 40 }, { 4, 40, 20, 4 },
	};
	static const u32 fm[][2] = {
		{ F_NV12, F_NV12 }, { F_NV21, F_NV12 }, { F_YUV400, F_YUV400 },
		{ F_YVU422SP, F_NV21 }, { F_YUV444SP, F_YVU444SP },
		{ F_NV21, F_RGB888 }, { F_UYVY, F_NV12 }, { F_BGRA, F_RGBA },
	};
	unsigned int i, k;
	int mode, end;

	for (i = 0; i < ARRAY_SIZE(geo); i++)
		for (k = 0; k < ARRAY_SIZE(fm); k++)
			for (mode = 1; mode <= 3; mode += 2)
				for (end = 0; end < 2; end++) {
					struct pic s, a, b;
					struct vcall v;
					size_t len;
					void *map;

					pic_make(&s, fm[k][0], geo[i][0], geo[i][1], 1);
					pic_make(&a, fm[k][1], geo[i][2], geo[i][3], 0);
					pic_make(&b, fm[k][1], geo[i][2], geo[i][3], 0);
					map = guard_map(&s, end, &len);
					ASSERT_NE(NULL, map);
					pic_fill(&s, i * 16 + k * 2 + end);
					memset(a.buf, 0, a.size);
					memset(b.buf, 0, b.size);
					vc_init(&v, &s, &a, mode);
					vc_rects(&v, geo[i][4], geo[i][5], geo[i][6],
						 geo[i][7], 0, 0, 0, 0);
					ASSERT_EQ(0, vrun_cpu(&s, &a, &v, 0));
					ASSERT_EQ(0, vrun_cpu(&s, &b, &v, VNPU_CPU_SSE2));
					EXPECT_EQ(0, memcmp(a.buf, b.buf, a.size))
						TH_LOG("geometry %u formats %u mode %d", i, k,
						       mode);
					munmap(map, len);
					pic_free(&a);
					pic_free(&b);
				}
}

/*
 * The taps of output @d along an axis from @in to @out in the linear
 * modes, written from Documentation/vpc.md's table (float as OpenCV and
 * TensorFlow compute).
 */
static void ref_linear_taps(int mode, int in, int out, int d, int *i0, int *i1,
			    int *w0, int *w1)
{
	float f, fl;

	if (in == out) {
		*i0 = *i1 = d;
		*w0 = 2048;
		*w1 = 0;
		return;
	}
	if (mode == 3) {
		f = (float)d * ((float)in / (float)out);
		fl = floorf(f);
		*i0 = fl > in - 1 ? in - 1 : (int)fl;
		*i1 = fl + 1 > in - 1 ? in - 1 : (int)fl + 1;
		*w1 = (int)rint((double)((f - fl) * 2048.f));
		*w0 = 2048 - *w1;
		return;
	}
	f = (float)(((double)d + 0.5) * (1.0 / ((double)out / (double)in)) - 0.5);
	fl = floorf(f);
	f -= fl;
	if (fl < 0) {
		fl = 0;
		f = 0;
	}
	if (fl >= in - 1) {
		fl = (float)(in - 1);
		f = 0;
	}
	*i0 = (int)fl;
	*i1 = *i0 + 1 > in - 1 ? in - 1 : *i0 + 1;
	*w0 = (int)rint((double)((1.f - f) * 2048.f));
	*w1 = (int)rint((double)(f * 2048.f));
}

/*
 * Channel @c of a YUV picture's plane @pl (0 luma, 1 chroma) resampled
 * from rectangle (@x0, @y0, @w, @h) of the plane to @ow x @oh, at
 * (@x, @y): the documented sums, (wa h0 + wb h1 + 2^21) >> 22.
 */
static u8 ref_linear_at(const struct pic *p, int pl, int c, int mode, int x0,
			int y0, int w, int h, int ow, int oh, int x, int y)
{
	int sx = pl ? pic_sx(p->fmt) : 1, sy = pl ? pic_sy(p->fmt) : 1;
	int ix[2], iy[2], wx[2], wy[2], k, t;
	s64 sum = 0;

	ref_linear_taps(mode, w, ow, x, &ix[0], &ix[1], &wx[0], &wx[1]);
	ref_linear_taps(mode, h, oh, y, &iy[0], &iy[1], &wy[0], &wy[1]);
	for (k = 0; k < 2; k++) {
		s64 hs = 0;

		for (t = 0; t < 2; t++)
			hs += (s64)wx[t] * *pic_yuv(p, (x0 + ix[t]) * sx,
						    (y0 + iy[k]) * sy, pl ? c : 0);
		sum += hs * wy[k];
	}
	sum = (sum + (1 << 21)) >> 22;
	return (u8)(sum > 255 ? 255 : sum);
}

/*
 * Bilinear resizes of luma and of semi-planar chroma (every path: the
 * integer one without CPU features, SSE2, AVX2's gathers where the host
 * has them) give the documented sums byte for byte: shrinking and
 * growing, crops touching the picture's edges, rectangles one pixel wide,
 * NV21's V before U.
 */
TEST(linear_paths_give_the_documented_sums)
{
	/* source w, h, destination w, h, source rectangle x, y, w, h */
	static const s32 geo[][8] = {
		{ 1920, 1080, 224, 224 }, { 64, 48, 30, 20 }, { 10, 8, 6, 2 },
		{ 300, 200, 18, 198 }, { 8, 4, 22, 2 }, { 2, 6, 34, 4 },
		{ 40, 40, 20, 4, 38, 0, 2, 40 }, { 40, 40, 20, 4, 0, 2, 2, 36 },
		{ 46, 30, 16, 10, 4, 6, 40, 24 }, { 20, 20, 40, 40 },
	};
	static const u32 fm[] = { F_NV12, F_NV21, F_YUV400, F_YUV444SP };
	u32 host = vnpu_ops_host_cpu();
	u32 cpus[3] = { 0, VNPU_CPU_SSE2, host & ~VNPU_CPU_SSE2 };
	unsigned int i, k, ci, wrong;
	int mode, x, y, c;

	for (i = 0; i < ARRAY_SIZE(geo); i++)
		for (k = 0; k < ARRAY_SIZE(fm); k++)
			for (mode = 1; mode <= 3; mode += 2)
				for (ci = 0; ci < 3; ci++) {
					const s32 *g = geo[i];
					int sw = g[6] ? g[6] : g[0], sh = g[6] ? g[7] : g[1];
					int cx = pic_has_chroma(fm[k]) ? pic_sx(fm[k]) : 0;
					int cy = cx ? pic_sy(fm[k]) : 0;
					struct pic s, d;
					struct vcall v;

					if (ci == 2 && !(host & VNPU_CPU_AVX2_FMA))
						continue;
					pic_make(&s, fm[k], g[0], g[1], 1);
					pic_make(&d, fm[k], g[2], g[3], 0);
					pic_fill(&s, i * 8 + k);
					memset(d.buf, 0, d.size);
					vc_init(&v, &s, &d, mode);
					vc_rects(&v, g[4], g[5], g[6], g[7], 0, 0, 0, 0);
					ASSERT_EQ(0, vrun_cpu(&s, &d, &v, cpus[ci]));
					wrong = 0;
					for (y = 0; y < d.h; y++)
						for (x = 0; x < d.w; x++)
							wrong += *pic_yuv(&d, x, y, 0) !=
								 ref_linear_at(&s, 0, 0, mode, g[4],
									       g[5], sw, sh, d.w,
									       d.h, x, y);
					for (y = 0; cx && y < d.h / cy; y++)
						for (x = 0; x < d.w / cx; x++)
							for (c = 1; c <= 2; c++)
								wrong += *pic_yuv(&d, x * cx, y * cy, c) !=
									 ref_linear_at(&s, 1, c, mode,
										       g[4] / cx, g[5] / cy,
										       sw / cx, sh / cy,
										       d.w / cx, d.h / cy,
										       x, y);
					EXPECT_EQ(0, wrong)
						TH_LOG("geometry %u format %u mode %d cpu %u", i,
						       fm[k], mode, cpus[ci]);
					pic_free(&s);
					pic_free(&d);
				}
}

/*
 * Random small calls at the edges of the rules (as the fuzzer makes
 * them): whatever check() accepts runs without writing past either
 * buffer (canaries after them) or into the source.
 */
TEST(random_calls_stay_in_their_buffers)
{
	static const u8 bpp[F_COUNT] = { 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3,
					 4, 4, 4, 4 };
	u64 st = 12345;
	int i, ran = 0;

	for (i = 0; i < 20000; i++) {
		struct pic s, d;
		struct vcall v;
		u8 *copy;
		int k, ret;

		memset(&v, 0, sizeof(v));
		for (k = 0; k < 2; k++) {
			s64 *f = &v.ints[k * 5];

			f[0] = pic_rand(&st) % F_COUNT;
			f[1] = 1 + pic_rand(&st) % 7;
			f[2] = 1 + pic_rand(&st) % 7;
			f[3] = f[1] * bpp[f[0]] + pic_rand(&st) % 2;
			f[4] = f[2] + pic_rand(&st) % 2;
		}
		for (k = 10; k < 18; k += 4)
			if (pic_rand(&st) % 2) {
				v.ints[k] = pic_rand(&st) % 3;
				v.ints[k + 1] = pic_rand(&st) % 3;
				v.ints[k + 2] = 1 + pic_rand(&st) % 5;
				v.ints[k + 3] = 1 + pic_rand(&st) % 5;
			}
		v.ints[18] = pic_rand(&st) % 5;
		v.ints[19] = pic_rand(&st) % 6;
		v.ints[20] = pic_rand(&st) % 3;
		v.ints[21] = pic_rand(&st) % 4;
		if (v.ints[20] == 1) {
			memset(&v.ints[10], 0, 8 * sizeof(v.ints[0]));
			v.ints[0] = v.ints[5] = F_YUV400;
			v.ints[6] = v.ints[8] = (v.ints[1] + 1) / 2;
			v.ints[7] = v.ints[9] = (v.ints[2] + 1) / 2;
			v.ints[3] = v.ints[1];
		}
		s.fmt = (u32)v.ints[0];
		s.size = pic_bytes(s.fmt, (s32)v.ints[3], (s32)v.ints[4]);
		d.fmt = (u32)v.ints[5];
		d.size = pic_bytes(d.fmt, (s32)v.ints[8], (s32)v.ints[9]);
		s.buf = malloc(s.size + 16);
		d.buf = malloc(d.size + 16);
		copy = malloc(s.size + 16);
		pic_fill(&s, i);
		memset(s.buf + s.size, 0x5a, 16);
		memset(d.buf, 0x77, d.size);
		memset(d.buf + d.size, 0xa5, 16);
		memcpy(copy, s.buf, s.size + 16);
		ret = vrun(&s, &d, &v);
		ran += !ret;
		for (k = 0; k < 16; k++)
			ASSERT_EQ(0xa5, d.buf[d.size + k]) TH_LOG("call %d", i);
		ASSERT_EQ(0, memcmp(copy, s.buf, s.size + 16)) TH_LOG("call %d", i);
		free(copy);
		free(s.buf);
		free(d.buf);
	}
	TH_LOG("%d of 20000 calls ran", ran);
	EXPECT_LT(1000, ran);
}

/* ---------------------------------------------------------- pieces -- */

/*
 * Each piece alone writes bytes no other piece writes, all of them
 * what the whole call writes there, and together every byte it writes.
 */
static void pieces_cover(struct __test_metadata *_metadata, u32 sf, s32 sw,
			 s32 sh, u32 df, s32 dw, s32 dh, const s64 *extra)
{
	const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_VPC);
	struct pic s, d, full;
	struct vnpu_op_call *c;
	struct vcall v;
	u64 tiles, t;
	u16 *owner;
	u8 *lo, *hi;
	size_t i;
	int pat, twice = 0, wrong = 0, missed = 0, written = 0;

	pic_make(&s, sf, sw, sh, 0);
	pic_make(&d, df, dw, dh, 0);
	pic_make(&full, df, dw, dh, 0);
	pic_fill(&s, 130);
	vc_init(&v, &s, &d, 0);
	for (i = 10; i < 22; i++)
		v.ints[i] = extra[i - 10];
	/* the whole call over two backgrounds: the bytes it writes */
	lo = malloc(d.size);
	hi = malloc(d.size);
	owner = calloc(d.size, sizeof(*owner));
	for (pat = 0; pat < 2; pat++) {
		memset(full.buf, pat ? 0xff : 0, full.size);
		ASSERT_EQ(0, vrun(&s, &full, &v));
		memcpy(pat ? hi : lo, full.buf, full.size);
	}
	c = vcall_new(&s, &d, &v);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, vnpu_op_check(impl, c));
	tiles = impl->tiles(c);
	ASSERT_GT(tiles, 1);
	for (t = 0; t < tiles; t++)
		for (pat = 0; pat < 2; pat++) {
			memset(d.buf, pat ? 0xff : 0, d.size);
			impl->run(c, t);
			for (i = 0; i < d.size; i++) {
				if (d.buf[i] == (pat ? 0xff : 0))
					continue;
				if (owner[i] && owner[i] != t + 1)
					twice++;
				owner[i] = (u16)(t + 1);
				wrong += d.buf[i] != lo[i];
			}
		}
	for (i = 0; i < d.size; i++) {
		bool w = lo[i] != 0 || hi[i] != 0xff;

		written += w;
		missed += w && !owner[i];
		wrong += !w && owner[i];
	}
	EXPECT_EQ(0, twice);
	EXPECT_EQ(0, wrong);
	EXPECT_EQ(0, missed);
	EXPECT_GT(written, 0);
	/* a piece past the end runs nothing */
	memcpy(d.buf, lo, d.size);
	impl->run(c, tiles);
	EXPECT_EQ(0, memcmp(d.buf, lo, d.size));
	ot_call_free(c);
	free(lo);
	free(hi);
	free(owner);
	pic_free(&s);
	pic_free(&d);
	pic_free(&full);
}

TEST(pieces_cover_the_destination_once)
{
	static const s64 paste[12] = { 10, 20, 1900, 1040, 6, 4, 1200, 700 };
	static const s64 whole[12] = { 0 };
	static const s64 pyr[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
	static const s64 border[12] = { 0, 0, 0, 0, 300, 200, 1000, 700, 0, 0, 2, 2 };
	s64 rgb[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };

	pieces_cover(_metadata, F_NV12, 1920, 1080, F_NV12, 1280, 720, paste);
	pieces_cover(_metadata, F_NV12, 1920, 1080, F_RGBA, 1000, 1001, whole);
	pieces_cover(_metadata, F_ARGB, 1000, 700, F_NV21, 1280, 720, rgb);
	pieces_cover(_metadata, F_YUV400, 4001, 3001, F_YUV400, 2001, 1501, pyr);
	pieces_cover(_metadata, F_RGB888, 1000, 700, F_RGB888, 1600, 1100, border);
	/* a mid-size resize, cut into 8 pieces for the engines to share */
	pieces_cover(_metadata, F_NV12, 1920, 1080, F_NV12, 224, 224, whole);
}

/* Pieces of a call (its tiles()) for a resize of @sw x @sh to @dw x @dh. */
static u64 resize_pieces(u32 sf, s32 sw, s32 sh, u32 df, s32 dw, s32 dh,
			 s64 mode)
{
	const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_VPC);
	struct vnpu_op_call *c;
	struct pic s, d;
	struct vcall v;
	u64 n = 0;

	pic_make(&s, sf, sw, sh, 0);
	pic_make(&d, df, dw, dh, 0);
	vc_init(&v, &s, &d, mode);
	c = vcall_new(&s, &d, &v);
	if (c && !vnpu_op_check(impl, c))
		n = impl->tiles(c);
	ot_call_free(c);
	pic_free(&s);
	pic_free(&d);
	return n;
}

/*
 * A resize worth sharing (2^18 estimated taps or more) is cut into at
 * least 8 pieces, the fewest the engines share; a small one stays one
 * piece (each piece sets its column taps up again); a large one keeps
 * its pieces of about 2^20 taps.
 */
TEST(mid_size_resizes_split_for_the_engines)
{
	/* 224 * 4 * 8 taps a unit of two rows, 112 units */
	EXPECT_EQ(8, resize_pieces(F_NV12, 1920, 1080, F_NV12, 224, 224, 1));
	/* bicubic: 224 * 4 * 22 a unit */
	EXPECT_EQ(8, resize_pieces(F_NV12, 1920, 1080, F_NV12, 224, 224, 0));
	/* rows of 128 * 3 * 8 taps: 86 of them reach 2^18, 10 a piece */
	EXPECT_EQ(9, resize_pieces(F_YUV400, 1000, 1000, F_YUV400, 128, 86, 1));
	/* one row less: one piece */
	EXPECT_EQ(1, resize_pieces(F_YUV400, 1000, 1000, F_YUV400, 128, 85, 1));
	EXPECT_EQ(1, resize_pieces(F_NV12, 64, 64, F_NV12, 32, 32, 1));
	/* fewer than 8 units: not cut */
	EXPECT_EQ(1, resize_pieces(F_NV12, 4096, 4096, F_NV12, 4096, 14, 1));
	/* 1920 * 4 * 8 taps a unit: 17 units a piece of 2^20, 540 units */
	EXPECT_EQ(32, resize_pieces(F_NV12, 3840, 2160, F_NV12, 1920, 1080, 1));
}

/* The largest call (4096 x 8191 RGBA, bicubic) is split into rows. */
TEST(largest_call_splits)
{
	const struct vnpu_op_impl *impl = vnpu_op_find(DRM_VNPU_OP_VPC);
	struct pic s, d;
	struct vnpu_op_call *c;
	struct vcall v;
	u64 tiles;

	/* the tensors' sizes matter, not their contents: small buffers */
	pic_make(&s, F_BGRA, 8, 8, 0);
	pic_make(&d, F_RGBA, 8, 8, 0);
	vc_init(&v, &s, &d, 0);
	v.ints[1] = v.ints[6] = 4096;
	v.ints[2] = v.ints[7] = 8191;
	v.ints[3] = v.ints[8] = 16384;
	v.ints[4] = v.ints[9] = 8192;
	s.size = d.size = (size_t)16384 * 8192;
	c = vcall_new(&s, &d, &v);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, vnpu_op_check(impl, c));
	tiles = impl->tiles(c);
	/* 4096 * 6 * 22 taps a row, over the budget of 2^20: a row a piece */
	EXPECT_EQ(8191, tiles);
	/* 8192 RGBA columns are 32768 bytes, over the stride limit */
	v.ints[1] = 8192;
	ot_call_free(c);
	c = vcall_new(&s, &d, &v);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(-VNPU_OPS_EINVAL, vnpu_op_check(impl, c));
	ot_call_free(c);
	pic_free(&s);
	pic_free(&d);
}

TEST_HARNESS_MAIN
