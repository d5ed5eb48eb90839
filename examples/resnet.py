#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""resnet.py: examples/resnet.c in Python, through the high-level package:

    with Runtime(0) as rt, rt.load_model("resnet18.om") as model:
        logits = model.infer({"input": image})["output"]

prints the model's description and the top-5 classes, and checks them
against PyTorch's output for the same input (written by `make models`
as NAME.output.npy). Exit status 1 if they differ.
usage: resnet.py [MODEL.om [INPUT.npy [EXPECTED.npy]]]
"""
import pathlib
import sys
import time

TOP = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TOP / "build" / "python"))

import numpy as np  # noqa: E402

from cann_runtime import Runtime  # noqa: E402


def top5(logits):
    flat = logits.reshape(-1)
    idx = np.argsort(-flat, kind="stable")[:5]
    p = np.exp(flat - flat.max())
    return idx, flat[idx], p[idx] / p.sum()


def main():
    om = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else TOP / "build/models/resnet18.om")
    stem = str(om)[:-3]
    x = np.load(sys.argv[2] if len(sys.argv) > 2 else stem + ".input.npy")
    ref_path = pathlib.Path(sys.argv[3] if len(sys.argv) > 3 else stem + ".output.npy")
    with Runtime(0) as rt, rt.load_model(om) as model:
        for kind, infos in (("input", model.inputs), ("output", model.outputs)):
            for i in infos:
                print("  %s %-8s dims %s  %s  %d bytes"
                      % (kind, i.name, list(i.shape), i.dtype, i.nbytes))
        t = time.perf_counter()
        out = model.infer({model.input_names[0]: x})
        ms = 1e3 * (time.perf_counter() - t)
    logits = out[model.output_names[0]]
    idx, val, score = top5(logits)
    print("top-5 of %d classes (Model.infer, %.0f ms):" % (logits.size, ms))
    for k in range(5):
        print("  #%d class %4d  logit %9.5f  score %.5f" % (k + 1, idx[k], val[k], score[k]))
    if not ref_path.exists():
        print("no %s to compare with" % ref_path)
        return 0
    ref = np.load(ref_path)
    ref_idx = top5(ref)[0]
    diff = float(np.max(np.abs(ref.reshape(-1) - logits.reshape(-1))))
    same = list(idx) == list(ref_idx)
    print("PyTorch's top-5 %s: %s; max |logit difference| %.2e"
          % (list(map(int, ref_idx)), "the same" if same else "DIFFERENT", diff))
    return 0 if same and diff < 1e-2 else 1


if __name__ == "__main__":
    sys.exit(main())
