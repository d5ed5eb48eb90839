#!/bin/bash
# Host test of the conformance runner's host mode (TAP): prepare two real
# tests (atc compiles them), add a copy whose model.om is corrupted so the
# host executor faults and one whose input file is missing, run conf_host
# over the four and judge them: the good ones pass, the fault is that
# test's "crash" and the run goes on past it, the missing input is a
# "fail" naming the file. Also: a test atc refuses is "unsupported" with
# atc's message, and a deliberately wrong expected output fails.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
b=$top/build
py=/usr/bin/python3
dir=$b/conformance-selftest
n=0
failed=0
check() {
	n=$((n + 1))
	if [ "$2" = 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; failed=1; fi
}

rm -rf "$dir"
"$py" "$top/tools/conformance/prepare.py" --atc "$b/tools/atc" --out "$dir" \
	--filter '^node/test_(relu|abs|bernoulli|identity_sequence|reshape_reduced_dims)$' > "$dir.log" 2>&1
check "prepare.py ran" $?
for t in relu abs; do
	[ -f "$dir/node/test_$t/model.om" ]
	check "test_$t compiled" $?
done
# a copy whose section table points past the end of the file
cp -r "$dir/node/test_relu" "$dir/node/test_zz_crash"
"$py" - "$dir/node/test_zz_crash/model.om" <<'PY'
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
count = struct.unpack_from("<I", b, 12)[0]
for i in range(count):
    struct.pack_into("<Q", b, 64 + 32 * i + 8, 1 << 40)
open(p, "wb").write(b)
PY
# a copy without its input file
cp -r "$dir/node/test_relu" "$dir/node/test_zz_noinput"
rm -f "$dir/node/test_zz_noinput"/in_*.bin
# a copy with a wrong expected value
cp -r "$dir/node/test_relu" "$dir/node/test_zz_wrong"
"$py" -c "
import numpy as np, sys
p = sys.argv[1]; a = np.load(p); a.reshape(-1)[0] += 1; np.save(p, a)" \
	"$dir/node/test_zz_wrong/exp_0.npy"
for t in zz_crash zz_noinput zz_wrong; do
	sed -i "s/\"name\": \"test_relu\"/\"name\": \"test_$t\"/; s|/test_relu\"|/test_$t\"|" \
		"$dir/node/test_$t/status.json"
done
printf '%s\n' "$dir/node/test_abs" "$dir/node/test_bernoulli" "$dir/node/test_relu" \
	"$dir/node/test_identity_sequence" "$dir/node/test_reshape_reduced_dims" \
	"$dir/node/test_zz_crash" "$dir/node/test_zz_noinput" "$dir/node/test_zz_wrong" \
	> "$dir/tests.txt"
out=$("$b/tests/conformance/conf_host" "$dir/tests.txt" 2>&1)
check "conf_host finished the run: $out" $?
grep -q "ran 6 compiled tests (1 did not finish)" <<< "$out"
check "conf_host ran the 6 compiled tests, one of which did not finish" $?
"$py" "$top/tools/conformance/compare.py" --out "$dir" --mode host \
	--report "$dir/report.json" > /dev/null
check "compare.py wrote the report" $?
verdict() {
	"$py" -c "
import json, sys
r = json.load(open(sys.argv[1]))
t = [t for t in r['tests'] if t['name'] == sys.argv[2]][0]
print(t['status'], t.get('msg', ''))" "$dir/report.json" "$1"
}
v=$(verdict test_relu); [[ $v == pass* ]]; check "test_relu passes ($v)" $?
v=$(verdict test_abs); [[ $v == pass* ]]; check "test_abs passes ($v)" $?
v=$(verdict test_zz_crash); [[ $v == "crash signal"* ]]; check "the corrupted model is a crash ($v)" $?
v=$(verdict test_zz_noinput); [[ $v == "fail cannot read in_0.bin"* ]]; check "a missing input (after the crash: the run went on) fails, named ($v)" $?
v=$(verdict test_zz_wrong); [[ $v == "fail output 0"* ]]; check "a wrong expected value fails ($v)" $?
v=$(verdict test_bernoulli); [[ $v == "unsupported atc: unsupported operators: Bernoulli"* ]]
check "a test atc refuses is unsupported with atc's message ($v)" $?
v=$(verdict test_identity_sequence); [[ $v == "unsupported unsupported: sequence input" ]]
check "a sequence input is unsupported, said so ($v)" $?
v=$(verdict test_reshape_reduced_dims); [[ $v == pass* ]]
check "Reshape with its shape as a graph input passes ($v)" $?
grep -q '^frozen shape 9 1 2 in_1.bin$' "$dir/node/test_reshape_reduced_dims/manifest.txt" &&
	grep -q '"frozen": \[' "$dir/node/test_reshape_reduced_dims/status.json"
check "... its shape frozen from the test data (atc asked for it), not fed" $?
echo "1..$n"
rm -rf "$dir" "$dir.log"
exit $failed
