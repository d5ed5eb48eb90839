# SPDX-License-Identifier: MIT
# acl.rt and the top-level acl.*: devices, contexts, streams, events,
# memory and copies, with every value read back.
import numpy as np

import acl
from conftest import ACL_ERROR_REPEAT_INITIALIZE

H2D, D2H, D2D = 1, 2, 3


def test_init_again_is_repeat_initialize():
    assert acl.init() == ACL_ERROR_REPEAT_INITIALIZE
    assert acl.init(config_path="") == ACL_ERROR_REPEAT_INITIALIZE


def test_versions_and_names():
    major, minor, patch, ret = acl.get_version()
    assert ret == 0 and (major, minor, patch) >= (1, 0, 0)
    assert acl.rt.get_version()[3] == 0
    assert acl.get_soc_name() == acl.rt.get_soc_name()
    assert isinstance(acl.get_soc_name(), str) and acl.get_soc_name()


def test_devices_and_run_mode():
    count, ret = acl.rt.get_device_count()
    assert ret == 0 and count >= 2
    # The seed's samples pass an (ignored) argument.
    assert acl.rt.get_device_count(0) == (count, 0)
    assert acl.rt.get_device() == (0, 0)
    assert acl.rt.get_run_mode() == (acl.ACL_HOST, 0)
    assert acl.rt.synchronize_device() == 0


def test_context_create_set_get_destroy():
    ctx0, ret = acl.rt.get_context()
    assert ret == 0 and ctx0
    ctx, ret = acl.rt.create_context(0)
    assert ret == 0 and ctx not in (0, ctx0)
    assert acl.rt.get_context() == (ctx, 0)
    assert acl.rt.set_context(ctx0) == 0
    assert acl.rt.get_context() == (ctx0, 0)
    assert acl.rt.destroy_context(ctx) == 0


def test_constants():
    assert acl.ACL_SUCCESS == 0
    assert acl.ACL_ERROR_INVALID_PARAM == 100000
    assert acl.ACL_ERROR_RT_STREAM_NO_CB_REG == 107015
    assert (acl.ACL_MEMCPY_HOST_TO_DEVICE, acl.rt.MEMCPY_HOST_TO_DEVICE) == (1, 1)
    assert acl.rt.MEMCPY_DEVICE_TO_HOST == acl.ACL_MEMCPY_DEVICE_TO_HOST == 2
    assert acl.ACL_MEM_MALLOC_HUGE_FIRST == 0 and acl.ACL_FLOAT16 == 1


def test_memcpy_round_trip_pyacl_form(dev_buf):
    src = np.arange(1024, dtype=np.float32)
    dst = np.zeros_like(src)
    assert acl.rt.memcpy(dev_buf, 4096, acl.util.numpy_to_ptr(src), 4096, H2D) == 0
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(dst), 4096, dev_buf, 4096, D2H) == 0
    assert np.array_equal(dst, src)


def test_memcpy_round_trip_seed_form(dev_buf):
    # The seed passes numpy arrays and no dest_max.
    src = np.random.default_rng(1).random(1024).astype(np.float32)
    dst = np.zeros(1024, np.float32)
    assert acl.rt.memcpy(dev_buf, src, 4096, acl.rt.MEMCPY_HOST_TO_DEVICE) == 0
    assert acl.rt.memcpy(dst, dev_buf, 4096, acl.rt.MEMCPY_DEVICE_TO_HOST) == 0
    assert np.array_equal(dst, src)


def test_memcpy_bytes_and_bytearray(dev_buf):
    data = bytes(range(256)) * 4
    out = bytearray(1024)
    assert acl.rt.memcpy(dev_buf, 4096, acl.util.bytes_to_ptr(data), 1024, H2D) == 0
    assert acl.rt.memcpy(out, 1024, dev_buf, 1024, D2H) == 0
    assert bytes(out) == data
    assert acl.util.ptr_to_bytes(acl.util.bytes_to_ptr(data), 8) == data[:8]


def test_memcpy_device_to_device_and_memset(dev_buf):
    other, ret = acl.rt.malloc(4096)      # the policy defaults
    assert ret == 0
    try:
        assert acl.rt.memset(dev_buf, 4096, 0x5A, 4096) == 0
        assert acl.rt.memcpy(other, 4096, dev_buf, 2048, D2D) == 0
        assert acl.rt.memset(other + 2048, 2048, 0x11, 2048) == 0
        out = np.zeros(4096, np.uint8)
        assert acl.rt.memcpy(out, 4096, other, 4096, D2H) == 0
        assert (out[:2048] == 0x5A).all() and (out[2048:] == 0x11).all()
    finally:
        assert acl.rt.free(other) == 0


def test_malloc_host_pinned_round_trip(dev_buf):
    host, ret = acl.rt.malloc_host(4096)
    assert ret == 0 and host
    try:
        view = acl.util.ptr_to_numpy(host, (1024,), 5)   # NPY_INT32
        view[:] = np.arange(1024, dtype=np.int32) * 3
        assert acl.rt.memcpy(dev_buf, 4096, host, 4096, H2D) == 0
        back = np.zeros(1024, np.int32)
        assert acl.rt.memcpy(back, 4096, dev_buf, 4096, D2H) == 0
        assert np.array_equal(back, np.arange(1024, dtype=np.int32) * 3)
        # host memset through the module
        assert acl.rt.memset(host, 4096, 0, 4096) == 0
        assert not view.any()
    finally:
        assert acl.rt.free_host(host) == 0


def test_memcpy_async_in_stream_order(stream, dev_buf):
    host, ret = acl.rt.malloc_host(4096)
    assert ret == 0
    out, ret = acl.rt.malloc_host(4096)
    assert ret == 0
    try:
        src = acl.util.ptr_to_numpy(host, (4096,), 2)    # NPY_UINT8
        dst = acl.util.ptr_to_numpy(out, (4096,), 2)
        src[:] = np.arange(4096) % 251
        dst[:] = 0
        assert acl.rt.memcpy_async(dev_buf, 4096, host, 4096, H2D, stream) == 0
        assert acl.rt.memset_async(dev_buf, 4096, 7, 16, stream) == 0
        assert acl.rt.memcpy_async(out, 4096, dev_buf, 4096, D2H, stream) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        want = np.arange(4096) % 251
        want[:16] = 7
        assert np.array_equal(dst, want)
        # the seed's async form: numpy arrays, no dest_max
        a = np.full(1024, 2.5, np.float32)
        b = np.zeros(1024, np.float32)
        assert acl.rt.memcpy_async(dev_buf, a, 4096, H2D, stream) == 0
        assert acl.rt.memcpy_async(b, dev_buf, 4096, D2H, stream) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        assert (b == 2.5).all()
    finally:
        assert acl.rt.free_host(host) == 0
        assert acl.rt.free_host(out) == 0


def test_get_mem_info_tuple_and_mapping(dev_buf):
    info = acl.rt.get_mem_info(acl.ACL_HBM_MEM)
    free, total, ret = info
    assert ret == 0 and 0 < free <= total
    assert (info["free"], info["total"], info["ret"]) == (free, total, 0)
    big, ret = acl.rt.malloc(8 << 20)
    assert ret == 0
    assert acl.rt.memset(big, 8 << 20, 0, 8 << 20) == 0
    free2, total2, _ = acl.rt.get_mem_info()       # HBM is the default
    assert total2 == total and free2 <= free
    assert acl.rt.free(big) == 0


def test_events_timing_and_status(stream, dev_buf):
    start, ret = acl.rt.create_event()
    assert ret == 0
    end, ret = acl.rt.create_event_with_flag(acl.ACL_EVENT_TIME_LINE)
    assert ret == 0
    try:
        assert acl.rt.record_event(start, stream) == 0
        for _ in range(8):
            assert acl.rt.memset_async(dev_buf, 4096, 1, 4096, stream) == 0
        assert acl.rt.record_event(end, stream) == 0
        assert acl.rt.synchronize_event(end) == 0
        assert acl.rt.query_event_status(end) == (acl.ACL_EVENT_RECORDED_STATUS_COMPLETE, 0)
        assert acl.rt.query_event(end) == (acl.ACL_EVENT_STATUS_COMPLETE, 0)
        ms, ret = acl.rt.event_elapsed_time(start, end)
        assert ret == 0 and 0.0 <= ms < 60000.0
        assert acl.rt.reset_event(end, stream) == 0
    finally:
        assert acl.rt.destroy_event(start) == 0
        assert acl.rt.destroy_event(end) == 0


def test_stream_wait_event_orders_two_streams(dev_buf):
    s1, _ = acl.rt.create_stream()
    s2, _ = acl.rt.create_stream()
    ev, _ = acl.rt.create_event()
    try:
        data = np.arange(1024, dtype=np.float32)
        out = np.zeros(1024, np.float32)
        host, _ = acl.rt.malloc_host(4096)
        acl.util.ptr_to_numpy(host, (1024,), 11)[:] = data
        assert acl.rt.memcpy_async(dev_buf, 4096, host, 4096, H2D, s1) == 0
        assert acl.rt.record_event(ev, s1) == 0
        assert acl.rt.stream_wait_event(s2, ev) == 0
        assert acl.rt.wait_event(s2, ev) == 0          # the alias
        assert acl.rt.memcpy_async(out, 4096, dev_buf, 4096, D2H, s2) == 0
        assert acl.rt.synchronize_stream(s2) == 0
        assert np.array_equal(out, data)
        assert acl.rt.free_host(host) == 0
    finally:
        assert acl.rt.destroy_event(ev) == 0
        assert acl.rt.destroy_stream(s1) == 0
        assert acl.rt.destroy_stream(s2) == 0


def test_data_buffer_and_tensor_desc():
    buf = acl.create_data_buffer(0x1000, 64)
    assert buf
    assert acl.get_data_buffer_addr(buf) == 0x1000
    assert acl.get_data_buffer_size_v2(buf) == 64 == acl.get_data_buffer_size(buf)
    assert acl.update_data_buffer(buf, 0x2000, 32) == 0
    assert (acl.get_data_buffer_addr(buf), acl.get_data_buffer_size_v2(buf)) == (0x2000, 32)
    assert acl.destroy_data_buffer(buf) == 0
    desc = acl.create_tensor_desc(acl.ACL_FLOAT16, [2, 3, 4], acl.ACL_FORMAT_NCHW)
    assert desc
    assert acl.get_tensor_desc_size(desc) == 48
    assert acl.get_tensor_desc_type(desc) == acl.ACL_FLOAT16
    assert acl.get_tensor_desc_format(desc) == acl.ACL_FORMAT_NCHW
    assert acl.get_tensor_desc_num_dims(desc) == 3
    assert acl.get_tensor_desc_element_count(desc) == 24
    assert acl.get_tensor_desc_dim_v2(desc, 2) == (4, 0)
    assert acl.set_tensor_desc_name(desc, "x") == 0
    assert acl.get_tensor_desc_name(desc) == "x"
    assert acl.destroy_tensor_desc(desc) == 0
    assert acl.data_type_size(acl.ACL_FLOAT16) == 2
    assert acl.float16_to_float(acl.float_to_float16(1.5)) == 1.5


def test_util_pointer_helpers():
    a = np.arange(12, dtype=np.int64).reshape(3, 4)
    p = acl.util.numpy_to_ptr(a)
    assert p == a.ctypes.data
    v = acl.util.ptr_to_numpy(p, (3, 4), 7)     # NPY_INT64, a view
    assert np.array_equal(v, a)
    a[0, 0] = 99
    assert v[0, 0] == 99
    assert acl.util.ptr_to_bytes(p, 16) == a.tobytes()[:16]
