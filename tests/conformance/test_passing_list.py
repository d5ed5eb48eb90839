#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Host check of tests/conformance/passing.txt (TAP): sorted, no
duplicates, and every line names an existing test directory of Debian's
libonnx-testdata ("suite/test" with a model.onnx)."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "conformance"))
import conf_common as cc  # noqa: E402


def main():
    path = os.path.join(HERE, "passing.txt")
    with open(path) as f:
        lines = [ln.rstrip("\n") for ln in f]
    results = []
    results.append((lines == sorted(lines), "passing.txt is sorted"))
    results.append((len(lines) == len(set(lines)), "passing.txt has no duplicate line"))
    bad = [ln for ln in lines
           if ln.count("/") != 1 or ln.split("/")[0] not in cc.SUITES or
           not os.path.isfile(os.path.join(cc.DATA, ln, "model.onnx"))]
    results.append((not bad, "every line names a test directory%s" % (
        "" if not bad else ": not %s" % ", ".join(bad[:5]))))
    results.append((len(lines) > 0, "the list is not empty (%d tests)" % len(lines)))
    print("TAP version 13")
    print("1..%d" % len(results))
    for i, (ok, what) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, what))
    return 0 if all(ok for ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
