#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Seed 001's table from Python (issue 15): ResNet-18 batch 1 through the
high-level package, synchronous Model.infer on one stream against
Model.infer_async over 4 streams (at most one request in flight per
stream: the oldest is waited for and its stream gets the next). QPS and
mean/p99 request latency (submission to result); rounds alternate the two
modes and the medians are reported. Runs in the guest (make bench).
usage: py_runtime_bench.py OUT.json
env: VNPU_PYBENCH_N (requests per mode and round, default 4),
     VNPU_PYBENCH_ROUNDS (default 2), VNPU_PYBENCH_MODEL (an .om)
"""
import os
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "pylib"))

from testenv import BUILD, cpu_name, write_bench_json  # noqa: E402  (and build/python)

import numpy as np  # noqa: E402

from vnpu_runtime import Runtime  # noqa: E402

STREAMS = 4


def run_sync(model, x, n):
    lat = []
    t0 = time.perf_counter()
    for _ in range(n):
        t = time.perf_counter()
        model.infer(x)
        lat.append(time.perf_counter() - t)
    return n / (time.perf_counter() - t0), lat


ENQUEUE = []     # seconds infer_async took to return (it must not wait)


def run_async(model, x, n, streams):
    lat, inflight = [], []
    t0 = time.perf_counter()
    for i in range(n):
        if len(inflight) == len(streams):
            fut, t = inflight.pop(0)
            fut.get()
            lat.append(time.perf_counter() - t)
        t = time.perf_counter()
        inflight.append((model.infer_async(x, stream=streams[i % len(streams)]), t))
        ENQUEUE.append(time.perf_counter() - t)
    for fut, t in inflight:
        fut.get()
        lat.append(time.perf_counter() - t)
    return n / (time.perf_counter() - t0), lat


def p99(values):
    v = sorted(values)
    return v[min(len(v) - 1, int(round(0.99 * (len(v) - 1))))]


def entry(name, value, unit, baseline=0.0):
    return {"name": name, "value": round(value, 4), "unit": unit,
            "baseline": round(baseline, 4),
            "ratio": round(value / baseline, 4) if baseline else 0.0, "cpu": cpu_name()}


def main():
    out = sys.argv[1]
    n = int(os.environ.get("VNPU_PYBENCH_N", "4"))
    rounds = int(os.environ.get("VNPU_PYBENCH_ROUNDS", "2"))
    path = os.environ.get("VNPU_PYBENCH_MODEL", str(BUILD / "models" / "resnet18.om"))
    if not os.path.exists(path):
        print("py_runtime_bench: no %s ('make models-om' converts it); skipped" % path)
        write_bench_json(out, [])
        return
    print("py_runtime_bench: %s, %d requests per mode, %d rounds, CPU %s, %d vCPUs"
          % (os.path.basename(path), n, rounds, cpu_name(), os.cpu_count()))
    qps = {"sync": [], "async": []}
    lat = {"sync": [], "async": []}
    with Runtime(0) as rt, rt.load_model(path) as model:
        info = model.inputs[0]
        x = np.random.default_rng(16).standard_normal(info.shape).astype(info.dtype)
        streams = [rt.create_stream() for _ in range(STREAMS)]
        model.infer(x)                                  # warm-up, and the slots
        run_async(model, x, STREAMS, streams)
        for r in range(rounds):
            order = ("sync", "async") if r % 2 == 0 else ("async", "sync")
            for mode in order:
                q, ls = (run_sync(model, x, n) if mode == "sync"
                         else run_async(model, x, n, streams))
                qps[mode].append(q)
                lat[mode].extend(ls)
                print("  round %d %-5s  %.4f QPS  mean %.1f ms  max %.1f ms"
                      % (r + 1, mode, q, 1e3 * statistics.mean(ls), 1e3 * max(ls)))
    qs, qa = statistics.median(qps["sync"]), statistics.median(qps["async"])
    ms = {m: (1e3 * statistics.mean(v), 1e3 * p99(v)) for m, v in lat.items()}
    enq = 1e3 * statistics.median(ENQUEUE)
    print("| mode | QPS | ms per inference (1/QPS, seed 001's latency) "
          "| request latency mean (ms) | p99 (ms) |")
    print("|---|---|---|---|---|")
    print("| sync, 1 stream | %.4f | %.1f | %.1f | %.1f |" % (qs, 1e3 / qs, *ms["sync"]))
    print("| infer_async, 4 streams | %.4f | %.1f | %.1f | %.1f |"
          % (qa, 1e3 / qa, *ms["async"]))
    print("infer_async returns after %.2f ms (median): it does not wait for the execution" % enq)
    print("python resnet18 QPS, 4 streams async / 1 stream sync: %.2fx (goal >= 1.8)" % (qa / qs))
    figures = [
        entry("py_resnet18_qps_1_stream_sync", qs, "QPS"),
        entry("py_resnet18_qps_4_streams_async", qa, "QPS"),
        entry("py_resnet18_qps_4_streams_async_vs_1_sync", qa, "QPS", qs),
        entry("py_resnet18_ms_per_inference_1_stream_sync", 1e3 / qs, "ms"),
        entry("py_resnet18_ms_per_inference_4_streams_async", 1e3 / qa, "ms"),
        entry("py_resnet18_infer_async_enqueue_ms", enq, "ms"),
        entry("py_resnet18_latency_ms_mean_1_stream_sync", ms["sync"][0], "ms"),
        entry("py_resnet18_latency_ms_p99_1_stream_sync", ms["sync"][1], "ms"),
        entry("py_resnet18_latency_ms_mean_4_streams_async", ms["async"][0], "ms"),
        entry("py_resnet18_latency_ms_p99_4_streams_async", ms["async"][1], "ms"),
    ]
    write_bench_json(out, figures)


if __name__ == "__main__":
    main()
