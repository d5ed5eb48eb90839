#!/bin/bash
# examples/resnet on ResNet-18 (build/models/resnet18.om, converted by atc
# before the boot) prints PyTorch's top-1 class; examples/dvpp_resnet
# --check (JPEGD -> VPC -> ResNet-18 with AIPP) agrees with the plain model
# fed the picture normalised on the host; examples/dvpp_resnet.py prints
# the same top-5 as the C example. TAP; runs in the VM, in the models boot
# (tests/run-vm.sh).
b=$(cd "$(dirname "$0")/../.." && pwd)/build
m=$b/models
echo "1..3"

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
