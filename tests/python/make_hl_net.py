#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The small PyTorch network of test_vnpu_runtime.py, exported on the host
(importing torch in the emulated guest takes minutes): OUTDIR/hl_net.onnx
(inputs "img" 1x3x6x6 and "shift" 1x5, outputs "logits" and "probs") and
OUTDIR/hl_net.ref.npz with three seeded input pairs and PyTorch's outputs
(img0, shift0, logits0, probs0, ...). usage: make_hl_net.py OUTDIR"""
import os
import sys

import numpy as np
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.fc = torch.nn.Linear(4 * 6 * 6, 5)

    def forward(self, img, shift):
        h = torch.relu(self.conv(img))
        logits = self.fc(h.flatten(1)) + shift
        return logits, torch.softmax(logits, 1)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(15)
    net = Net().eval()
    args = (torch.zeros(1, 3, 6, 6), torch.zeros(1, 5))
    torch.onnx.export(net, args, os.path.join(out, "hl_net.onnx"),
                      input_names=["img", "shift"], output_names=["logits", "probs"],
                      opset_version=13)
    ref = {}
    rng = np.random.default_rng(15)
    with torch.no_grad():
        for i in range(3):
            img = rng.standard_normal((1, 3, 6, 6), np.float32)
            shift = rng.standard_normal((1, 5), np.float32)
            logits, probs = net(torch.from_numpy(img), torch.from_numpy(shift))
            ref.update({"img%d" % i: img, "shift%d" % i: shift,
                        "logits%d" % i: logits.numpy(), "probs%d" % i: probs.numpy()})
    np.savez(os.path.join(out, "hl_net.ref.npz"), **ref)


if __name__ == "__main__":
    main()
