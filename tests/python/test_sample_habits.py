# SPDX-License-Identifier: MIT
"""pyACL called the way CANN's public Python samples call it: constants
spelled as plain ints at the top of the script, host buffers from
acl.rt.malloc_host, sizes as ints, numpy views through acl.util, and the
memcpy sample's whole flow (memset of a pinned host buffer, H2H into
numpy, H2D into DVPP memory, a "D2H" copy whose source is that host
buffer, memory queries between steps)."""
import numpy as np

import acl

# As the samples define them.
ACL_SUCCESS = 0
ACL_DDR_MEM = 0
ACL_HBM_MEM = 1
ACL_MEMCPY_HOST_TO_HOST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_MEMCPY_DEVICE_TO_DEVICE = 3
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEM_MALLOC_NORMAL_ONLY = 2


def copy_as_numpy(src, size, kind):
    """The sample's copy_data_as_numpy: into a bytes object's buffer."""
    np_data = np.ones(size, dtype=np.byte)
    bytes_data = np_data.tobytes()
    ptr = acl.util.bytes_to_ptr(bytes_data)
    ret = acl.rt.memcpy(ptr, size, src, size, kind)
    return ret, np.frombuffer(bytes_data, dtype=np.byte)


def test_memcpy_sample_flow_ten_mib():
    size = 10485760
    context, ret = acl.rt.create_context(0)
    assert ret == ACL_SUCCESS
    free0, total0, ret = acl.rt.get_mem_info(ACL_DDR_MEM)
    assert ret == ACL_SUCCESS and 0 < free0 <= total0
    free1, total1, ret = acl.rt.get_mem_info(ACL_HBM_MEM)
    assert ret == ACL_SUCCESS and 0 < free1 <= total1
    host_buffer, ret = acl.rt.malloc_host(size)
    assert ret == ACL_SUCCESS and host_buffer
    device_buffer, ret = acl.media.dvpp_malloc(size)
    assert ret == ACL_SUCCESS and device_buffer
    try:
        assert acl.rt.memset(host_buffer, size, 7, size) == ACL_SUCCESS
        ret, data = copy_as_numpy(host_buffer, size, ACL_MEMCPY_HOST_TO_HOST)
        assert ret == ACL_SUCCESS and (data == 7).all()
        assert acl.rt.memcpy(device_buffer, size, host_buffer, size,
                             ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS
        # The sample names DEVICE_TO_HOST but passes the host buffer:
        # the direction comes from the pointers.
        ret, data = copy_as_numpy(host_buffer, size, ACL_MEMCPY_DEVICE_TO_HOST)
        assert ret == ACL_SUCCESS and (data == 7).all()
        ret, data = copy_as_numpy(device_buffer, size, ACL_MEMCPY_DEVICE_TO_HOST)
        assert ret == ACL_SUCCESS and (data == 7).all()
        free2, _, ret = acl.rt.get_mem_info(ACL_DDR_MEM)
        assert ret == ACL_SUCCESS and free2 <= free0 - size
    finally:
        assert acl.rt.free_host(host_buffer) == ACL_SUCCESS
        assert acl.media.dvpp_free(device_buffer) == ACL_SUCCESS
    assert acl.rt.destroy_context(context) == ACL_SUCCESS
    assert acl.rt.set_device(0) == ACL_SUCCESS


def test_memset_pinned_host_every_size_and_value():
    for size in (1, 4095, 65537, 3 << 20):
        host, ret = acl.rt.malloc_host(size)
        assert ret == ACL_SUCCESS
        try:
            view = acl.util.ptr_to_numpy(host, (size,), 2)   # NPY_UINT8
            assert acl.rt.memset(host, size, 0x5A, size) == ACL_SUCCESS
            assert (view == 0x5A).all()
            # Only the low byte of the value counts, as in C.
            assert acl.rt.memset(host, size, 0x1FF, size) == ACL_SUCCESS
            assert (view == 0xFF).all()
            # max_count larger than count: only count bytes change.
            if size > 1:
                assert acl.rt.memset(host, size, 1, size - 1) == ACL_SUCCESS
                assert (view[:-1] == 1).all() and view[-1] == 0xFF
            # count past max_count is the C call's error.
            assert acl.rt.memset(host, size, 2, size + 1) != ACL_SUCCESS
            assert view[0] in (1, 0xFF)
        finally:
            assert acl.rt.free_host(host) == ACL_SUCCESS


def test_memset_async_pinned_host_in_stream_order():
    size = 1 << 20
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    host, ret = acl.rt.malloc_host(size)
    assert ret == ACL_SUCCESS
    dev, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_NORMAL_ONLY)
    assert ret == ACL_SUCCESS
    try:
        assert acl.rt.memset(dev, size, 9, size) == ACL_SUCCESS
        assert acl.rt.memset_async(host, size, 3, size, stream) == ACL_SUCCESS
        assert acl.rt.memcpy_async(host, size, dev, size // 2,
                                   ACL_MEMCPY_DEVICE_TO_HOST, stream) == ACL_SUCCESS
        assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
        view = acl.util.ptr_to_numpy(host, (size,), 2)
        assert (view[:size // 2] == 9).all() and (view[size // 2:] == 3).all()
    finally:
        assert acl.rt.free(dev) == ACL_SUCCESS
        assert acl.rt.free_host(host) == ACL_SUCCESS
        assert acl.rt.destroy_stream(stream) == ACL_SUCCESS


def test_numpy_to_ptr_round_trip_through_pinned_host():
    size = 4096
    host, ret = acl.rt.malloc_host(size)
    assert ret == ACL_SUCCESS
    dev, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == ACL_SUCCESS
    try:
        src = np.arange(size // 4, dtype=np.float32)
        assert acl.rt.memcpy(host, size, acl.util.numpy_to_ptr(src), size,
                             ACL_MEMCPY_HOST_TO_HOST) == ACL_SUCCESS
        assert acl.rt.memcpy(dev, size, host, size,
                             ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS
        assert acl.rt.memset(host, size, 0, size) == ACL_SUCCESS
        assert acl.rt.memcpy(host, size, dev, size,
                             ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
        out = np.zeros_like(src)
        assert acl.rt.memcpy(acl.util.numpy_to_ptr(out), size, host, size,
                             ACL_MEMCPY_HOST_TO_HOST) == ACL_SUCCESS
        assert np.array_equal(out, src)
    finally:
        assert acl.rt.free(dev) == ACL_SUCCESS
        assert acl.rt.free_host(host) == ACL_SUCCESS
