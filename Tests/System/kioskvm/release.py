"""The kiosk as a board gets it: the release build that scripts/install makes (not an input of the guest
image, which build.py hashes)."""

from __future__ import annotations

import subprocess
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent.parent.parent


def kiosk_build_command(scratch: Path) -> list[str]:
    """The `swift build` of the kiosk with scripts/release-flags (the Swift runtime linked in, linked by
    scripts/link-release), into `scratch`, where the binary is `release/kiosk`. Run it from the repository."""
    flags = subprocess.run([str(REPO_ROOT / "scripts" / "release-flags")], capture_output=True, text=True,
                           check=True).stdout.split()
    return ["swift", "build", "-c", "release", "--product", "kiosk", *flags, "--scratch-path", str(scratch)]
