"""Displays: the kiosk's DRM/KMS backend against virtio-gpu: connectors, modes, modesets, pixels, fbdev, restore."""

import json
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from kioskvm import drm, image
from kioskvm.scenario import expect

GUEST = dict(heads=2)
TIMEOUT = 420

REPO = Path(__file__).resolve().parents[3]
KIOSK = REPO / ".build" / "debug" / "kiosk"
# libseat's builtin backend: the guest runs as root with no logind or seatd (shared/vm/README.md).
SEAT = {"LIBSEAT_BACKEND": "builtin"}
# The status bar's clock (HH:MM at its left) is the one part that may differ between two renderings.
CLOCK = (0, 0, 80, 40)


def screens_json(guest):
    r = guest.run(f"{KIOSK} screens --json", timeout=60).check()
    return json.loads(r.stdout)


def reference(screens, size_of=None):
    """The same kiosk rendered by the headless backend on the host, for `screens` = [(name, "WxH@Hz")]:
    what the display must show, pixel for pixel."""
    folder = Path(tempfile.mkdtemp(prefix="kiosk-reference-"))
    args = [str(KIOSK), "run", "--backend", "headless", "--snapshot-dir", str(folder), "--exit-after", "1"]
    for name, mode in screens:
        args += ["--headless-screen", f"{name}={mode}"]
    subprocess.run(args, check=True, capture_output=True, timeout=60, env={"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"})
    return {name: image.load(folder / f"{name}.png") for name, _ in screens}


def run_kiosk(guest, args, env=None):
    """Starts the kiosk (exec'd, so signals reach it alone) with a trace; returns (process, trace path)."""
    trace = Path(guest.job_dir) / f"trace-{time.monotonic_ns()}.jsonl"
    cmd = f"exec {KIOSK} run {args} --trace {guest.guest_path(trace)}"
    return guest.spawn(cmd, env={**SEAT, **(env or {})}), trace


def wait_for_frames(trace, screens, timeout=60):
    """Until the trace shows a frame for each screen, then a moment for the flip to reach the display."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if trace.exists():
            events = [json.loads(l) for l in trace.read_text().splitlines() if l.strip()]
            done = {e["screen"] for e in events if e["event"] == "frame"}
            if all(s in done for s in screens):
                time.sleep(1.0)
                return events
        time.sleep(0.2)
    raise AssertionError(f"no frame on {screens} within {timeout} s; trace: {trace.read_text() if trace.exists() else 'none'}")


def stop(process):
    process.signal(signal.SIGTERM, group=False)
    result = process.wait(30)
    expect(result.status == 0, result)
    return result


def same_pixels(actual, expected, mask=CLOCK):
    """Every pixel equal except inside `mask`."""
    expect(actual.size == expected.size, f"size {actual.size}, expected {expected.size}")
    mx, my, mw, mh = mask
    mismatches, first = 0, None
    for y in range(actual.height):
        for x in range(actual.width):
            if mx <= x < mx + mw and my <= y < my + mh:
                continue
            if actual.color_at(x, y) != expected.color_at(x, y):
                mismatches += 1
                first = first or (x, y, actual.color_at(x, y), expected.color_at(x, y))
    expect(mismatches == 0, f"{mismatches} pixels differ; first at {first[:2]}: {first[2]} instead of {first[3]}" if first else "")


def mode_spelling(connector, width, height):
    """`WxH@Hz` with the exact refresh the kernel offers for that size (the status bar prints it)."""
    mode = next(m for m in connector["modes"] if (m["width"], m["height"]) == (width, height))
    return f"{width}x{height}@{mode['refresh']}"


def check_screens_json_agrees_with_the_kernel(guest):
    listed = screens_json(guest)
    by_name = {c["name"]: c for c in listed}
    expect(set(by_name) == {"Virtual-1", "Virtual-2"}, f"connectors {sorted(by_name)}")
    for name, c in by_name.items():
        expect(c["card"] == "card0", c)
        # kiosk screens probed them, so sysfs is fresh now; its modes file lists WxH in the kernel's order.
        status = guest.run(f"cat /sys/class/drm/card0-{name}/status").check().stdout.strip()
        sysfs_modes = guest.run(f"cat /sys/class/drm/card0-{name}/modes").check().stdout.split()
        expect(c["status"] == status, f"{name}: status {c['status']}, sysfs says {status}")
        expect([f"{m['width']}x{m['height']}" for m in c["modes"]] == sysfs_modes,
               f"{name}: modes differ from sysfs:\n{[m['width'] for m in c['modes']]}\n{sysfs_modes}")
    # A second opinion: the bed's own libdrm program.
    other = drm.connectors(guest)
    for name, c in by_name.items():
        expect(other[name].status == c["status"], f"{name}: {other[name].status} vs {c['status']}")
        expect(other[name].modes == [(m["width"], m["height"]) for m in c["modes"]], f"{name}: modes differ from drmframe")
        preferred = [(m["width"], m["height"]) for m in c["modes"] if m["preferred"]]
        expect(other[name].preferred == (preferred[0] if preferred else None), f"{name}: preferred differs")
    v1 = by_name["Virtual-1"]
    expect(v1["physical_width_mm"] > 0 and v1["edid"] and v1["edid"]["make"] == "RHT", v1)
    expect(all(abs(m["refresh"] - 60) < 1.5 or m["refresh"] > 20 for m in v1["modes"]), v1["modes"])
    expect(by_name["Virtual-2"]["modes"] == [] and by_name["Virtual-2"]["current"] is None, by_name["Virtual-2"])


def check_configured_mode_is_applied_atomic(guest):
    v1 = {c["name"]: c for c in screens_json(guest)}["Virtual-1"]
    mode = mode_spelling(v1, 1024, 768)
    process, trace = run_kiosk(guest, "--backend drm --mode Virtual-1=1024x768")
    events = wait_for_frames(trace, ["Virtual-1"])
    connect = next(e for e in events if e["event"] == "screen.connect")
    expect(connect["screen"] == "Virtual-1" and connect["width"] == 1024 and connect["height"] == 768, connect)
    shown = image.load(guest.screendump(0, Path(guest.job_dir) / "atomic.png"))
    result = stop(process)
    expect("atomic modesetting" in result.stderr, result.stderr)
    same_pixels(shown, reference([("Virtual-1", mode)])["Virtual-1"])


def check_legacy_path(guest):
    v1 = {c["name"]: c for c in screens_json(guest)}["Virtual-1"]
    mode = mode_spelling(v1, 800, 600)
    process, trace = run_kiosk(guest, "--backend drm --mode Virtual-1=800x600", env={"KIOSK_NO_ATOMIC": "1"})
    wait_for_frames(trace, ["Virtual-1"])
    shown = image.load(guest.screendump(0, Path(guest.job_dir) / "legacy.png"))
    result = stop(process)
    expect("legacy modesetting" in result.stderr, result.stderr)
    same_pixels(shown, reference([("Virtual-1", mode)])["Virtual-1"])


def check_console_comes_back_after_sigterm(guest):
    # The previous checks stopped the kiosk with SIGTERM: the console's mode and framebuffer are back.
    after = image.load(guest.screendump(0, Path(guest.job_dir) / "console.png"))
    expect(after.size == (1280, 800), f"head 0 shows {after.size}, not the console's 1280x800")
    expect(after.color_at(5, 300) != (242, 242, 247), "head 0 still shows the kiosk")
    r = guest.run("cat /sys/class/graphics/fb0/virtual_size; cat /sys/class/vtconsole/vtcon1/bind").check()
    expect(r.stdout.split()[0] == "1280,800" and r.stdout.split()[1] == "1", f"fbcon state: {r.stdout}")


def check_two_heads_with_different_modes(guest):
    guest.set_head_size(1, 1024, 768)
    deadline = time.time() + 30
    while time.time() < deadline:
        listed = {c["name"]: c for c in screens_json(guest)}
        if listed["Virtual-2"]["status"] == "connected":
            break
        time.sleep(1)
    expect(listed["Virtual-2"]["status"] == "connected", listed["Virtual-2"])
    main_mode = mode_spelling(listed["Virtual-1"], 1280, 800)
    second_mode = mode_spelling(listed["Virtual-2"], 1024, 768)
    process, trace = run_kiosk(guest, "--backend drm --mode Virtual-1=1280x800 --mode Virtual-2=1024x768")
    wait_for_frames(trace, ["Virtual-1", "Virtual-2"])
    head0 = image.load(guest.screendump(0, Path(guest.job_dir) / "two-0.png"))
    head1 = image.load(guest.screendump(1, Path(guest.job_dir) / "two-1.png"))
    result = stop(process)
    expect("Virtual-2" in result.stderr and "lit 1024x768" in result.stderr, result.stderr)
    expected = reference([("Virtual-1", main_mode), ("Virtual-2", second_mode)])
    same_pixels(head0, expected["Virtual-1"])
    same_pixels(head1, expected["Virtual-2"], mask=(0, 0, 0, 0))
    guest.disconnect_head(1)


def check_fbdev_fallback(guest):
    # No usable KMS card (the requested device is not one): auto falls back to the DRM driver's /dev/fb0.
    process, trace = run_kiosk(guest, "--backend auto", env={"KIOSK_DRM_DEVICE": "/dev/null"})
    wait_for_frames(trace, ["fb0"])
    shown = image.load(guest.screendump(0, Path(guest.job_dir) / "fbdev.png"))
    result = stop(process)
    expect("using the fbdev backend on /dev/fb0" in result.stderr, result.stderr)
    expect("/dev/null: not a modesetting device" in result.stderr or "/dev/null" in result.stderr, result.stderr)
    # fbdev reports no refresh rate, so the status bar differs from any headless mode: compare below it.
    same_pixels(shown, reference([("fb0", "1280x800@60")])["fb0"], mask=(0, 0, 1280, 40))
