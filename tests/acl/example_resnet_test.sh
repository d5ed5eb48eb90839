#!/bin/bash
# examples/resnet on ResNet-18 (build/models/resnet18.om, converted by atc
# before the boot) prints PyTorch's top-1 class. TAP; runs in the VM, in
# the models boot (tests/run-vm.sh).
b=$(cd "$(dirname "$0")/../.." && pwd)/build
m=$b/models
echo "1..1"

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
