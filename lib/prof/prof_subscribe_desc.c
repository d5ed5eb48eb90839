/* SPDX-License-Identifier: MIT */
/*
 * Reading subscription records: aclprofGetOpDescSize, aclprofGetOpNum and
 * the per-record getters, with CANN's checks (a length that is a whole
 * number of records, each record's signature, the index) and codes. Op
 * type and name are not in the record: its op_index is a task tag, named
 * by prof_tag_lookup in the process that received the data. Unlike CANN,
 * reading a name does not consume it: getters may be called again.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl_prof.h"
#include "prof.h"
#include "prof_subscribe.h"
#include "../core/error.h"

#define DESC sizeof(struct prof_op_desc)

static uint32_t crc_table[256];

static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (c & 1 ? 0x82F63B78u : 0);
		crc_table[i] = c;
	}
}

uint32_t prof_op_signature(const void *p, size_t len)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	const uint8_t *b = p;
	uint32_t sig = ~0u;

	pthread_once(&once, crc_init);
	for (size_t i = 0; i < len; i++)
		sig = crc_table[(sig ^ b[i]) & 0xff] ^ (sig >> 8);
	return sig;
}

void prof_op_sign(struct prof_op_desc *d)
{
	d->signature = prof_op_signature((const uint8_t *)d + 4, DESC - 4);
}

/* Every record's signature holds and len is a multiple of the size. */
static aclError check_data(const char *func, const void *data, size_t len)
{
	const uint8_t *b = data;

	if (len % DESC)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "opInfoLen %zu is not a multiple of the record size %zu",
				   len, DESC);
	for (size_t i = 0; i < len / DESC; i++) {
		uint32_t sig;

		memcpy(&sig, b + i * DESC, 4);
		if (sig != prof_op_signature(b + i * DESC + 4, DESC - 4))
			return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
					   "record %zu of opInfo is damaged (its signature does not match)",
					   i);
	}
	return ACL_SUCCESS;
}

static aclError check_index(const char *func, size_t len, uint32_t index)
{
	if ((uint64_t)index + 1 > len / DESC)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "index %u is out of range: opInfo holds %zu records",
				   index, len / DESC);
	return ACL_SUCCESS;
}

/* Record index of data into out, checked (sig: the signatures too). */
static aclError record(const char *func, const void *data, size_t len,
		       uint32_t index, struct prof_op_desc *out, bool sig)
{
	aclError e;

	if (!data)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "opInfo must not be NULL");
	e = sig ? check_data(func, data, len) : ACL_SUCCESS;
	if (!e)
		e = check_index(func, len, index);
	if (!e)
		memcpy(out, (const uint8_t *)data + (size_t)index * DESC, DESC);
	return e;
}

aclError aclprofGetOpDescSize(size_t *opDescSize)
{
	if (!opDescSize)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"opDescSize must not be NULL");
	*opDescSize = DESC;
	return ACL_SUCCESS;
}

aclError aclprofGetOpNum(const void *opInfo, size_t opInfoLen,
			 uint32_t *opNumber)
{
	aclError e;

	if (!opInfo || !opNumber)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"opInfo and opNumber must not be NULL");
	e = check_data(__func__, opInfo, opInfoLen);
	if (e)
		return e;
	*opNumber = (uint32_t)(opInfoLen / DESC);
	return ACL_SUCCESS;
}

/* The op type (type) or name of record index. */
static aclError op_string(const char *func, const void *opInfo, size_t len,
			  uint32_t index, bool type, const char **s)
{
	struct prof_tag_info info;
	struct prof_op_desc d;
	aclError e = record(func, opInfo, len, index, &d, true);

	if (e)
		return e;
	if (d.op_index > UINT32_MAX ||
	    prof_tag_lookup((uint32_t)d.op_index, &info))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "record %u names op %" PRIu64 ", which this process does not know",
				   index, d.op_index);
	*s = type ? info.op_type : info.op_name;
	if (!*s)
		*s = "";
	return ACL_SUCCESS;
}

static aclError op_len(const char *func, const void *opInfo, size_t len,
		       uint32_t index, bool type, size_t *out)
{
	const char *s;
	aclError e;

	if (!opInfo || !out)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "opInfo and the length pointer must not be NULL");
	e = op_string(func, opInfo, len, index, type, &s);
	if (!e)
		*out = strlen(s) + 1;
	return e;
}

static aclError op_copy(const char *func, const void *opInfo, size_t len,
			uint32_t index, bool type, char *buf, size_t buf_len)
{
	const char *s;
	aclError e;
	size_t n;

	if (!opInfo || !buf || !buf_len)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "opInfo and the buffer must not be NULL, the buffer's length not 0");
	e = op_string(func, opInfo, len, index, type, &s);
	if (e)
		return e;
	n = strlen(s);
	/* As on CANN: a buffer one byte short gets the string cut by one. */
	if (buf_len < n)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "the buffer of %zu bytes is too small: %zu are needed",
				   buf_len, n + 1);
	memcpy(buf, s, n < buf_len ? n : buf_len);
	buf[n < buf_len ? n : buf_len - 1] = '\0';
	return ACL_SUCCESS;
}

aclError aclprofGetOpTypeLen(const void *opInfo, size_t opInfoLen,
			     uint32_t index, size_t *opTypeLen)
{
	return op_len(__func__, opInfo, opInfoLen, index, true, opTypeLen);
}

aclError aclprofGetOpType(const void *opInfo, size_t opInfoLen, uint32_t index,
			  char *opType, size_t opTypeLen)
{
	return op_copy(__func__, opInfo, opInfoLen, index, true, opType,
		       opTypeLen);
}

aclError aclprofGetOpNameLen(const void *opInfo, size_t opInfoLen,
			     uint32_t index, size_t *opNameLen)
{
	return op_len(__func__, opInfo, opInfoLen, index, false, opNameLen);
}

aclError aclprofGetOpName(const void *opInfo, size_t opInfoLen, uint32_t index,
			  char *opName, size_t opNameLen)
{
	return op_copy(__func__, opInfo, opInfoLen, index, false, opName,
		       opNameLen);
}

uint64_t aclprofGetOpStart(const void *opInfo, size_t opInfoLen,
			   uint32_t index)
{
	struct prof_op_desc d;

	return record(__func__, opInfo, opInfoLen, index, &d, true) ?
	       0 : d.start;
}

uint64_t aclprofGetOpEnd(const void *opInfo, size_t opInfoLen, uint32_t index)
{
	struct prof_op_desc d;

	return record(__func__, opInfo, opInfoLen, index, &d, true) ? 0 : d.end;
}

uint64_t aclprofGetOpDuration(const void *opInfo, size_t opInfoLen,
			      uint32_t index)
{
	struct prof_op_desc d;

	return record(__func__, opInfo, opInfoLen, index, &d, true) ?
	       0 : d.duration;
}

/* As on CANN, a failure returns the error code in place of the id. */
size_t aclprofGetModelId(const void *opInfo, size_t opInfoLen, uint32_t index)
{
	struct prof_op_desc d;

	if (record(__func__, opInfo, opInfoLen, index, &d, true))
		return (size_t)ACL_ERROR_INVALID_PARAM;
	return d.model_id;
}

/* CANN checks only the index here, not the signatures. */
aclprofSubscribeOpFlag aclprofGetOpFlag(const void *opInfo, size_t opInfoLen,
					uint32_t index)
{
	struct prof_op_desc d;

	if (record(__func__, opInfo, opInfoLen, index, &d, false))
		return ACL_SUBSCRIBE_NONE;
	return (aclprofSubscribeOpFlag)d.flag;
}

const char *aclprofGetOpAttriValue(const void *opInfo, size_t opInfoLen,
				   uint32_t index, aclprofSubscribeOpAttri attri)
{
	static _Thread_local char value[24];
	struct prof_op_desc d;

	if (record(__func__, opInfo, opInfoLen, index, &d, false))
		return NULL;
	if (attri != ACL_SUBSCRIBE_ATTRI_THREADID) {
		acl_fail(ACL_ERROR_INVALID_PARAM, "attri %d is not supported",
			 (int)attri);
		return NULL;
	}
	if (d.flag != ACL_SUBSCRIBE_OP_THREAD) {
		acl_fail(ACL_ERROR_INVALID_PARAM,
			 "record %u has no thread id (its flag is %u, not ACL_SUBSCRIBE_OP_THREAD)",
			 index, d.flag);
		return NULL;
	}
	snprintf(value, sizeof(value), "%u", d.thread_id);
	return value;
}
