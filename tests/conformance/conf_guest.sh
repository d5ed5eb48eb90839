#!/bin/bash
# The guest side of the conformance run, without a file operation over
# virtio-9p per test file (each one a round trip of tens of milliseconds
# under TCG, most of a test's time): the host packs the compiled tests
# into one tar, the guest unpacks it into its tmpfs, runs conf_run there
# and packs the results into one tar, which the host unpacks.
#
#   conf_guest.sh pack DIR     (host)  DIR/bundle.tar from DIR/tests.txt
#   conf_guest.sh run DIR      (guest) DIR/results.tar; conf_run's output on stdout
#   conf_guest.sh unpack DIR   (host)  the results into DIR/<suite>/<test>/guest/
set -eu
mode=$1
dir=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
run=$here/build/tests/conformance/conf_run

case $mode in
pack)
	rm -f "$dir/bundle.tar" "$dir/results.tar"
	# every compiled test: its manifest, inputs and model
	(cd "$dir" && sed "s|^$dir/||" tests.txt | while read -r t; do
		[ -f "$t/model.om" ] || continue
		echo "$t/manifest.txt"
		echo "$t/model.om"
		for f in "$t"/in_*.bin; do [ -e "$f" ] && echo "$f"; done
	done) > "$dir/bundle.list"
	tar -cf "$dir/bundle.tar" -C "$dir" -T "$dir/bundle.list"
	;;
run)
	work=/tmp/conformance
	rm -rf "$work"
	mkdir -p "$work"
	tar -xf "$dir/bundle.tar" -C "$work"
	sed "s|^$dir/|$work/|" "$dir/tests.txt" > "$work/tests.txt"
	status=0
	"$run" "$work/tests.txt" || status=$?
	(cd "$work" && find . -path '*/guest/*' -type f | sort > results.list &&
		tar -cf "$dir/results.tar" -T results.list)
	rm -rf "$work"
	exit $status
	;;
unpack)
	[ -f "$dir/results.tar" ] || { echo "conf_guest: no $dir/results.tar" >&2; exit 1; }
	find "$dir" -mindepth 3 -maxdepth 3 -type d -name guest -exec rm -rf {} +
	tar -xf "$dir/results.tar" -C "$dir"
	;;
*)
	echo "usage: conf_guest.sh pack|run|unpack DIR" >&2
	exit 2
	;;
esac
