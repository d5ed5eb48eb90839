// SPDX-License-Identifier: MIT
/*
 * DVPP benchmarks, side by side in one guest run (tests/tests.mk `make
 * bench`):
 *
 *   vpc_resize_1080p_to_224   the VPC's bilinear resize of a 1920x1080
 *                             NV12 picture to 224x224, submitted and
 *                             synchronized each time, against OpenCV's
 *                             cv::resize (INTER_LINEAR) of the same luma
 *                             and chroma planes on the same vCPUs
 *                             (resizes per second; goal ratio >= 1.0);
 *                             a 64x64 to 32x32 resize's time is printed
 *                             beside it: the fixed cost of a call
 *   jpegd_1080p               acldvppJpegDecodeAsync of a 1920x1080 4:2:0
 *                             JPEG, synchronized each time, against
 *                             libjpeg-turbo decoding the same file to its
 *                             planes directly (decodes per second; goal
 *                             ratio >= 0.9: the task path costs <= 10 %)
 *   pipeline_{1,2}ch          the demo pipeline, JPEGD -> VPC crop-resize
 *                             -> the model with AIPP when one is given
 *                             (VNPU_DVPP_BENCH_MODEL=path.om, its input the
 *                             NV12 picture), images per second with one
 *                             channel and with two channels on two threads
 *
 * usage: dvpp_bench OUT.json
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <turbojpeg.h>

#include "acl/acl.h"
#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"
#include "bench_json.h"

#define W 1920
#define H 1080
#define OW 224
#define OH 224

#define OK(call)							\
	do {								\
		int e_ = (int)(call);					\
		if (e_) {						\
			fprintf(stderr, "%s:%d: %s: %d %s\n", __FILE__,	\
				__LINE__, #call, e_, aclGetRecentErrMsg());	\
			exit(1);					\
		}							\
	} while (0)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static acldvppPicDesc *pic(void *dev, acldvppPixelFormat f, uint32_t w, uint32_t h,
			   uint32_t ws, uint32_t hs, uint32_t size)
{
	acldvppPicDesc *p = acldvppCreatePicDesc();

	OK(acldvppSetPicDescData(p, dev));
	OK(acldvppSetPicDescFormat(p, f));
	OK(acldvppSetPicDescWidth(p, w));
	OK(acldvppSetPicDescHeight(p, h));
	OK(acldvppSetPicDescWidthStride(p, ws));
	OK(acldvppSetPicDescHeightStride(p, hs));
	OK(acldvppSetPicDescSize(p, size));
	return p;
}

/* A 1080p picture with detail: gradients and a texture. */
static void fill_nv12(uint8_t *p)
{
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			p[y * W + x] = (uint8_t)(x * 200 / W + 20 * sin(x / 7.0) * cos(y / 5.0) + 30);
	for (int i = W * H; i < W * H * 3 / 2; i++)
		p[i] = (uint8_t)(128 + (i % 97) - 48);
}

/*
 * Seconds per call of a 64x64 to 32x32 NV12 resize, submitted and
 * synchronized as the big one is: what a call costs besides its pixels
 * (the ACL call, the submit, an engine waking, the sync).
 */
static double bench_vpc_tiny(aclrtStream s, acldvppChannelDesc *ch,
			     acldvppResizeConfig *rc, int n)
{
	const uint32_t in_bytes = 64 * 64 * 3 / 2, out_bytes = 32 * 32 * 3 / 2;
	void *in_dev, *out_dev;
	double t0, t;

	OK(acldvppMalloc(&in_dev, in_bytes));
	OK(acldvppMalloc(&out_dev, out_bytes));
	OK(aclrtMemset(in_dev, in_bytes, 77, in_bytes));
	acldvppPicDesc *in = pic(in_dev, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 64, 64, 64, 64,
				 in_bytes);
	acldvppPicDesc *out = pic(out_dev, PIXEL_FORMAT_YUV_SEMIPLANAR_420, 32, 32, 32, 32,
				  out_bytes);
	for (int i = 0; i < 3; i++) {
		OK(acldvppVpcResizeAsync(ch, in, out, rc, s));
		OK(aclrtSynchronizeStream(s));
	}
	t0 = now();
	for (int i = 0; i < n; i++) {
		OK(acldvppVpcResizeAsync(ch, in, out, rc, s));
		OK(aclrtSynchronizeStream(s));
	}
	t = (now() - t0) / n;
	acldvppDestroyPicDesc(in);
	acldvppDestroyPicDesc(out);
	acldvppFree(in_dev);
	acldvppFree(out_dev);
	return t;
}

static void bench_vpc(aclrtStream s, acldvppChannelDesc *ch)
{
	const uint32_t in_bytes = W * H * 3 / 2, out_bytes = OW * OH * 3 / 2;
	const int n = 30;
	void *in_dev, *out_dev;
	uint8_t *host = (uint8_t *)malloc(in_bytes);
	acldvppResizeConfig *rc = acldvppCreateResizeConfig();
	double t0, vpc, cv_t, tiny;

	fill_nv12(host);
	OK(acldvppMalloc(&in_dev, in_bytes));
	OK(acldvppMalloc(&out_dev, out_bytes));
	OK(aclrtMemcpy(in_dev, in_bytes, host, in_bytes, ACL_MEMCPY_HOST_TO_DEVICE));
	acldvppPicDesc *in = pic(in_dev, PIXEL_FORMAT_YUV_SEMIPLANAR_420, W, H, W, H, in_bytes);
	acldvppPicDesc *out = pic(out_dev, PIXEL_FORMAT_YUV_SEMIPLANAR_420, OW, OH, OW, OH,
				  out_bytes);
	OK(acldvppSetResizeConfigInterpolation(rc, 1));
	for (int i = 0; i < 3; i++) {
		OK(acldvppVpcResizeAsync(ch, in, out, rc, s));
		OK(aclrtSynchronizeStream(s));
	}
	t0 = now();
	for (int i = 0; i < n; i++) {
		OK(acldvppVpcResizeAsync(ch, in, out, rc, s));
		OK(aclrtSynchronizeStream(s));
	}
	vpc = (now() - t0) / n;
	tiny = bench_vpc_tiny(s, ch, rc, n);

	cv::Mat y(H, W, CV_8UC1, host), uv(H / 2, W / 2, CV_8UC2, host + W * H);
	cv::Mat oy, ouv;
	for (int i = 0; i < 3; i++) {
		cv::resize(y, oy, cv::Size(OW, OH), 0, 0, cv::INTER_LINEAR);
		cv::resize(uv, ouv, cv::Size(OW / 2, OH / 2), 0, 0, cv::INTER_LINEAR);
	}
	t0 = now();
	for (int i = 0; i < n; i++) {
		cv::resize(y, oy, cv::Size(OW, OH), 0, 0, cv::INTER_LINEAR);
		cv::resize(uv, ouv, cv::Size(OW / 2, OH / 2), 0, 0, cv::INTER_LINEAR);
	}
	cv_t = (now() - t0) / n;
	printf("# VPC resize %.3f ms, cv::resize %.3f ms (%d OpenCV threads); "
	       "VPC 64x64 -> 32x32 (the fixed cost) %.3f ms\n",
	       vpc * 1e3, cv_t * 1e3, cv::getNumThreads(), tiny * 1e3);
	bench_report("vpc_resize_1080p_to_224_vs_opencv", 1.0 / vpc, "op/s", 1.0 / cv_t);
	acldvppDestroyPicDesc(in);
	acldvppDestroyPicDesc(out);
	acldvppDestroyResizeConfig(rc);
	acldvppFree(in_dev);
	acldvppFree(out_dev);
	free(host);
}

static unsigned char *make_jpeg(unsigned long *n)
{
	tjhandle tj = tjInitCompress();
	uint8_t *rgb = (uint8_t *)malloc((size_t)W * H * 3);
	unsigned char *out = NULL;

	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			uint8_t *q = rgb + ((size_t)y * W + x) * 3;

			q[0] = (uint8_t)(x * 255 / W);
			q[1] = (uint8_t)(y * 255 / H);
			q[2] = (uint8_t)(128 + 60 * sin(x / 9.0) * cos(y / 11.0));
		}
	*n = 0;
	if (tjCompress2(tj, rgb, W, 0, H, TJPF_RGB, &out, n, TJSAMP_420, 90, 0))
		exit(1);
	tjDestroy(tj);
	free(rgb);
	return out;
}

static void bench_jpegd(aclrtStream s, acldvppChannelDesc *ch, const unsigned char *jpg,
			unsigned long n)
{
	const int iters = 10;
	uint32_t dec = 0;
	void *in_dev, *out_dev;
	double t0, task, direct;
	tjhandle tj = tjInitDecompress();
	unsigned char *planes[3];
	int strides[3] = { 0, 0, 0 };

	OK(acldvppJpegPredictDecSize(jpg, n, PIXEL_FORMAT_YUV_SEMIPLANAR_420, &dec));
	OK(acldvppMalloc(&in_dev, n));
	OK(acldvppMalloc(&out_dev, dec));
	OK(aclrtMemcpy(in_dev, n, jpg, n, ACL_MEMCPY_HOST_TO_DEVICE));
	acldvppPicDesc *out = acldvppCreatePicDesc();
	OK(acldvppSetPicDescData(out, out_dev));
	OK(acldvppSetPicDescSize(out, dec));
	OK(acldvppSetPicDescFormat(out, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
	for (int i = 0; i < 2; i++) {
		OK(acldvppJpegDecodeAsync(ch, in_dev, (uint32_t)n, out, s));
		OK(aclrtSynchronizeStream(s));
	}
	t0 = now();
	for (int i = 0; i < iters; i++) {
		OK(acldvppJpegDecodeAsync(ch, in_dev, (uint32_t)n, out, s));
		OK(aclrtSynchronizeStream(s));
	}
	task = (now() - t0) / iters;
	for (int c = 0; c < 3; c++)
		planes[c] = (unsigned char *)malloc(tjPlaneSizeYUV(c, W, 0, H, TJSAMP_420));
	for (int i = 0; i < 2; i++)
		tjDecompressToYUVPlanes(tj, jpg, n, planes, W, strides, H, 0);
	t0 = now();
	for (int i = 0; i < iters; i++)
		if (tjDecompressToYUVPlanes(tj, jpg, n, planes, W, strides, H, 0))
			exit(1);
	direct = (now() - t0) / iters;
	printf("# JPEGD task %.2f ms, libjpeg-turbo direct %.2f ms\n", task * 1e3,
	       direct * 1e3);
	bench_report("jpegd_1080p_vs_libjpeg_turbo", 1.0 / task, "op/s", 1.0 / direct);
	for (int c = 0; c < 3; c++)
		free(planes[c]);
	tjDestroy(tj);
	acldvppDestroyPicDesc(out);
	acldvppFree(in_dev);
	acldvppFree(out_dev);
}

/* One channel of the pipeline: its own stream, DVPP channel and buffers. */
struct lane {
	aclrtContext ctx;
	const unsigned char *jpg;
	unsigned long n;
	uint32_t model;
	int have_model, images;
	double seconds;
};

static void *run_lane(void *arg)
{
	struct lane *l = (struct lane *)arg;
	acldvppChannelDesc *ch = acldvppCreateChannelDesc();
	acldvppResizeConfig *rc = acldvppCreateResizeConfig();
	acldvppRoiConfig *crop = acldvppCreateRoiConfig(420, 1499, 0, 1079);
	aclmdlDataset *ins = NULL, *outs = NULL;
	aclmdlDesc *md = NULL;
	aclrtStream s;
	uint32_t dec = 0, small = OW * OH * 3 / 2;
	void *in_dev, *out_dev, *small_dev;
	double t0;

	OK(aclrtSetCurrentContext(l->ctx));
	OK(aclrtCreateStream(&s));
	OK(acldvppCreateChannel(ch));
	OK(acldvppSetResizeConfigInterpolation(rc, 1));
	OK(acldvppJpegPredictDecSize(l->jpg, l->n, PIXEL_FORMAT_YUV_SEMIPLANAR_420, &dec));
	OK(acldvppMalloc(&in_dev, l->n));
	OK(acldvppMalloc(&out_dev, dec));
	OK(acldvppMalloc(&small_dev, small));
	OK(aclrtMemcpy(in_dev, l->n, l->jpg, l->n, ACL_MEMCPY_HOST_TO_DEVICE));
	acldvppPicDesc *big = acldvppCreatePicDesc();
	OK(acldvppSetPicDescData(big, out_dev));
	OK(acldvppSetPicDescSize(big, dec));
	OK(acldvppSetPicDescFormat(big, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
	OK(acldvppSetPicDescWidth(big, W));
	OK(acldvppSetPicDescHeight(big, H));
	OK(acldvppSetPicDescWidthStride(big, (W + 127) / 128 * 128));
	OK(acldvppSetPicDescHeightStride(big, (H + 15) / 16 * 16));
	acldvppPicDesc *sm = pic(small_dev, PIXEL_FORMAT_YUV_SEMIPLANAR_420, OW, OH, OW, OH,
				 small);
	if (l->have_model) {
		md = aclmdlCreateDesc();
		OK(aclmdlGetDesc(md, l->model));
		ins = aclmdlCreateDataset();
		outs = aclmdlCreateDataset();
		OK(aclmdlAddDatasetBuffer(ins, aclCreateDataBuffer(small_dev, small)));
		for (size_t i = 0; i < aclmdlGetNumOutputs(md); i++) {
			void *o;
			size_t sz = aclmdlGetOutputSizeByIndex(md, i);

			OK(aclrtMalloc(&o, sz, ACL_MEM_MALLOC_HUGE_FIRST));
			OK(aclmdlAddDatasetBuffer(outs, aclCreateDataBuffer(o, sz)));
		}
	}
	t0 = now();
	for (int i = 0; i < l->images; i++) {
		OK(acldvppJpegDecodeAsync(ch, in_dev, (uint32_t)l->n, big, s));
		OK(acldvppVpcCropResizeAsync(ch, big, sm, crop, rc, s));
		if (l->have_model)
			OK(aclmdlExecuteAsync(l->model, ins, outs, s));
		OK(aclrtSynchronizeStream(s));
	}
	l->seconds = now() - t0;
	acldvppDestroyPicDesc(big);
	acldvppDestroyPicDesc(sm);
	acldvppDestroyRoiConfig(crop);
	acldvppDestroyResizeConfig(rc);
	OK(acldvppDestroyChannel(ch));
	acldvppDestroyChannelDesc(ch);
	acldvppFree(in_dev);
	acldvppFree(out_dev);
	acldvppFree(small_dev);
	aclrtDestroyStream(s);
	return NULL;
}

static void bench_pipeline(aclrtContext ctx, const unsigned char *jpg, unsigned long n)
{
	const char *model = getenv("VNPU_DVPP_BENCH_MODEL");
	struct lane lanes[2];
	uint32_t id = 0;
	int have = 0, images;
	double one = 0, two = 0;
	pthread_t t[2];

	if (model && *model && aclmdlLoadFromFile(model, &id) == ACL_SUCCESS)
		have = 1;
	images = have ? 2 : 12;	/* a ResNet-18 inference takes seconds under TCG */
	for (int k = 1; k <= 2; k++) {
		for (int i = 0; i < k; i++) {
			lanes[i] = (struct lane){ ctx, jpg, n, id, have, images, 0 };
			pthread_create(&t[i], NULL, run_lane, &lanes[i]);
		}
		for (int i = 0; i < k; i++)
			pthread_join(t[i], NULL);
		if (k == 1)
			one = images / lanes[0].seconds;
		else
			two = 2 * images / (lanes[0].seconds > lanes[1].seconds ?
					    lanes[0].seconds : lanes[1].seconds);
	}
	printf("# pipeline JPEGD -> VPC crop-resize%s: %.2f images/s on 1 channel, %.2f on 2\n",
	       have ? " -> model (AIPP)" : "", one, two);
	bench_report(have ? "pipeline_model_images_per_s_1ch" : "pipeline_images_per_s_1ch",
		     one, "img/s", 0);
	bench_report(have ? "pipeline_model_2ch_vs_1ch" : "pipeline_2ch_vs_1ch", two,
		     "img/s", one);
	if (have)
		aclmdlUnload(id);
}

int main(int argc, char **argv)
{
	aclrtContext ctx;
	aclrtStream s;
	acldvppChannelDesc *ch;
	unsigned long n;
	unsigned char *jpg;

	OK(aclInit(NULL));
	OK(aclrtSetDevice(0));
	OK(aclrtGetCurrentContext(&ctx));
	OK(aclrtCreateStream(&s));
	ch = acldvppCreateChannelDesc();
	OK(acldvppCreateChannel(ch));
	bench_vpc(s, ch);
	jpg = make_jpeg(&n);
	bench_jpegd(s, ch, jpg, n);
	bench_pipeline(ctx, jpg, n);
	tjFree(jpg);
	OK(acldvppDestroyChannel(ch));
	acldvppDestroyChannelDesc(ch);
	aclrtDestroyStream(s);
	aclrtResetDevice(0);
	aclFinalize();
	return argc > 1 && bench_write_json(argv[1]) ? 1 : 0;
}
