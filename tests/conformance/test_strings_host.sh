#!/bin/bash
# Host test of string tensors through atc and the host runner (TAP):
# a model that chains them (float -> Cast to STRING in the arena ->
# StringNormalizer, and the same strings -> Cast to FLOAT -> a device
# Neg) compiles and computes numpy's texts and values; a Reshape of a
# string input to an output is copied whole; a string input
# whose head points outside its buffer fails that test (the host op
# refuses it) without a crash; atc refuses a device operator on strings
# and a StringNormalizer locale with other case rules, by name.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
b=$top/build
py=/usr/bin/python3
dir=$b/strings-selftest
n=0
failed=0
check() {
	n=$((n + 1))
	if [ "$2" = 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; failed=1; fi
}

rm -rf "$dir"
mkdir -p "$dir/chain" "$dir/badhead" "$dir/refused" "$dir/ident"
"$py" - "$dir" "$top/tools/conformance" <<'PY'
import os, sys
import numpy as np
import onnx
from onnx import helper, TensorProto as T
d, tools = sys.argv[1], sys.argv[2]
sys.path.insert(0, tools)
import conf_common as cc
vi = helper.make_tensor_value_info
def save(nodes, ins, outs, path):
    g = helper.make_graph(nodes, "g", ins, outs)
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), path)
save([helper.make_node("Cast", ["x"], ["s"], to=T.STRING),
      helper.make_node("StringNormalizer", ["s"], ["y"], stopwords=["1.0"],
                       case_change_action="UPPER"),
      helper.make_node("Cast", ["s"], ["f"], to=T.FLOAT),
      helper.make_node("Neg", ["f"], ["z"])],
     [vi("x", T.FLOAT, [4])], [vi("y", T.STRING, None), vi("z", T.FLOAT, [4])],
     os.path.join(d, "chain", "model.onnx"))
np.array([1.0, np.nan, -2.5, 1e-5], np.float32).tofile(os.path.join(d, "chain", "in_0.bin"))
with open(os.path.join(d, "chain", "manifest.txt"), "w") as f:
    f.write("in x 0 1 4 in_0.bin\nout 0 y 13 1 4\nout 1 z 0 1 4\n")
save([helper.make_node("StringNormalizer", ["x"], ["y"], case_change_action="LOWER")],
     [vi("x", T.STRING, [3])], [vi("y", T.STRING, None)],
     os.path.join(d, "badhead", "model.onnx"))
buf = bytearray(cc.pack_strings(np.array(["A", "B", "C"], dtype=object)))
buf[16:24] = (3 * 256).to_bytes(8, "little")   # string 1 starts at the buffer's end
buf[24:32] = (1).to_bytes(8, "little")
open(os.path.join(d, "badhead", "in_0.bin"), "wb").write(bytes(buf))
with open(os.path.join(d, "badhead", "manifest.txt"), "w") as f:
    f.write("in x 13 1 3 in_0.bin\nout 0 y 13 1 3\n")
save([helper.make_node("Reshape", ["x", "shape"], ["y"])],
     [vi("x", T.STRING, [2, 2])], [vi("y", T.STRING, [4])],
     os.path.join(d, "ident", "model.onnx"))
m = onnx.load(os.path.join(d, "ident", "model.onnx"))
m.graph.initializer.append(helper.make_tensor("shape", T.INT64, [1], [4]))
onnx.save(m, os.path.join(d, "ident", "model.onnx"))
open(os.path.join(d, "ident", "in_0.bin"), "wb").write(
    cc.pack_strings(np.array([["ab", ""], ["c", "déf"]], dtype=object)))
with open(os.path.join(d, "ident", "manifest.txt"), "w") as f:
    f.write("in x 13 2 2 2 in_0.bin\nout 0 y 13 1 4\n")
save([helper.make_node("Concat", ["a", "c"], ["y"], axis=0)],
     [vi("a", T.STRING, [2]), vi("c", T.STRING, [2])], [vi("y", T.STRING, [4])],
     os.path.join(d, "refused", "concat.onnx"))
save([helper.make_node("StringNormalizer", ["x"], ["y"], locale="tr_TR")],
     [vi("x", T.STRING, [2])], [vi("y", T.STRING, None)],
     os.path.join(d, "refused", "locale.onnx"))
PY
check "the models were written" $?
atc() {
	"$b/tools/atc" --model="$1" --framework=5 --output="$2" --soc_version=Ascend910B 2>&1
}
atc "$dir/chain/model.onnx" "$dir/chain/model" > /dev/null
check "the chained model compiles" $?
atc "$dir/badhead/model.onnx" "$dir/badhead/model" > /dev/null
check "the StringNormalizer model compiles" $?
atc "$dir/ident/model.onnx" "$dir/ident/model" > /dev/null
check "a Reshape of a string input to an output compiles (a view, then a copy)" $?
printf '%s\n' "$dir/chain" "$dir/badhead" "$dir/ident" > "$dir/tests.txt"
out=$("$b/tests/conformance/conf_host" "$dir/tests.txt" 2>&1)
grep -q "ran 3 compiled tests (0 did not finish)" <<< "$out"
check "conf_host ran the three without a crash: $out" $?
"$py" - "$dir/chain/host" "$top/tools/conformance" <<'PY'
import sys
import numpy as np
d, tools = sys.argv[1], sys.argv[2]
sys.path.insert(0, tools)
import conf_common as cc
res = cc.read_result(d + "/result.txt")
assert res["status"] == "ok", res
assert res["outputs"][0][1:] == (13, [3]), res
y = cc.unpack_strings(open(d + "/out_0.bin", "rb").read(), [3])
assert list(y) == ["NAN", "-2.5", "1E-05"], y
z = np.fromfile(d + "/out_1.bin", np.float32)
want = np.array([-1.0, np.nan, 2.5, -1e-5], np.float32)
assert np.array_equal(z, want, equal_nan=True), z
PY
check "the chain gives ['NAN', '-2.5', '1E-05'] and -x through strings" $?
"$py" - "$dir/ident/host" "$top/tools/conformance" <<'PY'
import sys
d, tools = sys.argv[1], sys.argv[2]
sys.path.insert(0, tools)
import conf_common as cc
y = cc.unpack_strings(open(d + "/out_0.bin", "rb").read(), [4])
assert list(y) == ["ab", "", "c", "déf"], y
PY
check "the reshaped strings arrive whole (the copy moves heads and text)" $?
grep -q "^status error node 0 refused its task" "$dir/badhead/host/result.txt"
check "a head outside the input buffer fails the test: $(cat "$dir/badhead/host/result.txt")" $?
msg=$(atc "$dir/refused/concat.onnx" "$dir/refused/concat")
[ $? != 0 ] && grep -q "'a' is a string tensor: a device operator cannot take string tensors" <<< "$msg"
check "atc refuses a device operator on strings, naming the tensor ($msg)" $?
msg=$(atc "$dir/refused/locale.onnx" "$dir/refused/locale")
[ $? = 4 ] && grep -q "StringNormalizer locale=tr_TR" <<< "$msg"
check "atc refuses StringNormalizer's tr_TR locale as unsupported ($msg)" $?
echo "1..$n"
rm -rf "$dir"
exit $failed
