/* SPDX-License-Identifier: MIT */
/*
 * aclvencChannelDesc as a description (the encoder channel is
 * dvpp_venc*.c's): callback and thread, output profile, input picture
 * format and size, key frame interval, rate control and the output
 * buffer; and aclvencFrameConfig, the per-frame "force an I frame" and
 * end-of-stream flags (stored as 0 or 1, as CANN does).
 */
#include <stdlib.h>
#include <string.h>

#include "dvpp_check.h"
#include "dvpp_desc.h"
#include "dvpp_param.h"
#include "../core/prof_rt.h"

/* Rate control: 0 the default (VBR), 1 VBR, 2 CBR. */
#define VENC_RC_MODE_MAX	2u

static const struct aclvencChannelDesc *venc_or_null(const aclvencChannelDesc *c)
{
	return DVPP_IS(c, VENC) ? c : NULL;
}

aclvencChannelDesc *aclvencCreateChannelDesc(void)
{
	PROF_API();
	struct aclvencChannelDesc *c = malloc(sizeof(*c));

	if (!c) {
		acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	memset(c, 0, sizeof(*c));
	c->magic = DVPP_MAGIC_VENC;
	c->en_type = H265_MAIN_LEVEL;
	c->pic_format = PIXEL_FORMAT_YUV_SEMIPLANAR_420;
	return c;
}

aclError aclvencDestroyChannelDesc(aclvencChannelDesc *channelDesc)
{
	PROF_API();
	DVPP_REQUIRE(channelDesc, VENC, "aclvencChannelDesc");
	channelDesc->magic = 0;
	free(channelDesc);
	return ACL_SUCCESS;
}

static aclError venc_set_callback(const char *func, aclvencChannelDesc *c, aclvencCallback cb)
{
	if (!cb)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM, "callback must not be NULL");
	c->callback = cb;
	return ACL_SUCCESS;
}

static aclError venc_set_en_type(const char *func, aclvencChannelDesc *c, uint32_t t)
{
	aclError ret = dvpp_check_max(func, "enType", t, H264_HIGH_LEVEL);

	if (!ret)
		c->en_type = t;
	return ret;
}

/* The encoder reads NV12 or NV21. */
static aclError venc_set_pic_format(const char *func, aclvencChannelDesc *c, uint32_t f)
{
	if (f != PIXEL_FORMAT_YUV_SEMIPLANAR_420 && f != PIXEL_FORMAT_YVU_SEMIPLANAR_420)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "picFormat %u is not one VENC reads (NV12 or NV21)", f);
	c->pic_format = f;
	return ACL_SUCCESS;
}

static aclError venc_set_rc_mode(const char *func, aclvencChannelDesc *c, uint32_t m)
{
	aclError ret = dvpp_check_max(func, "rcMode", m, VENC_RC_MODE_MAX);

	if (!ret)
		c->rc_mode = m;
	return ret;
}

aclError aclvencSetChannelDescThreadId(aclvencChannelDesc *channelDesc, uint64_t threadId)
{
	PROF_API();
	DVPP_REQUIRE(channelDesc, VENC, "aclvencChannelDesc");
	channelDesc->thread_id = threadId;
	return ACL_SUCCESS;
}

aclError aclvencSetChannelDescCallback(aclvencChannelDesc *channelDesc, aclvencCallback callback)
{
	PROF_API();
	DVPP_REQUIRE(channelDesc, VENC, "aclvencChannelDesc");
	return venc_set_callback(__func__, channelDesc, callback);
}

aclError aclvencSetChannelDescEnType(aclvencChannelDesc *channelDesc, acldvppStreamFormat enType)
{
	PROF_API();
	DVPP_REQUIRE(channelDesc, VENC, "aclvencChannelDesc");
	return venc_set_en_type(__func__, channelDesc, (uint32_t)enType);
}

aclError aclvencSetChannelDescPicFormat(aclvencChannelDesc *channelDesc,
					acldvppPixelFormat picFormat)
{
	PROF_API();
	DVPP_REQUIRE(channelDesc, VENC, "aclvencChannelDesc");
	return venc_set_pic_format(__func__, channelDesc, (uint32_t)picFormat);
}

aclError aclvencSetChannelDescPicWidth(aclvencChannelDesc *channelDesc, uint32_t picWidth)
{
	PROF_API();
	DVPP_REQUIRE(channelDesc, VENC, "aclvencChannelDesc");
	channelDesc->pic_width = picWidth;
	return ACL_SUCCESS;
}

aclError aclvencSetChannelDescPicHeight(aclvencChannelDesc *channelDesc, uint32_t picHeight)
{
	PROF_API();
	DVPP_REQUIRE(channelDesc, VENC, "aclvencChannelDesc");
	channelDesc->pic_height = picHeight;
	return ACL_SUCCESS;
}

aclError aclvencSetChannelDescKeyFrameInterval(aclvencChannelDesc *channelDesc,
					       uint32_t keyFrameInterval)
{
	PROF_API();
	DVPP_REQUIRE(channelDesc, VENC, "aclvencChannelDesc");
	channelDesc->key_frame_interval = keyFrameInterval;
	return ACL_SUCCESS;
}

aclError aclvencSetChannelDescBufAddr(aclvencChannelDesc *channelDesc, void *bufAddr)
{
	PROF_API();
	DVPP_REQUIRE(channelDesc, VENC, "aclvencChannelDesc");
	channelDesc->buf_addr = bufAddr;
	return ACL_SUCCESS;
}

aclError aclvencSetChannelDescBufSize(aclvencChannelDesc *channelDesc, uint32_t bufSize)
{
	PROF_API();
	DVPP_REQUIRE(channelDesc, VENC, "aclvencChannelDesc");
	channelDesc->buf_size = bufSize;
	return ACL_SUCCESS;
}

aclError aclvencSetChannelDescRcMode(aclvencChannelDesc *channelDesc, uint32_t rcMode)
{
	PROF_API();
	DVPP_REQUIRE(channelDesc, VENC, "aclvencChannelDesc");
	return venc_set_rc_mode(__func__, channelDesc, rcMode);
}

aclError aclvencSetChannelDescSrcRate(aclvencChannelDesc *channelDesc, uint32_t srcRate)
{
	PROF_API();
	DVPP_REQUIRE(channelDesc, VENC, "aclvencChannelDesc");
	channelDesc->src_rate = srcRate;
	return ACL_SUCCESS;
}

aclError aclvencSetChannelDescMaxBitRate(aclvencChannelDesc *channelDesc, uint32_t maxBitRate)
{
	PROF_API();
	DVPP_REQUIRE(channelDesc, VENC, "aclvencChannelDesc");
	channelDesc->max_bit_rate = maxBitRate;
	return ACL_SUCCESS;
}

aclError aclvencSetChannelDescParam(aclvencChannelDesc *channelDesc,
				    aclvencChannelDescParamType paramType, size_t length,
				    const void *param)
{
	PROF_API();
	uint64_t tid;
	aclvencCallback cb;
	void *addr;
	uint32_t v;
	aclError ret;

	DVPP_REQUIRE(channelDesc, VENC, "aclvencChannelDesc");
	switch (paramType) {
	case ACL_VENC_THREAD_ID_UINT64:
		ret = dvpp_param_in(__func__, &tid, sizeof(tid), length, param);
		if (!ret)
			channelDesc->thread_id = tid;
		return ret;
	case ACL_VENC_CALLBACK_PTR:
		ret = dvpp_param_in(__func__, &cb, sizeof(cb), length, param);
		return ret ? ret : venc_set_callback(__func__, channelDesc, cb);
	case ACL_VENC_BUF_ADDR_PTR:
		ret = dvpp_param_in(__func__, &addr, sizeof(addr), length, param);
		if (!ret)
			channelDesc->buf_addr = addr;
		return ret;
	case ACL_VENC_PIXEL_FORMAT_UINT32:
	case ACL_VENC_ENCODE_TYPE_UINT32:
	case ACL_VENC_PIC_WIDTH_UINT32:
	case ACL_VENC_PIC_HEIGHT_UINT32:
	case ACL_VENC_KEY_FRAME_INTERVAL_UINT32:
	case ACL_VENC_BUF_SIZE_UINT32:
	case ACL_VENC_RC_MODE_UINT32:
	case ACL_VENC_SRC_RATE_UINT32:
	case ACL_VENC_MAX_BITRATE_UINT32:
	case ACL_VENC_MAX_IP_PROP_UINT32:
		break;
	default:
		return acl_fail(ACL_ERROR_INVALID_PARAM, "paramType %d is not a VENC parameter",
				(int)paramType);
	}
	ret = dvpp_param_in(__func__, &v, sizeof(v), length, param);
	if (ret)
		return ret;
	switch (paramType) {
	case ACL_VENC_PIXEL_FORMAT_UINT32:
		return venc_set_pic_format(__func__, channelDesc, v);
	case ACL_VENC_ENCODE_TYPE_UINT32:
		return venc_set_en_type(__func__, channelDesc, v);
	case ACL_VENC_RC_MODE_UINT32:
		return venc_set_rc_mode(__func__, channelDesc, v);
	case ACL_VENC_PIC_WIDTH_UINT32:
		channelDesc->pic_width = v;
		break;
	case ACL_VENC_PIC_HEIGHT_UINT32:
		channelDesc->pic_height = v;
		break;
	case ACL_VENC_KEY_FRAME_INTERVAL_UINT32:
		channelDesc->key_frame_interval = v;
		break;
	case ACL_VENC_BUF_SIZE_UINT32:
		channelDesc->buf_size = v;
		break;
	case ACL_VENC_SRC_RATE_UINT32:
		channelDesc->src_rate = v;
		break;
	case ACL_VENC_MAX_BITRATE_UINT32:
		channelDesc->max_bit_rate = v;
		break;
	default: /* ACL_VENC_MAX_IP_PROP_UINT32 */
		channelDesc->max_ip_prop = v;
		break;
	}
	return ACL_SUCCESS;
}

void *aclvencGetChannelDescBufAddr(const aclvencChannelDesc *channelDesc)
{
	PROF_API();
	const struct aclvencChannelDesc *c = venc_or_null(channelDesc);

	return c ? c->buf_addr : NULL;
}

uint32_t aclvencGetChannelDescBufSize(const aclvencChannelDesc *channelDesc)
{
	PROF_API();
	const struct aclvencChannelDesc *c = venc_or_null(channelDesc);

	return c ? c->buf_size : 0;
}

uint32_t aclvencGetChannelDescChannelId(const aclvencChannelDesc *channelDesc)
{
	PROF_API();
	const struct aclvencChannelDesc *c = venc_or_null(channelDesc);

	return c ? c->channel_id : 0;
}

uint64_t aclvencGetChannelDescThreadId(const aclvencChannelDesc *channelDesc)
{
	PROF_API();
	const struct aclvencChannelDesc *c = venc_or_null(channelDesc);

	return c ? c->thread_id : 0;
}

aclvencCallback aclvencGetChannelDescCallback(const aclvencChannelDesc *channelDesc)
{
	PROF_API();
	const struct aclvencChannelDesc *c = venc_or_null(channelDesc);

	return c ? c->callback : NULL;
}

acldvppStreamFormat aclvencGetChannelDescEnType(const aclvencChannelDesc *channelDesc)
{
	PROF_API();
	const struct aclvencChannelDesc *c = venc_or_null(channelDesc);

	return c ? (acldvppStreamFormat)c->en_type : H265_MAIN_LEVEL;
}

acldvppPixelFormat aclvencGetChannelDescPicFormat(const aclvencChannelDesc *channelDesc)
{
	PROF_API();
	const struct aclvencChannelDesc *c = venc_or_null(channelDesc);

	return c ? (acldvppPixelFormat)c->pic_format : PIXEL_FORMAT_YUV_SEMIPLANAR_420;
}

uint32_t aclvencGetChannelDescPicWidth(const aclvencChannelDesc *channelDesc)
{
	PROF_API();
	const struct aclvencChannelDesc *c = venc_or_null(channelDesc);

	return c ? c->pic_width : 0;
}

uint32_t aclvencGetChannelDescPicHeight(const aclvencChannelDesc *channelDesc)
{
	PROF_API();
	const struct aclvencChannelDesc *c = venc_or_null(channelDesc);

	return c ? c->pic_height : 0;
}

uint32_t aclvencGetChannelDescKeyFrameInterval(const aclvencChannelDesc *channelDesc)
{
	PROF_API();
	const struct aclvencChannelDesc *c = venc_or_null(channelDesc);

	return c ? c->key_frame_interval : 0;
}

uint32_t aclvencGetChannelDescRcMode(const aclvencChannelDesc *channelDesc)
{
	PROF_API();
	const struct aclvencChannelDesc *c = venc_or_null(channelDesc);

	return c ? c->rc_mode : 0;
}

uint32_t aclvencGetChannelDescSrcRate(const aclvencChannelDesc *channelDesc)
{
	PROF_API();
	const struct aclvencChannelDesc *c = venc_or_null(channelDesc);

	return c ? c->src_rate : 0;
}

uint32_t aclvencGetChannelDescMaxBitRate(const aclvencChannelDesc *channelDesc)
{
	PROF_API();
	const struct aclvencChannelDesc *c = venc_or_null(channelDesc);

	return c ? c->max_bit_rate : 0;
}

aclError aclvencGetChannelDescParam(const aclvencChannelDesc *channelDesc,
				    aclvencChannelDescParamType paramType, size_t length,
				    size_t *paramRetSize, void *param)
{
	PROF_API();
	const struct aclvencChannelDesc *c = channelDesc;
	uint32_t v;

	DVPP_REQUIRE(channelDesc, VENC, "aclvencChannelDesc");
	switch (paramType) {
	case ACL_VENC_THREAD_ID_UINT64:
		return dvpp_param_out(__func__, &c->thread_id, sizeof(c->thread_id), length,
				      paramRetSize, param);
	case ACL_VENC_CALLBACK_PTR:
		return dvpp_param_out(__func__, &c->callback, sizeof(c->callback), length,
				      paramRetSize, param);
	case ACL_VENC_BUF_ADDR_PTR:
		return dvpp_param_out(__func__, &c->buf_addr, sizeof(c->buf_addr), length,
				      paramRetSize, param);
	case ACL_VENC_PIXEL_FORMAT_UINT32:
		v = c->pic_format;
		break;
	case ACL_VENC_ENCODE_TYPE_UINT32:
		v = c->en_type;
		break;
	case ACL_VENC_PIC_WIDTH_UINT32:
		v = c->pic_width;
		break;
	case ACL_VENC_PIC_HEIGHT_UINT32:
		v = c->pic_height;
		break;
	case ACL_VENC_KEY_FRAME_INTERVAL_UINT32:
		v = c->key_frame_interval;
		break;
	case ACL_VENC_BUF_SIZE_UINT32:
		v = c->buf_size;
		break;
	case ACL_VENC_RC_MODE_UINT32:
		v = c->rc_mode;
		break;
	case ACL_VENC_SRC_RATE_UINT32:
		v = c->src_rate;
		break;
	case ACL_VENC_MAX_BITRATE_UINT32:
		v = c->max_bit_rate;
		break;
	case ACL_VENC_MAX_IP_PROP_UINT32:
		v = c->max_ip_prop;
		break;
	default:
		return acl_fail(ACL_ERROR_INVALID_PARAM, "paramType %d is not a VENC parameter",
				(int)paramType);
	}
	return dvpp_param_out(__func__, &v, sizeof(v), length, paramRetSize, param);
}

aclvencFrameConfig *aclvencCreateFrameConfig(void)
{
	PROF_API();
	struct aclvencFrameConfig *f = calloc(1, sizeof(*f));

	if (!f) {
		acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	f->magic = DVPP_MAGIC_VENC_FRAME;
	return f;
}

aclError aclvencDestroyFrameConfig(aclvencFrameConfig *config)
{
	PROF_API();
	DVPP_REQUIRE(config, VENC_FRAME, "aclvencFrameConfig");
	config->magic = 0;
	free(config);
	return ACL_SUCCESS;
}

aclError aclvencSetFrameConfigForceIFrame(aclvencFrameConfig *config, uint8_t forceIFrame)
{
	PROF_API();
	DVPP_REQUIRE(config, VENC_FRAME, "aclvencFrameConfig");
	config->force_iframe = forceIFrame != 0;
	return ACL_SUCCESS;
}

aclError aclvencSetFrameConfigEos(aclvencFrameConfig *config, uint8_t eos)
{
	PROF_API();
	DVPP_REQUIRE(config, VENC_FRAME, "aclvencFrameConfig");
	config->eos = eos != 0;
	return ACL_SUCCESS;
}

uint8_t aclvencGetFrameConfigForceIFrame(const aclvencFrameConfig *config)
{
	PROF_API();
	return DVPP_IS(config, VENC_FRAME) ? config->force_iframe : 0;
}

uint8_t aclvencGetFrameConfigEos(const aclvencFrameConfig *config)
{
	PROF_API();
	return DVPP_IS(config, VENC_FRAME) ? config->eos : 0;
}
