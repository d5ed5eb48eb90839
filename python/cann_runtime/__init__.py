# SPDX-License-Identifier: MIT
"""cann_runtime: the name seed 001 imports; the same objects as vnpu_runtime."""
from vnpu_runtime import *  # noqa: F401,F403
from vnpu_runtime import __all__  # noqa: F401
