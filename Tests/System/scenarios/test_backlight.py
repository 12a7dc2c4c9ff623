"""Backlight on DRM against a real backlight class device: a test kernel module (guest/kmod, built with
the kernel's headers) registers one under connector Virtual-1's DRM device, as i915 registers
intel_backlight under eDP-1; udev-rules/70-kiosk.rules gives its `brightness` to the video group (mode
0664, so a member can write it and others cannot); `kiosk screens` names it for Virtual-1; the kiosk,
run as an unprivileged member of video and input, dims the panel after `--dim-after 3` (sysfs reads the
dim level, the trace says so), a uinput tap restores the level and is delivered as usual, and stopping
the kiosk puts back the level found at start."""

import json
from pathlib import Path

from kioskvm.scenario import expect, note
from scenarios_support import KIOSK, REPO, screens_json, stop, trace_events, wait_for_frames, wait_until

GUEST = dict(heads=1)
TIMEOUT = 420

NAME = "kioskvm_bl"
SYSFS = f"/sys/class/backlight/{NAME}"
# The module's level at load, of 255: brightness (200 - 12) / 243 to the kiosk, whose floor is
# max(1, 255 / 20) = 12 (BacklightScale).
START = 200
# dim-brightness 0.2: 12 + round(0.2 * 243).
DIMMED = 61
# Without root's privileges, with the groups 70-kiosk.rules gives the devices to: what the kiosk user has.
AS_KIOSK_USER = "setpriv --reuid=nobody --regid=nogroup --groups=video,input --"

state = {}


def sysfs(guest, attribute="brightness"):
    return guest.run(f"cat {SYSFS}/{attribute}", timeout=30).check().stdout.strip()


def events(kind=None):
    return trace_events(state["trace"], kind)


def check_udev_gives_brightness_to_the_video_group(guest):
    # The rules first, so the device's add event meets them, as at boot on a board.
    guest.run(f"mkdir -p /etc/udev/rules.d && cp {REPO}/udev-rules/70-kiosk.rules /etc/udev/rules.d/ "
              "&& udevadm control --reload", timeout=60).check()
    module = guest.kernel_module("kioskvm_backlight")
    guest.run(f"insmod {module} name={NAME} type=raw connector=card0-Virtual-1 max_brightness=255 brightness={START} "
              "&& udevadm settle", timeout=60).check()
    parent = guest.run(f"readlink -f {SYSFS}/device", timeout=30).check().stdout.strip()
    expect(parent.endswith("/drm/card0/card0-Virtual-1"), f"{NAME} is not under the connector: {parent}")
    mode = guest.run(f"stat -c '%U %G %a' {SYSFS}/brightness {SYSFS}/bl_power", timeout=30).check().stdout.split("\n")
    expect(mode[:2] == ["root video 664", "root root 644"], f"brightness, bl_power: {mode}")
    # A member of video writes it; anyone else is refused.
    wrote = guest.run(f"{AS_KIOSK_USER} sh -c 'echo 100 > {SYSFS}/brightness'", timeout=30)
    expect(wrote.ok and sysfs(guest, "actual_brightness") == "100", wrote)
    refused = guest.run(f"setpriv --reuid=nobody --regid=nogroup --clear-groups -- sh -c 'echo 50 > {SYSFS}/brightness'",
                        timeout=30)
    expect(not refused.ok and "Permission denied" in refused.stderr, refused)
    guest.run(f"echo {START} > {SYSFS}/brightness", timeout=30).check()
    note(f"{NAME} under card0-Virtual-1: brightness root:video 664, bl_power root:root 644")


def check_the_rules_check_covers_the_backlight(guest):
    r = guest.run(f"{REPO}/udev-rules/check", timeout=120)
    expect(r.ok, r)
    last = r.stdout.strip().splitlines()[-2:]
    expect(any(NAME in line for line in last), f"{NAME} was not checked: {r.stdout}")


def check_kiosk_screens_names_the_backlight(guest):
    virtual = {c["name"]: c for c in screens_json(guest)}["Virtual-1"]
    expect(virtual["backlight"] == {"name": NAME, "type": "raw", "max_brightness": 255, "brightness": START}, virtual)
    expect(virtual["backlight_reason"] == "registered under card0-Virtual-1", virtual)
    text = guest.run(f"{KIOSK} screens", timeout=60).check().stdout
    line = f"    backlight {NAME} (raw, level {START} of 255; registered under card0-Virtual-1)"
    expect(line in text.splitlines(), text)
    # A name that does not exist: no backlight, and the devices there are.
    named = guest.run(f"{KIOSK} screens --json --backlight Virtual-1=nope", timeout=60).check()
    virtual = {c["name"]: c for c in json.loads(named.stdout)}["Virtual-1"]
    expect(virtual["backlight"] is None, virtual)
    expect(virtual["backlight_reason"] == f'the config names backlight "nope", which does not exist; there are: {NAME}',
           virtual)
    note(line.strip())


def check_the_kiosk_dims_after_three_seconds(guest):
    # A folder the unprivileged kiosk can write its trace to.
    folder = Path(guest.job_dir) / "kiosk-user"
    guest.run(f"mkdir -p -m 0777 {guest.guest_path(folder)}", timeout=30).check()
    trace = folder / "trace.jsonl"
    state["trace"] = trace
    state["process"] = guest.spawn(
        f"exec {AS_KIOSK_USER} env HOME=/tmp LIBSEAT_BACKEND=noop {KIOSK} run --backend drm --dim-after 3 "
        f"--dim-brightness 0.2 --trace {guest.guest_path(trace)}")
    wait_for_frames(trace, ["Virtual-1"])
    dimmed = wait_until(lambda: events("screen.brightness"), "screen.brightness", 30,
                        lambda: f"{events()[-5:]}; stderr: {state['process'].stderr_so_far()[-2000:]}")
    expect(dimmed[0] == {"event": "screen.brightness", "screen": "Virtual-1", "brightness": 0.2}, dimmed[0])
    expect(sysfs(guest) == str(DIMMED) and sysfs(guest, "actual_brightness") == str(DIMMED),
           f"brightness {sysfs(guest)}, actual {sysfs(guest, 'actual_brightness')}")
    expect([e["power"] for e in events("screen.power")] == [], events("screen.power"))
    note(f"dimmed: {SYSFS}/brightness {DIMMED} (0.2)")


def check_a_tap_restores_the_level_and_is_delivered(guest):
    with guest.touchscreen(name="Kiosk Backlight Touch", size_mm=(256, 160)) as screen:
        state["process"].wait_for_output('"Kiosk Backlight Touch"', timeout=30, stderr=True)
        touches = len(events("touch"))
        # Dimmed again by now (the device was added more than 3 s after the first dim, or it dims meanwhile).
        wait_until(lambda: sysfs(guest) == str(DIMMED), "the panel dimmed", 30)
        seen = len(events("screen.brightness"))
        # On the welcome alert's card (640, 362): a dimmed screen is on, so the tap reaches it.
        screen.play(f"tap 0.5 {362 / 800:.5f}")
        restored = wait_until(lambda: [e for e in events("screen.brightness")[seen:] if e["brightness"] > 0.2],
                              "the level restored", 30, lambda: f"{events()[-5:]}")
        level = sysfs(guest)
        expect(level == str(START), f"brightness {level} after the tap, expected {START}")
        expect(abs(restored[0]["brightness"] - (START - 12) / 243) < 1e-9, restored[0])
        delivered = wait_until(lambda: events("touch")[touches:], "the tap delivered", 30)
        expect(delivered[0]["view"] == "alert.header", delivered[0])
        note(f"a tap: {SYSFS}/brightness {level} again, the tap reached {delivered[0]['view']}")


def check_stopping_puts_back_the_level_found_at_start(guest):
    # Dim it once more, then stop: the console gets the panel as the kiosk found it.
    wait_until(lambda: sysfs(guest) == str(DIMMED), "the panel dimmed again", 30)
    stop(state["process"])
    expect(sysfs(guest) == str(START), f"brightness {sysfs(guest)} after the kiosk stopped, expected {START}")
