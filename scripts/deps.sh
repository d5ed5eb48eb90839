#!/bin/bash
# Build and test dependencies of vnpu, installed with apt.
#
#   deps.sh kver      print the target kernel version (KVER from the
#                     environment, else the recorded one, else the newest
#                     Debian 6.12 kernel apt knows about) and record it
#   deps.sh check     exit 0 when everything is installed
#   deps.sh install   install what is missing (seconds when nothing is)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
record=$top/build/kver

discover_kver() {
	local v
	v=$(apt-cache pkgnames linux-image-6.12. 2>/dev/null |
		grep -E '^linux-image-6\.12\.[0-9]+\+deb12-amd64$' |
		sed 's/^linux-image-//' | sort -V | tail -n 1 || true)
	if [ -z "$v" ]; then
		# An empty apt cache: fall back to an installed kernel.
		v=$(find /boot -maxdepth 1 -name 'vmlinuz-6.12.*+deb12-amd64' \
			-printf '%f\n' 2>/dev/null | sed 's/^vmlinuz-//' |
			sort -V | tail -n 1)
	fi
	echo "$v"
}

kver() {
	local v=${KVER:-}
	if [ -z "$v" ] && [ -s "$record" ]; then
		v=$(cat "$record")
	fi
	[ -n "$v" ] || v=$(discover_kver)
	if [ -z "$v" ]; then
		echo "deps: no Debian 6.12 kernel found; run 'apt-get update'" >&2
		exit 1
	fi
	mkdir -p "$(dirname "$record")"
	[ "$(cat "$record" 2>/dev/null)" = "$v" ] || echo "$v" > "$record"
	echo "$v"
}

packages() {
	local v=$1
	echo "linux-image-$v linux-headers-$v linux-source-6.12" \
	     "qemu-system-x86 busybox-static libdrm-dev liburing-dev cpio" \
	     "xz-utils kmod gcc g++ make pkg-config perl libopenblas-dev python3" \
	     "libonnx-dev protobuf-c-compiler libprotobuf-c-dev libjson-c-dev" \
	     "python3-torch python3-torchvision python3-onnx python3-numpy" \
	     "python3-dev python3-pytest" \
	     "libtsan2 libonnx-testdata" \
	     "libturbojpeg0-dev libpng-dev zlib1g-dev libavcodec-dev libavutil-dev" \
	     "ffmpeg libopencv-dev python3-opencv python3-pil chromium"
}

missing() {
	local p
	for p in $(packages "$1"); do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || echo "$p"
	done
}

case ${1:-install} in
kver)
	kver
	;;
check)
	v=$(kver)
	[ -z "$(missing "$v")" ]
	;;
install)
	if [ -n "${KVER:-}" ] || [ -s "$record" ]; then
		v=$(kver)
	else
		# First run on this machine: refresh the index before choosing.
		[ "$(id -u)" = 0 ] && apt-get update -qq
		v=$(kver)
	fi
	m=$(missing "$v")
	if [ -z "$m" ]; then
		echo "deps: all present (kernel $v)"
		exit 0
	fi
	echo "deps: installing" $m
	if [ "$(id -u)" != 0 ]; then
		echo "deps: need root to install packages" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $m
	;;
*)
	echo "usage: $0 kver|check|install" >&2
	exit 2
	;;
esac
