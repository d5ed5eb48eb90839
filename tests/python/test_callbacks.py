# SPDX-License-Identifier: MIT
# Host callbacks from Python: launch_callback / subscribe_report /
# process_report with a report thread from acl.util.start_thread, in
# stream order, with the GIL held in the callback.
import threading
import time

import numpy as np

import acl

D2H = 2


class ReportThread:
    """pyACL's pattern: a thread looping on process_report until told to stop."""

    def __init__(self, ctx):
        self.stop = False
        self.ctx = ctx
        self.tid, ret = acl.util.start_thread(self.loop, [ctx, 50])
        assert ret == 0 and self.tid

    def loop(self, args):
        ctx, timeout = args
        assert acl.rt.set_context(ctx) == 0
        while not self.stop:
            acl.rt.process_report(timeout)

    def join(self):
        self.stop = True
        assert acl.util.stop_thread(self.tid) == 0


def test_launch_without_subscribe_is_no_cb_reg(stream):
    assert acl.rt.launch_callback(lambda d: None, [], 1, stream) == \
        acl.ACL_ERROR_RT_STREAM_NO_CB_REG


def test_callbacks_run_in_stream_order_with_data(stream, dev_buf):
    ctx, _ = acl.rt.get_context()
    rt = ReportThread(ctx)
    seen = []
    try:
        assert acl.rt.subscribe_report(rt.tid, stream) == 0
        out = np.zeros(4, np.uint8)
        for i in range(5):
            assert acl.rt.memset_async(dev_buf, 4096, i + 1, 4, stream) == 0
            # each callback sees the memset before it (blocking callback)
            assert acl.rt.launch_callback(
                lambda d: seen.append((d[0], threading.get_ident())), [i], 1, stream) == 0
        assert acl.rt.memcpy_async(out, 4, dev_buf, 4, D2H, stream) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        assert [s[0] for s in seen] == [0, 1, 2, 3, 4]
        assert {s[1] for s in seen} == {rt.tid}     # run on the report thread
        assert (out == 5).all()
        assert acl.rt.unsubscribe_report(rt.tid, stream) == 0
        assert acl.rt.unsubscribe_report(rt.tid, stream) == acl.ACL_ERROR_RT_STREAM_SUBSCRIBE
    finally:
        rt.join()


def test_callback_exception_does_not_stop_the_stream(stream):
    ctx, _ = acl.rt.get_context()
    rt = ReportThread(ctx)
    seen = []

    def bad(_):
        raise RuntimeError("raised in a callback")
    try:
        assert acl.rt.subscribe_report(rt.tid, stream) == 0
        assert acl.rt.launch_callback(bad, None, 1, stream) == 0
        assert acl.rt.launch_callback(seen.append, "after", 0, stream) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        deadline = time.monotonic() + 10
        while not seen and time.monotonic() < deadline:
            time.sleep(0.01)
        assert seen == ["after"]
        assert acl.rt.unsubscribe_report(rt.tid, stream) == 0
    finally:
        rt.join()


def test_process_report_timeout_and_bad_args():
    # This thread is subscribed to no stream.
    assert acl.rt.process_report(10) == acl.ACL_ERROR_RT_THREAD_SUBSCRIBE
    assert acl.rt.process_report(0) == acl.ACL_ERROR_INVALID_PARAM
    assert acl.util.stop_thread(12345) == acl.ACL_ERROR_INVALID_PARAM


def test_subscribe_a_python_thread_by_ident(stream):
    # threading.get_ident() is the pthread id libacl knows a thread by.
    ctx, _ = acl.rt.get_context()
    got = []
    ready = threading.Event()
    stop = threading.Event()

    def loop():
        acl.rt.set_context(ctx)
        ready.set()
        while not stop.is_set():
            acl.rt.process_report(50)
    t = threading.Thread(target=loop)
    t.start()
    try:
        ready.wait()
        assert acl.rt.subscribe_report(t.ident, stream) == 0
        assert acl.rt.launch_callback(got.append, 42, 1, stream) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        assert got == [42]
        assert acl.rt.unsubscribe_report(t.ident, stream) == 0
    finally:
        stop.set()
        t.join()


def test_memcpy_inside_a_blocking_callback(stream, dev_buf):
    # pyACL samples post-process in the callback: a synchronous memcpy of
    # results the stream produced before the callback.
    ctx, _ = acl.rt.get_context()
    rt = ReportThread(ctx)
    got = []

    def post(k):
        out = np.zeros(8, np.uint8)
        got.append((k, acl.rt.memcpy(out, 8, dev_buf, 8, D2H), out.tolist()))
    try:
        assert acl.rt.subscribe_report(rt.tid, stream) == 0
        for k in (1, 2):
            assert acl.rt.memset_async(dev_buf, 4096, k, 8, stream) == 0
            assert acl.rt.launch_callback(post, k, 1, stream) == 0
        assert acl.rt.synchronize_stream_with_timeout(stream, 20000) == 0
        assert got == [(1, 0, [1] * 8), (2, 0, [2] * 8)]
        assert acl.rt.unsubscribe_report(rt.tid, stream) == 0
    finally:
        rt.join()
