/* SPDX-License-Identifier: MIT */
/*
 * The resize family on the driver's RESIZE_ND: Resize (CANN's scales and
 * mode string), UpsampleNearest2d, UpsampleNearest1d (and V2 with a
 * scale), UpsampleBilinear2d, UpsampleBicubic2d and UpsampleLinear1d
 * (PyTorch's interpolate). Each is one KERNEL task;
 * PyTorch's coordinate rules are ONNX coordinate modes:
 *  - nearest: asymmetric, rounded down (src = floor(dst * in / out), or
 *    floor(dst / scale) with a scale);
 *  - linear/cubic, align corners: align_corners;
 *  - linear/cubic otherwise: half_pixel with the caller's scale (or
 *    out / in); a negative source coordinate reads the first element in
 *    both, as the edge taps are clamped.
 */
#include <string.h>

#include "nn_ops_common.h"
#include "aclnnop/aclnn_resize.h"
#include "aclnnop/aclnn_upsample_nearest_2d.h"
#include "aclnnop/aclnn_upsample_bilinear_2d.h"
#include "aclnnop/aclnn_upsample_bicubic_2d.h"
#include "aclnnop/aclnn_upsample_linear_1d.h"
#include "aclnnop/aclnn_upsample_nearest_1d.h"
#include "aclnnop/aclnn_upsample_nearest_1d_v2.h"
#include "../core/prof_rt.h"

enum { RS_NEAREST, RS_LINEAR, RS_CUBIC };
enum { RS_HALF_PIXEL = 0, RS_ALIGN_CORNERS = 2, RS_ASYMMETRIC = 3 };
enum { RS_ROUND_FLOOR = 2 };

#define RS_MAX_SIZE	(1 << 24)	/* an output dim, far past any image */

struct rs_args {
	int mode, coord;
	int sp;			/* spatial dims: 1 (NCL) or 2 (NCHW) */
	int64_t size[2];	/* output spatial sizes */
	double scale[2];	/* PyTorch's scale factors, <= 0: none */
};

/* One RESIZE_ND task from self to out after the common checks. */
static aclnnStatus resize_task(const char *func, const aclTensor *self,
			       const aclTensor *out, const struct rs_args *a,
			       uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct drm_vnpu_op_attrs at = { 0 };
	int64_t shape[4];
	struct nn_ref in, o;
	aclOpExecutor *ex;
	int i;

	CHECK_T(self);
	CHECK_T(out);
	NEED(workspaceSize);
	NEED(executor);
	if (out->dtype != self->dtype)
		return BAD("self and out must have one dtype");
	if (a->mode != RS_NEAREST && !nn_dtype_is_float(self->dtype))
		return BAD("interpolation takes FLOAT, FLOAT16 or BF16");
	if (self->ndim != (uint64_t)(2 + a->sp))
		return BAD("self must be %d-D", 2 + a->sp);
	shape[0] = self->dims[0];
	shape[1] = self->dims[1];
	for (i = 0; i < a->sp; i++) {
		if (a->size[i] < 1 || a->size[i] > RS_MAX_SIZE ||
		    self->dims[2 + i] < 1)
			return BAD("bad output size %lld or empty input",
				   (long long)a->size[i]);
		shape[2 + i] = a->size[i];
	}
	if (!nn_dims_are(out, 2 + a->sp, shape))
		return BAD("out must be self's N and C and the output size");
	at.ints[0] = a->mode;
	at.ints[1] = a->coord;
	at.ints[2] = RS_ROUND_FLOOR;
	for (i = 0; i < a->sp; i++) {
		/* a given factor (out / in, as ONNX's) places the samples */
		if (a->coord != RS_ALIGN_CORNERS && a->scale[i] > 0) {
			float f = (float)a->scale[i];
			uint32_t bits;

			memcpy(&bits, &f, sizeof(bits));
			at.ints[10 + i] = bits;	/* dim 2 + i */
		}
	}
	nn_set_float(&at, 0, -0.75f);	/* PyTorch's cubic coefficient */
	NEW_EX(ex);
	in = nn_bind_tensor(ex, self, false);
	o = nn_bind_tensor(ex, out, true);
	return nn_finish(func, ex, nn_task(ex, DRM_VNPU_OP_RESIZE_ND, &in, 1, &o, &at),
			 workspaceSize, executor);
}

/* outputSize of exactly n positive values into a->size. */
static bool output_size(const aclIntArray *outputSize, int n, struct rs_args *a)
{
	uint64_t len;
	const int64_t *v = nn_int_array(outputSize, &len);
	int i;

	if (len != (uint64_t)n)
		return false;
	for (i = 0; i < n; i++)
		a->size[i] = v[i];
	return true;
}

aclnnStatus aclnnResizeGetWorkspaceSize(const aclTensor *self,
					const aclFloatArray *scales,
					const char *mode, aclTensor *out,
					uint64_t *workspaceSize,
					aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct rs_args a = { .sp = 2, .coord = RS_ASYMMETRIC };
	const float *s;
	uint64_t n;
	int i;

	CHECK_T(self);
	CHECK_T(out);
	NEED(scales);
	NEED(mode);
	if (!strcmp(mode, "nearest"))
		a.mode = RS_NEAREST;
	else if (!strcmp(mode, "bilinear"))
		a.mode = RS_LINEAR;
	else
		return BAD("mode must be \"nearest\" or \"bilinear\"");
	if (!nn_dtype_is_float(self->dtype))
		return BAD("self must be FLOAT, FLOAT16 or BF16");
	s = nn_float_array(scales, &n);
	if (self->ndim != 4 || out->ndim != 4 || n != 4)
		return BAD("self and out must be 4-D (NCHW), with 4 scales");
	if (s[0] != 1.0f || s[1] != 1.0f)
		return BAD("the N and C scales must be 1");
	for (i = 0; i < 2; i++) {
		double in = (double)self->dims[2 + i], f = s[2 + i];
		int64_t lo, hi;

		if (!(f > 0) || in * f >= RS_MAX_SIZE)
			return BAD("scales must be positive and the output small enough");
		/*
		 * out = floor(in * scale), within the float scale's rounding
		 * (7 / 3 in float times 3 is just under 7); the samples
		 * themselves use out / in (src = dst * in / out).
		 */
		lo = (int64_t)(in * (f - 1e-5));
		hi = (int64_t)(in * (f + 1e-5));
		if (out->dims[2 + i] < lo || out->dims[2 + i] > hi)
			return BAD("out's dim %d is not floor(%lld * %g)", 2 + i,
				   (long long)self->dims[2 + i], f);
		a.size[i] = out->dims[2 + i];
	}
	return resize_task(func, self, out, &a, workspaceSize, executor);
}
LAUNCH(aclnnResize)

aclnnStatus aclnnUpsampleNearest2dGetWorkspaceSize(const aclTensor *self,
						   const aclIntArray *outputSize,
						   aclTensor *out,
						   uint64_t *workspaceSize,
						   aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct rs_args a = { .sp = 2, .mode = RS_NEAREST, .coord = RS_ASYMMETRIC };

	NEED(outputSize);
	if (!output_size(outputSize, 2, &a))
		return BAD("outputSize takes 2 values");
	return resize_task(func, self, out, &a, workspaceSize, executor);
}
LAUNCH(aclnnUpsampleNearest2d)

/* Bilinear or bicubic of NCHW, or linear of NCL: PyTorch's rules. */
static aclnnStatus interp(const char *func, int mode, int sp,
			  const aclTensor *self, const aclIntArray *outputSize,
			  bool alignCorners, double sh, double sw,
			  const aclTensor *out, uint64_t *workspaceSize,
			  aclOpExecutor **executor)
{
	struct rs_args a = { .sp = sp, .mode = mode };

	NEED(outputSize);
	if (!output_size(outputSize, sp, &a))
		return BAD("outputSize takes %d value(s)", sp);
	a.coord = alignCorners ? RS_ALIGN_CORNERS : RS_HALF_PIXEL;
	a.scale[0] = sh;
	a.scale[1] = sw;
	return resize_task(func, self, out, &a, workspaceSize, executor);
}

aclnnStatus aclnnUpsampleBilinear2dGetWorkspaceSize(const aclTensor *self,
						    const aclIntArray *outputSize,
						    const bool alignCorners,
						    const double scalesH,
						    const double scalesW,
						    aclTensor *out,
						    uint64_t *workspaceSize,
						    aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;

	/* CANN's document: a negative scale is 161002 (0 means unset) */
	if (scalesH < 0 || scalesW < 0)
		return BAD("scalesH %g and scalesW %g must not be negative",
			   scalesH, scalesW);
	return interp(func, RS_LINEAR, 2, self, outputSize, alignCorners,
		      scalesH, scalesW, out, workspaceSize, executor);
}
LAUNCH(aclnnUpsampleBilinear2d)

aclnnStatus aclnnUpsampleBicubic2dGetWorkspaceSize(const aclTensor *self,
						   const aclIntArray *outputSize,
						   const bool alignCorners,
						   const double scalesH,
						   const double scalesW,
						   aclTensor *out,
						   uint64_t *workspaceSize,
						   aclOpExecutor **executor)
{
	PROF_API();
	return interp(__func__, RS_CUBIC, 2, self, outputSize, alignCorners,
		      scalesH, scalesW, out, workspaceSize, executor);
}
LAUNCH(aclnnUpsampleBicubic2d)

aclnnStatus aclnnUpsampleLinear1dGetWorkspaceSize(const aclTensor *self,
						  const aclIntArray *outputSize,
						  const bool alignCorners,
						  const double scales,
						  aclTensor *out,
						  uint64_t *workspaceSize,
						  aclOpExecutor **executor)
{
	PROF_API();
	return interp(__func__, RS_LINEAR, 1, self, outputSize, alignCorners,
		      scales, 0, out, workspaceSize, executor);
}
LAUNCH(aclnnUpsampleLinear1d)

aclnnStatus aclnnUpsampleNearest1dGetWorkspaceSize(const aclTensor *self,
						   const aclIntArray *outputSize,
						   aclTensor *out,
						   uint64_t *workspaceSize,
						   aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct rs_args a = { .sp = 1, .mode = RS_NEAREST, .coord = RS_ASYMMETRIC };

	NEED(outputSize);
	if (!output_size(outputSize, 1, &a))
		return BAD("outputSize takes 1 value");
	return resize_task(func, self, out, &a, workspaceSize, executor);
}
LAUNCH(aclnnUpsampleNearest1d)

aclnnStatus aclnnUpsampleNearest1dV2GetWorkspaceSize(const aclTensor *self,
						     const aclIntArray *outputSize,
						     float scaleL, aclTensor *out,
						     uint64_t *workspaceSize,
						     aclOpExecutor **executor)
{
	PROF_API();
	const char *func = __func__;
	struct rs_args a = { .sp = 1, .mode = RS_NEAREST, .coord = RS_ASYMMETRIC,
			     .scale = { scaleL, 0 } };

	NEED(outputSize);
	if (!output_size(outputSize, 1, &a))
		return BAD("outputSize takes 1 value");
	return resize_task(func, self, out, &a, workspaceSize, executor);
}
LAUNCH(aclnnUpsampleNearest1dV2)
