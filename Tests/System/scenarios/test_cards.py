"""Cards and sessions: a second card (bochs) is listed and drivable; a VT switch pauses the kiosk and gives it back,
a screen that was off stays off when it comes back, a display plugged in while the kiosk was away is lit
when it comes back, and a display the console lit that is configured off goes dark (and gets the console
back when the kiosk stops)."""

import json
import signal
import time
from pathlib import Path

from kioskvm import image
from kioskvm.scenario import expect
from scenarios_support import (KIOSK, mode_spelling, reference, run_kiosk, same_pixels, screens_json, stop, trace_events,
                               wait_for_frames, wait_until)

# virtio-gpu (card0: Virtual-1, Virtual-2) and a bochs display (card1); connector numbers count across cards.
GUEST = dict(heads=2, devices=["bochs-display,id=bochs0"])
TIMEOUT = 300


def check_both_cards_are_listed_with_names_counted_across_cards(guest):
    listed = screens_json(guest)
    names = [(c["card"], c["name"]) for c in listed]
    expect(names == [("card0", "Virtual-1"), ("card0", "Virtual-2"), ("card1", "Virtual-3")], names)
    bochs = listed[2]
    expect(bochs["status"] == "connected" and bochs["modes"], bochs)
    for c in listed:
        r = guest.run(f"test -e /sys/class/drm/{c['card']}-{c['name']}").check()
        expect(r.ok, f"/sys/class/drm/{c['card']}-{c['name']} does not exist")


def check_the_second_card_can_be_chosen(guest):
    bochs = {c["name"]: c for c in screens_json(guest)}["Virtual-3"]
    preferred = next(m for m in bochs["modes"] if m["preferred"])
    mode = f"{preferred['width']}x{preferred['height']}@{preferred['refresh']}"
    process, trace = run_kiosk(guest, "--backend drm", env={"KIOSK_DRM_DEVICE": "/dev/dri/card1"})
    wait_for_frames(trace, ["Virtual-3"])
    shown = image.load(guest.screendump(0, Path(guest.job_dir) / "bochs.png", device="bochs0"))
    result = stop(process)
    expect("using /dev/dri/card1" in result.stderr, result.stderr)
    same_pixels(shown, reference([("Virtual-3", mode)])["Virtual-3"])
    # And card0 was left alone: head 0 of virtio-gpu still shows the console's 1280x800.
    expect(image.load(guest.screendump(0)).size == (1280, 800), "virtio-gpu head 0 was touched")


def check_a_session_switch_pauses_and_resumes(guest):
    v1 = {c["name"]: c for c in screens_json(guest)}["Virtual-1"]
    mode = mode_spelling(v1, 1024, 768)
    process, trace = run_kiosk(guest, "--backend drm --mode Virtual-1=1024x768", env={"KIOSK_DRM_DEVICE": "/dev/dri/card0"})
    wait_for_frames(trace, ["Virtual-1"])
    expected = reference([("Virtual-1", mode)])["Virtual-1"]
    same_pixels(image.load(guest.screendump(0)), expected)
    # Another VT takes the display: libseat (builtin seatd, VT_PROCESS) disables our session.
    guest.run("busybox chvt 2", timeout=30).check()
    process.wait_for_output("session disabled", timeout=30, stderr=True)
    time.sleep(1)
    away = image.load(guest.screendump(0))
    expect(away.size != (1024, 768) or away.color_at(5, 300) != (242, 242, 247), "the kiosk still shows on another VT")
    # Back: the kiosk re-modesets and repaints everything.
    guest.run("busybox chvt 1", timeout=30).check()
    process.wait_for_output("session enabled", timeout=30, stderr=True)
    time.sleep(2)
    same_pixels(image.load(guest.screendump(0)), expected)
    stop(process)


def crtc_active(guest, connector):
    """ACTIVE of the connector's CRTC, as drmframe --crtcs reads it from another client."""
    out = guest.run("drmframe --crtcs", timeout=30).check().stdout
    line = next(l for l in out.splitlines() if l.startswith(connector + " "))
    return int(dict(f.split("=") for f in line.split()[1:])["active"])


def check_a_screen_that_was_off_stays_off_after_a_session_switch(guest):
    process, trace = run_kiosk(guest, "--backend drm --idle-timeout 3", env={"KIOSK_DRM_DEVICE": "/dev/dri/card0"})
    wait_until(lambda: [e for e in trace_events(trace, "screen.power") if e["power"] == "off" and e["screen"] == "Virtual-1"],
               "Virtual-1 off when idle", 60, lambda: f"{trace_events(trace)[-5:]}")
    time.sleep(0.5)
    expect(crtc_active(guest, "Virtual-1") == 0, "Virtual-1's CRTC active while idle")
    guest.run("busybox chvt 2", timeout=30).check()
    process.wait_for_output("session disabled", timeout=30, stderr=True)
    guest.run("busybox chvt 1", timeout=30).check()
    process.wait_for_output("session enabled", timeout=30, stderr=True)
    time.sleep(1)
    # The re-modeset after the switch keeps it dark (it lit every screen, and nothing turned it off again).
    expect(crtc_active(guest, "Virtual-1") == 0, "Virtual-1's CRTC lit again by the session's return")
    expect([e["power"] for e in trace_events(trace, "screen.power") if e["screen"] == "Virtual-1"] == ["off"],
           trace_events(trace, "screen.power"))
    stop(process)


def check_a_display_plugged_in_during_a_session_switch_is_lit_on_return(guest):
    if "Virtual-2 connected" in guest.run("drmframe --list", timeout=30).stdout:
        guest.disconnect_head(1)
        wait_until(lambda: "Virtual-2 connected" not in guest.run("drmframe --list", timeout=30).stdout, "Virtual-2 unplugged", 30)
    process, trace = run_kiosk(guest, "--backend drm", env={"KIOSK_DRM_DEVICE": "/dev/dri/card0"})
    wait_for_frames(trace, ["Virtual-1"])
    guest.run("busybox chvt 2", timeout=30).check()
    process.wait_for_output("session disabled", timeout=30, stderr=True)
    # Plugged in while away: no modeset can succeed without the DRM master (it was tried, failed and
    # never tried again: the display stayed dark).
    guest.set_head_size(1, 1024, 768)
    wait_until(lambda: "Virtual-2 connected" in guest.run("drmframe --list", timeout=30).stdout, "Virtual-2 connected", 30)
    time.sleep(1.5)                                  # past the hotplug debounce (300 ms)
    expect(not [e for e in trace_events(trace, "screen.connect") if e["screen"] == "Virtual-2"], "lit while away")
    guest.run("busybox chvt 1", timeout=30).check()
    process.wait_for_output("session enabled", timeout=30, stderr=True)
    wait_until(lambda: [e for e in trace_events(trace, "screen.connect") if e["screen"] == "Virtual-2"], "screen.connect Virtual-2", 30,
               lambda: process.stderr_so_far()[-1500:])
    wait_for_frames(trace, ["Virtual-2"])
    log = stop(process).stderr
    expect("failed" not in log or "Virtual-2: lighting" not in log, log[-1500:])
    guest.disconnect_head(1)


def check_a_display_configured_off_does_not_keep_showing_the_console(guest):
    if "Virtual-2 connected" not in guest.run("drmframe --list", timeout=30).stdout:
        guest.set_head_size(1, 1024, 768)
    # The console (fbdev emulation) lights the display it finds connected.
    wait_until(lambda: "Virtual-2 crtc=" in guest.run("drmframe --crtcs", timeout=30).stdout
               and crtc_active(guest, "Virtual-2") == 1, "the console on Virtual-2", 30)
    process, trace = run_kiosk(guest, "--backend drm --mode Virtual-2=off", env={"KIOSK_DRM_DEVICE": "/dev/dri/card0"})
    wait_for_frames(trace, ["Virtual-1"])
    crtcs = guest.run("drmframe --crtcs", timeout=30).check().stdout
    expect("Virtual-2 crtc=" not in crtcs or crtc_active(guest, "Virtual-2") == 0, f"Virtual-2 still shows the console:\n{crtcs}")
    expect(not [e for e in trace_events(trace, "screen.connect") if e["screen"] == "Virtual-2"], "Virtual-2 connected as a screen")
    result = stop(process)
    expect("Virtual-2: turned dark" in result.stderr, result.stderr[-1500:])
    # The kiosk gone, the console is back on it.
    expect(crtc_active(guest, "Virtual-2") == 1, guest.run("drmframe --crtcs", timeout=30).stdout)
    guest.disconnect_head(1)


def check_a_card_opened_by_a_link_follows_hotplug(guest):
    # A board's config may name its card by a stable link (udev's /dev/dri/by-path/...-card): the kiosk
    # must still know it as the kernel's card0, which udev's hotplug events and the backlights' sysfs
    # parents name. Before, it took the link's last part for the card's name and ignored every hotplug.
    links = guest.run("ls /dev/dri/by-path/", timeout=30).check().stdout.split()
    link = next((f"/dev/dri/by-path/{l}" for l in links
                 if l.endswith("-card") and guest.run(f"readlink -f /dev/dri/by-path/{l}").stdout.strip() == "/dev/dri/card0"),
                None)
    expect(link is not None, f"udev made no by-path link to card0: {links}")
    if "Virtual-2 connected" in guest.run("drmframe --list", timeout=30).stdout:
        guest.disconnect_head(1)
    process, trace = run_kiosk(guest, "--backend drm", env={"KIOSK_DRM_DEVICE": link})
    wait_for_frames(trace, ["Virtual-1"])
    guest.set_head_size(1, 1024, 768)
    wait_until(lambda: trace_events(trace, "screen.connect", "Virtual-2"), "screen.connect Virtual-2 through the link", 30)
    result = stop(process)
    expect(f"using {link}" in result.stderr, result.stderr[-1500:])
    expect("kiosk.hotplug" in result.stderr and "Virtual-2: dark -> 1024x768" in result.stderr, result.stderr[-1500:])
    guest.disconnect_head(1)


def check_a_render_only_card_is_listed_as_skipped(guest):
    # vgem, a render-only DRM driver (no modesetting), beside the two display cards: as v3d beside vc4 on
    # a Raspberry Pi 4. `kiosk screens` says it skips it and why, exits 0, and `kiosk run` uses card0.
    def cards():
        return {c for c in guest.run("ls /sys/class/drm/", timeout=30).check().stdout.split() if c.startswith("card") and "-" not in c}
    before = cards()
    guest.run("modprobe vgem && udevadm settle", timeout=120).check()
    try:
        added = sorted(cards() - before)
        expect(len(added) == 1, f"modprobe vgem added the cards {added}")
        vgem = added[0]
        r = guest.run(f"{KIOSK} screens", timeout=60)
        expect(r.ok, f"kiosk screens exit {r.status}: {r.stderr}")
        expect(f"{vgem} (/dev/dri/{vgem}, vgem): skipped, not a modesetting device (a render-only node)" in r.stdout, r.stdout)
        expect(r.stderr.strip() == "", r.stderr)
        process, trace = run_kiosk(guest, "--backend drm")
        wait_for_frames(trace, ["Virtual-1"])
        result = stop(process)
        expect("using /dev/dri/card0" in result.stderr, result.stderr[-1500:])
    finally:
        guest.run("rmmod vgem", timeout=60)
