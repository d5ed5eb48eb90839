// SPDX-License-Identifier: MIT
/*
 * The single-picture VPC calls: resize, crop, crop-resize, crop and
 * paste, colour conversion, PyrDown and MakeBorder. Each checks its
 * arguments with CANN's rules (dvpp_vpc_check.c) and queues one VPC task.
 */
#include "../core/entry_check.h"
#include "dvpp_vpc.h"
#include "../core/prof_rt.h"

/*
 * Interpolation of the calls without a resize configuration: bilinear;
 * ConvertColor takes each pixel's own chroma (2 x 2 blocks share it, as
 * OpenCV's cvtColor does), the nearest.
 */
#define VPC_DEFAULT_INTERP	1
#define VPC_NEAREST		2

struct vpc_call {
	const char *func;
	acldvppChannelDesc *ch;
	acldvppPicDesc *in, *out;
	const acldvppRoiConfig *crop, *paste;
	const acldvppResizeConfig *resize;
	aclrtStream stream;
	uint32_t interpolation;	/* without a resize configuration */
};

static aclError vpc_resize_like(const struct vpc_call *c)
{
	const struct dvpp_format *fi, *fo;
	struct dvpp_vpc_task t = { .in = c->in, .out = c->out };
	struct rt_stream *s;
	aclError e;

	e = dvpp_stream_arg(c->func, c->stream, &s);
	if (!e)
		e = dvpp_check_channel(c->func, c->ch, DVPP_CHNMODE_VPC);
	if (!e)
		e = dvpp_check_vpc_pic(c->func, "inputDesc", c->in, false, &fi);
	if (!e)
		e = dvpp_check_vpc_pic(c->func, "outputDesc", c->out, true, &fo);
	if (!e && c->resize && !DVPP_IS(c->resize, RESIZE))
		e = acl_fail_at(c->func, ACL_ERROR_INVALID_PARAM,
				"resizeConfig %p is not a live resize configuration",
				(const void *)c->resize);
	if (!e && c->crop)
		e = dvpp_check_roi(c->func, "cropArea", c->crop, false,
				   c->in->width, c->in->height);
	if (!e && c->paste)
		e = dvpp_check_roi(c->func, "pasteArea", c->paste, true,
				   c->out->width, c->out->height);
	if (e)
		return e;
	t.crop = c->crop ? dvpp_rect_roi(c->crop) : dvpp_rect_whole(c->in, fi);
	t.paste = c->paste ? dvpp_rect_roi(c->paste) : dvpp_rect_whole(c->out, fo);
	e = dvpp_check_scale(c->func, t.crop.w, t.crop.h, t.paste.w, t.paste.h);
	if (e)
		return e;
	t.interpolation = c->resize ? c->resize->interpolation :
		c->interpolation ? c->interpolation : VPC_DEFAULT_INTERP;
	t.csc = c->ch->csc_matrix;
	t.kind = DVPP_VPC_KIND_RESIZE;
	return dvpp_vpc_push(c->func, s, &t);
}

aclError acldvppVpcResizeAsync(acldvppChannelDesc *channelDesc,
			       acldvppPicDesc *inputDesc,
			       acldvppPicDesc *outputDesc,
			       acldvppResizeConfig *resizeConfig,
			       aclrtStream stream)
{
	PROF_API();
	struct vpc_call c = { __func__, channelDesc, inputDesc, outputDesc,
			      NULL, NULL, resizeConfig, stream, 0 };

	if (!resizeConfig)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"resizeConfig must not be NULL");
	return vpc_resize_like(&c);
}

aclError acldvppVpcCropAsync(acldvppChannelDesc *channelDesc,
			     acldvppPicDesc *inputDesc,
			     acldvppPicDesc *outputDesc,
			     acldvppRoiConfig *cropArea, aclrtStream stream)
{
	PROF_API();
	struct vpc_call c = { __func__, channelDesc, inputDesc, outputDesc,
			      cropArea, NULL, NULL, stream, 0 };

	RT_REQUIRE_ARG(cropArea);
	return vpc_resize_like(&c);
}

aclError acldvppVpcCropResizeAsync(acldvppChannelDesc *channelDesc,
				   acldvppPicDesc *inputDesc,
				   acldvppPicDesc *outputDesc,
				   acldvppRoiConfig *cropArea,
				   acldvppResizeConfig *resizeConfig,
				   aclrtStream stream)
{
	PROF_API();
	struct vpc_call c = { __func__, channelDesc, inputDesc, outputDesc,
			      cropArea, NULL, resizeConfig, stream, 0 };

	RT_REQUIRE_ARG(cropArea);
	RT_REQUIRE_ARG(resizeConfig);
	return vpc_resize_like(&c);
}

aclError acldvppVpcCropAndPasteAsync(acldvppChannelDesc *channelDesc,
				     acldvppPicDesc *inputDesc,
				     acldvppPicDesc *outputDesc,
				     acldvppRoiConfig *cropArea,
				     acldvppRoiConfig *pasteArea,
				     aclrtStream stream)
{
	PROF_API();
	struct vpc_call c = { __func__, channelDesc, inputDesc, outputDesc,
			      cropArea, pasteArea, NULL, stream, 0 };

	RT_REQUIRE_ARG(cropArea);
	RT_REQUIRE_ARG(pasteArea);
	return vpc_resize_like(&c);
}

aclError acldvppVpcCropResizePasteAsync(acldvppChannelDesc *channelDesc,
					acldvppPicDesc *inputDesc,
					acldvppPicDesc *outputDesc,
					acldvppRoiConfig *cropArea,
					acldvppRoiConfig *pasteArea,
					acldvppResizeConfig *resizeConfig,
					aclrtStream stream)
{
	PROF_API();
	struct vpc_call c = { __func__, channelDesc, inputDesc, outputDesc,
			      cropArea, pasteArea, resizeConfig, stream, 0 };

	RT_REQUIRE_ARG(cropArea);
	RT_REQUIRE_ARG(pasteArea);
	RT_REQUIRE_ARG(resizeConfig);
	return vpc_resize_like(&c);
}

/*
 * ConvertColor keeps the picture's size: an output whose width, height or
 * strides are 0 takes the input's size and CANN's strides for its format.
 */
aclError acldvppVpcConvertColorAsync(acldvppChannelDesc *channelDesc,
				     acldvppPicDesc *inputDesc,
				     acldvppPicDesc *outputDesc,
				     aclrtStream stream)
{
	PROF_API();
	struct vpc_call c = { __func__, channelDesc, inputDesc, outputDesc,
			      NULL, NULL, NULL, stream, 0 };
	const struct dvpp_format *fo;

	c.interpolation = VPC_NEAREST;

	if (DVPP_IS(inputDesc, PIC) && DVPP_IS(outputDesc, PIC)) {
		fo = dvpp_format_find(outputDesc->format);
		if (!outputDesc->width)
			outputDesc->width = inputDesc->width;
		if (!outputDesc->height)
			outputDesc->height = inputDesc->height;
		if (fo && !outputDesc->width_stride)
			outputDesc->width_stride =
				dvpp_format_width_stride(fo, outputDesc->width);
		if (!outputDesc->height_stride)
			outputDesc->height_stride =
				dvpp_format_height_stride(outputDesc->height);
		if (outputDesc->width != inputDesc->width ||
		    outputDesc->height != inputDesc->height)
			return acl_fail(ACL_ERROR_INVALID_PARAM,
					"ConvertColor keeps the size: output %ux%u, input %ux%u",
					outputDesc->width, outputDesc->height,
					inputDesc->width, inputDesc->height);
	}
	return vpc_resize_like(&c);
}

aclError acldvppVpcPyrDownAsync(acldvppChannelDesc *channelDesc,
				acldvppPicDesc *inputDesc,
				acldvppPicDesc *outputDesc, void *reserve,
				aclrtStream stream)
{
	PROF_API();
	const struct dvpp_format *fi, *fo;
	struct dvpp_vpc_task t = { .in = inputDesc, .out = outputDesc };
	struct rt_stream *s;
	aclError e;

	e = dvpp_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	(void)fi;
	(void)fo;
	if (reserve)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "reserve must be NULL");
	e = dvpp_check_channel(__func__, channelDesc, DVPP_CHNMODE_VPC);
	if (!e)
		e = dvpp_check_vpc_pic(__func__, "inputDesc", inputDesc, false, &fi);
	if (!e)
		e = dvpp_check_vpc_pic(__func__, "outputDesc", outputDesc, true, &fo);
	if (e)
		return e;
	if (inputDesc->format != PIXEL_FORMAT_YUV_400 ||
	    outputDesc->format != PIXEL_FORMAT_YUV_400)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"PyrDown takes and gives YUV400 (formats %u -> %u)",
				inputDesc->format, outputDesc->format);
	if (outputDesc->width != (inputDesc->width + 1) / 2 ||
	    outputDesc->height != (inputDesc->height + 1) / 2)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"PyrDown of %ux%u gives %ux%u, not %ux%u",
				inputDesc->width, inputDesc->height,
				(inputDesc->width + 1) / 2,
				(inputDesc->height + 1) / 2, outputDesc->width,
				outputDesc->height);
	/* whole pictures: the task's rectangles stay 0 */
	t.kind = DVPP_VPC_KIND_PYRDOWN;
	return dvpp_vpc_push(__func__, s, &t);
}

aclError acldvppVpcMakeBorderAsync(const acldvppChannelDesc *channelDesc,
				   const acldvppPicDesc *inputDesc,
				   acldvppPicDesc *outputDesc,
				   const acldvppBorderConfig *borderConfig,
				   aclrtStream stream)
{
	PROF_API();
	const struct dvpp_format *fi, *fo;
	struct dvpp_vpc_task t = { .in = inputDesc, .out = outputDesc };
	const acldvppBorderConfig *b = borderConfig;
	struct rt_stream *s;
	aclError e;

	e = dvpp_stream_arg(__func__, stream, &s);
	if (e)
		return e;
	e = dvpp_check_channel(__func__, channelDesc, DVPP_CHNMODE_VPC);
	if (!e)
		e = dvpp_check_vpc_pic(__func__, "inputDesc", inputDesc, false, &fi);
	if (!e)
		e = dvpp_check_vpc_pic(__func__, "outputDesc", outputDesc, true, &fo);
	if (e)
		return e;
	if (!DVPP_IS(b, BORDER))
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"borderConfig %p is not a live border configuration",
				(const void *)b);
	if (inputDesc->format != outputDesc->format)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"MakeBorder keeps the format (%u -> %u)",
				inputDesc->format, outputDesc->format);
	if ((uint64_t)inputDesc->width + b->left + b->right != outputDesc->width ||
	    (uint64_t)inputDesc->height + b->top + b->bottom != outputDesc->height)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"a %ux%u input with borders %u/%u/%u/%u (top/bottom/left/right) is not %ux%u",
				inputDesc->width, inputDesc->height, b->top,
				b->bottom, b->left, b->right, outputDesc->width,
				outputDesc->height);
	t.crop = (struct dvpp_rect){ 0, 0, inputDesc->width, inputDesc->height };
	t.paste = (struct dvpp_rect){ b->left, b->top, inputDesc->width,
				      inputDesc->height };
	t.kind = DVPP_VPC_KIND_BORDER;
	t.border = b;
	return dvpp_vpc_push(__func__, s, &t);
}
