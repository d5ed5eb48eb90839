# SPDX-License-Identifier: MIT
# acl.media's description objects, which need no device: pyACL's names and
# return conventions, defaults, round trips, the range rules as error
# codes, batch elements, callbacks, and misuse (destroyed, made-up and
# wrong-kind handles give ACL_ERROR_INVALID_PARAM, wrong types raise).
# Plain functions without fixtures: pytest runs them in the guest
# (run-pytest.sh) and tests/unit/acl_media_host_test.py on the host.
import numpy as np

import acl

m = acl.media
OK = 0
INVALID = 100000          # ACL_ERROR_INVALID_PARAM
UNINITIALIZE = 100001     # ACL_ERROR_UNINITIALIZE
NOT_SUPPORTED = 207000    # ACL_ERROR_RT_FEATURE_NOT_SUPPORT
NV12, NV21, RGB888 = 1, 2, 12


def raises(exc, fn, *args):
    try:
        fn(*args)
    except exc:
        return True
    return False


def test_constants():
    assert (m.PIXEL_FORMAT_YUV_400, m.PIXEL_FORMAT_YUV_SEMIPLANAR_420,
            m.PIXEL_FORMAT_YVU_SEMIPLANAR_420, m.PIXEL_FORMAT_RGB_888,
            m.PIXEL_FORMAT_UNKNOWN) == (0, 1, 2, 12, 10000)
    assert (m.H265_MAIN_LEVEL, m.H264_HIGH_LEVEL) == (0, 3)
    assert (m.DVPP_CHNMODE_VPC, m.DVPP_CHNMODE_PNGD) == (1, 8)
    assert (m.BORDER_CONSTANT, m.BORDER_REFLECT_101) == (0, 3)
    assert m.ACL_JPEG_CSS_UNKNOWN == 1000
    import sys
    assert sys.modules["acl.media"] is m


def test_pic_desc():
    p = m.dvpp_create_pic_desc()
    assert p != 0
    assert m.dvpp_get_pic_desc_data(p) == 0
    assert m.dvpp_get_pic_desc_format(p) == m.PIXEL_FORMAT_YUV_400
    for name in ("size", "width", "height", "width_stride", "height_stride", "ret_code"):
        assert getattr(m, "dvpp_get_pic_desc_" + name)(p) == 0
    assert m.dvpp_set_pic_desc_data(p, 0x100000) == OK
    assert m.dvpp_set_pic_desc_format(p, NV21) == OK
    values = {"size": 1920 * 1080 * 3 // 2, "width": 1920, "height": 1080,
              "width_stride": 1920, "height_stride": 1080, "ret_code": 7}
    for name, v in values.items():
        assert getattr(m, "dvpp_set_pic_desc_" + name)(p, v) == OK
    for name, v in values.items():
        assert getattr(m, "dvpp_get_pic_desc_" + name)(p) == v
    assert m.dvpp_get_pic_desc_data(p) == 0x100000
    assert m.dvpp_get_pic_desc_format(p) == NV21
    assert m.dvpp_set_pic_desc_data(p, 0) == INVALID
    assert m.dvpp_get_pic_desc_data(p) == 0x100000
    assert m.dvpp_destroy_pic_desc(p) == OK
    # Destroyed: refused, getters answer the defaults.
    assert m.dvpp_destroy_pic_desc(p) == INVALID
    assert m.dvpp_set_pic_desc_width(p, 1) == INVALID
    assert m.dvpp_get_pic_desc_width(p) == 0
    assert m.dvpp_get_pic_desc_format(p) == m.PIXEL_FORMAT_YUV_400


def test_misuse():
    roi = m.dvpp_create_roi_config(0, 15, 0, 15)
    # A made-up int, 0 / None and an object of another kind.
    for bad in (0x1234, 0, None, roi):
        assert m.dvpp_set_pic_desc_width(bad, 2) == INVALID
        assert m.dvpp_get_pic_desc_width(bad) == 0
        assert m.dvpp_destroy_pic_desc(bad) == INVALID
        assert m.dvpp_set_jpege_config_level(bad, 1) == INVALID
        assert m.vdec_set_channel_desc_channel_id(bad, 1) == INVALID
    assert m.dvpp_set_roi_config_left(roi, 2) == OK    # still alive
    assert raises(TypeError, m.dvpp_set_pic_desc_width, "desc", 2)
    assert raises(TypeError, m.dvpp_create_roi_config, 0, 1.5, 0, 1)
    assert raises(ValueError, m.dvpp_create_roi_config, -1, 1, 0, 1)
    assert raises(ValueError, m.dvpp_set_roi_config_left, roi, 2 ** 32)
    assert raises(TypeError, m.dvpp_create_pic_desc, 1)
    assert m.dvpp_destroy_roi_config(roi) == OK


def test_batch():
    assert m.dvpp_create_batch_pic_desc(0) == 0
    assert m.dvpp_create_batch_pic_desc(257) == 0
    b = m.dvpp_create_batch_pic_desc(3)
    assert b != 0
    elems = [m.dvpp_get_pic_desc(b, i) for i in range(3)]
    assert 0 not in elems and len(set(elems)) == 3
    assert m.dvpp_get_pic_desc(b, 3) == 0
    for i, e in enumerate(elems):
        assert m.dvpp_set_pic_desc_width(e, 100 + i) == OK
    assert [m.dvpp_get_pic_desc_width(m.dvpp_get_pic_desc(b, i)) for i in range(3)] == \
        [100, 101, 102]
    assert m.dvpp_destroy_pic_desc(elems[1]) == INVALID     # owned by the batch
    assert m.dvpp_get_pic_desc(elems[0], 0) == 0             # not a batch
    assert m.dvpp_destroy_batch_pic_desc(b) == OK
    # The elements died with the batch.
    assert m.dvpp_set_pic_desc_width(elems[0], 1) == INVALID
    assert m.dvpp_get_pic_desc_width(elems[2]) == 0
    assert m.dvpp_destroy_batch_pic_desc(b) == INVALID


def test_roi_resize_jpege():
    assert m.dvpp_create_roi_config(65536, 1, 0, 1) == 0
    r = m.dvpp_create_roi_config(0, 65535, 1, 2)
    assert r != 0
    assert m.dvpp_set_roi_config(r, 16, 31, 0, 15) == OK
    assert m.dvpp_set_roi_config(r, 16, 31, 0, 65536) == INVALID
    for side in ("left", "right", "top", "bottom"):
        assert getattr(m, "dvpp_set_roi_config_" + side)(r, 65535) == OK
        assert getattr(m, "dvpp_set_roi_config_" + side)(r, 65536) == INVALID
    assert m.dvpp_destroy_roi_config(r) == OK

    c = m.dvpp_create_resize_config()
    assert m.dvpp_get_resize_config_interpolation(c) == 0
    for i in range(5):
        assert m.dvpp_set_resize_config_interpolation(c, i) == OK
        assert m.dvpp_get_resize_config_interpolation(c) == i
    assert m.dvpp_set_resize_config_interpolation(c, 5) == INVALID
    assert m.dvpp_get_resize_config_interpolation(c) == 4
    assert m.dvpp_destroy_resize_config(c) == OK

    j = m.dvpp_create_jpege_config()
    assert m.dvpp_get_jpege_config_level(j) == 0
    assert m.dvpp_set_jpege_config_level(j, 100) == OK
    assert m.dvpp_set_jpege_config_level(j, 101) == INVALID
    assert m.dvpp_get_jpege_config_level(j) == 100
    assert m.dvpp_destroy_jpege_config(j) == OK


def test_border_lut_hist():
    b = m.dvpp_create_border_config()
    assert m.dvpp_get_border_config_border_type(b) == m.BORDER_CONSTANT
    assert m.dvpp_set_border_config_value(b, 3, 127.5) == OK
    assert m.dvpp_get_border_config_value(b, 3) == 127.5
    assert m.dvpp_set_border_config_value(b, 4, 1.0) == INVALID
    assert m.dvpp_get_border_config_value(b, 4) == -1.0
    assert m.dvpp_set_border_config_border_type(b, m.BORDER_REFLECT) == OK
    assert m.dvpp_set_border_config_border_type(b, 4) == INVALID
    assert m.dvpp_get_border_config_border_type(b) == m.BORDER_REFLECT
    for side in ("top", "bottom", "left", "right"):
        assert getattr(m, "dvpp_set_border_config_" + side)(b, 8) == OK
        assert getattr(m, "dvpp_get_border_config_" + side)(b) == 8
        assert getattr(m, "dvpp_set_border_config_" + side)(b, 65536) == INVALID
    assert m.dvpp_destroy_border_config(b) == OK

    lut = m.dvpp_create_lut_map()
    assert m.dvpp_get_lut_map_dims(lut) == 3
    addr, n, ret = m.dvpp_get_lut_map_data(lut, 2)
    assert ret == OK and n == 256 and addr != 0
    table = acl.util.ptr_to_numpy(addr, (256,), 2)     # uint8 view
    table[:] = np.arange(256, dtype=np.uint8)[::-1]
    addr2, _, _ = m.dvpp_get_lut_map_data(lut, 2)
    assert acl.util.ptr_to_bytes(addr2, 2) == b"\xff\xfe"
    assert m.dvpp_get_lut_map_data(lut, 3)[2] == INVALID
    assert m.dvpp_destroy_lut_map(lut) == OK

    h = m.dvpp_create_hist()
    assert m.dvpp_get_hist_dims(h) == 3
    assert m.dvpp_get_hist_ret_code(h) == 0
    addr, n, ret = m.dvpp_get_hist_data(h, 0)
    assert ret == OK and n == 256
    counts = acl.util.ptr_to_numpy(addr, (256,), 8)     # uint32 view
    assert not counts.any()
    counts[5] = 9
    assert m.dvpp_clear_hist(h) == OK
    assert counts[5] == 0
    assert m.dvpp_get_hist_data(h, 3)[2] == INVALID
    assert m.dvpp_get_hist_ret_code(0) == INVALID    # CANN answers the code's value
    assert m.dvpp_destroy_hist(h) == OK


def test_channel_desc():
    c = m.dvpp_create_channel_desc()
    assert c != 0
    assert m.dvpp_get_channel_desc_channel_id(c) == 0
    assert m.dvpp_set_channel_desc_mode(c, m.DVPP_CHNMODE_VPC | m.DVPP_CHNMODE_JPEGD) == OK
    assert m.dvpp_get_channel_desc_param(c, m.ACL_DVPP_MODE_UINT32) == (3, OK)
    assert m.dvpp_set_channel_desc_mode(c, 0) == INVALID
    assert m.dvpp_set_channel_desc_mode(c, 16) == INVALID
    assert m.dvpp_set_channel_desc_param(c, m.ACL_DVPP_CHANNEL_WIDTH_UINT32, 1920) == OK
    assert m.dvpp_get_channel_desc_param(c, m.ACL_DVPP_CHANNEL_WIDTH_UINT32) == (1920, OK)
    assert m.dvpp_set_channel_desc_param(c, m.ACL_DVPP_CSC_MATRIX_UINT32, 6) == INVALID
    assert m.dvpp_set_channel_desc_param(c, m.ACL_DVPP_CHANNEL_ID_UINT64, 1) == INVALID
    assert m.dvpp_get_channel_desc_param(c, m.ACL_DVPP_CHANNEL_ID_UINT64) == (0, OK)
    assert m.dvpp_get_channel_desc_param(c, 6)[1] == INVALID
    assert m.dvpp_destroy_channel_desc(c) == OK
    assert m.dvpp_destroy_channel_desc(c) == INVALID


def test_stream_desc():
    s = m.dvpp_create_stream_desc()
    assert m.dvpp_get_stream_desc_format(s) == m.H265_MAIN_LEVEL
    assert m.dvpp_set_stream_desc_data(s, 0x200000) == OK
    assert m.dvpp_set_stream_desc_size(s, 4096) == OK
    assert m.dvpp_set_stream_desc_format(s, m.H264_MAIN_LEVEL) == OK
    assert m.dvpp_set_stream_desc_timestamp(s, 2 ** 40 + 3) == OK
    assert m.dvpp_set_stream_desc_eos(s, 1) == OK
    assert m.dvpp_set_stream_desc_ret_code(s, 4) == OK
    assert (m.dvpp_get_stream_desc_data(s), m.dvpp_get_stream_desc_size(s),
            m.dvpp_get_stream_desc_format(s), m.dvpp_get_stream_desc_timestamp(s),
            m.dvpp_get_stream_desc_eos(s), m.dvpp_get_stream_desc_ret_code(s)) == \
        (0x200000, 4096, m.H264_MAIN_LEVEL, 2 ** 40 + 3, 1, 4)
    assert m.dvpp_set_stream_desc_format(s, 4) == INVALID
    assert m.dvpp_destroy_stream_desc(s) == OK
    assert m.dvpp_get_stream_desc_size(s) == 0


def test_vdec_desc():
    seen = []

    def cb(stream_desc, pic_desc, user_data):
        seen.append(user_data)

    c = m.vdec_create_channel_desc()
    assert m.vdec_get_channel_desc_out_pic_format(c) == NV12
    assert m.vdec_get_channel_desc_callback(c) is None
    assert m.vdec_set_channel_desc_channel_id(c, 15) == OK
    assert m.vdec_set_channel_desc_channel_id(c, 16) == INVALID
    assert m.vdec_get_channel_desc_channel_id(c) == 15
    assert m.vdec_set_channel_desc_thread_id(c, 2 ** 63) == OK
    assert m.vdec_get_channel_desc_thread_id(c) == 2 ** 63
    assert m.vdec_set_channel_desc_callback(c, cb) == OK
    assert m.vdec_get_channel_desc_callback(c) is cb
    assert raises(TypeError, m.vdec_set_channel_desc_callback, c, 42)
    assert m.vdec_set_channel_desc_callback(c, None) == INVALID
    assert m.vdec_get_channel_desc_callback(c) is cb
    # pyACL's spelling is entype; en_type is the same function.
    assert m.vdec_set_channel_desc_entype(c, m.H265_MAIN_LEVEL) == OK
    assert m.vdec_get_channel_desc_en_type(c) == m.H265_MAIN_LEVEL
    assert m.vdec_set_channel_desc_en_type(c, m.H264_HIGH_LEVEL) == OK
    assert m.vdec_get_channel_desc_entype(c) == m.H264_HIGH_LEVEL
    assert m.vdec_set_channel_desc_out_pic_format(c, RGB888) == OK
    assert m.vdec_set_channel_desc_out_pic_format(c, 0) == INVALID
    assert m.vdec_get_channel_desc_out_pic_format(c) == RGB888
    for name, v in (("out_pic_width", 1920), ("out_pic_height", 1080),
                    ("ref_frame_num", 4), ("bit_depth", 1), ("out_mode", 1)):
        assert getattr(m, "vdec_set_channel_desc_" + name)(c, v) == OK
        assert getattr(m, "vdec_get_channel_desc_" + name)(c) == v
    assert m.vdec_set_channel_desc_out_mode(c, 2) == INVALID
    f = m.vdec_create_frame_config()
    assert f != 0
    # A frame to a channel never created: refused, no callback comes.
    s = m.dvpp_create_stream_desc()
    assert m.vdec_send_frame(c, s, 0, f, "user") != OK
    assert seen == []
    assert m.vdec_destroy_frame_config(f) == OK
    assert m.dvpp_destroy_stream_desc(s) == OK
    assert m.vdec_destroy_channel_desc(c) == OK
    assert m.vdec_get_channel_desc_callback(c) is None
    assert m.vdec_destroy_channel_desc(c) == INVALID


def test_venc_desc():
    c = m.venc_create_channel_desc()
    assert m.venc_get_channel_desc_pic_format(c) == NV12
    assert m.venc_set_channel_desc_pic_format(c, NV21) == OK
    assert m.venc_set_channel_desc_pic_format(c, RGB888) == INVALID
    assert m.venc_get_channel_desc_pic_format(c) == NV21
    assert m.venc_set_channel_desc_rc_mode(c, 2) == OK
    assert m.venc_set_channel_desc_rc_mode(c, 3) == INVALID
    for name, v in (("pic_width", 1280), ("pic_height", 720), ("key_frame_interval", 30),
                    ("buf_size", 1 << 20), ("src_rate", 25), ("max_bit_rate", 5000),
                    ("buf_addr", 0x300000), ("thread_id", 77)):
        assert getattr(m, "venc_set_channel_desc_" + name)(c, v) == OK
        assert getattr(m, "venc_get_channel_desc_" + name)(c) == v
    assert m.venc_set_channel_desc_entype(c, m.H264_MAIN_LEVEL) == OK
    assert m.venc_get_channel_desc_entype(c) == m.H264_MAIN_LEVEL
    assert m.venc_get_channel_desc_en_type(c) == m.H264_MAIN_LEVEL
    assert m.venc_set_channel_desc_callback(c, lambda a, b, u: None) == OK
    assert callable(m.venc_get_channel_desc_callback(c))
    assert m.venc_destroy_channel_desc(c) == OK

    f = m.venc_create_frame_config()
    assert m.venc_set_frame_config_force_i_frame(f, 5) == OK
    assert m.venc_get_frame_config_force_i_frame(f) == 1
    assert m.venc_set_frame_config_eos(f, 1) == OK
    assert m.venc_get_frame_config_eos(f) == 1
    assert m.venc_destroy_frame_config(f) == OK
    assert m.venc_get_frame_config_eos(f) == 0


def test_host_side_arguments():
    # Host-memory files: a buffer (size optional) or an int address.
    junk = np.zeros(64, dtype=np.uint8)
    w, h, comps, ret = m.dvpp_jpeg_get_image_info(junk)
    assert ret != OK
    assert len(m.dvpp_jpeg_get_image_info_v2(junk, 64)) == 5
    assert raises(ValueError, m.dvpp_jpeg_get_image_info, junk, 65)
    assert raises(TypeError, m.dvpp_jpeg_get_image_info, 0x1000)    # size needed
    # A wild address is an error code, never a fault.
    assert m.dvpp_jpeg_get_image_info(0x10, 64)[-1] == INVALID
    assert m.dvpp_jpeg_predict_dec_size(0x10, 64, NV12)[1] == INVALID
    # Batch lists (pyACL's form: no size, len(roi_nums) is the size) must
    # cover what roi_nums say.
    b = m.dvpp_create_batch_pic_desc(1)
    r = m.dvpp_create_roi_config(0, 15, 0, 15)
    assert raises(ValueError, m.dvpp_vpc_batch_crop_async, 0, b, [2], b, [r], 0)
    assert raises(ValueError, m.dvpp_vpc_batch_crop_async, 0, b, [1, 1], b, [r], 0)
    assert raises(ValueError, m.dvpp_vpc_batch_crop_async, 0, b, [-1], b, [r], 0)
    assert raises(ValueError, m.dvpp_vpc_batch_crop_and_paste_async, 0, b, [1], b, [r], [],
                  0)
    assert raises(TypeError, m.dvpp_vpc_batch_crop_async, 0, b, 1, b, [r], 0)
    assert raises(TypeError, m.dvpp_vpc_batch_crop_async, 0, b, [1], 1, b, [r], 0)
    # Covered lists reach the library: no channel here, so its refusal
    # (ACL_ERROR_UNINITIALIZE on the host, where there is no aclInit), and
    # the (dst_batch, ret) pair of pyACL's batch_crop and crop_and_paste.
    refused = (INVALID, UNINITIALIZE)
    dst, ret = m.dvpp_vpc_batch_crop_async(0, b, [1], b, [r], 0)
    assert dst == b and ret in refused
    dst, ret = m.dvpp_vpc_batch_crop_and_paste_async(0, b, [1], b, [r], [r], 0)
    assert dst == b and ret in refused
    assert m.dvpp_vpc_batch_crop_resize_async(0, b, [1], b, [r], 0, 0) in refused
    assert m.dvpp_destroy_roi_config(r) == OK
    assert m.dvpp_destroy_batch_pic_desc(b) == OK
