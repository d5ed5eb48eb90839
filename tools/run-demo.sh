#!/bin/bash
# The `make run` demo, run inside the guest: the driver's banner, the
# devices as vnpu-smi shows them, an ACL program finding them, and the
# examples (memory, streams and events, callbacks, aclnn matmul, an MLP,
# video decode on two VDEC channels with VPC resizes,
# a captured graph replayed and ResNet-18 through aclmdl).
set -eu
b=$(cd "$(dirname "$0")/.." && pwd)/build
echo "== dmesg"
dmesg | grep -E '\] (vnpu: [0-9]|\[drm\] Initialized vnpu)' | sed 's/^/  /'
echo "== vnpu-smi"
"$b/tools/vnpu-smi"
echo "== samples/device_query (ACL)"
"$b/samples/device_query"
# The examples (examples/), each after a one-line header.
for e in memory streams_events callback matmul mlp graph dvpp_video; do
	echo "== examples/$e"
	"$b/examples/$e"
done
# ResNet-18 from PyTorch, converted by atc (`make run` makes
# build/models/resnet18.om first when VNPU_MODEL_TESTS=1).
if [ -f "$b/models/resnet18.om" ]; then
	echo "== examples/resnet (ResNet-18 from PyTorch, converted by atc)"
	"$b/examples/resnet"
	echo "== msprof examples/resnet (ResNet-18 profiled: the top-5 operators from op_summary)"
	prof=$b/prof-demo
	rm -rf "$prof"
	"$b/tools/msprof" --output="$prof" --task-time=on --ascendcl=on \
		"$b/examples/resnet" > "$prof.log" 2>&1 || { cat "$prof.log"; exit 1; }
	grep '^msprof: ' "$prof.log" | sed 's/^/  /'
	sum=$(ls "$prof"/PROF_*/mindstudio_profiler_output/op_summary_*.csv | head -1)
	/usr/bin/python3 - "$sum" <<'PY'
import csv, sys
from collections import defaultdict
tot, cnt = defaultdict(float), defaultdict(int)
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
for r in rows:
    tot[r["OP Type"]] += float(r["Task Duration(us)"])
    cnt[r["OP Type"]] += 1
all_ = sum(tot.values()) or 1.0
execs = {r["Infer ID"] for r in rows if r["Infer ID"] != "N/A"}
print("  %d operator tasks, %d model executions; top 5 by total time:" % (len(rows), len(execs)))
for i, (k, v) in enumerate(sorted(tot.items(), key=lambda kv: -kv[1])[:5]):
    print("  %d. %-16s %5d tasks %12.3f us %5.1f %%" % (i + 1, k, cnt[k], v, 100 * v / all_))
PY
	echo "== examples/resnet.py (the same through Python: Runtime.load_model(...).infer(...))"
	/usr/bin/python3 "$b/../examples/resnet.py"
	if [ -f "$b/models/resnet18_aipp.om" ]; then
		echo "== examples/dvpp_resnet (a JPEG: JPEGD, VPC crop-resize, ResNet-18 with AIPP)"
		"$b/examples/dvpp_resnet"
		echo "== examples/dvpp_resnet.py (the same through pyACL's acl.media and acl.mdl)"
		/usr/bin/python3 "$b/../examples/dvpp_resnet.py"
	fi
else
	echo "== examples/resnet: no build/models/resnet18.om ('make models-om' converts it)"
fi
# The graph benchmark's figures, when `make bench` has been run.
res=$b/bench/graph_bench.json
if [ -f "$res" ]; then
	echo "== graph replay vs eager submission (from make bench, build/bench/graph_bench.json)"
	sed -n 's/.*"name": *"\(graph_replay_speedup_vs_eager_ioctl_n[0-9]*_s1\|eager_uring_speedup_vs_ioctl_n100_s[14]\|fan4_[a-z_]*n10\)", *"value": *\([0-9.]*\).*/  \1: \2x/p' "$res"
else
	echo "== run 'make bench' to see graph replay vs eager submission figures here"
fi
