#!/bin/bash
# acl/ops/acl_dvpp.h is opt-in, as CANN's is: without ENABLE_DVPP_INTERFACE
# a C or C++ file that includes it does not compile and the error names
# the macro; with the macro (command line or source) it compiles.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0
t() { n=$((n + 1)); if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi; }

printf '#include "acl/ops/acl_dvpp.h"\nint main(void) { return 0; }\n' >"$tmp/plain.c"
printf '#define ENABLE_DVPP_INTERFACE\n#include "acl/ops/acl_dvpp.h"\nint main(void) { return (int)sizeof(acldvppCreatePicDesc()) - (int)sizeof(void *); }\n' >"$tmp/defined.c"
cp "$tmp/plain.c" "$tmp/plain.cpp"
cc="${CC:-cc} -std=c11 -Wall -Werror -I$top/include -c"
cxx="${CXX:-c++} -std=c++11 -Wall -Werror -I$top/include -c"

out=$($cc -o "$tmp/a.o" "$tmp/plain.c" 2>&1); rc=$?
t "C without ENABLE_DVPP_INTERFACE does not compile" '[ $rc != 0 ]'
t "the C error names ENABLE_DVPP_INTERFACE" 'printf "%s\n" "$out" | grep -q "#error.*ENABLE_DVPP_INTERFACE"'
out=$($cxx -o "$tmp/b.o" "$tmp/plain.cpp" 2>&1); rc=$?
t "C++ without ENABLE_DVPP_INTERFACE does not compile" '[ $rc != 0 ]'
t "the C++ error names ENABLE_DVPP_INTERFACE" 'printf "%s\n" "$out" | grep -q "#error.*ENABLE_DVPP_INTERFACE"'
$cc -DENABLE_DVPP_INTERFACE -o "$tmp/c.o" "$tmp/plain.c"; rc=$?
t "C with -DENABLE_DVPP_INTERFACE compiles" '[ $rc = 0 ]'
$cxx -DENABLE_DVPP_INTERFACE -o "$tmp/d.o" "$tmp/plain.cpp"; rc=$?
t "C++ with -DENABLE_DVPP_INTERFACE compiles" '[ $rc = 0 ]'
$cc -o "$tmp/e.o" "$tmp/defined.c"; rc=$?
t "C with #define ENABLE_DVPP_INTERFACE in the source compiles" '[ $rc = 0 ]'
echo "1..$n"
exit $fail
