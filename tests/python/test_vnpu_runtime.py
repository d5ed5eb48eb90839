# SPDX-License-Identifier: MIT
# The high-level package (vnpu_runtime, seed 001's cann_runtime): a small
# PyTorch network (exported to ONNX on the host by make_hl_net.py, with
# PyTorch's outputs) compiled by atc here, run through Runtime/Model and
# compared with PyTorch; streams, futures, pinned memory, release, errors.
import subprocess

import numpy as np
import pytest

import acl
from conftest import BUILD, atc_path

import cann_runtime
import vnpu_runtime
from vnpu_runtime import AclError, InferFuture, Model, Runtime, Stream

ACL_ERROR_INVALID_FILE = 100003
ACL_ERROR_RT_INVALID_DEVICEID = 107001


NET_DIR = BUILD / "python-tests"    # tests/python/make_hl_net.py, on the host


def helper_net(path):
    """The same graph with onnx.helper and random weights: what the tests
    that need no PyTorch reference use when the host had no torch."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(5)
    w = {"w": rng.standard_normal((4, 3, 3, 3), np.float32), "b": np.zeros(4, np.float32),
         "fw": rng.standard_normal((5, 144), np.float32) * 0.1,
         "fb": np.zeros(5, np.float32)}
    nodes = [helper.make_node("Conv", ["img", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"]),
             helper.make_node("Flatten", ["r"], ["f"]),
             helper.make_node("Gemm", ["f", "fw", "fb"], ["g"], transB=1),
             helper.make_node("Add", ["g", "shift"], ["logits"]),
             helper.make_node("Softmax", ["logits"], ["probs"], axis=1)]
    graph = helper.make_graph(
        nodes, "hl_net",
        [helper.make_tensor_value_info("img", TensorProto.FLOAT, [1, 3, 6, 6]),
         helper.make_tensor_value_info("shift", TensorProto.FLOAT, [1, 5])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 5]),
         helper.make_tensor_value_info("probs", TensorProto.FLOAT, [1, 5])],
        [numpy_helper.from_array(v, k) for k, v in w.items()])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)


@pytest.fixture(scope="module")
def om(tmp_path_factory):
    """The network compiled by atc here: PyTorch's export when make made it."""
    d = tmp_path_factory.mktemp("hl")
    src = NET_DIR / "hl_net.onnx"
    if not src.exists():
        src = d / "helper.onnx"
        helper_net(str(src))
    subprocess.run([atc_path(), f"--model={src}", "--framework=5",
                    f"--output={d / 'net'}", "--soc_version=Ascend310", "--log=error"],
                   check=True, stdout=subprocess.DEVNULL)
    return str(d / "net.om")


def inputs(seed):
    rng = np.random.default_rng(seed)
    return {"img": rng.standard_normal((1, 3, 6, 6), np.float32),
            "shift": rng.standard_normal((1, 5), np.float32)}


@pytest.fixture
def rt():
    with Runtime(0) as r:
        yield r


def test_names_and_lifecycle():
    assert cann_runtime.Runtime is Runtime and cann_runtime.AclError is AclError
    prev, ret = acl.rt.get_context()
    assert ret == 0
    with Runtime(0) as r:
        assert not r.closed and r.device_id == 0
        s = r.create_stream()
        assert isinstance(s, Stream) and s.handle != 0
        s2 = Runtime.create_stream()            # seed 001: on the newest runtime
        assert s2._rt is r
        s2.close()
        assert s2.closed
        s2.close()                              # idempotent
        assert Runtime.current() is r
    assert r.closed and s.closed
    r.close()                                   # idempotent
    with pytest.raises(ValueError, match="closed"):
        r.create_stream()
    with pytest.raises(ValueError, match="closed"):
        r.load_model("x.om")
    # The thread's context from before the Runtime is current again.
    assert acl.rt.get_context() == (prev, 0)
    ptr, ret = acl.rt.malloc(64)
    assert ret == 0 and acl.rt.free(ptr) == 0


def test_describe(rt, om):
    with rt.load_model(om) as m:
        assert isinstance(m, Model)
        assert m.input_names == ["img", "shift"]
        assert m.output_names == ["logits", "probs"]
        assert m.inputs[0].shape == (1, 3, 6, 6) and m.inputs[0].dtype == np.float32
        assert m.inputs[0].nbytes == 4 * 108
        assert [o.shape for o in m.outputs] == [(1, 5), (1, 5)]
        assert not m.closed
    assert m.closed
    with pytest.raises(ValueError, match="closed"):
        m.infer(inputs(0))


def test_infer_matches_pytorch(rt, om):
    ref_path = NET_DIR / "hl_net.ref.npz"
    if not ref_path.exists():
        pytest.skip("no %s: the host had no torch when make ran" % ref_path)
    ref = np.load(ref_path)
    m = rt.load_model(om)
    for i in range(3):
        out = m.infer({"img": ref["img%d" % i], "shift": ref["shift%d" % i]})
        assert sorted(out) == ["logits", "probs"]
        for k in ("logits", "probs"):
            want = ref["%s%d" % (k, i)]
            assert out[k].shape == want.shape and out[k].dtype == np.float32
            np.testing.assert_allclose(out[k], want, rtol=1e-4, atol=1e-5)


def test_input_forms(rt, om):
    m = rt.load_model(om)
    # A list in input order, seed 001's runtime.infer(model, ...) and m(...).
    x = inputs(7)
    a = m.infer([x["img"], x["shift"]])
    b = rt.infer(m, x)
    assert np.array_equal(rt.infer(x)["probs"], b["probs"])   # the one model
    c = m(x)
    for k in a:
        assert np.array_equal(a[k], b[k]) and np.array_equal(a[k], c[k])
    # Non-contiguous input and a same-kind dtype conversion are accepted.
    img = np.asfortranarray(x["img"].astype(np.float64))
    d = m.infer({"img": img, "shift": x["shift"]})
    np.testing.assert_allclose(d["logits"], a["logits"], rtol=1e-6, atol=1e-6)


def test_infer_async_four_streams_matches_sync(rt, om):
    m = rt.load_model(om)
    xs = [inputs(100 + i) for i in range(12)]
    sync = [m.infer(x) for x in xs]
    streams = [Runtime.create_stream() for _ in range(4)]
    futures = [m.infer_async(x, stream=streams[i % 4]) for i, x in enumerate(xs)]
    assert all(isinstance(f, InferFuture) for f in futures)
    results = [f.get() for f in futures]
    for got, want in zip(results, sync):
        for k in want:
            assert np.array_equal(got[k], want[k])
    assert all(f.done() for f in futures)
    assert futures[0].get() is results[0]       # get() again: the same result
    # Seed 001's spelling, and the default stream.
    f = rt.infer_async(m, xs[0], stream=streams[1])
    g = m.infer_async(xs[1])
    assert np.array_equal(f.get()["probs"], sync[0]["probs"])
    assert np.array_equal(g.result()["probs"], sync[1]["probs"])
    # done() turns true without get(): poll until the stream finishes.
    h = m.infer_async(xs[2], stream=streams[2])
    streams[2].synchronize()
    assert h.done() and np.array_equal(h.get()["logits"], sync[2]["logits"])


def test_close_finishes_pending_requests(om):
    r = Runtime(0)
    m = r.load_model(om)
    x = inputs(3)
    want = m.infer(x)
    s = r.create_stream()
    futs = [m.infer_async(x, stream=s) for _ in range(3)]
    r.close()                                   # closes m and s too
    assert m.closed and s.closed
    for f in futs:
        assert f.done() and np.array_equal(f.get()["logits"], want["logits"])


def test_pinned_memory(rt, om):
    buf = rt.allocate_pinned(1024)
    assert buf.dtype == np.uint8 and buf.shape == (1024,) and not buf.any()
    buf[:] = np.arange(1024) % 251
    assert int(buf[1000]) == 1000 % 251
    # The memory is aclrtMallocHost's: the device copies into it.
    dev, ret = acl.rt.malloc(1024)
    assert ret == 0
    assert acl.rt.memcpy(dev, 1024, buf, 1024, acl.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    back = rt.allocate_pinned((16, 16), np.float32)
    assert back.shape == (16, 16) and back.dtype == np.float32 and back.flags.c_contiguous
    assert acl.rt.memcpy(back, 1024, dev, 1024, acl.ACL_MEMCPY_DEVICE_TO_HOST) == 0
    assert back.tobytes() == buf.tobytes()
    assert acl.rt.free(dev) == 0
    with pytest.raises(ValueError):
        rt.allocate_pinned(-1)
    with pytest.raises(ValueError):
        rt.allocate_pinned((2, -3), np.float32)

    m = rt.load_model(om)
    x = inputs(11)
    want = m.infer(x)
    # Pinned inputs are read in place; seed 001 passes raw pinned bytes.
    img = rt.allocate_pinned((1, 3, 6, 6), np.float32)
    img[...] = x["img"]
    raw = rt.allocate_pinned(m.inputs[1].nbytes)
    raw[:] = np.frombuffer(x["shift"].tobytes(), np.uint8)
    got = m.infer_async({"img": img, "shift": raw}).get()
    assert np.array_equal(got["logits"], want["logits"])


def test_pinned_array_outlives_runtime():
    # Device 1 when there is one: nothing else holds it, so only the
    # array's own reference keeps its memory mapped after close().
    dev = 1 if acl.rt.get_device_count()[0] > 1 else 0
    with Runtime(dev) as r:
        a = r.allocate_pinned((4,), np.int32)
        b = a[1:]                               # a view keeps the block too
        a[:] = [1, 2, 3, 4]
    del a
    b += 1
    assert b.tolist() == [3, 4, 5]
    del b


def _device_free(dev):
    """Device dev's free memory, read with a set_device of its own."""
    prev, _ = acl.rt.get_context()
    assert acl.rt.set_device(dev) == 0
    free, _, ret = acl.rt.get_mem_info(acl.ACL_HBM_MEM)
    assert ret == 0
    assert acl.rt.reset_device(dev) == 0
    assert acl.rt.set_context(prev) == 0
    return free


def test_release_leaves_no_device_memory(om):
    if acl.rt.get_device_count()[0] < 2:
        pytest.skip("needs device 1 (num_devices >= 2)")
    before = _device_free(1)
    with Runtime(1) as r:
        used = []
        for _ in range(2):
            with r.load_model(om) as m:
                s = r.create_stream()
                futs = [m.infer_async(inputs(i), stream=s) for i in range(3)]
                [f.get() for f in futs]
                pin = r.allocate_pinned(4096)
                used.append(r.mem_info()[0])
            s.close()
            del pin
        assert used[0] < before                  # the model took device memory
        assert used[1] == used[0]               # the second round reused it
    assert _device_free(1) == before


def test_errors(rt, om):
    with pytest.raises(AclError) as e:
        rt.load_model("/nonexistent.om")
    assert e.value.code == ACL_ERROR_INVALID_FILE
    assert e.value.func == "acl.mdl.load_from_file"
    assert "100003" in str(e.value)
    with pytest.raises(AclError) as e:
        Runtime(99)
    assert e.value.code == ACL_ERROR_RT_INVALID_DEVICEID
    assert e.value.func == "acl.rt.set_device"
    with pytest.raises(TypeError):
        Runtime("0")
    with pytest.raises(ValueError, match="exactly one loaded model"):
        rt.infer(inputs(0))
    m = rt.load_model(om)
    x = inputs(0)
    with pytest.raises(ValueError, match="missing"):
        m.infer({"img": x["img"]})
    with pytest.raises(ValueError, match="unknown"):
        m.infer(dict(x, extra=x["shift"]))
    with pytest.raises(ValueError, match="3 inputs given"):
        m.infer([x["img"], x["shift"], x["shift"]])
    with pytest.raises(ValueError, match="shape"):
        m.infer({"img": np.zeros((1, 3, 6, 5), np.float32), "shift": x["shift"]})
    with pytest.raises(TypeError, match="cannot become"):
        m.infer({"img": x["img"].astype(np.complex64), "shift": x["shift"]})
    with pytest.raises(TypeError, match="Stream"):
        m.infer_async(x, stream=12345)
    with Runtime(0) as other:
        foreign = other.create_stream()
        with pytest.raises(ValueError, match="another runtime"):
            m.infer_async(x, stream=foreign)
    # The model still works after every refusal.
    assert m.infer(x)["probs"].shape == (1, 5)


def test_package_exports():
    assert set(vnpu_runtime.__all__) >= {"AclError", "InferFuture", "Model", "Runtime",
                                         "Stream", "TensorInfo"}


def test_unload_after_the_stream_is_gone(om):
    """The acl.finalize() hang of Documentation/python.md: a model last run
    on a stream that was destroyed, then a new stream (which gets the old
    timeline's syncobj handle back, at point 0): unloading waited for the
    old job's point on the new timeline, forever."""
    import threading
    model_id, ret = acl.mdl.load_from_file(om)
    assert ret == 0
    desc = acl.mdl.create_desc()
    assert acl.mdl.get_desc(desc, model_id) == 0
    sets, ptrs = [], []
    for n, size_of in ((2, acl.mdl.get_input_size_by_index),
                       (2, acl.mdl.get_output_size_by_index)):
        ds = acl.mdl.create_dataset()
        for i in range(n):
            ptr, ret = acl.rt.malloc(size_of(desc, i))
            assert ret == 0
            ptrs.append(ptr)
            acl.mdl.add_dataset_buffer(ds, acl.create_data_buffer(ptr, size_of(desc, i)))
        sets.append(ds)
    s, _ = acl.rt.create_stream()
    for _ in range(3):
        assert acl.mdl.execute_async(model_id, sets[0], sets[1], s) == 0
    assert acl.rt.synchronize_stream(s) == 0
    assert acl.rt.destroy_stream(s) == 0
    s2, _ = acl.rt.create_stream()
    done = []
    t = threading.Thread(target=lambda: done.append(acl.mdl.unload(model_id)), daemon=True)
    t.start()
    t.join(30)
    assert done == [0], "acl.mdl.unload did not return"
    assert acl.rt.destroy_stream(s2) == 0
    for ds in sets:
        for i in range(acl.mdl.get_dataset_num_buffers(ds)):
            acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(ds, i))
        acl.mdl.destroy_dataset(ds)
    for p in ptrs:
        assert acl.rt.free(p) == 0
    acl.mdl.destroy_desc(desc)
