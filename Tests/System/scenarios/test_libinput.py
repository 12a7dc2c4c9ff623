"""The LibInput wrapper against a real kernel: its unit tests run in the guest, where /dev/uinput and udevd make the end-to-end suite (VirtualDeviceTests: uinput touchscreen, keyboard, mouse) run instead of being skipped."""

import re
from pathlib import Path

from kioskvm.scenario import expect, note

GUEST = dict(heads=1)
TIMEOUT = 420

REPO = Path(__file__).resolve().parents[3]
# Built by `swift build --build-tests` (scripts/test does it before the system tests).
TESTS = REPO / ".build" / "debug" / "kioskPackageTests.xctest"
# The end-to-end tests; each must pass in the guest (none may be skipped there).
VIRTUAL = ["touchscreenIsDescribedAsLibinputAndUdevSeeIt", "keyboardAndMouseCapabilities",
           "tapIsDownFrameUpFrameWithNormalizedAndMillimetreCoordinates",
           "twoFingersHaveTwoSlotsAndOneFramePerEvdevFrame", "calibrationMatrixAppliesToNormalizedAndMillimetreCoordinates",
           "removalMidTouchCancelsTheTouchFirst", "keysAndPointerEvents", "removalWithAKeyDownReleasesItFirst",
           "pathContextAddsAndRemovesThroughTheCallbacks",
           "suspendClosesDevicesAndResumeReportsThemAsNew",
           "releasingTheContextClosesDevicesAndOutlivingValuesAreHarmless", "usingADeviceAfterItsContextTraps"]


def issues(out):
    """The lines about failures, or the tail when there are none to show."""
    lines = [l for l in out.splitlines() if "✘" in l or "recorded an issue" in l or "Expectation failed" in l]
    return "\n".join(lines[:40]) if lines else out[-3000:]


def check_libinput_tests_pass_with_uinput_devices(guest):
    expect(TESTS.exists(), f"{TESTS} is missing: run `swift build --build-tests` first")
    # The module's whole test target, so the device-less tests also meet a seat0 that has devices.
    r = guest.run(f"{TESTS} --testing-library swift-testing --filter LibInputTests", timeout=360)
    # Swift Testing reports on stderr (XCTest's summary goes to stdout).
    out = re.sub(r"\x1b\[[0-9;]*m", "", r.stdout + r.stderr)
    passed = set(re.findall(r"Test (\w+)\(\) passed", out))
    skipped = set(re.findall(r"Test (\w+)\(\) skipped", out))
    missing = [t for t in VIRTUAL if t not in passed]
    expect(r.ok and not missing, f"not passed in the guest: {missing}; skipped: {sorted(skipped)}\n{issues(out)}")
    note(f"{len(passed)} tests passed in the guest in {r.duration:.1f} s")
