/* SPDX-License-Identifier: MIT */
/*
 * aclvdecChannelDesc as a description (the channel itself is
 * dvpp_vdec*.c's): channel id, the callback and the thread that runs it,
 * the stream's profile, the output pictures' format and size, reference
 * frames, bit depth, output mode and colour matrix; and aclvdecFrameConfig,
 * which carries nothing yet. Settings are fixed while the channel exists.
 */
#include <stdlib.h>
#include <string.h>

#include "dvpp_check.h"
#include "dvpp_desc.h"
#include "dvpp_param.h"
#include "../core/prof_rt.h"

static const struct aclvdecChannelDesc *vdec_or_null(const aclvdecChannelDesc *c)
{
	return DVPP_IS(c, VDEC) ? c : NULL;
}

/* A live description whose channel is not created yet, or an error. */
static aclError vdec_settable(const char *func, const aclvdecChannelDesc *c)
{
	if (!DVPP_IS(c, VDEC))
		return dvpp_bad_object(func, c, "channelDesc", "aclvdecChannelDesc");
	if (c->chan)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "the channel exists already: set the description before aclvdecCreateChannel");
	return ACL_SUCCESS;
}

#define VDEC_SETTABLE(c)						\
	do {								\
		aclError r_ = vdec_settable(__func__, (c));		\
		if (r_)							\
			return r_;					\
	} while (0)

aclvdecChannelDesc *aclvdecCreateChannelDesc(void)
{
	PROF_API();
	struct aclvdecChannelDesc *c = malloc(sizeof(*c));

	if (!c) {
		acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	memset(c, 0, sizeof(*c));
	c->magic = DVPP_MAGIC_VDEC;
	c->en_type = H265_MAIN_LEVEL;
	c->out_pic_format = PIXEL_FORMAT_YUV_SEMIPLANAR_420;
	c->csc_matrix = ACL_DVPP_CSC_MATRIX_BT601_WIDE;
	return c;
}

aclError aclvdecDestroyChannelDesc(aclvdecChannelDesc *channelDesc)
{
	PROF_API();
	DVPP_REQUIRE(channelDesc, VDEC, "aclvdecChannelDesc");
	if (channelDesc->chan)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"channel %u still exists: call aclvdecDestroyChannel first",
				channelDesc->channel_id);
	channelDesc->magic = 0;
	free(channelDesc);
	return ACL_SUCCESS;
}

static aclError vdec_set_channel_id(const char *func, aclvdecChannelDesc *c, uint32_t id)
{
	aclError ret = dvpp_check_max(func, "channelId", id, DVPP_VDEC_CHANNEL_MAX);

	if (!ret)
		c->channel_id = id;
	return ret;
}

static aclError vdec_set_callback(const char *func, aclvdecChannelDesc *c, aclvdecCallback cb)
{
	if (!cb)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM, "callback must not be NULL");
	c->callback = cb;
	return ACL_SUCCESS;
}

static aclError vdec_set_en_type(const char *func, aclvdecChannelDesc *c, uint32_t t)
{
	aclError ret = dvpp_check_max(func, "enType", t, H264_HIGH_LEVEL);

	if (!ret)
		c->en_type = t;
	return ret;
}

/* The decoder writes NV12 or NV21, or packed RGB / BGR. */
static aclError vdec_set_out_format(const char *func, aclvdecChannelDesc *c, uint32_t f)
{
	if (f != PIXEL_FORMAT_YUV_SEMIPLANAR_420 && f != PIXEL_FORMAT_YVU_SEMIPLANAR_420 &&
	    f != PIXEL_FORMAT_RGB_888 && f != PIXEL_FORMAT_BGR_888)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "outPicFormat %u is not one VDEC writes (NV12, NV21, RGB888, BGR888)",
				   f);
	c->out_pic_format = f;
	return ACL_SUCCESS;
}

static aclError vdec_set_out_mode(const char *func, aclvdecChannelDesc *c, uint32_t m)
{
	aclError ret = dvpp_check_max(func, "outMode", m, 1);

	if (!ret)
		c->out_mode = m;
	return ret;
}

static aclError vdec_set_csc(const char *func, aclvdecChannelDesc *c, uint32_t m)
{
	aclError ret = dvpp_check_max(func, "csc matrix", m, ACL_DVPP_CSC_MATRIX_BT2020_NARROW);

	if (!ret)
		c->csc_matrix = m;
	return ret;
}

aclError aclvdecSetChannelDescChannelId(aclvdecChannelDesc *channelDesc, uint32_t channelId)
{
	PROF_API();
	VDEC_SETTABLE(channelDesc);
	return vdec_set_channel_id(__func__, channelDesc, channelId);
}

aclError aclvdecSetChannelDescThreadId(aclvdecChannelDesc *channelDesc, uint64_t threadId)
{
	PROF_API();
	VDEC_SETTABLE(channelDesc);
	channelDesc->thread_id = threadId;
	return ACL_SUCCESS;
}

aclError aclvdecSetChannelDescCallback(aclvdecChannelDesc *channelDesc, aclvdecCallback callback)
{
	PROF_API();
	VDEC_SETTABLE(channelDesc);
	return vdec_set_callback(__func__, channelDesc, callback);
}

aclError aclvdecSetChannelDescEnType(aclvdecChannelDesc *channelDesc, acldvppStreamFormat enType)
{
	PROF_API();
	VDEC_SETTABLE(channelDesc);
	return vdec_set_en_type(__func__, channelDesc, (uint32_t)enType);
}

aclError aclvdecSetChannelDescOutPicFormat(aclvdecChannelDesc *channelDesc,
					   acldvppPixelFormat outPicFormat)
{
	PROF_API();
	VDEC_SETTABLE(channelDesc);
	return vdec_set_out_format(__func__, channelDesc, (uint32_t)outPicFormat);
}

aclError aclvdecSetChannelDescOutPicWidth(aclvdecChannelDesc *channelDesc, uint32_t outPicWidth)
{
	PROF_API();
	VDEC_SETTABLE(channelDesc);
	channelDesc->out_pic_width = outPicWidth;
	return ACL_SUCCESS;
}

aclError aclvdecSetChannelDescOutPicHeight(aclvdecChannelDesc *channelDesc, uint32_t outPicHeight)
{
	PROF_API();
	VDEC_SETTABLE(channelDesc);
	channelDesc->out_pic_height = outPicHeight;
	return ACL_SUCCESS;
}

aclError aclvdecSetChannelDescRefFrameNum(aclvdecChannelDesc *channelDesc, uint32_t refFrameNum)
{
	PROF_API();
	VDEC_SETTABLE(channelDesc);
	channelDesc->ref_frame_num = refFrameNum;
	return ACL_SUCCESS;
}

aclError aclvdecSetChannelDescBitDepth(aclvdecChannelDesc *channelDesc, uint32_t bitDepth)
{
	PROF_API();
	VDEC_SETTABLE(channelDesc);
	channelDesc->bit_depth = bitDepth;
	return ACL_SUCCESS;
}

aclError aclvdecSetChannelDescOutMode(aclvdecChannelDesc *channelDesc, uint32_t outMode)
{
	PROF_API();
	VDEC_SETTABLE(channelDesc);
	return vdec_set_out_mode(__func__, channelDesc, outMode);
}

aclError aclvdecSetChannelDescParam(aclvdecChannelDesc *channelDesc,
				    aclvdecChannelDescParamType paramType, size_t length,
				    const void *param)
{
	PROF_API();
	uint64_t tid;
	aclvdecCallback cb;
	uint32_t v;
	aclError ret;

	VDEC_SETTABLE(channelDesc);
	switch (paramType) {
	case ACL_VDEC_THREAD_ID_UINT64:
		ret = dvpp_param_in(__func__, &tid, sizeof(tid), length, param);
		if (!ret)
			channelDesc->thread_id = tid;
		return ret;
	case ACL_VDEC_CALLBACK_PTR:
		ret = dvpp_param_in(__func__, &cb, sizeof(cb), length, param);
		return ret ? ret : vdec_set_callback(__func__, channelDesc, cb);
	case ACL_VDEC_CSC_MATRIX_UINT32:
	case ACL_VDEC_OUT_MODE_UINT32:
	case ACL_VDEC_CHANNEL_ID_UINT32:
	case ACL_VDEC_ENCODE_TYPE_UINT32:
	case ACL_VDEC_OUT_PIC_FORMAT_UINT32:
	case ACL_VDEC_OUT_PIC_WIDTH_UINT32:
	case ACL_VDEC_OUT_PIC_HEIGHT_UINT32:
	case ACL_VDEC_REF_FRAME_NUM_UINT32:
	case ACL_VDEC_BIT_DEPTH_UINT32:
		break;
	default:
		return acl_fail(ACL_ERROR_INVALID_PARAM, "paramType %d is not a VDEC parameter",
				(int)paramType);
	}
	ret = dvpp_param_in(__func__, &v, sizeof(v), length, param);
	if (ret)
		return ret;
	switch (paramType) {
	case ACL_VDEC_CSC_MATRIX_UINT32:
		return vdec_set_csc(__func__, channelDesc, v);
	case ACL_VDEC_OUT_MODE_UINT32:
		return vdec_set_out_mode(__func__, channelDesc, v);
	case ACL_VDEC_CHANNEL_ID_UINT32:
		return vdec_set_channel_id(__func__, channelDesc, v);
	case ACL_VDEC_ENCODE_TYPE_UINT32:
		return vdec_set_en_type(__func__, channelDesc, v);
	case ACL_VDEC_OUT_PIC_FORMAT_UINT32:
		return vdec_set_out_format(__func__, channelDesc, v);
	case ACL_VDEC_OUT_PIC_WIDTH_UINT32:
		channelDesc->out_pic_width = v;
		break;
	case ACL_VDEC_OUT_PIC_HEIGHT_UINT32:
		channelDesc->out_pic_height = v;
		break;
	case ACL_VDEC_REF_FRAME_NUM_UINT32:
		channelDesc->ref_frame_num = v;
		break;
	default: /* ACL_VDEC_BIT_DEPTH_UINT32 */
		channelDesc->bit_depth = v;
		break;
	}
	return ACL_SUCCESS;
}

uint32_t aclvdecGetChannelDescChannelId(const aclvdecChannelDesc *channelDesc)
{
	PROF_API();
	const struct aclvdecChannelDesc *c = vdec_or_null(channelDesc);

	return c ? c->channel_id : 0;
}

uint64_t aclvdecGetChannelDescThreadId(const aclvdecChannelDesc *channelDesc)
{
	PROF_API();
	const struct aclvdecChannelDesc *c = vdec_or_null(channelDesc);

	return c ? c->thread_id : 0;
}

aclvdecCallback aclvdecGetChannelDescCallback(const aclvdecChannelDesc *channelDesc)
{
	PROF_API();
	const struct aclvdecChannelDesc *c = vdec_or_null(channelDesc);

	return c ? c->callback : NULL;
}

acldvppStreamFormat aclvdecGetChannelDescEnType(const aclvdecChannelDesc *channelDesc)
{
	PROF_API();
	const struct aclvdecChannelDesc *c = vdec_or_null(channelDesc);

	return c ? (acldvppStreamFormat)c->en_type : H265_MAIN_LEVEL;
}

/* CANN answers YUV400 for a NULL description, NV12 for a fresh one. */
acldvppPixelFormat aclvdecGetChannelDescOutPicFormat(const aclvdecChannelDesc *channelDesc)
{
	PROF_API();
	const struct aclvdecChannelDesc *c = vdec_or_null(channelDesc);

	return c ? (acldvppPixelFormat)c->out_pic_format : PIXEL_FORMAT_YUV_400;
}

uint32_t aclvdecGetChannelDescOutPicWidth(const aclvdecChannelDesc *channelDesc)
{
	PROF_API();
	const struct aclvdecChannelDesc *c = vdec_or_null(channelDesc);

	return c ? c->out_pic_width : 0;
}

uint32_t aclvdecGetChannelDescOutPicHeight(const aclvdecChannelDesc *channelDesc)
{
	PROF_API();
	const struct aclvdecChannelDesc *c = vdec_or_null(channelDesc);

	return c ? c->out_pic_height : 0;
}

uint32_t aclvdecGetChannelDescBitDepth(const aclvdecChannelDesc *channelDesc)
{
	PROF_API();
	const struct aclvdecChannelDesc *c = vdec_or_null(channelDesc);

	return c ? c->bit_depth : 0;
}

uint32_t aclvdecGetChannelDescRefFrameNum(const aclvdecChannelDesc *channelDesc)
{
	PROF_API();
	const struct aclvdecChannelDesc *c = vdec_or_null(channelDesc);

	return c ? c->ref_frame_num : 0;
}

uint32_t aclvdecGetChannelDescOutMode(const aclvdecChannelDesc *channelDesc)
{
	PROF_API();
	const struct aclvdecChannelDesc *c = vdec_or_null(channelDesc);

	return c ? c->out_mode : 0;
}

aclError aclvdecGetChannelDescParam(const aclvdecChannelDesc *channelDesc,
				    aclvdecChannelDescParamType paramType, size_t length,
				    size_t *paramRetSize, void *param)
{
	PROF_API();
	const struct aclvdecChannelDesc *c = channelDesc;
	uint32_t v;

	DVPP_REQUIRE(channelDesc, VDEC, "aclvdecChannelDesc");
	switch (paramType) {
	case ACL_VDEC_THREAD_ID_UINT64:
		return dvpp_param_out(__func__, &c->thread_id, sizeof(c->thread_id), length,
				      paramRetSize, param);
	case ACL_VDEC_CALLBACK_PTR:
		return dvpp_param_out(__func__, &c->callback, sizeof(c->callback), length,
				      paramRetSize, param);
	case ACL_VDEC_CSC_MATRIX_UINT32:
		v = c->csc_matrix;
		break;
	case ACL_VDEC_OUT_MODE_UINT32:
		v = c->out_mode;
		break;
	case ACL_VDEC_CHANNEL_ID_UINT32:
		v = c->channel_id;
		break;
	case ACL_VDEC_ENCODE_TYPE_UINT32:
		v = c->en_type;
		break;
	case ACL_VDEC_OUT_PIC_FORMAT_UINT32:
		v = c->out_pic_format;
		break;
	case ACL_VDEC_OUT_PIC_WIDTH_UINT32:
		v = c->out_pic_width;
		break;
	case ACL_VDEC_OUT_PIC_HEIGHT_UINT32:
		v = c->out_pic_height;
		break;
	case ACL_VDEC_REF_FRAME_NUM_UINT32:
		v = c->ref_frame_num;
		break;
	case ACL_VDEC_BIT_DEPTH_UINT32:
		v = c->bit_depth;
		break;
	default:
		return acl_fail(ACL_ERROR_INVALID_PARAM, "paramType %d is not a VDEC parameter",
				(int)paramType);
	}
	return dvpp_param_out(__func__, &v, sizeof(v), length, paramRetSize, param);
}

aclvdecFrameConfig *aclvdecCreateFrameConfig(void)
{
	PROF_API();
	struct aclvdecFrameConfig *f = malloc(sizeof(*f));

	if (!f) {
		acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	f->magic = DVPP_MAGIC_VDEC_FRAME;
	return f;
}

aclError aclvdecDestroyFrameConfig(aclvdecFrameConfig *vdecFrameConfig)
{
	PROF_API();
	DVPP_REQUIRE(vdecFrameConfig, VDEC_FRAME, "aclvdecFrameConfig");
	vdecFrameConfig->magic = 0;
	free(vdecFrameConfig);
	return ACL_SUCCESS;
}
