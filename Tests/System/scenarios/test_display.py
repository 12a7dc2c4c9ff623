"""Displays: the kiosk's DRM/KMS backend against virtio-gpu: connectors, modes, modesets, pixels, fbdev, restore."""

import time
from pathlib import Path

from kioskvm import drm, image
from kioskvm.scenario import expect, note
from scenarios_support import (KIOSK, SEAT, mode_spelling, reference, run_kiosk, same_pixels, screen_matches, screens_json, stop,
                               wait_for_frames)

GUEST = dict(heads=2)
TIMEOUT = 420


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
    # virtio-gpu's dumb buffers are guest RAM: the driver asks for no shadow, and frames are composed in them.
    expect("frames composed in the scanout buffers (shadow-buffer = auto; the driver does not prefer a shadow)"
           in result.stderr, result.stderr)
    same_pixels(shown, reference([("Virtual-1", mode)])["Virtual-1"])


def check_legacy_path(guest):
    # With the other way of composing too: in a shadow in RAM, copied into the scanout buffer.
    v1 = {c["name"]: c for c in screens_json(guest)}["Virtual-1"]
    mode = mode_spelling(v1, 800, 600)
    process, trace = run_kiosk(guest, "--backend drm --mode Virtual-1=800x600", env={"KIOSK_NO_ATOMIC": "1", "KIOSK_SHADOW_BUFFER": "always"})
    wait_for_frames(trace, ["Virtual-1"])
    shown = image.load(guest.screendump(0, Path(guest.job_dir) / "legacy.png"))
    result = stop(process)
    expect("legacy modesetting" in result.stderr, result.stderr)
    expect("frames composed in a shadow (shadow-buffer = always;" in result.stderr, result.stderr)
    same_pixels(shown, reference([("Virtual-1", mode)])["Virtual-1"])


def check_console_comes_back_after_sigterm(guest):
    # The previous checks stopped the kiosk with SIGTERM: the console's mode and framebuffer are back.
    after = image.load(guest.screendump(0, Path(guest.job_dir) / "console.png"))
    expect(after.size == (1280, 800), f"head 0 shows {after.size}, not the console's 1280x800")
    expect(after.color_at(5, 300) != (242, 242, 247), "head 0 still shows the kiosk")
    r = guest.run("cat /sys/class/graphics/fb0/virtual_size; cat /sys/class/vtconsole/vtcon1/bind").check()
    expect(r.stdout.split()[0] == "1280,800" and r.stdout.split()[1] == "1", f"fbcon state: {r.stdout}")


# Stops a kiosk with SIGTERM at one moment of its start: "exec" (its first instruction, once its main thread
# blocks the stop signals: bit 15 of SigBlk) or a startup phase of its trace; prints the exit status.
STOP_AT = r"""
import json, os, signal, subprocess, sys, time
kiosk, trace, moment = sys.argv[1:4]
log = open(trace + ".log", "w")
process = subprocess.Popen([kiosk, "run", "--trace", trace], stderr=log, env={**os.environ, "LIBSEAT_BACKEND": "builtin"})

def blocked():
    try:
        with open(f"/proc/{process.pid}/status") as status:
            return any(l.startswith("SigBlk:") and int(l.split()[1], 16) & 1 << 14 for l in status)
    except FileNotFoundError:
        return True

def reached():
    try:
        with open(trace) as lines:
            return any(json.loads(l).get("phase") == moment for l in lines if l.strip())
    except FileNotFoundError:
        return False

while not blocked():
    time.sleep(0.0002)
while moment != "exec" and process.poll() is None and not reached():
    time.sleep(0.001)
process.send_signal(signal.SIGTERM)
print(process.wait())
"""


def check_a_sigterm_at_any_moment_of_the_start_stops_cleanly(guest):
    # Blocked from exec, read once the start is done: none kills the kiosk (143) before it can put the display
    # back, none is lost (a kiosk still running after it), and each ends with 0 and the console shown again.
    script = guest.write_file("stop_at.py", STOP_AT)
    for moment in ["exec", "configuration", "seat", "backend", "displays", "launched", "first-flip"]:
        trace = Path(guest.job_dir) / f"stop-at-{moment}.jsonl"
        r = guest.run(f"/usr/bin/python3 {guest.guest_path(script)} {KIOSK} {guest.guest_path(trace)} {moment}", timeout=90)
        log = Path(str(trace) + ".log").read_text()
        expect(r.ok and r.stdout.strip() == "0", f"SIGTERM at {moment}: exit status {r.stdout.strip() or r}; {log}")
        expect("stopping: SIGTERM" in log, f"SIGTERM at {moment}: {log}")
        check_console_comes_back_after_sigterm(guest)


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
    # No usable KMS card: udev still lists card0, but its node is hidden under an empty /dev/dri, so it cannot
    # be opened; auto falls back to the DRM driver's /dev/fb0 (which stays where it is).
    guest.run("mount -t tmpfs hidden-cards /dev/dri").check()
    try:
        process, trace = run_kiosk(guest, "--backend auto")
        wait_for_frames(trace, ["fb0"])
        # fbdev reports no refresh rate, so the status bar differs from any headless mode: compare below it.
        # Screendumps until one shows the frame: under load QEMU can show a frame some time after the guest
        # wrote it (screen_matches).
        screen_matches(guest, 0, reference([("fb0", "1280x800@60")])["fb0"], ignore=((0, 0, 1280, 40),))
        result = stop(process)
    finally:
        guest.run("umount /dev/dri").check()
    expect("using the fbdev backend on /dev/fb0" in result.stderr, result.stderr)
    expect("drm: no usable DRM card among /dev/dri/card0" in result.stderr, result.stderr)


def check_libseat_trying_its_backends_is_no_error(guest):
    # No LIBSEAT_BACKEND, and neither seatd nor logind in the guest: libseat tries them and its builtin
    # backend opens the seat. The backends it skipped are notices (they had been errors), and the kiosk runs.
    r = guest.run(f"{KIOSK} run --exit-after 3", timeout=120)
    expect(r.ok, r)
    libseat = [line for line in r.stderr.splitlines() if "[libseat/" in line]
    expect(libseat, f"libseat said nothing: {r.stderr[-2000:]}")
    errors = [line for line in r.stderr.splitlines() if " error " in line]
    expect(not errors, f"errors in a kiosk that runs: {errors}")


NOTIFY_LISTENER = """
import os, socket, sys
listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
listener.bind(sys.argv[1])
listener.settimeout(0.2)
with open(sys.argv[2], "w") as out:
    # Until told to stop (a file beside the output), so a slow start under emulation is still heard.
    while not os.path.exists(sys.argv[2] + ".stop"):
        try:
            out.write(listener.recv(4096).decode() + "\\n")
            out.flush()
        except socket.timeout:
            pass
"""


def notifications(guest, name, command, env):
    """Runs `command` with NOTIFY_SOCKET set to a listener's socket: (its result, what systemd would have heard)."""
    script = Path(guest.job_dir) / "notify_listener.py"
    script.write_text(NOTIFY_LISTENER)
    heard = Path(guest.job_dir) / f"{name}.notify"
    listener = guest.spawn(f"exec python3 {guest.guest_path(script)} /tmp/{name}.sock {guest.guest_path(heard)}")
    for _ in range(100):
        if guest.run(f"test -S /tmp/{name}.sock").ok:
            break
        time.sleep(0.1)
    result = guest.run(command, env={**env, "NOTIFY_SOCKET": f"/tmp/{name}.sock"}, timeout=120)
    Path(str(heard) + ".stop").write_text("")
    listener.wait(60)
    return result, heard.read_text().split()


def check_a_named_card_that_cannot_be_used_stops_the_kiosk(guest):
    # The control: a kiosk that starts tells systemd READY=1 through this listener.
    started, heard = notifications(guest, "control", f"{KIOSK} run --exit-after 2", SEAT)
    expect(started.status == 0 and "READY=1" in heard, f"{started}; heard {heard}")
    # A card named by the command line (or the file, or KIOSK_DRM_DEVICE) that cannot be used: exit 3 with
    # the reason, even under backend auto, and never READY=1 (systemd restarts it and the journal says why).
    failed, heard = notifications(guest, "named", f"{KIOSK} run --drm-device /dev/dri/card7", SEAT)
    expect(failed.status == 3, failed)
    expect("kiosk: error: the drm backend cannot run: /dev/dri/card7:" in failed.stderr, failed.stderr)
    expect("READY=1" not in heard, f"heard {heard}")


def check_libseat_says_why_in_the_log(guest):
    # LIBSEAT_BACKEND=seatd with no seatd running: the kiosk stops (3) rather than open devices directly, and
    # libseat's own line, which says why, is in the kiosk's log.
    r = guest.run(f"{KIOSK} run --backend drm", env={"LIBSEAT_BACKEND": "seatd"}, timeout=60)
    expect(r.status == 3, r)
    expect("the seat backend cannot run: libseat_open_seat(LIBSEAT_BACKEND=seatd)" in r.stderr, r.stderr)
    libseat = [line for line in r.stderr.splitlines() if "notice kiosk.seat:" in line and "[libseat/" in line]
    expect(any("Could not connect to socket /run/seatd.sock" in line for line in libseat), r.stderr)
    note(f"libseat said: {libseat[0]}")
