# SPDX-License-Identifier: MIT
"""Model: an .om loaded with aclmdl, run synchronously or on streams."""
import collections
import threading

import acl
import numpy as np

from . import dtypes, pinned
from .errors import AclError, check, value

H2D = acl.ACL_MEMCPY_HOST_TO_DEVICE
D2H = acl.ACL_MEMCPY_DEVICE_TO_HOST

TensorInfo = collections.namedtuple("TensorInfo", "name shape dtype nbytes")


def _describe(desc, n, name_of, dims_of, type_of, size_of):
    infos = []
    for i in range(n):
        dims = value(dims_of(desc, i), "acl.mdl.get_*_dims")
        infos.append(TensorInfo(name_of(desc, i), tuple(dims["dims"]),
                                dtypes.to_numpy(type_of(desc, i)), size_of(desc, i)))
    return infos


def _shape_for(info):
    """The array shape of a tensor (flat when the model leaves dims open)."""
    if any(d < 0 for d in info.shape):
        return (info.nbytes // info.dtype.itemsize,)
    return info.shape


class _Slot:
    """What one request in flight needs: device buffers, their datasets,
    pinned staging for inputs and outputs (so every copy is a stream task
    and infer_async does not wait), and an event marking the end. Requests
    in flight at once need their own; Model keeps a pool of them."""

    def __init__(self, model):
        self.ptrs, self.bufs, self.datasets, self.stage = [], [], [], []
        self.event = 0
        try:
            for infos in (model.inputs, model.outputs):
                ds = acl.mdl.create_dataset()
                if not ds:
                    raise AclError(acl.ACL_ERROR_BAD_ALLOC, "acl.mdl.create_dataset")
                self.datasets.append(ds)
                for info in infos:
                    ptr = value(acl.rt.malloc(max(info.nbytes, 1)), "acl.rt.malloc")
                    self.ptrs.append(ptr)
                    buf = acl.create_data_buffer(ptr, info.nbytes)
                    if not buf:
                        raise AclError(acl.ACL_ERROR_BAD_ALLOC, "acl.create_data_buffer")
                    self.bufs.append(buf)
                    value(acl.mdl.add_dataset_buffer(ds, buf), "acl.mdl.add_dataset_buffer")
                    self.stage.append(pinned.PinnedBlock(model._rt._hold, info.nbytes,
                                                         _shape_for(info), info.dtype))
            self.event = value(acl.rt.create_event(), "acl.rt.create_event")
        except BaseException:
            self.release()
            raise

    def release(self):
        if self.event:
            acl.rt.destroy_event(self.event)
            self.event = 0
        for ds in self.datasets:
            acl.mdl.destroy_dataset(ds)
        for buf in self.bufs:
            acl.destroy_data_buffer(buf)
        for ptr in self.ptrs:
            acl.rt.free(ptr)
        for block in self.stage:
            block.free()
        self.ptrs, self.bufs, self.datasets, self.stage = [], [], [], []


class InferFuture:
    """The result of Model.infer_async: .done() polls, .get() waits and
    returns the outputs as a dict {name: ndarray} (or raises the AclError
    the execution ended with)."""

    def __init__(self, model, slot, keep):
        self._model = model
        self._slot = slot
        self._keep = keep          # pinned inputs read in place, until the copies ran
        self._outputs = None
        self._error = None

    def done(self):
        """True once the request has finished (or get() was called)."""
        slot = self._slot
        if slot is None:
            return True
        self._model._rt._bind()
        status, ret = acl.rt.query_event_status(slot.event)
        check(ret, "acl.rt.query_event_status")
        return status == acl.ACL_EVENT_RECORDED_STATUS_COMPLETE

    def _finish(self):
        """Wait, copy the outputs out of the staging, give the slot back."""
        with self._model._lock:
            slot, self._slot = self._slot, None
            self._model._pending.discard(self)
        if slot is None:
            return
        try:
            check(acl.rt.synchronize_event(slot.event), "acl.rt.synchronize_event")
            n_in = len(self._model.inputs)
            self._outputs = {o.name: slot.stage[n_in + j].array().copy()
                             for j, o in enumerate(self._model.outputs)}
        except AclError as e:
            self._error = e
        finally:
            self._keep = None
            self._model._give_back(slot)

    def get(self):
        if self._slot is not None:
            self._model._rt._bind()
            self._finish()
        if self._error is not None:
            raise self._error
        return self._outputs

    result = get   # concurrent.futures' name


class Model:
    """A loaded .om. .inputs/.outputs list TensorInfo(name, shape, dtype,
    nbytes); .input_names, .output_names for short."""

    def __init__(self, runtime, path):
        self._rt = runtime
        self._lock = threading.Lock()
        self._free_slots = []
        self._all_slots = []
        self._pending = set()
        self.path = str(path)
        self.model_id = None
        self._desc = 0
        runtime._bind()
        self.model_id = value(acl.mdl.load_from_file(self.path), "acl.mdl.load_from_file")
        try:
            self._desc = acl.mdl.create_desc()
            if not self._desc:
                raise AclError(acl.ACL_ERROR_BAD_ALLOC, "acl.mdl.create_desc")
            check(acl.mdl.get_desc(self._desc, self.model_id), "acl.mdl.get_desc")
            m = acl.mdl
            self.inputs = _describe(self._desc, m.get_num_inputs(self._desc),
                                    m.get_input_name_by_index, m.get_input_dims,
                                    m.get_input_data_type, m.get_input_size_by_index)
            self.outputs = _describe(self._desc, m.get_num_outputs(self._desc),
                                     m.get_output_name_by_index, m.get_output_dims,
                                     m.get_output_data_type, m.get_output_size_by_index)
        except BaseException:
            self._unload()
            raise

    input_names = property(lambda self: [i.name for i in self.inputs])
    output_names = property(lambda self: [o.name for o in self.outputs])

    def _check_input(self, info, a):
        """a as an array the model can take for info: the model's dtype
        (other dtypes are converted when numpy calls that same_kind; a
        uint8 buffer of exactly the tensor's bytes is taken as its raw
        bytes, as seed 001 passes pinned memory) and its element count."""
        a = np.asarray(a)
        if a.dtype != info.dtype:
            if a.dtype == np.uint8 and a.nbytes == info.nbytes and a.flags.c_contiguous:
                return a.view(info.dtype)
            if not np.can_cast(a.dtype, info.dtype, casting="same_kind"):
                raise TypeError("input %r: %s cannot become %s"
                                % (info.name, a.dtype, info.dtype))
        if a.size * info.dtype.itemsize != info.nbytes:
            raise ValueError("input %r: shape %s (%d elements), the model wants %s"
                             % (info.name, a.shape, a.size, info.shape))
        return a

    def _host_inputs(self, inputs):
        """The inputs in the model's order, checked."""
        if isinstance(inputs, dict):
            unknown = set(inputs) - set(self.input_names)
            if unknown:
                raise ValueError("unknown input(s) %s; the model's are %s"
                                 % (sorted(unknown), self.input_names))
            missing = [n for n in self.input_names if n not in inputs]
            if missing:
                raise ValueError("missing input(s) %s" % missing)
            arrays = [inputs[n] for n in self.input_names]
        else:
            if isinstance(inputs, np.ndarray):
                inputs = [inputs]
            arrays = list(inputs)
            if len(arrays) != len(self.inputs):
                raise ValueError("%d inputs given, the model has %d"
                                 % (len(arrays), len(self.inputs)))
        return [self._check_input(info, a) for info, a in zip(self.inputs, arrays)]

    def _take_slot(self):
        with self._lock:
            if self.model_id is None:
                raise ValueError("the model is closed")
            if self._free_slots:
                return self._free_slots.pop()
        slot = _Slot(self)
        with self._lock:
            self._all_slots.append(slot)
        return slot

    def _give_back(self, slot):
        with self._lock:
            if self.model_id is not None:
                self._free_slots.append(slot)
                return
        slot.release()

    def infer_async(self, inputs, stream=None):
        """Queue the input copies, the execution and the output copies on
        stream (the runtime's default stream if None) and return an
        InferFuture at once. Inputs in pinned memory (allocate_pinned) are
        read in place and must not change until the future is done; others
        are copied into pinned staging before this returns."""
        rt = self._rt
        rt._bind()
        s = rt._stream_handle(stream)
        arrays = self._host_inputs(inputs)
        slot = self._take_slot()
        keep = []
        try:
            for i, a in enumerate(arrays):
                src = pinned.pinned_address(a) if a.dtype == self.inputs[i].dtype else None
                if src is None:
                    stage = slot.stage[i].array()
                    np.copyto(stage, a.reshape(stage.shape), casting="same_kind")
                    src = slot.stage[i].ptr
                else:
                    keep.append(a)
                n = self.inputs[i].nbytes
                check(acl.rt.memcpy_async(slot.ptrs[i], n, src, n, H2D, s),
                      "acl.rt.memcpy_async")
            check(acl.mdl.execute_async(self.model_id, slot.datasets[0],
                                        slot.datasets[1], s), "acl.mdl.execute_async")
            n_in = len(self.inputs)
            for j, o in enumerate(self.outputs):
                check(acl.rt.memcpy_async(slot.stage[n_in + j].ptr, o.nbytes,
                                          slot.ptrs[n_in + j], o.nbytes, D2H, s),
                      "acl.rt.memcpy_async")
            check(acl.rt.record_event(slot.event, s), "acl.rt.record_event")
        except BaseException:
            acl.rt.synchronize_stream(s)
            self._give_back(slot)
            raise
        fut = InferFuture(self, slot, keep)
        with self._lock:
            self._pending.add(fut)
        return fut

    def infer(self, inputs):
        """Run the model once on the default stream: {output name: ndarray}."""
        return self.infer_async(inputs).get()

    def __call__(self, inputs):
        return self.infer(inputs)

    def _unload(self):
        with self._lock:
            slots, self._all_slots, self._free_slots = self._all_slots, [], []
            mid, self.model_id = self.model_id, None
        for slot in slots:
            slot.release()
        if self._desc:
            acl.mdl.destroy_desc(self._desc)
            self._desc = 0
        if mid is not None:
            check(acl.mdl.unload(mid), "acl.mdl.unload")

    def close(self):
        """Finish the requests in flight (their futures keep the results or
        the error), unload the model and free its buffers (idempotent)."""
        if self.model_id is None:
            return
        self._rt._bind()
        with self._lock:
            pending = list(self._pending)
        for fut in pending:
            fut._finish()
        self._rt._forget_model(self)
        self._unload()

    @property
    def closed(self):
        return self.model_id is None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return "<Model %s inputs=%s outputs=%s>" % (
            self.path, [(i.name, i.shape, str(i.dtype)) for i in self.inputs],
            [(o.name, o.shape, str(o.dtype)) for o in self.outputs])
