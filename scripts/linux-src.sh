#!/bin/bash
# Extract the few files vnpu uses from Debian's linux-source-6.12 tarball:
# the kselftest harness for the tests and checkpatch.pl for kernel style.
# Only these members are unpacked, once, into OUTDIR.
#
# usage: linux-src.sh OUTDIR
set -euo pipefail
out=$1
tarball=$(ls /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n 1 || true)
if [ -z "$tarball" ]; then
	echo "linux-src: /usr/src/linux-source-6.12.tar.* not found; run 'make deps'" >&2
	exit 1
fi
members="tools/testing/selftests/kselftest_harness.h
tools/testing/selftests/kselftest.h
scripts/checkpatch.pl
scripts/spelling.txt
scripts/const_structs.checkpatch"
stamp=$out/.extracted
[ -f "$stamp" ] && [ "$stamp" -nt "$tarball" ] && [ "$stamp" -nt "$0" ] && exit 0

rm -rf "$out.tmp"
mkdir -p "$out.tmp"
top=linux-source-6.12
# shellcheck disable=SC2086
tar -xf "$tarball" -C "$out.tmp" --strip-components=1 \
	$(printf "$top/%s " $members)
# The harness's 30 s per test assume Debian's kernel; under the debug kernel
# (make check-debug: KASAN, kmemleak, lockdep under TCG) everything is
# several times slower. KSELFTEST_TIMEOUT_SCALE=N multiplies each test's
# timeout (default 1, the harness's own behaviour).
h=$out.tmp/tools/testing/selftests/kselftest_harness.h
grep -qx "$(printf '\talarm(t->timeout);')" "$h" || {
	echo "linux-src: the harness no longer arms alarm(t->timeout) as expected" >&2
	exit 1
}
sed -i -e 's/^\talarm(t->timeout);$/\talarm(t->timeout * __vnpu_timeout_scale());/' \
	-e '/^#define TEST_TIMEOUT_DEFAULT 30$/a\
static inline unsigned int __vnpu_timeout_scale(void)\
{\
	const char *s = getenv("KSELFTEST_TIMEOUT_SCALE");\
	int v = s ? atoi(s) : 1;\
\
	return v > 0 && v <= 100 ? (unsigned int)v : 1;\
}' "$h"

rm -rf "$out"
mv "$out.tmp" "$out"
touch "$stamp"
echo "linux-src: extracted kselftest harness and checkpatch from $(basename "$tarball")"
