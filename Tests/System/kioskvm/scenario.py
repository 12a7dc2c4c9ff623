"""Scenario modules and how one is run (the runner, Tests/System/run, drives these).

A scenario is a module `Tests/System/scenarios/test_NAME.py`:

    \"\"\"What the scenario is about (first line shows in `run --list`).\"\"\"
    from kioskvm.scenario import expect, skip

    GUEST = dict(heads=2)      # keyword arguments for Guest(); None: host-only checks, no VM
    TIMEOUT = 300              # seconds for the whole scenario (boot included); optional

    def check_something(guest):        # checks run in source order, all against one booted guest
        r = guest.run("true")
        expect(r.ok, r)

A check passes when it returns, fails on any exception (AssertionError or expect() for plain
failures: the message is the reason), and is skipped by skip("why"). note("...") adds an
informational `# scenario: ...` line to the output (timings and the like). Later checks still run after a
failure; module globals carry state between checks (e.g. a process the first check spawned).
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_TIMEOUT = float(os.environ.get("KIOSK_VM_SCENARIO_TIMEOUT", "300"))


class Skip(Exception):
    """Raised by skip(): the check does not apply here."""


def skip(reason: str):
    raise Skip(reason)


_emit = None     # set while run_scenario runs


def note(message: str) -> None:
    """Print an informational line with the results (`# scenario: message`), e.g. a timing."""
    if _emit is not None:
        _emit({"note": str(message)})
    else:
        print(f"# {message}", flush=True)


def expect(condition, message="expectation failed") -> None:
    """Fail the check with `message` (str() of it: a Result or Comparison explains itself)."""
    if not condition:
        raise AssertionError(str(message))


@dataclass
class Check:
    name: str
    func: object

    def call(self, guest):
        if len(inspect.signature(self.func).parameters) == 0:
            return self.func()
        return self.func(guest)


@dataclass
class Scenario:
    name: str
    path: Path
    doc: str = ""
    checks: list = field(default_factory=list)
    guest_options: dict | None = None
    timeout: float = DEFAULT_TIMEOUT
    module: object = None

    @property
    def needs_vm(self) -> bool:
        return self.guest_options is not None


def load(path: Path) -> Scenario:
    name = path.stem.removeprefix("test_")
    spec = importlib.util.spec_from_file_location(f"scenarios.{path.stem}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    checks = [(f.__code__.co_firstlineno, n, f) for n, f in vars(mod).items()
              if n.startswith("check_") and callable(f) and getattr(f, "__module__", None) == mod.__name__]
    checks.sort(key=lambda c: c[0])
    return Scenario(
        name=name, path=path, doc=(mod.__doc__ or "").strip().splitlines()[0] if mod.__doc__ else "",
        checks=[Check(n.removeprefix("check_"), f) for _, n, f in checks],
        guest_options=getattr(mod, "GUEST", None),
        timeout=float(getattr(mod, "TIMEOUT", DEFAULT_TIMEOUT)), module=mod)


def discover(directory: Path) -> list[Path]:
    return sorted(directory.glob("test_*.py"))


def select_checks(sc: Scenario, substrings: list[str]) -> list[Check]:
    if not substrings:
        return list(sc.checks)
    return [c for c in sc.checks if any(s in f"{sc.name}: {c.name}" for s in substrings)]


def _reason(e: BaseException) -> str:
    if isinstance(e, AssertionError):
        msg = str(e) or "assertion failed"
        if not str(e):
            # a bare `assert x`: point at the line
            tb = traceback.extract_tb(e.__traceback__)[-1]
            msg = f"assertion failed at {Path(tb.filename).name}:{tb.lineno}: {tb.line}"
        return msg
    return f"{type(e).__name__}: {e}"


def run_scenario(sc: Scenario, checks: list[Check], emit) -> None:
    """Run the checks of one scenario against one guest. `emit(dict)` reports each result:
    {"check", "status": pass|fail|skip, "reason", "detail", "seconds"} and finally {"done": ...}."""
    from .guest import Guest, GuestError
    global _emit
    _emit = emit

    t0 = time.monotonic()
    guest = None
    timed_out = threading.Event()

    def watchdog():
        # A hung guest must fail the scenario, not hang the suite: kill QEMU, so whatever the
        # check waits on raises GuestDied at once.
        timed_out.set()
        if guest is not None:
            guest.kill()

    timer = threading.Timer(sc.timeout, watchdog)
    timer.daemon = True
    timer.start()
    info = {}
    shown_console = False
    try:
        if sc.needs_vm:
            try:
                guest = Guest(name=sc.name, **sc.guest_options)
                guest.start()
                info["boot_seconds"] = round(guest.boot_seconds, 1)
            except Exception as e:
                why = "scenario timeout while booting" if timed_out.is_set() else _reason(e)
                for c in checks:
                    emit({"check": c.name, "status": "fail", "reason": f"guest did not boot: {why.splitlines()[0]}",
                          "detail": why if c is checks[0] else "", "seconds": 0})
                return
        for c in checks:
            if timed_out.is_set():
                emit({"check": c.name, "status": "fail", "seconds": 0,
                      "reason": f"not run: scenario timed out after {sc.timeout:.0f} s"})
                continue
            t = time.monotonic()
            status, reason, detail = "pass", "", ""
            try:
                c.call(guest)
            except Skip as e:
                status, reason = "skip", str(e)
            except BaseException as e:
                if isinstance(e, KeyboardInterrupt):
                    raise
                status = "fail"
                reason = _reason(e)
                if timed_out.is_set():
                    reason = f"scenario timed out after {sc.timeout:.0f} s ({reason.splitlines()[0]})"
                if "\n" in reason:
                    reason, detail = reason.split("\n", 1)
                if not isinstance(e, (AssertionError, GuestError)):
                    detail += "\n" + "".join(traceback.format_exception(e)).rstrip()
                # The console tail once per scenario (first failure), and whenever the guest itself
                # is the problem; more copies of it would only bury the reasons.
                if guest is not None and (not shown_console or isinstance(e, GuestError)):
                    detail += "\n" + guest.diagnostics(25)
                    shown_console = True
            emit({"check": c.name, "status": status, "reason": reason, "detail": detail.strip(),
                  "seconds": round(time.monotonic() - t, 2)})
            if status == "fail" and guest is not None and guest.run_dir is not None:
                # The kept run folder says why it was kept, for whoever finds it later.
                with open(guest.run_dir / "failures.txt", "a") as f:
                    f.write(f"FAIL {sc.name}: {c.name} — {reason}\n{detail.strip()}\n\n")
    finally:
        timer.cancel()
        if guest is not None:
            # Keep the run folder (console.log, job/ with every command's output) when something
            # failed: the failure message points into it.
            if shown_console:
                guest.keep = True
            guest.stop()
        info["seconds"] = round(time.monotonic() - t0, 1)
        emit({"done": info})
