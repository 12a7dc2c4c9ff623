"""Host-only self-tests of the bed's own parsers and encoders (no VM): PNG/PPM, pixel checks, output parsers, the
/proc resources reader and the trace follower."""

import struct
import tempfile
import zlib
from pathlib import Path

from kioskvm import drm, image, touch
from kioskvm.build import Cpio
from kioskvm.scenario import expect

GUEST = None


def _png(width, height, rgb: bytes, channels=3, filters=(0, 1, 2, 3, 4)) -> bytes:
    """Encode a PNG, cycling through every filter type row by row (the decoder must undo each)."""
    bpp, stride = channels, width * channels
    raw, prev = bytearray(), bytes(stride)
    for y in range(height):
        line = rgb[y * stride:(y + 1) * stride]
        f = filters[y % len(filters)]
        out = bytearray(stride)
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 0:
                pred = 0
            elif f == 1:
                pred = a
            elif f == 2:
                pred = b
            elif f == 3:
                pred = (a + b) >> 1
            else:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            out[i] = (line[i] - pred) & 255
        raw += bytes([f]) + out
        prev = line

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    colour_type = {3: 2, 4: 6}[channels]
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(raw))) + chunk(b"IEND", b""))


def _noise(n, seed=12345):
    out, x = bytearray(n), seed
    for i in range(n):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        out[i] = (x >> 16) & 255
    return bytes(out)


def check_png_all_filters_rgb():
    w, h = 37, 23
    px = _noise(w * h * 3)
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "t.png"
        p.write_bytes(_png(w, h, px))
        img = image.load(p)
    expect(img.size == (w, h), img.size)
    img.compare(px).expect()


def check_png_rgba_drops_alpha():
    w, h = 5, 4
    rgba = _noise(w * h * 4, seed=7)
    rgb = bytearray(w * h * 3)
    rgb[0::3], rgb[1::3], rgb[2::3] = rgba[0::4], rgba[1::4], rgba[2::4]
    w_, h_, px = image.decode_png(_png(w, h, rgba, channels=4))
    expect((w_, h_) == (w, h) and px == bytes(rgb), "RGBA decode")


def check_ppm_round_trip():
    img = image.Image(3, 2, bytes(range(18)))
    with tempfile.TemporaryDirectory() as d:
        back = image.load(img.save_ppm(Path(d) / "x.ppm"))
    expect(back.size == (3, 2) and back.pixels == img.pixels, "PPM round trip")


def check_comparisons_explain_mismatches():
    img = image.Image(4, 4, bytes([10, 20, 30]) * 16)
    expect(img.region_is((0, 0, 4, 4), (10, 20, 30)), "uniform region")
    expect(img.region_is((1, 1, 2, 2), "#0b141e", tolerance=1), "tolerance 1")
    bad = img.region_is((0, 0, 4, 4), 0x0A141F)
    expect(not bad and bad.mismatches == 16 and bad.first == (0, 0, (10, 20, 30), (10, 20, 31)), str(bad))
    other = bytearray(img.pixels)
    other[3 * 6:3 * 6 + 3] = b"\xff\x00\x00"        # pixel (2, 1)
    cmp = img.compare(bytes(other))
    expect(not cmp and cmp.mismatches == 1 and "first at (2, 1)" in str(cmp), str(cmp))
    expect(img.compare(bytes(other), ignore=[(2, 0, 1, 4)]), "ignore rect")
    expect(not img.compare(bytes(other), ignore=[(0, 0, 2, 4)]), "ignore elsewhere")
    try:
        cmp.expect()
    except AssertionError as e:
        expect("1 of 16 pixels differ" in str(e), str(e))
    else:
        raise AssertionError("expect() did not raise")


def check_frame_pattern_matches_drmframe_formula():
    w, h = 64, 40
    px = drm.frame_pattern(w, h)
    img = image.Image(w, h, px)
    expect(img.color_at(0, 0) == (255, 255, 255) and img.color_at(63, 9) == (0, 0, 0), "bars")
    expect(img.color_at(63, 39) == (255, 255, (63 ^ 39) & 255), "corner")
    expect(img.color_at(10, 20) == (10 * 255 // 63, 20 * 255 // 39, 10 ^ 20), "gradient")


def check_parsers():
    conns = drm.parse_drmframe_list("Virtual-1 connected id=34 modes=1280x800*,1024x768\n"
                                    "Virtual-2 disconnected id=39 modes=\n")
    expect(conns["Virtual-1"].preferred == (1280, 800) and conns["Virtual-1"].modes[1] == (1024, 768), conns)
    expect(not conns["Virtual-2"].connected and conns["Virtual-2"].modes == [], conns)
    evs = touch.parse_debug_events(
        "-event1   DEVICE_ADDED            kioskvm touchscreen   seat0 default group2  cap:t  size 256x160mm\n"
        " event1   TOUCH_DOWN              +1.214s\t0 (0) 24.99/49.98 (64.00/80.00mm)\n"
        " event1   TOUCH_FRAME             +1.214s\t\n"
        " event1   TOUCH_UP                +1.265s\t1 (1)\n")
    expect([e.type for e in evs] == ["DEVICE_ADDED", "TOUCH_DOWN", "TOUCH_FRAME", "TOUCH_UP"], evs)
    d = evs[1]
    expect((d.slot, d.seat_slot, d.x_mm, d.y_mm, d.x_pct, d.time) == (0, 0, 64.0, 80.0, 24.99, 1.214), d)
    expect(evs[3].slot == 1 and evs[3].x_mm is None, evs[3])
    ue = drm.parse_udevadm_monitor("KERNEL[18.67] change   /devices/x/drm/card0 (drm)\nACTION=change\nHOTPLUG=1\n\n"
                                   "UDEV  [18.76] change   /devices/x/drm/card0 (drm)\nHOTPLUG=1\nTAGS=:seat:\n\n")
    expect([(e.source, e.props.get("HOTPLUG")) for e in ue] == [("KERNEL", "1"), ("UDEV", "1")], ue)
    partial = drm.parse_udevadm_monitor("KERNEL[1.0] change   /x (drm)\nHOTPLUG=1\n\nUDEV  [1.1] change   /x (drm)\nHOTPLUG=1\n")
    expect([e.source for e in partial] == ["KERNEL"], f"a block without its blank line counted: {partial}")
    g = touch.DeviceGeometry(size_mm=(256, 160))
    expect(g.units(0.5, 0.5) == (2048, 1280) and g.mm(0.25, 0.5) == (64.0, 80.0), g.mm(0.25, 0.5))


def check_cpio_newc_layout():
    c = Cpio()
    c.dir("bin")
    c.file("bin/x", b"abc", 0o755)
    c.chardev("dev/console", 5, 1)
    data = c.finish()
    expect(data.startswith(b"070701") and len(data) % 4 == 0, "newc header / padding")
    expect(b"TRAILER!!!\0" in data and b"bin/x\0" in data, "names")
    # the console node: mode 020600, rdev 5:1
    i = data.index(b"dev/console\0") - 110
    fields = [int(data[i + 6 + 8 * k:i + 14 + 8 * k], 16) for k in range(13)]
    expect(fields[1] == 0o020600 and (fields[9], fields[10]) == (5, 1), fields)


def check_resources_see_fds_threads_timerfds_and_mappings():
    """measure.resources() on the host's own /proc: a timerfd armed, a thread and 64 MiB mapped are each seen
    and named by Resources.differences, and the fds, timerfds and threads are as before once closed."""
    import ctypes
    import mmap
    import os
    import threading
    import time
    from kioskvm import measure

    libc = ctypes.CDLL(None, use_errno=True)

    class Spec(ctypes.Structure):
        _fields_ = [("interval_s", ctypes.c_long), ("interval_ns", ctypes.c_long), ("value_s", ctypes.c_long), ("value_ns", ctypes.c_long)]

    def now():
        return measure.Resources(measure.resources(os.getpid()))
    before = now()
    expect(before.pid == os.getpid() and before.rss_kib > 0 and before.maps > 0, before)
    fd = libc.timerfd_create(1, 0o2000000)          # CLOCK_MONOTONIC, TFD_CLOEXEC
    expect(fd >= 0, f"timerfd_create: errno {ctypes.get_errno()}")
    expect(libc.timerfd_settime(fd, 0, ctypes.byref(Spec(0, 0, 3600, 0)), None) == 0, "timerfd_settime")
    # Private and anonymous, as the kiosk maps a bitmap (Python's mmap module maps /dev/zero shared).
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    region = libc.mmap(None, 64 << 20, mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1, 0)
    expect(region not in (None, ctypes.c_void_p(-1).value), f"mmap: errno {ctypes.get_errno()}")
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        during = now()
        found = "\n".join(during.differences(before))
        timerfds = during.fd_kinds.get("anon_inode:[timerfd]", 0)
        expect(during.fds == before.fds + 1 and timerfds == before.fd_kinds.get("anon_inode:[timerfd]", 0) + 1, found)
        expect((1, True, "(0,0)") in during.timer_key() and "timerfds" in found, found)
        expect(during.thread_count == before.thread_count + 1 and "threads" in found, found)
        expect(during.anonymous_kib >= before.anonymous_kib + (64 << 10) and "anonymous mappings" in found, found)
    finally:
        stop.set()
        thread.join()
        libc.munmap(region, 64 << 20)
        os.close(fd)
    deadline = time.monotonic() + 5                 # the thread's exit is the kernel's, a moment after join
    while now().thread_count != before.thread_count and time.monotonic() < deadline:
        time.sleep(0.01)
    after = now()
    expect(not [d for d in after.differences(before) if not d.startswith("anonymous")], after.differences(before))
    expect(after.anonymous_kib <= during.anonymous_kib - (64 << 10), f"{during.anonymous_kib} -> {after.anonymous_kib} KiB")


def check_trace_follower_reads_what_was_added():
    """TraceFollower parses only complete lines, picks up where it stopped, and counts animations in flight
    (an ended one until a frame follows it)."""
    import json as json_
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from scenarios_support import TraceFollower
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "trace.jsonl"
        follower = TraceFollower(path)
        expect(follower.mark() == 0 and follower.in_flight() == 0, "no file: nothing")
        lines = [{"event": "animation.begin"}, {"event": "frame", "screen": "A", "number": 1},
                 {"event": "animation.end"}, {"event": "frame", "screen": "B", "number": 1}]
        text = "".join(json_.dumps(l) + "\n" for l in lines)
        cut = text.index("\n", text.index("animation.end")) + 5      # part of the last line
        path.write_text(text[:cut])
        expect(follower.mark() == 3 and follower.in_flight() == 1, f"{follower.events}, in flight {follower.in_flight()}")
        with open(path, "a") as f:
            f.write(text[cut:])
        expect(follower.since(1, "frame") == lines[1:2] + lines[3:] and follower.since(0, "frame", "B", number=1) == lines[3:],
               follower.events)
        expect(follower.in_flight() == 0 and follower.mark() == 4, follower.events)
