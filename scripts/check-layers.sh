#!/bin/sh
# The layers of libascendcl and atc, checked on their #include lines
# (Documentation/architecture.md draws them). Each folder of lib/ may
# include its own headers and those of the layers listed for it below;
# besides those, only the public headers (include/, reached with <...> or
# "acl/...") and the one dtype list under kernel/ops. Nothing under lib/
# includes a file under tools/, lib/lib.mk compiles nothing from there,
# and tools/atc reaches the library through lib/compile/compile.h only.
# Prints TAP; exits 1 on any wrong edge, naming file, line and target.
# usage: check-layers.sh [REPO]
set -u
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 2

# layer: the layers it may include (downward arrows only)
rules='api nn mdl op aicpu compile om dvpp prof dump core
blas nn op core
op compile mdl om nn aicpu dump core
mdl om aicpu nn dump core prof
compile nn aicpu om core
nn dump core
dump core
aicpu core
dvpp core
prof core kmd
om aicpu core
core kmd
kmd'

n=0
fail=0
result() {
	n=$((n + 1))
	if [ -z "$2" ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		printf '%s\n' "$2" | sed 's/^/#   /'
		fail=1
	fi
}

# The relative includes of lib/<layer> that leave the layer, as
# "file:line: target-layer (text)", for the targets not allowed.
bad_edges() {
	layer=$1
	shift
	for f in lib/"$layer"/*.c lib/"$layer"/*.h; do
		[ -f "$f" ] || continue
		awk -v layer="$layer" -v allowed=" $* " -v f="$f" '
		/^[ \t]*#[ \t]*include[ \t]*"/ {
			match($0, /"[^"]*"/)
			inc = substr($0, RSTART + 1, RLENGTH - 2)
			if (inc !~ /^\.\.\//)
				next	# same folder, or a public header
			if (inc ~ /^\.\.\/\.\.\/kernel\/ops\/vnpu_dtypes?\.(h|def)$/)
				next	# the one dtype list
			if (inc ~ /^\.\.\/\.\.\//) {
				print f ":" FNR ": outside lib/ (" inc ")"
				next
			}
			split(substr(inc, 4), part, "/")
			if (part[1] == layer || index(allowed, " " part[1] " "))
				next
			print f ":" FNR ": " layer " -> " part[1] " (" inc ")"
		}' "$f"
	done
}

while read -r layer allowed; do
	# shellcheck disable=SC2086
	result "lib/$layer includes only itself and the layers below it" \
		"$(bad_edges "$layer" $allowed)"
done <<RULES
$rules
RULES

# Every folder of lib/ with sources has a rule.
out=$(for d in lib/*/; do
	d=${d%/}
	d=${d#lib/}
	[ -n "$(find lib/"$d" -maxdepth 1 -name '*.[ch]' -print -quit)" ] ||
		continue
	printf '%s\n' "$rules" | awk -v d="$d" '$1 == d {f = 1} END {exit !f}' ||
		echo "lib/$d has no layer rule in scripts/check-layers.sh"
done)
result "every folder of lib/ has a layer" "$out"

out=$(grep -n 'tools/' lib/lib.mk | grep -v '^[0-9]*:#' | sed 's/^/lib\/lib.mk:/')
result "lib/lib.mk builds nothing from tools/" "$out"

out=$(grep -rn '#[ \t]*include[ \t]*".*tools/' lib)
result "nothing under lib/ includes a file under tools/" "$out"

out=$(grep -n '#[ \t]*include[ \t]*"' tools/atc/*.c tools/atc/*.h |
	grep -E '"(\.\./)*(lib/)?(api|nn|mdl|op|aicpu|compile|om|dvpp|core|kmd)/' |
	grep -v '"compile/compile\.h"')
result "tools/atc includes only compile/compile.h of the library" "$out"

echo "1..$n"
exit $fail
