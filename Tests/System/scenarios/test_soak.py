"""The soak: the demo on both heads for KIOSK_SOAK_MINUTES minutes of the guest's clock (2 here, 20 in the long
form) under a scripted mix (taps, a long press's alert in and out, flings of the list, a product's detail,
the form typed into on the on-screen keyboard and a uinput keyboard; every minute head 1 off and on, a reload
and a screenshot of each head equal to QEMU's screendump; every other minute head 1 unplugged and plugged
back), its resources read from the guest's kernel at the end of every minute (resident memory within 1 MiB,
the same fds, threads, timers and mappings), then KIOSK_SOAK_CYCLES hotplug cycles and as many power cycles
of head 1 (50 here, 1000 in the long form) with the same resources after them, and at the end no frame, no
CPU and no thread woken over 5 s.

The long form (40 minutes on the bed): `KIOSK_SOAK_MINUTES=20 KIOSK_SOAK_CYCLES=1000 Tests/System/run soak`
(Tests/System/README.md, "The soak", has its figures)."""

import json
import os
import statistics
import time
from pathlib import Path

from kioskvm import image, measure
from kioskvm.control import ControlClient
from kioskvm.scenario import expect, note
from scenarios_support import (KIOSK, SEAT, TraceFollower, at, avoid_the_minute, screenshot_is_the_screendump, stop,
                               wait_until)

MINUTES = int(os.environ.get("KIOSK_SOAK_MINUTES", "2"))
CYCLES = int(os.environ.get("KIOSK_SOAK_CYCLES", "50"))

GUEST = dict(heads=2)
# The time limit follows the form. Measured under `stress-ng --cpu 2` here: the boot and the start ~60 s, a
# minute 62-65 s (a pass of the mix can run past its end: ~35 s), a hotplug cycle ~1 s, a power cycle ~0.5 s,
# a sample ~5 s (CYCLES // 10 of them, at least one in 25 cycles, for each kind); the short form 273-320 s in
# all, the long form 2,399 s. Twice that, and room.
TIMEOUT = 300 + MINUTES * 120 + CYCLES * 5

PANEL = (1280, 800)
SECOND = (1024, 768)
SOCKET = "/run/kiosk/control"
# Resident memory may spread this much over the minutes (and grow this much over each kind of cycle).
RSS_SPREAD_KIB = 1024
QUIET_SECONDS = 2
IDLE_SECONDS = 5

# Places on the 1280x800 head (DemoApp's layout).
TAP_ME = (640, 362)
FORM_BUTTON = (760, 362)
LONG_PRESS = (200, 250)         # the main window's background: not the list, no control
ALERT_OK = (640, 450)           # the alert's card at (505, 328, 270, 144), its OK the bottom 44
ROW = (150, 700)                # a row of the list (at the top of the list: the same product every time)
DETAIL_BACK = (54, 62)          # the navigation bar's back button, (0, 40, 109, 44)
NAME_FIELD = (340, 132)
FORM_DONE = (570, 78)
KEYS = {"H": (757.5, 606), "i": (932.5, 530)}    # on the on-screen keyboard (test_text_input)
LIST_X = 150

state = {"samples": [], "shots": 0, "hotplugs": 0, "power_cycles": 0, "reloads": 0, "passes": 0}


def trace():
    return state["trace"]


def wait_for(predicate, what, timeout=60):
    def context():
        stretched = state.get("stretched")
        held = f"; taps the kernel saw held as long presses: {stretched}" if stretched else ""
        return f"trace tail: {trace().tail()}{held}"
    return wait_until(predicate, what, timeout, context)


def config_text(rate):
    """The soak's configuration: the control socket at its usual place, the on-screen keyboard always (QEMU's
    i8042 keyboard would keep it away in `auto`), a 100 ms hotplug debounce (300 by default: the cycles are
    quicker) and a repeat rate, which each reload changes (25 <-> 30) so that every reload applies something."""
    return (f'control-socket = "{SOCKET}"\nkeyboard = "always"\nhotplug-debounce-ms = 100\n'
            f"keyboard-repeat-rate = {rate}\n")


def crtcs(guest, output):
    """{connector: ACTIVE} from `drmframe --crtcs` lines in `output`."""
    found = {}
    for line in output.splitlines():
        if " crtc=" in line and " active=" in line:
            name, *rest = line.split()
            found[name] = int(dict(f.split("=") for f in rest)["active"])
    return found


# ------------------------------------------------------------------------------------------- the kiosk

def started(guest):
    """The kiosk on both heads with its input devices, the sampler running beside it; started on first use."""
    if "process" in state:
        return state
    guest.run("mkdir -p /run/kiosk", timeout=30).check()
    if "Virtual-2 connected" not in guest.run("drmframe --list", timeout=30).stdout:
        guest.set_head_size(1, *SECOND)
        wait_until(lambda: "Virtual-2 connected" in guest.run("drmframe --list", timeout=30).stdout, "Virtual-2 connected")
    state["sampler"] = measure.Sampler(guest)
    config = Path(guest.job_dir) / "soak.toml"
    config.write_text(config_text(25))
    state.update(config=config, rate=25)
    path = Path(guest.job_dir) / "soak-trace.jsonl"
    # exec'd, and without stdbuf's preload library (line_buffered=False): the process measured is the kiosk.
    process = guest.spawn(
        f"exec {KIOSK} run --backend drm --config {guest.guest_path(config)} --mode Virtual-1=1280x800 "
        f"--mode Virtual-2=1024x768 --trace {guest.guest_path(path)}", env=SEAT, line_buffered=False)
    state.update(process=process, trace=TraceFollower(path))
    wait_for(lambda: trace().since(0, "frame", "Virtual-1") and trace().since(0, "frame", "Virtual-2"), "frames on both heads")
    wait_for(lambda: [e for e in trace().since(0, "startup") if e["phase"] == "input"], "input set up")
    wait_until(lambda: process.pid is not None, "the kiosk's pid")
    state["pid"] = process.pid
    touch = guest.touchscreen(name="Kiosk Soak Touch", size_mm=(256, 160))
    # Each key's down and up one after the other (no delay: a key the kernel saw held 0.6 s would repeat);
    # the ten keys of a pass are 40 events, within the 64 of an evdev client's buffer.
    keys = guest.keyboard(name="Kiosk Soak Keys", delay_ms=0)
    state.update(touch=touch, keys=keys)
    process.wait_for_output('"Kiosk Soak Touch"', timeout=60, stderr=True)
    process.wait_for_output('"Kiosk Soak Keys"', timeout=60, stderr=True)
    wait_for(lambda: trace().in_flight() == 0, "the alert's entrance shown")
    return state


def quiet(guest, seconds=QUIET_SECONDS, tries=30):
    """Until the kiosk is at rest: no animation in flight in the trace, then no frame, no CPU and no thread
    woken over `seconds` of the guest's clock (the kernel's counters: a fling's last frames and a
    screenshot's thread are over). Returns the CpuReport of that window."""
    last = None
    for _ in range(tries):
        wait_for(lambda: trace().in_flight() == 0, "no animation in flight")
        avoid_the_minute(guest, seconds + 1, state["sampler"])
        frames = len(trace().since(0, "frame"))
        last = state["sampler"].idle_cpu(state["pid"], seconds=seconds)
        if last.idle and len(trace().since(0, "frame")) == frames:
            return last
    raise AssertionError(f"the kiosk did not come to rest in {tries} windows of {seconds} s; the last:\n{last}\n"
                         f"trace tail: {trace().tail()}")


def tap(x, y):
    """A tap whose finger goes down and up in two writes one after the other (touchplay's `tap X Y 0`): a
    hold of 50 or 120 ms was once stretched to 2.1 s by the kernel's timestamps on a starved host (touchplay
    slept that long), which the demo rightly took for a long press: the alert came up in the middle of the
    mix. A tap the kernel still saw held for the long press's 0.8 s is recorded for the failure messages."""
    mark = trace().mark()
    state["touch"].play(f"tap {at(x, y)} 0")
    ended = wait_for(lambda: trace().since(mark, "touch", phase="ended") or trace().since(mark, "touch", phase="cancelled"),
                     f"the tap at ({x}, {y}) delivered")[0]
    began = trace().since(mark, "touch", phase="began")
    if began and ended["timestamp"] - began[0]["timestamp"] >= 0.8:
        state.setdefault("stretched", []).append(f"({x}, {y}) held {ended['timestamp'] - began[0]['timestamp']:.2f} s")
    return mark


# ------------------------------------------------------------------------------------------- the mix

def tap_the_button():
    """"Tap me": its press and release animations (the press's replaced by the release at once), the counter's
    text."""
    mark = tap(*TAP_ME)
    wait_for(lambda: trace().since(mark, "touch", view="tap-button", phase="ended"), "the tap on Tap me")
    wait_for(lambda: len([e for e in trace().since(mark, "animation.end") if "tap-button" in e["views"]]) >= 2,
             "the button's press and release animations")


def show_and_dismiss_the_alert():
    """A long press on the background brings the alert in (0.3 s); its OK sends it out (0.3 s). The finger
    stays down until the trace says the press was recognised (no hold time for the host to stretch)."""
    mark = trace().mark()
    state["touch"].play(f"down 0 {at(*LONG_PRESS)}\nframe")
    wait_for(lambda: trace().since(mark, "gesture", kind="long-press", state="began"), "the long press recognised")
    state["touch"].play("up 0\nframe")
    wait_for(lambda: trace().since(mark, "window.visible", window="AlertController.window"), "the alert shown")
    wait_for(lambda: trace().in_flight() == 0, "the alert's entrance")
    dismissed()


def dismissed():
    mark = tap(*ALERT_OK)
    wait_for(lambda: trace().since(mark, "window.hidden", window="AlertController.window"), "the alert dismissed")
    wait_for(lambda: trace().in_flight() == 0, "the alert's exit")


def fling(guest, y0, y1, ms):
    mark = trace().mark()
    state["touch"].play(f"drag {at(LIST_X, y0)} {at(LIST_X, y1)} 12 {ms}")
    wait_for(lambda: trace().since(mark, "gesture", kind="pan", state="ended"), "the pan's end")
    quiet(guest, 1)
    scrolls = trace().since(mark, "scroll", view="product-list")
    return scrolls[-1]["y"] if scrolls else None


def fling_the_list(guest):
    """Up the list by 600 px in 120 ms (it flies on and decelerates), then flings down until the trace's
    last offset is 0: the top again, bounced back to its edge."""
    offset = fling(guest, 780, 180, 120)
    expect(offset is not None and offset > 300, f"the fling up left the list at {offset}")
    for _ in range(8):
        offset = fling(guest, 470, 790, 60)
        if offset == 0:
            return
    raise AssertionError(f"the list did not come back to the top in 8 flings: at {offset}")


def open_and_close_a_product():
    mark = tap(*ROW)
    wait_for(lambda: trace().since(mark, "controller.appear", controller="DemoDetailController"), "the product's detail pushed")
    wait_for(lambda: trace().in_flight() == 0, "the push's slide")
    mark = tap(*DETAIL_BACK)
    wait_for(lambda: trace().since(mark, "controller.disappear", controller="DemoDetailController"), "the detail popped")
    wait_for(lambda: trace().in_flight() == 0, "the pop's slide")


def type_into_the_form():
    """The form, its name field, the on-screen keyboard sliding in; two letters tapped on it, four typed on the
    uinput keyboard, six backspaces (the field empty again), Done: the keyboard slides out, the form is dismissed."""
    mark = tap(*FORM_BUTTON)
    wait_for(lambda: trace().since(mark, "controller.appear", controller="DemoFormController"), "the form presented")
    mark = tap(*NAME_FIELD)
    wait_for(lambda: trace().since(mark, "keyboard.show"), "keyboard.show")
    wait_for(lambda: trace().in_flight() == 0, "the keyboard's slide in")
    for key in ("H", "i"):
        edits = len(trace().since(mark, "text.edit"))
        tap(*KEYS[key])
        wait_for(lambda: len(trace().since(mark, "text.edit")) > edits, f"the key {key} typed")
    state["keys"].play("type soak\n" + "key backspace\n" * 6)
    edits = wait_for(lambda: [e for e in trace().since(mark, "text.edit") if e["length"] == 0] and trace().since(mark, "text.edit"),
                     "the field emptied")
    lengths = [e["length"] for e in edits]
    expect(lengths == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1, 0] and all(e["view"] == "form-name" for e in edits), edits)
    mark = tap(*FORM_DONE)
    wait_for(lambda: trace().since(mark, "keyboard.hide"), "keyboard.hide")
    wait_for(lambda: trace().since(mark, "controller.disappear", controller="DemoFormController"), "the form dismissed")
    wait_for(lambda: trace().in_flight() == 0, "the keyboard's slide out")


def mix_pass(guest):
    """Every input of the mix once, each awaited in the trace, ending where it began: the main window alone,
    the list at its top, no field editing."""
    tap_the_button()
    tap_the_button()
    show_and_dismiss_the_alert()
    fling_the_list(guest)
    open_and_close_a_product()
    type_into_the_form()
    state["passes"] += 1


# --------------------------------------------------------------------------------- head 1, the socket

def power_cycle(guest, cli=True):
    """`kiosk power off --screen Virtual-2`: the answer, the trace's screen.power, its CRTC read back inactive
    and head 0's still active; `kiosk power on --screen Virtual-2`: the same the other way, and a frame on it.
    With `cli` False the requests are the command-line client's, sent from a client in the guest that stays
    (kioskvm.control: a connection per request, as the command-line client makes). Returns the guest's flip
    time of that frame."""
    def switch(state_):
        if cli:
            r = guest.run(f"{KIOSK} power {state_} --screen Virtual-2 --socket {SOCKET} && {guest.helper('drmframe')} --crtcs",
                          timeout=60)
            expect(r.ok and r.stdout.startswith(f"Virtual-2 {state_}\n"), r)
            return r.stdout
        answer = controller(guest).ask({"command": "power", "state": state_, "screen": "Virtual-2"},
                                       then=[guest.helper("drmframe"), "--crtcs"])
        expect(answer.reply == {"ok": True, "screens": [{"name": "Virtual-2", "power": state_}]} and answer.then["status"] == 0,
               answer)
        return answer.then["stdout"]

    mark = trace().mark()
    shown = switch("off")
    expect(crtcs(guest, shown) == {"Virtual-1": 1, "Virtual-2": 0}, f"after power off: {shown}")
    wait_for(lambda: trace().since(mark, "screen.power", "Virtual-2", power="off"), "screen.power off")
    off = trace().mark()
    shown = switch("on")
    expect(crtcs(guest, shown) == {"Virtual-1": 1, "Virtual-2": 1}, f"after power on: {shown}")
    wait_for(lambda: trace().since(off, "screen.power", "Virtual-2", power="on"), "screen.power on")
    frame = wait_for(lambda: trace().since(off, "frame", "Virtual-2"), "a frame on Virtual-2 after power on")[0]
    lines = trace().since(mark)
    on_at = next(i for i, e in enumerate(lines) if e["event"] == "screen.power" and e["power"] == "on")
    expect(not [e for e in lines[:on_at] if e["event"] == "frame" and e["screen"] == "Virtual-2"], "a frame on Virtual-2 while it was off")
    expect(all(e["reason"] == "control" for e in lines if e["event"] == "screen.power"), [e for e in lines if e["event"] == "screen.power"])
    state["power_cycles"] += 1
    return frame["flip"]


def controller(guest):
    if "control" not in state:
        state["control"] = ControlClient(guest, SOCKET)
    return state["control"]


def hotplug(guest, check_gone=True):
    """Head 1 unplugged (a real HOTPLUG uevent): the trace's screen.disconnect, and no CRTC left on Virtual-2;
    plugged back at 1024x768: screen.connect and a frame on it after that. Returns the frame's flip time."""
    mark = trace().mark()
    t0 = time.monotonic()
    guest.disconnect_head(1)
    wait_for(lambda: trace().since(mark, "screen.disconnect", "Virtual-2"), "screen.disconnect Virtual-2")
    t1 = time.monotonic()
    if check_gone:
        r = state["sampler"].time_command([guest.helper("drmframe"), "--crtcs"], timeout=60)
        expect(r["status"] == 0 and "Virtual-2" not in crtcs(guest, r["stdout"]), f"Virtual-2 still has a CRTC after its disconnect: {r}")
    connected = trace().mark()
    t2 = time.monotonic()
    guest.set_head_size(1, *SECOND)
    wait_for(lambda: trace().since(connected, "screen.connect", "Virtual-2"), "screen.connect Virtual-2")
    frame = wait_for(lambda: trace().since(connected, "frame", "Virtual-2"), "a frame on Virtual-2 after its connect")[0]
    state.setdefault("hotplug_phases", []).append((t1 - t0, t2 - t1, time.monotonic() - t2))
    state["hotplugs"] += 1
    return frame["flip"]


def reload(guest):
    """The configuration's repeat rate changed, then `kiosk reload`: it applies that, as the trace says."""
    state["rate"] = 30 if state["rate"] == 25 else 25
    state["config"].write_text(config_text(state["rate"]))
    mark = trace().mark()
    r = guest.run(f"{KIOSK} reload --socket {SOCKET}", timeout=60)
    expect(r.ok and "keyboard-repeat-rate" in r.stdout, r)
    line = wait_for(lambda: trace().since(mark, "config.reload"), "config.reload")[0]
    expect(line["applied"] == ["keyboard-repeat-rate"] and line["restart"] == [] and line["problems"] == 0, line)
    state["reloads"] += 1


def screenshots(guest, label):
    """At rest, `kiosk screenshot` of each head, pixel for pixel its QMP screendump. Once more if they
    differed and the trace has a frame of that head since the screenshot was asked for: at rest that is
    the status bar's clock turning the minute in between (the time kept clear of it may not be enough
    under load), not a wrong screenshot."""
    quiet(guest, 1)
    avoid_the_minute(guest, 10, state["sampler"])
    for head, name in enumerate(("Virtual-1", "Virtual-2")):
        path = Path(guest.job_dir) / f"soak-{label}-{name}.png"
        for attempt in (1, 2):
            mark = trace().mark()
            try:
                taken, _ = screenshot_is_the_screendump(guest, head, name, path, socket=SOCKET)
                break
            except AssertionError as e:
                if attempt == 2 or not trace().since(mark, "frame", name):
                    raise
                note(f"{label}: {name}'s screenshot taken again, a frame came in between ({str(e).splitlines()[0]})")
                path.unlink()
        if name == "Virtual-2":
            state["second_head"] = taken
        path.unlink()
        state["shots"] += 1


def sample(guest, label):
    """The resources of the kiosk (and of its processes: libseat's forked seatd) at rest."""
    quiet(guest)
    readings = state["sampler"].resources_tree(state["pid"])
    expect(readings and readings[0].pid == state["pid"], f"the kiosk is gone: {readings}")
    entry = {"label": label, "kiosk": readings[0], "others": readings[1:], "trace_lines": trace().mark()}
    state["samples"].append(entry)
    return entry


def minute(guest, number):
    """One minute of the guest's clock: head 1 off and on, unplugged and back every other minute, a reload,
    passes of the input mix while another fits before the minute's end (one at least), screenshots, the
    kiosk left idle until the minute is over, and then, at rest, a sample."""
    clock = state["sampler"].clock
    started_at = clock()
    power_cycle(guest)
    if number % 2 == 1:
        hotplug(guest)
    reload(guest)
    passes, longest = 0, 0.0
    while True:
        t = clock()
        mix_pass(guest)
        passes += 1
        longest = max(longest, clock() - t)
        if clock() - started_at + longest + state.get("shots_seconds", 10) >= 60:
            break
    t = clock()
    screenshots(guest, f"minute-{number}")
    state["shots_seconds"] = clock() - t
    idle = max(0.0, started_at + 60 - clock())
    time.sleep(idle)
    wait_until(lambda: clock() >= started_at + 60, "the minute's end by the guest's clock")
    entry = sample(guest, f"minute {number}")
    entry.update(passes=passes, seconds=clock() - started_at, idle=idle)
    return entry


def minutes_done(guest):
    """The minutes, run once (by whichever check needs them first)."""
    if "minutes" in state:
        return state["minutes"]
    if "minutes_failed" in state:
        raise AssertionError(f"the minutes failed: {state['minutes_failed']}")
    try:
        return run_the_minutes(guest)
    except BaseException as e:
        state["minutes_failed"] = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise


def run_the_minutes(guest):
    started(guest)
    t = time.monotonic()
    # No warm-up: minute 1 does every action of the mix before its sample, so its sample is taken after
    # the first uses (the detail and form controllers, the keyboard's window and glyphs, the PNG encoder's
    # thread and its stack, which glibc keeps for the next thread, the second head's buffers made again).
    # The sample before any input, the launch alert still up, is reported, not judged.
    state["at_start"] = sample(guest, "at start")
    dismissed()
    state["minutes"] = [minute(guest, n) for n in range(1, MINUTES + 1)]
    state["minutes_host_seconds"] = time.monotonic() - t
    return state["minutes"]


# ------------------------------------------------------------------------------------------- the checks

def check_the_mix_runs_minute_by_minute(guest):
    minutes = minutes_done(guest)
    expect(state["process"].running, "the kiosk exited")
    for entry in minutes:
        note(f"{entry['label']}: {entry['seconds']:.0f} s of the guest's clock, {entry['passes']} pass(es) of the mix, "
             f"{entry['idle']:.0f} s idle; "
             f"{entry['kiosk'].summary()}")
    note(f"{len(minutes)} minutes in {state['minutes_host_seconds']:.0f} s of the host's: {state['passes']} passes of the mix, "
         f"{state['power_cycles']} power cycles, {state['hotplugs']} hotplugs, {state['reloads']} reloads, "
         f"{state['shots']} screenshots equal to their screendumps; the trace {len(trace().events)} lines")


def check_resident_memory_stays_within_1_MiB_from_the_first_minute_to_the_last(guest):
    minutes = minutes_done(guest)
    rss = [m["kiosk"].rss_kib for m in minutes]
    spread = max(rss) - min(rss)
    start = state["at_start"]["kiosk"]
    note(f"VmRSS by minute (KiB): {rss} (at start, before any input: {start.rss_kib}); spread {spread} KiB; anonymous "
         f"{[m['kiosk'].rss_anon_kib for m in minutes]}, file {[m['kiosk'].rss_file_kib for m in minutes]}, "
         f"shmem {[m['kiosk'].rss_shmem_kib for m in minutes]}")
    expect(spread <= RSS_SPREAD_KIB, f"resident memory spread {spread} KiB over the minutes: {rss}")


def check_fds_threads_timers_and_mappings_are_the_same_every_minute(guest):
    minutes = minutes_done(guest)
    first = minutes[0]
    problems = []
    for m in minutes[1:]:
        for what in m["kiosk"].differences(first["kiosk"]):
            problems.append(f"{m['label']}: {what}")
        others = {o.pid: o for o in first["others"]}
        expect(sorted(o.pid for o in m["others"]) == sorted(others), f"{m['label']}: the kiosk's processes changed")
        for o in m["others"]:
            for what in o.differences(others[o.pid]):
                problems.append(f"{m['label']}, process {o.pid}: {what}")
    k = first["kiosk"]
    note(f"every minute: {k.fds} fds ({', '.join(f'{n} {kind}' for kind, n in sorted(k.fd_kinds.items()))}), "
         f"{k.thread_count} threads ({', '.join(sorted(set(k.threads)))}), {k.timerfd_count} timerfds "
         f"({k.armed_timerfds} armed), POSIX timers {k.posix_timers}, {k.maps} lines of maps ({sum(k.named_maps.values())} "
         f"named, anonymous {k.anonymous_kib} KiB)"
         + "".join(f"; process {o.pid}: {o.fds} fds, {o.thread_count} threads, {o.maps} lines of maps, RSS {o.rss_kib} KiB"
                   for o in first["others"]))
    first_use = k.differences(state["at_start"]["kiosk"])
    note(f"from the start to minute 1 (first uses): {'; '.join(first_use) if first_use else 'the same'}")
    lines = [f"{m['label']}: {m['kiosk'].line_changes(first['kiosk'])}" for m in minutes[1:] if m["kiosk"].line_changes(first["kiosk"])]
    if lines:
        note("the same mappings in other lines of maps (adjacent anonymous mappings merged or split): " + "; ".join(lines))
    expect(not problems, "\n".join(problems))


def cycles(guest, kind, run):
    """`CYCLES` of `run(guest)` (a flip time back), with the resources sampled at rest every tenth of them;
    the resources after them must be those of the first minute, and resident memory may grow by at most
    RSS_SPREAD_KIB over all of them."""
    minutes_done(guest)
    every = max(CYCLES // 10, 25)
    before = sample(guest, f"before the {kind} cycles")
    gaps, host = [], []
    readings = [(0, before["kiosk"].rss_kib)]
    last = None             # the flip of the cycle before, unless a sample came in between
    for number in range(1, CYCLES + 1):
        t = time.monotonic()
        flip = run(guest)
        host.append(time.monotonic() - t)
        if last is not None:
            gaps.append(flip - last)
        last = flip
        if number % every == 0 or number == CYCLES:
            readings.append((number, sample(guest, f"{kind} cycle {number}")["kiosk"].rss_kib))
            last = None
    after = state["samples"][-1]

    growth = after["kiosk"].rss_kib - before["kiosk"].rss_kib
    first = state["minutes"][0]["kiosk"]
    pace = (f"from one cycle's frame to the next's (the trace's flips, the guest's clock) median {statistics.median(gaps) * 1000:.0f} ms, "
            f"min {min(gaps) * 1000:.0f}, max {max(gaps) * 1000:.0f} over {len(gaps)} pairs without a sample between them; "
            if gaps else "")
    note(f"{CYCLES} {kind} cycles: {pace}by the host's clock median {statistics.median(host) * 1000:.0f} ms a cycle; VmRSS (KiB) "
         f"by cycle {readings}: {growth:+d} KiB ({growth * 1024 / CYCLES:+.0f} bytes a cycle); after them {after['kiosk'].summary()}")
    moved = after["kiosk"].line_changes(first)
    if moved:
        note(f"after the {kind} cycles, the same mappings in other lines of maps: {moved}")
    problems = after["kiosk"].differences(first)
    expect(not problems, f"after {CYCLES} {kind} cycles, against the first minute: " + "; ".join(problems))
    others = {o.pid: o for o in state["minutes"][0]["others"]}
    for m in state["samples"][-(len(readings) - 1):]:
        expect(not m["kiosk"].differences(first), f"{m['label']}: " + "; ".join(m["kiosk"].differences(first)))
        expect(sorted(o.pid for o in m["others"]) == sorted(others), f"{m['label']}: the kiosk's processes changed")
        for o in m["others"]:
            expect(not o.differences(others[o.pid]), f"{m['label']}, process {o.pid}: " + "; ".join(o.differences(others[o.pid])))
    expect(growth <= RSS_SPREAD_KIB, f"resident memory grew {growth} KiB over {CYCLES} {kind} cycles: {readings}")
    expect(max(r for _, r in readings) - min(r for _, r in readings) <= RSS_SPREAD_KIB,
           f"resident memory spread over the {kind} cycles: {readings}")


def check_hotplug_cycles_of_head_1(guest):
    """Unplug (gone: the trace's disconnect, no CRTC left), plug back (the trace's connect, a frame, and the
    display showing the second head's picture, as its screenshot was)."""
    expected = state.get("second_head")

    def one(guest):
        flip = hotplug(guest)
        if expected is not None:
            deadline = time.monotonic() + 10
            while True:
                dump = guest.screendump(1, Path(guest.job_dir) / "soak-cycle.ppm")
                shown = image.load(dump)
                dump.unlink()
                result = shown.compare(expected) if shown.size == expected.size else None
                if result or time.monotonic() > deadline:
                    expect(result is not None, f"head 1 shows {shown.size}, not {expected.size}")
                    result.expect()
                    break
                time.sleep(0.2)
        return flip
    cycles(guest, "hotplug", one)
    phases = state["hotplug_phases"][-CYCLES:]
    note("hotplug cycles by the host's clock, medians: unplugged to the trace's disconnect "
         f"{statistics.median(p[0] for p in phases) * 1000:.0f} ms, CRTC read back {statistics.median(p[1] for p in phases) * 1000:.0f} ms, "
         f"plugged to its first frame {statistics.median(p[2] for p in phases) * 1000:.0f} ms")


def check_power_cycles_of_head_1(guest):
    """Off (the answer, the trace, its CRTC inactive, no frame), on (the answer, the trace, its CRTC active,
    a frame)."""
    cycles(guest, "power", lambda guest: power_cycle(guest, cli=False))


def check_no_frame_no_cpu_and_no_thread_woken_when_idle_at_the_end(guest):
    started(guest)
    quiet(guest)
    avoid_the_minute(guest, IDLE_SECONDS + 1)
    frames = len(trace().since(0, "frame"))
    cpu = state["sampler"].idle_cpu(state["pid"], seconds=IDLE_SECONDS)
    expect(len(trace().since(0, "frame")) == frames, f"{len(trace().since(0, 'frame')) - frames} frames at rest")
    expect(cpu.idle, f"not idle at the end:\n{cpu}")
    r = guest.run(f"{KIOSK} status --json --socket {SOCKET}", timeout=60)
    expect(r.ok, r)
    status = json.loads(r.stdout)
    power = {s["name"]: s["power"] for s in status["screens"]}
    expect(power == {"Virtual-1": "on", "Virtual-2": "on"}, power)
    note(f"idle over {cpu.seconds:.1f} s of the guest's clock: {cpu.cpu_ms:.0f} ms of CPU, {cpu.context_switches} context "
         f"switches, no frame; the kiosk up {status['uptime']} s, frames {[(s['name'], s['frames']) for s in status['screens']]}")


def check_sigterm_stops_it(guest):
    started(guest)
    for device in ("touch", "keys"):
        state[device].close()
    if "control" in state:
        state["control"].close()
    stop(state["process"])
    state["sampler"].close()
