#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Host test of the conformance compare step (TAP): a pass must be a real
pass. Builds fake prepared tests and runner results in a temporary
directory and checks the verdicts: exact match, within and past the
float tolerance, a deliberately wrong expected value, NaN and infinity
handling, bool and integer exactness, dtype and shape mismatches, missing
outputs, runner errors and crashes, BF16 decoding, string outputs (exact,
a head outside the buffer, a poisoned buffer), and the TAP against a
passing list (listed failures are "not ok", unlisted passes are TODO)."""

import os
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "conformance"))
import compare  # noqa: E402
import conf_common as cc  # noqa: E402

n = 0
failed = 0


def check(cond, what):
    global n, failed
    n += 1
    if cond:
        print("ok %d - %s" % (n, what))
    else:
        failed += 1
        print("not ok %d - %s" % (n, what))


ACL = {np.dtype("float32"): 0, np.dtype("float16"): 1, np.dtype("int8"): 2,
       np.dtype("int32"): 3, np.dtype("uint8"): 4, np.dtype("int64"): 9,
       np.dtype("float64"): 11, np.dtype("bool"): 12}


def make_test(root, name, expected, got, status_line="status ok", got_acl=None,
              got_dims=None, compiled=True, got_name="y"):
    """A prepared test with one expected output and a runner result."""
    d = os.path.join(root, "node", name)
    os.makedirs(os.path.join(d, "host"))
    exp = np.asarray(expected)
    rec = {"suite": "node", "name": name, "dir": d, "ops": ["Op"],
           "status": "compiled" if compiled else "unsupported",
           "msg": "" if compiled else "atc: unsupported operators: Op",
           "outputs": [{"name": "y", "dtype": ACL[exp.dtype], "dims": list(exp.shape)}]}
    cc.save_json(os.path.join(d, "status.json"), rec)
    np.save(os.path.join(d, "exp_0.npy"), exp)
    lines = [status_line]
    if got is not None:
        g = np.asarray(got)
        with open(os.path.join(d, "host", "out_0.bin"), "wb") as f:
            f.write(g.astype(g.dtype.newbyteorder("<")).tobytes())
        dims = list(g.shape) if got_dims is None else got_dims
        acl = ACL[g.dtype] if got_acl is None else got_acl
        lines.append("out 0 %s %d %d%s" % (got_name, acl, len(dims),
                                            "".join(" %d" % x for x in dims)))
    with open(os.path.join(d, "host", "result.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return d


def verdict(root, name):
    rec = cc.load_json(os.path.join(root, "node", name, "status.json"))
    return compare.judge(rec, "host")


def main():
    root = tempfile.mkdtemp(prefix="conf_compare_")
    f32 = np.array([[1.0, -2.0, 3.5], [0.0, 1e-9, 100.0]], dtype=np.float32)
    cases = [
        # (name, expected, got, kwargs, status, what)
        ("exact", f32, f32.copy(), {}, "pass", "identical floats pass"),
        ("within", f32, f32 * np.float32(1 + 5e-4), {}, "pass",
         "floats within rtol 1e-3 pass"),
        ("past", f32, f32 + np.array([[0, 0, 0], [0, 0, 0.2]], np.float32), {}, "fail",
         "a float 0.2 off at 100 (rtol 1e-3 allows 0.1) fails"),
        ("wrong_expected", f32 + np.float32(1.0), f32.copy(), {}, "fail",
         "a deliberately wrong expected output fails"),
        ("atol_only", np.zeros(4, np.float32), np.full(4, 2e-7, np.float32), {}, "fail",
         "2e-7 against 0 is past atol 1e-7"),
        ("atol_ok", np.zeros(4, np.float32), np.full(4, 5e-8, np.float32), {}, "pass",
         "5e-8 against 0 is within atol"),
        ("nan_nan", np.array([np.nan, 1], np.float32), np.array([np.nan, 1], np.float32),
         {}, "pass", "NaN equals NaN"),
        ("nan_num", np.array([np.nan, 1], np.float32), np.array([0, 1], np.float32),
         {}, "fail", "a number where NaN is expected fails"),
        ("num_nan", np.array([0, 1], np.float32), np.array([np.nan, 1], np.float32),
         {}, "fail", "NaN where a number is expected fails"),
        ("inf_same", np.array([np.inf, -np.inf], np.float32),
         np.array([np.inf, -np.inf], np.float32), {}, "pass", "same infinities pass"),
        ("inf_sign", np.array([np.inf], np.float32), np.array([-np.inf], np.float32),
         {}, "fail", "+inf against -inf fails"),
        ("inf_finite", np.array([3.0e38], np.float32), np.array([np.inf], np.float32),
         {}, "fail", "inf against a large finite value fails"),
        ("bool_ok", np.array([True, False]), np.array([True, False]), {}, "pass",
         "equal bools pass"),
        ("bool_bad", np.array([True, False]), np.array([True, True]), {}, "fail",
         "one wrong bool fails"),
        ("bool_poison", np.array([True, False]), np.array([0xA5, 0], np.uint8),
         {"got_acl": 12}, "fail",
         "a bool byte that is neither 0 nor 1 (an unwritten output) fails where True is expected"),
        ("int_off_by_one", np.array([1000000, 7], np.int64), np.array([1000001, 7], np.int64),
         {}, "fail", "integers are exact (1000001 vs 1000000 fails, though within rtol)"),
        ("int_ok", np.array([-5, 7], np.int32), np.array([-5, 7], np.int32), {}, "pass",
         "equal int32 pass"),
        ("dtype", np.array([1, 2], np.int64), np.array([1, 2], np.int32), {}, "fail",
         "same values in another dtype fail"),
        ("dtype_f16", np.array([1, 2], np.float32), np.array([1, 2], np.float16), {}, "fail",
         "float16 where float32 is expected fails"),
        ("shape", f32, f32.reshape(3, 2), {}, "fail", "same data in another shape fails"),
        ("shape_bytes", f32, f32.reshape(-1)[:3], {"got_dims": [2, 3]}, "fail",
         "an output file shorter than its dims fails"),
        ("other_name", f32, f32.copy(), {"got_name": "z"}, "fail",
         "the right values under another output's name fail (outputs out of order)"),
        ("error", f32, None, {"status_line": "status error aclmdlExecute: boom"}, "fail",
         "a runner error fails"),
        ("crash", f32, None, {"status_line": "status crash signal 11"}, "crash",
         "a crash is a crash"),
        ("no_output", f32, None, {}, "fail", "a missing output fails"),
        ("unsupported", f32, None, {"compiled": False}, "unsupported",
         "a model atc refused is unsupported"),
        ("empty", np.zeros((0, 3), np.float32), np.zeros((0, 3), np.float32), {}, "pass",
         "empty outputs of the same shape pass"),
    ]
    for name, exp, got, kw, want, what in cases:
        make_test(root, name, exp, got, **kw)
        status, detail = verdict(root, name)
        check(status == want, "%s (%s: got %s %s)" % (what, name, status, detail.get("msg", "")))
    # the worst element is reported: index and values
    status, detail = verdict(root, "past")
    check(detail.get("index") == [1, 2] and abs(float(detail.get("got", 0)) - 100.2) < 1e-4,
          "the failing element is named: %s" % detail.get("msg"))
    # never a result: crash with a reason
    d = make_test(root, "never_ran", f32, f32)
    os.remove(os.path.join(d, "host", "result.txt"))
    status, detail = verdict(root, "never_ran")
    check(status == "crash" and "no result" in detail["msg"], "a test the runner never reached is a crash")
    # BF16 bits decode as the upper half of float32
    bits = (np.array([1.5, -2.25], np.float32).view(np.uint32) >> 16).astype("<u2")
    check(np.array_equal(compare.decode(bits.tobytes(), 27, [2]), np.array([1.5, -2.25], np.float32)),
          "BF16 outputs decode from their bits")
    # strings: heads and text, compared exactly; a bad head fails
    words = np.array(["monday", "Straße", ""], dtype=object)
    packed = cc.pack_strings(words)
    check(list(cc.unpack_strings(packed + b"\xa5" * 40, [3])) == list(words),
          "strings round-trip through pack_strings/unpack_strings (UTF-8, empty)")
    bad_head = bytearray(packed)
    bad_head[16:24] = (len(packed) - 1).to_bytes(8, "little")   # string 1 runs past the end
    for name, raw, want, what in [
            ("str_ok", packed + b"\0" * 64, "pass", "equal strings pass"),
            ("str_diff", cc.pack_strings(np.array(["monday", "STRASSE", ""], dtype=object)),
             "fail", "one different string fails"),
            ("str_head", bytes(bad_head), "fail", "a head past the buffer fails"),
            ("str_poison", b"\xa5" * 96, "fail", "an unwritten (poisoned) string output fails")]:
        d = os.path.join(root, "node", name)
        os.makedirs(os.path.join(d, "host"))
        cc.save_json(os.path.join(d, "status.json"),
                     {"suite": "node", "name": name, "dir": d, "ops": ["Op"],
                      "status": "compiled", "msg": "",
                      "outputs": [{"name": "y", "dtype": 13, "dims": [3]}]})
        np.save(os.path.join(d, "exp_0.npy"), words, allow_pickle=True)
        with open(os.path.join(d, "host", "out_0.bin"), "wb") as f:
            f.write(raw)
        with open(os.path.join(d, "host", "result.txt"), "w") as f:
            f.write("status ok\nout 0 y 13 1 3\n")
        status, detail = verdict(root, name)
        check(status == want, "%s (%s: got %s %s)" % (what, name, status, detail.get("msg", "")))
    # the report and the TAP against a passing list
    with open(os.path.join(root, "tests.txt"), "w") as f:
        for name in ("exact", "past", "bool_ok"):
            f.write(os.path.join(root, "node", name) + "\n")
    report = compare.build_report(root, "host")
    s = report["summary"]["node"]
    check(s["total"] == 3 and s["pass"] == 2 and s["fail"] == 1, "summary counts: %s" % s)
    tap = os.path.join(root, "t.tap")
    bad = compare.tap(report, ["node/exact", "node/past", "node/gone"], tap)
    text = open(tap).read()
    check(bad == 2 and "not ok 2 - node/past" in text and "not ok 3 - node/gone # not run" in text
          and "ok 1 - node/exact" in text, "listed tests that do not pass are not ok")
    check("ok 4 - node/bool_ok # TODO newly passing" in text and "1..4" in text,
          "an unlisted pass is TODO information, not a failure")
    print("1..%d" % n)
    os.system("rm -rf '%s'" % root)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
