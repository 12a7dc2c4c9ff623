#!/usr/bin/env python3
"""Reads the text output of `swift package benchmark` (stdin or a file) and prints the p50 wall-clock time
of each benchmark, the ratios issues 4 and 14 set targets for, and whether each target is met.

    swift package benchmark --no-progress 2>&1 | tee /tmp/run.txt
    python3 scripts/summary.py /tmp/run.txt
"""
import re
import sys

UNITS = {"ns": 0.001, "μs": 1.0, "us": 1.0, "ms": 1000.0, "s": 1_000_000.0}


def p50s(text):
    """{benchmark name: p50 wall clock in µs}"""
    results, name, previous = {}, None, ""
    for line in text.splitlines():
        if line.startswith("╒"):
            name = previous.strip()
        match = re.match(r"│ Time \(wall clock\) \((\S+)\)\s*\*?\s*│(.*)", line)
        if match and name:
            values = [v.strip() for v in match.group(2).split("│") if v.strip()]
            results[name] = float(values[2].replace(",", "")) * UNITS[match.group(1)]  # p0, p25, p50, ...
        if line.strip():
            previous = line
    return results


def find(results, prefix):
    for name, value in results.items():
        if name.startswith(prefix):
            return value
    return None


def main():
    text = open(sys.argv[1], encoding="utf-8").read() if len(sys.argv) > 1 else sys.stdin.read()
    results = p50s(text)
    width = max(map(len, results), default=10)
    print(f"{'benchmark':<{width}}  p50 (µs)")
    for name, value in results.items():
        print(f"{name:<{width}}  {value:10.2f}")

    pixman = find(results, "Baseline: raw pixman, 3 layers (")
    pixman_copy = find(results, "Baseline: raw pixman, 3 layers + SRC copy")
    full = find(results, "Compositor: full frame (painted in place")
    scanout = find(results, "Compositor: full frame, scanout output")
    update = find(results, "Compositor: 200x200 update")
    moved = find(results, "Compositor: 200x200 view moved")
    scale_up_pixman = find(results, "Baseline: raw pixman, 600x400 scale-up")
    scale_up = find(results, "Bitmap: 600x400 scale-up")
    cross_fade_pixman = find(results, "Baseline: raw pixman, cross-fade (")
    cross_fade_pixman_copy = find(results, "Baseline: raw pixman, cross-fade + SRC copy")
    cross_fade_pixman_black = find(results, "Baseline: raw pixman, cross-fade frame on black")
    cross_fade = find(results, "Compositor: cross-fade of 2 full-screen windows (painted in place")
    cross_fade_scanout = find(results, "Compositor: cross-fade of 2 full-screen windows, scanout output")
    table_pixman = find(results, "Baseline: raw pixman, table scroll frame (")
    table_pixman_copy = find(results, "Baseline: raw pixman, table scroll frame + SRC copy")
    table = find(results, "Compositor: table scroll frame, 1920x1080")
    table_scanout = find(results, "Compositor: table scroll frame, scanout output")
    hit_test = find(results, "Hit test: 100 windows x 100 views, frontmostWindow")
    touch_down = find(results, "Touch: touch-down through 100 views (")
    touch_down_gestures = find(results, "Touch: touch-down through 100 views with gesture recognizers")
    tap = find(results, "Touch: one tap from Touch")
    tap_gestures = find(results, "Touch: one tap with gesture recognizers")
    print()

    def ratio(label, a, b, limit=None, percent=False):
        if a is None or b is None:
            return
        value = a / b
        shown = f"{value * 100:.1f} %" if percent else f"{value:.2f}x"
        verdict = "" if limit is None else ("  target met" if value <= limit else "  TARGET MISSED")
        target = "" if limit is None else (f" (target <= {limit * 100:.0f} %)" if percent else f" (target <= {limit}x)")
        print(f"{label}: {shown}{target}{verdict}")

    ratio("full frame / raw pixman 3 layers", full, pixman, 1.2)
    ratio("full frame on a scanout output / (raw pixman 3 layers + one frame copy)", scanout, pixman_copy, 1.2)
    ratio("200x200 update / full frame", update, full, 0.05, percent=True)
    ratio("200x200 view moved / full frame", moved, full, 0.05, percent=True)
    ratio("600x400 scale-up, composite(_:transform:) / raw pixman", scale_up, scale_up_pixman, 1.0)
    ratio("cross-fade of 2 full-screen windows / raw pixman 2 composites", cross_fade, cross_fade_pixman, 1.0)
    ratio("cross-fade of 2 full-screen windows / raw pixman frame on black (fill + 2 composites)", cross_fade,
          cross_fade_pixman_black, 1.0)
    ratio(
        "cross-fade on a scanout output / (raw pixman 2 composites + one frame copy)",
        cross_fade_scanout, cross_fade_pixman_copy, 1.0)
    ratio("table scroll frame / raw pixman (the same 49 fills + 25 OVER)", table, table_pixman, 1.0)
    ratio("table scroll frame on a scanout output / (raw pixman + one frame copy)", table_scanout, table_pixman_copy, 1.0)
    ratio("touch-down with gesture recognizers / without", touch_down_gestures, touch_down)
    ratio("touch-down without recognizers / hit test alone (frontmostWindow)", touch_down, hit_test)
    ratio("touch-down with recognizers / hit test alone (frontmostWindow)", touch_down_gestures, hit_test)
    ratio("tap with gesture recognizers / without", tap_gestures, tap)
    for name, value in results.items():
        if name.startswith("Touch:"):
            print(f"{name}: {value:.2f} µs (in process; the system test measures kernel -> view)")
        if name.startswith("Hit test"):
            print(f"{name}: {value:.2f} µs (target < 10 µs){'  target met' if value < 10 else '  TARGET MISSED'}")


if __name__ == "__main__":
    main()
