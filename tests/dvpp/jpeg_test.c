// SPDX-License-Identifier: MIT
/*
 * JPEGD and JPEGE of the codec layer (lib/dvpp/codec_jpeg_*.c) on JPEGs
 * made here with libjpeg-turbo: header facts, CANN's output layouts,
 * decodes bit-identical to libjpeg-turbo's own decode into its planes
 * (laid out and, where the target's chroma is coarser, averaged as
 * dvpp_codec.h specifies), the refusal of progressive, arithmetic,
 * 12-bit, RGB-coded, CMYK and 4:1:1 JPEGs, damaged data, and the encoder:
 * its input rules, level 0 = 100, the quality of a round trip.
 */
#include "kselftest_harness.h"
#include "codec_test_util.h"

static const int samps[] = { TJSAMP_444, TJSAMP_422, TJSAMP_420,
			     TJSAMP_GRAY, TJSAMP_440 };
static const uint32_t css_of_samp[] = {
	[TJSAMP_444] = DVPP_CSS_444, [TJSAMP_422] = DVPP_CSS_422,
	[TJSAMP_420] = DVPP_CSS_420, [TJSAMP_GRAY] = DVPP_CSS_GRAY,
	[TJSAMP_440] = DVPP_CSS_440, [TJSAMP_411] = DVPP_CSS_411,
};
static const int sizes[][2] = { { 64, 48 }, { 33, 35 }, { 47, 33 },
				{ 130, 97 } };
#define N(a) (sizeof(a) / sizeof((a)[0]))

TEST(info_reads_size_components_and_sampling)
{
	struct dvpp_jpeg_info in;
	unsigned int i, j;
	char why[256];

	for (i = 0; i < N(samps); i++)
		for (j = 0; j < N(sizes); j++) {
			size_t n;
			uint8_t *jpg = make_jpeg(sizes[j][0], sizes[j][1],
						 samps[i], 0, &n);

			ASSERT_NE(NULL, jpg);
			ASSERT_EQ(0, dvpp_jpeg_info(jpg, n, &in, why, sizeof(why)));
			EXPECT_EQ(sizes[j][0], in.width);
			EXPECT_EQ(sizes[j][1], in.height);
			EXPECT_EQ(samps[i] == TJSAMP_GRAY ? 1 : 3, in.components);
			EXPECT_EQ(css_of_samp[samps[i]], in.css);
			EXPECT_TRUE(in.baseline);
			EXPECT_EQ(0xc0, in.sof);
			EXPECT_EQ(8, in.precision);
			free(jpg);
		}
}

TEST(info_of_411_and_cmyk)
{
	struct dvpp_jpeg_info in;
	unsigned char *jpeg = NULL;
	unsigned long n = 0;
	uint8_t *cmyk = make_rgb(48, 40, 4);
	tjhandle tj = tjInitCompress();
	size_t size;
	uint8_t *jpg = make_jpeg(64, 40, TJSAMP_411, 0, &size);

	ASSERT_EQ(0, dvpp_jpeg_info(jpg, size, &in, NULL, 0));
	EXPECT_EQ(DVPP_CSS_411, in.css);
	EXPECT_EQ(3, in.components);
	free(jpg);

	ASSERT_EQ(0, tjCompress2(tj, cmyk, 48, 0, 40, TJPF_CMYK, &jpeg, &n,
				 TJSAMP_444, 90, 0));
	ASSERT_EQ(0, dvpp_jpeg_info(jpeg, n, &in, NULL, 0));
	EXPECT_EQ(4, in.components);
	EXPECT_EQ(DVPP_CSS_UNKNOWN, in.css);
	EXPECT_EQ(48, in.width);
	tjFree(jpeg);
	tjDestroy(tj);
	free(cmyk);
}

/* The offset of the first frame marker (before any entropy data). */
static size_t sof_offset(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 2; i + 1 < n; i++)
		if (p[i] == 0xff && p[i + 1] == 0xc0)
			return i;
	return 0;
}

TEST(info_rejects_what_is_not_a_frame_header)
{
	struct dvpp_jpeg_info in;
	size_t n, sof;
	uint8_t *jpg = make_jpeg(64, 48, TJSAMP_420, 0, &n);
	uint8_t *bad = malloc(n);
	char why[256] = "";

	sof = sof_offset(jpg, n);
	ASSERT_LT(0, sof);
	EXPECT_EQ(-EINVAL, dvpp_jpeg_info(NULL, n, &in, why, sizeof(why)));
	EXPECT_EQ(-EINVAL, dvpp_jpeg_info(jpg, n, NULL, why, sizeof(why)));
	/* no SOI */
	memcpy(bad, jpg, n);
	bad[1] = 0xd9;
	EXPECT_EQ(-EBADMSG, dvpp_jpeg_info(bad, n, &in, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "SOI"));
	EXPECT_EQ(-EBADMSG, dvpp_jpeg_info(jpg, 3, &in, NULL, 0));
	/* ends before the frame header */
	EXPECT_EQ(-EBADMSG, dvpp_jpeg_info(jpg, sof + 3, &in, why, sizeof(why)));
	/* a segment whose length runs past the data */
	EXPECT_EQ(-EBADMSG, dvpp_jpeg_info(jpg, sof + 6, &in, why, sizeof(why)));
	/* something else where a marker belongs */
	memcpy(bad, jpg, n);
	bad[2] = 0x12;
	EXPECT_EQ(-EBADMSG, dvpp_jpeg_info(bad, n, &in, why, sizeof(why)));
	/* the scan before the frame header */
	memcpy(bad, jpg, n);
	bad[3] = 0xda;
	EXPECT_EQ(-EBADMSG, dvpp_jpeg_info(bad, n, &in, why, sizeof(why)));
	/* width 0; height 0 (DNL) */
	memcpy(bad, jpg, n);
	bad[sof + 7] = bad[sof + 8] = 0;
	EXPECT_EQ(-EBADMSG, dvpp_jpeg_info(bad, n, &in, why, sizeof(why)));
	memcpy(bad, jpg, n);
	bad[sof + 5] = bad[sof + 6] = 0;
	EXPECT_EQ(-EOPNOTSUPP, dvpp_jpeg_info(bad, n, &in, why, sizeof(why)));
	/* a sampling factor of 0 */
	memcpy(bad, jpg, n);
	bad[sof + 11] = 0x20;
	EXPECT_EQ(-EBADMSG, dvpp_jpeg_info(bad, n, &in, why, sizeof(why)));
	/* more components than the header holds */
	memcpy(bad, jpg, n);
	bad[sof + 9] = 9;
	EXPECT_EQ(-EBADMSG, dvpp_jpeg_info(bad, n, &in, why, sizeof(why)));
	free(bad);
	free(jpg);
}

TEST(layout_numbers)
{
	static const struct {
		uint32_t w, h, css, fmt, align;
		int ret;
		uint32_t ofmt, ow, oh, ws, hs, size;
	} c[] = {
		/* defaults per sampling */
		{ 64, 48, DVPP_CSS_444, DVPP_FMT_UNKNOWN, 0, 0, 6, 64, 48, 128, 48, 128 * 48 * 3 },
		{ 64, 48, DVPP_CSS_422, DVPP_FMT_UNKNOWN, 0, 0, 4, 64, 48, 128, 48, 128 * 48 * 2 },
		{ 64, 48, DVPP_CSS_420, DVPP_FMT_UNKNOWN, 0, 0, 2, 64, 48, 128, 48, 128 * 48 * 3 / 2 },
		{ 64, 48, DVPP_CSS_GRAY, DVPP_FMT_UNKNOWN, 0, 0, 2, 64, 48, 128, 48, 128 * 48 * 3 / 2 },
		{ 64, 48, DVPP_CSS_440, DVPP_FMT_UNKNOWN, 0, 0, 2, 64, 48, 128, 48, 128 * 48 * 3 / 2 },
		/* odd sizes: 4:4:4 SP keeps them, 4:2:2 SP evens the width */
		{ 33, 35, DVPP_CSS_444, DVPP_FMT_YVU_SP_444, 0, 0, 6, 33, 35, 128, 48, 128 * 48 * 3 },
		{ 33, 35, DVPP_CSS_422, DVPP_FMT_YVU_SP_422, 0, 0, 4, 32, 35, 128, 48, 128 * 48 * 2 },
		{ 33, 35, DVPP_CSS_422, DVPP_FMT_YVU_SP_422, 1, 0, 4, 34, 35, 128, 48, 128 * 48 * 2 },
		/* NV12/NV21: both, down (0, 2) or up (1) */
		{ 33, 35, DVPP_CSS_444, DVPP_FMT_NV12, 0, 0, 1, 32, 34, 128, 48, 128 * 48 * 3 / 2 },
		{ 33, 35, DVPP_CSS_444, DVPP_FMT_NV12, 2, 0, 1, 32, 34, 128, 48, 128 * 48 * 3 / 2 },
		{ 33, 35, DVPP_CSS_420, DVPP_FMT_NV21, 1, 0, 2, 34, 36, 128, 48, 128 * 48 * 3 / 2 },
		{ 129, 33, DVPP_CSS_420, DVPP_FMT_NV21, 1, 0, 2, 130, 34, 256, 48, 256 * 48 * 3 / 2 },
		{ 129, 33, DVPP_CSS_420, DVPP_FMT_NV21, 0, 0, 2, 128, 32, 128, 32, 128 * 32 * 3 / 2 },
		{ 1920, 1080, DVPP_CSS_420, DVPP_FMT_NV12, 0, 0, 1, 1920, 1080, 1920, 1088, 1920 * 1088 * 3 / 2 },
		{ 8192, 8192, DVPP_CSS_444, DVPP_FMT_UNKNOWN, 0, 0, 6, 8192, 8192, 8192, 8192, 8192u * 8192 * 3 },
		{ 32, 32, DVPP_CSS_GRAY, DVPP_FMT_NV12, 0, 0, 1, 32, 32, 128, 32, 128 * 32 * 3 / 2 },
		/* refused targets */
		{ 64, 48, DVPP_CSS_420, DVPP_FMT_YVU_SP_444, 0, -EINVAL, 0, 0, 0, 0, 0, 0 },
		{ 64, 48, DVPP_CSS_420, DVPP_FMT_YVU_SP_422, 0, -EINVAL, 0, 0, 0, 0, 0, 0 },
		{ 64, 48, DVPP_CSS_444, DVPP_FMT_YVU_SP_422, 0, -EINVAL, 0, 0, 0, 0, 0, 0 },
		{ 64, 48, DVPP_CSS_422, DVPP_FMT_YVU_SP_444, 0, -EINVAL, 0, 0, 0, 0, 0, 0 },
		{ 64, 48, DVPP_CSS_444, DVPP_FMT_YUV_SP_444, 0, -EINVAL, 0, 0, 0, 0, 0, 0 },
		{ 64, 48, DVPP_CSS_444, DVPP_FMT_RGB_888, 0, -EINVAL, 0, 0, 0, 0, 0, 0 },
		{ 64, 48, DVPP_CSS_GRAY, DVPP_FMT_YUV_400, 0, -EINVAL, 0, 0, 0, 0, 0, 0 },
		{ 64, 48, DVPP_CSS_420, DVPP_FMT_NV12, 3, -EINVAL, 0, 0, 0, 0, 0, 0 },
		/* refused samplings and sizes */
		{ 64, 48, DVPP_CSS_411, DVPP_FMT_NV12, 0, -EOPNOTSUPP, 0, 0, 0, 0, 0, 0 },
		{ 64, 48, DVPP_CSS_UNKNOWN, DVPP_FMT_UNKNOWN, 0, -EOPNOTSUPP, 0, 0, 0, 0, 0, 0 },
		{ 31, 48, DVPP_CSS_420, DVPP_FMT_NV12, 0, -ERANGE, 0, 0, 0, 0, 0, 0 },
		{ 64, 31, DVPP_CSS_420, DVPP_FMT_NV12, 0, -ERANGE, 0, 0, 0, 0, 0, 0 },
		{ 8193, 48, DVPP_CSS_420, DVPP_FMT_NV12, 0, -ERANGE, 0, 0, 0, 0, 0, 0 },
		{ 64, 8193, DVPP_CSS_420, DVPP_FMT_NV12, 0, -ERANGE, 0, 0, 0, 0, 0, 0 },
	};
	struct dvpp_pic_layout l;
	unsigned int i;

	for (i = 0; i < N(c); i++) {
		char why[256] = "";
		int ret = dvpp_jpeg_out_layout(c[i].w, c[i].h, c[i].css, c[i].fmt,
					       c[i].align, &l, why, sizeof(why));

		EXPECT_EQ(c[i].ret, ret) TH_LOG("case %u: %s", i, why);
		if (ret || c[i].ret) {
			EXPECT_NE(0, why[0]) TH_LOG("case %u has no reason", i);
			continue;
		}
		EXPECT_EQ(c[i].ofmt, l.format) TH_LOG("case %u", i);
		EXPECT_EQ(c[i].ow, l.width) TH_LOG("case %u", i);
		EXPECT_EQ(c[i].oh, l.height) TH_LOG("case %u", i);
		EXPECT_EQ(c[i].ws, l.width_stride) TH_LOG("case %u", i);
		EXPECT_EQ(c[i].hs, l.height_stride) TH_LOG("case %u", i);
		EXPECT_EQ(c[i].size, l.size) TH_LOG("case %u", i);
	}
	EXPECT_EQ(-EINVAL, dvpp_jpeg_out_layout(64, 48, DVPP_CSS_420,
						DVPP_FMT_NV12, 0, NULL, NULL, 0));
}

/*
 * What the decode must give, built from libjpeg-turbo's planes in luma
 * coordinates: each output chroma sample at (cx, cy) covers luma
 * [cx * tx, (cx + 1) * tx) x [cy * ty, (cy + 1) * ty); the source
 * samples it averages are those that sit at the luma positions
 * cx * tx + k * sx (k < tx / sx), edges clamped.
 */
static void expected(const struct tj_planes *t, uint32_t css,
		     const struct dvpp_pic_layout *l, uint8_t *e)
{
	int sx = css == DVPP_CSS_422 || css == DVPP_CSS_420 ? 2 : 1;
	int sy = css == DVPP_CSS_420 || css == DVPP_CSS_440 ? 2 : 1;
	int tx = 2, ty = 2, x, y, kx, ky;
	size_t ws = l->width_stride, cs = ws;
	uint8_t *uv = e + ws * l->height_stride;

	if (l->format == DVPP_FMT_YVU_SP_444) {
		tx = ty = 1;
		cs = 2 * ws;
	} else if (l->format == DVPP_FMT_YVU_SP_422) {
		ty = 1;
	}
	memset(e, 0, l->size);
	for (y = 0; y < (int)l->height; y++)
		for (x = 0; x < (int)l->width; x++)
			e[y * ws + x] = t->p[0][(y < t->h[0] ? y : t->h[0] - 1) * t->w[0] +
						(x < t->w[0] ? x : t->w[0] - 1)];
	for (y = 0; y < (int)l->height / ty; y++)
		for (x = 0; x < (int)l->width / tx; x++) {
			int su = 0, sv = 0, n = 0;

			if (t->n == 1) {
				uv[y * cs + 2 * x] = uv[y * cs + 2 * x + 1] = 0x80;
				continue;
			}
			for (ky = 0; ky < (ty > sy ? ty / sy : 1); ky++)
				for (kx = 0; kx < (tx > sx ? tx / sx : 1); kx++) {
					int ix = (x * tx + kx * sx) / sx;
					int iy = (y * ty + ky * sy) / sy;

					ix = ix < t->w[1] ? ix : t->w[1] - 1;
					iy = iy < t->h[1] ? iy : t->h[1] - 1;
					su += t->p[1][iy * t->w[1] + ix];
					sv += t->p[2][iy * t->w[2] + ix];
					n++;
				}
			su = (su + n / 2) / n;
			sv = (sv + n / 2) / n;
			uv[y * cs + 2 * x] = l->format == DVPP_FMT_NV12 ? su : sv;
			uv[y * cs + 2 * x + 1] = l->format == DVPP_FMT_NV12 ? sv : su;
		}
}

TEST(decode_is_libjpeg_turbo_planes_laid_out)
{
	static const uint32_t fmts[] = { DVPP_FMT_UNKNOWN, DVPP_FMT_NV12,
					 DVPP_FMT_NV21, DVPP_FMT_YVU_SP_444,
					 DVPP_FMT_YVU_SP_422 };
	unsigned int i, j, f, a, done = 0, resampled = 0;

	for (i = 0; i < N(samps); i++)
		for (j = 0; j < N(sizes); j++) {
			size_t n;
			uint8_t *jpg = make_jpeg(sizes[j][0], sizes[j][1],
						 samps[i], 0, &n);
			uint32_t css = css_of_samp[samps[i]];
			struct tj_planes t;

			ASSERT_EQ(0, tj_decode_planes(jpg, n, &t));
			for (f = 0; f < N(fmts); f++)
				for (a = 0; a < 3; a++) {
					struct dvpp_pic_layout l, got;
					uint8_t *dst, *e;
					char why[256] = "";

					if (dvpp_jpeg_out_layout(sizes[j][0], sizes[j][1],
								 css, fmts[f], a, &l,
								 NULL, 0))
						continue;
					dst = malloc(l.size);
					e = malloc(l.size);
					memset(dst, 0xa5, l.size);
					ASSERT_EQ(0, dvpp_jpeg_decode(jpg, n, fmts[f], a,
								      dst, l.size, &got,
								      why, sizeof(why)))
						TH_LOG("%s", why);
					EXPECT_EQ(0, memcmp(&l, &got, sizeof(l)));
					expected(&t, css, &l, e);
					EXPECT_EQ(0, memcmp(e, dst, l.size))
						TH_LOG("sampling %d, %dx%d, format %u, mode %u",
						       samps[i], sizes[j][0], sizes[j][1],
						       fmts[f], a);
					done++;
					if ((l.format == DVPP_FMT_NV12 ||
					     l.format == DVPP_FMT_NV21) &&
					    css != DVPP_CSS_420 && css != DVPP_CSS_GRAY)
						resampled++;
					free(dst);
					free(e);
				}
			free(t.buf);
			free(jpg);
		}
	/* every allowed pair: 5 samplings x 4 sizes x 3 modes x formats */
	EXPECT_EQ(4 * 3 * (4 + 4 + 3 + 3 + 3), done);
	EXPECT_EQ(4 * 3 * (2 + 2 + 3), resampled);
}

/* The reference planes are libjpeg-turbo's standard YUV decode. */
TEST(reference_planes_match_tjDecompressToYUV2)
{
	size_t n;
	uint8_t *jpg = make_jpeg(47, 33, TJSAMP_420, 0, &n);
	tjhandle tj = tjInitDecompress();
	unsigned long yuv_size = tjBufSizeYUV2(47, 1, 33, TJSAMP_420);
	uint8_t *yuv = malloc(yuv_size);
	struct tj_planes t;
	size_t off = 0;
	int i;

	ASSERT_EQ(0, tj_decode_planes(jpg, n, &t));
	ASSERT_EQ(0, tjDecompressToYUV2(tj, jpg, n, yuv, 47, 1, 33, 0));
	for (i = 0; i < 3; i++) {
		size_t plane = (size_t)t.w[i] * t.h[i];

		EXPECT_EQ(0, memcmp(yuv + off, t.p[i], plane));
		off += plane;
	}
	EXPECT_EQ(yuv_size, off);
	free(yuv);
	free(t.buf);
	tjDestroy(tj);
	free(jpg);
}

/* 4:4:4 to NV12: each chroma sample the rounded mean of a 2x2 block. */
TEST(chroma_downsampling_is_the_rounded_mean)
{
	size_t n;
	uint8_t *jpg = make_jpeg(64, 48, TJSAMP_444, 0, &n);
	struct dvpp_pic_layout l;
	struct tj_planes t;
	uint8_t *dst = malloc(128 * 48 * 3 / 2), *uv = dst + 128 * 48;
	int x, y;

	ASSERT_EQ(0, tj_decode_planes(jpg, n, &t));
	ASSERT_EQ(0, dvpp_jpeg_decode(jpg, n, DVPP_FMT_NV12, 0, dst,
				      128 * 48 * 3 / 2, &l, NULL, 0));
	for (y = 0; y < 24; y++)
		for (x = 0; x < 32; x++) {
			const uint8_t *u = t.p[1] + 2 * y * 64 + 2 * x;
			const uint8_t *v = t.p[2] + 2 * y * 64 + 2 * x;
			double mu = (u[0] + u[1] + u[64] + u[65]) / 4.0;
			double mv = (v[0] + v[1] + v[64] + v[65]) / 4.0;

			ASSERT_EQ((int)floor(mu + 0.5), uv[y * 128 + 2 * x]);
			ASSERT_EQ((int)floor(mv + 0.5), uv[y * 128 + 2 * x + 1]);
		}
	free(t.buf);
	free(dst);
	free(jpg);
}

static void expect_unsupported(struct __test_metadata *_metadata,
			       const uint8_t *jpg, size_t n, const char *word)
{
	uint8_t *dst = malloc(128 * 48 * 3);
	struct dvpp_pic_layout l;
	char why[256] = "";

	EXPECT_EQ(-EOPNOTSUPP, dvpp_jpeg_decode(jpg, n, DVPP_FMT_UNKNOWN, 0, dst,
						128 * 48 * 3, &l, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, word)) TH_LOG("reason: %s", why);
	free(dst);
}

TEST(progressive_is_refused_as_unsupported)
{
	struct dvpp_jpeg_info in;
	size_t n, pn;
	uint8_t *jpg = make_jpeg(64, 48, TJSAMP_420, TJFLAG_PROGRESSIVE, &pn);
	uint8_t *base = make_jpeg(64, 48, TJSAMP_444, 0, &n);
	tjhandle tj = tjInitTransform();
	tjtransform xf = { .op = TJXOP_NONE, .options = TJXOPT_PROGRESSIVE };
	unsigned char *out = NULL;
	unsigned long out_size = 0;

	ASSERT_EQ(0, dvpp_jpeg_info(jpg, pn, &in, NULL, 0));
	EXPECT_FALSE(in.baseline);
	EXPECT_EQ(0xc2, in.sof);
	EXPECT_EQ(DVPP_CSS_420, in.css);
	expect_unsupported(_metadata, jpg, pn, "progressive");

	ASSERT_EQ(0, tjTransform(tj, base, n, 1, &out, &out_size, &xf, 0));
	ASSERT_EQ(0, dvpp_jpeg_info(out, out_size, &in, NULL, 0));
	EXPECT_EQ(0xc2, in.sof);
	expect_unsupported(_metadata, out, out_size, "progressive");
	tjFree(out);
	tjDestroy(tj);
	free(base);
	free(jpg);
}

TEST(arithmetic_lossless_and_12_bit_are_refused)
{
	static const struct { uint8_t sof, precision; const char *word; } c[] = {
		{ 0xc9, 8, "arithmetic" }, { 0xca, 8, "progressive arithmetic" },
		{ 0xc3, 8, "lossless" }, { 0xc5, 8, "hierarchical" },
		{ 0xc0, 12, "precision" }, { 0xc1, 12, "precision" },
	};
	struct dvpp_jpeg_info in;
	size_t n, sof;
	uint8_t *jpg = make_jpeg(64, 48, TJSAMP_420, 0, &n);
	uint8_t *ext = malloc(n), *dst = malloc(128 * 48 * 3 / 2);
	struct dvpp_pic_layout l;
	unsigned int i;

	sof = sof_offset(jpg, n);
	ASSERT_LT(0, sof);
	for (i = 0; i < N(c); i++) {
		uint8_t *bad = malloc(n);

		memcpy(bad, jpg, n);
		bad[sof + 1] = c[i].sof;
		bad[sof + 4] = c[i].precision;
		ASSERT_EQ(0, dvpp_jpeg_info(bad, n, &in, NULL, 0));
		EXPECT_FALSE(in.baseline);
		expect_unsupported(_metadata, bad, n, c[i].word);
		free(bad);
	}
	/* SOF1 at 8 bits is the same Huffman coding: decoded */
	memcpy(ext, jpg, n);
	ext[sof + 1] = 0xc1;
	ASSERT_EQ(0, dvpp_jpeg_info(ext, n, &in, NULL, 0));
	EXPECT_TRUE(in.baseline);
	EXPECT_EQ(0, dvpp_jpeg_decode(ext, n, DVPP_FMT_NV12, 0, dst,
				      128 * 48 * 3 / 2, &l, NULL, 0));
	free(ext);
	free(dst);
	free(jpg);
}

TEST(rgb_cmyk_and_411_are_refused)
{
	unsigned char *jpeg = NULL;
	unsigned long jn = 0;
	uint8_t *cmyk = make_rgb(64, 48, 4);
	tjhandle tj = tjInitCompress();
	/* An Adobe APP14 segment with transform 0: the components are RGB */
	static const uint8_t adobe[] = { 0xff, 0xee, 0, 14, 'A', 'd', 'o', 'b',
					 'e', 0, 100, 0, 0, 0, 0, 0 };
	size_t n;
	uint8_t *jpg = make_jpeg(64, 48, TJSAMP_444, 0, &n);
	uint8_t *rgb = malloc(n + sizeof(adobe));

	size_t app0;

	/* in place of the JFIF segment (which would say YCbCr) */
	ASSERT_EQ(0xe0, jpg[3]);
	app0 = 2 + ((size_t)jpg[4] << 8 | jpg[5]);
	memcpy(rgb, jpg, 2);
	memcpy(rgb + 2, adobe, sizeof(adobe));
	memcpy(rgb + 2 + sizeof(adobe), jpg + 2 + app0, n - 2 - app0);
	expect_unsupported(_metadata, rgb, n + sizeof(adobe) - app0, "RGB");
	free(rgb);
	free(jpg);

	ASSERT_EQ(0, tjCompress2(tj, cmyk, 64, 0, 48, TJPF_CMYK, &jpeg, &jn,
				 TJSAMP_444, 90, 0));
	expect_unsupported(_metadata, jpeg, jn, "sampling");
	tjFree(jpeg);
	tjDestroy(tj);
	free(cmyk);

	jpg = make_jpeg(64, 48, TJSAMP_411, 0, &n);
	expect_unsupported(_metadata, jpg, n, "sampling");
	free(jpg);
}

TEST(decode_rejects_bad_buffers_and_damaged_data)
{
	size_t n;
	uint8_t *jpg = make_jpeg(64, 48, TJSAMP_420, 0, &n);
	uint32_t need = 128 * 48 * 3 / 2;
	uint8_t *dst = malloc(need), *bad = malloc(n);
	struct dvpp_pic_layout l;
	char why[256] = "";
	size_t i;

	EXPECT_EQ(-ENOSPC, dvpp_jpeg_decode(jpg, n, DVPP_FMT_NV12, 0, dst,
					    need - 1, &l, why, sizeof(why)));
	EXPECT_EQ(-EINVAL, dvpp_jpeg_decode(jpg, n, DVPP_FMT_NV12, 0, NULL,
					    need, &l, why, sizeof(why)));
	EXPECT_EQ(-EINVAL, dvpp_jpeg_decode(jpg, n, DVPP_FMT_NV12, 0, dst,
					    need, NULL, why, sizeof(why)));
	EXPECT_EQ(-EINVAL, dvpp_jpeg_decode(jpg, n, DVPP_FMT_YVU_SP_444, 0, dst,
					    need, &l, why, sizeof(why)));
	/* truncated in the scan: libjpeg-turbo's warning is a failure */
	why[0] = 0;
	EXPECT_EQ(-EBADMSG, dvpp_jpeg_decode(jpg, n * 2 / 3, DVPP_FMT_NV12, 0,
					     dst, need, &l, why, sizeof(why)));
	EXPECT_NE(0, why[0]);
	/* a scan header that names no Huffman table */
	memcpy(bad, jpg, n);
	for (i = 2; i + 1 < n; i++)
		if (bad[i] == 0xff && bad[i + 1] == 0xda)
			break;
	ASSERT_LT(i, n);
	bad[i + 6] = 0x33;	/* component 1's tables: DC 3, AC 3 */
	EXPECT_EQ(-EBADMSG, dvpp_jpeg_decode(bad, n, DVPP_FMT_NV12, 0, dst, need,
					     &l, why, sizeof(why)));
	free(bad);
	free(dst);
	free(jpg);
}

/* NV12 of a synthetic picture: ws x hs, chroma after ws * hs. */
static uint8_t *make_nv12(int w, int h, int ws, int hs, bool vu)
{
	uint8_t *p = calloc((size_t)ws * hs * 3 / 2, 1);
	int x, y;

	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++)
			p[y * ws + x] = (uint8_t)(16 + (x * 200 / w + y * 19 / h));
	for (y = 0; y < h / 2; y++)
		for (x = 0; x < w / 2; x++) {
			uint8_t u = (uint8_t)(128 + 60 * sin(x / 7.0));
			uint8_t v = (uint8_t)(128 + 50 * cos(y / 5.0));

			p[ws * hs + y * ws + 2 * x + vu] = u;
			p[ws * hs + y * ws + 2 * x + !vu] = v;
		}
	return p;
}

static uint8_t *encode(struct __test_metadata *_metadata, const uint8_t *src,
		       size_t src_size, uint32_t fmt, int w, int h, int ws,
		       int hs, uint32_t level, size_t *n)
{
	uint32_t bound;
	uint8_t *out;
	char why[256] = "";

	EXPECT_EQ(0, dvpp_jpeg_predict_enc_size(fmt, w, h, &bound, NULL, 0));
	out = malloc(bound);
	*n = bound;
	EXPECT_EQ(0, dvpp_jpeg_encode(src, src_size, fmt, w, h, ws, hs, level,
				      out, n, why, sizeof(why)))
		TH_LOG("%s", why);
	EXPECT_GE(bound, *n);
	return out;
}

TEST(encode_round_trip_quality)
{
	int w = 320, h = 240, ws = 320, hs = 240;
	uint8_t *nv12 = make_nv12(w, h, ws, hs, false);
	size_t src = (size_t)ws * hs * 3 / 2, n0, n100, n10;
	uint8_t *j0 = encode(_metadata, nv12, src, DVPP_FMT_NV12, w, h, ws, hs, 0, &n0);
	uint8_t *j100 = encode(_metadata, nv12, src, DVPP_FMT_NV12, w, h, ws, hs, 100, &n100);
	uint8_t *j10 = encode(_metadata, nv12, src, DVPP_FMT_NV12, w, h, ws, hs, 10, &n10);
	struct dvpp_jpeg_info in;
	struct tj_planes t;
	double p100, p10;

	/* level 0 encodes as 100 does */
	ASSERT_EQ(n0, n100);
	EXPECT_EQ(0, memcmp(j0, j100, n0));
	ASSERT_EQ(0, dvpp_jpeg_info(j100, n100, &in, NULL, 0));
	EXPECT_TRUE(in.baseline);
	EXPECT_EQ(0xc0, in.sof);
	EXPECT_EQ(DVPP_CSS_420, in.css);
	EXPECT_EQ(320, in.width);
	EXPECT_EQ(240, in.height);

	ASSERT_EQ(0, tj_decode_planes(j100, n100, &t));
	p100 = psnr(t.p[0], t.w[0], nv12, ws, w, h);
	free(t.buf);
	ASSERT_EQ(0, tj_decode_planes(j10, n10, &t));
	p10 = psnr(t.p[0], t.w[0], nv12, ws, w, h);
	free(t.buf);
	TH_LOG("luma PSNR: level 100 %.1f dB (%zu bytes), level 10 %.1f dB (%zu bytes)",
	       p100, n100, p10, n10);
	EXPECT_LT(45.0, p100);
	EXPECT_LT(25.0, p10);
	EXPECT_LT(p10 + 8, p100);
	EXPECT_LT(n10 * 2, n100);
	free(j0);
	free(j100);
	free(j10);
	free(nv12);
}

/* The six input layouts of one picture give one JPEG per sampling. */
TEST(encode_input_layouts_agree)
{
	static const uint32_t packed[] = { DVPP_FMT_YUYV_422, DVPP_FMT_UYVY_422,
					   DVPP_FMT_YVYU_422, DVPP_FMT_VYUY_422 };
	/* where Y0, U, Y1, V go in each 4 bytes, per packed format */
	static const int pos[4][4] = { { 0, 1, 2, 3 }, { 1, 0, 3, 2 },
				       { 0, 3, 2, 1 }, { 1, 2, 3, 0 } };
	int w = 64, h = 48, ws = 128, hs = 64, x, y;
	uint8_t *nv12 = make_nv12(w, h, ws, hs, false);
	uint8_t *nv21 = make_nv12(w, h, ws, hs, true);
	size_t src = (size_t)ws * hs * 3 / 2, a, b, first = 0;
	uint8_t *ja = encode(_metadata, nv12, src, DVPP_FMT_NV12, w, h, ws, hs, 80, &a);
	uint8_t *jb = encode(_metadata, nv21, src, DVPP_FMT_NV21, w, h, ws, hs, 80, &b);
	uint8_t *jfirst = NULL;
	unsigned int f;

	ASSERT_EQ(a, b);
	EXPECT_EQ(0, memcmp(ja, jb, a));
	for (f = 0; f < N(packed); f++) {
		int pws = 2 * w;
		uint8_t *p = calloc((size_t)pws * h, 1);
		struct dvpp_jpeg_info in;
		struct tj_planes t;
		size_t n;
		uint8_t *j;

		for (y = 0; y < h; y++)
			for (x = 0; x < w / 2; x++) {
				uint8_t *q = p + y * pws + 4 * x;

				q[pos[f][0]] = nv12[y * ws + 2 * x];
				q[pos[f][1]] = (uint8_t)(x * 3 + y);
				q[pos[f][2]] = nv12[y * ws + 2 * x + 1];
				q[pos[f][3]] = (uint8_t)(200 - x - y);
			}
		j = encode(_metadata, p, (size_t)pws * h, packed[f], w, h, pws, h, 80, &n);
		ASSERT_EQ(0, dvpp_jpeg_info(j, n, &in, NULL, 0));
		EXPECT_EQ(DVPP_CSS_422, in.css);
		ASSERT_EQ(0, tj_decode_planes(j, n, &t));
		EXPECT_LT(40.0, psnr(t.p[0], t.w[0], nv12, ws, w, h));
		free(t.buf);
		if (!jfirst) {
			jfirst = j;
			first = n;
		} else {
			ASSERT_EQ(first, n);
			EXPECT_EQ(0, memcmp(jfirst, j, n)) TH_LOG("format %u", packed[f]);
			free(j);
		}
		free(p);
	}
	free(jfirst);
	free(ja);
	free(jb);
	free(nv12);
	free(nv21);
}

TEST(encode_rejects_what_cann_refuses)
{
	static const struct {
		uint32_t fmt, w, h, ws, hs, level;
		size_t src;
		int ret;
	} c[] = {
		{ DVPP_FMT_NV12, 64, 48, 64, 48, 0, 64 * 48 * 3 / 2, 0 },
		{ DVPP_FMT_NV12, 63, 48, 64, 48, 0, 64 * 48 * 3 / 2, -EINVAL },
		{ DVPP_FMT_NV21, 64, 47, 64, 48, 0, 64 * 48 * 3 / 2, -EINVAL },
		{ DVPP_FMT_NV12, 64, 48, 72, 48, 0, 72 * 48 * 3 / 2, -EINVAL },
		{ DVPP_FMT_NV12, 64, 48, 48, 48, 0, 64 * 48 * 3 / 2, -EINVAL },
		{ DVPP_FMT_NV12, 64, 48, 64, 46, 0, 64 * 48 * 3 / 2, -EINVAL },
		{ DVPP_FMT_NV12, 64, 48, 64, 49, 0, 64 * 50 * 3 / 2, -EINVAL },
		{ DVPP_FMT_NV12, 64, 48, 64, 48, 0, 64 * 48 * 3 / 2 - 1, -EINVAL },
		{ DVPP_FMT_NV12, 64, 48, 64, 48, 101, 64 * 48 * 3 / 2, -EINVAL },
		{ DVPP_FMT_NV12, 30, 48, 32, 48, 0, 32 * 48 * 3 / 2, -ERANGE },
		{ DVPP_FMT_NV12, 64, 8194, 64, 8194, 0, 64 * 8194 * 3 / 2, -ERANGE },
		{ DVPP_FMT_YUYV_422, 64, 47, 128, 47, 0, 128 * 47, 0 },
		{ DVPP_FMT_UYVY_422, 63, 48, 128, 48, 0, 128 * 48, -EINVAL },
		{ DVPP_FMT_YVYU_422, 64, 48, 112, 48, 0, 128 * 48, -EINVAL },
		{ DVPP_FMT_VYUY_422, 64, 48, 136, 48, 0, 136 * 48, -EINVAL },
		{ DVPP_FMT_YUYV_422, 64, 48, 128, 48, 0, 128 * 48 - 1, -EINVAL },
		{ DVPP_FMT_RGB_888, 64, 48, 192, 48, 0, 192 * 48, -EINVAL },
		{ DVPP_FMT_YUV_400, 64, 48, 64, 48, 0, 64 * 48, -EINVAL },
	};
	static uint8_t src[136 * 8194 * 3 / 2], out[64 * 1024];
	unsigned int i;
	size_t n;

	for (i = 0; i < N(c); i++) {
		char why[256] = "";
		int ret;

		n = sizeof(out);
		ret = dvpp_jpeg_encode(src, c[i].src, c[i].fmt, c[i].w, c[i].h,
					   c[i].ws, c[i].hs, c[i].level, out, &n,
					   why, sizeof(why));

		EXPECT_EQ(c[i].ret, ret) TH_LOG("case %u: %s", i, why);
		if (c[i].ret)
			EXPECT_NE(0, why[0]) TH_LOG("case %u has no reason", i);
	}
	n = sizeof(out);
	EXPECT_EQ(-EINVAL, dvpp_jpeg_encode(NULL, 64 * 48 * 3 / 2, DVPP_FMT_NV12,
					    64, 48, 64, 48, 0, out, &n, NULL, 0));
	EXPECT_EQ(-EINVAL, dvpp_jpeg_encode(src, 64 * 48 * 3 / 2, DVPP_FMT_NV12,
					    64, 48, 64, 48, 0, NULL, &n, NULL, 0));
	EXPECT_EQ(-EINVAL, dvpp_jpeg_encode(src, 64 * 48 * 3 / 2, DVPP_FMT_NV12,
					    64, 48, 64, 48, 0, out, NULL, NULL, 0));
}

TEST(encode_output_too_small_reports_the_size_needed)
{
	int w = 64, h = 48;
	uint8_t *nv12 = make_nv12(w, h, w, h, false);
	size_t src = (size_t)w * h * 3 / 2, n, need;
	uint8_t *j = encode(_metadata, nv12, src, DVPP_FMT_NV12, w, h, w, h, 90, &n);
	uint8_t *out = malloc(n);
	char why[256] = "";

	need = n - 1;
	EXPECT_EQ(-ENOSPC, dvpp_jpeg_encode(nv12, src, DVPP_FMT_NV12, w, h, w, h,
					    90, out, &need, why, sizeof(why)));
	EXPECT_EQ(n, need);
	EXPECT_NE(0, why[0]);
	/* exactly the size fits */
	EXPECT_EQ(0, dvpp_jpeg_encode(nv12, src, DVPP_FMT_NV12, w, h, w, h, 90,
				      out, &need, NULL, 0));
	EXPECT_EQ(n, need);
	EXPECT_EQ(0, memcmp(out, j, n));
	free(out);
	free(j);
	free(nv12);
}

TEST(predict_enc_size)
{
	uint32_t s420, s422;

	ASSERT_EQ(0, dvpp_jpeg_predict_enc_size(DVPP_FMT_NV12, 1920, 1080, &s420, NULL, 0));
	EXPECT_EQ(tjBufSize(1920, 1080, TJSAMP_420), s420);
	ASSERT_EQ(0, dvpp_jpeg_predict_enc_size(DVPP_FMT_UYVY_422, 1920, 1080, &s422, NULL, 0));
	EXPECT_EQ(tjBufSize(1920, 1080, TJSAMP_422), s422);
	EXPECT_EQ(-EINVAL, dvpp_jpeg_predict_enc_size(DVPP_FMT_NV12, 1920, 1080, NULL, NULL, 0));
	EXPECT_EQ(-EINVAL, dvpp_jpeg_predict_enc_size(DVPP_FMT_RGB_888, 1920, 1080, &s420, NULL, 0));
	EXPECT_EQ(-ERANGE, dvpp_jpeg_predict_enc_size(DVPP_FMT_NV12, 16, 16, &s420, NULL, 0));
	EXPECT_EQ(-EINVAL, dvpp_jpeg_predict_enc_size(DVPP_FMT_NV12, 64, 33, &s420, NULL, 0));
}

TEST_HARNESS_MAIN
