# SPDX-License-Identifier: MIT
# The flows of seed 000's samples with pyACL's calls (the samples
# themselves, and which run unchanged, are in Documentation/python.md):
# device information, a block pool over malloc, and streams with events.
import numpy as np

import acl

BLOCK = 4 << 20
H2D, D2H = 1, 2


def test_device_information_flow():
    # section 4.1: a context, the version, memory info as a mapping
    ctx0, _ = acl.rt.get_context()
    ctx, ret = acl.rt.create_context(0)
    assert ret == 0
    try:
        assert acl.rt.get_version()[3] == 0
        info = acl.rt.get_mem_info()
        assert info["ret"] == 0 and 0 < info["free"] <= info["total"]
    finally:
        assert acl.rt.set_context(ctx0) == 0
        assert acl.rt.destroy_context(ctx) == 0


class BlockPool:
    """Section 5.2's pool: fixed blocks from malloc, handed out and back."""

    def __init__(self, blocks):
        self.free_blocks = []
        for _ in range(blocks):
            ptr, ret = acl.rt.malloc(BLOCK)
            assert ret == 0
            self.free_blocks.append(ptr)
        self.used = {}

    def allocate(self, size):
        n = -(-size // BLOCK)
        if n > len(self.free_blocks):
            return None
        got = [self.free_blocks.pop() for _ in range(n)]
        self.used[got[0]] = got
        return got[0]

    def release(self, ptr):
        self.free_blocks.extend(self.used.pop(ptr))

    def close(self):
        assert not self.used
        for p in self.free_blocks:
            assert acl.rt.free(p) == 0


def test_memory_pool_over_malloc():
    pool = BlockPool(4)
    a = pool.allocate(BLOCK)
    b = pool.allocate(2 * BLOCK)
    assert a and b and a != b
    assert pool.allocate(2 * BLOCK) is None         # one block left
    data = np.arange(BLOCK // 4, dtype=np.float32)
    out = np.zeros_like(data)
    assert acl.rt.memcpy(a, BLOCK, data, BLOCK, H2D) == 0
    assert acl.rt.memcpy(b, BLOCK, a, BLOCK, acl.ACL_MEMCPY_DEVICE_TO_DEVICE) == 0
    assert acl.rt.memcpy(out, BLOCK, b, BLOCK, D2H) == 0
    assert np.array_equal(out, data)
    pool.release(a)
    pool.release(b)
    assert len(pool.free_blocks) == 4
    pool.close()


def test_streams_and_events_flow():
    # section 7.1: copy on a compute stream, record, the copy stream waits
    compute, _ = acl.rt.create_stream()
    copy, _ = acl.rt.create_stream()
    done, _ = acl.rt.create_event()
    data = np.random.default_rng(7).random((256, 256)).astype(np.float32)
    dev, ret = acl.rt.malloc(data.nbytes)
    assert ret == 0
    try:
        assert acl.rt.memcpy_async(dev, data, data.nbytes, H2D, compute) == 0
        assert acl.rt.record_event(done, compute) == 0
        assert acl.rt.wait_event(copy, done) == 0
        out = np.zeros_like(data)
        assert acl.rt.memcpy_async(out, dev, data.nbytes, D2H, copy) == 0
        assert acl.rt.synchronize_stream(copy) == 0
        assert np.array_equal(out, data)
    finally:
        assert acl.rt.free(dev) == 0
        assert acl.rt.destroy_event(done) == 0
        assert acl.rt.destroy_stream(compute) == 0
        assert acl.rt.destroy_stream(copy) == 0
