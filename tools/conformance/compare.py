#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Judge a conformance run and write its report.

For each prepared test: "unsupported" (atc's or the test data's reason),
"crash" (the runner's child died or timed out), "fail" (an error, a dtype
or shape mismatch, or the worst element off tolerance) or "pass". Floats
pass when |out - exp| <= atol + rtol * |exp| elementwise (ONNX's backend
tolerances, rtol 1e-3, atol 1e-7) with NaN equal only to NaN and
infinities equal only to themselves; integers and bool must be exact.

    compare.py --out build/conformance --mode host|guest --report FILE
               [--list passing.txt]   (TAP against the passing list)
"""

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conf_common as cc  # noqa: E402

RTOL, ATOL = 1e-3, 1e-7
FLOAT_ACL = {0, 1, 11, 27}   # FLOAT, FLOAT16, DOUBLE, BF16


def decode(raw, acl, dims):
    """Raw little-endian bytes of aclDataType acl as an ndarray of dims."""
    if acl == cc.ACL_STRING:   # heads and text: the whole buffer
        return cc.unpack_strings(raw, dims)
    if acl == 27:   # BF16: the upper half of a float32
        bits = np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16
        arr = bits.view(np.float32)
    else:
        arr = np.frombuffer(raw, dtype=np.dtype(cc.ACL_TO_NUMPY[acl]).newbyteorder("<"))
    return arr.reshape(dims)


def compare_arrays(got, exp, is_float, rtol=RTOL, atol=ATOL):
    """None when they match, else (flat index, got, expected) of the worst
    element (the one furthest past its tolerance)."""
    if got.size == 0:
        return None
    g = got.reshape(-1)
    e = exp.reshape(-1)
    if g.dtype == object:   # strings: exact
        bad = [i for i in range(g.size) if g[i] != e[i]]
        return (bad[0], g[bad[0]], e[bad[0]]) if bad else None
    if g.dtype == np.bool_:
        # the stored bytes: anything but 0 and 1 (an unwritten, poisoned
        # output) is wrong, though numpy would read it as True
        g = g.view(np.uint8)
        e = e.astype(np.uint8)
    if not is_float:
        bad = np.nonzero(g != e)[0]
        if bad.size == 0:
            return None
        i = int(bad[0])
        return i, g[i].item(), e[i].item()
    g64 = g.astype(np.float64)
    e64 = e.astype(np.float64)
    gn, en = np.isnan(g64), np.isnan(e64)
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.abs(g64 - e64)
        tol = atol + rtol * np.abs(e64)
        excess = diff - tol
    excess = np.where(np.isnan(excess), np.inf, excess)
    # infinities: equal only to the same infinity
    gi, ei = np.isinf(g64), np.isinf(e64)
    excess = np.where(gi | ei, np.where(g64 == e64, 0.0, np.inf), excess)
    # NaN: equal only to NaN
    excess = np.where(gn | en, np.where(gn & en, 0.0, np.inf), excess)
    if not np.any(excess > 0):
        return None
    i = int(np.argmax(excess))
    return i, g[i].item(), e[i].item()


def judge(rec, mode):
    """Status and detail of one prepared test after a run."""
    if rec["status"] != "compiled":
        return "unsupported", {"msg": rec.get("msg", "")}
    res = cc.read_result(os.path.join(rec["dir"], mode, "result.txt"))
    if res is None:
        return "crash", {"msg": "no result (the runner did not reach the test)"}
    if res["status"] == "crash":
        return "crash", {"msg": res["msg"]}
    if res["status"] != "ok":
        return "fail", {"msg": res["msg"]}
    outs = rec["outputs"]
    if len(res["outputs"]) != len(outs):
        return "fail", {"msg": "%d outputs, %d expected" % (len(res["outputs"]), len(outs))}
    for i, o in enumerate(outs):
        if i not in res["outputs"]:
            return "fail", {"msg": "output %d (%s) was not reported" % (i, o["name"])}
        name, acl, dims = res["outputs"][i]
        if name != o["name"]:
            return "fail", {"msg": "output %d is %s, expected %s" % (i, name, o["name"])}
        if acl != o["dtype"]:
            return "fail", {"msg": "output %d (%s): dtype %d, expected %d" % (
                i, o["name"], acl, o["dtype"])}
        if list(dims) != list(o["dims"]):
            return "fail", {"msg": "output %d (%s): shape %s, expected %s" % (
                i, o["name"], dims, o["dims"])}
        exp = np.load(os.path.join(rec["dir"], "exp_%d.npy" % i),
                      allow_pickle=acl == cc.ACL_STRING)
        try:
            with open(os.path.join(rec["dir"], mode, "out_%d.bin" % i), "rb") as f:
                raw = f.read()
            got = decode(raw, acl, dims)
        except (OSError, ValueError) as e:
            return "fail", {"msg": "output %d (%s): %s" % (i, o["name"], e)}
        if acl == 27:
            exp = np.asarray(exp, dtype=np.float32)
        worst = compare_arrays(got, exp, acl in FLOAT_ACL)
        if worst:
            idx = np.unravel_index(worst[0], exp.shape) if exp.ndim else ()
            return "fail", {"msg": "output %d (%s) at %s: got %r, expected %r" % (
                i, o["name"], list(int(x) for x in idx), worst[1], worst[2]),
                "output": i, "index": [int(x) for x in idx],
                "got": repr(worst[1]), "expected": repr(worst[2])}
    return "pass", {}


def build_report(out, mode):
    tests, summary = [], {}
    for path in sorted(open(os.path.join(out, "tests.txt")).read().split()):
        rec = cc.load_json(os.path.join(path, "status.json"))
        if rec is None:
            continue
        status, detail = judge(rec, mode)
        entry = {"suite": rec["suite"], "name": rec["name"], "ops": rec["ops"],
                 "status": status}
        if rec.get("frozen"):
            entry["frozen"] = rec["frozen"]
        if "atc_rc" in rec:
            entry["atc_rc"] = rec["atc_rc"]
        entry.update(detail)
        tests.append(entry)
        s = summary.setdefault(rec["suite"], {"total": 0, "pass": 0, "fail": 0,
                                              "unsupported": 0, "crash": 0})
        s["total"] += 1
        s[status] += 1
    return {"mode": mode, "rtol": RTOL, "atol": ATOL, "summary": summary,
            "tests": tests}


def tap(report, passing, path):
    """TAP: one line per listed test (not ok unless it passes), then the
    unlisted passes as TODO lines (information, never a failure)."""
    by = {t["suite"] + "/" + t["name"]: t for t in report["tests"]}
    listed = set(passing)
    lines = []
    n = 0
    for key in passing:
        n += 1
        t = by.get(key)
        if t and t["status"] == "pass":
            lines.append("ok %d - %s" % (n, key))
        else:
            why = (t["status"] + ": " + t.get("msg", "")) if t else "not run"
            lines.append("not ok %d - %s # %s" % (n, key, why.replace("\n", " ")[:300]))
    for key in sorted(by):
        if key not in listed and by[key]["status"] == "pass":
            n += 1
            lines.append("ok %d - %s # TODO newly passing: add it to passing.txt" % (n, key))
    with open(path, "w") as f:
        f.write("TAP version 13\n1..%d\n" % n)
        f.write("".join(ln + "\n" for ln in lines))
    return sum(ln.startswith("not ok") for ln in lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--mode", choices=("host", "guest"), required=True)
    ap.add_argument("--report", required=True)
    ap.add_argument("--list", help="passing list: also write TAP to --tap")
    ap.add_argument("--tap")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="a line per test that does not pass, with why")
    args = ap.parse_args()
    report = build_report(args.out, args.mode)
    cc.save_json(args.report, report)
    if args.verbose:
        for t in report["tests"]:
            if t["status"] != "pass":
                print("  %-11s %s/%s: %s" % (t["status"], t["suite"], t["name"],
                                            " ".join(t.get("msg", "").split())[:200]))
    for suite in cc.SUITES:
        s = report["summary"].get(suite)
        if s:
            print("conformance (%s): %-18s %4d/%4d pass, %d fail, %d unsupported, %d crash" % (
                args.mode, suite, s["pass"], s["total"], s["fail"], s["unsupported"],
                s["crash"]))
    print("conformance: report in %s" % args.report)
    if args.list and args.tap:
        bad = tap(report, cc.read_list(args.list), args.tap)
        print("conformance: %d listed tests do not pass" % bad)


if __name__ == "__main__":
    main()
