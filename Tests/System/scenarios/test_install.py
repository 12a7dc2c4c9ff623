"""scripts/install for real (as root, no DESTDIR) in the guest, whose root is a RAM overlay that vanishes at power-off: user and groups, the unit verified against the installed binary, device permissions after the udev reload, and the unprivileged kiosk user driving the display through those permissions."""

import os
from pathlib import Path

from kioskvm.scenario import expect, note

GUEST = dict(heads=1)
TIMEOUT = 300

REPO = Path(__file__).resolve().parents[3]
# scripts/test builds the debug configuration; any build folder with the kiosk will do. scripts/install refuses
# a debug build, and one that loads the Swift runtime from the toolchain, for a board: the guest has the
# host's toolchain at the same path (the host's root is its own), so the install is told to take it.
BUILD = Path(os.environ.get("KIOSK_INSTALL_BUILD_DIR", REPO / ".build" / "debug"))
INSTALL = f"scripts/install --no-build --build-dir {BUILD} --allow-debug --allow-toolchain"


def check_install_twice(guest):
    expect((BUILD / "kiosk").exists(), f"{BUILD}/kiosk is missing: build first")
    # Time limits that catch a hang, not a slow host: a loaded one took over 120 s to copy and trim the
    # debug binary.
    first = guest.run(f"cd {REPO} && {INSTALL}", timeout=600)
    expect(first.ok, first)
    second = guest.run(f"cd {REPO} && {INSTALL}", timeout=600)
    expect(second.ok and "user kiosk (exists)" in second.stdout, second)


def check_user_and_groups(guest):
    r = guest.run("id -nG kiosk; getent passwd kiosk")
    expect(r.ok, r)
    groups = r.stdout.splitlines()[0].split()
    expect({"kiosk", "video", "input", "render"} <= set(groups), r)
    expect(":/var/lib/kiosk:/usr/sbin/nologin" in r.stdout, r)


def check_unit_verifies_against_the_installed_binary(guest):
    r = guest.run("systemd-analyze verify /etc/systemd/system/kiosk.service")
    expect(r.ok and not (r.stdout + r.stderr).strip(), r)


def check_device_permissions(guest):
    r = guest.run("stat -c '%n %G %a' /dev/dri/card0 /dev/fb0 /dev/input/event0")
    expect(r.ok, r)
    expect(r.stdout.split("\n")[:3] == ["/dev/dri/card0 video 660", "/dev/fb0 video 660",
                                         "/dev/input/event0 input 660"], r)


def check_kiosk_user_drives_the_display(guest):
    # No logind in the guest: libseat's noop backend opens the devices with the user's own permissions.
    r = guest.run("cd /var/lib/kiosk && runuser -u kiosk -- env LIBSEAT_BACKEND=noop "
                  "/usr/local/bin/kiosk run --backend drm --exit-after 3", timeout=600)
    out = r.stdout + r.stderr
    expect(r.ok and "Virtual-1" in out, r)
    note(next((l for l in out.splitlines() if "Virtual-1" in l), "")[-150:])
