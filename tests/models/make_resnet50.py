#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""ResNet-50 for the big-model test (issue 35, section 4), made by PyTorch
with a fixed seed, the way CANN's ResNet-50 sample feeds it: an fp16
image tensor in, fp32 scores out.

torchvision's ResNet-50 (random weights, BatchNorm given real statistics
as make_models.py does) behind a Cast of its fp16 input to fp32, exported
with a symbolic batch (atc fixes it with --input_shape: batch 1 and 8).
For each batch B: resnet50.bB.input.bin (the seeded fp16 images, raw
little-endian) and resnet50.bB.output.bin (PyTorch's fp32 scores for
exactly those fp16 values, computed in fp32 on the host).

usage: make_resnet50.py OUTDIR
"""
import os
import sys
import time
import warnings

import numpy as np
import torch
import torchvision

SEED = 50
OPSET = 13
BATCHES = (1, 8)


class Fp16In(torch.nn.Module):
    """The network behind a cast: the model's input is fp16."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x):
        return self.net(x.float())


def resnet50():
    torch.manual_seed(SEED)
    m = torchvision.models.resnet50(weights=None)
    gen = torch.Generator().manual_seed(SEED + 1)
    bns = [b for b in m.modules() if isinstance(b, torch.nn.BatchNorm2d)]
    for bn in bns:
        bn.reset_running_stats()
        bn.momentum = None
        with torch.no_grad():
            bn.weight.uniform_(0.5, 1.5, generator=gen)
            bn.bias.uniform_(-0.2, 0.2, generator=gen)
    m.train()
    with torch.no_grad():
        m(torch.randn((4, 3, 224, 224), generator=gen))
    m.eval()
    return Fp16In(m).eval()


def main():
    outdir = sys.argv[1]
    warnings.filterwarnings("ignore")
    os.makedirs(outdir, exist_ok=True)
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    t0 = time.time()
    model = resnet50()
    x1 = torch.randn((1, 3, 224, 224), generator=torch.Generator().manual_seed(SEED + 2))
    with torch.no_grad():
        torch.onnx.export(model, (x1.half(),), os.path.join(outdir, "resnet50.onnx"),
                          opset_version=OPSET, input_names=["input"],
                          output_names=["output"],
                          dynamic_axes={"input": {0: "batch"}, "output": {0: "batch"}},
                          training=torch.onnx.TrainingMode.EVAL,
                          do_constant_folding=True)
    for b in BATCHES:
        rng = np.random.RandomState(SEED * 100 + b)
        x = rng.standard_normal((b, 3, 224, 224)).astype("<f2")
        with torch.no_grad():
            y = model(torch.from_numpy(x)).numpy().astype("<f4")
        x.tofile(os.path.join(outdir, "resnet50.b%d.input.bin" % b))
        y.tofile(os.path.join(outdir, "resnet50.b%d.output.bin" % b))
    print("resnet50: exported to %s in %.1fs" % (outdir, time.time() - t0))


if __name__ == "__main__":
    main()
