#!/usr/bin/python3
"""kioskvm guest agent: PID 1 of the guest after switch_root (init.sh, then stage2.sh exec it).

It waits for udev's coldplug (stage2.sh starts it) and settles it (unless kioskvm.udev=0), then serves the host over a virtio-serial port
named `kioskvm.agent` with newline-delimited JSON:

  host -> guest  {"op": "spawn", "id": 7, "cmd": "...", "cwd": "/work/main", "env": {...},
                  "stdin": "pipe"|"null", "out": "/job/path/7.out", "err": "...", "line_buffered": false}
                 {"op": "signal", "id": 7, "sig": 15, "group": true}
                 {"op": "stdin", "id": 7, "data": "text"}       {"op": "close_stdin", "id": 7}
                 {"op": "ping", "id": 0}
  guest -> host  {"ev": "ready", "uptime": 4.2, "boot": {...timings...}}
                 {"ev": "started", "id": 7, "pid": 123}
                 {"ev": "exit", "id": 7, "status": 0}            (negative: killed by that signal)
                 {"ev": "pong", "id": 0}      {"ev": "log", "msg": "..."}

A command's stdout/stderr go straight to files in the job folder (a 9p share mounted cache=none),
so the host reads them while the command runs and they survive for post-mortems; a child's write()
has reached the host file before the child can exit, so "exit" never overtakes its output.

Why a virtio-serial channel rather than polling command files: pickup is immediate (no poll
interval, no 9p traffic while idle), and one channel carries any number of concurrent processes.

Being PID 1, the agent reaps every orphan (udevd daemonizes, so it is one); a single-threaded
select() loop handles the port and SIGCHLD (via set_wakeup_fd) without races between the two.
Runs under the host's /usr/bin/python3 (the guest's root is the host's), standard library only.
"""

import json
import os
import select
import signal
import subprocess
import sys
import time

PORT_NAME = "kioskvm.agent"
BASE_ENV = {
    "PATH": "/usr/lib/kioskvm/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "HOME": "/root",
    "LANG": "C.UTF-8",
    "TERM": "dumb",
    "USER": "root",
    "LOGNAME": "root",
}


def log(msg: str) -> None:
    print(f"kioskvm-agent: {msg}", flush=True)


def uptime() -> float:
    with open("/proc/uptime") as f:
        return float(f.read().split()[0])


def cmdline_params() -> dict:
    with open("/proc/cmdline") as f:
        words = f.read().split()
    return dict(w[len("kioskvm."):].split("=", 1) for w in words if w.startswith("kioskvm.") and "=" in w)


def find_port() -> str:
    base = "/sys/class/virtio-ports"
    for d in sorted(os.listdir(base)):
        try:
            with open(f"{base}/{d}/name") as f:
                if f.read().strip() == PORT_NAME:
                    return f"/dev/{d}"
        except OSError:
            pass
    raise RuntimeError(f"no virtio port named {PORT_NAME} in {base}")


def finish_udev(timings: dict) -> None:
    """stage2.sh started systemd-udevd and the coldplug in the background while Python was starting;
    wait for its end marker, then settle (the recipe's order, ~2.5 s under TCG in all)."""
    marker = "/run/kioskvm/coldplug"
    deadline = time.monotonic() + 120
    while not os.path.exists(marker):
        if time.monotonic() > deadline:
            log("udev coldplug did not finish within 120 s")
            return
        time.sleep(0.02)
    with open(marker) as f:
        rc, t0, t1 = f.read().split()
    timings["coldplug"] = [float(t0), float(t1)]
    # A step of the boot on the console: the host judges a boot hung by the time since the last one.
    log(f"udev coldplug done at {uptime():.2f} s")
    if rc != "0":
        log(f"udevd/trigger exited {rc}")
    t = time.monotonic()
    r = subprocess.run(["udevadm", "settle", "--timeout=60"], env=BASE_ENV, stdin=subprocess.DEVNULL)
    timings["settle"] = round(time.monotonic() - t, 3)
    if r.returncode != 0:
        log(f"udevadm settle exited {r.returncode}")


class Proc:
    def __init__(self, id_, popen, stdin_fd):
        self.id = id_
        self.popen = popen
        self.stdin_fd = stdin_fd


class Agent:
    def __init__(self, port_path: str):
        self.port = os.open(port_path, os.O_RDWR | os.O_CLOEXEC)
        self.inbuf = b""
        self.by_pid: dict[int, Proc] = {}
        self.by_id: dict[int, Proc] = {}

    def send(self, **msg) -> None:
        data = (json.dumps(msg) + "\n").encode()
        while data:
            n = os.write(self.port, data)
            data = data[n:]

    # -- commands ------------------------------------------------------------------------------
    def op_spawn(self, m: dict) -> None:
        id_ = m["id"]
        argv = ["/bin/sh", "-c", m["cmd"]]
        if m.get("line_buffered"):
            # Output to a file is block-buffered by stdio; stdbuf (coreutils, via LD_PRELOAD that the
            # whole process tree inherits) makes stdout_so_far() show lines as they are printed.
            argv = ["stdbuf", "-oL", "-eL"] + argv
        env = dict(BASE_ENV)
        env.update(m.get("env") or {})
        stdin_fd = None
        try:
            out = open(m["out"], "wb")
            err = open(m["err"], "wb") if m.get("err") != m["out"] else out
            try:
                if m.get("stdin") == "pipe":
                    r, stdin_fd = os.pipe()
                    os.set_inheritable(stdin_fd, False)
                else:
                    r = subprocess.DEVNULL
                popen = subprocess.Popen(argv, stdin=r, stdout=out, stderr=err, cwd=m.get("cwd") or "/",
                                         env=env, start_new_session=True)
                if r != subprocess.DEVNULL:
                    os.close(r)
            finally:
                out.close()
                if err is not out:
                    err.close()
        except Exception as e:  # bad cwd, job folder gone...: report as a failed command
            if stdin_fd is not None:
                os.close(stdin_fd)
            self.send(ev="exit", id=id_, status=127, error=f"{type(e).__name__}: {e}")
            return
        proc = Proc(id_, popen, stdin_fd)
        self.by_pid[popen.pid] = proc
        self.by_id[id_] = proc
        self.send(ev="started", id=id_, pid=popen.pid)

    def op_signal(self, m: dict) -> None:
        proc = self.by_id.get(m["id"])
        if not proc:
            return
        try:
            if m.get("group", True):
                os.killpg(proc.popen.pid, m["sig"])   # start_new_session: pgid == pid
            else:
                os.kill(proc.popen.pid, m["sig"])
        except ProcessLookupError:
            pass

    def op_stdin(self, m: dict) -> None:
        proc = self.by_id.get(m["id"])
        if proc and proc.stdin_fd is not None:
            try:
                os.write(proc.stdin_fd, m["data"].encode())
            except BrokenPipeError:
                pass

    def op_close_stdin(self, m: dict) -> None:
        proc = self.by_id.get(m["id"])
        if proc and proc.stdin_fd is not None:
            os.close(proc.stdin_fd)
            proc.stdin_fd = None

    def op_ping(self, m: dict) -> None:
        self.send(ev="pong", id=m.get("id"), uptime=uptime())

    # -- loop ----------------------------------------------------------------------------------
    def reap(self) -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            proc = self.by_pid.pop(pid, None)
            if proc is None:
                continue                    # an orphan we inherited as PID 1
            # Tell Popen it is done, so it never waits on a pid we already reaped.
            proc.popen.returncode = os.waitstatus_to_exitcode(status)
            if proc.stdin_fd is not None:
                os.close(proc.stdin_fd)
                proc.stdin_fd = None
            self.by_id.pop(proc.id, None)
            self.send(ev="exit", id=proc.id, status=proc.popen.returncode)

    def handle(self, line: bytes) -> None:
        try:
            m = json.loads(line)
            getattr(self, "op_" + m["op"])(m)
        except Exception as e:
            log(f"bad request {line[:200]!r}: {type(e).__name__}: {e}")
            self.send(ev="log", msg=f"bad request: {type(e).__name__}: {e}")

    def loop(self) -> None:
        wake_r, wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        signal.set_wakeup_fd(wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)  # a handler, so the wakeup fd gets the signal
        self.reap()
        while True:
            r, _, _ = select.select([self.port, wake_r], [], [])
            if wake_r in r:
                try:
                    while os.read(wake_r, 512):
                        pass
                except BlockingIOError:
                    pass
                self.reap()
            if self.port in r:
                data = os.read(self.port, 65536)
                if not data:
                    # The host side is not connected (it went away, or QEMU is quitting): reads return
                    # EOF at once, so do not spin.
                    time.sleep(0.2)
                    continue
                self.inbuf += data
                while b"\n" in self.inbuf:
                    line, self.inbuf = self.inbuf.split(b"\n", 1)
                    if line.strip():
                        self.handle(line)


def main() -> None:
    t0 = uptime()
    params = cmdline_params()
    os.environ.clear()
    os.environ.update(BASE_ENV)
    os.chdir("/")
    timings = {"agent_start": t0}
    agent = Agent(find_port())
    if params.get("udev", "1") != "0":
        finish_udev(timings)
    timings["ready"] = uptime()
    log(f"ready at {timings['ready']:.2f} s (agent started {t0:.2f} s) {timings}")
    agent.send(ev="ready", uptime=timings["ready"], boot=timings)
    agent.loop()


if __name__ == "__main__":
    try:
        main()
    except BaseException as e:
        # PID 1 must not die silently: say why on the console, then power off (QEMU exits with
        # -no-reboot, and the host reports it with the console tail).
        import traceback
        traceback.print_exc()
        log(f"FATAL: {type(e).__name__}: {e}")
        sys.stdout.flush()
        try:
            import ctypes
            ctypes.CDLL(None).reboot(0x4321FEDC)    # LINUX_REBOOT_CMD_POWER_OFF
        finally:
            os._exit(1)
