/* SPDX-License-Identifier: MIT */
/*
 * acldvppPicDesc: where a picture is (acldvppMalloc memory), how big its
 * buffer is and how its pixels are laid out. The setters store what they
 * are given; the VPC and codec calls check the combination. Getters on a
 * NULL (or not live) description return CANN's defaults: NULL, 0 and
 * PIXEL_FORMAT_YUV_400.
 */
#include <stdlib.h>
#include <string.h>

#include "dvpp_check.h"
#include "dvpp_desc.h"
#include "../core/prof_rt.h"

/* A live picture description, or NULL. */
static const struct acldvppPicDesc *pic_or_null(const acldvppPicDesc *p)
{
	return DVPP_IS(p, PIC) ? p : NULL;
}

void dvpp_pic_init(struct acldvppPicDesc *p)
{
	memset(p, 0, sizeof(*p));
	p->magic = DVPP_MAGIC_PIC;
	p->format = PIXEL_FORMAT_YUV_400;
}

acldvppPicDesc *acldvppCreatePicDesc(void)
{
	PROF_API();
	struct acldvppPicDesc *p = malloc(sizeof(*p));

	if (!p) {
		acl_fail(ACL_ERROR_BAD_ALLOC, "out of host memory");
		return NULL;
	}
	dvpp_pic_init(p);
	return p;
}

aclError acldvppDestroyPicDesc(acldvppPicDesc *picDesc)
{
	PROF_API();
	DVPP_REQUIRE(picDesc, PIC, "acldvppPicDesc");
	if (picDesc->in_batch)
		return acl_fail(ACL_ERROR_INVALID_PARAM,
				"picDesc belongs to an acldvppBatchPicDesc: destroy the batch instead");
	picDesc->magic = 0;
	free(picDesc);
	return ACL_SUCCESS;
}

aclError acldvppSetPicDescData(acldvppPicDesc *picDesc, void *dataDev)
{
	PROF_API();
	DVPP_REQUIRE(picDesc, PIC, "acldvppPicDesc");
	if (!dataDev)
		return acl_fail(ACL_ERROR_INVALID_PARAM, "dataDev must not be NULL");
	picDesc->data = dataDev;
	return ACL_SUCCESS;
}

aclError acldvppSetPicDescSize(acldvppPicDesc *picDesc, uint32_t size)
{
	PROF_API();
	DVPP_REQUIRE(picDesc, PIC, "acldvppPicDesc");
	picDesc->size = size;
	return ACL_SUCCESS;
}

aclError acldvppSetPicDescFormat(acldvppPicDesc *picDesc, acldvppPixelFormat format)
{
	PROF_API();
	DVPP_REQUIRE(picDesc, PIC, "acldvppPicDesc");
	picDesc->format = (uint32_t)format;
	return ACL_SUCCESS;
}

aclError acldvppSetPicDescWidth(acldvppPicDesc *picDesc, uint32_t width)
{
	PROF_API();
	DVPP_REQUIRE(picDesc, PIC, "acldvppPicDesc");
	picDesc->width = width;
	return ACL_SUCCESS;
}

aclError acldvppSetPicDescHeight(acldvppPicDesc *picDesc, uint32_t height)
{
	PROF_API();
	DVPP_REQUIRE(picDesc, PIC, "acldvppPicDesc");
	picDesc->height = height;
	return ACL_SUCCESS;
}

aclError acldvppSetPicDescWidthStride(acldvppPicDesc *picDesc, uint32_t widthStride)
{
	PROF_API();
	DVPP_REQUIRE(picDesc, PIC, "acldvppPicDesc");
	picDesc->width_stride = widthStride;
	return ACL_SUCCESS;
}

aclError acldvppSetPicDescHeightStride(acldvppPicDesc *picDesc, uint32_t heightStride)
{
	PROF_API();
	DVPP_REQUIRE(picDesc, PIC, "acldvppPicDesc");
	picDesc->height_stride = heightStride;
	return ACL_SUCCESS;
}

aclError acldvppSetPicDescRetCode(acldvppPicDesc *picDesc, uint32_t retCode)
{
	PROF_API();
	DVPP_REQUIRE(picDesc, PIC, "acldvppPicDesc");
	picDesc->ret_code = retCode;
	return ACL_SUCCESS;
}

void *acldvppGetPicDescData(const acldvppPicDesc *picDesc)
{
	PROF_API();
	const struct acldvppPicDesc *p = pic_or_null(picDesc);

	return p ? p->data : NULL;
}

uint32_t acldvppGetPicDescSize(const acldvppPicDesc *picDesc)
{
	PROF_API();
	const struct acldvppPicDesc *p = pic_or_null(picDesc);

	return p ? p->size : 0;
}

acldvppPixelFormat acldvppGetPicDescFormat(const acldvppPicDesc *picDesc)
{
	PROF_API();
	const struct acldvppPicDesc *p = pic_or_null(picDesc);

	return p ? (acldvppPixelFormat)p->format : PIXEL_FORMAT_YUV_400;
}

uint32_t acldvppGetPicDescWidth(const acldvppPicDesc *picDesc)
{
	PROF_API();
	const struct acldvppPicDesc *p = pic_or_null(picDesc);

	return p ? p->width : 0;
}

uint32_t acldvppGetPicDescHeight(const acldvppPicDesc *picDesc)
{
	PROF_API();
	const struct acldvppPicDesc *p = pic_or_null(picDesc);

	return p ? p->height : 0;
}

uint32_t acldvppGetPicDescWidthStride(const acldvppPicDesc *picDesc)
{
	PROF_API();
	const struct acldvppPicDesc *p = pic_or_null(picDesc);

	return p ? p->width_stride : 0;
}

uint32_t acldvppGetPicDescHeightStride(const acldvppPicDesc *picDesc)
{
	PROF_API();
	const struct acldvppPicDesc *p = pic_or_null(picDesc);

	return p ? p->height_stride : 0;
}

uint32_t acldvppGetPicDescRetCode(const acldvppPicDesc *picDesc)
{
	PROF_API();
	const struct acldvppPicDesc *p = pic_or_null(picDesc);

	return p ? p->ret_code : 0;
}
