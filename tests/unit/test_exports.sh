#!/bin/bash
# libacl.so exports only the ACL API, and the CANN names reach the same
# library. usage: test_exports.sh BUILD_LIB_DIR
set -u
dir=${1:-$(cd "$(dirname "$0")/../.." && pwd)/build/lib}
n=0 fail=0
t() { n=$((n + 1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi; }

syms=$(nm -D --defined-only "$dir/libacl.so" | awk '$2 ~ /^[TDBR]$/ {print $3}' | sed 's/@.*//')
t "exports some symbols" '[ -n "$syms" ]'
t "exports aclInit" 'echo "$syms" | grep -qx aclInit'
t "every export starts with acl" '! echo "$syms" | grep -v "^acl"'
t "internal helpers are hidden" '! echo "$syms" | grep -qE "^(device_scan|uapi_check|kmd_|runtime_)"'
for name in libascendcl.so libopapi.so libnnopbase.so; do
	t "$name names libacl.so.1" '[ "$(readelf -d "$dir/$name" | sed -n "s/.*SONAME.*\[\(.*\)\]/\1/p")" = libacl.so.1 ]'
done
echo "1..$n"
exit $fail
