#!/usr/bin/env python3
"""Render report.html from a copy of a fixture run directory, screenshot it
with headless Chromium and check the picture.

  check_report_screenshot.py --renderer EXE --fixture RUN_DIR --work DIR

EXE RUN_COPY must write RUN_COPY/report.html (stand_html_report_fixture).
Checks: the HTML is self-contained (no scripts, no resource references) and
rendering twice gives the same bytes; Chromium writes a real PNG of the window
size; the picture is not blank, has many colours, and shows the first plugin
colours of the report's palette. Then the layout at a 1400-pixel window: a
copy of the run with six plugins (long labels, large numbers, a machine-busy
finding flagging every cell of some) must leave no table wider than its
box and the page without a horizontal scroll (measured by a script in a
copy of report.html, read back with chromium --dump-dom); the verdict is
the first thing after the title. Fails (exit 1) with the reason, also when
chromium is not installed. Standard library only.
"""
import argparse
import collections
import glob
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib

WIDTH, HEIGHT = 1000, 3000
# The report's first two plugin colours (html_report.cpp kColors).
PLOT_COLOURS = {"#0072b2": (0x00, 0x72, 0xB2), "#d55e00": (0xD5, 0x5E, 0x00)}


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def render(renderer, fixture, run_copy):
    shutil.rmtree(run_copy, ignore_errors=True)
    shutil.copytree(fixture, run_copy)
    return render_in_place(renderer, run_copy)


def check_html(text):
    for bad in ("<script", " src=", "url(", "@import", "<link", "<img", "<iframe"):
        if bad in text:
            fail(f"report.html contains {bad!r}: it must not fetch or run anything")
    for href in re.findall(r'href="([^"]*)"', text):
        if not href.startswith("#"):
            fail(f"report.html links outside itself: href={href!r}")
    for tag in ("svg", "table", "figure", "section"):
        opened, closed = len(re.findall(f"<{tag}[ >]", text)), text.count(f"</{tag}>")
        if opened != closed:
            fail(f"report.html has {opened} <{tag}> but {closed} </{tag}>")
    svgs = text.count("<svg ")
    for what, needle, least in (("time series", 'aria-label="memory and CPU over time', 4),
                                ("latency CDFs", 'aria-label="latency CDF of step', 2),
                                ("whisker bar charts", 'class="whisker"', 8)):
        if text.count(needle) < least:
            fail(f"report.html has {text.count(needle)} {what}, expected at least {least}")
    print(f"report.html: {len(text)} bytes, {svgs} SVG charts, self-contained")


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    fail("chromium is not installed, so report.html cannot be screenshotted "
         "(Debian: apt-get install chromium; stand.sh installs it)")


def screenshot(chromium, html, png, profile):
    if os.path.exists(png):
        os.remove(png)
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--no-first-run", "--no-default-browser-check", "--disable-extensions",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={profile}", f"--screenshot={png}", f"--window-size={WIDTH},{HEIGHT}",
           "file://" + os.path.abspath(html)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    except subprocess.TimeoutExpired:
        fail("chromium took longer than 180 s to take the screenshot")
    if not os.path.isfile(png):
        fail(f"chromium wrote no {png} (exit {proc.returncode}): {proc.stderr.strip()[-2000:]}")


def _add_bytes(x, y, n):
    """Bytewise (x + y) mod 256 of two n-byte strings, all bytes at once."""
    low, high = int.from_bytes(b"\x7f" * n, "big"), int.from_bytes(b"\x80" * n, "big")
    a, b = int.from_bytes(x, "big"), int.from_bytes(y, "big")
    return bytearray((((a & low) + (b & low)) ^ ((a ^ b) & high)).to_bytes(n, "big"))


def _unfilter(kind, line, prev, bpp, path, y):
    n = len(line)
    if kind == 0:
        return line
    if kind == 2:
        return _add_bytes(line, prev, n)
    if kind == 1:
        for i in range(bpp, n):
            line[i] = (line[i] + line[i - bpp]) & 0xFF
    elif kind == 3:
        for i in range(n):
            line[i] = (line[i] + ((line[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 0xFF
    elif kind == 4:
        for i in range(bpp):
            line[i] = (line[i] + prev[i]) & 0xFF
        for i in range(bpp, n):
            a, b, c = line[i - bpp], prev[i], prev[i - bpp]
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else (b if pb <= pc else c))) & 0xFF
    else:
        fail(f"{path}: unknown filter type {kind} in row {y}")
    return line


def decode_png(path):
    """(width, height, bytes per pixel, rows of raw pixel bytes) of an 8-bit RGB or RGBA PNG."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{path} is not a PNG (signature {data[:8]!r})")
    pos, idat, header = 8, [], None
    while pos + 12 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if zlib.crc32(kind + body) != struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]:
            fail(f"{path}: bad CRC in chunk {kind!r}")
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    if header is None:
        fail(f"{path}: no IHDR chunk")
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace != 0:
        fail(f"{path}: unsupported PNG (bit depth {depth}, colour type {colour}, interlace {interlace})")
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    if len(raw) != height * (stride + 1):
        fail(f"{path}: {len(raw)} bytes of image data for {width}x{height}")
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        prev = _unfilter(raw[start], bytearray(raw[start + 1:start + 1 + stride]), prev, bpp, path, y)
        rows.append(prev)
    return width, height, bpp, rows


def colour_counts(rows, bpp):
    """{(r, g, b): pixels}; alpha, if any, is ignored (a screenshot is opaque)."""
    counts = collections.Counter()
    for row in rows:
        counts.update(zip(row[0::bpp], row[1::bpp], row[2::bpp]))
    return counts


def check_png(path):
    width, height, bpp, rows = decode_png(path)
    if (width, height) != (WIDTH, HEIGHT):
        fail(f"{path} is {width}x{height}, expected {WIDTH}x{HEIGHT}")
    counts = colour_counts(rows, bpp)
    total = width * height
    non_white = total - counts.get((255, 255, 255), 0)
    print(f"{path}: {width}x{height}, {len(counts)} distinct colours, "
          f"{100.0 * non_white / total:.1f} % not white")
    if len(counts) < 32:
        fail(f"{path} has only {len(counts)} distinct colours: the page looks blank")
    if non_white < total // 50:
        fail(f"{path} is {100.0 * non_white / total:.2f} % non-white: the page looks blank")
    for name, rgb in PLOT_COLOURS.items():
        near = sum(n for px, n in counts.items() if max(abs(px[i] - rgb[i]) for i in range(3)) <= 24)
        print(f"  pixels near {name}: {near}")
        if near < 300:
            fail(f"{path} shows the plot colour {name} on only {near} pixels: the charts did not draw")


FIT_WIDTH = 1400
# Runs in a copy of report.html only (the report itself has no script): every
# table's scrolling box and the page, as widths, into a <pre> --dump-dom prints.
LAYOUT_PROBE = """<script>
window.addEventListener("load", () => {
  const boxes = [...document.querySelectorAll("div.scroll")].map(d => [d.scrollWidth, d.clientWidth]);
  const page = [document.documentElement.scrollWidth, window.innerWidth];
  const first = document.querySelector("main > h1 + *");
  const pre = document.createElement("pre");
  pre.id = "layout-probe";
  pre.textContent = JSON.stringify({boxes, page, after_title: first ? first.className : ""});
  document.body.appendChild(pre);
});
</script>"""


def widen(fixture, run_copy):
    """The fixture with six plugins: each of its repetitions copied under long labels, numbers x1000, and a busy machine."""
    shutil.rmtree(run_copy, ignore_errors=True)
    shutil.copytree(fixture, run_copy)
    reps = sorted(glob.glob(os.path.join(run_copy, "reps", "*.json")))
    for i, label in enumerate(("haproxy-with-a-long-label", "caddy-with-a-long-label", "envoy-with-a-long-label")):
        for path in reps:
            rep = json.load(open(path))
            if rep.get("status") != "ok":
                continue
            rep["plugin"] = f"{label}-{rep['plugin']}"[:40] + str(i)
            rep["key"] = f"{rep['plugin']}_r{rep['rep']}"
            rep["metrics"] = {k: v * 1000.5 for k, v in rep.get("metrics", {}).items()}
            rep.setdefault("findings", []).append(
                {"id": "machine-busy", "scope": f"{rep['plugin']} rep {rep['rep']}", "message": "busy"})
            json.dump(rep, open(os.path.join(run_copy, "reps", rep["key"] + ".json"), "w"))


def check_fits(chromium, renderer, fixture, work):
    run_copy = os.path.join(work, "wide")
    widen(fixture, run_copy)
    html, _ = render_in_place(renderer, run_copy)
    probe = os.path.join(work, "wide-probe.html")
    with open(html, encoding="utf-8") as f:
        text = f.read()
    if "\u26a0" not in text:
        fail("the widened report flags no cell, though its repetitions had a machine-busy finding")
    with open(probe, "w", encoding="utf-8") as f:
        f.write(text.replace("</body>", LAYOUT_PROBE + "</body>"))
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
           f"--user-data-dir={os.path.join(work, 'chromium-profile')}", f"--window-size={FIT_WIDTH},900",
           "--virtual-time-budget=5000", "--dump-dom", "file://" + os.path.abspath(probe)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    found = re.search(r'<pre id="layout-probe">([^<]*)</pre>', proc.stdout)
    if not found:
        fail(f"chromium --dump-dom gave no layout probe (exit {proc.returncode}): {proc.stderr.strip()[-1000:]}")
    layout = json.loads(found.group(1).replace("&quot;", '"'))
    wide = [b for b in layout["boxes"] if b[0] > b[1]]
    print(f"layout at {FIT_WIDTH} px: {len(layout['boxes'])} tables, page {layout['page'][0]} px wide, "
          f"tables wider than their box: {wide}")
    if wide:
        fail(f"{len(wide)} table(s) scroll sideways in a {FIT_WIDTH}-pixel window (scroll width, box width): {wide}")
    if layout["page"][0] > layout["page"][1]:
        fail(f"the page is {layout['page'][0]} px wide in a {layout['page'][1]}-pixel window")
    if "verdict" not in layout["after_title"]:
        fail(f"the first thing after the title is {layout['after_title']!r}, not the verdict")


def render_in_place(renderer, run_copy):
    proc = subprocess.run([renderer, run_copy], capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        fail(f"{renderer} {run_copy} exited {proc.returncode}: {proc.stderr.strip()}")
    html = os.path.join(run_copy, "report.html")
    if not os.path.isfile(html):
        fail(f"{renderer} did not write {html}")
    with open(html, "rb") as f:
        return html, f.read()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--renderer", required=True)
    ap.add_argument("--fixture", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()

    os.makedirs(args.work, exist_ok=True)
    run_copy = os.path.join(args.work, "run")
    html, first = render(args.renderer, args.fixture, run_copy)
    _, second = render(args.renderer, args.fixture, run_copy)
    if first != second:
        fail("rendering the same run twice gave different report.html bytes")
    check_html(first.decode("utf-8"))

    chromium = find_chromium()
    png = os.path.join(args.work, "report.png")
    screenshot(chromium, html, png, os.path.join(args.work, "chromium-profile"))
    check_png(png)
    check_fits(chromium, args.renderer, args.fixture, args.work)
    print(f"PASS: {png}")


if __name__ == "__main__":
    main()
