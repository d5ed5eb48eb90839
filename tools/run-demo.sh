#!/bin/bash
# The `make run` demo, run inside the guest: the driver's banner, the
# devices as vnpu-smi shows them, and an ACL program finding them.
set -eu
b=$(cd "$(dirname "$0")/.." && pwd)/build
echo "== dmesg"
dmesg | grep -E '\] (vnpu: [0-9]|\[drm\] Initialized vnpu)' | sed 's/^/  /'
echo "== vnpu-smi"
"$b/tools/vnpu-smi"
echo "== samples/device_query (ACL)"
"$b/samples/device_query"
