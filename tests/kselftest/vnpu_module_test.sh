#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Module load and unload: parameter validation, the device count, and a
# clean reload. Runs in the VM with vnpu.ko loaded; it leaves the module
# loaded again with the parameters it found. TAP output.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
ko=${VNPU_KO:-$top/build/kmod/vnpu.ko}
n=0 fail=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; fail=1; }
check() { if [ "$2" = 0 ]; then ok "$1"; else not_ok "$1"; fi; }
nodes() { ls /dev/accel 2>/dev/null | grep -c '^accel'; }

# Parameters now loaded, to restore at the end.
orig=""
for p in num_devices mem_mb engines queue_depth job_timeout_ms job_max_ms \
	 job_slice_ms; do
	orig="$orig $p=$(cat /sys/module/vnpu/parameters/$p)"
done

rmmod vnpu
check "rmmod with no open files" $?
check "no accel node after unload" "$([ "$(nodes)" = 0 ]; echo $?)"

for bad in num_devices=0 num_devices=17 mem_mb=0 mem_mb=65537 engines=0 \
	   engines=65 queue_depth=0 queue_depth=4097 job_timeout_ms=9 \
	   job_timeout_ms=600001 job_max_ms=99 job_max_ms=3600001 \
	   job_slice_ms=0 job_slice_ms=1001; do
	insmod "$ko" "$bad" 2>/dev/null
	rc=$?
	check "insmod $bad is refused" "$([ $rc != 0 ]; echo $?)"
	dmesg | tail -n 3 | grep -q "vnpu: ${bad%%=*}=${bad#*=} is out of range"
	check "dmesg names the bad parameter ${bad%%=*}" $?
	[ -d /sys/module/vnpu ] && rmmod vnpu
done

# simd: a name it does not know is refused and named; each ceiling the
# CPU allows is the unit the load message reports; auto reports one of
# them (which one depends on the CPU: under TCG a timed probe picks sse2).
insmod "$ko" simd=mmx 2>/dev/null
check "insmod simd=mmx is refused" "$([ $? != 0 ]; echo $?)"
dmesg | tail -n 3 | grep -q "vnpu: simd=mmx is not auto, avx512, avx2 or sse2"
check "dmesg names the bad simd value" $?
[ -d /sys/module/vnpu ] && rmmod vnpu
units="auto sse2"
grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo && units="$units avx2"
for unit in $units; do
	insmod "$ko" simd=$unit
	check "insmod simd=$unit" $?
	got=$(dmesg | grep -o 'vector unit [a-z0-9]*' | tail -n 1)
	case $unit in
	auto) want="vector unit (avx512|avx2|sse2)";;
	*) want="vector unit $unit";;
	esac
	echo "$got" | grep -Eqx "$want"
	check "simd=$unit loads with $want ($got)" $?
	# it reads back as the unit in use, auto's choice included
	check "simd=$unit reads back as the ${got#vector unit }" \
		"$([ "vector unit $(cat /sys/module/vnpu/parameters/simd)" = "$got" ]; echo $?)"
	rmmod vnpu
done

insmod "$ko" num_devices=5
check "insmod num_devices=5" $?
check "five accel nodes" "$([ "$(nodes)" = 5 ]; echo $?)"
exec 3<>/dev/accel/accel0
rmmod vnpu 2>/dev/null
check "rmmod refused while a file is open" "$([ $? != 0 ]; echo $?)"
exec 3>&-
rmmod vnpu
check "rmmod after close" $?

# A buffer object held without an open accel file (by a dma-buf fd or a
# CPU mapping) still pins the module; once it goes, unloading works and
# nothing is left behind.
insmod "$ko"
hold=$top/build/tests/kselftest/vnpu_hold
for mode in dmabuf mmap; do
	coproc HOLD { exec "$hold" /dev/accel/accel0 "$mode"; }
	read -r -t 30 line <&"${HOLD[0]}"
	check "holder ($mode) is ready" "$([ "$line" = ready ]; echo $?)"
	used=$(sed -n 's/^used: //p' /sys/kernel/debug/accel/vnpu.0/mem)
	check "held object is still charged ($mode)" "$([ "$used" = 1048576 ]; echo $?)"
	rmmod vnpu 2>/dev/null
	check "rmmod refused while a $mode holds an object" "$([ $? != 0 ]; echo $?)"
	kill -9 "$HOLD_PID"
	wait "$HOLD_PID" 2>/dev/null
	used=$(sed -n 's/^used: //p' /sys/kernel/debug/accel/vnpu.0/mem)
	objects=$(sed -n 's/^objects: //p' /sys/kernel/debug/accel/vnpu.0/mem)
	check "memory returned after the $mode holder died" \
		"$([ "$used" = 0 ] && [ "$objects" = 0 ]; echo $?)"
done
rmmod vnpu
check "rmmod after the holders are gone" $?

# shellcheck disable=SC2086
insmod "$ko" $orig
check "reload with the original parameters" $?
echo "1..$n"
exit $fail
