# SPDX-License-Identifier: MIT
# vnpu_runtime's DeviceTensor and ops (aclnn through acl._nn) against
# numpy references written to PyTorch's definitions (torch itself takes
# most of a minute to import in the guest); misuse, memory, workspace
# and executor reuse.
import gc
import math

import acl
import numpy as np
import pytest

from vnpu_runtime import AclError, DeviceTensor, Runtime, ops
from vnpu_runtime import tensor as tensor_mod

ACLNN_ERR_PARAM_INVALID = 161002

rng = np.random.default_rng(15)


@pytest.fixture(scope="module")
def rt():
    r = Runtime(0)
    yield r
    r.close()
    # Back to the session's default context of device 0 (conftest.py).
    assert acl.rt.set_device(0) == 0
    assert acl.rt.reset_device(0) == 0


def rand(*shape, dtype=np.float32):
    return rng.standard_normal(shape).astype(dtype)


def dev(a, rt):
    return DeviceTensor.from_numpy(a, runtime=rt)


# ------------------------------------------------------- references --
# numpy's SIMD float64 tanh gives wrong values (even -inf) under the
# guest's emulated CPU; the C library's tanh is right.
_tanh = np.vectorize(math.tanh, otypes=[np.float64])


def ref_gelu(x):
    # aclnnGelu is the tanh approximation (CANN's aclnnGelu.md)
    return 0.5 * x * (1 + _tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def ref_softmax(x, dim):
    e = np.exp(x - x.max(dim, keepdims=True))
    return e / e.sum(dim, keepdims=True)


def ref_layer_norm(x, ns, w=None, b=None, eps=1e-5):
    axes = tuple(range(x.ndim - len(ns), x.ndim))
    m = x.mean(axes, keepdims=True)
    v = ((x - m) ** 2).mean(axes, keepdims=True)
    y = (x - m) / np.sqrt(v + eps)
    return y * (1 if w is None else w) + (0 if b is None else b)


def ref_conv2d(x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
    n, c, h, wd = x.shape
    co, cg, kh, kw = w.shape
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (padding, padding), (padding, padding)))
    ho = (h + 2 * padding - dilation * (kh - 1) - 1) // stride + 1
    wo = (wd + 2 * padding - dilation * (kw - 1) - 1) // stride + 1
    out = np.zeros((n, co, ho, wo))
    per = co // groups
    for g in range(groups):
        xs = xp[:, g * cg:(g + 1) * cg]
        for i in range(kh):
            for j in range(kw):
                patch = xs[:, :, i * dilation:i * dilation + stride * (ho - 1) + 1:stride,
                           j * dilation:j * dilation + stride * (wo - 1) + 1:stride]
                out[:, g * per:(g + 1) * per] += np.einsum(
                    "nchw,oc->nohw", patch, w[g * per:(g + 1) * per, :, i, j])
    if b is not None:
        out += b.reshape(1, -1, 1, 1)
    return out


def ref_pool(x, k, stride, padding, kind, ceil_mode=False, count_include_pad=True):
    h, w = x.shape[-2:]

    def olen(n):
        span = n + 2 * padding - k
        o = (-(-span // stride) if ceil_mode else span // stride) + 1
        return o - 1 if ceil_mode and (o - 1) * stride >= n + padding else o
    ho, wo = olen(h), olen(w)
    out = np.zeros(x.shape[:-2] + (ho, wo))
    for i in range(ho):
        for j in range(wo):
            r0, c0 = i * stride - padding, j * stride - padding
            r1, c1 = min(r0 + k, h + padding), min(c0 + k, w + padding)
            win = x[..., max(r0, 0):min(r1, h), max(c0, 0):min(c1, w)]
            if kind == "max":
                out[..., i, j] = win.max((-2, -1))
            else:
                cnt = (r1 - r0) * (c1 - c0) if count_include_pad else win.shape[-2] * win.shape[-1]
                out[..., i, j] = win.sum((-2, -1)) / cnt
    return out


def close(got, want, dtype=np.float32):
    tol = 1e-5 if dtype == np.float32 else 2e-3
    np.testing.assert_allclose(got, want, rtol=tol * 10, atol=tol * 10)


# ------------------------------------------------------------ DeviceTensor --
def test_round_trip_and_properties(rt):
    a = rand(3, 5)
    with dev(a, rt) as t:
        assert t.shape == (3, 5) and t.dtype == np.float32
        assert t.nbytes == 60 and t.strides == (5, 1) and t.is_contiguous()
        np.testing.assert_array_equal(t.to_numpy(), a)
    assert t.freed
    with pytest.raises(ValueError):
        t.to_numpy()


def test_from_numpy_on_stream_and_empty(rt):
    s = rt.create_stream()
    a = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    t = DeviceTensor.from_numpy(a[:, ::-1], stream=s, runtime=rt)   # copied contiguous
    np.testing.assert_array_equal(t.to_numpy(stream=s), a[:, ::-1])
    e = DeviceTensor.empty((4, 0), np.float16, runtime=rt)
    assert e.to_numpy().shape == (4, 0) and e.nbytes == 0
    t.free()
    e.free()
    s.close()


def test_views_read_back(rt):
    a = rand(4, 6)
    t = dev(a, rt)
    np.testing.assert_array_equal(t.t().to_numpy(), a.T)
    np.testing.assert_array_equal(t[1:, ::2].to_numpy(), a[1:, ::2])
    np.testing.assert_array_equal(t[2].to_numpy(), a[2])
    assert not t.t().is_contiguous() and t.t().strides == (1, 6)
    np.testing.assert_array_equal(t.reshape(2, -1).to_numpy(), a.reshape(2, -1))
    with pytest.raises(ValueError):
        t.t().reshape(24)
    c = t.t().contiguous()
    assert c.is_contiguous()
    np.testing.assert_array_equal(c.to_numpy(), a.T)
    b = dev(rand(2, 3, 4), rt)
    np.testing.assert_array_equal(b.permute(2, 0, 1).to_numpy(),
                                  b.to_numpy().transpose(2, 0, 1))


def test_unsupported_dtype_and_bad_shapes(rt):
    with pytest.raises(TypeError):
        DeviceTensor.from_numpy(np.zeros(3, np.complex64), runtime=rt)
    with pytest.raises(TypeError):
        DeviceTensor.empty((2,), "U3", runtime=rt)
    with pytest.raises(ValueError):
        DeviceTensor.empty((2, -1), runtime=rt)
    with pytest.raises(ValueError):
        dev(rand(2, 2), rt).permute(0, 0)


# ------------------------------------------------------------ operators --
BINARY = [("add", ops.add, np.add), ("sub", ops.sub, np.subtract),
          ("mul", ops.mul, np.multiply), ("div", ops.div, np.divide),
          ("maximum", ops.maximum, np.maximum), ("minimum", ops.minimum, np.minimum)]


@pytest.mark.parametrize("name,op,ref", BINARY, ids=[b[0] for b in BINARY])
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_binary_broadcast(rt, name, op, ref, dtype):
    a, b = rand(3, 4, dtype=dtype), rand(4, dtype=dtype)
    if name == "div":
        b = np.where(np.abs(b) < 0.5, 1.5, b).astype(dtype)
    out = op(dev(a, rt), dev(b, rt))
    assert out.dtype == dtype and out.shape == (3, 4)
    close(out.to_numpy(), ref(a, b), dtype)


def test_add_alpha_scalar_and_out(rt):
    a, b = rand(5), rand(5)
    ta, tb = dev(a, rt), dev(b, rt)
    close(ops.add(ta, tb, alpha=2.5).to_numpy(), a + 2.5 * b)
    close(ops.sub(ta, tb, alpha=0.5).to_numpy(), a - 0.5 * b)
    close(ops.add(ta, 3.0).to_numpy(), a + 3)
    close(ops.mul(ta, -2.0).to_numpy(), a * -2)
    close(ops.div(ta, 4).to_numpy(), a / 4)
    out = DeviceTensor.empty(5, runtime=rt)
    assert ops.add(ta, tb, out=out) is out
    close(out.to_numpy(), a + b)
    i = dev(np.arange(6, dtype=np.int32), rt)
    np.testing.assert_array_equal(ops.add(i, i).to_numpy(), np.arange(6) * 2)
    assert ops.div(i, dev(np.full(6, 2, np.int32), rt)).dtype == np.float32


def test_non_contiguous_inputs(rt):
    a, b = rand(4, 3), rand(3, 4)
    ta, tb = dev(a, rt), dev(b, rt)
    close(ops.add(ta.t(), tb).to_numpy(), a.T + b)
    close(ops.relu(tb[:, 1::2]).to_numpy(), np.maximum(b[:, 1::2], 0))
    close(ops.matmul(ta.t(), tb.t()).to_numpy(), a.T @ b.T)


UNARY = [("relu", ops.relu, lambda x: np.maximum(x, 0)), ("gelu", ops.gelu, ref_gelu),
         ("silu", ops.silu, lambda x: x / (1 + np.exp(-x))),
         ("sigmoid", ops.sigmoid, lambda x: 1 / (1 + np.exp(-x))),
         ("tanh", ops.tanh, _tanh), ("exp", ops.exp, np.exp),
         ("neg", ops.neg, np.negative), ("abs", ops.abs, np.abs),
         ("leaky_relu", ops.leaky_relu, lambda x: np.where(x > 0, x, 0.01 * x))]


@pytest.mark.parametrize("name,op,ref", UNARY, ids=[u[0] for u in UNARY])
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_unary(rt, name, op, ref, dtype):
    x = rand(2, 33, dtype=dtype)
    got = op(dev(x, rt)).to_numpy()
    close(got, ref(x.astype(np.float64)), dtype)


def test_log_sqrt(rt):
    x = np.abs(rand(17)) + 0.1
    close(ops.log(dev(x, rt)).to_numpy(), np.log(x))
    close(ops.sqrt(dev(x, rt)).to_numpy(), np.sqrt(x))


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_matmul(rt, dtype):
    a, b = rand(2, 5, 7, dtype=dtype), rand(7, 3, dtype=dtype)
    out = ops.matmul(dev(a, rt), dev(b, rt))
    assert out.shape == (2, 5, 3)
    close(out.to_numpy(), a.astype(np.float64) @ b.astype(np.float64), dtype)


def test_conv2d(rt):
    x, w, bias = rand(2, 3, 9, 8), rand(4, 3, 3, 3), rand(4)
    got = ops.conv2d(dev(x, rt), dev(w, rt), dev(bias, rt), stride=2, padding=1)
    want = ref_conv2d(x, w, bias, stride=2, padding=1)
    assert got.shape == want.shape == (2, 4, 5, 4)
    close(got.to_numpy(), want)
    wg = rand(6, 1, 3, 3)
    xg = rand(1, 6, 5, 5)
    got = ops.conv2d(dev(xg, rt), dev(wg, rt), groups=6, dilation=2, padding=2)
    close(got.to_numpy(), ref_conv2d(xg, wg, groups=6, dilation=2, padding=2))


@pytest.mark.parametrize("dim", [-1, 0])
def test_softmax(rt, dim):
    x = rand(4, 10)
    close(ops.softmax(dev(x, rt), dim).to_numpy(), ref_softmax(x, dim))
    close(ops.log_softmax(dev(x, rt), dim).to_numpy(), np.log(ref_softmax(x, dim)))


def test_softmax_float16(rt):
    x = rand(3, 16, dtype=np.float16)
    close(ops.softmax(dev(x, rt)).to_numpy(), ref_softmax(x.astype(np.float64), -1),
          np.float16)


def test_layer_norm(rt):
    x, w, b = rand(2, 3, 8), rand(8), rand(8)
    got = ops.layer_norm(dev(x, rt), (8,), dev(w, rt), dev(b, rt), eps=1e-5)
    close(got.to_numpy(), ref_layer_norm(x, (8,), w, b))
    got = ops.layer_norm(dev(x, rt), (3, 8))
    close(got.to_numpy(), ref_layer_norm(x, (3, 8)))


def test_pools(rt):
    x = rand(2, 3, 9, 9)
    close(ops.max_pool2d(dev(x, rt), 3, stride=2, padding=1).to_numpy(),
          ref_pool(x, 3, 2, 1, "max"))
    got = ops.max_pool2d(dev(x, rt), 2, ceil_mode=True)
    assert got.shape == (2, 3, 5, 5)
    close(got.to_numpy(), ref_pool(x, 2, 2, 0, "max", ceil_mode=True))
    close(ops.avg_pool2d(dev(x, rt), 3, stride=2, padding=1).to_numpy(),
          ref_pool(x, 3, 2, 1, "avg"))
    close(ops.avg_pool2d(dev(x, rt), 3, stride=2, padding=1,
                         count_include_pad=False).to_numpy(),
          ref_pool(x, 3, 2, 1, "avg", count_include_pad=False))


def test_reductions(rt):
    x = rand(3, 4, 5)
    t = dev(x, rt)
    close(ops.sum(t).to_numpy(), x.sum(), np.float16)
    close(ops.sum(t, dim=1).to_numpy(), x.sum(1))
    close(ops.mean(t, dim=(0, 2), keepdim=True).to_numpy(), x.mean((0, 2), keepdims=True))
    assert ops.mean(t, dim=-1).shape == (3, 4)


# ------------------------------------------------------------ errors --
def test_shape_mismatch_is_acl_error(rt):
    a, b = dev(rand(3, 4), rt), dev(rand(5), rt)
    with pytest.raises(ValueError):       # caught before any allocation
        ops.add(a, b)
    out = DeviceTensor.empty((3, 4), runtime=rt)
    with pytest.raises(AclError) as e:
        ops.add(a, b, out=out)
    assert e.value.code == ACLNN_ERR_PARAM_INVALID
    assert e.value.func == "aclnnAdd"
    with pytest.raises(AclError) as e:
        ops.matmul(dev(rand(2, 3), rt), dev(rand(4, 2), rt))
    assert e.value.code == ACLNN_ERR_PARAM_INVALID
    with pytest.raises(AclError) as e:
        ops.relu(a, out=DeviceTensor.empty((4, 3), runtime=rt))
    assert e.value.code == ACLNN_ERR_PARAM_INVALID


def test_wrong_dtype(rt):
    i = dev(np.arange(6, dtype=np.int32).reshape(2, 3), rt)
    with pytest.raises(AclError) as e:          # matmul takes float dtypes only
        ops.matmul(i, i.t())
    assert e.value.code == ACLNN_ERR_PARAM_INVALID
    with pytest.raises(TypeError):
        ops.add(i, "x")
    with pytest.raises(TypeError):
        ops.relu(np.zeros(3))


def test_freed_and_closed_misuse(rt):
    a = dev(rand(4), rt)
    v = a[1:]
    a.free()
    with pytest.raises(ValueError):
        ops.relu(a)
    with pytest.raises(ValueError):
        ops.relu(v)                     # a view of freed memory
    other = Runtime(0)
    b = DeviceTensor.from_numpy(rand(4), runtime=other)
    c = dev(rand(4), rt)
    with pytest.raises(ValueError):
        ops.add(c, b)                   # tensors of two runtimes
    other.close()
    assert b.freed
    with pytest.raises(ValueError):
        b.to_numpy()
    # other's context was the thread's current one: make rt's current again.
    assert acl.rt.set_context(rt._ctx) == 0


def test_binding_misuse(rt):
    nn = acl._nn
    ws = nn.Workspace()
    s = rt.default_stream.handle
    t = nn.Tensor((4,), None, 0, acl.ACL_FLOAT, 0)
    add = nn.op_id("add")
    with pytest.raises(TypeError):
        nn.run(add, s, ws, t, t, 1.0)               # one argument short
    with pytest.raises(TypeError):
        nn.run(add, s, ws, t, 5, 1.0, t)            # an int for a tensor
    with pytest.raises(TypeError):
        nn.run(add, s, "ws", t, t, 1.0, t)
    with pytest.raises(ValueError):
        nn.run(10 ** 6, s, ws)                      # no such operator
    with pytest.raises(ValueError):
        nn.op_id("no_such_op")
    # A tensor without memory is libascendcl's to refuse: an error code.
    assert nn.run(add, s, ws, t, t, 1.0, t) == nn.ACLNN_ERR_PARAM_NULLPTR
    t.destroy()
    assert not t.alive
    with pytest.raises(ValueError):
        nn.run(add, s, ws, t, t, 1.0, t)
    with pytest.raises(ValueError):                 # a host address
        nn.Tensor((4,), None, 0, acl.ACL_FLOAT, 0x1000)
    with pytest.raises(ValueError):
        nn.Tensor((4, -1), None, 0, acl.ACL_FLOAT, 0)
    with pytest.raises(ValueError):
        nn.Tensor((4,), (1, 1), 0, acl.ACL_FLOAT, 0)
    with pytest.raises(ValueError):
        nn.Tensor((2 ** 40, 2 ** 40), (2 ** 40, 2 ** 40), 0, acl.ACL_FLOAT, 0)
    with pytest.raises(ValueError):
        nn.Tensor((4,), None, 0, 12345, 0)          # not an aclDataType
    with pytest.raises(ValueError):
        nn.Tensor(tuple([1] * 9), None, 0, acl.ACL_FLOAT, 0)


# ------------------------------------------------------------ resources --
def test_no_leak_and_workspace_reuse(rt):
    x = dev(rand(2, 3, 8, 8), rt)
    w = dev(rand(4, 3, 3, 3), rt)
    a, b = dev(rand(64), rt), dev(rand(64), rt)
    s = rt.create_stream()
    ws = ops.workspace(s)
    assert ws.allocs == 0 and ws.size == 0

    def step():
        y = ops.conv2d(x, w, padding=1, stream=s)
        z = ops.softmax(ops.relu(y, stream=s), 1, stream=s)
        m = ops.mean(z, dim=(2, 3), stream=s)
        c = ops.add(ops.mul(a, b, stream=s), 1.5, stream=s)
        del c
        return m.to_numpy(stream=s)

    first = step()
    gc.collect()        # tensors earlier tests' tracebacks kept alive go now
    free0, _ = rt.mem_info()
    live0 = tensor_mod.live_allocations()
    allocs = ws.allocs
    for _ in range(10):
        np.testing.assert_array_equal(step(), first)
    gc.collect()
    assert tensor_mod.live_allocations() == live0
    assert rt.mem_info()[0] == free0
    assert ws.allocs == allocs          # no growth after the first round
    s.close()
    assert ws.size == 0                 # freed with its stream


def test_workspace_grows_once_per_need(rt):
    s = rt.create_stream()
    ws = ops.workspace(s)
    small = dev(rand(8).astype(np.float16), rt)
    big = dev(rand(4096).astype(np.float16), rt)
    f32 = dev(rand(4096), rt)
    for _ in range(3):
        ops.add(small, small, stream=s)             # no workspace needed
    assert ws.allocs == 0
    for _ in range(3):
        ops.add(big, f32, stream=s)                 # a cast into the workspace
    assert ws.allocs == 1 and ws.size >= 4096 * 4
    for _ in range(3):
        ops.add(small, dev(rand(8), rt), stream=s)  # fits: reused
    assert ws.allocs == 1
    s.synchronize()
    s.close()


def test_many_calls_one_sync(rt):
    a = dev(np.ones(16, np.float32), rt)
    out = DeviceTensor.empty(16, runtime=rt)
    acc = dev(np.zeros(16, np.float32), rt)
    for _ in range(50):
        ops.add(acc, a, out=out)
        ops.add(out, 0.0, out=acc)
    np.testing.assert_array_equal(acc.to_numpy(), np.full(16, 50, np.float32))


def test_cann_runtime_name(rt):
    import cann_runtime
    assert cann_runtime.DeviceTensor is DeviceTensor and cann_runtime.ops is ops
    assert "conv2d" not in ops.available() and "convolution" in ops.available()


def test_executor_cache(rt):
    a = dev(np.ones(16, np.float32), rt)
    b = dev(np.full(16, 2, np.float32), rt)
    o1, o2 = DeviceTensor.empty(16, runtime=rt), DeviceTensor.empty(16, runtime=rt)
    h0, m0 = acl._nn.cache_info()
    for _ in range(5):
        ops.add(a, b, out=o1)
    h1, m1 = acl._nn.cache_info()
    assert (h1 - h0, m1 - m0) == (4, 1)     # phase 1 once, then reused
    ops.add(a, b, out=o2)                   # another output: a new executor
    ops.add(b, b, out=o1)
    assert acl._nn.cache_info()[1] - m1 == 2
    np.testing.assert_array_equal(o1.to_numpy(), np.full(16, 4, np.float32))
    np.testing.assert_array_equal(o2.to_numpy(), np.full(16, 3, np.float32))
    o1.free()
    o3 = DeviceTensor.empty(16, runtime=rt)  # maybe o1's memory, never its executor
    ops.add(b, b, out=o3)
    np.testing.assert_array_equal(o3.to_numpy(), np.full(16, 4, np.float32))
    ops.add(a, b, alpha=3, out=o3)          # another scalar: another key
    np.testing.assert_array_equal(o3.to_numpy(), np.full(16, 7, np.float32))


def test_threads_on_two_streams(rt):
    # Both threads reuse the add executor slot; one launching (GIL
    # released) never has its executor replaced by the other.
    import threading
    errors, results = [], {}

    def work(k):
        try:
            s = rt.create_stream()
            a = dev(np.full(64, k, np.float32), rt)
            out = DeviceTensor.empty(64, runtime=rt)
            acc = dev(np.zeros(64, np.float32), rt)
            for _ in range(40):
                ops.add(acc, a, out=out, stream=s)
                ops.add(out, 0.0, out=acc, stream=s)
            results[k] = acc.to_numpy(stream=s)
            s.close()
        except Exception as e:      # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for k in (1, 2):
        np.testing.assert_array_equal(results[k], np.full(64, 40 * k, np.float32))
