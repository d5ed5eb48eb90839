#!/bin/bash
# examples/resnet on ResNet-18 (build/models/resnet18.om, converted by atc
# before the boot) prints PyTorch's top-1 class; examples/dvpp_resnet
# --check (JPEGD -> VPC -> ResNet-18 with AIPP) agrees with the plain model
# fed the picture normalised on the host; examples/dvpp_resnet.py prints
# the same top-5 as the C example; examples/resnet under msprof puts every
# kernel task of the model in op_summary once per execution, with
# durations that add up to most of the execution's wall time. TAP; runs
# in the VM, in the models boot (tests/run-vm.sh).
b=$(cd "$(dirname "$0")/../.." && pwd)/build
m=$b/models
echo "1..4"

# The index of the largest float32 of a raw file.
argmax() {
	od -An -v -f -w4 "$1" | awk 'NR == 1 || $1 > m { m = $1; i = NR - 1 } END { print i }'
}

out=$("$b/examples/resnet" 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
want=$(argmax "$m/resnet18.output.bin")
got=$(echo "$out" | sed -n 's/^top1: //p')
if [ $rc = 0 ] && [ -n "$want" ] && [ "$got" = "$want" ]; then
	echo "ok 1 - examples/resnet: top-1 class $got, as PyTorch's"
else
	echo "not ok 1 - examples/resnet: exit $rc, top-1 '$got', PyTorch's '$want'"
	exit 1
fi

out=$("$b/examples/dvpp_resnet" --check 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
if [ $rc = 0 ]; then
	echo "ok 2 - examples/dvpp_resnet --check: the AIPP model agrees with host preprocessing"
else
	echo "not ok 2 - examples/dvpp_resnet --check: exit $rc"
	exit 1
fi
c_top=$(echo "$out" | sed -n 's/^  top \([0-9]\): class *\([0-9]*\).*/\1:\2/p' | tr '\n' ' ')
out=$(/usr/bin/python3 "$b/../examples/dvpp_resnet.py" 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
py_top=$(echo "$out" | sed -n 's/^  top \([0-9]\): class *\([0-9]*\).*/\1:\2/p' | tr '\n' ' ')
if [ $rc = 0 ] && [ -n "$c_top" ] && [ "$py_top" = "$c_top" ]; then
	echo "ok 3 - examples/dvpp_resnet.py: the same top-5 as the C example ($py_top)"
else
	echo "not ok 3 - examples/dvpp_resnet.py: exit $rc, top-5 '$py_top', C's '$c_top'"
	exit 1
fi

# Profiled: the model's kernel tasks (from its .om, through the raw task
# records of the run) each appear once per execution in op_summary, and
# their durations sum to between half and all of the execution's wall
# time (tasks of one stream run one after another; the rest is the
# engines' hand-over between tasks).
prof=$(mktemp -d)
out=$("$b/tools/msprof" --output="$prof" --task-time=on --ascendcl=on \
	--model-execution=on "$b/examples/resnet" 2>&1)
rc=$?
echo "$out" | sed 's/^/# /'
res=$(/usr/bin/python3 - "$prof" <<'PY'
import csv, glob, sys
from collections import Counter
d = glob.glob(sys.argv[1] + "/PROF_*")
assert len(d) == 1, "PROF dirs: %r" % d
d = d[0]
rows = list(csv.DictReader(open(glob.glob(d + "/mindstudio_profiler_output/op_summary_*.csv")[0], newline="")))
execs = [l.rstrip("\n").split("\t") for l in open(d + "/host/data/model.tsv") if not l.startswith("#")]
tasks = [l.split("\t") for l in open(glob.glob(d + "/device_*/data/task.tsv")[0])
         if l.startswith("task\t") and l.split("\t")[6] == "7"]
assert execs, "no model execution recorded"
assert len({x[1] for x in execs}) == 1, "one model expected: %r" % execs
infers = sorted({r["Infer ID"] for r in rows})
assert len(infers) == len(execs) and "N/A" not in infers, "infer ids %r for %d executions" % (infers, len(execs))
per = len(tasks) // len(execs)
assert per > 30 and per * len(execs) == len(tasks), "%d kernel records for %d executions" % (len(tasks), len(execs))
for i in infers:
    mine = [r for r in rows if r["Infer ID"] == i]
    names = Counter(r["Op Name"] for r in mine)
    assert len(mine) == per, "infer %s: %d rows, %d kernel tasks per execution" % (i, len(mine), per)
    dup = [n for n, c in names.items() if c != 1]
    assert not dup, "infer %s: ops not exactly once: %r" % (i, dup[:5])
    assert all(r["OP Type"] not in ("", "N/A") and r["Task Type"] == "AI_CORE" for r in mine)
    e = sorted(execs, key=lambda x: int(x[5]))[int(i) - 1]  # Infer IDs count from 1
    wall = (int(e[6]) - int(e[5])) / 1e3
    busy = sum(float(r["Task Duration(us)"]) for r in mine)
    assert 0.5 * wall <= busy <= wall, "infer %s: ops %.1f us of %.1f us wall" % (i, busy, wall)
print("%d executions x %d ops, each once; ops %.1f%% of the execution's wall time"
      % (len(execs), per, 100 * busy / wall))
PY
)
prc=$?
rm -rf "$prof"
if [ $rc = 0 ] && [ $prc = 0 ]; then
	echo "ok 4 - msprof examples/resnet: $res"
else
	echo "not ok 4 - msprof examples/resnet: exit $rc; $res"
	exit 1
fi
