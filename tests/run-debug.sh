#!/bin/bash
# `make check-debug`: boot the debug kernel (scripts/debug-kernel.sh) with
# vnpu.ko built against it and run, in one boot, every VM suite of
# `make check` (kselftests, ACL suites, Python tests), the allocation
# failure test (vnpu_failslab_test) and the fuzzer with each seed of
# DEBUG_SEEDS for DEBUG_FUZZ_SECONDS. Any KASAN, lockdep, UBSAN, kmemleak
# or debug-objects report fails the boot (tools/vm/dmesg-scan); the TAP of
# each suite lands in OUTDIR. DEBUG_FUZZ_ONLY=1 runs only the fuzzer.
#
# usage: run-debug.sh OUTDIR
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
out=$1
b=$top/build
vm=$top/tools/vm/vnpu-vm
mkdir -p "$out"
cd "$top" || exit 1

kdir=$b/debug-kernel/current
if [ ! -f "$kdir/.built" ]; then
	echo "not ok - debug kernel: $kdir is not built (make debug-kernel)" | tee "$out/boot.tap"
	exit 1
fi
echo "# debug kernel $(cat "$kdir/kernelrelease"), built in $(cat "$kdir/build-seconds") s"

. "$top/tests/vm-suites.sh"
suites="$suites $b/tests/kselftest/vnpu_failslab_test"
fuzz=
for seed in ${DEBUG_SEEDS:-1 2 3}; do
	fuzz="$fuzz VNPU_FUZZ_SEED=$seed VNPU_FUZZ_SECONDS=${DEBUG_FUZZ_SECONDS:-120}"
	fuzz="$fuzz VNPU_FUZZ_LOG=$out/fuzz-seed$seed.log"
	fuzz="$fuzz $top/tests/fuzz/fuzz_suite.sh > $out/fuzz-seed$seed.tap 2>&1 || s=1;"
done
if [ "${DEBUG_FUZZ_ONLY:-0}" = 1 ]; then
	cmd="s=0; $fuzz exit \$s"
else
	# Each kselftest's 30 s limit, six times over (scripts/linux-src.sh).
	cmd="KSELFTEST_TIMEOUT_SCALE=6 VNPU_SUBMIT=uring $top/tests/run-suite.sh $out/suites $(echo $suites); s=\$?; $fuzz exit \$s"
fi

# KASAN and kmemleak slow every allocation and access several times over
# under TCG: hang detection gets the room the models boot of make check
# gives it (tests/run-vm.sh), so slowness is not taken for a hang.
params="job_timeout_ms=30000 job_max_ms=600000"
t0=$(date +%s)
VNPU_VM_KERNEL_DIR=$kdir VNPU_KO=$b/kmod-debug/vnpu.ko \
	"$vm" run --keep --mem 4G --timeout 14400 --params "$params" -- sh -c "$cmd" &
vmpid=$!
trap 'kill $vmpid 2>/dev/null' INT TERM HUP
wait $vmpid
rc=$?
echo "# debug boot: $(( $(date +%s) - t0 )) s of wall clock, runner status $rc"
# The run's own logs (build/vm/ holds whichever run ended last).
run=$b/vm/run-$vmpid
cp -f "$run/dmesg.log" "$out/dmesg.log" 2>/dev/null
cp -f "$run/kmemleak.log" "$out/kmemleak.log" 2>/dev/null
if [ $rc -ge 120 ]; then
	echo "not ok - debug boot: runner status $rc (a KASAN/lockdep/UBSAN/kmemleak report, a failed unload or a crash; see $out/dmesg.log)" |
		tee "$out/boot.tap"
	exit 1
fi
echo "ok - debug boot: clean dmesg, no leaks, clean module unload" | tee "$out/boot.tap"
exit 0
