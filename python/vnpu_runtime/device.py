# SPDX-License-Identifier: MIT
"""DeviceHold: one aclrtSetDevice reference shared by a Runtime and the
pinned blocks it allocated. libascendcl unmaps aclrtMallocHost memory
when the device is released, so the device stays set until the Runtime
is closed AND the last numpy array over its pinned memory is gone."""
import threading

import acl

from .errors import check, value


class DeviceHold:
    def __init__(self, device_id):
        self.device_id = device_id
        self._lock = threading.Lock()
        self._refs = 1
        check(acl.rt.set_device(device_id), "acl.rt.set_device")
        # aclrtSetDevice made the device's default context current: pinned
        # memory is freed in it once the Runtime's own context is gone.
        self.default_ctx = value(acl.rt.get_context(), "acl.rt.get_context")

    def acquire(self):
        with self._lock:
            if self._refs == 0:
                raise ValueError("device %d is released" % self.device_id)
            self._refs += 1

    def release(self):
        with self._lock:
            self._refs -= 1
            last = self._refs == 0
        if last:
            acl.rt.reset_device(self.device_id)

    def call_in_default_ctx(self, fn, *args):
        """fn(*args) with the device's default context current in this
        thread (any thread: the garbage collector frees pinned blocks),
        then the thread's previous context again."""
        prev, ret = acl.rt.get_context()
        acl.rt.set_context(self.default_ctx)
        try:
            return fn(*args)
        finally:
            if ret == 0 and prev:
                acl.rt.set_context(prev)
