"""DRM helpers on the host side: connector state from the guest, the drmframe pattern, uevents.

    conns = drm.connectors(guest)            # {"Virtual-1": Connector(...), ...}, freshly probed
    conns["Virtual-1"].connected, conns["Virtual-1"].preferred   # True, (1280, 800)
    expected = drm.frame_pattern(1280, 800)  # what guest/drmframe.c draws, as RGB bytes
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass
class Connector:
    name: str                                   # kernel name, e.g. "Virtual-2"
    status: str                                 # connected / disconnected / unknown
    id: int
    modes: list = field(default_factory=list)   # [(w, h), ...] in the kernel's order
    preferred: tuple | None = None

    @property
    def connected(self) -> bool:
        return self.status == "connected"


def parse_drmframe_list(text: str) -> dict[str, Connector]:
    """Parse `drmframe --list`: "NAME STATUS id=N modes=WxH*,WxH,..." per line."""
    result = {}
    for line in text.splitlines():
        m = re.match(r"^(\S+) (\S+) id=(\d+) modes=(\S*)$", line.strip())
        if not m:
            continue
        c = Connector(m[1], m[2], int(m[3]))
        for tok in filter(None, m[4].split(",")):
            w, h = tok.rstrip("*").split("x")
            c.modes.append((int(w), int(h)))
            if tok.endswith("*") and c.preferred is None:
                c.preferred = (int(w), int(h))
        result[c.name] = c
    return result


def connectors(guest, device: str = "/dev/dri/card0") -> dict[str, Connector]:
    """Connector states, re-probed (drmModeGetConnector). Do not read sysfs `status` instead: after
    a host-driven hotplug it stays stale until something probes (shared/vm/README.md)."""
    r = guest.run(f"drmframe --list --device {device}", timeout=30).check()
    return parse_drmframe_list(r.stdout)


def frame_pattern(w: int, h: int) -> bytes:
    """The frame guest/drmframe.c draws for a WxH mode, as RGB bytes (rows top to bottom).
    Keep in sync with pattern() in drmframe.c."""
    bars = [(255, 255, 255), (255, 255, 0), (0, 255, 255), (0, 255, 0),
            (255, 0, 255), (255, 0, 0), (0, 0, 255), (0, 0, 0)]
    bar_row = b"".join(bytes(bars[x * 8 // w]) for x in range(w))
    reds = bytes(x * 255 // max(w - 1, 1) for x in range(w))
    rows = [bar_row] * (h // 4)
    for y in range(h // 4, h):
        row = bytearray(3 * w)
        row[0::3] = reds
        row[1::3] = bytes([y * 255 // max(h - 1, 1)]) * w
        row[2::3] = bytes((x ^ y) & 255 for x in range(w))
        rows.append(bytes(row))
    return b"".join(rows)


# --------------------------------------------------------------------------------------- uevents

@dataclass
class Uevent:
    source: str          # "KERNEL" or "UDEV"
    header: str          # e.g. "change   /devices/pci0000:00/0000:00:02.0/drm/card0 (drm)"
    props: dict


def parse_udevadm_monitor(text: str) -> list[Uevent]:
    """Parse `udevadm monitor --property` output into events (blocks start with KERNEL[...] or
    UDEV  [...] and list KEY=VALUE properties until a blank line). Only complete blocks count: the
    output is read while udevadm is still writing it, and a half-written block (seen: a UDEV event
    without its TAGS line yet) must not pass for the whole event."""
    events, cur = [], None
    for line in text.splitlines(keepends=True):
        m = re.match(r"^(KERNEL|UDEV)\s*\[[\d.]+\]\s+(.*)$", line.rstrip("\n"))
        if m:
            cur = Uevent(m[1], m[2].strip(), {})
        elif cur is not None and line.strip() and "=" in line and not line.startswith(" "):
            if not line.endswith("\n"):
                break                                  # a line still being written
            k, v = line.rstrip("\n").split("=", 1)
            cur.props[k] = v
        elif cur is not None and line == "\n":
            events.append(cur)                         # the blank line closes the block
            cur = None
    return events
