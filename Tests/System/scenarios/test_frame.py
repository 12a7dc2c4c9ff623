"""A frame put on head 0 by a DRM program reads back pixel-exact through QMP screendump; head 1 too after hotplug."""

import time

from kioskvm import drm
from kioskvm.scenario import expect

GUEST = dict(heads=2)

frame = None          # drmframe on Virtual-1
ready = None          # its READY line (re.Match)
size = None           # its mode


def screenshot_matching(guest, head, want, want_size, timeout=30.0):
    """Screendump head until it equals `want` (RGB bytes of want_size) or the time is up; returns
    (image, comparison or None if the size differs). The guest's SetCrtc returns before QEMU has
    necessarily shown the new scanout, so the first dump may still be the console."""
    deadline = time.monotonic() + timeout
    while True:
        img = guest.screenshot(head)
        cmp = img.compare(want) if img.size == want_size else None
        if cmp or time.monotonic() > deadline:
            return img, cmp
        time.sleep(0.2)     # each dump stalls the guest 5-10 ms: poll no faster (recipe)


def start_frame(guest):
    """drmframe on head 0, started once (any check may come first with -k); returns its READY match."""
    global frame, size, ready
    if frame is None:
        frame = guest.spawn("drmframe")
        ready = frame.wait_for_output(r"READY (\d+)x(\d+) (\S+)", 60)
        size = (int(ready[1]), int(ready[2]))
    return ready


def check_drmframe_sets_preferred_mode(guest):
    m = start_frame(guest)
    expect(m[3] == "Virtual-1", f"drmframe used {m[3]}")
    expect(size == (1280, 800), f"mode {size}")


def check_screendump_has_mode_size(guest):
    start_frame(guest)
    img = guest.screenshot(0)
    expect(img.size == size, f"screendump is {img.size}, mode is {size}")


def check_screendump_pixel_exact(guest):
    start_frame(guest)
    img, cmp = screenshot_matching(guest, 0, drm.frame_pattern(*size), size)
    expect(cmp is not None, f"screendump size {img.size}")
    if not cmp:
        img.save_ppm(guest.job_dir / "head0-got.ppm")
    expect(cmp, cmp)


def check_colour_bars_and_gradient(guest):
    # The point and region checks on known parts of the pattern (what kiosk tests will use most).
    start_frame(guest)
    img, _ = screenshot_matching(guest, 0, drm.frame_pattern(*size), size)
    w, h = size
    bars = ["#ffffff", "#ffff00", "#00ffff", "#00ff00", "#ff00ff", "#ff0000", "#0000ff", "#000000"]
    for i, colour in enumerate(bars):
        x0 = -(-i * w // 8)                          # first column of bar i: ceil(i*w/8)
        x1 = -(-(i + 1) * w // 8)
        img.region_is((x0, 0, x1 - x0, h // 4), colour).expect()
    expect(img.color_at(w - 1, h - 1) == (255, 255, (w - 1 ^ h - 1) & 255), f"corner {img.color_at(w - 1, h - 1)}")
    expect(img.color_at(0, h // 4) == (0, (h // 4) * 255 // (h - 1), (h // 4) & 255), "gradient start")
    # and a mismatch explains itself
    bad = img.region_is((0, 0, 10, 10), "#000000")
    expect(not bad and "100 of 100 pixels differ" in str(bad) and "got #ffffff" in str(bad), str(bad))


def check_drmframe_exits_when_stdin_closes(guest):
    start_frame(guest)
    frame.close_stdin()
    r = frame.wait(20)
    expect(r.ok and "DONE" in r.stdout, r)


def check_head1_after_hotplug_shows_solid_fill(guest):
    guest.set_head_size(1, 800, 600)
    deadline = time.monotonic() + 60
    while not (c := guest.run("drmframe --list").stdout).count("Virtual-2 connected"):
        expect(time.monotonic() < deadline, f"Virtual-2 never connected:\n{c}")
        time.sleep(0.2)
    with guest.spawn("drmframe --connector Virtual-2 --fill 336699") as p:
        m = p.wait_for_output(r"READY (\d+)x(\d+) Virtual-2", 60)
        expect((int(m[1]), int(m[2])) == (800, 600), f"mode {m[1]}x{m[2]}")
        deadline = time.monotonic() + 30
        while True:
            img = guest.screenshot(1)
            ok = img.size == (800, 600) and img.region_is((0, 0, 800, 600), "#336699")
            if ok or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        expect(img.size == (800, 600), f"head 1 screendump is {img.size}")
        img.region_is((0, 0, 800, 600), "#336699").expect()
