# SPDX-License-Identifier: MIT
"""What the conformance steps share: where the suites are, the dtype
table between ONNX and ACL, the per-test manifest and the runner's
result files. Documentation/conformance.md describes the flow."""

import json
import os
import re
import struct

import numpy as np

DATA = "/usr/share/libonnx-testdata/data"
SUITES = ("node", "pytorch-converted", "pytorch-operator", "simple")

# ONNX TensorProto.DataType -> (aclDataType, numpy dtype name)
ONNX_TO_ACL = {
    1: (0, "float32"),     # FLOAT
    2: (4, "uint8"),       # UINT8
    3: (2, "int8"),        # INT8
    4: (7, "uint16"),      # UINT16
    5: (6, "int16"),       # INT16
    6: (3, "int32"),       # INT32
    7: (9, "int64"),       # INT64
    8: (13, "object"),     # STRING (host operators; packed, see pack_strings)
    9: (12, "bool"),       # BOOL
    10: (1, "float16"),    # FLOAT16
    11: (11, "float64"),   # DOUBLE
    12: (8, "uint32"),     # UINT32
    13: (10, "uint64"),    # UINT64
    16: (27, "bfloat16"),  # BFLOAT16 (raw uint16 bits)
}
ACL_TO_NUMPY = {acl: np for acl, np in ONNX_TO_ACL.values()}
ONNX_TYPE_NAMES = {14: "complex64", 15: "complex128"}
ACL_STRING = 13
HEAD = 16   # struct om_string_head: int64 offset, int64 len


def _utf8(s):
    return s if isinstance(s, bytes) else str(s).encode("utf-8")


def pack_strings(arr):
    """A string array as a string tensor's buffer (lib/om/om_format.h):
    one {offset, len} int64 head per element, row-major, then each
    string's UTF-8 bytes and a NUL; offsets from the buffer's start."""
    items = [_utf8(s) for s in np.asarray(arr, dtype=object).reshape(-1)]
    heads, text = [], b""
    pos = HEAD * len(items)
    for b in items:
        heads.append(struct.pack("<qq", pos + len(text), len(b)))
        text += b + b"\0"
    return b"".join(heads) + text


def unpack_strings(raw, dims):
    """The strings of a buffer of n = prod(dims) heads, as an object array
    of str; ValueError when a head points outside the buffer or the text
    is not UTF-8."""
    n = int(np.prod(dims)) if len(dims) else 1
    if HEAD * n > len(raw):
        raise ValueError("%d string heads do not fit %d bytes" % (n, len(raw)))
    out = []
    for i in range(n):
        off, ln = struct.unpack_from("<qq", raw, HEAD * i)
        if off < HEAD * n or ln < 0 or off + ln > len(raw):
            raise ValueError("string %d points outside the buffer" % i)
        out.append(raw[off:off + ln].decode("utf-8"))
    return np.array(out, dtype=object).reshape(dims)


def test_dirs(suites=SUITES, regex=None):
    """Every (suite, test, source dir) in sorted order, filtered by a
    regular expression searched in "suite/test"."""
    rx = re.compile(regex) if regex else None
    for suite in suites:
        root = os.path.join(DATA, suite)
        if not os.path.isdir(root):
            continue
        for test in sorted(os.listdir(root)):
            src = os.path.join(root, test)
            if not os.path.isfile(os.path.join(src, "model.onnx")):
                continue
            if rx and not rx.search(suite + "/" + test):
                continue
            yield suite, test, src


def read_list(path):
    """A passing list: "suite/test" lines; '#' comments and blanks skipped."""
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                out.append(line)
    return out


def load_json(path, default=None):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return default


def save_json(path, obj):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(obj, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def read_result(path):
    """A runner's result.txt: {"status": ..., "msg": ..., "outputs":
    {index: (name, acl dtype, dims)}}; None when absent."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    res = {"status": "crash", "msg": "no status line", "outputs": {}}
    for line in lines:
        parts = line.split(" ")
        if parts[0] == "status" and len(parts) >= 2:
            res["status"] = parts[1]
            res["msg"] = " ".join(parts[2:])
        elif parts[0] == "out" and len(parts) >= 5:
            idx, name, dt, rank = int(parts[1]), parts[2], int(parts[3]), int(parts[4])
            res["outputs"][idx] = (name, dt, [int(d) for d in parts[5:5 + rank]])
    return res
