#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# acl._nn (the aclnn binding under vnpu_runtime.ops) on the host, where
# no device is needed: descriptor validation, argument checking against
# each operator's signature, destroyed handles, the workspace object.
# TAP. Operators on a device: tests/python/test_nn_ops.py (in the VM).
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "pylib"))

from testenv import check, done, raises  # noqa: E402  (and build/python on sys.path)

import acl  # noqa: E402

nn = acl._nn
F32 = acl.ACL_FLOAT
names = nn.op_names()
check("the operator table names every op once", len(names) == len(set(names)) >= 30)
check("op_id is the table index", all(nn.op_id(s) == i for i, s in enumerate(names)))
check("signatures", (nn.op_signature(nn.op_id("add")), nn.op_signature(nn.op_id("relu")),
                     nn.op_signature(nn.op_id("convolution"))) == ("TTST", "TT", "TTtAAABAITC"))
check("unknown op name is ValueError", raises(ValueError, nn.op_id, "nope"))
check("op name must be a str", raises(TypeError, nn.op_id, 3))
check("op_signature of a bad id is ValueError", raises(ValueError, nn.op_signature, len(names)))

t = nn.Tensor((2, 3), None, 0, F32, 0)
check("a tensor without memory", t.alive)
check("strided view", nn.Tensor((3, 2), (1, 3), 0, F32, 0).alive)
check("a host address is refused", raises(ValueError, nn.Tensor, (2,), None, 0, F32, 0x7000))
check("negative dim", raises(ValueError, nn.Tensor, (2, -3), None, 0, F32, 0))
check("negative stride", raises(ValueError, nn.Tensor, (2, 3), (3, -1), 0, F32, 0))
check("negative offset", raises(ValueError, nn.Tensor, (2,), None, -1, F32, 0))
check("strides count differs", raises(ValueError, nn.Tensor, (2, 3), (1,), 0, F32, 0))
check("9 dims", raises(ValueError, nn.Tensor, (1,) * 9, None, 0, F32, 0))
check("extent overflows int64",
      raises(ValueError, nn.Tensor, (2 ** 40, 2 ** 40), (2 ** 40, 2 ** 40), 0, F32, 0))
check("shape of strings", raises(TypeError, nn.Tensor, ("a",), None, 0, F32, 0))
check("dim beyond int64", raises(ValueError, nn.Tensor, (2 ** 70,), None, 0, F32, 0))
check("not an aclDataType", raises(ValueError, nn.Tensor, (2,), None, 0, 999, 0))
check("addr must be an int", raises(TypeError, nn.Tensor, (2,), None, 0, F32, "x"))

ws = nn.Workspace()
check("a new workspace is empty", (ws.size, ws.allocs, ws.addr) == (0, 0, 0))
add, relu = nn.op_id("add"), nn.op_id("relu")
check("too few arguments", raises(TypeError, nn.run, add, 0, ws, t, t, 1.0))
check("too many arguments", raises(TypeError, nn.run, relu, 0, ws, t, t, t))
check("an int where a tensor goes", raises(TypeError, nn.run, relu, 0, ws, 5, t))
check("None where a tensor is required", raises(TypeError, nn.run, relu, 0, ws, None, t))
check("a str for a scalar", raises(TypeError, nn.run, add, 0, ws, t, t, "1", t))
check("not a workspace", raises(TypeError, nn.run, relu, 0, object(), t, t))
check("bad op id", raises(ValueError, nn.run, -1, 0, ws, t, t))
check("stream must be an int", raises(TypeError, nn.run, relu, "s", ws, t, t))
check("no arguments at all", raises(TypeError, nn.run))
sm = nn.op_id("softmax")
check("int arg out of int64", raises(ValueError, nn.run, sm, 0, ws, t, 2 ** 64, t))
mm = nn.op_id("matmul")
check("int8 arg out of range", raises(ValueError, nn.run, mm, 0, ws, t, t, t, 300))
mp = nn.op_id("max_pool2d")
check("an int list that is not a list",
      raises(TypeError, nn.run, mp, 0, ws, t, 3, (1, 1), (0, 0), (1, 1), False, t))
check("an int list that is too long",
      raises(ValueError, nn.run, mp, 0, ws, t, (1,) * 17, (1, 1), (0, 0), (1, 1), False, t))
# Phase 1 accepts descriptors without memory; the launch refuses them.
check("a tensor without memory is ACLNN_ERR_PARAM_NULLPTR at launch",
      nn.run(relu, 0, ws, t, t) == nn.ACLNN_ERR_PARAM_NULLPTR)
other = nn.Tensor((5,), None, 0, F32, 0)
check("a shape mismatch is ACLNN_ERR_PARAM_INVALID in phase 1",
      nn.run(add, 0, ws, t, other, 1.0, t) == nn.ACLNN_ERR_PARAM_INVALID)
check("an unknown reduce dtype is an error code",
      nn.run(nn.op_id("reduce_sum"), 0, ws, t, (0,), False, 999, t) != 0)
h0, m0 = nn.cache_info()
nn.run(relu, 0, ws, t, t)
nn.run(relu, 0, ws, t, t)
check("the same call twice reuses its executor", nn.cache_info() == (h0 + 2, m0))
nn.run(relu, 0, ws, t, nn.Tensor((2, 3), None, 0, F32, 0))
check("another descriptor (same shape) is a miss", nn.cache_info() == (h0 + 2, m0 + 1))
nn.cache_clear()
nn.run(relu, 0, ws, t, t)
check("cache_clear drops them", nn.cache_info() == (h0 + 2, m0 + 2))
check("the workspace is untouched by failures", (ws.size, ws.allocs) == (0, 0))
t.destroy()
check("destroyed", not t.alive)
check("a destroyed tensor is ValueError", raises(ValueError, nn.run, relu, 0, ws, t, other))
t.destroy()
check("destroy is idempotent", not t.alive)
ws.free()
check("free of an empty workspace", ws.size == 0)
sys.exit(done())
