# SPDX-License-Identifier: MIT
"""Runtime: one device and its context, the owner of streams and models."""
import threading

import acl

from . import pinned
from .errors import AclError, check, value
from .model import Model
from .stream import Stream

ACL_ERROR_REPEAT_INITIALIZE = 100002

_state = threading.Lock()
_live = []          # open runtimes, newest last (Runtime.create_stream())
_we_initialized = [False]


class _ClassOrInstance:
    """A method callable on an instance or on the class, where it means
    the most recently created open Runtime (seed 001 writes
    Runtime.create_stream())."""

    def __init__(self, fn):
        self.fn = fn
        self.__doc__ = fn.__doc__

    def __get__(self, obj, cls):
        if obj is None:
            def bound(*args, **kw):
                return self.fn(Runtime.current(), *args, **kw)
            return bound
        return self.fn.__get__(obj, cls)


class Runtime:
    """Runtime(device_id=0): initializes ACL if needed, opens the device
    with a context of its own. close() (or leaving a with block) destroys
    its streams, unloads its models and releases the device."""

    def __init__(self, device_id=0):
        self.device_id = int(device_id)
        self._ctx = 0
        self._tls = threading.local()
        self._streams = []
        self._models = []
        self._default = None
        with _state:
            ret = acl.init()
            if ret == 0:
                _we_initialized[0] = True
            elif ret != ACL_ERROR_REPEAT_INITIALIZE:
                raise AclError(ret, "acl.init")
        check(acl.rt.set_device(self.device_id), "acl.rt.set_device")
        try:
            self._ctx = value(acl.rt.create_context(self.device_id), "acl.rt.create_context")
            self._tls.ctx = self._ctx
            self._default = Stream(self)
        except BaseException:
            self._release_device()
            raise
        with _state:
            _live.append(self)

    @staticmethod
    def current():
        """The newest open Runtime (one is created on device 0 if none)."""
        with _state:
            if _live:
                return _live[-1]
        return Runtime(0)

    def _bind(self):
        """Make this runtime's context current in the calling thread."""
        if self._ctx == 0:
            raise ValueError("the runtime is closed")
        if getattr(self._tls, "ctx", 0) != self._ctx:
            check(acl.rt.set_context(self._ctx), "acl.rt.set_context")
            self._tls.ctx = self._ctx

    def _stream_handle(self, stream):
        if stream is None:
            return self._default.handle
        if isinstance(stream, Stream):
            if stream._rt is not self:
                raise ValueError("the stream belongs to another runtime")
            return stream._live()
        raise TypeError("stream must be a Stream from create_stream(), not %s"
                        % type(stream).__name__)

    @_ClassOrInstance
    def create_stream(self):
        """A new Stream on this runtime's device."""
        s = Stream(self)
        self._streams.append(s)
        return s

    def _forget_stream(self, s):
        if s in self._streams:
            self._streams.remove(s)

    def _forget_model(self, m):
        if m in self._models:
            self._models.remove(m)

    def _sync_all(self):
        for s in [self._default] + self._streams:
            if s is not None and s.handle:
                acl.rt.synchronize_stream(s.handle)

    @property
    def default_stream(self):
        return self._default

    def load_model(self, path):
        """Load an .om file: a Model (also a context manager)."""
        m = Model(self, path)
        self._models.append(m)
        return m

    def infer_async(self, model, inputs, stream=None):
        """Seed 001's spelling of model.infer_async(inputs, stream)."""
        return model.infer_async(inputs, stream=stream)

    def infer(self, model, inputs):
        return model.infer(inputs)

    def allocate_pinned(self, shape, dtype="uint8"):
        """A zeroed numpy array in page-locked host memory: n bytes for
        allocate_pinned(n), or allocate_pinned(shape, dtype). The memory is
        freed when the last array over it is gone."""
        self._bind()
        return pinned.allocate(shape, dtype)

    def synchronize(self):
        self._bind()
        check(acl.rt.synchronize_device(), "acl.rt.synchronize_device")

    def mem_info(self):
        """(free, total) bytes of device memory."""
        self._bind()
        free, total, ret = acl.rt.get_mem_info(acl.ACL_HBM_MEM)
        check(ret, "acl.rt.get_mem_info")
        return free, total

    def _release_device(self):
        if self._ctx:
            acl.rt.destroy_context(self._ctx)
            self._ctx = 0
        acl.rt.reset_device(self.device_id)

    def close(self):
        """Wait for all work, unload the models, destroy the streams and
        the context, release the device (idempotent)."""
        if self._ctx == 0:
            return
        self._bind()
        errors = []
        for m in list(self._models):
            try:
                m.close()
            except AclError as e:
                errors.append(e)
        for s in list(self._streams) + [self._default]:
            try:
                s.close()
            except AclError as e:
                errors.append(e)
        self._streams, self._models = [], []
        self._release_device()
        with _state:
            if self in _live:
                _live.remove(self)
        if errors:
            raise errors[0]

    @property
    def closed(self):
        return self._ctx == 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return "<Runtime device %d%s>" % (self.device_id, " closed" if self.closed else "")
