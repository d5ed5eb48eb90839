#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Rewrite the passing list from a guest conformance report: every test
that passed, as sorted "suite/test" lines. Run deliberately
(`make conformance-update`) after a full `make conformance`; make check
then fails for each listed test that stops passing.

    update_passing.py build/conformance/report.json tests/conformance/passing.txt
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conf_common as cc  # noqa: E402


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: update_passing.py REPORT.json passing.txt")
    report = cc.load_json(sys.argv[1])
    if not report or report.get("mode") != "guest":
        sys.exit("update_passing: %s is not a guest report (run make conformance)" % sys.argv[1])
    ran = {t["suite"] + "/" + t["name"] for t in report["tests"]}
    if len(ran) < sum(1 for _ in cc.test_dirs()):
        sys.exit("update_passing: the report covers %d tests, not all: a filtered run? "
                 "run make conformance without CONF_FILTER" % len(ran))
    passing = sorted(t["suite"] + "/" + t["name"] for t in report["tests"]
                     if t["status"] == "pass")
    old = set(cc.read_list(sys.argv[2])) if os.path.exists(sys.argv[2]) else set()
    with open(sys.argv[2], "w") as f:
        f.write("".join(p + "\n" for p in passing))
    print("update_passing: %d tests (%d new, %d no longer passing)" % (
        len(passing), len(set(passing) - old), len(old - set(passing))))


if __name__ == "__main__":
    main()
