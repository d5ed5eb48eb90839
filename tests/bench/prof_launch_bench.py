#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Eager aclnn launch cost with profiling compiled in but off, against the
runtime built without it (build/lib-noprof: -DVNPU_PROF_COMPILED_OUT, which
compiles the API spans, task tags and launch records out, as the runtime
was before issue 34). The same program, aclnn_call_bench (host ns per
aclnnAddGetWorkspaceSize + aclnnAdd), runs on each library in turn, REPS
rounds alternating; the medians are compared. Goal: within noise.
A third figure runs it with ACL_PROF_TASK_TIME | ACL_PROF_ACL_API
collected (through PROFILER_SAMPLECONFIG) to show what collection costs.
usage: prof_launch_bench.py OUT.json [CALLS [REPS]]
"""
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "pylib"))

from testenv import BUILD, cpu_name, write_bench_json  # noqa: E402

C_BENCH = BUILD / "tests" / "bench" / "aclnn_call_bench"
LIB_ON = BUILD / "lib"
LIB_OFF = BUILD / "lib-noprof"


def one(calls, libdir, extra_env=None):
    env = dict(os.environ, LD_LIBRARY_PATH=str(libdir))
    env.pop("PROFILER_SAMPLECONFIG", None)
    env.update(extra_env or {})
    out = subprocess.run([str(C_BENCH), str(calls)], check=True, capture_output=True,
                         text=True, env=env).stdout
    for line in out.splitlines():
        if line.startswith("ns_per_call "):
            return float(line.split()[1])
    raise RuntimeError("aclnn_call_bench printed no figure: %r" % out)


def main():
    path = sys.argv[1]
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    if not (LIB_OFF / "libascendcl.so.1").exists():
        sys.exit("%s: missing (make lib-noprof)" % LIB_OFF)
    with tempfile.TemporaryDirectory() as tmp:
        collect = {"PROFILER_SAMPLECONFIG": json.dumps(
            {"switch": "on", "output": tmp, "task_time": "on", "ascendcl": "on"}),
            "VNPU_PROF_EXPORT": "0"}
        without, off, on = [], [], []
        for _ in range(reps):
            without.append(one(calls, LIB_OFF))
            off.append(one(calls, LIB_ON))
            on.append(one(calls, LIB_ON, collect))
    w, f, c = (statistics.median(v) for v in (without, off, on))
    spread = (max(without) - min(without)) / w * 100
    print("aclnnAdd (16 x float32), %d calls, median of %d rounds:" % (calls, reps))
    for label, v, m in (("compiled out", without, w), ("compiled in, off", off, f),
                        ("collecting", on, c)):
        print("  %-17s %9.1f ns/call   (rounds: %s)"
              % (label, m, " ".join("%.0f" % t for t in v)))
    print("  off / compiled out = %.3f (rounds of the compiled-out build spread %.1f %%)"
          % (f / w, spread))
    cpu = cpu_name()
    write_bench_json(path, [
        {"name": "prof_aclnn_launch_ns_compiled_in_off_vs_out", "value": round(f, 1),
         "unit": "ns", "baseline": round(w, 1), "ratio": round(w / f, 3), "cpu": cpu},
        {"name": "prof_aclnn_launch_ns_collecting_vs_off", "value": round(c, 1),
         "unit": "ns", "baseline": round(f, 1), "ratio": round(f / c, 3), "cpu": cpu},
    ])


if __name__ == "__main__":
    main()
