#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# tools/dump/vnpu-dump on dump files written here by an independent
# writer of the format Documentation/dump.md describes: list and show
# print what was written (float32, float16, bfloat16, int32), compare
# passes on identical runs and within tolerance, and finds a planted
# difference, a changed shape and a missing operator (exit 1); files that
# are not dumps exit 2. TAP.
import os
import pathlib
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "pylib"))
from testenv import TOP, check, done  # noqa: E402

TOOL = TOP / "tools" / "dump" / "vnpu-dump"


def pad(b):
    return b + b"\0" * (-len(b) % 8)


def write_dump(path, op_type, op_name, tensors, model=None, iteration=0, task=0):
    """tensors: (output, index, dtype, dims, raw bytes)."""
    names = op_type.encode() + op_name.encode() + (model.encode() if model else b"")
    head = struct.pack("<8sIIIIIiQQIIHHHH", b"VNPUDUMP", 1, 64, len(tensors),
                       1 if model else 0, 7, 0, iteration, 1234, 3, task,
                       len(op_type), len(op_name), len(model or ""), 0)
    body = pad(names)
    for out, idx, dt, dims, raw in tensors:
        body += struct.pack("<IIIIII", out, idx, dt, 2, len(dims), 0)
        body += struct.pack("<%dq" % len(dims), *dims)
        body += struct.pack("<Q", len(raw)) + pad(raw)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(head + body)


def f32(vals):
    return struct.pack("<%df" % len(vals), *vals)


def run(*args):
    return subprocess.run([sys.executable, str(TOOL)] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=60)


def make_run(root, add_out, relu_in=None, relu_shape=(2, 2)):
    relu_in = relu_in or [1.0, -2.0, 3.0, -4.0]
    write_dump(root / "t" / "0" / "net" / "1" / "0" / "Add.add1.0.3.1", "Add", "add1",
               [(0, 0, 0, [2, 2], f32([1, 2, 3, 4])), (0, 1, 0, [2, 2], f32([0, -4, 0, -8])),
                (1, 0, 0, [2, 2], f32(add_out))], model="net", task=0)
    write_dump(root / "t" / "0" / "net" / "1" / "0" / "Relu.relu1.1.3.2", "Relu", "relu1",
               [(0, 0, 0, list(relu_shape), f32(relu_in)),
                (1, 0, 0, list(relu_shape), f32([max(v, 0) for v in relu_in]))],
               model="net", task=1)


def main():
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="vnpu_dump_tool_"))
    try:
        tests(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return done()


def tests(tmp):
    ref, same, near, off, shape, missing = (tmp / n for n in
                                            ("ref", "same", "near", "off", "shape", "missing"))
    make_run(ref, [1, -2, 3, -4])
    make_run(same, [1, -2, 3, -4])
    make_run(near, [1, -2, 3.00002, -4])
    make_run(off, [1, -2, 3.5, -4])
    make_run(shape, [1, -2, 3, -4], relu_shape=(4,))
    make_run(missing, [1, -2, 3, -4])
    next(missing.rglob("Relu.*")).unlink()

    p = run("list", ref)
    lines = p.stdout.splitlines()
    check("list: exit 0, one line per operator", p.returncode == 0 and len(lines) == 2)
    check("list names type, name, model and tensors",
          "Add add1 [model net (id 7) iteration 0 node 0]" in p.stdout and
          "input1 float32[2,2]" in p.stdout and "output0 float32[2,2]" in p.stdout)

    p = run("show", next(ref.rglob("Add.*")))
    check("show: the values written", p.returncode == 0 and "first: 1 -2 3 -4" in p.stdout)
    check("show: statistics", "min=-4 max=3 mean=-0.5" in p.stdout)

    # float16 (1.5, -2) and bfloat16 (1.0, -0.5), int32
    hb = tmp / "types" / "Cast.c.0.0.0"
    write_dump(hb, "Cast", "c", [
        (0, 0, 1, [2], struct.pack("<2e", 1.5, -2.0)),
        (1, 0, 27, [2], struct.pack("<2H", 0x3F80, 0xBF00)),
        (1, 1, 3, [3], struct.pack("<3i", 7, -8, 9))])
    p = run("show", hb)
    check("show: float16, bfloat16 and int32 decoded",
          p.returncode == 0 and "first: 1.5 -2" in p.stdout and "first: 1 -0.5" in p.stdout
          and "first: 7 -8 9" in p.stdout and "input0 float16 [2]" in p.stdout
          and "output0 bfloat16 [2]" in p.stdout)

    p = run("compare", same, ref)
    check("compare: identical runs exit 0", p.returncode == 0 and "2 operators compared, 0 differ"
          in p.stdout)
    p = run("compare", near, ref)
    check("compare: a difference within the default tolerance passes", p.returncode == 0)
    p = run("compare", near, ref, "--rtol", "0", "--atol", "0")
    check("compare: the same difference fails with zero tolerance", p.returncode == 1)
    p = run("compare", off, ref)
    check("compare: the planted difference exits 1", p.returncode == 1)
    check("compare names the operator, tensor and element",
          "MISMATCH Add add1" in p.stdout and "output0: 1 of 4 elements differ" in p.stdout
          and "at 2 (3.5 vs 3)" in p.stdout and "relu1" not in p.stdout)
    p = run("compare", off, ref, "--atol", "0.6")
    check("compare: --atol 0.6 accepts the 0.5 difference", p.returncode == 0)
    p = run("compare", shape, ref)
    check("compare: a changed shape is a mismatch", p.returncode == 1 and
          "float32[4] vs reference float32[2,2]" in p.stdout)
    p = run("compare", missing, ref)
    check("compare: an operator missing from the run exits 1",
          p.returncode == 1 and "MISSING Relu relu1" in p.stdout)
    p = run("compare", ref, missing)
    check("compare: an extra operator in the run is only counted",
          p.returncode == 0 and "1 only in" in p.stdout)

    junk = tmp / "junk.bin"
    junk.write_bytes(b"not a dump at all, just bytes" * 3)
    p = run("show", junk)
    check("show: a file that is not a dump exits 2", p.returncode == 2 and
          "not a vnpu dump file" in p.stderr)
    trunc = tmp / "trunc"
    trunc.write_bytes(next(ref.rglob("Add.*")).read_bytes()[:90])
    p = run("show", trunc)
    check("show: a truncated dump exits 2", p.returncode == 2 and "truncated" in p.stderr)
    p = run("compare", ref, tmp / "empty-dir-that-is-missing")
    check("compare: a reference without dumps exits 2", p.returncode == 2)


if __name__ == "__main__":
    sys.exit(main())
