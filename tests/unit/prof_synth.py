# SPDX-License-Identifier: MIT
"""Synthetic raw profiling directories (Documentation/profiling.md, "Raw
data directory") for the exporter's host tests, and the expected values
computed here independently of the C code."""
import json
import os
import pathlib
import time

TOP = pathlib.Path(__file__).resolve().parents[2]
MSPROF = pathlib.Path(os.environ.get("VNPU_MSPROF", TOP / "build" / "tools" / "msprof"))

BASE = 5_000_000_000          # start_ns: CLOCK_MONOTONIC at start
WALL_US = 1_780_000_000_123_456  # start_wall_us

KERNEL, COPY, FILL, NOP, WAIT = 7, 1, 3, 0, 6

HEADERS = {
    "api": "#level\tname\tpid\ttid\tstart_ns\tend_ns",
    "launch": "#device\tqueue\tseq\ttask\ttag\ttid\ttime_ns",
    "model": "#device\tmodel_id\tmodel_name\tqueue\ttid\tstart_ns\tend_ns",
    "tags": "#tag\tmodel_id\top_type\top_name\ttask_type\tshapes",
    "tx": "#pid\ttid\tcategory\tevent_type\tpayload_type\tpayload_value\t"
          "start_ns\tend_ns\tmessage_type\tmessage\tdomain\tdevice\tqueue\ttag",
    "task": "#kind\tengine\tqueue\tseq\ttask\ttag\ttype\tstatus\top\t"
            "start_ns\tend_ns\tbytes\tpieces\tparks",
}


def us(ns):
    """ns as the exporter prints µs: integer arithmetic, 3 decimals."""
    return "%d.%03d" % (ns // 1000, ns % 1000)


def stamp():
    return time.strftime("%Y%m%d%H%M%S", time.gmtime(WALL_US // 1_000_000))


class Raw:
    """A raw directory's content as Python lists, written by write()."""

    def __init__(self):
        self.tags = []      # (tag, model_id, op_type, op_name, task_type, shapes)
        self.tasks = []     # dicts: dev, engine, queue, seq, task, tag, type, status, op, start, end, bytes, pieces, parks
        self.jobs = []      # dicts: dev, engine, queue, seq, tasks, start, end, submit
        self.apis = []      # (level, name, pid, tid, start, end)
        self.launches = []  # (dev, queue, seq, task, tag, tid, time)
        self.models = []    # (dev, model_id, name, queue, tid, start, end)
        self.txs = []       # tuples of the 14 tx columns
        self.devices = []

    def task(self, dev, queue, seq, task, tag, type_, start, dur, status=0,
             engine=0, tid=None, pieces=1):
        t = dict(dev=dev, engine=engine, queue=queue, seq=seq, task=task,
                 tag=tag, type=type_, status=status, op=3 if type_ == KERNEL else 0,
                 start=BASE + start, end=BASE + start + dur, bytes=4096,
                 pieces=pieces, parks=0)
        self.tasks.append(t)
        if tid is not None:
            self.launches.append((dev, queue, seq, task, tag, tid, BASE + start - 3000))
        if dev not in self.devices:
            self.devices.append(dev)
        return t

    def write(self, d, info=None):
        d = pathlib.Path(d)
        (d / "host" / "data").mkdir(parents=True, exist_ok=True)
        inf = {"version": 1, "pid": 4242, "app": "./synthetic --batch 1",
               "cpu": "test cpu", "start_ns": BASE, "stop_ns": BASE + 10_000_000,
               "start_wall_us": WALL_US, "data_type_config": "0x80b",
               "aic_metrics": "PipeUtilization", "devices": sorted(self.devices)}
        if info is not None:
            inf = info
        (d / "info.json").write_text(json.dumps(inf))

        def tsv(rel, header, rows):
            if rows is None:
                return
            p = d / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            with open(p, "w") as f:
                f.write(header + "\n")
                for r in rows:
                    f.write("\t".join("-" if x == "" else str(x) for x in r) + "\n")

        tsv("host/data/tags.tsv", HEADERS["tags"], self.tags)
        tsv("host/data/api.tsv", HEADERS["api"], self.apis)
        tsv("host/data/launch.tsv", HEADERS["launch"], self.launches)
        tsv("host/data/model.tsv", HEADERS["model"], self.models)
        if self.txs:
            tsv("host/data/tx.tsv", HEADERS["tx"], self.txs)
        for dev in self.devices:
            rows = []
            for t in self.tasks:
                if t["dev"] == dev:
                    rows.append(("task", t["engine"], t["queue"], t["seq"], t["task"],
                                 t["tag"], t["type"], t["status"], t["op"], t["start"],
                                 t["end"], t["bytes"], t["pieces"], t["parks"]))
            for j in self.jobs:
                if j["dev"] == dev:
                    rows.append(("job", j["engine"], j["queue"], j["seq"], j["tasks"], 0,
                                 0, 0, 0, j["start"], j["end"], j["submit"], 1, 0))
            tsv("device_%d/data/task.tsv" % dev, HEADERS["task"], rows)
            (d / ("device_%d" % dev) / "info.json").write_text(json.dumps(
                {"device": dev, "engines": 2, "records": len(rows), "dropped": 0,
                 "ring_records": 4096}))
        return d


def scenario():
    """Two devices, three streams, a model run twice, launches, markers,
    a failed task, copies, untagged tasks, names needing CSV quoting."""
    r = Raw()
    r.tags = [
        (1, 7, "Conv2D", "conv1", "AI_CORE", "1,3,224,224;64,3,7,7|1,64,112,112"),
        (2, 7, "Relu", "relu1", "AI_CORE", "1,64,112,112|1,64,112,112"),
        (3, 0, "MatMul", 'aclnnMatmul, "fast"', "AI_CORE", ""),
        (4, 0, "Cast", "cast_cpu", "AI_CPU", ""),
        (5, 0, "MEMCPY", "aclrtMemcpyAsync", "MEMCPY", ""),
        (6, 0, "", "step begin", "MARK", ""),
        (9, 8, "Add", "add_x", "AI_CORE", "4|4"),
    ]
    r.models = [
        (0, 7, "resnet18", 1, 100, BASE + 100_000, BASE + 200_000),
        (0, 7, "resnet18", 1, 100, BASE + 300_000, BASE + 400_000),
    ]
    # the model, twice, on device 0 stream 1
    for k, off in enumerate((100_000, 300_000)):
        r.task(0, 1, 10 + k, 0, 1, KERNEL, off + 10_000, 25_500, tid=100, pieces=2, engine=1)
        r.task(0, 1, 10 + k, 1, 2, KERNEL, off + 40_000, 7_250, tid=100)
        r.jobs.append(dict(dev=0, engine=1, queue=1, seq=10 + k, tasks=2,
                           start=BASE + off + 10_000, end=BASE + off + 47_250,
                           submit=BASE + off + 5_000))
    # eager ops on device 0 stream 2 (pushed in a different order than they ran)
    r.task(0, 2, 1, 0, 3, KERNEL, 50_000, 12_345, tid=101)
    r.task(0, 2, 1, 1, 5, COPY, 63_000, 4_000, tid=101)
    r.task(0, 2, 2, 0, 3, KERNEL, 70_000, 1_000, status=62, tid=101)   # failed: ETIME
    r.task(0, 2, 3, 0, 0, FILL, 72_000, 500)                           # untagged fill
    r.task(0, 2, 3, 1, 0, KERNEL, 73_000, 2_000)                        # untagged kernel
    r.task(0, 2, 4, 0, 6, NOP, 80_000, 100, tid=101)                   # the MarkEx task
    # a model (8) with no model.tsv row
    r.task(0, 2, 5, 0, 9, KERNEL, 90_000, 3_000, tid=101)
    # device 1: an AI CPU op and a kernel on stream 5
    r.task(1, 5, 1, 0, 4, WAIT, 20_000, 9_999, tid=102)
    r.task(1, 5, 1, 1, 3, KERNEL, 31_000, 15_000, tid=102)
    r.apis = [
        ("AscendCL", "aclrtMemcpy", 4242, 100, BASE + 1_000, BASE + 11_000),
        ("AscendCL", "aclrtMemcpy", 4242, 100, BASE + 12_000, BASE + 32_000),
        ("AscendCL", "aclrtMemcpy", 4242, 101, BASE + 33_000, BASE + 78_000),
        ("Model", "aclmdlExecute", 4242, 100, BASE + 99_000, BASE + 201_000),
        ("Model", "aclmdlExecute", 4242, 100, BASE + 299_000, BASE + 401_500),
        ("Runtime", "aclnnMatmul", 4242, 101, BASE + 45_000, BASE + 47_333),
    ]
    r.txs = [
        (4242, 100, "", "Mark", "", "", BASE + 500, 0, "", "hello mark", "default", -1, 0, 0),
        (4242, 100, "cat", "Push/Pop", "uint64", "5", BASE + 600, BASE + 90_000, "", "range a",
         "default", -1, 0, 0),
        (4242, 101, "", "MarkEx", "", "", BASE + 79_000, 0, "", "step begin", "default", 0, 2, 6),
    ]
    return r


def expected_ops(r):
    """op_summary rows as the test expects them: dicts keyed by column."""
    tags = {t[0]: t for t in r.tags}
    # task ids: per (dev, queue) in (seq, task) order
    tid_of = {}
    for key in sorted({(t["dev"], t["queue"]) for t in r.tasks}):
        ts = sorted((t for t in r.tasks if (t["dev"], t["queue"]) == key),
                    key=lambda t: (t["seq"], t["task"]))
        for i, t in enumerate(ts):
            tid_of[id(t)] = i
    launch = {(l[0], l[1], l[2], l[3]): l[6] for l in r.launches}

    def is_op(t):
        tg = tags.get(t["tag"])
        return t["type"] == KERNEL or (tg is not None and tg[4] == "AI_CPU")

    ops = [t for t in r.tasks if is_op(t)]
    wait = {}
    for key in {(t["dev"], t["queue"]) for t in ops}:
        s = sorted((t for t in ops if (t["dev"], t["queue"]) == key),
                   key=lambda t: (t["start"], tid_of[id(t)]))
        prev = None
        for t in s:
            wait[id(t)] = max(0, t["start"] - prev["end"]) if prev else 0
            prev = t
    names = {m[1]: m[2] for m in r.models}
    rows = []
    for t in sorted(ops, key=lambda t: (t["dev"], t["start"], t["queue"], tid_of[id(t)])):
        tg = tags.get(t["tag"])
        mid = tg[1] if tg else 0
        infer = "N/A"
        if mid:
            when = launch.get((t["dev"], t["queue"], t["seq"], t["task"]), t["start"])
            execs = sorted((m for m in r.models if m[0] == t["dev"] and m[1] == mid),
                           key=lambda m: m[5])
            for i, m in enumerate(execs):
                if m[5] <= when <= m[6]:
                    infer = str(i + 1)
        ttype = tg[4] if tg else "AI_CORE"
        shapes = tg[5] if tg else ""
        ins, _, outs = shapes.partition("|")
        dur = t["end"] - t["start"]
        rows.append({
            "Device_id": str(t["dev"]),
            "Model Name": names.get(mid, "N/A") if mid else "N/A",
            "Model ID": str(mid) if mid else "N/A",
            "Task ID": str(tid_of[id(t)]), "Stream ID": str(t["queue"]),
            "Infer ID": infer,
            # untagged kernels are named by their operator id (op 3: DRM_VNPU_OP_MUL)
            "Op Name": (tg[3] or tg[2]) if tg and (tg[3] or tg[2]) else "Mul",
            "OP Type": tg[2] if tg and tg[2] else "N/A" if tg else "Mul",
            "OP State": "N/A", "Task Type": ttype,
            "Task Start Time(us)": us(t["start"]), "Task Duration(us)": us(dur),
            "Task Wait Time(us)": us(wait[id(t)]),
            "Block Num": str(t["pieces"]),
            "Input Shapes": ins or "N/A", "Output Shapes": outs or "N/A",
            "aicore_time(us)": us(dur) if ttype == "AI_CORE" else "N/A",
        })
    return rows


OP_SUMMARY_COLS = [
    "Device_id", "Model Name", "Model ID", "Task ID", "Stream ID", "Infer ID", "Op Name",
    "OP Type", "OP State", "Task Type", "Task Start Time(us)", "Task Duration(us)",
    "Task Wait Time(us)", "Block Num", "HF32 Eligible", "Mix Block Num", "Input Shapes",
    "Input Data Types", "Input Formats", "Output Shapes", "Output Data Types",
    "Output Formats", "Context ID", "aicore_time(us)", "total_cycles"]
OP_STATISTIC_COLS = ["Device_id", "Model Name", "OP Type", "Core Type", "Count",
                     "Total Time(us)", "Avg Time(us)", "Min Time(us)", "Max Time(us)",
                     "Ratio(%)"]
API_STATISTIC_COLS = ["Device_id", "Level", "API Name", "Time(us)", "Count", "Avg(us)",
                      "Min(us)", "Max(us)", "Variance"]
TASK_TIME_COLS = ["Device_id", "kernel_name", "kernel_type", "stream_id", "task_id",
                  "task_time(us)", "task_start(us)", "task_stop(us)"]
MSPROF_TX_COLS = ["Device_id", "pid", "tid", "category", "event_type", "payload_type",
                  "payload_value", "Start_time(us)", "End_time(us)", "message_type",
                  "message", "domain", "Device Start_time(us)", "Device End_time(us)"]


def env():
    e = dict(os.environ)
    e["TZ"] = "UTC"
    return e


def trace_problems(ev):
    """Events breaking the trace-event schema as msprof writes it (§7.1):
    name/ph strings, pid/tid ints, ts a string of a float, X with a
    number dur >= 0, M with args naming or sorting, flows with cat and
    id; and flow ids whose start and finish do not pair up."""
    bad = []
    if not isinstance(ev, list):
        return ["not a list"]
    flows = {}
    for e in ev:
        if not isinstance(e, dict):
            bad.append(e)
            continue
        ph = e.get("ph")
        ok = (isinstance(e.get("name"), str) and isinstance(ph, str) and
              isinstance(e.get("pid"), int) and isinstance(e.get("tid"), int) and
              ph in ("X", "i", "s", "f", "M"))
        if ok and ph in ("X", "i", "s", "f"):
            try:
                ok = isinstance(e["ts"], str) and float(e["ts"]) >= 0
            except (KeyError, ValueError):
                ok = False
        if ok and ph == "X":
            ok = isinstance(e.get("dur"), (int, float)) and e["dur"] >= 0
        if ok and ph == "M":
            ok = isinstance(e.get("args"), dict) and (
                "name" in e["args"] or "sort_index" in e["args"])
        if ok and ph in ("s", "f"):
            ok = e.get("cat") == "async_npu" and isinstance(e.get("id"), int)
            if ok:
                flows.setdefault(e["id"], []).append(ph)
        if not ok:
            bad.append(e)
    for i, phs in flows.items():
        if sorted(phs) != ["f", "s"]:
            bad.append("flow %d: %s" % (i, phs))
    return bad


def read_tsv(path):
    """Rows of a raw .tsv as lists of strings (header skipped); [] if absent."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return []
    return [ln.split("\t") for ln in lines[1:] if ln]
