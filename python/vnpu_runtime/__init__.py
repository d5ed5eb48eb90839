# SPDX-License-Identifier: MIT
"""vnpu_runtime: a high-level inference API over the `acl` module
(seed 001's cann_runtime shape). See Documentation/python.md."""
from .errors import AclError
from .model import InferFuture, Model, TensorInfo
from .runtime import Runtime
from .stream import Stream
from .tensor import DeviceTensor
from . import ops  # noqa: E402

__all__ = ["AclError", "InferFuture", "Model", "Runtime", "Stream", "TensorInfo"]
__all__ += ["DeviceTensor", "ops"]
