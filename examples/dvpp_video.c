/* SPDX-License-Identifier: MIT */
/*
 * dvpp_video: video decode and resize, the way CANN's video samples work.
 *
 *   Two VDEC channels decode the same H.264 clip at once, each fed from a
 *   thread of its own one access unit at a time (the bitstream copied
 *   into acldvppMalloc memory), with a callback thread per channel that
 *   loops on aclrtProcessReport. Every decoded frame is resized to
 *   224x224 by the VPC on the channel's stream and checksummed. At the
 *   end each channel prints its frame count and checksum; the two must
 *   agree, since they decoded the same clip.
 *
 * usage: dvpp_video [CLIP.h264]
 * By default the clip `make` builds with ffmpeg's test pattern
 * (tests/acl/make_media.sh: 320x240, 30 frames, an access unit delimiter
 * before each frame, which is where this program cuts the stream).
 */
#include <libgen.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"

#define CHANNELS 2
#define OUT_W 224
#define OUT_H 224
#define OUT_BYTES (OUT_W * OUT_H * 3 / 2)

struct channel {
	int id;
	aclrtContext ctx;
	aclrtStream stream;		/* the VPC's */
	acldvppChannelDesc *vpc;
	acldvppResizeConfig *resize;
	acldvppPicDesc *small;
	void *small_dev;
	uint8_t *small_host;
	aclvdecChannelDesc *vdec;
	pthread_t report, feeder;
	atomic_bool stop;
	int frames, errors;
	uint64_t checksum;		/* FNV-1a over every resized frame */
	const uint8_t *clip;
	size_t clip_size;
	int feed_ret;
};

static uint64_t fnv1a(uint64_t h, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

/* The callback thread: CANN runs VDEC callbacks from aclrtProcessReport. */
static void *report_loop(void *arg)
{
	struct channel *c = arg;

	aclrtSetCurrentContext(c->ctx);
	while (!atomic_load(&c->stop))
		aclrtProcessReport(100);
	return NULL;
}

/* One decoded frame: resize it, checksum it, release both buffers. */
static void on_frame(acldvppStreamDesc *input, acldvppPicDesc *output, void *user)
{
	struct channel *c = user;

	acldvppFree(acldvppGetStreamDescData(input));
	acldvppDestroyStreamDesc(input);
	if (!output)
		return;
	if (acldvppGetPicDescRetCode(output) ||
	    acldvppVpcResizeAsync(c->vpc, output, c->small, c->resize, c->stream) ||
	    aclrtSynchronizeStream(c->stream) ||
	    aclrtMemcpy(c->small_host, OUT_BYTES, c->small_dev, OUT_BYTES,
			ACL_MEMCPY_DEVICE_TO_HOST)) {
		c->errors++;
	} else {
		c->frames++;
		c->checksum = fnv1a(c->checksum, c->small_host, OUT_BYTES);
	}
	acldvppFree(acldvppGetPicDescData(output));
	acldvppDestroyPicDesc(output);
}

/* Offsets of the clip's access unit delimiters (H.264 NAL type 9). */
static size_t next_unit(const uint8_t *p, size_t n, size_t from)
{
	for (size_t i = from; i + 4 < n; i++)
		if (!p[i] && !p[i + 1] && !p[i + 2] && p[i + 3] == 1 &&
		    (p[i + 4] & 0x1f) == 9)
			return i;
	return n;
}

static int feed(struct channel *c)
{
	size_t at = next_unit(c->clip, c->clip_size, 0);
	acldvppStreamDesc *eos;

	while (at < c->clip_size) {
		size_t end = next_unit(c->clip, c->clip_size, at + 4);
		size_t len = end - at;
		uint32_t ws = 320, hs = 240;	/* the clip's size, as samples know it */
		acldvppStreamDesc *in = acldvppCreateStreamDesc();
		acldvppPicDesc *out = acldvppCreatePicDesc();
		void *bits = NULL, *pic = NULL;

		CHECK(acldvppMalloc(&bits, len));
		CHECK(acldvppMalloc(&pic, ws * hs * 3 / 2));
		CHECK(aclrtMemcpy(bits, len, c->clip + at, len, ACL_MEMCPY_HOST_TO_DEVICE));
		CHECK(acldvppSetStreamDescData(in, bits));
		CHECK(acldvppSetStreamDescSize(in, (uint32_t)len));
		CHECK(acldvppSetPicDescData(out, pic));
		CHECK(acldvppSetPicDescSize(out, ws * hs * 3 / 2));
		CHECK(acldvppSetPicDescFormat(out, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
		CHECK(aclvdecSendFrame(c->vdec, in, out, NULL, c));
		at = end;
	}
	eos = acldvppCreateStreamDesc();
	CHECK(acldvppSetStreamDescEos(eos, 1));
	CHECK(aclvdecSendFrame(c->vdec, eos, NULL, NULL, NULL));
	CHECK(acldvppDestroyStreamDesc(eos));
	return 0;
}

static void *feed_thread(void *arg)
{
	struct channel *c = arg;

	aclrtSetCurrentContext(c->ctx);
	c->feed_ret = feed(c);
	return NULL;
}

static int open_channel(struct channel *c)
{
	CHECK(aclrtCreateStream(&c->stream));
	c->vpc = acldvppCreateChannelDesc();
	CHECK(acldvppCreateChannel(c->vpc));
	c->resize = acldvppCreateResizeConfig();
	CHECK(acldvppSetResizeConfigInterpolation(c->resize, 1));
	CHECK(acldvppMalloc(&c->small_dev, OUT_BYTES));
	c->small_host = malloc(OUT_BYTES);
	c->small = acldvppCreatePicDesc();
	CHECK(acldvppSetPicDescData(c->small, c->small_dev));
	CHECK(acldvppSetPicDescSize(c->small, OUT_BYTES));
	CHECK(acldvppSetPicDescFormat(c->small, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
	CHECK(acldvppSetPicDescWidth(c->small, OUT_W));
	CHECK(acldvppSetPicDescHeight(c->small, OUT_H));
	CHECK(acldvppSetPicDescWidthStride(c->small, OUT_W));
	CHECK(acldvppSetPicDescHeightStride(c->small, OUT_H));
	if (pthread_create(&c->report, NULL, report_loop, c))
		return 1;
	c->vdec = aclvdecCreateChannelDesc();
	CHECK(aclvdecSetChannelDescChannelId(c->vdec, (uint32_t)c->id));
	CHECK(aclvdecSetChannelDescThreadId(c->vdec, (uint64_t)c->report));
	CHECK(aclvdecSetChannelDescCallback(c->vdec, on_frame));
	CHECK(aclvdecSetChannelDescEnType(c->vdec, H264_MAIN_LEVEL));
	CHECK(aclvdecSetChannelDescOutPicFormat(c->vdec, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
	CHECK(aclvdecCreateChannel(c->vdec));
	return 0;
}

static void close_channel(struct channel *c)
{
	if (c->vdec) {
		aclvdecDestroyChannel(c->vdec);	/* waits for every callback */
		aclvdecDestroyChannelDesc(c->vdec);
	}
	if (c->report) {
		atomic_store(&c->stop, true);
		pthread_join(c->report, NULL);
	}
	acldvppDestroyPicDesc(c->small);
	acldvppFree(c->small_dev);
	free(c->small_host);
	acldvppDestroyResizeConfig(c->resize);
	acldvppDestroyChannel(c->vpc);
	acldvppDestroyChannelDesc(c->vpc);
	aclrtDestroyStream(c->stream);
}

static uint8_t *read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (p = malloc(len)) &&
	    fread(p, 1, len, f) == (size_t)len)
		*n = (size_t)len;
	else {
		free(p);
		p = NULL;
	}
	fclose(f);
	return p;
}

int main(int argc, char **argv)
{
	struct channel ch[CHANNELS];
	char def[4200], exe[4096];
	const char *path = argc > 1 ? argv[1] : NULL;
	ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	aclrtContext ctx;
	size_t n = 0;
	uint8_t *clip;
	int i, bad = 0;

	if (!path && k > 0) {
		exe[k] = 0;
		snprintf(def, sizeof(def), "%s/../tests/acl/media/clip.h264", dirname(exe));
		path = def;
	}
	clip = path ? read_file(path, &n) : NULL;
	if (!clip) {
		fprintf(stderr, "dvpp_video: cannot read the clip %s\n", path ? path : "");
		return 1;
	}
	CHECK(aclInit(NULL));
	CHECK(aclrtSetDevice(0));
	CHECK(aclrtCreateContext(&ctx, 0));
	memset(ch, 0, sizeof(ch));
	for (i = 0; i < CHANNELS; i++) {
		ch[i].id = i;
		ch[i].ctx = ctx;
		ch[i].clip = clip;
		ch[i].clip_size = n;
		ch[i].checksum = 1469598103934665603ull;
		if (open_channel(&ch[i]))
			return 1;
	}
	for (i = 0; i < CHANNELS; i++)
		pthread_create(&ch[i].feeder, NULL, feed_thread, &ch[i]);
	for (i = 0; i < CHANNELS; i++)
		pthread_join(ch[i].feeder, NULL);
	for (i = 0; i < CHANNELS; i++) {
		close_channel(&ch[i]);
		printf("channel %d: %d frames decoded and resized to %dx%d, %d errors, checksum %016llx\n",
		       i, ch[i].frames, OUT_W, OUT_H, ch[i].errors,
		       (unsigned long long)ch[i].checksum);
		bad |= ch[i].feed_ret || ch[i].errors || !ch[i].frames ||
		       ch[i].frames != ch[0].frames || ch[i].checksum != ch[0].checksum;
	}
	printf("%s\n", bad ? "the channels disagree" : "both channels agree");
	CHECK(aclrtDestroyContext(ctx));
	CHECK(aclrtResetDevice(0));
	CHECK(aclFinalize());
	free(clip);
	return bad;
}
