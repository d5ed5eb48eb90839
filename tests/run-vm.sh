#!/bin/bash
# VM tests: boot the guest a few times (each boot is expensive under TCG)
# and collect TAP under OUTDIR.
#   boot 1  default module parameters: every VM suite with libacl's jobs
#           forced through io_uring, a minute of fuzzing (fixed seed), then
#           the ACL suites again forced through ioctls
#   boot 1b (VNPU_MODEL_TESTS=1) the model tests (ResNet-50 at batch 1
#           among them) and examples/resnet on the DEFAULT module
#           parameters; and the ONNX conformance tests of tests/conformance/passing.txt
#   boot 2  num_devices=3 and other non-default shapes (a deep queue, a short
#           timeout, a short hard job limit): every VM suite again (io_uring)
#   boot 3  the ThreadSanitizer build of the threaded ACL suites (callback,
#           graph, stream); any TSan report fails (`make tsan` runs all)
#   boot 4  the runner itself: the guest's exit status comes back
#   boot 5  the runner itself: a WARNING in dmesg fails the run
#   boots 6-9  the runner's --mttcg: a clean boot runs the command once; a
#           splat before the command is retried and never runs it
# usage: run-vm.sh OUTDIR
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
out=$1
vm=$top/tools/vm/vnpu-vm
b=$top/build
mkdir -p "$out"
cd "$top" || exit 1

# The model tests (ResNet-18, MobileNetV2, a transformer layer against
# PyTorch, ResNet-50 with fp16 input, and examples/resnet;
# tests/models/models.mk converts them before the boot) run when
# VNPU_MODEL_TESTS=1, which `make check` passes down. An inference is one
# job of seconds (ResNet-18) to tens of seconds (ResNet-50) of emulated
# compute. They run on the module's default parameters, as a user's
# `insmod vnpu.ko` would (issue 35, section 4): operator pieces report
# progress inside themselves (Documentation/queues.md, "Hang detection"),
# so no raised timeout is needed. `make check-bigmodel` runs ResNet-50 at
# batch 1 and 8 with the host kept busy (a busy loop per host CPU,
# tests/host-load.sh) to show they survive load; here the host is left
# alone, so that `make check` stays well inside CI's time.
model_suites=
[ "${VNPU_MODEL_TESTS:-0}" = 1 ] &&
	model_suites="$b/tests/acl/acl_resnet50_test $b/tests/acl/acl_models_test $top/tests/acl/example_resnet_test.sh"
model_params=
model_load=
# The ONNX conformance gate runs in the same boot (default parameters
# too): the tests of tests/conformance/passing.txt that `make check`
# prepared on the host (build/conformance-check), each through
# aclmdlExecute in tests/conformance/conf_run; after the boot the host
# judges them (tools/conformance/compare.py): TAP in models/conformance.tap,
# a listed test that does not pass is "not ok".
# (conf_guest.sh: the tests travel into the guest as one tar, not as
# thousands of files over 9p).
conf_b=$b/conformance-check
conf_run=
[ -s "$conf_b/bundle.tar" ] &&
	conf_run="VNPU_SUBMIT=uring $top/tests/conformance/conf_guest.sh run $conf_b > $out/conformance-run.log 2>&1 || s=1;"

. "$top/tests/vm-suites.sh"
# The default boot also fuzzes the driver for a minute (fixed seed).
fuzz_suite=$top/tests/fuzz/fuzz_suite.sh
# The suites that use libacl, for the second submission path.
acl_suites=$(for s in $suites; do case $s in */acl/*) echo "$s";; esac; done)
status=0

# The TSan suites of `make check` (tests/tsan/run-tsan.sh; `make tsan`
# runs every ACL suite that way) and the module parameters of their boot.
tsan_suites="$b/tsan/tests/acl_callback_test $b/tsan/tests/acl_graph_test
	$b/tsan/tests/acl_stream_test"
. "$top/tests/tsan/tsan-params.sh"

# Run one boot whose TAP files land in OUTDIR/<tag>; the boot itself is a
# test too (it fails on a bad dmesg or a failed module unload).
boot() {
	local tag=$1 params=$2 ioctl_pass=$3 extra=${4:-}
	local cmd="VNPU_SUBMIT=uring $top/tests/run-suite.sh $out/$tag $(echo $suites) $extra"

	if [ "$ioctl_pass" = yes ]; then
		cmd="$cmd; s=\$?; echo '# ==== ACL suites again, jobs through ioctls';"
		cmd="$cmd VNPU_SUBMIT=ioctl $top/tests/run-suite.sh $out/$tag-ioctl $(echo $acl_suites) || s=1; exit \$s"
	fi
	boot_cmd "$tag" "$params" sh -c "$cmd"
}

# boot_cmd TAG PARAMS CMD...: one boot running CMD, judged as above.
boot_cmd() {
	local tag=$1 params=$2
	shift 2

	echo "# ==== VM boot: $tag (params: ${params:-default})"
	${boot_wrap:-} "$vm" run ${boot_timeout:+--timeout $boot_timeout} --params "$params" -- "$@"
	local rc=$?
	mkdir -p "$out/$tag"
	cp -f "$b/vm/dmesg.log" "$out/$tag/dmesg.log" 2>/dev/null
	if [ $rc -ge 120 ]; then
		echo "not ok - VM boot $tag: runner status $rc (dmesg, unload or boot failure)" |
			tee "$out/$tag/boot.tap"
		status=1
	else
		echo "ok - VM boot $tag: clean dmesg and module unload" | tee "$out/$tag/boot.tap"
	fi
}

# job_max_ms as before issue 35 (60 s) in this boot only: the fuzzer's
# batches may loop (JUMP) around heavy operators, and with the default's
# hour such a job would hold the boot; the defaults themselves are
# exercised by the models boot below.
# The suites twice (io_uring, then ioctls) and the fuzzer now take longer
# than the runner's default 900 s: give this boot and the shape boot 40 min.
boot_timeout=2400 boot default "job_max_ms=60000" yes "$fuzz_suite"
if [ -n "$model_suites$conf_run" ]; then
	boot_wrap=$model_load boot_timeout=3600 boot_cmd models "$model_params" sh -c \
		"VNPU_SUBMIT=uring VNPU_RESNET50_B8=${VNPU_RESNET50_B8:-0} $top/tests/run-suite.sh $out/models $(echo $model_suites); s=\$?; $conf_run exit \$s"
	if [ -n "$conf_run" ]; then
		mkdir -p "$out/models"
		"$top/tests/conformance/conf_guest.sh" unpack "$conf_b"
		/usr/bin/python3 "$top/tools/conformance/compare.py" --out "$conf_b" --mode guest \
			--report "$conf_b/report.json" --list "$top/tests/conformance/passing.txt" \
			--tap "$out/models/conformance.tap" ||
			echo "not ok - conformance: the compare step failed" >> "$out/models/conformance.tap"
	fi
fi
if [ -z "$conf_run" ] && [ -s "$top/tests/conformance/passing.txt" ]; then
	mkdir -p "$out/models"
	echo "not ok - conformance: nothing prepared in $conf_b (make check prepares the passing list)" \
		> "$out/models/conformance.tap"
fi
boot_timeout=2400 boot shape "num_devices=3 engines=4 mem_mb=256 queue_depth=512 job_timeout_ms=2000 job_max_ms=10000" no
boot_cmd tsan "$TSAN_VM_PARAMS" "$top/tests/tsan/run-tsan.sh" "$out/tsan" $tsan_suites

# The runner's own contract.
self=$out/vm-runner
mkdir -p "$self"
tap=$self/vm-runner.tap
: > "$tap"
n=0
check() {
	n=$((n + 1))
	if [ "$2" = 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; status=1; fi | tee -a "$tap"
}

rm -f "$b/vm/ls-accel.txt"
"$vm" run -- sh -c "ls /dev/accel > $b/vm/ls-accel.txt; exit 3"
rc=$?
check "guest exit status 3 is the runner's exit status" "$([ $rc = 3 ]; echo $?)"
check "ls /dev/accel lists accel0 accel1" \
	"$([ "$(tr '\n' ' ' < "$b/vm/ls-accel.txt" 2>/dev/null)" = "accel0 accel1 " ]; echo $?)"

"$vm" run -- sh -c 'echo "WARNING: CPU: 0 PID: 1 at vnpu/selftest.c:1 injected" > /dev/kmsg'
rc=$?
check "a WARNING in dmesg fails the run (status $rc)" "$([ $rc = 120 ]; echo $?)"
# --mttcg: a clean boot runs the command once; a boot whose kernel log
# has a splat before the command never runs it, and is tried 3 times.
rm -f "$b/vm/mttcg-runs.txt"
"$vm" run --mttcg -- sh -c "echo run >> $b/vm/mttcg-runs.txt"
rc=$?
check "--mttcg: a clean boot runs the command once (status $rc)" \
	"$([ $rc = 0 ] && [ "$(cat "$b/vm/mttcg-runs.txt" 2>/dev/null)" = run ]; echo $?)"
rm -f "$b/vm/mttcg-runs.txt"
"$vm" run --mttcg --append vnpuvm_fake_boot_splat -- \
	sh -c "echo run >> $b/vm/mttcg-runs.txt" 2> "$b/vm/mttcg-splat.err"
rc=$?
check "--mttcg: a splat before the command fails the run (status $rc)" "$([ $rc = 120 ]; echo $?)"
check "--mttcg: ... and the command never ran" "$([ ! -e "$b/vm/mttcg-runs.txt" ]; echo $?)"
check "--mttcg: ... after 3 boots" \
	"$([ "$(grep -c 'failed before the command' "$b/vm/mttcg-splat.err")" = 2 ]; echo $?)"
echo "1..$n" >> "$tap"
exit $status
