#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The test models of issue 13, made by PyTorch with fixed seeds.

For each model: NAME.onnx (opset 13), NAME.input.bin (a seeded random
input) and NAME.output.bin (PyTorch's output for it), raw little-endian
float32, the same two arrays as NAME.input.npy and NAME.output.npy (for
the atc host tests), and one models.json describing them all. NAME is
resnet18, mobilenet_v2 and transformer; every input is "input", every
output "output". ResNet-18 is also exported with a symbolic batch
dimension (resnet18_dyn.onnx) for atc's --dynamic_batch_size, with
inputs and references at batch 2 and 4, on 64x64 images: the network
takes any size from 32 up (its pooling is adaptive), and at 224x224 six
emulated inferences took most of the test's five minutes.

usage: make_models.py OUTDIR
"""
import json
import os
import sys
import time
import warnings

import numpy as np
import torch
import torchvision

SEED = 13
OPSET = 13
# The dynamic-batch model's image size (ResNet-18 pools adaptively).
DYN_HW = 64


def calibrate_bn(model, shape, seed):
    """Give every BatchNorm real statistics (and a random affine part), so
    that folding BN into the convolution is exercised with values that are
    not the identity, and activations stay near unit scale through the
    residual adds (random init with identity BN makes them grow)."""
    gen = torch.Generator().manual_seed(seed)
    bns = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    for bn in bns:
        bn.reset_running_stats()
        bn.momentum = None          # a plain average over the batches
        with torch.no_grad():
            bn.weight.uniform_(0.5, 1.5, generator=gen)
            bn.bias.uniform_(-0.2, 0.2, generator=gen)
    model.train()
    with torch.no_grad():
        model(torch.randn(shape, generator=gen))
    model.eval()


def resnet18():
    torch.manual_seed(SEED)
    m = torchvision.models.resnet18(weights=None)
    calibrate_bn(m, (4, 3, 224, 224), SEED + 1)
    return m


def mobilenet_v2():
    torch.manual_seed(SEED)
    m = torchvision.models.mobilenet_v2(weights=None)
    calibrate_bn(m, (4, 3, 224, 224), SEED + 2)
    return m


def encoder_layer():
    torch.manual_seed(SEED)
    m = torch.nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128,
                                         activation="gelu", batch_first=True)
    return m.eval()


def seeded_input(shape, seed):
    rng = np.random.RandomState(seed)
    return rng.standard_normal(shape).astype("<f4")


def run(model, x):
    # Grad enabled with parameters that require it: torch 1.13's
    # TransformerEncoderLayer then takes its composite path (the one
    # torch.onnx can trace) instead of the fused
    # torch._transformer_encoder_layer_fwd, for the export and for the
    # reference alike.
    with torch.enable_grad():
        return model(torch.from_numpy(x)).detach().numpy().astype("<f4")


def export(model, x, path, in_name, keep_bn, dynamic_batch=False):
    """torch folds BatchNorm into the convolution when it exports in EVAL
    mode; PRESERVE (the model is in eval mode anyway) keeps the
    BatchNormalization nodes, for atc's own folding to do."""
    axes = None
    if dynamic_batch:
        axes = {in_name: {0: "batch"}, "output": {0: "batch"}}
    mode = torch.onnx.TrainingMode.PRESERVE if keep_bn else torch.onnx.TrainingMode.EVAL
    with torch.enable_grad():
        torch.onnx.export(model, (torch.from_numpy(x),), path, opset_version=OPSET,
                          input_names=[in_name], output_names=["output"],
                          dynamic_axes=axes, training=mode, do_constant_folding=True)


def write_case(outdir, stem, x, y, entry):
    for kind, a in (("input", x), ("output", y)):
        a.tofile(os.path.join(outdir, "%s.%s.bin" % (stem, kind)))
        np.save(os.path.join(outdir, "%s.%s.npy" % (stem, kind)), a)
    entry["cases"].append({"stem": stem, "input_shape": list(x.shape),
                           "output_shape": list(y.shape)})


def main():
    outdir = sys.argv[1]
    # PRESERVE with constant folding warns about models in training mode;
    # these are in eval mode.
    warnings.filterwarnings("ignore", message=".*constant folding.*")
    os.makedirs(outdir, exist_ok=True)
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    t0 = time.time()
    desc = {"seed": SEED, "opset": OPSET, "torch": torch.__version__,
            "torchvision": torchvision.__version__, "models": []}
    # ResNet-18 keeps its BatchNormalization nodes (atc folds them);
    # MobileNetV2 comes with them folded by torch, as most exports do.
    specs = [
        ("resnet18", resnet18, "input", (1, 3, 224, 224), True),
        ("mobilenet_v2", mobilenet_v2, "input", (1, 3, 224, 224), False),
        ("transformer", encoder_layer, "input", (2, 16, 64), False),
    ]
    for i, (name, make, in_name, shape, keep_bn) in enumerate(specs):
        model = make()
        x = seeded_input(shape, SEED * 100 + i)
        entry = {"name": name, "onnx": name + ".onnx", "input": in_name,
                 "output": "output", "cases": []}
        export(model, x, os.path.join(outdir, name + ".onnx"), in_name, keep_bn)
        write_case(outdir, name, x, run(model, x), entry)
        desc["models"].append(entry)
        if name == "resnet18":
            # The same network with a symbolic batch, and references at the
            # dynamic batch sizes the tests run (1 is the case above).
            dyn = {"name": "resnet18_dyn", "onnx": "resnet18_dyn.onnx",
                   "input": in_name, "output": "output", "cases": [],
                   "dynamic_batch": [1, 2, 4]}
            small = shape[:2] + (DYN_HW, DYN_HW)
            export(model, seeded_input(small, SEED * 100 + 10),
                   os.path.join(outdir, "resnet18_dyn.onnx"), in_name,
                   keep_bn, dynamic_batch=True)
            for b in (2, 4):
                xb = seeded_input((b,) + small[1:], SEED * 100 + 10 + b)
                write_case(outdir, "resnet18.b%d" % b, xb, run(model, xb), dyn)
            desc["models"].append(dyn)
    with open(os.path.join(outdir, "models.json"), "w") as f:
        json.dump(desc, f, indent=1)
        f.write("\n")
    print("models: %d exported to %s in %.1fs" % (len(desc["models"]), outdir,
                                                   time.time() - t0))


if __name__ == "__main__":
    main()
