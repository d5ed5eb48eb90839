#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# How close the VPC's resize modes are to OpenCV's and Pillow's, on the
# host build of the operator library (build/tests/ops/vpc_resize_tool,
# the code the module runs). Pictures are smooth (sines), as photographs
# are; on noise every filter differs from every other. Measured on
# 2026-11-29 with OpenCV 4.6 and Pillow 9.4, and asserted here:
#
#   mode               OpenCV (max)   Pillow (max)   why Pillow differs
#   0 default/bicubic  1              2              Pillow widens the
#   1 bilinear         1              3              kernel when it shrinks
#   2 nearest          0              18             Pillow samples pixel
#                                                    centres: a shift of 1
#
# (bilinear and bicubic are also within 1 of OpenCV on noise:
# tests/ops/op_vpc_cv_test.cpp.) Each case is one TAP line.
import os
import subprocess
import sys

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(top, "tests", "pylib"))

from testenv import check, done  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

TOOL = os.path.join(top, "build", "tests", "ops", "vpc_resize_tool")
CV = {0: cv2.INTER_CUBIC, 1: cv2.INTER_LINEAR, 2: cv2.INTER_NEAREST}
PIL = {0: Image.BICUBIC, 1: Image.BILINEAR, 2: Image.NEAREST}
NAME = {0: "bicubic (default)", 1: "bilinear", 2: "nearest"}
# (largest difference from OpenCV, from Pillow) per mode
BOUND = {0: (1, 2), 1: (1, 3), 2: (0, 18)}


def picture(w, h):
    y, x = np.mgrid[0:h, 0:w]
    a = 128 + 60 * np.sin(x / 7.0) * np.cos(y / 5.0) + 40 * np.sin((x + y) / 13.0)
    return np.clip(a, 0, 255).astype(np.uint8)


def vpc(mode, a, ow, oh):
    h, w = a.shape
    r = subprocess.run([TOOL, str(mode), str(w), str(h), str(ow), str(oh)],
                       input=a.tobytes(), capture_output=True, check=True, timeout=60)
    return np.frombuffer(r.stdout, np.uint8).reshape(oh, ow)


for w, h, ow, oh in ((96, 64, 144, 96), (96, 64, 48, 32), (120, 80, 84, 56),
                     (200, 120, 224, 224)):
    a = picture(w, h)
    for mode in (0, 1, 2):
        v = vpc(mode, a, ow, oh).astype(int)
        c = cv2.resize(a, (ow, oh), interpolation=CV[mode]).astype(int)
        p = np.asarray(Image.fromarray(a).resize((ow, oh), PIL[mode])).astype(int)
        dc, dp = int(np.abs(v - c).max()), int(np.abs(v - p).max())
        print("# %dx%d -> %dx%d %s: OpenCV max %d, Pillow max %d (mean %.2f)" %
              (w, h, ow, oh, NAME[mode], dc, dp, float(np.abs(v - p).mean())))
        check("%dx%d -> %dx%d %s: within %d of OpenCV, %d of Pillow" %
              (w, h, ow, oh, NAME[mode], BOUND[mode][0], BOUND[mode][1]),
              dc <= BOUND[mode][0] and dp <= BOUND[mode][1])
# the TensorFlow modes: nearest is floor(dst * in / out), exactly
a = picture(96, 64)
v = vpc(4, a, 40, 24)
ys = np.floor(np.arange(24) * 64 / 24).astype(int)
xs = np.floor(np.arange(40) * 96 / 40).astype(int)
check("TensorFlow nearest (mode 4) is floor(dst * in / out)", np.array_equal(v, a[ys][:, xs]))
sys.exit(done())
