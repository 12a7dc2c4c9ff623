"""The Debian packages, for real: the kiosk's and an app's own (Examples/CheckInApp) as scripts/package builds
them (dpkg-buildpackage -b, lintian without errors), their contents, and each installed with `apt install
./NAME.deb` into a guest that has never seen the project (the disk bed's fresh image: Debian with systemd
booting from an ext4 disk, the packages the kiosk needs only in a local archive), rebooted into the kiosk
under systemd as the kiosk user (the picture on the display, the unit active, its process the kiosk user's),
then removed and purged, leaving no file of theirs behind.

scripts/test builds both packages before the system tests (after the release builds, so they compile nothing
again); a package missing here is built first. One guest for both packages, one after the other: three boots
of a systemd Debian under TCG, 3-6 minutes in all."""

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

from kioskvm import disk, image, measure
from kioskvm.guest import Guest
from kioskvm.scenario import expect, note
from scenarios_support import CLOCK, NO_WELCOME, changed, outside_blend, reference, same_pixels

GUEST = None
TIMEOUT = 1800

REPO = Path(__file__).resolve().parents[3]
OUTPUT = Path(os.environ.get("KIOSK_PACKAGE_OUTPUT_DIR", REPO / ".build-package"))
APP = "checkin-kiosk"
# What is not a package's file and changes on its own while a system runs and installs things.
CHURN = ("/var/log/", "/var/cache/", "/var/lib/apt/", "/var/lib/dpkg/", "/var/lib/systemd/", "/var/tmp/",
         "/etc/ld.so.cache", "/etc/machine-id", "/var/lib/dbus/machine-id", "/etc/systemd/system/timers.target.wants",
         "/root/", "/usr/lib/kioskvm/", "/etc/.pwd.lock", "/etc/passwd", "/etc/group", "/etc/shadow",
         "/etc/gshadow", "/etc/subuid", "/etc/subgid", "/var/lib/private/")
state = {}


def deb_of(name: str) -> Path:
    found = sorted(OUTPUT.glob(f"{name}_*_*.deb"), key=lambda p: p.stat().st_mtime)
    return found[-1] if found else None


def build(name: str, args: list[str]) -> Path:
    if deb_of(name) is None:
        note(f"no {name} package in {OUTPUT}: building it (scripts/package {' '.join(args)})")
        r = subprocess.run([str(REPO / "scripts" / "package"), *args, "--output", str(OUTPUT)], cwd=REPO,
                           capture_output=True, text=True, timeout=1500)
        expect(r.returncode == 0, f"scripts/package {' '.join(args)} exited {r.returncode}:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    deb = deb_of(name)
    expect(deb is not None, f"scripts/package made no {name}_*.deb in {OUTPUT}")
    return deb


def contents(deb: Path) -> list[str]:
    r = subprocess.run(["dpkg-deb", "-c", str(deb)], capture_output=True, text=True, check=True)
    return [line.split()[5].removeprefix(".") for line in r.stdout.splitlines()]


def field(deb: Path, name: str) -> str:
    return subprocess.run(["dpkg-deb", "-f", str(deb), name], capture_output=True, text=True, check=True).stdout.strip()


def lintian_errors(deb: Path) -> list[str]:
    report = deb.with_suffix(".lintian")
    expect(report.exists(), f"no lintian report beside {deb} (scripts/package writes it)")
    return [l for l in report.read_text().splitlines() if l.startswith("E:")]


def check_the_kiosk_package_is_built_and_lintian_finds_no_error():
    deb = build("kiosk", [])
    files = contents(deb)
    for wanted in ("/usr/bin/kiosk", "/lib/systemd/system/kiosk.service", "/lib/udev/rules.d/70-kiosk.rules",
                   "/etc/kiosk/kiosk.toml", "/usr/lib/sysusers.d/kiosk.conf", "/usr/lib/tmpfiles.d/kiosk.conf",
                   "/usr/share/doc/kiosk/copyright"):
        expect(wanted in files, f"{deb.name} has no {wanted}: {files}")
    conffiles = subprocess.run(["dpkg-deb", "--ctrl-tarfile", str(deb)], capture_output=True, check=True).stdout
    expect(b"/etc/kiosk/kiosk.toml" in conffiles, f"{deb.name}: /etc/kiosk/kiosk.toml is not a conffile")
    depends = field(deb, "Depends")
    # dpkg-shlibdeps' (what it links) and scripts/package-depends' (what it loads when first needed).
    for library in ("libdrm2", "libudev1", "libpixman-1-0", "libinput10", "libseat1", "libxkbcommon0", "libpango-1.0-0"):
        expect(library in depends, f"{deb.name} Depends lacks {library}: {depends}")
    expect(lintian_errors(deb) == [], f"lintian: {lintian_errors(deb)}")
    state["kiosk"] = deb
    note(f"{deb.name}: {deb.stat().st_size // 1024} KiB; Depends: {depends}")


def check_an_app_package_is_built_from_its_own_swift_package():
    deb = build(APP, ["--package-path", "Examples/CheckInApp", "--product", APP])
    files = contents(deb)
    for wanted in (f"/usr/lib/{APP}/{APP}", f"/usr/lib/{APP}/CheckInApp_CheckInApp.resources/welcome.txt",
                   f"/usr/bin/{APP}", "/lib/systemd/system/kiosk.service", "/etc/kiosk/kiosk.toml"):
        expect(wanted in files, f"{deb.name} has no {wanted}: {files}")
    # The kiosk's commands (screens, inputs, status, calibrate) beside the app, as scripts/install --app.
    expect("/usr/bin/kiosk" in files, f"{deb.name} has not the kiosk's commands: {files}")
    expect(field(deb, "Package") == APP and "kiosk-app" in field(deb, "Conflicts"), field(deb, "Conflicts"))
    expect(lintian_errors(deb) == [], f"lintian: {lintian_errors(deb)}")
    state["app"] = deb


def _files(guest) -> set[str]:
    r = guest.run("find / -xdev \\( -path /proc -o -path /sys -o -path /dev -o -path /run -o -path /tmp \\) -prune "
                  "-o -print", timeout=300).check()
    return {p for p in r.stdout.splitlines() if not p.startswith(CHURN)}


def _nothing_left(guest, deb: Path) -> None:
    """After `apt-get purge --autoremove`: no file of the package, nothing with kiosk in its path (the unit's
    links, the user's home, the config folder), and the dependencies apt installed for it gone. What the
    dependencies' own maintainer scripts made and left after their purge (xml-core's catalogs, polkitd's rules
    folder) is theirs, and only counted."""
    # apt removes the dependencies it had installed but keeps their conffiles (state rc): purged too.
    r = guest.run("rc=$(dpkg-query -W -f '${db:Status-Abbrev} ${Package}\\n' | awk '$1 == \"rc\" { print $2 }'); "
                  "[ -z \"$rc\" ] || DEBIAN_FRONTEND=noninteractive apt-get purge -y $rc", timeout=300)
    expect(r.ok, r)
    after = _files(guest) - state["before"]
    ours = set(contents(deb))
    left = sorted(p for p in after if p in ours or "kiosk" in p or "display-manager" in p)
    expect(left == [], f"left after the purge: {left[:20]}")
    r = guest.run("dpkg-query -W -f '${db:Status-Status} ${Package}\\n' libinput10 libseat1 libpango-1.0-0 2>/dev/null "
                  "| grep -v '^not-installed' || true")
    expect(not r.stdout.strip(), f"the dependencies apt installed for {deb.name} are still there: {r.stdout}")
    note(f"after purging {deb.name} and the dependencies apt had installed for it: {len(after)} files of theirs stay "
         f"({', '.join(sorted(after)[:3])}...)" if after else f"after purging {deb.name}: no file left")


def _boots_into(guest, deb: Path, program: str) -> None:
    """Installs `deb` with apt, reboots, and finds the kiosk unit running `program` as the kiosk user."""
    shutil.copy(deb, guest.job_dir / deb.name)
    r = guest.run(f"cd {guest.job_dir} && DEBIAN_FRONTEND=noninteractive apt-get install -y ./{deb.name}", timeout=600)
    expect(r.ok, r)
    expect("kiosk.service" in guest.run("systemctl list-unit-files kiosk.service").stdout, "kiosk.service not installed")
    r = guest.run("systemctl is-enabled kiosk.service; getent passwd kiosk; id -nG kiosk; stat -c '%U %a' /var/lib/kiosk")
    expect(r.stdout.split("\n")[0] == "enabled" and ":/var/lib/kiosk:/usr/sbin/nologin" in r.stdout, r)
    expect({"video", "input", "render"} <= set(r.stdout.split("\n")[2].split()) and "kiosk 750" in r.stdout, r)
    r = guest.run("systemd-analyze verify kiosk.service")
    expect(r.ok and not (r.stdout + r.stderr).strip(), r)
    t = time.monotonic()
    guest.reboot()
    # Type=notify: active once the first frame is on the display.
    r = guest.run("systemctl is-system-running --wait; for i in $(seq 240); do "
                  "[ \"$(systemctl is-active kiosk.service)\" = active ] && break; sleep 0.5; done; "
                  "systemctl show -p ActiveState -p MainPID -p NRestarts kiosk.service", timeout=300)
    props = dict(l.split("=", 1) for l in r.stdout.splitlines() if "=" in l)
    expect(props.get("ActiveState") == "active", f"kiosk.service after the reboot: {props}\n"
           f"{guest.run('journalctl -b -t kiosk -u kiosk.service --no-pager | tail -30').stdout}")
    pid = props["MainPID"]
    r = guest.run(f"ps -o user= -p {pid}; readlink /proc/{pid}/exe")
    expect(r.stdout.split() == ["kiosk", program], f"the unit's process: {r.stdout!r}, wanted kiosk {program}")
    expect(props.get("NRestarts") == "0", f"kiosk.service restarted: {props}")
    note(f"{deb.name}: active {time.monotonic() - t:.0f} s after `systemctl reboot`, {program} as kiosk")


def check_the_kiosk_package_installs_with_apt_in_a_fresh_guest_and_boots_into_the_kiosk():
    expect("kiosk" in state and "app" in state, "the packages were not built")
    fresh = disk.ensure_disk("fresh")
    folder = Path(OUTPUT / "guest")
    copy = disk.copy_of(fresh, folder)
    guest = Guest(heads=1, disk=disk.Boot(copy, snapshot=False), name="package", boot_timeout=120)
    state["guest"] = guest.start()
    state["copy"] = folder
    state["before"] = _files(guest)
    _boots_into(guest, state["kiosk"], "/usr/bin/kiosk")
    screens = json.loads(guest.run("kiosk screens --json", timeout=120).check().stdout)
    connector = next(s for s in screens["screens"] if s["name"] == "Virtual-1") if isinstance(screens, dict) else \
        next(s for s in screens if s["name"] == "Virtual-1")
    mode = next(m for m in connector["modes"] if (m["width"], m["height"]) == (1280, 800))
    expected = reference([("Virtual-1", f"1280x800@{mode['refresh']}")])["Virtual-1"]
    state["expected"] = expected
    # The demo's first frame, before its welcome alert dims it: the app's frames on the way in are between
    # the two (the alert's backdrop darkens the whole screen as it comes in).
    state["undimmed"] = reference([("Virtual-1", f"1280x800@{mode['refresh']}")], config=NO_WELCOME)["Virtual-1"]
    deadline = time.monotonic() + 60
    while True:
        shown = image.load(guest.screendump(0))
        if shown.size == expected.size and shown.compare(expected, ignore=[CLOCK]):
            break
        if time.monotonic() > deadline:
            same_pixels(shown, expected)
        time.sleep(1)


def _is_app(image) -> bool:
    """A frame of the demo: its final picture (the alert in), or one of its alert's way in: between the
    main screen and the final picture but for the card, which scales down into place (a tenth of the
    screen at most)."""
    return changed(image, state["expected"]) < 0.3 or outside_blend(image, state["undimmed"], state["expected"]) < 0.1


def _start_watched(guest) -> tuple:
    """`systemctl start kiosk.service` (which returns at READY=1, the first frame) while head 0 is dumped
    every 0.1 s: the image before, and the distinct images up to the app's frame (state["expected"])."""
    watch = measure.FrameWatch(guest, 0, 0.1)
    before = watch.dump().image
    watch.forget()
    t0 = time.monotonic()
    start = guest.spawn("systemctl start kiosk.service", stdin=False)
    app = measure.shows_exactly(state["expected"], (CLOCK,))
    watch.until(t0, app, 120)
    result = start.wait(120)
    expect(result.status == 0, result)
    dumps = [d for d in watch.history if d.at >= t0]
    return before, dumps[:next(i for i, d in enumerate(dumps) if app(d.image))]


def check_a_restart_of_the_unit_keeps_the_console_until_the_first_frame():
    # The unit neither resets nor deallocates tty1 at start (which would switch it to text mode and
    # clear it): what the display shows stays until the kiosk's first frame, here the console full of text.
    guest = state.get("guest")
    expect(guest is not None and "expected" in state, "no guest with the kiosk (the install failed)")
    guest.run("systemctl stop kiosk.service", timeout=120).check()
    guest.run("for i in $(seq 1 60); do echo \"line $i of the console before the kiosk: ############################"
              "#####################################\"; done > /dev/tty1", timeout=30).check()
    time.sleep(0.5)
    console, before = _start_watched(guest)
    expect(changed(console, state["expected"]) > 0.1, "the console looks like the kiosk's frame: no text on it?")
    # The console, then the demo's frames (its alert comes in over the main screen): nothing else between.
    kinds = ["console" if changed(d.image, console) < 0.01 else "app" if _is_app(d.image)
             else f"{changed(d.image, console):.0%} unlike the console, {changed(d.image, state['expected']):.0%} "
             "unlike the app's frame" for d in before]
    expect(all(k in ("console", "app") for k in kinds) and "console" not in kinds[kinds.index("app"):] if "app" in kinds
           else all(k == "console" for k in kinds), f"the images from the start to the app's final frame: {kinds}")
    r = guest.run("journalctl -b -t kiosk --no-pager | grep 'without a modeset' | tail -1")
    expect("Virtual-1: on CRTC" in r.stdout, f"the kiosk's log does not say it kept the console's mode: {r.stdout}")


# A boot splash: one picture of one colour filling the screen, through plymouth's script plugin (Debian's
# plymouth package has it; a sprite, since the background colours alone drew nothing on the bed).
SPLASH_SCRIPT = ("field = Image(\"field.png\");\n"
                 "sprite = Sprite(field.Scale(Window.GetWidth(), Window.GetHeight()));\n"
                 "sprite.SetPosition(0, 0, 0);\n")
SPLASH_THEME = ("[Plymouth Theme]\nName=bedsplash\nModuleName=script\n\n[script]\n"
                "ImageDir=/usr/share/plymouth/themes/bedsplash\n"
                "ScriptFile=/usr/share/plymouth/themes/bedsplash/bedsplash.script\n")


def _field_png(path: Path) -> None:
    """A 64x64 PNG of one blue, which the splash scales to the screen."""
    image.write_png(path, 64, 64, bytes((0x1E, 0x6F, 0xB4)) * 64 * 64)


def check_the_boot_splash_hands_over_with_its_picture_kept():
    # plymouthd as plymouth-start.service runs it at boot (boot mode, the splash shown; detached, as the
    # service's is), then the unit's start: `plymouth deactivate` before the kiosk opens the card, the splash
    # on the display until the kiosk's first frame, `plymouth quit --retain-splash` after READY=1.
    guest = state.get("guest")
    expect(guest is not None and "expected" in state, "no guest with the kiosk (the install failed)")
    r = guest.run("DEBIAN_FRONTEND=noninteractive apt-get install -y plymouth", timeout=600)
    expect(r.ok, r)
    try:
        theme = "/usr/share/plymouth/themes/bedsplash"
        _field_png(guest.job_dir / "field.png")
        files = {"bedsplash.plymouth": guest.write_file("bedsplash.plymouth", SPLASH_THEME),
                 "bedsplash.script": guest.write_file("bedsplash.script", SPLASH_SCRIPT),
                 "field.png": guest.job_dir / "field.png"}
        guest.run(f"mkdir -p {theme} && " + " && ".join(f"cp {guest.guest_path(f)} {theme}/{n}" for n, f in files.items())
                  + " && plymouth-set-default-theme bedsplash && systemctl stop kiosk.service", timeout=120).check()
        # `plymouth.ignore-serial-consoles`: the bed's kernel console is ttyS0, where plymouth would force text.
        guest.run("setsid -f plymouthd --mode=boot --tty=/dev/tty1 "
                  "--kernel-command-line='quiet splash plymouth.ignore-serial-consoles' && "
                  "for i in $(seq 100); do plymouth --ping && break; sleep 0.1; done && plymouth show-splash",
                  timeout=60).check()
        deadline = time.monotonic() + 60
        while True:
            splash = image.load(guest.screendump(0))
            if all(abs(a - b) <= 8 for a, b in zip(splash.color_at(640, 400), (0x1E, 0x6F, 0xB4))):
                break
            expect(time.monotonic() < deadline, f"plymouth's splash did not show: head 0 shows {splash.color_at(640, 400)}")
            time.sleep(0.5)
        time.sleep(1.0)
        splash = image.load(guest.screendump(0))
        shown, before = _start_watched(guest)
        expect(changed(shown, splash) < 0.01, "the splash changed before the kiosk started")
        kinds = ["splash" if changed(d.image, splash) < 0.01 else "app" if _is_app(d.image)
                 else f"{changed(d.image, splash):.0%} unlike the splash" for d in before]
        expect(all(k in ("splash", "app") for k in kinds) and ("app" not in kinds or "splash" not in kinds[kinds.index("app"):]),
               f"the images from the start to the app's final frame: {kinds}")
        r = guest.run("for i in $(seq 50); do pidof plymouthd >/dev/null || break; sleep 0.2; done; pidof plymouthd")
        expect(not r.stdout.strip(), f"plymouthd still runs after the kiosk's start (ExecStartPost did not quit it): {r}")
        note(f"{kinds.count('splash')} images of the splash, then the app's: plymouth quit after READY=1")
    finally:
        guest.run("pkill plymouthd; rm -rf /usr/share/plymouth/themes/bedsplash; "
                  "DEBIAN_FRONTEND=noninteractive apt-get purge -y --autoremove plymouth", timeout=600)


def check_removing_and_purging_the_kiosk_leaves_nothing_of_it():
    guest = state.get("guest")
    expect(guest is not None, "no guest (the install failed)")
    r = guest.run("DEBIAN_FRONTEND=noninteractive apt-get remove -y kiosk", timeout=300)
    expect(r.ok, r)
    r = guest.run("test ! -e /usr/bin/kiosk && test -f /etc/kiosk/kiosk.toml && ! systemctl is-active -q kiosk.service")
    expect(r.ok, f"after apt-get remove: the binary should be gone, the conffile kept, the unit stopped: {r}")
    r = guest.run("DEBIAN_FRONTEND=noninteractive apt-get purge -y --autoremove kiosk && dpkg-query -W kiosk", timeout=300)
    expect("no packages found" in r.stderr, r)
    _nothing_left(guest, state["kiosk"])


def check_the_app_package_installs_the_same_way_and_runs_the_app():
    guest = state.get("guest")
    expect(guest is not None, "no guest (the install failed)")
    _boots_into(guest, state["app"], f"/usr/lib/{APP}/{APP}")
    r = guest.run("journalctl -b -t kiosk --no-pager")
    expect(f"welcome text from /usr/lib/{APP}/CheckInApp_CheckInApp.resources/welcome.txt" in r.stdout, r)
    r = guest.run(f"DEBIAN_FRONTEND=noninteractive apt-get purge -y --autoremove {APP}", timeout=300)
    expect(r.ok, r)
    _nothing_left(guest, state["app"])
    guest.stop()
    shutil.rmtree(state["copy"], ignore_errors=True)
