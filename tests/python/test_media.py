# SPDX-License-Identifier: MIT
# acl.media on the device, written the way pyACL's DVPP samples are: a
# context and a stream, acl.media.dvpp_malloc'd pictures filled with
# acl.rt.memcpy from numpy (acl.util.numpy_to_ptr / bytes_to_ptr), a
# channel, picture descriptions set field by field, the async call, a
# synchronize, the result read back into numpy and compared.
#
# VPC: nearest halving and crops are exact copies of source samples,
# paste leaves the rest of the canvas, NV12 -> NV21 swaps the chroma
# bytes, batch crops come out in source order (pyACL's list forms).
# JPEGD: files from cv2.imencode / PIL; the luma plane is exactly
# libjpeg's (PIL's draft("L") decode, which skips colour conversion), and
# within 1 of OpenCV's BGR decode converted back to full-range Y (JPEG's
# BT.601 YCbCr); OpenCV's COLOR_BGR2YUV_I420 is video range (16..235), so
# its Y is compared with 16 + 219/255 Y, also within 1. PNGD: exactly
# PIL's pixels. JPEGE: the file PIL reads, and luma PSNR after decoding.
# VDEC: ffmpeg's test clip (tests/acl/make_media.sh), a Python callback
# run by a report thread, every frame equal to ffmpeg's own decode.
# Refusals: bad handles and memory from acl.rt.malloc are
# ACL_ERROR_INVALID_PARAM, a damaged JPEG fails the synchronize with
# ACL_ERROR_RT_AICPU_EXCEPTION.
import io
import threading
import weakref

import numpy as np
import pytest
from PIL import Image

import acl
from testenv import BUILD

m = acl.media
OK = 0
INVALID = 100000                # ACL_ERROR_INVALID_PARAM
AICPU_EXCEPTION = 507018        # ACL_ERROR_RT_AICPU_EXCEPTION
H2D, D2H = 1, 2                 # ACL_MEMCPY_HOST_TO_DEVICE, _DEVICE_TO_HOST
NV12 = m.PIXEL_FORMAT_YUV_SEMIPLANAR_420
NV21 = m.PIXEL_FORMAT_YVU_SEMIPLANAR_420
NEAREST = 2                     # acldvppSetResizeConfigInterpolation


def align_up(x, a):
    return (x + a - 1) // a * a


# ------------------------------------------------------------- helpers --

@pytest.fixture(scope="module")
def dvpp():
    """pyACL's resources: a context of its own, a stream, a DVPP channel."""
    old, ret = acl.rt.get_context()
    assert ret == OK
    ctx, ret = acl.rt.create_context(0)
    assert ret == OK and ctx
    stream, ret = acl.rt.create_stream()
    assert ret == OK and stream
    chan = m.dvpp_create_channel_desc()
    assert chan and m.dvpp_create_channel(chan) == OK
    yield type("Dvpp", (), {"ctx": ctx, "stream": stream, "chan": chan})
    assert m.dvpp_destroy_channel(chan) == OK
    assert m.dvpp_destroy_channel_desc(chan) == OK
    assert acl.rt.destroy_stream(stream) == OK
    assert acl.rt.destroy_context(ctx) == OK
    assert acl.rt.set_context(old) == OK


@pytest.fixture
def res():
    """Cleanups run after the test, whatever its outcome."""
    todo = []
    yield todo
    for fn, *args in reversed(todo):
        fn(*args)


def dvpp_buffer(res, n):
    ptr, ret = m.dvpp_malloc(n)
    assert ret == OK and ptr
    res.append((m.dvpp_free, ptr))
    return ptr


def to_dvpp(res, data):
    """A host file or array copied into new DVPP memory, as samples do."""
    arr = np.ascontiguousarray(np.frombuffer(data, np.uint8) if isinstance(data, bytes)
                               else data)
    ptr = dvpp_buffer(res, arr.nbytes)
    assert acl.rt.memcpy(ptr, arr.nbytes, acl.util.numpy_to_ptr(arr), arr.nbytes, H2D) == OK
    return ptr


def read_back(ptr, n):
    out = np.empty(n, np.uint8)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(out), n, ptr, n, D2H) == OK
    return out


def set_pic(desc, dev, size, fmt, w, h, ws, hs):
    for name, v in (("data", dev), ("size", size), ("format", fmt), ("width", w),
                    ("height", h), ("width_stride", ws), ("height_stride", hs)):
        assert getattr(m, "dvpp_set_pic_desc_" + name)(desc, v) == OK


class Pic:
    """A picture: its acldvppMalloc buffer and its description."""

    def __init__(self, res, fmt, w, h, ws=None, hs=None, size=None, desc=None):
        self.ws = ws if ws is not None else max(32, align_up(w, 16))
        self.hs = hs if hs is not None else align_up(h, 2)
        self.size = size or self.ws * self.hs * 3 // 2
        self.dev = dvpp_buffer(res, self.size)
        self.desc = desc
        if desc is None:
            self.desc = m.dvpp_create_pic_desc()
            assert self.desc
            res.append((m.dvpp_destroy_pic_desc, self.desc))
        set_pic(self.desc, self.dev, self.size, fmt, w, h, self.ws, self.hs)

    def put(self, arr):
        assert acl.rt.memcpy(self.dev, self.size, acl.util.numpy_to_ptr(arr), arr.nbytes,
                             H2D) == OK

    def get(self):
        return read_back(self.dev, self.size)


def nv12(w, h, seed):
    """Random NV12 samples of a w x h picture at strides (ws, h): Y, UV."""
    ws = max(32, align_up(w, 16))
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, ws * h * 3 // 2, dtype=np.uint8), ws


def planes(buf, ws, hs, h):
    """(Y rows, UV rows) of a semi-planar 4:2:0 buffer."""
    y = buf[:ws * hs].reshape(hs, ws)[:h]
    uv = buf[ws * hs:ws * hs + ws * hs // 2].reshape(hs // 2, ws)[:h // 2]
    return y, uv


def sync(dvpp):
    assert acl.rt.synchronize_stream(dvpp.stream) == OK


# ----------------------------------------------------------------- VPC --

def test_resize_nearest_halves_exactly(dvpp, res):
    src, ws = nv12(64, 32, 1)
    pin = Pic(res, NV12, 64, 32)
    pout = Pic(res, NV12, 32, 16)
    pin.put(src)
    cfg = m.dvpp_create_resize_config()
    res.append((m.dvpp_destroy_resize_config, cfg))
    assert m.dvpp_set_resize_config_interpolation(cfg, NEAREST) == OK
    assert m.dvpp_vpc_resize_async(dvpp.chan, pin.desc, pout.desc, cfg, dvpp.stream) == OK
    sync(dvpp)
    assert m.dvpp_get_pic_desc_ret_code(pout.desc) == 0
    y_in, uv_in = planes(src, 64, 32, 32)
    y, uv = planes(pout.get(), 32, 16, 16)
    assert np.array_equal(y, y_in[::2, ::2])
    # chroma pairs (U, V) of every other pair and row
    assert np.array_equal(uv.reshape(8, 16, 2), uv_in.reshape(16, 32, 2)[::2, ::2])


def test_resize_with_the_default_config(dvpp, res):
    """acllite's resize: a config as created, strides 16 / 2; an odd ratio
    keeps a flat picture flat whatever the filter."""
    pin = Pic(res, NV12, 96, 48)
    pout = Pic(res, NV12, 40, 22)
    flat = np.empty(pin.size, np.uint8)
    flat[:96 * 48], flat[96 * 48:] = 81, np.tile([150, 60], 96 * 48 // 4)
    pin.put(flat)
    cfg = m.dvpp_create_resize_config()
    res.append((m.dvpp_destroy_resize_config, cfg))
    assert m.dvpp_vpc_resize_async(dvpp.chan, pin.desc, pout.desc, cfg, dvpp.stream) == OK
    sync(dvpp)
    assert m.dvpp_get_pic_desc_ret_code(pout.desc) == 0
    y, uv = planes(pout.get(), 48, 22, 22)
    assert (y[:, :40] == 81).all()
    assert (uv[:, 0:40:2] == 150).all() and (uv[:, 1:40:2] == 60).all()


def test_crop_is_an_exact_copy(dvpp, res):
    src, _ = nv12(64, 32, 2)
    pin = Pic(res, NV12, 64, 32)
    pout = Pic(res, NV12, 32, 16)
    pin.put(src)
    roi = m.dvpp_create_roi_config(16, 47, 8, 23)
    res.append((m.dvpp_destroy_roi_config, roi))
    assert m.dvpp_vpc_crop_async(dvpp.chan, pin.desc, pout.desc, roi, dvpp.stream) == OK
    sync(dvpp)
    y_in, uv_in = planes(src, 64, 32, 32)
    y, uv = planes(pout.get(), 32, 16, 16)
    assert np.array_equal(y, y_in[8:24, 16:48])
    assert np.array_equal(uv, uv_in[4:12, 16:48])


def test_crop_and_paste_leaves_the_rest(dvpp, res):
    src, _ = nv12(64, 32, 3)
    pin = Pic(res, NV12, 64, 32)
    canvas = Pic(res, NV12, 64, 32)
    pin.put(src)
    canvas.put(np.full(canvas.size, 0x5a, np.uint8))
    crop = m.dvpp_create_roi_config(0, 31, 0, 15)
    paste = m.dvpp_create_roi_config(16, 47, 2, 17)
    res += [(m.dvpp_destroy_roi_config, crop), (m.dvpp_destroy_roi_config, paste)]
    assert m.dvpp_vpc_crop_and_paste_async(dvpp.chan, pin.desc, canvas.desc, crop, paste,
                                           dvpp.stream) == OK
    sync(dvpp)
    y_in, uv_in = planes(src, 64, 32, 32)
    want_y = np.full((32, 64), 0x5a, np.uint8)
    want_y[2:18, 16:48] = y_in[0:16, 0:32]
    want_uv = np.full((16, 64), 0x5a, np.uint8)
    want_uv[1:9, 16:48] = uv_in[0:8, 0:32]
    y, uv = planes(canvas.get(), 64, 32, 32)
    assert np.array_equal(y, want_y)
    assert np.array_equal(uv, want_uv)


def test_convert_nv12_to_nv21_swaps_chroma(dvpp, res):
    src, ws = nv12(48, 20, 4)
    assert ws == 48
    pin = Pic(res, NV12, 48, 20)
    pin.put(src)
    # The header's rule: an output of 0 x 0, strides 0: the input's are used.
    pout = Pic(res, NV21, 0, 0, ws=0, hs=0, size=pin.size)
    assert m.dvpp_vpc_convert_color_async(dvpp.chan, pin.desc, pout.desc, dvpp.stream) == OK
    assert [m.dvpp_get_pic_desc_width(pout.desc), m.dvpp_get_pic_desc_height(pout.desc),
            m.dvpp_get_pic_desc_width_stride(pout.desc),
            m.dvpp_get_pic_desc_height_stride(pout.desc)] == [48, 20, 48, 20]
    sync(dvpp)
    out = pout.get()
    assert np.array_equal(out[:48 * 20], src[:48 * 20])
    uv_in = src[48 * 20:].reshape(-1, 2)
    assert np.array_equal(out[48 * 20:].reshape(-1, 2), uv_in[:, ::-1])


def batch(res, n):
    b = m.dvpp_create_batch_pic_desc(n)
    assert b
    res.append((m.dvpp_destroy_batch_pic_desc, b))
    return b, [m.dvpp_get_pic_desc(b, i) for i in range(n)]


def test_batch_crop_in_source_order(dvpp, res):
    """pyACL's form: dst, ret = batch_crop(chan, src, roi_nums_list, dst, rois, stream)."""
    src_b, src_d = batch(res, 2)
    dst_b, dst_d = batch(res, 3)
    srcs = []
    for i, d in enumerate(src_d):
        host, _ = nv12(64, 32, 10 + i)
        Pic(res, NV12, 64, 32, desc=d).put(host)
        srcs.append(planes(host, 64, 32, 32))
    outs = [Pic(res, NV12, 32, 16, desc=d) for d in dst_d]
    boxes = [(0, 0, 0), (0, 32, 16), (1, 16, 8)]     # source, left, top
    rois = [m.dvpp_create_roi_config(x, x + 31, y, y + 15) for _, x, y in boxes]
    res += [(m.dvpp_destroy_roi_config, r) for r in rois]
    dst, ret = m.dvpp_vpc_batch_crop_async(dvpp.chan, src_b, [2, 1], dst_b, rois, dvpp.stream)
    assert (dst, ret) == (dst_b, OK)
    sync(dvpp)
    for (k, x, y), out in zip(boxes, outs):
        assert m.dvpp_get_pic_desc_ret_code(out.desc) == 0
        y_out, uv_out = planes(out.get(), 32, 16, 16)
        assert np.array_equal(y_out, srcs[k][0][y:y + 16, x:x + 32])
        assert np.array_equal(uv_out, srcs[k][1][y // 2:y // 2 + 8, x:x + 32])
    # lists shorter than roi_nums say, and the wrong kinds of handle
    with pytest.raises(ValueError):
        m.dvpp_vpc_batch_crop_async(dvpp.chan, src_b, [2, 2], dst_b, rois, dvpp.stream)
    assert m.dvpp_vpc_batch_crop_async(dvpp.chan, src_d[0], [2, 1], dst_b, rois,
                                       dvpp.stream) == (dst_b, INVALID)
    assert m.dvpp_vpc_batch_crop_async(dvpp.chan, src_b, [2, 1], dst_b, [rois[0], src_b,
                                       rois[2]], dvpp.stream)[1] == INVALID


def test_batch_crop_and_paste(dvpp, res):
    src_b, src_d = batch(res, 1)
    dst_b, dst_d = batch(res, 2)
    host, _ = nv12(64, 32, 20)
    Pic(res, NV12, 64, 32, desc=src_d[0]).put(host)
    y_in, _ = planes(host, 64, 32, 32)
    canvases = [Pic(res, NV12, 64, 32, desc=d) for d in dst_d]
    for c in canvases:
        c.put(np.full(c.size, 0x11, np.uint8))
    crops = [m.dvpp_create_roi_config(0, 31, 0, 15), m.dvpp_create_roi_config(32, 63, 16, 31)]
    pastes = [m.dvpp_create_roi_config(32, 63, 16, 31), m.dvpp_create_roi_config(0, 31, 0, 15)]
    res += [(m.dvpp_destroy_roi_config, r) for r in crops + pastes]
    assert m.dvpp_vpc_batch_crop_and_paste_async(dvpp.chan, src_b, [2], dst_b, crops, pastes,
                                                 dvpp.stream) == (dst_b, OK)
    sync(dvpp)
    y0, _ = planes(canvases[0].get(), 64, 32, 32)
    y1, _ = planes(canvases[1].get(), 64, 32, 32)
    want0 = np.full((32, 64), 0x11, np.uint8)
    want0[16:32, 32:64] = y_in[0:16, 0:32]
    want1 = np.full((32, 64), 0x11, np.uint8)
    want1[0:16, 0:32] = y_in[16:32, 32:64]
    assert np.array_equal(y0, want0)
    assert np.array_equal(y1, want1)


# ---------------------------------------------------------- JPEG / PNG --

def smooth_bgr(w, h, seed):
    """A picture in mid range (no channel clips in the YCbCr round trip)."""
    y, x = np.mgrid[0:h, 0:w]
    r = 40 + x * 170 // w
    g = 40 + y * 170 // h
    b = 128 + 60 * np.sin((x + seed) / 5.0) * np.cos(y / 7.0)
    return np.stack([b, g, r], -1).astype(np.uint8)


def libjpeg_luma(jpg):
    """libjpeg's Y plane of the file: PIL decodes straight to grey."""
    im = Image.open(io.BytesIO(jpg))
    im.draft("L", im.size)
    assert im.mode == "L"
    return np.asarray(im)


def jpeg_decode(dvpp, res, jpg, w, h):
    """pyACL's JPEGD sequence; the decoded buffer and the output desc."""
    pw, ph, comps, ret = m.dvpp_jpeg_get_image_info(jpg, len(jpg))
    assert (pw, ph, comps, ret) == (w, h, 3, OK)
    jpg_ptr = acl.util.bytes_to_ptr(jpg)
    dec, ret = m.dvpp_jpeg_predict_dec_size(jpg_ptr, len(jpg), NV12)
    ws, hs = align_up(w & ~1, 128), align_up(h & ~1, 16)
    assert (dec, ret) == (ws * hs * 3 // 2, OK)
    dev_in = to_dvpp(res, jpg)
    out = dvpp_buffer(res, dec)
    desc = m.dvpp_create_pic_desc()
    res.append((m.dvpp_destroy_pic_desc, desc))
    assert m.dvpp_set_pic_desc_data(desc, out) == OK
    assert m.dvpp_set_pic_desc_size(desc, dec) == OK
    assert m.dvpp_set_pic_desc_format(desc, NV12) == OK
    assert m.dvpp_jpeg_decode_async(dvpp.chan, dev_in, len(jpg), desc, dvpp.stream) == OK
    sync(dvpp)
    assert m.dvpp_get_pic_desc_ret_code(desc) == 0
    # odd sizes rounded down, strides aligned to 128 x 16
    assert [m.dvpp_get_pic_desc_width(desc), m.dvpp_get_pic_desc_height(desc),
            m.dvpp_get_pic_desc_width_stride(desc),
            m.dvpp_get_pic_desc_height_stride(desc)] == [w & ~1, h & ~1, ws, hs]
    return read_back(out, dec), ws, hs


@pytest.mark.parametrize("w,h", [(320, 240), (129, 67)])
def test_jpegd_of_an_opencv_jpeg(dvpp, res, w, h):
    import cv2
    bgr = smooth_bgr(w, h, 1)
    ok, enc = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    jpg = enc.tobytes()
    assert m.dvpp_jpeg_get_image_info_v2(jpg, len(jpg)) == (w, h, 3, m.ACL_JPEG_CSS_420, OK)
    buf, ws, hs = jpeg_decode(dvpp, res, jpg, w, h)
    ow, oh = w & ~1, h & ~1
    y = buf[:ws * hs].reshape(hs, ws)[:oh, :ow].astype(int)
    # libjpeg's own luma, exactly
    assert np.array_equal(y, libjpeg_luma(jpg)[:oh, :ow])
    # OpenCV's BGR decode back to full-range Y (JPEG's YCbCr): rounding only
    dec = cv2.imdecode(np.frombuffer(jpg, np.uint8), cv2.IMREAD_COLOR)
    y_cv = cv2.cvtColor(dec, cv2.COLOR_BGR2YCrCb)[:oh, :ow, 0].astype(int)
    assert np.abs(y - y_cv).max() <= 1
    # COLOR_BGR2YUV_I420 is BT.601 video range: Y' = 16 + 219/255 Y
    i420 = cv2.cvtColor(dec[:oh, :ow], cv2.COLOR_BGR2YUV_I420)[:oh].astype(int)
    assert np.abs(i420 - np.round(16 + y * 219 / 255)).max() <= 1
    # chroma of a 4:2:0 JPEG comes through (neither plane left flat)
    uv = buf[ws * hs:ws * hs + ws * hs // 2].reshape(hs // 2, ws)[:oh // 2, :ow]
    assert uv[:, 0::2].std() > 1 and uv[:, 1::2].std() > 1


def test_jpeg_info_of_a_dvpp_copy(dvpp, res):
    """acllite's jpegd predicts the size from the file's acldvppMalloc copy
    (its devices' DVPP memory is host-visible): the module reads it back."""
    jpg = jpeg_file(200, 100)
    dev = to_dvpp(res, jpg)
    assert m.dvpp_jpeg_get_image_info(dev, len(jpg)) == m.dvpp_jpeg_get_image_info(jpg)
    assert m.dvpp_jpeg_get_image_info(dev, len(jpg))[:3] == (200, 100, 3)
    assert m.dvpp_jpeg_get_image_info_v2(dev, len(jpg))[3] == m.ACL_JPEG_CSS_420
    assert m.dvpp_jpeg_predict_dec_size(dev, len(jpg), NV12) == \
        (align_up(200, 128) * align_up(100, 16) * 3 // 2, OK)
    # a device address where nothing is mapped: an error code, no fault
    assert m.dvpp_jpeg_get_image_info(dev + (16 << 30), len(jpg))[-1] == INVALID
    assert m.dvpp_jpeg_predict_dec_size(dev + (16 << 30), len(jpg), NV12)[1] == INVALID


@pytest.mark.parametrize("sub,css", [(0, "444"), (1, "422"), (2, "420")])
def test_jpegd_samplings_of_a_pil_jpeg(dvpp, res, sub, css):
    w, h = 97, 45
    rgb = smooth_bgr(w, h, 3)[:, :, ::-1]
    f = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(rgb)).save(f, "JPEG", quality=90, subsampling=sub)
    jpg = f.getvalue()
    info = m.dvpp_jpeg_get_image_info_v2(jpg, len(jpg))
    assert info == (w, h, 3, getattr(m, "ACL_JPEG_CSS_" + css), OK)
    buf, ws, hs = jpeg_decode(dvpp, res, jpg, w, h)
    y = buf[:ws * hs].reshape(hs, ws)[:h & ~1, :w & ~1]
    assert np.array_equal(y, libjpeg_luma(jpg)[:h & ~1, :w & ~1])


@pytest.mark.parametrize("mode", ["RGB", "RGBA"])
def test_pngd_gives_pils_pixels(dvpp, res, mode):
    w, h = 70, 40
    c = len(mode)
    px = np.random.default_rng(30 + c).integers(0, 256, (h, w, c), dtype=np.uint8)
    f = io.BytesIO()
    Image.fromarray(px, mode).save(f, "PNG")
    png = f.getvalue()
    assert m.dvpp_png_get_image_info(png, len(png)) == (w, h, c, OK)
    fmt = m.PIXEL_FORMAT_RGBA_8888 if c == 4 else m.PIXEL_FORMAT_RGB_888
    dec, ret = m.dvpp_png_predict_dec_size(png, len(png), fmt)
    ws = align_up(w, 128) * c
    assert (dec, ret) == (ws * align_up(h, 16), OK)
    dev_in = to_dvpp(res, png)
    out = Pic(res, fmt, 0, 0, ws=0, hs=0, size=dec)
    assert m.dvpp_png_decode_async(dvpp.chan, dev_in, len(png), out.desc, dvpp.stream) == OK
    sync(dvpp)
    assert m.dvpp_get_pic_desc_width(out.desc) == w
    assert m.dvpp_get_pic_desc_width_stride(out.desc) == ws
    rows = out.get()[:ws * h].reshape(h, ws)[:, :w * c].reshape(h, w, c)
    assert np.array_equal(rows, np.asarray(Image.open(io.BytesIO(png))))


def psnr(a, b):
    se = np.mean((a.astype(float) - b.astype(float)) ** 2)
    return 99.0 if se == 0 else 10 * np.log10(255.0 ** 2 / se)


@pytest.mark.parametrize("size_ptr_form", ["numpy_to_ptr", "bytes_to_ptr"])
def test_jpege_then_jpegd(dvpp, res, size_ptr_form):
    w, h = 256, 128
    yy, xx = np.mgrid[0:h, 0:w]
    y_plane = (16 + (xx + yy) * 200 // (w + h) + 20 * np.sin(xx / 9.0)).astype(np.uint8)
    uv = (128 + (np.arange(w * h // 2) // 2) % 40 - 20).astype(np.uint8)
    src = np.concatenate([y_plane.ravel(), uv])
    pic = Pic(res, NV12, w, h, ws=w, hs=h)
    pic.put(src)
    cfg = m.dvpp_create_jpege_config()
    res.append((m.dvpp_destroy_jpege_config, cfg))
    assert m.dvpp_set_jpege_config_level(cfg, 90) == OK
    cap, ret = m.dvpp_jpeg_predict_enc_size(pic.desc, cfg)
    assert ret == OK and cap > 0
    out = dvpp_buffer(res, cap)
    # The in/out size as pyACL samples pass it: the address of an int32.
    if size_ptr_form == "numpy_to_ptr":
        size_arr = np.array([cap], dtype=np.int32)
        size_ptr = acl.util.numpy_to_ptr(size_arr)
    else:
        size_bytes = np.array([cap], dtype=np.int32).tobytes()
        size_ptr = acl.util.bytes_to_ptr(size_bytes)
    assert m.dvpp_jpeg_encode_async(dvpp.chan, pic.desc, out, size_ptr, cfg,
                                    dvpp.stream) == OK
    sync(dvpp)
    n = int(size_arr[0] if size_ptr_form == "numpy_to_ptr"
            else np.frombuffer(size_bytes, np.int32)[0])
    assert 100 < n < cap
    jpg = read_back(out, n).tobytes()
    assert jpg[:2] == b"\xff\xd8" and jpg[-2:] == b"\xff\xd9"
    assert Image.open(io.BytesIO(jpg)).size == (w, h)
    # decoded by JPEGD straight from the encoder's DVPP buffer
    dec, ret = m.dvpp_jpeg_predict_dec_size(jpg, n, NV12)
    assert ret == OK
    back = Pic(res, NV12, 0, 0, ws=0, hs=0, size=dec)
    assert m.dvpp_jpeg_decode_async(dvpp.chan, out, n, back.desc, dvpp.stream) == OK
    sync(dvpp)
    ws = m.dvpp_get_pic_desc_width_stride(back.desc)
    y_back = back.get()[:ws * h].reshape(h, ws)[:, :w]
    assert np.array_equal(y_back, libjpeg_luma(jpg))
    assert psnr(y_back, y_plane) > 38.0


# ---------------------------------------------------------------- VDEC --

W, H, FRAMES = 320, 240, 30
FRAME = W * H * 3 // 2


def load_clip():
    """The H.264 clip cut at its access unit delimiters, ffmpeg's frames."""
    media = BUILD / "tests" / "acl" / "media"
    data = (media / "clip.h264").read_bytes()
    ref = np.fromfile(media / "clip_h264.nv12", np.uint8)
    assert ref.size == FRAMES * FRAME
    aus, i = [], data.find(b"\x00\x00\x00\x01")
    while i >= 0:
        if data[i + 4] & 0x1f == 9:
            aus.append(i)
        i = data.find(b"\x00\x00\x00\x01", i + 4)
    assert len(aus) == FRAMES
    aus.append(len(data))
    return [data[aus[k]:aus[k + 1]] for k in range(FRAMES)], ref.reshape(FRAMES, FRAME)


class Decoder:
    """A VDEC channel as pyACL's samples open one: a report thread looping
    on process_report, its id and a Python callback in the description."""

    def __init__(self, dvpp, thread_kind, chan_id, wrap=None):
        self.dvpp = dvpp
        self.run = True
        self.got = []
        if thread_kind == "start_thread":
            self.tid, ret = acl.util.start_thread(self.report_loop, [dvpp.ctx, 100])
            assert ret == OK and self.tid
            self.thread = None
        else:
            # threading's ident is the pthread id libascendcl knows a thread by
            # (not threading.get_native_id(), the kernel's thread id)
            self.thread = threading.Thread(target=self.report_loop, args=([dvpp.ctx, 100],),
                                           daemon=True)
            self.thread.start()
            self.tid = self.thread.ident
        self.desc = 0
        try:
            self.desc = m.vdec_create_channel_desc()
            assert self.desc
            assert m.vdec_set_channel_desc_channel_id(self.desc, chan_id) == OK
            assert m.vdec_set_channel_desc_thread_id(self.desc, self.tid) == OK
            self.cb = wrap(self.callback) if wrap else self.callback
            assert m.vdec_set_channel_desc_callback(self.desc, self.cb) == OK
            assert m.vdec_set_channel_desc_entype(self.desc, m.H264_MAIN_LEVEL) == OK
            assert m.vdec_set_channel_desc_out_pic_format(self.desc, NV12) == OK
            assert m.vdec_set_channel_desc_out_pic_width(self.desc, W) == OK
            assert m.vdec_set_channel_desc_out_pic_height(self.desc, H) == OK
            assert m.vdec_get_channel_desc_thread_id(self.desc) == self.tid
            assert m.vdec_create_channel(self.desc) == OK
            self.frame_config = m.vdec_create_frame_config()
            assert self.frame_config
        except BaseException:
            # a half-made channel: no thread may outlive the test
            if self.desc:
                m.vdec_destroy_channel(self.desc)
                m.vdec_destroy_channel_desc(self.desc)
            self.stop_thread()
            raise

    def report_loop(self, args):
        ctx, timeout = args
        acl.rt.set_context(ctx)
        while self.run:
            acl.rt.process_report(timeout)

    def callback(self, input_stream_desc, output_pic_desc, user_data):
        # what samples do here: read the picture, free both sides
        rec = {"user": user_data, "thread": threading.get_ident(),
               "ts": m.dvpp_get_stream_desc_timestamp(input_stream_desc),
               "out": output_pic_desc}
        m.dvpp_free(m.dvpp_get_stream_desc_data(input_stream_desc))
        rec["destroy_in"] = m.dvpp_destroy_stream_desc(input_stream_desc)
        if output_pic_desc:
            data = m.dvpp_get_pic_desc_data(output_pic_desc)
            rec["ret_code"] = m.dvpp_get_pic_desc_ret_code(output_pic_desc)
            rec["shape"] = [getattr(m, "dvpp_get_pic_desc_" + k)(output_pic_desc)
                            for k in ("width", "height", "width_stride", "height_stride")]
            host = np.empty(FRAME, np.uint8)
            rec["copy"] = acl.rt.memcpy(acl.util.numpy_to_ptr(host), FRAME, data, FRAME, D2H)
            rec["pic"] = host
            m.dvpp_free(data)
            m.dvpp_destroy_pic_desc(output_pic_desc)
        self.got.append(rec)

    def send(self, au, k, user=None):
        """Send number k (its timestamp); user_data is k unless given."""
        bits = to_dvpp([], au)
        stream_desc = m.dvpp_create_stream_desc()
        assert m.dvpp_set_stream_desc_data(stream_desc, bits) == OK
        assert m.dvpp_set_stream_desc_size(stream_desc, len(au)) == OK
        assert m.dvpp_set_stream_desc_timestamp(stream_desc, k) == OK
        out, ret = m.dvpp_malloc(FRAME)
        assert ret == OK
        pic = m.dvpp_create_pic_desc()
        assert m.dvpp_set_pic_desc_data(pic, out) == OK
        assert m.dvpp_set_pic_desc_size(pic, FRAME) == OK
        assert m.dvpp_set_pic_desc_format(pic, NV12) == OK
        return m.vdec_send_frame(self.desc, stream_desc, pic, self.frame_config,
                                 k if user is None else user)

    def send_eos(self):
        eos = m.dvpp_create_stream_desc()
        assert m.dvpp_set_stream_desc_eos(eos, 1) == OK
        ret = m.vdec_send_frame(self.desc, eos, 0, self.frame_config, None)
        assert m.dvpp_destroy_stream_desc(eos) == OK
        return ret

    def close(self):
        # waits for the frames sent and their callbacks; the thread goes anyway
        try:
            ret = m.vdec_destroy_channel(self.desc)
            rest = [m.vdec_destroy_channel_desc(self.desc),
                    m.vdec_destroy_frame_config(self.frame_config)]
        finally:
            stopped = self.stop_thread()
        assert rest + [stopped] == [OK] * 3
        return ret

    def stop_thread(self):
        self.run = False
        if self.thread:
            self.thread.join()
            return OK
        return acl.util.stop_thread(self.tid)


@pytest.mark.parametrize("thread_kind", ["start_thread", "threading.Thread"])
def test_vdec_every_frame_as_ffmpeg_decodes_it(dvpp, thread_kind):
    aus, ref = load_clip()
    dec = Decoder(dvpp, thread_kind, 5)
    # the official sample also subscribes its report thread to its stream
    assert acl.rt.subscribe_report(dec.tid, dvpp.stream) == OK
    try:
        for k, au in enumerate(aus):
            assert dec.send(au, k) == OK
        assert dec.send_eos() == OK
    finally:
        assert dec.close() == OK
        assert acl.rt.unsubscribe_report(dec.tid, dvpp.stream) == OK
    got = dec.got
    assert len(got) == FRAMES
    assert {r["thread"] for r in got} == {dec.tid}
    for r in got:
        assert r["destroy_in"] == OK
        assert r["ts"] == r["user"]              # the send that carried the frame
        assert r["ret_code"] == 0
        assert r["shape"] == [W, H, W, H]
        assert r["copy"] == OK
    assert sorted(r["user"] for r in got) == list(range(FRAMES))
    # delivered in display order, each frame ffmpeg's
    for k, r in enumerate(got):
        assert np.array_equal(r["pic"], ref[k]), "frame %d (send %d)" % (k, r["user"])


class Token:
    """A user_data object whose release can be seen (weakref)."""


def test_vdec_callback_exception_and_user_data(dvpp, monkeypatch):
    aus, ref = load_clip()
    raised = []
    monkeypatch.setattr("sys.unraisablehook", lambda u: raised.append(u.exc_value))

    def raising(plain_callback):
        def callback(input_stream_desc, output_pic_desc, user_data):
            plain_callback(input_stream_desc, output_pic_desc, user_data)
            if user_data == 0:
                raise RuntimeError("from the callback")
        return callback
    dec = Decoder(dvpp, "start_thread", 8, wrap=raising)
    assert m.vdec_get_channel_desc_callback(dec.desc) is dec.cb
    # a created channel keeps its callback
    assert m.vdec_set_channel_desc_callback(dec.desc, dec.callback) == INVALID
    tokens = [Token() for _ in range(4)]
    refs = [weakref.ref(t) for t in tokens]
    try:
        assert dec.send(aus[0], 0) == OK
        assert dec.send(aus[1], 1, tokens[3]) == OK
        # refused sends and the end of the stream keep no reference to user_data
        assert m.vdec_send_frame(dec.desc, 0, 0, 0, tokens[0]) == INVALID
        assert m.vdec_send_skipped_frame(dec.desc, 0, 0, tokens[1]) == INVALID
        eos = m.dvpp_create_stream_desc()
        assert m.dvpp_set_stream_desc_eos(eos, 1) == OK
        assert m.vdec_send_frame(dec.desc, eos, 0, 0, tokens[2]) == OK
        assert m.dvpp_destroy_stream_desc(eos) == OK
    finally:
        assert dec.close() == OK
    # the exception went to sys.unraisablehook and decoding went on
    assert len(raised) == 1 and str(raised[0]) == "from the callback"
    assert [r["user"] for r in dec.got] == [0, tokens[3]]
    assert all(r["ret_code"] == 0 for r in dec.got)
    assert np.array_equal(dec.got[0]["pic"], ref[0])
    # the callback's reference to its user_data went with the call
    dec.got.clear()
    del tokens
    assert [r() for r in refs] == [None] * 4


def test_vdec_skipped_frame_is_answered_without_a_picture(dvpp):
    aus, ref = load_clip()
    dec = Decoder(dvpp, "start_thread", 9)
    try:
        assert dec.send(aus[0], 0) == OK
        # decoded for reference, never output: the callback's output is 0
        sd = m.dvpp_create_stream_desc()
        bits = to_dvpp([], aus[1])
        assert m.dvpp_set_stream_desc_data(sd, bits) == OK
        assert m.dvpp_set_stream_desc_size(sd, len(aus[1])) == OK
        assert m.dvpp_set_stream_desc_timestamp(sd, 1) == OK
        assert m.vdec_send_skipped_frame(dec.desc, sd, dec.frame_config, 1) == OK
        assert dec.send_eos() == OK
    finally:
        assert dec.close() == OK
    assert [r["user"] for r in dec.got] == [0, 1]
    assert np.array_equal(dec.got[0]["pic"], ref[0])
    assert dec.got[1]["out"] == 0 and dec.got[1]["ts"] == 1


def test_vdec_refusals(dvpp, res):
    aus, _ = load_clip()
    dec = Decoder(dvpp, "start_thread", 6)
    try:
        plain, ret = acl.rt.malloc(len(aus[0]), 0)
        assert ret == OK
        res.append((acl.rt.free, plain))
        sd = m.dvpp_create_stream_desc()
        res.append((m.dvpp_destroy_stream_desc, sd))
        pic = Pic(res, NV12, W, H, ws=W, hs=H, size=FRAME)
        # bitstream in acl.rt.malloc memory, not acldvppMalloc
        assert m.dvpp_set_stream_desc_data(sd, plain) == OK
        assert m.dvpp_set_stream_desc_size(sd, len(aus[0])) == OK
        assert m.vdec_send_frame(dec.desc, sd, pic.desc, 0, "x") == INVALID
        # the output in the wrong memory, or of another format than the channel's
        bits = to_dvpp(res, aus[0])
        assert m.dvpp_set_stream_desc_data(sd, bits) == OK
        bad = Pic(res, NV12, W, H, ws=W, hs=H, size=FRAME)
        assert m.dvpp_set_pic_desc_data(bad.desc, plain) == OK
        assert m.vdec_send_frame(dec.desc, sd, bad.desc, 0, "x") == INVALID
        assert m.dvpp_set_pic_desc_format(pic.desc, NV21) == OK
        assert m.vdec_send_frame(dec.desc, sd, pic.desc, 0, "x") == INVALID
        assert m.dvpp_set_pic_desc_format(pic.desc, NV12) == OK
        # made-up, wrong-kind and missing handles
        assert m.vdec_send_frame(0x1234, sd, pic.desc, 0, "x") == INVALID
        assert m.vdec_send_frame(dvpp.chan, sd, pic.desc, 0, "x") == INVALID
        assert m.vdec_send_frame(dec.desc, pic.desc, pic.desc, 0, "x") == INVALID
        assert m.vdec_send_frame(dec.desc, sd, 0, 0, "x") == INVALID
        # a second channel with the same id
        d2 = m.vdec_create_channel_desc()
        assert m.vdec_set_channel_desc_channel_id(d2, 6) == OK
        assert m.vdec_set_channel_desc_thread_id(d2, dec.tid) == OK
        assert m.vdec_set_channel_desc_callback(d2, dec.callback) == OK
        assert m.vdec_create_channel(d2) == INVALID
        assert m.vdec_destroy_channel_desc(d2) == OK
        # no thread id
        d3 = m.vdec_create_channel_desc()
        assert m.vdec_set_channel_desc_channel_id(d3, 7) == OK
        assert m.vdec_set_channel_desc_callback(d3, dec.callback) == OK
        assert m.vdec_create_channel(d3) == INVALID
        assert m.vdec_destroy_channel_desc(d3) == OK
    finally:
        assert dec.close() == OK
    assert dec.got == []                          # no refused send was answered
    # a destroyed channel takes nothing
    assert m.vdec_destroy_channel(dec.desc) == INVALID
    assert m.vdec_send_frame(dec.desc, sd, pic.desc, 0, "x") == INVALID


# ----------------------------------------------------------- refusals --

def test_bad_handles_are_invalid_param(dvpp, res):
    pin = Pic(res, NV12, 64, 32)
    pout = Pic(res, NV12, 32, 16)
    cfg = m.dvpp_create_resize_config()
    roi = m.dvpp_create_roi_config(0, 31, 0, 15)
    res += [(m.dvpp_destroy_resize_config, cfg), (m.dvpp_destroy_roi_config, roi)]
    s = dvpp.stream
    assert m.dvpp_vpc_resize_async(dvpp.chan, pin.desc, pout.desc, cfg, s) == OK
    sync(dvpp)
    for bad in (0, None, 0x1234, roi):
        assert m.dvpp_vpc_resize_async(bad, pin.desc, pout.desc, cfg, s) == INVALID
        assert m.dvpp_vpc_resize_async(dvpp.chan, bad, pout.desc, cfg, s) == INVALID
        assert m.dvpp_vpc_resize_async(dvpp.chan, pin.desc, bad, cfg, s) == INVALID
        assert m.dvpp_vpc_resize_async(dvpp.chan, pin.desc, pout.desc, bad, s) == INVALID
    assert m.dvpp_vpc_crop_async(dvpp.chan, pin.desc, pout.desc, cfg, s) == INVALID
    # destroyed descriptions and channels
    gone = m.dvpp_create_pic_desc()
    assert m.dvpp_destroy_pic_desc(gone) == OK
    assert m.dvpp_vpc_resize_async(dvpp.chan, gone, pout.desc, cfg, s) == INVALID
    c = m.dvpp_create_channel_desc()
    assert m.dvpp_vpc_resize_async(c, pin.desc, pout.desc, cfg, s) == INVALID  # not created
    assert m.dvpp_create_channel(c) == OK
    assert m.dvpp_destroy_channel(c) == OK
    assert m.dvpp_vpc_resize_async(c, pin.desc, pout.desc, cfg, s) == INVALID
    assert m.dvpp_destroy_channel_desc(c) == OK
    assert m.dvpp_vpc_resize_async(c, pin.desc, pout.desc, cfg, s) == INVALID
    assert m.dvpp_destroy_channel(c) == INVALID
    # the queue still works after the refusals
    assert m.dvpp_vpc_resize_async(dvpp.chan, pin.desc, pout.desc, cfg, s) == OK
    sync(dvpp)


def test_memory_not_from_dvpp_malloc_is_invalid_param(dvpp, res):
    plain, ret = acl.rt.malloc(8192, 0)
    assert ret == OK
    res.append((acl.rt.free, plain))
    pin = Pic(res, NV12, 64, 32)
    pout = Pic(res, NV12, 32, 16)
    cfg = m.dvpp_create_resize_config()
    res.append((m.dvpp_destroy_resize_config, cfg))
    assert m.dvpp_set_pic_desc_data(pin.desc, plain) == OK
    assert m.dvpp_vpc_resize_async(dvpp.chan, pin.desc, pout.desc, cfg, dvpp.stream) == INVALID
    assert m.dvpp_set_pic_desc_data(pin.desc, pin.dev) == OK
    # an output running past its acldvppMalloc block
    assert m.dvpp_set_pic_desc_data(pout.desc, pout.dev + 64) == OK
    assert m.dvpp_vpc_resize_async(dvpp.chan, pin.desc, pout.desc, cfg, dvpp.stream) == INVALID
    assert m.dvpp_set_pic_desc_data(pout.desc, pout.dev) == OK
    # JPEGD: the file, or the picture, in acl.rt.malloc memory
    jpg = jpeg_file(64, 32)
    dev_in = to_dvpp(res, jpg)
    dec, ret = m.dvpp_jpeg_predict_dec_size(jpg, len(jpg), NV12)
    assert ret == OK
    out = Pic(res, NV12, 0, 0, ws=0, hs=0, size=dec)
    assert m.dvpp_jpeg_decode_async(dvpp.chan, plain, len(jpg), out.desc, dvpp.stream) == INVALID
    assert m.dvpp_set_pic_desc_data(out.desc, plain) == OK
    assert m.dvpp_jpeg_decode_async(dvpp.chan, dev_in, len(jpg), out.desc,
                                    dvpp.stream) == INVALID
    assert m.dvpp_free(plain) == INVALID
    sync(dvpp)


def jpeg_file(w, h):
    f = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(smooth_bgr(w, h, 5)[:, :, ::-1])).save(
        f, "JPEG", quality=90)
    return f.getvalue()


def test_damaged_jpeg_fails_the_synchronize(dvpp, res, stream):
    jpg = jpeg_file(128, 64)
    dec, ret = m.dvpp_jpeg_predict_dec_size(jpg, len(jpg), NV12)
    assert ret == OK
    cut = jpg[:len(jpg) * 2 // 3]        # headers kept, entropy-coded data cut short
    dev_in = to_dvpp(res, cut)
    out = Pic(res, NV12, 0, 0, ws=0, hs=0, size=dec)
    assert m.dvpp_jpeg_decode_async(dvpp.chan, dev_in, len(cut), out.desc, stream) == OK
    assert acl.rt.synchronize_stream(stream) == AICPU_EXCEPTION
    assert m.dvpp_get_pic_desc_ret_code(out.desc) != 0
    # not a JPEG at all: the header call refuses it, the task fails
    junk = bytes([0x11]) * len(cut)
    assert m.dvpp_jpeg_get_image_info(junk, len(junk))[-1] == INVALID
    assert m.dvpp_jpeg_predict_dec_size(junk, len(junk), NV12)[1] == INVALID
    assert acl.rt.memcpy(dev_in, len(cut), junk, len(junk), H2D) == OK
    assert m.dvpp_jpeg_decode_async(dvpp.chan, dev_in, len(cut), out.desc, stream) == OK
    assert acl.rt.synchronize_stream(stream) == AICPU_EXCEPTION
    # the stream runs work afterwards
    assert acl.rt.memset_async(out.dev, dec, 7, dec, stream) == OK
    assert acl.rt.synchronize_stream(stream) == OK
    assert (out.get() == 7).all()


def test_venc_is_not_supported(dvpp):
    d = m.venc_create_channel_desc()
    assert m.venc_set_channel_desc_callback(d, lambda a, b, u: None) == OK
    assert m.venc_create_channel(d) == 207000      # ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert m.venc_destroy_channel_desc(d) == OK
