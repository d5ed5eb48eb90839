# SPDX-License-Identifier: MIT
"""aclnn operators on DeviceTensors.

Each function runs both phases of one aclnn operator (GetWorkspaceSize,
then the launch) on a stream: the runtime's default stream unless
stream= names one from Runtime.create_stream(). Nothing waits for the
device: results are DeviceTensors, read with .to_numpy(). out= writes
into an existing tensor instead of allocating one. Workspace memory is
one buffer per stream that grows to the largest need (workspace()).
An error code from libascendcl raises AclError (.code is the aclnnStatus,
e.g. ACLNN_ERR_PARAM_INVALID, 161002, for shapes that do not fit)."""
import acl
import numpy as np

from .errors import AclError, recent_message
from .tensor import DeviceTensor

_nn = acl._nn
_run = _nn.run
_ID = {name: _nn.op_id(name) for name in _nn.op_names()}
_CAPS = {name: "aclnn" + "".join(p.capitalize() for p in name.split("_"))
         for name in _ID}

ACLNN_ERR_PARAM_NULLPTR = _nn.ACLNN_ERR_PARAM_NULLPTR
ACLNN_ERR_PARAM_INVALID = _nn.ACLNN_ERR_PARAM_INVALID


def _stream_of(rt, stream):
    """(Stream object, its handle) after binding rt's context."""
    rt._bind()
    if stream is None:
        s = rt._default
    else:
        rt._stream_handle(stream)       # type and ownership checks
        s = stream
    h = s.handle
    if not h:
        raise ValueError("the stream is closed")
    return s, h


def workspace(stream=None, runtime=None):
    """The workspace of a stream (default: the runtime's default stream):
    .size in bytes, .allocs counts its (re)allocations."""
    from .runtime import Runtime
    rt = runtime if runtime is not None else (
        stream._rt if stream is not None else Runtime.current())
    s, _ = _stream_of(rt, stream)
    return _ws(s)


def _ws(s):
    w = s.__dict__.get("_nn_ws")
    if w is None:
        w = s._nn_ws = _nn.Workspace()
    return w


def _check_same(rt, tensors):
    for t in tensors:
        if t is None:
            continue
        if not isinstance(t, DeviceTensor):
            raise TypeError("expected a DeviceTensor, got %s" % type(t).__name__)
        st = t._st
        if not st.ptr:
            raise ValueError("a device tensor was freed")
        if st.rt is not rt:
            raise ValueError("tensors of different runtimes")


def _launch(name, rt, stream, args, tensors):
    """Both phases of operator name; args are _nn.run's operator arguments."""
    _check_same(rt, tensors)
    s, h = _stream_of(rt, stream)
    ret = _run(_ID[name], h, _ws(s), *args)
    if ret:
        raise AclError(ret, _CAPS[name], recent_message())


def _out(out, shape, dtype, rt):
    if out is None:
        return DeviceTensor.empty(shape, dtype, runtime=rt)
    if not isinstance(out, DeviceTensor):
        raise TypeError("out must be a DeviceTensor, not %s" % type(out).__name__)
    return out


def _d(t):
    return None if t is None else t._desc


def _is_float(dt):
    return dt.kind == "f"


def _scalar(x, like):
    """A Python number in the kind aclnn should see for a tensor of dtype like."""
    if isinstance(x, (bool, np.bool_)):
        return int(x)
    if _is_float(like) or not float(x).is_integer():
        return float(x)
    return int(x)


# ------------------------------------------------------------ elementwise --
def _binary(name, scalar_name, a, b, alpha, out, stream):
    rt = _tensor_arg(a)._st.rt
    if isinstance(b, DeviceTensor):
        if out is not None:
            _out(out, None, None, rt)
        else:
            dt = np.result_type(a.dtype, b.dtype)
            if name == "div" and not _is_float(dt):
                dt = np.dtype(np.float32)
            out = _out(None, np.broadcast_shapes(a.shape, b.shape), dt, rt)
        args = (a._desc, b._desc, out._desc) if alpha is None else \
            (a._desc, b._desc, _scalar(alpha, a.dtype), out._desc)
        _launch(name, rt, stream, args, (a, b, out))
        return out
    if not isinstance(b, (int, float, np.number)):
        raise TypeError("other must be a DeviceTensor or a number, not %s"
                        % type(b).__name__)
    dt = a.dtype
    if name == "div" and not _is_float(dt):
        dt = np.dtype(np.float32)
    out = _out(out, a.shape, dt, rt)
    b = _scalar(b, a.dtype)
    args = (a._desc, b, out._desc) if alpha is None else \
        (a._desc, b, _scalar(alpha, a.dtype), out._desc)
    _launch(scalar_name, rt, stream, args, (a, out))
    return out


_ADD = _ID["add"]


def add(a, b, alpha=1, out=None, stream=None):
    """a + alpha * b (b a DeviceTensor or a number; shapes broadcast)."""
    if (out.__class__ is DeviceTensor and b.__class__ is DeviceTensor and
            a.__class__ is DeviceTensor and alpha == 1 and stream is None):
        # The hot path (benchmarked): the checks of _launch inlined, no
        # shape or dtype inference (aclnn checks those).
        sa = a._st
        rt = sa.rt
        if sa.ptr and b._st.ptr and out._st.ptr and b._st.rt is rt and out._st.rt is rt:
            rt._bind()
            s = rt._default
            h = s.handle
            if h:
                ret = _run(_ADD, h, s.__dict__.get("_nn_ws") or _ws(s), a._desc, b._desc,
                           1.0 if a.dtype.kind == "f" else 1, out._desc)
                if ret:
                    raise AclError(ret, "aclnnAdd", recent_message())
                return out
    return _binary("add", "adds", a, b, alpha, out, stream)


def sub(a, b, alpha=1, out=None, stream=None):
    """a - alpha * b."""
    return _binary("sub", "subs", a, b, alpha, out, stream)


def mul(a, b, out=None, stream=None):
    return _binary("mul", "muls", a, b, None, out, stream)


def div(a, b, out=None, stream=None):
    """True division (integer inputs give float32)."""
    return _binary("div", "divs", a, b, None, out, stream)


def maximum(a, b, out=None, stream=None):
    return _binary("maximum", None, a, _tensor_arg(b), None, out, stream)


def minimum(a, b, out=None, stream=None):
    return _binary("minimum", None, a, _tensor_arg(b), None, out, stream)


def _tensor_arg(b):
    if not isinstance(b, DeviceTensor):
        raise TypeError("expected a DeviceTensor, got %s" % type(b).__name__)
    return b


def _unary(name, x, out, stream, *extra):
    _tensor_arg(x)
    rt = x._st.rt
    out = _out(out, x.shape, x.dtype, rt)
    _launch(name, rt, stream, (x._desc,) + extra + (out._desc,), (x, out))
    return out


def relu(x, out=None, stream=None):
    return _unary("relu", x, out, stream)


def gelu(x, out=None, stream=None):
    """GELU, tanh approximation (CANN's aclnnGelu, as its document says)."""
    return _unary("gelu", x, out, stream)


def silu(x, out=None, stream=None):
    return _unary("silu", x, out, stream)


def sigmoid(x, out=None, stream=None):
    return _unary("sigmoid", x, out, stream)


def tanh(x, out=None, stream=None):
    return _unary("tanh", x, out, stream)


def exp(x, out=None, stream=None):
    return _unary("exp", x, out, stream)


def log(x, out=None, stream=None):
    return _unary("log", x, out, stream)


def sqrt(x, out=None, stream=None):
    return _unary("sqrt", x, out, stream)


def neg(x, out=None, stream=None):
    return _unary("neg", x, out, stream)


def abs(x, out=None, stream=None):  # noqa: A001 - the operator's name
    return _unary("abs", x, out, stream)


def leaky_relu(x, negative_slope=0.01, out=None, stream=None):
    return _unary("leaky_relu", x, out, stream, float(negative_slope))


def copy(x, out=None, stream=None):
    """A contiguous device copy of x (any view) through aclnnInplaceCopy."""
    _tensor_arg(x)
    rt = x._st.rt
    out = _out(out, x.shape, x.dtype, rt)
    _launch("inplace_copy", rt, stream, (out._desc, x._desc), (x, out))
    return out


def softmax(x, dim=-1, out=None, stream=None):
    return _unary("softmax", x, out, stream, int(dim))


def log_softmax(x, dim=-1, out=None, stream=None):
    return _unary("log_softmax", x, out, stream, int(dim))


# ------------------------------------------------------------- products --
def matmul(a, b, out=None, stream=None):
    """numpy.matmul's shapes (1-D operands, broadcast batch dims); float dtypes."""
    _tensor_arg(a)
    _tensor_arg(b)
    rt = a._st.rt
    if out is None:
        ra, rb = a.ndim, b.ndim
        if ra == 0 or rb == 0:
            raise ValueError("matmul: operands must have at least one dim")
        batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        shape = batch + (a.shape[-2:-1] if ra >= 2 else ()) + \
            (b.shape[-1:] if rb >= 2 else ())
        out = _out(None, shape, np.result_type(a.dtype, b.dtype), rt)
    _launch("matmul", rt, stream, (a._desc, b._desc, out._desc, 0), (a, b, out))
    return out


def _pair(v, name):
    if isinstance(v, (int, np.integer)):
        return (int(v), int(v))
    v = tuple(int(x) for x in v)
    if len(v) != 2:
        raise ValueError("%s: one int or two, got %r" % (name, v))
    return v


def _pool_len(n, k, s, p, d, ceil):
    eff = d * (k - 1) + 1
    span = n + 2 * p - eff
    if span < 0 or s <= 0:
        raise ValueError("the window (%d, dilation %d, padding %d) does not fit %d"
                         % (k, d, p, n))
    o = (-(-span // s) if ceil else span // s) + 1
    if ceil and (o - 1) * s >= n + p:
        o -= 1
    return o


def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1,
           out=None, stream=None):
    """2-D convolution, NCHW input, (Cout, Cin/groups, kh, kw) weight."""
    _tensor_arg(x)
    _tensor_arg(weight)
    rt = x._st.rt
    st, pad, dil = _pair(stride, "stride"), _pair(padding, "padding"), _pair(dilation, "dilation")
    if out is None:
        if x.ndim != 4 or weight.ndim != 4:
            raise ValueError("conv2d: input and weight must be 4-D")
        shape = (x.shape[0], weight.shape[0]) + tuple(
            _pool_len(x.shape[2 + i], weight.shape[2 + i], st[i], pad[i], dil[i], False)
            for i in range(2))
        out = _out(None, shape, x.dtype, rt)
    _launch("convolution", rt, stream,
            (x._desc, weight._desc, _d(bias), st, pad, dil, False, (0, 0), int(groups),
             out._desc, 0), (x, weight, bias, out))
    return out


def _pool_shape(x, k, st, pad, dil, ceil):
    if x.ndim not in (3, 4):
        raise ValueError("pooling takes a 3-D or 4-D (N)CHW tensor")
    return x.shape[:-2] + tuple(_pool_len(x.shape[-2 + i], k[i], st[i], pad[i], dil[i], ceil)
                                for i in range(2))


def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               out=None, stream=None):
    _tensor_arg(x)
    rt = x._st.rt
    k = _pair(kernel_size, "kernel_size")
    st = k if stride is None else _pair(stride, "stride")
    pad, dil = _pair(padding, "padding"), _pair(dilation, "dilation")
    if out is None:
        out = _out(None, _pool_shape(x, k, st, pad, dil, ceil_mode), x.dtype, rt)
    _launch("max_pool2d", rt, stream, (x._desc, k, st, pad, dil, bool(ceil_mode), out._desc),
            (x, out))
    return out


def avg_pool2d(x, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None, out=None, stream=None):
    _tensor_arg(x)
    rt = x._st.rt
    k = _pair(kernel_size, "kernel_size")
    st = k if stride is None else _pair(stride, "stride")
    pad = _pair(padding, "padding")
    if out is None:
        out = _out(None, _pool_shape(x, k, st, pad, (1, 1), ceil_mode), x.dtype, rt)
    _launch("avg_pool2d", rt, stream,
            (x._desc, k, st, pad, bool(ceil_mode), bool(count_include_pad),
             int(divisor_override or 0), 0, out._desc), (x, out))
    return out


# ------------------------------------------------------- normalization --
def layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5, out=None,
               stream=None):
    """LayerNorm over the last len(normalized_shape) dims."""
    _tensor_arg(x)
    rt = x._st.rt
    if isinstance(normalized_shape, (int, np.integer)):
        normalized_shape = (int(normalized_shape),)
    ns = tuple(int(d) for d in normalized_shape)
    out = _out(out, x.shape, x.dtype, rt)
    _launch("layer_norm", rt, stream,
            (x._desc, ns, _d(weight), _d(bias), float(eps), out._desc, None, None),
            (x, weight, bias, out))
    return out


# ------------------------------------------------------------ reductions --
def _reduce(name, x, dim, keepdim, dtype, out, stream):
    _tensor_arg(x)
    rt = x._st.rt
    nd = x.ndim
    if dim is None:
        dims = tuple(range(nd))
    else:
        dims = (dim,) if isinstance(dim, (int, np.integer)) else tuple(dim)
        dims = tuple(int(d) + nd if int(d) < 0 else int(d) for d in dims)
        if any(not 0 <= d < nd for d in dims) or len(set(dims)) != len(dims):
            raise ValueError("dim %r does not fit a %d-D tensor" % (dim, nd))
    odt = np.dtype(dtype) if dtype is not None else x.dtype
    if out is None:
        shape = tuple(1 if i in dims else d for i, d in enumerate(x.shape) if keepdim or i not in dims)
        out = _out(None, shape, odt, rt)
    from . import dtypes
    _launch(name, rt, stream, (x._desc, dims, bool(keepdim), dtypes.to_acl(odt), out._desc),
            (x, out))
    return out


def sum(x, dim=None, keepdim=False, dtype=None, out=None, stream=None):  # noqa: A001
    """The sum over dim (all dims if None), as aclnnReduceSum."""
    return _reduce("reduce_sum", x, dim, keepdim, dtype, out, stream)


def mean(x, dim=None, keepdim=False, dtype=None, out=None, stream=None):
    return _reduce("mean", x, dim, keepdim, dtype, out, stream)


def available():
    """The aclnn operators the binding knows (acl._nn's table)."""
    return tuple(_ID)


__all__ = ["add", "sub", "mul", "div", "maximum", "minimum", "matmul", "conv2d",
           "relu", "gelu", "silu", "sigmoid", "tanh", "exp", "log", "sqrt", "neg", "abs",
           "leaky_relu", "softmax", "log_softmax", "layer_norm", "max_pool2d",
           "avg_pool2d", "sum", "mean", "copy", "workspace", "available"]
