// SPDX-License-Identifier: MIT
/*
 * The AIPP section of a .om (Documentation/om-format.md, "AIPP"): each
 * record names an image input of the right form, static records carry
 * parameters and no parameter input, dynamic ones a parameter input of
 * the right name and shape. The parameters' values are the device's to
 * check, on every run (DRM_VNPU_OP_AIPP refuses bad ones).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <drm/vnpu_accel.h>

#include "om_read.h"

_Static_assert(sizeof(struct drm_vnpu_aipp_params) == OM_AIPP_PARAMS_SIZE,
	       "the record holds the UAPI's parameter block");

__attribute__((format(printf, 3, 4)))
static int bad(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return OM_ERR_PARSE;
}

static bool all_zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

/* The image input: UINT8 [N, bytes], N and bytes at least 1. */
static bool image_io_ok(const struct om_io *io)
{
	return io->dtype == DRM_VNPU_DTYPE_UINT8 && io->rank == 2 &&
	       io->dims[0] >= 1 && io->dims[1] >= 1;
}

static int check_dynamic(const struct om_image *img, const struct om_aipp *a,
			 uint32_t i, char *why, size_t len)
{
	const struct om_io *io, *im = &img->io[a->input];

	if (a->params_input >= img->nin || a->params_input == a->input)
		return bad(why, len, "aipp %u: parameter input %u is not another input",
			   i, a->params_input);
	io = &img->io[a->params_input];
	if (strcmp(img->strings + io->name, OM_AIPP_DYNAMIC_NAME) ||
	    io->dtype != DRM_VNPU_DTYPE_UINT8 || io->rank != 2 ||
	    io->dims[0] != im->dims[0] || io->dims[1] != OM_AIPP_PARAMS_SIZE ||
	    (io->flags & OM_IO_BATCHED) != (im->flags & OM_IO_BATCHED))
		return bad(why, len, "aipp %u: input %u is not %s, UINT8 [%lld, %d]",
			   i, a->params_input, OM_AIPP_DYNAMIC_NAME,
			   (long long)im->dims[0], OM_AIPP_PARAMS_SIZE);
	if (!all_zero(a->params, sizeof(a->params)))
		return bad(why, len, "aipp %u: a dynamic record carries parameters", i);
	return 0;
}

int om_check_aipp(const struct om_image *img, char *why, size_t len)
{
	for (uint32_t i = 0; i < img->naipp; i++) {
		const struct om_aipp *a = &img->aipp[i];
		int ret;

		if ((a->mode != OM_AIPP_STATIC && a->mode != OM_AIPP_DYNAMIC) ||
		    a->reserved)
			return bad(why, len, "aipp %u: mode %u or reserved is invalid",
				   i, a->mode);
		if (a->input >= img->nin || !image_io_ok(&img->io[a->input]))
			return bad(why, len, "aipp %u: input %u is not an image input, UINT8 [N, bytes]",
				   i, a->input);
		for (uint32_t j = 0; j < i; j++)
			if (img->aipp[j].input == a->input ||
			    img->aipp[j].params_input == a->input ||
			    (a->mode == OM_AIPP_DYNAMIC &&
			     (img->aipp[j].input == a->params_input ||
			      img->aipp[j].params_input == a->params_input)))
				return bad(why, len, "aipp %u and %u share an input", j, i);
		if ((a->out_dtype != DRM_VNPU_DTYPE_FLOAT &&
		     a->out_dtype != DRM_VNPU_DTYPE_FLOAT16) || a->out_rank != 4)
			return bad(why, len, "aipp %u: the layer's input is dtype %u rank %u, not FLOAT or FLOAT16 [N, C, H, W]",
				   i, a->out_dtype, a->out_rank);
		for (uint32_t d = 0; d < OM_MAX_RANK; d++)
			if (d < 4 ? a->out_dims[d] < 1 : a->out_dims[d] != 0)
				return bad(why, len, "aipp %u: dims of the layer's input are invalid", i);
		if (a->out_dims[1] > 4 || a->out_dims[0] != img->io[a->input].dims[0])
			return bad(why, len, "aipp %u: %lld channels or batch %lld (1..4 channels, the image input's batch)",
				   i, (long long)a->out_dims[1], (long long)a->out_dims[0]);
		if (a->mode == OM_AIPP_DYNAMIC) {
			ret = check_dynamic(img, a, i, why, len);
			if (ret)
				return ret;
		} else if (a->params_input != OM_AIPP_NO_INPUT ||
			   !all_zero(a->params + OM_AIPP_PARAMS_SIZE,
				     sizeof(a->params) - OM_AIPP_PARAMS_SIZE)) {
			return bad(why, len, "aipp %u: a static record has a parameter input or bytes past its parameters",
				   i);
		}
	}
	return 0;
}
