#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# The HTML timeline in a real browser: Debian's chromium, headless, loads
# a timeline_*.html the exporter wrote from a synthetic raw directory;
# the DOM after its script ran must name every track and show known ops,
# and the screenshot (build/tests/prof_timeline/timeline.png, for a person
# to look at) must not be blank. TAP; skipped only without chromium.
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "pylib"))
from testenv import check, done  # noqa: E402
import prof_synth as ps  # noqa: E402

OUT = ps.TOP / "build" / "tests" / "prof_timeline"


def chromium():
    for name in ("chromium", "chromium-browser"):
        p = shutil.which(name)
        if p:
            return p
    return None


def browse(exe, profile, *args):
    return subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu",
                           "--user-data-dir=%s" % profile, "--window-size=1400,900"] +
                          list(args), capture_output=True, text=True, timeout=120)


def main():
    exe = chromium()
    if not exe:
        print("1..0 # SKIP chromium is not installed (scripts/deps.sh installs it)")
        return 0
    if not ps.MSPROF.exists():
        check("build/tools/msprof exists (make tools)", False)
        return done()
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    d = ps.scenario().write(OUT / "PROF_000001_20260101000000000_BROWSERTEST00000")
    p = subprocess.run([str(ps.MSPROF), "--export=on", "--output=%s" % d],
                       capture_output=True, text=True, env=ps.env(), timeout=60)
    check("export succeeds", p.returncode == 0)
    html = d / "mindstudio_profiler_output" / ("timeline_%s.html" % ps.stamp())
    check("timeline html written", html.exists())
    profile = tempfile.mkdtemp(prefix="vnpu-chromium-")
    try:
        dom = browse(exe, profile, "--dump-dom", html.as_uri())
        shot = OUT / "timeline.png"
        s = browse(exe, profile, "--screenshot=%s" % shot, html.as_uri())
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    check("chromium --dump-dom exits 0", dom.returncode == 0)
    text = dom.stdout
    check("the page's script ran to its end", 'data-ready="1"' in text and
          'data-rendered="%d"' % (len(ps.scenario().tasks) + 6 + 2 + 3) in text)
    labels = re.findall(r'class="track-label">([^<]*)<', text)
    want = ["Thread 100", "Thread 101", "Model 7 resnet18 (device 0)",
            "msproftx 100", "msproftx 101", "Device 0 Stream 1", "Device 0 Stream 2",
            "Device 1 Stream 5"]
    check("every track is named in the DOM: %s" % labels, labels == want)
    groups = re.findall(r'class="group">([^<]*)<', text)
    check("track groups: host, models, markers, each device", groups == [
        "time", "CANN (host)", "Models", "msproftx", "Ascend Hardware (device 0)",
        "Ascend Hardware (device 1)"])
    cells = re.findall(r'<td[^>]*>([^<]*)</td>', text)
    check("the top-operator table names Conv2D first", "Conv2D" in cells and
          cells[cells.index("Conv2D") - 2] == "1")
    check("the longest-task table names the op conv1", "conv1" in cells)
    check("chromium --screenshot exits 0", s.returncode == 0 and shot.exists())
    try:
        from PIL import Image
    except ImportError:
        check("python3-pil to read the screenshot", False)
        return done()
    im = Image.open(shot).convert("RGB")
    check("screenshot is 1400x900", im.size == (1400, 900))
    colours = im.getcolors(maxcolors=1 << 20) or []
    check("screenshot is not blank (%d distinct colours)" % len(colours), len(colours) > 50)
    # the conv1 boxes on the device 0 stream 1 row are drawn in colour
    strip = im.crop((240, 60, 1390, 400))
    sat = sum(1 for c, (r, g, b) in strip.getcolors(1 << 20) or []
              if max(r, g, b) - min(r, g, b) > 60 for _ in [0])
    check("the timeline area has coloured boxes (%d saturated colours)" % sat, sat > 5)
    return done()


if __name__ == "__main__":
    sys.exit(main())
