"""Measure programs running in the guest: time to first frame, memory, idle CPU and wake-ups, exec time.

Two halves in one file:

- **Guest side** (standard library only, no kioskvm imports): readers of `/proc` — `process_tree()`,
  `read_process()`, `snapshot()`, `cpu_delta()`, `time_command()`, `resources()` (fds, threads, timers,
  mappings, resident memory of one process: what a leak would grow) — and `serve()`, a request loop
  over stdin/stdout. The guest shares the host's root, so it runs this very file:
  `python3 -I -S -u <this file> serve` (which is what `Sampler` starts). They work on the host's own
  `/proc` just as well.
- **Host side**: `Sampler` (drives `serve()` in the guest; `GuestService`, its plumbing, drives any such
  loop: kioskvm/control.py's), `Resources` (one `resources()` reading and what differs from another),
  `FrameWatch` (polls QMP screendump and says when a head first shows a picture), and the pixel
  predicates that decide "shows the picture".

    from kioskvm import measure

    sampler = measure.Sampler(guest)                    # start it before the program under test
    p = guest.spawn(f"exec {KIOSK} run --backend drm", env=SEAT, line_buffered=False)
    ...                                                 # wait for its first frame
    cpu = sampler.idle_cpu(p.pid, seconds=10)           # CpuReport over the process and its descendants
    expect(cpu.cpu_ms == 0 and cpu.context_switches == 0, cpu)   # str(cpu) lists every process and thread
    mem = sampler.memory(p.pid)                         # MemoryReport: VmRSS and PSS per process, summed
    sampler.close()

What is counted (the same for every program):
- the processes of a program are its root process (the pid `Guest.spawn` reports: `exec` the program
  so that it is the program) and all its descendants at the time of the sample (a forked seatd, a
  compositor's clients); a program started with `line_buffered=True` carries stdbuf's LD_PRELOAD
  library in every process, so measure with `line_buffered=False`;
- memory: `VmRSS` from /proc/PID/status and `Pss` from /proc/PID/smaps_rollup (shared pages counted
  once across all processes of the system, split between their users), in KiB; and for the whole tree
  the resident pages counted once (`resident_once_kib`: the distinct page frames /proc/PID/pagemap
  shows present in any of its processes, which needs root). Summed RSS counts a page two processes of
  the program share twice (a forked helper's copy-on-write pages, a compositor's and its client's
  libraries); summed PSS gives away the shares of pages other programs also map (libc);
- CPU: utime + stime of /proc/PID/stat (the whole process, threads that already exited included) in
  clock ticks (USER_HZ, 10 ms each), and, finer, the on-CPU nanoseconds of each live thread from
  /proc/PID/task/TID/schedstat; context switches: voluntary + nonvoluntary of every thread
  (/proc/PID/task/TID/status), which counts every time a thread woke up and ran;
- `idle_cpu()` samples twice inside the guest, `seconds` apart by the guest's own monotonic clock,
  and the sampler sleeps in between (it wakes nobody, and the host takes no screendumps meanwhile).
"""

from __future__ import annotations

import array
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field

try:
    from .jsonlines import serve_lines
except ImportError:         # run in the guest as a script (python3 -I: no script folder on sys.path)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from jsonlines import serve_lines

PROC = "/proc"


# ================================================================================== guest side: /proc

def _read(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            return f.read().decode(errors="replace")
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None


def _stat(text: str) -> tuple[str, list[str]]:
    """/proc/PID/stat as (comm, [field 3 (state), field 4 (ppid), ...]). comm may hold spaces and
    parentheses: it runs from the first '(' to the last ')'."""
    open_, close = text.index("("), text.rindex(")")
    return text[open_ + 1:close], text[close + 2:].split()


def _status(text: str) -> dict[str, str]:
    out = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        out[key] = value.strip()
    return out


def _kib(value: str | None) -> int:
    return int(value.split()[0]) if value else 0


def process_tree(root: int, proc: str = PROC) -> list[int]:
    """`root` and all its live descendants (by the ppid in /proc/PID/stat), root first, then in pid
    order; [] if root is gone."""
    children: dict[int, list[int]] = {}
    for name in os.listdir(proc):
        if not name.isdigit():
            continue
        text = _read(f"{proc}/{name}/stat")
        if text is None:
            continue
        children.setdefault(int(_stat(text)[1][1]), []).append(int(name))
    if _read(f"{proc}/{root}/stat") is None:
        return []
    tree, todo = [root], [root]
    while todo:
        kids = sorted(children.get(todo.pop(), []))
        tree += kids
        todo += kids
    return tree


def read_process(pid: int, proc: str = PROC) -> dict | None:
    """One process as a JSON-able dict, or None if it is gone:
    pid, ppid, name (comm), cmdline, state, rss_kib (VmRSS), pss_kib (smaps_rollup Pss),
    cpu_ticks (utime + stime of the whole process, USER_HZ ticks), and threads: {tid: {name,
    cpu_ticks, run_ns (on-CPU time from schedstat), voluntary, nonvoluntary}}."""
    stat = _read(f"{proc}/{pid}/stat")
    status = _read(f"{proc}/{pid}/status")
    if stat is None or status is None:
        return None
    comm, f = _stat(stat)
    st = _status(status)
    rollup = _status(_read(f"{proc}/{pid}/smaps_rollup") or "")
    cmdline = (_read(f"{proc}/{pid}/cmdline") or "").replace("\0", " ").strip()
    threads = {}
    try:
        tids = sorted(int(t) for t in os.listdir(f"{proc}/{pid}/task"))
    except FileNotFoundError:
        tids = []
    for tid in tids:
        base = f"{proc}/{pid}/task/{tid}"
        tstat, tstatus, sched = _read(f"{base}/stat"), _read(f"{base}/status"), _read(f"{base}/schedstat")
        if tstat is None or tstatus is None:
            continue                               # the thread ended between listdir and read
        tcomm, tf = _stat(tstat)
        ts = _status(tstatus)
        threads[str(tid)] = {
            "name": tcomm,
            "cpu_ticks": int(tf[11]) + int(tf[12]),
            "run_ns": int(sched.split()[0]) if sched else None,
            "voluntary": int(ts.get("voluntary_ctxt_switches", 0)),
            "nonvoluntary": int(ts.get("nonvoluntary_ctxt_switches", 0)),
        }
    return {
        "pid": pid, "ppid": int(f[1]), "name": comm, "cmdline": cmdline, "state": f[0],
        "rss_kib": _kib(st.get("VmRSS")), "pss_kib": _kib(rollup.get("Pss")),
        "cpu_ticks": int(f[11]) + int(f[12]), "threads": threads,
    }


_PRESENT = 1 << 63
_PFN = (1 << 55) - 1


def resident_frames(pid: int, proc: str = PROC) -> set[int] | None:
    """The page frame numbers of every page of `pid` that is resident now (/proc/PID/pagemap: bit 63
    present, bits 0-54 the frame), or None if they cannot be read: the process is gone, or the reader
    lacks CAP_SYS_ADMIN (the kernel then shows frame 0 for every page). Inaccessible mappings (---p:
    a thread stack's guard, malloc's reserve) hold no page and are not read."""
    maps = _read(f"{proc}/{pid}/maps")
    if maps is None:
        return None
    page = os.sysconf("SC_PAGE_SIZE")
    frames: set[int] = set()
    present = 0
    try:
        with open(f"{proc}/{pid}/pagemap", "rb", buffering=0) as pagemap:
            for line in maps.splitlines():
                fields = line.split()
                if len(fields) < 2 or fields[1].startswith("---") or line.endswith("[vsyscall]"):
                    continue
                start, end = (int(x, 16) for x in fields[0].split("-"))
                pagemap.seek(start // page * 8)
                entries = array.array("Q", pagemap.read((end - start) // page * 8))
                found = [e & _PFN for e in entries if e & _PRESENT]
                present += len(found)
                frames.update(found)
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    if present and frames == {0}:
        return None
    return frames


def snapshot(root: int, proc: str = PROC, frames: bool = True) -> dict:
    """Every process of the tree under `root`, read now: {"time": monotonic seconds, "clk_tck",
    "processes": {pid: read_process(pid)}, "resident_once_kib"} (JSON-able; pids as strings).
    resident_once_kib counts each page frame resident in any process of the tree once (None when
    pagemap shows no frames: not root); the processes are read first, then the frames (`frames_ms`
    after)."""
    t = time.monotonic()
    procs = {}
    for pid in process_tree(root, proc):
        p = read_process(pid, proc)
        if p is not None:
            procs[str(pid)] = p
    out = {"time": t, "clk_tck": os.sysconf("SC_CLK_TCK"), "processes": procs, "resident_once_kib": None}
    if frames and procs:
        union: set[int] | None = set()
        for pid in procs:
            mine = resident_frames(int(pid), proc)
            if mine is None:
                union = None
                break
            union |= mine
        if union is not None:
            out["resident_once_kib"] = len(union) * os.sysconf("SC_PAGE_SIZE") // 1024
        out["frames_ms"] = round((time.monotonic() - t) * 1000, 1)
    return out


def cpu_delta(before: dict, after: dict) -> dict:
    """What each process of two snapshots did in between (JSON-able): per process cpu_ms
    (utime + stime of the whole process, threads that ended in between included; a multiple of the
    10 ms tick), run_ms (schedstat: exact, threads alive at the end only), context_switches
    (voluntary + nonvoluntary of the threads alive at the end: a thread that ended in between takes
    its count with it, but shows in threads_ended) and per thread the same; threads_started /
    threads_ended list thread ids present in only one snapshot (a thread pool at work). Processes
    present in only one snapshot are listed in `appeared` / `exited` (an appeared process counts
    from zero, an exited one is left out: its last figures are unknown)."""
    ms_per_tick = 1000.0 / after["clk_tck"]
    procs = []
    for pid, a in after["processes"].items():
        b = before["processes"].get(pid)
        if b is None:
            b = {"cpu_ticks": 0, "threads": {}}
        threads = []
        for tid, ta in a["threads"].items():
            tb = b["threads"].get(tid, {"cpu_ticks": 0, "run_ns": 0, "voluntary": 0, "nonvoluntary": 0})
            run = (ta["run_ns"] - (tb["run_ns"] or 0)) / 1e6 if ta["run_ns"] is not None else None
            threads.append({
                "tid": int(tid), "name": ta["name"],
                "cpu_ms": (ta["cpu_ticks"] - tb["cpu_ticks"]) * ms_per_tick,
                "run_ms": run,
                "voluntary": ta["voluntary"] - tb["voluntary"],
                "nonvoluntary": ta["nonvoluntary"] - tb["nonvoluntary"],
            })
        procs.append({
            "pid": int(pid), "name": a["name"], "cmdline": a["cmdline"],
            "cpu_ms": (a["cpu_ticks"] - b["cpu_ticks"]) * ms_per_tick,
            "run_ms": sum(t["run_ms"] or 0 for t in threads),
            "context_switches": sum(t["voluntary"] + t["nonvoluntary"] for t in threads),
            "threads": threads,
            "threads_started": sorted(int(t) for t in a["threads"] if t not in b["threads"]),
            "threads_ended": sorted(int(t) for t in b["threads"] if t not in a["threads"]),
        })
    return {
        "seconds": after["time"] - before["time"],
        "processes": procs,
        "appeared": sorted(int(p) for p in after["processes"] if p not in before["processes"]),
        "exited": sorted(int(p) for p in before["processes"] if p not in after["processes"]),
    }


def time_command(argv: list[str], env: dict | None = None, timeout: float = 120.0) -> dict:
    """Run argv and time it from just before the fork to its exit (monotonic clock): {"seconds",
    "status", "stdout", "stderr"} (output cut to 2000 characters)."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    t = time.monotonic()
    r = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, env=full_env, timeout=timeout)
    seconds = time.monotonic() - t
    return {"seconds": seconds, "status": r.returncode,
            "stdout": r.stdout.decode(errors="replace")[:2000], "stderr": r.stderr.decode(errors="replace")[:2000]}


def _fd_kind(target: str) -> str:
    """What an fd is, from its /proc/PID/fd link: `anon_inode:[timerfd]` and the like as they are,
    `socket`, `pipe` for those (their inode numbers change with each), a path as it is (`/dev/dri/card0`,
    `/dev/input/event5`)."""
    for kind in ("socket", "pipe"):
        if target.startswith(kind + ":["):
            return kind
    return target


def _map_kind(line: str) -> str:
    """A /proc/PID/maps line's mapping, by what it maps: the path or [heap]/[stack]/[vdso], or
    `anonymous`, with its permissions (a guard page `---p` is a mapping of its own)."""
    fields = line.split(None, 5)
    name = fields[5].strip() if len(fields) > 5 else "anonymous"
    return f"{fields[1]} {name}"


def resources(pid: int, proc: str = PROC) -> dict | None:
    """What one process holds of the kernel, read now (JSON-able), or None if it is gone:
    time (monotonic), rss_kib / rss_anon_kib / rss_file_kib / rss_shmem_kib (/proc/PID/status),
    pss_kib (smaps_rollup), threads (the tasks of /proc/PID/task by name), fds (how many) and fd_kinds
    ({kind: count}, `_fd_kind`), timerfds ([{clockid, armed, interval}] from each one's fdinfo: armed
    when its it_value is not zero), posix_timers (the `ID:` entries of /proc/PID/timers; None where the
    kernel has no such file), maps (lines of /proc/PID/maps) and map_kinds ({kind: count}, `_map_kind`),
    and cpu_ticks (utime + stime)."""
    t = time.monotonic()
    status, stat = _read(f"{proc}/{pid}/status"), _read(f"{proc}/{pid}/stat")
    if status is None or stat is None:
        return None
    st = _status(status)
    fds, fd_kinds, timerfds = 0, {}, []
    try:
        names = sorted(os.listdir(f"{proc}/{pid}/fd"), key=int)
    except (FileNotFoundError, ProcessLookupError):
        return None
    for fd in names:
        try:
            target = os.readlink(f"{proc}/{pid}/fd/{fd}")
        except (FileNotFoundError, ProcessLookupError):
            continue                                   # closed between listdir and readlink
        fds += 1
        kind = _fd_kind(target)
        fd_kinds[kind] = fd_kinds.get(kind, 0) + 1
        if kind == "anon_inode:[timerfd]":
            info = _status(_read(f"{proc}/{pid}/fdinfo/{fd}") or "")
            value = info.get("it_value", "(0, 0)")
            timerfds.append({"clockid": int(info.get("clockid", "-1")), "armed": value.replace(" ", "") != "(0,0)",
                             "interval": info.get("it_interval", "").replace(" ", "")})
    tasks = []
    try:
        for tid in sorted(os.listdir(f"{proc}/{pid}/task"), key=int):
            text = _read(f"{proc}/{pid}/task/{tid}/comm")
            if text is not None:
                tasks.append(text.strip())
    except FileNotFoundError:
        return None
    timers = _read(f"{proc}/{pid}/timers")
    maps = (_read(f"{proc}/{pid}/maps") or "").splitlines()
    map_kinds: dict[str, int] = {}
    anonymous = []
    for line in maps:
        kind = _map_kind(line)
        map_kinds[kind] = map_kinds.get(kind, 0) + 1
        if kind.endswith(" anonymous"):
            start, end = (int(x, 16) for x in line.split()[0].split("-"))
            anonymous.append(line.split()[0] + " " + line.split()[1] + f" {(end - start) // 1024}")
    rollup = _status(_read(f"{proc}/{pid}/smaps_rollup") or "")
    _, f = _stat(stat)
    return {
        "pid": pid, "time": t,
        "rss_kib": _kib(st.get("VmRSS")), "rss_anon_kib": _kib(st.get("RssAnon")),
        "rss_file_kib": _kib(st.get("RssFile")), "rss_shmem_kib": _kib(st.get("RssShmem")),
        "pss_kib": _kib(rollup.get("Pss")),
        "threads": tasks, "fds": fds, "fd_kinds": fd_kinds, "timerfds": timerfds,
        "posix_timers": None if timers is None else sum(1 for l in timers.splitlines() if l.startswith("ID:")),
        "maps": len(maps), "map_kinds": map_kinds, "anonymous_maps": anonymous,
        "cpu_ticks": int(f[11]) + int(f[12]),
    }


def drop_caches() -> None:
    """Write back and drop the page cache, dentries and inodes (the files of the 9p shares included),
    so that the next exec reads its files again, as in a freshly booted guest."""
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


def serve(inp=None, out=None) -> None:
    """Answer JSON requests, one per line on `inp`, with one JSON line each on `out`:
        {"op": "snapshot", "root": PID}                   -> snapshot(PID)
        {"op": "window", "root": PID, "seconds": S}       -> {"before": snapshot, "after": snapshot}
                                                             S seconds apart, asleep in between
        {"op": "time", "argv": [...], "env": {...}}       -> time_command(...)
        {"op": "drop_caches"}                             -> null
        {"op": "alive", "pids": [...]}                    -> the pids that still exist
        {"op": "resources", "pid": PID}                   -> resources(PID): fds, threads, timers, maps, RSS
        {"op": "resources_tree", "root": PID}             -> [resources(pid)] of PID and its descendants
        {"op": "clock"}                                   -> {"monotonic", "realtime"}: the guest's clocks, seconds
    as {"ok": true, "result": ...} or {"ok": false, "error": "..."}. Prints {"ready": true} first."""
    def answer(req):
        op = req["op"]
        if op == "snapshot":
            return snapshot(int(req["root"]))
        if op == "window":
            before = snapshot(int(req["root"]), frames=False)
            time.sleep(max(0.0, before["time"] + float(req["seconds"]) - time.monotonic()))
            return {"before": before, "after": snapshot(int(req["root"]), frames=False)}
        if op == "time":
            return time_command(req["argv"], req.get("env"), float(req.get("timeout", 120)))
        if op == "drop_caches":
            return drop_caches()
        if op == "alive":
            return [p for p in req["pids"] if os.path.exists(f"{PROC}/{int(p)}")]
        if op == "resources":
            return resources(int(req["pid"]))
        if op == "resources_tree":
            return [resources(pid) for pid in process_tree(int(req["root"]))]
        if op == "clock":
            return {"monotonic": time.monotonic(), "realtime": time.time()}
        raise ValueError(f"unknown op {op!r}")
    serve_lines(answer, inp, out)


# ==================================================================================== host side: reports

def _mib(kib: float) -> str:
    return f"{kib / 1024:.1f} MiB"


@dataclass
class ProcessMemory:
    pid: int
    name: str
    cmdline: str
    rss_kib: int
    pss_kib: int


@dataclass
class MemoryReport:
    """VmRSS and PSS of every process of a program at one moment (`time`: the guest's monotonic clock),
    and its resident pages counted once (None where pagemap could not be read)."""
    processes: list[ProcessMemory]
    time: float
    resident_once_kib: int | None = None
    raw: dict = field(repr=False, default_factory=dict)

    @property
    def rss_kib(self) -> int:
        return sum(p.rss_kib for p in self.processes)

    @property
    def pss_kib(self) -> int:
        return sum(p.pss_kib for p in self.processes)

    @classmethod
    def from_snapshot(cls, snap: dict) -> "MemoryReport":
        procs = [ProcessMemory(p["pid"], p["name"], p["cmdline"], p["rss_kib"], p["pss_kib"])
                 for p in snap["processes"].values()]
        return cls(procs, snap["time"], snap.get("resident_once_kib"), snap)

    def __str__(self) -> str:
        parts = ", ".join(f"{p.name}[{p.pid}] {_mib(p.rss_kib)}" for p in self.processes)
        once = f"; each page once {_mib(self.resident_once_kib)}" if self.resident_once_kib is not None else ""
        return f"RSS {_mib(self.rss_kib)} ({parts}); PSS {_mib(self.pss_kib)}{once}"


@dataclass
class CpuReport:
    """CPU time and context switches of every process (and thread) of a program over a window.
    cpu_ms: utime + stime (10 ms ticks); run_ms: on-CPU time of live threads (schedstat, exact);
    context_switches: voluntary + nonvoluntary over all threads (each is a thread waking up)."""
    seconds: float
    processes: list[dict]
    appeared: list[int]
    exited: list[int]
    raw: dict = field(repr=False, default_factory=dict)

    @property
    def cpu_ms(self) -> float:
        return sum(p["cpu_ms"] for p in self.processes)

    @property
    def run_ms(self) -> float:
        return sum(p["run_ms"] for p in self.processes)

    @property
    def context_switches(self) -> int:
        return sum(p["context_switches"] for p in self.processes)

    @property
    def threads_started(self) -> int:
        return sum(len(p["threads_started"]) for p in self.processes)

    @property
    def threads_ended(self) -> int:
        return sum(len(p["threads_ended"]) for p in self.processes)

    @property
    def idle(self) -> bool:
        """Nothing at all: no CPU time, no context switch, no thread started or ended, no process
        started or ended (what "uses zero CPU when idle" asserts)."""
        return (self.cpu_ms == 0 and self.run_ms == 0 and self.context_switches == 0 and not self.threads_started
                and not self.threads_ended and not self.appeared and not self.exited)

    @classmethod
    def from_window(cls, before: dict, after: dict) -> "CpuReport":
        d = cpu_delta(before, after)
        return cls(d["seconds"], d["processes"], d["appeared"], d["exited"], {"before": before, "after": after})

    def __str__(self) -> str:
        lines = [f"over {self.seconds:.2f} s: {self.cpu_ms:.0f} ms CPU (utime+stime; {self.run_ms:.2f} ms on CPU "
                 f"by schedstat), {self.context_switches} context switches"]
        for p in self.processes:
            churn = ""
            if p["threads_started"] or p["threads_ended"]:
                churn = f", threads started {p['threads_started']}, ended {p['threads_ended']}"
            lines.append(f"  {p['name']}[{p['pid']}]: {p['cpu_ms']:.0f} ms, {p['run_ms']:.2f} ms on CPU, "
                         f"{p['context_switches']} switches{churn}")
            for t in p["threads"]:
                if t["voluntary"] or t["nonvoluntary"] or t["cpu_ms"]:
                    lines.append(f"    thread {t['name']}[{t['tid']}]: {t['cpu_ms']:.0f} ms, "
                                 f"{t['voluntary']} voluntary + {t['nonvoluntary']} nonvoluntary switches")
        if self.appeared or self.exited:
            lines.append(f"  processes appeared {self.appeared}, exited {self.exited}")
        return "\n".join(lines)


class Resources:
    """One reading of `resources()`: `raw` is the dict; the counts as properties. `differences(other)`
    lists what is not the same between two readings, resident memory aside: the fds by kind, the threads by
    name, the timerfds (clock, armed, interval), the POSIX timers, the named mappings (files, devices,
    [heap], [stack]...) by kind and permissions, and the size of the anonymous ones.

    The anonymous mappings are compared by their size, not by their lines in /proc/PID/maps: the kernel
    merges a private anonymous mmap with an adjacent one of the same permissions into one line, so the
    same buffers (a bitmap of 64 KiB or more is a mapping of its own) take one line fewer or more depending
    on where the kernel placed them (seen in the soak: a 488 KiB bitmap made again beside a 332 KiB one,
    one line of 820 KiB where there had been two). `line_changes(other)` says when the lines differ."""

    def __init__(self, raw: dict):
        self.raw = raw

    def __getattr__(self, name):
        try:
            return self.raw[name]
        except KeyError:
            raise AttributeError(name) from None

    @property
    def thread_count(self) -> int:
        return len(self.raw["threads"])

    @property
    def timerfd_count(self) -> int:
        return len(self.raw["timerfds"])

    @property
    def armed_timerfds(self) -> int:
        return sum(1 for t in self.raw["timerfds"] if t["armed"])

    def timer_key(self) -> list:
        return sorted((t["clockid"], t["armed"], t["interval"]) for t in self.raw["timerfds"])

    @property
    def named_maps(self) -> dict:
        """{permissions and path: lines} of the mappings that are not anonymous."""
        return {k: v for k, v in self.raw["map_kinds"].items() if not k.endswith(" anonymous")}

    @property
    def anonymous_kib(self) -> int:
        return sum(int(m.split()[2]) for m in self.raw["anonymous_maps"])

    def anonymous_by_permissions(self) -> dict:
        out: dict[str, int] = {}
        for m in self.raw["anonymous_maps"]:
            _, perms, kib = m.split()
            out[perms] = out.get(perms, 0) + int(kib)
        return out

    def _anonymous_change(self, other: "Resources") -> str:
        mine, theirs = set(self.raw["anonymous_maps"]), set(other.raw["anonymous_maps"])
        return f"gone (range, permissions, KiB): {sorted(theirs - mine)}, new: {sorted(mine - theirs)}"

    def differences(self, other: "Resources") -> list[str]:
        def diff(name, mine: dict, theirs: dict):
            keys = sorted(set(mine) | set(theirs))
            changed = [f"{k}: {theirs.get(k, 0)} -> {mine.get(k, 0)}" for k in keys if mine.get(k, 0) != theirs.get(k, 0)]
            return [f"{name} {', '.join(changed)}"] if changed else []

        def counts(items):
            out = {}
            for i in items:
                out[i] = out.get(i, 0) + 1
            return out
        found = []
        if self.fds != other.fds:
            found.append(f"open fds {other.fds} -> {self.fds}")
        found += diff("fd kinds", self.fd_kinds, other.fd_kinds)
        if self.thread_count != other.thread_count:
            found.append(f"threads {other.thread_count} -> {self.thread_count}")
        found += diff("threads by name", counts(self.threads), counts(other.threads))
        if self.timer_key() != other.timer_key():
            found.append(f"timerfds {other.timer_key()} -> {self.timer_key()}")
        if self.posix_timers != other.posix_timers:
            found.append(f"POSIX timers {other.posix_timers} -> {self.posix_timers}")
        found += diff("named mappings", self.named_maps, other.named_maps)
        if self.anonymous_kib != other.anonymous_kib:
            found.append(f"anonymous mappings {other.anonymous_kib} KiB -> {self.anonymous_kib} KiB "
                         f"({other.anonymous_by_permissions()} -> {self.anonymous_by_permissions()}); {self._anonymous_change(other)}")
        return found

    def line_changes(self, other: "Resources") -> str | None:
        """When the lines of /proc/PID/maps differ in number: how, and the anonymous ones that changed."""
        if self.maps == other.maps:
            return None
        return f"{other.maps} -> {self.maps} lines of maps; anonymous ones {self._anonymous_change(other)}"

    def summary(self) -> str:
        timers = f"{self.timerfd_count} timerfds ({self.armed_timerfds} armed)"
        if self.posix_timers is not None:
            timers += f", {self.posix_timers} POSIX timers"
        return (f"RSS {self.rss_kib} KiB (anon {self.rss_anon_kib}, file {self.rss_file_kib}, shmem {self.rss_shmem_kib}), "
                f"{self.fds} fds, {self.thread_count} threads, {timers}, {self.maps} lines of maps "
                f"({sum(self.named_maps.values())} named, anonymous {self.anonymous_kib} KiB)")

    def __str__(self) -> str:
        return self.summary()


# ===================================================================================== host side: Sampler

class SamplerError(RuntimeError):
    """The guest-side sampler failed a request or did not answer."""


class GuestService:
    """A Python script's `serve` loop running in the guest, driven over its stdin/stdout with one JSON line
    each way per request (`{"op": ...}` -> `{"ok": true, "result": ...}` or `{"ok": false, "error": ...}`,
    after a first `{"ready": true}`): requests answered within milliseconds, where a `guest.run(...)`
    starts a shell (50-150 ms under TCG). `SCRIPT` is the file run (standard library only: the guest runs it
    with `python3 -I -S`). Use as a context manager or call close()."""

    SCRIPT = os.path.abspath(__file__)
    WHAT = "sampler"

    def __init__(self, guest, timeout: float = 60.0):
        self.guest = guest
        # A disk guest has not the host's files: its image carries the script (disk.GUEST_SCRIPTS).
        script = self.SCRIPT if getattr(guest, "disk", None) is None else f"/usr/lib/kioskvm/{os.path.basename(self.SCRIPT)}"
        self.process = guest.spawn(f"exec python3 -I -S -u {script} serve", line_buffered=False)
        self._lines = 0
        first = self._next(timeout)
        if not first.get("ready"):
            raise SamplerError(f"{self.WHAT} did not start: {first}")

    def _next(self, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            text = self.process.stdout_so_far()
            lines = text[:text.rfind("\n") + 1].splitlines()
            if len(lines) > self._lines:
                self._lines += 1
                return json.loads(lines[self._lines - 1])
            if not self.process.running:
                raise SamplerError(f"{self.WHAT} exited: {self.process.result()}")
            if time.monotonic() > deadline:
                raise SamplerError(f"no answer from the {self.WHAT} within {timeout} s")
            self.guest._check_alive()
            time.sleep(0.005)

    def request(self, op: str, wait: float = 60.0, **args):
        """Send one request to serve() and return its result within `wait` seconds (raises
        SamplerError on an error or no answer)."""
        self.process.write(json.dumps({"op": op, **args}) + "\n")
        answer = self._next(wait)
        if not answer.get("ok"):
            raise SamplerError(f"{op}: {answer.get('error')}")
        return answer["result"]

    def close(self) -> None:
        if self.process.running and self.guest.alive:
            self.process.stop(5)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Sampler(GuestService):
    """serve() of this file running in the guest: samples /proc in the guest within milliseconds of a
    request. Start it before the program under test, so that its own start-up (~0.3 s of Python) does not
    compete with the program's. Use as a context manager or call close()."""

    def snapshot(self, root: int) -> dict:
        """snapshot(root) in the guest: the raw readings of every process of the tree."""
        return self.request("snapshot", root=root)

    def memory(self, root: int) -> MemoryReport:
        """VmRSS and PSS of `root` and its descendants, now, and their resident pages counted once."""
        return MemoryReport.from_snapshot(self.snapshot(root))

    def idle_cpu(self, root: int, seconds: float = 10.0) -> CpuReport:
        """CPU time and context switches of `root` and its descendants over the next `seconds`
        (blocks that long). Take no screendumps and start nothing in the guest meanwhile."""
        r = self.request("window", wait=seconds + 60, root=root, seconds=seconds)
        return CpuReport.from_window(r["before"], r["after"])

    def time_command(self, argv: list[str], env: dict | None = None, timeout: float = 120.0) -> dict:
        """Exec `argv` in the guest and time it to its exit, measured in the guest (no agent or shell
        in between): {"seconds", "status", "stdout", "stderr"}."""
        return self.request("time", wait=timeout + 30, argv=list(argv), env=env or {}, timeout=timeout)

    def drop_caches(self) -> None:
        """Drop the guest's page cache, dentries and inodes (see drop_caches())."""
        self.request("drop_caches")

    def alive(self, pids) -> list[int]:
        """Which of these guest pids still exist."""
        return self.request("alive", pids=[int(p) for p in pids])

    def resources(self, pid: int) -> "Resources":
        """What `pid` holds of the guest's kernel now (fds, threads, timers, mappings, resident memory:
        `resources()`); raises SamplerError if it is gone."""
        raw = self.request("resources", pid=int(pid))
        if raw is None:
            raise SamplerError(f"resources: process {pid} is gone")
        return Resources(raw)

    def resources_tree(self, root: int) -> list["Resources"]:
        """`resources()` of `root` and of each of its descendants (root first); [] if root is gone."""
        return [Resources(r) for r in self.request("resources_tree", root=int(root)) if r is not None]

    def clock(self) -> float:
        """The guest's CLOCK_MONOTONIC now, in seconds (the clock of the kiosk's trace timestamps)."""
        return float(self.request("clock")["monotonic"])

    def wall_clock(self) -> float:
        """The guest's CLOCK_REALTIME now, in seconds since the epoch (what the demo's status bar shows)."""
        return float(self.request("clock")["realtime"])


def avoid_the_minute(guest, seconds, sampler=None):
    """Waits, if need be, so that the next `seconds` hold no turn of the guest's wall-clock minute: the
    demo's status-bar clock repaints (and wakes the kiosk) once a minute, on the minute: idle windows
    (the scenarios', Tests/System/peers') keep clear of it. With a `sampler` the guest's clock is read
    through it (milliseconds; `date` in a shell takes 50-150 ms and more under load)."""
    if sampler is not None:
        second = sampler.wall_clock() % 60
    else:
        second = float(guest.run("date +%S.%N", timeout=30).check().stdout.strip())
    if second + seconds + 1 > 60:
        time.sleep(61 - second)


# ============================================================================ host side: pixels and frames

def masked(pixels: bytes, width: int, rects) -> bytes:
    """RGB `pixels` of a `width`-wide image with the rects (x, y, w, h) blacked out: two masked
    images compare equal exactly when they are equal outside the rects (a clock, a cursor)."""
    if not rects:
        return pixels
    buf = bytearray(pixels)
    height = len(pixels) // (3 * width)
    for x, y, w, h in rects:
        x0, x1 = max(0, x), min(width, x + w)
        for row in range(max(0, y), min(height, y + h)):
            i = (row * width + x0) * 3
            buf[i:i + 3 * (x1 - x0)] = bytes(3 * (x1 - x0))
    return bytes(buf)


SAMPLE_STEP = 61        # every 61st pixel (a prime: no aliasing with rows or stripes): ~16,800 of 1280x800


def fraction_close(a: bytes, b: bytes, tolerance: int = 0, step: int = SAMPLE_STEP) -> float:
    """The fraction of sampled pixels (every `step`th) whose channels all differ by at most
    `tolerance` between two RGB buffers of the same size (~5 ms for 1280x800 in pure Python)."""
    if len(a) != len(b):
        return 0.0
    stride, t = 3 * step, tolerance
    samples = zip(a[0::stride], a[1::stride], a[2::stride], b[0::stride], b[1::stride], b[2::stride])
    n = len(range(0, len(a), stride))
    close = sum(1 for r1, g1, b1, r2, g2, b2 in samples
                if abs(r1 - r2) <= t and abs(g1 - g2) <= t and abs(b1 - b2) <= t)
    return close / n if n else 0.0


def fraction_dark(pixels: bytes, threshold: int = 16, step: int = SAMPLE_STEP) -> float:
    """The fraction of sampled pixels whose channels are all below `threshold` (black-ish)."""
    stride = 3 * step
    rs, gs, bs = pixels[0::stride], pixels[1::stride], pixels[2::stride]
    n = len(rs)
    return sum(1 for r, g, b in zip(rs, gs, bs) if r < threshold and g < threshold and b < threshold) / n if n else 0.0


def shows_exactly(expected, ignore=()):
    """Predicate on an image.Image: pixel for pixel `expected` (an Image or raw RGB bytes of the
    same size as the screen) outside the `ignore` rects. Cheap: one masked bytes comparison."""
    pixels = getattr(expected, "pixels", expected)
    cache = {}

    def predicate(img) -> bool:
        if len(img.pixels) != len(pixels):
            return False
        if "want" not in cache:
            cache["want"] = masked(pixels, img.width, ignore)
        return masked(img.pixels, img.width, ignore) == cache["want"]
    predicate.describe = f"equal to the expected image pixel for pixel{' outside ' + str(list(ignore)) if ignore else ''}"
    return predicate


def shows_picture(expected, tolerance: int = 3, min_fraction: float = 0.99):
    """Predicate on an image.Image: at least `min_fraction` of sampled pixels (every SAMPLE_STEPth)
    are within `tolerance` per channel of `expected` (Image or raw RGB bytes of the screen's size).
    For a client that shows a known picture full screen but rounds colours (a cursor or an overlay
    may cover the rest)."""
    pixels = getattr(expected, "pixels", expected)

    def predicate(img) -> bool:
        return fraction_close(img.pixels, pixels, tolerance) >= min_fraction
    predicate.describe = f"at least {min_fraction:.0%} of sampled pixels within {tolerance} of the picture"
    return predicate


def shows_something_new(baseline, min_changed: float = 0.05, max_dark: float = 0.99):
    """Predicate on an image.Image: not the screen before the program started (at least `min_changed`
    of sampled pixels differ from `baseline`: a blinking console cursor does not count) and not
    black (under `max_dark` of sampled pixels dark)."""
    base = getattr(baseline, "pixels", baseline)

    def predicate(img) -> bool:
        changed = len(img.pixels) != len(base) or 1.0 - fraction_close(img.pixels, base) >= min_changed
        return changed and fraction_dark(img.pixels) < max_dark
    predicate.describe = f"not the console (>= {min_changed:.0%} of sampled pixels changed) and not black"
    return predicate


@dataclass
class Dump:
    """One screendump: `at` is the host's monotonic time just before the QMP request (what the head
    showed then or a few ms later: QEMU copies the surface when it handles the request)."""
    at: float
    took: float
    image: object


@dataclass
class FirstFrame:
    """When a head first showed what was wanted, relative to `t0` (just before the program started):
    `seconds` = the first dump that showed it; `after` = the dump before it (the frame arrived in
    between: the resolution is the polling interval)."""
    seconds: float
    after: float
    dump: Dump
    dumps: int

    def as_dict(self) -> dict:
        return {"seconds": round(self.seconds, 4), "after_seconds": round(self.after, 4),
                "dump_took_ms": round(self.dump.took * 1000, 2), "dumps": self.dumps}


class FrameTimeout(TimeoutError):
    """The head did not show what was wanted in time. `.last` is the last Dump (or None)."""

    def __init__(self, msg: str, last):
        super().__init__(msg)
        self.last = last


class FrameWatch:
    """Polls QMP screendump of one head on a fixed schedule (every `interval` seconds, 0.1 by
    default: each dump stalls the guest 5-10 ms, so no faster) and keeps every distinct image it saw
    (`history`), so that a first frame can also be found after the fact.

        watch = FrameWatch(guest, head=0)
        t0 = time.monotonic(); p = guest.spawn(...)
        first = watch.until(t0, shows_exactly(expected), timeout=60)   # FirstFrame
    """

    def __init__(self, guest, head: int = 0, interval: float = 0.1):
        self.guest = guest
        self.head = head
        self.interval = interval
        self.history: list[Dump] = []       # distinct images in order (a repeat of the last is not kept)
        self.times: list[float] = []        # when every dump was taken (host monotonic)

    def dump(self) -> Dump:
        """Take one screendump now (and remember it if it differs from the last one kept)."""
        at = time.monotonic()
        img = self.guest.screenshot(self.head)
        d = Dump(at, time.monotonic() - at, img)
        self.times.append(at)
        if not self.history or self.history[-1].image.pixels != img.pixels:
            self.history.append(d)
        try:
            os.unlink(img.path)              # the PPM in the job folder (3 MB each)
        except (OSError, TypeError):
            pass
        return d

    def _ticks(self, start: float):
        k = 0
        while True:
            due = start + k * self.interval
            now = time.monotonic()
            if due > now:
                time.sleep(due - now)
            elif now - due > self.interval:     # a slow dump: skip the ticks it overran
                k = int((now - start) / self.interval) + 1
                continue
            yield
            k += 1

    def until(self, t0: float, predicate, timeout: float = 60.0, alive=None) -> FirstFrame:
        """Dump on the schedule from now until `predicate(image)` is true; returns the FirstFrame
        relative to t0. `alive()`, if given, is checked on every tick (a program that exited will
        show nothing): FrameTimeout when it returns False, as when `timeout` runs out."""
        n0 = len(self.times)
        for _ in self._ticks(time.monotonic()):
            d = self.dump()
            if predicate(d.image):
                return self.first_frame(d, t0, len(self.times) - n0)
            if alive is not None and not alive():
                raise FrameTimeout("the program exited before showing it", d)
            if time.monotonic() - t0 > timeout:
                raise FrameTimeout(f"not shown within {timeout:.0f} s", d)

    def until_stable(self, stable_for: float = 1.5, ignore=(), timeout: float = 30.0) -> Dump:
        """Dump until the image (outside `ignore`) has not changed for `stable_for` seconds; returns
        the first dump of that final image."""
        start = time.monotonic()
        first_same, key = None, None
        for _ in self._ticks(start):
            d = self.dump()
            k = masked(d.image.pixels, d.image.width, ignore)
            if k != key:
                first_same, key = d, k
            elif d.at - first_same.at >= stable_for:
                return first_same
            if time.monotonic() - start > timeout:
                raise FrameTimeout(f"still changing after {timeout:.0f} s", d)

    def first_frame(self, dump: Dump, t0: float, dumps: int | None = None) -> FirstFrame:
        """`dump` as a FirstFrame relative to t0 (`after`: the dump taken just before it, or t0)."""
        earlier = [t for t in self.times if t0 <= t < dump.at]
        if dumps is None:
            dumps = len(earlier) + 1
        return FirstFrame(dump.at - t0, (earlier[-1] if earlier else t0) - t0, dump, dumps)

    def first_in_history(self, predicate, since: float = 0.0) -> Dump | None:
        """The earliest kept (distinct) dump taken at or after `since` that satisfies predicate:
        finds a first frame after the fact, once the final image is known."""
        for d in self.history:
            if d.at >= since and predicate(d.image):
                return d
        return None

    def forget(self) -> None:
        """Drop the history and the dump times (between two runs in the same guest)."""
        self.history.clear()
        self.times.clear()

    @property
    def mean_gap_ms(self) -> float | None:
        """Mean time between consecutive dumps (the real polling resolution), in ms."""
        gaps = [b - a for a, b in zip(self.times, self.times[1:]) if b - a < 5 * self.interval]
        return 1000 * sum(gaps) / len(gaps) if gaps else None


if __name__ == "__main__":
    if sys.argv[1:] == ["serve"]:
        serve()
    else:
        print(f"usage: {sys.argv[0]} serve   (the guest-side sampler; see the module docstring)", file=sys.stderr)
        sys.exit(2)
