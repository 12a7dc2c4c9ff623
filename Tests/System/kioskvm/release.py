"""The kiosk as a board gets it: the release build that scripts/install makes (not an input of the guest
image, which build.py hashes)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent.parent.parent


def kiosk_build_command(scratch: Path) -> list[str]:
    """The `swift build` of the kiosk with scripts/release-flags (the Swift runtime linked in, linked by
    scripts/link-release), into `scratch`, where the binary is `release/kiosk`. Run it from the repository.
    If the flags changed since the last build into `scratch`, what it compiled is removed now: the Swift
    driver compiles nothing again for a changed -Xfrontend flag (-function-sections), and the objects of
    the old flags would be linked."""
    flags = subprocess.run([str(REPO_ROOT / "scripts" / "release-flags")], capture_output=True, text=True,
                           check=True).stdout.split()
    stamp = scratch / "release-flags"
    if not stamp.exists() or stamp.read_text().split() != flags:
        for built in scratch.glob("*-linux-gnu"):
            shutil.rmtree(built)
        scratch.mkdir(parents=True, exist_ok=True)
        stamp.write_text("\n".join(flags) + "\n")
    return ["swift", "build", "-c", "release", "--product", "kiosk", *flags, "--scratch-path", str(scratch)]
