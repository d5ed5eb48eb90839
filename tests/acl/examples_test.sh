#!/bin/bash
# The examples (examples/) run on the device and exit 0. TAP; runs in the
# VM. examples/resnet has its own script (example_resnet_test.sh), run in
# the models boot.
b=$(cd "$(dirname "$0")/../.." && pwd)/build
list="memory streams_events callback matmul mlp graph dvpp_video"
echo "1..$(echo $list | wc -w)"
n=0
status=0
for e in $list; do
	n=$((n + 1))
	out=$("$b/examples/$e" 2>&1)
	rc=$?
	echo "$out" | sed 's/^/# /'
	if [ $rc = 0 ]; then
		echo "ok $n - examples/$e"
	else
		echo "not ok $n - examples/$e (exit $rc)"
		status=1
	fi
done

exit $status
