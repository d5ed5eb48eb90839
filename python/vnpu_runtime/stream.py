# SPDX-License-Identifier: MIT
"""Stream: an ACL stream owned by a Runtime."""
import acl

from .errors import check, value


class Stream:
    """A queue of device work; create it with Runtime.create_stream()."""

    def __init__(self, runtime):
        self._rt = runtime
        runtime._bind()
        self.handle = value(acl.rt.create_stream(), "acl.rt.create_stream")

    def synchronize(self):
        self._rt._bind()
        check(acl.rt.synchronize_stream(self._live()), "acl.rt.synchronize_stream")

    def _live(self):
        if not self.handle:
            raise ValueError("the stream is closed")
        return self.handle

    def close(self):
        """Wait for the stream's work and destroy it (idempotent)."""
        if self.handle:
            h, self.handle = self.handle, 0
            self._rt._bind()
            acl.rt.synchronize_stream(h)
            if "_nn_ws" in self.__dict__:   # ops.py's workspace for this stream
                self.__dict__.pop("_nn_ws").free()
            self._rt._forget_stream(self)
            check(acl.rt.destroy_stream(h), "acl.rt.destroy_stream")

    @property
    def closed(self):
        return not self.handle

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return "<Stream 0x%x>" % self.handle
