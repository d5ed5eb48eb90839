# SPDX-License-Identifier: MIT
"""Pinned (page-locked) host memory from aclrtMallocHost as numpy arrays."""
import acl
import numpy as np

from .errors import value


class PinnedBlock:
    """Owns one aclrtMallocHost block; numpy arrays over it keep it alive
    (it is their .base), and it is freed when the last of them goes."""

    def __init__(self, nbytes, shape, dtype):
        self.ptr = value(acl.rt.malloc_host(max(nbytes, 1)), "acl.rt.malloc_host")
        self.nbytes = nbytes
        self.__array_interface__ = {
            "data": (self.ptr, False), "shape": tuple(shape),
            "typestr": np.dtype(dtype).str, "version": 3,
        }

    def free(self):
        if self.ptr:
            ptr, self.ptr = self.ptr, 0
            acl.rt.free_host(ptr)

    def __del__(self):
        self.free()


def allocate(shape, dtype):
    """A C-contiguous array of shape/dtype in pinned memory (zeroed)."""
    if isinstance(shape, int):
        shape = (shape,)
    shape = tuple(int(d) for d in shape)
    if any(d < 0 for d in shape):
        raise ValueError("negative dimension in %r" % (shape,))
    dtype = np.dtype(dtype)
    nbytes = dtype.itemsize * int(np.prod(shape, dtype=np.int64))
    arr = np.asarray(PinnedBlock(nbytes, shape, dtype))
    arr[...] = 0
    return arr
