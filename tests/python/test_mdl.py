# SPDX-License-Identifier: MIT
# acl.mdl: an ONNX model built here with onnx.helper, compiled by atc to
# an .om, loaded, described and executed (sync and async) from Python.
import subprocess

import numpy as np
import pytest

import acl
from conftest import atc_path

H2D, D2H = 1, 2
BIAS = np.array([[1, -2, 3], [-4, 5, -6]], np.float32)


@pytest.fixture(scope="module")
def om_path(tmp_path_factory):
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    d = tmp_path_factory.mktemp("mdl")
    graph = helper.make_graph(
        [helper.make_node("Add", ["x", "bias"], ["s"]),
         helper.make_node("Relu", ["s"], ["y"])],
        "add_relu",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
        [numpy_helper.from_array(BIAS, "bias")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.save(model, str(d / "m.onnx"))
    subprocess.run([atc_path(), f"--model={d / 'm.onnx'}", "--framework=5",
                    f"--output={d / 'm'}", "--soc_version=Ascend310"], check=True)
    return str(d / "m.om")


@pytest.fixture
def model(om_path):
    model_id, ret = acl.mdl.load_from_file(om_path)
    assert ret == 0
    desc = acl.mdl.create_desc()
    assert desc and acl.mdl.get_desc(desc, model_id) == 0
    yield model_id, desc
    assert acl.mdl.destroy_desc(desc) == 0
    assert acl.mdl.unload(model_id) == 0


def test_desc(model):
    _, desc = model
    assert acl.mdl.get_num_inputs(desc) == 1
    assert acl.mdl.get_num_outputs(desc) == 1
    assert acl.mdl.get_input_size_by_index(desc, 0) == 24
    assert acl.mdl.get_output_size_by_index(desc, 0) == 24
    assert acl.mdl.get_input_name_by_index(desc, 0) == "x"
    assert acl.mdl.get_output_name_by_index(desc, 0) == "y"
    dims, ret = acl.mdl.get_input_dims(desc, 0)
    assert ret == 0 and dims == {"name": "x", "dimCount": 2, "dims": [2, 3]}
    dims, ret = acl.mdl.get_output_dims(desc, 0)
    assert ret == 0 and dims["dims"] == [2, 3]
    assert acl.mdl.get_input_data_type(desc, 0) == acl.ACL_FLOAT
    assert acl.mdl.get_output_data_type(desc, 0) == acl.ACL_FLOAT
    assert acl.mdl.get_input_format(desc, 0) in (acl.ACL_FORMAT_ND, acl.ACL_FORMAT_NCHW)
    assert acl.mdl.get_input_index_by_name(desc, "x") == (0, 0)
    assert acl.mdl.get_output_index_by_name(desc, "y") == (0, 0)
    assert acl.mdl.get_input_index_by_name(desc, "nope")[1] == acl.ACL_ERROR_INVALID_PARAM
    assert acl.mdl.get_input_dims(desc, 5) == (
        {"name": "", "dimCount": 0, "dims": []}, acl.ACL_ERROR_INVALID_PARAM)


def make_io(desc):
    """pyACL's sequence: malloc, create_data_buffer, add_dataset_buffer."""
    sets, ptrs = [], []
    for n, size_of in ((1, acl.mdl.get_input_size_by_index),
                       (1, acl.mdl.get_output_size_by_index)):
        ds = acl.mdl.create_dataset()
        for i in range(n):
            size = size_of(desc, i)
            ptr, ret = acl.rt.malloc(size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
            assert ret == 0
            buf = acl.create_data_buffer(ptr, size)
            assert acl.mdl.add_dataset_buffer(ds, buf) == (ds, 0)
            ptrs.append(ptr)
        assert acl.mdl.get_dataset_num_buffers(ds) == n
        sets.append(ds)
    return sets[0], sets[1], ptrs


def free_io(inp, out, ptrs):
    for ds in (inp, out):
        for i in range(acl.mdl.get_dataset_num_buffers(ds)):
            assert acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(ds, i)) == 0
        assert acl.mdl.destroy_dataset(ds) == 0
    for p in ptrs:
        assert acl.rt.free(p) == 0


def test_execute(model):
    model_id, desc = model
    inp, out, ptrs = make_io(desc)
    try:
        x = np.array([[1, 1, 1], [10, -10, 10]], np.float32)
        assert acl.get_data_buffer_addr(acl.mdl.get_dataset_buffer(inp, 0)) == ptrs[0]
        assert acl.rt.memcpy(ptrs[0], 24, x, 24, H2D) == 0
        assert acl.mdl.execute(model_id, inp, out) == 0
        y = np.zeros((2, 3), np.float32)
        assert acl.rt.memcpy(y, 24, ptrs[1], 24, D2H) == 0
        assert np.array_equal(y, np.maximum(x + BIAS, 0))
        dims, ret = acl.mdl.get_cur_output_dims(desc, 0)
        assert ret == 0 and dims["dims"] == [2, 3]
    finally:
        free_io(inp, out, ptrs)


def test_execute_async_on_a_stream(model, stream):
    model_id, desc = model
    inp, out, ptrs = make_io(desc)
    try:
        results = []
        for k in range(3):
            x = np.full((2, 3), float(k), np.float32)
            y = np.zeros((2, 3), np.float32)
            assert acl.rt.memcpy_async(ptrs[0], 24, x, 24, H2D, stream) == 0
            assert acl.mdl.execute_async(model_id, inp, out, stream) == 0
            assert acl.rt.memcpy_async(y, 24, ptrs[1], 24, D2H, stream) == 0
            assert acl.rt.synchronize_stream(stream) == 0
            results.append(np.array_equal(y, np.maximum(x + BIAS, 0)))
        assert results == [True, True, True]
    finally:
        free_io(inp, out, ptrs)


def test_load_from_mem_and_query_size(om_path):
    data = open(om_path, "rb").read()
    model_id, ret = acl.mdl.load_from_mem(data, len(data))
    assert ret == 0
    assert acl.mdl.unload(model_id) == 0
    # pyACL passes an address: read through the kernel's checks first
    model_id, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(data), len(data))
    assert ret == 0
    assert acl.mdl.unload(model_id) == 0
    assert acl.mdl.load_from_mem(0x10, len(data)) == (0, acl.ACL_ERROR_INVALID_PARAM)
    assert acl.mdl.unload(model_id) == acl.ACL_ERROR_INVALID_MODEL_ID
    work, weight, ret = acl.mdl.query_size(om_path)
    assert ret == 0 and weight >= 24
    assert acl.mdl.load_from_file("/nonexistent.om") == (0, acl.ACL_ERROR_INVALID_FILE)
    assert acl.mdl.load_from_mem(b"not a model", 11) == (0, acl.ACL_ERROR_INVALID_FILE)


def test_sample_style_io_through_host_pointers(model):
    """Ascend samples' idiom: bytes_to_ptr in, malloc_host + ptr_to_numpy out."""
    model_id, desc = model
    inp, out, ptrs = make_io(desc)
    host, ret = acl.rt.malloc_host(24)
    assert ret == 0
    try:
        x = np.array([[-1, 0, 1], [2, 3, 4]], np.float32)
        assert acl.rt.memcpy(ptrs[0], 24, acl.util.bytes_to_ptr(x.tobytes()), 24,
                             acl.ACL_MEMCPY_HOST_TO_DEVICE) == 0
        assert acl.mdl.execute(model_id, inp, out) == 0
        assert acl.rt.memcpy(host, 24, ptrs[1], 24, acl.ACL_MEMCPY_DEVICE_TO_HOST) == 0
        y = acl.util.ptr_to_numpy(host, (2, 3), 11).copy()
        assert np.array_equal(y, np.maximum(x + BIAS, 0))
        raw = acl.util.ptr_to_bytes(host, 24)
        assert np.array_equal(np.frombuffer(raw, np.float32).reshape(2, 3), y)
    finally:
        assert acl.rt.free_host(host) == 0
        free_io(inp, out, ptrs)
