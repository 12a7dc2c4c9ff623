"""Guests whose root is a disk, as a board's eMMC or SD card: an ext4 image on virtio-blk, with Debian 12
installed into it by debootstrap (the bed's kernel and initramfs as for every guest).

    image = disk.ensure_disk("peers")                   # cached; built once (~3 min, needs the network)
    with Guest(heads=1, disk=disk.Boot(image)) as g:     # snapshot: the image is never written
        ...
    with Guest(heads=1, disk=disk.Boot(disk.copy_of(image, folder), snapshot=False)) as g:
        g.reboot()                                       # the same disk, a new boot

Two kinds, each a cache entry of its own (KINDS):

  peers  Debian's minimal system with what the kiosk loads (`scripts/setup --list run`) and the peers
         (build.PEER_PACKAGES: weston, cage, swayimg) installed, the bed's helpers (drmframe) and agent in
         /usr/lib/kioskvm. The agent is PID 1 as on the 9p bed (stage2.sh): Tests/System/peers measures
         start-up on it with nothing else of a boot running beside the program.
  fresh  a system that has never seen the project: Debian's minimal system with systemd booting as PID 1
         (logind, dbus, udev), and the agent as a unit of its own. Nothing of the kiosk's is installed; the
         packages it needs are in a local archive (/var/lib/kioskvm-archive, its index made with
         dpkg-scanpackages, the guest's only apt source), so `apt install ./kiosk_*.deb` resolves the
         package's Depends as on a board, without the network (the install scenario).

A boot's payload (Boot.payload: a folder of the host, e.g. the binary Tests/System/peers measures) is a
second ext4 image made from that folder (payload_image), mounted read-only at the folder's host path: the
program is read from a disk too, never over 9p. The job folder is the 9p share at its host path, as always.

Why the images are made with `mkfs.ext4 -d` from a folder and not mounted: no loop device, no mount, no
root beyond what debootstrap itself needs (it runs as root here, as every bed build does).
"""

from __future__ import annotations

import fcntl
import hashlib
import inspect
import json
import os
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import build

HERE = Path(__file__).resolve().parent
SUITE = "bookworm"
MIRROR = os.environ.get("KIOSK_DEBIAN_MIRROR", "http://deb.debian.org/debian")
SECURITY = "http://deb.debian.org/debian-security"

# Every kind: systemd and udev (udevd, logind, the unit's PAM session), dbus (logind's bus), Python for the
# agent and the sampler (python3: python3-minimal has no json), procps and util-linux's setpriv (peers' scripts).
BASE_PACKAGES = ["systemd", "systemd-sysv", "udev", "dbus", "libpam-systemd", "python3", "procps", "kmod"]

# The bed's own files a disk guest runs (the 9p guest reads them from the host's root): the agent, its stage
# 2, the guest services (measure.GuestService) and the helpers. Not in the image, so that it need not be built
# again when one changes: Guest copies them into the job folder at each boot, and init.sh binds that copy at
# /usr/lib/kioskvm (read over 9p, as the host's are on the 9p bed; what is measured is on the disks).
GUEST_SCRIPTS = ["agent.py", "stage2.sh", "measure.py", "control.py", "jsonlines.py"]
ARCHIVE = "/var/lib/kioskvm-archive"          # the fresh kind's local archive, in the guest
AGENT_UNIT = """[Unit]
Description=kioskvm test agent (the host drives the guest over virtio-serial)
DefaultDependencies=no
After=systemd-udev-trigger.service
Wants=systemd-udev-trigger.service

[Service]
ExecStart=/usr/bin/python3 -I -S -u /usr/lib/kioskvm/agent.py
StandardOutput=journal+console
StandardError=journal+console
KillMode=process

[Install]
WantedBy=sysinit.target
"""


def run_packages() -> list[str]:
    """What a board needs to run a built kiosk: scripts/setup's own list (declared there once)."""
    out = build._run([str(build.REPO_ROOT / "scripts" / "setup"), "--list", "run"]).stdout
    return out.split()


def _kinds() -> dict:
    return {
        # seatd: cage's seat (the 9p guest has it from build.GUEST_PACKAGES).
        "peers": {"install": run_packages() + build.PEER_PACKAGES + ["libdrm2", "seatd"], "archive": [], "init": "agent"},
        # plymouth: in the archive for the package scenario's hand-over from a boot splash, not installed.
        "fresh": {"install": [], "archive": run_packages() + ["plymouth"], "init": "systemd"},
        # Tests/System/startprofile --bed disk: the kiosk's run packages and perf, to profile a start from a disk.
        "profile": {"install": run_packages() + ["libdrm2", "linux-perf", "strace"], "archive": [], "init": "agent"},
    }


@dataclass
class DiskImage:
    kind: str
    path: Path            # the raw ext4 image
    init: str             # "agent" (PID 1, as on the 9p bed) or "systemd"
    info: dict = field(default_factory=dict)


@dataclass
class Boot:
    """How a Guest boots from a disk (Guest(disk=Boot(...))).

    image     the DiskImage (or a copy_of one)
    snapshot  the guest's writes are discarded at power-off (QEMU's snapshot=on): every boot starts from the
              same image, and its page cache is cold. False for a scenario that reboots into what it changed.
    throttle  limits like an SD card's (SD_CARD), shared by the root and the payload disk, or None
    payload   a host folder made into a second disk (payload_image), mounted read-only at the same path
    """
    image: DiskImage
    snapshot: bool = True
    throttle: dict | None = None
    payload: Path | None = None
    payload_image: Path | None = None


# An SD card's rate (the figures: QEMU's throttling.iops-total / bps-total), for Boot(throttle=...).
SD_CARD = {"iops-total": 1500, "bps-total": 40_000_000}


def qemu_drive_args(boot: Boot) -> list[str]:
    """The -drive/-device arguments of a disk boot: the root on virtio-blk (vda), the payload on vdb."""
    throttle = ""
    if boot.throttle:
        # One group: the two disks share the card's rate, as two partitions of one card would.
        throttle = "".join(f",throttling.{k}={v}" for k, v in boot.throttle.items()) + ",throttling.group=card"
    args = ["-drive", f"file={boot.image.path},format=raw,if=none,id=root,snapshot={'on' if boot.snapshot else 'off'}"
                      f"{throttle}",
            "-device", "virtio-blk-pci,drive=root"]
    if boot.payload_image is not None:
        args += ["-drive", f"file={boot.payload_image},format=raw,if=none,id=payload,readonly=on{throttle}",
                 "-device", "virtio-blk-pci,drive=payload"]
    return args


def kernel_args(boot: Boot) -> str:
    args = f"kioskvm.root=disk kioskvm.init={boot.image.init}"
    if boot.payload is not None:
        args += f" kioskvm.payload={boot.payload}"
    return args


# ------------------------------------------------------------------------------------------- images

def _key(kind: str, spec: dict) -> str:
    """What the image is made of: the kind's packages, the base, the suite, and the code that makes it (not
    the rest of this file, whose edits need no new image)."""
    h = hashlib.sha256()
    h.update(json.dumps({"kind": kind, "spec": spec, "base": BASE_PACKAGES, "suite": SUITE}, sort_keys=True).encode())
    for function in (_build, _lay_out, _mkfs, _chroot):
        h.update(inspect.getsource(function).encode())
    h.update(AGENT_UNIT.encode())
    return f"disk-{kind}-{h.hexdigest()[:12]}"


def ensure_disk(kind: str) -> DiskImage:
    """The cached disk image of `kind` (KINDS), built if missing (debootstrap needs the network)."""
    kinds = _kinds()
    if kind not in kinds:
        raise build.BuildError(f"no disk kind {kind!r}; the kinds are {', '.join(kinds)}")
    spec = kinds[kind]
    key = _key(kind, spec)
    root = build.cache_root()
    root.mkdir(parents=True, exist_ok=True)
    dest = root / key
    if not (dest / "image.json").exists():
        with open(root / ".disk-lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not (dest / "image.json").exists():
                tmp = root / f".{key}.tmp-{os.getpid()}"
                shutil.rmtree(tmp, ignore_errors=True)
                try:
                    _build(tmp, kind, spec)
                    shutil.rmtree(dest, ignore_errors=True)
                    os.rename(tmp, dest)
                except BaseException:
                    _unmount_all(tmp / "tree")
                    shutil.rmtree(tmp, ignore_errors=True)
                    raise
    (dest / "last-used").touch()
    info = json.loads((dest / "image.json").read_text())
    return DiskImage(kind=kind, path=dest / "root.ext4", init=spec["init"], info=info)


def _unmount_all(tree: Path) -> None:
    for sub in ("dev/pts", "dev", "proc", "sys"):
        target = tree / sub
        if target.is_dir() and os.path.ismount(target):
            subprocess.run(["umount", "-l", str(target)], check=False)


def _chroot(tree: Path, *cmd: str, timeout: float = 1800) -> str:
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "DEBIAN_FRONTEND": "noninteractive", "LC_ALL": "C.UTF-8",
           "HOME": "/root"}
    r = subprocess.run(["chroot", str(tree), *cmd], env=env, capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise build.BuildError(f"in the disk image: {' '.join(cmd)} failed ({r.returncode}):\n{r.stdout[-2000:]}"
                               f"\n{r.stderr[-2000:]}")
    return r.stdout


def _build(dest: Path, kind: str, spec: dict) -> None:
    for tool in ("debootstrap", "mkfs.ext4", "chroot", "dpkg-scanpackages"):
        if shutil.which(tool) is None:
            raise build.BuildError(f"{tool} not found: the disk beds need it (scripts/setup test installs it)")
    t0 = time.monotonic()
    tree = dest / "tree"
    dest.mkdir(parents=True)
    build._log(f"building disk image {dest.name}: debootstrap {SUITE} from {MIRROR}")
    r = subprocess.run(["debootstrap", "--variant=minbase", f"--include={','.join(BASE_PACKAGES)}", SUITE, str(tree),
                        MIRROR], capture_output=True, text=True)
    if r.returncode != 0:
        raise build.BuildError(f"debootstrap failed ({r.returncode}):\n{r.stdout[-3000:]}\n{r.stderr[-2000:]}")
    (tree / "etc/apt/sources.list").write_text(
        f"deb {MIRROR} {SUITE} main\ndeb {MIRROR} {SUITE}-updates main\ndeb {SECURITY} {SUITE}-security main\n")
    try:
        subprocess.run(["mount", "-t", "proc", "proc", str(tree / "proc")], check=True)
        subprocess.run(["mount", "--bind", "/dev", str(tree / "dev")], check=True)
        # The host's versions of the libraries (it builds against its -dev packages): Debian's updates too.
        _chroot(tree, "apt-get", "update", "-qq")
        _chroot(tree, "apt-get", "upgrade", "-y", "-qq")
        if spec["install"]:
            _chroot(tree, "apt-get", "install", "-y", "-qq", "--no-install-recommends", *spec["install"])
        archived = []
        if spec["archive"]:
            _chroot(tree, "apt-get", "install", "-y", "-qq", "--no-install-recommends", "--download-only",
                    *spec["archive"])
            archive = tree / ARCHIVE.lstrip("/")
            archive.mkdir(parents=True)
            for deb in sorted((tree / "var/cache/apt/archives").glob("*.deb")):
                shutil.move(str(deb), archive / deb.name)
                archived.append(deb.name)
            index = subprocess.run(["dpkg-scanpackages", "--multiversion", "."], cwd=archive, capture_output=True,
                                   text=True, check=True).stdout
            (archive / "Packages").write_text(index)
            # The guest has no network: its one source is the local archive.
            (tree / "etc/apt/sources.list").write_text(f"deb [trusted=yes] file:{ARCHIVE} ./\n")
            _chroot(tree, "apt-get", "update", "-qq")
        _chroot(tree, "apt-get", "clean")
        versions = _chroot(tree, "dpkg-query", "-W", "-f", "${Package} ${Version}\n")
    finally:
        _unmount_all(tree)
    _lay_out(tree, spec["init"])
    size_mib = int(subprocess.run(["du", "-sm", str(tree)], capture_output=True, text=True, check=True)
                   .stdout.split()[0])
    # Room for what a scenario installs and writes (a .deb and its dependencies, the peers' files).
    image = dest / "root.ext4"
    _mkfs(tree, image, size_mib + 768, "kioskroot")
    shutil.rmtree(tree)
    (dest / "image.json").write_text(json.dumps({
        "kind": kind, "suite": SUITE, "mirror": MIRROR, "init": spec["init"], "installed": spec["install"],
        "archived": archived, "packages": len(versions.splitlines()), "tree_mib": size_mib,
        "built": time.strftime("%Y-%m-%d %H:%M:%S"), "build_seconds": round(time.monotonic() - t0, 1)},
        indent=1) + "\n")
    build._log(f"built {dest.name} in {time.monotonic() - t0:.0f} s ({size_mib} MiB)")


def _lay_out(tree: Path, init: str) -> None:
    """The system's files a guest needs: name, fstab; for systemd, the agent's unit (its files are bound at
    /usr/lib/kioskvm at boot: bed_files)."""
    (tree / build.GUEST_LIB.lstrip("/")).mkdir(parents=True, exist_ok=True)
    (tree / "etc/hostname").write_text("board\n")
    (tree / "etc/hosts").write_text("127.0.0.1 localhost\n127.0.1.1 board\n")
    # The initramfs mounted the root read-write; no fsck (the image is made new, or a snapshot).
    (tree / "etc/fstab").write_text("LABEL=kioskroot / ext4 rw,noatime 0 0\n")
    if init == "systemd":
        (tree / "etc/systemd/system/kioskvm-agent.service").write_text(AGENT_UNIT)
        wants = tree / "etc/systemd/system/sysinit.target.wants"
        wants.mkdir(parents=True, exist_ok=True)
        (wants / "kioskvm-agent.service").symlink_to("/etc/systemd/system/kioskvm-agent.service")
        # The job folder is a 9p mount under /tmp (its host path): systemd-tmpfiles' boot-time clean of /tmp
        # must not walk into it (an empty file of the same name overrides Debian's tmp.conf).
        (tree / "etc/tmpfiles.d").mkdir(parents=True, exist_ok=True)
        (tree / "etc/tmpfiles.d/tmp.conf").write_text("")


def _mkfs(folder: Path, image: Path, size_mib: int, label: str) -> None:
    with open(image, "wb") as f:
        f.truncate(size_mib * 1024 * 1024)
    r = subprocess.run(["mkfs.ext4", "-q", "-F", "-L", label, "-d", str(folder), str(image)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise build.BuildError(f"mkfs.ext4 -d {folder} failed ({r.returncode}): {r.stderr}")


def bed_files(job_dir: Path, image: build.Image) -> Path:
    """GUEST_SCRIPTS and the helpers into JOB/kioskvm, which init.sh binds at /usr/lib/kioskvm in a disk guest."""
    target = job_dir / "kioskvm"
    (target / "bin").mkdir(parents=True, exist_ok=True)
    for name in GUEST_SCRIPTS:
        shutil.copy(HERE / name, target / name)
    for helper in build.HELPERS:
        shutil.copy(image.extras / build.GUEST_BIN.lstrip("/") / helper, target / "bin" / helper)
    return target


def payload_image(folder: Path, image: Path) -> Path:
    """An ext4 image of `folder` (its files at the image's root), for Boot(payload=folder)."""
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    _mkfs(folder, image, max(32, size // (1024 * 1024) * 2 + 16), "payload")
    return image


def copy_of(image: DiskImage, folder: Path) -> DiskImage:
    """A copy of the image that a guest may write and reboot into (sparse: seconds)."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "root.ext4"
    subprocess.run(["cp", "--sparse=always", str(image.path), str(target)], check=True)
    return DiskImage(kind=image.kind, path=target, init=image.init, info=image.info)


if __name__ == "__main__":
    import sys
    for name in sys.argv[1:] or ["peers", "fresh"]:
        print(ensure_disk(name).path)
