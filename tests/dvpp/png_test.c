// SPDX-License-Identifier: MIT
/*
 * PNGD of the codec layer (lib/dvpp/codec_png.c) on PNGs written here
 * with libpng: every colour type, bit depths 1 to 16, palettes with and
 * without tRNS, Adam7 interlacing. The decode must give, pixel for
 * pixel, the source's samples as PNGD's RGB888/RGBA8888 (palette looked
 * up, gray repeated, 16-bit samples' high byte, low depths scaled to 8
 * bits, tRNS as alpha), padding bytes 0; damaged files are -EBADMSG.
 */
#include <png.h>
#include <zlib.h>

#include "kselftest_harness.h"
#include "codec_test_util.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

struct mem {
	uint8_t *p;
	size_t n, cap;
};

static void mem_write(png_structp png, png_bytep data, size_t len)
{
	struct mem *m = png_get_io_ptr(png);

	if (m->n + len > m->cap) {
		m->cap = (m->n + len) * 2;
		m->p = realloc(m->p, m->cap);
	}
	memcpy(m->p + m->n, data, len);
	m->n += len;
}

static void mem_flush(png_structp png)
{
}

struct spec {
	int w, h, color, depth;
	bool interlace;
	int ntrns;			/* palette: entries with alpha; else 1: tRNS */
};

/* A picture's samples (one int per channel, PNG order) and its file. */
struct pic {
	struct spec s;
	int ch;				/* channels in the file */
	int *v;				/* w * h * ch samples */
	png_color pal[256];
	uint8_t trns_alpha[256];
	png_color_16 trns;		/* gray or RGB tRNS */
	uint8_t *png;
	size_t size;
};

static int channels(int color)
{
	switch (color) {
	case PNG_COLOR_TYPE_GRAY: case PNG_COLOR_TYPE_PALETTE: return 1;
	case PNG_COLOR_TYPE_GRAY_ALPHA: return 2;
	case PNG_COLOR_TYPE_RGB: return 3;
	default: return 4;
	}
}

static void make_png(struct pic *p, struct spec s)
{
	int max = (1 << s.depth) - 1, x, y, c, i, passes;
	size_t rowbytes;
	struct mem m = { 0 };
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL,
						  NULL, NULL);
	png_infop info = png_create_info_struct(png);
	uint8_t *row;

	memset(p, 0, sizeof(*p));
	p->s = s;
	p->ch = channels(s.color);
	p->v = malloc(sizeof(int) * s.w * s.h * p->ch);
	for (i = 0; i < 256; i++) {
		p->pal[i] = (png_color){ (uint8_t)(i * 7), (uint8_t)(255 - i),
					 (uint8_t)(i * 13 + 5) };
		p->trns_alpha[i] = (uint8_t)(i * 29 + 3);
	}
	for (y = 0; y < s.h; y++)
		for (x = 0; x < s.w; x++)
			for (c = 0; c < p->ch; c++)
				p->v[(y * s.w + x) * p->ch + c] =
					(int)((x * 977 + y * 131 + c * 4099 +
					       rnd() % 3) % (max + 1));
	if (s.ntrns && s.color != PNG_COLOR_TYPE_PALETTE) {
		/* a colour that occurs: pixel (1, 1)'s */
		const int *t = p->v + (s.w + 1) * p->ch;

		p->trns.gray = (png_uint_16)t[0];
		p->trns.red = (png_uint_16)t[0];
		p->trns.green = (png_uint_16)t[p->ch > 1];
		p->trns.blue = (png_uint_16)t[p->ch > 2 ? 2 : 0];
	}
	png_set_write_fn(png, &m, mem_write, mem_flush);
	png_set_IHDR(png, info, s.w, s.h, s.depth, s.color,
		     s.interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	if (s.color == PNG_COLOR_TYPE_PALETTE) {
		png_set_PLTE(png, info, p->pal, max + 1);
		if (s.ntrns)
			png_set_tRNS(png, info, p->trns_alpha, s.ntrns, NULL);
	} else if (s.ntrns) {
		png_set_tRNS(png, info, NULL, 0, &p->trns);
	}
	png_write_info(png, info);
	passes = png_set_interlace_handling(png);	/* 7 when interlaced */
	rowbytes = ((size_t)s.w * p->ch * s.depth + 7) / 8;
	row = malloc(rowbytes);
	for (i = 0; i < passes; i++)
		for (y = 0; y < s.h; y++) {
			memset(row, 0, rowbytes);
			for (x = 0; x < s.w * p->ch; x++) {
				int v = p->v[y * s.w * p->ch + x];

				if (s.depth == 16) {
					row[2 * x] = (uint8_t)(v >> 8);
					row[2 * x + 1] = (uint8_t)v;
				} else {
					int bit = x * s.depth;

					row[bit / 8] |= (uint8_t)(v << (8 - s.depth - bit % 8));
				}
			}
			png_write_row(png, row);
		}
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	free(row);
	p->png = m.p;
	p->size = m.n;
}

/* What PNGD gives for pixel (x, y): RGBA. */
static void expect_px(const struct pic *p, int x, int y, uint8_t o[4])
{
	const int *v = p->v + (y * p->s.w + x) * p->ch;
	int d = p->s.depth, c;
	int to8[4];

	for (c = 0; c < p->ch; c++)
		to8[c] = d == 16 ? v[c] >> 8 : v[c] * 255 / ((1 << d) - 1);
	o[3] = 255;
	switch (p->s.color) {
	case PNG_COLOR_TYPE_PALETTE:
		o[0] = p->pal[v[0]].red;
		o[1] = p->pal[v[0]].green;
		o[2] = p->pal[v[0]].blue;
		if (v[0] < p->s.ntrns)
			o[3] = p->trns_alpha[v[0]];
		return;
	case PNG_COLOR_TYPE_GRAY:
	case PNG_COLOR_TYPE_GRAY_ALPHA:
		o[0] = o[1] = o[2] = (uint8_t)to8[0];
		if (p->ch == 2)
			o[3] = (uint8_t)to8[1];
		else if (p->s.ntrns && v[0] == p->trns.gray)
			o[3] = 0;
		return;
	default:
		for (c = 0; c < 3; c++)
			o[c] = (uint8_t)to8[c];
		if (p->ch == 4)
			o[3] = (uint8_t)to8[3];
		else if (p->s.ntrns && v[0] == p->trns.red &&
			 v[1] == p->trns.green && v[2] == p->trns.blue)
			o[3] = 0;
	}
}

static void check_decode(struct __test_metadata *_metadata, const struct pic *p,
			 uint32_t fmt, uint32_t want_fmt)
{
	struct dvpp_pic_layout l, got;
	struct dvpp_png_info in;
	uint8_t *dst, *e;
	int bpp, x, y;
	char why[256] = "";

	ASSERT_EQ(0, dvpp_png_info(p->png, p->size, &in, NULL, 0));
	ASSERT_EQ(0, dvpp_png_out_layout(in.width, in.height, in.alpha, fmt, &l,
					 why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(want_fmt, l.format);
	bpp = l.format == DVPP_FMT_RGB_888 ? 3 : 4;
	dst = malloc(l.size);
	e = calloc(l.size, 1);
	memset(dst, 0xa5, l.size);
	ASSERT_EQ(0, dvpp_png_decode(p->png, p->size, fmt, dst, l.size, &got,
				     why, sizeof(why))) TH_LOG("%s", why);
	EXPECT_EQ(0, memcmp(&l, &got, sizeof(l)));
	for (y = 0; y < p->s.h; y++)
		for (x = 0; x < p->s.w; x++) {
			uint8_t px[4];

			expect_px(p, x, y, px);
			memcpy(e + (size_t)y * l.width_stride + x * bpp, px, bpp);
		}
	EXPECT_EQ(0, memcmp(e, dst, l.size))
		TH_LOG("color type %d, depth %d, %s, format %u", p->s.color,
		       p->s.depth, p->s.interlace ? "interlaced" : "progressive",
		       l.format);
	free(dst);
	free(e);
}

static const struct {
	struct spec s;
	int comps;
} cases[] = {
	{ { 33, 35, PNG_COLOR_TYPE_RGB, 8, false, 0 }, 3 },
	{ { 47, 32, PNG_COLOR_TYPE_RGB_ALPHA, 8, false, 0 }, 4 },
	{ { 40, 33, PNG_COLOR_TYPE_GRAY, 8, false, 0 }, 1 },
	{ { 33, 40, PNG_COLOR_TYPE_GRAY_ALPHA, 8, false, 0 }, 2 },
	{ { 64, 48, PNG_COLOR_TYPE_PALETTE, 8, false, 0 }, 3 },
	{ { 35, 33, PNG_COLOR_TYPE_PALETTE, 4, false, 9 }, 4 },
	{ { 39, 37, PNG_COLOR_TYPE_PALETTE, 2, true, 0 }, 3 },
	{ { 33, 34, PNG_COLOR_TYPE_RGB, 16, false, 0 }, 3 },
	{ { 34, 33, PNG_COLOR_TYPE_RGB_ALPHA, 16, false, 0 }, 4 },
	{ { 50, 33, PNG_COLOR_TYPE_GRAY, 16, true, 0 }, 1 },
	{ { 37, 41, PNG_COLOR_TYPE_GRAY, 1, false, 0 }, 1 },
	{ { 41, 37, PNG_COLOR_TYPE_GRAY, 4, true, 0 }, 1 },
	{ { 37, 41, PNG_COLOR_TYPE_RGB, 8, true, 0 }, 3 },
	{ { 33, 33, PNG_COLOR_TYPE_GRAY, 8, false, 1 }, 2 },
	{ { 36, 33, PNG_COLOR_TYPE_RGB, 8, false, 1 }, 4 },
	{ { 130, 97, PNG_COLOR_TYPE_RGB_ALPHA, 8, true, 0 }, 4 },
};

TEST(info_values)
{
	struct dvpp_png_info in;
	unsigned int i;
	struct pic p;

	for (i = 0; i < N(cases); i++) {
		make_png(&p, cases[i].s);
		ASSERT_EQ(0, dvpp_png_info(p.png, p.size, &in, NULL, 0));
		EXPECT_EQ(cases[i].s.w, in.width);
		EXPECT_EQ(cases[i].s.h, in.height);
		EXPECT_EQ(cases[i].comps, in.components) TH_LOG("case %u", i);
		EXPECT_EQ(cases[i].comps % 2 == 0, in.alpha);
		EXPECT_EQ(cases[i].s.depth, in.bit_depth);
		EXPECT_EQ(cases[i].s.color, in.color_type);
		EXPECT_EQ(cases[i].s.interlace, in.interlaced);
		free(p.png);
		free(p.v);
	}
}

TEST(decode_gives_the_source_samples)
{
	unsigned int i;
	struct pic p;

	for (i = 0; i < N(cases); i++) {
		bool alpha = cases[i].comps % 2 == 0;

		make_png(&p, cases[i].s);
		check_decode(_metadata, &p, DVPP_FMT_UNKNOWN,
			     alpha ? DVPP_FMT_RGBA_8888 : DVPP_FMT_RGB_888);
		check_decode(_metadata, &p, DVPP_FMT_RGB_888, DVPP_FMT_RGB_888);
		if (alpha)
			check_decode(_metadata, &p, DVPP_FMT_RGBA_8888,
				     DVPP_FMT_RGBA_8888);
		free(p.png);
		free(p.v);
	}
}

TEST(layout_numbers)
{
	static const struct {
		uint32_t w, h;
		bool alpha;
		uint32_t fmt;
		int ret;
		uint32_t ofmt, ws, hs, size;
	} c[] = {
		{ 33, 35, false, DVPP_FMT_UNKNOWN, 0, 12, 128 * 3, 48, 128 * 3 * 48 },
		{ 33, 35, true, DVPP_FMT_UNKNOWN, 0, 16, 128 * 4, 48, 128 * 4 * 48 },
		{ 33, 35, true, DVPP_FMT_RGB_888, 0, 12, 128 * 3, 48, 128 * 3 * 48 },
		{ 129, 32, false, DVPP_FMT_RGB_888, 0, 12, 256 * 3, 32, 256 * 3 * 32 },
		{ 4096, 4096, true, DVPP_FMT_RGBA_8888, 0, 16, 16384, 4096, 16384u * 4096 },
		{ 32, 32, false, DVPP_FMT_RGBA_8888, -EINVAL, 0, 0, 0, 0 },
		{ 32, 32, true, DVPP_FMT_NV12, -EINVAL, 0, 0, 0, 0 },
		{ 32, 32, true, 13 /* BGR_888 */, -EINVAL, 0, 0, 0, 0 },
		{ 31, 32, false, DVPP_FMT_RGB_888, -ERANGE, 0, 0, 0, 0 },
		{ 32, 4097, false, DVPP_FMT_RGB_888, -ERANGE, 0, 0, 0, 0 },
	};
	struct dvpp_pic_layout l;
	unsigned int i;

	for (i = 0; i < N(c); i++) {
		char why[256] = "";
		int ret = dvpp_png_out_layout(c[i].w, c[i].h, c[i].alpha, c[i].fmt,
					      &l, why, sizeof(why));

		EXPECT_EQ(c[i].ret, ret) TH_LOG("case %u: %s", i, why);
		if (c[i].ret) {
			EXPECT_NE(0, why[0]);
			continue;
		}
		EXPECT_EQ(c[i].ofmt, l.format) TH_LOG("case %u", i);
		EXPECT_EQ(c[i].w, l.width);
		EXPECT_EQ(c[i].h, l.height);
		EXPECT_EQ(c[i].ws, l.width_stride) TH_LOG("case %u", i);
		EXPECT_EQ(c[i].hs, l.height_stride) TH_LOG("case %u", i);
		EXPECT_EQ(c[i].size, l.size) TH_LOG("case %u", i);
	}
	EXPECT_EQ(-EINVAL, dvpp_png_out_layout(32, 32, false, DVPP_FMT_RGB_888,
					       NULL, NULL, 0));
}

/* The offset of a chunk's type in a PNG, 0 if absent. */
static size_t chunk(const struct pic *p, const char *type)
{
	size_t off = 8;

	while (off + 8 <= p->size) {
		uint32_t len = (uint32_t)p->png[off] << 24 | p->png[off + 1] << 16 |
			       p->png[off + 2] << 8 | p->png[off + 3];

		if (!memcmp(p->png + off + 4, type, 4))
			return off + 4;
		off += 12 + len;
	}
	return 0;
}

static int decode(const uint8_t *png, size_t size, char *why, size_t len)
{
	static uint8_t dst[512 * 64];
	struct dvpp_pic_layout l;

	return dvpp_png_decode(png, size, DVPP_FMT_RGB_888, dst, sizeof(dst), &l,
			       why, len);
}

TEST(damaged_files_are_bad_messages)
{
	struct pic p;
	struct dvpp_png_info in;
	uint8_t *bad;
	size_t idat, len;
	uint32_t crc;
	char why[256] = "";

	make_png(&p, (struct spec){ 64, 48, PNG_COLOR_TYPE_RGB, 8, false, 0 });
	bad = malloc(p.size);
	ASSERT_EQ(0, decode(p.png, p.size, why, sizeof(why))) TH_LOG("%s", why);
	/* not a PNG */
	memcpy(bad, p.png, p.size);
	bad[1] = 'X';
	EXPECT_EQ(-EBADMSG, dvpp_png_info(bad, p.size, &in, why, sizeof(why)));
	EXPECT_EQ(-EBADMSG, decode(bad, p.size, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "signature"));
	EXPECT_EQ(-EBADMSG, dvpp_png_info(p.png, 7, &in, NULL, 0));
	/* the header's CRC */
	memcpy(bad, p.png, p.size);
	bad[8 + 4 + 4 + 2] ^= 1;
	why[0] = 0;
	EXPECT_EQ(-EBADMSG, dvpp_png_info(bad, p.size, &in, why, sizeof(why)));
	EXPECT_NE(0, why[0]);
	/* truncated: inside the header, inside the image data */
	EXPECT_EQ(-EBADMSG, dvpp_png_info(p.png, 20, &in, NULL, 0));
	idat = chunk(&p, "IDAT");
	ASSERT_LT(0, idat);
	EXPECT_EQ(-EBADMSG, decode(p.png, idat + 30, why, sizeof(why)));
	EXPECT_EQ(-EBADMSG, decode(p.png, p.size - 20, why, sizeof(why)));
	/* a flipped byte in the image data: the CRC, then, the CRC fixed,
	 * zlib */
	len = (size_t)p.png[idat - 4] << 24 | p.png[idat - 3] << 16 |
	      p.png[idat - 2] << 8 | p.png[idat - 1];
	memcpy(bad, p.png, p.size);
	bad[idat + 4 + 1] ^= 0x55;
	EXPECT_EQ(-EBADMSG, decode(bad, p.size, why, sizeof(why)));
	crc = (uint32_t)crc32(0, bad + idat, (uInt)(len + 4));
	bad[idat + 4 + len] = (uint8_t)(crc >> 24);
	bad[idat + 4 + len + 1] = (uint8_t)(crc >> 16);
	bad[idat + 4 + len + 2] = (uint8_t)(crc >> 8);
	bad[idat + 4 + len + 3] = (uint8_t)crc;
	why[0] = 0;
	EXPECT_EQ(-EBADMSG, decode(bad, p.size, why, sizeof(why)));
	EXPECT_NE(0, why[0]);
	free(bad);
	free(p.png);
	free(p.v);
}

TEST(bad_arguments_sizes_and_buffers)
{
	struct pic p, big, small;
	struct dvpp_png_info in;
	struct dvpp_pic_layout l;
	uint8_t *dst = malloc(128 * 3 * 48);

	make_png(&p, (struct spec){ 33, 35, PNG_COLOR_TYPE_RGB, 8, false, 0 });
	EXPECT_EQ(-EINVAL, dvpp_png_info(NULL, p.size, &in, NULL, 0));
	EXPECT_EQ(-EINVAL, dvpp_png_info(p.png, p.size, NULL, NULL, 0));
	EXPECT_EQ(-EINVAL, dvpp_png_decode(NULL, p.size, DVPP_FMT_RGB_888, dst,
					   128 * 3 * 48, &l, NULL, 0));
	EXPECT_EQ(-EINVAL, dvpp_png_decode(p.png, p.size, DVPP_FMT_RGB_888, NULL,
					   128 * 3 * 48, &l, NULL, 0));
	EXPECT_EQ(-EINVAL, dvpp_png_decode(p.png, p.size, DVPP_FMT_RGB_888, dst,
					   128 * 3 * 48, NULL, NULL, 0));
	EXPECT_EQ(-ENOSPC, dvpp_png_decode(p.png, p.size, DVPP_FMT_RGB_888, dst,
					   128 * 3 * 48 - 1, &l, NULL, 0));
	EXPECT_EQ(-EINVAL, dvpp_png_decode(p.png, p.size, DVPP_FMT_RGBA_8888, dst,
					   128 * 3 * 48, &l, NULL, 0));
	EXPECT_EQ(0, dvpp_png_decode(p.png, p.size, DVPP_FMT_RGB_888, dst,
				     128 * 3 * 48, &l, NULL, 0));
	/* outside 32x32 .. 4096x4096: info reads it, the decode refuses */
	make_png(&small, (struct spec){ 31, 40, PNG_COLOR_TYPE_GRAY, 8, false, 0 });
	EXPECT_EQ(0, dvpp_png_info(small.png, small.size, &in, NULL, 0));
	EXPECT_EQ(-ERANGE, dvpp_png_decode(small.png, small.size, DVPP_FMT_RGB_888,
					   dst, 128 * 3 * 48, &l, NULL, 0));
	make_png(&big, (struct spec){ 4100, 32, PNG_COLOR_TYPE_GRAY, 1, false, 0 });
	EXPECT_EQ(0, dvpp_png_info(big.png, big.size, &in, NULL, 0));
	EXPECT_EQ(4100, in.width);
	EXPECT_EQ(-ERANGE, dvpp_png_decode(big.png, big.size, DVPP_FMT_RGB_888,
					   dst, 128 * 3 * 48, &l, NULL, 0));
	free(dst);
	free(p.png);
	free(p.v);
	free(small.png);
	free(small.v);
	free(big.png);
	free(big.v);
}

TEST_HARNESS_MAIN
