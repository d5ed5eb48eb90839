#!/bin/bash
# The video clips of tests/dvpp, made with Debian's ffmpeg CLI from its
# test pattern, and ffmpeg's own decode of each as the reference:
#
#   NAME.es          an Annex-B elementary stream, one access unit
#                    delimiter before every access unit
#   NAME.nv12/.nv21  `ffmpeg -i NAME.es -f rawvideo -pix_fmt nv12|nv21`:
#                    every frame in display order, width x height
#   NAME.size        "WIDTH HEIGHT FRAMES"
#
# usage: make-media.sh OUTDIR
set -euo pipefail
out=$1
mkdir -p "$out.tmp"
ff() { nice ffmpeg -hide_banner -loglevel error -nostdin -y "$@"; }

# clip NAME SIZE FRAMES ENCODER-ARGS...
clip() {
	local name=$1 size=$2 frames=$3
	shift 3
	ff -f lavfi -i "testsrc=size=$size:rate=25" -frames:v "$frames" \
		-threads 1 "$@" "$out.tmp/$name.es"
	for fmt in nv12 nv21; do
		ff -threads 1 -i "$out.tmp/$name.es" -fps_mode passthrough \
			-f rawvideo -pix_fmt $fmt "$out.tmp/$name.$fmt"
	done
	local w=${size%x*} h=${size#*x}
	local bytes n
	bytes=$(stat -c %s "$out.tmp/$name.nv12")
	n=$((bytes / (w * h * 3 / 2)))
	echo "$w $h $n" > "$out.tmp/$name.size"
}

# H.264 High with two B-frames: frames leave in another order than they come
clip h264_high 320x240 12 -c:v libx264 -pix_fmt yuv420p -profile:v high -bf 2 -g 12 \
	-x264-params aud=1 -bsf:v h264_mp4toannexb -f h264
# H.264 Baseline (no B-frames), a size that is not a multiple of 16
clip h264_base 200x120 10 -c:v libx264 -pix_fmt yuv420p -profile:v baseline \
	-x264-params aud=1 -bsf:v h264_mp4toannexb -f h264
# H.265 Main with B-frames
clip h265_main 320x240 12 -c:v libx265 -pix_fmt yuv420p \
	-x265-params log-level=error:aud=1:pools=1:frame-threads=1:bframes=2 -f hevc
# H.264 High 4:2:2: a frame format VDEC does not give as NV12/NV21
ff -f lavfi -i testsrc=size=160x96:rate=25 -frames:v 3 -threads 1 \
	-c:v libx264 -pix_fmt yuv422p -bsf:v h264_mp4toannexb -f h264 \
	"$out.tmp/h264_422.es"

rm -rf "$out"
mv "$out.tmp" "$out"
touch "$out/.stamp"
