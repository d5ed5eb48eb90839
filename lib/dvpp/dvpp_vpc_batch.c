// SPDX-License-Identifier: MIT
/*
 * The batch VPC calls: roiNums[i] areas are cut from source picture i,
 * area j (counted over all sources) goes to destination picture j. Every
 * argument is checked before the first task is queued, so a refused call
 * queues nothing; then one VPC task per area.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../core/entry_check.h"
#include "dvpp_vpc.h"
#include "../core/prof_rt.h"

#define VPC_DEFAULT_INTERP	1

struct batch_call {
	const char *func;
	acldvppChannelDesc *ch;
	acldvppBatchPicDesc *src, *dst;
	const uint32_t *roi_nums;
	uint32_t size;
	acldvppRoiConfig **crops, **pastes;
	const acldvppResizeConfig *resize;
	aclrtStream stream;
};

static aclError batch_args(const struct batch_call *c, uint32_t *total)
{
	uint64_t sum = 0;

	if (!DVPP_IS(c->src, BATCH))
		return acl_fail_at(c->func, ACL_ERROR_INVALID_PARAM,
				   "srcBatchPicDescs %p is not a live batch description",
				   (const void *)c->src);
	if (!DVPP_IS(c->dst, BATCH))
		return acl_fail_at(c->func, ACL_ERROR_INVALID_PARAM,
				   "dstBatchPicDescs %p is not a live batch description",
				   (const void *)c->dst);
	if (!c->roi_nums || !c->crops)
		return acl_fail_at(c->func, ACL_ERROR_INVALID_PARAM,
				   "roiNums and cropAreas must not be NULL");
	if (!c->size || c->size > c->src->count)
		return acl_fail_at(c->func, ACL_ERROR_INVALID_PARAM,
				   "size %u: the source batch holds %u pictures",
				   c->size, c->src->count);
	for (uint32_t i = 0; i < c->size; i++) {
		if (!c->roi_nums[i])
			return acl_fail_at(c->func, ACL_ERROR_INVALID_PARAM,
					   "roiNums[%u] is 0", i);
		sum += c->roi_nums[i];
	}
	if (sum > DVPP_BATCH_ROI_MAX)
		return acl_fail_at(c->func, ACL_ERROR_INVALID_PARAM,
				   "%llu areas in all: at most %u",
				   (unsigned long long)sum, DVPP_BATCH_ROI_MAX);
	if (sum > c->dst->count)
		return acl_fail_at(c->func, ACL_ERROR_INVALID_PARAM,
				   "%llu areas but the destination batch holds %u pictures",
				   (unsigned long long)sum, c->dst->count);
	if (c->resize && !DVPP_IS(c->resize, RESIZE))
		return acl_fail_at(c->func, ACL_ERROR_INVALID_PARAM,
				   "resizeConfig %p is not a live resize configuration",
				   (const void *)c->resize);
	*total = (uint32_t)sum;
	return ACL_SUCCESS;
}

static aclError batch_run(const struct batch_call *c)
{
	struct dvpp_vpc_task *tasks;
	const struct dvpp_format *fi, *fo;
	struct rt_stream *s;
	uint32_t total = 0, i, k, j = 0;
	char what[40];
	aclError e;

	e = dvpp_stream_arg(c->func, c->stream, &s);
	if (!e)
		e = dvpp_check_channel(c->func, c->ch, DVPP_CHNMODE_VPC);
	if (!e)
		e = batch_args(c, &total);
	if (e)
		return e;
	tasks = calloc(total, sizeof(*tasks));
	if (!tasks)
		return acl_fail_at(c->func, ACL_ERROR_BAD_ALLOC, "out of host memory");
	for (i = 0; !e && i < c->size; i++) {
		const acldvppPicDesc *in = &c->src->pics[i];

		snprintf(what, sizeof(what), "source picture %u", i);
		e = dvpp_check_vpc_pic(c->func, what, in, false, &fi);
		for (k = 0; !e && k < c->roi_nums[i]; k++, j++) {
			struct dvpp_vpc_task *t = &tasks[j];
			const acldvppPicDesc *out = &c->dst->pics[j];

			snprintf(what, sizeof(what), "destination picture %u", j);
			e = dvpp_check_vpc_pic(c->func, what, out, true, &fo);
			snprintf(what, sizeof(what), "cropAreas[%u]", j);
			if (!e)
				e = dvpp_check_roi(c->func, what, c->crops[j], false,
						   in->width, in->height);
			snprintf(what, sizeof(what), "pasteAreas[%u]", j);
			if (!e && c->pastes)
				e = dvpp_check_roi(c->func, what, c->pastes[j],
						   true, out->width, out->height);
			if (e)
				break;
			t->in = in;
			t->out = out;
			t->crop = dvpp_rect_roi(c->crops[j]);
			t->paste = c->pastes ? dvpp_rect_roi(c->pastes[j]) :
					       dvpp_rect_whole(out, fo);
			t->interpolation = c->resize ? c->resize->interpolation :
						       VPC_DEFAULT_INTERP;
			t->csc = c->ch->csc_matrix;
			e = dvpp_check_scale(c->func, t->crop.w, t->crop.h,
					     t->paste.w, t->paste.h);
		}
	}
	for (j = 0; !e && j < total; j++)
		e = dvpp_vpc_push(c->func, s, &tasks[j]);
	free(tasks);
	return e;
}

aclError acldvppVpcBatchCropAsync(acldvppChannelDesc *channelDesc,
				  acldvppBatchPicDesc *srcBatchPicDescs,
				  uint32_t *roiNums, uint32_t size,
				  acldvppBatchPicDesc *dstBatchPicDescs,
				  acldvppRoiConfig *cropAreas[],
				  aclrtStream stream)
{
	PROF_API();
	struct batch_call c = { __func__, channelDesc, srcBatchPicDescs,
				dstBatchPicDescs, roiNums, size, cropAreas, NULL,
				NULL, stream };

	return batch_run(&c);
}

aclError acldvppVpcBatchCropResizeAsync(acldvppChannelDesc *channelDesc,
					acldvppBatchPicDesc *srcBatchPicDescs,
					uint32_t *roiNums, uint32_t size,
					acldvppBatchPicDesc *dstBatchPicDescs,
					acldvppRoiConfig *cropAreas[],
					acldvppResizeConfig *resizeConfig,
					aclrtStream stream)
{
	PROF_API();
	struct batch_call c = { __func__, channelDesc, srcBatchPicDescs,
				dstBatchPicDescs, roiNums, size, cropAreas, NULL,
				resizeConfig, stream };

	RT_REQUIRE_ARG(resizeConfig);
	return batch_run(&c);
}

aclError acldvppVpcBatchCropAndPasteAsync(acldvppChannelDesc *channelDesc,
					  acldvppBatchPicDesc *srcBatchPicDescs,
					  uint32_t *roiNums, uint32_t size,
					  acldvppBatchPicDesc *dstBatchPicDescs,
					  acldvppRoiConfig *cropAreas[],
					  acldvppRoiConfig *pasteAreas[],
					  aclrtStream stream)
{
	PROF_API();
	struct batch_call c = { __func__, channelDesc, srcBatchPicDescs,
				dstBatchPicDescs, roiNums, size, cropAreas,
				pasteAreas, NULL, stream };

	RT_REQUIRE_ARG(pasteAreas);
	return batch_run(&c);
}

aclError acldvppVpcBatchCropResizePasteAsync(acldvppChannelDesc *channelDesc,
					     acldvppBatchPicDesc *srcBatchPicDescs,
					     uint32_t *roiNums, uint32_t size,
					     acldvppBatchPicDesc *dstBatchPicDescs,
					     acldvppRoiConfig *cropAreas[],
					     acldvppRoiConfig *pasteAreas[],
					     acldvppResizeConfig *resizeConfig,
					     aclrtStream stream)
{
	PROF_API();
	struct batch_call c = { __func__, channelDesc, srcBatchPicDescs,
				dstBatchPicDescs, roiNums, size, cropAreas,
				pasteAreas, resizeConfig, stream };

	RT_REQUIRE_ARG(pasteAreas);
	RT_REQUIRE_ARG(resizeConfig);
	return batch_run(&c);
}
