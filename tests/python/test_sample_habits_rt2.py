# SPDX-License-Identifier: MIT
"""acl.rt's streams, events and callbacks called the way CANN's public
Python samples and pyACL's own event tests call them: constants as plain
ints (ACL_EVENT_TIME_LINE = 0x8, record statuses 0/1), callbacks with a
list as user data on a start_thread report loop and on a
threading.Thread, the default stream given as 0, a context per script,
memcpy_async between malloc_host memory and the device."""
import threading
import time

import numpy as np
import pytest

import acl

ACL_SUCCESS = 0
ACL_EVENT_TIME_LINE = 0x0000008
ACL_EVENT_RECORD_STATUS_NOT_READY = 0
ACL_EVENT_RECORD_STATUS_COMPLETE = 1
ACL_EVENT_WAIT_STATUS_COMPLETE = 0
ACL_CALLBACK_NO_BLOCK = 0
ACL_CALLBACK_BLOCK = 1
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_MEMCPY_DEVICE_TO_DEVICE = 3
NPY_UINT8 = 2
NPY_INT32 = 5
ACL_ERROR_RT_PARAM_INVALID = 107000
ACL_ERROR_RT_STREAM_NO_CB_REG = 107015


def test_events_on_two_streams_as_pyacl_tests_do():
    context, ret = acl.rt.create_context(0)
    assert ret == ACL_SUCCESS and context
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    stream_2, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    event_1, ret = acl.rt.create_event()
    assert ret == ACL_SUCCESS
    event_2, ret = acl.rt.create_event()
    assert ret == ACL_SUCCESS
    assert acl.rt.record_event(event_1, stream) == ACL_SUCCESS
    time.sleep(0.005)
    assert acl.rt.record_event(event_2, stream) == ACL_SUCCESS
    assert acl.rt.synchronize_event(event_1) == ACL_SUCCESS
    assert acl.rt.stream_wait_event(stream_2, event_1) == ACL_SUCCESS
    status, ret = acl.rt.query_event_wait_status(event_1)
    assert (status, ret) == (ACL_EVENT_WAIT_STATUS_COMPLETE, ACL_SUCCESS)
    assert acl.rt.synchronize_event(event_2) == ACL_SUCCESS
    status, ret = acl.rt.query_event_status(event_2)
    assert (status, ret) == (ACL_EVENT_RECORD_STATUS_COMPLETE, ACL_SUCCESS)
    assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(stream_2) == ACL_SUCCESS
    ms, ret = acl.rt.event_elapsed_time(event_1, event_2)
    assert ret == ACL_SUCCESS and 0 <= ms <= 1000
    # reset_event(event, stream), then the event is not recorded again
    assert acl.rt.reset_event(event_2, stream) == ACL_SUCCESS
    assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
    for e in (event_1, event_2):
        assert acl.rt.destroy_event(e) == ACL_SUCCESS
    assert acl.rt.destroy_event(event_1) == ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.query_event_wait_status(event_1)[1] == ACL_ERROR_RT_PARAM_INVALID
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS
    assert acl.rt.destroy_stream(stream_2) == ACL_SUCCESS
    assert acl.rt.destroy_context(context) == ACL_SUCCESS
    assert acl.rt.set_device(0) == ACL_SUCCESS


def test_unrecorded_event_is_not_ready():
    """CANN's aclrtEventRecordedStatus: an event not recorded into a stream
    (or reset since) is NOT_READY; its event-status sample reads 0 right
    after create_event."""
    event, ret = acl.rt.create_event()
    assert ret == ACL_SUCCESS
    try:
        status, ret = acl.rt.query_event_status(event)
        assert (status, ret) == (ACL_EVENT_RECORD_STATUS_NOT_READY, ACL_SUCCESS)
    finally:
        assert acl.rt.destroy_event(event) == ACL_SUCCESS


def test_timeline_events_measure_a_host_sleep():
    """test_event_009/017: flag ACL_EVENT_TIME_LINE, a host sleep between
    the records (the stream is idle, so the gap is the host's), both
    create_event_with_flag and create_event_ex_with_flag."""
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    for create in (acl.rt.create_event_with_flag, acl.rt.create_event_ex_with_flag):
        event_1, ret = create(ACL_EVENT_TIME_LINE)
        assert ret == ACL_SUCCESS and event_1
        event_2, ret = create(ACL_EVENT_TIME_LINE)
        assert ret == ACL_SUCCESS and event_2
        assert acl.rt.record_event(event_1, stream) == ACL_SUCCESS
        assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
        time.sleep(0.2)
        assert acl.rt.record_event(event_2, stream) == ACL_SUCCESS
        assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
        ms, ret = acl.rt.event_elapsed_time(event_1, event_2)
        assert ret == ACL_SUCCESS and 190 <= ms <= 5000, ms
        assert acl.rt.destroy_event(event_1) == ACL_SUCCESS
        assert acl.rt.destroy_event(event_2) == ACL_SUCCESS
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS


def test_callbacks_on_a_created_stream_and_on_stream_0():
    """test_event_006: one start_thread report loop subscribed to a
    created stream and to the default stream (0); callbacks get the
    list given as user data, in launch order, on that thread."""
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    calls = []
    flag = {"run": True}

    def callback_thr_func(args_list):
        timeout = args_list[1]
        while flag["run"]:
            acl.rt.process_report(timeout)

    def launch_callback_fun_1(args_list):
        calls.append(("fun1", list(args_list), threading.get_ident()))

    def launch_callback_fun_2(args_list):
        calls.append(("fun2", list(args_list), threading.get_ident()))

    thr_id, ret = acl.util.start_thread(callback_thr_func, [True, 100])
    assert ret == ACL_SUCCESS
    try:
        assert acl.rt.subscribe_report(thr_id, stream) == ACL_SUCCESS
        assert acl.rt.launch_callback(launch_callback_fun_1, ["zzq", "qzz"],
                                      ACL_CALLBACK_BLOCK, stream) == ACL_SUCCESS
        assert acl.rt.launch_callback(launch_callback_fun_2, ["zzq", "qzz"],
                                      ACL_CALLBACK_BLOCK, stream) == ACL_SUCCESS
        assert acl.rt.synchronize_stream(stream) == ACL_SUCCESS
        assert acl.rt.subscribe_report(thr_id, 0) == ACL_SUCCESS
        assert acl.rt.launch_callback(launch_callback_fun_1, [1, 2], ACL_CALLBACK_BLOCK,
                                      0) == ACL_SUCCESS
        assert acl.rt.launch_callback(launch_callback_fun_2, [3], ACL_CALLBACK_NO_BLOCK,
                                      0) == ACL_SUCCESS
        assert acl.rt.synchronize_stream(0) == ACL_SUCCESS
        # NO_BLOCK callbacks may still be running after the synchronize.
        deadline = time.monotonic() + 10
        while len(calls) < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert acl.rt.unsubscribe_report(thr_id, stream) == ACL_SUCCESS
        assert acl.rt.unsubscribe_report(thr_id, 0) == ACL_SUCCESS
        # Unsubscribed: the stream refuses callbacks again.
        assert acl.rt.launch_callback(launch_callback_fun_1, [], ACL_CALLBACK_BLOCK,
                                      stream) == ACL_ERROR_RT_STREAM_NO_CB_REG
    finally:
        flag["run"] = False
        assert acl.util.stop_thread(thr_id) == ACL_SUCCESS
    assert [(c[0], c[1]) for c in calls] == [
        ("fun1", ["zzq", "qzz"]), ("fun2", ["zzq", "qzz"]), ("fun1", [1, 2]), ("fun2", [3])]
    assert {c[2] for c in calls} == {thr_id}
    assert acl.rt.destroy_stream(stream) == ACL_SUCCESS


def test_blocking_callback_on_a_threading_thread_holds_the_stream():
    """launch_callback_with_pythreading: a threading.Thread's ident as
    the report thread; a blocking callback that sleeps holds the
    stream's later copy until it returns."""
    stm, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    state = {"run": True}

    def process_report_loop():
        t = time.perf_counter()
        while state["run"] and time.perf_counter() - t < 15:
            acl.rt.process_report(200)

    thd = threading.Thread(target=process_report_loop)
    thd.start()
    dev, ret = acl.rt.malloc(64, ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == ACL_SUCCESS
    host, ret = acl.rt.malloc_host(64)
    assert ret == ACL_SUCCESS
    try:
        assert acl.rt.subscribe_report(thd.ident, stm) == ACL_SUCCESS

        def sleep_cbk(t):
            for i in t:
                time.sleep(i)

        assert acl.rt.synchronize_stream(stm) == ACL_SUCCESS
        st = time.perf_counter()
        assert acl.rt.launch_callback(sleep_cbk, [0.3], ACL_CALLBACK_BLOCK, stm) == ACL_SUCCESS
        assert acl.rt.memcpy_async(dev, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE,
                                   stm) == ACL_SUCCESS
        assert acl.rt.synchronize_stream(stm) == ACL_SUCCESS
        assert time.perf_counter() - st >= 0.29
    finally:
        state["run"] = False
        thd.join()
    assert acl.rt.unsubscribe_report(thd.ident, stm) == ACL_SUCCESS
    assert acl.rt.free(dev) == ACL_SUCCESS
    assert acl.rt.free_host(host) == ACL_SUCCESS
    assert acl.rt.destroy_stream(stm) == ACL_SUCCESS


def test_async_copies_between_pinned_host_and_device_with_events():
    """The async-copy habit: malloc_host in and out, memcpy_async H2D,
    D2D, D2H on one stream, an event recorded after the copies and
    synchronized, the result read with ptr_to_numpy."""
    n = 1 << 16
    size = n * 4
    stream, ret = acl.rt.create_stream()
    assert ret == ACL_SUCCESS
    event, ret = acl.rt.create_event()
    assert ret == ACL_SUCCESS
    host_in, ret = acl.rt.malloc_host(size)
    assert ret == ACL_SUCCESS
    host_out, ret = acl.rt.malloc_host(size)
    assert ret == ACL_SUCCESS
    dev_a, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == ACL_SUCCESS
    dev_b, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == ACL_SUCCESS
    try:
        src = np.arange(n, dtype=np.int32) * 3 - 7
        assert acl.rt.memcpy(host_in, size, acl.util.numpy_to_ptr(src), size,
                             0) == ACL_SUCCESS                 # HOST_TO_HOST
        assert acl.rt.memset(host_out, size, 0, size) == ACL_SUCCESS
        assert acl.rt.memcpy_async(dev_a, size, host_in, size,
                                   ACL_MEMCPY_HOST_TO_DEVICE, stream) == ACL_SUCCESS
        assert acl.rt.memcpy_async(dev_b, size, dev_a, size,
                                   ACL_MEMCPY_DEVICE_TO_DEVICE, stream) == ACL_SUCCESS
        assert acl.rt.memcpy_async(host_out, size, dev_b, size,
                                   ACL_MEMCPY_DEVICE_TO_HOST, stream) == ACL_SUCCESS
        assert acl.rt.record_event(event, stream) == ACL_SUCCESS
        assert acl.rt.synchronize_event(event) == ACL_SUCCESS
        status, ret = acl.rt.query_event_status(event)
        assert (status, ret) == (ACL_EVENT_RECORD_STATUS_COMPLETE, ACL_SUCCESS)
        got = acl.util.ptr_to_numpy(host_out, (n,), NPY_INT32)
        assert np.array_equal(got, src)
        # dest_max smaller than count: the C call's refusal, nothing queued
        assert acl.rt.memcpy_async(host_out, size - 4, dev_b, size,
                                   ACL_MEMCPY_DEVICE_TO_HOST, stream) != ACL_SUCCESS
    finally:
        for p in (dev_a, dev_b):
            assert acl.rt.free(p) == ACL_SUCCESS
        for p in (host_in, host_out):
            assert acl.rt.free_host(p) == ACL_SUCCESS
        assert acl.rt.destroy_event(event) == ACL_SUCCESS
        assert acl.rt.destroy_stream(stream) == ACL_SUCCESS

