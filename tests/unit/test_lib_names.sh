#!/bin/bash
# Library names (issue 12, section 1). `make install` into a temporary
# prefix under build/, then check that
#   - no file is named libacl.so* or libacl.a: libacl.so.1 is Debian's
#     POSIX ACL library (libacl1), which cp, mv, sed and systemd load;
#   - cp, mv and sed still run with the install's (and the build's) lib/
#     on LD_LIBRARY_PATH;
#   - no name or SONAME we install is, in this machine's `ldconfig -p`, a
#     library other than ours;
#   - a program linked by each name CANN programs use (-lascendcl, -lacl_rt,
#     -lopapi, -lopapi_math, -lopapi_nn, -lnnopbase) builds and runs, all
#     names reaching the one runtime;
#   - the static archive works, and a program that defines names the
#     runtime uses internally (device_set, copy_sync) links against it;
#   - set_env.sh sets up the environment, idempotently, so that pkg-config
#     and the loader find the install;
#   - install removes the libacl.so* files an earlier install left, but
#     only ours (scripts/remove-old-names.sh), never a foreign libacl.so.1.
# Host test, TAP. Programs run without a device (aclrtGetDeviceCount ->
# ACL_ERROR_RT_NO_DEVICE).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
b=$top/build
tmp=$(mktemp -d "$b/test-lib-names.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/toolkit
lib=$prefix/lib
prog=$top/tests/unit/lib_names_prog.c
names="ascendcl acl_rt opapi opapi_math opapi_nn nnopbase acl_dvpp ms_tools_ext"
n=0
status=0
check() {
	n=$((n + 1))
	if [ "$2" = 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; status=1; fi
}
note() { sed 's/^/# /' "$@"; }
soname() { readelf -d "$1" 2>/dev/null | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p'; }
echo "1..37"

# An earlier install's names, planted before installing: a library with
# the old SONAME libacl.so.1 that exports aclInit, and its links.
mkdir -p "$lib"
echo 'int aclInit(const char *p); int aclInit(const char *p) { return !p; }' > "$tmp/old.c"
cc -shared -fPIC -Wl,-soname,libacl.so.1 -o "$lib/libacl.so.0.1.0" "$tmp/old.c" &&
	ln -s libacl.so.0.1.0 "$lib/libacl.so.1" && ln -s libacl.so.1 "$lib/libacl.so" ||
	echo "# could not plant the old names"

make -s -C "$top" install PREFIX="$prefix" > "$tmp/install.log" 2>&1
rc=$?
[ $rc = 0 ] || note "$tmp/install.log"
check "make install PREFIX=<tmp>" $rc

# no libacl.so* / libacl.a, neither installed nor in the build.
bad=$(find "$prefix" "$b/lib" \( -name 'libacl.so*' -o -name 'libacl.a' \) -print)
[ -z "$bad" ] || echo "$bad" | sed 's/^/# /'
check "no installed or built file is named libacl.so* or libacl.a" "$([ -z "$bad" ]; echo $?)"
check "the archive is installed as libascendcl.a" "$([ -f "$lib/libascendcl.a" ]; echo $?)"

# Old names: ours were removed by the install, a foreign one is kept.
fdir=$tmp/foreign
mkdir -p "$fdir"
sys_acl=$(ldconfig -p | awk '$1 == "libacl.so.1" {print $NF; exit}')
[ -n "$sys_acl" ] || sys_acl=/lib/x86_64-linux-gnu/libacl.so.1
cp -L "$sys_acl" "$fdir/libacl.so.1" 2>/dev/null || echo "# no system libacl.so.1 to copy"
"$top/scripts/remove-old-names.sh" "$fdir" > /dev/null
check "install removed the libacl.so* an earlier install of ours left" \
	"$(! ls "$lib" | grep -q '^libacl\.so'; echo $?)"
check "remove-old-names.sh leaves a foreign (Debian's) libacl.so.1 alone" \
	"$([ -f "$fdir/libacl.so.1" ] || [ ! -e "$sys_acl" ]; echo $?)"

# every name reaches the one real library.
real=$(readlink -f "$lib/libascendcl.so.1")
rc=0
for nm in $names; do
	f=$lib/lib$nm.so
	if [ ! -e "$f" ] || [ "$(readlink -f "$f")" != "$real" ]; then
		echo "# $f does not resolve to $real"; rc=1
	fi
done
check "lib{$(echo $names | tr ' ' ,)}.so are installed and resolve to $(basename "$real")" $rc

# the SONAME.
check "the SONAME is libascendcl.so.1" "$([ "$(soname "$real")" = libascendcl.so.1 ]; echo $?)"

# cp, mv and sed with our libraries first on the search path.
for d in "$lib" "$b/lib"; do
	for tool in cp mv sed; do
		out=$(LD_LIBRARY_PATH=$d "$tool" --version 2>&1)
		rc=$?
		[ $rc = 0 ] || echo "$out" | head -3 | sed 's/^/# /'
		check "LD_LIBRARY_PATH=${d#$top/} $tool --version" $rc
	done
done

# no name or SONAME we install is someone else's library in the
# machine's loader cache. An entry that is ours (exports aclInit, e.g.
# after a real `make install` + ldconfig) is fine.
installed=$( (cd "$lib" && ls -1 | grep '\.so') )
sonames=$(for f in "$lib"/*.so*; do [ -L "$f" ] || soname "$f"; done | sort -u)
cache=$(ldconfig -p 2>/dev/null)
clash=
for name in $installed $sonames; do
	for path in $(echo "$cache" | awk -v n="$name" '$1 == n {print $NF}'); do
		nm -D --defined-only "$path" 2>/dev/null | grep -qw aclInit ||
			clash="$clash $name=>$path"
	done
done
echo "# installed sonames: $sonames"
[ -z "$clash" ] || echo "# in ldconfig -p:$clash"
check "no installed SONAME is another library's in ldconfig -p" "$([ -n "$sonames" ] && [ -z "$clash" ]; echo $?)"
check "libacl.so.1 is not among the installed SONAMEs" "$(! echo "$sonames" | grep -qx 'libacl\.so.*'; echo $?)"

# one program per link name: builds, needs libascendcl.so.1, runs
# from the install's lib/ (no rpath).
for nm in $names; do
	exe=$tmp/prog_$nm
	cc -std=c11 -Wall -Wextra -Werror -I"$prefix/include" -o "$exe" "$prog" \
		-L"$lib" -l"$nm" > "$tmp/cc_$nm.log" 2>&1
	rc=$?
	[ $rc = 0 ] || note "$tmp/cc_$nm.log"
	check "cc ... -l$nm builds" $rc
	out=$(LD_LIBRARY_PATH=$lib "$exe" 2>&1)
	rc=$?
	needed=$(readelf -d "$exe" 2>/dev/null | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')
	echo "# -l$nm: NEEDED $needed; $out"
	check "the -l$nm program runs (aclInit, no device, aclFinalize)" \
		"$([ $rc = 0 ] && echo "$needed" | grep -qw 'libascendcl\.so\.1'; echo $?)"
done

# the static archive, with a program that uses internal names itself.
cc -std=c11 -Wall -Wextra -Werror -I"$prefix/include" -o "$tmp/prog_static" "$prog" \
	"$top/tests/unit/lib_names_collide.c" "$lib/libascendcl.a" \
	$(pkg-config --libs libdrm liburing libturbojpeg libpng16 json-c) -lpthread -lm > "$tmp/cc_static.log" 2>&1
rc=$?
[ $rc = 0 ] || note "$tmp/cc_static.log"
check "a program defining device_set and copy_sync links libascendcl.a" $rc
out=$("$tmp/prog_static" 2>&1)
rc=$?
echo "# static: $out"
check "the statically linked program runs without any libascendcl.so" \
	"$([ $rc = 0 ] && ! readelf -d "$tmp/prog_static" | grep -q ascendcl; echo $?)"

# set_env.sh, sourced twice by sh, then used to build and run.
env_out=$(env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH=/opt/x sh -c "
	. '$prefix/set_env.sh'; . '$prefix/set_env.sh'
	echo \"LD_LIBRARY_PATH=\$LD_LIBRARY_PATH\"
	echo \"PKG_CONFIG_PATH=\$PKG_CONFIG_PATH\"
	echo \"PATH=\$PATH\"
	echo \"ASCEND_TOOLKIT_HOME=\$ASCEND_TOOLKIT_HOME\"
	echo \"ASCEND_HOME_PATH=\$ASCEND_HOME_PATH\"
	command -v vnpu-smi" 2>&1)
echo "$env_out" | sed 's/^/# /'
check "set_env.sh sets the library, pkg-config, tool and toolkit variables" "$(
	echo "$env_out" | grep -qx "LD_LIBRARY_PATH=$lib:/opt/x" &&
	echo "$env_out" | grep -qx "PKG_CONFIG_PATH=$lib/pkgconfig" &&
	echo "$env_out" | grep -qx "PATH=$prefix/bin:/usr/bin:/bin" &&
	echo "$env_out" | grep -qx "ASCEND_TOOLKIT_HOME=$prefix" &&
	echo "$env_out" | grep -qx "ASCEND_HOME_PATH=$prefix" &&
	echo "$env_out" | grep -qx "$prefix/bin/vnpu-smi"; echo $?)"
dups=$(echo "$env_out" | sed -n 's/^\(LD_LIBRARY_PATH\|PKG_CONFIG_PATH\|PATH\)=//p' |
	tr ':' '\n' | sort | uniq -d)
check "sourcing set_env.sh twice adds no entry twice" "$([ -z "$dups" ]; echo $?)"

build_out=$(env -i PATH=/usr/bin:/bin bash -c "
	. '$prefix/set_env.sh'
	cc -std=c11 -o '$tmp/prog_pc' '$prog' \$(pkg-config --cflags --libs ascendcl) &&
	'$tmp/prog_pc'" 2>&1)
rc=$?
echo "$build_out" | sed 's/^/# /'
check "after set_env.sh: cc \$(pkg-config --cflags --libs ascendcl) builds a program that runs" $rc
a=$(PKG_CONFIG_PATH=$lib/pkgconfig pkg-config --cflags --libs acl 2>&1)
c=$(PKG_CONFIG_PATH=$lib/pkgconfig pkg-config --cflags --libs ascendcl 2>&1)
echo "# acl: $a"
check "acl.pc is an alias of ascendcl.pc (-lascendcl)" "$([ "$a" = "$c" ] &&
	echo "$c" | grep -q -- '-lascendcl'; echo $?)"

# CANN's layout as ggml's CMake reads it: libraries under lib64/, and
# "npu-smi info" with the chip in field 3 of line 7, even with no module.
check "lib64/ resolves to the installed libraries (as in a CANN toolkit)" \
	"$([ "$(readlink -f "$prefix/lib64/libascendcl.so")" = "$(readlink -f "$lib/libascendcl.so")" ]; echo $?)"
chip=$(env -i PATH=/usr/bin:/bin sh -c ". '$prefix/set_env.sh'; npu-smi info" |
	awk -F' ' 'NF > 0 && NR==7 {print $3}')
echo "# npu-smi info, line 7 field 3: $chip"
check "npu-smi info names the chip where ggml's CMake looks (910B3)" \
	"$([ "$chip" = 910B3 ]; echo $?)"
env -i PATH=/usr/bin:/bin "$prefix/bin/npu-smi" bogus > /dev/null 2>&1
check "npu-smi refuses an unknown command with status 2" "$([ $? = 2 ]; echo $?)"
exit $status
