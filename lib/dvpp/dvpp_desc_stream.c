/* SPDX-License-Identifier: MIT */
/*
 * acldvppStreamDesc: a piece of a video stream (VDEC input, VENC
 * output): where it is, its size, its format, a timestamp the caller
 * gets back in the callback, and the end-of-stream flag (stored as 0 or
 * 1, as CANN does).
 */
#include <stdlib.h>
#include <string.h>

#include "dvpp_check.h"
#include "dvpp_desc.h"
#include "../core/prof_rt.h"

static const struct acldvppStreamDesc *stream_or_null(const acldvppStreamDesc *s)
{
	return DVPP_IS(s, STREAM) ? s : NULL;
}

acldvppStreamDesc *acldvppCreateStreamDesc(void)
{
	PROF_API();
	struct acldvppStreamDesc *s = malloc(sizeof(*s));

	if (!s) {
		acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	memset(s, 0, sizeof(*s));
	s->magic = DVPP_MAGIC_STREAM;
	s->format = H265_MAIN_LEVEL;
	return s;
}

aclError acldvppDestroyStreamDesc(acldvppStreamDesc *streamDesc)
{
	PROF_API();
	DVPP_REQUIRE(streamDesc, STREAM, "acldvppStreamDesc");
	streamDesc->magic = 0;
	free(streamDesc);
	return ACL_SUCCESS;
}

aclError acldvppSetStreamDescData(acldvppStreamDesc *streamDesc, void *dataDev)
{
	PROF_API();
	DVPP_REQUIRE(streamDesc, STREAM, "acldvppStreamDesc");
	if (!dataDev)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "dataDev must not be NULL");
	streamDesc->data = dataDev;
	return ACL_SUCCESS;
}

aclError acldvppSetStreamDescSize(acldvppStreamDesc *streamDesc, uint32_t size)
{
	PROF_API();
	DVPP_REQUIRE(streamDesc, STREAM, "acldvppStreamDesc");
	streamDesc->size = size;
	return ACL_SUCCESS;
}

aclError acldvppSetStreamDescFormat(acldvppStreamDesc *streamDesc, acldvppStreamFormat format)
{
	PROF_API();
	DVPP_REQUIRE(streamDesc, STREAM, "acldvppStreamDesc");
	DVPP_REQUIRE_MAX(format, H264_HIGH_LEVEL);
	streamDesc->format = (uint32_t)format;
	return ACL_SUCCESS;
}

aclError acldvppSetStreamDescTimestamp(acldvppStreamDesc *streamDesc, uint64_t timestamp)
{
	PROF_API();
	DVPP_REQUIRE(streamDesc, STREAM, "acldvppStreamDesc");
	streamDesc->timestamp = timestamp;
	return ACL_SUCCESS;
}

aclError acldvppSetStreamDescRetCode(acldvppStreamDesc *streamDesc, uint32_t retCode)
{
	PROF_API();
	DVPP_REQUIRE(streamDesc, STREAM, "acldvppStreamDesc");
	streamDesc->ret_code = retCode;
	return ACL_SUCCESS;
}

aclError acldvppSetStreamDescEos(acldvppStreamDesc *streamDesc, uint8_t eos)
{
	PROF_API();
	DVPP_REQUIRE(streamDesc, STREAM, "acldvppStreamDesc");
	streamDesc->eos = eos != 0;
	return ACL_SUCCESS;
}

void *acldvppGetStreamDescData(const acldvppStreamDesc *streamDesc)
{
	PROF_API();
	const struct acldvppStreamDesc *s = stream_or_null(streamDesc);

	return s ? s->data : NULL;
}

uint32_t acldvppGetStreamDescSize(const acldvppStreamDesc *streamDesc)
{
	PROF_API();
	const struct acldvppStreamDesc *s = stream_or_null(streamDesc);

	return s ? s->size : 0;
}

acldvppStreamFormat acldvppGetStreamDescFormat(const acldvppStreamDesc *streamDesc)
{
	PROF_API();
	const struct acldvppStreamDesc *s = stream_or_null(streamDesc);

	return s ? (acldvppStreamFormat)s->format : H265_MAIN_LEVEL;
}

uint64_t acldvppGetStreamDescTimestamp(const acldvppStreamDesc *streamDesc)
{
	PROF_API();
	const struct acldvppStreamDesc *s = stream_or_null(streamDesc);

	return s ? s->timestamp : 0;
}

uint32_t acldvppGetStreamDescRetCode(const acldvppStreamDesc *streamDesc)
{
	PROF_API();
	const struct acldvppStreamDesc *s = stream_or_null(streamDesc);

	return s ? s->ret_code : 0;
}

uint8_t acldvppGetStreamDescEos(const acldvppStreamDesc *streamDesc)
{
	PROF_API();
	const struct acldvppStreamDesc *s = stream_or_null(streamDesc);

	return s && s->eos ? 1 : 0;
}
