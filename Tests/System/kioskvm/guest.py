"""Boot the kioskvm guest in QEMU and drive it from the host.

    with Guest(heads=2) as g:
        r = g.run("udevadm info /sys/class/drm/card0")
        assert r.ok, r
        g.set_head_size(1, 1024, 768)        # a real kernel hotplug on card0
        img = g.screenshot(0)                # QMP screendump of head 0, decoded

The guest runs Debian's kernel with the host's own root (read-only 9p + RAM overlay), so every path
on the host is the same path in the guest; the job folder (`job_dir`) is shared read-write at the
same path too. See Tests/System/README.md for the whole API and shared/vm/README.md for the recipe.
"""

from __future__ import annotations

import itertools
import json
import os
import shlex
import shutil
import signal as _signal
import socket
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from . import build, disk as disk_module, image as _image, rfb
from .qmp import QMP

REPO_ROOT = build.REPO_ROOT


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "") not in ("", "0", "no", "false")


VERBOSE = _env_flag("KIOSK_VM_VERBOSE")


def _vlog(msg: str) -> None:
    if VERBOSE:
        print(f"kioskvm: {msg}", flush=True)


def foreign_host() -> str | None:
    """Why this machine cannot run the guest, or None. The guest is an x86-64 PC (qemu-system-x86_64,
    Debian's amd64 kernel) that runs the host's own programs and libraries from its root over 9p, the kiosk
    built here among them: on a host of another architecture (an arm64 machine) none of them would run."""
    machine = os.uname().machine
    if machine == "x86_64":
        return None
    return (f"this host is {machine}: the guest is an x86-64 PC that runs the host's own programs "
            "(its root over 9p), so the bed needs an x86-64 host")


# ------------------------------------------------------------------------------------- errors

class GuestError(Exception):
    """Something went wrong with the guest itself (as opposed to a check that failed)."""


class BootError(GuestError):
    """The guest did not come up."""


class BootHung(BootError):
    """QEMU ran, but the guest's agent did not report ready in time: the boot stalled. Seen in CI
    under TCG with two guests on two host cores: the kernel stuck early, printing RCU stalls
    ("rcu_preempt kthread timer wakeup didn't happen") for minutes. `start()` boots once more.
    `summary`: one line for the note that says so."""

    def __init__(self, msg: str, summary: str = ""):
        super().__init__(msg)
        self.summary = summary or msg.splitlines()[0]


class GuestDied(GuestError):
    """QEMU exited or the agent channel closed while the host was waiting on it."""


class CommandTimeout(GuestError):
    """A guest command ran past its timeout. `.result` holds what it printed so far."""

    def __init__(self, msg: str, result: "Result"):
        super().__init__(msg)
        self.result = result


class CommandFailed(GuestError):
    """Result.check() on a non-zero status."""

    def __init__(self, result: "Result"):
        super().__init__(str(result))
        self.result = result


@dataclass
class Result:
    """The outcome of a guest command. `status` is the exit code, or -N if a signal N killed it."""
    stdout: str
    stderr: str
    status: int
    cmd: str = ""
    duration: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status == 0

    def check(self) -> "Result":
        """Raise CommandFailed unless the status is 0; returns self to chain."""
        if not self.ok:
            raise CommandFailed(self)
        return self

    def __str__(self) -> str:
        def tail(s, n=15):
            lines = s.rstrip().splitlines()
            cut = lines[-n:]
            return ("\n".join(("  ...",) + tuple(cut)) if len(lines) > n else "\n".join(cut)) or "  (empty)"
        return (f"`{self.cmd}` exited {self.status} after {self.duration:.2f} s\n"
                f"--- stdout:\n{tail(self.stdout)}\n--- stderr:\n{tail(self.stderr)}")


# ------------------------------------------------------------------------------ guest process

class GuestProcess:
    """A command running in the guest (from Guest.spawn). Its output goes to files in the job folder:
    `stdout_path`/`stderr_path` on the host (the same paths in the guest)."""

    def __init__(self, guest: "Guest", id_: int, cmd: str, stdout_path: Path, stderr_path: Path):
        self.guest = guest
        self.id = id_
        self.cmd = cmd
        self.stdout_path = stdout_path
        self.stderr_path = stderr_path
        self.pid: int | None = None          # guest pid, once started
        self.status: int | None = None       # exit status once it has exited
        self.error: str | None = None        # the agent could not start it
        self.started_at = time.monotonic()
        self.ended_at: float | None = None

    # -- state
    @property
    def running(self) -> bool:
        return self.status is None

    def poll(self) -> int | None:
        return self.status

    def stdout_so_far(self) -> str:
        return _read_text(self.stdout_path)

    def stderr_so_far(self) -> str:
        return _read_text(self.stderr_path)

    def result(self) -> Result:
        """Output so far and the status (-999 while it is still running)."""
        end = self.ended_at or time.monotonic()
        err = self.stderr_so_far()
        if self.error:
            err += f"\n[kioskvm: could not start: {self.error}]"
        return Result(self.stdout_so_far(), err, self.status if self.status is not None else -999,
                      self.cmd, end - self.started_at)

    # -- control
    def signal(self, sig: int = _signal.SIGTERM, group: bool = True) -> None:
        """Send `sig` to the process (its whole process group by default: `sh -c` and children)."""
        self.guest._send(op="signal", id=self.id, sig=int(sig), group=group)

    def terminate(self) -> None:
        self.signal(_signal.SIGTERM)

    def kill(self) -> None:
        self.signal(_signal.SIGKILL)

    def write(self, text: str) -> None:
        """Write to the process's stdin (spawn() gives it a pipe)."""
        self.guest._send(op="stdin", id=self.id, data=text)

    def close_stdin(self) -> None:
        self.guest._send(op="close_stdin", id=self.id)

    def wait(self, timeout: float = 60.0) -> Result:
        """Wait for the exit and return the Result. Raises CommandTimeout (process left running)."""
        self.guest._wait_for(lambda: self.status is not None, timeout,
                             lambda: CommandTimeout(f"`{self.cmd}` still running after {timeout} s",
                                                    self.result()))
        return self.result()

    def stop(self, timeout: float = 10.0) -> Result:
        """Close stdin, SIGTERM, wait; SIGKILL if it will not go. Returns the Result."""
        if self.running:
            self.close_stdin()
            self.terminate()
            try:
                return self.wait(timeout)
            except CommandTimeout:
                self.kill()
        return self.wait(10)

    def wait_for_output(self, pattern, timeout: float = 30.0, stderr: bool = False, partial: bool = False):
        """Wait until stdout (or stderr) matches the regex `pattern` (a str is compiled with re.M);
        returns the re.Match. Only complete lines are searched unless partial=True (a prompt).
        Raises CommandTimeout if it does not appear in time, or if the process exits without it."""
        import re
        rx = re.compile(pattern, re.M) if isinstance(pattern, str) else pattern
        deadline = time.monotonic() + timeout

        def text(whole=partial):
            t = self.stderr_so_far() if stderr else self.stdout_so_far()
            # Only whole lines: the file is read while the program writes it, and a regex must not
            # match half a line ("READY 1280x8").
            return t if whole else t[:t.rfind("\n") + 1]
        while True:
            m = rx.search(text())
            if m:
                return m
            if not self.running or time.monotonic() > deadline:
                # one last read (the exit may have raced the read above), of everything if it exited
                m = rx.search(text(whole=partial or not self.running))
                if m:
                    return m
                why = "exited" if not self.running else f"did not print it within {timeout} s"
                raise CommandTimeout(f"`{self.cmd}` {why}: waiting for /{pattern}/", self.result())
            self.guest._check_alive()
            time.sleep(0.02)

    def __enter__(self) -> "GuestProcess":
        return self

    def __exit__(self, *exc) -> None:
        if self.running and self.guest.alive:
            self.stop()


def _read_text(path: Path) -> str:
    try:
        return path.read_bytes().decode(errors="replace")
    except FileNotFoundError:
        return ""


# -------------------------------------------------------------------------------------- guest

class Guest:
    """One QEMU guest. Use as a context manager (boots on enter, quits on exit) or start()/stop().

    heads        virtio-gpu outputs (connectors Virtual-1..N on card0); head 0 starts connected
    devices      extra `-device` values, e.g. ["bochs-display"] (a second card), ["virtio-tablet-pci"]
    qemu_args    any further QEMU arguments
    memory       guest RAM in MiB
    smp          guest CPUs (the recipe measured no gain from 2 over 1 under TCG)
    accel        QEMU -accel value; default from KIOSK_VM_ACCEL: "kvm" (adds -cpu host), or TCG
    append       extra kernel command line
    udev         start systemd-udevd + coldplug at boot (~2.5 s under TCG)
    cwd          working directory of guest commands (default: the repo root, same path in the guest)
    host_cache   9p cache mode of the host root and extras in the guest: "loose" (default) caches
                 file data and metadata in the guest, 2.5-4x faster at starting programs (measured:
                 `python3 -c pass` 0.25 s vs 0.7 s, `libinput list-devices` 0.3-0.6 s vs 1.2-1.6 s),
                 but files the host changes after boot may look stale in the guest; "none" if a test
                 changes host files (outside the job folder, which is always uncached) mid-boot
    boot_timeout seconds a boot may go without progress (default KIOSK_VM_BOOT_TIMEOUT or 60; guests
                 come up in 4-14 s); a boot that hangs past it is tried once more (BOOT_ATTEMPTS)
    keep         keep the run folder (console.log, job/, sockets) after stop; default KIOSK_VM_KEEP
    disk         a disk.Boot: the root is an ext4 image on virtio-blk (a board's eMMC or SD card) instead
                 of the host's root over 9p; paths of the host are then not in the guest (but the job folder
                 and the boot's payload), and cwd defaults to /
    rng          a virtio-rng device (default), as boards have a hardware RNG; False for a board without one
    """

    GPU_ID = "gpu0"
    BOOT_ATTEMPTS = 2

    def __init__(self, heads: int = 2, devices=(), qemu_args=(), memory: int = 1024, smp: int = 2,
                 accel: str | None = None, append: str = "", udev: bool = True, cwd=None,
                 host_cache: str = "loose",
                 boot_timeout: float | None = None, keep: bool | None = None, name: str = "guest",
                 disk=None, rng: bool = True):
        self.heads = heads
        self.disk = disk
        self.rng = rng
        self.devices = list(devices)
        self.qemu_args = list(qemu_args)
        self.memory = memory
        self.smp = smp
        self.accel = accel if accel is not None else os.environ.get("KIOSK_VM_ACCEL", "")
        self.append = append
        self.udev = udev
        self.host_cache = host_cache
        self.cwd = str(cwd or ("/" if disk is not None else REPO_ROOT))
        self.boot_timeout = boot_timeout or float(os.environ.get("KIOSK_VM_BOOT_TIMEOUT", "60"))
        self.keep = _env_flag("KIOSK_VM_KEEP") if keep is None else keep
        self.name = name
        self.image: build.Image | None = None
        self.run_dir: Path | None = None
        self.job_dir: Path | None = None
        self.boot_info: dict = {}
        self.boot_seconds: float | None = None
        self._qemu: subprocess.Popen | None = None
        self._qmp: QMP | None = None
        self._agent: socket.socket | None = None
        self._cv = threading.Condition()
        self._ready = False
        self._dead: str | None = None
        self._procs: dict[int, GuestProcess] = {}
        self._pongs: set[int] = set()
        self._watch: dict = {}
        self._ids = itertools.count(1)
        self._send_lock = threading.Lock()
        self._shots = itertools.count(1)
        self._boot_attempt = 0      # the agent reader of an earlier, hung attempt must not touch this one
        self.boot_attempts = 0

    # ------------------------------------------------------------------------------ lifecycle
    @property
    def job_path_in_guest(self) -> str:
        """The job folder's path inside the guest: the same as on the host."""
        return str(self.job_dir)

    def guest_path(self, host_path) -> str:
        """Path in the guest of a host file: identical (shared root, job folder at the same path)."""
        return str(host_path)

    @property
    def console_log(self) -> Path:
        return self.run_dir / "console.log"

    @property
    def alive(self) -> bool:
        return self._dead is None and self._qemu is not None and self._qemu.poll() is None

    def helper(self, name: str) -> str:
        """Guest path of a compiled helper (touchplay, keyplay, drmframe); they are on the guest's PATH too."""
        return f"{build.GUEST_BIN}/{name}"

    def kernel_module(self, name: str) -> str:
        """Guest path of a test kernel module built with the kernel's headers (build.KERNEL_MODULES), for
        `insmod PATH [param=value...]`."""
        return f"{build.TEST_MODULES_DIR}/{name}.ko"

    def qemu_command(self) -> list[str]:
        img, rd = self.image, self.run_dir
        accel = self.accel.strip() or "tcg,thread=multi"
        cmd = ["qemu-system-x86_64", "-nodefaults", "-no-user-config", "-no-reboot",
               "-machine", "pc", "-m", str(self.memory), "-smp", str(self.smp)]
        if accel == "kvm":
            # Only where nested virtualization really works: on these machines /dev/kvm is PVM and a
            # stock kernel hangs, and -cpu host aborts QEMU ("failed to set MSR 0x10a"; recipe).
            cmd += ["-accel", "kvm", "-cpu", "host"]
        else:
            cmd += ["-accel", accel]
        cmd += ["-kernel", str(img.kernel), "-initrd", str(img.initrd),
                "-display", "none", "-serial", f"file:{rd / 'console.log'}", "-monitor", "none",
                "-qmp", f"unix:{rd / 'qmp.sock'},server=on,wait=off"]
        share = "security_model=none,multidevs=remap"
        cmd += ["-virtfs", f"local,path={self.job_dir},mount_tag=job,{share}"]
        if self.disk is None:
            cmd += ["-virtfs", f"local,path=/,mount_tag=hostroot,{share},readonly=on",
                    "-virtfs", f"local,path={img.extras},mount_tag=extras,{share},readonly=on"]
        else:
            cmd += disk_module.qemu_drive_args(self.disk)
        cmd += ["-device", "virtio-serial-pci,id=vser0",
                "-chardev", f"socket,id=agent,path={rd / 'agent.sock'},server=on,wait=off",
                "-device", "virtserialport,bus=vser0.0,chardev=agent,name=kioskvm.agent"]
        if self.rng:
            cmd += ["-device", "virtio-rng-pci"]
        if self.heads > 0:
            cmd += ["-device", f"virtio-gpu-pci,id={self.GPU_ID},max_outputs={self.heads}"]
            for h in range(self.heads):
                cmd += ["-vnc", f"unix:{self._vnc_sock(h)},id=vnc{h},display={self.GPU_ID},head={h}"]
        for d in self.devices:
            cmd += ["-device", d]
        cmd += self.qemu_args
        # systemd starts udev itself: an agent that is a unit must not wait for stage 2's coldplug.
        udev = self.udev and not (self.disk is not None and self.disk.image.init == "systemd")
        append = (f"console=ttyS0 panic=-1 loglevel=4 mitigations=off "
                  f"kioskvm.job={self.job_dir} kioskvm.repo={self.cwd} kioskvm.udev={1 if udev else 0} "
                  f"kioskvm.hostcache={self.host_cache} {self.append}")
        if self.disk is not None:
            append += " " + disk_module.kernel_args(self.disk)
        cmd += ["-append", append.strip()]
        return cmd

    def _vnc_sock(self, head: int) -> Path:
        return self.run_dir / f"vnc-{head}.sock"

    def start(self) -> "Guest":
        if (reason := foreign_host()) is not None:
            raise BootError(reason)
        if shutil.which("qemu-system-x86_64") is None:
            raise BootError("qemu-system-x86_64 not found (apt-get install qemu-system-x86)")
        self.image = build.current_image()
        for attempt in range(1, self.BOOT_ATTEMPTS + 1):
            try:
                return self._boot(attempt)
            except BootHung as e:
                if attempt == self.BOOT_ATTEMPTS:
                    raise
                from .scenario import note
                note(f"{self.name}: boot {attempt} hung, booting a fresh guest; {e.summary}")
        raise AssertionError("unreachable")

    def _boot(self, attempt: int, again: bool = False) -> "Guest":
        """One boot: a fresh run folder and QEMU (`again`: the same run and job folders, a reboot's). A hang
        raises BootHung with its run folder kept."""
        with self._cv:
            self._boot_attempt = attempt
            self.boot_attempts = attempt
            self._ready = False
            self._dead = None
        if not again:
            # Short path under /tmp: unix socket paths are limited to 108 bytes.
            self.run_dir = Path(tempfile.mkdtemp(prefix=f"kioskvm-{self.name}-"))
            self.job_dir = self.run_dir / "job"
            (self.job_dir / "proc").mkdir(parents=True)
            if self.disk is not None:
                disk_module.bed_files(self.job_dir, self.image)
        cmd = self.qemu_command()
        (self.run_dir / "qemu-command.txt").write_text(shlex.join(cmd) + "\n")
        self._watch = self._watched_files()
        _vlog(f"run folder {self.run_dir}")
        t0 = time.monotonic()
        if shutil.which("setpriv"):
            # QEMU dies with the Python process that started it, even on SIGKILL (the runner's last
            # resort against a stuck scenario), instead of lingering as an orphan. Caveat: the
            # "parent" is the thread that forked, so start() a guest from a thread that outlives it.
            cmd = ["setpriv", "--pdeathsig", "KILL", "--"] + cmd
        with open(self.run_dir / "qemu.log", "wb") as qlog:
            self._qemu = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=qlog, stderr=qlog,
                                          start_new_session=True)
        try:
            self._connect_agent()
            self._qmp = QMP(str(self.run_dir / "qmp.sock"))
            self._wait_for_boot()
        except BootHung as e:
            # Keep the stalled boot's folder (console.log says where it stopped) for whoever looks.
            console = self.console_tail(1).strip()
            msg = f"{e}\n{self.diagnostics()}"
            keep, self.keep = self.keep, True
            try:
                self.stop()
            finally:
                self.keep = keep
            raise BootHung(msg, f"{e}, last console line {console!r}, kept in {self.run_dir}") from None
        except GuestError as e:
            msg = f"{e}\n{self.diagnostics()}"
            self.stop()
            raise BootError(msg) from None
        except BaseException:
            self.stop()
            raise
        self.boot_seconds = time.monotonic() - t0
        _vlog(f"booted in {self.boot_seconds:.1f} s: {self.boot_info}")
        return self

    # The lines by which the guest says how far its boot got: init's stages, udevd's start, the agent's steps.
    PROGRESS = ("kioskvm-init:", "kioskvm-agent:", "Starting systemd-udevd", "[  OK  ]")

    def _wait_for_boot(self) -> None:
        """Until the agent says it is ready. A boot is hung when it makes no progress (no new line of
        PROGRESS on the console) for boot_timeout seconds, however long it takes in all: on a loaded host a
        healthy boot took a minute, and a wall-clock deadline called it hung (a kernel that stalls early
        says nothing for minutes). Five times boot_timeout is the most any boot gets."""
        start = last = time.monotonic()
        seen = 0
        while True:
            try:
                self._wait_for(lambda: self._ready, 2.0, lambda: TimeoutError())
                return
            except TimeoutError:
                pass
            now = time.monotonic()
            lines = self._progress_lines()
            if lines > seen:
                seen, last = lines, now
            if now - last >= self.boot_timeout:
                raise BootHung(f"no progress for {now - last:.0f} s (not ready after {now - start:.0f} s)")
            if now - start >= 5 * self.boot_timeout:
                raise BootHung(f"not ready after {now - start:.0f} s")

    def _progress_lines(self) -> int:
        try:
            text = self.console_log.read_bytes().decode(errors="replace")
        except (FileNotFoundError, TypeError, AttributeError):
            return 0
        return sum(1 for line in text.splitlines() if line.lstrip("\r").startswith(self.PROGRESS))

    def _connect_agent(self) -> None:
        path = str(self.run_dir / "agent.sock")
        deadline = time.monotonic() + 15
        while True:
            if self._qemu.poll() is not None:
                raise GuestDied(f"QEMU exited at once with status {self._qemu.returncode}")
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(path)
                break
            except (FileNotFoundError, ConnectionRefusedError):
                s.close()
                if time.monotonic() > deadline:
                    raise GuestDied("QEMU did not create the agent socket")
                time.sleep(0.02)
        self._agent = s
        threading.Thread(target=self._reader, args=(s, self._qemu, self._boot_attempt),
                         name=f"kioskvm-agent-{self.name}", daemon=True).start()

    def _reader(self, sock: socket.socket, qemu: subprocess.Popen, attempt: int) -> None:
        """Reads one boot's agent channel (`sock`, of QEMU `qemu`, boot `attempt`): a hung boot's
        reader ends after start() booted again, and must then leave the new boot's state alone."""
        buf = b""
        reason = "agent channel closed"
        try:
            while True:
                data = sock.recv(65536)
                if not data:
                    break
                buf += data
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    if line.strip() and attempt == self._boot_attempt:
                        self._on_message(json.loads(line))
        except OSError as e:
            reason = f"agent channel error: {e}"
        if qemu is not None and qemu.poll() is None:
            try:
                qemu.wait(2)          # the channel closes as QEMU exits: say so if it did
            except subprocess.TimeoutExpired:
                pass
        with self._cv:
            if attempt != self._boot_attempt:
                return
            if qemu is not None and qemu.returncode is not None:
                reason = self._qemu_exit_reason()
            if self._dead is None:
                self._dead = reason
            self._cv.notify_all()

    def _on_message(self, m: dict) -> None:
        with self._cv:
            ev = m.get("ev")
            if ev == "ready":
                self._ready = True
                self.boot_info = m.get("boot", {})
            elif ev in ("started", "exit"):
                p = self._procs.get(m["id"])
                if p:
                    if ev == "started":
                        p.pid = m["pid"]
                    else:
                        p.ended_at = time.monotonic()
                        p.error = m.get("error")
                        p.status = m["status"]
            elif ev == "pong":
                self._pongs.add(m.get("id"))
            elif ev == "log":
                _vlog(f"agent: {m.get('msg')}")
            self._cv.notify_all()

    def _wait_for(self, predicate, timeout: float, on_timeout) -> None:
        deadline = time.monotonic() + timeout
        with self._cv:
            while not predicate():
                if self._dead is not None:
                    raise GuestDied(f"{self._dead} (while waiting)")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise on_timeout()
                self._cv.wait(min(left, 0.5))
                if self._qemu.poll() is not None and self._dead is None:
                    self._dead = self._qemu_exit_reason()

    def _qemu_exit_reason(self) -> str:
        """"QEMU exited with status N", with QEMU's last word when it left one: status 0 also means
        a SIGTERM from outside (seen: another session's `pkill` ended a guest mid-check, and qemu.log
        said "terminating on signal 15 from pid N (pkill)")."""
        reason = f"QEMU exited with status {self._qemu.returncode}"
        try:
            last = (self.run_dir / "qemu.log").read_text(errors="replace").strip().splitlines()
        except (OSError, TypeError):
            last = []
        return f"{reason} ({last[-1].strip()})" if last else reason

    def _check_alive(self) -> None:
        if self._dead is not None:
            raise GuestDied(self._dead)
        if self._qemu is not None and self._qemu.poll() is not None:
            raise GuestDied(self._qemu_exit_reason())

    def _send(self, **msg) -> None:
        self._check_alive()
        with self._send_lock:
            self._agent.sendall(json.dumps(msg).encode() + b"\n")

    def stop(self) -> None:
        """Quit QEMU (no guest shutdown is needed: its state is all in RAM; the job folder's writes
        were synchronous) and remove the run folder unless `keep`."""
        if self._qmp is not None:
            try:
                self._qmp.execute("quit")
            except Exception:
                pass
            self._qmp.close()
            self._qmp = None
        if self._qemu is not None:
            try:
                self._qemu.wait(10)
            except subprocess.TimeoutExpired:
                self._qemu.kill()
                self._qemu.wait()
        with self._cv:
            if self._dead is None:
                self._dead = "guest stopped"
            self._cv.notify_all()
        self._close_agent()
        if self.run_dir and self.run_dir.exists():
            if self.keep:
                print(f"kioskvm: kept {self.run_dir} (console.log, job/, qemu-command.txt)", flush=True)
            else:
                shutil.rmtree(self.run_dir, ignore_errors=True)

    def _close_agent(self) -> None:
        if self._agent is not None:
            try:
                self._agent.close()
            except OSError:
                pass
            self._agent = None

    def reboot(self, timeout: float = 300.0) -> "Guest":
        """`systemctl reboot` in a disk guest that keeps its writes (disk.Boot(snapshot=False), systemd as
        init), then the boot into the same disk: QEMU exits at the guest's reboot (-no-reboot), and a new QEMU
        boots the image as the guest left it, with the same run and job folders. The console of the boot
        before is kept as console-N.log."""
        if self.disk is None or self.disk.snapshot or self.disk.image.init != "systemd":
            raise GuestError("reboot() needs a disk guest with systemd that keeps its writes "
                             "(disk.Boot(image of kind 'fresh', snapshot=False))")
        self.spawn("systemctl reboot", stdin=False)
        deadline = time.monotonic() + timeout
        while self._qemu.poll() is None:
            if time.monotonic() > deadline:
                raise GuestError(f"the guest did not go down within {timeout:.0f} s of `systemctl reboot`\n"
                                 f"{self.diagnostics()}")
            time.sleep(0.2)
        if self._qmp is not None:
            self._qmp.close()
            self._qmp = None
        self._close_agent()
        boots = len(list(self.run_dir.glob("console-*.log"))) + 1
        shutil.copy(self.console_log, self.run_dir / f"console-{boots}.log")
        for sock in ("agent.sock", "qmp.sock"):
            (self.run_dir / sock).unlink(missing_ok=True)
        return self._boot(self._boot_attempt + 1, again=True)

    def kill(self) -> None:
        """Hard stop from any thread (the runner's watchdog): waiters get GuestDied at once."""
        if self._qemu is not None and self._qemu.poll() is None:
            self._qemu.kill()
        with self._cv:
            self._dead = self._dead or "killed by the host"
            self._cv.notify_all()

    def __enter__(self) -> "Guest":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # --------------------------------------------------------------------------- diagnostics
    def console_tail(self, lines: int = 40) -> str:
        try:
            text = self.console_log.read_bytes().decode(errors="replace")
        except (FileNotFoundError, TypeError, AttributeError):
            return "(no console log)"
        return "\n".join(text.replace("\r", "").rstrip().splitlines()[-lines:])

    def _watched_files(self) -> dict:
        """mtimes of the build output under the repo's .build (what guests run from the shared root)."""
        found = {}
        for p in (Path(self.cwd) / ".build").glob("*/*"):
            try:
                if p.is_file() and os.access(p, os.X_OK):
                    found[str(p)] = p.stat().st_mtime_ns
            except OSError:
                pass
        return found

    def changed_on_host(self) -> list[str]:
        """Executables under .build that changed on the host since this guest booted. Seen here: a
        `swift build` in the same checkout during a run swapped the kiosk binary under a running guest
        and it crashed in swift_deallocClassInstance; the guest's page cache cannot follow that."""
        now = self._watched_files()
        return sorted(f for f, t in self._watch.items() if now.get(f) != t)

    def diagnostics(self, lines: int = 40) -> str:
        out = [f"--- console.log (last {lines} lines) {self.console_log if self.run_dir else ''}:",
               self.console_tail(lines)]
        changed = self.changed_on_host() if self._watch else []
        if changed:
            out.insert(0, "--- WARNING: rebuilt on the host while the guest ran (results may be bogus): "
                       + ", ".join(changed))
        qlog = self.run_dir / "qemu.log" if self.run_dir else None
        if qlog and qlog.exists() and qlog.stat().st_size:
            out += ["--- qemu.log:", qlog.read_text(errors="replace").rstrip()[-2000:]]
        return "\n".join(out)

    # ----------------------------------------------------------------------------- commands
    def spawn(self, cmd: str, env: dict | None = None, cwd=None, stdin: bool = True,
              line_buffered: bool = True) -> GuestProcess:
        """Start `sh -c cmd` in the guest as root and return at once.

        stdin=True gives it a pipe (GuestProcess.write / close_stdin; programs that hold until EOF
        hold); False gives /dev/null. line_buffered runs it under `stdbuf -oL -eL` so that
        stdout_so_far() sees whole lines as they are printed (output goes to a file, which stdio
        would otherwise block-buffer)."""
        id_ = next(self._ids)
        out = self.job_dir / "proc" / f"{id_}.out"
        err = self.job_dir / "proc" / f"{id_}.err"
        p = GuestProcess(self, id_, cmd, out, err)
        with self._cv:
            self._procs[id_] = p
        self._send(op="spawn", id=id_, cmd=cmd, cwd=str(cwd or self.cwd), env=env or {},
                   stdin="pipe" if stdin else "null", out=str(out), err=str(err),
                   line_buffered=line_buffered)
        return p

    def run(self, cmd: str, timeout: float = 60.0, env: dict | None = None, cwd=None,
            check: bool = False) -> Result:
        """Run `sh -c cmd` in the guest (root, cwd = the repo) and return its Result. On timeout the
        command's process group is killed and CommandTimeout raised (with the output so far)."""
        p = self.spawn(cmd, env=env, cwd=cwd, stdin=False, line_buffered=False)
        try:
            r = p.wait(timeout)
        except CommandTimeout as e:
            if self.alive:
                p.kill()
                try:
                    p.wait(5)
                except GuestError:
                    pass
            raise CommandTimeout(str(e), p.result()) from None
        return r.check() if check else r

    def write_file(self, name: str, content) -> Path:
        """Write a file into the job folder; returns its path (valid on host and guest)."""
        path = self.job_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
        return path

    def ping(self, timeout: float = 10.0) -> float:
        """Round trip host -> agent -> host in seconds (no process started)."""
        n = next(self._ids)
        t = time.monotonic()
        self._send(op="ping", id=n)
        self._wait_for(lambda: n in self._pongs, timeout,
                       lambda: GuestError(f"no answer from the agent within {timeout} s"))
        return time.monotonic() - t

    # ------------------------------------------------------------------------- host controls
    def qmp(self, command: str, arguments: dict | None = None, **kwargs):
        """Run a QMP command and return its result (see qmp.QMP.execute)."""
        self._check_alive()
        return self._qmp.execute(command, arguments, **kwargs)

    def set_head_size(self, head: int, width: int, height: int) -> str:
        """Connect head N (or resize it) as a monitor of width x height: a real HOTPLUG=1 uevent on
        card0 in the guest. Returns QEMU's acknowledgement ("ok")."""
        if not 0 <= head < self.heads:
            raise ValueError(f"head {head} out of range (guest has {self.heads})")
        self._check_alive()
        return rfb.set_desktop_size(str(self._vnc_sock(head)), width, height)

    def disconnect_head(self, head: int) -> str:
        """Unplug head N (size 0x0): another HOTPLUG=1 uevent."""
        return self.set_head_size(head, 0, 0)

    def screendump(self, head: int = 0, path=None, device: str | None = None) -> Path:
        """What head N of the display shows, as PNG (or PPM if `path` ends in .ppm). Returns the path
        (default: a new file in the job folder). Each dump stalls the guest 5-10 ms (recipe)."""
        if path is None:
            path = self.job_dir / f"screendump-{next(self._shots)}-head{head}.png"
        path = Path(path).absolute()
        fmt = "ppm" if path.suffix.lower() == ".ppm" else "png"
        self.qmp("screendump", filename=str(path), device=device or self.GPU_ID, head=head, format=fmt)
        return path

    def screenshot(self, head: int = 0, device: str | None = None) -> "_image.Image":
        """screendump + decode: an image.Image to check sizes and pixels. Goes through PPM, not PNG:
        measured on a 1280x800 frame, decoding takes 3 ms instead of ~0.5 s (pure-Python PNG
        unfiltering), and QEMU writes it without compressing while the guest is stalled."""
        path = self.job_dir / f"screendump-{next(self._shots)}-head{head}.ppm"
        return _image.load(self.screendump(head, path, device=device))

    # ------------------------------------------------------------------------------- touch
    def touch(self, script: str, wait="device", timeout: float = 60.0, **device_opts) -> Result:
        """Create a uinput touchscreen, play `script` on it (touchplay's language, see
        Tests/System/README.md), remove it; returns touchplay's Result. When to start playing:
          wait="device"   once udev has processed the device (default)
          wait="open"     once some process has opened it: fine for raw evdev readers, NOT for
                          libinput, which drains what is queued right after opening a device
          wait=callable   once callable() returns: it waits for the consumer's own sign that the
                          device is in use (libinput's DEVICE_ADDED, the kiosk's trace...)
          wait=""         at once
        Device options: name, size_mm=(w, h), resolution, range=(x, y), id=(vendor, product), slots."""
        from .touch import touchplay_args
        n = next(self._shots)
        go = self.job_dir / f"touch-{n}.go"
        if callable(wait):
            prefix = f"wait-for-device 20000\necho @ready\nwait-for-file {go} {int(timeout * 1000)}\n"
        else:
            prefix = {"device": "wait-for-device 20000\n", "open": "wait-for-open 20000\n", "": ""}[wait]
        path = self.write_file(f"touch-{n}.txt", prefix + script.strip() + "\n")
        cmd = f"touchplay {touchplay_args(**device_opts)} {shlex.quote(str(path))}"
        if not callable(wait):
            return self.run(cmd, timeout=timeout)
        p = self.spawn(cmd, stdin=False)
        try:
            p.wait_for_output(r"^@ready$", timeout)
            wait()
            go.touch()
            return p.wait(timeout)
        finally:
            if p.running and self.alive:
                p.kill()

    def touchscreen(self, **device_opts):
        """A long-lived touchscreen (touch.TouchScreen) that plays scripts on demand; use as a
        context manager."""
        from .touch import TouchScreen
        return TouchScreen(self, **device_opts)

    def keyboard(self, **device_opts):
        """A long-lived uinput keyboard (keyboard.Keyboard, guest/keyplay.c) that plays key scripts on
        demand; use as a context manager. Device options: name, id=(vendor, product), delay_ms (after
        each key event)."""
        from .keyboard import Keyboard
        return Keyboard(self, **device_opts)
