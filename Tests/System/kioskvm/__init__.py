"""kioskvm: system-test bed for the kiosk: Debian's kernel in QEMU with virtio-gpu, udev and uinput.

See Tests/System/README.md. The main entry point is Guest; image.load / Image for screendumps;
touch.TouchScreen and the libinput parsers; keyboard.Keyboard; drm.connectors and drm.frame_pattern.
"""

from .build import BuildError, ensure_image
from .guest import (BootError, BootHung, CommandFailed, CommandTimeout, Guest, GuestDied, GuestError,
                    GuestProcess, Result)
from .image import Image, load as load_image
from .qmp import QMPError

__all__ = [
    "BootError", "BootHung", "BuildError", "CommandFailed", "CommandTimeout", "Guest", "GuestDied", "GuestError",
    "GuestProcess", "Image", "QMPError", "Result", "ensure_image", "load_image",
]
