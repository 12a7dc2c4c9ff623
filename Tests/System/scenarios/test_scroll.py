"""Scrolling on a DRM head with a uinput touchscreen: a drag of 600 px in 120 ms on the demo's product list
flings it, the trace's offsets (one `scroll` line per frame at most) decelerate to rest, the screen at rest
is the headless rendering of the same offset pixel for pixel, nothing moves or draws after it, and a tap on a
row selects it (its detail is pushed; the navigation bar's back button pops it). The demo runs without its
welcome alert (`welcome = false`), which would take the touches."""

import statistics
import time

from kioskvm import measure
from kioskvm.scenario import expect, note
from scenarios_support import NO_WELCOME, at, avoid_the_minute, config_arg, reference, run_kiosk, screen_matches, screens_json, mode_spelling, stop, trace_events, wait_for_frames, wait_until

GUEST = dict(heads=1)
TIMEOUT = 420

PANEL = (1280, 800)
LIST = "product-list"
state = {}


def events(kind=None):
    return trace_events(state["trace"], kind)


def check_a_fling_decelerates_to_rest(guest):
    v1 = {c["name"]: c for c in screens_json(guest)}["Virtual-1"]
    state["mode"] = mode_spelling(v1, *PANEL)
    state["sampler"] = measure.Sampler(guest)
    process, trace = run_kiosk(guest, f"--backend drm {config_arg(guest)}")
    state.update(process=process, trace=trace)
    wait_for_frames(trace, ["Virtual-1"])
    wait_until(lambda: [e for e in events("startup") if e["phase"] == "input"], "input set up", 60)
    with guest.touchscreen(name="Kiosk Scroll Touch", size_mm=(256, 160)) as screen:
        process.wait_for_output('"Kiosk Scroll Touch"', timeout=30, stderr=True)
        # The list spans (20, 450) to (1260, 790); from near its bottom up by 600 px.
        screen.play(f"drag {at(150, 780)} {at(150, 180)} 12 120")
        wait_until(lambda: [e for e in events("gesture") if e["kind"] == "pan" and e["state"] == "ended"],
                   "the pan's end", 30, lambda: f"{events()[-6:]}")
        # At rest: no new scroll line for 2 s.
        def settled():
            count = len(events("scroll"))
            time.sleep(2)
            return len(events("scroll")) == count
        wait_until(settled, "the list at rest", 60, lambda: f"{events('scroll')[-4:]}")
    lines = events()
    pans = [e for e in lines if e["event"] == "gesture" and e["kind"] == "pan"]
    expect([e["state"] for e in pans] == ["began"] + ["changed"] * (len(pans) - 2) + ["ended"], pans)
    expect(all(e["view"] == LIST for e in pans), pans)
    released = max(i for i, e in enumerate(lines) if e["event"] == "gesture" and e["kind"] == "pan")
    flips = {e["number"]: e["flip"] for e in lines if e["event"] == "frame"}
    scrolls = [e for e in lines if e["event"] == "scroll"]
    expect(all(e["view"] == LIST for e in scrolls), scrolls[:3])
    # At most one scroll line per frame.
    numbers = [e["frame"] for e in scrolls]
    expect(len(numbers) == len(set(numbers)), f"two scroll lines for one frame: {numbers}")
    momentum = [e for i, e in enumerate(lines) if e["event"] == "scroll" and i > released]
    expect(len(momentum) >= 10, f"only {len(momentum)} momentum frames: {momentum}")
    ys = [e["y"] for e in momentum]
    expect(all(b >= a for a, b in zip(ys, ys[1:])), f"the list went back: {ys}")
    # The speed between frames (by their flip times) falls: the last third is slower than the first.
    speeds = []
    for a, b in zip(momentum, momentum[1:]):
        dt = flips[b["frame"]] - flips[a["frame"]]
        if dt > 0:
            speeds.append((b["y"] - a["y"]) / dt)
    third = max(len(speeds) // 3, 1)
    first, last = statistics.mean(speeds[:third]), statistics.mean(speeds[-third:])
    expect(first > 2 * last, f"no deceleration: first third {first:.0f} pt/s, last third {last:.0f} pt/s")
    # virtio-gpu has no vblank times, so the kiosk keeps its frames a refresh period apart itself: those
    # the drag's moves made (a move every 10 ms, faster than the 75 Hz refresh) and the fling's ticks. (The
    # debug build composes a frame of this list in more than 10 ms here, so with the pacing taken out this
    # still passed: most moves found a frame in flight. The manual-clock unit tests are what prove the
    # pacing; this checks the trace's composition times on the real backend.)
    period = 1 / float(events("screen.connect")[0]["mode"].split("@")[1])
    composed = [e for e in lines if e["event"] == "frame" and e["screen"] == "Virtual-1" and e["composed"] is not None]
    touched = [e for e in composed if e["number"] > min(s["frame"] for s in scrolls) - 2]
    gaps = [b["composed"] - a["composed"] for a, b in zip(touched, touched[1:])]
    by_change = sum(1 for e in touched if e["tick"] is None)
    expect(all(g >= period - 2e-6 for g in gaps),
           f"frames closer than a period ({period}): {[round(g * 1000, 2) for g in gaps]}")
    state["rest"] = ys[-1]
    duration = flips[momentum[-1]["frame"]] - flips[momentum[0]["frame"]]
    dragged = [e["y"] for i, e in enumerate(lines) if e["event"] == "scroll" and i < released]
    note(f"fling: released at y {dragged[-1] if dragged else '?'}, {len(momentum)} momentum frames over {duration:.2f} s "
         f"to rest at y {ys[-1]}; {speeds[0]:.0f} pt/s at first, {first:.0f} mean in the first third, {last:.0f} in the last; "
         f"{len(touched)} frames from the drag on, {by_change} made by changes, composed at least "
         f"{min(gaps) * 1000:.2f} ms apart (median {statistics.median(gaps) * 1000:.2f})")


def check_the_screen_at_rest_is_the_headless_rendering_of_that_offset(guest):
    # The scroll indicator fades out 0.3 s after rest, over 0.25 s.
    time.sleep(1)
    expected = reference([("Virtual-1", state["mode"])], config=f"{NO_WELCOME}list-offset = {state['rest']}\n")["Virtual-1"]
    screen_matches(guest, 0, expected)
    # At rest: no CPU and no frame (the status bar's clock wakes it on the minute only: counted from after
    # the turn of the minute is out of the way, since the reference rendering above may take seconds).
    avoid_the_minute(guest, 6)
    frames = len(events("frame"))
    cpu = state["sampler"].idle_cpu(state["process"].pid, seconds=5)
    expect(cpu.idle, f"not idle at rest:\n{cpu}")
    expect(len(events("frame")) == frames, f"{len(events('frame')) - frames} frames at rest")


def check_a_tap_on_a_row_selects_it(guest):
    with guest.touchscreen(name="Kiosk Row Touch", size_mm=(256, 160)) as screen:
        state["process"].wait_for_output('"Kiosk Row Touch"', timeout=30, stderr=True)
        screen.play(f"tap {at(150, 700)} 60")
        shown = wait_until(lambda: [e for e in events("controller.appear") if e["controller"] == "DemoDetailController"],
                           "the product's detail pushed", 30, lambda: f"{events()[-6:]}")
        expect(shown[-1]["view"] == "product-detail" and shown[-1]["window"] == "main" and shown[-1]["animated"], shown[-1])
        touches = [e for e in events("touch") if e["phase"] == "began"]
        expect(touches[-1]["window"] == "main" and touches[-1]["view"] != "product-detail", touches[-1])
        # The bar's back button ("Products", at (0, 40, 109, 44)) pops it.
        screen.play(f"tap {at(54, 62)} 60")
        wait_until(lambda: [e for e in events("controller.disappear") if e["controller"] == "DemoDetailController"],
                   "the detail popped", 30, lambda: f"{events()[-6:]}")
        back = [e for e in events("touch") if e["phase"] == "began"][-1]
        expect(back["view"] == "navigation-back", back)


def check_sigterm_stops_it(guest):
    stop(state["process"])
    state["sampler"].close()
