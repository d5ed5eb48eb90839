// SPDX-License-Identifier: MIT
/*
 * acldvppCreateChannel / acldvppDestroyChannel. A VPC, JPEG or PNG
 * channel holds no engine of its own here (VPC tasks run on the AI core
 * engines, codec tasks on the media pool), so a channel is a checked
 * token: its id, the device it belongs to and its mode.
 */
#include <errno.h>
#include <stdatomic.h>

#include "../core/entry_check.h"
#include "../core/rt_objects.h"
#include "dvpp.h"
#include "../core/prof_rt.h"

static atomic_uint_least64_t next_channel_id;

aclError acldvppCreateChannel(acldvppChannelDesc *channelDesc)
{
	PROF_API();
	struct rt_context *ctx;

	RT_REQUIRE_INIT();
	if (!DVPP_IS(channelDesc, CHANNEL))
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"channelDesc %p is not a live channel description",
				(void *)channelDesc);
	if (channelDesc->created)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"channelDesc %p already has a channel",
				(void *)channelDesc);
	ctx = context_current();
	if (!ctx)
		return rt_error(-ESRCH, "creating a DVPP channel");
	channelDesc->channel_id = atomic_fetch_add(&next_channel_id, 1);
	channelDesc->device = ctx->dev->id;
	channelDesc->created = true;
	return ACL_SUCCESS;
}

aclError acldvppDestroyChannel(acldvppChannelDesc *channelDesc)
{
	PROF_API();
	RT_REQUIRE_INIT();
	if (!DVPP_IS(channelDesc, CHANNEL))
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"channelDesc %p is not a live channel description",
				(void *)channelDesc);
	if (!channelDesc->created)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"channelDesc %p has no channel (never created, or destroyed)",
				(void *)channelDesc);
	channelDesc->created = false;
	return ACL_SUCCESS;
}
