#!/bin/bash
# Run test programs, saving each one's TAP output as OUTDIR/<name>.tap and
# echoing it live. A program that exits non-zero without reporting a
# failure (a crash, a harness error) gets a "not ok" line of its own; one
# that prints no TAP at all counts as a single test.
#
# usage: run-suite.sh OUTDIR PROGRAM [PROGRAM...]
set -u
out=$1
shift
mkdir -p "$out"
status=0
for prog in "$@"; do
	name=$(basename "$prog" .sh)
	tap=$out/$name.tap
	echo "# ---- $name"
	"$prog" 2>&1 | tee "$tap"
	rc=${PIPESTATUS[0]}
	if [ "$rc" != 0 ]; then
		status=1
		grep -q '^not ok' "$tap" ||
			echo "not ok - $name exited with status $rc" | tee -a "$tap"
	elif ! grep -qE '^(not )?ok' "$tap"; then
		# A plain program that passes by exiting 0 counts as one test.
		echo "ok - $name" | tee -a "$tap"
	fi
done
exit $status
