/* SPDX-License-Identifier: MIT */
/* One VPC task (dvpp_vpc_task.c), shared by the single and batch calls. */
#ifndef VNPU_DVPP_VPC_H
#define VNPU_DVPP_VPC_H

#include "dvpp_vpc_check.h"

struct rt_stream;

/* A rectangle: left, top, width, height. */
struct dvpp_rect {
	uint32_t x, y, w, h;
};

#define DVPP_VPC_KIND_RESIZE	0
#define DVPP_VPC_KIND_PYRDOWN	1
#define DVPP_VPC_KIND_BORDER	2

struct dvpp_vpc_task {
	const acldvppPicDesc *in, *out;
	struct dvpp_rect crop, paste;
	uint32_t interpolation;		/* acldvppResizeConfig's value */
	uint32_t csc;			/* acldvppCscMatrix */
	uint32_t kind;
	const acldvppBorderConfig *border;
};

/* The whole picture, its width and height rounded down to the format's. */
struct dvpp_rect dvpp_rect_whole(const acldvppPicDesc *p,
				 const struct dvpp_format *f);
/* An ROI's rectangle. */
struct dvpp_rect dvpp_rect_roi(const acldvppRoiConfig *r);

/* Queue the DRM_VNPU_OP_VPC task on s. */
aclError dvpp_vpc_push(const char *func, struct rt_stream *s,
		       const struct dvpp_vpc_task *t);

#endif /* VNPU_DVPP_VPC_H */
