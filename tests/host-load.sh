#!/bin/bash
# Keep the host busy while a command runs: one busy loop per host CPU
# (a `stress --cpu N` without the package), started before CMD and killed
# with it, whatever way it ends. The loops run at normal priority, so the
# QEMU guest competes with them as with any other load.
# usage: host-load.sh CMD...   (the exit status is CMD's)
# HOST_LOAD_CPUS=N overrides the number of loops (default: nproc).
set -u
n=${HOST_LOAD_CPUS:-$(nproc)}
pids=()
stop() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
	done
	for p in "${pids[@]}"; do
		wait "$p" 2>/dev/null
	done
	pids=()
}
trap 'stop; exit 130' INT TERM HUP
for ((i = 0; i < n; i++)); do
	# $! is the looping process itself: killing it ends the loop.
	bash -c 'while :; do :; done' &
	pids+=("$!")
done
echo "# host load: $n busy loop(s): ${pids[*]}"
"$@"
rc=$?
stop
echo "# host load stopped"
exit $rc
