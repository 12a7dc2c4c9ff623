"""Touch input in the guest: a uinput touchscreen played by guest/touchplay.c, and parsers for what
libinput reports about it.

    with guest.touchscreen(name="panel", size_mm=(256, 160)) as ts:     # device exists, udev done
        events = guest.spawn("libinput debug-events")
        events.wait_for_output(r"DEVICE_ADDED\\s+panel")                # libinput has set it up
        ts.play("tap 0.25 0.5")                                         # returns when played
        ts.mm(0.25, 0.5)                                                # (64.0, 80.0): where libinput puts it

The script language is touchplay's (Tests/System/README.md, or the comment atop guest/touchplay.c).
"""

from __future__ import annotations

import itertools
import re
import shlex
from dataclasses import dataclass

DEFAULTS = dict(name="kioskvm touchscreen", size_mm=(256, 160), resolution=16, range=None,
                id=(0x1D6B, 0x0104), slots=10)


def touchplay_args(name=DEFAULTS["name"], size_mm=DEFAULTS["size_mm"], resolution=DEFAULTS["resolution"],
                   range=None, id=DEFAULTS["id"], slots=DEFAULTS["slots"]) -> str:
    """touchplay's command line options for these device options."""
    args = ["--name", name, "--size", f"{size_mm[0]}x{size_mm[1]}", "--res", str(resolution),
            "--id", f"{id[0]:04x}:{id[1]:04x}", "--slots", str(slots)]
    if range:
        args += ["--range", f"{range[0]}x{range[1]}"]
    return shlex.join(args)


class DeviceGeometry:
    """touchplay's coordinate mapping, to compute where libinput will report a touch."""

    def __init__(self, size_mm=DEFAULTS["size_mm"], resolution=DEFAULTS["resolution"], range=None, **_):
        self.size_mm = size_mm
        if range:
            self.max = tuple(range)
            self.res = tuple(max(1, round(range[i] / size_mm[i])) for i in (0, 1))
        else:
            self.res = (resolution, resolution)
            self.max = (size_mm[0] * resolution, size_mm[1] * resolution)

    def units(self, fx: float, fy: float) -> tuple[int, int]:
        # touchplay uses lround (half away from zero); Python's round is half-to-even.
        def lround(v):
            return int(v + 0.5) if v >= 0 else -int(-v + 0.5)
        return lround(fx * self.max[0]), lround(fy * self.max[1])

    def mm(self, fx: float, fy: float) -> tuple[float, float]:
        """libinput's mm for a touch at fractions (fx, fy): units / resolution."""
        ux, uy = self.units(fx, fy)
        return ux / self.res[0], uy / self.res[1]


class TouchScreen:
    """A touchscreen that lives until close(): touchplay runs in the guest reading its script from
    stdin, so gestures can be played at chosen moments (after the kiosk has opened the device...)."""

    def __init__(self, guest, **device_opts):
        self.guest = guest
        self.opts = {**DEFAULTS, **device_opts}
        self.name = self.opts["name"]
        self.geometry = DeviceGeometry(**self.opts)
        self._batches = itertools.count(1)
        self.proc = guest.spawn(f"touchplay {touchplay_args(**self.opts)} -")
        self.devnode: str | None = None
        self.wait_ready()

    def wait_ready(self, timeout: float = 60.0) -> str:
        """Wait until the device node exists and udev has processed it; returns /dev/input/eventN."""
        return self._await_devnode("wait-for-device", timeout)

    def wait_opened(self, timeout: float = 60.0) -> int:
        """Wait until some guest process has the device open; returns its pid. Enough for a raw
        evdev reader; for libinput (the kiosk) wait for its own sign that the device was added
        (debug-events' DEVICE_ADDED, the kiosk's trace) before playing: libinput drains whatever is
        queued right after it opens a device (evdev_drain_fd), seen here under heavy host load."""
        n = next(self._batches)
        self.proc.write(f"wait-for-open {int(timeout * 1000)}\necho @opened {n}\n")
        m = self.proc.wait_for_output(rf"OPENED (\d+)\n@opened {n}\n", timeout + 10)
        return int(m.group(1))

    def _await_devnode(self, cmd: str, timeout: float) -> str:
        n = next(self._batches)
        self.proc.write(f"{cmd} {int(timeout * 1000)}\necho @ready {n}\n")
        m = self.proc.wait_for_output(rf"READY (\S+)\n@ready {n}\n", timeout + 10)
        self.devnode = m.group(1)
        return self.devnode

    def play(self, script: str, timeout: float = 60.0) -> None:
        """Play script lines and return once touchplay has executed them all."""
        n = next(self._batches)
        self.proc.write(script.strip() + f"\necho @done {n}\n")
        try:
            self.proc.wait_for_output(rf"^@done {n}$", timeout)
        except Exception as e:
            raise RuntimeError(f"touchplay failed: {self.proc.stderr_so_far().strip()}") from e

    def remove(self) -> None:
        """Destroy the device (mid-gesture if fingers are down)."""
        self.play("remove")
        self.devnode = None

    def create(self, timeout: float = 60.0) -> str:
        """Create it again after remove(); returns the new /dev/input/eventN."""
        self.play("create")
        return self.wait_ready(timeout)

    def mm(self, fx: float, fy: float) -> tuple[float, float]:
        return self.geometry.mm(fx, fy)

    def close(self):
        """End touchplay (the device goes away with it) and return its Result."""
        if self.proc.running and self.guest.alive:
            self.proc.close_stdin()
            return self.proc.wait(20)
        return self.proc.result()

    def __enter__(self) -> "TouchScreen":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# --------------------------------------------------------------------------------- libinput output

@dataclass
class LibinputEvent:
    device: str            # "event5"
    type: str              # TOUCH_DOWN, TOUCH_MOTION, TOUCH_UP, TOUCH_FRAME, DEVICE_ADDED, ...
    time: float | None     # seconds, from the +N.NNNs field
    slot: int | None = None
    seat_slot: int | None = None
    x_pct: float | None = None   # libinput_event_touch_get_x_transformed(.., 100)
    y_pct: float | None = None
    x_mm: float | None = None
    y_mm: float | None = None
    rest: str = ""


# libinput 1.22 tools/libinput-debug-events.c:
#   " event5   TOUCH_DOWN              +1.234s	0 (0) 25.00/50.00 (64.00/80.00mm)"
#   "-event5   DEVICE_ADDED            kioskvm touchscreen               seat0 default group7  cap:t ..."
_EVENT = re.compile(r"^[-\s]?(?P<dev>event\d+)\s+(?P<type>[A-Z_]+)\s+(?P<rest>.*)$")
_TIME = re.compile(r"^\+(?P<t>\d+\.\d+)s\s*(?P<rest>.*)$")
_TOUCH = re.compile(r"^(?P<slot>\d+) \((?P<seat>\d+)\)\s*(?:(?P<xp>[-\d.]+)/\s*(?P<yp>[-\d.]+)"
                    r"\s*\(\s*(?P<xm>[-\d.]+)/\s*(?P<ym>[-\d.]+)mm\))?")


def parse_debug_events(text: str) -> list[LibinputEvent]:
    """Parse `libinput debug-events` output into events (lines it does not know are skipped). A last
    line without its newline is still being written and is left out."""
    events = []
    for line in text[:text.rfind("\n") + 1].splitlines():
        m = _EVENT.match(line.rstrip())
        if not m:
            continue
        ev = LibinputEvent(m["dev"], m["type"], None, rest=m["rest"].strip())
        t = _TIME.match(ev.rest)
        if t:
            ev.time = float(t["t"])
            ev.rest = t["rest"].strip()
            tm = _TOUCH.match(ev.rest)
            if tm and ev.type.startswith("TOUCH_"):
                ev.slot, ev.seat_slot = int(tm["slot"]), int(tm["seat"])
                if tm["xp"] is not None:
                    ev.x_pct, ev.y_pct = float(tm["xp"]), float(tm["yp"])
                    ev.x_mm, ev.y_mm = float(tm["xm"]), float(tm["ym"])
        events.append(ev)
    return events


def parse_list_devices(text: str) -> list[dict]:
    """Parse `libinput list-devices`: one dict per device, keys as printed ("Device", "Kernel",
    "Capabilities", "Size", ...), values stripped."""
    devices, cur = [], {}
    for line in text.splitlines():
        if not line.strip():
            if cur:
                devices.append(cur)
            cur = {}
            continue
        if ":" in line:
            k, v = line.split(":", 1)
            cur[k.strip()] = v.strip()
    if cur:
        devices.append(cur)
    return devices
