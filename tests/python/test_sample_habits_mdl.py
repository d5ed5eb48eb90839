# SPDX-License-Identifier: MIT
"""acl.mdl called the way CANN's public Python samples call it (the
classification samples, acllite's AclLiteModel, the callback samples):
constants as plain ints, (value, ret) pairs unpacked, sizes by index,
inputs from bytes_to_ptr / numpy_to_ptr / numpy_contiguous_to_ptr,
outputs into malloc_host memory read with ptr_to_numpy or into a bytes
object's buffer, and acllite's release order (unload before
destroy_desc)."""
import subprocess
import threading

import numpy as np
import pytest

import acl
from conftest import atc_path

# As the samples define them.
ACL_SUCCESS = 0
ACL_HOST = 1
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEM_MALLOC_NORMAL_ONLY = 2
ACL_MEMCPY_HOST_TO_HOST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_FLOAT = 0
NPY_FLOAT32 = 11
NPY_UBYTE = 2
ACL_ERROR_INVALID_PARAM = 100000
ACL_ERROR_INVALID_FILE = 100003
ACL_ERROR_INVALID_MODEL_ID = 100011
ACL_ERROR_RT_STREAM_NO_CB_REG = 107015

BIAS = np.array([[0.5, -1, 2], [-3, 4, -5]], np.float32)


def reference(x, y):
    return np.maximum(x + BIAS, 0), x * y


@pytest.fixture(scope="module")
def om_path(tmp_path_factory):
    """Two inputs, two outputs: s = Relu(x + bias), p = x * y."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    d = tmp_path_factory.mktemp("habits_mdl")
    graph = helper.make_graph(
        [helper.make_node("Add", ["x", "bias"], ["t"]),
         helper.make_node("Relu", ["t"], ["s"]),
         helper.make_node("Mul", ["x", "y"], ["p"])],
        "two_by_two",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("s", TensorProto.FLOAT, [2, 3]),
         helper.make_tensor_value_info("p", TensorProto.FLOAT, [2, 3])],
        [numpy_helper.from_array(BIAS, "bias")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.save(model, str(d / "m.onnx"))
    subprocess.run([atc_path(), f"--model={d / 'm.onnx'}", "--framework=5",
                    f"--output={d / 'm'}", "--soc_version=Ascend310"], check=True,
                   stdout=subprocess.DEVNULL)
    return str(d / "m.om")


class SampleNet:
    """The samples' Net class: load, describe, one dataset per side."""

    def __init__(self, path, from_mem=False):
        self.run_mode, ret = acl.rt.get_run_mode()
        assert ret == ACL_SUCCESS and self.run_mode == ACL_HOST
        if from_mem:
            with open(path, "rb") as f:
                self.om_bytes = f.read()
            ptr = acl.util.bytes_to_ptr(self.om_bytes)
            self.model_id, ret = acl.mdl.load_from_mem(ptr, len(self.om_bytes))
        else:
            self.model_id, ret = acl.mdl.load_from_file(path)
        assert ret == ACL_SUCCESS and self.model_id > 0
        self.model_desc = acl.mdl.create_desc()
        assert self.model_desc
        assert acl.mdl.get_desc(self.model_desc, self.model_id) == ACL_SUCCESS
        self.input_data, self.output_data = [], []
        self.load_input_dataset = self._gen_dataset(
            "in", acl.mdl.get_num_inputs(self.model_desc), self.input_data)
        self.load_output_dataset = self._gen_dataset(
            "out", acl.mdl.get_num_outputs(self.model_desc), self.output_data)

    def _gen_dataset(self, kind, num, store):
        size_of = {"in": acl.mdl.get_input_size_by_index,
                   "out": acl.mdl.get_output_size_by_index}[kind]
        dataset = acl.mdl.create_dataset()
        for i in range(num):
            size = size_of(self.model_desc, i)
            buf, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_NORMAL_ONLY)
            assert ret == ACL_SUCCESS
            data = acl.create_data_buffer(buf, size)
            _, ret = acl.mdl.add_dataset_buffer(dataset, data)
            assert ret == ACL_SUCCESS and _ == dataset
            store.append({"buffer": buf, "size": size})
        assert acl.mdl.get_dataset_num_buffers(dataset) == num
        return dataset

    def release(self):
        """acllite's destroy(): buffers (freeing through their address),
        datasets, then unload, then destroy_desc."""
        for ds in (self.load_input_dataset, self.load_output_dataset):
            for i in range(acl.mdl.get_dataset_num_buffers(ds)):
                data_buf = acl.mdl.get_dataset_buffer(ds, i)
                assert data_buf
                data_addr = acl.get_data_buffer_addr(data_buf)
                assert acl.rt.free(data_addr) == ACL_SUCCESS
                assert acl.destroy_data_buffer(data_buf) == ACL_SUCCESS
            assert acl.mdl.destroy_dataset(ds) == ACL_SUCCESS
        assert acl.mdl.unload(self.model_id) == ACL_SUCCESS
        assert acl.mdl.destroy_desc(self.model_desc) == ACL_SUCCESS


@pytest.fixture
def net(om_path):
    n = SampleNet(om_path)
    yield n
    n.release()


def test_desc_as_samples_read_it(net):
    desc = net.model_desc
    assert acl.mdl.get_num_inputs(desc) == 2
    assert acl.mdl.get_num_outputs(desc) == 2
    assert [d["size"] for d in net.input_data + net.output_data] == [24] * 4
    # acllite: output shape from get_output_dims(...)[0]["dims"]
    for i in range(2):
        dims = acl.mdl.get_output_dims(desc, i)
        assert dims[1] == ACL_SUCCESS and tuple(dims[0]["dims"]) == (2, 3)
        assert acl.mdl.get_output_data_type(desc, i) == ACL_FLOAT
        dims, ret = acl.mdl.get_input_dims(desc, i)
        assert ret == ACL_SUCCESS and dims["dimCount"] == 2
    assert [acl.mdl.get_input_name_by_index(desc, i) for i in range(2)] == ["x", "y"]
    assert [acl.mdl.get_output_name_by_index(desc, i) for i in range(2)] == ["s", "p"]
    assert acl.mdl.get_input_index_by_name(desc, "y") == (1, ACL_SUCCESS)
    # acllite probes for a dynamic-batch input on every execute: absent
    # here, so ret is an error and the sample goes on without it.
    _, ret = acl.mdl.get_input_index_by_name(desc, "ascend_mbatch_shape_data")
    assert ret == ACL_ERROR_INVALID_PARAM
    # An index past the end: the C getters' 0.
    assert acl.mdl.get_input_size_by_index(desc, 2) == 0
    assert acl.mdl.get_output_size_by_index(desc, 7) == 0


def test_classification_flow_bytes_in_malloc_host_out(net):
    x = np.array([[1, 2, 3], [-4, 5, 6]], np.float32)
    y = np.array([[2, 2, 2], [0.5, -1, 3]], np.float32)
    for i, arr in enumerate((x, y)):
        ptr = acl.util.bytes_to_ptr(arr.tobytes())
        item = net.input_data[i]
        assert acl.rt.memcpy(item["buffer"], item["size"], ptr, item["size"],
                             ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS
    assert acl.mdl.execute(net.model_id, net.load_input_dataset,
                           net.load_output_dataset) == ACL_SUCCESS
    got = []
    for i in range(acl.mdl.get_dataset_num_buffers(net.load_output_dataset)):
        buf = acl.mdl.get_dataset_buffer(net.load_output_dataset, i)
        data = acl.get_data_buffer_addr(buf)
        size = int(acl.get_data_buffer_size(buf))
        assert (data, size) == (net.output_data[i]["buffer"], 24)
        host, ret = acl.rt.malloc_host(size)
        assert ret == ACL_SUCCESS
        assert acl.rt.memcpy(host, size, data, size,
                             ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
        got.append(np.copy(acl.util.ptr_to_numpy(host, (size // 4,), NPY_FLOAT32)))
        assert acl.rt.free_host(host) == ACL_SUCCESS
    s, p = reference(x, y)
    assert np.array_equal(got[0].reshape(2, 3), s)
    assert np.array_equal(got[1].reshape(2, 3), p)


def test_acllite_output_into_a_bytes_buffer(net):
    """acllite's _output_dataset_to_numpy: memcpy into the buffer of a
    bytes object (bytes_to_ptr of zeros().tobytes()), then frombuffer."""
    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    y = np.full((2, 3), -1.5, np.float32)
    for i, arr in enumerate((x, y)):
        size = arr.size * arr.itemsize
        ptr = acl.util.numpy_to_ptr(arr)
        assert acl.rt.memcpy(net.input_data[i]["buffer"], size, ptr, size,
                             ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS
    assert acl.mdl.execute(net.model_id, net.load_input_dataset,
                           net.load_output_dataset) == ACL_SUCCESS
    outs = []
    for i in range(2):
        dims = acl.mdl.get_output_dims(net.model_desc, i)
        shape = tuple(dims[0]["dims"])
        size = acl.mdl.get_output_size_by_index(net.model_desc, i)
        bytes_data = np.zeros(size // 4, dtype=np.float32).reshape(shape).tobytes()
        tensor_ptr = acl.util.bytes_to_ptr(bytes_data)
        buf = acl.mdl.get_dataset_buffer(net.load_output_dataset, i)
        assert acl.rt.memcpy(tensor_ptr, len(bytes_data), acl.get_data_buffer_addr(buf),
                             int(acl.get_data_buffer_size(buf)),
                             ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
        outs.append(np.frombuffer(bytes_data, dtype=np.float32).reshape(shape).copy())
    s, p = reference(x, y)
    assert np.array_equal(outs[0], s) and np.array_equal(outs[1], p)


def test_numpy_contiguous_to_ptr_of_a_transposed_image(net):
    """Older samples' fallback when bytes_to_ptr is missing:
    ptr, data_out = numpy_contiguous_to_ptr(arr), for an HWC->CHW view."""
    base = np.arange(6, dtype=np.float32).reshape(3, 2)
    x_view = base.T                      # (2, 3), not C-contiguous
    assert not x_view.flags["C_CONTIGUOUS"]
    ptr, data_out = acl.util.numpy_contiguous_to_ptr(x_view)
    assert data_out.flags["C_CONTIGUOUS"] and np.array_equal(data_out, x_view)
    assert ptr == acl.util.numpy_to_ptr(data_out)
    # A contiguous array comes back as itself, at its own address.
    y = np.ones((2, 3), np.float32) * 3
    ptr_y, same = acl.util.numpy_contiguous_to_ptr(y)
    assert same is y and ptr_y == acl.util.numpy_to_ptr(y)
    for i, p in enumerate((ptr, ptr_y)):
        assert acl.rt.memcpy(net.input_data[i]["buffer"], 24, p, 24,
                             ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS
    assert acl.mdl.execute(net.model_id, net.load_input_dataset,
                           net.load_output_dataset) == ACL_SUCCESS
    out = np.zeros((2, 3), np.float32)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(out), 24, net.output_data[1]["buffer"],
                         24, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
    assert np.array_equal(out, reference(np.ascontiguousarray(x_view), y)[1])
    with pytest.raises(TypeError):
        acl.util.numpy_contiguous_to_ptr(b"not an array")


def test_load_from_mem_as_acllite_load_type_1(om_path):
    n = SampleNet(om_path, from_mem=True)
    try:
        x = np.full((2, 3), 7, np.float32)
        for item in n.input_data:
            assert acl.rt.memcpy(item["buffer"], 24, acl.util.bytes_to_ptr(x.tobytes()),
                                 24, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS
        assert acl.mdl.execute(n.model_id, n.load_input_dataset,
                               n.load_output_dataset) == ACL_SUCCESS
        host, ret = acl.rt.malloc_host(24)
        assert ret == ACL_SUCCESS
        assert acl.rt.memcpy(host, 24, n.output_data[1]["buffer"], 24,
                             ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
        got = np.frombuffer(acl.util.ptr_to_bytes(host, 24), np.float32).reshape(2, 3)
        assert np.array_equal(got, x * x)
        assert acl.rt.free_host(host) == ACL_SUCCESS
    finally:
        n.release()


def test_execute_async_with_a_post_process_callback(net):
    """The callback samples: a start_thread report loop that sets the
    context and calls process_report(timeout) until told to stop,
    subscribe_report, execute_async + launch_callback(fn, [args], 1,
    stream) per frame, the callback copying outputs to malloc_host
    memory; then synchronize, unsubscribe, stop_thread."""
    context, ret = acl.rt.get_context()
    assert ret == ACL_SUCCESS and context
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    host_out, ret = acl.rt.malloc_host(24)
    assert ret == ACL_SUCCESS
    state = {"exit": False, "results": [], "threads": set()}

    def process_callback(args_list):
        ctx, timeout = args_list
        acl.rt.set_context(ctx)
        while True:
            acl.rt.process_report(timeout)
            if state["exit"]:
                break

    def call_post_process(other_args):
        state["threads"].add(threading.get_ident())
        ret = acl.rt.memcpy(host_out, 24, net.output_data[0]["buffer"], 24,
                            ACL_MEMCPY_DEVICE_TO_HOST)
        arr = np.copy(acl.util.ptr_to_numpy(host_out, (2, 3), NPY_FLOAT32))
        state["results"].append((other_args[1], ret, arr))

    # Without a subscribed thread the callback is refused.
    assert acl.rt.launch_callback(call_post_process, [0, -1], 1,
                                  stream) == ACL_ERROR_RT_STREAM_NO_CB_REG
    tid, ret = acl.util.start_thread(process_callback, [context, 50])
    assert ret == ACL_SUCCESS
    try:
        assert acl.rt.subscribe_report(tid, stream) == ACL_SUCCESS
        frames = [np.full((2, 3), float(k - 2), np.float32) for k in range(5)]
        for k, x in enumerate(frames):
            # The samples copy synchronously before each async execute;
            # the blocking callback keeps frame k's output until it ran.
            assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
            assert acl.rt.memcpy(net.input_data[0]["buffer"], 24,
                                 acl.util.bytes_to_ptr(x.tobytes()), 24,
                                 ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS
            assert acl.mdl.execute_async(net.model_id, net.load_input_dataset,
                                         net.load_output_dataset, stream) == ACL_SUCCESS
            assert acl.rt.launch_callback(call_post_process, ["frame", k], 1,
                                          stream) == ACL_SUCCESS
        assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
        assert acl.rt.unsubscribe_report(tid, stream) == ACL_SUCCESS
    finally:
        state["exit"] = True
        assert acl.util.stop_thread(tid) == ACL_SUCCESS
    assert [r[0] for r in state["results"]] == list(range(5))
    assert all(r[1] == ACL_SUCCESS for r in state["results"])
    for (k, _, arr), x in zip(state["results"], frames):
        assert np.array_equal(arr, reference(x, x)[0]), k
    assert state["threads"] == {tid}
    assert acl.rt.free_host(host_out) == ACL_SUCCESS
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS


def test_misuse_samples_hit(om_path):
    n = SampleNet(om_path)
    model_id = n.model_id
    # A dataset with one input too few: execute refuses it.
    short = acl.mdl.create_dataset()
    _, ret = acl.mdl.add_dataset_buffer(
        short, acl.mdl.get_dataset_buffer(n.load_input_dataset, 0))
    assert ret == ACL_SUCCESS
    assert acl.mdl.execute(model_id, short, n.load_output_dataset) == ACL_ERROR_INVALID_PARAM
    assert acl.mdl.destroy_dataset(short) == ACL_SUCCESS
    n.release()
    # After the release: the model id and the description are gone.
    assert acl.mdl.unload(model_id) == ACL_ERROR_INVALID_MODEL_ID
    assert acl.mdl.destroy_desc(n.model_desc) == ACL_ERROR_INVALID_PARAM
    assert acl.mdl.destroy_dataset(n.load_input_dataset) == ACL_ERROR_INVALID_PARAM
    # acllite's error path passes a dataset to destroy_data_buffer.
    ds = acl.mdl.create_dataset()
    assert acl.destroy_data_buffer(ds) == ACL_ERROR_INVALID_PARAM
    assert acl.mdl.destroy_dataset(ds) == ACL_SUCCESS
    assert acl.mdl.load_from_file(om_path + ".missing") == (0, ACL_ERROR_INVALID_FILE)
