"""A uinput touchscreen in the guest is a touchscreen to udev and libinput: taps, two fingers, drags, removal."""

import time

from kioskvm import touch
from kioskvm.scenario import expect

GUEST = dict(heads=1)

NAME = "kioskvm test touchscreen"
SIZE = (256, 160)             # mm; default resolution 16 units/mm
geometry = touch.DeviceGeometry(size_mm=SIZE)

screen = None                 # touch.TouchScreen, made by the first check that needs it
events = None                 # `libinput debug-events`, started by the first check that needs it


def the_screen(guest):
    """The scenario's touchscreen (made on first use, so any check can run alone with -k)."""
    global screen
    if screen is None:
        screen = guest.touchscreen(name=NAME, size_mm=SIZE)      # waits until udev has processed it
    return screen


def with_libinput(guest):
    """The touchscreen, with `libinput debug-events` running and the device set up in it; returns
    the screen's evdev name ("event1")."""
    global events
    the_screen(guest)
    dev = screen.devnode.rsplit("/", 1)[1]
    if events is None:
        events = guest.spawn("libinput debug-events")
        # DEVICE_ADDED is printed once libinput has set the device up (it drains events queued
        # before that): only then can a played gesture not be lost.
        wait_events("DEVICE_ADDED", 1, dev)
    return dev


def udev_props(text):
    return dict(l[3:].split("=", 1) for l in text.splitlines() if l.startswith("E: ") and "=" in l)


def libinput_events(kind=None, device=None):
    evs = touch.parse_debug_events(events.stdout_so_far())
    return [e for e in evs if (kind is None or e.type == kind) and (device is None or e.device == device)]


def wait_events(kind, count, device=None, timeout=60.0):
    deadline = time.monotonic() + timeout
    while True:
        evs = libinput_events(kind, device)
        if len(evs) >= count:
            return evs
        if time.monotonic() > deadline:
            raise AssertionError(f"{len(evs)} {kind} events within {timeout} s, wanted {count}; "
                                 f"libinput printed:\n{events.stdout_so_far()[-2000:]}\n{events.stderr_so_far()[-500:]}")
        time.sleep(0.05)


def near(got, want, tol=0.01):
    return abs(got[0] - want[0]) <= tol and abs(got[1] - want[1]) <= tol


def check_udev_tags_touchscreen(guest):
    the_screen(guest)
    p = udev_props(guest.run(f"udevadm info {screen.devnode}").check().stdout)
    expect(p.get("ID_INPUT") == "1" and p.get("ID_INPUT_TOUCHSCREEN") == "1", f"udev properties: {p}")
    expect((p.get("ID_INPUT_WIDTH_MM"), p.get("ID_INPUT_HEIGHT_MM")) == ("256", "160"), f"size: {p}")


def check_libinput_lists_touchscreen(guest):
    the_screen(guest)
    r = guest.run("libinput list-devices").check()
    devs = [d for d in touch.parse_list_devices(r.stdout) if d.get("Device") == NAME]
    expect(len(devs) == 1, f"{NAME!r} not in libinput list-devices:\n{r.stdout}")
    d = devs[0]
    expect(d.get("Capabilities") == "touch", f"capabilities {d.get('Capabilities')!r}")
    expect(d.get("Kernel") == screen.devnode, f"kernel node {d.get('Kernel')} vs {screen.devnode}")
    expect(d.get("Size") == "256x160mm", f"size {d.get('Size')}")


def check_libinput_reports_tap_in_mm(guest):
    dev = with_libinput(guest)
    expect(screen.wait_opened() > 0, "nobody has the device open")     # libinput, of course
    screen.play("tap 0.25 0.5")
    downs = wait_events("TOUCH_DOWN", 1, dev)
    wait_events("TOUCH_UP", 1, dev)
    d = downs[0]
    expect(d.slot == 0, f"slot {d.slot}")
    expect(near((d.x_mm, d.y_mm), geometry.mm(0.25, 0.5)), f"tap at {d.x_mm}/{d.y_mm} mm, "
           f"wanted {geometry.mm(0.25, 0.5)}")


def check_two_finger_gesture(guest):
    dev = with_libinput(guest)
    n_down, n_up = len(libinput_events("TOUCH_DOWN", dev)), len(libinput_events("TOUCH_UP", dev))
    n_motion = len(libinput_events("TOUCH_MOTION", dev))
    # A pinch: two fingers down, four frames moving towards each other, both up.
    steps = [(0.2 + 0.05 * i, 0.3 + 0.02 * i, 0.8 - 0.05 * i, 0.7 - 0.02 * i) for i in range(5)]
    script = [f"down 0 {steps[0][0]} {steps[0][1]}", f"down 1 {steps[0][2]} {steps[0][3]}", "frame"]
    for x0, y0, x1, y1 in steps[1:]:
        script += ["sleep 10", f"move 0 {x0:.2f} {y0:.2f}", f"move 1 {x1:.2f} {y1:.2f}", "frame"]
    script += ["up 0", "up 1", "frame"]
    screen.play("\n".join(script))
    downs = wait_events("TOUCH_DOWN", n_down + 2, dev)[n_down:]
    wait_events("TOUCH_UP", n_up + 2, dev)
    motions = wait_events("TOUCH_MOTION", n_motion + 8, dev)[n_motion:]
    expect(sorted(e.seat_slot for e in downs) == [0, 1], f"seat slots {[e.seat_slot for e in downs]}")
    by_slot = {e.slot: e for e in downs}
    expect(near((by_slot[0].x_mm, by_slot[0].y_mm), geometry.mm(0.2, 0.3)), f"finger 0 down at {by_slot[0]}")
    expect(near((by_slot[1].x_mm, by_slot[1].y_mm), geometry.mm(0.8, 0.7)), f"finger 1 down at {by_slot[1]}")
    last = {e.slot: e for e in motions}
    x0, y0, x1, y1 = steps[-1]
    expect(near((last[0].x_mm, last[0].y_mm), geometry.mm(round(x0, 2), round(y0, 2))), f"finger 0 ends at {last[0]}")
    expect(near((last[1].x_mm, last[1].y_mm), geometry.mm(round(x1, 2), round(y1, 2))), f"finger 1 ends at {last[1]}")


def check_one_shot_drag(guest):
    # Guest.touch(): a separate device for one script, played once libinput has added it. (Waiting
    # only until libinput opens it, wait="open", lost the whole drag under heavy host load: libinput
    # drains the queue after opening.)
    with_libinput(guest)

    def libinput_has_it():
        events.wait_for_output(r"DEVICE_ADDED\s+kioskvm one-shot", 60)
    r = guest.touch("drag 0.1 0.1 0.9 0.9 8 160", wait=libinput_has_it, name="kioskvm one-shot", size_mm=(200, 100))
    expect(r.ok, r)
    added = [e for e in libinput_events("DEVICE_ADDED") if "kioskvm one-shot" in e.rest]
    expect(added, "libinput never saw the one-shot device")
    dev = added[-1].device
    wait_events("TOUCH_UP", 1, dev)
    downs, motions = libinput_events("TOUCH_DOWN", dev), libinput_events("TOUCH_MOTION", dev)
    g = touch.DeviceGeometry(size_mm=(200, 100))
    expect(len(downs) == 1 and near((downs[0].x_mm, downs[0].y_mm), g.mm(0.1, 0.1)), f"down: {downs}")
    expect(len(motions) == 8, f"{len(motions)} motions, wanted 8")
    expect(near((motions[-1].x_mm, motions[-1].y_mm), g.mm(0.9, 0.9)), f"drag ends at {motions[-1]}")


def check_remove_mid_gesture_and_recreate(guest):
    dev = with_libinput(guest)
    downs = len(libinput_events("TOUCH_DOWN", dev))
    screen.play("down 0 0.5 0.5\nframe")
    wait_events("TOUCH_DOWN", downs + 1, dev)        # a finger is down...
    screen.remove()                                  # ...when the device goes away
    wait_events("DEVICE_REMOVED", 1, dev)
    # libinput ends the orphaned touch with TOUCH_CANCEL before DEVICE_REMOVED (seen with 1.22):
    # what a kiosk's gesture code must cope with when a touchscreen is unplugged mid-gesture.
    tail = [e.type for e in libinput_events(device=dev)]
    tail = tail[len(tail) - 1 - tail[::-1].index("TOUCH_DOWN"):]
    expect("TOUCH_CANCEL" in tail or "TOUCH_UP" in tail, f"the finger was never released: {tail}")
    # Plugged in again: libinput adds it anew (the kernel may hand out the same eventN again, so
    # count DEVICE_ADDED lines rather than look for the name).
    added_before = len(libinput_events("DEVICE_ADDED"))
    node = screen.create()
    added = wait_events("DEVICE_ADDED", added_before + 1)[added_before:]
    expect(added[0].device == node.rsplit("/", 1)[1] and NAME in added[0].rest, f"re-created device: {added}")
    r = screen.close()
    expect(r.ok, r)
