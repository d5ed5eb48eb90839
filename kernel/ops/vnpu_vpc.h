/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * DRM_VNPU_OP_VPC, shared by its files: the pixel formats, a call's
 * parsed attributes (vnpu_vpc_check.c), the resampler of one plane
 * (vnpu_vpc_resample.c), the colour matrices (vnpu_vpc_csc.c) and the
 * operator itself (vnpu_op_vpc.c). Documentation/vpc.md describes the
 * numerics.
 *
 * Copyright (C) 2026 The vnpu authors
 */
#ifndef __VNPU_VPC_H__
#define __VNPU_VPC_H__

#include "vnpu_ops_impl.h"

/* acldvppPixelFormat values the operator takes, in and out. */
#define VPC_YUV400	0
#define VPC_NV12	1
#define VPC_NV21	2
#define VPC_YUV422SP	3
#define VPC_YVU422SP	4
#define VPC_YUV444SP	5
#define VPC_YVU444SP	6
#define VPC_YUYV	7
#define VPC_UYVY	8
#define VPC_YVYU	9
#define VPC_VYUY	10
#define VPC_YUV444P	11	/* packed Y, U, V bytes */
#define VPC_RGB888	12
#define VPC_BGR888	13
#define VPC_ARGB8888	14
#define VPC_ABGR8888	15
#define VPC_RGBA8888	16
#define VPC_BGRA8888	17
#define VPC_NFMT	18

/* ints[] of the call. */
#define VPC_A_SRC	0	/* format, width, height, width stride, height stride */
#define VPC_A_DST	5
#define VPC_A_SRECT	10	/* left, top, width, height */
#define VPC_A_DRECT	14
#define VPC_A_INTERP	18
#define VPC_A_CSC	19
#define VPC_A_KIND	20
#define VPC_A_BORDER	21

#define VPC_KIND_RESIZE		0
#define VPC_KIND_PYRDOWN	1
#define VPC_KIND_BORDER		2

/* acldvppResizeConfig's interpolation values. */
#define VPC_INTERP_DEFAULT	0	/* bicubic as OpenCV's INTER_CUBIC */
#define VPC_INTERP_CV_LINEAR	1
#define VPC_INTERP_CV_NEAREST	2
#define VPC_INTERP_TF_LINEAR	3
#define VPC_INTERP_TF_NEAREST	4

#define VPC_CSC_COUNT		6	/* acldvppCscMatrix 0..5 */
#define VPC_BORDER_CONSTANT	0
#define VPC_BORDER_REPLICATE	1
#define VPC_BORDER_REFLECT	2
#define VPC_BORDER_REFLECT_101	3

#define VPC_MAX_DIM		8192
#define VPC_MAX_STRIDE		16384

/* Resampling weights are fixed point with this many fraction bits. */
#define VPC_WBITS		11
#define VPC_WONE		2048	/* 1 << VPC_WBITS, an int */

/**
 * struct vpc_fmt - how a format lays a picture out
 * @rgb: RGB family (else YUV)
 * @bpp: bytes a pixel takes in the first plane's rows (packed 4:2:2: 2)
 * @sx: chroma columns per luma column divisor (0: no chroma)
 * @sy: chroma rows per luma row divisor (0: no chroma)
 * @semi: chroma in a second plane after width stride * height stride bytes
 * @crow: the chroma plane's row stride in width strides (4:4:4 SP: 2)
 * @ystep: bytes from one luma sample to the next
 * @cstep: bytes from one chroma pair (or RGB pixel) to the next
 * @off: YUV: Y's offset, then U's and V's from the chroma pair's start;
 *	 RGB: R, G, B and A (-1: no alpha) from the pixel's start
 */
struct vpc_fmt {
	u8 rgb, bpp, sx, sy, semi, crow, ystep, cstep;
	s8 off[4];
};

extern const struct vpc_fmt vpc_fmts[VPC_NFMT];

/* A picture: its format, size, strides and buffer. */
struct vpc_pic {
	const struct vpc_fmt *f;
	u32 fmt;
	s32 w, h, ws, hs;
	u8 *data;
};

struct vpc_rect {
	s32 x, y, w, h;
};

/* A call's attributes, checked (vpc_parse()). */
struct vpc_args {
	struct vpc_pic src, dst;
	struct vpc_rect sr, dr;
	u32 interp, csc, kind, border;
	u32 bval[4];	/* border values, float bits */
};

/*
 * Parse and check a call (integer code only): 0, or -VNPU_OPS_EINVAL.
 * Every rule is in Documentation/vpc.md.
 */
int vpc_parse(const struct vnpu_op_call *c, struct vpc_args *a);

/*
 * Units of a call's destination (kind 0: row pairs of a 4:2:0
 * destination rectangle, else rows), and units per piece.
 */
void vpc_units(const struct vpc_args *a, u32 *units, u32 *per_piece);

/**
 * struct vpc_plane - one plane of a picture, as channels of bytes
 * @base: row 0, column 0
 * @stride: bytes per row
 * @step: bytes per pixel (column)
 * @nc: channels taken (1 luma, 2 chroma U, V, 3 or 4 R, G, B, A)
 * @off: each channel's offset in a pixel
 * @data: the picture's first byte (nothing before it may be read)
 */
struct vpc_plane {
	u8 *base;
	const u8 *data;
	s64 stride;
	u32 step, nc;
	s32 off[4];
};

/* The luma, chroma (U, V) or RGB(A) plane of a picture. */
void vpc_plane_luma(const struct vpc_pic *p, struct vpc_plane *pl);
void vpc_plane_chroma(const struct vpc_pic *p, struct vpc_plane *pl);
void vpc_plane_rgb(const struct vpc_pic *p, bool alpha, struct vpc_plane *pl);

/* An axis from @in to @out samples in a mode, its scales computed once. */
struct vpc_axis {
	u32 mode;
	s32 in, out;
	double scale;	/* OpenCV's: 1 / (out / in) */
	float tscale;	/* TensorFlow's: in / out */
};

/*
 * The floor of @f >= 0 and the fixed-point weights of 1 - its fraction
 * and of its fraction, rounded half to even, exactly as the float code
 * computes them (f - floor(f) and 1.f - that in float, then times
 * VPC_WONE rounded), from the bits of @f: integer code. False (nothing
 * set) for a negative @f, a NaN or @f >= 2^30.
 */
bool vpc_frac_weights(float f, s32 *s, s16 *w0, s16 *w1);

/**
 * struct vpc_rs - the resampler of one plane within one piece
 * @src: the source plane (its channels are the row's channels)
 * @x0: the source rectangle's left column in the plane
 * @y0: its top row
 * @in_w: its width
 * @in_h: its height
 * @out_w: the target width
 * @out_h: the target height
 * @mode: VPC_INTERP_*
 * @ay: the vertical axis
 * @kx: taps per output column (1, 2 or 4)
 * @ky: taps per output row
 * @xo: out_w * kx byte offsets of the taps in a source row
 * @xw: out_w * kx weights (VPC_WBITS fraction bits)
 * @rows: ky cached horizontal passes of out_w * nc values each
 * @key: the source row each cached pass holds (-1: none)
 * @out: one target row, out_w * nc bytes
 * @avx2: the CPU has AVX2 (vnpu_ops.h's VNPU_CPU_AVX2_FMA)
 * @sse2: the CPU has SSE2 (VNPU_CPU_SSE2)
 * @lanes: with @avx2, bilinear shrinking vertically: per output byte
 *	   (out_w * nc of them) the offsets of its two taps less 3 and
 *	   their weights, for 32-bit gathers that end at the tap's byte;
 *	   then per 8 of them the taps' distance if it is the same 1..3
 * @lane_min: the smallest of those offsets
 * @pofs: bilinear shrinking vertically, a plane of bytes or of byte
 *	  pairs (vnpu_vpc_pairs.c): per output pixel, the offset in a source
 *	  row of the bytes holding its two taps (NULL: not used)
 * @pwi: per output pixel, its taps' weights w1 | w0 << 20
 * @pw: with @sse2, per 8 output bytes, the taps' weights split in 64ths
 *	and the rest
 * @groups: output bytes the SSE2 code computes, in eights (0 without)
 * @swap: the second channel of a pair comes first in memory (V before U)
 */
struct vpc_rs {
	struct vpc_plane src;
	s32 x0, y0, in_w, in_h, out_w, out_h;
	u32 mode, kx, ky;
	struct vpc_axis ay;
	s32 *xo;
	s16 *xw;
	s32 *rows;
	s32 key[4];
	u8 *out;
	bool avx2, sse2;
	s32 *lanes;
	s32 lane_min;
	s32 *pofs;
	u32 *pwi;
	s16 *pw;
	u32 groups;
	bool swap;
};

/*
 * Set up @rs (everything but @src, @x0, @y0, @in_w, @in_h, @out_w,
 * @out_h, @mode and @avx2, which the caller fills) in the scratch memory
 * at *@mem, which it advances: at most 25 * out_w * nc + 12 * out_w
 * bytes and a few alignments.
 */
void vpc_rs_init(struct vpc_rs *rs, u8 **mem);
/*
 * Target row @y into @out (out_w pixels of nc bytes in a row: rs->out,
 * or a destination row laid out so).
 */
void vpc_rs_row(struct vpc_rs *rs, s32 y, u8 *out);
/* Taps per output element along an axis from @in to @out. */
u32 vpc_taps(u32 mode, s32 in, s32 out);

/*
 * Bilinear shrinking vertically with each pixel's taps in one load
 * (vnpu_vpc_pairs.c): the tables set up from @rs->xo and @rs->xw at
 * *@mem (advanced, at most 16 * out_w * nc bytes and three alignments),
 * or @rs->pofs NULL where the plane's layout does not suit it; then a
 * target row from source rows @r0 and @r1 weighed @wa and @wb.
 */
void vpc_pairs_init(struct vpc_rs *rs, u8 **mem);
void vpc_linear2_pairs(const struct vpc_rs *rs, const u8 *r0, const u8 *r1,
		       s32 wa, s32 wb, u8 *o);

/* Colour conversion with acldvppCscMatrix @m (vnpu_vpc_csc.c). */
void vpc_yuv_to_rgb(u32 m, const u8 *y, const u8 *uv, s32 n, u8 *rgb);
/* Y of @n RGB pixels of @nc channels; U, V sums in Q16 into @u, @v. */
void vpc_rgb_to_y(u32 m, const u8 *rgb, u32 nc, s32 n, u8 *y);
void vpc_rgb_to_uv(u32 m, const u8 *rgb, u32 nc, s32 n, s32 *u, s32 *v);
/* A chroma value from a sum of @k Q16 values (k = 1, 2 or 4). */
u8 vpc_uv_round(s32 sum, u32 shift);

/* Kinds 1 and 2 (vnpu_vpc_border.c): rows [y0, y1) of the destination. */
void vpc_pyrdown_rows(const struct vpc_args *a, s32 y0, s32 y1, void *scratch);
void vpc_border_rows(const struct vpc_args *a, s32 y0, s32 y1, void *scratch);

static inline u8 vpc_sat_u8(s32 v)
{
	return v < 0 ? 0 : v > 255 ? 255 : (u8)v;
}

#endif /* __VNPU_VPC_H__ */
