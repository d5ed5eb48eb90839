#!/bin/bash
# scripts/check-layers.sh: the tree as it is passes, and each kind of
# wrong edge, made in a copy of lib/ and tools/atc, fails and is named.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
check=$top/scripts/check-layers.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
t() { n=$((n + 1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi; }

# A fresh copy of what the script reads.
fresh() {
	rm -rf "$tmp/r"
	mkdir -p "$tmp/r/tools" "$tmp/r/kernel/ops"
	cp -a "$top/lib" "$tmp/r/lib"
	cp -a "$top/tools/atc" "$tmp/r/tools/atc"
	cp -a "$top"/kernel/ops/vnpu_dtype* "$tmp/r/kernel/ops/"
}

# wrong WHAT EXPECTED: the check on the copy fails and prints EXPECTED
wrong() {
	want=$2
	out=$("$check" "$tmp/r" 2>&1)
	rc=$?
	t "$1: the check fails" '[ $rc = 1 ]'
	t "$1: it names '$want'" 'printf "%s\n" "$out" | grep -qF -- "$want"'
}

fresh
out=$("$check" "$tmp/r" 2>&1)
rc=$?
t "the tree as it is passes" '[ $rc = 0 ]'
t "it prints a TAP plan" 'printf "%s\n" "$out" | grep -q "^1\.\.[0-9]"'

fresh
sed -i '0,/#include "rt_objects.h"/s//#include "rt_objects.h"\n#include "..\/mdl\/model.h"/' "$tmp/r/lib/core/stream.c"
wrong "core including a header of mdl" "lib/core/stream.c"
t "core including mdl: the edge is core -> mdl" 'printf "%s\n" "$out" | grep -q "core -> mdl"'

fresh
echo '#include "../api/rt_common.h"' >> "$tmp/r/lib/nn/nn_exec.c"
wrong "nn including api" "nn -> api"

fresh
echo '#include "../mdl/model.h"' >> "$tmp/r/lib/dvpp/codec_why.c"
wrong "dvpp including mdl" "dvpp -> mdl"

fresh
echo '#include "../kmd/kmd.h"' >> "$tmp/r/lib/api/rt_query.c"
wrong "api calling the driver's layer" "api -> kmd"

fresh
echo '#include "../../tools/atc/onnx_import.h"' >> "$tmp/r/lib/op/op_key.c"
wrong "lib including a file of tools" "tools/atc/onnx_import.h"

fresh
echo 'X := $(wildcard tools/atc/*.c)' >> "$tmp/r/lib/lib.mk"
wrong "lib.mk building from tools" "lib/lib.mk:"

fresh
echo '#include "compile/lower.h"' >> "$tmp/r/tools/atc/front.c"
wrong "atc including a compiler internal" "compile/lower.h"

fresh
mkdir -p "$tmp/r/lib/newpart" && echo 'int x;' > "$tmp/r/lib/newpart/a.c"
wrong "a folder without a rule" "lib/newpart has no layer rule"

echo "1..$n"
exit $fail
