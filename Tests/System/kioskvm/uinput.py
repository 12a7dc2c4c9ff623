"""A uinput device played in the guest by one of guest/*play.c (touchplay, keyboard's keyplay): the
player runs reading its script from stdin, so input is played at chosen moments (after the kiosk has
opened the device...). The commands every player knows are in guest/uinputplay.h."""

from __future__ import annotations

import itertools


class PlayedDevice:
    """A device that lives until close(); `command` starts its player reading stdin (`... -`)."""

    def __init__(self, guest, command: str):
        self.guest = guest
        self.tool = command.split()[0]
        self._batches = itertools.count(1)
        self.proc = guest.spawn(command)
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
        """Play script lines and return once the player has executed them all."""
        n = next(self._batches)
        self.proc.write(script.strip() + f"\necho @done {n}\n")
        try:
            self.proc.wait_for_output(rf"^@done {n}$", timeout)
        except Exception as e:
            raise RuntimeError(f"{self.tool} failed: {self.proc.stderr_so_far().strip()}") from e

    def remove(self) -> None:
        """Destroy the device (mid-gesture or with keys down if so)."""
        self.play("remove")
        self.devnode = None

    def create(self, timeout: float = 60.0) -> str:
        """Create it again after remove(); returns the new /dev/input/eventN."""
        self.play("create")
        return self.wait_ready(timeout)

    def close(self):
        """End the player (the device goes away with it) and return its Result."""
        if self.proc.running and self.guest.alive:
            self.proc.close_stdin()
            return self.proc.wait(20)
        return self.proc.result()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()
