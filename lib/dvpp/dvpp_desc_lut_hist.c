/* SPDX-License-Identifier: MIT */
/*
 * acldvppLutMap (the table acldvppVpcEqualizeHistAsync applies) and
 * acldvppHist (what acldvppVpcCalcHistAsync counts): three components of
 * 256 entries each, reached through pointers the caller reads or fills.
 */
#include <stdlib.h>
#include <string.h>

#include "dvpp_check.h"
#include "dvpp_desc.h"
#include "../core/prof_rt.h"

acldvppLutMap *acldvppCreateLutMap(void)
{
	PROF_API();
	struct acldvppLutMap *m = calloc(1, sizeof(*m));

	if (!m) {
		acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	m->magic = DVPP_MAGIC_LUT;
	m->dims = DVPP_LUT_DIMS;
	return m;
}

aclError acldvppDestroyLutMap(acldvppLutMap *lutMap)
{
	PROF_API();
	DVPP_REQUIRE(lutMap, LUT, "acldvppLutMap");
	lutMap->magic = 0;
	free(lutMap);
	return ACL_SUCCESS;
}

uint32_t acldvppGetLutMapDims(const acldvppLutMap *lutMap)
{
	PROF_API();
	return DVPP_IS(lutMap, LUT) ? lutMap->dims : 0;
}

aclError acldvppGetLutMapData(const acldvppLutMap *lutMap, uint32_t dim, uint8_t **data,
			      uint32_t *len)
{
	PROF_API();
	DVPP_REQUIRE(lutMap, LUT, "acldvppLutMap");
	if (!data || !len)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "%s must not be NULL",
				!data ? "data" : "len");
	DVPP_REQUIRE_MAX(dim, lutMap->dims - 1);
	/* The table is the caller's to fill: hand out a writable view. */
	*data = (uint8_t *)lutMap->map[dim];
	*len = DVPP_LUT_LEN;
	return ACL_SUCCESS;
}

acldvppHist *acldvppCreateHist(void)
{
	PROF_API();
	struct acldvppHist *h = calloc(1, sizeof(*h));

	if (!h) {
		acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	h->magic = DVPP_MAGIC_HIST;
	h->dims = DVPP_LUT_DIMS;
	return h;
}

aclError acldvppDestroyHist(acldvppHist *hist)
{
	PROF_API();
	DVPP_REQUIRE(hist, HIST, "acldvppHist");
	hist->magic = 0;
	free(hist);
	return ACL_SUCCESS;
}

uint32_t acldvppGetHistDims(acldvppHist *hist)
{
	PROF_API();
	return DVPP_IS(hist, HIST) ? hist->dims : 0;
}

aclError acldvppGetHistData(acldvppHist *hist, uint32_t dim, uint32_t **data, uint16_t *len)
{
	PROF_API();
	DVPP_REQUIRE(hist, HIST, "acldvppHist");
	DVPP_REQUIRE_MAX(dim, hist->dims - 1);
	if (!data || !len)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "%s must not be NULL",
				!data ? "data" : "len");
	*data = hist->hist[dim];
	*len = DVPP_LUT_LEN;
	return ACL_SUCCESS;
}

/* CANN answers ACL_ERROR_INVALID_PARAM's value for a bad histogram. */
uint32_t acldvppGetHistRetCode(acldvppHist *hist)
{
	PROF_API();
	if (!DVPP_IS(hist, HIST))
		return (uint32_t)ACL_ERROR_INVALID_PARAM;
	return hist->ret_code;
}

/* Zero the counts so that the histogram can be reused. */
aclError acldvppClearHist(acldvppHist *hist)
{
	PROF_API();
	DVPP_REQUIRE(hist, HIST, "acldvppHist");
	memset(hist->hist, 0, sizeof(hist->hist));
	return ACL_SUCCESS;
}
