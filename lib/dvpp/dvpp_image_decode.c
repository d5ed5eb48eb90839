// SPDX-License-Identifier: MIT
/*
 * acldvppJpegDecodeAsync and acldvppPngDecodeAsync: check what can be
 * checked when the call is made (the channel, the buffers, the requested
 * format), then queue a media task that reads the file out of device
 * memory, decodes it with libjpeg-turbo or libpng (codec_*.c) and writes
 * the picture and its size and strides into outputDesc. A file the
 * decoder refuses fails the task: outputDesc's retCode says why and the
 * stream's synchronize returns ACL_ERROR_RT_AICPU_EXCEPTION.
 */
#include <errno.h>
#include <stdlib.h>

#include "../core/entry_check.h"
#include "dvpp_codec.h"
#include "dvpp_codec_api.h"
#include "dvpp_media_task.h"
#include "dvpp_vpc_check.h"
#include "../core/prof_rt.h"

/* retCode of a picture whose decode failed: the errno of the failure. */

struct decode_task {
	bool png;
	struct rt_device *dev;
	const void *data;		/* device */
	uint32_t size;
	acldvppPicDesc *out;		/* size and strides are written back */
	void *out_data;			/* as checked when queued */
	uint32_t out_size;
	uint32_t out_format;
	uint32_t align_mode;
};

static int decode_run(void *arg)
{
	struct decode_task *t = arg;
	struct dvpp_pic_layout l;
	char why[160] = "";
	void *in = malloc(t->size), *pic = malloc(t->out_size);
	int ret = in && pic ? 0 : -ENOMEM;

	if (!ret)
		ret = dvpp_from_device(t->dev, in, t->data, t->size);
	if (!ret && t->png)
		ret = dvpp_png_decode(in, t->size, t->out_format, pic, t->out_size,
				      &l, why, sizeof(why));
	else if (!ret)
		ret = dvpp_jpeg_decode(in, t->size, t->out_format, t->align_mode,
				       pic, t->out_size, &l, why, sizeof(why));
	if (!ret)
		ret = dvpp_to_device(t->dev, t->out_data, pic, l.size);
	if (!ret) {
		t->out->format = l.format;
		t->out->width = l.width;
		t->out->height = l.height;
		t->out->width_stride = l.width_stride;
		t->out->height_stride = l.height_stride;
		t->out->ret_code = 0;
	} else {
		t->out->ret_code = (uint32_t)-ret;
		dvpp_media_fail(t->png ? "PNG decode" : "JPEG decode",
				why[0] ? why : "copying the picture");
	}
	free(in);
	free(pic);
	free(t);
	return ret;
}

static aclError decode_async(const char *func, bool png,
			     acldvppChannelDesc *ch, const void *data,
			     uint32_t size, acldvppPicDesc *out,
			     aclrtStream stream)
{
	struct decode_task *t;
	struct rt_stream *s;
	aclError e;

	e = dvpp_stream_arg(func, stream, &s);
	if (!e)
		e = dvpp_check_channel(func, ch, png ? DVPP_CHNMODE_PNGD :
						       DVPP_CHNMODE_JPEGD);
	if (e)
		return e;
	if (!data || !size)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "the %s file is empty (data %p, size %u)",
				   png ? "PNG" : "JPEG", data, size);
	e = dvpp_check_mem(func, "data", data, size);
	if (e)
		return e;
	if (!DVPP_IS(out, PIC))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "outputDesc %p is not a live picture description",
				   (void *)out);
	if (!out->data || !out->size)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "outputDesc needs data and size (acldvppJpegPredictDecSize gives the size)");
	e = dvpp_check_mem(func, "outputDesc data", out->data, out->size);
	if (e)
		return e;
	if (png ? !dvpp_png_format_ok(out->format) :
		  !dvpp_jpeg_format_ok(out->format))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s does not decode to pixel format %u",
				   png ? "PNGD" : "JPEGD", out->format);
	t = calloc(1, sizeof(*t));
	if (!t)
		return acl_fail_at(func, ACL_ERROR_BAD_ALLOC, "out of host memory");
	*t = (struct decode_task){ png, dvpp_stream_device(s), data, size, out,
				   out->data, out->size, out->format,
				   ch->jpegd_precision };
	e = dvpp_media_launch(func, s, decode_run, t);
	if (e)
		free(t);
	return e;
}

aclError acldvppJpegDecodeAsync(acldvppChannelDesc *channelDesc,
				const void *data, uint32_t size,
				acldvppPicDesc *outputDesc, aclrtStream stream)
{
	PROF_API();
	return decode_async(__func__, false, channelDesc, data, size, outputDesc,
			    stream);
}

aclError acldvppPngDecodeAsync(acldvppChannelDesc *channelDesc,
			       const void *data, uint32_t size,
			       acldvppPicDesc *outputDesc, aclrtStream stream)
{
	PROF_API();
	return decode_async(__func__, true, channelDesc, data, size, outputDesc,
			    stream);
}
