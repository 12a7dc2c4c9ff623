"""Controls on a DRM head, driven by a uinput touchscreen: the demo's settings screen (`open-settings`) has a
slider dragged by its thumb (the trace's `control.value` says where it went, the touch reached the slider)
and a picker wheel flung (it comes to rest on a row, told once, after momentum); each time the screen at rest
is the headless rendering of the demo started with that value (`settings-volume`, `settings-language`),
pixel for pixel, and nothing draws once it rests."""

import time

from kioskvm.scenario import expect, note
from scenarios_support import (NO_WELCOME, at, avoid_the_minute, config_arg, kiosk_with_touchscreen, mode_spelling, reference,
                               screen_matches, screens_json, stop, trace_events, wait_until)

GUEST = dict(heads=1)
TIMEOUT = 420

PANEL = (1280, 800)
SETTINGS = f"{NO_WELCOME}open-settings = true\n"
# Places on the 1280x800 head (DemoSettingsController's layout; DemoScreensTests draws it): the slider spans
# x 140 to 360 at y 172, its thumb's centre at 140 + 14 + 192 * value; the language picker is (936, 96, 320,
# 216), its middle row at y 204.
THUMB = (250, 172)
WHEEL_X = 1096
state = {}


def events(kind=None):
    return trace_events(state["trace"], kind)


def values(view):
    return [e for e in events("control.value") if e["view"] == view]


def at_rest():
    """No new line in the trace for 1.5 s (no scroll, animation or frame): the screen shows where things rest."""
    def quiet():
        count = len(events())
        time.sleep(1.5)
        return len(events()) == count
    wait_until(quiet, "the screen at rest", 60, lambda: f"{events()[-5:]}")


def check_the_slider_follows_its_thumb(guest):
    v1 = {c["name"]: c for c in screens_json(guest)}["Virtual-1"]
    state["mode"] = mode_spelling(v1, *PANEL)
    process, trace, screen = kiosk_with_touchscreen(guest, config_arg(guest, SETTINGS), "Kiosk Controls Touch")
    state.update(process=process, trace=trace, touch=screen)
    # Held on the thumb 5 px right of its centre and moved 60 px right: the value goes 60 / 192 up.
    screen.play(f"drag {at(THUMB[0] + 5, THUMB[1])} {at(THUMB[0] + 65, THUMB[1])} 12 240")
    # The finger's lift, then the trace at rest: every move's value is in by then, however late under load.
    wait_until(lambda: [e for e in events("touch") if e["phase"] == "ended"], "the finger's lift", 30, lambda: f"{events()[-6:]}")
    at_rest()
    moved = values("settings-volume")
    began = [e for e in events("touch") if e["phase"] == "began"]
    expect(began and began[-1]["view"] == "settings-volume", began[-1:])
    expect(moved, "no value traced")
    value = float(moved[-1]["value"])
    expect(abs(value - (0.5 + 60 / 192)) < 0.02, f"the slider at {value}, not {0.5 + 60 / 192:.4f}")
    state["volume"] = moved[-1]["value"]
    note(f"slider: {len(moved)} values while dragged, the last {value}")
    expected = reference([("Virtual-1", state["mode"])], config=f"{SETTINGS}settings-volume = {state['volume']}\n")
    screen_matches(guest, 0, expected["Virtual-1"])


def check_a_flung_picker_settles_on_a_row(guest):
    screen = state["touch"]
    before = len(events())
    # Up by 40 px in 80 ms (500 px/s): the finger alone moves it a row and a quarter, the momentum that
    # follows about eight more, short of the last (14), so it comes to rest by snapping mid-list.
    screen.play(f"drag {at(WHEEL_X, 260)} {at(WHEEL_X, 220)} 8 80")
    wait_until(lambda: values("settings-language"), "the picker's row", 60, lambda: f"{events()[-6:]}")
    at_rest()
    chosen = values("settings-language")
    expect(len(chosen) == 1, f"told more than once: {chosen}")
    component, row = (int(part) for part in chosen[0]["value"].split(":"))
    expect(component == 0 and 2 <= row <= 13, f"{chosen[0]}: momentum should carry it past the row the finger moved, short of the end")
    lines = events()[before:]
    began = [e for e in lines if e["event"] == "touch" and e["phase"] == "began"]
    expect(began and began[0]["view"] == "picker-wheel", began[:1])
    scrolls = [e for e in lines if e["event"] == "scroll"]
    ended = next(i for i, e in enumerate(lines) if e["event"] == "touch" and e["phase"] == "ended")
    momentum = [e for e in lines[ended:] if e["event"] == "scroll"]
    expect(len(momentum) >= 5, f"only {len(momentum)} frames after the finger lifted")
    note(f"picker: to row {row} ({len(scrolls)} scroll frames, {len(momentum)} after the lift)")
    config = f"{SETTINGS}settings-volume = {state['volume']}\nsettings-language = {row}\n"
    expected = reference([("Virtual-1", state["mode"])], config=config)
    screen_matches(guest, 0, expected["Virtual-1"])
    # The status bar's clock draws on the minute: counted from after its turn.
    avoid_the_minute(guest, 5)
    frames = len(events("frame"))
    time.sleep(3)
    expect(len(events("frame")) == frames, f"{len(events('frame')) - frames} frames at rest")


def check_sigterm_stops_it(guest):
    state["touch"].__exit__(None, None, None)
    stop(state["process"])
