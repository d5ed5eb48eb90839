#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The model of acl_aipp_test: y = Relu(Conv3x3(x, pads 1) + b), x float
[1, 3, 8, 8], y [1, 4, 8, 8], fixed weights. Usage: acl_aipp_model.py OUT"""
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

w = ((np.arange(4 * 3 * 3 * 3) % 7) - 3).astype(np.float32).reshape(4, 3, 3, 3) * 0.01
b = np.array([0.1, -0.2, 0.3, 0.0], dtype=np.float32)
graph = helper.make_graph(
    [helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
     helper.make_node("Relu", ["c"], ["y"])],
    "aipp",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 8, 8])],
    [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, sys.argv[1])
