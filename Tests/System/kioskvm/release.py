"""The kiosk as a board gets it: the release build that scripts/install makes (not an input of the guest
image, which build.py hashes)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent.parent.parent


def kiosk_build_command(scratch: Path) -> list[str]:
    """The release build of the kiosk with scripts/release-flags (the Swift runtime linked in, linked by
    scripts/link-release), into `scratch`, where the binary is `release/kiosk`: scripts/release-build,
    which compiles everything again when the flags changed since its last build there. Run it from the
    repository with SWIFT_BUILD_FLAGS unset (`release_build_environment()`)."""
    return [str(REPO_ROOT / "scripts" / "release-build"), "--scratch-path", str(scratch)]


def release_build_environment() -> dict[str, str]:
    """This process's environment without SWIFT_BUILD_FLAGS, so that the build uses scripts/release-flags;
    with /opt/swift's toolchain on PATH when no `swift` is on it (as the README allows)."""
    env = {k: v for k, v in os.environ.items() if k != "SWIFT_BUILD_FLAGS"}
    if not shutil.which("swift", path=env.get("PATH")):
        env["PATH"] = env.get("PATH", "") + ":/opt/swift/usr/bin"
    return env
