/* SPDX-License-Identifier: MIT */
/*
 * What the description files of lib/dvpp (dvpp_desc_*.c) offer the rest
 * of the layer besides the public API, and the limits they enforce.
 */
#ifndef VNPU_DVPP_DESC_H
#define VNPU_DVPP_DESC_H

#include "dvpp.h"

/* Largest acldvppCreateBatchPicDesc size. */
#define DVPP_BATCH_MAX		256u
/* ROI and border offsets are 16-bit in the hardware's descriptors. */
#define DVPP_OFFSET_MAX		65535u
/* Highest acldvppResizeConfig interpolation (TensorFlow nearest). */
#define DVPP_INTERP_MAX		4u
/* JPEG encoder quality range [0, 100]. */
#define DVPP_JPEGE_LEVEL_MAX	100u
/* Components a border value may be given for. */
#define DVPP_BORDER_VALUES	4u
/* VDEC channel ids are 0..DVPP_VDEC_CHANNEL_MAX. */
#define DVPP_VDEC_CHANNEL_MAX	15u
/* The channel modes acldvppSetChannelDescMode accepts, ORed. */
#define DVPP_CHNMODE_ALL	(DVPP_CHNMODE_VPC | DVPP_CHNMODE_JPEGD | \
				 DVPP_CHNMODE_JPEGE | DVPP_CHNMODE_PNGD)
/* LUT and histogram: three components of 256 entries. */
#define DVPP_LUT_DIMS		3u
#define DVPP_LUT_LEN		256u

/* A fresh picture description (CANN's defaults) in caller-owned memory. */
void dvpp_pic_init(struct acldvppPicDesc *p);

#endif /* VNPU_DVPP_DESC_H */
