"""Input: a uinput touchscreen's taps reach the window and view under the finger (levels, two fingers, rotation,
removal, KIOSK_OUTPUT to a second screen, a touch rule naming a screen's label), QEMU's tablet as the mouse,
`kiosk calibrate` (a skewed digitizer fitted, no touchscreen said at once, the timeout), and the touch latency
over 200 taps."""

import json
import re
import statistics
import time
from pathlib import Path

from kioskvm import image
from kioskvm.scenario import expect
from scenarios_support import KIOSK, config_arg, move_tablet, plane_positions, run_kiosk, stop, trace_events, wait_for_frames, wait_until

GUEST = dict(heads=2, devices=["virtio-tablet-pci"])
TIMEOUT = 540

PANEL = (1280, 800)            # Virtual-1's preferred mode: the touchscreen covers it
kiosk = {}


def events(kind=None):
    return trace_events(kiosk["trace"], kind)


def wait_for(predicate, what, timeout=30):
    return wait_until(predicate, what, timeout, lambda: f"touches: {events('touch')[-6:]}")


def start(guest, args="", welcome=True):
    """The demo with its welcome alert up (modal: it takes every touch), or without it (`welcome=False`)."""
    if kiosk.get("process") and kiosk["process"].running:
        stop(kiosk["process"])
    if not welcome:
        args += " " + config_arg(guest)
    process, trace = run_kiosk(guest, f"--backend drm --cursor auto {args}")
    kiosk.update(process=process, trace=trace)
    wait_for_frames(trace, ["Virtual-1"])
    # Input devices are opened after the first frame and the launch's animations: events sent before are lost.
    wait_for(lambda: [e for e in events("startup") if e["phase"] == "input"], "input set up")


def touches_after(count):
    return events("touch")[count:]


def tap(screen, fx, fy):
    """Taps at fractions of the touchscreen; returns the touch lines it produced (began ... ended)."""
    before = len(events("touch"))
    screen.play(f"tap {fx} {fy}")
    lines = wait_for(lambda: [e for e in touches_after(before) if e["phase"] == "ended"] and touches_after(before), "a tap's ended")
    return lines


def check_taps_reach_the_window_and_view_under_the_finger(guest):
    start(guest)
    with guest.touchscreen(name="Kiosk Test Touch", size_mm=(256, 160)) as screen:
        kiosk["process"].wait_for_output('"Kiosk Test Touch"', timeout=30, stderr=True)
        log = kiosk["process"].stderr_so_far()
        expect("-> Virtual-1 (the only screen)" in log, log[-1500:])
        # The welcome alert: a window of its own at the .alert level over the whole screen, its card (270x144 at
        # (505, 328)) in the middle over a dimmed backdrop. Its message lets touches through to the header.
        inside = tap(screen, 0.5, 390 / 800)    # (640, 390): the message
        began = inside[0]
        expect(began["phase"] == "began" and began["window"] == "AlertController.window" and began["view"] == "alert.header", began)
        expect(abs(began["x"] - 640) <= 1 and abs(began["y"] - 390) <= 1, began)
        # Outside the card the backdrop takes the touch (an alert is modal): not the "Tap me" below it.
        outside = tap(screen, 0.5, 250 / 800)   # (640, 250): above the card, over the logo
        expect(outside[0]["window"] == "AlertController.window" and outside[0]["view"] == "alert.backdrop", outside[0])
        # Its OK dismisses it; then the same place is the main window's button, and the status bar's window
        # (.statusBar level) takes the touches over the main window's top.
        ok = tap(screen, 0.5, 450 / 800)
        expect(ok[0]["view"] == "alert.action.OK", ok[0])
        wait_for(lambda: [e for e in events("window.hidden") if e["window"] == "AlertController.window"], "the alert gone")
        below = tap(screen, 0.5, 362 / 800)
        expect(below[0]["window"] == "main" and below[0]["view"] == "tap-button", below[0])
        expect(below[-1]["phase"] == "ended" and below[-1]["view"] == "tap-button", below[-1])
        bar = tap(screen, 0.5, 20 / 800)
        expect(bar[0]["window"] == "status-bar" and bar[0]["view"] == "status-bar", bar[0])


def check_two_fingers_at_once(guest):
    with guest.touchscreen(name="Kiosk Two Fingers", size_mm=(256, 160)) as screen:
        kiosk["process"].wait_for_output('"Kiosk Two Fingers"', timeout=30, stderr=True)
        before = len(events("touch"))
        screen.play("down 0 0.25 0.5\ndown 1 0.75 0.5\nframe\nmove 0 0.3 0.5\nframe\nup 0\nup 1\nframe")
        lines = wait_for(lambda: len([e for e in touches_after(before) if e["phase"] == "ended"]) == 2 and touches_after(before), "two ended")
        began = [e for e in lines if e["phase"] == "began"]
        expect(len(began) == 2, lines)
        expect(sorted(round(e["x"]) for e in began) == [320, 960], began)
        moved = [e for e in lines if e["phase"] == "moved"]
        expect(len(moved) == 1 and round(moved[0]["x"]) == 384, f"moved: {moved}")


def check_a_removed_device_cancels_its_touch(guest):
    with guest.touchscreen(name="Kiosk Unplugged", size_mm=(256, 160)) as screen:
        kiosk["process"].wait_for_output('"Kiosk Unplugged"', timeout=30, stderr=True)
        before = len(events("touch"))
        screen.play("down 0 0.1 0.9\nframe\nsleep 100\nremove")
        lines = wait_for(lambda: [e for e in touches_after(before) if e["phase"] == "cancelled"] and touches_after(before), "cancelled")
        expect([e["phase"] for e in lines] == ["began", "cancelled"], lines)
    expect(kiosk["process"].running, "the kiosk died when a device went away")


def check_a_rotated_screen_keeps_the_tap_under_the_finger(guest):
    start(guest, "--rotate Virtual-1=90", welcome=False)
    shown = image.load(guest.screendump(0))
    # Logical 800x1280; "Tap me" (220x64 at (220, 330), left of "Form") has a point (250, 362), left of its
    # title, drawn on the panel at (1280 - 362, 250).
    physical = (PANEL[0] - 362, 250)
    expect(shown.color_at(*physical) == (51, 102, 204), f"the button is not drawn at {physical}: {shown.color_at(*physical)}")
    with guest.touchscreen(name="Kiosk Rotated", size_mm=(256, 160)) as screen:
        kiosk["process"].wait_for_output('"Kiosk Rotated"', timeout=30, stderr=True)
        lines = tap(screen, physical[0] / PANEL[0], physical[1] / PANEL[1])
        expect(lines[0]["view"] == "tap-button", lines[0])
        expect(abs(lines[0]["x"] - 250) <= 1 and abs(lines[0]["y"] - 362) <= 1, lines[0])


def check_kiosk_output_sends_a_device_to_the_second_screen(guest):
    start(guest)
    guest.set_head_size(1, 1024, 768)
    wait_for(lambda: [e for e in events("frame") if e["screen"] == "Virtual-2"], "a frame on Virtual-2")
    # udev tags the device (as a board's rules would), before it exists.
    rule = 'SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="Kiosk Second Touch", ENV{KIOSK_OUTPUT}="Virtual-2"\n'
    guest.run(f"mkdir -p /run/udev/rules.d && printf '%s' '{rule}' > /run/udev/rules.d/99-kiosk-test.rules && udevadm control --reload").check()
    with guest.touchscreen(name="Kiosk Second Touch", size_mm=(256, 160)) as screen:
        kiosk["process"].wait_for_output('"Kiosk Second Touch"', timeout=30, stderr=True)
        log = kiosk["process"].stderr_so_far()
        expect("-> Virtual-2 (udev KIOSK_OUTPUT)" in log, log[-1500:])
        lines = tap(screen, 0.5, 0.5)
        expect(lines[0]["screen"] == "Virtual-2" and lines[0]["window"] == "placeholder-Virtual-2", lines[0])
        expect(abs(lines[0]["x"] - 512) <= 1 and abs(lines[0]["y"] - 384) <= 1, lines[0])
    guest.disconnect_head(1)


def check_a_touch_rule_may_name_a_screen_by_its_label(guest):
    # [screens.lobby] finds QEMU's display by its EDID (make RHT); the rule names the label, not the connector.
    config = Path(guest.job_dir) / "labels.toml"
    config.write_text('[screens.lobby]\nedid = { make = "RHT" }\n\n[[touch]]\nmatch = "Kiosk Labelled Touch"\nscreen = "lobby"\n')
    start(guest, f"--config {guest.guest_path(config)}")
    with guest.touchscreen(name="Kiosk Labelled Touch", size_mm=(256, 160)) as screen:
        kiosk["process"].wait_for_output('"Kiosk Labelled Touch"', timeout=30, stderr=True)
        lines = tap(screen, 0.5, 0.5)
        expect(lines[0]["screen"] == "Virtual-1" and abs(lines[0]["x"] - 640) <= 1 and abs(lines[0]["y"] - 400) <= 1, lines[0])


# What the guest's Python needs to make a uinput device (the legacy uinput_user_dev write: name, id, and the
# axes' maxima and minima), and to wait for a flag file of the host's in the job folder.
UINPUT = """
import fcntl, os, struct, sys, time
folder = sys.argv[1]
fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK)
EV_SYN, EV_KEY, EV_REL, EV_ABS, BTN_LEFT, BTN_TOUCH, INPUT_PROP_DIRECT = 0, 1, 2, 3, 0x110, 0x14A, 1
UI_SET_EVBIT, UI_SET_KEYBIT, UI_SET_RELBIT, UI_SET_ABSBIT, UI_SET_PROPBIT = 0x40045564, 0x40045565, 0x40045566, 0x40045567, 0x4004556E
UI_DEV_CREATE, UI_DEV_DESTROY = 0x5501, 0x5502
def create(name, product, absmax=None, absmin=None):
    absmax, absmin = absmax or [0] * 64, absmin or [0] * 64
    os.write(fd, struct.pack("80sHHHHI", name, 3, 0x1234, product, 1, 0)
             + struct.pack("64i", *absmax) + struct.pack("64i", *absmin) + bytes(2 * 64 * 4))
    fcntl.ioctl(fd, UI_DEV_CREATE)
def wait(name):
    while not os.path.exists(os.path.join(folder, name)):
        time.sleep(0.05)
"""

# A relative mouse made through uinput by the guest's Python (the bed has no PS/2 mouse): it moves right in
# steps once `go` exists, clicks once `click` exists, and goes once `done` exists.
MOUSE = UINPUT + """
fcntl.ioctl(fd, UI_SET_EVBIT, EV_KEY); fcntl.ioctl(fd, UI_SET_KEYBIT, BTN_LEFT)
fcntl.ioctl(fd, UI_SET_EVBIT, EV_REL); fcntl.ioctl(fd, UI_SET_RELBIT, 0); fcntl.ioctl(fd, UI_SET_RELBIT, 1)  # REL_X, REL_Y
create(b"Kiosk Test Mouse", 0x5679)
def emit(kind, code, value):
    os.write(fd, struct.pack("qqHHi", 0, 0, kind, code, value))
wait("go")
for _ in range(40):
    emit(EV_REL, 0, 40); emit(EV_SYN, 0, 0); time.sleep(0.01)
wait("click")
emit(EV_KEY, BTN_LEFT, 1); emit(EV_SYN, 0, 0); time.sleep(0.05)
emit(EV_KEY, BTN_LEFT, 0); emit(EV_SYN, 0, 0)
wait("done")
fcntl.ioctl(fd, UI_DEV_DESTROY)
"""


def check_a_mouse_crosses_to_the_screen_placed_beside(guest):
    # Virtual-2 sits right of Virtual-1 ([screens.NAME] position): a relative mouse moved far right
    # (libinput's acceleration makes the distance inexact) crosses onto it, and its click is a touch there.
    guest.set_head_size(1, 1024, 768)
    config = Path(guest.job_dir) / "layout.toml"
    config.write_text('[screens.Virtual-1]\nposition = { x = 0, y = 0 }\n\n[screens.Virtual-2]\nposition = { x = 1280, y = 0 }\n')
    start(guest, f"--config {guest.guest_path(config)}")
    wait_for(lambda: [e for e in events("frame") if e["screen"] == "Virtual-2"], "a frame on Virtual-2")
    flags = Path(guest.job_dir) / "mouse"
    flags.mkdir(exist_ok=True)
    script = Path(guest.job_dir) / "mouse.py"
    script.write_text(MOUSE)
    mouse = guest.spawn(f"exec python3 -I {guest.guest_path(script)} {guest.guest_path(flags)}")
    try:
        kiosk["process"].wait_for_output('"Kiosk Test Mouse"', timeout=30, stderr=True)
        before = len(events("touch"))
        (flags / "go").touch()
        wait_for(lambda: [e for e in events("window.visible") if e["window"] == "cursor"], "the cursor")
        time.sleep(1)
        (flags / "click").touch()
        lines = wait_for(lambda: [e for e in touches_after(before) if e["phase"] == "ended"] and touches_after(before), "a click")
        expect(lines[0]["screen"] == "Virtual-2", lines[0])
    finally:
        (flags / "done").touch()
        mouse.wait(30)
    guest.disconnect_head(1)


def check_the_tablet_is_a_mouse(guest):
    start(guest, welcome=False)
    before = len(events("touch"))
    expect(not [e for e in events("window.visible") if e["window"] == "cursor"], "a cursor showed without a mouse moving")
    # QEMU's virtio tablet: absolute axes 0..32767; the button is the primary one.
    move_tablet(guest, 640, 362)
    wait_for(lambda: [e for e in events("window.visible") if e["window"] == "cursor"], "the cursor")
    guest.qmp("input-send-event", events=[{"type": "btn", "data": {"down": True, "button": "left"}}])
    guest.qmp("input-send-event", events=[{"type": "btn", "data": {"down": False, "button": "left"}}])
    lines = wait_for(lambda: [e for e in touches_after(before) if e["phase"] == "ended"] and touches_after(before), "a click")
    expect(lines[0]["view"] == "tap-button" and abs(lines[0]["x"] - 640) <= 2 and abs(lines[0]["y"] - 362) <= 2, lines[0])
    # auto: the cursor hides again a few seconds after the pointer stops.
    wait_for(lambda: [e for e in events("window.hidden") if e["window"] == "cursor"], "the cursor hiding", timeout=15)


def check_the_cursor_moves_on_its_plane_composing_nothing(guest):
    # virtio-gpu's cursor plane (64x64): the cursor is scanned out from its own buffer, so moving the mouse
    # composes no frame; the kernel's plane state follows the pointer.
    start(guest)
    # Somewhere the tablet is not yet (an earlier check may have left it at a place): a motion to report.
    move_tablet(guest, 600, 330)
    move_tablet(guest, 640, 362)
    found = kiosk["process"].wait_for_output(r"Virtual-1: a 64x64 layer on cursor plane (\d+), composing nothing for it",
                                             timeout=30, stderr=True)
    plane = int(found.group(1))
    log = kiosk["process"].stderr_so_far()
    expect("planes for layers on" in log and f"cursor plane {plane} (64x64)" in log, log[-1500:])
    trace = events()
    frames_before = len([e for e in trace if e["event"] == "frame"])
    planes_before = len([e for e in trace if e["event"] == "planes"])
    started = time.monotonic()
    for step in range(1, 11):
        move_tablet(guest, 640 + step * 20, 362 + step * 10)
        time.sleep(0.1)
    wait_for(lambda: len(events("planes")) > planes_before, "a planes line")
    # The last move lands: the cursor window is centred on the pointer (16x16), its plane's buffer is 64x64.
    wait_until(lambda: plane_positions(guest).get(plane) == (840 - 8, 462 - 8, 64, 64), "the cursor plane at the pointer",
               timeout=20, context=lambda: f"planes: {plane_positions(guest)}")
    elapsed = time.monotonic() - started
    trace = events()
    frames = [e for e in trace if e["event"] == "frame"][frames_before:]
    moves = [e for e in trace if e["event"] == "planes"][planes_before:]
    # The demo's clock still ticks (a frame a second); a composed cursor would add a frame per move (ten).
    expect(len(frames) <= int(elapsed) + 2, f"{len(frames)} frames in {elapsed:.1f} s of cursor moves: {frames[-4:]}")
    # (Under load the checks can outlast `auto`'s 3 s: the cursor then hides, a planes line with no plane.)
    shown = [e for e in moves if e["planes"]]
    expect(shown and all(f"cursor {plane}" in e["planes"] for e in shown), moves[-3:])


# A touchscreen a kernel driver got wrong (ABS_X's minimum equal to its maximum), made through uinput by the
# guest's Python: libinput refuses it with a "kernel bug" line of its own, at its error priority. It goes
# once `done` exists.
BROKEN_TOUCH = UINPUT + """
fcntl.ioctl(fd, UI_SET_EVBIT, EV_KEY); fcntl.ioctl(fd, UI_SET_KEYBIT, BTN_TOUCH)
fcntl.ioctl(fd, UI_SET_EVBIT, EV_ABS); fcntl.ioctl(fd, UI_SET_ABSBIT, 0); fcntl.ioctl(fd, UI_SET_ABSBIT, 1)  # ABS_X, ABS_Y
fcntl.ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT)
absmax, absmin = [0] * 64, [0] * 64
absmax[0], absmin[0], absmax[1] = 5, 5, 800
create(b"Kiosk Broken Touch", 0x567A, absmax, absmin)
wait("done")
fcntl.ioctl(fd, UI_DEV_DESTROY)
"""

# The kiosk's log format: "<UTC time> <level> kiosk.<area>: ...".
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000 (trace|debug|info|notice|warning|error|critical) kiosk\.[a-z.]+: ")


def check_libinput_lines_are_in_the_kiosk_log(guest):
    # libinput's own lines had gone to stderr in libinput's format; every line of the kiosk's stderr is a line
    # of its log, libinput's at warning (input goes on).
    if kiosk.get("process") and kiosk["process"].running:
        stop(kiosk["process"])
    flags = Path(guest.job_dir) / "broken"
    flags.mkdir(exist_ok=True)
    script = Path(guest.job_dir) / "broken.py"
    script.write_text(BROKEN_TOUCH)
    device = guest.spawn(f"exec python3 -I {guest.guest_path(script)} {guest.guest_path(flags)}")
    try:
        wait_until(lambda: "Kiosk Broken Touch" in guest.run("cat /sys/class/input/*/name").stdout, "the broken touchscreen")
        start(guest)
        result = stop(kiosk["process"])
    finally:
        (flags / "done").touch()
        device.wait(30)
    foreign = [line for line in result.stderr.splitlines() if line.strip() and not LOG_LINE.match(line)]
    expect(not foreign, f"lines not in the kiosk's log format: {foreign[:5]}")
    libinput = [line for line in result.stderr.splitlines() if " kiosk.libinput: " in line]
    expect(any(" warning kiosk.libinput: " in line and "kernel bug: device has min == max on ABS_X" in line for line in libinput),
           f"libinput's lines: {libinput}; the log's end: {result.stderr[-2000:]}")


def check_kiosk_inputs_lists_devices_and_their_screens(guest):
    with guest.touchscreen(name="Kiosk Listed Touch", size_mm=(256, 160), id=(0x1234, 0x5678)) as screen:
        screen.wait_ready()
        r = guest.run(f"{KIOSK} inputs --json", timeout=60).check()
        devices = {d["name"]: d for d in json.loads(r.stdout)}
        touch = devices.get("Kiosk Listed Touch")
        expect(touch is not None, f"not listed: {sorted(devices)}")
        expect("touch" in touch["capabilities"] and touch["size_mm"] == {"width": 256, "height": 160}, touch)
        expect(touch["vendor"] == "1234" and touch["product"] == "5678", touch)
        expect(touch["udev"].get("ID_INPUT_TOUCHSCREEN") == "1", touch["udev"])
        expect(touch["screen"] == "Virtual-1" and touch["reason"] == "the only screen", touch)
        keyboard = devices.get("AT Translated Set 2 keyboard")
        expect(keyboard is not None and "keyboard" in keyboard["capabilities"], f"no i8042 keyboard: {sorted(devices)}")
        text = guest.run(f"{KIOSK} inputs", timeout=60).check().stdout
        expect('"Kiosk Listed Touch"  1234:5678  touch' in text and "maps to Virtual-1 (the only screen)" in text, text)


def check_calibrate_fits_a_skewed_digitizer_and_writes_the_config(guest):
    if kiosk.get("process") and kiosk["process"].running:
        stop(kiosk["process"])
    config = Path(guest.job_dir) / "calibrated.toml"
    # A digitizer that reports x as 0.9x + 0.05 and y as 0.8y + 0.1 of where the finger is.
    skew = lambda fx, fy: (0.9 * fx + 0.05, 0.8 * fy + 0.1)
    process = guest.spawn(f"exec {KIOSK} calibrate --screen Virtual-1 --write --config {guest.guest_path(config)} --timeout 120",
                          env={"LIBSEAT_BACKEND": "builtin"})
    try:
        with guest.touchscreen(name="Kiosk Skewed Touch", size_mm=(256, 160)) as screen:
            process.wait_for_output('"Kiosk Skewed Touch"', timeout=60, stderr=True)
            for number in range(1, 6):
                target = process.wait_for_output(rf"^TARGET {number} (\d+) (\d+)$", timeout=30)
                rx, ry = skew(int(target[1]) / PANEL[0], int(target[2]) / PANEL[1])
                screen.play(f"tap {rx:.5f} {ry:.5f}")
        result = process.wait(60)
    finally:
        # A calibrate still running holds DRM master: later checks could not light the display.
        if process.running:
            process.kill()
    expect(result.status == 0, result)
    line = next(l for l in result.stdout.splitlines() if l.startswith("calibration = "))
    matrix = [float(v) for v in line.split("=", 1)[1].strip(" []").split(",")]
    expected = [1 / 0.9, 0, -0.05 / 0.9, 0, 1 / 0.8, -0.1 / 0.8]
    expect(all(abs(a - b) < 0.01 for a, b in zip(matrix, expected)), f"{matrix} instead of {expected}")
    expect("LIBINPUT_CALIBRATION_MATRIX=" in result.stdout, result.stdout)
    written = config.read_text()
    expect('match = "Kiosk Skewed Touch"' in written and 'screen = "Virtual-1"' in written and "calibration = [" in written, written)


def check_calibrate_says_when_there_is_nothing_to_tap_and_times_out_loudly(guest):
    # No touchscreen yet: said at once (one may still be plugged in), then the timeout, exit 1.
    result = guest.run(f"{KIOSK} calibrate --screen Virtual-1 --timeout 8", env={"LIBSEAT_BACKEND": "builtin"}, timeout=120)
    expect(result.status == 1, result)
    expect("kiosk calibrate: no touch device yet (input devices: " in result.stderr, result.stderr)
    expect("kiosk calibrate: timed out after 8.0 s with 0 of 5 targets tapped" in result.stderr, result.stderr)
    # A touchscreen nobody taps: the timeout alone.
    with guest.touchscreen(name="Kiosk Untouched", size_mm=(256, 160)):
        result = guest.run(f"{KIOSK} calibrate --screen Virtual-1 --timeout 8", env={"LIBSEAT_BACKEND": "builtin"}, timeout=120)
    expect(result.status == 1, result)
    expect("no touch device" not in result.stderr, result.stderr)
    expect("kiosk calibrate: timed out after 8.0 s with 0 of 5 targets tapped" in result.stderr, result.stderr)


def check_touch_latency_over_200_taps(guest):
    start(guest)
    with guest.touchscreen(name="Kiosk Latency", size_mm=(256, 160)) as screen:
        kiosk["process"].wait_for_output('"Kiosk Latency"', timeout=30, stderr=True)
        before = len(events("touch"))
        # Taps on the main window's empty background, away from the button (no redraw in between).
        screen.play("\n".join(["tap 0.1 0.95 20\nsleep 30"] * 200) + "\necho done")
        lines = wait_for(lambda: len([e for e in touches_after(before) if e["phase"] == "began"]) >= 200 and touches_after(before),
                         "200 taps", timeout=120)
    began = [e for e in lines if e["phase"] == "began"]
    latencies = sorted((e["delivered"] - e["timestamp"]) * 1000 for e in began)
    p50 = statistics.median(latencies)
    p99 = latencies[int(len(latencies) * 0.99) - 1]
    (Path(__file__).resolve().parents[1] / ".touch-latency.json").write_text(
        json.dumps({"taps": len(latencies), "p50_ms": round(p50, 2), "p99_ms": round(p99, 2)}))
    print(f"    touch latency (kernel event -> view), {len(latencies)} taps: p50 {p50:.2f} ms, p99 {p99:.2f} ms")
    expect(all(l >= 0 for l in latencies), "a touch delivered before its kernel timestamp: clocks differ")
    expect(p99 < 500, f"p99 latency {p99:.1f} ms under software emulation")
    stop(kiosk["process"])
