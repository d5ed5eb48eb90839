#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Export the three reference models of issue 13 to ONNX (opset 13).

    export_models.py OUTDIR [resnet18|mobilenet_v2|transformer ...]

Weights are random (seeded), the models are in eval mode; each file is
written as OUTDIR/NAME.onnx next to OUTDIR/NAME.input.npy (the input used)
and OUTDIR/NAME.output.npy (PyTorch's output on it), so later runs can
compare without torch. A file that exists already is kept (the cache).
"""
import os
import sys

import numpy as np
import torch
import torchvision

OPSET = 13


def resnet18():
    return torchvision.models.resnet18(weights=None), (1, 3, 224, 224)


def mobilenet_v2():
    return torchvision.models.mobilenet_v2(weights=None), (1, 3, 224, 224)


class Encoder(torch.nn.Module):
    """One encoder layer; a wrapper so the export traces the plain path."""

    def __init__(self):
        super().__init__()
        self.layer = torch.nn.TransformerEncoderLayer(
            d_model=64, nhead=4, dim_feedforward=128, activation="gelu",
            batch_first=True)
        # In eval mode torch 1.13 runs the layer as one native op
        # (aten::_transformer_encoder_layer_fwd) that has no ONNX export;
        # this flag only selects that fast path: the plain path computes
        # the same function with F.gelu.
        self.layer.activation_relu_or_gelu = 0

    def forward(self, x):
        return self.layer(x)


def transformer():
    return Encoder(), (2, 16, 64)


MODELS = {"resnet18": resnet18, "mobilenet_v2": mobilenet_v2,
          "transformer": transformer}


def export(outdir, name):
    path = os.path.join(outdir, name + ".onnx")
    if os.path.exists(path):
        return
    torch.manual_seed(13)
    model, shape = MODELS[name]()
    model.eval()
    x = torch.randn(*shape)
    with torch.no_grad():
        y = model(x)
        tmp = path + ".tmp"
        torch.onnx.export(model, (x,), tmp, opset_version=OPSET,
                          input_names=["input"], output_names=["output"],
                          do_constant_folding=False)
    np.save(os.path.join(outdir, name + ".input.npy"), x.numpy())
    np.save(os.path.join(outdir, name + ".output.npy"), y.numpy())
    os.replace(tmp, path)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    for name in sys.argv[2:] or list(MODELS):
        if name not in MODELS:
            sys.exit("unknown model %s (known: %s)" % (name, " ".join(MODELS)))
        export(outdir, name)


if __name__ == "__main__":
    main()
