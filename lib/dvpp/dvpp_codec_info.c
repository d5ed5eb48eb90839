// SPDX-License-Identifier: MIT
/*
 * The host-side codec calls: image information and buffer sizes read
 * from a file in host memory (acldvppJpegGetImageInfo(V2),
 * acldvppJpegPredictDecSize, acldvppPngGetImageInfo,
 * acldvppPngPredictDecSize), the encoder's bound
 * (acldvppJpegPredictEncSize), and the argument rules the Async codec
 * calls share. A file that is not a JPEG (PNG) or is damaged is
 * ACL_ERROR_INVALID_PARAM; a JPEG the decoder does not take (progressive,
 * arithmetic-coded, 12-bit, ...) is ACL_ERROR_UNSUPPORTED_JPEG, a PNG of
 * a size PNGD does not take ACL_ERROR_FEATURE_UNSUPPORTED.
 */
#include <errno.h>

#include "../core/entry_check.h"
#include "dvpp_codec.h"
#include "dvpp_codec_api.h"
#include "dvpp_vpc_check.h"
#include "../core/prof_rt.h"

bool dvpp_jpeg_format_ok(uint32_t format)
{
	return format == DVPP_FMT_NV12 || format == DVPP_FMT_NV21 ||
	       format == DVPP_FMT_YVU_SP_422 || format == DVPP_FMT_YVU_SP_444 ||
	       format == DVPP_FMT_UNKNOWN;
}

bool dvpp_png_format_ok(uint32_t format)
{
	return format == DVPP_FMT_RGB_888 || format == DVPP_FMT_RGBA_8888 ||
	       format == DVPP_FMT_UNKNOWN;
}

static aclError codec_error(const char *func, int err, bool jpeg,
			    const char *why)
{
	aclError code = ACL_ERROR_INVALID_PARAM;

	if (err == -EOPNOTSUPP)
		code = jpeg ? ACL_ERROR_UNSUPPORTED_JPEG :
			      ACL_ERROR_FEATURE_UNSUPPORTED;
	else if (err == -ERANGE)
		code = jpeg ? ACL_ERROR_UNSUPPORTED_JPEG :
			      ACL_ERROR_FEATURE_UNSUPPORTED;
	else if (err == -ENOMEM)
		code = ACL_ERROR_BAD_ALLOC;
	return acl_fail_at(func, code, "%s", why);
}

aclError acldvppJpegGetImageInfoV2(const void *data, uint32_t size,
				   uint32_t *width, uint32_t *height,
				   int32_t *components,
				   acldvppJpegFormat *format)
{
	PROF_API();
	struct dvpp_jpeg_info info;
	char why[160] = "";
	int ret;

	RT_REQUIRE_ARG(data);
	RT_REQUIRE_ARG(width);
	RT_REQUIRE_ARG(height);
	if (!size)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "size must not be 0");
	ret = dvpp_jpeg_info(data, size, &info, why, sizeof(why));
	if (ret)
		return codec_error(__func__, ret, true, why);
	*width = info.width;
	*height = info.height;
	if (components)
		*components = info.components;
	if (format)
		*format = (acldvppJpegFormat)info.css;
	return ACL_SUCCESS;
}

aclError acldvppJpegGetImageInfo(const void *data, uint32_t size,
				 uint32_t *width, uint32_t *height,
				 int32_t *components)
{
	PROF_API();
	return acldvppJpegGetImageInfoV2(data, size, width, height, components,
					 NULL);
}

aclError acldvppJpegPredictDecSize(const void *data, uint32_t dataSize,
				   acldvppPixelFormat outputPixelFormat,
				   uint32_t *decSize)
{
	PROF_API();
	struct dvpp_jpeg_info info;
	struct dvpp_pic_layout l;
	char why[160] = "";
	int ret;

	RT_REQUIRE_ARG(data);
	RT_REQUIRE_ARG(decSize);
	if (!dataSize)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "dataSize must not be 0");
	ret = dvpp_jpeg_info(data, dataSize, &info, why, sizeof(why));
	if (!ret && !info.baseline)
		ret = dvpp_codec_fail(why, sizeof(why), -EOPNOTSUPP,
				      "JPEGD decodes baseline Huffman JPEGs only (frame marker 0x%02x)",
				      info.sof);
	if (!ret)
		ret = dvpp_jpeg_out_layout(info.width, info.height, info.css,
					   outputPixelFormat,
					   DVPP_JPEGD_ALIGN_DOWN_COMPAT, &l, why,
					   sizeof(why));
	if (ret)
		return codec_error(__func__, ret, true, why);
	*decSize = l.size;
	return ACL_SUCCESS;
}

aclError acldvppPngGetImageInfo(const void *data, uint32_t dataSize,
				uint32_t *width, uint32_t *height,
				int32_t *components)
{
	PROF_API();
	struct dvpp_png_info info;
	char why[160] = "";
	int ret;

	RT_REQUIRE_ARG(data);
	RT_REQUIRE_ARG(width);
	RT_REQUIRE_ARG(height);
	if (!dataSize)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "dataSize must not be 0");
	ret = dvpp_png_info(data, dataSize, &info, why, sizeof(why));
	if (ret)
		return codec_error(__func__, ret, false, why);
	*width = info.width;
	*height = info.height;
	if (components)
		*components = info.components;
	return ACL_SUCCESS;
}

aclError acldvppPngPredictDecSize(const void *data, uint32_t dataSize,
				  acldvppPixelFormat outputPixelFormat,
				  uint32_t *decSize)
{
	PROF_API();
	struct dvpp_png_info info;
	struct dvpp_pic_layout l;
	char why[160] = "";
	int ret;

	RT_REQUIRE_ARG(data);
	RT_REQUIRE_ARG(decSize);
	if (!dataSize)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "dataSize must not be 0");
	ret = dvpp_png_info(data, dataSize, &info, why, sizeof(why));
	if (!ret)
		ret = dvpp_png_out_layout(info.width, info.height, info.alpha,
					  outputPixelFormat, &l, why, sizeof(why));
	if (ret)
		return codec_error(__func__, ret, false, why);
	*decSize = l.size;
	return ACL_SUCCESS;
}

aclError acldvppJpegPredictEncSize(const acldvppPicDesc *inputDesc,
				   const acldvppJpegeConfig *config,
				   uint32_t *size)
{
	PROF_API();
	char why[160] = "";
	int ret;

	if (!DVPP_IS(inputDesc, PIC))
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"inputDesc %p is not a live picture description",
				(const void *)inputDesc);
	if (!DVPP_IS(config, JPEGE))
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"config %p is not a live JPEG encoder configuration",
				(const void *)config);
	RT_REQUIRE_ARG(size);
	ret = dvpp_jpeg_predict_enc_size(inputDesc->format, inputDesc->width,
					 inputDesc->height, size, why,
					 sizeof(why));
	return ret ? acl_fail(ACL_ERROR_INVALID_PARAM, "%s", why) : ACL_SUCCESS;
}

aclError dvpp_check_encode_input(const char *func, const acldvppPicDesc *p,
				 uint32_t *need)
{
	uint32_t bound, row;
	bool packed;
	char why[160] = "";
	uint64_t n;

	if (!DVPP_IS(p, PIC))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "inputDesc %p is not a live picture description",
				   (const void *)p);
	if (dvpp_jpeg_predict_enc_size(p->format, p->width, p->height, &bound,
				       why, sizeof(why)))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM, "inputDesc: %s",
				   why);
	packed = p->format != DVPP_FMT_NV12 && p->format != DVPP_FMT_NV21;
	row = packed ? 2 * p->width : p->width;
	if (p->width_stride % 16 || p->width_stride < row)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "inputDesc width stride %u: a multiple of 16 of at least %u",
				   p->width_stride, row);
	if (p->height_stride < p->height || p->height_stride % 2)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "inputDesc height stride %u: even, at least the height %u",
				   p->height_stride, p->height);
	n = (uint64_t)p->width_stride * p->height_stride;
	if (!packed)
		n = n * 3 / 2;
	if (!p->data || p->size < n)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "inputDesc needs data of %llu bytes (data %p, size %u)",
				   (unsigned long long)n, p->data, p->size);
	if (dvpp_check_mem(func, "inputDesc data", p->data, n))
		return ACL_ERROR_INVALID_PARAM;
	*need = (uint32_t)n;
	return ACL_SUCCESS;
}
