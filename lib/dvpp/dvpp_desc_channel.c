/* SPDX-License-Identifier: MIT */
/*
 * acldvppChannelDesc as a description: what a DVPP channel will serve
 * (mode, 0 = everything), its colour matrix, JPEGD rounding and size
 * hints, and after acldvppCreateChannel (dvpp_channel.c) its id. The
 * settings describe a channel to be created: once it exists they are
 * fixed, and the description cannot be destroyed before the channel.
 */
#include <stdlib.h>
#include <string.h>

#include "dvpp_check.h"
#include "dvpp_desc.h"
#include "dvpp_param.h"
#include "../core/prof_rt.h"

acldvppChannelDesc *acldvppCreateChannelDesc(void)
{
	PROF_API();
	struct acldvppChannelDesc *c = malloc(sizeof(*c));

	if (!c) {
		acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	memset(c, 0, sizeof(*c));
	c->magic = DVPP_MAGIC_CHANNEL;
	c->csc_matrix = ACL_DVPP_CSC_MATRIX_BT601_WIDE;
	c->jpegd_precision = ACL_YUVOUT_ALIGN_DOWN;
	c->device = -1;
	return c;
}

aclError acldvppDestroyChannelDesc(acldvppChannelDesc *channelDesc)
{
	PROF_API();
	DVPP_REQUIRE(channelDesc, CHANNEL, "acldvppChannelDesc");
	if (channelDesc->created)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"the channel of channelDesc %lu still exists: call acldvppDestroyChannel first",
				(unsigned long)channelDesc->channel_id);
	channelDesc->magic = 0;
	free(channelDesc);
	return ACL_SUCCESS;
}

uint64_t acldvppGetChannelDescChannelId(const acldvppChannelDesc *channelDesc)
{
	PROF_API();
	return DVPP_IS(channelDesc, CHANNEL) ? channelDesc->channel_id : 0;
}

/* The description may still change: its channel is not created yet. */
static aclError channel_not_created(const char *func, const acldvppChannelDesc *c)
{
	if (c->created)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "the channel exists already: set the description before acldvppCreateChannel");
	return ACL_SUCCESS;
}

static aclError channel_mode_check(const char *func, uint32_t mode)
{
	if (mode == 0 || (mode & ~(uint32_t)DVPP_CHNMODE_ALL))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "mode 0x%x is not an OR of DVPP_CHNMODE_VPC, _JPEGD, _JPEGE and _PNGD",
				   mode);
	return ACL_SUCCESS;
}

aclError acldvppSetChannelDescMode(acldvppChannelDesc *channelDesc, uint32_t mode)
{
	PROF_API();
	aclError ret;

	DVPP_REQUIRE(channelDesc, CHANNEL, "acldvppChannelDesc");
	ret = channel_not_created(__func__, channelDesc);
	if (!ret)
		ret = channel_mode_check(__func__, mode);
	if (!ret)
		channelDesc->mode = mode;
	return ret;
}

aclError acldvppSetChannelDescParam(acldvppChannelDesc *channelDesc,
				    acldvppChannelDescParamType paramType, size_t length,
				    const void *param)
{
	PROF_API();
	uint32_t v = 0;
	aclError ret;

	DVPP_REQUIRE(channelDesc, CHANNEL, "acldvppChannelDesc");
	ret = channel_not_created(__func__, channelDesc);
	if (ret)
		return ret;
	switch (paramType) {
	case ACL_DVPP_CSC_MATRIX_UINT32:
	case ACL_DVPP_MODE_UINT32:
	case ACL_DVPP_CHANNEL_HEIGHT_UINT32:
	case ACL_DVPP_CHANNEL_WIDTH_UINT32:
	case ACL_DVPP_JPEGD_PRECISION_MODE_ENUM:
		ret = dvpp_param_in(__func__, &v, sizeof(v), length, param);
		break;
	case ACL_DVPP_CHANNEL_ID_UINT64:
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"ACL_DVPP_CHANNEL_ID_UINT64 is read-only: acldvppCreateChannel assigns it");
	default:
		return acl_fail(ACL_ERROR_INVALID_PARAM, "paramType %d is not a channel parameter",
				(int)paramType);
	}
	if (ret)
		return ret;
	switch (paramType) {
	case ACL_DVPP_CSC_MATRIX_UINT32:
		ret = dvpp_check_max(__func__, "csc matrix", v,
				     ACL_DVPP_CSC_MATRIX_BT2020_NARROW);
		if (!ret)
			channelDesc->csc_matrix = v;
		break;
	case ACL_DVPP_MODE_UINT32:
		ret = channel_mode_check(__func__, v);
		if (!ret)
			channelDesc->mode = v;
		break;
	case ACL_DVPP_CHANNEL_HEIGHT_UINT32:
		channelDesc->height = v;
		break;
	case ACL_DVPP_CHANNEL_WIDTH_UINT32:
		channelDesc->width = v;
		break;
	default: /* ACL_DVPP_JPEGD_PRECISION_MODE_ENUM */
		ret = dvpp_check_max(__func__, "jpegd precision mode", v,
				     ACL_YUVOUT_ALIGN_DOWN_COMPAT);
		if (!ret)
			channelDesc->jpegd_precision = v;
		break;
	}
	return ret;
}

aclError acldvppGetChannelDescParam(const acldvppChannelDesc *channelDesc,
				    acldvppChannelDescParamType paramType, size_t length,
				    size_t *paramRetSize, void *param)
{
	PROF_API();
	const struct acldvppChannelDesc *c = channelDesc;
	uint32_t v;

	DVPP_REQUIRE(channelDesc, CHANNEL, "acldvppChannelDesc");
	switch (paramType) {
	case ACL_DVPP_CSC_MATRIX_UINT32:
		v = c->csc_matrix;
		break;
	case ACL_DVPP_MODE_UINT32:
		v = c->mode;
		break;
	case ACL_DVPP_CHANNEL_ID_UINT64:
		return dvpp_param_out(__func__, &c->channel_id, sizeof(c->channel_id),
				      length, paramRetSize, param);
	case ACL_DVPP_CHANNEL_HEIGHT_UINT32:
		v = c->height;
		break;
	case ACL_DVPP_CHANNEL_WIDTH_UINT32:
		v = c->width;
		break;
	case ACL_DVPP_JPEGD_PRECISION_MODE_ENUM:
		v = c->jpegd_precision;
		break;
	default:
		return acl_fail(ACL_ERROR_INVALID_PARAM, "paramType %d is not a channel parameter",
				(int)paramType);
	}
	return dvpp_param_out(__func__, &v, sizeof(v), length, paramRetSize, param);
}
