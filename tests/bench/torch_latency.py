#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""PyTorch's side of the latency figure of tests/bench/model_bench.c:
ResNet-18 (torchvision, batch 1, 224x224, eval, no grad) on the CPU with
one thread, in the same guest; the median of 5 runs after one to warm up.
usage: torch_latency.py OUT.json
"""
import pathlib
import statistics
import sys
import time

import torch
import torchvision

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "pylib"))

from testenv import cpu_name, write_bench_json  # noqa: E402


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
    write_bench_json(sys.argv[1], [entry])


if __name__ == "__main__":
    main()
