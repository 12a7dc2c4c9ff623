"""Helpers shared by the kiosk's display scenarios: run the kiosk in the guest, wait for its frames,
render the same scene headless on the host, compare pixels."""

import json
import re
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from kioskvm import image
from kioskvm.measure import avoid_the_minute  # noqa: F401 (the scenarios import it from here)
from kioskvm.scenario import expect

REPO = Path(__file__).resolve().parents[3]
KIOSK = REPO / ".build" / "debug" / "kiosk"
# libseat's builtin backend: the guest runs as root with no logind or seatd (shared/vm/README.md).
SEAT = {"LIBSEAT_BACKEND": "builtin"}
# The status bar's clock (HH:MM at its left) is the one part that may differ between two renderings.
CLOCK = (0, 0, 80, 40)
# The demo without its welcome alert: the main screen's controls in reach at once, for the scenarios about
# them rather than about the alert (which is modal: it takes every touch while it is up).
NO_WELCOME = "[app-settings]\nwelcome = false\n"


def config_arg(guest, text=NO_WELCOME):
    """`--config PATH` for a config file of `text` in the job folder (the guest sees it at the same path)."""
    path = Path(guest.job_dir) / f"kiosk-{time.monotonic_ns()}.toml"
    path.write_text(text)
    return f"--config {guest.guest_path(path)}"


def screens_json(guest):
    r = guest.run(f"{KIOSK} screens --json", timeout=60).check()
    return json.loads(r.stdout)


def reference(screens, size_of=None, config=None):
    """The same kiosk rendered by the headless backend on the host, for `screens` = [(name, "WxH@Hz")]:
    what the display must show, pixel for pixel; `config` is the text of a config file to run it with."""
    folder = Path(tempfile.mkdtemp(prefix="kiosk-reference-"))
    # Long enough for the demo's alert to have come in (0.25 s from its first frame) on a loaded host.
    args = [str(KIOSK), "run", "--backend", "headless", "--snapshot-dir", str(folder), "--exit-after", "3"]
    if config is not None:
        (folder / "kiosk.toml").write_text(config)
        args += ["--config", str(folder / "kiosk.toml")]
    for name, mode in screens:
        args += ["--headless-screen", f"{name}={mode}"]
    subprocess.run(args, check=True, capture_output=True, timeout=60, env={"LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"})
    return {name: image.load(folder / f"{name}.png") for name, _ in screens}


def run_kiosk(guest, args, env=None):
    """Starts the kiosk (exec'd, so signals reach it alone) with a trace; returns (process, trace path)."""
    trace = Path(guest.job_dir) / f"trace-{time.monotonic_ns()}.jsonl"
    cmd = f"exec {KIOSK} run {args} --trace {guest.guest_path(trace)}"
    return guest.spawn(cmd, env={**SEAT, **(env or {})}), trace


def at(x, y, panel=(1280, 800)):
    """A point of the panel (1280x800: the bed's Virtual-1 as the scenarios set it) as a touchscreen's
    fractions, as touchplay takes them."""
    return f"{x / panel[0]:.5f} {y / panel[1]:.5f}"


def kiosk_with_touchscreen(guest, args, name):
    """The kiosk on the DRM backend with `args` and a trace, its first frames on Virtual-1 and its input
    set up, then a uinput touchscreen called `name` (entered: the caller leaves it) that the kiosk has
    opened. Returns (process, trace, touchscreen)."""
    process, trace = run_kiosk(guest, f"--backend drm {args}")
    wait_for_frames(trace, ["Virtual-1"])
    wait_until(lambda: [e for e in trace_events(trace, "startup") if e["phase"] == "input"], "input set up", 60)
    screen = guest.touchscreen(name=name, size_mm=(256, 160))
    screen.__enter__()
    process.wait_for_output(f'"{name}"', timeout=30, stderr=True)
    return process, trace, screen


def animations_in_flight(events):
    """How many animation blocks the trace shows begun and not yet ended, counting an ended one as in
    flight until a frame after its end is on the display (the frame that shows its end state: the input
    set-up that follows the launch's animations can hold the main thread for a second under load)."""
    ends = [i for i, e in enumerate(events) if e["event"] == "animation.end"]
    frames = [i for i, e in enumerate(events) if e["event"] == "frame"]
    shown = 1 if ends and not (frames and frames[-1] > ends[-1]) else 0
    return (len([e for e in events if e["event"] == "animation.begin"]) - len(ends)) + shown


def wait_for_frames(trace, screens, timeout=60):
    """Until the trace shows a frame for each screen and no animation in flight (the demo's alert fades
    in at launch), then a moment for the flip to reach the display."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if trace.exists():
            events = [json.loads(l) for l in trace.read_text().splitlines() if l.strip()]
            done = {e["screen"] for e in events if e["event"] == "frame"}
            if all(s in done for s in screens) and animations_in_flight(events) == 0:
                time.sleep(1.0)
                return events
        time.sleep(0.2)
    raise AssertionError(f"no frame on {screens} within {timeout} s; trace: {trace.read_text() if trace.exists() else 'none'}")


def stop(process):
    process.signal(signal.SIGTERM, group=False)
    result = process.wait(30)
    expect(result.status == 0, result)
    return result


def same_pixels(actual, expected, mask=CLOCK):
    """Every pixel equal except inside `mask` (x, y, w, h), compared a row at a time (image.compare)."""
    expect(actual.size == expected.size, f"size {actual.size}, expected {expected.size}")
    ignore = [mask] if mask[2] > 0 and mask[3] > 0 else []
    actual.compare(expected, ignore=ignore).expect()


def screen_matches(guest, head, expected, ignore=(CLOCK,), timeout=10):
    """Screendumps of `head` until one equals `expected` (except inside `ignore`), for up to `timeout`
    seconds; fails with the last comparison. Under load on the emulated bed QEMU can show a frame some
    time after the guest's page flip of it completed (seen with two guests and builds running: the
    display still showed the frame before a 0.25 s animation a second after the trace had the frames of
    all of it), so one screendump right after the trace's last frame is not proof of a wrong frame."""
    deadline = time.time() + timeout
    while True:
        shown = image.load(guest.screendump(head))
        result = shown.compare(expected, ignore=[r for r in ignore if r[2] > 0 and r[3] > 0]) if shown.size == expected.size else None
        if result:
            return shown
        if time.time() >= deadline:
            expect(shown.size == expected.size, f"size {shown.size}, expected {expected.size}")
            result.expect()
        time.sleep(0.5)


def mode_spelling(connector, width, height):
    """`WxH@Hz` with the exact refresh the kernel offers for that size (the status bar prints it)."""
    mode = next(m for m in connector["modes"] if (m["width"], m["height"]) == (width, height))
    return f"{width}x{height}@{mode['refresh']}"




def trace_events(path, kind=None, screen=None):
    """The kiosk's --trace lines (JSON) so far, of one kind and screen when given; none before the file exists."""
    path = Path(path)
    if not path.exists():
        return []
    lines = [json.loads(l) for l in path.read_text().splitlines() if l.strip()]
    return [e for e in lines if (kind is None or e["event"] == kind) and (screen is None or e.get("screen") == screen)]


def wait_until(predicate, what, timeout=30, context=lambda: ""):
    """Polls `predicate` until it returns something truthy (returned); fails naming `what` and `context()`."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}; {context()}")


class TraceFollower:
    """The kiosk's --trace read as it grows: each `refresh()` parses only the lines added since the last
    one (a long run's trace holds tens of thousands of lines, too many to parse again at every poll).
    `events` is every line so far; `mark()` and `since(mark, kind, screen)` take the lines after a point;
    `in_flight()` is `animations_in_flight` over the whole trace, kept up as lines come."""

    def __init__(self, path):
        self.path = Path(path)
        self.events = []
        self._offset = 0
        self._begins = self._ends = 0
        self._last_end = self._last_frame = -1

    def refresh(self):
        if not self.path.exists():
            return self.events
        with open(self.path, "rb") as f:
            f.seek(self._offset)
            data = f.read()
        complete = data[:data.rfind(b"\n") + 1]
        self._offset += len(complete)
        for line in complete.decode().splitlines():
            if not line.strip():
                continue
            event = json.loads(line)
            index = len(self.events)
            self.events.append(event)
            kind = event["event"]
            if kind == "animation.begin":
                self._begins += 1
            elif kind == "animation.end":
                self._ends += 1
                self._last_end = index
            elif kind == "frame":
                self._last_frame = index
        return self.events

    def mark(self):
        """Where the trace is now: the lines after it are `since(mark)`."""
        return len(self.refresh())

    def since(self, mark, event=None, screen=None, **fields):
        """The lines after `mark`, of one event and screen when given, and with these field values."""
        self.refresh()
        return [e for e in self.events[mark:] if (event is None or e["event"] == event) and (screen is None or e.get("screen") == screen)
                and all(e.get(k) == v for k, v in fields.items())]

    def in_flight(self):
        """Animation blocks begun and not ended, and one more while no frame has followed the last end."""
        self.refresh()
        return (self._begins - self._ends) + (1 if self._last_end > self._last_frame else 0)

    def tail(self, count=8):
        self.refresh()
        return self.events[-count:]


def screenshot_is_the_screendump(guest, head, screen, path, socket=None, timeout=10):
    """`kiosk screenshot --screen SCREEN PATH` over the control socket, pixel for pixel QEMU's screendump of
    head `head`; returns (the screenshot as an image.Image, the client's output line). The screendump is
    taken again for up to `timeout` seconds until it is equal (QEMU can show a frame some time after its
    flip under load: see `screen_matches`), and the comparison's reason fails the check after that. `socket`:
    the control socket's path, if not the default. Keep the turn of the minute out of the way first
    (`avoid_the_minute`): the status bar's clock would repaint between the two."""
    where = f" --socket {socket}" if socket else ""
    r = guest.run(f"{KIOSK} screenshot --screen {screen}{where} {guest.guest_path(path)}", timeout=60)
    expect(r.ok, r)
    taken = image.load(path)
    deadline = time.monotonic() + timeout
    while True:
        dump = guest.screendump(head, Path(guest.job_dir) / f"screendump-of-{screen}.ppm")
        dumped = image.load(dump)
        dump.unlink()
        expect(taken.size == dumped.size, f"{screen}: screenshot {taken.size}, screendump {dumped.size}")
        result = taken.compare(dumped)
        if result or time.monotonic() >= deadline:
            result.expect()
            return taken, r.stdout.strip()
        time.sleep(0.5)


def changed(a, b, step=97) -> float:
    """The fraction of sampled pixels (every `step`th) that differ between two images; 1 for different sizes."""
    if a.size != b.size:
        return 1.0
    samples = range(0, len(a.pixels) - 2, 3 * step)
    return sum(1 for i in samples if a.pixels[i:i + 3] != b.pixels[i:i + 3]) / len(samples)


def outside_blend(image, a, b, step=97, slack=8) -> float:
    """The fraction of sampled pixels (every `step`th) of `image` whose colour is not between `a`'s and `b`'s
    (within `slack` per channel): a frame of a fade from `a` to `b`, a dimming coming in, is between them
    nearly everywhere; 1 for different sizes."""
    if not (image.size == a.size == b.size):
        return 1.0
    samples = range(0, len(a.pixels) - 2, 3 * step)
    outside = 0
    for i in samples:
        for c in range(3):
            low, high = sorted((a.pixels[i + c], b.pixels[i + c]))
            if not low - slack <= image.pixels[i + c] <= high + slack:
                outside += 1
                break
    return outside / len(samples)


def plane_positions(guest, card=0):
    """Where each plane of /dev/dri/card`card` that shows a framebuffer is on its CRTC, from the kernel's atomic
    state (debugfs): {plane id: (x, y, width, height)}."""
    state = guest.run("mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug; "
                      f"cat /sys/kernel/debug/dri/{card}/state", timeout=20).check().stdout
    planes, current, framebuffer = {}, None, 0
    for line in state.splitlines():
        header = re.match(r"plane\[(\d+)\]", line)
        if header:
            current, framebuffer = int(header.group(1)), 0
            continue
        # A plane turned off (fb=0) keeps the place it last had in its state.
        fb = re.match(r"\s+fb=(\d+)", line)
        if fb:
            framebuffer = int(fb.group(1))
        shown = re.search(r"crtc-pos=(\d+)x(\d+)([+-]\d+)([+-]\d+)", line)
        if current is not None and framebuffer and shown:
            width, height, x, y = (int(v) for v in shown.groups())
            if width and height:
                planes[current] = (x, y, width, height)
    return planes


def move_tablet(guest, x, y, size=(1280, 800)):
    """QEMU's virtio tablet to (x, y) of the screen it points at, of `size`: absolute axes 0..32767."""
    guest.qmp("input-send-event", events=[{"type": "abs", "data": {"axis": "x", "value": int(x / size[0] * 32767)}},
                                          {"type": "abs", "data": {"axis": "y", "value": int(y / size[1] * 32767)}}])

