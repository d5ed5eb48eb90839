# SPDX-License-Identifier: MIT
# acl.prof (issue 34) from Python with pyACL's names and return
# conventions: a collection session with msproftx markers read back from
# tx.tsv, operator subscription through a pipe read on a thread as CANN's
# sample does, step timestamps, and the misuse codes.
import collections
import os
import subprocess
import threading

import numpy as np
import pytest

import acl
from conftest import ACL_ERROR_INVALID_PARAM, atc_path

ACL_PROF_TASK_TIME = 0x0002
ACL_PROF_MSPROFTX = 0x0080
ACL_AICORE_NONE = 0xFF
ACL_ERROR_INVALID_MODEL_ID = 100011
ACL_ERROR_PROF_NOT_RUN = 100043
ACL_ERROR_PROF_REPEAT_SUBSCRIBE = 148046
ACL_ERROR_PROF_API_CONFLICT = 148047
BIAS = np.array([[0.5, -1.0, 2.0], [1.5, 0.0, -3.0]], np.float32)


def tx_rows(out):
    """The rows of the one session's tx.tsv, as lists of columns."""
    dirs = [d for d in os.listdir(out) if d.startswith("PROF_")]
    assert len(dirs) == 1
    with open(os.path.join(out, dirs[0], "host", "data", "tx.tsv")) as f:
        lines = f.read().splitlines()
    assert lines[0].startswith("#pid\ttid\tcategory\tevent_type")
    return [line.split("\t") for line in lines[1:]]


@pytest.fixture
def prof_out(tmp_path, monkeypatch):
    monkeypatch.setenv("VNPU_PROF_EXPORT", "0")
    return str(tmp_path)


def test_msproftx_session(prof_out, stream):
    assert acl.prof.init(prof_out) == 0
    cfg = acl.prof.create_config([0], 0, 0, ACL_PROF_MSPROFTX | ACL_PROF_TASK_TIME)
    assert cfg != 0
    assert acl.prof.start(cfg) == 0
    stamp = acl.prof.create_stamp()
    assert stamp != 0
    msg = "py mark"
    assert acl.prof.set_stamp_trace_message(stamp, msg, len(msg)) == 0
    assert acl.prof.mark(stamp) == 0
    assert acl.prof.push(stamp) == 0
    assert acl.prof.pop() == 0
    range_id, ret = acl.prof.range_start(stamp)
    assert ret == 0 and range_id != 0
    assert acl.prof.range_stop(range_id) == 0
    assert acl.prof.range_stop(range_id) == ACL_ERROR_INVALID_PARAM
    assert acl.prof.pop() == ACL_ERROR_INVALID_PARAM
    assert acl.prof.mark_ex("py device mark", stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    si = acl.prof.create_step_info()
    assert si != 0
    assert acl.prof.get_step_timestamp(si, acl.prof.ACL_STEP_START, stream) == 0
    assert acl.prof.get_step_timestamp(si, acl.prof.ACL_STEP_START, stream) == \
        ACL_ERROR_INVALID_PARAM
    assert acl.prof.destroy_step_info(si) is None
    assert acl.prof.get_step_timestamp(si, acl.prof.ACL_STEP_END, stream) == \
        ACL_ERROR_INVALID_PARAM
    assert acl.prof.destroy_stamp(stamp) is None
    assert acl.prof.mark(stamp) == ACL_ERROR_INVALID_PARAM
    assert acl.prof.stop(cfg) == 0
    assert acl.prof.finalize() == 0
    assert acl.prof.destroy_config(cfg) == 0
    assert acl.prof.destroy_config(cfg) == ACL_ERROR_INVALID_PARAM
    rows = tx_rows(prof_out)
    kinds = collections.Counter((r[3], r[9]) for r in rows)
    assert kinds[("Mark", "py mark")] == 1
    assert kinds[("Push/Pop", "py mark")] == 1
    assert kinds[("Start/Stop", "py mark")] == 1
    assert kinds[("MarkEx", "py device mark")] == 1
    (ex,) = [r for r in rows if r[9] == "py device mark"]
    assert ex[11] == "0" and int(ex[13]) != 0
    assert all(len(r) == 14 and int(r[0]) == os.getpid() for r in rows)


def test_msproftx_outside_a_session(stream):
    assert acl.prof.create_stamp() == 0
    assert acl.prof.mark(0) == ACL_ERROR_PROF_NOT_RUN
    assert acl.prof.pop() == ACL_ERROR_PROF_NOT_RUN
    assert acl.prof.range_start(0) == (0, ACL_ERROR_PROF_NOT_RUN)
    assert acl.prof.mark_ex("x", stream) == ACL_ERROR_PROF_NOT_RUN
    assert acl.prof.str2id("Conv2D") == acl.prof.str2id("Conv2D")
    assert acl.prof.str2id("") == 0xcbf29ce484222325


@pytest.fixture(scope="module")
def om_path(tmp_path_factory):
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    d = tmp_path_factory.mktemp("prof")
    graph = helper.make_graph(
        [helper.make_node("Add", ["x", "bias"], ["s"], name="add0"),
         helper.make_node("Relu", ["s"], ["y"], name="relu0")],
        "add_relu",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
        [numpy_helper.from_array(BIAS, "bias")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.save(model, str(d / "m.onnx"))
    subprocess.run([atc_path(), f"--model={d / 'm.onnx'}", "--framework=5",
                    f"--output={d / 'm'}", "--soc_version=Ascend310"], check=True)
    return str(d / "m.om")


@pytest.fixture
def model_io(om_path):
    model_id, ret = acl.mdl.load_from_file(om_path)
    assert ret == 0
    ptrs, sets = [], []
    for _ in range(2):
        ds = acl.mdl.create_dataset()
        ptr, ret = acl.rt.malloc(24, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        assert ret == 0
        acl.mdl.add_dataset_buffer(ds, acl.create_data_buffer(ptr, 24))
        ptrs.append(ptr)
        sets.append(ds)
    yield model_id, sets[0], sets[1]
    for ds in sets:
        assert acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(ds, 0)) == 0
        assert acl.mdl.destroy_dataset(ds) == 0
    for p in ptrs:
        assert acl.rt.free(p) == 0
    assert acl.mdl.unload(model_id) == 0


def subscribed_runs(model_id, inp, out, runs):
    """Subscribe, execute runs times, unsubscribe; the records, read as
    CANN's sample reads them: a thread, whole records, until EOF."""
    r, w = os.pipe()
    size, ret = acl.prof.get_op_desc_size()
    assert ret == 0 and size == 80
    chunks = []

    def reader():
        while True:
            data = os.read(r, size * 10)
            if not data:
                break
            chunks.append(data)

    th = threading.Thread(target=reader)
    th.start()
    cfg = acl.prof.create_subscribe_config(1, ACL_AICORE_NONE, w)
    assert cfg != 0
    assert acl.prof.model_subscribe(model_id, cfg) == 0
    assert acl.prof.model_subscribe(model_id, cfg) == ACL_ERROR_PROF_REPEAT_SUBSCRIBE
    for _ in range(runs):
        assert acl.mdl.execute(model_id, inp, out) == 0
    assert acl.prof.model_un_subscribe(model_id) == 0
    th.join(timeout=60)
    assert not th.is_alive()
    os.close(r)
    with pytest.raises(OSError):
        os.close(w)         # the runtime closed the write end
    assert acl.prof.destroy_subscribe_config(cfg) == 0
    return b"".join(chunks)


def decode(data):
    n, ret = acl.prof.get_op_num(data, len(data))
    assert ret == 0
    ptr = acl.util.bytes_to_ptr(data)
    ops = []
    for i in range(n):
        t, ret = acl.prof.get_op_type_v2(data, len(data), i)
        assert ret == 0
        name, ret = acl.prof.get_op_name_v2(ptr, len(data), i)
        assert ret == 0
        nlen, ret = acl.prof.get_op_name_len(data, len(data), i)
        assert ret == 0 and nlen == len(name) + 1
        assert acl.prof.get_op_name(data, len(data), i, nlen) == (name, 0)
        start = acl.prof.get_op_start(data, len(data), i)
        end = acl.prof.get_op_end(data, len(data), i)
        assert 0 < start <= end
        assert acl.prof.get_op_duration(data, len(data), i) == end - start
        assert acl.prof.get_op_flag(data, len(data), i) == acl.prof.ACL_SUBSCRIBE_OP
        assert acl.prof.get_op_attri_value(data, len(data), i, 0) is None
        ops.append((t, name))
    return n, ops


def test_subscription(model_io):
    model_id, inp, out = model_io
    one = subscribed_runs(model_id, inp, out, 1)
    n1, ops1 = decode(one)
    assert n1 >= 1
    assert {t for t, _ in ops1} <= {"Add", "Relu", "Adds"}
    model_ids = {acl.prof.get_model_id(one, len(one), i) for i in range(n1)}
    assert model_ids == {model_id}
    four = subscribed_runs(model_id, inp, out, 4)
    n4, ops4 = decode(four)
    assert n4 == 4 * n1
    assert collections.Counter(ops4) == collections.Counter({k: 4 * v for k, v in
                                                             collections.Counter(ops1).items()})
    assert acl.prof.get_op_num(four, len(four) - 1)[1] == ACL_ERROR_INVALID_PARAM
    assert acl.prof.get_op_start(four, len(four), n4) == 0


def test_subscription_misuse(model_io, prof_out):
    model_id, _, _ = model_io
    r, w = os.pipe()
    cfg = acl.prof.create_subscribe_config(1, ACL_AICORE_NONE, w)
    assert acl.prof.create_subscribe_config(3, ACL_AICORE_NONE, w) == 0
    assert acl.prof.model_subscribe(model_id + 1000, cfg) == ACL_ERROR_INVALID_MODEL_ID
    assert acl.prof.model_un_subscribe(model_id) == ACL_ERROR_INVALID_MODEL_ID
    assert acl.prof.model_subscribe(model_id, 12345) == ACL_ERROR_INVALID_PARAM
    assert acl.prof.init(prof_out) == 0
    assert acl.prof.model_subscribe(model_id, cfg) == ACL_ERROR_PROF_API_CONFLICT
    assert acl.prof.finalize() == 0
    assert acl.prof.model_subscribe(model_id, cfg) == 0
    assert acl.prof.init(prof_out) == ACL_ERROR_PROF_API_CONFLICT
    assert acl.prof.model_un_subscribe(model_id) == 0
    assert acl.prof.destroy_subscribe_config(cfg) == 0
    assert acl.prof.destroy_subscribe_config(cfg) == ACL_ERROR_INVALID_PARAM
    assert acl.prof.get_op_desc_size() == (80, 0)
    assert acl.prof.get_op_num(b"\0" * 80, 80) == (0, ACL_ERROR_INVALID_PARAM)
    assert acl.prof.get_op_num(0x10, 80) == (0, ACL_ERROR_INVALID_PARAM)
    os.close(r)
