#!/bin/bash
# The `acl` Python module's pytest suite (tests/python), as TAP for
# run-suite.sh: one line per test from pytest's summary. Runs in the VM
# with Debian's /usr/bin/python3 and python3-pytest.
top=$(cd "$(dirname "$0")/../.." && pwd)
log=$(mktemp)
# A test stuck for a minute gets every thread's stack printed; a suite
# stuck for five is killed (and fails).
PYTHONPATH=$top/build/python PYTHONDONTWRITEBYTECODE=1 timeout -k 5 300 \
	/usr/bin/python3 -m pytest -p no:cacheprovider -rA -v -o faulthandler_timeout=60 \
	"$top/tests/python" 2>&1 | tee "$log" | sed 's/^/# /'
rc=${PIPESTATUS[0]}
# "PASSED path::test", "FAILED path::test - why", "ERROR path::test - why"
awk '
	/^PASSED / { n++; print "ok " n " - " $2; next }
	/^(FAILED|ERROR) / { n++; print "not ok " n " - " $2; bad = 1; next }
	END { print "1.." n }
' "$log"
rm -f "$log"
exit $rc
