#!/bin/bash
# The runtime exports only the ACL API, every CANN name reaches the same
# library, and the static archive's globals are acl* only.
# usage: test_exports.sh BUILD_LIB_DIR
set -u
dir=${1:-$(cd "$(dirname "$0")/../.." && pwd)/build/lib}
n=0 fail=0
t() { n=$((n + 1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi; }

soname() { readelf -d "$1" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p'; }

syms=$(nm -D --defined-only "$dir/libascendcl.so" | awk '$2 ~ /^[TDBR]$/ {print $3}' | sed 's/@.*//')
t "exports some symbols" '[ -n "$syms" ]'
t "exports aclInit" 'echo "$syms" | grep -qx aclInit'
t "every export starts with acl or Acl (or mstx, the markers' API)" '! echo "$syms" | grep -v "^[aA]cl\|^mstx"'
t "internal helpers are hidden" '! echo "$syms" | grep -qE "^(device_scan|uapi_check|kmd_|runtime_)"'
t "the real library's SONAME is libascendcl.so.1" '[ "$(soname "$dir/libascendcl.so")" = libascendcl.so.1 ]'
for name in libascendcl.so libacl_rt.so libopapi.so libopapi_math.so libopapi_nn.so libnnopbase.so; do
	t "$name is a link to libascendcl.so.1" '[ -L "$dir/$name" ] && [ "$(readlink "$dir/$name")" = libascendcl.so.1 ]'
done
t "nothing in the build's lib/ is named libacl.so* or libacl.a" \
	'[ -z "$(find "$dir" -maxdepth 2 \( -name "libacl.so*" -o -name libacl.a \) -print)" ]'

# The static archive: one object whose global definitions are the API.
asyms=$(nm -g --defined-only "$dir/libascendcl.a" | awk 'NF == 3 {print $3}')
t "libascendcl.a defines aclInit" 'echo "$asyms" | grep -qx aclInit'
t "every global the archive defines starts with acl or Acl (or mstx)" '! echo "$asyms" | grep -v "^[aA]cl\|^mstx"'
t "internals such as device_set and copy_sync are local in the archive" \
	'! echo "$asyms" | grep -qE "^(device_set|copy_sync|kmd_.*)$"'
t "the archive holds a single object" '[ "$(ar t "$dir/libascendcl.a" | wc -l)" = 1 ]'
echo "1..$n"
exit $fail
