#!/bin/bash
# Run benchmark programs (in the VM) and merge their JSON arrays, and any
# other OUTDIR/*.json already there (the host benchmarks'), into
# OUTDIR/results.json. Each program takes the path of its own JSON file.
# usage: run-bench.sh OUTDIR PROGRAM [PROGRAM...]
set -eu
out=$1
shift
mkdir -p "$out"
for prog in "$@"; do
	name=$(basename "$prog" .py)
	echo "# ---- $name"
	"$prog" "$out/$name.json"
done
parts=()
for f in "$out"/*.json; do
	[ "$(basename "$f")" = results.json ] || parts+=("$f")
done
{
	echo "["
	# Entries are one per line; join them with commas across files.
	sed -n 's/^  \({.*}\),\{0,1\}$/  \1/p' "${parts[@]}" | sed '$!s/$/,/'
	echo "]"
} > "$out/results.json.tmp"
mv "$out/results.json.tmp" "$out/results.json"
