// SPDX-License-Identifier: MIT
/*
 * Reproducer (not part of the suites): aclvdecSendSkippedFrame gets no
 * callback when its data decodes to a picture.
 *
 * CANN's contract (and lib/dvpp/dvpp_vdec.c's own comment): every send is
 * answered by one callback; a skipped frame's comes with a NULL output.
 * on_frame() finds the skipped send by the frame's tag, marks it delivered,
 * sees it has no output picture and drops it ("a frame with no output
 * picture is dropped") without post(): no callback, and the record stays
 * on the pending list (leaked by aclvdecDestroyChannel).
 *
 * Build and run (in the guest, after make):
 *   cc -Iinclude -o build/repro_vdec_skipped tests/acl/repro_vdec_skipped_frame.c \
 *      -Lbuild/lib -lascendcl -lpthread -Wl,-rpath,$PWD/build/lib
 *   build/repro_vdec_skipped build/tests/acl/media/clip.h264
 * Expected: "callbacks: 2 (send 0: picture, send 1: NULL output)".
 * Seen:     "callbacks: 1".
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"

static atomic_bool stop;
static atomic_int calls;
static aclrtContext ctx;

static void *report(void *arg)
{
	aclrtSetCurrentContext(ctx);
	while (!atomic_load(&stop))
		aclrtProcessReport(100);
	return NULL;
}

static void callback(acldvppStreamDesc *in, acldvppPicDesc *out, void *user)
{
	printf("callback for send %ld, output %p\n", (long)(intptr_t)user, (void *)out);
	atomic_fetch_add(&calls, 1);
}

/* The n-th access unit (AUD start code 00 00 00 01 09) of an H.264 file. */
static const uint8_t *au(const uint8_t *d, size_t n, int k, size_t *len)
{
	size_t start = 0, i;
	int seen = -1;

	for (i = 0; i + 5 < n; i++)
		if (!d[i] && !d[i + 1] && !d[i + 2] && d[i + 3] == 1 && (d[i + 4] & 0x1f) == 9) {
			if (seen == k) {
				*len = i - start;
				return d + start;
			}
			seen++;
			start = i;
		}
	*len = n - start;
	return seen == k ? d + start : NULL;
}

static acldvppStreamDesc *stream_of(const uint8_t *p, size_t len)
{
	acldvppStreamDesc *s = acldvppCreateStreamDesc();
	void *dev = NULL;

	acldvppMalloc(&dev, len);
	aclrtMemcpy(dev, len, p, len, ACL_MEMCPY_HOST_TO_DEVICE);
	acldvppSetStreamDescData(s, dev);
	acldvppSetStreamDescSize(s, (uint32_t)len);
	return s;
}

int main(int argc, char **argv)
{
	static uint8_t clip[1 << 20];
	FILE *f = fopen(argc > 1 ? argv[1] : "build/tests/acl/media/clip.h264", "rb");
	size_t n = f ? fread(clip, 1, sizeof(clip), f) : 0, len0, len1;
	const uint8_t *a0 = au(clip, n, 0, &len0), *a1 = au(clip, n, 1, &len1);
	aclvdecChannelDesc *d;
	acldvppPicDesc *out = NULL;
	acldvppStreamDesc *eos;
	void *pic = NULL;
	pthread_t t;

	if (!a0 || !a1 || aclInit(NULL) || aclrtSetDevice(0))
		return 2;
	aclrtGetCurrentContext(&ctx);
	pthread_create(&t, NULL, report, NULL);
	d = aclvdecCreateChannelDesc();
	aclvdecSetChannelDescChannelId(d, 0);
	aclvdecSetChannelDescThreadId(d, (uint64_t)t);
	aclvdecSetChannelDescCallback(d, callback);
	aclvdecSetChannelDescEnType(d, H264_MAIN_LEVEL);
	aclvdecSetChannelDescOutPicFormat(d, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
	if (aclvdecCreateChannel(d))
		return 2;
	out = acldvppCreatePicDesc();
	acldvppMalloc(&pic, 320 * 240 * 3 / 2);
	acldvppSetPicDescData(out, pic);
	acldvppSetPicDescSize(out, 320 * 240 * 3 / 2);
	acldvppSetPicDescFormat(out, PIXEL_FORMAT_YUV_SEMIPLANAR_420);
	printf("send 0: %d\n", aclvdecSendFrame(d, stream_of(a0, len0), out, NULL, (void *)0));
	printf("send 1 (skipped): %d\n",
	       aclvdecSendSkippedFrame(d, stream_of(a1, len1), NULL, (void *)1));
	eos = acldvppCreateStreamDesc();
	acldvppSetStreamDescEos(eos, 1);
	aclvdecSendFrame(d, eos, NULL, NULL, NULL);
	printf("destroy: %d\n", aclvdecDestroyChannel(d));
	atomic_store(&stop, true);
	pthread_join(t, NULL);
	printf("callbacks: %d\n", atomic_load(&calls));
	return atomic_load(&calls) == 2 ? 0 : 1;
}
