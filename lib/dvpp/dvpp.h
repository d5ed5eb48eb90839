/* SPDX-License-Identifier: MIT */
/*
 * The insides of acl_dvpp.h's opaque objects, shared by the files of
 * lib/dvpp: descriptions (dvpp_desc_*.c), channels and memory
 * (dvpp_channel.c, dvpp_mem.c), VPC tasks (dvpp_vpc*.c), the codec tasks
 * (dvpp_jpeg*.c, dvpp_png*.c) and video (dvpp_vdec*.c).
 *
 * Every object starts with a magic number so that a pointer of the wrong
 * kind (or a destroyed one) is refused with ACL_ERROR_INVALID_PARAM
 * instead of being used.
 */
#ifndef VNPU_DVPP_H
#define VNPU_DVPP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ENABLE_DVPP_INTERFACE
#include "acl/ops/acl_dvpp.h"

#define DVPP_MAGIC_PIC		0x44504943u	/* "DPIC" */
#define DVPP_MAGIC_BATCH	0x44424154u
#define DVPP_MAGIC_ROI		0x44524f49u
#define DVPP_MAGIC_RESIZE	0x4452535au
#define DVPP_MAGIC_BORDER	0x44425244u
#define DVPP_MAGIC_JPEGE	0x444a5045u
#define DVPP_MAGIC_CHANNEL	0x4443484eu
#define DVPP_MAGIC_LUT		0x444c5554u
#define DVPP_MAGIC_HIST		0x44484953u
#define DVPP_MAGIC_STREAM	0x44535452u
#define DVPP_MAGIC_VDEC		0x44564443u
#define DVPP_MAGIC_VDEC_FRAME	0x44564652u
#define DVPP_MAGIC_VENC		0x4456454eu
#define DVPP_MAGIC_VENC_FRAME	0x44564546u

/* Most ROIs one batch call may take (CANN's BATCH_ROI_MAX_SIZE). */
#define DVPP_BATCH_ROI_MAX	256
/* acldvppMalloc rounds up to this and adds as much again. */
#define DVPP_MEM_ALIGN		32u

struct acldvppPicDesc {
	uint32_t magic;
	void *data;			/* device address (acldvppMalloc) */
	uint32_t size;
	uint32_t format;		/* acldvppPixelFormat */
	uint32_t width, height;
	uint32_t width_stride, height_stride;
	uint32_t ret_code;
	bool in_batch;			/* owned by a batch: not destroyable */
};

struct acldvppBatchPicDesc {
	uint32_t magic;
	uint32_t count;
	struct acldvppPicDesc *pics;	/* count elements */
};

struct acldvppRoiConfig {
	uint32_t magic;
	uint32_t left, right, top, bottom;	/* inclusive */
};

struct acldvppResizeConfig {
	uint32_t magic;
	uint32_t interpolation;
};

struct acldvppBorderConfig {
	uint32_t magic;
	uint32_t type;			/* acldvppBorderType */
	uint32_t top, bottom, left, right;
	double value[4];
};

struct acldvppJpegeConfig {
	uint32_t magic;
	uint32_t level;
};

struct acldvppLutMap {
	uint32_t magic;
	uint32_t dims;			/* 3 */
	uint8_t map[3][256];
};

struct acldvppHist {
	uint32_t magic;
	uint32_t dims;			/* 3 */
	uint32_t ret_code;
	uint32_t hist[3][256];
};

struct acldvppChannelDesc {
	uint32_t magic;
	uint32_t mode;			/* OR of acldvppChannelMode; 0: all */
	uint32_t csc_matrix;		/* acldvppCscMatrix */
	uint32_t jpegd_precision;	/* acldvppJpegdPrecisionMode */
	uint32_t width, height;		/* ACL_DVPP_CHANNEL_{WIDTH,HEIGHT} */
	uint64_t channel_id;		/* set by acldvppCreateChannel */
	bool created;			/* between CreateChannel and DestroyChannel */
	int32_t device;			/* the device it was created on */
};

struct acldvppStreamDesc {
	uint32_t magic;
	void *data;
	uint32_t size;
	uint32_t format;		/* acldvppStreamFormat */
	uint64_t timestamp;
	uint32_t ret_code;
	bool eos;
};

struct aclvdecFrameConfig {
	uint32_t magic;
};

struct aclvencFrameConfig {
	uint32_t magic;
	uint8_t force_iframe;
	uint8_t eos;
};

struct dvpp_vdec_chan;	/* dvpp_vdec.c: the decoder and its thread */

struct aclvdecChannelDesc {
	uint32_t magic;
	uint32_t channel_id;		/* 0..15 */
	uint64_t thread_id;		/* the thread serving callbacks */
	aclvdecCallback callback;
	uint32_t en_type;		/* acldvppStreamFormat */
	uint32_t out_pic_format;
	uint32_t out_pic_width, out_pic_height;
	uint32_t ref_frame_num;
	uint32_t bit_depth;
	uint32_t out_mode;
	uint32_t csc_matrix;
	struct dvpp_vdec_chan *chan;	/* non-NULL while created */
};

struct aclvencChannelDesc {
	uint32_t magic;
	uint64_t thread_id;
	aclvencCallback callback;
	uint32_t en_type, pic_format, pic_width, pic_height;
	uint32_t key_frame_interval, rc_mode, src_rate, max_bit_rate;
	uint32_t max_ip_prop;
	void *buf_addr;
	uint32_t buf_size;
	uint32_t channel_id;
};

/* Whether p is a live object of its kind (NULL is not). */
#define DVPP_IS(p, kind) ((p) && (p)->magic == DVPP_MAGIC_##kind)

#endif /* VNPU_DVPP_H */
