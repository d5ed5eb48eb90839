/* SPDX-License-Identifier: MIT */
/*
 * dvpp_resnet: an image classifier that starts from a JPEG file, the way
 * CANN's ResNet samples with DVPP work.
 *
 *   JPEGD   the file's header read on the host (acldvppJpegGetImageInfoV2,
 *           acldvppJpegPredictDecSize), the file copied into DVPP memory,
 *           decoded to NV12 on the stream, its strides read back;
 *   VPC     the centre square cropped and resized to 224x224 NV12;
 *   model   ResNet-18 converted by atc with an AIPP stage
 *           (examples/resnet18_aipp.cfg: YUV to RGB, ImageNet's
 *           normalisation), so the picture goes in as it is;
 *   top-5   the classes with the highest scores.
 *
 * All on one stream, one synchronize at the end.
 *
 * --check also runs the plain model (resnet18.om) on the same picture
 * normalised on the host with the AIPP formulas (Documentation/aipp.md)
 * and compares the two outputs: they must agree.
 *
 * usage: dvpp_resnet [--check] [PICTURE.jpg [MODEL.om]]
 * Defaults: the test picture `make` builds (build/tests/acl/media/
 * picture.jpg) and build/models/resnet18_aipp.om.
 */
#include <libgen.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"

#define SIDE 224
#define NV12_BYTES (SIDE * SIDE * 3 / 2)
#define CLASSES 1000
#define TOPK 5

static uint8_t *read_file(const char *path, uint32_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (p = malloc(len)) &&
	    fread(p, 1, len, f) == (size_t)len) {
		*n = (uint32_t)len;
	} else {
		free(p);
		p = NULL;
	}
	fclose(f);
	return p;
}

/* JPEG file -> NV12 picture in DVPP memory (*dec), its description. */
static int decode(acldvppChannelDesc *ch, aclrtStream s, const uint8_t *jpg,
		  uint32_t n, void **jpg_dev, void **dec, acldvppPicDesc **desc)
{
	uint32_t w = 0, h = 0, size = 0;
	int32_t comp = 0;
	acldvppJpegFormat fmt;

	CHECK(acldvppJpegGetImageInfoV2(jpg, n, &w, &h, &comp, &fmt));
	CHECK(acldvppJpegPredictDecSize(jpg, n, PIXEL_FORMAT_YUV_SEMIPLANAR_420, &size));
	printf("picture: %ux%u, %d components, sampling %d; NV12 takes %u bytes\n",
	       w, h, comp, (int)fmt, size);
	CHECK(acldvppMalloc(jpg_dev, n));
	CHECK(aclrtMemcpy(*jpg_dev, n, jpg, n, ACL_MEMCPY_HOST_TO_DEVICE));
	CHECK(acldvppMalloc(dec, size));
	*desc = acldvppCreatePicDesc();
	CHECK(acldvppSetPicDescData(*desc, *dec));
	CHECK(acldvppSetPicDescSize(*desc, size));
	CHECK(acldvppSetPicDescFormat(*desc, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
	CHECK(acldvppJpegDecodeAsync(ch, *jpg_dev, n, *desc, s));
	/* the decoder writes the size and strides: read them after a sync */
	CHECK(aclrtSynchronizeStream(s));
	printf("decoded: %ux%u, strides %ux%u\n", acldvppGetPicDescWidth(*desc),
	       acldvppGetPicDescHeight(*desc), acldvppGetPicDescWidthStride(*desc),
	       acldvppGetPicDescHeightStride(*desc));
	return 0;
}

/* The centre square, cropped and resized to SIDE x SIDE NV12. */
static int crop_resize(acldvppChannelDesc *ch, aclrtStream s, acldvppPicDesc *in,
		       void **small, acldvppPicDesc **out)
{
	uint32_t w = acldvppGetPicDescWidth(in), h = acldvppGetPicDescHeight(in);
	uint32_t side = (w < h ? w : h) & ~1u;
	uint32_t left = ((w - side) / 2) & ~1u, top = ((h - side) / 2) & ~1u;
	acldvppRoiConfig *roi = acldvppCreateRoiConfig(left, left + side - 1, top,
						       top + side - 1);
	acldvppResizeConfig *rc = acldvppCreateResizeConfig();

	CHECK(acldvppSetResizeConfigInterpolation(rc, 1));
	CHECK(acldvppMalloc(small, NV12_BYTES));
	*out = acldvppCreatePicDesc();
	CHECK(acldvppSetPicDescData(*out, *small));
	CHECK(acldvppSetPicDescSize(*out, NV12_BYTES));
	CHECK(acldvppSetPicDescFormat(*out, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
	CHECK(acldvppSetPicDescWidth(*out, SIDE));
	CHECK(acldvppSetPicDescHeight(*out, SIDE));
	CHECK(acldvppSetPicDescWidthStride(*out, SIDE));
	CHECK(acldvppSetPicDescHeightStride(*out, SIDE));
	CHECK(acldvppVpcCropResizeAsync(ch, in, *out, roi, rc, s));
	printf("crop %ux%u at (%u, %u), resized to %dx%d\n", side, side, left, top,
	       SIDE, SIDE);
	acldvppDestroyRoiConfig(roi);
	acldvppDestroyResizeConfig(rc);
	return 0;
}

/* Run a model on one input buffer; the scores are copied to host. */
static int infer(const char *path, void *input, size_t in_size, aclrtStream s,
		 float *scores)
{
	uint32_t id;
	aclmdlDesc *d = aclmdlCreateDesc();
	aclmdlDataset *ins = aclmdlCreateDataset(), *outs = aclmdlCreateDataset();
	size_t out_size;
	void *out;

	CHECK(aclmdlLoadFromFile(path, &id));
	CHECK(aclmdlGetDesc(d, id));
	if (aclmdlGetInputSizeByIndex(d, 0) != in_size) {
		fprintf(stderr, "%s takes %zu bytes, not %zu\n", path,
			aclmdlGetInputSizeByIndex(d, 0), in_size);
		return 1;
	}
	out_size = aclmdlGetOutputSizeByIndex(d, 0);
	if (out_size != CLASSES * sizeof(float)) {
		fprintf(stderr, "%s gives %zu bytes, not %d scores\n", path, out_size,
			CLASSES);
		return 1;
	}
	CHECK(aclrtMalloc(&out, out_size, ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclmdlAddDatasetBuffer(ins, aclCreateDataBuffer(input, in_size)));
	CHECK(aclmdlAddDatasetBuffer(outs, aclCreateDataBuffer(out, out_size)));
	CHECK(aclmdlExecuteAsync(id, ins, outs, s));
	CHECK(aclrtSynchronizeStream(s));
	CHECK(aclrtMemcpy(scores, out_size, out, out_size, ACL_MEMCPY_DEVICE_TO_HOST));
	aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ins, 0));
	aclDestroyDataBuffer(aclmdlGetDatasetBuffer(outs, 0));
	aclmdlDestroyDataset(ins);
	aclmdlDestroyDataset(outs);
	aclmdlDestroyDesc(d);
	CHECK(aclmdlUnload(id));
	CHECK(aclrtFree(out));
	return 0;
}

static void top5(const float *scores)
{
	int best[TOPK];

	for (int k = 0; k < TOPK; k++) {
		best[k] = -1;
		for (int i = 0; i < CLASSES; i++) {
			int taken = 0;

			for (int j = 0; j < k; j++)
				taken |= best[j] == i;
			if (!taken && (best[k] < 0 || scores[i] > scores[best[k]]))
				best[k] = i;
		}
		printf("  top %d: class %4d  score %9.4f\n", k + 1, best[k],
		       scores[best[k]]);
	}
}

/*
 * The AIPP stage on the host (Documentation/aipp.md): NV12 to RGB with
 * the configuration's matrix, floored and clamped, then (x - min) *
 * var_reci per channel, NCHW float.
 */
static void host_aipp(const uint8_t *nv12, float *x)
{
	static const int m[3][3] = { { 256, 0, 359 }, { 256, -88, -183 }, { 256, 454, 0 } };
	static const double mn[3] = { 123.675, 116.28, 103.53 };
	static const double vr[3] = { 0.0171247538, 0.0175070028, 0.0174291939 };

	for (int y = 0; y < SIDE; y++)
		for (int xx = 0; xx < SIDE; xx++) {
			int in[3] = { nv12[y * SIDE + xx],
				      nv12[SIDE * SIDE + (y / 2) * SIDE + (xx / 2) * 2] - 128,
				      nv12[SIDE * SIDE + (y / 2) * SIDE + (xx / 2) * 2 + 1] - 128 };

			for (int c = 0; c < 3; c++) {
				int acc = m[c][0] * in[0] + m[c][1] * in[1] + m[c][2] * in[2];
				int v = (int)floor(acc / 256.0);

				v = v < 0 ? 0 : v > 255 ? 255 : v;
				x[(c * SIDE + y) * SIDE + xx] = (float)((v - mn[c]) * vr[c]);
			}
		}
}

static int check(const char *aipp_model, void *small, aclrtStream s,
		 const float *scores)
{
	char plain[4200];
	uint8_t *nv12 = malloc(NV12_BYTES);
	float *x = malloc(3 * SIDE * SIDE * sizeof(float));
	float ref[CLASSES], worst = 0;
	void *dev;

	snprintf(plain, sizeof(plain), "%s", aipp_model);
	strcpy(strstr(plain, "_aipp.om") ? strstr(plain, "_aipp.om") : plain + strlen(plain),
	       ".om");
	CHECK(aclrtMemcpy(nv12, NV12_BYTES, small, NV12_BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
	host_aipp(nv12, x);
	CHECK(aclrtMalloc(&dev, 3 * SIDE * SIDE * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
	CHECK(aclrtMemcpy(dev, 3 * SIDE * SIDE * sizeof(float), x,
			  3 * SIDE * SIDE * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE));
	if (infer(plain, dev, 3 * SIDE * SIDE * sizeof(float), s, ref))
		return 1;
	for (int i = 0; i < CLASSES; i++) {
		float d = fabsf(ref[i] - scores[i]) / (1.0f + fabsf(ref[i]));

		worst = d > worst ? d : worst;
	}
	printf("check: %s on the host-normalised picture differs by at most %.2e (relative)\n",
	       plain, worst);
	CHECK(aclrtFree(dev));
	free(nv12);
	free(x);
	return worst < 1e-3f ? 0 : 1;
}

int main(int argc, char **argv)
{
	char def_pic[4200], def_model[4200], exe[4096], *dir;
	ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *pic_path, *model_path;
	int do_check = argc > 1 && !strcmp(argv[1], "--check"), a = 1 + do_check;
	acldvppChannelDesc *ch;
	acldvppPicDesc *big = NULL, *small_desc = NULL;
	void *jpg_dev = NULL, *dec = NULL, *small = NULL;
	float *scores = malloc(CLASSES * sizeof(float));
	aclrtStream s;
	uint8_t *jpg;
	uint32_t n = 0;
	int ret = 0;

	exe[k > 0 ? k : 0] = 0;
	dir = dirname(exe);
	snprintf(def_pic, sizeof(def_pic), "%s/../tests/acl/media/picture.jpg", dir);
	snprintf(def_model, sizeof(def_model), "%s/../models/resnet18_aipp.om", dir);
	pic_path = argc > a ? argv[a] : def_pic;
	model_path = argc > a + 1 ? argv[a + 1] : def_model;
	jpg = read_file(pic_path, &n);
	if (!jpg) {
		fprintf(stderr, "dvpp_resnet: cannot read %s\n", pic_path);
		return 1;
	}
	CHECK(aclInit(NULL));
	CHECK(aclrtSetDevice(0));
	CHECK(aclrtCreateStream(&s));
	ch = acldvppCreateChannelDesc();
	CHECK(acldvppCreateChannel(ch));
	if (decode(ch, s, jpg, n, &jpg_dev, &dec, &big) ||
	    crop_resize(ch, s, big, &small, &small_desc) ||
	    infer(model_path, small, NV12_BYTES, s, scores))
		return 1;
	printf("%s on %s:\n", model_path, pic_path);
	top5(scores);
	if (do_check)
		ret = check(model_path, small, s, scores);
	acldvppDestroyPicDesc(big);
	acldvppDestroyPicDesc(small_desc);
	CHECK(acldvppFree(jpg_dev));
	CHECK(acldvppFree(dec));
	CHECK(acldvppFree(small));
	CHECK(acldvppDestroyChannel(ch));
	CHECK(acldvppDestroyChannelDesc(ch));
	CHECK(aclrtDestroyStream(s));
	CHECK(aclrtResetDevice(0));
	CHECK(aclFinalize());
	free(jpg);
	free(scores);
	return ret;
}
