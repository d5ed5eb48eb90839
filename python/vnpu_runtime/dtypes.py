# SPDX-License-Identifier: MIT
"""ACL data types <-> numpy dtypes."""
import numpy as np

import acl

_PAIRS = [
    ("ACL_FLOAT", np.float32), ("ACL_FLOAT16", np.float16),
    ("ACL_DOUBLE", np.float64), ("ACL_INT8", np.int8),
    ("ACL_INT16", np.int16), ("ACL_INT32", np.int32),
    ("ACL_INT64", np.int64), ("ACL_UINT8", np.uint8),
    ("ACL_UINT16", np.uint16), ("ACL_UINT32", np.uint32),
    ("ACL_UINT64", np.uint64), ("ACL_BOOL", np.bool_),
]
ACL_TO_NUMPY = {getattr(acl, n): np.dtype(t) for n, t in _PAIRS if hasattr(acl, n)}
NUMPY_TO_ACL = {v: k for k, v in ACL_TO_NUMPY.items()}


def to_numpy(acl_type):
    try:
        return ACL_TO_NUMPY[acl_type]
    except KeyError:
        raise TypeError("ACL data type %r has no numpy equivalent" % acl_type) from None


def to_acl(dtype):
    try:
        return NUMPY_TO_ACL[np.dtype(dtype)]
    except KeyError:
        raise TypeError("numpy dtype %s has no ACL equivalent" % np.dtype(dtype)) from None
