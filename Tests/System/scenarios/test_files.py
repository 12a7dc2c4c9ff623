"""The files the kiosk writes, on real filesystems in the guest: a snapshot folder on a read-only or a full
filesystem refused at start (exit 3), a write that fails later (the filesystem filled while the kiosk runs)
said once and again when it recovers, with no `.tmp` left behind."""

import signal
from pathlib import Path

from kioskvm import image
from kioskvm.scenario import expect
from scenarios_support import KIOSK, NO_WELCOME, wait_until

GUEST = dict(heads=1)
TIMEOUT = 300

ENV = {"LC_ALL": "C.UTF-8"}


def headless(folder, extra=""):
    return f"{KIOSK} run --backend headless --snapshot-dir {folder} --exit-after 0.5 {extra}"


def mount_tmpfs(guest, path, options):
    guest.run(f"mkdir -p {path} && mount -t tmpfs -o {options} tmpfs {path}").check()


def fill(guest, path):
    """Writes zeros into `path`/fill until its filesystem is full."""
    guest.run(f"dd if=/dev/zero of={path}/fill bs=4k 2>/dev/null; true", timeout=60)


def check_a_read_only_snapshot_folder_stops_the_start(guest):
    mount_tmpfs(guest, "/mnt/ro", "ro,size=1m")
    r = guest.run(headless("/mnt/ro/shots"), env=ENV, timeout=60)
    expect(r.status == 3, r)
    expect("cannot write into the snapshot folder /mnt/ro/shots: Read-only file system (mkdir /mnt/ro/shots)" in r.stderr, r.stderr)
    # A folder that exists on a filesystem remounted read-only: the check writes into it.
    mount_tmpfs(guest, "/mnt/remounted", "size=1m")
    guest.run("mkdir /mnt/remounted/shots && mount -o remount,ro /mnt/remounted").check()
    r = guest.run(headless("/mnt/remounted/shots"), env=ENV, timeout=60)
    expect(r.status == 3, r)
    expect("cannot write into the snapshot folder /mnt/remounted/shots: Read-only file system (open " in r.stderr, r.stderr)


def check_a_full_snapshot_folder_stops_the_start_and_leaves_nothing(guest):
    mount_tmpfs(guest, "/mnt/full", "size=256k")
    fill(guest, "/mnt/full")
    r = guest.run(headless("/mnt/full/shots"), env=ENV, timeout=60)
    expect(r.status == 3, r)
    expect("cannot write into the snapshot folder /mnt/full/shots: No space left on device (write " in r.stderr, r.stderr)
    left = guest.run("ls -A /mnt/full/shots").check().stdout.split()
    expect(left == [], f"left in the folder: {left}")


def status_bar_on_the_left(guest, path):
    """Whether the snapshot at `path` shows the demo turned 270° (its dark status bar along the left edge,
    where at 0° it is along the top), as the display would: the buffer keeps the mode's 1280x800."""
    copy = Path(guest.job_dir, "snapshot.png")
    guest.run(f"cp {path} {guest.guest_path(copy)}").check()
    shown = image.load(copy)
    return shown.size == (1280, 800) and shown.color_at(20, 400) == (57, 57, 58) and shown.color_at(640, 20) != (57, 57, 58)


def check_a_write_that_fails_later_is_said_once_and_when_it_recovers(guest):
    # Room for the start's check and a snapshot (the demo's 1280x800 PNG is tens of KiB), then filled.
    mount_tmpfs(guest, "/mnt/small", "size=1m")
    config = Path(guest.job_dir) / "files.toml"
    # Without the demo's welcome alert, whose backdrop would dim the status bar this looks for.
    config.write_text('[screens.HEADLESS-1]\nrotation = "normal"\n\n' + NO_WELCOME)
    process = guest.spawn(
        f"exec {KIOSK} run --backend headless --snapshot-dir /mnt/small/shots --config {guest.guest_path(config)}", env=ENV)

    def reload(rotation):
        """A reload with a new rotation: a new frame, whose snapshot is written at once."""
        applied = process.stderr_so_far().count("SIGHUP: applied")
        config.write_text(f'[screens.HEADLESS-1]\nrotation = "{rotation}"\n\n' + NO_WELCOME)
        process.signal(signal.SIGHUP, group=False)
        wait_until(lambda: process.stderr_so_far().count("SIGHUP: applied") > applied, f"the reload to {rotation}",
                   timeout=60, context=process.stderr_so_far)

    try:
        shot = "/mnt/small/shots/HEADLESS-1.png"
        wait_until(lambda: guest.run(f"test -s {shot}").ok, "the first snapshot", timeout=60)
        fill(guest, "/mnt/small")
        for rotation in ["90", "180", "normal"]:
            reload(rotation)
        failures = process.stderr_so_far().count("could not write the snapshot of HEADLESS-1")
        expect(failures == 1, f"{failures} failure lines for three frames that could not be written: {process.stderr_so_far()}")
        left = guest.run("ls -A /mnt/small/shots").check().stdout.split()
        expect(left == ["HEADLESS-1.png"], f"the folder holds {left}, not the last good snapshot alone")
        # Room again: the next frame is written, and the log says so.
        guest.run("rm /mnt/small/fill").check()
        reload("270")
        wait_until(lambda: "the snapshot of HEADLESS-1 is written again" in process.stderr_so_far(), "the recovery in the log",
                   timeout=60, context=process.stderr_so_far)
        # The log may speak of a frame before the reload's (the status bar's clock): the rotated one follows.
        wait_until(lambda: status_bar_on_the_left(guest, shot), "the rotated frame's snapshot", timeout=60)
        process.signal(signal.SIGTERM, group=False)
        result = process.wait(30)
        expect(result.status == 0, result)
        expect(result.stderr.count("could not write the snapshot of HEADLESS-1") == 1, result.stderr)
    finally:
        if process.running:
            process.kill()
