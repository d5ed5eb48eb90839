/* SPDX-License-Identifier: MIT */
/*
 * The checks every DVPP call makes of its arguments (dvpp_vpc_check.c), with
 * CANN's rules for Atlas 200/300/500 inference and Atlas training chips.
 * Each returns ACL_SUCCESS or ACL_ERROR_INVALID_PARAM with a message
 * naming the argument (what) and the rule.
 */
#ifndef VNPU_DVPP_VPC_CHECK_H
#define VNPU_DVPP_VPC_CHECK_H

#include "dvpp.h"
#include "dvpp_format.h"

/* A created channel whose mode includes mode_bit (acldvppChannelMode). */
aclError dvpp_check_channel(const char *func, const acldvppChannelDesc *ch,
			    uint32_t mode_bit);

/* A picture the VPC reads (out == false) or writes (out == true). */
aclError dvpp_check_vpc_pic(const char *func, const char *what,
			    const acldvppPicDesc *p, bool out,
			    const struct dvpp_format **fmt);

/*
 * A crop (paste == false) or paste area of a w x h picture: CANN's
 * inclusive offsets, left and top even, right and bottom odd, a paste
 * area's left a multiple of 16, inside the picture, at least 10 x 6.
 */
aclError dvpp_check_roi(const char *func, const char *what,
			const acldvppRoiConfig *r, bool paste, uint32_t w,
			uint32_t h);

/* Scaling from in to out within CANN's [1/32, 16] per side. */
aclError dvpp_check_scale(const char *func, uint32_t in_w, uint32_t in_h,
			  uint32_t out_w, uint32_t out_h);

/* Device memory of a codec call: inside one acldvppMalloc block. */
aclError dvpp_check_mem(const char *func, const char *what, const void *p,
			uint64_t len);

struct rt_stream;

/* The stream argument of a DVPP call (NULL: the default stream). */
aclError dvpp_stream_arg(const char *func, aclrtStream stream,
			 struct rt_stream **s);

#endif /* VNPU_DVPP_VPC_CHECK_H */
