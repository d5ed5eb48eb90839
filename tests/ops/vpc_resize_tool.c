// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * vpc_resize_tool: one DRM_VNPU_OP_VPC resize of a YUV400 (one-plane)
 * picture through the host build of the operator library, for the
 * Python tests that compare the VPC's modes with Pillow and OpenCV
 * (tests/unit/vpc_reference_host_test.py).
 *
 * usage: vpc_resize_tool MODE IN_W IN_H OUT_W OUT_H < IN.raw > OUT.raw
 * MODE is the interpolation (acldvppResizeConfig: 0 bicubic, 1 bilinear,
 * 2 nearest, 3 and 4 TensorFlow's); the pictures are tightly packed.
 */
#include <stdio.h>
#include <stdlib.h>

#include "vpc_cv_shim.h"

int main(int argc, char **argv)
{
	int64_t ints[24] = { 0 };
	uint32_t floats[8] = { 0 };
	long v[5];
	uint8_t *src, *dst;
	size_t in, out;
	int i, ret;

	if (argc != 6)
		return 2;
	for (i = 0; i < 5; i++) {
		v[i] = strtol(argv[i + 1], NULL, 10);
		if (v[i] < 0 || v[i] > 8192)
			return 2;
	}
	in = (size_t)v[1] * v[2];
	out = (size_t)v[3] * v[4];
	src = malloc(in);
	dst = calloc(1, out);
	if (!src || !dst || fread(src, 1, in, stdin) != in)
		return 2;
	/* YUV400 both sides, strides = sizes, whole pictures */
	ints[1] = v[1];
	ints[2] = v[2];
	ints[3] = v[1];
	ints[4] = v[2];
	ints[6] = v[3];
	ints[7] = v[4];
	ints[8] = v[3];
	ints[9] = v[4];
	ints[18] = v[0];
	ret = vpc_shim_run(ints, floats, src, in, dst, out, NULL);
	if (ret) {
		fprintf(stderr, "vpc_resize_tool: the call is refused (%d)\n", ret);
		return 1;
	}
	if (fwrite(dst, 1, out, stdout) != out)
		return 1;
	free(src);
	free(dst);
	return 0;
}
