#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# msprof's command line (tools/msprof): usage errors and their exit codes,
# the PROFILER_SAMPLECONFIG JSON a program receives, the program's exit
# status passed through, a PROF_* directory the program left unexported
# exported afterwards, --export / --query on a synthetic directory, and
# the program dying with msprof. TAP.
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "pylib"))
from testenv import check, done  # noqa: E402
import prof_synth as ps  # noqa: E402


def msprof(*args, cwd=None, timeout=60):
    return subprocess.run([str(ps.MSPROF)] + list(args), capture_output=True, text=True,
                          env=ps.env(), cwd=cwd, timeout=timeout)


def main():
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="msprof_cli_"))
    try:
        if ps.MSPROF.exists():
            run(tmp)
        else:
            check("build/tools/msprof exists (make tools)", False)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return done()


def run(tmp):
    dump = tmp / "dump.sh"
    dump.write_text('#!/bin/sh\nprintf "%s" "$PROFILER_SAMPLECONFIG" > "$1"\n'
                    'echo "args:$#" >> "$1.args"\nexit ${2:-0}\n')
    dump.chmod(0o755)

    # usage errors
    p = msprof()
    check("no arguments: exit 1 with the usage", p.returncode == 1 and "usage:" in p.stderr)
    p = msprof("--bogus=1", str(dump))
    check("unknown option: exit 1, named", p.returncode == 1 and
          "unknown option --bogus=1" in p.stderr)
    p = msprof("--task-time=l9", str(dump))
    check("bad --task-time value: exit 1", p.returncode == 1 and
          "invalid value 'l9' for --task-time" in p.stderr)
    p = msprof("--ascendcl=yes", str(dump))
    check("bad on/off value: exit 1", p.returncode == 1 and
          "invalid value 'yes' for --ascendcl" in p.stderr)
    p = msprof("--aic-metrics=Fast", str(dump))
    check("bad --aic-metrics: exit 1", p.returncode == 1 and "--aic-metrics" in p.stderr)
    for v in ("199MB", "4294967296MB", "200GB", "MB"):
        p = msprof("--storage-limit=" + v, str(dump))
        check("--storage-limit=%s rejected" % v, p.returncode == 1 and
              "--storage-limit" in p.stderr)
    p = msprof("--output=%s" % tmp)
    check("no program: exit 1", p.returncode == 1 and "no program to run" in p.stderr)
    p = msprof("--output")
    check("option without its value: exit 1", p.returncode == 1 and "needs a value" in p.stderr)
    p = msprof("--application=%s" % dump, str(dump))
    check("program given twice: exit 1", p.returncode == 1 and "either" in p.stderr)
    p = msprof("--export=on", "--output=%s" % tmp, str(dump))
    check("--export with a program: exit 1", p.returncode == 1 and "take no program" in p.stderr)
    p = msprof("--export=on")
    check("--export without --output: exit 1", p.returncode == 1 and "--output" in p.stderr)
    p = msprof("--application=  ")
    check("an empty --application: exit 1", p.returncode == 1 and
          "--application is empty" in p.stderr)
    p = msprof("--help")
    check("--help: exit 0, usage on stdout", p.returncode == 0 and "usage:" in p.stdout)

    # the configuration a program receives
    outd = tmp / "out1"
    cfg = tmp / "cfg1.json"
    p = msprof("--output=%s" % outd, "--application=%s %s 7" % (dump, cfg))
    check("--application form: the program's exit status (7) is msprof's",
          p.returncode == 7)
    try:
        c = json.loads(cfg.read_text())
    except (OSError, ValueError):
        c = {}
    check("PROFILER_SAMPLECONFIG: defaults", c == {
        "switch": "on", "output": str(outd.resolve()), "ascendcl": "on", "runtime_api": "off",
        "task_time": "on", "aic_metrics": "PipeUtilization", "msproftx": "off",
        "task_memory": "off", "aicpu": "off", "l2": "off", "hccl": "off", "ge_api": "off"})
    check("--output is created", outd.is_dir())
    check("a run that wrote no PROF_* directory says so",
          "wrote no PROF_* directory" in p.stderr)

    cfg2 = tmp / "cfg2.json"
    p = msprof("--output", str(outd), "--task-time=l1", "--msproftx=on", "--ascendcl", "off",
               "--runtime-api=on", "--aic-metrics=MemoryL0", "--storage-limit=500MB",
               "--aicpu=on", "--task-memory=on", "--ge-api=l0", "--aic-freq=50",
               "--sys-devices=all", "--model-execution=on",
               str(dump), str(cfg2), "0", "extra arg")
    try:
        c = json.loads(cfg2.read_text())
    except (OSError, ValueError):
        c = {}
    check("switches map to acl.json keys", p.returncode == 0 and c.get("task_time") == "l1" and
          c.get("msproftx") == "on" and c.get("ascendcl") == "off" and
          c.get("runtime_api") == "on" and c.get("aic_metrics") == "MemoryL0" and
          c.get("storage_limit") == "500MB" and c.get("aicpu") == "on" and
          c.get("task_memory") == "on" and c.get("ge_api") == "l0")
    check("the newer form passes the program's arguments unchanged",
          (tmp / "cfg2.json.args").read_text().strip() == "args:3")
    check("meaningless options are accepted with one note each",
          "--aic-freq accepted" in p.stderr and "--sys-devices accepted" in p.stderr and
          "--model-execution accepted" in p.stderr)

    p = msprof("--output=%s" % outd, str(tmp / "does-not-exist"))
    check("a program that cannot run: exit 127 with the reason",
          p.returncode == 127 and "cannot run" in p.stderr)
    p = msprof("--output=%s" % outd, "--environment=VNPU_T1=a b;VNPU_T2=c", "sh", "-c",
               'test "$VNPU_T1" = "a b" && test "$VNPU_T2" = c')
    check("--environment sets the program's variables", p.returncode == 0)
    p = msprof("--output=%s" % outd, "--environment=novalue", "true")
    check("--environment without NAME=VALUE fails", p.returncode == 127 and
          "not NAME=VALUE" in p.stderr)
    p = msprof("--output=%s" % outd, "sh", "-c", "kill -TERM $$")
    check("a program killed by SIGTERM: exit 128 + 15", p.returncode == 143)

    # a program that leaves an unexported PROF_ directory behind
    outd = tmp / "out2"
    raw = ps.scenario().write(tmp / "template" / "PROF_000009_20260101000000000_X")
    # the program learns the output directory from PROFILER_SAMPLECONFIG
    prog = tmp / "prog.sh"
    prog.write_text('#!/bin/sh\nout=$(printf "%%s" "$PROFILER_SAMPLECONFIG" | '
                    '/usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)[\'output\'])")\n'
                    'cp -r "%s" "$out/"\n' % raw)
    prog.chmod(0o755)
    p = msprof("--output=%s" % outd, str(prog))
    made = outd / raw.name
    tl = made / "mindstudio_profiler_output" / ("timeline_%s.html" % ps.stamp())
    check("a new unexported PROF_ directory is exported after the run (%s)" % p.stderr.strip(),
          p.returncode == 0 and tl.exists() and
          (made / "mindstudio_profiler_output" / ("op_summary_%s.csv" % ps.stamp())).exists())
    check("the run prints the results and the timeline's path",
          ("results: %s/mindstudio_profiler_output" % made) in p.stdout and str(tl) in p.stdout)

    # offline: --export on the parent, --parse, --query
    for f in (made / "mindstudio_profiler_output").iterdir():
        f.unlink()
    p = msprof("--export=on", "--output=%s" % outd)
    check("--export=on on the parent exports each PROF_ directory", p.returncode == 0 and
          tl.exists())
    tl.unlink()
    p = msprof("--parse=on", "--output=%s" % made)
    check("--parse=on on the PROF_ directory itself", p.returncode == 0 and tl.exists())
    p = msprof("--query=on", "--output=%s" % outd)
    check("--query=on lists the directory, its program and export state",
          p.returncode == 0 and str(made) in p.stdout and "./synthetic --batch 1" in p.stdout
          and "exported: yes" in p.stdout)
    p = msprof("--export=on", "--output=%s" % (tmp / "template"))
    check("--export=on reports success for a good directory", p.returncode == 0)
    empty = tmp / "nothing"
    empty.mkdir()
    p = msprof("--export=on", "--output=%s" % empty)
    check("--export=on with no PROF_ directory: exit 1", p.returncode == 1 and
          "no PROF_* directory" in p.stderr)
    bad = tmp / "bad" / "PROF_000001_bad"
    bad.mkdir(parents=True)
    p = msprof("--export=on", "--output=%s" % bad.parent)
    check("--export=on of a directory without info.json: exit 1, named",
          p.returncode == 1 and "export of %s failed" % bad in p.stderr)

    # the program dies with msprof (PR_SET_PDEATHSIG)
    pidf = tmp / "child.pid"
    proc = subprocess.Popen([str(ps.MSPROF), "--output=%s" % outd, "sh", "-c",
                             'echo $$ > %s; exec sleep 30' % pidf],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if pidf.exists() and pidf.read_text().strip():
            break
        time.sleep(0.05)
    child = int(pidf.read_text().strip()) if pidf.exists() else 0
    proc.kill()
    proc.wait()
    gone = False
    for _ in range(100):
        try:
            os.kill(child, 0)
            with open("/proc/%d/stat" % child) as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    gone = True     # dead, not yet reaped
                    break
        except OSError:
            gone = True
            break
        time.sleep(0.05)
    if not gone and child:
        os.kill(child, signal.SIGKILL)
    check("the program dies when msprof is killed", child > 0 and gone)


if __name__ == "__main__":
    sys.exit(main())
