#!/bin/bash
# The `make run` demo, run inside the guest: the driver's banner, the
# devices as vnpu-smi shows them, an ACL program finding them, and the
# examples (memory, streams and events, callbacks, aclnn matmul, an MLP
# and a captured graph replayed).
set -eu
b=$(cd "$(dirname "$0")/.." && pwd)/build
echo "== dmesg"
dmesg | grep -E '\] (vnpu: [0-9]|\[drm\] Initialized vnpu)' | sed 's/^/  /'
echo "== vnpu-smi"
"$b/tools/vnpu-smi"
echo "== samples/device_query (ACL)"
"$b/samples/device_query"
# The examples (examples/), each after a one-line header.
for e in memory streams_events callback matmul mlp graph; do
	echo "== examples/$e"
	"$b/examples/$e"
done
