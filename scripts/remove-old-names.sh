#!/bin/bash
# usage: remove-old-names.sh LIBDIR
#
# Installs made before the library became libascendcl left files named
# libacl.so, libacl.so.1, libacl.so.0.1.0 and libacl.a in LIBDIR. The SONAME
# libacl.so.1 belongs to Debian's POSIX ACL library (libacl1: cp, mv, sed,
# systemd), so such a file in a directory ldconfig searches breaks those
# programs. Remove them, but only those that are ours: the shared objects
# must export aclInit (Debian's libacl exports acl_get_file and friends,
# never aclInit), the archive must define it. Anything else is left alone.
set -u
dir=$1
ours_so() { nm -D --defined-only "$1" 2>/dev/null | grep -qw aclInit; }
for f in "$dir"/libacl.so "$dir"/libacl.so.1 "$dir"/libacl.so.0.1.0; do
	[ -e "$f" ] || [ -L "$f" ] || continue
	if [ -L "$f" ] && [ ! -e "$f" ]; then
		# A dangling link: ours only if it pointed at our old real file.
		case $(readlink "$f") in libacl.so.1|libacl.so.0.1.0) ;; *) continue ;; esac
	elif ! ours_so "$f"; then
		continue
	fi
	echo "removing $f (an earlier vnpu install's name; it shadows Debian's libacl.so.1)"
	rm -f "$f"
done
f=$dir/libacl.a
if [ -f "$f" ] && nm --defined-only "$f" 2>/dev/null | grep -qw aclInit; then
	echo "removing $f (an earlier vnpu install's name)"
	rm -f "$f"
fi
exit 0
