/* SPDX-License-Identifier: MIT */
/*
 * aclprofRangePushEx/RangePop: a range carrying an operator's tensor
 * information (what frameworks report around a launch). As on CANN the
 * pair works whether or not a session runs; the range is recorded (a
 * Push/Pop row of message_type 1) only while ACL_PROF_MSPROFTX is
 * collected. The attributes are copied at the push.
 */
#include <stdio.h>
#include <string.h>

#include "acl/acl_prof.h"
#include "prof.h"
#include "prof_tx.h"
#include "../core/error.h"

#define TX_TENSOR_DEPTH 64

struct tx_tensor_range {
	uint64_t start_ns;
	char msg[TX_MSG_MAX + 1];
};

static _Thread_local struct tx_tensor_range tstack[TX_TENSOR_DEPTH];
static _Thread_local uint32_t tdepth;

/* "name type kernelType blockNums in:1,3,224,224;out:..." cut to fit. */
static void describe(char *buf, size_t len, const aclprofTensorInfo *t)
{
	size_t n = (size_t)snprintf(buf, len, "%016llx %016llx %u %u",
				    (unsigned long long)t->opNameId,
				    (unsigned long long)t->opTypeId,
				    t->kernelType, t->blockNums);

	for (uint32_t i = 0; i < t->tensorNum && n < len; i++) {
		const aclprofTensor *x = &t->tensors[i];

		n += (size_t)snprintf(buf + n, len - n, "%s%s:", i ? ";" : " ",
				      x->type ? "out" : "in");
		for (uint32_t d = 0; d < x->shapeDim && n < len; d++)
			n += (size_t)snprintf(buf + n, len - n, "%s%u",
					      d ? "," : "", x->shape[d]);
	}
}

aclError aclprofRangePushEx(aclprofEventAttributes *attr)
{
	const aclprofTensorInfo *t;
	struct tx_tensor_range *r;

	if (!attr)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"attr must not be NULL");
	if (attr->version != ACL_PROF_EVENT_ATTR_VERSION)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"attr->version %u is not ACL_PROF_EVENT_ATTR_VERSION (%d)",
				attr->version, ACL_PROF_EVENT_ATTR_VERSION);
	if (attr->size < sizeof(*attr))
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"attr->size %u is smaller than sizeof(aclprofEventAttributes) (%zu)",
				attr->size, sizeof(*attr));
	if (attr->messageType != ACL_PROF_MESSAGE_TYPE_TENSOR_INFO)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"attr->messageType %u is not ACL_PROF_MESSAGE_TYPE_TENSOR_INFO",
				attr->messageType);
	t = attr->message.tensorInfo;
	if (!t)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"attr->message.tensorInfo must not be NULL");
	if (t->tensorNum && !t->tensors)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"tensorInfo->tensors must not be NULL when tensorNum is %u",
				t->tensorNum);
	for (uint32_t i = 0; i < t->tensorNum; i++)
		if (t->tensors[i].shapeDim > ACL_PROF_TENSOR_DATA_SHAPE_LEN)
			return acl_fail(ACL_ERROR_INVALID_PARAM,
					"tensors[%u].shapeDim %u is more than ACL_PROF_TENSOR_DATA_SHAPE_LEN (%d)",
					i, t->tensors[i].shapeDim,
					ACL_PROF_TENSOR_DATA_SHAPE_LEN);
	if (tdepth == TX_TENSOR_DEPTH)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"%d aclprofRangePushEx calls of this thread are not popped",
				TX_TENSOR_DEPTH);
	r = &tstack[tdepth++];
	r->start_ns = prof_rt_now();
	describe(r->msg, sizeof(r->msg), t);
	return ACL_SUCCESS;
}

aclError aclprofRangePop(void)
{
	struct tx_row row = { .type = TX_PUSH_POP, .device = -1,
			      .message_type = TX_MSG_TENSOR_INFO };
	struct tx_tensor_range *r;

	if (!tdepth)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"no aclprofRangePushEx of this thread is open");
	r = &tstack[--tdepth];
	if (!tx_on())
		return ACL_SUCCESS;
	row.start_ns = r->start_ns;
	row.end_ns = prof_rt_now();
	row.message = r->msg;
	tx_write(&row);
	return ACL_SUCCESS;
}
