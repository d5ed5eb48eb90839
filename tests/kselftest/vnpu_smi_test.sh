#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# vnpu-smi: the device table, the engines' utilisation, tasks and bytes
# (UAPI 1.8 counters) and the process table (DRM fdinfo), idle and with a
# load (vnpu_load) running; watch mode bounded by -c and ended by SIGINT;
# bad arguments. Runs in the VM with vnpu.ko loaded. TAP output.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
smi=${VNPU_SMI:-$top/build/tools/vnpu-smi}
load=$top/build/tests/kselftest/vnpu_load
n=0 fail=0
tmp=$(mktemp -d)
loadpid=

# shellcheck disable=SC2317 # the EXIT trap calls it
cleanup() {
	[ -n "$loadpid" ] && kill "$loadpid" 2>/dev/null && wait "$loadpid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; fail=1; }
check() { if [ "$2" = 0 ]; then ok "$1"; else not_ok "$1"; fi; }

# Rows of the engine table: "npu engine util tasks".
engine_rows() {
	awk -F'|' '/\| NPU \| Engine/ { e = 1; next } /\| NPU \| PID/ { e = 0 }
		e && $2 ~ /^ *[0-9]+ *$/ && $3 ~ /^ *[0-9]+ *$/ {
			gsub(/ /, "", $2); gsub(/ /, "", $3); gsub(/ /, "", $4); gsub(/ /, "", $5)
			print $2, $3, $4, $5 }' "$1"
}
# Rows of the process table: "npu pid comm util".
process_rows() {
	awk -F'|' '/\| NPU \| PID/ { p = 1; next }
		p && $3 ~ /^ *[0-9]+ *$/ {
			for (i = 2; i <= 6; i++) gsub(/^ +| +$/, "", $i)
			print $2, $3, $4, $6 }' "$1"
}

nodes=0
for f in /dev/accel/accel*; do [ -e "$f" ] && nodes=$((nodes + 1)); done
engines=$(cat /sys/module/vnpu/parameters/engines)
echo "# $nodes devices, $engines engines each"

"$smi" > "$tmp/idle" 2>&1
check "vnpu-smi exits 0" $?
sed 's/^/# /' "$tmp/idle"
rows=$(grep -cE '^\| +[0-9]+ \| accel' "$tmp/idle")
check "one device row per node ($rows of $nodes)" "$([ "$rows" = "$nodes" ]; echo $?)"
uapi_minor=$(sed -n 's/^#define DRM_VNPU_UAPI_MINOR[[:space:]]*\([0-9]*\).*/\1/p' \
	"$(dirname "$0")/../../include/uapi/drm/vnpu_accel.h")
check "UAPI 1.$uapi_minor reported" "$(grep -q "^UAPI 1\.$uapi_minor," "$tmp/idle"; echo $?)"
erows=$(engine_rows "$tmp/idle" | wc -l)
check "one engine row per engine ($erows of $((nodes * engines)))" \
	"$([ "$erows" = $((nodes * engines)) ]; echo $?)"
check "idle: no process listed" "$(grep -q 'No running processes found' "$tmp/idle"; echo $?)"

# A load on device 0, both queues busy with SPIN jobs.
# (60 s: it is killed below; a slow debug kernel must not outlast it.)
"$load" /dev/accel/accel0 60 2 > "$tmp/load.out" 2>&1 &
loadpid=$!
for _ in $(seq 100); do grep -q ready "$tmp/load.out" && break; sleep 0.1; done
check "the load started" "$(grep -q ready "$tmp/load.out"; echo $?)"
sleep 0.5
"$smi" > "$tmp/busy" 2>&1
check "vnpu-smi exits 0 under load" $?
sed 's/^/# /' "$tmp/busy"
check "the load still runs" "$(kill -0 "$loadpid" 2>/dev/null; echo $?)"
sed 's/^/# load: /' "$tmp/load.out"
busy=$(engine_rows "$tmp/busy" | awk '$1 == 0 && $3 > 0' | wc -l)
check "under load: device 0 has an engine with utilisation > 0" "$([ "$busy" -ge 1 ]; echo $?)"
tasks=$(engine_rows "$tmp/busy" | awk '$1 == 0 { s += $4 } END { print s + 0 }')
check "under load: device 0's engines finished tasks ($tasks)" "$([ "$tasks" -ge 1 ]; echo $?)"
row=$(process_rows "$tmp/busy" | awk -v p="$loadpid" '$2 == p')
echo "# load row: $row"
check "the load's pid $loadpid is listed" "$([ -n "$row" ]; echo $?)"
check "... as vnpu_load on device 0" "$(echo "$row" | awk '$1 == 0 && $3 == "vnpu_load" { f = 1 } END { exit !f }'; echo $?)"
check "... with utilisation > 0" "$(echo "$row" | awk '$4 > 0 { f = 1 } END { exit !f }'; echo $?)"

# Watch mode, bounded: exactly -c frames.
"$smi" -l 0.3 -c 3 > "$tmp/watch" 2>&1
check "-l 0.3 -c 3 exits 0" $?
frames=$(grep -c 'virtual NPU devices' "$tmp/watch")
check "-l 0.3 -c 3 draws 3 frames ($frames)" "$([ "$frames" = 3 ]; echo $?)"

# Watch mode until SIGINT.
"$smi" -l 0.2 > "$tmp/sigint" 2>&1 &
spid=$!
# Two frames drawn (a debug kernel draws slowly), then the signal.
for _ in $(seq 300); do
	[ "$(grep -c 'virtual NPU devices' "$tmp/sigint")" -ge 2 ] && break
	sleep 0.1
done
kill -INT $spid
t0=$(date +%s%N)
wait $spid
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
check "-l exits 0 on SIGINT" "$rc"
# A frame being drawn finishes first; without the handler it never ends.
check "-l exits soon after SIGINT (${ms} ms)" "$([ "$ms" -lt 5000 ]; echo $?)"
frames=$(grep -c 'virtual NPU devices' "$tmp/sigint")
check "-l drew frames before SIGINT ($frames)" "$([ "$frames" -ge 2 ]; echo $?)"

gone=$loadpid
kill "$loadpid" 2>/dev/null
wait "$loadpid" 2>/dev/null
loadpid=
sleep 0.5
"$smi" > "$tmp/after" 2>&1
idle=$(engine_rows "$tmp/after" | awk '$3 > 0' | wc -l)
check "after the load: every engine idle ($idle busy)" "$([ "$idle" = 0 ]; echo $?)"
check "after the load: its pid $gone is gone" "$(process_rows "$tmp/after" | awk -v p="$gone" '$2 == p { f = 1 } END { exit f }'; echo $?)"

for bad in "-x" "-c" "-c 0" "-c abc" "-l -x"; do
	# shellcheck disable=SC2086
	"$smi" $bad > /dev/null 2>&1
	check "bad arguments '$bad': exit 2" "$([ $? = 2 ]; echo $?)"
done
"$smi" -h > "$tmp/help" 2>&1
rc=$?
check "-h: exit 0 and usage" "$([ $rc = 0 ] && grep -q usage "$tmp/help"; echo $?)"

# npu-smi info: CANN's table, one two-line row per device, in device
# order, the chip in field 3 of each first line and HBM total in MiB.
npusmi=$top/build/tools/npu-smi
"$npusmi" info > "$tmp/npu" 2>&1
rc=$?
ndev=$(ls /sys/class/accel | grep -c '^accel')
rows=$(awk '$1 == "|" && $2 ~ /^[0-9]+$/ && $3 == "910B3" && $5 == "OK"' "$tmp/npu" | wc -l)
ids=$(awk '$1 == "|" && $3 == "910B3" { printf "%s ", $2 }' "$tmp/npu")
check "npu-smi info: exit 0, $ndev devices, chip 910B3, health OK ($rows rows)" \
	"$([ $rc = 0 ] && [ "$rows" = "$ndev" ]; echo $?)"
check "npu-smi info: rows in device order ($ids)" \
	"$([ "$ids" = "$(seq -s ' ' 0 $((ndev - 1))) " ]; echo $?)"
check "npu-smi info: line 7 field 3 is the chip, as ggml's CMake reads it" \
	"$([ "$(awk -F' ' 'NF > 0 && NR==7 {print $3}' "$tmp/npu")" = 910B3 ]; echo $?)"
hbm=$(awk -F'|' '$3 ~ /vnpu\.0/ { print $4 }' "$tmp/npu" | awk '{ print $(NF) }')
total=$(( $(cat /sys/module/vnpu/parameters/mem_mb 2>/dev/null || echo 0) ))
check "npu-smi info: device 0 HBM total $hbm MiB = mem_mb $total" \
	"$([ -n "$hbm" ] && [ "$hbm" = "$total" ]; echo $?)"

echo "1..$n"
exit $fail
