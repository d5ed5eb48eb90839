// SPDX-License-Identifier: MIT
/*
 * acldvppJpegEncodeAsync: a media task reads the picture out of device
 * memory, encodes it with libjpeg-turbo (codec_jpeg_enc.c) and writes
 * the file to data; *size, the buffer's size when the call is made, holds
 * the file's size once the stream has synchronized.
 */
#include <errno.h>
#include <stdlib.h>

#include "../core/entry_check.h"
#include "dvpp_codec.h"
#include "dvpp_codec_api.h"
#include "dvpp_media_task.h"
#include "dvpp_vpc_check.h"
#include "../core/prof_rt.h"

struct encode_task {
	struct rt_device *dev;
	acldvppPicDesc in;		/* the description as it was queued */
	acldvppPicDesc *in_desc;	/* its retCode is set */
	void *out;			/* device */
	uint32_t *size;
	uint32_t cap;
	uint32_t level;
};

static int encode_run(void *arg)
{
	struct encode_task *t = arg;
	size_t n = t->cap;
	char why[160] = "";
	void *pic = malloc(t->in.size), *file = malloc(t->cap);
	int ret = pic && file ? 0 : -ENOMEM;

	if (!ret)
		ret = dvpp_from_device(t->dev, pic, t->in.data, t->in.size);
	if (!ret)
		ret = dvpp_jpeg_encode(pic, t->in.size, t->in.format, t->in.width,
				       t->in.height, t->in.width_stride,
				       t->in.height_stride, t->level, file, &n,
				       why, sizeof(why));
	if (!ret)
		ret = dvpp_to_device(t->dev, t->out, file, n);
	if (!ret)
		*t->size = (uint32_t)n;
	else
		dvpp_media_fail("JPEG encode", why[0] ? why : "copying the file");
	t->in_desc->ret_code = ret ? (uint32_t)-ret : 0;
	free(pic);
	free(file);
	free(t);
	return ret;
}

aclError acldvppJpegEncodeAsync(acldvppChannelDesc *channelDesc,
				acldvppPicDesc *inputDesc, const void *data,
				uint32_t *size, acldvppJpegeConfig *config,
				aclrtStream stream)
{
	PROF_API();
	struct encode_task *t;
	struct rt_stream *s;
	uint32_t need;
	aclError e;

	e = dvpp_stream_arg(__func__, stream, &s);
	if (!e)
		e = dvpp_check_channel(__func__, channelDesc, DVPP_CHNMODE_JPEGE);
	if (e)
		return e;
	RT_REQUIRE_ARG(data);
	RT_REQUIRE_ARG(size);
	if (!DVPP_IS(config, JPEGE))
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"config %p is not a live JPEG encoder configuration",
				(void *)config);
	e = dvpp_check_encode_input(__func__, inputDesc, &need);
	if (e)
		return e;
	if (!*size)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"*size is the output buffer's size and must not be 0");
	e = dvpp_check_mem(__func__, "data", data, *size);
	if (e)
		return e;
	t = calloc(1, sizeof(*t));
	if (!t)
		return acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
	t->dev = dvpp_stream_device(s);
	t->in = *inputDesc;
	t->in.size = need;
	t->in_desc = inputDesc;
	t->out = (void *)data;
	t->size = size;
	t->cap = *size;
	t->level = config->level;
	e = dvpp_media_launch(__func__, s, encode_run, t);
	if (e)
		free(t);
	return e;
}
