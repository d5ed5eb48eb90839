#!/bin/bash
# Run the ThreadSanitizer build of the ACL suites (build/tsan/tests/) in the
# guest, saving TAP under OUTDIR. TSan maps its shadow memory at fixed
# addresses, so each suite runs with ASLR off (setarch -R). Any report
# ends the reporting process with status 66, which fails its test; a
# report that a suite still survives is caught by the scan of its output.
#
# usage: run-tsan.sh OUTDIR [SUITE...]   (default: every TSan suite)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
shift
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=("$top"/build/tsan/tests/*_test)
mkdir -p "$out"

export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 history_size=4"
status=0
for s in "${suites[@]}"; do
	name=$(basename "$s")
	setarch "$(uname -m)" -R "$top/tests/run-suite.sh" "$out" "$s" || status=1
	if grep -q 'ThreadSanitizer' "$out/$name.tap"; then
		echo "not ok - $name: ThreadSanitizer reported a problem" |
			tee -a "$out/$name.tap"
		status=1
	fi
done
exit $status
