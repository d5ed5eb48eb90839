#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Module unload with jobs in flight: a process with seconds of queued work
# pins the module while it lives; once it is killed its jobs are released,
# rmmod succeeds, and the module loads again with the parameters it had
# and runs jobs. Runs in the VM with vnpu.ko loaded; it leaves the module
# loaded again with the parameters it found. TAP output.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
ko=${VNPU_KO:-$top/build/kmod/vnpu.ko}
helper=${VNPU_SCHED_TEST:-$top/build/tests/kselftest/vnpu_sched_lifetime_test}
params="num_devices mem_mb engines queue_depth job_timeout_ms job_max_ms job_slice_ms"
n=0 fail=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; fail=1; }
check() { if [ "$2" = 0 ]; then ok "$1"; else not_ok "$1"; fi; }
nodes() {
	local c=0 f
	for f in /dev/accel/accel*; do [ -e "$f" ] && c=$((c + 1)); done
	echo $c
}
dbg() { echo /sys/kernel/debug/accel/vnpu.0; }
stat_of() { sed -n "s/^$1: //p" "$(dbg)/stats"; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# Parameters now loaded, to restore at the end.
orig=""
for p in $params; do
	orig="$orig $p=$(cat "/sys/module/vnpu/parameters/$p")"
done

# A full queue (queue_depth jobs; the holder blocks submitting more) with
# about five seconds of work in it, no spin long enough to look hung.
# A slow kernel (the debug one: KSELFTEST_TIMEOUT_SCALE) gets that many
# times the work, since its rmmod alone takes seconds.
scale=${KSELFTEST_TIMEOUT_SCALE:-1}
depth=$(cat /sys/module/vnpu/parameters/queue_depth)
timeout_ms=$(cat /sys/module/vnpu/parameters/job_timeout_ms)
count=200
queued=$((depth < count ? depth : count))
spin_ms=$((5000 * scale / queued))
[ "$spin_ms" -gt $((timeout_ms / 2)) ] && spin_ms=$((timeout_ms / 2))
[ "$spin_ms" -lt 1 ] && spin_ms=1
work_ms=$((queued * spin_ms))
coproc HOLD { exec "$helper" --hold /dev/accel/accel0 "$count" "$spin_ms"; }
line=""
read -r -t 30 line <&"${HOLD[0]}"
check "holder queued its jobs" "$([ "$line" = ready ]; echo $?)"
alive=$(stat_of jobs_alive)
check "jobs are alive while the holder lives ($alive)" \
	"$([ "${alive:-0}" -gt 0 ]; echo $?)"
# Jobs follow each other with a short gap in between: look a few times.
running=1
for _ in $(seq 40); do
	grep -q ' queue [0-9]* job [0-9]*$' "$(dbg)/engines" && { running=0; break; }
	sleep 0.025
done
check "an engine is running the holder's job" "$running"
check "rmmod refused while the holder has the device open" \
	"$(if rmmod vnpu 2>/dev/null; then echo 1; else echo 0; fi)"

kill -9 "$HOLD_PID"
wait "$HOLD_PID" 2>/dev/null
t0=$(now_ms)
rmmod vnpu
rc=$?
t1=$(now_ms)
check "rmmod after the holder was killed" $rc
check "rmmod did not wait for the queued work ($((t1 - t0)) of $work_ms ms)" \
	"$([ $((t1 - t0)) -lt $((work_ms / 2)) ]; echo $?)"
check "no accel node after unload" "$([ "$(nodes)" = 0 ]; echo $?)"
check "module gone" "$([ ! -d /sys/module/vnpu ]; echo $?)"

# shellcheck disable=SC2086
insmod "$ko" $orig
check "reload with the original parameters" $?
same=0
for kv in $orig; do
	p=${kv%%=*}
	[ "$(cat "/sys/module/vnpu/parameters/$p" 2>/dev/null)" = "${kv#*=}" ] || same=1
done
check "parameters restored:$orig" $same
want=${orig#* num_devices=}
want=${want%% *}
check "$want accel nodes after reload" "$([ "$(nodes)" = "$want" ]; echo $?)"
check "fresh counters after reload" \
	"$([ "$(stat_of jobs_submitted)" = 0 ] && [ "$(stat_of jobs_alive)" = 0 ]; echo $?)"
"$helper" --smoke /dev/accel/accel0
check "a job runs after the reload" $?
check "the job was counted" "$([ "$(stat_of jobs_submitted)" = 1 ]; echo $?)"
echo "1..$n"
exit $fail
