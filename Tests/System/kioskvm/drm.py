"""DRM helpers on the host side: connector state from the guest, the helpers' patterns, planes composed as
vkms composes them, uevents.

    conns = drm.connectors(guest)            # {"Virtual-1": Connector(...), ...}, freshly probed
    conns["Virtual-1"].connected, conns["Virtual-1"].preferred   # True, (1280, 800)
    expected = drm.frame_pattern(1280, 800)  # what guest/drmframe.c draws, as RGB bytes
    layers = [drm.Layer("overlay", 96, 128, 320, 200), drm.Layer("cursor", 352, 288, 64, 64)]
    expected = drm.compose_planes(1024, 768, layers)   # what drmplanes' frame reads back through vkms's writeback
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
    """The frame guest/drmframe.c draws for a WxH mode (and drmplanes on its primary plane), as RGB bytes
    (rows top to bottom). Keep in sync with frame_pattern() in guest/framepattern.h."""
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


def plane_pattern(kind: str, w: int, h: int) -> bytes:
    """What guest/drmplanes.c puts on a WxH overlay or cursor plane (`kind` "overlay" or "cursor"): ARGB8888
    with premultiplied alpha, as (a, r, g, b) bytes per pixel, rows top to bottom. Keep in sync with
    plane_pattern() in guest/framepattern.h."""
    out = bytearray(4 * w * h)
    i = 0
    for y in range(h):
        fy = y * 255 // max(h - 1, 1)
        for x in range(w):
            fx = x * 255 // max(w - 1, 1)
            if kind == "overlay":
                a, r, g, b = fx, 255 - fy, (x ^ y) & 255, fy
            elif kind == "cursor":
                a, r, g, b = (fx + fy) // 2, 255, fx, (x * y) & 255
            else:
                raise ValueError(f"no plane pattern {kind!r}")
            out[i:i + 4] = (a, r * a // 255, g * a // 255, b * a // 255)
            i += 4
    return bytes(out)


@dataclass
class Layer:
    """A plane above the primary: its pattern (plane_pattern's kind) at CRTC_X/Y, in its size (no scaling)."""
    kind: str
    x: int
    y: int
    width: int
    height: int


def compose_planes(width: int, height: int, layers: list[Layer]) -> bytes:
    """The frame vkms composes (Linux 6.1, drivers/gpu/drm/vkms/vkms_composer.c) from drmplanes' primary plane
    (frame_pattern, XRGB8888, full screen) and `layers` in the planes' order, bottom first (vkms has no zpos:
    it blends the CRTC's planes in plane-index order, primary, overlays, cursor), as its XRGB8888 writeback
    reads back: RGB bytes.

    The blend is DRM's "Pre-multiplied" pixel blend mode, the default, with plane alpha 1 (vkms has neither
    property): out = src + dst * (1 - src.alpha), in vkms's own integer arithmetic, which decides the last bit
    of a pixel: every channel widened to 16 bits (c * 257), each plane blended into a 16-bit row
    (pre_mul_blend_channel: DIV_ROUND_CLOSEST(src * 0xffff + dst * (0xffff - alpha), 0xffff), on a black
    opaque background), and the row narrowed to 8 bits only at the end (DIV_ROUND_CLOSEST(c, 257)). A layer
    reaching past the mode is clipped to it, as the kernel clips the plane."""
    frame = bytearray(frame_pattern(width, height))
    wide: dict[int, list[int]] = {}          # pixel index -> the 16-bit row's (r, g, b) where a layer reached
    for layer in layers:
        pixels = plane_pattern(layer.kind, layer.width, layer.height)
        for y in range(max(0, layer.y), min(height, layer.y + layer.height)):
            for x in range(max(0, layer.x), min(width, layer.x + layer.width)):
                i = 4 * ((y - layer.y) * layer.width + (x - layer.x))
                alpha = pixels[i] * 257
                n = y * width + x
                dst = wide.get(n) or [c * 257 for c in frame[3 * n:3 * n + 3]]
                wide[n] = [(src * 257 * 0xffff + d * (0xffff - alpha) + 0x7fff) // 0xffff
                           for src, d in zip(pixels[i + 1:i + 4], dst)]
    for n, rgb in wide.items():
        frame[3 * n:3 * n + 3] = bytes((c + 128) // 257 for c in rgb)
    return bytes(frame)


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
