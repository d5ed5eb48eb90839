#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""dvpp_resnet.py: examples/dvpp_resnet.c through pyACL, as pyACL's
DVPP samples write it.

A JPEG file is decoded by JPEGD (acl.media.dvpp_jpeg_decode_async), its
centre square cropped and resized to 224x224 NV12 by the VPC
(dvpp_vpc_crop_resize_async), and classified by ResNet-18 converted by
atc with an AIPP stage (examples/resnet18_aipp.cfg), which takes the NV12
picture as it is. Prints the top-5 classes.

usage: dvpp_resnet.py [PICTURE.jpg [MODEL.om]]
Defaults: build/tests/acl/media/picture.jpg and
build/models/resnet18_aipp.om (both made by `make`).
"""
import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# the build's acl module, when not installed (`make install` puts it in
# dist-packages)
sys.path.insert(0, os.path.join(TOP, "build", "python"))

import numpy as np  # noqa: E402

import acl  # noqa: E402

# The constants pyACL samples define for themselves.
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
PIXEL_FORMAT_YUV_SEMIPLANAR_420 = 1
SIDE = 224
NV12_BYTES = SIDE * SIDE * 3 // 2


def check(ret, what):
    if ret != 0:
        raise RuntimeError("%s failed: %d %s" % (what, ret, acl.get_recent_err_msg()))


def pic_desc(ptr, size, width=0, height=0, ws=0, hs=0):
    desc = acl.media.dvpp_create_pic_desc()
    check(acl.media.dvpp_set_pic_desc_data(desc, ptr), "set data")
    check(acl.media.dvpp_set_pic_desc_size(desc, size), "set size")
    check(acl.media.dvpp_set_pic_desc_format(desc, PIXEL_FORMAT_YUV_SEMIPLANAR_420),
          "set format")
    if width:
        check(acl.media.dvpp_set_pic_desc_width(desc, width), "set width")
        check(acl.media.dvpp_set_pic_desc_height(desc, height), "set height")
        check(acl.media.dvpp_set_pic_desc_width_stride(desc, ws), "set width stride")
        check(acl.media.dvpp_set_pic_desc_height_stride(desc, hs), "set height stride")
    return desc


def main():
    pic_path = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.join(TOP, "build/tests/acl/media/picture.jpg")
    model_path = sys.argv[2] if len(sys.argv) > 2 else \
        os.path.join(TOP, "build/models/resnet18_aipp.om")
    with open(pic_path, "rb") as f:
        jpeg = f.read()

    check(acl.init(), "acl.init")
    check(acl.rt.set_device(0), "set_device")
    context, ret = acl.rt.create_context(0)
    check(ret, "create_context")
    stream, ret = acl.rt.create_stream()
    check(ret, "create_stream")
    channel = acl.media.dvpp_create_channel_desc()
    check(acl.media.dvpp_create_channel(channel), "dvpp_create_channel")

    # JPEGD: the header read on the host, the file in DVPP memory
    width, height, components, css, ret = \
        acl.media.dvpp_jpeg_get_image_info_v2(acl.util.bytes_to_ptr(jpeg), len(jpeg))
    check(ret, "dvpp_jpeg_get_image_info_v2")
    dec_size, ret = acl.media.dvpp_jpeg_predict_dec_size(
        acl.util.bytes_to_ptr(jpeg), len(jpeg), PIXEL_FORMAT_YUV_SEMIPLANAR_420)
    check(ret, "dvpp_jpeg_predict_dec_size")
    print("picture: %dx%d, %d components; NV12 takes %d bytes" %
          (width, height, components, dec_size))
    jpeg_dev, ret = acl.media.dvpp_malloc(len(jpeg))
    check(ret, "dvpp_malloc")
    check(acl.rt.memcpy(jpeg_dev, len(jpeg), acl.util.bytes_to_ptr(jpeg), len(jpeg),
                        ACL_MEMCPY_HOST_TO_DEVICE), "memcpy")
    dec_dev, ret = acl.media.dvpp_malloc(dec_size)
    check(ret, "dvpp_malloc")
    decoded = pic_desc(dec_dev, dec_size)
    check(acl.media.dvpp_jpeg_decode_async(channel, jpeg_dev, len(jpeg), decoded, stream),
          "dvpp_jpeg_decode_async")
    check(acl.rt.synchronize_stream(stream), "synchronize_stream")
    w = acl.media.dvpp_get_pic_desc_width(decoded)
    h = acl.media.dvpp_get_pic_desc_height(decoded)

    # VPC: the centre square to 224x224
    side = min(w, h) & ~1
    left, top = ((w - side) // 2) & ~1, ((h - side) // 2) & ~1
    roi = acl.media.dvpp_create_roi_config(left, left + side - 1, top, top + side - 1)
    resize = acl.media.dvpp_create_resize_config()
    check(acl.media.dvpp_set_resize_config_interpolation(resize, 1), "interpolation")
    small_dev, ret = acl.media.dvpp_malloc(NV12_BYTES)
    check(ret, "dvpp_malloc")
    small = pic_desc(small_dev, NV12_BYTES, SIDE, SIDE, SIDE, SIDE)
    check(acl.media.dvpp_vpc_crop_resize_async(channel, decoded, small, roi, resize, stream),
          "dvpp_vpc_crop_resize_async")

    # the model with AIPP takes the NV12 picture as it is
    model_id, ret = acl.mdl.load_from_file(model_path)
    check(ret, "load_from_file")
    desc = acl.mdl.create_desc()
    check(acl.mdl.get_desc(desc, model_id), "get_desc")
    out_size = acl.mdl.get_output_size_by_index(desc, 0)
    out_dev, ret = acl.rt.malloc(out_size, ACL_MEM_MALLOC_HUGE_FIRST)
    check(ret, "malloc")
    inputs, outputs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    in_buf = acl.create_data_buffer(small_dev, NV12_BYTES)
    out_buf = acl.create_data_buffer(out_dev, out_size)
    check(acl.mdl.add_dataset_buffer(inputs, in_buf)[1], "add_dataset_buffer")
    check(acl.mdl.add_dataset_buffer(outputs, out_buf)[1], "add_dataset_buffer")
    check(acl.mdl.execute_async(model_id, inputs, outputs, stream), "execute_async")
    check(acl.rt.synchronize_stream(stream), "synchronize_stream")
    host, ret = acl.rt.malloc_host(out_size)
    check(ret, "malloc_host")
    check(acl.rt.memcpy(host, out_size, out_dev, out_size, ACL_MEMCPY_DEVICE_TO_HOST),
          "memcpy")
    scores = acl.util.ptr_to_numpy(host, (out_size // 4,), 11).copy()
    print("%s on %s:" % (model_path, pic_path))
    for k, c in enumerate(np.argsort(-scores, kind="stable")[:5]):
        print("  top %d: class %4d  score %9.4f" % (k + 1, c, scores[c]))

    # release in reverse order
    check(acl.rt.free_host(host), "free_host")
    acl.destroy_data_buffer(in_buf)
    acl.destroy_data_buffer(out_buf)
    acl.mdl.destroy_dataset(inputs)
    acl.mdl.destroy_dataset(outputs)
    acl.mdl.destroy_desc(desc)
    check(acl.mdl.unload(model_id), "unload")
    check(acl.rt.free(out_dev), "free")
    acl.media.dvpp_destroy_roi_config(roi)
    acl.media.dvpp_destroy_resize_config(resize)
    for d in (decoded, small):
        acl.media.dvpp_destroy_pic_desc(d)
    for p in (jpeg_dev, dec_dev, small_dev):
        check(acl.media.dvpp_free(p), "dvpp_free")
    check(acl.media.dvpp_destroy_channel(channel), "dvpp_destroy_channel")
    acl.media.dvpp_destroy_channel_desc(channel)
    check(acl.rt.destroy_stream(stream), "destroy_stream")
    check(acl.rt.destroy_context(context), "destroy_context")
    check(acl.rt.reset_device(0), "reset_device")
    check(acl.finalize(), "finalize")


if __name__ == "__main__":
    main()
