# SPDX-License-Identifier: MIT
"""What the Python tests and benches share: the tree's paths, the build's
`acl` module and packages on sys.path (importing this module puts them
there), TAP checks for the host tests, and the CPU's name and the JSON
layout of the bench figures (as tests/bench/bench_json.h writes them).
"""
import json
import os
import pathlib
import sys

TOP = pathlib.Path(__file__).resolve().parents[2]
BUILD = TOP / "build"
sys.path.insert(0, str(BUILD / "python"))

_count = 0
_failed = False


def check(name, ok):
    """One TAP line; a false ok makes done() return 1."""
    global _count, _failed
    _count += 1
    print(("ok %d - %s" if ok else "not ok %d - %s") % (_count, name))
    if not ok:
        _failed = True


def raises(exc, fn, *args):
    try:
        fn(*args)
    except exc:
        return True
    return False


def done():
    """Print the TAP plan; the exit status for sys.exit()."""
    print("1..%d" % _count)
    return 1 if _failed else 0


def cpu_name():
    """The machine, as tests/bench/bench_json.h names it."""
    name = os.environ.get("VNPU_BENCH_CPU", "")
    if not name:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    name = line.split(":", 1)[1].strip()
                    break
    return (name or "unknown").replace('"', "'").replace("\\", "'")


def write_bench_json(path, entries):
    """The figures as `make bench` collects them: a list, one per line."""
    rows = ",\n".join("  " + json.dumps(e) for e in entries)
    with open(path, "w") as f:
        f.write("[\n%s\n]\n" % rows if rows else "[\n]\n")
