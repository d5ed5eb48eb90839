/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the codec tests (tests/dvpp): synthetic pictures, JPEGs and
 * PNGs made at test time with libjpeg-turbo and libpng, libjpeg-turbo's
 * own decode to compare with, files under build/.
 */
#ifndef DVPP_CODEC_TEST_UTIL_H
#define DVPP_CODEC_TEST_UTIL_H

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

#include "dvpp_codec.h"

#ifndef DVPP_MEDIA
#define DVPP_MEDIA "build/tests/dvpp/media"
#endif

static uint64_t test_rng = 0x9e3779b97f4a7c15ull;

static inline uint64_t rnd(void)
{
	test_rng ^= test_rng << 13;
	test_rng ^= test_rng >> 7;
	test_rng ^= test_rng << 17;
	return test_rng;
}

/* An RGB picture with gradients, edges and a little noise. */
static inline uint8_t *make_rgb(int w, int h, int channels)
{
	uint8_t *p = malloc((size_t)w * h * channels);
	int x, y, c;

	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++)
			for (c = 0; c < channels; c++) {
				int v = (x * 255 / w) * (c == 0) +
					(y * 255 / h) * (c == 1) +
					((x + y) * 3 % 256) * (c == 2) +
					((x / 8 + y / 8) % 2) * 60 +
					(int)(rnd() % 9);

				p[((size_t)y * w + x) * channels + c] =
					(uint8_t)(c == 3 ? (x * 7 + y) % 256 :
						  v > 255 ? 255 : v);
			}
	return p;
}

/* A JPEG of a synthetic picture (malloc'd); flags as tjCompress2's. */
static inline uint8_t *make_jpeg(int w, int h, int subsamp, int flags,
				 size_t *size)
{
	int pf = subsamp == TJSAMP_GRAY ? TJPF_GRAY : TJPF_RGB;
	uint8_t *rgb = make_rgb(w, h, tjPixelSize[pf]);
	unsigned char *jpeg = NULL;
	unsigned long n = 0;
	tjhandle tj = tjInitCompress();
	uint8_t *out = NULL;

	if (tj && tjCompress2(tj, rgb, w, 0, h, pf, &jpeg, &n, subsamp, 90,
			      flags) == 0) {
		out = malloc(n);
		memcpy(out, jpeg, n);
		*size = n;
	}
	tjFree(jpeg);
	tjDestroy(tj);
	free(rgb);
	return out;
}

/* libjpeg-turbo's decode into its Y, Cb, Cr planes (one malloc'd block). */
struct tj_planes {
	uint8_t *buf;
	uint8_t *p[3];
	int w[3], h[3];
	int n;
};

static inline int tj_decode_planes(const uint8_t *jpeg, size_t size,
				   struct tj_planes *o)
{
	tjhandle tj = tjInitDecompress();
	int w, h, ss, cs, i, ret = -1;
	size_t total = 0;

	memset(o, 0, sizeof(*o));
	if (!tj || tjDecompressHeader3(tj, jpeg, size, &w, &h, &ss, &cs))
		goto out;
	o->n = ss == TJSAMP_GRAY ? 1 : 3;
	for (i = 0; i < o->n; i++) {
		o->w[i] = tjPlaneWidth(i, w, ss);
		o->h[i] = tjPlaneHeight(i, h, ss);
		total += (size_t)o->w[i] * o->h[i];
	}
	o->buf = malloc(total);
	for (i = 0, total = 0; i < o->n; i++) {
		o->p[i] = o->buf + total;
		total += (size_t)o->w[i] * o->h[i];
	}
	ret = tjDecompressToYUVPlanes(tj, jpeg, size, o->p, w, NULL, h, 0);
out:
	tjDestroy(tj);
	return ret;
}

static inline uint8_t *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0) {
		p = malloc(n ? n : 1);
		if (fread(p, 1, n, f) != (size_t)n) {
			free(p);
			p = NULL;
		}
		*size = n;
	}
	fclose(f);
	return p;
}

/* PSNR of two w x h planes with their strides. */
static inline double psnr(const uint8_t *a, size_t as, const uint8_t *b,
			  size_t bs, int w, int h)
{
	double se = 0;
	int x, y;

	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			double d = (double)a[y * as + x] - b[y * bs + x];

			se += d * d;
		}
	if (se == 0)
		return 99.0;
	return 10 * log10(255.0 * 255.0 * w * h / se);
}

#endif
