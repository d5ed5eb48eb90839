# SPDX-License-Identifier: MIT
# acl.op: compile an operator in process, run it with execute_v2 and
# through a handle, read the results back.
import numpy as np
import pytest

import acl

H2D, D2H = 1, 2


@pytest.fixture
def add_io():
    descs = [acl.create_tensor_desc(acl.ACL_FLOAT, [2, 8], acl.ACL_FORMAT_ND)
             for _ in range(3)]
    ptrs, bufs = [], []
    for _ in range(3):
        p, ret = acl.rt.malloc(64)
        assert ret == 0
        ptrs.append(p)
        bufs.append(acl.create_data_buffer(p, 64))
    yield descs, ptrs, bufs
    for d in descs:
        assert acl.destroy_tensor_desc(d) == 0
    for b in bufs:
        assert acl.destroy_data_buffer(b) == 0
    for p in ptrs:
        assert acl.rt.free(p) == 0


def test_compile_execute_v2_and_handle(add_io, stream):
    descs, ptrs, bufs = add_io
    attr = acl.op.create_attr()
    assert attr
    a = np.arange(16, dtype=np.float32).reshape(2, 8)
    b = np.full((2, 8), 0.5, np.float32)
    assert acl.rt.memcpy(ptrs[0], 64, a, 64, H2D) == 0
    assert acl.rt.memcpy(ptrs[1], 64, b, 64, H2D) == 0
    assert acl.op.compile("Add", descs[:2], descs[2:], attr,
                          acl.ACL_ENGINE_SYS, acl.ACL_COMPILE_SYS, None) == 0
    assert acl.op.execute_v2("Add", descs[:2], bufs[:2], descs[2:], bufs[2:],
                             attr, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    out = np.zeros((2, 8), np.float32)
    assert acl.rt.memcpy(out, 64, ptrs[2], 64, D2H) == 0
    assert np.array_equal(out, a + b)

    handle, ret = acl.op.create_handle("Add", descs[:2], descs[2:], attr)
    assert ret == 0 and handle
    # inputs swapped: b + a, written over the previous result
    assert acl.rt.memcpy(ptrs[0], 64, b * 4, 64, H2D) == 0
    assert acl.op.execute_with_handle(handle, bufs[:2], bufs[2:], stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert acl.rt.memcpy(out, 64, ptrs[2], 64, D2H) == 0
    assert np.array_equal(out, b * 4 + b)
    assert acl.op.destroy_handle(handle) == 0
    assert acl.op.destroy_handle(handle) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.op.destroy_attr(attr) == 0


def test_attr_setters_and_not_found(add_io, stream):
    descs, _, bufs = add_io
    attr = acl.op.create_attr()
    assert acl.op.set_attr_bool(attr, "b", True) == 0
    assert acl.op.set_attr_int(attr, "i", -3) == 0
    assert acl.op.set_attr_float(attr, "f", 0.25) == 0
    assert acl.op.set_attr_string(attr, "s", "txt") == 0
    assert acl.op.set_attr_list_int(attr, "li", [1, 2, 3]) == 0
    assert acl.op.set_attr_list_float(attr, "lf", [1.0, 2.0]) == 0
    assert acl.op.set_attr_list_bool(attr, "lb", [True, False]) == 0
    assert acl.op.set_attr_list_string(attr, "ls", ["a", "b"]) == 0
    assert acl.op.set_attr_data_type(attr, "dt", acl.ACL_FLOAT16) == 0
    # no model of this op type was compiled or loaded
    assert acl.op.execute_v2("NoSuchOp", descs[:2], bufs[:2], descs[2:], bufs[2:],
                             attr, stream) == acl.ACL_ERROR_OP_NOT_FOUND
    # list lengths disagree
    assert acl.op.execute_v2("Add", descs[:2], bufs[:1], descs[2:], bufs[2:],
                             attr, stream) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.op.destroy_attr(attr) == 0
    assert acl.op.set_attr_int(attr, "i", 1) == acl.ACL_ERROR_INVALID_PARAM
    with pytest.raises(TypeError):
        acl.op.set_attr_int(acl.op.create_attr(), "i", "one")
