"""Display power on DRM: with `--idle-timeout 5` head 0 turns off after 5 s without input (its CRTC's
ACTIVE property reads 0 from another client, the trace says why), no frame is made while it is off, a
uinput tap wakes it without reaching any window (no touch line for it), the screen after it is the headless
rendering pixel for pixel, and the next tap reaches the app. Then a power schedule that holds the guest's
time turns it off at start, and setting the guest's clock (`date -s`, as NTP's first correction on a board
without a real-time clock) out of the off period turns it on at once."""

import time
from pathlib import Path

from kioskvm import image
from kioskvm.scenario import expect, note
from scenarios_support import reference, run_kiosk, same_pixels, screens_json, mode_spelling, stop, trace_events, wait_for_frames, wait_until

GUEST = dict(heads=1)
TIMEOUT = 420

state = {}


def events(kind=None):
    return trace_events(state["trace"], kind)


def crtc(guest):
    """Head 0's CRTC as drmframe --crtcs reads it: (crtc id, ACTIVE, mode)."""
    out = guest.run("drmframe --crtcs", timeout=30).check().stdout
    line = next(l for l in out.splitlines() if l.startswith("Virtual-1 "))
    fields = dict(f.split("=") for f in line.split()[1:])
    return int(fields["crtc"]), int(fields["active"]), fields["mode"]


def check_an_idle_screen_turns_off(guest):
    v1 = {c["name"]: c for c in screens_json(guest)}["Virtual-1"]
    state["mode"] = mode_spelling(v1, 1280, 800)
    process, trace = run_kiosk(guest, "--backend drm --idle-timeout 5")
    state.update(process=process, trace=trace)
    wait_for_frames(trace, ["Virtual-1"])
    off = wait_until(lambda: [e for e in events("screen.power") if e["power"] == "off"], "screen.power off", 30,
                     lambda: f"{events()[-5:]}")
    expect(off[0]["screen"] == "Virtual-1" and off[0]["reason"] == "idle for 5 s", off[0])
    # The display was showing the app before (the idle time counts from the displays' start, so under
    # emulation it may already be off here).
    lines = events()
    first_off = next(i for i, e in enumerate(lines) if e["event"] == "screen.power")
    expect(any(e["event"] == "frame" for e in lines[:first_off]), "no frame before it went off")
    time.sleep(0.5)
    crtc_id, active, mode = crtc(guest)
    expect(active == 0, f"CRTC {crtc_id} still active")
    expect(mode == "1280x800", f"the mode was not kept: {mode}")
    note(f"Virtual-1 off after 5 s idle: CRTC {crtc_id} ACTIVE=0, mode {mode} kept")
    frames = len(events("frame"))
    time.sleep(2)
    expect(len(events("frame")) == frames, f"{len(events('frame')) - frames} frames while off")


def check_a_tap_wakes_it_and_reaches_no_window(guest):
    with guest.touchscreen(name="Kiosk Power Touch", size_mm=(256, 160)) as screen:
        state["process"].wait_for_output('"Kiosk Power Touch"', timeout=30, stderr=True)
        touches = len(events("touch"))
        # On the welcome alert's card (640, 362): the waking tap must not reach it.
        screen.play(f"tap 0.5 {362 / 800:.5f}")
        on = wait_until(lambda: [e for e in events("screen.power") if e["power"] == "on"], "screen.power on", 30,
                        lambda: f"{events()[-5:]}")
        expect(on[0]["reason"] == "input", on[0])
        # Within the 5 s before it idles again: the CRTC, the screen, and the next tap.
        time.sleep(0.5)
        expect(crtc(guest)[1] == 1, f"not active after the tap: {crtc(guest)}")
        expect(len(events("touch")) == touches, f"the waking tap was delivered: {events('touch')[touches:]}")
        shown = image.load(guest.screendump(0))
        screen.play(f"tap 0.5 {362 / 800:.5f}")
        delivered = wait_until(lambda: events("touch")[touches:], "the next tap delivered", 30)
        expect(delivered[0]["view"] == "alert.header", delivered[0])
    same_pixels(shown, reference([("Virtual-1", state["mode"])])["Virtual-1"])


def check_sigterm_stops_it(guest):
    stop(state["process"])


def check_a_clock_set_out_of_the_scheduled_off_turns_the_screen_on(guest):
    # Off from an hour ago to an hour on, every day, by the guest's own clock (its time zone: UTC).
    now = int(guest.run("date +%s", timeout=30).check().stdout)
    minute = lambda seconds: time.strftime("%H:%M", time.gmtime(seconds))
    config = Path(guest.job_dir) / "schedule.toml"
    config.write_text(f'[[power.schedule]]\ndays = "daily"\noff = "{minute(now - 3600)}"\non = "{minute(now + 3600)}"\n')
    process, trace = run_kiosk(guest, f"--backend drm --config {guest.guest_path(config)}")
    state.update(process=process, trace=trace)
    off = wait_until(lambda: [e for e in events("screen.power") if e["power"] == "off"], "screen.power off", 60,
                     lambda: f"{events()[-5:]}")
    expect(off[0]["reason"] == "schedule", off[0])
    time.sleep(1)
    expect(crtc(guest)[1] == 0, f"still active under the schedule: {crtc(guest)}")
    # Three hours on: out of the off period. The schedule's timer was set for an hour on; the clock's
    # change reaches the kiosk at once (a timerfd cancelled when the clock is set).
    guest.run(f"date -s @{now + 3 * 3600}", timeout=30).check()
    started = time.monotonic()
    on = wait_until(lambda: [e for e in events("screen.power") if e["power"] == "on"], "screen.power on after the clock was set",
                    10, lambda: f"{events()[-5:]}")
    expect(on[0]["reason"] == "schedule", on[0])
    time.sleep(0.5)
    expect(crtc(guest)[1] == 1, f"not active after the clock was set: {crtc(guest)}")
    note(f"off by the schedule at start, on {time.monotonic() - started:.1f} s after date -s moved the clock out of it")
    result = stop(process)
    expect("the wall clock was set" in result.stderr, result.stderr[-1500:])
