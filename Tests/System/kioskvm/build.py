"""Build the guest (kernel, initramfs, extras tree) from Debian packages, cached.

Nothing is installed on the host: the kernel and the guest-only packages are fetched with
`apt-get download` and unpacked with `dpkg-deb -x` into the cache. The recipe this follows, with
the measurements behind it, is shared/vm/README.md.

Cache layout (`KIOSK_VM_CACHE`, default `~/.cache/kiosk-vm`):

    debs/                     downloaded .debs, shared by every build (a rebuild does not re-download)
    <key>/vmlinux             the kernel, uncompressed, booted through its PVH entry (see
                              extract_pvh_vmlinux; vmlinuz, the bzImage, if that is not possible)
    <key>/initrd.cpio         busybox + init.sh + the kernel modules below (uncompressed: under TCG a
                              gzip'd initramfs costs boot time and saves nothing here)
    <key>/extras/             guest-only packages + our helpers + GUEST_MODULES (lib/modules/<release>,
                              for modprobe), exported to the guest as a 9p share and layered above the
                              host root
    <key>/image.json          what went in (versions, packages, modules)

Test kernel modules (`guest/kmod/`: a backlight class device, which QEMU's displays lack) are compiled on the
host against the kernel's own headers: `linux-headers-<release>` with the `-common` and `linux-kbuild-*`
packages it depends on, fetched and unpacked like the kernel, and put into the extras under
/usr/lib/kioskvm/modules for a scenario to `insmod`. Drivers Debian does not build (SOURCE_MODULES: vkms) are
compiled the same way from the kernel's own source, `linux-source-<major.minor>` at the kernel's version (only
their folders are read out of its tarball), and go into the extras' lib/modules like GUEST_MODULES.

<key> = `<kernel package>_<kernel version>-<hash>`; the hash covers every build input (this file,
init.sh, stage2.sh, agent.py, the C helpers, the test modules' sources, the package list and the versions
apt resolved for it, for the kernel's headers and for its source), so a
kernel security update or an edited helper makes a new build, and an unchanged tree reuses the old.
An image with an optional package set (`ensure_image(PEER_PACKAGES, flavour="peers")`, for
Tests/System/peers) is another entry, `<kernel package>_<kernel version>-peers-<hash>`.
"""

from __future__ import annotations

import fcntl
import glob
import hashlib
import json
import lzma
import os
import re
import shutil
import struct
import subprocess
import sys
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
SYSTEM_DIR = HERE.parent                      # Tests/System
GUEST_SRC = SYSTEM_DIR / "guest"              # C helpers for the guest
REPO_ROOT = SYSTEM_DIR.parent.parent

# Guest-only packages (never installed on the host). Only those the host lacks are fetched, with their
# dependencies: `apt-get install -s` works that out against the host's installed set, which is exactly
# the set the guest sees since it shares the host's root.
GUEST_PACKAGES = [
    "udev",            # systemd-udevd + udevadm (scripts/setup installs udev on the host; if not, here)
    "libinput-tools",  # libinput list-devices / debug-events
    "libdrm-tests",    # modetest
    "drm-info",        # drm_info
    "evemu-tools",     # evemu-record / evemu-device
    "evtest",
    "seatd",           # for later seat tests; libseat's builtin backend needs nothing
    "v4l-utils",       # cec-ctl: the TV's side of the emulated HDMI-CEC bus (scenario cec)
]

# An optional set on top of GUEST_PACKAGES, for Tests/System/peers (start-up and footprint of the kiosk
# against other kiosk compositors): only `ensure_image(PEER_PACKAGES, flavour="peers")` unpacks it, into a
# cache entry of its own (`<kernel>_<version>-peers-<hash>`). The normal image does not contain it, and
# neither these packages nor the versions apt resolves for them enter its key (this file's text does, as
# for every build input).
PEER_PACKAGES = [
    "weston",          # weston 10: drm-backend, kiosk-shell.so, the pixman renderer, weston-image
    "cage",            # cage 0.1.4 on wlroots 0.15 (libwlroots10)
    "xwayland",        # cage refuses to start without the Xwayland binary (started lazily, never here)
    "swayimg",         # the image viewer under cage: draws in software into wl_shm buffers (imv needs EGL)
]

# Kernel modules loaded by the initramfs (their dependency closures are added). virtio_pci is the bus
# the others sit on; virtio_console carries the agent channel; virtio_rng feeds the kernel's entropy
# (a guest program calling getrandom() early must not stall on it); virtio_blk and ext4 mount a disk
# bed's root (disk.py).
MODULES = [
    "virtio_pci", "virtio_console", "virtio_gpu", "bochs", "uinput", "evdev", "virtio_input",
    "9p", "9pnet_virtio", "overlay", "virtio_rng", "virtio_blk", "ext4",
]

# Kernel modules a scenario loads itself (`modprobe vivid n_devs=1 ...`), with their parameters: not in
# the initramfs and not loaded at boot (every other scenario would pay for them), but unpacked with their
# dependency closures into the extras' lib/modules/<release>/ with a depmod of their own, so `modprobe`
# and `modinfo` work in the guest. vivid: Debian builds it with CEC emulation (CONFIG_VIDEO_VIVID_CEC), a
# CEC adapter per emulated HDMI input and output on one emulated bus. vgem: a render-only DRM card (no
# modesetting), as a board's GPU beside its display controller (v3d beside vc4).
GUEST_MODULES = ["vivid", "vgem"]

# Helpers compiled on the host into extras/usr/lib/kioskvm/bin (on the guest's PATH).
HELPERS = {
    "touchplay": (["touchplay.c", "uinputplay.c"], ["-lm"]),
    "keyplay": (["keyplay.c", "uinputplay.c"], ["-lm"]),
    "drmframe": (["drmframe.c"], ["-I/usr/include/libdrm", "-ldrm"]),
    # planes composed and read back through a writeback connector (vkms), and the planes listed as JSON
    "drmplanes": (["drmplanes.c"], ["-I/usr/include/libdrm", "-ldrm"]),
}

# Test kernel modules built on the host with the kernel's headers into extras/usr/lib/kioskvm/modules:
# name -> the folder under guest/ holding its sources and Kbuild file.
KERNEL_MODULES = {
    "kioskvm_backlight": "kmod",   # a backlight class device (QEMU's displays have none), see its source
}

# Kernel modules Debian's kernel does not build, compiled from its own source: `linux-source-<major.minor>` at
# the kernel package's very version (any other is refused, see resolve_source), fetched with `apt-get download`
# and cached with the other .debs, of whose tarball only the module's folder is read. They are compiled against
# the kernel's headers as the test modules are, put into the kernel's module tree as `updates/NAME.ko`, and go
# with their dependency closures into the extras like GUEST_MODULES: `modprobe NAME param=...` in a scenario.
# name -> (its folder in the source tree, the Kconfig symbol its Makefile builds it under): the symbol is set to
# m on make's command line, so that the folder's own Makefile builds it; a patch in guest/source-patches/NAME.patch
# (SOURCE_PATCHES) is applied to the folder first (`patch -p1` at the tree's top), and a hunk that does not apply
# fails the build.
SOURCE_MODULES = {
    # Virtual KMS: a CRTC with a primary plane, 8 overlay planes and a cursor plane, a Virtual connector and a
    # writeback connector, composed in software (scenario vkms). Needs drm, drm_kms_helper, drm_shmem_helper.
    "vkms": ("drivers/gpu/drm/vkms", "CONFIG_DRM_VKMS"),
}

# What the bed needs of a source module that its kernel's version lacks. vkms: a `rotation` property on every
# plane with vc4's values (rotate-0, rotate-180, reflect-x, reflect-y: 6.1's vkms has none; upstream's came after
# it, in 2023) done by its composer, and a `max_planes` parameter whose atomic check refuses a frame of more
# planes with -ENOSPC, as vc4's HVS refuses a display list that does not fit (neither 6.1 driver of the bed
# refuses a plane proposal of the kiosk's otherwise). Scenario vkms.
SOURCE_PATCHES = {"vkms": GUEST_SRC / "source-patches" / "vkms.patch"}

GUEST_LIB = "/usr/lib/kioskvm"                # where extras put agent.py and bin/ in the guest
GUEST_BIN = GUEST_LIB + "/bin"
TEST_MODULES_DIR = GUEST_LIB + "/modules"     # the test modules (KERNEL_MODULES), for `insmod` by path

APT_OPTS = [
    # The dpkg lock may be held by another session's apt-get (seen on these machines).
    "-o", "DPkg::Lock::Timeout=600",
    # Downloads into a root-owned cache dir: without this apt warns that '_apt' cannot write there.
    "-o", "APT::Sandbox::User=root",
]


class BuildError(RuntimeError):
    """The guest could not be built (no kernel package, no apt, a helper did not compile...)."""


@dataclass
class Image:
    key: str
    dir: Path
    kernel: Path
    initrd: Path
    extras: Path
    kernel_release: str
    built_now: bool = False

    @property
    def guest_bin(self) -> str:
        return GUEST_BIN


def cache_root() -> Path:
    return Path(os.environ.get("KIOSK_VM_CACHE") or Path.home() / ".cache" / "kiosk-vm")


def _log(msg: str) -> None:
    print(f"kioskvm-build: {msg}", file=sys.stderr, flush=True)


def _run(cmd, **kw) -> subprocess.CompletedProcess:
    kw.setdefault("check", True)
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    kw.setdefault("text", True)
    try:
        return subprocess.run(cmd, **kw)
    except FileNotFoundError as e:
        raise BuildError(f"{cmd[0]} not found (see Tests/System/host-packages.txt)") from e
    except subprocess.CalledProcessError as e:
        raise BuildError(f"{' '.join(map(str, cmd))} failed ({e.returncode}):\n{e.stderr or e.stdout}") from e


# ---------------------------------------------------------------------------------------------- apt

def _apt_lists_present() -> bool:
    return bool(glob.glob("/var/lib/apt/lists/*_Packages*"))


def _apt_update() -> None:
    _log("apt-get update")
    _run(["apt-get", *APT_OPTS, "update"], stdout=subprocess.DEVNULL)


def ensure_apt_lists() -> None:
    # On a fresh machine `apt-cache depends` finds nothing until `apt-get update` has run once.
    if not _apt_lists_present():
        _apt_update()


def resolve_kernel() -> tuple[str, str]:
    """(package, version) of the kernel linux-image-amd64 currently points at, e.g.
    ('linux-image-6.1.0-56-amd64', '6.1.192-2'). Resolved at every run: it follows security updates."""
    out = _run(["apt-cache", "depends", "linux-image-amd64"]).stdout
    names = [l.split(":", 1)[1].strip() for l in out.splitlines() if l.strip().startswith("Depends:")]
    names = [n for n in names if n.startswith("linux-image-") and not n.startswith("<")]
    if not names:
        raise BuildError(f"apt-cache depends linux-image-amd64 names no kernel:\n{out}")
    name = names[0]
    show = _run(["apt-cache", "show", "--no-all-versions", name]).stdout
    version = next((l.split(":", 1)[1].strip() for l in show.splitlines() if l.startswith("Version:")), None)
    if not version:
        raise BuildError(f"apt-cache show {name}: no Version")
    return name, version


def resolve_missing(packages: list[str]) -> list[tuple[str, str]]:
    """The packages (with their dependencies) the host lacks, as (name, version), per apt's dry run."""
    out = _run(["apt-get", "install", "-s", "--no-install-recommends", *packages],
               env={**os.environ, "LC_ALL": "C"}).stdout
    result = []
    for line in out.splitlines():
        # "Inst udev (252.39-1~deb12u2 Debian-Security:12/stable-security [amd64])"
        if line.startswith("Inst "):
            parts = line.split()
            result.append((parts[1], parts[2].lstrip("(")))
    return sorted(result)


def resolve_headers(kernel: tuple[str, str]) -> list[tuple[str, str]]:
    """(package, version) of the kernel's headers and the packages they need to build a module:
    `linux-headers-<release>` at the kernel's version and what it depends on by name of the same source
    (`-common`, `linux-kbuild-*`) at the version its Depends line asks for: `= V` is V, `>= V` the newest
    version apt has that is at least V (a security update can rebuild linux-kbuild alone, as 6.1.192-3
    beside headers 6.1.192-2, and the mirror then drops the older one). The compiler package it names is
    not fetched: the headers' Makefile calls the host's gcc of that version (host-packages.txt)."""
    release = kernel[0].removeprefix("linux-image-")
    name = f"linux-headers-{release}"
    out = _run(["apt-cache", "show", f"{name}={kernel[1]}"], check=False)
    if out.returncode != 0:
        raise BuildError(f"apt-cache show {name}={kernel[1]} failed: the kernel's headers are not in the apt "
                         f"lists:\n{out.stderr}")
    depends = next((l.split(":", 1)[1] for l in out.stdout.splitlines() if l.startswith("Depends:")), "")
    result = [(name, kernel[1])]
    for clause in depends.split(","):
        # "linux-kbuild-6.1 (>= 6.1.192-2)"; alternatives ("a | b") are not used by these packages. Any
        # relation but "=" takes the newest version (these packages state no upper bound).
        m = re.fullmatch(r"\s*([^\s(|]+)\s*(?:\((=|>=|<=|<<|>>)\s*([^)\s]+)\))?\s*", clause)
        if not m or not m.group(1).startswith(("linux-headers-", "linux-kbuild-")):
            continue
        dep, relation, wanted = m.groups()
        result.append((dep, wanted if relation == "=" else
                       _newest_version(dep, at_least=wanted if relation == ">=" else None)))
    return result


def _newest_version(package: str, at_least: str | None) -> str:
    """The newest version of `package` in apt's lists, which must be at least `at_least`."""
    out = _run(["apt-cache", "madison", package], check=False).stdout
    # "linux-kbuild-6.1 | 6.1.192-3 | http://deb.debian.org/debian-security bookworm-security/main amd64 Packages"
    versions = [l.split("|")[1].strip() for l in out.splitlines() if l.count("|") >= 2]
    newest = None
    for v in versions:
        if newest is None or _run(["dpkg", "--compare-versions", v, "gt", newest], check=False).returncode == 0:
            newest = v
    if newest is None or (at_least and _run(["dpkg", "--compare-versions", newest, "ge", at_least],
                                             check=False).returncode != 0):
        raise BuildError(f"apt has no {package} of version {at_least or 'any'} or newer (it lists: "
                         f"{', '.join(versions) or 'none'}); the kernel's headers need it")
    return newest


def resolve_source(kernel: tuple[str, str]) -> tuple[str, str]:
    """(package, version) of the kernel's own source, for SOURCE_MODULES: `linux-source-6.1` at exactly the
    kernel package's version (the image and the source are built from one upload of Debian's `linux`). Never
    another version: a module built from other sources would test another kernel's driver."""
    m = re.match(r"(\d+\.\d+)\.", kernel[1])
    if not m:
        raise BuildError(f"{kernel[0]} {kernel[1]}: no major.minor in the version, so no linux-source package")
    name = f"linux-source-{m.group(1)}"
    out = _run(["apt-cache", "madison", name], check=False).stdout
    versions = [l.split("|")[1].strip() for l in out.splitlines() if l.count("|") >= 2]
    if kernel[1] not in versions:
        raise BuildError(f"the kernel {kernel[0]} is {kernel[1]}, and apt's lists have no {name} {kernel[1]} (only "
                         f"{', '.join(versions) or 'none'}): {', '.join(SOURCE_MODULES)} is built from the kernel's "
                         "own source only")
    return name, kernel[1]


def _deb_glob(debs: Path, name: str, version: str) -> list[str]:
    # apt-get download names files NAME_VERSION_ARCH.deb with ':' (epoch) written as '%3a'.
    return glob.glob(str(debs / f"{name}_{version.replace(':', '%3a')}_*.deb"))


def download(pkgs: list[tuple[str, str]], debs: Path) -> list[Path]:
    debs.mkdir(parents=True, exist_ok=True)
    missing = [(n, v) for n, v in pkgs if not _deb_glob(debs, n, v)]
    if missing:
        _log(f"apt-get download {len(missing)} package(s)")
        args = ["apt-get", *APT_OPTS, "download", *[f"{n}={v}" for n, v in missing]]
        try:
            _run(args, cwd=debs)
        except BuildError:
            # Stale lists: the version apt knows was replaced on the mirror. Refresh once and retry.
            _apt_update()
            _run(args, cwd=debs)
    files = []
    for n, v in pkgs:
        found = _deb_glob(debs, n, v)
        if not found:
            raise BuildError(f"apt-get download {n}={v} left no .deb in {debs}")
        files.append(Path(found[0]))
    return files


# --------------------------------------------------------------------------------------------- key

def _input_files() -> list[Path]:
    files = [HERE / "build.py", HERE / "init.sh", HERE / "stage2.sh", HERE / "agent.py"]
    for sources, _ in HELPERS.values():
        files += [GUEST_SRC / s for s in sources if GUEST_SRC / s not in files]
    for folder in sorted(set(KERNEL_MODULES.values())):
        files += sorted(p for p in (GUEST_SRC / folder).iterdir() if p.is_file())
    files += sorted(SOURCE_PATCHES.values())
    # Headers are no compiler arguments, but they are inputs.
    return files + sorted(GUEST_SRC.glob("*.h"))


def compute_key(kernel: tuple[str, str], extras: list[tuple[str, str]], requested_extra=(), flavour: str = "",
                headers: list[tuple[str, str]] = (), source: tuple[str, str] | None = None) -> str:
    """The cache key. `requested_extra`/`flavour` (an optional package set, see PEER_PACKAGES) add to the
    hash and the name only when given: without them the key is computed as it always was."""
    h = hashlib.sha256()
    for f in _input_files():
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    h.update(json.dumps([GUEST_PACKAGES, MODULES, GUEST_MODULES, sorted(HELPERS), extras, kernel]).encode())
    h.update(json.dumps([sorted(KERNEL_MODULES.items()), list(headers)]).encode())
    h.update(json.dumps([sorted(SOURCE_MODULES.items()), source]).encode())
    if requested_extra or flavour:
        h.update(json.dumps([flavour, sorted(requested_extra)]).encode())
    name, version = kernel
    tag = f"{flavour}-" if flavour else ""
    return f"{name}_{version}-{tag}{h.hexdigest()[:12]}".replace(":", "_").replace("/", "_")


# -------------------------------------------------------------------------------------------- cpio

class Cpio:
    """A tiny writer for the kernel's initramfs format (cpio 'newc'). Written here rather than
    calling cpio(1) so that device nodes (/dev/console) can go in without mknod on the host."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.ino = 1000

    def _entry(self, name: str, mode: int, body: bytes = b"", rdev=(0, 0), nlink=1) -> None:
        self.ino += 1
        name_b = name.lstrip("/").encode() + b"\0"
        fields = [self.ino, mode, 0, 0, nlink, 0, len(body), 0, 0, rdev[0], rdev[1], len(name_b), 0]
        self.data += b"070701" + b"".join(b"%08X" % f for f in fields) + name_b
        self.data += b"\0" * (-len(self.data) % 4)
        self.data += body
        self.data += b"\0" * (-len(self.data) % 4)

    def dir(self, name: str, perm=0o755) -> None:
        self._entry(name, 0o040000 | perm, nlink=2)

    def file(self, name: str, body: bytes, perm=0o644) -> None:
        self._entry(name, 0o100000 | perm, body)

    def symlink(self, name: str, target: str) -> None:
        self._entry(name, 0o120777, target.encode())

    def chardev(self, name: str, major: int, minor: int, perm=0o600) -> None:
        self._entry(name, 0o020000 | perm, rdev=(major, minor))

    def finish(self) -> bytes:
        self._entry("TRAILER!!!", 0)
        return bytes(self.data)


# ------------------------------------------------------------------------------------- PVH kernel

def _has_pvh_note(elf: bytes) -> bool:
    """Does this ELF64 carry XEN_ELFNOTE_PHYS32_ENTRY (the PVH entry point QEMU boots directly)?"""
    if elf[:4] != b"\x7fELF" or elf[4] != 2:
        return False
    phoff, = struct.unpack_from("<Q", elf, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", elf, 0x36)
    for i in range(phnum):
        p_type, _, p_offset, _, _, p_filesz = struct.unpack_from("<IIQQQQ", elf, phoff + i * phentsize)
        if p_type != 4:                                   # PT_NOTE
            continue
        pos, end = p_offset, p_offset + p_filesz
        while pos + 12 <= end:
            namesz, descsz, ntype = struct.unpack_from("<III", elf, pos)
            name = elf[pos + 12:pos + 12 + namesz]
            if name == b"Xen\0" and ntype == 18:          # XEN_ELFNOTE_PHYS32_ENTRY
                return True
            pos += 12 + (namesz + 3) // 4 * 4 + (descsz + 3) // 4 * 4
    return False


def extract_pvh_vmlinux(bzimage: Path, out: Path) -> bool:
    """Unpack the ELF vmlinux from a bzImage, if it can be booted through PVH.

    Why: Debian's bzImage is xz-compressed (CONFIG_KERNEL_XZ) and under TCG the real-mode setup plus
    in-guest decompression cost 3-7 s before the kernel's clock even starts (measured here: host boot
    time minus guest uptime went from 4.6-8.2 s to 0.9-1.5 s). QEMU boots an uncompressed vmlinux that
    has a PVH entry note (CONFIG_PVH=y in Debian's config) directly with -kernel. Returns False (and
    the bzImage is used) when the payload is not xz/gzip or the note is missing."""
    data = bzimage.read_bytes()
    elf = None
    i = data.find(b"\xfd7zXZ\x00")
    if i >= 0:
        try:
            elf = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(data[i:])
        except lzma.LZMAError:
            elf = None
    if elf is None:
        i = data.find(b"\x1f\x8b\x08")
        if i >= 0:
            try:
                elf = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data[i:])
            except zlib.error:
                elf = None
    if not elf or not _has_pvh_note(elf):
        return False
    out.write_bytes(elf)
    return True


# ------------------------------------------------------------------------------------------- build

def _merge_tree(src: Path, dst: Path) -> None:
    """Move src's entries into dst, merging directories (never following symlinks)."""
    dst.mkdir(parents=True, exist_ok=True)
    for entry in list(src.iterdir()):
        target = dst / entry.name
        if entry.is_dir() and not entry.is_symlink() and target.is_dir() and not target.is_symlink():
            _merge_tree(entry, target)
        else:
            if target.is_symlink() or target.exists():
                if target.is_dir() and not target.is_symlink():
                    shutil.rmtree(target)
                else:
                    target.unlink()
            os.rename(entry, target)
    src.rmdir()


def _usr_merge(root: Path) -> None:
    # Debian 12 is usr-merged (/lib -> usr/lib) but unpacked debs still ship /lib, /bin...: a real lib/
    # in an upper overlay layer hides the host's symlink and breaks the dynamic loader (recipe, gotchas).
    for d in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        p = root / d
        if p.is_dir() and not p.is_symlink():
            _merge_tree(p, root / "usr" / d)


# CPU-specific accelerators that modprobe's closure names (ext4's crc32c softdep) but that cannot load on
# QEMU's emulated CPU (no SSE4.2 under TCG: ENODEV); the generic module beside them does the work.
SKIPPED_MODULES = {"crc32c-intel.ko"}


def _module_closure(kdir: Path, release: str, modules=MODULES) -> list[Path]:
    ordered: list[Path] = []
    for m in modules:
        out = _run(["modprobe", "-S", release, "-d", str(kdir), "--show-depends", m]).stdout
        for line in out.splitlines():
            # "insmod /path/x.ko [params]"; "builtin x" lines need nothing
            if line.startswith("insmod "):
                p = Path(line.split()[1])
                if p.name in SKIPPED_MODULES:
                    continue
                if p not in ordered:
                    ordered.append(p)
    return ordered


def _install_guest_modules(kdir: Path, release: str, extras: Path, modules: list[str]) -> list[str]:
    """`modules` (GUEST_MODULES and the SOURCE_MODULES built into kdir's tree) and their dependencies into
    extras/lib/modules/<release>/ (the kernel's own layout), with the kernel's lists of built-in modules and a
    depmod of that tree: `modprobe` in the guest finds them there. Runs before the usr-merge fix, which moves
    lib/ to usr/lib/."""
    source = kdir / "lib/modules" / release
    target = extras / "lib/modules" / release
    names = []
    for p in _module_closure(kdir, release, modules):
        relative = p.resolve().relative_to(source.resolve())
        (target / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(p, target / relative)
        names.append(p.name)
    for f in ("modules.builtin", "modules.builtin.modinfo", "modules.order"):
        if (source / f).exists():
            shutil.copy(source / f, target / f)
    _run(["depmod", "-b", str(extras), release])
    return names


def _build_initrd(kdir: Path, release: str, out: Path) -> list[str]:
    busybox = shutil.which("busybox", path="/usr/bin:/bin") or "/bin/busybox"
    if not Path(busybox).exists():
        raise BuildError("busybox not found: install busybox-static")
    kind = _run(["file", "-b", busybox], check=False).stdout if shutil.which("file") else ""
    if kind and "statically linked" not in kind:
        raise BuildError(f"{busybox} is not static: install busybox-static")
    c = Cpio()
    for d in ("bin", "dev", "proc", "sys", "mnt", "newroot", "lib", "lib/modules"):
        c.dir(d)
    c.chardev("dev/console", 5, 1)   # the kernel opens it for init's stdio before anything mounts
    c.chardev("dev/null", 1, 3)
    c.file("bin/busybox", Path(busybox).read_bytes(), 0o755)
    c.file("init", (HERE / "init.sh").read_bytes(), 0o755)
    modules = _module_closure(kdir, release)
    names = []
    for p in modules:
        c.file(f"lib/modules/{p.name}", p.read_bytes())
        names.append(p.name)
    c.file("modules.list", ("\n".join(names) + "\n").encode())
    out.write_bytes(c.finish())
    return names


def _compile_helpers(extras: Path) -> None:
    bindir = extras / GUEST_BIN.lstrip("/")
    bindir.mkdir(parents=True, exist_ok=True)
    for name, (sources, flags) in HELPERS.items():
        cmd = ["gcc", "-O2", "-g", "-Wall", "-Wextra", "-o", str(bindir / name),
               *[str(GUEST_SRC / s) for s in sources], *flags]
        r = _run(cmd, check=False)
        if r.returncode != 0:
            raise BuildError(f"compiling {name} failed:\n{r.stderr}")
        if r.stderr.strip():
            _log(f"{name}: compiler warnings:\n{r.stderr}")


def _unpack_headers(headers: list[tuple[str, str]], release: str, scratch: Path) -> Path:
    """The kernel's headers unpacked into `scratch` (never installed), ready for `make -C TREE M=...`: the
    tree, with its own kbuild."""
    if not shutil.which("make"):
        raise BuildError("make not found: the test kernel modules need it (see Tests/System/host-packages.txt)")
    root = scratch / "headers"
    for deb in download(headers, cache_root() / "debs"):
        _run(["dpkg-deb", "-x", str(deb), str(root)])
    tree = root / "usr/src" / f"linux-headers-{release}"
    makefile = tree / "Makefile"
    if not makefile.exists():
        raise BuildError(f"the headers have no usr/src/linux-headers-{release}/Makefile")
    # The architecture's Makefile includes the common one by its installed path; the rest of the tree
    # (the scripts and tools links into linux-kbuild) is relative and works where it was unpacked.
    makefile.write_text(makefile.read_text().replace("include /usr/src/", f"include {root}/usr/src/"))
    # The compiler the kernel was built with, by name (`CC = ... gcc-12`): said plainly when it is missing.
    variables = (tree / ".kernelvariables").read_text() if (tree / ".kernelvariables").exists() else ""
    compiler = next((w for l in variables.splitlines() if l.startswith("CC ") for w in l.split() if w.startswith("gcc")), None)
    if compiler and not shutil.which(compiler):
        raise BuildError(f"the kernel's headers compile with {compiler}, which is not installed "
                         "(see Tests/System/host-packages.txt)")
    return tree


def _make_module(tree: Path, name: str, folder: Path, *variables: str) -> Path:
    """`make modules` of the module in `folder` against the headers' tree; the unstripped NAME.ko."""
    r = _run(["make", "-C", str(tree), f"M={folder}", *variables, "modules"], check=False)
    output = f"{r.stdout}\n{r.stderr}"
    if r.returncode != 0:
        # modpost names each symbol the kernel does not export (or exports in a namespace not imported).
        missing = re.findall(r'modpost: "([^"]+)" \[[^]]*\] undefined!', output)
        why = (f": the kernel does not export {', '.join(missing)}" if missing else "")
        raise BuildError(f"building the kernel module {name} failed{why}:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    warnings = [l for l in r.stderr.splitlines() if "warning" in l.lower()]
    if warnings:
        _log(f"{name}: compiler warnings:\n" + "\n".join(warnings))
    return folder / f"{name}.ko"


def _build_kernel_modules(tree: Path, scratch: Path, extras: Path) -> list[str]:
    """Compiles KERNEL_MODULES against the kernel's headers and puts the .ko files into the extras
    (TEST_MODULES_DIR)."""
    dest = extras / TEST_MODULES_DIR.lstrip("/")
    dest.mkdir(parents=True, exist_ok=True)
    built = []
    for name, folder in KERNEL_MODULES.items():
        work = scratch / "kmod" / folder
        if not work.exists():
            shutil.copytree(GUEST_SRC / folder, work)
        # The debugging information is most of the file (360 KB of 380).
        _run(["strip", "--strip-debug", "-o", str(dest / f"{name}.ko"), str(_make_module(tree, name, work))])
        built.append(name)
    return built


def _extract_source(deb: Path, package: str, version: str, folders: list[str], dest: Path) -> None:
    """Only `folders` (and the top Makefile) of the source tarball in linux-source's .deb, into `dest`: the
    .deb's data is read as a stream and the tarball in it decompressed as far as the last of the folders
    (its entries are in name order, each folder's together: drivers/gpu/drm/vkms is 6 s into 138 MB), never
    written out whole. Refuses a .deb or a tree of another version than the kernel's (`version`)."""
    import tarfile
    found = _run(["dpkg-deb", "-f", str(deb), "Version"]).stdout.strip()
    if found != version:
        raise BuildError(f"{deb.name} is {package} {found}, and the kernel is {version}: refusing to build "
                         f"{', '.join(SOURCE_MODULES)} from another kernel's source")
    inner_name = f"./usr/src/{package}.tar.xz"
    wanted = {f.strip("/") for f in folders}
    pending, makefile = set(wanted), None
    data = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", str(deb)], stdout=subprocess.PIPE)
    try:
        with tarfile.open(fileobj=data.stdout, mode="r|") as outer:
            member = next((m for m in outer if m.name == inner_name), None)
            if member is None:
                raise BuildError(f"{deb.name} has no {inner_name}")
            with tarfile.open(fileobj=outer.extractfile(member), mode="r|xz") as tree:
                inside = None                          # the folder whose entries are being read
                for entry in tree:
                    relative = entry.name.split("/", 1)[1] if "/" in entry.name else ""
                    if relative == "Makefile":
                        makefile = tree.extractfile(entry).read().decode(errors="replace")
                    folder = next((f for f in wanted if relative == f or relative.startswith(f + "/")), None)
                    if folder is None:
                        if inside is not None:
                            pending.discard(inside)
                            inside = None
                            if not pending and makefile is not None:
                                break
                        continue
                    inside = folder
                    if entry.isdir():
                        (dest / relative).mkdir(parents=True, exist_ok=True)
                    elif entry.isfile():
                        (dest / relative).parent.mkdir(parents=True, exist_ok=True)
                        (dest / relative).write_bytes(tree.extractfile(entry).read())
                if inside is not None:
                    pending.discard(inside)
    except (tarfile.TarError, EOFError, lzma.LZMAError) as e:
        raise BuildError(f"reading {inner_name} in {deb.name}: {e}") from e
    finally:
        data.kill()
        data.wait()
    if pending:
        raise BuildError(f"{package} {version} has no {', '.join(sorted(pending))}")
    # The tree's own version, against the kernel's upstream version (6.1.192 of 6.1.192-3).
    fields = dict(re.findall(r"^(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION) *= *(\S*)", makefile or "", re.M))
    tree_version = f"{fields.get('VERSION')}.{fields.get('PATCHLEVEL')}.{fields.get('SUBLEVEL')}" \
                   f"{fields.get('EXTRAVERSION', '')}"
    if tree_version != version.split("-")[0]:
        raise BuildError(f"{package} {version}'s tree is Linux {tree_version}, and the kernel is {version}: refusing "
                         f"to build {', '.join(SOURCE_MODULES)} from another kernel's source")


def _build_source_modules(tree: Path, source: tuple[str, str], release: str, scratch: Path, kdir: Path) -> list[str]:
    """SOURCE_MODULES compiled from the kernel's source against its headers (`tree`), each into kdir's module
    tree as updates/NAME.ko, with a depmod of it: the guest gets them with their closures (_install_guest_modules)."""
    deb, = download([source], cache_root() / "debs")
    t0 = time.monotonic()
    work = scratch / "source"
    _extract_source(deb, source[0], source[1], [folder for folder, _ in SOURCE_MODULES.values()], work)
    updates = kdir / "lib/modules" / release / "updates"
    updates.mkdir(parents=True, exist_ok=True)
    for name, (folder, symbol) in SOURCE_MODULES.items():
        if name in SOURCE_PATCHES:
            _run(["patch", "-p1", "--forward", "--batch", "-d", str(work), "-i", str(SOURCE_PATCHES[name])])
        built = _make_module(tree, name, work / folder, f"{symbol}=m")
        _run(["strip", "--strip-debug", "-o", str(updates / f"{name}.ko"), str(built)])
    _run(["depmod", "-b", str(kdir), release])
    _log(f"{', '.join(SOURCE_MODULES)} built from {source[0]} {source[1]} in {time.monotonic() - t0:.1f} s")
    return list(SOURCE_MODULES)


def _hwdb(extras: Path) -> None:
    """Compile udev's hwdb for the guest when the host's own compiled hwdb does not cover it.

    Unpacked udev has no compiled hwdb (recipe, gotchas): without one udev's input_id/evdev rules miss
    their data. Where the host has udev installed (scripts/setup installs it) its hwdb.bin serves the
    guest too, unless the extras bring hwdb sources of their own. Runs before the usr-merge fix:
    Debian's systemd 252 is built with rootprefix=/ and reads ROOT/lib/udev/hwdb.d (where the unpacked
    debs put their files); `--usr` writes ROOT/lib/udev/hwdb.bin, which the merge then moves to
    usr/lib/udev. The host's hwdb.d files go in too, as on a real system where all are compiled
    together."""
    src = extras / "lib/udev/hwdb.d"
    own = list(src.glob("*.hwdb")) + list((extras / "etc/udev/hwdb.d").glob("*.hwdb"))
    host_bin = [p for p in ("/etc/udev/hwdb.bin", "/usr/lib/udev/hwdb.bin") if Path(p).exists()]
    if host_bin and not own:
        return
    tool = extras / "bin/systemd-hwdb"
    if not tool.exists():
        host_tool = shutil.which("systemd-hwdb")
        if not host_tool:
            _log("no systemd-hwdb anywhere: the guest's udev runs without a hwdb")
            return
        tool = Path(host_tool)
    src.mkdir(parents=True, exist_ok=True)
    for f in glob.glob("/usr/lib/udev/hwdb.d/*.hwdb"):
        if not (src / Path(f).name).exists():
            shutil.copy(f, src)
    libdirs = [extras / d / "x86_64-linux-gnu" / sub for d in ("usr/lib", "lib") for sub in ("systemd", "")]
    env = {**os.environ, "LD_LIBRARY_PATH": ":".join(map(str, libdirs))}
    _run([str(tool), "update", "--usr", f"--root={extras}"], env=env)
    if not (extras / "lib/udev/hwdb.bin").exists():
        raise BuildError("systemd-hwdb update wrote no hwdb.bin")


def _build(dest: Path, kernel: tuple[str, str], extras_pkgs: list[tuple[str, str]], headers: list[tuple[str, str]],
           source: tuple[str, str]) -> None:
    t0 = time.monotonic()
    debs = cache_root() / "debs"
    scratch = dest / "scratch"
    scratch.mkdir(parents=True)

    kdeb, = download([kernel], debs)
    kdir = scratch / "kernel"
    _run(["dpkg-deb", "-x", str(kdeb), str(kdir)])
    release = kernel[0].removeprefix("linux-image-")
    # Debian 12's kernel deb ships lib/modules (not usr/lib/modules); handle both.
    if not (kdir / "lib/modules" / release).exists() and (kdir / "usr/lib/modules" / release).exists():
        (kdir / "lib").mkdir(exist_ok=True)
        os.symlink("../usr/lib/modules", kdir / "lib/modules")
    _run(["depmod", "-b", str(kdir), release])
    vmlinuz = kdir / "boot" / f"vmlinuz-{release}"
    if not vmlinuz.exists():
        raise BuildError(f"{kdeb.name} has no boot/vmlinuz-{release}")
    if extract_pvh_vmlinux(vmlinuz, dest / "vmlinux"):
        kernel_file = "vmlinux"
    else:
        _log("kernel has no PVH entry: booting the bzImage (slower under TCG)")
        shutil.copy(vmlinuz, dest / "vmlinuz")
        kernel_file = "vmlinuz"
    modules = _build_initrd(kdir, release, dest / "initrd.cpio")
    tree = _unpack_headers(headers, release, scratch)
    source_modules = _build_source_modules(tree, source, release, scratch, kdir)

    extras = dest / "extras"
    extras.mkdir()
    for deb in download(extras_pkgs, debs):
        _run(["dpkg-deb", "-x", str(deb), str(extras)])
    guest_modules = _install_guest_modules(kdir, release, extras, GUEST_MODULES + source_modules)
    _hwdb(extras)
    _usr_merge(extras)
    lib = extras / GUEST_LIB.lstrip("/")
    lib.mkdir(parents=True, exist_ok=True)
    shutil.copy(HERE / "agent.py", lib / "agent.py")
    shutil.copy(HERE / "stage2.sh", lib / "stage2.sh")
    _compile_helpers(extras)
    test_modules = _build_kernel_modules(tree, scratch, extras)

    shutil.rmtree(scratch)
    (dest / "image.json").write_text(json.dumps({
        "kernel": {"package": kernel[0], "version": kernel[1], "release": release, "file": kernel_file},
        "extras": extras_pkgs, "modules": modules, "guest_modules": guest_modules, "headers": headers,
        "source": source, "source_modules": source_modules,
        "test_modules": test_modules, "built": time.strftime("%Y-%m-%d %H:%M:%S"),
        "build_seconds": round(time.monotonic() - t0, 1),
    }, indent=1) + "\n")
    _log(f"built {dest.name} in {time.monotonic() - t0:.1f} s")


def _prune(root: Path, keep: str) -> None:
    """Remove other builds not used for two days (each build is ~100 MB). Recently used ones may
    belong to another checkout that is running right now, so they stay."""
    now = time.time()
    for d in root.iterdir():
        stamp = d / "last-used"
        if d.name in (keep, "debs") or not stamp.exists():
            continue
        if now - stamp.stat().st_mtime > 2 * 86400:
            shutil.rmtree(d, ignore_errors=True)


def ensure_image(extra_packages=(), flavour: str = "") -> Image:
    """The cached guest for the current kernel package and build inputs, building it if needed.

    extra_packages  an optional package set unpacked into the extras on top of GUEST_PACKAGES (only
                    those the host lacks, with dependencies), e.g. PEER_PACKAGES; such an image is a
                    cache entry of its own, named with `flavour` (default "extra"). Without it: the
                    normal image, whose contents and key do not depend on any optional set."""
    extra_packages = list(extra_packages)
    if extra_packages and not flavour:
        flavour = "extra"
    for tool in ("apt-get", "apt-cache", "dpkg-deb"):
        if not shutil.which(tool):
            raise BuildError(f"{tool} not found: the guest is built from Debian packages")
    ensure_apt_lists()
    try:
        kernel = resolve_kernel()
    except BuildError:
        _apt_update()      # lists present but without the kernel (e.g. a partial update): refresh once
        kernel = resolve_kernel()
    extras_pkgs = resolve_missing(GUEST_PACKAGES + extra_packages)
    headers = resolve_headers(kernel)
    source = resolve_source(kernel)
    key = compute_key(kernel, extras_pkgs, extra_packages, flavour, headers, source)
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    dest = root / key
    built = False
    if not (dest / "image.json").exists():
        with open(root / ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)        # another run may be building the same key
            if not (dest / "image.json").exists():
                _log(f"building guest {key} (cache {root})")
                tmp = root / f".{key}.tmp-{os.getpid()}"
                shutil.rmtree(tmp, ignore_errors=True)
                try:
                    _build(tmp, kernel, extras_pkgs, headers, source)
                    shutil.rmtree(dest, ignore_errors=True)
                    os.rename(tmp, dest)
                except BaseException:
                    shutil.rmtree(tmp, ignore_errors=True)
                    raise
                built = True
                _prune(root, key)
    (dest / "last-used").touch()
    img = load_image(dest)
    img.built_now = built
    return img


def load_image(dest: Path) -> Image:
    """The built image in folder `dest` (no check that it is current)."""
    dest = Path(dest)
    info = json.loads((dest / "image.json").read_text())["kernel"]
    return Image(key=dest.name, dir=dest, kernel=dest / info["file"], initrd=dest / "initrd.cpio",
                 extras=dest / "extras", kernel_release=info["release"])


_current: Image | None = None


def current_image() -> Image:
    """The image to boot: KIOSK_VM_IMAGE (a built image folder: the runner resolves the image once
    and hands it to its scenario processes, saving the ~2 s of apt look-ups per scenario), else
    ensure_image(), once per process."""
    global _current
    if _current is None:
        env = os.environ.get("KIOSK_VM_IMAGE")
        _current = load_image(Path(env)) if env else ensure_image()
    return _current


if __name__ == "__main__":
    img = ensure_image()
    print(img.dir)
