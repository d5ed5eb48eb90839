#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# acl.media's description tests (tests/python/test_media_desc.py) on the
# host, without pytest and without aclInit: each test_* function is one
# TAP line. In the guest pytest runs the same file after aclInit.
import importlib.util
import os
import sys
import traceback

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(top, "tests", "pylib"))

from testenv import check, done  # noqa: E402  (and build/python on sys.path)

spec = importlib.util.spec_from_file_location(
    "test_media_desc", os.path.join(top, "tests", "python", "test_media_desc.py"))
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)

for name in sorted(n for n in dir(mod) if n.startswith("test_")):
    try:
        getattr(mod, name)()
        ok = True
    except Exception:
        print("".join("# " + line + "\n" for line in
                      traceback.format_exc().splitlines()), end="")
        ok = False
    check("acl.media " + name[len("test_"):], ok)
sys.exit(done())
