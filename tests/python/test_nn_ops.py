# SPDX-License-Identifier: MIT
# vnpu_runtime's DeviceTensor and ops (aclnn through acl._nn) against
# PyTorch's CPU results; misuse, memory and workspace reuse.
import acl
import numpy as np
import pytest
import torch
import torch.nn.functional as F

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


UNARY = [("relu", ops.relu, F.relu), ("gelu", ops.gelu, F.gelu),
         ("silu", ops.silu, F.silu), ("sigmoid", ops.sigmoid, torch.sigmoid),
         ("tanh", ops.tanh, torch.tanh), ("exp", ops.exp, torch.exp),
         ("neg", ops.neg, torch.neg), ("abs", ops.abs, torch.abs),
         ("leaky_relu", ops.leaky_relu, F.leaky_relu)]


@pytest.mark.parametrize("name,op,ref", UNARY, ids=[u[0] for u in UNARY])
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_unary(rt, name, op, ref, dtype):
    x = rand(2, 33, dtype=dtype)
    got = op(dev(x, rt)).to_numpy()
    want = ref(torch.from_numpy(x.astype(np.float32))).numpy()
    close(got, want, dtype)


def test_log_sqrt(rt):
    x = np.abs(rand(17)) + 0.1
    close(ops.log(dev(x, rt)).to_numpy(), np.log(x))
    close(ops.sqrt(dev(x, rt)).to_numpy(), np.sqrt(x))


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_matmul(rt, dtype):
    a, b = rand(2, 5, 7, dtype=dtype), rand(7, 3, dtype=dtype)
    out = ops.matmul(dev(a, rt), dev(b, rt))
    assert out.shape == (2, 5, 3)
    want = torch.from_numpy(a.astype(np.float32)) @ torch.from_numpy(b.astype(np.float32))
    close(out.to_numpy(), want.numpy(), dtype)


def test_conv2d(rt):
    x, w, bias = rand(2, 3, 9, 8), rand(4, 3, 3, 3), rand(4)
    got = ops.conv2d(dev(x, rt), dev(w, rt), dev(bias, rt), stride=2, padding=1)
    want = F.conv2d(torch.from_numpy(x), torch.from_numpy(w), torch.from_numpy(bias),
                    stride=2, padding=1)
    assert got.shape == tuple(want.shape)
    close(got.to_numpy(), want.numpy())
    wg = rand(6, 1, 3, 3)
    xg = rand(1, 6, 5, 5)
    got = ops.conv2d(dev(xg, rt), dev(wg, rt), groups=6, dilation=2, padding=2)
    want = F.conv2d(torch.from_numpy(xg), torch.from_numpy(wg), groups=6, dilation=2,
                    padding=2)
    close(got.to_numpy(), want.numpy())


@pytest.mark.parametrize("dim", [-1, 0])
def test_softmax(rt, dim):
    x = rand(4, 10)
    xt = torch.from_numpy(x)
    close(ops.softmax(dev(x, rt), dim).to_numpy(), torch.softmax(xt, dim).numpy())
    close(ops.log_softmax(dev(x, rt), dim).to_numpy(), torch.log_softmax(xt, dim).numpy())


def test_softmax_float16(rt):
    x = rand(3, 16, dtype=np.float16)
    want = torch.softmax(torch.from_numpy(x.astype(np.float32)), -1).numpy()
    close(ops.softmax(dev(x, rt)).to_numpy(), want, np.float16)


def test_layer_norm(rt):
    x, w, b = rand(2, 3, 8), rand(8), rand(8)
    got = ops.layer_norm(dev(x, rt), (8,), dev(w, rt), dev(b, rt), eps=1e-5)
    want = F.layer_norm(torch.from_numpy(x), (8,), torch.from_numpy(w), torch.from_numpy(b))
    close(got.to_numpy(), want.numpy())
    got = ops.layer_norm(dev(x, rt), (3, 8))
    close(got.to_numpy(), F.layer_norm(torch.from_numpy(x), (3, 8)).numpy())


def test_pools(rt):
    x = rand(2, 3, 9, 9)
    xt = torch.from_numpy(x)
    close(ops.max_pool2d(dev(x, rt), 3, stride=2, padding=1).to_numpy(),
          F.max_pool2d(xt, 3, stride=2, padding=1).numpy())
    close(ops.max_pool2d(dev(x, rt), 2, ceil_mode=True).to_numpy(),
          F.max_pool2d(xt, 2, ceil_mode=True).numpy())
    close(ops.avg_pool2d(dev(x, rt), 3, stride=2, padding=1).to_numpy(),
          F.avg_pool2d(xt, 3, stride=2, padding=1).numpy())
    close(ops.avg_pool2d(dev(x, rt), 3, stride=2, padding=1,
                         count_include_pad=False).to_numpy(),
          F.avg_pool2d(xt, 3, stride=2, padding=1, count_include_pad=False).numpy())


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
    free0, _ = rt.mem_info()
    live0 = tensor_mod.live_allocations()
    allocs = ws.allocs
    for _ in range(30):
        np.testing.assert_array_equal(step(), first)
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
