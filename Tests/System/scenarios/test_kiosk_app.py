"""The kiosk app with a config file: a mode per head, the status bar over the main window, the alert back on a
long press from a uinput touch, SIGHUP applying a new mode or refusing a broken file, check-config naming modes."""

import json
import signal
import time
from pathlib import Path

from kioskvm import image
from kioskvm.scenario import expect
from scenarios_support import KIOSK, SEAT, animations_in_flight, mode_spelling, reference, same_pixels, screens_json, stop, trace_events, wait_until

GUEST = dict(heads=2)
TIMEOUT = 420

kiosk = {}


def events(kind=None):
    return trace_events(kiosk["trace"], kind)


def wait_for(predicate, what, timeout=30):
    return wait_until(predicate, what, timeout, lambda: f"trace tail: {events()[-5:]}")


def write_config(text):
    kiosk["config"].write_text(text)


def check_the_config_selects_a_mode_on_each_head(guest):
    guest.set_head_size(1, 1024, 768)
    wait_for(lambda: {c["name"]: c for c in screens_json(guest)}["Virtual-2"]["status"] == "connected", "Virtual-2 connected")
    config = Path(guest.job_dir) / "kiosk.toml"
    trace = Path(guest.job_dir) / "app-trace.jsonl"
    kiosk.update(config=config, trace=trace)
    # The demo's alert without its entrance: nothing animates at start, so input opens as soon as both
    # heads' first frames are on the displays (not a second later, InputStartPolicy's latest), which the
    # debug log says.
    write_config('backend = "drm"\nprimary = "Virtual-1"\nlog-level = "debug"\n\n[screens.Virtual-1]\nmode = "1024x768"\n\n'
                 '[screens.Virtual-2]\nmode = "800x600"\n\n[app-settings]\nlaunch-animation = false\n')
    process = guest.spawn(f"exec {KIOSK} run --config {guest.guest_path(config)} --trace {guest.guest_path(trace)}", env=SEAT)
    kiosk["process"] = process
    wait_for(lambda: {e["screen"] for e in events("frame")} >= {"Virtual-1", "Virtual-2"}, "frames on both heads")
    wait_for(lambda: [e for e in events("startup") if e["phase"] == "input"], "input set up")
    expect(not events("animation.begin"), f"animations at start: {events('animation.begin')}")
    opened = [l for l in process.stderr_so_far().splitlines() if "input: opening the devices" in l]
    expect(len(opened) == 1 and opened[0].endswith("the screens settled after the first frame"), opened)
    time.sleep(1)
    connects = {e["screen"]: (e["width"], e["height"]) for e in events("screen.connect")}
    expect(connects == {"Virtual-1": (1024, 768), "Virtual-2": (800, 600)}, connects)
    expect(image.load(guest.screendump(0)).size == (1024, 768) and image.load(guest.screendump(1)).size == (800, 600), "head sizes")


def check_status_bar_over_the_main_window_and_the_alert_back_on_a_long_press(guest):
    v1 = {c["name"]: c for c in screens_json(guest)}["Virtual-1"]
    expected = reference([("Virtual-1", mode_spelling(v1, 1024, 768))])["Virtual-1"]
    first = image.load(guest.screendump(0))
    same_pixels(first, expected)                       # status bar, main window, alert: as the headless rendering
    expect(first.color_at(500, 20) == expected.color_at(500, 20) != expected.color_at(500, 300), "no status bar over the main window")
    with guest.touchscreen(name="Kiosk App Touch", size_mm=(256, 160)) as screen:
        kiosk["process"].wait_for_output('"Kiosk App Touch"', timeout=30, stderr=True)
        # The alert's OK button, at (512, 434) on the 1024x768 screen (the card centred), dismisses it.
        screen.play(f"tap {512 / 1024:.5f} {434 / 768:.5f}")
        wait_for(lambda: [e for e in events("window.hidden") if e["window"] == "AlertController.window"], "the alert hidden")
        time.sleep(1)
        dismissed = image.load(guest.screendump(0))
        # Where the alert's card was (white; between the logo and the buttons) the main screen's light grey
        # shows again, undimmed.
        expect(dismissed.color_at(512, 320) == (242, 242, 247), f"the alert still shows: {dismissed.color_at(512, 320)}")
        # A long press (1.5 s) on the main screen's background (left of the logo: the list below keeps its
        # touches from the long press) brings it back, in front of everything.
        screen.play(f"tap {20 / 1024:.5f} {260 / 768:.5f} 1500")
        visible = wait_for(lambda: [e for e in events("window.visible") if e["window"] == "AlertController.window"],
                           "the alert shown again")
        expect(visible[-1]["level"] == 2000, visible[-1])
        wait_for(lambda: animations_in_flight(events()) == 0, "the alert's entrance shown")
        time.sleep(1)
        same_pixels(image.load(guest.screendump(0)), expected)


def check_sighup_with_a_new_mode_modesets(guest):
    write_config('backend = "drm"\nprimary = "Virtual-1"\n\n[screens.Virtual-1]\nmode = "800x600"\n\n'
                 '[screens.Virtual-2]\nmode = "800x600"\n')
    frames_on_head1 = len([e for e in events("frame") if e["screen"] == "Virtual-2"])
    kiosk["process"].signal(signal.SIGHUP, group=False)
    mode = wait_for(lambda: [e for e in events("screen.mode") if e["screen"] == "Virtual-1"], "screen.mode Virtual-1")
    expect((mode[-1]["width"], mode[-1]["height"]) == (800, 600), mode[-1])
    wait_for(lambda: "SIGHUP: applied" in kiosk["process"].stderr_so_far(), "the reload logged")
    time.sleep(1.5)
    shown = image.load(guest.screendump(0))
    expect(shown.size == (800, 600), f"head 0 shows {shown.size}")
    expect(shown.color_at(400, 300) != (0, 0, 0), "head 0 is black after the modeset")
    expect(not [e for e in events("screen.mode") if e["screen"] == "Virtual-2"], "head 1 was modeset too")


def check_sighup_with_a_broken_file_keeps_running(guest):
    write_config('backend = "drm"\n\n[screens.Virtual-1]\nmode = "800x600"\nrotaton = "90"\n')
    kiosk["process"].signal(signal.SIGHUP, group=False)
    wait_for(lambda: "keeping the running configuration" in kiosk["process"].stderr_so_far(), "the broken file refused")
    log = kiosk["process"].stderr_so_far()
    expect(f'{kiosk["config"]}:5:1: screens.Virtual-1: unknown key "rotaton"; did you mean "rotation"?' in log, log[-2000:])
    time.sleep(1)
    expect(kiosk["process"].running, "the kiosk stopped on a broken file")
    expect(image.load(guest.screendump(0)).size == (800, 600), "the running configuration was not kept")
    stop(kiosk["process"])


def check_check_config_lists_the_modes_a_connector_offers(guest):
    write_config('[screens.Virtual-1]\nmode = "2000x1000"\n')
    r = guest.run(f"{KIOSK} check-config --config {guest.guest_path(kiosk['config'])}", timeout=60)
    expect(r.status == 1, r)
    expect(f"{kiosk['config']}:2:8: screens.Virtual-1.mode: 2000x1000 is not offered by Virtual-1; valid: " in r.stdout, r.stdout)
    expect("1024x768@" in r.stdout and "1280x800@" in r.stdout, r.stdout)
