/* SPDX-License-Identifier: MIT */
/*
 * mstx (mstx/ms_tools_ext.h): marks and ranges, in the default domain
 * ("default") or a named one, recorded in host/data/tx.tsv like the
 * msproftx calls while a session collects ACL_PROF_MSPROFTX. mstx calls
 * return nothing, so outside a session, and for a NULL message or an
 * unknown domain, they do nothing (a range start returns 0). With a
 * stream the marker also puts a task on it (a MarkEx row), whose device
 * record carries the row's tag.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mstx/ms_tools_ext.h"
#include "prof.h"
#include "prof_tx.h"

#define MSTX_DOMAIN_MAGIC 0x4d445854u	/* "TXDM" */

struct mstxDomainRegistration_st {
	uint32_t magic;
	char name[TX_MSG_MAX + 1];
	struct mstxDomainRegistration_st *next;
};

struct mstxMemHeap_st {
	mstxMemHeapDesc_t desc;
};

static pthread_mutex_t domain_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mstxDomainRegistration_st *domains;

/* The domain's name when it is live, copied to out; false otherwise. */
static bool domain_name(mstxDomainHandle_t d, char *out)
{
	bool ok = false;

	pthread_mutex_lock(&domain_lock);
	for (struct mstxDomainRegistration_st *p = domains; p; p = p->next)
		if (p == d) {
			memcpy(out, p->name, sizeof(p->name));
			ok = true;
			break;
		}
	pthread_mutex_unlock(&domain_lock);
	return ok;
}

/* The row of a marker, with a device task when stream is given. */
static struct tx_row mstx_row(const char *message, aclrtStream stream,
			      const char *domain, enum tx_event type)
{
	struct tx_row row = { .type = type, .message = message,
			      .domain = domain, .device = -1 };

	row.start_ns = row.end_ns = prof_rt_now();
	if (stream && tx_device_mark("mstx", stream, "mstx", message, &row) ==
		      ACL_SUCCESS && type == TX_MARK)
		row.type = TX_MARK_EX;
	return row;
}

static void mark(const char *domain, const char *message, aclrtStream stream)
{
	struct tx_row row;

	if (!message || !tx_on())
		return;
	row = mstx_row(message, stream, domain, TX_MARK);
	tx_write(&row);
}

static mstxRangeId range_start(const char *domain, const char *message,
			       aclrtStream stream)
{
	struct tx_row row;

	if (!message || !tx_on())
		return MSTX_INVALID_ID;
	row = mstx_row(message, stream, domain, TX_START_STOP);
	return tx_range_open(&row);
}

static void range_end(const char *domain, mstxRangeId id)
{
	struct tx_row row;

	if (id == MSTX_INVALID_ID || tx_range_close(id, domain, &row))
		return;
	if (!tx_on())
		return;
	row.end_ns = prof_rt_now();
	row.tid = 0;
	tx_write(&row);
}

void mstxMarkA(const char *message, aclrtStream stream)
{
	mark("default", message, stream);
}

mstxRangeId mstxRangeStartA(const char *message, aclrtStream stream)
{
	return range_start("default", message, stream);
}

void mstxRangeEnd(mstxRangeId id)
{
	range_end("default", id);
}

mstxDomainHandle_t mstxDomainCreateA(const char *name)
{
	struct mstxDomainRegistration_st *d;

	if (!name || !*name || strlen(name) > TX_MSG_MAX)
		return NULL;
	pthread_mutex_lock(&domain_lock);
	for (d = domains; d; d = d->next)
		if (!strcmp(d->name, name))
			goto out;	/* one handle per name */
	d = calloc(1, sizeof(*d));
	if (d) {
		d->magic = MSTX_DOMAIN_MAGIC;
		strcpy(d->name, name);
		d->next = domains;
		domains = d;
	}
out:
	pthread_mutex_unlock(&domain_lock);
	return d;
}

void mstxDomainDestroy(mstxDomainHandle_t domain)
{
	struct mstxDomainRegistration_st **pp;

	pthread_mutex_lock(&domain_lock);
	for (pp = &domains; *pp; pp = &(*pp)->next)
		if (*pp == domain) {
			*pp = domain->next;
			domain->magic = 0;
			free(domain);
			break;
		}
	pthread_mutex_unlock(&domain_lock);
}

void mstxDomainMarkA(mstxDomainHandle_t domain, const char *message,
		     aclrtStream stream)
{
	char name[TX_MSG_MAX + 1];

	if (domain_name(domain, name))
		mark(name, message, stream);
}

mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain,
				  const char *message, aclrtStream stream)
{
	char name[TX_MSG_MAX + 1];

	if (!domain_name(domain, name))
		return MSTX_INVALID_ID;
	return range_start(name, message, stream);
}

void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id)
{
	char name[TX_MSG_MAX + 1];

	if (domain_name(domain, name))
		range_end(name, id);
}

/* Memory pools: handles are given out and taken back; nothing is recorded. */
mstxMemHeapHandle_t mstxMemHeapRegister(mstxDomainHandle_t domain,
					mstxMemHeapDesc_t const *desc)
{
	char name[TX_MSG_MAX + 1];
	struct mstxMemHeap_st *h;

	if (!desc || !domain_name(domain, name))
		return NULL;
	h = calloc(1, sizeof(*h));
	if (h)
		h->desc = *desc;
	return h;
}

void mstxMemHeapUnregister(mstxDomainHandle_t domain, mstxMemHeapHandle_t heap)
{
	(void)domain;
	free(heap);
}

void mstxMemRegionsRegister(mstxDomainHandle_t domain,
			    mstxMemRegionsRegisterBatch_t const *desc)
{
	const mstxMemVirtualRangeDesc_t *r;

	(void)domain;
	if (!desc || !desc->regionDescArray || !desc->regionHandleArrayOut)
		return;
	r = desc->regionDescArray;
	/* A region's handle is its start address. */
	for (size_t i = 0; i < desc->regionCount; i++)
		desc->regionHandleArrayOut[i] = (mstxMemRegionHandle_t)(uintptr_t)r[i].ptr;
}

void mstxMemRegionsUnregister(mstxDomainHandle_t domain,
			      mstxMemRegionsUnregisterBatch_t const *desc)
{
	(void)domain;
	(void)desc;
}

void mstxGetToolId(uint64_t *id)
{
	if (id)
		*id = tx_on() ? MSTX_TOOL_MSPROF_ID : MSTX_TOOL_INVALID_ID;
}
