#!/bin/bash
# Mirror the module sources into a kbuild directory with symlinks, so the
# objects of an out-of-tree build land in build/ and not in the sources.
#
# usage: mirror-kmod.sh SRCDIR OUTDIR
set -euo pipefail
src=$(cd "$1" && pwd)
out=$2
mkdir -p "$out"
ln -sfn "$src/Kbuild" "$out/Kbuild"
ln -sfn "$src/include" "$out/include"
# Drop links whose source is gone, then link every current source file.
find "$out/kernel" -type l ! -exec test -e {} \; -delete 2>/dev/null || true
(cd "$src" && find kernel -name '*.[ch]' -o -name '*.def') | while read -r f; do
	mkdir -p "$out/$(dirname "$f")"
	ln -sfn "$src/$f" "$out/$f"
done
