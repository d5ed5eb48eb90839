# SPDX-License-Identifier: MIT
# Shared fixtures of the `acl` module's tests (run in the guest by
# run-pytest.sh): one aclInit for the session, device 0 set, and helpers.
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "pylib"))

from testenv import BUILD  # noqa: E402  (and build/python on sys.path)

import acl  # noqa: E402

ACL_ERROR_INVALID_PARAM = 100000
ACL_ERROR_REPEAT_INITIALIZE = 100002


@pytest.fixture(scope="session", autouse=True)
def acl_session():
    assert acl.init() == 0
    assert acl.rt.set_device(0) == 0
    yield
    assert acl.rt.reset_device(0) == 0
    assert acl.finalize() == 0


@pytest.fixture
def stream():
    s, ret = acl.rt.create_stream()
    assert ret == 0 and s != 0
    yield s
    assert acl.rt.destroy_stream(s) == 0


@pytest.fixture
def dev_buf():
    """A device allocation of 4096 bytes, freed afterwards."""
    ptr, ret = acl.rt.malloc(4096, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == 0 and ptr != 0
    yield ptr
    assert acl.rt.free(ptr) == 0


def atc_path():
    return str(BUILD / "tools" / "atc")
