#!/bin/sh
# The clips of the VDEC tests and demo, made from ffmpeg's test pattern:
# H.264 main (with B-frames) and H.265 main, 320x240, 30 frames, an
# access unit delimiter before every frame; and ffmpeg's own NV12 decode
# of each, which the tests compare with.
# usage: make_media.sh OUTDIR
set -eu
out=$1
mkdir -p "$out"
ff="ffmpeg -hide_banner -loglevel error -y"
src="-f lavfi -i testsrc=size=320x240:rate=25 -frames:v 30 -pix_fmt yuv420p"
$ff $src -c:v libx264 -profile:v main -bf 2 -x264-params aud=1 -f h264 "$out/clip.h264"
$ff $src -c:v libx265 -x265-params aud=1:log-level=error -f hevc "$out/clip.h265"
for c in h264 h265; do
	$ff -i "$out/clip.$c" -f rawvideo -pix_fmt nv12 "$out/clip_$c.nv12"
done
# The still picture of examples/dvpp_resnet: ffmpeg's second test
# pattern, 640x480, a 4:2:0 baseline JPEG.
$ff -f lavfi -i testsrc2=size=640x480 -frames:v 1 -pix_fmt yuvj420p -q:v 3 \
	"$out/picture.jpg"
