// SPDX-License-Identifier: MIT
/*
 * JPEGD, JPEGE and PNGD through acl_dvpp.h on the real driver, in the
 * order CANN's samples call them: acldvppJpegGetImageInfoV2 and
 * acldvppJpegPredictDecSize on the file in host memory, acldvppMalloc of
 * the predicted size, the file copied into DVPP memory, the decode queued
 * on a stream, a synchronize, the size read back from the description.
 * The files are made here with libjpeg-turbo and libpng, and the decoded
 * pictures compared with libjpeg-turbo's own decode of the same file (bit
 * for bit) and with the PNG's pixels. A damaged file fails its task (the
 * synchronize reports ACL_ERROR_RT_AICPU_EXCEPTION) and the process goes
 * on; a progressive JPEG is ACL_ERROR_UNSUPPORTED_JPEG.
 */
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <turbojpeg.h>

#include "dvpp_test_util.h"

#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#define INVAL ACL_ERROR_INVALID_PARAM

/* A smooth RGB picture with some texture, so that JPEG keeps detail. */
static uint8_t *rgb_picture(int w, int h, int seed)
{
	uint8_t *p = malloc((size_t)w * h * 3);

	for (int y = 0; p && y < h; y++)
		for (int x = 0; x < w; x++) {
			uint8_t *q = p + ((size_t)y * w + x) * 3;

			q[0] = (uint8_t)(x * 255 / w);
			q[1] = (uint8_t)(y * 255 / h);
			q[2] = (uint8_t)(128 + 60 * sin((x + seed) / 5.0) * cos(y / 7.0));
		}
	return p;
}

/* A JPEG of the picture at a sampling (TJSAMP_*), with flags. */
static unsigned char *make_jpeg(int w, int h, int samp, int flags,
				unsigned long *n)
{
	tjhandle tj = tjInitCompress();
	uint8_t *rgb = rgb_picture(w, h, samp);
	unsigned char *out = NULL;

	*n = 0;
	if (tj && rgb &&
	    tjCompress2(tj, rgb, w, 0, h, TJPF_RGB, &out, n, samp, 90, flags))
		out = NULL;
	tjDestroy(tj);
	free(rgb);
	return out;
}

/* libjpeg-turbo's own decode of the file into its planes. */
static int tj_planes(const unsigned char *jpg, unsigned long n, uint8_t *pl[3],
		     int *w, int *h, int *samp)
{
	tjhandle tj = tjInitDecompress();
	int cs, strides[3] = { 0, 0, 0 };

	if (!tj || tjDecompressHeader3(tj, jpg, n, w, h, samp, &cs))
		return -1;
	for (int c = 0; c < 3; c++) {
		pl[c] = NULL;
		if (*samp == TJSAMP_GRAY && c > 0)
			continue;
		pl[c] = malloc(tjPlaneSizeYUV(c, *w, 0, *h, *samp));
	}
	if (tjDecompressToYUVPlanes(tj, jpg, n, pl, *w, strides, *h, 0))
		return -1;
	tjDestroy(tj);
	return 0;
}

FIXTURE(codec) {
	aclrtStream s;
	acldvppChannelDesc *ch;
};

FIXTURE_SETUP(codec)
{
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtCreateStream(&self->s));
	self->ch = acldvppCreateChannelDesc();
	ASSERT_NE(NULL, self->ch);
	ASSERT_EQ(ACL_SUCCESS, acldvppCreateChannel(self->ch));
}

FIXTURE_TEARDOWN(codec)
{
	acldvppDestroyChannel(self->ch);
	acldvppDestroyChannelDesc(self->ch);
	aclrtDestroyStream(self->s);
	aclrtResetDevice(0);
	aclFinalize();
}

/* The file into DVPP memory, as samples do. */
static void *to_dvpp(const void *file, uint32_t n)
{
	void *d = NULL;

	if (acldvppMalloc(&d, n) != ACL_SUCCESS)
		return NULL;
	if (aclrtMemcpy(d, n, file, n, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
		acldvppFree(d);
		return NULL;
	}
	return d;
}

/*
 * Decode a w x h JPEG of sampling samp to NV12 and compare with
 * libjpeg-turbo's planes: luma equal; chroma equal where the JPEG is
 * 4:2:0, the rounded mean of the 2 (4:2:2) or 4 (4:4:4) samples otherwise.
 */
static void jpegd_vs_turbo(struct __test_metadata *_metadata,
			   FIXTURE_DATA(codec) *self, int w, int h, int samp)
{
	unsigned long n;
	unsigned char *jpg = make_jpeg(w, h, samp, 0, &n);
	uint32_t iw = 0, ih = 0, dec = 0, ws, hs, ow, oh;
	int32_t comp = 0;
	acldvppJpegFormat fmt = ACL_JPEG_CSS_UNKNOWN;
	uint8_t *pl[3], *out;
	int tw, th, ts;
	void *in_dev, *out_dev = NULL;
	acldvppPicDesc *desc = acldvppCreatePicDesc();

	ASSERT_NE(NULL, jpg);
	ASSERT_EQ(ACL_SUCCESS, acldvppJpegGetImageInfoV2(jpg, n, &iw, &ih, &comp, &fmt));
	EXPECT_EQ((uint32_t)w, iw);
	EXPECT_EQ((uint32_t)h, ih);
	EXPECT_EQ(3, comp);
	EXPECT_EQ(samp == TJSAMP_444 ? ACL_JPEG_CSS_444 :
		  samp == TJSAMP_422 ? ACL_JPEG_CSS_422 : ACL_JPEG_CSS_420, fmt);
	ASSERT_EQ(ACL_SUCCESS, acldvppJpegPredictDecSize(jpg, n,
			PIXEL_FORMAT_YUV_SEMIPLANAR_420, &dec));
	/* odd sizes are rounded down first, then aligned */
	ws = ALIGN_UP(w & ~1, 128);
	hs = ALIGN_UP(h & ~1, 16);
	EXPECT_EQ(ws * hs * 3 / 2, dec);
	in_dev = to_dvpp(jpg, n);
	ASSERT_NE(NULL, in_dev);
	ASSERT_EQ(ACL_SUCCESS, acldvppMalloc(&out_dev, dec));
	acldvppSetPicDescData(desc, out_dev);
	acldvppSetPicDescSize(desc, dec);
	acldvppSetPicDescFormat(desc, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
	ASSERT_EQ(ACL_SUCCESS, acldvppJpegDecodeAsync(self->ch, in_dev, n, desc,
						      self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	EXPECT_EQ(0u, acldvppGetPicDescRetCode(desc));
	ow = acldvppGetPicDescWidth(desc);
	oh = acldvppGetPicDescHeight(desc);
	EXPECT_EQ((uint32_t)(w & ~1), ow);	/* odd sizes rounded down */
	EXPECT_EQ((uint32_t)(h & ~1), oh);
	EXPECT_EQ(ws, acldvppGetPicDescWidthStride(desc));
	EXPECT_EQ(hs, acldvppGetPicDescHeightStride(desc));
	out = malloc(dec);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(out, dec, out_dev, dec,
					   ACL_MEMCPY_DEVICE_TO_HOST));
	ASSERT_EQ(0, tj_planes(jpg, n, pl, &tw, &th, &ts));
	for (uint32_t y = 0; y < oh; y++)
		for (uint32_t x = 0; x < ow; x++)
			ASSERT_EQ(pl[0][y * tjPlaneWidth(0, w, ts) + x], out[y * ws + x]);
	for (uint32_t cy = 0; cy < oh / 2; cy++)
		for (uint32_t cx = 0; cx < ow / 2; cx++)
			for (int c = 1; c <= 2; c++) {
				int pw = tjPlaneWidth(c, w, ts), ph = tjPlaneHeight(c, h, ts);
				int sx = samp == TJSAMP_444 ? 2 : 1;
				int sy = samp == TJSAMP_420 ? 1 : 2;
				int acc = 0, cnt = 0, want;

				for (int dy = 0; dy < sy; dy++)
					for (int dx = 0; dx < sx; dx++) {
						int xx = cx * sx + dx, yy = cy * sy + dy;

						xx = xx < pw ? xx : pw - 1;
						yy = yy < ph ? yy : ph - 1;
						acc += pl[c][yy * pw + xx];
						cnt++;
					}
				want = (acc + cnt / 2) / cnt;
				ASSERT_EQ(want, out[ws * hs + cy * ws + 2 * cx + (c - 1)]);
			}
	for (int c = 0; c < 3; c++)
		free(pl[c]);
	free(out);
	tjFree(jpg);
	acldvppFree(in_dev);
	acldvppFree(out_dev);
	acldvppDestroyPicDesc(desc);
}

TEST_F(codec, jpegd_420_is_libjpeg_turbos_decode)
{
	jpegd_vs_turbo(_metadata, self, 320, 240, TJSAMP_420);
}

TEST_F(codec, jpegd_422_and_444_odd_sizes)
{
	jpegd_vs_turbo(_metadata, self, 129, 67, TJSAMP_422);
	jpegd_vs_turbo(_metadata, self, 97, 45, TJSAMP_444);
	jpegd_vs_turbo(_metadata, self, 33, 33, TJSAMP_420);
}

/* NV12 of a picture -> JPEGE -> JPEGD: close to the original. */
static double psnr_roundtrip(struct __test_metadata *_metadata,
			     FIXTURE_DATA(codec) *self, uint32_t level)
{
	uint32_t w = 256, h = 128, ws = 256, hs = 128, n = ws * hs * 3 / 2;
	uint32_t enc_size = 0, cap, dec = 0;
	uint8_t *pic = malloc(n), *back = NULL, *file;
	acldvppJpegeConfig *cfg = acldvppCreateJpegeConfig();
	acldvppPicDesc *in = acldvppCreatePicDesc(), *out = acldvppCreatePicDesc();
	void *in_dev = NULL, *file_dev = NULL, *out_dev = NULL;
	double se = 0;

	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++)
			pic[y * ws + x] = (uint8_t)(16 + (x + y) * 200 / (w + h) +
						    20 * sin(x / 9.0));
	for (uint32_t i = ws * hs; i < n; i++)
		pic[i] = (uint8_t)(128 + ((i / 2) % 40) - 20);
	ASSERT_EQ(ACL_SUCCESS, acldvppSetJpegeConfigLevel(cfg, level));
	in_dev = to_dvpp(pic, n);
	ASSERT_NE(NULL, in_dev);
	acldvppSetPicDescData(in, in_dev);
	acldvppSetPicDescSize(in, n);
	acldvppSetPicDescFormat(in, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
	acldvppSetPicDescWidth(in, w);
	acldvppSetPicDescHeight(in, h);
	acldvppSetPicDescWidthStride(in, ws);
	acldvppSetPicDescHeightStride(in, hs);
	ASSERT_EQ(ACL_SUCCESS, acldvppJpegPredictEncSize(in, cfg, &enc_size));
	EXPECT_GT(enc_size, 0u);
	ASSERT_EQ(ACL_SUCCESS, acldvppMalloc(&file_dev, enc_size));
	cap = enc_size;
	ASSERT_EQ(ACL_SUCCESS, acldvppJpegEncodeAsync(self->ch, in, file_dev, &cap, cfg,
						      self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	EXPECT_LT(cap, enc_size);
	EXPECT_GT(cap, 100u);
	file = malloc(cap);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(file, cap, file_dev, cap,
					   ACL_MEMCPY_DEVICE_TO_HOST));
	EXPECT_EQ(0xff, file[0]);
	EXPECT_EQ(0xd8, file[1]);
	ASSERT_EQ(ACL_SUCCESS, acldvppJpegPredictDecSize(file, cap,
			PIXEL_FORMAT_YUV_SEMIPLANAR_420, &dec));
	ASSERT_EQ(ACL_SUCCESS, acldvppMalloc(&out_dev, dec));
	acldvppSetPicDescData(out, out_dev);
	acldvppSetPicDescSize(out, dec);
	acldvppSetPicDescFormat(out, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
	ASSERT_EQ(ACL_SUCCESS, acldvppJpegDecodeAsync(self->ch, file_dev, cap, out,
						      self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	back = malloc(dec);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(back, dec, out_dev, dec,
					   ACL_MEMCPY_DEVICE_TO_HOST));
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			double d = (double)pic[y * ws + x] -
				   back[y * acldvppGetPicDescWidthStride(out) + x];

			se += d * d;
		}
	free(pic);
	free(back);
	free(file);
	acldvppFree(in_dev);
	acldvppFree(file_dev);
	acldvppFree(out_dev);
	acldvppDestroyPicDesc(in);
	acldvppDestroyPicDesc(out);
	acldvppDestroyJpegeConfig(cfg);
	se /= (double)w * h;
	return se > 0 ? 10 * log10(255.0 * 255.0 / se) : 99;
}

TEST_F(codec, jpege_then_jpegd_round_trip_psnr)
{
	double best = psnr_roundtrip(_metadata, self, 0);	/* 0 = 100 */
	double q90 = psnr_roundtrip(_metadata, self, 90);
	double q10 = psnr_roundtrip(_metadata, self, 10);

	TH_LOG("luma PSNR: level 0 %.1f dB, 90 %.1f dB, 10 %.1f dB", best, q90, q10);
	EXPECT_GT(best, 45.0);
	EXPECT_GT(q90, 38.0);
	EXPECT_GT(q90, q10);
	EXPECT_GT(q10, 24.0);
}

/* A damaged file fails its task, and the stream works on afterwards. */
TEST_F(codec, damaged_jpeg_fails_the_task_not_the_process)
{
	unsigned long n;
	unsigned char *jpg = make_jpeg(128, 64, TJSAMP_420, 0, &n);
	uint32_t dec = 0;
	void *in_dev, *out_dev = NULL;
	acldvppPicDesc *desc = acldvppCreatePicDesc();

	ASSERT_NE(NULL, jpg);
	ASSERT_EQ(ACL_SUCCESS, acldvppJpegPredictDecSize(jpg, n,
			PIXEL_FORMAT_YUV_SEMIPLANAR_420, &dec));
	/* keep the headers, cut the entropy-coded data short */
	n = n * 2 / 3;
	in_dev = to_dvpp(jpg, n);
	ASSERT_EQ(ACL_SUCCESS, acldvppMalloc(&out_dev, dec));
	acldvppSetPicDescData(desc, out_dev);
	acldvppSetPicDescSize(desc, dec);
	acldvppSetPicDescFormat(desc, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
	ASSERT_EQ(ACL_SUCCESS, acldvppJpegDecodeAsync(self->ch, in_dev, n, desc,
						      self->s));
	EXPECT_EQ(ACL_ERROR_RT_AICPU_EXCEPTION, aclrtSynchronizeStream(self->s));
	EXPECT_NE(0u, acldvppGetPicDescRetCode(desc));
	/* garbage: not a JPEG at all */
	memset(jpg, 0x11, n);
	ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(in_dev, n, jpg, n, ACL_MEMCPY_HOST_TO_DEVICE));
	ASSERT_EQ(ACL_SUCCESS, acldvppJpegDecodeAsync(self->ch, in_dev, n, desc,
						      self->s));
	EXPECT_EQ(ACL_ERROR_RT_AICPU_EXCEPTION, aclrtSynchronizeStream(self->s));
	EXPECT_EQ(INVAL, acldvppJpegGetImageInfo(jpg, n, &dec, &dec, NULL));
	/* the stream still runs work */
	ASSERT_EQ(ACL_SUCCESS, aclrtMemsetAsync(out_dev, dec, 7, dec, self->s));
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	tjFree(jpg);
	acldvppFree(in_dev);
	acldvppFree(out_dev);
	acldvppDestroyPicDesc(desc);
}

TEST_F(codec, progressive_jpeg_is_unsupported)
{
	unsigned long n;
	unsigned char *jpg = make_jpeg(64, 64, TJSAMP_420, TJFLAG_PROGRESSIVE, &n);
	uint32_t w = 0, h = 0, dec = 0;

	ASSERT_NE(NULL, jpg);
	/* its header reads, but JPEGD does not decode it */
	EXPECT_EQ(ACL_SUCCESS, acldvppJpegGetImageInfo(jpg, n, &w, &h, NULL));
	EXPECT_EQ(64u, w);
	EXPECT_EQ(ACL_ERROR_UNSUPPORTED_JPEG, acldvppJpegPredictDecSize(jpg, n,
			PIXEL_FORMAT_YUV_SEMIPLANAR_420, &dec));
	tjFree(jpg);
}

TEST_F(codec, jpeg_argument_rules)
{
	unsigned long n;
	unsigned char *jpg = make_jpeg(64, 32, TJSAMP_420, 0, &n);
	uint32_t w, h, dec = 0;
	void *in_dev = to_dvpp(jpg, n), *out_dev = NULL, *plain = NULL;
	acldvppPicDesc *desc = acldvppCreatePicDesc();
	acldvppChannelDesc *vpc_only = acldvppCreateChannelDesc();
	aclmdlRI ri = NULL;

	ASSERT_EQ(ACL_SUCCESS, acldvppJpegPredictDecSize(jpg, n,
			PIXEL_FORMAT_YUV_SEMIPLANAR_420, &dec));
	ASSERT_EQ(ACL_SUCCESS, acldvppMalloc(&out_dev, dec));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&plain, n, ACL_MEM_MALLOC_HUGE_FIRST));
	acldvppSetPicDescData(desc, out_dev);
	acldvppSetPicDescSize(desc, dec);
	acldvppSetPicDescFormat(desc, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
	/* info and predict on host memory */
	EXPECT_EQ(INVAL, acldvppJpegGetImageInfo(NULL, n, &w, &h, NULL));
	EXPECT_EQ(INVAL, acldvppJpegGetImageInfo(jpg, 0, &w, &h, NULL));
	EXPECT_EQ(INVAL, acldvppJpegGetImageInfo(jpg, n, NULL, &h, NULL));
	EXPECT_EQ(INVAL, acldvppJpegGetImageInfo(jpg, 10, &w, &h, NULL));
	EXPECT_EQ(INVAL, acldvppJpegPredictDecSize(jpg, n,
			PIXEL_FORMAT_YUV_SEMIPLANAR_420, NULL));
	EXPECT_EQ(INVAL, acldvppJpegPredictDecSize(jpg, n, PIXEL_FORMAT_RGB_888, &dec));
	/* the decode's arguments */
	EXPECT_EQ(INVAL, acldvppJpegDecodeAsync(NULL, in_dev, n, desc, self->s));
	EXPECT_EQ(INVAL, acldvppJpegDecodeAsync(self->ch, NULL, n, desc, self->s));
	EXPECT_EQ(INVAL, acldvppJpegDecodeAsync(self->ch, in_dev, 0, desc, self->s));
	EXPECT_EQ(INVAL, acldvppJpegDecodeAsync(self->ch, plain, n, desc, self->s));
	EXPECT_EQ(INVAL, acldvppJpegDecodeAsync(self->ch, in_dev, n + 4096, desc,
						self->s));
	EXPECT_EQ(INVAL, acldvppJpegDecodeAsync(self->ch, in_dev, n, NULL, self->s));
	acldvppSetPicDescFormat(desc, PIXEL_FORMAT_RGB_888);
	EXPECT_EQ(INVAL, acldvppJpegDecodeAsync(self->ch, in_dev, n, desc, self->s));
	acldvppSetPicDescFormat(desc, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
	acldvppSetPicDescData(desc, plain);
	EXPECT_EQ(INVAL, acldvppJpegDecodeAsync(self->ch, in_dev, n, desc, self->s));
	acldvppSetPicDescData(desc, out_dev);
	/* a VPC-only channel does not decode */
	ASSERT_EQ(ACL_SUCCESS, acldvppSetChannelDescMode(vpc_only, DVPP_CHNMODE_VPC));
	ASSERT_EQ(ACL_SUCCESS, acldvppCreateChannel(vpc_only));
	EXPECT_EQ(INVAL, acldvppJpegDecodeAsync(vpc_only, in_dev, n, desc, self->s));
	/* host work cannot be captured into a graph */
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureBegin(self->s,
						    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	EXPECT_EQ(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
		  acldvppJpegDecodeAsync(self->ch, in_dev, n, desc, self->s));
	ASSERT_EQ(ACL_SUCCESS, aclmdlRICaptureEnd(self->s, &ri));
	aclmdlRIDestroy(ri);
	/* an output too small for the picture fails the task */
	acldvppSetPicDescSize(desc, dec / 2);
	ASSERT_EQ(ACL_SUCCESS, acldvppJpegDecodeAsync(self->ch, in_dev, n, desc, self->s));
	EXPECT_EQ(ACL_ERROR_RT_AICPU_EXCEPTION, aclrtSynchronizeStream(self->s));
	acldvppSetPicDescSize(desc, dec);
	ASSERT_EQ(ACL_SUCCESS, acldvppJpegDecodeAsync(self->ch, in_dev, n, desc, self->s));
	EXPECT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	acldvppDestroyChannel(vpc_only);
	acldvppDestroyChannelDesc(vpc_only);
	acldvppDestroyPicDesc(desc);
	acldvppFree(in_dev);
	acldvppFree(out_dev);
	aclrtFree(plain);
	tjFree(jpg);
}

/* An RGB or RGBA PNG of w x h, written by libpng into memory. */
struct membuf {
	uint8_t *p;
	size_t n;
};

static void mem_write(png_structp png, png_bytep data, png_size_t len)
{
	struct membuf *m = png_get_io_ptr(png);

	m->p = realloc(m->p, m->n + len);
	memcpy(m->p + m->n, data, len);
	m->n += len;
}

static void mem_flush(png_structp png)
{
	(void)png;
}

static uint8_t *make_png(const uint8_t *px, int w, int h, bool alpha, size_t *n)
{
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png_create_info_struct(png);
	struct membuf m = { NULL, 0 };
	int c = alpha ? 4 : 3;

	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		free(m.p);
		return NULL;
	}
	png_set_write_fn(png, &m, mem_write, mem_flush);
	png_set_IHDR(png, info, w, h, 8, alpha ? PNG_COLOR_TYPE_RGBA : PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
		     PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (int y = 0; y < h; y++)
		png_write_row(png, (png_bytep)px + (size_t)y * w * c);
	png_write_end(png, info);
	png_destroy_write_struct(&png, &info);
	*n = m.n;
	return m.p;
}

TEST_F(codec, pngd_gives_the_pixels)
{
	for (int alpha = 0; alpha <= 1; alpha++) {
		int w = 70, h = 40, c = alpha ? 4 : 3;
		uint8_t *px = malloc((size_t)w * h * c), *out;
		size_t n;
		uint8_t *file;
		uint32_t iw = 0, ih = 0, dec = 0, ws;
		int32_t comp = 0;
		void *in_dev, *out_dev = NULL;
		acldvppPicDesc *desc = acldvppCreatePicDesc();

		for (int i = 0; i < w * h * c; i++)
			px[i] = pat(i, 30 + alpha);
		file = make_png(px, w, h, alpha, &n);
		ASSERT_NE(NULL, file);
		ASSERT_EQ(ACL_SUCCESS, acldvppPngGetImageInfo(file, n, &iw, &ih, &comp));
		EXPECT_EQ((uint32_t)w, iw);
		EXPECT_EQ((uint32_t)h, ih);
		EXPECT_EQ(c, comp);
		ASSERT_EQ(ACL_SUCCESS, acldvppPngPredictDecSize(file, n,
				alpha ? PIXEL_FORMAT_RGBA_8888 : PIXEL_FORMAT_RGB_888, &dec));
		ws = ALIGN_UP(w, 128) * c;
		EXPECT_EQ(ws * ALIGN_UP(h, 16), dec);
		in_dev = to_dvpp(file, n);
		ASSERT_EQ(ACL_SUCCESS, acldvppMalloc(&out_dev, dec));
		acldvppSetPicDescData(desc, out_dev);
		acldvppSetPicDescSize(desc, dec);
		acldvppSetPicDescFormat(desc, alpha ? PIXEL_FORMAT_RGBA_8888 :
						      PIXEL_FORMAT_RGB_888);
		ASSERT_EQ(ACL_SUCCESS, acldvppPngDecodeAsync(self->ch, in_dev, n, desc,
							     self->s));
		ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
		EXPECT_EQ((uint32_t)w, acldvppGetPicDescWidth(desc));
		EXPECT_EQ(ws, acldvppGetPicDescWidthStride(desc));
		out = malloc(dec);
		ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(out, dec, out_dev, dec,
						   ACL_MEMCPY_DEVICE_TO_HOST));
		for (int y = 0; y < h; y++)
			ASSERT_EQ(0, memcmp(px + (size_t)y * w * c, out + (size_t)y * ws,
					    (size_t)w * c));
		/* a damaged PNG fails its task */
		file[n / 2] ^= 0xff;
		ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(in_dev, n, file, n,
						   ACL_MEMCPY_HOST_TO_DEVICE));
		ASSERT_EQ(ACL_SUCCESS, acldvppPngDecodeAsync(self->ch, in_dev, n, desc,
							     self->s));
		EXPECT_EQ(ACL_ERROR_RT_AICPU_EXCEPTION, aclrtSynchronizeStream(self->s));
		EXPECT_EQ(INVAL, acldvppPngGetImageInfo(file, 20, &iw, &ih, &comp));
		free(px);
		free(out);
		free(file);
		acldvppFree(in_dev);
		acldvppFree(out_dev);
		acldvppDestroyPicDesc(desc);
	}
}

/* JPEGD then VPC on one stream: the resize sees the decoded picture. */
TEST_F(codec, jpegd_feeds_vpc_in_stream_order)
{
	unsigned long n;
	unsigned char *jpg = make_jpeg(256, 128, TJSAMP_420, 0, &n);
	uint32_t dec = 0, m = nv12_size(128, 64);
	void *in_dev = to_dvpp(jpg, n), *out_dev = NULL;
	acldvppPicDesc *desc = acldvppCreatePicDesc();
	acldvppResizeConfig *rc = acldvppCreateResizeConfig();
	struct pic small;
	uint8_t *a = NULL, *b = malloc(m);
	uint8_t *pl[3];
	int tw, th, ts;

	ASSERT_EQ(ACL_SUCCESS, acldvppJpegPredictDecSize(jpg, n,
			PIXEL_FORMAT_YUV_SEMIPLANAR_420, &dec));
	ASSERT_EQ(ACL_SUCCESS, acldvppMalloc(&out_dev, dec));
	acldvppSetPicDescData(desc, out_dev);
	acldvppSetPicDescSize(desc, dec);
	acldvppSetPicDescFormat(desc, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
	/* what samples do after the decode: strides from the description */
	acldvppSetPicDescWidth(desc, 256);
	acldvppSetPicDescHeight(desc, 128);
	acldvppSetPicDescWidthStride(desc, 256);
	acldvppSetPicDescHeightStride(desc, 128);
	ASSERT_EQ(0, pic_nv12(&small, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 128, 64));
	ASSERT_EQ(ACL_SUCCESS, acldvppSetResizeConfigInterpolation(rc, 2));
	ASSERT_EQ(ACL_SUCCESS, acldvppJpegDecodeAsync(self->ch, in_dev, n, desc, self->s));
	ASSERT_EQ(ACL_SUCCESS, acldvppVpcResizeAsync(self->ch, desc, small.desc, rc,
						     self->s));
	ASSERT_EQ(ACL_SUCCESS, aclrtSynchronizeStream(self->s));
	ASSERT_EQ(ACL_SUCCESS, pic_get(&small, b, m));
	ASSERT_EQ(0, tj_planes(jpg, n, pl, &tw, &th, &ts));
	for (int y = 0; y < 64; y++)
		for (int x = 0; x < 128; x++)
			ASSERT_EQ(pl[0][2 * y * 256 + 2 * x], b[y * 128 + x]);
	for (int c = 0; c < 3; c++)
		free(pl[c]);
	free(a);
	free(b);
	pic_free(&small);
	acldvppDestroyResizeConfig(rc);
	acldvppDestroyPicDesc(desc);
	acldvppFree(in_dev);
	acldvppFree(out_dev);
	tjFree(jpg);
}

TEST_HARNESS_MAIN
