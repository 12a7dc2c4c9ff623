"""The beds Tests/System/peers measures start-up on (`--bed NAME`): the 9p bed every scenario runs on, and
guests whose root is a disk as a board's (disk.py), with and without an SD card's rate and an RNG device.

  9p          the host's root over 9p with a RAM overlay (Guest's default); up to a millisecond per file open
  disk        the peers' disk image (ext4 on virtio-blk, Debian installed by debootstrap), a virtio-rng device
  sd          the same, throttled like an SD card (disk.SD_CARD: 1500 IO/s, 40 MB/s, both disks together)
  disk-norng  the disk bed without an RNG device (a board without a hardware RNG)

On the disk beds the measured programs are read from disks: the distribution's (weston, cage, the
libraries) from the root image, the kiosk's binaries and the bare modeset program (drmframe) from the
payload disk, which is Tests/System/peers' run folder made into an image and mounted read-only at that
folder's own path; every boot is a snapshot of the same image, so every start is cold.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from . import build, disk
from .guest import Guest


@dataclass(frozen=True)
class Bed:
    name: str
    title: str
    on_disk: bool = False
    throttle: dict | None = None
    rng: bool = True


BEDS = {b.name: b for b in (
    Bed("9p", "9p (the host's root over 9p)"),
    Bed("disk", "disk + RNG", on_disk=True),
    Bed("sd", "SD-throttled + RNG", on_disk=True, throttle=disk.SD_CARD),
    Bed("disk-norng", "disk, no RNG", on_disk=True, rng=False),
)}


class Session:
    """One peers run on one bed: the disk image and the payload made once, a fresh guest per call."""

    def __init__(self, bed: Bed, run_folder: Path, scratch: Path):
        self.bed = bed
        self.run_folder = run_folder
        self.image = None
        self.payload_image = None
        self.scratch = scratch

    def prepare(self, image: build.Image) -> None:
        """After the run folder has everything the guests read from it (binaries, the picture)."""
        if not self.bed.on_disk:
            return
        self.image = disk.ensure_disk("peers")
        helper = image.extras / build.GUEST_BIN.lstrip("/") / "drmframe"
        shutil.copy(helper, self.run_folder / "drmframe")
        self.payload_image = disk.payload_image(self.run_folder, self.scratch / "peers-payload.ext4")

    def program(self, name: str) -> str:
        """How a guest command names a bed helper (drmframe): from the payload disk on a disk bed."""
        return str(self.run_folder / name) if self.bed.on_disk else name

    def guest(self, name: str) -> Guest:
        if not self.bed.on_disk:
            return Guest(heads=1, name=name, rng=self.bed.rng)
        boot = disk.Boot(self.image, snapshot=True, throttle=self.bed.throttle, payload=self.run_folder,
                         payload_image=self.payload_image)
        return Guest(heads=1, name=name, disk=boot, rng=self.bed.rng)
