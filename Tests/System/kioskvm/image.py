"""Read screendumps (PNG via zlib, or PPM) and check their pixels. Standard library only.

    img = image.load(path)
    assert img.size == (1280, 800)
    img.color_at(10, 10)                                  # (r, g, b)
    img.region_is((0, 0, 160, 200), "#ffffff").expect()   # raises AssertionError with a diff message
    img.compare(expected_rgb_bytes).expect()

PNG support covers what QEMU's screendump writes (8-bit RGB, non-interlaced) plus RGBA, grey and
grey+alpha at 8 bits; alpha is dropped (pixels are compared as RGB).
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path


def parse_color(c) -> tuple[int, int, int]:
    """(r, g, b), "#rrggbb"/"rrggbb" or 0xRRGGBB."""
    if isinstance(c, str):
        s = c.lstrip("#")
        if len(s) != 6:
            raise ValueError(f"bad colour {c!r}")
        c = int(s, 16)
    if isinstance(c, int):
        return (c >> 16) & 255, (c >> 8) & 255, c & 255
    r, g, b = c[:3]
    return int(r), int(g), int(b)


def _hex(c) -> str:
    return "#%02x%02x%02x" % tuple(c)


class Comparison:
    """The result of a pixel check: truthy when it matched. str() explains a mismatch: how many
    pixels differ, the first one (x, y, got, wanted) and the bounding box of the differences."""

    def __init__(self, what: str, mismatches: int, total: int, first=None, bbox=None):
        self.what = what
        self.mismatches = mismatches
        self.total = total
        self.first = first          # (x, y, got_rgb, want_rgb)
        self.bbox = bbox            # (x0, y0, x1, y1) inclusive

    def __bool__(self) -> bool:
        return self.mismatches == 0

    def __str__(self) -> str:
        if not self:
            x, y, got, want = self.first
            return (f"{self.what}: {self.mismatches} of {self.total} pixels differ; first at ({x}, {y}): "
                    f"got {_hex(got)}, want {_hex(want)}; differences within {self.bbox}")
        return f"{self.what}: all {self.total} pixels match"

    __repr__ = __str__

    def expect(self) -> "Comparison":
        """Raise AssertionError(str(self)) unless it matched."""
        if not self:
            raise AssertionError(str(self))
        return self


class Image:
    """An RGB image: `width`, `height`, `pixels` (bytes, 3 per pixel, rows top to bottom)."""

    def __init__(self, width: int, height: int, pixels: bytes, path=None):
        if len(pixels) != width * height * 3:
            raise ValueError(f"{len(pixels)} bytes for {width}x{height} RGB")
        self.width = width
        self.height = height
        self.pixels = bytes(pixels)
        self.path = path

    @property
    def size(self) -> tuple[int, int]:
        return self.width, self.height

    def __repr__(self) -> str:
        return f"<Image {self.width}x{self.height} {self.path or ''}>"

    def color_at(self, x: int, y: int) -> tuple[int, int, int]:
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError(f"({x}, {y}) outside {self.width}x{self.height}")
        i = (y * self.width + x) * 3
        return tuple(self.pixels[i:i + 3])

    def region_is(self, rect, color, tolerance: int = 0) -> Comparison:
        """Every pixel of rect (x, y, w, h) is `color`, each channel within `tolerance`."""
        x0, y0, w, h = rect
        if x0 < 0 or y0 < 0 or w <= 0 or h <= 0 or x0 + w > self.width or y0 + h > self.height:
            raise ValueError(f"rect {rect} not inside {self.width}x{self.height}")
        want = parse_color(color)
        row_want = bytes(want) * w
        count, first, bbox = 0, None, None
        for y in range(y0, y0 + h):
            i = (y * self.width + x0) * 3
            row = self.pixels[i:i + 3 * w]
            if row == row_want:
                continue
            for x in range(w):
                got = row[3 * x:3 * x + 3]
                if any(abs(got[c] - want[c]) > tolerance for c in range(3)):
                    count += 1
                    first = first or (x0 + x, y, tuple(got), want)
                    bbox = _grow(bbox, x0 + x, y)
        return Comparison(f"region {tuple(rect)} == {_hex(want)} (tolerance {tolerance})",
                          count, w * h, first, bbox)

    def compare(self, expected, tolerance: int = 0, ignore=()) -> Comparison:
        """Pixel-exact (or within tolerance) comparison with another Image or raw RGB bytes of the
        same size. `ignore`: rects (x, y, w, h) whose pixels do not count (a clock, a cursor)."""
        if isinstance(expected, Image):
            if expected.size != self.size:
                return Comparison(f"size {self.size} == {expected.size}", 1, 1,
                                  (0, 0, (0, 0, 0), (0, 0, 0)), None)
            expected = expected.pixels
        if len(expected) != len(self.pixels):
            raise ValueError(f"expected {len(expected)} bytes, image has {len(self.pixels)}")
        what = f"image {self.width}x{self.height} == expected"
        if ignore:
            what += f" (ignoring {', '.join(map(str, map(tuple, ignore)))})"
        if expected == self.pixels:
            return Comparison(what, 0, self.width * self.height)
        count, first, bbox = 0, None, None
        rowlen = self.width * 3
        for y in range(self.height):
            a = self.pixels[y * rowlen:(y + 1) * rowlen]
            b = expected[y * rowlen:(y + 1) * rowlen]
            if a == b:
                continue
            masked = [(rx, rx + rw) for rx, ry, rw, rh in ignore if ry <= y < ry + rh]
            for x in range(self.width):
                if masked and any(x0 <= x < x1 for x0, x1 in masked):
                    continue
                got, want = a[3 * x:3 * x + 3], b[3 * x:3 * x + 3]
                if got != want and any(abs(got[c] - want[c]) > tolerance for c in range(3)):
                    count += 1
                    first = first or (x, y, tuple(got), tuple(want))
                    bbox = _grow(bbox, x, y)
        return Comparison(what + (f" (tolerance {tolerance})" if tolerance else ""), count,
                          self.width * self.height, first, bbox)

    def crop(self, rect) -> "Image":
        x0, y0, w, h = rect
        rows = [self.pixels[((y0 + y) * self.width + x0) * 3:((y0 + y) * self.width + x0 + w) * 3]
                for y in range(h)]
        return Image(w, h, b"".join(rows))

    def save_ppm(self, path) -> Path:
        """Write as binary PPM (for eyeballing a failure: most viewers open it)."""
        path = Path(path)
        path.write_bytes(b"P6\n%d %d\n255\n" % (self.width, self.height) + self.pixels)
        return path


def _grow(bbox, x, y):
    if bbox is None:
        return (x, y, x, y)
    return (min(bbox[0], x), min(bbox[1], y), max(bbox[2], x), max(bbox[3], y))


# ------------------------------------------------------------------------------------ decoding

def load(path) -> Image:
    """Decode a PNG or binary PPM (P6) file."""
    data = Path(path).read_bytes()
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        w, h, px = decode_png(data)
    elif data.startswith(b"P6"):
        w, h, px = decode_ppm(data)
    else:
        raise ValueError(f"{path}: neither PNG nor PPM")
    return Image(w, h, px, path=Path(path))


def decode_ppm(data: bytes):
    # "P6 <ws> width <ws> height <ws> maxval <one ws> pixels"; comments are not written by QEMU.
    fields, pos = [], 2
    while len(fields) < 3:
        while data[pos:pos + 1].isspace():
            pos += 1
        start = pos
        while not data[pos:pos + 1].isspace():
            pos += 1
        fields.append(int(data[start:pos]))
    w, h, maxval = fields
    if maxval != 255:
        raise ValueError(f"PPM maxval {maxval} unsupported")
    px = data[pos + 1:pos + 1 + w * h * 3]
    return w, h, px


def decode_png(data: bytes):
    pos = 8
    idat = []
    w = h = None
    while pos < len(data):
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if ctype == b"IHDR":
            w, h, depth, color, _comp, _filt, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or color not in (0, 2, 4, 6) or interlace:
                raise ValueError(f"unsupported PNG: depth {depth}, colour type {color}, interlace {interlace}")
            channels = {0: 1, 2: 3, 4: 2, 6: 4}[color]
        elif ctype == b"IDAT":
            idat.append(body)
        elif ctype == b"IEND":
            break
    if w is None:
        raise ValueError("PNG without IHDR")
    raw = zlib.decompress(b"".join(idat))
    bpp = channels
    stride = w * bpp
    out = bytearray(h * stride)
    prev = bytearray(stride)
    for y in range(h):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        _unfilter(ftype, line, prev, bpp)
        out[y * stride:(y + 1) * stride] = line
        prev = line
    if channels == 3:
        return w, h, bytes(out)
    if channels == 4:
        rgb = bytearray(w * h * 3)
        rgb[0::3], rgb[1::3], rgb[2::3] = out[0::4], out[1::4], out[2::4]
        return w, h, bytes(rgb)
    grey = out[0::channels]
    rgb = bytearray(w * h * 3)
    rgb[0::3] = rgb[1::3] = rgb[2::3] = grey
    return w, h, bytes(rgb)


def _unfilter(ftype: int, line: bytearray, prev: bytearray, bpp: int) -> None:
    """Undo one PNG scanline filter in place, byte by byte (libpng, which QEMU uses, picks a filter
    per row adaptively, so all five occur in its screendumps). ~0.5 s for a 1280x800 frame: hence
    Guest.screenshot() asks QEMU for PPM."""
    n = len(line)
    if ftype == 0:
        return
    if ftype == 2:          # Up
        line[:] = bytes((a + b) & 255 for a, b in zip(line, prev))
    elif ftype == 1:        # Sub
        for i in range(bpp, n):
            line[i] = (line[i] + line[i - bpp]) & 255
    elif ftype == 3:        # Average
        for i in range(n):
            left = line[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
    elif ftype == 4:        # Paeth
        for i in range(n):
            if i >= bpp:
                a, c = line[i - bpp], prev[i - bpp]
            else:
                a = c = 0
            b = prev[i]
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            if pa <= pb and pa <= pc:
                pred = a
            elif pb <= pc:
                pred = b
            else:
                pred = c
            line[i] = (line[i] + pred) & 255
    else:
        raise ValueError(f"bad PNG filter type {ftype}")


def write_png(path, width: int, height: int, rgb: bytes) -> None:
    """An 8-bit RGB PNG of `rgb` (3 bytes per pixel, rows top to bottom): pictures the guests show."""
    raw = b"".join(b"\0" + rgb[y * width * 3:(y + 1) * width * 3] for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    Path(path).write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                           + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))

