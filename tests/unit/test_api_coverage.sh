#!/bin/bash
# Link completeness: every function the public headers declare is
# exported; the not-supported ones answer ACL_ERROR_RT_FEATURE_NOT_SUPPORT
# with a message (shared library and static archive); the generated stubs
# and Documentation/api-coverage.md match the headers and the library.
# usage: test_api_coverage.sh [BUILD_DIR]
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
b=${1:-$top/build}
lib=$b/lib
py=/usr/bin/python3
w=$b/tests/unit/api-coverage
mkdir -p "$w"
n=0 fail=0
t() { n=$((n + 1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi; }

t "no declared function is missing from libascendcl.so" \
	'$py "$top/scripts/api-coverage.py" "$lib/libascendcl.so" --list "$w/list.txt" --markdown "$w/api-coverage.md" >"$w/table.txt" 2>"$w/missing.txt"'
sed 's/^/# /' "$w/missing.txt"
t "Documentation/api-coverage.md is current (make api-coverage)" \
	'cmp -s "$w/api-coverage.md" "$top/Documentation/api-coverage.md"'
# The stubs are current when regenerating them would not change a name.
stubs() { grep -ho '^ACL_UNSUPPORTED [^(]*(' "$@" | sed 's/.*[ *]\([A-Za-z0-9_]*\)($/\1/' | sort; }
t "no stub is shadowed by an implementation (make api-stubs)" \
	'[ -z "$(comm -12 <(stubs "$top"/lib/api/unsupported_*.c) <(awk "\$1 == \"implemented\" {print \$2}" "$w/list.txt" | sort))" ]'
t "the generated program that names every declared function builds" \
	'$py "$top/scripts/gen-link-all.py" "$w/list.txt" "$w/link_all.c" &&
	 gcc -std=c11 -Wall -Werror -Wno-deprecated-declarations -I"$top/include" -o "$w/link_all" "$w/link_all.c" \
		-L"$lib" -lascendcl -Wl,-rpath,"$lib" &&
	 gcc -std=c11 -Wall -Werror -Wno-deprecated-declarations -I"$top/include" -o "$w/link_all_static" "$w/link_all.c" \
		"$lib/libascendcl.a" $(pkg-config --libs libdrm libturbojpeg libpng16) -luring -ljson-c -lpthread -lm'
t "linked to libascendcl.so: every function links, every stub answers 207000 with a message" \
	'"$w/link_all" >"$w/shared.tap"'
sed 's/^/# /' "$w/shared.tap"
t "linked to libascendcl.a: the same" '"$w/link_all_static" >"$w/static.tap"'
echo "1..$n"
exit $fail
