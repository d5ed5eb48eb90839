# SPDX-License-Identifier: MIT
"""DeviceTensor: an array in device memory that aclnn operators (ops.py)
read and write without round trips through the host."""
import math
import weakref

import acl
import numpy as np

from . import dtypes
from .errors import AclError, check, value

H2D = acl.ACL_MEMCPY_HOST_TO_DEVICE
D2H = acl.ACL_MEMCPY_DEVICE_TO_HOST

_live = [0]     # device blocks allocated here and not yet freed (tests read it)
_by_runtime = weakref.WeakKeyDictionary()   # Runtime -> WeakSet of its _Storage


def live_allocations():
    """How many device blocks DeviceTensors hold right now."""
    return _live[0]


def _runtime(runtime):
    from .runtime import Runtime
    return runtime if runtime is not None else Runtime.current()


class _Storage:
    """One aclrtMalloc block, shared by a tensor and its views. It is
    freed by free() or when the last tensor over it goes; never after its
    runtime closed (the device memory went with the context)."""

    __slots__ = ("rt", "ptr", "nbytes", "keep", "__weakref__")

    def __init__(self, rt, nbytes):
        rt._bind()
        self.rt = rt
        self.nbytes = nbytes
        self.keep = None        # a host array an async copy still reads
        self.ptr = value(acl.rt.malloc(max(nbytes, 1), acl.ACL_MEM_MALLOC_HUGE_FIRST),
                         "acl.rt.malloc")
        _live[0] += 1
        _by_runtime.setdefault(rt, weakref.WeakSet()).add(self)

    def free(self):
        ptr, self.ptr = self.ptr, 0
        self.keep = None
        if ptr:
            _live[0] -= 1
            if not self.rt.closed:
                self.rt._bind()
                check(acl.rt.free(ptr), "acl.rt.free")

    def __del__(self):
        try:
            self.free()
        except Exception:   # noqa: BLE001 - never raise from a finalizer
            pass


def _release_runtime(rt):
    """Free every block rt's tensors still hold (Runtime.close calls this
    while its context is still current: device memory outlives contexts)."""
    for st in list(_by_runtime.pop(rt, ())):
        try:
            st.free()
        except AclError:
            pass


def _shape_tuple(shape):
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    shape = tuple(int(d) for d in shape)
    if any(d < 0 for d in shape):
        raise ValueError("negative dimension in %r" % (shape,))
    return shape


def _contiguous_strides(shape):
    strides, s = [], 1
    for d in reversed(shape):
        strides.append(s)
        s *= max(d, 1)
    return tuple(reversed(strides))


class DeviceTensor:
    """A strided view of device memory (strides and offset in elements,
    as aclnn counts them). Create with from_numpy() or empty(); views from
    t()/transpose()/permute() share the memory. free() (or a with block)
    releases the memory now; otherwise it goes with the last view."""

    __slots__ = ("_st", "shape", "strides", "offset", "dtype", "_acl_dtype", "_desc",
                 "__weakref__")

    def __init__(self, storage, shape, strides, offset, dtype):
        self._st = storage
        self.shape = shape
        self.strides = strides
        self.offset = offset
        self.dtype = dtype
        self._acl_dtype = dtypes.to_acl(dtype)
        self._desc = acl._nn.Tensor(shape, strides, offset, self._acl_dtype, storage.ptr)

    # ------------------------------------------------------------ creation --
    @classmethod
    def empty(cls, shape, dtype=np.float32, runtime=None):
        """Uninitialized device memory for a C-contiguous tensor."""
        shape = _shape_tuple(shape)
        dtype = np.dtype(dtype)
        dtypes.to_acl(dtype)            # TypeError before any allocation
        nbytes = dtype.itemsize * math.prod(shape)
        st = _Storage(_runtime(runtime), nbytes)
        return cls(st, shape, _contiguous_strides(shape), 0, dtype)

    @classmethod
    def from_numpy(cls, array, stream=None, runtime=None):
        """A device copy of array. Without a stream the copy is done when
        this returns; with one it is queued on it (the host array is kept
        until the tensor is freed)."""
        a = np.ascontiguousarray(array)
        rt = _runtime(runtime)
        t = cls.empty(a.shape, a.dtype, runtime=rt)
        try:
            if a.nbytes:
                if stream is None:
                    check(acl.rt.memcpy(t._st.ptr, a.nbytes, a, a.nbytes, H2D),
                          "acl.rt.memcpy")
                else:
                    check(acl.rt.memcpy_async(t._st.ptr, a.nbytes, a, a.nbytes, H2D,
                                              rt._stream_handle(stream)),
                          "acl.rt.memcpy_async")
                    t._st.keep = a
        except BaseException:
            t.free()
            raise
        return t

    def to_numpy(self, stream=None):
        """The tensor's values as a new numpy array, after the work queued
        on stream (the runtime's default stream if None)."""
        st = self._live()
        rt = st.rt
        rt._bind()
        s = rt._stream_handle(stream)
        n = self.size
        out = np.empty(self.shape, self.dtype)
        if n == 0:
            return out
        if self.is_contiguous():
            host = out
            src = st.ptr + self.offset * self.dtype.itemsize
        else:
            # The elements the view reaches, copied whole, then viewed.
            extent = 1 + sum((d - 1) * s_ for d, s_ in zip(self.shape, self.strides))
            host = np.empty(extent, self.dtype)
            src = st.ptr + self.offset * self.dtype.itemsize
        check(acl.rt.memcpy_async(host, host.nbytes, src, host.nbytes, D2H, s),
              "acl.rt.memcpy_async")
        check(acl.rt.synchronize_stream(s), "acl.rt.synchronize_stream")
        if host is not out:
            item = self.dtype.itemsize
            out[...] = np.lib.stride_tricks.as_strided(
                host, self.shape, tuple(x * item for x in self.strides))
        return out

    def numpy(self):
        return self.to_numpy()

    # --------------------------------------------------------- properties --
    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return math.prod(self.shape)

    @property
    def nbytes(self):
        """Bytes of the elements this tensor shows (not of its storage)."""
        return self.size * self.dtype.itemsize

    @property
    def ptr(self):
        """The device address of element 0."""
        return self._live().ptr + self.offset * self.dtype.itemsize

    @property
    def runtime(self):
        return self._st.rt

    @property
    def freed(self):
        return not self._st.ptr

    def is_contiguous(self):
        return all(a == b for a, b, d in zip(self.strides, _contiguous_strides(self.shape),
                                             self.shape) if d != 1)

    def _live(self):
        st = self._st
        if not st.ptr:
            raise ValueError("the device tensor was freed")
        if st.rt.closed:
            raise ValueError("the device tensor's runtime is closed")
        return st

    # ---------------------------------------------------------------- views --
    def _view(self, shape, strides, offset=None):
        return DeviceTensor(self._live(), tuple(shape), tuple(strides),
                            self.offset if offset is None else offset, self.dtype)

    def permute(self, *dims):
        """A view with the dims reordered (no copy)."""
        if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
            dims = tuple(dims[0])
        nd = self.ndim
        dims = tuple(d % nd if -nd <= d < nd else d for d in dims)
        if sorted(dims) != list(range(nd)):
            raise ValueError("permute: %r is not a permutation of %d dims" % (dims, nd))
        return self._view([self.shape[d] for d in dims], [self.strides[d] for d in dims])

    def transpose(self, dim0, dim1):
        """A view with two dims swapped (no copy)."""
        order = list(range(self.ndim))
        order[dim0], order[dim1] = order[dim1], order[dim0]
        return self.permute(order)

    def t(self):
        """The transpose of a 2-D tensor, as a strided view."""
        if self.ndim != 2:
            raise ValueError("t() needs a 2-D tensor, this one has %d dims" % self.ndim)
        return self.transpose(0, 1)

    T = property(t)

    def __getitem__(self, index):
        """Basic slicing along dims (ints and slices with a positive step)
        as a view; anything else raises TypeError."""
        if not isinstance(index, tuple):
            index = (index,)
        if len(index) > self.ndim:
            raise IndexError("too many indices for %d dims" % self.ndim)
        shape, strides, offset = [], [], self.offset
        for i, ix in enumerate(index):
            d, s = self.shape[i], self.strides[i]
            if isinstance(ix, (int, np.integer)):
                ix = int(ix)
                if not -d <= ix < d:
                    raise IndexError("index %d out of range for dim %d of size %d"
                                     % (ix, i, d))
                offset += (ix % d) * s
            elif isinstance(ix, slice):
                start, stop, step = ix.indices(d)
                if step <= 0:
                    raise ValueError("only positive slice steps make a view")
                n = max(0, (stop - start + step - 1) // step)
                offset += start * s if n else 0
                shape.append(n)
                strides.append(s * step)
            else:
                raise TypeError("index with ints and slices only")
        shape += self.shape[len(index):]
        strides += self.strides[len(index):]
        return self._view(shape, strides, offset)

    def reshape(self, *shape):
        """A view with a new shape (contiguous tensors only)."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        shape = list(shape)
        if shape.count(-1) > 1:
            raise ValueError("only one dim may be -1")
        if -1 in shape:
            known = math.prod(d for d in shape if d != -1)
            shape[shape.index(-1)] = self.size // known if known else 0
        shape = _shape_tuple(shape)
        if math.prod(shape) != self.size:
            raise ValueError("cannot reshape %r to %r" % (self.shape, shape))
        if not self.is_contiguous():
            raise ValueError("reshape needs a contiguous tensor (use contiguous())")
        return self._view(shape, _contiguous_strides(shape))

    def contiguous(self, stream=None):
        """self if contiguous, else a contiguous device copy (aclnnInplaceCopy)."""
        if self.is_contiguous():
            return self
        from . import ops
        return ops.copy(self, stream=stream)

    # ------------------------------------------------------------ lifetime --
    def free(self):
        """Free the device memory now (every view of it becomes unusable)."""
        self._desc.destroy()
        self._st.free()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.free()

    def __repr__(self):
        state = " freed" if self.freed else ""
        return "<DeviceTensor shape=%s dtype=%s%s>" % (self.shape, self.dtype, state)


__all__ = ["DeviceTensor", "AclError", "live_allocations"]
