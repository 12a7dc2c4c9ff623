"""udev-rules/: the rules parse and apply (udevadm test, a dry run) to a real DRM card, fbdev, the i8042 keyboard and two uinput touchscreens matched by name and by vendor:product as in the example."""

from pathlib import Path

from kioskvm.scenario import expect, note

GUEST = dict(heads=1)
TIMEOUT = 240

REPO = Path(__file__).resolve().parents[3]


def check_rules_apply_to_real_devices(guest):
    # The two touchscreens of udev-rules/99-kiosk-touchscreen.rules.example: one matched by name, one by
    # vendor:product (its name matches nothing).
    with guest.touchscreen(name="ILITEK ILITEK-TP", id=(0x222A, 0x0001)), \
            guest.touchscreen(name="eGalax Inc. USB TouchController", id=(0x0EEF, 0x0001)):
        r = guest.run(f"{REPO}/udev-rules/check --require-devices", timeout=120)
    expect(r.ok, r)
    note(r.stdout.strip().splitlines()[-1])
