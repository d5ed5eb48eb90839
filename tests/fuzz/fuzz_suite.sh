#!/bin/bash
# The fuzzer's short fixed-seed run for `make check` (in the VM, as root):
# every phase for about 12 s with seed 1, as the unprivileged user nobody,
# one TAP line per phase. The call log is build/fuzz/check.log, or
# VNPU_FUZZ_LOG (make check-debug runs several seeds, maybe side by side).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/tests/fuzz/vnpu_fuzz
log=${VNPU_FUZZ_LOG:-$top/build/fuzz/check.log}
mkdir -p "$(dirname "$log")"
rm -f "$log"
user=()
[ "$(id -u)" = 0 ] && user=(--user 65534)
exec "$bin" --tap --seed "${VNPU_FUZZ_SEED:-1}" --seconds "${VNPU_FUZZ_SECONDS:-60}" \
	"${user[@]}" --log "$log"
