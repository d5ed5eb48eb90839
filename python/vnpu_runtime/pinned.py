# SPDX-License-Identifier: MIT
"""Pinned (page-locked) host memory from aclrtMallocHost as numpy arrays.
Async copies from and to it are stream tasks; copies with ordinary
(pageable) numpy memory wait for the stream first (Documentation/
acl-runtime.md), so the runtime stages through pinned memory."""
import acl
import numpy as np

from .errors import value


class PinnedBlock:
    """Owns one aclrtMallocHost block; numpy arrays over it keep it alive
    (it is their .base), and it is freed when the last of them goes, or
    by free() when no array was handed out (the runtime's staging)."""

    def __init__(self, hold, nbytes, shape=None, dtype=np.uint8):
        hold.acquire()
        try:
            self.ptr = value(hold.call_in_default_ctx(acl.rt.malloc_host, max(nbytes, 1)),
                             "acl.rt.malloc_host")
        except BaseException:
            hold.release()
            raise
        self._hold = hold
        self.nbytes = nbytes
        self.__array_interface__ = {
            "data": (self.ptr, False),
            "shape": tuple(shape) if shape is not None else (nbytes,),
            "typestr": np.dtype(dtype).str, "version": 3,
        }

    def array(self):
        return np.asarray(self)

    def free(self):
        ptr, self.ptr = getattr(self, "ptr", 0), 0
        if ptr:
            try:
                self._hold.call_in_default_ctx(acl.rt.free_host, ptr)
            finally:
                self._hold.release()

    def __del__(self):
        try:
            self.free()
        except Exception:  # interpreter exit after acl.finalize(): nothing to free
            pass


def allocate(hold, shape, dtype):
    """A zeroed C-contiguous array of shape/dtype in pinned memory."""
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    shape = tuple(int(d) for d in shape)
    if any(d < 0 for d in shape):
        raise ValueError("negative dimension in %r" % (shape,))
    dtype = np.dtype(dtype)
    nbytes = dtype.itemsize * int(np.prod(shape, dtype=np.int64))
    arr = PinnedBlock(hold, nbytes, shape, dtype).array()
    arr[...] = 0
    return arr


def pinned_address(a):
    """The address of a C-contiguous array lying in pinned memory (so a
    device copy can read it in stream order), else None."""
    base = a
    while isinstance(base, np.ndarray):
        base = base.base
    if not isinstance(base, PinnedBlock) or not base.ptr or not a.flags.c_contiguous:
        return None
    addr = a.__array_interface__["data"][0]
    if not base.ptr <= addr <= base.ptr + base.nbytes - a.nbytes:
        return None
    return addr
