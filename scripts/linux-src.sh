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
[ -f "$stamp" ] && [ "$stamp" -nt "$tarball" ] && exit 0

rm -rf "$out.tmp"
mkdir -p "$out.tmp"
top=linux-source-6.12
# shellcheck disable=SC2086
tar -xf "$tarball" -C "$out.tmp" --strip-components=1 \
	$(printf "$top/%s " $members)
rm -rf "$out"
mv "$out.tmp" "$out"
touch "$stamp"
echo "linux-src: extracted kselftest harness and checkpatch from $(basename "$tarball")"
