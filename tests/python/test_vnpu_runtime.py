# SPDX-License-Identifier: MIT
# The high-level package (vnpu_runtime, seed 001's cann_runtime): a small
# PyTorch network exported to ONNX here, compiled by atc, run through
# Runtime/Model and compared with PyTorch; streams, futures, pinned
# memory, release, errors.
import subprocess

import numpy as np
import pytest

import acl
from conftest import atc_path

import cann_runtime
import vnpu_runtime
from vnpu_runtime import AclError, InferFuture, Model, Runtime, Stream

ACL_ERROR_INVALID_FILE = 100003
ACL_ERROR_RT_INVALID_DEVICEID = 107001


@pytest.fixture(scope="module")
def net():
    """(path of the .om, the PyTorch module): two inputs, two outputs."""
    torch = pytest.importorskip("torch")

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)
            self.fc = torch.nn.Linear(4 * 6 * 6, 5)

        def forward(self, img, shift):
            h = torch.relu(self.conv(img))
            logits = self.fc(h.flatten(1)) + shift
            return logits, torch.softmax(logits, 1)

    torch.manual_seed(15)
    return Net().eval(), torch


@pytest.fixture(scope="module")
def om(net, tmp_path_factory):
    module, torch = net
    d = tmp_path_factory.mktemp("hl")
    args = (torch.zeros(1, 3, 6, 6), torch.zeros(1, 5))
    torch.onnx.export(module, args, str(d / "net.onnx"), input_names=["img", "shift"],
                      output_names=["logits", "probs"], opset_version=13)
    subprocess.run([atc_path(), f"--model={d / 'net.onnx'}", "--framework=5",
                    f"--output={d / 'net'}", "--soc_version=Ascend310", "--log=error"],
                   check=True)
    return str(d / "net.om")


def torch_ref(net, img, shift):
    module, torch = net
    with torch.no_grad():
        a, b = module(torch.from_numpy(img), torch.from_numpy(shift))
    return {"logits": a.numpy(), "probs": b.numpy()}


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


def test_infer_matches_pytorch(rt, om, net):
    m = rt.load_model(om)
    for seed in range(3):
        x = inputs(seed)
        out = m.infer(x)
        assert sorted(out) == ["logits", "probs"]
        ref = torch_ref(net, x["img"], x["shift"])
        for k in ref:
            assert out[k].shape == ref[k].shape and out[k].dtype == np.float32
            np.testing.assert_allclose(out[k], ref[k], rtol=1e-4, atol=1e-5)
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
