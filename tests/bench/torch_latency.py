#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""PyTorch's side of the latency figure of tests/bench/model_bench.c:
ResNet-18 (torchvision, batch 1, 224x224, eval, no grad) on the CPU with
one thread, in the same guest; the median of 5 runs after one to warm up.
usage: torch_latency.py OUT.json
"""
import json
import os
import statistics
import sys
import time

import torch
import torchvision


def cpu_name():
    """The machine, as tests/bench/bench_json.h names it."""
    name = os.environ.get("VNPU_BENCH_CPU", "")
    if not name:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    name = line.split(":", 1)[1].strip()
                    break
    return (name or "unknown").replace('"', "'").replace("\\", "'")


def main():
    torch.set_num_threads(1)
    torch.manual_seed(13)
    model = torchvision.models.resnet18(weights=None).eval()
    x = torch.randn(1, 3, 224, 224)
    times = []
    with torch.no_grad():
        model(x)
        for _ in range(5):
            t0 = time.perf_counter()
            model(x)
            times.append(time.perf_counter() - t0)
    ms = statistics.median(times) * 1e3
    print("PyTorch %s, 1 thread: ResNet-18 batch 1 %.1f ms (median of 5)"
          % (torch.__version__, ms))
    entry = {"name": "resnet18_b1_latency_ms_torch_cpu_1thread", "value": round(ms, 3),
             "unit": "ms", "baseline": 0.0, "ratio": 0.0, "cpu": cpu_name()}
    with open(sys.argv[1], "w") as f:
        f.write("[\n  %s\n]\n" % json.dumps(entry))


if __name__ == "__main__":
    main()
