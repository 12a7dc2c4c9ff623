"""Text input on a DRM head: a uinput touchscreen taps the demo's Form button and its name field, the
on-screen keyboard slides in (the screen is then the headless rendering of the same form, pixel for pixel),
taps on its keys type a word whose length the trace's text.edit lines confirm (never the text), a uinput
keyboard types into the same field, a tap outside the fields sends the keyboard away (the demo's own tap
recognizer, as a UIKit app does it), and the number pad's Return and hide key finish as the letters' do.
QEMU's i8042 keyboard is a typing keyboard, so the kiosk runs with `--keyboard always` (in `auto` a typing
keyboard keeps the on-screen one away), and without the demo's welcome alert (`welcome = false`), which would take
the touches. The form is presented full screen in the main window (a controller, not a window of its own)."""

import time

from kioskvm import image
from kioskvm.scenario import expect, note
from scenarios_support import (CLOCK, animations_in_flight, at, config_arg, kiosk_with_touchscreen, mode_spelling, reference,
                               screen_matches, screens_json, stop, trace_events, wait_until)

GUEST = dict(heads=1)
TIMEOUT = 420

PANEL = (1280, 800)
state = {}


def events(kind=None):
    return trace_events(state["trace"], kind)


# The keyboard on 1280x800 (KeyboardLayout.Metrics): keys 68 high with 8 between, from y 488; a letter key
# 109 wide. The centres of the keys typed here.
KEYS = {"H": (757.5, 606), "i": (932.5, 530)}
# The name field of the form, whose caret blinks (left out of the pixel comparison).
NAME_FIELD = (40, 110, 600, 44)


def settled():
    wait_until(lambda: animations_in_flight(events()) == 0, "the keyboard's slide shown", 60, lambda: f"{events()[-5:]}")
    time.sleep(0.5)


def check_tapping_the_name_field_brings_the_keyboard(guest):
    v1 = {c["name"]: c for c in screens_json(guest)}["Virtual-1"]
    state["mode"] = mode_spelling(v1, *PANEL)
    process, trace, screen = kiosk_with_touchscreen(guest, f"--keyboard always {config_arg(guest)}", "Kiosk Text Touch")
    state.update(process=process, trace=trace, touch=screen)
    # The Form button, right of "Tap me" (700 to 820, 330 to 394).
    screen.play(f"tap {at(760, 362)}")
    wait_until(lambda: [e for e in events("controller.appear") if e["controller"] == "DemoFormController"], "the form shown", 30,
               lambda: f"{events()[-5:]}")
    screen.play(f"tap {at(340, 132)}")
    shown = wait_until(lambda: events("keyboard.show"), "keyboard.show", 30, lambda: f"{events()[-5:]}")
    expect(shown[-1]["screen"] == "Virtual-1" and shown[-1]["y"] == 488 and shown[-1]["height"] == 312, shown[-1])
    # The key window stays the main one, the form's (the keyboard never takes it).
    keys = [e["window"] for e in events("window.key")]
    expect(keys[-1] == "main", keys)
    settled()
    expected = reference([("Virtual-1", state["mode"])], config="keyboard = \"always\"\n\n[app-settings]\nopen-form = true\n")["Virtual-1"]
    screen_matches(guest, 0, expected, ignore=(CLOCK, NAME_FIELD))


def check_taps_on_keys_type_into_the_field(guest):
    screen = state["touch"]
    # Shifted for the sentence's first letter, then lower case.
    screen.play(f"tap {at(*KEYS['H'])}")
    wait_until(lambda: events("text.edit"), "the first text.edit", 30, lambda: f"{events()[-5:]}")
    screen.play(f"tap {at(*KEYS['i'])}")
    edits = wait_until(lambda: len(events("text.edit")) >= 2 and events("text.edit"), "the second text.edit", 30, lambda: f"{events()[-5:]}")
    expect([(e["view"], e["length"]) for e in edits] == [("form-name", 1), ("form-name", 2)], edits)
    expect(all("text" not in e for e in edits), edits)
    touches = [e for e in events("touch") if e["phase"] == "began"][-2:]
    expect([e["window"] for e in touches] == ["keyboard", "keyboard"], touches)
    note(f"typed by taps: {[(e['view'], e['length']) for e in edits]}")


def check_a_uinput_keyboard_types_into_the_same_field(guest):
    with guest.keyboard(name="Kiosk Text Keys") as keyboard:
        state["process"].wait_for_output('"Kiosk Text Keys"', timeout=30, stderr=True)
        keyboard.play("type ab\nkey backspace")
        edits = wait_until(lambda: len(events("text.edit")) >= 5 and events("text.edit"), "three more text.edit lines", 30,
                           lambda: f"{events()[-6:]}")
    expect([(e["view"], e["length"]) for e in edits[2:]] == [("form-name", 3), ("form-name", 4), ("form-name", 3)], edits)
    # The keys went to the first responder's window, the main one the form is presented in.
    keys = [e for e in events("key") if e["phase"] == "began"]
    expect(keys and all(e["window"] == "main" for e in keys[-3:]), keys[-3:])


# The kiosk's defaults: keyboard-repeat-delay-ms and keyboard-repeat-rate.
DELAY, RATE = 0.6, 25


def check_a_held_key_repeats_until_it_comes_up(guest):
    """libinput passes no key repeats on (and keyplay's device has no EV_REP for the kernel to repeat): the
    kiosk repeats a held key itself, after keyboard-repeat-delay-ms (600) at keyboard-repeat-rate (25 a
    second), into the field's text and not as key presses; nothing more once it is up."""
    with guest.keyboard(name="Kiosk Held Keys") as keyboard:
        state["process"].wait_for_output('"Kiosk Held Keys"', timeout=30, stderr=True)
        for key, step in (("a", 1), ("backspace", -1)):
            edits_before, keys_before = len(events("text.edit")), len(events("key"))
            keyboard.play(f"down {key}\nsleep 1500\nup {key}")
            wait_until(lambda: [e for e in events("key")[keys_before:] if e["phase"] == "ended"], f"{key}'s release", 30,
                       lambda: f"{events()[-6:]}")
            settled_count = len(events("text.edit"))
            time.sleep(1)
            edits = events("text.edit")[edits_before:]
            expect(len(edits) == settled_count - edits_before, f"{key}: edits after its release: {edits}")
            lengths = [e["length"] for e in edits]
            expect(lengths == [lengths[0] + step * i for i in range(len(lengths))], f"{key}: {lengths}")
            # Judged by the trace's own clock (a loaded host delays the kiosk's timer, and a late repeat is
            # not made up with a burst): the first edit as the key went down, the n-th repeat no sooner than
            # the delay and n-1 periods of the rate after it (the repeats' times; two may come closer
            # together when the first of them was late), none after the key came up, and at most as many as
            # the time the kiosk saw it held allows; it repeated (about 22 on a quiet host).
            keys_seen = events("key")[keys_before:]
            expect([(e["phase"], e["text"]) for e in keys_seen] == [("began", key == "a"), ("ended", False)], f"{key}: {keys_seen}")
            down, up = keys_seen
            repeats = [e["at"] for e in edits[1:]]
            expect(len(repeats) >= 2, f"{key}: {lengths}: the held key did not repeat")
            early = [(n, t - down["delivered"]) for n, t in enumerate(repeats) if t < down["delivered"] + DELAY + n / RATE - 0.001]
            expect(not early, f"{key}: repeats (number, seconds after the press) before their time: {early[:3]}")
            expect(repeats[-1] <= up["delivered"], f"{key}: a repeat after the release")
            allowed = 1 + int((up["delivered"] - down["delivered"] - DELAY) * RATE)
            expect(len(repeats) <= allowed, f"{key}: {len(repeats)} repeats in {up['delivered'] - down['delivered']:.3f} s held")
            expect(all(e["view"] == "form-name" for e in edits), edits)
            note(f"{key} held 1.5 s: {len(lengths)} edits, lengths {lengths[0]}..{lengths[-1]}")


def check_a_key_held_across_a_session_switch_stops_repeating(guest):
    """Another VT takes the session while a key is held: libinput releases the key as it suspends, and the
    repeat stops. Back, the devices are added again at once (they waited in libinput's queue for the next
    input event, so a touchscreen's first touch came before its calibration)."""
    process = state["process"]
    with guest.keyboard(name="Kiosk Switch Keys") as keyboard:
        process.wait_for_output('"Kiosk Switch Keys"', timeout=30, stderr=True)
        before = len(events("text.edit"))
        keyboard.play("down a")
        wait_until(lambda: len(events("text.edit")) >= before + 4, "the held key repeating", 30, lambda: f"{events()[-5:]}")
        guest.run("busybox chvt 2", timeout=30).check()
        process.wait_for_output("session disabled", timeout=30, stderr=True)
        time.sleep(0.5)
        count = len(events("text.edit"))
        time.sleep(2)
        expect(len(events("text.edit")) == count, f"typed while switched away: {len(events('text.edit')) - count} edits")
        expect(events("key")[-1]["phase"] == "ended", events("key")[-3:])
        note(f"a held 'a' typed {count - before} times before the switch, none after")
        logged = process.stderr_so_far().count('"Kiosk Switch Keys"')
        guest.run("busybox chvt 1", timeout=30).check()
        process.wait_for_output("session enabled", timeout=30, stderr=True)
        wait_until(lambda: process.stderr_so_far().count('"Kiosk Switch Keys"') > logged, "the keyboard added again", 10,
                   lambda: process.stderr_so_far()[-1500:])
        keyboard.play("up a")


def check_a_tap_outside_the_fields_hides_it(guest):
    """UIKit ends editing only when the app asks: the demo's tap recognizer on the form (`end-editing`)
    asks, so the keyboard goes as the tap is recognized, when the finger lifts (the kiosk ended the editing
    as the touch began before). The trace writes a recognizer's line once its action ran, and a touch's
    once it was delivered: began, keyboard.hide, the recognizer's end, the touch's end."""
    screen = state["touch"]
    before = len(events())
    screen.play(f"tap {at(900, 300)}")

    def tapped():
        lines = events()[before:]
        return lines if any(e["event"] == "touch" and e["phase"] == "ended" for e in lines) else None

    lines = wait_until(tapped, "the tap's end", 30, lambda: f"{events()[before:]}")

    def first(matches):
        return next((i for i, e in enumerate(lines) if matches(e)), None)

    began = first(lambda e: e["event"] == "touch" and e["phase"] == "began")
    hide = first(lambda e: e["event"] == "keyboard.hide")
    recognized = first(lambda e: e["event"] == "gesture" and e.get("name") == "end-editing" and e["state"] == "ended")
    ended = first(lambda e: e["event"] == "touch" and e["phase"] == "ended")
    expect(None not in (began, hide, recognized) and began < hide < recognized < ended,
           f"touch began {began}, keyboard.hide {hide}, end-editing recognized {recognized}, touch ended {ended}: {lines}")
    expect(lines[began]["window"] == "main" and lines[began]["view"] == "form" and lines[hide]["y"] == 800, lines)
    settled()
    shown = image.load(guest.screendump(0))
    # The form's background where the keyboard was.
    expect(shown.color_at(640, 700) == (242, 242, 247), f"the keyboard still shows: {shown.color_at(640, 700)}")


# The pads on 1280x800: a fourth column 272 wide from x 924, rows 68 high from y 496 with 8 between; Return
# three rows tall there, the hide key below it. The letters' hide key ends their bottom row.
PAD = {"1": (220, 530), "2": (500, 530), "return": (1060, 606), "hide": (1060, 758)}
PIN_FIELD = (340, 188)


def check_the_pads_return_and_hide_keys_finish(guest):
    """The PIN field's number pad has Return (the form's fields say Next): a digit, then Return moves to the
    number field, whose decimal pad types; its hide key ends the editing and the keyboard goes."""
    screen = state["touch"]
    shown, edits = len(events("keyboard.show")), len(events("text.edit"))
    screen.play(f"tap {at(*PIN_FIELD)}")
    wait_until(lambda: len(events("keyboard.show")) > shown, "keyboard.show for the PIN", 30, lambda: f"{events()[-5:]}")
    settled()
    for key, view in (("1", "form-pin"), ("return", None), ("2", "form-number")):
        before, taps = len(events("text.edit")), len(events("touch"))
        screen.play(f"tap {at(*PAD[key])}")
        if view:
            typed = wait_until(lambda: events("text.edit")[before:], f"{key} typed", 30, lambda: f"{events()[-5:]}")
            expect(typed[-1]["view"] == view and typed[-1]["length"] == 1, typed)
        else:
            # The tap delivered (its end in the trace), then the keyboard's new pad on the display.
            wait_until(lambda: [e for e in events("touch")[taps:] if e["phase"] == "ended"], f"the {key} tap", 30,
                       lambda: f"{events()[-5:]}")
            settled()
    expect([(e["view"], e["length"]) for e in events("text.edit")[edits:]] == [("form-pin", 1), ("form-number", 1)],
           events("text.edit")[edits:])
    hidden = len(events("keyboard.hide"))
    screen.play(f"tap {at(*PAD['hide'])}")
    wait_until(lambda: len(events("keyboard.hide")) > hidden, "keyboard.hide", 30, lambda: f"{events()[-5:]}")
    settled()
    # Screendumps until the form shows where the keyboard was: under load QEMU can show a frame late.
    wait_until(lambda: image.load(guest.screendump(0)).color_at(640, 700) == (242, 242, 247), "the keyboard gone from the display",
               10, lambda: f"the display shows {image.load(guest.screendump(0)).color_at(640, 700)} there")


def check_sigterm_stops_it(guest):
    state["touch"].__exit__(None, None, None)
    stop(state["process"])
