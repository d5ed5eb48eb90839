#!/bin/bash
# The explicit export list (issue 32): scripts/check-exports.py passes on
# lib/libacl.map and the built libascendcl.so, and fails on deliberately
# wrong maps and export lists: a name removed from the map, a name added
# that the library does not define, the library exporting a name the map
# does not list, a declared function missing from both, a wildcard, an
# unsorted or duplicated entry, a global of the static archive the map
# does not list. Host test, TAP.
# usage: test_check_exports.sh [BUILD_DIR]
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
b=${1:-$top/build}
so=$b/lib/libascendcl.so
ar=$b/lib/libascendcl.a
py=/usr/bin/python3
chk=$top/scripts/check-exports.py
map=$top/lib/libacl.map
mkdir -p "$b/tests/unit"
tmp=$(mktemp -d "$b/tests/unit/check-exports.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
t() { n=$((n + 1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi; }
note() { sed 's/^/# /' "$@"; }

# run NAME ARGS...: the checker's TAP in $tmp/NAME.out, its status echoed.
run() { local o=$tmp/$1.out; shift; "$py" "$chk" "$@" >"$o" 2>&1; echo $?; }
# failed NAME N: check N of the run NAME is "not ok".
failed() { grep -q "^not ok $2 " "$tmp/$1.out"; }
# only NAME N...: exactly the checks N... fail in the run NAME.
only() {
	local o=$1; shift
	[ "$(grep -o '^not ok [0-9]*' "$tmp/$o.out" | awk '{print $3}' | tr '\n' ' ')" = "$* " ]
}

# Names the library exports, and the one the cases below take out.
nm -D --defined-only "$so" | awk 'NF == 3 && $2 != "A" {sub(/@.*/, "", $3); print $3}' |
	LC_ALL=C sort -u >"$tmp/exports"
victim=aclrtMalloc

t "the real map and library pass" '[ "$(run good --map "$map" --lib "$so" --archive "$ar")" = 0 ]'
note "$tmp/good.out"
t "the checker sees aclrtMalloc exported (the cases below remove it)" \
	'grep -qx "$victim" "$tmp/exports"'

# 1. A symbol removed from the map: the library exports it and the headers
# declare it, but the map does not list it.
grep -vx "		$victim;" "$map" >"$tmp/removed.map"
t "a map without $victim differs from the real one by one line" \
	'[ "$(diff "$map" "$tmp/removed.map" | grep -c "^[<>]")" = 1 ]'
t "a map with $victim removed fails" '[ "$(run removed --map "$tmp/removed.map" --lib "$so" --archive "$ar")" = 1 ]'
t "... as exported, not in the map" \
	'failed removed 3 && grep -q "exported, not in the map: $victim\$" "$tmp/removed.out"'
t "... and as declared, not in the map" \
	'failed removed 5 && grep -q "declared, not in the map: $victim\$" "$tmp/removed.out"'
note "$tmp/removed.out"

# 2. An extra symbol in the map, in its sorted place, defined nowhere.
extra=aclrtVnpuNoSuchFunction
{
	sed '/^\tglobal:$/q' "$map"
	{ sed -n 's/^\t\t\([A-Za-z_][A-Za-z0-9_]*\);$/\1/p' "$map"; echo "$extra"; } |
		LC_ALL=C sort | sed 's/.*/\t\t&;/'
	sed -n '/^\tlocal:$/,$p' "$map"
} >"$tmp/extra.map"
t "the map with an extra name differs from the real one by one line" \
	'[ "$(diff "$map" "$tmp/extra.map" | grep -c "^[<>]")" = 1 ]'
t "a map with an extra name fails" '[ "$(run extra --map "$tmp/extra.map" --lib "$so" --archive "$ar")" = 1 ]'
t "... as in the map, not defined, and not declared (only checks 4, 6 and 7)" \
	'only extra 4 6 7 && grep -q "in the map, not defined: $extra\$" "$tmp/extra.out"'
note "$tmp/extra.out"

# 3. The library exports a name the map does not list (as the old
# wildcard let a new acl* function do): an export list with one more name.
{ cat "$tmp/exports"; echo aclVnpuUndecidedAbi; } >"$tmp/exports+1"
t "an export the map does not list fails" \
	'[ "$(run exported --map "$map" --exports "$tmp/exports+1")" = 1 ] && only exported 3 &&
	 grep -q "exported, not in the map: aclVnpuUndecidedAbi" "$tmp/exported.out"'

# 4. A declared function neither exported nor listed: only the header
# check notices.
grep -vx "$victim" "$tmp/exports" >"$tmp/exports-1"
t "a declared function missing from the map (and the library) fails" \
	'[ "$(run declared --map "$tmp/removed.map" --exports "$tmp/exports-1")" = 1 ] && only declared 5'

# 5. The static archive defines a global the map does not list (it has
# no version script: a function marked visible lands in it as is).
printf 'int aclVnpuUndecidedAbi(void) { return 0; }\n' >"$tmp/stray.c"
t "an archive with a global the map does not list fails" \
	'cp "$ar" "$tmp/stray.a" && gcc -c -o "$tmp/stray.o" "$tmp/stray.c" && ar r "$tmp/stray.a" "$tmp/stray.o" &&
	 [ "$(run stray --map "$map" --lib "$so" --archive "$tmp/stray.a")" = 1 ] && only stray 7 &&
	 grep -q "global in the archive, not in the map: aclVnpuUndecidedAbi" "$tmp/stray.out"'

# 6. The shape of the map: a wildcard, an unsorted list, a duplicate.
sed 's/^\t\taclrtMalloc;$/\t\tacl*;/' "$map" >"$tmp/wild.map"
t "a wildcard in global: fails" \
	'[ "$(run wild --map "$tmp/wild.map" --lib "$so" --archive "$ar")" = 1 ] && failed wild 1'
awk '/^\t\taclrtFree;$/ {hold = $0; next} {print} hold && /^\t\taclrtMalloc;$/ {print hold; hold = ""}' \
	"$map" >"$tmp/unsorted.map"
t "an unsorted map fails" \
	'[ "$(run unsorted --map "$tmp/unsorted.map" --lib "$so" --archive "$ar")" = 1 ] && only unsorted 2'
sed 's/^\t\taclrtMalloc;$/\t\taclrtMalloc;\n\t\taclrtMalloc;/' "$map" >"$tmp/dup.map"
t "a duplicated name fails" '[ "$(run dup --map "$tmp/dup.map" --lib "$so" --archive "$ar")" = 1 ] && only dup 2'
sed 's/^\t\t\*;$/\t\taclInit;/' "$map" >"$tmp/nolocal.map"
t "a map whose local: is not * fails" \
	'[ "$(run nolocal --map "$tmp/nolocal.map" --lib "$so" --archive "$ar")" = 1 ] && failed nolocal 1'
echo "1..$n"
exit $fail
