#!/bin/bash
# The examples (examples/) run on the device and exit 0; examples/resnet
# on ResNet-18 (build/models, converted by atc) gives PyTorch's top-1
# class. TAP; runs in the VM.
b=$(cd "$(dirname "$0")/../.." && pwd)/build
list="memory streams_events callback matmul mlp graph"
echo "1..$(($(echo $list | wc -w) + 1))"
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

# The index of the largest float32 of a raw file.
argmax() {
	od -An -v -f -w4 "$1" | awk 'NR == 1 || $1 > m { m = $1; i = NR - 1 } END { print i }'
}

n=$((n + 1))
m=$b/models
if [ ! -f "$m/resnet18.om" ] && [ "${VNPU_MODEL_TESTS:-0}" != 1 ]; then
	echo "ok $n - examples/resnet # SKIP no build/models/resnet18.om (VNPU_MODEL_TESTS=0)"
else
	out=$("$b/examples/resnet" 2>&1)
	rc=$?
	echo "$out" | sed 's/^/# /'
	want=$(argmax "$m/resnet18.output.bin")
	got=$(echo "$out" | sed -n 's/^top1: //p')
	if [ $rc = 0 ] && [ -n "$want" ] && [ "$got" = "$want" ]; then
		echo "ok $n - examples/resnet: top-1 class $got, as PyTorch's"
	else
		echo "not ok $n - examples/resnet: exit $rc, top-1 '$got', PyTorch's '$want'"
		status=1
	fi
fi
exit $status
