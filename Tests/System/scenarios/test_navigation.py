"""Navigation and alerts on a DRM head, driven by a uinput touchscreen: a tap on a row of the demo's list
pushes the product's detail (the screen is then the headless rendering of that detail, pixel for pixel), its
Reserve button presents an alert with a text field, the on-screen keyboard comes up with it and the card sits
above it (the headless rendering again), taps on the keyboard type a name the trace counts (never the text),
the alert's Reserve dismisses it and gives the key status back to the main window before the alert's window
hides, and a swipe from the left edge pops the detail (the list's screen then the headless rendering of the
main screen). The demo runs without its welcome alert; `--keyboard always`, as QEMU's i8042 keyboard would
keep the on-screen one away."""

import time

from kioskvm.scenario import expect, note
from scenarios_support import (CLOCK, NO_WELCOME, animations_in_flight, at, config_arg, kiosk_with_touchscreen, mode_spelling,
                               reference, screen_matches, screens_json, stop, trace_events, wait_until)

GUEST = dict(heads=1)
TIMEOUT = 420

PANEL = (1280, 800)
# Places on the 1280x800 head (the demo's layout; Tests/KioskRuntimeTests/DemoScreensTests draws them).
ROW_3 = (150, 560)              # the list at (20, 450), rows 44 high: the third row's middle
RESERVE = (120, 266)            # the detail's Reserve, (40, 238, 160, 56)
ALERT_RESERVE = (708, 458)      # the alert's Reserve action, (641, 436, 134, 44)
NAME_FIELD = (521, 382, 238, 33)  # the alert's text field, whose caret blinks (left out of the comparison)
KEYS = {"H": (757.5, 606), "i": (932.5, 530)}   # on the on-screen keyboard (test_text_input)
state = {}


def events(kind=None):
    return trace_events(state["trace"], kind)


def settled():
    wait_until(lambda: animations_in_flight(events()) == 0, "the animations' last frames", 60, lambda: f"{events()[-5:]}")
    time.sleep(0.5)


def appeared(controller, after=0):
    return [e for e in events()[after:] if e["event"] == "controller.appear" and e["controller"] == controller]


def check_a_tap_on_a_row_pushes_its_detail(guest):
    v1 = {c["name"]: c for c in screens_json(guest)}["Virtual-1"]
    state["mode"] = mode_spelling(v1, *PANEL)
    process, trace, screen = kiosk_with_touchscreen(guest, f"--keyboard always {config_arg(guest)}", "Kiosk Navigation Touch")
    state.update(process=process, trace=trace, touch=screen)
    screen.play(f"tap {at(*ROW_3)} 60")
    shown = wait_until(lambda: appeared("DemoDetailController"), "the detail pushed", 30, lambda: f"{events()[-6:]}")
    expect(shown[-1]["view"] == "product-detail" and shown[-1]["window"] == "main" and shown[-1]["animated"], shown[-1])
    # The slide: one animation of the navigation's transition, then the list's screen gone from view.
    gone = [e for e in events("controller.disappear") if e["controller"] == "DemoContentController"]
    expect(gone and gone[-1]["animated"], gone)
    settled()
    expected = reference([("Virtual-1", state["mode"])], config=f'keyboard = "always"\n\n{NO_WELCOME}open-product = 3\n')
    screen_matches(guest, 0, expected["Virtual-1"])


def check_reserve_presents_an_alert_with_a_text_field_above_the_keyboard(guest):
    screen = state["touch"]
    before = len(events())
    screen.play(f"tap {at(*RESERVE)} 60")
    wait_until(lambda: appeared("AlertController", before), "the alert presented", 30, lambda: f"{events()[-6:]}")
    shown = wait_until(lambda: events("keyboard.show"), "keyboard.show", 30, lambda: f"{events()[-5:]}")
    expect(shown[-1]["y"] == 488, shown[-1])
    keys = [e["window"] for e in events("window.key")]
    expect(keys[-1] == "AlertController.window", keys)
    settled()
    expected = reference([("Virtual-1", state["mode"])],
                         config=f'keyboard = "always"\n\n{NO_WELCOME}open-product = 3\nopen-reserve = true\n')
    screen_matches(guest, 0, expected["Virtual-1"], ignore=(CLOCK, NAME_FIELD))


def check_a_name_typed_on_the_keyboard_and_reserve_dismisses_it(guest):
    screen = state["touch"]
    for count, key in enumerate(("H", "i"), start=1):
        screen.play(f"tap {at(*KEYS[key])}")
        wait_until(lambda: len(events("text.edit")) >= count, f"the key {key} typed", 30, lambda: f"{events()[-5:]}")
    edits = events("text.edit")
    expect([(e["view"], e["length"]) for e in edits] == [("reserve-name", 1), ("reserve-name", 2)], edits)
    expect(all("text" not in e for e in edits), edits)
    before = len(events())
    screen.play(f"tap {at(*ALERT_RESERVE)} 60")
    # Its viewDidDisappear comes once its window is hidden, in a later turn of the run loop: waited for too,
    # or under load the trace is read between the two.
    wait_until(lambda: [e for e in events()[before:] if e["event"] == "window.hidden" and e["window"] == "AlertController.window"]
               and [e for e in events()[before:] if e["event"] == "controller.disappear" and e["controller"] == "AlertController"],
               "the alert's window hidden and its controller gone", 30, lambda: f"{events()[-6:]}")
    lines = events()[before:]
    tapped = next(e for e in lines if e["event"] == "touch" and e["phase"] == "began")
    expect(tapped["window"] == "AlertController.window" and tapped["view"] == "alert.action.Reserve", tapped)
    # Reference 002's order: the main window becomes key again before the alert's window is hidden.
    order = [(e["event"], e["window"]) for e in lines
             if e["event"] in ("window.key", "window.hidden") and e["window"] in ("main", "AlertController.window")]
    expect(order[:2] == [("window.key", "main"), ("window.hidden", "AlertController.window")], order)
    expect([e for e in lines if e["event"] == "keyboard.hide"], "the keyboard stayed")
    gone = [e for e in lines if e["event"] == "controller.disappear" and e["controller"] == "AlertController"]
    expect(gone and gone[-1]["animated"], lines)
    settled()


def check_a_swipe_from_the_left_edge_pops_the_detail(guest):
    screen = state["touch"]
    before = len(events())
    # From 4 points in (the interactive pop starts within 20 of the leading edge) two thirds of the way across.
    screen.play(f"drag {at(4, 400)} {at(860, 400)} 16 320")
    wait_until(lambda: appeared("DemoContentController", before), "the list's screen back", 30, lambda: f"{events()[-6:]}")
    lines = events()[before:]
    pops = [e["state"] for e in lines if e["event"] == "gesture" and e["kind"] == "interactive-pop"]
    expect(pops[:1] == ["began"] and pops[-1] == "ended", pops)
    gone = [e for e in lines if e["event"] == "controller.disappear" and e["controller"] == "DemoDetailController"]
    expect(gone, lines)
    touches = [e for e in lines if e["event"] == "touch"]
    expect(touches and all(e["window"] == "main" for e in touches), touches[:3])
    note(f"the back swipe: {len(pops)} recognizer states, {len([e for e in touches if e['phase'] == 'moved'])} moves")
    settled()
    expected = reference([("Virtual-1", state["mode"])], config=f'keyboard = "always"\n\n{NO_WELCOME}')
    screen_matches(guest, 0, expected["Virtual-1"])


def check_sigterm_stops_it(guest):
    state["touch"].__exit__(None, None, None)
    stop(state["process"])
