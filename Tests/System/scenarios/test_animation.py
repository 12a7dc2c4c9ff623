"""Animation on a DRM head: the demo's alert (its card and dimmed backdrop) fades and scales in at launch and the screen after it is the
headless rendering pixel for pixel; over the 5 s after the last frame the kiosk uses no CPU and makes no
frame; a tap on the button animates it with the trace's flip times at least a refresh period apart and the
frame clock waiting at most about a period after each flip (the distribution is reported, split by the
trace's ticks into the clock's wait and the composing), paced by the timer because virtio-gpu has no vblank
interrupts."""

import statistics
import time

from kioskvm import image, measure
from kioskvm.scenario import expect, note
from scenarios_support import animations_in_flight, avoid_the_minute, reference, run_kiosk, same_pixels, screens_json, mode_spelling, stop, trace_events, wait_until

GUEST = dict(heads=1)
TIMEOUT = 420

state = {}


def events(kind=None):
    return trace_events(state["trace"], kind)


def frames_of(begin, end_index):
    """The frames the animation made: those after its begin line, up to the first one after its end line
    (the frame that shows the end state is composed in the tick that ends it)."""
    lines = events()
    # Not one composed before the block began (a change's frame still on its way to the display then).
    began = lines[begin]["at"]
    frames = [(i, e) for i, e in enumerate(lines)
              if e["event"] == "frame" and i > begin and (e["composed"] is None or e["composed"] >= began)]
    during = [e for i, e in frames if i < end_index]
    after = [e for i, e in frames if i > end_index][:1]
    return during + after


def animation_lines(view):
    lines = events()
    begins = [i for i, e in enumerate(lines) if e["event"] == "animation.begin" and view in e["views"]]
    ends = [i for i, e in enumerate(lines) if e["event"] == "animation.end" and view in e["views"]]
    return lines, begins, ends


def report(intervals, period):
    ms = sorted(i * 1000 for i in intervals)
    return (f"{len(ms)} intervals, period {period * 1000:.2f} ms: min {ms[0]:.2f}, median {statistics.median(ms):.2f}, "
            f"max {ms[-1]:.2f} ms; {sum(1 for i in intervals if abs(i - period) <= period * 0.2)} within 20 % of the period")


def check_the_alert_fades_in_at_launch(guest):
    v1 = {c["name"]: c for c in screens_json(guest)}["Virtual-1"]
    state["sampler"] = measure.Sampler(guest)
    process, trace = run_kiosk(guest, "--backend drm")
    state.update(process=process, trace=trace)
    wait_until(lambda: animation_lines("alert.card")[2], "the alert's entrance to end", 90, lambda: f"{events()[-5:]}")
    lines, begins, ends = animation_lines("alert.card")
    begin, end = lines[begins[0]], lines[ends[0]]
    expect(end["finished"] is True, end)
    expect(sorted(begin["properties"]) == ["alert.backdrop.alpha", "alert.card.alpha", "alert.card.transform"], begin)
    expect(begin["duration"] == 0.3, begin)             # ViewController.presentationDuration
    connect = events("screen.connect")[0]
    state["period"] = 1 / float(connect["mode"].split("@")[1])
    state["mode_spelling"] = mode_spelling(v1, connect["width"], connect["height"])
    # The input devices' set-up holds the main thread (0.3 to 0.5 s on this bed), so it waits until the
    # entrance is on the display: after its end, and after the frame that shows the end state.
    wait_until(lambda: [e for e in events("startup") if e["phase"] == "input"], "input set up", 30)
    lines = events()
    end_at = lines.index(end)
    input_at = next(i for i, e in enumerate(lines) if e["event"] == "startup" and e["phase"] == "input")
    expect(end_at < input_at and any(e["event"] == "frame" for e in lines[end_at:input_at]),
           f"input set up before the entrance's end was on the display: {[e.get('phase') or e['event'] for e in lines[begins[0]:input_at + 1]]}")
    frames = frames_of(begins[0], ends[0])
    note(f"alert entrance: {len(frames)} frames over {1000 * (frames[-1]['flip'] - frames[0]['flip']):.0f} ms" if frames else "alert entrance: no frame")


def check_the_screen_after_it_is_the_headless_rendering(guest):
    # The frame with the end state is on the display (the input set-up may hold the main thread first).
    wait_until(lambda: animations_in_flight(events()) == 0, "the end state's frame", 60, lambda: f"{events()[-5:]}")
    time.sleep(0.5)
    shown = image.load(guest.screendump(0))
    same_pixels(shown, reference([("Virtual-1", state["mode_spelling"])])["Virtual-1"])


def check_no_frame_and_no_cpu_after_the_last_frame(guest):
    # Past the input devices' set-up first.
    wait_until(lambda: [e for e in events("startup") if e["phase"] == "input"], "input set up", 30)
    time.sleep(1)
    avoid_the_minute(guest, 6)                  # the status bar's clock wakes the kiosk on the minute
    frames = len(events("frame"))
    pid = state["process"].pid
    cpu = state["sampler"].idle_cpu(pid, seconds=5)
    expect(cpu.idle, f"not idle over the 5 s after the animation:\n{cpu}")
    expect(len(events("frame")) == frames, f"{len(events('frame')) - frames} frames at rest")


def check_a_tap_animates_the_button_one_frame_per_refresh(guest):
    period = state["period"]
    with guest.touchscreen(name="Kiosk Animation Touch", size_mm=(256, 160)) as screen:
        state["process"].wait_for_output('"Kiosk Animation Touch"', timeout=30, stderr=True)
        # The alert is modal: its OK (at (640, 450) on the 1280x800 head) sends it away first.
        screen.play(f"tap 0.5 {450 / 800:.5f}")
        wait_until(lambda: [e for e in events("window.hidden") if e["window"] == "AlertController.window"], "the alert gone", 30,
                   lambda: f"{events()[-5:]}")
        wait_until(lambda: animations_in_flight(events()) == 0, "the alert's exit shown", 30)
        # And the frame its window's hiding made (after the exit's end, by that change): one still on its
        # way when the finger goes down would be taken for the press's first frame.
        def hidden_frame():
            lines = events()
            hidden = max(i for i, e in enumerate(lines) if e["event"] == "window.hidden" and e["window"] == "AlertController.window")
            return any(e["event"] == "frame" for e in lines[hidden:])
        wait_until(hidden_frame, "the frame without the alert's window", 30)
        time.sleep(0.5)
        before = len(events("animation.begin"))
        # "Tap me" is at (460, 330, 220, 64); held 0.6 s so the press shows, and ends before the release under
        # load too (a loaded bed was seen to start the 0.1 s press two frames, 0.25 s, after its touch).
        screen.play(f"tap 0.5 {362 / 800:.5f} 600")
        wait_until(lambda: len([e for e in events("animation.end") if "tap-button" in e["views"]]) >= 2,
                   "the press and the release animations", 30, lambda: f"{events()[-5:]}")
        wait_until(lambda: [e for e in events("touch") if e.get("view") == "tap-button" and e["phase"] == "ended"],
                   "the tap delivered", 10)
        # The frames' page flips leave nothing behind: each armed a timeout for its flip, which a cancelled
        # asyncAfter turned into a wake-up of the main thread and of dispatch's manager thread a second later.
        wait_until(lambda: animations_in_flight(events()) == 0, "the release's last frame", 30)
        avoid_the_minute(guest, 4)
        frames = len(events("frame"))
        cpu = state["sampler"].idle_cpu(state["process"].pid, seconds=3)
        expect(len(events("frame")) == frames and cpu.idle, f"not idle over the 3 s after the last frame:\n{cpu}")
    lines, begins, ends = animation_lines("tap-button")
    expect([lines[i]["properties"] for i in begins] == [["tap-button.transform"]] * 2, [lines[i] for i in begins])
    # The release runs to its end. The press (0.1 s) does too unless the release replaced it while it ran by
    # the kiosk's own clock (from the flip of the first frame that showed it): on a loaded host the kiosk
    # handles the finger's lift (0.6 s after its touch by the kernel's clock) late, and UIKit replaces a
    # running animation then (finished false); one whose end had come was finished, frame or no frame.
    press, press_end = lines[begins[0]], lines[ends[0]]
    expect(lines[ends[1]]["finished"], [lines[i] for i in ends])
    press_frames = frames_of(begins[0], ends[0])
    started = press_frames[0]["flip"] if press_frames else press_end["at"]
    expect(press_end["finished"] or press_end["at"] < started + press["duration"],
           f"the press ended unfinished after its end ({started:.6f} + {press['duration']} s): {press_end}")
    intervals, ticked, waits, makes, by_change = [], [], [], [], 0
    for b, e in zip(begins, ends):
        frames = frames_of(b, e)
        intervals += [y["flip"] - x["flip"] for x, y in zip(frames, frames[1:])]
        # A frame the frame clock made has its tick; the first frames of a press can be made by the touch's
        # own changes instead (no tick), composed when the flip before lands.
        by_change += sum(1 for f in frames if f["tick"] is None)
        ticked += [y["flip"] - x["flip"] for x, y in zip(frames, frames[1:]) if x["tick"] is not None and y["tick"] is not None]
        # A ticked frame's interval is the clock's wait, from the flip before to the tick it was made for,
        # then the composing and the flip, the (emulated, maybe loaded) machine's part.
        waits += [y["tick"] - x["flip"] for x, y in zip(frames, frames[1:]) if y["tick"] is not None]
        makes += [f["flip"] - f["tick"] for f in frames if f["tick"] is not None]
    expect(len(intervals) >= 4, f"frames of the press and release: {intervals}")
    def spread(values):
        return f"median {statistics.median(values) * 1000:.2f} ms, max {max(values) * 1000:.2f}" if values else "none"
    note("button press and release on Virtual-1: " + report(intervals, period) + f"; {by_change} frame(s) made by changes; "
         + "between frames the clock made: " + (report(ticked, period) if ticked else "none")
         + f"; from a flip to the next tick: {spread(waits)}; from a tick to its flip: {spread(makes)}")
    # virtio-gpu has no vblank interrupts: its flips complete at once, stamped with that time. The kiosk
    # finds that out (drmCrtcGetSequence fails), says so, and hands its flips to the frame clock without a
    # vblank time, so the timer paces the frames; taken as vblanks, they started the next frame at once
    # and ran faster than the refresh when composing took most of a period.
    expect(all(f["vblank"] is False for f in events("frame")), [f for f in events("frame") if f["vblank"] is not False][:3])
    expect(any("Virtual-1: " in line and "has no vblank interrupts" in line for line in state["process"].stderr_so_far().splitlines()),
           "no line saying that Virtual-1's CRTC has no vblank interrupts")
    # A frame per refresh, never two in one (a flip's completion time wanders by a few ms around the
    # timer's ticks): the median interval is at least 0.9 of a period. How far above the period it is
    # depends on how fast the emulated CPU composes, which depends on the host's load (CI's medians: 15.9
    # to 31.2 ms at 75 Hz, near the 2.5 periods once checked here), so what is checked above it is the
    # clock's own part: the median wait from a flip to the next tick is at most 1.25 periods (a period,
    # and a margin: medians of 4.0 and 9.2 ms measured here; single waits above a period, 13.7 and 21.8
    # ms, were seen under CI's load, which is why the median is checked), and no interval stalls for a
    # quarter of a second.
    median = statistics.median(intervals)
    expect(period * 0.9 <= median, f"frames faster than the refresh: {report(intervals, period)}")
    expect(bool(waits), "no frame of the tap was made by the frame clock")
    expect(statistics.median(waits) <= period * 1.25, f"the frame clock waited more than a period after a flip: {spread(waits)}")
    expect(max(intervals) < 0.25, f"frames stalled: {report(intervals, period)}")


def check_sigterm_stops_it(guest):
    stop(state["process"])
    state["sampler"].close()
