// SPDX-License-Identifier: MIT
/*
 * VDEC through acl_dvpp.h on the real driver, written like CANN's video
 * samples: a thread that loops on aclrtProcessReport with the context
 * set, its id in the channel description with the callback, the clip
 * sent one access unit at a time from acldvppMalloc'd buffers, and a last
 * aclvdecSendFrame with eos and no output. The callback frees the input,
 * checks the picture and frees the output.
 *
 * The clips (H.264 main with B-frames and H.265 main, 320x240, 30 frames,
 * an access unit delimiter before every frame) and ffmpeg's own NV12
 * decode of them are made at build time (tests/tests.mk) in
 * build/tests/acl/media. Every frame must come back, equal to ffmpeg's.
 * (dirname() cuts exe in place, so the fallback path starts from the
 * program's directory.)
 */
#include <libgen.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

#include "dvpp_test_util.h"

#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"

#define W 320
#define H 240
#define FRAMES 30
#define FRAME_BYTES (W * H * 3 / 2)

struct clip {
	uint8_t *data;
	size_t n;
	size_t au[FRAMES + 1];	/* access unit offsets, then the end */
	int count;
	uint8_t *ref;		/* FRAMES NV12 frames of ffmpeg's decode */
};

/* build/tests/acl/media/<name> next to this program. */
static uint8_t *read_media(const char *name, size_t *n)
{
	char exe[4096], path[4200];
	ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *f;
	uint8_t *p;
	long len;

	if (k <= 0)
		return NULL;
	exe[k] = 0;
	snprintf(path, sizeof(path), "%s/media/%s", dirname(exe), name);
	f = fopen(path, "rb");
	if (!f) {	/* the TSan build's tests live in build/tsan/tests */
		snprintf(path, sizeof(path), "%s/../../tests/acl/media/%s", exe, name);
		f = fopen(path, "rb");
	}
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	p = malloc(len);
	if (p && fread(p, 1, len, f) != (size_t)len) {
		free(p);
		p = NULL;
	}
	fclose(f);
	*n = (size_t)len;
	return p;
}

/* Cut the clip at its access unit delimiters (4-byte start codes). */
static int load_clip(struct clip *c, const char *name, const char *ref, bool hevc)
{
	size_t rn;

	memset(c, 0, sizeof(*c));
	c->data = read_media(name, &c->n);
	c->ref = read_media(ref, &rn);
	if (!c->data || !c->ref || rn != (size_t)FRAMES * FRAME_BYTES)
		return -1;
	for (size_t i = 0; i + 5 < c->n && c->count <= FRAMES; i++) {
		const uint8_t *p = c->data + i;

		if (p[0] || p[1] || p[2] || p[3] != 1)
			continue;
		if ((!hevc && (p[4] & 0x1f) == 9) || (hevc && ((p[4] >> 1) & 0x3f) == 35))
			c->au[c->count++] = i;
	}
	if (c->count != FRAMES)
		return -1;
	c->au[FRAMES] = c->n;
	return 0;
}

struct chan {
	aclrtContext ctx;
	pthread_t thread;
	atomic_bool stop;
	atomic_int delivered, good, bad_ret, no_output;
	atomic_uint matched;	/* bit k: frame k came and matched */
	struct clip clip;
	uint32_t pts_seen[FRAMES];
};

static void *report_thread(void *arg)
{
	struct chan *c = arg;

	aclrtSetCurrentContext(c->ctx);
	while (!atomic_load(&c->stop))
		aclrtProcessReport(100);
	return NULL;
}

/*
 * The callback, on report_thread: userData is the frame's number in the
 * clip's decode order; the picture must be one of ffmpeg's frames (B
 * frames come back in display order, each with the send that carried it).
 */
static void vdec_callback(acldvppStreamDesc *input, acldvppPicDesc *output,
			  void *userData)
{
	struct chan *c = userData;
	uint8_t *host;

	atomic_fetch_add(&c->delivered, 1);
	acldvppFree(acldvppGetStreamDescData(input));
	acldvppDestroyStreamDesc(input);
	if (!output) {
		atomic_fetch_add(&c->no_output, 1);
		return;
	}
	if (acldvppGetPicDescRetCode(output)) {
		atomic_fetch_add(&c->bad_ret, 1);
	} else if (acldvppGetPicDescWidth(output) == W &&
		   acldvppGetPicDescHeight(output) == H &&
		   acldvppGetPicDescWidthStride(output) == W &&
		   acldvppGetPicDescHeightStride(output) == H) {
		host = malloc(FRAME_BYTES);
		if (aclrtMemcpy(host, FRAME_BYTES, acldvppGetPicDescData(output),
				FRAME_BYTES, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS)
			for (int k = 0; k < FRAMES; k++)
				if (!memcmp(host, c->clip.ref + (size_t)k * FRAME_BYTES,
					    FRAME_BYTES)) {
					atomic_fetch_or(&c->matched, 1u << k);
					atomic_fetch_add(&c->good, 1);
					break;
				}
		free(host);
	}
	acldvppFree(acldvppGetPicDescData(output));
	acldvppDestroyPicDesc(output);
}

/* Send the clip one access unit at a time, then eos. */
static int send_clip(aclvdecChannelDesc *d, struct chan *c)
{
	for (int k = 0; k < FRAMES; k++) {
		size_t len = c->clip.au[k + 1] - c->clip.au[k];
		acldvppStreamDesc *in = acldvppCreateStreamDesc();
		acldvppPicDesc *out = acldvppCreatePicDesc();
		void *bits = NULL, *pic = NULL;

		if (acldvppMalloc(&bits, len) || acldvppMalloc(&pic, FRAME_BYTES))
			return -1;
		if (aclrtMemcpy(bits, len, c->clip.data + c->clip.au[k], len,
				ACL_MEMCPY_HOST_TO_DEVICE))
			return -1;
		acldvppSetStreamDescData(in, bits);
		acldvppSetStreamDescSize(in, (uint32_t)len);
		acldvppSetStreamDescTimestamp(in, (uint64_t)k);
		acldvppSetPicDescData(out, pic);
		acldvppSetPicDescSize(out, FRAME_BYTES);
		acldvppSetPicDescFormat(out, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
		if (aclvdecSendFrame(d, in, out, NULL, c))
			return -1;
	}
	{
		acldvppStreamDesc *eos = acldvppCreateStreamDesc();
		int ret;

		acldvppSetStreamDescEos(eos, 1);
		ret = aclvdecSendFrame(d, eos, NULL, NULL, NULL);
		acldvppDestroyStreamDesc(eos);
		return ret;
	}
}

static aclvdecChannelDesc *open_channel(struct chan *c, uint32_t id,
					acldvppStreamFormat type)
{
	aclvdecChannelDesc *d = aclvdecCreateChannelDesc();

	if (!d || pthread_create(&c->thread, NULL, report_thread, c))
		return NULL;
	aclvdecSetChannelDescChannelId(d, id);
	aclvdecSetChannelDescThreadId(d, (uint64_t)c->thread);
	aclvdecSetChannelDescCallback(d, vdec_callback);
	aclvdecSetChannelDescEnType(d, type);
	aclvdecSetChannelDescOutPicFormat(d, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
	if (aclvdecCreateChannel(d)) {
		aclvdecDestroyChannelDesc(d);
		return NULL;
	}
	return d;
}

static void close_channel(struct chan *c, aclvdecChannelDesc *d)
{
	aclvdecDestroyChannel(d);
	aclvdecDestroyChannelDesc(d);
	atomic_store(&c->stop, true);
	pthread_join(c->thread, NULL);
}

FIXTURE(vdec) {
	aclrtContext ctx;
	struct chan a, b;
};

FIXTURE_SETUP(vdec)
{
	memset(&self->a, 0, sizeof(self->a));
	memset(&self->b, 0, sizeof(self->b));
	ASSERT_EQ(ACL_SUCCESS, aclInit(NULL));
	ASSERT_EQ(ACL_SUCCESS, aclrtSetDevice(0));
	ASSERT_EQ(ACL_SUCCESS, aclrtGetCurrentContext(&self->ctx));
	self->a.ctx = self->b.ctx = self->ctx;
	ASSERT_EQ(0, load_clip(&self->a.clip, "clip.h264", "clip_h264.nv12", false));
	ASSERT_EQ(0, load_clip(&self->b.clip, "clip.h265", "clip_h265.nv12", true));
}

FIXTURE_TEARDOWN(vdec)
{
	free(self->a.clip.data);
	free(self->a.clip.ref);
	free(self->b.clip.data);
	free(self->b.clip.ref);
	aclrtResetDevice(0);
	aclFinalize();
}

TEST_F(vdec, h264_every_frame_as_ffmpeg_decodes_it)
{
	aclvdecChannelDesc *d = open_channel(&self->a, 3, H264_MAIN_LEVEL);

	ASSERT_NE(NULL, d);
	ASSERT_EQ(0, send_clip(d, &self->a));
	close_channel(&self->a, d);
	EXPECT_EQ(FRAMES, atomic_load(&self->a.delivered));
	EXPECT_EQ(FRAMES, atomic_load(&self->a.good));
	EXPECT_EQ(0, atomic_load(&self->a.bad_ret));
	EXPECT_EQ((1u << FRAMES) - 1, atomic_load(&self->a.matched));
}

struct feeder {
	aclvdecChannelDesc *d;
	struct chan *c;
	aclrtContext ctx;
	int ret;
};

static void *feed(void *arg)
{
	struct feeder *f = arg;

	aclrtSetCurrentContext(f->ctx);
	f->ret = send_clip(f->d, f->c);
	return NULL;
}

/* Two channels, H.264 and H.265, fed from two threads at once. */
TEST_F(vdec, two_channels_in_parallel)
{
	aclvdecChannelDesc *da = open_channel(&self->a, 0, H264_MAIN_LEVEL);
	aclvdecChannelDesc *db = open_channel(&self->b, 1, H265_MAIN_LEVEL);
	struct feeder fa = { da, &self->a, self->ctx, -1 }, fb = { db, &self->b, self->ctx, -1 };
	pthread_t ta, tb;

	ASSERT_NE(NULL, da);
	ASSERT_NE(NULL, db);
	ASSERT_EQ(0, pthread_create(&ta, NULL, feed, &fa));
	ASSERT_EQ(0, pthread_create(&tb, NULL, feed, &fb));
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	EXPECT_EQ(0, fa.ret);
	EXPECT_EQ(0, fb.ret);
	close_channel(&self->a, da);
	close_channel(&self->b, db);
	EXPECT_EQ(FRAMES, atomic_load(&self->a.good));
	EXPECT_EQ(FRAMES, atomic_load(&self->b.good));
	EXPECT_EQ((1u << FRAMES) - 1, atomic_load(&self->a.matched));
	EXPECT_EQ((1u << FRAMES) - 1, atomic_load(&self->b.matched));
}

/* Damaged data: every send is still answered, the channel closes. */
TEST_F(vdec, damaged_stream_answers_every_send)
{
	aclvdecChannelDesc *d = open_channel(&self->a, 2, H264_MAIN_LEVEL);

	ASSERT_NE(NULL, d);
	for (size_t i = self->a.clip.au[12]; i < self->a.clip.n; i += 7)
		self->a.clip.data[i] ^= 0x5a;
	ASSERT_EQ(0, send_clip(d, &self->a));
	close_channel(&self->a, d);
	EXPECT_EQ(FRAMES, atomic_load(&self->a.delivered));
	EXPECT_GE(atomic_load(&self->a.good), 5);
	EXPECT_EQ(FRAMES, atomic_load(&self->a.good) + atomic_load(&self->a.bad_ret));
}

/* A skipped frame is decoded and answered once, with no picture. */
TEST_F(vdec, skipped_frame_is_answered_without_a_picture)
{
	aclvdecChannelDesc *d = open_channel(&self->a, 4, H264_MAIN_LEVEL);
	acldvppStreamDesc *in[2], *eos = acldvppCreateStreamDesc();
	acldvppPicDesc *out = acldvppCreatePicDesc();
	void *bits[2], *pic = NULL;

	ASSERT_NE(NULL, d);
	for (int k = 0; k < 2; k++) {
		size_t len = self->a.clip.au[k + 1] - self->a.clip.au[k];

		in[k] = acldvppCreateStreamDesc();
		ASSERT_EQ(ACL_SUCCESS, acldvppMalloc(&bits[k], len));
		ASSERT_EQ(ACL_SUCCESS, aclrtMemcpy(bits[k], len,
						   self->a.clip.data + self->a.clip.au[k],
						   len, ACL_MEMCPY_HOST_TO_DEVICE));
		acldvppSetStreamDescData(in[k], bits[k]);
		acldvppSetStreamDescSize(in[k], (uint32_t)len);
	}
	ASSERT_EQ(ACL_SUCCESS, acldvppMalloc(&pic, FRAME_BYTES));
	acldvppSetPicDescData(out, pic);
	acldvppSetPicDescSize(out, FRAME_BYTES);
	acldvppSetPicDescFormat(out, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
	ASSERT_EQ(ACL_SUCCESS, aclvdecSendFrame(d, in[0], out, NULL, &self->a));
	ASSERT_EQ(ACL_SUCCESS, aclvdecSendSkippedFrame(d, in[1], NULL, &self->a));
	acldvppSetStreamDescEos(eos, 1);
	ASSERT_EQ(ACL_SUCCESS, aclvdecSendFrame(d, eos, NULL, NULL, NULL));
	close_channel(&self->a, d);
	acldvppDestroyStreamDesc(eos);
	EXPECT_EQ(2, atomic_load(&self->a.delivered));
	EXPECT_EQ(1, atomic_load(&self->a.no_output));
	EXPECT_EQ(1, atomic_load(&self->a.good));
	EXPECT_EQ(1u, atomic_load(&self->a.matched));	/* frame 0 */
}

TEST_F(vdec, argument_rules)
{
	aclvdecChannelDesc *d = aclvdecCreateChannelDesc(), *d2;
	acldvppStreamDesc *in = acldvppCreateStreamDesc();
	acldvppPicDesc *out = acldvppCreatePicDesc();
	void *bits = NULL, *pic = NULL, *plain = NULL;

	ASSERT_EQ(0, pthread_create(&self->a.thread, NULL, report_thread, &self->a));
	/* no callback, no thread */
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclvdecCreateChannel(d));
	aclvdecSetChannelDescCallback(d, vdec_callback);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclvdecCreateChannel(d));
	aclvdecSetChannelDescThreadId(d, (uint64_t)self->a.thread);
	aclvdecSetChannelDescOutPicFormat(d, PIXEL_FORMAT_RGB_888);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclvdecCreateChannel(d));
	aclvdecSetChannelDescOutPicFormat(d, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
	aclvdecSetChannelDescEnType(d, H264_MAIN_LEVEL);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclvdecSendFrame(d, in, out, NULL, NULL));
	ASSERT_EQ(ACL_SUCCESS, aclvdecCreateChannel(d));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclvdecCreateChannel(d));
	/* a second channel with the same id */
	d2 = aclvdecCreateChannelDesc();
	aclvdecSetChannelDescCallback(d2, vdec_callback);
	aclvdecSetChannelDescThreadId(d2, (uint64_t)self->a.thread);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclvdecCreateChannel(d2));
	aclvdecDestroyChannelDesc(d2);
	/* the sends' arguments */
	ASSERT_EQ(ACL_SUCCESS, acldvppMalloc(&bits, 1024));
	ASSERT_EQ(ACL_SUCCESS, acldvppMalloc(&pic, FRAME_BYTES));
	ASSERT_EQ(ACL_SUCCESS, aclrtMalloc(&plain, 1024, ACL_MEM_MALLOC_HUGE_FIRST));
	acldvppSetPicDescData(out, pic);
	acldvppSetPicDescSize(out, FRAME_BYTES);
	acldvppSetPicDescFormat(out, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclvdecSendFrame(d, in, out, NULL, NULL));
	acldvppSetStreamDescData(in, plain);
	acldvppSetStreamDescSize(in, 1024);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclvdecSendFrame(d, in, out, NULL, NULL));
	acldvppSetStreamDescData(in, bits);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclvdecSendFrame(d, in, NULL, NULL, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclvdecSendFrame(d, NULL, out, NULL, NULL));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclvdecSendFrame(NULL, in, out, NULL, NULL));
	acldvppSetPicDescFormat(out, PIXEL_FORMAT_YVU_SEMIPLANAR_420);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclvdecSendFrame(d, in, out, NULL, NULL));
	acldvppSetPicDescFormat(out, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
	acldvppSetPicDescData(out, plain);
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclvdecSendFrame(d, in, out, NULL, NULL));
	/* a destroyed channel takes nothing */
	ASSERT_EQ(ACL_SUCCESS, aclvdecDestroyChannel(d));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclvdecDestroyChannel(d));
	EXPECT_EQ(ACL_ERROR_INVALID_PARAM, aclvdecSendFrame(d, in, out, NULL, NULL));
	EXPECT_EQ(ACL_SUCCESS, aclvdecDestroyChannelDesc(d));
	atomic_store(&self->a.stop, true);
	pthread_join(self->a.thread, NULL);
	acldvppDestroyStreamDesc(in);
	acldvppDestroyPicDesc(out);
	acldvppFree(bits);
	acldvppFree(pic);
	aclrtFree(plain);
}

TEST_HARNESS_MAIN
