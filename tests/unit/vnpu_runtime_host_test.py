#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# The high-level package (vnpu_runtime / cann_runtime) on the host, where
# there is no device: names, AclError's fields, argument checks. TAP. The
# device side is tests/python/test_vnpu_runtime.py (in the VM).
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "pylib"))

from testenv import check, done  # noqa: E402  (and build/python on sys.path)

import numpy as np  # noqa: E402

import acl  # noqa: E402
import cann_runtime  # noqa: E402
import vnpu_runtime  # noqa: E402
from vnpu_runtime import dtypes, errors  # noqa: E402

check("cann_runtime is vnpu_runtime's objects",
      cann_runtime.Runtime is vnpu_runtime.Runtime and
      cann_runtime.AclError is vnpu_runtime.AclError)
try:
    vnpu_runtime.Runtime(0)
    check("Runtime(0) without a device raises AclError", False)
except vnpu_runtime.AclError as e:
    check("Runtime(0) without a device: ACL_ERROR_RT_INVALID_DEVICEID from acl.rt.set_device",
          e.code == 107001 and e.func == "acl.rt.set_device" and "107001" in str(e)
          and e.detail.startswith("aclrtSetDevice"))
try:
    vnpu_runtime.Runtime("0")
    check("Runtime('0') raises TypeError", False)
except TypeError:
    check("Runtime('0') raises TypeError", True)
e = vnpu_runtime.AclError(100000, "acl.x", "why")
check("AclError fields", (e.code, e.func, e.detail) == (100000, "acl.x", "why")
      and isinstance(e, RuntimeError))
try:
    errors.check(acl.ACL_ERROR_INVALID_PARAM, "acl.y")
    check("check() raises on an error code", False)
except vnpu_runtime.AclError as e2:
    check("check() raises on an error code", e2.code == acl.ACL_ERROR_INVALID_PARAM)
check("check() passes ACL_SUCCESS", errors.check(0, "acl.z") is None)
check("ACL_FLOAT <-> float32", dtypes.to_numpy(acl.ACL_FLOAT) == np.float32
      and dtypes.to_acl(np.float32) == acl.ACL_FLOAT
      and dtypes.to_numpy(acl.ACL_INT64) == np.int64)
try:
    dtypes.to_numpy(acl.ACL_STRING)
    check("ACL_STRING has no numpy dtype: TypeError", False)
except TypeError:
    check("ACL_STRING has no numpy dtype: TypeError", True)
status = done()
acl.finalize()
sys.exit(status)
