#!/bin/bash
# The installed layout works for a C++ CANN-style program: `make install`
# into a temporary DESTDIR under build/, then compile and link
# examples/matmul.cpp against it with g++ (it needs a device to run, so
# building is the check), and resolve the pkg-config file against the tree.
# Host test, TAP.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
b=$top/build
tmp=$(mktemp -d "$b/test-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n=0
status=0
check() {
	n=$((n + 1))
	if [ "$2" = 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; status=1; fi
}
echo "1..7"

make -s -C "$top" install PREFIX=/usr DESTDIR="$tmp" > "$tmp/install.log" 2>&1
rc=$?
[ $rc = 0 ] || sed 's/^/# /' "$tmp/install.log"
check "make install PREFIX=/usr DESTDIR=<tmp>" $rc

usr=$tmp/usr
check "installed headers and libraries" "$( [ -f "$usr/include/acl/acl.h" ] &&
	[ -f "$usr/include/aclnnop/aclnn_matmul.h" ] &&
	[ -f "$usr/include/mstx/ms_tools_ext.h" ] &&
	[ -e "$usr/lib/libascendcl.so" ] && [ -e "$usr/lib/libnnopbase.so" ] &&
	[ -e "$usr/lib/libopapi.so" ]; echo $?)"

g++ -std=c++17 -Wall -Wextra -Werror -I"$usr/include" \
	-o "$tmp/matmul" "$top/examples/matmul.cpp" \
	-L"$usr/lib" -lascendcl -lnnopbase -lopapi > "$tmp/cxx.log" 2>&1
rc=$?
[ $rc = 0 ] || sed 's/^/# /' "$tmp/cxx.log"
check "g++ compiles and links examples/matmul.cpp against the installed tree" $rc

# The binary needs the runtime's SONAME, found in the installed tree.
LD_LIBRARY_PATH=$usr/lib ldd "$tmp/matmul" > "$tmp/ldd.log" 2>&1
check "matmul's libraries resolve in the installed lib/" "$(grep -q "libascendcl.so.1 => $usr/lib/libascendcl.so.1" "$tmp/ldd.log" &&
	! grep -q 'not found' "$tmp/ldd.log"; echo $?)"

# prefix=/usr in ascendcl.pc; the sysroot maps it into the temp tree (libdrm,
# which ascendcl.pc requires privately, still comes from the system search
# path).
export PKG_CONFIG_SYSROOT_DIR=$tmp PKG_CONFIG_PATH=$usr/lib/pkgconfig
flags=$(pkg-config --cflags --libs ascendcl 2>&1)
rc=$?
echo "# pkg-config --cflags --libs ascendcl: $flags"
check "pkg-config resolves ascendcl to the installed tree" "$( [ $rc = 0 ] &&
	echo "$flags" | grep -q -- "-I$usr/include" &&
	echo "$flags" | grep -q -- "-L$usr/lib" && echo "$flags" | grep -qw -- "-lascendcl"; echo $?)"

# A C program built with nothing but pkg-config's flags.
gcc -std=c11 -o "$tmp/device_query" "$top/samples/device_query.c" $flags > "$tmp/cc.log" 2>&1
rc=$?
[ $rc = 0 ] || sed 's/^/# /' "$tmp/cc.log"
check "cc samples/device_query.c \$(pkg-config --cflags --libs ascendcl) links" $rc

# The Python module lands in the prefix's site-packages, linked to the
# installed runtime (its RUNPATH is the prefix's lib/).
pydir=$(ls -d "$usr"/lib/python3*/dist-packages 2>/dev/null | head -n 1)
out=$(PYTHONPATH=$pydir LD_LIBRARY_PATH=$usr/lib /usr/bin/python3 -c \
	'import acl; print(acl.__file__, acl.rt.MEMCPY_HOST_TO_DEVICE)' 2>&1)
echo "$out" | sed 's/^/# /'
check "import acl from the installed site-packages" "$(case $out in
	"$pydir"/acl.*.so" 1") echo 0 ;; *) echo 1 ;; esac)"
exit $status
