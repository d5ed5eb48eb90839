#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Prepare the ONNX backend tests for the conformance runners.

For every test directory of the suites: the inputs as raw little-endian
files and a manifest (name, aclDataType, dims) the C runners read, the
expected outputs as .npy for the compare step, and the model compiled by
atc with every input's shape from the test data. When atc names inputs
it needs at compile time ("atc: inputs needed at compile time: a, b"),
the model is compiled again with exactly those inputs frozen from the
test data (--input_values); the runners then do not feed them.

    prepare.py --atc build/tools/atc --out build/conformance [--filter RE]
               [--list tests/conformance/passing.txt] [-j 2]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import onnx
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conf_common as cc  # noqa: E402

NEEDED = re.compile(r"^atc: inputs needed at compile time: (.*)$", re.M)


def op_types(graph, acc=None):
    """Every op type of a graph, subgraphs (If/Loop/Scan bodies) included."""
    acc = set() if acc is None else acc
    for node in graph.node:
        acc.add(node.op_type if node.domain in ("", "ai.onnx")
                else node.domain + "." + node.op_type)
        for a in node.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                op_types(a.g, acc)
            elif a.type == onnx.AttributeProto.GRAPHS:
                for g in a.graphs:
                    op_types(g, acc)
    return acc


def value_kind(vi):
    """'tensor', 'sequence', 'optional', 'map' or 'unknown' of a ValueInfo."""
    kind = vi.type.WhichOneof("value")
    return {"tensor_type": "tensor", "sequence_type": "sequence",
            "optional_type": "optional", "map_type": "map",
            "sparse_tensor_type": "sparse tensor"}.get(kind, "unknown")


def read_tensor(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return t


def bf16_bits(vi, t, arr):
    """ONNX's test data stores a BFLOAT16 value of the model as UINT16
    bits (numpy has no bfloat16): those bits, else None."""
    declared = vi.type.tensor_type.elem_type
    if declared == onnx.TensorProto.BFLOAT16 and t.data_type == onnx.TensorProto.UINT16:
        return np.asarray(arr, dtype=np.uint16)
    return None


def tensor_entry(t, arr, what, bits=None):
    """(acl dtype, dims, raw bytes) of a TensorProto, or raise Unsupported."""
    if bits is not None:
        return 27, [int(d) for d in bits.shape], bits.astype("<u2").tobytes()
    if t.data_type not in cc.ONNX_TO_ACL:
        raise Unsupported("%s of type %s" % (
            what, cc.ONNX_TYPE_NAMES.get(t.data_type, t.data_type)))
    acl, _ = cc.ONNX_TO_ACL[t.data_type]
    if acl == cc.ACL_STRING:
        return acl, [int(d) for d in arr.shape], cc.pack_strings(arr)
    if t.data_type == onnx.TensorProto.BFLOAT16:
        # numpy_helper returns float32 values; keep the stored bits
        raw = np.asarray(arr, dtype=np.float32).view(np.uint32) >> 16
        data = raw.astype("<u2").tobytes()
    else:
        data = np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<")).tobytes()
    return acl, [int(d) for d in arr.shape], data


class Unsupported(Exception):
    pass


def prepare_one(args, suite, test, src):
    """Write the test's files; return its status record (no atc yet)."""
    out = os.path.join(args.out, suite, test)
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    rec = {"suite": suite, "name": test, "dir": out, "ops": [],
           "status": "prepared", "msg": "", "frozen": []}
    try:
        model = onnx.load(os.path.join(src, "model.onnx"))
    except Exception as e:  # a model onnx cannot read is atc's to refuse too
        rec.update(status="unsupported", msg="onnx cannot load the model: %s" % e)
        return rec
    g = model.graph
    rec["ops"] = sorted(op_types(g))
    inits = {i.name for i in g.initializer}
    inputs = [vi for vi in g.input if vi.name not in inits]
    ds = os.path.join(src, "test_data_set_0")
    lines, in_files = [], {}
    try:
        for i, vi in enumerate(inputs):
            kind = value_kind(vi)
            if kind != "tensor":
                raise Unsupported("%s input" % kind)
            if re.search(r"\s", vi.name) or not vi.name:
                raise Unsupported("input name '%s' is empty or has spaces" % vi.name)
            pb = os.path.join(ds, "input_%d.pb" % i)
            t = read_tensor(pb)
            arr = numpy_helper.to_array(t)
            acl, dims, data = tensor_entry(t, arr, "input", bf16_bits(vi, t, arr))
            fn = "in_%d.bin" % i
            with open(os.path.join(out, fn), "wb") as f:
                f.write(data)
            in_files[vi.name] = pb
            lines.append("in %s %d %d%s %s" % (vi.name, acl, len(dims),
                                                "".join(" %d" % d for d in dims), fn))
        outs = []
        for i, vi in enumerate(g.output):
            kind = value_kind(vi)
            if kind != "tensor":
                raise Unsupported("%s output" % kind)
            if re.search(r"\s", vi.name) or not vi.name:
                raise Unsupported("output name '%s' is empty or has spaces" % vi.name)
            t = read_tensor(os.path.join(ds, "output_%d.pb" % i))
            arr = numpy_helper.to_array(t)
            bits = bf16_bits(vi, t, arr)
            acl, dims, _ = tensor_entry(t, arr, "output", bits)
            if bits is not None:
                arr = (bits.astype(np.uint32) << 16).view(np.float32)
            if acl == cc.ACL_STRING:   # str objects: pickled
                arr = np.array([cc._utf8(s).decode("utf-8") for s in arr.reshape(-1)],
                               dtype=object).reshape(arr.shape)
            np.save(os.path.join(out, "exp_%d.npy" % i), arr, allow_pickle=True)
            outs.append({"name": vi.name, "dtype": acl, "dims": dims})
    except Unsupported as e:
        rec.update(status="unsupported", msg="unsupported: %s" % e)
        return rec
    except Exception as e:
        rec.update(status="unsupported", msg="unsupported: test data: %s" % e)
        return rec
    rec["inputs"] = [ln.split(" ")[1] for ln in lines]
    rec["outputs"] = outs
    rec["_lines"] = lines
    rec["_in_files"] = in_files
    rec["_shapes"] = {ln.split(" ")[1]: ln.split(" ")[4:-1] for ln in lines}
    return rec


def run_atc(args, rec, src):
    """Compile, freezing what atc asks for; fills status/msg/frozen."""
    frozen = []
    # a pass often stops at the first operand it needs: one more compile
    # per input at most
    for _ in range(len(rec["_shapes"]) + 1):
        shapes = ";".join("%s:%s" % (n, ",".join(d))
                          for n, d in rec["_shapes"].items() if n not in frozen)
        cmd = [args.atc, "--model=" + os.path.join(src, "model.onnx"),
               "--framework=5", "--output=" + os.path.join(rec["dir"], "model"),
               "--soc_version=Ascend910B"]
        if shapes:
            cmd.append("--input_shape=" + shapes)
        if frozen:
            cmd.append("--input_values=" + ";".join(
                "%s:%s" % (n, rec["_in_files"][n]) for n in frozen))
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            rc, msg = p.returncode, (p.stderr + p.stdout).strip()
        except subprocess.TimeoutExpired:
            rc, msg = -1, "atc: timed out after 120 s"
        m = NEEDED.search(msg)
        need = [n.strip() for n in m.group(1).split(",")] if m and rc else []
        new = [n for n in need if n in rec["_in_files"] and n not in frozen]
        if rc == 0 or not new:
            break
        frozen += new
    rec["frozen"] = frozen
    rec["atc_rc"] = rc
    if rc == 0:
        rec["status"] = "compiled"
        rec["msg"] = ""
    else:
        rec["status"] = "unsupported"
        # the first line that says why, without the compile-time-needs hint
        lines = [ln.replace(src + "/", "") for ln in msg.splitlines() if not NEEDED.match(ln)]
        rec["msg"] = (" | ".join(lines) or msg)[:600]
    with open(os.path.join(rec["dir"], "manifest.txt"), "w") as f:
        for ln in rec["_lines"]:
            name = ln.split(" ")[1]
            f.write(("frozen " + ln[3:] if name in frozen else ln) + "\n")
        for i, o in enumerate(rec["outputs"]):
            f.write("out %d %s %d %d%s\n" % (i, o["name"], o["dtype"], len(o["dims"]),
                                             "".join(" %d" % d for d in o["dims"])))
    return rec


def prepare_and_compile(job):
    """One test, in a worker process: its files, then atc."""
    args, suite, test, src = job
    rec = prepare_one(args, suite, test, src)
    if rec["status"] == "prepared":
        run_atc(args, rec, src)
    return rec


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--atc", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--filter", default=None, help="regex on suite/test")
    ap.add_argument("--list", default=None, help="only the tests of this list")
    ap.add_argument("-j", type=int, default=2)
    args = ap.parse_args()
    t0 = time.time()
    only = set(cc.read_list(args.list)) if args.list else None
    os.makedirs(args.out, exist_ok=True)
    jobs = [(s, t, d) for s, t, d in cc.test_dirs(regex=args.filter)
            if only is None or s + "/" + t in only]
    with ProcessPoolExecutor(max_workers=max(1, args.j)) as ex:
        recs = list(ex.map(prepare_and_compile, [(args, *job) for job in jobs],
                           chunksize=8))
    index = []
    for rec in recs:
        for k in [k for k in rec if k.startswith("_")]:
            del rec[k]
        cc.save_json(os.path.join(rec["dir"], "status.json"), rec)
        index.append(rec["suite"] + "/" + rec["name"])
    with open(os.path.join(args.out, "tests.txt"), "w") as f:
        f.write("".join(os.path.join(args.out, t) + "\n" for t in index))
    compiled = sum(r["status"] == "compiled" for r in recs)
    print("conformance: prepared %d tests (%d compiled by atc, %d of them with inputs "
          "frozen) in %.0f s" % (
              len(recs), compiled, sum(bool(r.get("frozen")) and r["status"] == "compiled"
                                       for r in recs), time.time() - t0))


if __name__ == "__main__":
    main()
