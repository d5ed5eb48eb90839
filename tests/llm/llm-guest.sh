#!/bin/bash
# In the guest (vnpu.ko loaded): the end-to-end decode comparison and the
# benchmark of llm_decode, then test-backend-ops -b CANN0 for each
# operator on its own (ggml aborts the process at the first failing ACL
# call, so one operator's abort must not hide the others).
# usage: llm-guest.sh TEST_BACKEND_OPS LLM_DECODE RESULTS OP...
set -u
tbo=$1 dec=$2 res=$3
shift 3
per_op=${LLM_OP_TIMEOUT:-1800}
engines=$(cat /sys/module/vnpu/parameters/engines 2>/dev/null || echo 2)
echo "$engines" > "$res/engines"
grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //' > "$res/cpu"
if [ -x "$dec" ]; then
	"$dec" check "$res/models" > "$res/decode.log" 2>&1
	echo $? > "$res/decode.rc"
	"$dec" bench "$res/models" "$engines" > "$res/bench.log" 2>&1
	echo $? > "$res/bench.rc"
fi
for op in "$@"; do
	start=$(date +%s)
	timeout -s KILL "$per_op" "$tbo" test -o "$op" -b CANN0 \
		> "$res/ops/$op.log" 2>&1
	echo $? > "$res/ops/$op.rc"
	echo "# $op: rc $(cat "$res/ops/$op.rc"), $(( $(date +%s) - start )) s"
done
exit 0
