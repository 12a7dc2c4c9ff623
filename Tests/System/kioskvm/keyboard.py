"""Keys in the guest: a uinput keyboard played by guest/keyplay.c.

    with guest.keyboard(name="Kiosk Keys") as kb:                  # device exists, udev done
        kiosk.wait_for_output('"Kiosk Keys"', stderr=True)          # the consumer has added it
        kb.play("key KEY_EQUAL\\nkey e")                             # returns when played
        kb.play("type hello\\nkey shift+1\\nkey return")

The script language is keyplay's (Tests/System/README.md, or the comment atop guest/keyplay.c): keys
by evdev code name (`KEY_EQUAL`, `equal`, `shift+g`), so what they type depends on the layout.
"""

from __future__ import annotations

import shlex

from .uinput import PlayedDevice

DEFAULTS = dict(name="kioskvm keyboard", id=(0x1D6B, 0x0105), delay_ms=10)


def keyplay_args(name=DEFAULTS["name"], id=DEFAULTS["id"], delay_ms=DEFAULTS["delay_ms"]) -> str:
    """keyplay's command line options for these device options."""
    return shlex.join(["--name", name, "--id", f"{id[0]:04x}:{id[1]:04x}", "--delay", str(delay_ms)])


class Keyboard(PlayedDevice):
    """A keyboard that lives until close(): keyplay runs in the guest reading its script from stdin."""

    def __init__(self, guest, **device_opts):
        self.opts = {**DEFAULTS, **device_opts}
        self.name = self.opts["name"]
        super().__init__(guest, f"keyplay {keyplay_args(**self.opts)} -")
