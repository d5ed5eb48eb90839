# SPDX-License-Identifier: MIT
"""Runtime: one device and a context of its own, the owner of streams and
models."""
import threading

import acl
import numpy as np

from . import pinned
from .device import DeviceHold
from .errors import AclError, check, value
from .model import Model
from .stream import Stream

ACL_ERROR_REPEAT_INITIALIZE = 100002

_state = threading.Lock()
_live = []          # open runtimes, newest last (Runtime.create_stream())


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
            bound.__doc__ = self.fn.__doc__
            return bound
        return self.fn.__get__(obj, cls)


class Runtime:
    """Runtime(device_id=0): initializes ACL if needed, sets the device and
    creates a context of its own. Every method makes that context current
    in the calling thread. close() (or leaving a with block) finishes the
    models' pending work, unloads them, destroys the streams and the
    context, gives the creating thread its previous context back and
    releases the device."""

    def __init__(self, device_id=0):
        if isinstance(device_id, bool) or not isinstance(device_id, (int, np.integer)):
            raise TypeError("device_id must be an int, not %s" % type(device_id).__name__)
        self.device_id = int(device_id)
        self._ctx = 0
        self._lock = threading.Lock()
        self._streams = []
        self._models = []
        self._default = None
        self._hold = None
        ret = acl.init()
        if ret not in (0, ACL_ERROR_REPEAT_INITIALIZE):
            raise AclError(ret, "acl.init")
        prev, ret = acl.rt.get_context()
        self._prev_ctx = prev if ret == 0 else 0
        self._hold = DeviceHold(self.device_id)
        try:
            self._ctx = value(acl.rt.create_context(self.device_id), "acl.rt.create_context")
            self._bind()
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
        """Make this runtime's context current in the calling thread (a
        set_context is a lookup in libascendcl; always doing it keeps
        other code's context switches from misdirecting ours)."""
        if self._ctx == 0:
            raise ValueError("the runtime is closed")
        check(acl.rt.set_context(self._ctx), "acl.rt.set_context")

    def _stream_handle(self, stream):
        if stream is None:
            return self._default._live()
        if isinstance(stream, Stream):
            if stream._rt is not self:
                raise ValueError("the stream belongs to another runtime")
            return stream._live()
        raise TypeError("stream must be a Stream from create_stream(), not %s"
                        % type(stream).__name__)

    @_ClassOrInstance
    def create_stream(self):
        """A new Stream on this runtime's device (also Runtime.create_stream(),
        on the newest open Runtime)."""
        s = Stream(self)
        with self._lock:
            self._streams.append(s)
        return s

    def _forget_stream(self, s):
        with self._lock:
            if s in self._streams:
                self._streams.remove(s)

    def _forget_model(self, m):
        with self._lock:
            if m in self._models:
                self._models.remove(m)

    @property
    def default_stream(self):
        return self._default

    def load_model(self, path):
        """Load an .om file: a Model (also a context manager)."""
        m = Model(self, path)
        with self._lock:
            self._models.append(m)
        return m

    def infer_async(self, model, inputs, stream=None):
        """Seed 001's spelling of model.infer_async(inputs, stream=stream)."""
        return model.infer_async(inputs, stream=stream)

    def infer(self, model, inputs=None):
        """Seed 001's spellings: rt.infer(model, inputs) is model.infer(inputs);
        rt.infer(inputs) runs the runtime's one loaded model."""
        if inputs is None and not isinstance(model, Model):
            with self._lock:
                models = list(self._models)
            if len(models) != 1:
                raise ValueError("rt.infer(inputs) needs exactly one loaded model, "
                                 "this runtime has %d" % len(models))
            model, inputs = models[0], model
        return model.infer(inputs)

    def allocate_pinned(self, shape, dtype=np.uint8):
        """A zeroed numpy array in page-locked host memory: n bytes for
        allocate_pinned(n), or allocate_pinned(shape, dtype). Freed when
        the last array over it is gone (the device stays set until then)."""
        self._bind()
        return pinned.allocate(self._hold, shape, dtype)

    def synchronize(self):
        """Wait for all work of this runtime's streams."""
        self._bind()
        for s in self._all_streams():
            s.synchronize()

    def _all_streams(self):
        with self._lock:
            return [self._default] + list(self._streams)

    def mem_info(self):
        """(free, total) bytes of device memory."""
        self._bind()
        free, total, ret = acl.rt.get_mem_info(acl.ACL_HBM_MEM)
        check(ret, "acl.rt.get_mem_info")
        return free, total

    def _release_device(self):
        if self._ctx:
            ctx, self._ctx = self._ctx, 0
            acl.rt.destroy_context(ctx)
        if self._prev_ctx:
            acl.rt.set_context(self._prev_ctx)   # fails harmlessly if gone
        if self._hold is not None:
            hold, self._hold = self._hold, None
            hold.release()

    def close(self):
        """Finish and unload the models, destroy the streams and the context,
        release the device (idempotent). Pinned arrays stay usable."""
        if self._ctx == 0:
            return
        self._bind()
        errors = []
        with self._lock:
            models, self._models = list(self._models), []
            streams, self._streams = list(self._streams), []
        for m in models:
            try:
                m.close()
            except AclError as e:
                errors.append(e)
        for s in streams + [self._default]:
            try:
                s.close()
            except AclError as e:
                errors.append(e)
        from . import tensor    # DeviceTensors' memory: freed while the context lives
        tensor._release_runtime(self)
        with _state:
            if self in _live:
                _live.remove(self)
        self._release_device()
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
