# SPDX-License-Identifier: MIT
# Misuse never crashes the interpreter: wrong types raise TypeError or
# ValueError, bad pointers and destroyed handles give ACL error codes.
import numpy as np
import pytest

import acl

INVALID = 100000          # ACL_ERROR_INVALID_PARAM
PARAM_INVALID = 107000    # ACL_ERROR_RT_PARAM_INVALID
H2D, D2H = 1, 2


def test_wrong_types_raise():
    with pytest.raises(TypeError):
        acl.rt.malloc("4096")
    with pytest.raises(TypeError):
        acl.rt.free(1.5)
    with pytest.raises(TypeError):
        acl.rt.memcpy(1, 2, 3)              # neither pyACL's nor the seed's form
    with pytest.raises(TypeError):
        acl.rt.memcpy(object(), 4, 0x1000, 4, H2D)
    with pytest.raises(TypeError):
        acl.rt.launch_callback(42, None, 1, 0)
    with pytest.raises(TypeError):
        acl.util.numpy_to_ptr(3)
    with pytest.raises(TypeError):
        acl.create_tensor_desc(acl.ACL_FLOAT, 5, acl.ACL_FORMAT_ND)
    with pytest.raises(ValueError):
        acl.rt.free(-1)
    with pytest.raises(ValueError):
        acl.rt.malloc(-5)


def test_buffers_bound_the_copy(dev_buf):
    small = np.zeros(4, np.float32)
    with pytest.raises(ValueError):
        acl.rt.memcpy(small, 4096, dev_buf, 4096, D2H)
    with pytest.raises(ValueError):
        acl.rt.memcpy(dev_buf, 4096, b"abc", 4, H2D)
    with pytest.raises(ValueError):               # bytes are read-only
        acl.rt.memcpy(b"abcd", 4, dev_buf, 4, D2H)
    with pytest.raises(ValueError):               # not contiguous
        acl.rt.memcpy(np.zeros((4, 4), np.float32)[:, 1], 16, dev_buf, 16, D2H)


def test_bad_pointers_are_error_codes(dev_buf):
    host = np.zeros(16, np.uint8)
    # wild host addresses: host-to-host and host-to-device
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(host), 16, 0x10, 16, 0) == INVALID
    assert acl.rt.memcpy(0x10, 16, acl.util.numpy_to_ptr(host), 16, 0) == INVALID
    # the driver's copy_from_user/copy_to_user refuse them
    assert acl.rt.memcpy(dev_buf, 16, 0x10, 16, H2D) == PARAM_INVALID
    assert acl.rt.memcpy(0x18, 16, dev_buf, 16, D2H) == PARAM_INVALID
    assert acl.rt.memset(0x20, 16, 0, 16) == INVALID
    # a device address nothing was allocated at: a device page fault
    assert acl.rt.memcpy(host, 16, dev_buf + (1 << 30), 16, D2H) == \
        acl.ACL_ERROR_RT_AICORE_EXCEPTION
    assert acl.rt.memset(dev_buf + (1 << 30), 16, 0, 16) == \
        acl.ACL_ERROR_RT_AICORE_EXCEPTION
    assert acl.rt.free(0x12345678) == acl.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.free_host(0x12345678) == acl.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.memcpy(host, 8, dev_buf, 16, D2H) == PARAM_INVALID  # count > dest_max
    with pytest.raises(ValueError):
        acl.util.ptr_to_bytes(0x10, 8)
    with pytest.raises(ValueError):
        acl.util.ptr_to_numpy(0x10, (4,), 11)
    with pytest.raises(ValueError):
        acl.util.ptr_to_bytes(dev_buf, 8)     # device memory is not host memory


def test_freed_memory():
    p, ret = acl.rt.malloc(256)
    assert ret == 0 and acl.rt.free(p) == 0
    assert acl.rt.free(p) == acl.ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.free_host(p) == acl.ACL_ERROR_RT_PARAM_INVALID


def test_destroyed_stream_and_event():
    s, _ = acl.rt.create_stream()
    e, _ = acl.rt.create_event()
    assert acl.rt.destroy_stream(s) == 0
    assert acl.rt.destroy_event(e) == 0
    # libascendcl's live-handle table recognises them
    assert acl.rt.synchronize_stream(s) == PARAM_INVALID
    assert acl.rt.destroy_stream(s) == PARAM_INVALID
    assert acl.rt.record_event(e, 0) == PARAM_INVALID
    assert acl.rt.synchronize_event(e) == PARAM_INVALID
    assert acl.rt.event_elapsed_time(e, e) == (0.0, PARAM_INVALID)
    assert acl.rt.synchronize_stream(0xdeadbeef) == PARAM_INVALID
    assert acl.rt.set_context(0xdeadbeef) == acl.ACL_ERROR_RT_INVALID_HANDLE


def test_destroyed_module_handles():
    ds = acl.mdl.create_dataset()
    buf = acl.create_data_buffer(0, 0)
    desc = acl.mdl.create_desc()
    td = acl.create_tensor_desc(acl.ACL_FLOAT, [1], acl.ACL_FORMAT_ND)
    assert acl.mdl.add_dataset_buffer(ds, buf) == (ds, 0)
    assert acl.destroy_data_buffer(buf) == 0
    # the dataset still lists the destroyed buffer: refused, not read
    assert acl.mdl.execute(1, ds, ds) == INVALID
    assert acl.mdl.destroy_dataset(ds) == 0
    assert acl.mdl.destroy_dataset(ds) == INVALID
    assert acl.mdl.add_dataset_buffer(ds, buf) == (ds, INVALID)
    assert acl.mdl.get_dataset_num_buffers(ds) == 0
    assert acl.get_data_buffer_addr(buf) == 0
    assert acl.destroy_data_buffer(buf) == INVALID
    assert acl.mdl.destroy_desc(desc) == 0
    assert acl.mdl.get_num_inputs(desc) == 0
    assert acl.mdl.get_desc(desc, 1) == INVALID
    assert acl.mdl.destroy_desc(desc) == INVALID
    assert acl.destroy_tensor_desc(td) == 0
    assert acl.get_tensor_desc_size(td) == 0
    assert acl.destroy_tensor_desc(td) == INVALID
    # made-up handles
    assert acl.mdl.execute(1, 0x1000, 0x2000) == INVALID
    assert acl.op.execute_v2("Add", [0x1000], [0x2000], [], [], None, 0) == INVALID
    assert acl.mdl.unload(987654) == acl.ACL_ERROR_INVALID_MODEL_ID


def test_handle_pair_from_a_creator_is_its_handle():
    # The seed keeps (handle, ret) as the handle; only such a pair is taken.
    ctx0, _ = acl.rt.get_context()
    pair = acl.rt.create_context(0)
    assert pair[1] == 0
    assert acl.rt.set_context(pair) == 0
    assert acl.rt.get_context() == pair
    assert acl.rt.set_context(ctx0) == 0
    assert acl.rt.destroy_context(pair) == 0
    with pytest.raises(TypeError):
        acl.rt.destroy_context((1, 2, 3))
    with pytest.raises(TypeError):
        acl.rt.destroy_context(("x", 0))
