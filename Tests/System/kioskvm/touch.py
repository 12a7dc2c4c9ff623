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

import re
import shlex
from dataclasses import dataclass

from .uinput import PlayedDevice

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


class TouchScreen(PlayedDevice):
    """A touchscreen that lives until close(): touchplay runs in the guest reading its script from
    stdin, so gestures can be played at chosen moments (after the kiosk has opened the device...)."""

    def __init__(self, guest, **device_opts):
        self.opts = {**DEFAULTS, **device_opts}
        self.name = self.opts["name"]
        self.geometry = DeviceGeometry(**self.opts)
        super().__init__(guest, f"touchplay {touchplay_args(**self.opts)} -")

    def mm(self, fx: float, fy: float) -> tuple[float, float]:
        return self.geometry.mm(fx, fy)


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
