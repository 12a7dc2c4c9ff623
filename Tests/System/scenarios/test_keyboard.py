"""Keys: a uinput keyboard (keyplay) is listed as a keyboard, its keys reach the app's key window with
their text (the trace's `key` lines: the keysym's name for keys that stand for no character, whether a press
typed, never the text), dead keys and the Compose key compose through the locale's Compose sequences, and
a locale without any still types."""

import json
import re
import time
from pathlib import Path

from kioskvm.scenario import expect
from scenarios_support import KIOSK, run_kiosk, stop, trace_events, wait_for_frames, wait_until

GUEST = dict(heads=1)
TIMEOUT = 420

kiosk = {}


def events(kind=None):
    return trace_events(kiosk["trace"], kind)


def start(guest, env=None):
    """The kiosk on the DRM display with `env`, its input set up (events sent before are lost)."""
    if kiosk.get("process") and kiosk["process"].running:
        stop(kiosk["process"])
    process, trace = run_kiosk(guest, "--backend drm", env=env)
    kiosk.update(process=process, trace=trace)
    wait_for_frames(trace, ["Virtual-1"])
    wait_until(lambda: [e for e in events("startup") if e["phase"] == "input"], "input set up", 60,
               lambda: process.stderr_so_far()[-1500:])


def added(keyboard):
    """Waits until the kiosk's log names the keyboard; returns that log line."""
    name = re.escape(keyboard.name)
    return kiosk["process"].wait_for_output(rf'^.*added \S+ "{name}".*$', timeout=30, stderr=True)[0]


def typed(keyboard, script):
    """Plays `script`, then Return as a marker; returns the key lines before Return's as (phase, keysym,
    typed text) tuples. Keys are delivered in order, so once Return's release is in the trace, whatever the
    script gave is there too: nothing more can come of it."""
    before = len(events("key"))
    keyboard.play(script + "\nkey return")

    def done():
        lines = events("key")[before:]
        return lines if lines and lines[-1]["phase"] == "ended" and lines[-1]["keysym"] == "Return" else None

    lines = wait_until(done, f"the keys of {script!r}", 30, lambda: f"key lines: {events('key')[before:]}")
    expect([(e["phase"], e["keysym"], e["text"]) for e in lines[-2:]] == [("began", "Return", False), ("ended", "Return", False)],
           lines[-2:])
    return [(e["phase"], e["keysym"], e["text"]) for e in lines[:-2]]


# A key that types a character is named by nothing in the trace (its name would spell it): None.
TYPED = [("began", None, True), ("ended", None, False)]


def check_kiosk_inputs_lists_the_keyboard(guest):
    with guest.keyboard(name="Kiosk Listed Keys", id=(0x1234, 0x5679)) as keyboard:
        keyboard.wait_ready()
        r = guest.run(f"{KIOSK} inputs --json", timeout=60).check()
        devices = {d["name"]: d for d in json.loads(r.stdout)}
        listed = devices.get("Kiosk Listed Keys")
        expect(listed is not None, f"not listed: {sorted(devices)}")
        expect(listed["capabilities"] == ["keyboard"], listed)
        expect(listed["vendor"] == "1234" and listed["product"] == "5679", listed)
        expect(listed["udev"].get("ID_INPUT_KEYBOARD") == "1", listed["udev"])


def check_keys_reach_the_key_window(guest):
    start(guest)
    with guest.keyboard(name="Kiosk Test Keys") as keyboard:
        line = added(keyboard)
        # The agent's LANG is C.UTF-8; xkbcommon's defaults give the us layout.
        expect("keyboard, keymap English (US), compose C.UTF-8" in line, line)
        before = len(events("key"))
        lines = typed(keyboard, "type ab\nkey shift+g")
        expect(lines == TYPED * 2 + [("began", "Shift_L", False)] + TYPED + [("ended", "Shift_L", False)], lines)
        # The demo's welcome alert is the key window at launch.
        expect({e["window"] for e in events("key")[before:]} == {"AlertController.window"}, events("key")[before:])
    log = kiosk["process"].stderr_so_far()
    expect("no Compose sequences" not in log, log[-1500:])


def check_dead_keys_and_the_compose_key_compose(guest):
    start(guest, env={"XKB_DEFAULT_LAYOUT": "de", "XKB_DEFAULT_OPTIONS": "compose:ralt", "LANG": "de_DE.UTF-8"})
    with guest.keyboard(name="Kiosk German Keys") as keyboard:
        line = added(keyboard)
        expect("keymap German, compose de_DE.UTF-8" in line, line)
        # dead_acute (the key right of ß) then e: the dead key gives nothing, e gives é, one press.
        expect(typed(keyboard, "key KEY_EQUAL\nkey e") == TYPED, "dead_acute e")
        # dead_circumflex (left of 1) then a: â; then space: ^.
        expect(typed(keyboard, "key KEY_GRAVE\nkey a") == TYPED, "dead_circumflex a")
        expect(typed(keyboard, "key KEY_GRAVE\nkey space") == TYPED, "dead_circumflex space")
        # Compose (right Alt), o, " (Shift+2 on de): Shift goes through, the three keys give one ö.
        lines = typed(keyboard, "key rightalt\nkey o\nkey shift+2")
        expect(lines == [("began", "Shift_L", False), *TYPED, ("ended", "Shift_L", False)], lines)
        # dead_acute then q is no sequence: both are swallowed, nothing is typed.
        expect(typed(keyboard, "key KEY_EQUAL\nkey q") == [], "dead_acute q typed something")
        # And the next key types itself.
        expect(typed(keyboard, "key e") == TYPED, "e after a cancelled sequence")


def check_a_locale_without_compose_sequences_still_types(guest):
    start(guest, env={"XKB_DEFAULT_LAYOUT": "de", "LANG": "kiosk-no-such-locale"})
    with guest.keyboard(name="Kiosk Plain Keys") as keyboard:
        line = added(keyboard)
        expect("keymap German" in line and "compose" not in line, line)
        # Without Compose the dead key reaches the app as itself, typing nothing, and e types e.
        lines = typed(keyboard, "key KEY_EQUAL\nkey e")
        expect(lines == [("began", "dead_acute", False), ("ended", "dead_acute", False), *TYPED], lines)
    log = kiosk["process"].stderr_so_far()
    # Said once, although two keyboards (the i8042 one and this) were added.
    warnings = [l for l in log.splitlines() if "no Compose sequences" in l]
    expect(len(warnings) == 1, warnings or log[-1500:])
    expect('xkb_compose_table_new_from_locale(locale "kiosk-no-such-locale" (LANG)): failed' in warnings[0], warnings[0])
    stop(kiosk["process"])


def check_without_a_keymap_the_on_screen_keyboard_stands_in(guest):
    """A layout xkbcommon does not have: the keymap fails once, with the reason, and keyboards without one
    count as no keyboard, so the on-screen keyboard (auto) comes up for the form's focused field. The
    i8042 keyboard counted as a typing keyboard and kept it away: nothing could type."""
    config = Path(guest.job_dir) / "form.toml"
    config.write_text("[app-settings]\nopen-form = true\n")
    if kiosk.get("process") and kiosk["process"].running:
        stop(kiosk["process"])
    process, trace = run_kiosk(guest, f"--backend drm --config {guest.guest_path(config)}",
                               env={"XKB_DEFAULT_LAYOUT": "kiosk-no-such-layout"})
    kiosk.update(process=process, trace=trace)
    wait_until(lambda: [e for e in events("startup") if e["phase"] == "input"], "input set up", 60,
               lambda: process.stderr_so_far()[-1500:])
    with guest.keyboard(name="Kiosk Unmapped Keys") as keyboard:
        line = added(keyboard)
        expect("no keymap" in line and "its keys are ignored" in line, line)
        time.sleep(1)
        shown = [e["event"] for e in events() if e["event"] in ("keyboard.show", "keyboard.hide")]
        expect(shown and shown[-1] == "keyboard.show", f"the on-screen keyboard is not up: {shown}")
    log = process.stderr_so_far()
    failures = [l for l in log.splitlines() if "error kiosk" in l and "no keymap:" in l]
    expect(len(failures) == 1, failures or log[-1500:])
    stop(kiosk.pop("process"))
