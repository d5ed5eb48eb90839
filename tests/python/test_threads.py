# SPDX-License-Identifier: MIT
# Threads: the GIL is released in blocking calls, so Python threads drive
# several streams and devices at once (seed 000 section 4.2's pool).
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import acl

H2D, D2H = 1, 2


def test_synchronize_releases_the_gil(stream, dev_buf):
    """A blocked synchronize_stream must let the callback thread run Python."""
    ctx, _ = acl.rt.get_context()
    go = threading.Event()
    waited = []
    stop = threading.Event()

    def loop():
        acl.rt.set_context(ctx)
        while not stop.is_set():
            acl.rt.process_report(50)
    reporter = threading.Thread(target=loop)
    reporter.start()
    try:
        assert acl.rt.subscribe_report(reporter.ident, stream) == 0
        # The stream blocks in a callback until `go` is set; the copy after
        # it waits for the callback, and synchronize_stream for the copy.
        out = np.zeros(16, np.uint8)
        assert acl.rt.memset(dev_buf, 16, 9, 16) == 0
        assert acl.rt.launch_callback(lambda _: waited.append(go.wait(20)),
                                      None, 1, stream) == 0
        assert acl.rt.memset_async(dev_buf, 16, 3, 16, stream) == 0
        host, _ = acl.rt.malloc_host(16)
        assert acl.rt.memcpy_async(host, 16, dev_buf, 16, D2H, stream) == 0
        done = []
        def sync():
            acl.rt.set_context(ctx)         # a new thread has no context
            done.append(acl.rt.synchronize_stream(stream))
        syncer = threading.Thread(target=sync)
        syncer.start()
        time.sleep(0.3)
        assert done == []               # still waiting for the callback
        go.set()                        # only possible while syncer holds no GIL
        syncer.join(20)
        assert done == [0] and waited == [True]
        out[:] = acl.util.ptr_to_numpy(host, (16,), 2)
        assert (out == 3).all()
        assert acl.rt.free_host(host) == 0
        assert acl.rt.unsubscribe_report(reporter.ident, stream) == 0
    finally:
        go.set()
        stop.set()
        reporter.join()


def test_process_report_releases_the_gil(stream):
    """A thread waiting in process_report leaves this one running."""
    ctx, _ = acl.rt.get_context()
    subscribed = threading.Event()
    result = []

    def wait_once():
        acl.rt.set_context(ctx)
        subscribed.wait()
        result.append(acl.rt.process_report(1000))
    t = threading.Thread(target=wait_once)
    t.start()
    assert acl.rt.subscribe_report(t.ident, stream) == 0
    subscribed.set()
    ticks = 0
    while t.is_alive():
        ticks += 1
        time.sleep(0.005)
    t.join()
    assert result == [acl.ACL_ERROR_RT_REPORT_TIMEOUT]
    assert ticks >= 10       # one tick, had the waiting thread kept the GIL
    assert acl.rt.unsubscribe_report(t.ident, stream) == 0


def worker(device, seed, rounds=6):
    """One thread, one device, its own context and stream: copy round trips."""
    assert acl.rt.set_device(device) == 0
    ctx, ret = acl.rt.create_context(device)
    assert ret == 0
    s, ret = acl.rt.create_stream()
    assert ret == 0
    dev, ret = acl.rt.malloc(1 << 20)
    assert ret == 0
    rng = np.random.default_rng(seed)
    ok = 0
    for _ in range(rounds):
        a = rng.random(1 << 18).astype(np.float32)
        b = np.zeros_like(a)
        assert acl.rt.memcpy_async(dev, 1 << 20, a, 1 << 20, H2D, s) == 0
        assert acl.rt.memcpy_async(b, 1 << 20, dev, 1 << 20, D2H, s) == 0
        assert acl.rt.synchronize_stream(s) == 0
        ok += np.array_equal(a, b)
    assert acl.rt.free(dev) == 0
    assert acl.rt.destroy_stream(s) == 0
    assert acl.rt.destroy_context(ctx) == 0
    return ok


def test_two_threads_two_streams_one_device():
    with ThreadPoolExecutor(max_workers=2) as ex:
        results = list(ex.map(lambda seed: worker(0, seed), [1, 2]))
    assert results == [6, 6]


def test_two_threads_two_devices():
    with ThreadPoolExecutor(max_workers=2) as ex:
        results = list(ex.map(lambda d: worker(d, 10 + d), [0, 1]))
    assert results == [6, 6]
    assert acl.rt.reset_device(1) == 0
