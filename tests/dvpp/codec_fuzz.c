// SPDX-License-Identifier: MIT
/*
 * Fuzz test of the codec layer, built with ASan and UBSan: valid JPEGs
 * and PNGs made here and the H.264/H.265 clips of make-media.sh, mutated
 * (bit flips, bytes overwritten, runs of garbage, truncation, insertion,
 * deletion, a chunk repeated; PNG chunks' CRCs recomputed half the time
 * so that zlib and the filters are reached), then fed to every info and
 * decode function. Each call must return 0 or one of its documented
 * errors with a reason, decode only inside the buffer its layout sized
 * (allocated to the byte, so that ASan sees one byte too far), and leave
 * nothing behind (LSan runs at the end of every test).
 *
 * Fixed seed and bounded iterations (about 5 s in all on the build
 * machine); VNPU_CODEC_FUZZ_SEED and VNPU_CODEC_FUZZ_ITERS (a multiplier
 * of the iterations, default 1) change them.
 */
#include <png.h>
#include <sanitizer/lsan_interface.h>
#include <zlib.h>

#include "kselftest_harness.h"
#include "codec_test_util.h"

/* Each test gets 90 s: well above its run time on a busy machine. */
FIXTURE(fuzz) {
	int unused;
};

FIXTURE_SETUP(fuzz)
{
}

FIXTURE_TEARDOWN(fuzz)
{
}

static unsigned int iters(unsigned int n)
{
	const char *m = getenv("VNPU_CODEC_FUZZ_ITERS");
	const char *s = getenv("VNPU_CODEC_FUZZ_SEED");

	test_rng = s ? strtoull(s, NULL, 0) : 0x5eed0fc0dec5ull;
	if (!test_rng)
		test_rng = 1;
	printf("# seed 0x%llx\n", (unsigned long long)test_rng);
	return n * (m ? (unsigned int)atoi(m) : 1);
}

/* One mutation of p (capacity cap, size *n, cap >= *n + 64). */
static void mutate(uint8_t *p, size_t *n, size_t cap)
{
	size_t len = *n, off = len ? rnd() % len : 0, k, run;

	switch (rnd() % 8) {
	case 0:
	case 1:		/* flip a bit */
		if (len)
			p[off] ^= (uint8_t)(1u << rnd() % 8);
		break;
	case 2: {	/* a byte becomes a telling value */
		static const uint8_t v[] = { 0, 1, 0x7f, 0x80, 0xfe, 0xff };

		if (len)
			p[off] = v[rnd() % sizeof(v)];
		break;
	}
	case 3:		/* a run of garbage */
		run = 1 + rnd() % 32;
		for (k = off; k < len && k < off + run; k++)
			p[k] = (uint8_t)rnd();
		break;
	case 4:		/* truncate */
		*n = len ? rnd() % len : 0;
		break;
	case 5:		/* insert bytes */
		run = 1 + rnd() % 16;
		if (len + run > cap)
			break;
		memmove(p + off + run, p + off, len - off);
		for (k = 0; k < run; k++)
			p[off + k] = (uint8_t)rnd();
		*n = len + run;
		break;
	case 6:		/* delete bytes */
		run = 1 + rnd() % 16;
		if (off + run > len)
			run = len - off;
		memmove(p + off, p + off + run, len - off - run);
		*n = len - run;
		break;
	default: {	/* repeat a piece somewhere else */
		size_t from = len ? rnd() % len : 0;

		run = 1 + rnd() % 32;
		if (from + run > len || len + run > cap)
			break;
		memmove(p + off + run, p + off, len - off);
		memmove(p + off, p + (from >= off ? from + run : from), run);
		*n = len + run;
		break;
	}
	}
}

struct seed {
	uint8_t *p;
	size_t n;
};

/* A mutated copy of a seed: 1 to 4 mutations, or none 1 time in 16. */
static uint8_t *mutant(const struct seed *s, size_t *n)
{
	size_t cap = s->n + 64 * 8 + 64;
	uint8_t *p = malloc(cap);
	unsigned int k, m = rnd() % 16 ? 1 + rnd() % 4 : 0;

	memcpy(p, s->p, s->n);
	*n = s->n;
	for (k = 0; k < m; k++)
		mutate(p, n, cap);
	/* to the byte: a read past the end is ASan's */
	return realloc(p, *n ? *n : 1);
}

static bool is(int ret, const int *ok, int n)
{
	while (n--)
		if (ret == ok[n])
			return true;
	return false;
}

TEST_F_TIMEOUT(fuzz, jpeg, 90)
{
	static const int jpeg_ok[] = { 0, -EBADMSG, -EOPNOTSUPP, -ERANGE };
	static const uint32_t fmts[] = { DVPP_FMT_UNKNOWN, DVPP_FMT_NV12,
					 DVPP_FMT_NV21 };
	unsigned int i, n = iters(5000), decoded = 0;
	struct seed seeds[6];

	seeds[0].p = make_jpeg(33, 35, TJSAMP_444, 0, &seeds[0].n);
	seeds[1].p = make_jpeg(64, 48, TJSAMP_420, 0, &seeds[1].n);
	seeds[2].p = make_jpeg(40, 33, TJSAMP_GRAY, 0, &seeds[2].n);
	seeds[3].p = make_jpeg(47, 33, TJSAMP_422, 0, &seeds[3].n);
	seeds[4].p = make_jpeg(48, 40, TJSAMP_440, 0, &seeds[4].n);
	seeds[5].p = make_jpeg(64, 48, TJSAMP_420, TJFLAG_PROGRESSIVE, &seeds[5].n);
	for (i = 0; i < n; i++) {
		size_t size;
		uint8_t *p = mutant(&seeds[rnd() % 6], &size), small[64];
		uint32_t fmt = fmts[rnd() % 3], mode = rnd() % 3;
		struct dvpp_jpeg_info in;
		struct dvpp_pic_layout l, got;
		char why[256] = "";
		int ret = dvpp_jpeg_info(p, size, &in, why, sizeof(why));

		ASSERT_TRUE(is(ret, jpeg_ok, 3)) TH_LOG("info: %d", ret);
		ASSERT_TRUE(!ret || why[0]);
		if (!ret && !dvpp_jpeg_out_layout(in.width, in.height, in.css, fmt,
						  mode, &l, NULL, 0)) {
			uint8_t *dst = malloc(l.size);

			why[0] = 0;
			ret = dvpp_jpeg_decode(p, size, fmt, mode, dst, l.size, &got,
					       why, sizeof(why));
			ASSERT_TRUE(is(ret, jpeg_ok, 3)) TH_LOG("decode: %d %s", ret, why);
			ASSERT_TRUE(!ret || why[0]);
			if (!ret) {
				ASSERT_EQ(0, memcmp(&l, &got, sizeof(l)));
				decoded++;
			}
			free(dst);
		} else {
			ret = dvpp_jpeg_decode(p, size, fmt, mode, small,
					       sizeof(small), &got, why, sizeof(why));
			ASSERT_NE(0, ret);
			ASSERT_TRUE(ret == -ENOSPC || ret == -EINVAL ||
				    is(ret, jpeg_ok, 4)) TH_LOG("decode: %d", ret);
		}
		free(p);
	}
	printf("# %u mutants, %u decoded\n", n, decoded);
	EXPECT_LT(n / 20, decoded);
	for (i = 0; i < 6; i++)
		free(seeds[i].p);
	EXPECT_EQ(0, __lsan_do_recoverable_leak_check());
}

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

static struct seed make_png(int w, int h, int color, int depth, bool interlace)
{
	static png_color pal[256];
	static uint8_t trns[16] = { 0, 50, 100, 150 };
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL,
						  NULL, NULL);
	png_infop info = png_create_info_struct(png);
	struct mem m = { 0 };
	size_t row = (size_t)w * 8 * 2;
	uint8_t *r = malloc(row);
	int y, k, passes;

	png_set_write_fn(png, &m, mem_write, mem_flush);
	png_set_IHDR(png, info, w, h, depth, color,
		     interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	if (color == PNG_COLOR_TYPE_PALETTE) {
		png_set_PLTE(png, info, pal, 1 << depth);
		png_set_tRNS(png, info, trns, 4, NULL);
	}
	png_write_info(png, info);
	passes = png_set_interlace_handling(png);
	for (k = 0; k < passes; k++)
		for (y = 0; y < h; y++) {
			size_t x;

			for (x = 0; x < row; x++)
				r[x] = (uint8_t)(x * 7 + y * 3 + (rnd() & 3));
			png_write_row(png, r);
		}
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	free(r);
	return (struct seed){ m.p, m.n };
}

/* Recomputes every whole chunk's CRC, so that damage gets past them. */
static void fix_crcs(uint8_t *p, size_t n)
{
	size_t off = 8;

	while (off + 12 <= n) {
		uint32_t len = (uint32_t)p[off] << 24 | p[off + 1] << 16 |
			       p[off + 2] << 8 | p[off + 3];
		uint32_t crc;

		if (len > n - off - 12)
			return;
		crc = (uint32_t)crc32(0, p + off + 4, len + 4);
		p[off + 8 + len] = (uint8_t)(crc >> 24);
		p[off + 9 + len] = (uint8_t)(crc >> 16);
		p[off + 10 + len] = (uint8_t)(crc >> 8);
		p[off + 11 + len] = (uint8_t)crc;
		off += 12 + len;
	}
}

TEST_F_TIMEOUT(fuzz, png, 90)
{
	static const int png_ok[] = { 0, -EBADMSG, -ERANGE, -EINVAL };
	static const uint32_t fmts[] = { DVPP_FMT_UNKNOWN, DVPP_FMT_RGB_888,
					 DVPP_FMT_RGBA_8888 };
	unsigned int i, n = iters(4000), decoded = 0;
	struct seed seeds[5];

	seeds[0] = make_png(33, 35, PNG_COLOR_TYPE_RGB, 8, true);
	seeds[1] = make_png(40, 32, PNG_COLOR_TYPE_PALETTE, 4, false);
	seeds[2] = make_png(32, 33, PNG_COLOR_TYPE_GRAY_ALPHA, 16, false);
	seeds[3] = make_png(37, 40, PNG_COLOR_TYPE_GRAY, 1, true);
	seeds[4] = make_png(34, 34, PNG_COLOR_TYPE_RGB_ALPHA, 8, false);
	for (i = 0; i < n; i++) {
		size_t size;
		uint8_t *p = mutant(&seeds[rnd() % 5], &size), small[64];
		uint32_t fmt = fmts[rnd() % 3];
		struct dvpp_png_info in;
		struct dvpp_pic_layout l, got;
		char why[256] = "";
		int ret;

		if (rnd() % 2)
			fix_crcs(p, size);
		ret = dvpp_png_info(p, size, &in, why, sizeof(why));
		ASSERT_TRUE(ret == 0 || ret == -EBADMSG) TH_LOG("info: %d", ret);
		ASSERT_TRUE(!ret || why[0]);
		if (!ret && !dvpp_png_out_layout(in.width, in.height, in.alpha, fmt,
						 &l, NULL, 0)) {
			uint8_t *dst = malloc(l.size);

			why[0] = 0;
			ret = dvpp_png_decode(p, size, fmt, dst, l.size, &got, why,
					      sizeof(why));
			ASSERT_TRUE(ret == 0 || ret == -EBADMSG)
				TH_LOG("decode: %d %s", ret, why);
			ASSERT_TRUE(!ret || why[0]);
			if (!ret) {
				ASSERT_EQ(0, memcmp(&l, &got, sizeof(l)));
				decoded++;
			}
			free(dst);
		} else {
			ret = dvpp_png_decode(p, size, fmt, small, sizeof(small), &got,
					      why, sizeof(why));
			ASSERT_NE(0, ret);
			ASSERT_TRUE(ret == -ENOSPC || is(ret, png_ok, 4))
				TH_LOG("decode: %d", ret);
		}
		free(p);
	}
	printf("# %u mutants, %u decoded\n", n, decoded);
	EXPECT_LT(n / 50, decoded);
	for (i = 0; i < 5; i++)
		free(seeds[i].p);
	EXPECT_EQ(0, __lsan_do_recoverable_leak_check());
}

struct seen {
	unsigned int frames;
	uint32_t sum;
};

/* Reads every byte of the frame (ASan checks the buffer's extent). */
static void on_frame(void *user, const struct dvpp_frame *f)
{
	struct seen *s = user;
	size_t k;

	if (f->width_stride < f->width || f->height_stride < f->height ||
	    f->size != (size_t)f->width_stride * f->height_stride * 3 / 2 ||
	    f->width > DVPP_VDEC_MAX || f->height > DVPP_VDEC_MAX)
		abort();
	for (k = 0; k < f->size; k++)
		s->sum += f->data[k];
	s->frames++;
}

static struct seed clip(const char *name)
{
	char path[512];
	struct seed s = { 0 };

	snprintf(path, sizeof(path), "%s/%s.es", DVPP_MEDIA, name);
	s.p = read_file(path, &s.n);
	return s;
}

TEST_F_TIMEOUT(fuzz, video, 90)
{
	static const int ok[] = { 0, -EBADMSG, -EOPNOTSUPP, -ERANGE };
	static const char *const names[] = { "h264_base", "h264_high",
					     "h265_main" };
	unsigned int i, n = iters(400), frames = 0;
	struct seed seeds[3];

	for (i = 0; i < 3; i++) {
		seeds[i] = clip(names[i]);
		ASSERT_NE(NULL, seeds[i].p) TH_LOG("%s: run make", names[i]);
	}
	for (i = 0; i < n; i++) {
		unsigned int which = rnd() % 3;
		size_t size, off = 0;
		uint8_t *p = mutant(&seeds[which], &size);
		struct seen s = { 0 };
		char why[256] = "";
		struct dvpp_video_dec *d =
			dvpp_video_dec_new(which == 2 ? DVPP_STREAM_H265_MAIN :
							DVPP_STREAM_H264_HIGH,
					   rnd() % 2 ? DVPP_FMT_NV12 : DVPP_FMT_NV21,
					   on_frame, &s, why, sizeof(why));
		bool eos_sent = false;

		ASSERT_NE(NULL, d) TH_LOG("%s", why);
		while (off < size) {
			size_t k = 1 + rnd() % 3000;
			int ret;

			if (k > size - off)
				k = size - off;
			why[0] = 0;
			eos_sent = off + k == size && rnd() % 4;
			ret = dvpp_video_dec_send(d, p + off, k, eos_sent, off, NULL,
						  why, sizeof(why));
			ASSERT_TRUE(is(ret, ok, 4)) TH_LOG("send: %d", ret);
			ASSERT_TRUE(!ret || why[0]);
			off += k;
		}
		/* sometimes freed with frames still held */
		dvpp_video_dec_free(d);
		frames += s.frames;
		free(p);
		(void)eos_sent;
	}
	printf("# %u mutants, %u frames\n", n, frames);
	EXPECT_LT(n, frames);
	for (i = 0; i < 3; i++)
		free(seeds[i].p);
	EXPECT_EQ(0, __lsan_do_recoverable_leak_check());
}

TEST_HARNESS_MAIN
