#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# msprof on real programs, in the VM: examples/mlp and examples/graph run
# under msprof, and the exported files agree with the raw data the
# library wrote (counted here from the .tsv files, not by the exporter):
# one op_summary row per kernel record, one task_time row per task
# record, durations summed, API counts, one flow per launch that became a
# task, a trace that keeps to the event schema, a timeline. TAP.
import csv
import glob
import json
import os
import shutil
import subprocess
import sys
from collections import Counter

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, "tests", "pylib"))
sys.path.insert(0, os.path.join(TOP, "tests", "unit"))
from testenv import check, done  # noqa: E402
import prof_synth as ps  # noqa: E402

B = os.path.join(TOP, "build")


def ns(s):
    a, b = s.split(".")
    return int(a) * 1000 + int(b)


def one(example, out):
    shutil.rmtree(out, ignore_errors=True)
    p = subprocess.run([str(ps.MSPROF), "--output=%s" % out, "--ascendcl=on",
                        "--task-time=on", os.path.join(B, "examples", example)],
                       capture_output=True, text=True, timeout=900)
    check("%s under msprof: exit 0" % example, p.returncode == 0)
    dirs = glob.glob(os.path.join(out, "PROF_*"))
    check("%s: one PROF_ directory" % example, len(dirs) == 1)
    if len(dirs) != 1:
        return
    d = dirs[0]
    o = os.path.join(d, "mindstudio_profiler_output")
    tl = glob.glob(os.path.join(o, "timeline_*.html"))
    check("%s: msprof prints the timeline's path" % example,
          len(tl) == 1 and ("timeline: " + tl[0]) in p.stdout)

    recs = []
    for f in glob.glob(os.path.join(d, "device_*", "data", "task.tsv")):
        dev = int(os.path.basename(os.path.dirname(os.path.dirname(f)))[7:])
        recs += [(dev, r) for r in ps.read_tsv(f) if r[0] == "task"]
    kernels = [r for _, r in recs if r[6] == "7"]
    check("%s: the device recorded kernel tasks (%d)" % (example, len(kernels)), kernels)

    def rows(base):
        f = glob.glob(os.path.join(o, base + "_*.csv"))
        with open(f[0], newline="") as fp:
            return list(csv.DictReader(fp))
    ops = rows("op_summary")
    check("%s: one op_summary row per kernel record (%d)" % (example, len(ops)),
          len(ops) == len(kernels))
    check("%s: op_summary durations sum to the records' (end - start)" % example,
          sum(ns(x["Task Duration(us)"]) for x in ops) ==
          sum(int(r[10]) - int(r[9]) for r in kernels))
    check("%s: every operator is named" % example,
          all(x["OP Type"] not in ("", "N/A") for x in ops))
    tt = rows("task_time")
    check("%s: one task_time row per task record" % example, len(tt) == len(recs))
    apis = ps.read_tsv(os.path.join(d, "host", "data", "api.tsv"))
    want = Counter((a[0], a[1]) for a in apis)
    got = {(x["Level"], x["API Name"]): int(x["Count"]) for x in rows("api_statistic")}
    check("%s: api_statistic counts each API's spans (%d APIs)" % (example, len(want)),
          want and got == dict(want))
    with open(glob.glob(os.path.join(o, "msprof_*.json"))[0]) as f:
        ev = json.load(f)
    bad = ps.trace_problems(ev)
    check("%s: the trace keeps to the event schema %s" % (example, bad[:2]), not bad)
    keys = {(dev, r[2], r[3], r[4]) for dev, r in recs}
    launches = ps.read_tsv(os.path.join(d, "host", "data", "launch.tsv"))
    matched = sum(1 for l in launches if (int(l[0]), l[1], l[2], l[3]) in keys)
    flows = sum(1 for e in ev if e["ph"] == "s")
    check("%s: one flow per launch that became a task (%d)" % (example, matched),
          flows == matched)


def main():
    if not ps.MSPROF.exists():
        check("build/tools/msprof exists", False)
        return done()
    for e in ("mlp", "graph"):
        one(e, os.path.join(B, "tests", "msprof_vm", e))
    return done()


if __name__ == "__main__":
    sys.exit(main())
