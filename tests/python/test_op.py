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


def test_set_model_dir_and_load_from_atc_singleop(tmp_path, stream):
    import json
    import os
    import subprocess
    from conftest import atc_path
    t = {"format": "ND", "shape": [4], "type": "int32"}
    (tmp_path / "ops.json").write_text(json.dumps(
        [{"op": "Add", "input_desc": [t, t], "output_desc": [t]}]))
    subprocess.run([atc_path(), f"--singleop={tmp_path / 'ops.json'}",
                    "--soc_version=Ascend310", f"--output={tmp_path / 'om'}"], check=True)
    om = [f for f in os.listdir(tmp_path / "om") if f.endswith(".om")]
    assert len(om) == 1
    assert acl.op.set_model_dir(str(tmp_path / "om")) == 0
    data = (tmp_path / "om" / om[0]).read_bytes()
    assert acl.op.load(data, len(data)) == 0            # replaces the same op
    assert acl.op.load(acl.util.bytes_to_ptr(data), len(data)) == 0
    assert acl.op.load(0x10, len(data)) == acl.ACL_ERROR_INVALID_PARAM
    with pytest.raises(ValueError):
        acl.op.load(data, len(data) + 1)
    descs = [acl.create_tensor_desc(acl.ACL_INT32, [4], acl.ACL_FORMAT_ND) for _ in range(3)]
    ptrs = [acl.rt.malloc(16)[0] for _ in range(3)]
    bufs = [acl.create_data_buffer(p, 16) for p in ptrs]
    try:
        a = np.array([1, -2, 3, 1 << 30], np.int32)
        b = np.array([10, 20, -30, 1 << 30], np.int32)
        assert acl.rt.memcpy(ptrs[0], 16, a, 16, H2D) == 0
        assert acl.rt.memcpy(ptrs[1], 16, b, 16, H2D) == 0
        assert acl.op.execute_v2("Add", descs[:2], bufs[:2], descs[2:], bufs[2:],
                                 None, stream) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        out = np.zeros(4, np.int32)
        assert acl.rt.memcpy(out, 16, ptrs[2], 16, D2H) == 0
        assert out.tolist() == (a + b).tolist()
        # a float32 description finds no model: the inputs do not match
        f = acl.create_tensor_desc(acl.ACL_FLOAT, [4], acl.ACL_FORMAT_ND)
        assert acl.op.execute_v2("Add", [f, f], bufs[:2], [f], bufs[2:], None, stream) == \
            acl.ACL_ERROR_OP_INPUT_NOT_MATCH
        assert acl.destroy_tensor_desc(f) == 0
    finally:
        for d in descs:
            acl.destroy_tensor_desc(d)
        for bf in bufs:
            acl.destroy_data_buffer(bf)
        for p in ptrs:
            acl.rt.free(p)
