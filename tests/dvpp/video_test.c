// SPDX-License-Identifier: MIT
/*
 * VDEC of the codec layer (lib/dvpp/codec_video.c) on clips that
 * tests/dvpp/make-media.sh makes with the ffmpeg CLI (H.264 High with
 * B-frames, H.264 Baseline at 200x120, H.265 Main with B-frames): fed
 * whole, in chunks of random sizes or a byte at a time, every frame comes
 * back, in display order, equal to ffmpeg's own decode to NV12/NV21; the
 * caller's pts and tag follow their frame through the reordering; held
 * frames come out at eos or free; damaged and unsupported streams give
 * clean errors.
 */
#include <stdarg.h>

#include "kselftest_harness.h"
#include "codec_test_util.h"

#define MAX_FRAMES 64

struct clip {
	uint8_t *es, *ref;
	size_t es_size, ref_size;
	int w, h, n;
	uint32_t codec;
};

struct got {
	int n;
	uint8_t *frame[MAX_FRAMES];	/* the visible picture, w x h NV12 */
	uint64_t pts[MAX_FRAMES];
	void *tag[MAX_FRAMES];
	bool corrupt[MAX_FRAMES];
	int bad_layout;
};

static bool load_clip(struct clip *c, const char *name, const char *fmt)
{
	char path[512];
	FILE *f;

	memset(c, 0, sizeof(*c));
	snprintf(path, sizeof(path), "%s/%s.size", DVPP_MEDIA, name);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%d %d %d", &c->w, &c->h, &c->n) != 3) {
		if (f)
			fclose(f);
		return false;
	}
	fclose(f);
	snprintf(path, sizeof(path), "%s/%s.es", DVPP_MEDIA, name);
	c->es = read_file(path, &c->es_size);
	snprintf(path, sizeof(path), "%s/%s.%s", DVPP_MEDIA, name, fmt);
	c->ref = read_file(path, &c->ref_size);
	c->codec = strncmp(name, "h265", 4) ? DVPP_STREAM_H264_HIGH :
					      DVPP_STREAM_H265_MAIN;
	return c->es && c->ref &&
	       c->ref_size == (size_t)c->w * c->h * 3 / 2 * c->n;
}

static void free_clip(struct clip *c)
{
	free(c->es);
	free(c->ref);
}

static void free_got(struct got *g)
{
	int i;

	for (i = 0; i < g->n && i < MAX_FRAMES; i++)
		free(g->frame[i]);
}

static bool zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

/* Keeps a copy of the visible picture; checks strides and padding. */
static void on_frame(void *user, const struct dvpp_frame *f)
{
	struct got *g = user;
	uint32_t w = f->width, h = f->height, y;
	uint32_t ws = f->width_stride, hs = f->height_stride;
	uint8_t *p;

	if (ws != DVPP_ALIGN_UP(w, 16u) || hs != DVPP_ALIGN_UP(h, 2u) ||
	    f->size != (size_t)ws * hs * 3 / 2)
		g->bad_layout++;
	for (y = 0; y < hs; y++)
		if (!zero(f->data + (size_t)y * ws + (y < h ? w : 0),
			  y < h ? ws - w : ws))
			g->bad_layout++;
	if (g->n >= MAX_FRAMES) {
		g->n++;
		return;
	}
	p = malloc((size_t)w * h * 3 / 2);
	for (y = 0; y < h; y++)
		memcpy(p + (size_t)y * w, f->data + (size_t)y * ws, w);
	for (y = 0; y < h / 2; y++)
		memcpy(p + (size_t)w * h + (size_t)y * w,
		       f->data + (size_t)ws * hs + (size_t)y * ws, w);
	g->frame[g->n] = p;
	g->pts[g->n] = f->pts;
	g->tag[g->n] = f->tag;
	g->corrupt[g->n] = f->corrupt;
	g->n++;
}

/* Frames equal to the reference, in order. */
static void expect_frames(struct __test_metadata *_metadata,
			  const struct clip *c, const struct got *g)
{
	size_t fs = (size_t)c->w * c->h * 3 / 2;
	int i;

	ASSERT_EQ(c->n, g->n);
	EXPECT_EQ(0, g->bad_layout);
	for (i = 0; i < g->n; i++) {
		EXPECT_EQ(0, memcmp(g->frame[i], c->ref + i * fs, fs))
			TH_LOG("frame %d differs from ffmpeg's", i);
		EXPECT_FALSE(g->corrupt[i]);
	}
}

static struct dvpp_video_dec *new_dec(struct __test_metadata *_metadata,
				      uint32_t codec, uint32_t fmt, struct got *g)
{
	char why[256] = "";
	struct dvpp_video_dec *d = dvpp_video_dec_new(codec, fmt, on_frame, g,
						      why, sizeof(why));

	EXPECT_NE(NULL, d) TH_LOG("%s", why);
	return d;
}

static const char *const clips[] = { "h264_high", "h264_base", "h265_main" };

TEST(every_frame_as_ffmpeg_decodes_it)
{
	static const char *const fmts[] = { "nv12", "nv21" };
	unsigned int i, f;

	for (i = 0; i < 3; i++)
		for (f = 0; f < 2; f++) {
			struct clip c;
			struct got g = { 0 };
			struct dvpp_video_dec *d;
			char why[256] = "";

			ASSERT_TRUE(load_clip(&c, clips[i], fmts[f]))
				TH_LOG("%s: run make (tests/dvpp/make-media.sh)", clips[i]);
			d = new_dec(_metadata, c.codec,
				    f ? DVPP_FMT_NV21 : DVPP_FMT_NV12, &g);
			ASSERT_NE(NULL, d);
			EXPECT_EQ(0, dvpp_video_dec_send(d, c.es, c.es_size, true, 0,
							 NULL, why, sizeof(why)))
				TH_LOG("%s: %s", clips[i], why);
			expect_frames(_metadata, &c, &g);
			dvpp_video_dec_free(d);
			EXPECT_EQ(c.n, g.n);	/* nothing more at free */
			free_got(&g);
			free_clip(&c);
		}
}

static void send_chunks(struct __test_metadata *_metadata,
			struct dvpp_video_dec *d, const struct clip *c,
			size_t max_chunk)
{
	size_t off = 0;

	while (off < c->es_size) {
		size_t n = max_chunk == 1 ? 1 : 1 + rnd() % max_chunk;

		if (n > c->es_size - off)
			n = c->es_size - off;
		ASSERT_EQ(0, dvpp_video_dec_send(d, c->es + off, n,
						 off + n == c->es_size, 0, NULL,
						 NULL, 0));
		off += n;
	}
}

TEST(chunks_of_any_size)
{
	static const size_t max_chunk[] = { 1, 7, 100, 1500, 4096 };
	unsigned int i, k;

	for (i = 0; i < 3; i++)
		for (k = 0; k < sizeof(max_chunk) / sizeof(max_chunk[0]); k++) {
			struct clip c;
			struct got g = { 0 };
			struct dvpp_video_dec *d;

			ASSERT_TRUE(load_clip(&c, clips[i], "nv12"));
			d = new_dec(_metadata, c.codec, DVPP_FMT_NV12, &g);
			ASSERT_NE(NULL, d);
			send_chunks(_metadata, d, &c, max_chunk[k]);
			expect_frames(_metadata, &c, &g);
			dvpp_video_dec_free(d);
			free_got(&g);
			free_clip(&c);
		}
}

/* The offsets where access units start: at their delimiter NAL. */
static int access_units(const struct clip *c, size_t *at)
{
	/* H.264 AUD: nal_unit_type 9; HEVC AUD: type 35 (0x46 0x01) */
	static const uint8_t h264[] = { 0, 0, 0, 1, 0x09 };
	static const uint8_t hevc[] = { 0, 0, 0, 1, 0x46, 0x01 };
	const uint8_t *pat = c->codec == DVPP_STREAM_H265_MAIN ? hevc : h264;
	size_t len = c->codec == DVPP_STREAM_H265_MAIN ? sizeof(hevc) : sizeof(h264);
	size_t i;
	int n = 0;

	for (i = 0; i + len <= c->es_size && n < MAX_FRAMES; i++)
		if (!memcmp(c->es + i, pat, len))
			at[n++] = i;
	return n;
}

TEST(pts_and_tags_follow_their_frames)
{
	unsigned int i;

	for (i = 0; i < 3; i++) {
		struct clip c;
		struct got g = { 0 };
		struct dvpp_video_dec *d;
		size_t at[MAX_FRAMES + 1];
		int tags[MAX_FRAMES], n, k, seen[MAX_FRAMES] = { 0 };
		bool in_order = true;

		ASSERT_TRUE(load_clip(&c, clips[i], "nv12"));
		n = access_units(&c, at);
		ASSERT_EQ(c.n, n);
		ASSERT_EQ(0, at[0]);
		at[n] = c.es_size;
		d = new_dec(_metadata, c.codec, DVPP_FMT_NV12, &g);
		ASSERT_NE(NULL, d);
		for (k = 0; k < n; k++)
			ASSERT_EQ(0, dvpp_video_dec_send(d, c.es + at[k],
							 at[k + 1] - at[k], k == n - 1,
							 1000 + k, &tags[k], NULL, 0));
		expect_frames(_metadata, &c, &g);
		for (k = 0; k < g.n; k++) {
			int p = (int)g.pts[k] - 1000;

			ASSERT_LE(0, p);
			ASSERT_GT(n, p);
			EXPECT_EQ(&tags[p], g.tag[k]) TH_LOG("%s frame %d", clips[i], k);
			seen[p]++;
			if (p != k)
				in_order = false;
		}
		for (k = 0; k < n; k++)
			EXPECT_EQ(1, seen[k]) TH_LOG("%s: access unit %d", clips[i], k);
		/* Baseline has no B-frames: decode order is display order */
		EXPECT_EQ(!strcmp(clips[i], "h264_base"), in_order) TH_LOG("%s", clips[i]);
		dvpp_video_dec_free(d);
		free_got(&g);
		free_clip(&c);
	}
}

TEST(free_delivers_held_frames)
{
	struct clip c;
	struct got g = { 0 };
	struct dvpp_video_dec *d;

	ASSERT_TRUE(load_clip(&c, "h264_high", "nv12"));
	d = new_dec(_metadata, c.codec, DVPP_FMT_NV12, &g);
	ASSERT_NE(NULL, d);
	ASSERT_EQ(0, dvpp_video_dec_send(d, c.es, c.es_size, false, 0, NULL, NULL, 0));
	EXPECT_GT(c.n, g.n);		/* the decoder holds some back */
	dvpp_video_dec_free(d);
	expect_frames(_metadata, &c, &g);
	free_got(&g);
	free_clip(&c);
}

TEST(a_new_stream_after_eos)
{
	struct clip c;
	struct got g = { 0 }, g2 = { 0 };
	struct dvpp_video_dec *d;

	ASSERT_TRUE(load_clip(&c, "h265_main", "nv12"));
	d = new_dec(_metadata, c.codec, DVPP_FMT_NV12, &g);
	ASSERT_NE(NULL, d);
	ASSERT_EQ(0, dvpp_video_dec_send(d, c.es, c.es_size, true, 0, NULL, NULL, 0));
	expect_frames(_metadata, &c, &g);
	ASSERT_EQ(0, dvpp_video_dec_send(d, c.es, c.es_size, true, 0, NULL, NULL, 0));
	ASSERT_EQ(2 * c.n, g.n);
	/* the second stream's frames are the clip again */
	memcpy(g2.frame, g.frame + c.n, sizeof(g2.frame[0]) * c.n);
	g2.n = c.n;
	expect_frames(_metadata, &c, &g2);
	dvpp_video_dec_free(d);
	free_got(&g);
	free_clip(&c);
}

TEST(truncated_and_corrupt_streams_fail_cleanly)
{
	struct clip c;
	struct got g = { 0 };
	struct dvpp_video_dec *d;
	uint8_t *bad;
	size_t at[MAX_FRAMES + 1], i, slice;
	char why[256] = "";
	int n, ret, ncorrupt;

	ASSERT_TRUE(load_clip(&c, "h264_high", "nv12"));
	n = access_units(&c, at);
	ASSERT_LT(2, n);
	/* cut inside the first frame's slice data */
	d = new_dec(_metadata, c.codec, DVPP_FMT_NV12, &g);
	ret = dvpp_video_dec_send(d, c.es, at[1] / 2, true, 0, NULL, why,
				  sizeof(why));
	EXPECT_EQ(-EBADMSG, ret) TH_LOG("%d frames", g.n);
	EXPECT_NE(0, why[0]);
	dvpp_video_dec_free(d);
	free_got(&g);

	/* garbage over the second access unit's slice data (its last NAL
	 * unit, past the slice header's first bytes): an error, and fewer
	 * frames */
	bad = malloc(c.es_size);
	memcpy(bad, c.es, c.es_size);
	for (slice = at[2] - 3; slice > at[1]; slice--)
		if (!memcmp(bad + slice, "\0\0\1", 3))
			break;
	ASSERT_LE(at[1] + 6, slice);
	for (i = slice + 8; i < at[2] - 2; i++)
		bad[i] = (uint8_t)(rnd() | 0x80);
	memset(&g, 0, sizeof(g));
	why[0] = 0;
	d = new_dec(_metadata, c.codec, DVPP_FMT_NV12, &g);
	EXPECT_EQ(-EBADMSG, dvpp_video_dec_send(d, bad, c.es_size, true, 0,
						NULL, why, sizeof(why)));
	EXPECT_NE(0, why[0]);
	for (i = 0, ncorrupt = 0; i < (size_t)g.n; i++)
		ncorrupt += g.corrupt[i];
	TH_LOG("%d frames, %d marked corrupt", g.n, ncorrupt);
	EXPECT_GE(c.n, g.n);
	EXPECT_TRUE(g.n < c.n || ncorrupt > 0);
	EXPECT_EQ(0, g.bad_layout);
	/* still usable: the intact clip decodes in full afterwards */
	free_got(&g);
	memset(&g, 0, sizeof(g));
	EXPECT_EQ(0, dvpp_video_dec_send(d, c.es, c.es_size, true, 0, NULL,
					 why, sizeof(why))) TH_LOG("%s", why);
	expect_frames(_metadata, &c, &g);
	dvpp_video_dec_free(d);
	free_got(&g);
	free(bad);
	free_clip(&c);
}

TEST(wrong_codec_and_unsupported_format)
{
	struct clip c;
	struct got g = { 0 };
	struct dvpp_video_dec *d;
	uint8_t *p422;
	size_t n422;
	char path[512], why[256] = "";
	int ret;

	/* H.264 High 4:2:2: decoded by libavcodec, not NV12-able */
	snprintf(path, sizeof(path), "%s/h264_422.es", DVPP_MEDIA);
	p422 = read_file(path, &n422);
	ASSERT_NE(NULL, p422);
	d = new_dec(_metadata, DVPP_STREAM_H264_HIGH, DVPP_FMT_NV12, &g);
	EXPECT_EQ(-EOPNOTSUPP, dvpp_video_dec_send(d, p422, n422, true, 0, NULL,
						   why, sizeof(why)));
	EXPECT_NE(0, why[0]);
	EXPECT_EQ(0, g.n);
	dvpp_video_dec_free(d);
	free(p422);

	/* an H.264 stream to the HEVC decoder: no frame, no crash */
	ASSERT_TRUE(load_clip(&c, "h264_high", "nv12"));
	d = new_dec(_metadata, DVPP_STREAM_H265_MAIN, DVPP_FMT_NV12, &g);
	ret = dvpp_video_dec_send(d, c.es, c.es_size, true, 0, NULL, why,
				  sizeof(why));
	EXPECT_TRUE(ret == 0 || ret == -EBADMSG) TH_LOG("%d", ret);
	EXPECT_EQ(0, g.n);
	dvpp_video_dec_free(d);
	free_clip(&c);
}

TEST(bad_arguments)
{
	struct got g = { 0 };
	struct dvpp_video_dec *d;
	char why[256] = "";

	EXPECT_EQ(NULL, dvpp_video_dec_new(4, DVPP_FMT_NV12, on_frame, &g, why,
					   sizeof(why)));
	EXPECT_NE(0, why[0]);
	EXPECT_EQ(NULL, dvpp_video_dec_new(0, DVPP_FMT_YVU_SP_444, on_frame, &g,
					   NULL, 0));
	EXPECT_EQ(NULL, dvpp_video_dec_new(0, DVPP_FMT_NV12, NULL, &g, NULL, 0));
	d = new_dec(_metadata, DVPP_STREAM_H264_MAIN, DVPP_FMT_NV21, &g);
	ASSERT_NE(NULL, d);
	EXPECT_EQ(-EINVAL, dvpp_video_dec_send(d, NULL, 5, false, 0, NULL, NULL, 0));
	EXPECT_EQ(-EINVAL, dvpp_video_dec_send(NULL, "x", 1, false, 0, NULL, NULL, 0));
	EXPECT_EQ(0, dvpp_video_dec_send(d, NULL, 0, true, 0, NULL, NULL, 0));
	EXPECT_EQ(0, g.n);
	dvpp_video_dec_free(d);
	dvpp_video_dec_free(NULL);
}

static bool mapped(const char *name)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[1024];
	bool found = false;

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, name))
			found = true;
	if (f)
		fclose(f);
	return found;
}

/* libavcodec is loaded by the first decoder, not with the library. */
TEST(libavcodec_loads_on_first_use)
{
	struct got g = { 0 };
	struct dvpp_video_dec *d;

	ASSERT_TRUE(mapped("libturbojpeg"));
	EXPECT_FALSE(mapped("libavcodec"));
	d = new_dec(_metadata, DVPP_STREAM_H264_MAIN, DVPP_FMT_NV12, &g);
	ASSERT_NE(NULL, d);
	EXPECT_TRUE(mapped("libavcodec"));
	dvpp_video_dec_free(d);
}

TEST_HARNESS_MAIN
