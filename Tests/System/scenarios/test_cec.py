"""HDMI-CEC against the kernel's vivid driver: its emulated HDMI input (the TV, cec-ctl --tv) and output (the
kiosk's adapter, named by [screens.Virtual-1] cec) share one bus; idle blanking with cec-on-idle puts the TV
in standby (0x36) and a uinput tap wakes it (0x04, then 0x82 with the physical address), as cec-ctl --monitor
sees them on the bus; without cec-on-idle nothing is sent; a Standby nobody acknowledges is logged and the
kiosk goes on; the udev rule gives the adapters to the kiosk's group; `kiosk screens` lists them.

A TV that drops hotplug detect in standby: a kiosk started inside a scheduled off sends Standby; head 0
unplugged (the TV's hotplug detect gone) takes the screen away, yet `kiosk power on --screen Virtual-1` and
then the schedule's `on` (the guest's clock set past it) each send Image View On, and the screen that comes
back sends Active Source."""

import re
import time
from pathlib import Path

from kioskvm.scenario import expect, note
from scenarios_support import KIOSK, REPO, run_kiosk, screens_json, stop, trace_events, wait_until

GUEST = dict(heads=1)
TIMEOUT = 480

# One vivid instance with only a video capture node (one HDMI input: the TV's adapter, physical address
# 0.0.0.0) and a video output node (one HDMI output: a source's adapter, 1.0.0.0), no framebuffer or radio.
VIVID = "n_devs=1 node_types=0x101 num_inputs=1 input_types=3 num_outputs=1 output_types=1"
TV, SOURCE = "/dev/cec0", "/dev/cec1"
IDLE = 3

state = {}


def vivid(guest):
    """Loads vivid once (the modules are in the image's extras, see build.GUEST_MODULES)."""
    if "vivid" not in state:
        guest.run(f"modprobe vivid {VIVID} && udevadm settle", timeout=120).check()
        state["vivid"] = True


def monitor(guest):
    """The TV: cec-ctl claims TV (logical address 0) on vivid's input adapter, then a monitor prints every
    message on the bus with its raw bytes."""
    vivid(guest)
    if "monitor" not in state:
        guest.run(f"cec-ctl -d {TV} --tv --osd-name TV", timeout=60).check()
        process = guest.spawn(f"exec cec-ctl -d {TV} --monitor --show-raw")
        process.wait_for_output(r"^Initial Event", timeout=30)
        state["monitor"] = process
    return state["monitor"]


def bus(guest):
    """The messages the monitor saw from the kiosk's Playback Device, as lists of bytes, in order."""
    text = monitor(guest).stdout_so_far()
    messages = []
    for block in re.split(r"\n(?=\S)", text):
        if not block.startswith("Received from"):
            continue
        raw = re.search(r"Raw: ((?:0x[0-9a-f]{2} ?)+)", block)
        if raw:
            messages.append([int(b, 16) for b in raw.group(1).split()])
    return messages


def contains_in_order(messages, wanted):
    """Whether `wanted` appear in `messages` in that order (others may come between)."""
    found = iter(messages)
    return all(any(m == w for m in found) for w in wanted)


def settled_bus(guest):
    """The bus after a kiosk stopped: a moment for the monitor to print what was still on its way."""
    time.sleep(1)
    return len(bus(guest))


def kiosk(guest, config, args=""):
    """Starts the kiosk on head 0 with `config` (TOML text) and waits until its input devices are open. Not
    for a frame with the launch's animation ended: the idle time counts from the displays' start, so under
    load the screen may go off before that frame (no pixels are compared here)."""
    path = guest.job_dir / f"kiosk-{time.monotonic_ns()}.toml"
    path.write_text(config)
    process, trace = run_kiosk(guest, f"--backend drm --idle-timeout {IDLE} --config {path} {args}")
    state.update(process=process, trace=trace)
    wait_until(lambda: [e for e in events("startup") if e["phase"] == "input"], "the kiosk's input started", 90,
               lambda: f"{events()[-5:]}")
    return process, trace


def events(kind=None):
    return trace_events(state["trace"], kind)


def power_changes(power):
    return [e for e in events("screen.power") if e["power"] == power]


def check_vivid_has_emulated_hdmi_cec(guest):
    # The parameters this scenario uses, as the guest kernel's vivid names them.
    params = guest.run("modinfo -p vivid", timeout=60).check().stdout
    for name in ("n_devs", "node_types", "num_inputs", "input_types", "num_outputs", "output_types"):
        expect(re.search(rf"^{name}:", params, re.M), f"vivid has no parameter {name}:\n{params}")
    vivid(guest)
    for path, name in ((TV, "vivid-000-vid-cap0"), (SOURCE, "vivid-000-vid-out0")):
        out = guest.run(f"cec-ctl -d {path}", timeout=60).check().stdout
        expect(f"Adapter Name               : {name}" in out, out)
        expect("Connector Info             : None" in out, f"{path} is tied to a connector now:\n{out}")


def check_the_udev_rule_gives_the_adapters_to_the_kiosk_group(guest):
    vivid(guest)
    r = guest.run(f"{REPO}/udev-rules/check --require-cec", timeout=120)
    expect(r.ok, r)
    expect("cec0" in r.stdout and "cec1" in r.stdout, r.stdout)
    note(r.stdout.strip().splitlines()[-1])


def check_kiosk_screens_lists_the_adapters(guest):
    vivid(guest)
    text = guest.run(f"{KIOSK} screens", timeout=60).check().stdout
    expect("HDMI-CEC adapters tied to no connector" in text, text)
    expect(re.search(r"^  /dev/cec1 \(vivid vivid-000-vid-out0, physical address 1\.0\.0\.0", text, re.M), text)
    virtual1 = {c["name"]: c for c in screens_json(guest)}["Virtual-1"]
    expect(virtual1["cec"] is None, virtual1)


def check_idle_blanking_with_cec_on_idle_puts_the_tv_in_standby(guest):
    monitor(guest)
    before = len(bus(guest))
    kiosk(guest, f'[screens.Virtual-1]\ncec = "{SOURCE}"\n', "--cec-on-idle")
    off = wait_until(lambda: power_changes("off"), "screen.power off", 30, lambda: f"{events()[-5:]}")
    expect(off[0]["reason"] == f"idle for {IDLE} s", off[0])
    # From the Playback Device's logical address (4) to the TV (0): <Standby>.
    wait_until(lambda: [0x40, 0x36] in bus(guest)[before:], "Standby on the bus", 30, lambda: monitor(guest).stdout_so_far()[-2000:])
    sent = wait_until(lambda: [e for e in events("cec") if e["outcome"] == "sent"], "the trace's cec sent", 30, lambda: f"{events('cec')}")
    expect(sent[0]["opcode"] == 0x36 and sent[0]["to"] == 0 and sent[0]["adapter"] == SOURCE, sent[0])
    state["standby_at"] = len(bus(guest))
    note(f"Standby on the bus when the screen went off ({off[0]['reason']})")


def check_a_tap_wakes_the_screen_and_the_tv(guest):
    if "trace" not in state:
        check_idle_blanking_with_cec_on_idle_puts_the_tv_in_standby(guest)
    wait_until(lambda: power_changes("off"), "screen.power off", 30)
    after = state.get("standby_at", len(bus(guest)))
    with guest.touchscreen(name="Kiosk CEC Touch", size_mm=(256, 160)) as screen:
        state["process"].wait_for_output('"Kiosk CEC Touch"', timeout=30, stderr=True)
        screen.play("tap 0.1 0.1")
        on = wait_until(lambda: power_changes("on"), "screen.power on", 30, lambda: f"{events()[-5:]}")
        expect(on[0]["reason"] == "input", on[0])
        # <Image View On> to the TV, then <Active Source> to all with the output's physical address 1.0.0.0.
        wake = [[0x40, 0x04], [0x4f, 0x82, 0x10, 0x00]]
        wait_until(lambda: contains_in_order(bus(guest)[after:], wake), "Image View On, then Active Source", 30,
                   lambda: monitor(guest).stdout_so_far()[-2000:])
        woken = [e for e in events("cec") if e["reason"] == "input" and e["outcome"] == "queued"]
        expect([(e["opcode"], e["to"]) for e in woken[:2]] == [(0x04, 0), (0x82, "all")], woken)
    note("Image View On then Active Source 1.0.0.0 on the bus after the waking tap")


def check_without_cec_on_idle_the_tv_stays_on(guest):
    if "process" in state:
        stop(state.pop("process"))
    monitor(guest)
    before = settled_bus(guest)
    kiosk(guest, f'[screens.Virtual-1]\ncec = "{SOURCE}"\n')
    wait_until(lambda: power_changes("off"), "screen.power off", 30, lambda: f"{events()[-5:]}")
    time.sleep(3)
    expect(bus(guest)[before:] == [], f"sent without cec-on-idle: {bus(guest)[before:]}")
    expect(events("cec") == [], events("cec"))
    stop(state.pop("process"))


def check_a_standby_nobody_acknowledges_is_logged_and_the_kiosk_goes_on(guest):
    if "process" in state:
        stop(state.pop("process"))
    monitor(guest)
    # No TV on the bus: the input adapter gives its logical address up.
    guest.run(f"cec-ctl -d {TV} --clear", timeout=60).check()
    try:
        process, _ = kiosk(guest, f'[screens.Virtual-1]\ncec = "{SOURCE}"\n', "--cec-on-idle")
        failed = wait_until(lambda: [e for e in events("cec") if e["outcome"] == "failed"], "the trace's cec failed", 40,
                            lambda: f"{events('cec')}")
        expect(failed[0]["opcode"] == 0x36 and "NACK" in failed[0]["status"], failed[0])
        line = process.wait_for_output(rf"error kiosk\.cec: .*Standby .* through /dev/cec1 \(idle for {IDLE} s\) failed: .*NACK.*", timeout=30, stderr=True)
        note(f"logged: {line.group(0).split('kiosk.cec: ', 1)[-1][:160]}")
        expect(process.poll() is None, "the kiosk stopped")
        stop(process)
        state.pop("process", None)
    finally:
        guest.run(f"cec-ctl -d {TV} --tv --osd-name TV", timeout=60)


def check_a_tv_that_drops_hotplug_detect_in_standby_is_woken(guest):
    if "process" in state:
        stop(state.pop("process"))
    monitor(guest)
    start = settled_bus(guest)
    # Off from an hour ago to an hour on, every day, by the guest's clock (UTC).
    now = int(guest.run("date +%s", timeout=30).check().stdout)
    minute = lambda seconds: time.strftime("%H:%M", time.gmtime(seconds))
    config = Path(guest.job_dir) / "cec-schedule.toml"
    config.write_text(f'[screens.Virtual-1]\ncec = "{SOURCE}"\n\n'
                      f'[[power.schedule]]\ndays = "daily"\noff = "{minute(now - 3600)}"\non = "{minute(now + 3600)}"\n')
    guest.run("mkdir -p /run/kiosk", timeout=30).check()
    # QEMU ignores 0x0 for a head whose size no UI set (test_screen_hotplug): head 0 gets its size now, long
    # before it is unplugged. Given just before it, the resize and the unplug came back to back, which the
    # other scenarios avoid (test_screen_hotplug waits a second): once in CI, two guests at once, the unplug
    # never reached the kiosk. Not reproduced in 65 tries here, with and without the kiosk and a second guest;
    # one suspect is virtio-gpu's guest driver, which clears its pending display events only after asking for
    # the display info, so an event that comes in between is cleared unseen.
    guest.set_head_size(0, 1280, 800)
    # RUNTIME_DIRECTORY as systemd sets it for the unit's RuntimeDirectory=kiosk: the socket is /run/kiosk/control.
    process, trace = run_kiosk(
        guest, f"--backend drm --idle-timeout {IDLE} --config {guest.guest_path(config)}", env={"RUNTIME_DIRECTORY": "/run/kiosk"})
    state.update(process=process, trace=trace)
    tail = lambda: f"trace: {events()[-6:]}\nbus: " + monitor(guest).stdout_so_far()[-1500:]   # the trace first: a long failure is cut
    standby, wake, active = [0x40, 0x36], [0x40, 0x04], [0x4f, 0x82, 0x10, 0x00]
    # Started inside the scheduled off: the screen goes off and the TV to standby.
    wait_until(lambda: standby in bus(guest)[start:], "Standby at start in the scheduled off", 60, tail)
    expect(power_changes("off")[0]["reason"] == "schedule", power_changes("off"))
    wait_until(lambda: guest.run("test -S /run/kiosk/control", timeout=30).ok, "the control socket", 60)

    def unplug():
        count = len(events("screen.disconnect"))
        guest.disconnect_head(0)
        wait_until(lambda: len(events("screen.disconnect")) > count, "screen.disconnect Virtual-1", 30, tail)

    def plug_in(after):
        count = len(events("screen.connect"))
        guest.set_head_size(0, 1280, 800)
        wait_until(lambda: len(events("screen.connect")) > count, "screen.connect Virtual-1", 30, tail)
        wait_until(lambda: active in bus(guest)[after:], "Active Source after the screen came back", 30, tail)

    # The TV in standby drops hotplug detect: the screen goes away, its adapter stays open.
    unplug()
    process.wait_for_output("stays open to wake it", timeout=30, stderr=True)
    # `kiosk power on` for the away screen wakes the TV.
    mark = len(bus(guest))
    r = guest.run(f"{KIOSK} power on --screen Virtual-1", timeout=60)
    expect(r.ok and r.stdout.startswith("Virtual-1 waking: disconnected;"), r)
    wait_until(lambda: wake in bus(guest)[mark:], "Image View On for kiosk power on", 30, tail)
    expect([(e["opcode"], e["reason"]) for e in events("cec") if e["outcome"] == "queued"][-1] == (0x04, "control"), events("cec"))
    # The TV raises hotplug detect: the screen is back and shows this input. Woken during the scheduled
    # off, it goes off again once idle, and the TV to standby.
    plug_in(mark)
    mark = len(bus(guest))
    idle_again = wait_until(lambda: [e for e in power_changes("off") if "idle again" in e["reason"]], "off again when idle", 30, tail)
    wait_until(lambda: standby in bus(guest)[mark:], "Standby when idle again", 30, tail)
    note(f"away screen: kiosk power on sent Image View On, Active Source when back, then off ({idle_again[0]['reason']})")
    # Away again in standby; the clock set past the schedule's on: Image View On, Active Source when back.
    unplug()
    mark = len(bus(guest))
    guest.run(f"date -s @{now + 3 * 3600}", timeout=30).check()
    wait_until(lambda: wake in bus(guest)[mark:], "Image View On at the schedule's on", 30, tail)
    expect([(e["opcode"], e["reason"]) for e in events("cec") if e["outcome"] == "queued"][-1] == (0x04, "schedule"), events("cec"))
    frames = lambda: [e for e in events("frame") if e.get("screen") == "Virtual-1"]
    before = len(frames())
    plug_in(mark)
    wait_until(lambda: len(frames()) > before, "a frame on the screen that came back", 30, tail)
    result = stop(state.pop("process"))
    expect("on: schedule (disconnected since it went off: its display was woken)" in result.stderr, result.stderr[-2000:])
    note("away screen: the schedule's on sent Image View On, and Active Source when the screen came back")


def check_the_monitor_saw_nothing_malformed(guest):
    text = monitor(guest).stdout_so_far()
    expect("Warning" not in text and "Error" not in text, text[-2000:])
    monitor(guest).stop()
