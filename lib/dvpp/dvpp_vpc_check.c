// SPDX-License-Identifier: MIT
/* Argument checks of the DVPP calls (see dvpp_vpc_check.h). */
#include <errno.h>

#include "../core/error.h"
#include "dvpp_vpc_check.h"
#include "dvpp_mem.h"

#define VPC_MIN_W	10
#define VPC_MIN_H	6
#define VPC_MAX_IN	8192
#define VPC_MAX_OUT	4096
#define VPC_MAX_STRIDE	16384
/* Picture addresses the VPC takes are 16-byte aligned. */
#define VPC_ADDR_ALIGN	16

aclError dvpp_check_channel(const char *func, const acldvppChannelDesc *ch,
			    uint32_t mode_bit)
{
	if (!DVPP_IS(ch, CHANNEL))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "channelDesc %p is not a live channel description",
				   (const void *)ch);
	if (!ch->created)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "channelDesc %p has no channel: call acldvppCreateChannel first",
				   (const void *)ch);
	if (ch->mode && !(ch->mode & mode_bit))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "the channel's mode 0x%x does not include 0x%x",
				   ch->mode, mode_bit);
	return ACL_SUCCESS;
}

aclError dvpp_check_mem(const char *func, const char *what, const void *p,
			uint64_t len)
{
	int ret = dvpp_mem_check(p, len);

	if (ret == -ENOENT)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s %p is not memory from acldvppMalloc", what, p);
	if (ret)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s %p + %llu bytes runs past its acldvppMalloc block",
				   what, p, (unsigned long long)len);
	return ACL_SUCCESS;
}

aclError dvpp_check_vpc_pic(const char *func, const char *what,
			    const acldvppPicDesc *p, bool out,
			    const struct dvpp_format **fmt)
{
	const struct dvpp_format *f;
	uint32_t max = out ? VPC_MAX_OUT : VPC_MAX_IN;
	uint64_t need;

	if (!DVPP_IS(p, PIC))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s %p is not a live picture description",
				   what, (const void *)p);
	f = dvpp_format_find(p->format);
	if (!f)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s: the VPC does not take pixel format %u", what,
				   p->format);
	if (!p->data)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s has no data (acldvppSetPicDescData)", what);
	if ((uintptr_t)p->data % VPC_ADDR_ALIGN)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s data %p is not 16-byte aligned", what, p->data);
	if (p->width < VPC_MIN_W || p->height < VPC_MIN_H ||
	    p->width > max || p->height > max)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s is %ux%u: the VPC takes %ux%u to %ux%u", what,
				   p->width, p->height, VPC_MIN_W, VPC_MIN_H, max, max);
	/* CANN rounds an odd input down; an output must be even itself */
	if (out && (p->width % f->w_align || p->height % f->h_align))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s is %ux%u: %s needs a width multiple of %u and a height multiple of %u",
				   what, p->width, p->height, f->name, f->w_align,
				   f->h_align);
	if (p->width_stride % 16 || p->width_stride < 32 ||
	    p->width_stride > VPC_MAX_STRIDE ||
	    p->width_stride < dvpp_format_width_stride(f, p->width))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s width stride %u: %s of width %u needs a multiple of 16 from %u to %u",
				   what, p->width_stride, f->name, p->width,
				   dvpp_format_width_stride(f, p->width) < 32 ? 32 :
				   dvpp_format_width_stride(f, p->width),
				   VPC_MAX_STRIDE);
	if (p->height_stride % 2 || p->height_stride < p->height ||
	    p->height_stride > VPC_MAX_STRIDE)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s height stride %u: an even number from the height %u to %u",
				   what, p->height_stride, p->height, VPC_MAX_STRIDE);
	need = dvpp_format_bytes(f, p->width_stride, p->height_stride);
	if (p->size < need)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s size %u is below the %llu bytes %s of stride %ux%u takes",
				   what, p->size, (unsigned long long)need, f->name,
				   p->width_stride, p->height_stride);
	if (dvpp_check_mem(func, what, p->data, need))
		return ACL_ERROR_INVALID_PARAM;
	*fmt = f;
	return ACL_SUCCESS;
}

aclError dvpp_check_roi(const char *func, const char *what,
			const acldvppRoiConfig *r, bool paste, uint32_t w,
			uint32_t h)
{
	if (!DVPP_IS(r, ROI))
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s %p is not a live ROI configuration",
				   what, (const void *)r);
	if (r->left % 2 || r->top % 2 || r->right % 2 != 1 ||
	    r->bottom % 2 != 1)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s (%u, %u, %u, %u): left and top must be even, right and bottom odd",
				   what, r->left, r->right, r->top, r->bottom);
	if (paste && r->left % 16)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s left %u is not a multiple of 16", what, r->left);
	if (r->right <= r->left || r->bottom <= r->top || r->right >= w ||
	    r->bottom >= h)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s (%u, %u, %u, %u) is not inside the %ux%u picture",
				   what, r->left, r->right, r->top, r->bottom, w, h);
	if (r->right - r->left + 1 < VPC_MIN_W ||
	    r->bottom - r->top + 1 < VPC_MIN_H)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "%s is %ux%u: the VPC takes at least %ux%u", what,
				   r->right - r->left + 1, r->bottom - r->top + 1,
				   VPC_MIN_W, VPC_MIN_H);
	return ACL_SUCCESS;
}

aclError dvpp_check_scale(const char *func, uint32_t in_w, uint32_t in_h,
			  uint32_t out_w, uint32_t out_h)
{
	if ((uint64_t)out_w * 32 < in_w || (uint64_t)out_h * 32 < in_h ||
	    out_w > (uint64_t)in_w * 16 || out_h > (uint64_t)in_h * 16)
		return acl_fail_at(func, ACL_ERROR_INVALID_PARAM,
				   "scaling %ux%u to %ux%u: the VPC scales each side by 1/32 to 16",
				   in_w, in_h, out_w, out_h);
	return ACL_SUCCESS;
}
