/* SPDX-License-Identifier: MIT */
/*
 * JPEGD's output rules on Ascend 310/910: which formats each source
 * sampling may be decoded to, the strides (width to 128, height to 16)
 * and the rounding of odd sizes (acldvppJpegdPrecisionMode). Drives
 * dvpp_jpeg_decode() and acldvppJpegPredictDecSize.
 */
#include <errno.h>

#include "dvpp_codec.h"

static uint32_t default_format(uint32_t css)
{
	switch (css) {
	case DVPP_CSS_444:
		return DVPP_FMT_YVU_SP_444;
	case DVPP_CSS_422:
		return DVPP_FMT_YVU_SP_422;
	default:
		return DVPP_FMT_NV21;
	}
}

static uint32_t even(uint32_t v, bool up)
{
	return up ? v + (v & 1) : v & ~1u;
}

int dvpp_jpeg_out_layout(uint32_t width, uint32_t height, uint32_t css,
			 uint32_t out_format, uint32_t align_mode,
			 struct dvpp_pic_layout *layout, char *why,
			 size_t why_len)
{
	uint32_t fmt, w = width, h = height, ws, hs;
	bool up = align_mode == DVPP_JPEGD_ALIGN_UP;

	if (!layout)
		return dvpp_codec_fail(why, why_len, -EINVAL, "NULL layout");
	if (align_mode != DVPP_JPEGD_ALIGN_DOWN && !up &&
	    align_mode != DVPP_JPEGD_ALIGN_DOWN_COMPAT)
		return dvpp_codec_fail(why, why_len, -EINVAL,
				       "precision mode %u is not 0, 1 or 2",
				       align_mode);
	if (css != DVPP_CSS_444 && css != DVPP_CSS_422 && css != DVPP_CSS_420 &&
	    css != DVPP_CSS_440 && css != DVPP_CSS_GRAY)
		return dvpp_codec_fail(why, why_len, -EOPNOTSUPP,
				       "JPEGD does not decode sampling %u", css);
	if (width < DVPP_JPEGD_MIN || width > DVPP_JPEGD_MAX ||
	    height < DVPP_JPEGD_MIN || height > DVPP_JPEGD_MAX)
		return dvpp_codec_fail(why, why_len, -ERANGE,
				       "%ux%u is outside JPEGD's %ux%u..%ux%u",
				       width, height, DVPP_JPEGD_MIN,
				       DVPP_JPEGD_MIN, DVPP_JPEGD_MAX,
				       DVPP_JPEGD_MAX);
	fmt = out_format == DVPP_FMT_UNKNOWN ? default_format(css) : out_format;
	switch (fmt) {
	case DVPP_FMT_NV12:
	case DVPP_FMT_NV21:
		w = even(width, up);
		h = even(height, up);
		break;
	case DVPP_FMT_YVU_SP_422:
	case DVPP_FMT_YVU_SP_444:
		if (fmt != default_format(css))
			goto refused;
		if (fmt == DVPP_FMT_YVU_SP_422)
			w = even(width, up);
		break;
	default:
		goto refused;
	}
	ws = DVPP_ALIGN_UP(w, 128u);
	hs = DVPP_ALIGN_UP(h, 16u);
	*layout = (struct dvpp_pic_layout){
		.format = fmt, .width = w, .height = h,
		.width_stride = ws, .height_stride = hs,
	};
	if (fmt == DVPP_FMT_YVU_SP_444)
		layout->size = ws * hs * 3;
	else if (fmt == DVPP_FMT_YVU_SP_422)
		layout->size = ws * hs * 2;
	else
		layout->size = ws * hs / 2 * 3;
	return 0;

refused:
	return dvpp_codec_fail(why, why_len, -EINVAL,
			       "JPEGD cannot decode sampling %u to format %u",
			       css, out_format);
}
