#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Host overhead per aclnn call from Python (vnpu_runtime.ops.add with
out=, 16 float32 elements) against the same loop in C
(aclnn_call_bench: aclnnAddGetWorkspaceSize + aclnnAdd), issue 15's
goal being <= 2x. CALLS calls on one stream, the time taken before the
one synchronize at the end; REPS rounds, C and Python alternating, the
median of each. Runs in the guest (make bench).
usage: py_aclnn_bench.py OUT.json [CALLS [REPS]]
"""
import pathlib
import statistics
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "pylib"))

from testenv import BUILD, cpu_name, write_bench_json  # noqa: E402  (and build/python)

import numpy as np  # noqa: E402

from vnpu_runtime import DeviceTensor, Runtime, ops  # noqa: E402

C_BENCH = BUILD / "tests" / "bench" / "aclnn_call_bench"


def c_round(calls):
    out = subprocess.run([str(C_BENCH), str(calls)], check=True, capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        if line.startswith("ns_per_call "):
            return float(line.split()[1])
    raise RuntimeError("aclnn_call_bench printed no figure: %r" % out)


def py_round(calls, a, b, out, stream):
    add = ops.add
    add(a, b, out=out)              # warm up, as the C side does
    stream.synchronize()
    t0 = time.perf_counter_ns()
    for _ in range(calls):
        add(a, b, out=out)
    t = (time.perf_counter_ns() - t0) / calls
    stream.synchronize()
    return t


def main():
    path = sys.argv[1]
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    c_times, py_times = [], []
    with Runtime(0) as rt:
        a = DeviceTensor.from_numpy(np.ones(16, np.float32), runtime=rt)
        b = DeviceTensor.from_numpy(np.ones(16, np.float32), runtime=rt)
        out = DeviceTensor.empty(16, np.float32, runtime=rt)
        for _ in range(reps):
            c_times.append(c_round(calls))
            py_times.append(py_round(calls, a, b, out, rt.default_stream))
        assert (out.to_numpy() == 2).all()
    c_ns, py_ns = statistics.median(c_times), statistics.median(py_times)
    ratio = py_ns / c_ns
    print("aclnnAdd (16 x float32), %d calls on one stream, median of %d rounds:"
          % (calls, reps))
    print("  C       %9.1f ns/call   (rounds: %s)" % (c_ns, " ".join("%.0f" % t for t in c_times)))
    print("  Python  %9.1f ns/call   (rounds: %s)" % (py_ns, " ".join("%.0f" % t for t in py_times)))
    print("  Python / C = %.2fx (goal <= 2x)" % ratio)
    cpu = cpu_name()
    entries = [
        {"name": "aclnn_add_host_ns_per_call_c", "value": round(c_ns, 1), "unit": "ns",
         "baseline": 0.0, "ratio": 0.0, "cpu": cpu},
        {"name": "aclnn_add_host_ns_per_call_python_vs_c", "value": round(py_ns, 1),
         "unit": "ns", "baseline": round(c_ns, 1), "ratio": round(ratio, 3), "cpu": cpu},
    ]
    write_bench_json(path, entries)


if __name__ == "__main__":
    main()
