"""The build scripts on this host (no guest): scripts/text-stack leaves no stamp when its build fails, so the
next run builds again (a stamp over missing archives had made every later release build fail until the folder
was deleted by hand), and never follows DESTDIR (scripts/test builds the release with DESTDIR set, as `make
install DESTDIR=...` exports it, and checks the staging folder stays empty)."""

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from kioskvm.scenario import expect, skip

GUEST = None
TIMEOUT = 300

REPO = Path(__file__).resolve().parents[3]


def check_a_failed_text_stack_build_leaves_no_stamp():
    downloads = REPO / ".build-text" / "downloads"
    if not any(downloads.glob("*.dsc")):
        skip(f"no downloaded sources in {downloads} (scripts/text-stack fetches them; scripts/test builds the release first)")
    top = Path(tempfile.mkdtemp(prefix="kiosk-text-stack-"))
    try:
        shutil.copytree(downloads, top / "downloads")
        # A ninja that fails as a broken build does (meson's own setup is real): the install never happens.
        tools = top / "tools"
        tools.mkdir()
        (tools / "ninja").write_text("#!/bin/sh\necho 'ninja: build stopped: subcommand failed.' >&2\nexit 1\n")
        (tools / "ninja").chmod(0o755)
        env = {**os.environ, "KIOSK_TEXT_STACK_DIR": str(top), "PATH": f"{tools}:{os.environ['PATH']}"}
        failed = subprocess.run([str(REPO / "scripts" / "text-stack")], env=env, capture_output=True, text=True, timeout=240)
        expect(failed.returncode == 1, f"exit {failed.returncode}: {failed.stderr[-2000:]}")
        expect("text-stack: building harfbuzz failed" in failed.stderr, failed.stderr[-2000:])
        expect(not (top / "prefix" / "built-from").exists(), "a failed build left its stamp")
        listed = subprocess.run([str(REPO / "scripts" / "text-stack"), "--archives"], env=env, capture_output=True, text=True)
        expect(listed.returncode == 1 and listed.stdout == "", f"--archives after a failed build: {listed}")
        expect("not built" in listed.stderr, listed.stderr)
    finally:
        shutil.rmtree(top, ignore_errors=True)
