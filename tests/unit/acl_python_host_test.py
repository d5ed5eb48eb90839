#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# The `acl` Python module on the host (no device needed): conversions,
# host copies and fills through the kernel's checks, the live-handle
# sets, types, threads. TAP. The device side is tests/python (in the VM).
import mmap
import os
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "pylib"))

from testenv import check, done, raises  # noqa: E402  (and build/python on sys.path)

import numpy as np  # noqa: E402

import acl  # noqa: E402

INVALID = acl.ACL_ERROR_INVALID_PARAM
check("init", acl.init() == 0)
check("init twice is ACL_ERROR_REPEAT_INITIALIZE", acl.init() == acl.ACL_ERROR_REPEAT_INITIALIZE)
check("every ACL_ERROR_* of the headers (>= 200)",
      len([k for k in dir(acl) if k.startswith("ACL_ERROR_")]) >= 200)
check("constants", (acl.ACL_SUCCESS, acl.rt.MEMCPY_DEVICE_TO_HOST, acl.ACL_FLOAT16) == (0, 2, 1))
check("submodules are importable by name", "acl.rt" in sys.modules and "acl.util" in sys.modules)

a = np.arange(4096, dtype=np.float32)
b = np.zeros_like(a)
pa, pb = acl.util.numpy_to_ptr(a), acl.util.numpy_to_ptr(b)
check("numpy_to_ptr is the data address", pa == a.ctypes.data)
check("host-to-host memcpy with int pointers",
      acl.rt.memcpy(pb, b.nbytes, pa, a.nbytes, acl.ACL_MEMCPY_HOST_TO_HOST) == 0 and
      np.array_equal(a, b))
b[:] = 0
check("host-to-host memcpy, the seed's form with arrays",
      acl.rt.memcpy(b, a, a.nbytes, 0) == 0 and np.array_equal(a, b))
check("memcpy count > dest_max is ACL_ERROR_INVALID_PARAM",
      acl.rt.memcpy(pb, 8, pa, 16, 0) == INVALID)
check("memcpy from a wild host address is an error code",
      acl.rt.memcpy(pb, 16, 0x10, 16, 0) == INVALID)
check("memcpy to a wild host address is an error code",
      acl.rt.memcpy(0x10, 16, pa, 16, 0) == INVALID)
ro = mmap.mmap(-1, 4096, prot=mmap.PROT_READ)
ro_ptr = acl.util.numpy_to_ptr(np.frombuffer(ro, np.uint8))
check("memcpy into a read-only page is an error code",
      acl.rt.memcpy(ro_ptr, 8, pa, 8, 0) == INVALID and acl.rt.memset(ro_ptr, 8, 1, 8) == INVALID)
check("host memset", acl.rt.memset(b, b.nbytes, 0xff, 8) == 0 and
      b[:2].view(np.uint32).tolist() == [0xffffffff] * 2 and b[2] == a[2])
check("memset of a wild address is an error code", acl.rt.memset(0x20, 8, 0, 8) == INVALID)
check("ptr_to_bytes copies", acl.util.ptr_to_bytes(pa, 8) == a.tobytes()[:8])
check("ptr_to_bytes of a wild address raises ValueError",
      raises(ValueError, acl.util.ptr_to_bytes, 0x10, 8))
v = acl.util.ptr_to_numpy(pa, (64, 64), 11)
check("ptr_to_numpy views the memory", v.shape == (64, 64) and v[1, 0] == 64.0)
check("ptr_to_numpy of a wild address raises ValueError",
      raises(ValueError, acl.util.ptr_to_numpy, 0x10, (4,), 11))
check("a buffer bounds the copy (ValueError)",
      raises(ValueError, acl.rt.memcpy, np.zeros(2, np.float32), 64, pa, 64, 0))
check("wrong types raise TypeError",
      raises(TypeError, acl.rt.malloc, "1") and raises(TypeError, acl.rt.free, 1.0) and
      raises(TypeError, acl.rt.memcpy, 1, 2) and
      raises(TypeError, acl.rt.launch_callback, None, None, 1, 0))
check("negative pointers raise ValueError", raises(ValueError, acl.rt.free, -8))

buf = acl.create_data_buffer(0x1000, 64)
ds = acl.mdl.create_dataset()
td = acl.create_tensor_desc(acl.ACL_FLOAT, [2, 2], acl.ACL_FORMAT_ND)
attr = acl.op.create_attr()
check("handles are created", all((buf, ds, td, attr)))
check("add_dataset_buffer returns (dataset, ret)", acl.mdl.add_dataset_buffer(ds, buf) == (ds, 0))
check("tensor desc size", acl.get_tensor_desc_size(td) == 16)
check("destroying each handle once", acl.destroy_data_buffer(buf) == 0 and
      acl.mdl.destroy_dataset(ds) == 0 and acl.destroy_tensor_desc(td) == 0 and
      acl.op.destroy_attr(attr) == 0)
check("destroying them again is ACL_ERROR_INVALID_PARAM",
      [acl.destroy_data_buffer(buf), acl.mdl.destroy_dataset(ds),
       acl.destroy_tensor_desc(td), acl.op.destroy_attr(attr)] == [INVALID] * 4)
check("using a destroyed handle is refused, not read",
      acl.get_tensor_desc_size(td) == 0 and acl.get_data_buffer_addr(buf) == 0 and
      acl.op.set_attr_int(attr, "x", 1) == INVALID and
      acl.mdl.add_dataset_buffer(ds, buf)[1] == INVALID)
check("a model image at a wild address is refused before libascendcl reads it",
      acl.mdl.load_from_mem(0x10, 4096) == (0, INVALID) and acl.op.load(0x10, 64) == INVALID and
      raises(ValueError, acl.mdl.load_from_mem, b"short", 64))
check("made-up handles are refused", acl.mdl.execute(1, 0x5000, 0x6000) == INVALID and
      acl.mdl.get_num_inputs(0x7000) == 0)

seen = []
tid, ret = acl.util.start_thread(lambda args: seen.append((args, threading.get_ident())), [7])
check("start_thread runs fn(args) on a new thread",
      ret == 0 and acl.util.stop_thread(tid) == 0 and seen == [([7], tid)])
check("stop_thread of an unknown id is ACL_ERROR_INVALID_PARAM",
      acl.util.stop_thread(tid) == INVALID)
info = acl.rt.get_mem_info()
check("get_mem_info is (free, total, ret) and a mapping",
      len(info) == 3 and info["ret"] == info[2] and raises(KeyError, info.__getitem__, "x"))
# aclFinalize forgets the loaded ops an op handle points at: the module
# frees its live handles with it, so an old one is refused after init.
d = acl.create_tensor_desc(acl.ACL_FLOAT, [4], acl.ACL_FORMAT_ND)
ok = acl.op.compile("Add", [d, d], [d], None) == 0
handle, ret = acl.op.create_handle("Add", [d, d], [d], None)
ok = ok and ret == 0 and acl.finalize() == 0 and acl.init() == 0
check("an op handle from before finalize is refused after init again",
      ok and acl.op.execute_with_handle(handle, [], [], 0) == INVALID and
      acl.op.destroy_handle(handle) == INVALID)
check("a tensor description outlives finalize (the program's object)",
      acl.get_tensor_desc_size(d) == 16 and acl.destroy_tensor_desc(d) == 0)
check("finalize", acl.finalize() == 0)
sys.exit(done())
