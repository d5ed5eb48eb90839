/* SPDX-License-Identifier: MIT */
/*
 * JPEG header facts for acldvppJpegGetImageInfo(V2) and for JPEGD's
 * "baseline Huffman only" rule: the markers are walked up to the frame
 * header (SOFn), which tells the coding process, the precision, the size
 * and each component's sampling factors. libjpeg-turbo decodes; this
 * only reads the header, which the TurboJPEG API does not expose.
 */
#include <errno.h>

#include "dvpp_codec.h"

static bool is_sof(uint8_t m)
{
	/* 0xc4 (DHT), 0xc8 (JPG) and 0xcc (DAC) share the range */
	return m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc;
}

/* Sampling of three components whose chroma is 1x1, by luma's factors. */
static uint32_t css_of(const uint8_t *s, unsigned int nf)
{
	static const struct { uint8_t h, v; uint32_t css; } tab[] = {
		{ 1, 1, DVPP_CSS_444 }, { 2, 1, DVPP_CSS_422 },
		{ 2, 2, DVPP_CSS_420 }, { 1, 2, DVPP_CSS_440 },
		{ 4, 1, DVPP_CSS_411 },
	};
	unsigned int i;

	if (nf == 1)
		return DVPP_CSS_GRAY;
	if (nf != 3 || s[1 + 3] != 0x11 || s[1 + 6] != 0x11)
		return DVPP_CSS_UNKNOWN;
	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (s[1] >> 4 == tab[i].h && (s[1] & 15) == tab[i].v)
			return tab[i].css;
	return DVPP_CSS_UNKNOWN;
}

static int parse_sof(uint8_t m, const uint8_t *s, size_t n,
		     struct dvpp_jpeg_info *info, char *why, size_t why_len)
{
	unsigned int nf, i;

	if (n < 6)
		return dvpp_codec_fail(why, why_len, -EBADMSG,
				       "frame header of %zu bytes", n);
	nf = s[5];
	if (nf == 0 || n < 6 + 3 * (size_t)nf)
		return dvpp_codec_fail(why, why_len, -EBADMSG,
				       "frame header too short for %u components",
				       nf);
	for (i = 0; i < nf; i++) {
		uint8_t f = s[6 + 3 * i + 1];

		if (f >> 4 < 1 || f >> 4 > 4 || (f & 15) < 1 || (f & 15) > 4)
			return dvpp_codec_fail(why, why_len, -EBADMSG,
					       "component %u has sampling factors 0x%02x",
					       i, f);
	}
	info->sof = m;
	info->precision = s[0];
	info->height = (uint32_t)s[1] << 8 | s[2];
	info->width = (uint32_t)s[3] << 8 | s[4];
	info->components = (int32_t)nf;
	info->css = css_of(s + 6, nf);
	info->baseline = (m == 0xc0 || m == 0xc1) && s[0] == 8;
	if (info->width == 0)
		return dvpp_codec_fail(why, why_len, -EBADMSG,
				       "frame header gives width 0");
	if (info->height == 0)
		return dvpp_codec_fail(why, why_len, -EOPNOTSUPP,
				       "height 0: the height comes in a DNL marker");
	return 0;
}

int dvpp_jpeg_info(const void *data, size_t size, struct dvpp_jpeg_info *info,
		   char *why, size_t why_len)
{
	const uint8_t *p = data;
	size_t i = 2, len;
	uint8_t m;

	if (!data || !info)
		return dvpp_codec_fail(why, why_len, -EINVAL, "NULL argument");
	*info = (struct dvpp_jpeg_info){ .css = DVPP_CSS_UNKNOWN };
	if (size < 4 || p[0] != 0xff || p[1] != 0xd8)
		return dvpp_codec_fail(why, why_len, -EBADMSG,
				       "not a JPEG: no SOI marker");
	for (;;) {
		if (i >= size)
			return dvpp_codec_fail(why, why_len, -EBADMSG,
					       "the data ends before the frame header");
		if (p[i] != 0xff)
			return dvpp_codec_fail(why, why_len, -EBADMSG,
					       "no marker at offset %zu", i);
		while (i < size && p[i] == 0xff)	/* fill bytes */
			i++;
		if (i >= size)
			return dvpp_codec_fail(why, why_len, -EBADMSG,
					       "the data ends before the frame header");
		m = p[i++];
		if ((m >= 0xd0 && m <= 0xd7) || m == 0x01)
			continue;			/* no length */
		if (m == 0x00 || m == 0xd8 || m == 0xd9 || m == 0xda)
			return dvpp_codec_fail(why, why_len, -EBADMSG,
					       "marker 0x%02x before the frame header",
					       m);
		if (size - i < 2)
			return dvpp_codec_fail(why, why_len, -EBADMSG,
					       "truncated marker segment");
		len = (size_t)p[i] << 8 | p[i + 1];
		if (len < 2 || len > size - i)
			return dvpp_codec_fail(why, why_len, -EBADMSG,
					       "marker 0x%02x segment of %zu bytes at offset %zu overruns the data",
					       m, len, i);
		if (is_sof(m))
			return parse_sof(m, p + i + 2, len - 2, info, why,
					 why_len);
		i += len;
	}
}
