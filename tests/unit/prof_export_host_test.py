#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# The profiling exporter (lib/prof/export, run through `msprof --export=on`)
# on synthetic raw data directories: every CSV's exact header, its rows and
# the figures in them against values computed here, the Chrome trace's
# event schema and flows, a directory with empty and missing files, and
# hostile input that must fail cleanly (exit 1, "file:line: why", no
# output written). TAP.
import csv
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "pylib"))
from testenv import check, done  # noqa: E402
import prof_synth as ps  # noqa: E402


def export(d):
    return subprocess.run([str(ps.MSPROF), "--export=on", "--output=%s" % d],
                          capture_output=True, text=True, env=ps.env(), timeout=60)


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], [dict(zip(rows[0], r)) for r in rows[1:]], rows[1:]


def out(d, base, ext=".csv"):
    return pathlib.Path(d) / "mindstudio_profiler_output" / ("%s_%s%s" % (base, ps.stamp(), ext))


def main():
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="prof_export_"))
    try:
        run(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return done()


def run(tmp):
    if not ps.MSPROF.exists():
        check("build/tools/msprof exists (make tools)", False)
        return
    r = ps.scenario()
    d = r.write(tmp / "PROF_000001_20260101000000000_ABCDEFGHIJKLMNOP")
    p = export(d)
    check("export of the synthetic directory succeeds (%s)" % p.stderr.strip(),
          p.returncode == 0)
    check("export prints the timeline's path",
          str(out(d, "timeline", ".html")) in p.stdout)

    # op_summary
    hdr, rows, raw = read_csv(out(d, "op_summary"))
    check("op_summary: CANN's columns in order", hdr == ps.OP_SUMMARY_COLS)
    exp = ps.expected_ops(r)
    check("op_summary: one row per operator task (%d, expected %d)" % (len(rows), len(exp)),
          len(rows) == len(exp))
    check("op_summary: every row has every column", all(len(x) == len(hdr) for x in raw))
    bad = [(i, k, rows[i].get(k), e[k]) for i, e in enumerate(exp[:len(rows)])
           for k in e if rows[i].get(k) != e[k]]
    check("op_summary: values as computed independently %s" % (bad[:3],), not bad)
    check("op_summary: no copy, fill or mark rows",
          all(x["Task Type"] in ("AI_CORE", "AI_CPU") for x in rows))
    check("op_summary: N/A columns",
          all(x[k] == "N/A" for x in rows for k in (
              "OP State", "HF32 Eligible", "Mix Block Num", "Input Data Types",
              "Input Formats", "Output Data Types", "Output Formats", "Context ID",
              "total_cycles")))
    conv = [x for x in rows if x["Op Name"] == "conv1"]
    check("op_summary: the model's op appears once per execution with Infer ID 1, 2",
          [x["Infer ID"] for x in conv] == ["1", "2"] and
          all(x["Model Name"] == "resnet18" and x["Model ID"] == "7" for x in conv))
    check("op_summary: shapes split at '|' and CSV-quoted",
          conv[0]["Input Shapes"] == "1,3,224,224;64,3,7,7" and
          conv[0]["Output Shapes"] == "1,64,112,112")
    mm = [x for x in rows if x["OP Type"] == "MatMul"]
    check("op_summary: a name with a comma and quotes survives CSV",
          mm and mm[0]["Op Name"] == 'aclnnMatmul, "fast"')
    relu = [x for x in rows if x["Op Name"] == "relu1"]
    check("op_summary: wait time is the gap since the stream's previous op "
          "(relu1 after conv1: 4.500 us)", relu and relu[0]["Task Wait Time(us)"] == "4.500")

    # op_statistic
    hdr, st, _ = read_csv(out(d, "op_statistic"))
    check("op_statistic: CANN's columns", hdr == ps.OP_STATISTIC_COLS)
    groups = defaultdict(list)
    for x in exp:
        groups[(x["Device_id"], x["Model Name"], x["OP Type"], x["Task Type"])].append(x)
    check("op_statistic: one row per (device, model, op type, core type)",
          len(st) == len(groups))
    dev_total = defaultdict(int)

    def ns(s):
        a, b = s.split(".")
        return int(a) * 1000 + int(b)
    for k, v in groups.items():
        dev_total[k[0]] += sum(ns(x["Task Duration(us)"]) for x in v)
    ok = True
    for s in st:
        v = groups.get((s["Device_id"], s["Model Name"], s["OP Type"], s["Core Type"]))
        if not v:
            ok = False
            continue
        durs = [ns(x["Task Duration(us)"]) for x in v]
        tot = sum(durs)
        ok &= s["Count"] == str(len(durs)) and s["Total Time(us)"] == ps.us(tot)
        ok &= s["Avg Time(us)"] == ps.us(tot // len(durs))
        ok &= s["Min Time(us)"] == ps.us(min(durs)) and s["Max Time(us)"] == ps.us(max(durs))
        ok &= abs(float(s["Ratio(%)"]) - 100.0 * tot / dev_total[s["Device_id"]]) < 0.001
    check("op_statistic: count, total, avg, min, max, ratio", ok)
    for dev in ("0", "1"):
        check("op_statistic: device %s ratios sum to 100" % dev,
              abs(sum(float(s["Ratio(%)"]) for s in st if s["Device_id"] == dev) - 100) < 0.01)
    tots = [ns(s["Total Time(us)"]) for s in st if s["Device_id"] == "0"]
    check("op_statistic: heaviest first", tots == sorted(tots, reverse=True))

    # api_statistic
    hdr, ap, _ = read_csv(out(d, "api_statistic"))
    check("api_statistic: CANN's columns", hdr == ps.API_STATISTIC_COLS)
    g = defaultdict(list)
    for a in r.apis:
        g[(a[0], a[1])].append(a[5] - a[4])
    check("api_statistic: one row per (level, API)", len(ap) == len(g))
    ok = True
    for a in ap:
        durs = g[(a["Level"], a["API Name"])]
        mean = sum(durs) / len(durs) / 1000
        var = sum((x / 1000 - mean) ** 2 for x in durs) / len(durs)
        ok &= a["Device_id"] == "host" and a["Count"] == str(len(durs))
        ok &= a["Time(us)"] == ps.us(sum(durs)) and a["Min(us)"] == ps.us(min(durs))
        ok &= a["Max(us)"] == ps.us(max(durs)) and a["Avg(us)"] == ps.us(sum(durs) // len(durs))
        ok &= abs(float(a["Variance"]) - var) < 0.001
    check("api_statistic: time, count, avg, min, max, variance", ok)
    memcpy = [a for a in ap if a["API Name"] == "aclrtMemcpy"]
    check("api_statistic: aclrtMemcpy variance of 10, 20, 45 us is 216.667",
          memcpy and memcpy[0]["Variance"] == "216.667")

    # task_time
    hdr, tt, _ = read_csv(out(d, "task_time"))
    check("task_time: CANN's columns", hdr == ps.TASK_TIME_COLS)
    check("task_time: every task record, copies included (%d)" % len(tt),
          len(tt) == len(r.tasks))
    kinds = defaultdict(int)
    for x in tt:
        kinds[x["kernel_type"]] += 1
    check("task_time: kernel types %s" % dict(kinds),
          kinds == {"KERNEL_AICORE": 9, "KERNEL_AICPU": 1, "MEMCPY": 1, "MEMSET": 1,
                    "MARK": 1})
    check("task_time: task_time = stop - start",
          all(ns(x["task_time(us)"]) == ns(x["task_stop(us)"]) - ns(x["task_start(us)"])
              for x in tt))

    # msprof_tx
    hdr, tx, _ = read_csv(out(d, "msprof_tx"))
    check("msprof_tx: CANN's columns", hdr == ps.MSPROF_TX_COLS)
    check("msprof_tx: one row per marker", len(tx) == len(r.txs))
    mark_task = [t for t in r.tasks if t["tag"] == 6][0]
    mex = [x for x in tx if x["event_type"] == "MarkEx"]
    check("msprof_tx: MarkEx gets its task's device start and end",
          mex and mex[0]["Device_id"] == "0" and
          mex[0]["Device Start_time(us)"] == ps.us(mark_task["start"]) and
          mex[0]["Device End_time(us)"] == ps.us(mark_task["end"]))
    host_marks = [x for x in tx if x["Device_id"] == "host"]
    check("msprof_tx: host markers have N/A device times",
          len(host_marks) == 2 and all(x["Device Start_time(us)"] == "N/A" for x in host_marks))
    mk = [x for x in tx if x["event_type"] == "Mark"]
    check("msprof_tx: a mark written with end 0 ends at its start",
          mk and mk[0]["End_time(us)"] == mk[0]["Start_time(us)"] == ps.us(ps.BASE + 500))
    rng = [x for x in tx if x["event_type"] == "Push/Pop"]
    check("msprof_tx: range start/end and payload",
          rng and rng[0]["Start_time(us)"] == ps.us(ps.BASE + 600) and
          rng[0]["End_time(us)"] == ps.us(ps.BASE + 90_000) and rng[0]["payload_value"] == "5")

    check_trace(out(d, "msprof", ".json"), r)
    html = out(d, "timeline", ".html").read_text()
    check("timeline html: self-contained (no http(s) URL, no src=)",
          "http://" not in html and "https://" not in html and " src=" not in html)

    check_empty(tmp)
    check_hostile(tmp)


def check_trace(path, r):
    try:
        ev = json.loads(path.read_text())
    except ValueError as e:
        check("trace: valid JSON (%s)" % e, False)
        return
    check("trace: a JSON array of objects", isinstance(ev, list) and
          all(isinstance(e, dict) for e in ev))
    bad = ps.trace_problems(ev)
    check("trace: every event has its keys with the right types %s" % bad[:2], not bad)
    starts = defaultdict(int)
    ends = defaultdict(int)
    for e in ev:
        if e["ph"] == "s":
            starts[e["id"]] += 1
        elif e["ph"] == "f":
            ends[e["id"]] += 1
    check("trace: every flow start has one finish and back",
          starts and starts == ends and set(starts.values()) == {1})
    check("trace: one flow per launch that became a task (%d)" % len(starts),
          len(starts) == len(r.launches))
    procs = {e["pid"]: e["args"]["name"] for e in ev
             if e["ph"] == "M" and e["name"] == "process_name"}
    check("trace: processes CANN, Model Execution, msproftx, Ascend Hardware per device",
          sorted(procs.values()) == sorted(["CANN", "Model Execution", "msproftx",
                                            "Ascend Hardware (device 0)",
                                            "Ascend Hardware (device 1)"]))
    hw = {v: k for k, v in procs.items()}
    tasks = [e for e in ev if e["ph"] == "X" and e["pid"] in
             (hw["Ascend Hardware (device 0)"], hw["Ascend Hardware (device 1)"])
             and e["cat"] != "Job"]
    check("trace: one X event per device task", len(tasks) == len(r.tasks))
    jobs = [e for e in ev if e["ph"] == "X" and e.get("cat") == "Job"]
    check("trace: one X event per job", len(jobs) == len(r.jobs))
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev
               if e["ph"] == "M" and e["name"] == "thread_name"}
    check("trace: device threads per stream",
          threads.get((hw["Ascend Hardware (device 0)"], 1)) == "Stream 1" and
          threads.get((hw["Ascend Hardware (device 1)"], 5)) == "Stream 5")
    apis = [e for e in ev if e["ph"] == "X" and e["pid"] == hw["CANN"]]
    check("trace: one span per API call", len(apis) == len(r.apis))
    fail = [e for e in tasks if e["args"].get("status") == 62]
    check("trace: the failed task carries its status", len(fail) == 1)
    inst = [e for e in ev if e["ph"] == "i"]
    check("trace: marks are instants with scope", len(inst) == 2 and
          all(e.get("s") == "t" for e in inst))
    conv = [e for e in tasks if e["name"] == "conv1"]
    check("trace: ts and dur of a task", conv and conv[0]["ts"] == ps.us(ps.BASE + 110_000)
          and abs(conv[0]["dur"] - 25.5) < 1e-9)


def check_empty(tmp):
    """Empty and header-only files, missing optional files, no device."""
    r = ps.Raw()
    d = tmp / "PROF_000002_empty"
    r.write(d)
    (d / "host/data/api.tsv").write_text("")
    (d / "host/data/model.tsv").unlink()
    p = export(d)
    check("empty directory: export succeeds (%s)" % p.stderr.strip(), p.returncode == 0)
    hdr, rows, _ = read_csv(out(d, "op_summary"))
    check("empty directory: op_summary has the header and no rows",
          hdr == ps.OP_SUMMARY_COLS and rows == [])
    hdr, rows, _ = read_csv(out(d, "api_statistic"))
    check("empty directory: api_statistic has the header and no rows",
          hdr == ps.API_STATISTIC_COLS and rows == [])
    check("empty directory: no msprof_tx file without markers",
          not out(d, "msprof_tx").exists())
    ev = json.loads(out(d, "msprof", ".json").read_text())
    check("empty directory: the trace is valid JSON with only metadata",
          all(e["ph"] == "M" for e in ev))
    check("empty directory: the timeline exists", out(d, "timeline", ".html").exists())

    # only device_<n> folders (canonical n) are devices: others are ignored
    r = ps.scenario()
    d = r.write(tmp / "PROF_000004_devnames")
    for junk in ("device_007", "device_x", "device_-1", "devices_1"):
        (d / junk / "data").mkdir(parents=True)
        (d / junk / "data" / "task.tsv").write_text("garbage\n")
    p = export(d)
    _, tt, _ = read_csv(out(d, "task_time")) if p.returncode == 0 else (0, [], 0)
    check("folders not named device_<n> are not read (%s)" % p.stderr.strip(),
          p.returncode == 0 and len(tt) == len(r.tasks))

    # very long names go through whole
    r = ps.scenario()
    long = "N" * 20000
    r.tags[0] = (1, 7, "Conv2D", long, "AI_CORE", "1|1")
    d = r.write(tmp / "PROF_000003_long")
    p = export(d)
    _, rows, _ = read_csv(out(d, "op_summary")) if p.returncode == 0 else (0, [], 0)
    check("a 20000-character op name is exported whole",
          p.returncode == 0 and any(x["Op Name"] == long for x in rows))


def check_hostile(tmp):
    """Bad input: exit 1, a message naming file and line, nothing written."""
    cases = []

    def case(name, mutate, want):
        cases.append((name, mutate, want))

    def append(rel, text):
        def f(d):
            with open(d / rel, "a") as fp:
                fp.write(text)
        return f

    def replace(rel, text):
        def f(d):
            (d / rel).write_text(text)
        return f

    task = "device_0/data/task.tsv"
    case("a bad number", append(task, "task\t0\t1\t99\t0\t1\t7\t0\t0\tabc\t5\t0\t1\t0\n"),
         "task.tsv:%d: bad number in start_ns")
    case("a negative number", append("host/data/api.tsv",
                                     "AscendCL\tx\t1\t-5\t1\t2\n"), "api.tsv:%d: bad number in tid")
    case("a number with trailing junk", append("host/data/launch.tsv",
                                               "0\t1\t2\t3\t4\t5\t6x\n"),
         "launch.tsv:%d: bad number in time_ns")
    case("too few fields", append(task, "task\t0\t1\n"), "task.tsv:%d: 3 fields, expected 14")
    case("a truncated last line", append("host/data/tags.tsv", "12\t0\tAdd"),
         "tags.tsv:%d: truncated line")
    case("end before start", append("host/data/model.tsv",
                                    "0\t1\tm\t1\t1\t500\t400\n"), "model.tsv:%d: end_ns before")
    case("a task ending before it starts",
         append(task, "task\t0\t1\t99\t0\t1\t7\t0\t0\t10\t5\t0\t1\t0\n"),
         "task.tsv:%d: end_ns before start_ns")
    case("an API span ending before it starts",
         append("host/data/api.tsv", "AscendCL\tx\t1\t1\t9\t8\n"),
         "api.tsv:%d: end_ns before start_ns")
    case("a range ending before it starts", append(
        "host/data/tx.tsv", "1\t1\t-\tPush/Pop\t-\t-\t9\t8\t-\tm\t-\t-1\t0\t0\n"),
        "tx.tsv:%d: end_ns before start_ns")
    case("info.json with a negative start", replace("info.json", json.dumps(
        {"version": 1, "start_ns": -1, "start_wall_us": 1})), '"start_ns" out of range')
    case("an unknown record kind", append(task, "blob\t0\t1\t1\t0\t1\t7\t0\t0\t1\t5\t0\t1\t0\n"),
         "task.tsv:%d: unknown kind blob")
    case("an unknown task_type", append("host/data/tags.tsv", "12\t0\tAdd\tadd\tGPU\t-\n"),
         "tags.tsv:%d: unknown task_type GPU")
    case("an unknown event_type", append("host/data/tx.tsv",
                                         "1\t1\t-\tBlink\t-\t-\t1\t2\t-\tm\t-\t-1\t0\t0\n"),
         "tx.tsv:%d: unknown event_type Blink")
    case("a NUL byte", append("host/data/api.tsv", "AscendCL\tx\x00y\t1\t1\t1\t2\n"),
         "api.tsv:%d: NUL byte")
    case("a wrong header", replace("host/data/api.tsv", "#level\tname\tpid\n"),
         "api.tsv:1: header lacks column tid")
    case("a header naming another column",
         replace("host/data/launch.tsv", "#device\tstream\tseq\ttask\ttag\ttid\ttime_ns\n"),
         "launch.tsv:1: header names a column stream")
    case("no header", replace("host/data/api.tsv", "AscendCL\tx\t1\t1\t1\t2\n"),
         "api.tsv:1: no #header line")
    case("a number past 32 bits", append(task,
                                         "task\t0\t4294967296\t1\t0\t1\t7\t0\t0\t1\t5\t0\t1\t0\n"),
         "task.tsv:%d: bad number in queue")
    case("info.json missing", lambda d: (d / "info.json").unlink(), "info.json: missing")
    case("info.json version 2", replace("info.json", json.dumps(
        {"version": 2, "start_ns": 1, "start_wall_us": 1})), "version 2, expected 1")
    case("info.json without start_wall_us", replace("info.json", json.dumps(
        {"version": 1, "start_ns": 1})), 'no "start_wall_us"')
    case("info.json not an object", replace("info.json", "[1,2]"), "not a JSON object")
    case("info.json start_ns a string", replace("info.json", json.dumps(
        {"version": 1, "start_ns": "1", "start_wall_us": 1})), '"start_ns" is not an integer')

    base = ps.scenario()
    for i, (name, mutate, want) in enumerate(cases):
        d = base.write(tmp / ("PROF_hostile_%02d" % i))
        rel = {"task.tsv": task, "api.tsv": "host/data/api.tsv",
               "launch.tsv": "host/data/launch.tsv", "tags.tsv": "host/data/tags.tsv",
               "model.tsv": "host/data/model.tsv", "tx.tsv": "host/data/tx.tsv"}
        line = 0
        for k, v in rel.items():
            if want.startswith(k):
                line = len((d / v).read_text().splitlines()) + 1
        mutate(d)
        if "%d" in want:
            want = want % line
        p = export(d)
        msg = p.stderr.strip()
        check("hostile input, %s: exit 1 and '%s' (got %d: %s)" % (name, want, p.returncode, msg),
              p.returncode == 1 and want in msg)
        check("hostile input, %s: no output written" % name,
              not (d / "mindstudio_profiler_output").exists() or
              not any((d / "mindstudio_profiler_output").iterdir()))


if __name__ == "__main__":
    sys.exit(main())
