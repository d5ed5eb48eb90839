# SPDX-License-Identifier: MIT
"""acl.media called the way acllite (Ascend/samples python/common/acllite)
calls it: a JPEG file read with np.fromfile(dtype=np.byte), its address
from numpy_to_ptr copied into dvpp_malloc memory (copy_to_dvpp), JPEGD
from that device copy with the output buffer sized yuv420sp(w, h) * 3
and strides aligned to 128 x 16, resize with the default resize config
into 16 x 2 aligned strides, acllite's crop_and_paste roi configs, JPEGE
with the size pointer from numpy_to_ptr(np.array([size], np.int32)), and
results read back through malloc_host (copy_to_host) or a bytes buffer
(copy_data_as_numpy). Constants as acllite's constants.py spells them."""
import io

import numpy as np
import pytest
from PIL import Image

import acl

ACL_SUCCESS = 0
ACL_HOST = 1
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
PIXEL_FORMAT_YUV_SEMIPLANAR_420 = 1
ACL_ERROR_INVALID_PARAM = 100000


def align_up(value, align):
    return int(int((value + align - 1) / align) * align)


def yuv420sp_size(width, height):
    return int(width * height * 3 / 2)


def copy_data_to_dvpp(data, size):
    dvpp_buf, ret = acl.media.dvpp_malloc(size)
    assert ret == ACL_SUCCESS
    assert acl.rt.memcpy(dvpp_buf, size, data, size, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS
    return dvpp_buf


def copy_data_as_numpy(data, size):
    np_data = np.zeros(size, dtype=np.byte)
    bytes_data = np_data.tobytes()
    np_data_ptr = acl.util.bytes_to_ptr(bytes_data)
    assert acl.rt.memcpy(np_data_ptr, size, data, size,
                         ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
    return np.frombuffer(bytes_data, dtype=np_data.dtype).reshape(np_data.shape)


def gen_pic_desc(buf, width, height, size, wa, ha):
    pic_desc = acl.media.dvpp_create_pic_desc()
    assert pic_desc
    assert acl.media.dvpp_set_pic_desc_data(pic_desc, buf) == ACL_SUCCESS
    assert acl.media.dvpp_set_pic_desc_format(
        pic_desc, PIXEL_FORMAT_YUV_SEMIPLANAR_420) == ACL_SUCCESS
    assert acl.media.dvpp_set_pic_desc_width(pic_desc, width) == ACL_SUCCESS
    assert acl.media.dvpp_set_pic_desc_height(pic_desc, height) == ACL_SUCCESS
    assert acl.media.dvpp_set_pic_desc_width_stride(pic_desc, align_up(width, wa)) == ACL_SUCCESS
    assert acl.media.dvpp_set_pic_desc_height_stride(pic_desc, align_up(height, ha)) == ACL_SUCCESS
    assert acl.media.dvpp_set_pic_desc_size(pic_desc, size) == ACL_SUCCESS
    return pic_desc


def luma(buf, width, height, ws, hs):
    plane = copy_data_as_numpy(buf, ws * hs).view(np.uint8).reshape(hs, ws)
    return plane[:height, :width]


@pytest.fixture
def proc(tmp_path):
    """AclLiteImageProc's resources on the current context."""
    run_mode, ret = acl.rt.get_run_mode()
    assert (run_mode, ret) == (ACL_HOST, ACL_SUCCESS)
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    chan = acl.media.dvpp_create_channel_desc()
    assert acl.media.dvpp_create_channel(chan) == ACL_SUCCESS
    resize_config = acl.media.dvpp_create_resize_config()
    jpege_config = acl.media.dvpp_create_jpege_config()
    assert acl.media.dvpp_set_jpege_config_level(jpege_config, 100) == ACL_SUCCESS
    # A 96 x 64 picture: a horizontal gradient, saved as a file.
    x = np.linspace(30, 220, 96)
    rgb = np.stack([np.tile(x, (64, 1))] * 3, axis=-1).astype(np.uint8)
    path = tmp_path / "grad.jpg"
    Image.fromarray(rgb).save(path, quality=95)
    yield {"stream": stream, "chan": chan, "resize": resize_config,
           "jpege": jpege_config, "path": str(path)}
    assert acl.media.dvpp_destroy_jpege_config(jpege_config) == ACL_SUCCESS
    assert acl.media.dvpp_destroy_resize_config(resize_config) == ACL_SUCCESS
    assert acl.media.dvpp_destroy_channel(chan) == ACL_SUCCESS
    assert acl.media.dvpp_destroy_channel_desc(chan) == ACL_SUCCESS
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS


def jpegd(p):
    """AclLiteImage(path).copy_to_dvpp(), then AclLiteImageProc.jpegd."""
    data = np.fromfile(p["path"], dtype=np.byte)
    size = data.itemsize * data.size
    width, height = Image.open(p["path"]).size
    # info from the host copy, as acllite's is_local() branch asks it
    w, h, comp, ret = acl.media.dvpp_jpeg_get_image_info(acl.util.numpy_to_ptr(data), size)
    assert (w, h, ret) == (width, height, ACL_SUCCESS) and comp == 3
    pred, ret = acl.media.dvpp_jpeg_predict_dec_size(
        acl.util.numpy_to_ptr(data), size, PIXEL_FORMAT_YUV_SEMIPLANAR_420)
    assert ret == ACL_SUCCESS and pred >= yuv420sp_size(align_up(w, 128), align_up(h, 16))
    dvpp_in = copy_data_to_dvpp(acl.util.numpy_to_ptr(data), size)
    # not local (DVPP memory on a host-run device): acllite's guess
    out_size = int(yuv420sp_size(width, height) * 3)
    out_buffer, ret = acl.media.dvpp_malloc(out_size)
    assert ret == ACL_SUCCESS
    desc = gen_pic_desc(out_buffer, width, height, out_size, 128, 16)
    assert acl.media.dvpp_jpeg_decode_async(p["chan"], dvpp_in, size, desc,
                                            p["stream"]) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(p["stream"]) == ACL_SUCCESS
    assert acl.media.dvpp_get_pic_desc_ret_code(desc) == ACL_SUCCESS
    assert acl.media.dvpp_destroy_pic_desc(desc) == ACL_SUCCESS
    assert acl.media.dvpp_free(dvpp_in) == ACL_SUCCESS
    return out_buffer, width, height


def test_jpegd_of_a_file_copied_to_dvpp(proc):
    buf, width, height = jpegd(proc)
    try:
        y = luma(buf, width, height, align_up(width, 128), align_up(height, 16))
        ref = Image.open(proc["path"])
        ref.draft("L", ref.size)
        assert np.array_equal(y, np.asarray(ref))
    finally:
        assert acl.media.dvpp_free(buf) == ACL_SUCCESS


def test_resize_then_jpege_then_copy_to_host(proc):
    buf, width, height = jpegd(proc)
    in_desc = gen_pic_desc(buf, width, height,
                           yuv420sp_size(align_up(width, 128), align_up(height, 16)), 128, 16)
    rw, rh = 48, 32
    sw, sh = align_up(rw, 16), align_up(rh, 2)
    out_size = yuv420sp_size(sw, sh)
    out_buffer, ret = acl.media.dvpp_malloc(out_size)
    assert ret == ACL_SUCCESS
    out_desc = gen_pic_desc(out_buffer, rw, rh, out_size, 16, 2)
    jpeg_buf = None
    try:
        assert acl.media.dvpp_vpc_resize_async(proc["chan"], in_desc, out_desc,
                                               proc["resize"], proc["stream"]) == ACL_SUCCESS
        assert acl.rt.synchronize_stream(proc["stream"]) == ACL_SUCCESS
        assert acl.media.dvpp_get_pic_desc_size(out_desc) == out_size
        big = luma(buf, width, height, align_up(width, 128), align_up(height, 16))
        small = luma(out_buffer, rw, rh, sw, sh).astype(int)
        # A horizontal gradient: rows equal, columns rising, the mean kept.
        assert np.abs(small - small[0]).max() <= 1
        assert (np.diff(small[0]) >= -1).all()
        assert abs(small.mean() - big.mean()) < 2
        # JPEGE as acllite does it.
        enc_in = gen_pic_desc(out_buffer, rw, rh, out_size, 16, 2)
        output_size, ret = acl.media.dvpp_jpeg_predict_enc_size(enc_in, proc["jpege"])
        assert ret == ACL_SUCCESS and output_size > 0
        jpeg_buf, ret = acl.media.dvpp_malloc(output_size)
        assert ret == ACL_SUCCESS
        output_size_array = np.array([output_size], dtype=np.int32)
        output_size_ptr = acl.util.numpy_to_ptr(output_size_array)
        assert acl.media.dvpp_jpeg_encode_async(proc["chan"], enc_in, jpeg_buf,
                                                output_size_ptr, proc["jpege"],
                                                proc["stream"]) == ACL_SUCCESS
        assert acl.rt.synchronize_stream(proc["stream"]) == ACL_SUCCESS
        n = int(output_size_array[0])
        assert 0 < n <= output_size
        assert acl.media.dvpp_destroy_pic_desc(enc_in) == ACL_SUCCESS
        # copy_to_host: malloc_host + D2H, then the bytes.
        host, ret = acl.rt.malloc_host(n)
        assert ret == ACL_SUCCESS
        assert acl.rt.memcpy(host, n, jpeg_buf, n, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
        jpeg = acl.util.ptr_to_bytes(host, n)
        assert acl.rt.free_host(host) == ACL_SUCCESS
        assert jpeg[:2] == b"\xff\xd8"
        im = Image.open(io.BytesIO(jpeg))
        assert im.size == (rw, rh)
        im.draft("L", im.size)
        assert np.abs(np.asarray(im).astype(int) - small).max() <= 3
    finally:
        for d in (in_desc, out_desc):
            assert acl.media.dvpp_destroy_pic_desc(d) == ACL_SUCCESS
        for b in (buf, out_buffer, jpeg_buf):
            if b:
                assert acl.media.dvpp_free(b) == ACL_SUCCESS


def test_crop_and_paste_get_roi(proc):
    """crop_and_paste_get_roi: the whole (even-rounded) source cropped
    and pasted over the whole canvas, roi configs made positionally."""
    buf, width, height = jpegd(proc)
    in_desc = gen_pic_desc(buf, width, height,
                           yuv420sp_size(align_up(width, 128), align_up(height, 16)), 128, 16)
    cw, ch = 64, 40
    sw, sh = align_up(cw, 16), align_up(ch, 2)
    out_size = yuv420sp_size(sw, sh)
    out_buffer, ret = acl.media.dvpp_malloc(out_size)
    assert ret == ACL_SUCCESS
    out_desc = gen_pic_desc(out_buffer, cw, ch, out_size, 16, 2)
    crop = acl.media.dvpp_create_roi_config(0, (width >> 1 << 1) - 1, 0, (height >> 1 << 1) - 1)
    paste = acl.media.dvpp_create_roi_config(0, cw - 1, 0, ch - 1)
    assert crop and paste
    try:
        assert acl.media.dvpp_vpc_crop_and_paste_async(proc["chan"], in_desc, out_desc,
                                                       crop, paste,
                                                       proc["stream"]) == ACL_SUCCESS
        assert acl.rt.synchronize_stream(proc["stream"]) == ACL_SUCCESS
        big = luma(buf, width, height, align_up(width, 128), align_up(height, 16))
        small = luma(out_buffer, cw, ch, sw, sh).astype(int)
        assert np.abs(small - small[0]).max() <= 1 and (np.diff(small[0]) >= -1).all()
        assert abs(small.mean() - big.mean()) < 2
        # acllite's error path: a roi config where a pic desc belongs.
        assert acl.media.dvpp_vpc_crop_and_paste_async(proc["chan"], crop, out_desc,
                                                       crop, paste,
                                                       proc["stream"]) == ACL_ERROR_INVALID_PARAM
    finally:
        assert acl.media.dvpp_destroy_roi_config(crop) == ACL_SUCCESS
        assert acl.media.dvpp_destroy_roi_config(paste) == ACL_SUCCESS
        for d in (in_desc, out_desc):
            assert acl.media.dvpp_destroy_pic_desc(d) == ACL_SUCCESS
        for b in (buf, out_buffer):
            assert acl.media.dvpp_free(b) == ACL_SUCCESS
