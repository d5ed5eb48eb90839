/* SPDX-License-Identifier: MIT */
/* Argument rules the codec entry points share (dvpp_codec_info.c). */
#ifndef VNPU_DVPP_CODEC_API_H
#define VNPU_DVPP_CODEC_API_H

#include <stdbool.h>
#include <stdint.h>

#include "dvpp.h"

/* Output formats a decode may ask for (the file decides the rest). */
bool dvpp_jpeg_format_ok(uint32_t format);
bool dvpp_png_format_ok(uint32_t format);

/*
 * A JPEGE input picture: live, a format JPEGE takes, CANN's strides, its
 * bytes (*need) inside its acldvppMalloc block.
 */
aclError dvpp_check_encode_input(const char *func, const acldvppPicDesc *p,
				 uint32_t *need);

#endif /* VNPU_DVPP_CODEC_API_H */
