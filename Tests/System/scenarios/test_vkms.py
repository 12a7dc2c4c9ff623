"""vkms (built from Debian's linux-source) as a card with planes, its composition read back through writeback.

Loaded with its cursor, overlay and writeback options (build.SOURCE_MODULES) beside virtio-gpu it is card1
(Virtual-2, Writeback-1), alone card0; it has a
primary, 8 overlay and a cursor plane and a writeback connector, with no zpos or blend-mode property, and the
`rotation` property of vc4 (rotate-0, rotate-180, reflect-x, reflect-y) and a `max_planes` limit that the bed's
patch gives it (build.SOURCE_PATCHES); it refuses the display and the writeback connector on one CRTC; a frame
of primary, overlay and cursor read back
through writeback (guest/drmplanes) equals, pixel for pixel, the composition computed here (drm.compose_planes:
premultiplied ARGB over XRGB in vkms's own 16-bit arithmetic); the cursor moved (CRTC_X/Y, clipped at the edges
too) reads back moved. The kiosk on the vkms card puts the demo's logo (`[app-settings] logo-on-plane`) on an
overlay plane and its cursor on the cursor plane: vkms's own CRC of the frame it composes (debugfs) equals the
CRC of the kiosk's screenshot, which equals the headless rendering; the cursor plane follows the tablet with no
frames composed. With the screen turned by 180 or mirrored, the kiosk has the primary plane turn its frames
(the plane's rotation in the kernel's state) and vkms's CRC again equals the screenshot and the headless
rendering; with vkms's `max_planes` at 2 the kernel refuses the logo's overlay with the cursor (ENOSPC) and the
kiosk keeps the cursor's plane and composes the logo; at 1 it composes both, and the CRC equals the screenshot.
(vkms 6.1 cannot write back the CRTC a display connector is on, so the kiosk's frames are
checked by vkms's CRC, which it computes over the same 16-bit line buffer it writes back.)"""

import json
import re
import time
import zlib
from pathlib import Path

from kioskvm import Guest, drm, image
from kioskvm.measure import avoid_the_minute
from kioskvm.scenario import expect, note
from scenarios_support import (CLOCK, KIOSK, mode_spelling, move_tablet, plane_positions, reference, run_kiosk, same_pixels,
                               screens_json, stop, trace_events, wait_for_frames, wait_until)

# virtio-gpu's one head is card0 (Virtual-1): vkms comes after it.
GUEST = dict(heads=1, devices=["virtio-tablet-pci"])
TIMEOUT = 480

MODPROBE = "modprobe vkms enable_cursor=1 enable_overlay=1 enable_writeback=1"
VKMS = "/dev/dri/by-path/platform-vkms-card"     # udev's name for the card, whatever its number
MODE = (1024, 768)                               # vkms's preferred mode
OVERLAY = drm.Layer("overlay", 96, 128, 320, 200)
CURSOR = drm.Layer("cursor", 352, 288, 64, 64)   # over the overlay's right edge: cursor over overlay over primary
MOVES = ((150, 250), (700, 500), (990, 730), (-24, -16))
# The demo's settings with its logo on an overlay plane, without the welcome alert (whose dimmed backdrop over
# the whole screen would cover it); the logo's frame there: (width / 2 - 48, 210), 96x96.
LOGO_ON_PLANE = "[app-settings]\nlogo-on-plane = true\nwelcome = false\n"
LOGO = (1024 // 2 - 48, 210, 96, 96)
# The `rotation` property the bed's patch gives every vkms plane: vc4's, in the kernel's order of the bits.
VC4_ROTATIONS = ["rotate-0", "rotate-180", "reflect-x", "reflect-y"]
# Generous for a loaded host: vkms composes in a worker at its next (emulated) vblank.
WAIT = 60

state = {}


def load_vkms(guest):
    """Loads vkms once (from the image's extras, see build.SOURCE_MODULES)."""
    if "loaded" not in state:
        guest.run(f"{MODPROBE} && udevadm settle", timeout=120).check()
        state["loaded"] = True


def card_json(guest, device=VKMS):
    return json.loads(guest.run(f"drmplanes --list --device {device}", timeout=60).check().stdout)


def placement(layer):
    return f"{layer.x},{layer.y},{layer.width}x{layer.height}"


def capture_path(guest, name):
    folder = Path(guest.job_dir) / "vkms"
    folder.mkdir(exist_ok=True)
    return folder / f"{name}.ppm"


def frame(guest):
    """drmplanes holding the frame (primary, OVERLAY, CURSOR) on the vkms card, started on first use with the
    first read-back (state["first"])."""
    if "frame" not in state:
        load_vkms(guest)
        first = capture_path(guest, "first")
        p = guest.spawn(f"exec drmplanes --device {VKMS} --overlay {placement(OVERLAY)} --cursor {placement(CURSOR)} "
                        f"--capture {first} --timeout {WAIT * 1000}")
        state["ready"] = p.wait_for_output(r"^READY .*$", timeout=WAIT).group(0)
        p.wait_for_output(rf"^CAPTURED {re.escape(str(first))}$", timeout=WAIT)
        state["frame"], state["first"] = p, first
    return state["frame"]


def read_back(guest, name):
    """A writeback job on the frame as it is now: the read-back image."""
    path = capture_path(guest, name)
    p = frame(guest)
    p.write(f"capture {path}\n")
    p.wait_for_output(rf"^CAPTURED {re.escape(str(path))}$", timeout=WAIT)
    return image.load(path)


def expect_composed(shown, layers, what):
    """The read-back equals the host's composition, pixel for pixel."""
    expected = drm.compose_planes(*MODE, layers)
    expect(shown.size == MODE, f"{what}: read back {shown.size}, the mode is {MODE}")
    comparison = shown.compare(expected)
    expect(comparison, f"{what}: the read-back is not the composition of {layers}: {comparison}")


def check_vkms_loads_with_cursor_overlay_and_writeback(guest):
    release = guest.run("uname -r", timeout=30).check().stdout.strip()
    info = guest.run("modinfo -F filename vkms; modinfo -F vermagic vkms; modinfo -F depends vkms; modinfo -p vkms",
                     timeout=60).check().stdout
    filename, vermagic, depends, *params = info.splitlines()
    expect(filename == f"/lib/modules/{release}/updates/vkms.ko", f"modinfo's vkms is {filename}")
    expect(vermagic.split()[0] == release, f"vkms's vermagic {vermagic!r}, the kernel is {release}")
    expect(set(depends.split(",")) == {"drm", "drm_kms_helper", "drm_shmem_helper"}, f"vkms depends on {depends}")
    for name in ("enable_cursor", "enable_overlay", "enable_writeback", "max_planes"):
        expect(any(p.startswith(f"{name}:") for p in params), f"vkms has no parameter {name}: {params}")
    load_vkms(guest)
    values = guest.run("cat /sys/module/vkms/parameters/enable_cursor /sys/module/vkms/parameters/enable_overlay "
                       "/sys/module/vkms/parameters/enable_writeback", timeout=30).check().stdout.split()
    expect(values == ["Y", "Y", "Y"], f"enable_cursor, enable_overlay, enable_writeback: {values}")
    # Beside virtio-gpu's card0 it is card1; its connectors are named as the kernel counts them, across cards.
    card = guest.run(f"readlink -f {VKMS}", timeout=30).check().stdout.strip()
    expect(card == "/dev/dri/card1", f"{VKMS} is {card}")
    expect(card_json(guest, "/dev/dri/card0")["driver"] == "virtio_gpu", "card0 is not virtio-gpu's")
    listed = guest.run("ls /sys/class/drm", timeout=30).check().stdout.split()
    expect({"card1-Virtual-2", "card1-Writeback-1"} <= set(listed) and "card0-Virtual-1" in listed, listed)
    note(f"{MODPROBE}: vkms is card1 ({VKMS}) beside virtio-gpu's card0, its connectors Virtual-2 and Writeback-1")


def check_it_has_primary_overlay_and_cursor_planes_and_a_writeback_connector(guest):
    load_vkms(guest)
    card = card_json(guest)
    expect(card["driver"] == "vkms" and len(card["crtcs"]) == 1, card)
    crtc_bit = 1 << card["crtcs"][0]["index"]
    planes = card["planes"]
    types = [p["type"] for p in planes]
    expect(types == ["primary"] + ["overlay"] * 8 + ["cursor"], f"the planes in id order: {types}")
    for p in planes:
        expect(p["possible_crtcs"] & crtc_bit, f"plane {p['id']} cannot be on the CRTC: {p}")
        wanted = "XRGB8888" if p["type"] == "primary" else "ARGB8888"
        expect(wanted in p["formats"], f"plane {p['id']} ({p['type']}) has no {wanted}: {p['formats']}")
        # What drm.compose_planes assumes: the planes blend in id order, premultiplied, at full plane alpha.
        absent = {k: p[k] for k in ("zpos", "pixel_blend_mode", "alpha") if p[k] is not None}
        expect(not absent, f"plane {p['id']} has properties vkms of 6.1 does not have (drm.compose_planes ignores "
                           f"them): {absent}")
        # The bed's patch: vc4's rotations on every plane, unrotated (drm.compose_planes assumes rotate-0).
        rotation = p["rotation"]
        expect(rotation and rotation["value"] == ["rotate-0"] and rotation["supported"] == VC4_ROTATIONS,
               f"plane {p['id']}'s rotation, patched as vc4's ({', '.join(VC4_ROTATIONS)}): {rotation}")
    connectors = {c["name"]: c for c in card["connectors"]}
    expect(set(connectors) == {"Virtual-2", "Writeback-1"}, connectors)
    writeback = connectors["Writeback-1"]
    expect(writeback["writeback"] and "XRGB8888" in writeback["formats"], writeback)
    display = connectors["Virtual-2"]
    expect(display["status"] == "connected" and display["preferred"] == "%dx%d" % MODE, display)
    # drm_info, read independently, sees the same planes and the writeback connector (type 18).
    info = json.loads(guest.run("drm_info -j", timeout=60).check().stdout)
    vkms = next(v for v in info.values() if v["driver"]["name"] == "vkms")
    names = {0: "overlay", 1: "primary", 2: "cursor"}
    by_drm_info = [(p["id"], names[p["properties"]["type"]["value"]]) for p in vkms["planes"]]
    expect(by_drm_info == [(p["id"], p["type"]) for p in planes], f"drm_info: {by_drm_info}, drmplanes: {planes}")
    expect(sorted(c["type"] for c in vkms["connectors"]) == [15, 18], f"drm_info's connector types: "
           f"{[c['type'] for c in vkms['connectors']]} (15 Virtual, 18 Writeback)")
    listed = ", ".join(f"{p['id']} {p['type']}" for p in planes)
    note(f"planes {listed}; Writeback-1 formats "
         f"{', '.join(writeback['formats'])}; rotation {', '.join(VC4_ROTATIONS)} on each; no zpos, pixel blend mode or "
         "alpha property")


def check_the_display_and_the_writeback_connector_cannot_share_the_crtc(guest):
    # vkms of 6.1 gives each encoder only itself as a possible clone: the atomic check refuses a CRTC driving
    # Virtual-2 and Writeback-1 together (drm_atomic_check_valid_clones), so drmplanes drives the writeback
    # connector alone. A kernel that allows both fails this check: the read-back then works beside a display.
    load_vkms(guest)
    expect("frame" not in state, "drmplanes already holds the card")
    r = guest.run(f"drmplanes --device {VKMS} --with-display --capture {capture_path(guest, 'both')}", timeout=WAIT)
    expect(r.status == 1 and "DRM_IOCTL_MODE_ATOMIC: Invalid argument (errno 22)" in r.stderr,
           f"Virtual-2 and Writeback-1 on one CRTC were not refused as by vkms of 6.1 (possible_clones): {r}")
    note("Virtual-2 with Writeback-1 on the one CRTC: DRM_IOCTL_MODE_ATOMIC EINVAL (the encoders are no clones)")


def check_primary_overlay_and_cursor_read_back_as_composed_on_the_host(guest):
    frame(guest)
    ready = state["ready"]
    expect(ready.startswith("READY %dx%d Writeback-1 " % MODE), ready)
    shown = image.load(state["first"])
    expect_composed(shown, [OVERLAY, CURSOR], "the first frame")
    # The planes are there: the primary's pattern alone differs where they are not transparent.
    alone = shown.compare(drm.frame_pattern(*MODE))
    expect(not alone, "the read-back is the primary plane alone")
    # The kernel's state: the planes where they were put, on the one CRTC.
    planes = {p["type"]: p for p in card_json(guest)["planes"] if p["fb_id"]}
    for kind, layer in (("overlay", OVERLAY), ("cursor", CURSOR)):
        p = planes.get(kind)
        where = (layer.x, layer.y, layer.width, layer.height)
        expect(p and (p["crtc_x"], p["crtc_y"], p["crtc_w"], p["crtc_h"]) == where, f"the {kind} plane: {p}")
    note(f"{ready}; the read-back equals the composition, and {alone.mismatches} pixels differ from the primary "
         "alone")


def check_the_cursor_moved_reads_back_moved(guest):
    p = frame(guest)
    before = image.load(state["first"])
    # Within the overlay (two planes blended over the primary again), on the primary alone, then reaching past
    # the mode's right and bottom edges, then past its left and top: the kernel clips the plane
    # (drm_atomic_helper_check_plane_state), and the composition clips it the same way.
    for x, y in MOVES:
        p.write(f"cursor {x} {y}\n")
        p.wait_for_output(rf"^MOVED cursor {x} {y}$", timeout=WAIT)
        cursor = next(q for q in card_json(guest)["planes"] if q["type"] == "cursor")
        expect((cursor["crtc_x"], cursor["crtc_y"]) == (x, y), f"the cursor plane after `cursor {x} {y}`: {cursor}")
        moved = drm.Layer("cursor", x, y, CURSOR.width, CURSOR.height)
        shown = read_back(guest, f"cursor-{x}-{y}")
        expect_composed(shown, [OVERLAY, moved], f"the cursor at {x},{y}")
        expect(not shown.compare(before), f"the cursor at {x},{y} reads back as where it was before")
        before = shown
    note(f"the cursor at {'; '.join(f'{x},{y}' for x, y in MOVES)} (CRTC_X/Y as set) read back as composed here")


def vkms_crc(frame: image.Image) -> int:
    """The CRC vkms computes of a composed frame (vkms_composer.c's blend): the kernel's crc32_le, seeded 0,
    over each row of its 16-bit ARGB line buffer (a, r, g, b as u16, little-endian; an opaque 8-bit value v
    is v * 257), which zlib's CRC-32 is with its inversions undone."""
    rows = bytearray()
    for i in range(0, len(frame.pixels), 3):
        r, g, b = frame.pixels[i:i + 3]
        rows += b"\xff\xff" + bytes((r, r, g, g, b, b))
    return ~zlib.crc32(bytes(rows), 0xFFFFFFFF) & 0xFFFFFFFF


def kiosk_on_vkms(guest, settings, cursor="auto"):
    """The kiosk on the vkms card with a config file of `settings` and `--cursor cursor`, its first frame shown:
    (process, trace, the card's number)."""
    if "frame" in state:
        state.pop("frame").stop()           # drmplanes is the card's master
    load_vkms(guest)
    card = re.search(r"card(\d+)", guest.run(f"readlink -f {VKMS}", timeout=20).check().stdout).group(1)
    config = Path(guest.job_dir) / f"vkms-kiosk-{time.monotonic_ns()}.toml"
    config.write_text(settings)
    process, trace = run_kiosk(guest, f"--backend drm --drm-device {VKMS} --cursor {cursor} --config {guest.guest_path(config)}")
    try:
        wait_for_frames(trace, ["Virtual-2"])
    except BaseException:
        stop(process)
        raise
    return process, trace, card


def composed_as_the_screenshot(guest, card, what):
    """vkms's own CRC of the frames it composes from the planes (debugfs) equals the CRC of the kiosk's screenshot
    (its composed frame with the planes over it), both in one minute of the status clock: the screenshot."""
    avoid_the_minute(guest, 20)
    crc_dir = f"/sys/kernel/debug/dri/{card}/crtc-0/crc"
    crcs = guest.run(f"echo auto > {crc_dir}/control && timeout 20 head -n 4 {crc_dir}/data", timeout=40).check().stdout.split()
    taken = screenshot(guest)
    expect(taken.size == MODE, f"{what}: screenshot {taken.size}")
    expected = vkms_crc(taken)
    composed = {int(v, 16) for v in crcs[1::2]}
    expect(composed == {expected}, f"{what}: vkms composed CRC {sorted(hex(c) for c in composed)}, the screenshot's {expected:#010x}")
    return taken


def screenshot(guest):
    """The kiosk's screenshot of Virtual-2 (`kiosk screenshot`: its composed frame with the planes over it)."""
    shot = Path(guest.job_dir) / f"vkms-screenshot-{time.monotonic_ns()}.png"
    guest.run(f"{KIOSK} screenshot --screen Virtual-2 {guest.guest_path(shot)}", timeout=60).check()
    return image.load(shot)


def headless(guest, settings):
    """The headless rendering of a config of `settings` on a screen of vkms's mode, as Virtual-2 spells it."""
    connector = next(c for c in screens_json(guest) if c["name"] == "Virtual-2")
    return reference([("Virtual-2", mode_spelling(connector, *MODE))], config=settings)["Virtual-2"]


def as_rendered_headless(guest, taken, settings, clock=CLOCK):
    """The screenshot equals the headless rendering of the same config on a screen of vkms's mode, except
    in `clock`, the status bar's clock where the screen's rotation puts it: the headless kiosk starts after
    the screenshot, and under load a minute can turn between them."""
    same_pixels(taken, headless(guest, settings), mask=clock)


def primary_plane(guest):
    """The id of the vkms card's primary plane."""
    return next(p["id"] for p in card_json(guest)["planes"] if p["type"] == "primary")


def check_the_kiosk_shows_its_logo_and_cursor_on_vkms_planes(guest):
    # The kiosk on the vkms card: the demo's logo (`logo-on-plane`) on an overlay plane, the cursor on the
    # cursor plane. vkms composes the planes itself (its CRC of the frame, debugfs), and that equals the CRC
    # of the kiosk's own screenshot (the composed frame with the planes over it), which equals the headless
    # rendering of the same scene; moving the tablet moves the cursor plane and composes nothing.
    # Without the welcome alert, whose dimmed backdrop over the whole screen would cover the logo.
    settings = LOGO_ON_PLANE
    process, trace, card = kiosk_on_vkms(guest, settings)
    try:
        found = process.wait_for_output(r"Virtual-2: a 96x96 layer on overlay plane (\d+), composing nothing for it", timeout=30, stderr=True)
        overlay = int(found.group(1))
        log = process.stderr_so_far()
        sized = re.search(r"Virtual-2: planes for layers on .*overlay plane \d+.*cursor plane \d+ \((\d+)x(\d+)\)", log)
        expect(sized, log[-1500:])
        cursor_size = (int(sized.group(1)), int(sized.group(2)))     # the driver's cursor cap: 512x512 on vkms
        planes = plane_positions(guest, card)
        expect(planes.get(overlay) == LOGO, f"overlay plane {overlay}: {planes}")
        as_rendered_headless(guest, composed_as_the_screenshot(guest, card, "the logo on its plane"), settings)
        # The cursor: on its plane at the pointer, moves composing nothing.
        frames = len(trace_events(trace, "frame"))
        for step in range(6):
            x, y = 300 + step * 40, 400 + step * 20
            move_tablet(guest, x, y, MODE)
            time.sleep(0.1)
        cursor = int(process.wait_for_output(rf"Virtual-2: a {cursor_size[0]}x{cursor_size[1]} layer on cursor plane (\d+)",
                                             timeout=30, stderr=True).group(1))
        wait_until(lambda: plane_positions(guest, card).get(cursor) == (500 - 8, 500 - 8, *cursor_size), "the cursor plane at the pointer",
                   timeout=20, context=lambda: f"planes: {plane_positions(guest, card)}")
        moved = trace_events(trace, "planes")
        # Every planes line keeps the logo on its overlay; the cursor is in them until `auto` hides it (3 s).
        expect(moved and all(f"overlay {overlay}" in e["planes"] for e in moved), moved[-3:])
        expect(any(f"cursor {cursor}" in e["planes"] for e in moved), moved[-3:])
        expect(len(trace_events(trace, "frame")) - frames <= 3, f"{len(trace_events(trace, 'frame')) - frames} frames for 6 cursor moves")
    finally:
        stop(process)


def primary_rotation(guest, card):
    """The primary plane's `rotation` in the kernel's atomic state (debugfs: the property's bits)."""
    primary = primary_plane(guest)
    text = guest.run(f"cat /sys/kernel/debug/dri/{card}/state", timeout=20).check().stdout
    block = re.search(rf"^plane\[{primary}\].*?(?=^\S)", text + "\nend", re.M | re.S).group(0)
    return int(re.search(r"rotation=([0-9a-f]+)", block).group(1), 16)


def check_the_kiosk_has_the_primary_plane_turn_its_frames(guest):
    # A screen turned by 180 degrees, or mirrored left to right: the plane offers it (the bed's patch, as vc4),
    # so the kiosk composes upright and the plane turns the frame (DRM_MODE_ROTATE_180 is bit 2, REFLECT_X bit
    # 4). What vkms composes from the turned primary, the logo's overlay and the rest equals the kiosk's
    # screenshot, which equals the headless rendering (there the compositor turns the frame itself): a frame
    # turned twice, or by the wrong reflection, differs.
    for rotation, bits, logo in (("180", 1 << 2, (MODE[0] - LOGO[0] - 96, MODE[1] - LOGO[1] - 96, 96, 96)),
                                 ("flipped", 1 << 0 | 1 << 4, (MODE[0] - LOGO[0] - 96, LOGO[1], 96, 96))):
        settings = f'[screens.Virtual-2]\nrotation = "{rotation}"\n\n' + LOGO_ON_PLANE
        process, _, card = kiosk_on_vkms(guest, settings)
        try:
            said = process.wait_for_output(r"Virtual-2: its plane turns frames by \S+ \(rotation (\d+)\)", timeout=30, stderr=True)
            expect(int(said.group(1)) == bits, f"rotation {rotation}: {said.group(0)}, expected the bits {bits:#x}")
            in_state = primary_rotation(guest, card)
            expect(in_state == bits, f"rotation {rotation}: the primary plane's rotation in the kernel's state is "
                   f"{in_state:#x}, not {bits:#x}")
            overlay = int(process.wait_for_output(r"Virtual-2: a 96x96 layer on overlay plane (\d+)", timeout=30, stderr=True).group(1))
            wait_until(lambda: plane_positions(guest, card).get(overlay) == logo, f"rotation {rotation}: the logo's plane at {logo}",
                       timeout=20, context=lambda: f"planes: {plane_positions(guest, card)}")
            # The clock (the top left of the screen as the app sees it) in the frame: turned by 180 degrees to
            # the bottom right, mirrored to the top right.
            clock = (MODE[0] - CLOCK[2], MODE[1] - CLOCK[3] if rotation == "180" else 0, CLOCK[2], CLOCK[3])
            as_rendered_headless(guest, composed_as_the_screenshot(guest, card, f"rotation {rotation}"), settings, clock)
        finally:
            stop(process)
    note("rotation 180 and flipped: the primary plane turns the frames (rotation 0x4 and 0x11 in the kernel's state); "
         "vkms's composition equals the screenshot and the headless rendering")


REFUSED = (r"Virtual-2: the driver refused a \d+x\d+ layer on overlay plane (\d+) and a \d+x\d+ layer on cursor plane (\d+) "
           r"\((.*)\); trying fewer planes")


def check_a_plane_proposal_the_driver_refuses_is_composed(guest):
    # vkms's `max_planes` (the bed's patch) limits the planes of a frame, checked in its atomic check as vc4's HVS
    # checks its display list. With the cursor always shown, the proposal of the logo's overlay and the cursor's
    # plane is refused (ENOSPC). At 2 the kiosk steps back to the cursor's plane alone and composes the logo; at
    # 1 the cursor's plane is refused too and everything is composed: then vkms composes the primary plane alone,
    # and its CRC equals the screenshot's. (With the cursor on its plane the CRCs cannot be compared: vkms blends
    # its translucent edge in 16 bits a channel, which an 8-bit screenshot cannot reproduce.)
    load_vkms(guest)
    limit = "/sys/module/vkms/parameters/max_planes"
    logo_alone = headless(guest, LOGO_ON_PLANE).crop(LOGO)
    primary = primary_plane(guest)
    said = []
    try:
        for planes in (2, 1):
            guest.run(f"echo {planes} > {limit}", timeout=20).check()
            process, trace, card = kiosk_on_vkms(guest, LOGO_ON_PLANE, cursor="always")
            try:
                # The cursor shows at the pointer's first motion that the kiosk sees (its input may still be opening).
                def cursor_shown(step=iter(range(1000))):
                    move_tablet(guest, 300 + next(step) % 2, 400, MODE)
                    return any(e.get("window") == "cursor" for e in trace_events(trace, "window.visible"))
                wait_until(cursor_shown, "the cursor window", timeout=30)
                refused = process.wait_for_output(REFUSED, timeout=30, stderr=True)
                expect("errno 28" in refused.group(3), f"max_planes {planes}: the refusal is not vkms's (ENOSPC): {refused.group(0)}")
                overlay, cursor = int(refused.group(1)), int(refused.group(2))
                said.append(refused.group(3))
                if planes == 1:
                    process.wait_for_output(rf"Virtual-2: the driver refused a \d+x\d+ layer on cursor plane {cursor} \(.*\); composed instead",
                                            timeout=30, stderr=True)
                # What the kernel shows: the cursor's plane alone, or the primary alone.
                wanted = {cursor} if planes == 2 else set()

                def shown():
                    return set(plane_positions(guest, card)) - {primary}
                wait_until(lambda: shown() == wanted, f"max_planes {planes}: planes {sorted(wanted)} besides the primary", timeout=20,
                           context=lambda: f"planes: {plane_positions(guest, card)}")
                expect(overlay not in shown(), f"max_planes {planes}: the logo is still on overlay plane {overlay}")
                taken = composed_as_the_screenshot(guest, card, "everything composed") if planes == 1 else screenshot(guest)
                # The logo composed where it was on its plane, as the headless rendering has it.
                logo = taken.crop(LOGO).compare(logo_alone)
                expect(logo, f"max_planes {planes}: the composed logo is not the headless rendering's: {logo}")
            finally:
                stop(process)
    finally:
        guest.run(f"echo 0 > {limit}", timeout=20).check()
    note(f"vkms's max_planes 2 and 1: the logo's overlay with the cursor's plane refused ({said[0]}); at 2 the cursor on "
         "its plane and the logo composed, at 1 the cursor's plane refused too and all composed, vkms's CRC equal to the "
         "screenshot's")


def check_vkms_alone_is_card0(guest):
    # No virtio-gpu device (virtio_gpu is loaded, with no card): vkms is the first card, its display Virtual-1.
    with Guest(heads=0, memory=512, name="vkms-alone") as alone:
        alone.run(f"{MODPROBE} && udevadm settle", timeout=120).check()
        card = alone.run(f"readlink -f {VKMS}; ls /sys/class/drm", timeout=30).check().stdout.split()
        expect(card[0] == "/dev/dri/card0" and {"card0-Virtual-1", "card0-Writeback-1"} <= set(card[1:]), card)
        path = Path(alone.job_dir) / "alone.ppm"
        # No --device: drmplanes finds the card whose driver is vkms.
        r = alone.run(f"drmplanes --overlay {placement(OVERLAY)} --cursor {placement(CURSOR)} --capture {path} "
                      f"--timeout {WAIT * 1000} </dev/null", timeout=WAIT * 2).check()
        expect(r.stdout.startswith("READY %dx%d Writeback-1 " % MODE), r.stdout)
        expect_composed(image.load(path), [OVERLAY, CURSOR], "vkms alone")
    note("vkms alone: card0, Virtual-1 and Writeback-1; the same read-back")
