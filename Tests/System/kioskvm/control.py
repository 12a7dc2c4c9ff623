"""The kiosk's control socket asked from inside the guest without a process per request.

`kiosk power off --screen NAME` as a process costs 0.4-0.5 s under TCG on a quiet host (the debug binary's
start), up to 3.7 s on a loaded one, which a thousand power cycles cannot afford. `ControlClient` runs
serve() of this file in the guest (`python3 -I -S -u <this file> serve`, standard library only) and asks
the socket as the command-line client does: one connection per request, the request as one JSON line, the
answer's line read, the connection closed. After the answer it can run a command (`then`: e.g.
`drmframe --crtcs`, to read back what the answer says was done) before the next request is read.

    with ControlClient(guest, "/run/kiosk/control") as control:
        answer = control.ask({"command": "power", "state": "off", "screen": "Virtual-2"},
                             then=["drmframe", "--crtcs"])
        answer.reply["ok"], answer.then["stdout"], answer.seconds    # the reply, the command, the guest's time

The command-line client itself is what the scenarios run everywhere else (`test_control.py`).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass

try:
    from .jsonlines import serve_lines
    from .measure import GuestService
except ImportError:         # run in the guest as a script (python3 -I): serve() needs only jsonlines, beside it
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from jsonlines import serve_lines
    GuestService = object


# ==================================================================================== guest side

def ask(path: str, request: dict, timeout: float = 30.0) -> str:
    """One request on a new connection to the socket at `path`; returns the answer's line."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    try:
        s.connect(path)
        s.sendall(json.dumps(request).encode() + b"\n")
        data = b""
        while b"\n" not in data:
            chunk = s.recv(65536)
            if not chunk:
                raise ConnectionError(f"{path} closed the connection without an answer (got {data[:200]!r})")
            data += chunk
        return data.split(b"\n", 1)[0].decode()
    finally:
        s.close()


def serve(inp=None, out=None) -> None:
    """Answer requests, one JSON line each on `inp`:
        {"op": "ask", "socket": PATH, "request": {...}, "then": [argv...] or null}
            -> {"reply": the answer (parsed), "asked": t, "answered": t, "then": {"status", "stdout", "stderr"}}
    (t: the guest's CLOCK_MONOTONIC) as {"ok": true, "result": ...} or {"ok": false, "error": "..."}.
    Prints {"ready": true} first."""
    def answer(req):
        if req["op"] != "ask":
            raise ValueError(f"unknown op {req['op']!r}")
        asked = time.monotonic()
        reply = json.loads(ask(req["socket"], req["request"], float(req.get("timeout", 30))))
        answered = time.monotonic()
        then = None
        if req.get("then"):
            r = subprocess.run(req["then"], stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
            then = {"status": r.returncode, "stdout": r.stdout.decode(errors="replace"),
                    "stderr": r.stderr.decode(errors="replace")[:2000]}
        return {"reply": reply, "asked": asked, "answered": answered, "then": then}
    serve_lines(answer, inp, out)


# ===================================================================================== host side

@dataclass
class Answer:
    reply: dict             # the kiosk's answer
    asked: float            # the guest's monotonic clock as the request was sent
    answered: float         # and as the answer had been read
    then: dict | None       # the command run after it: status, stdout, stderr

    @property
    def seconds(self) -> float:
        return self.answered - self.asked


class ControlClient(GuestService):
    """serve() of this file in the guest, asking the control socket at `path` (see the module's text)."""

    SCRIPT = os.path.abspath(__file__)
    WHAT = "control client"

    def __init__(self, guest, path: str, timeout: float = 60.0):
        super().__init__(guest, timeout)
        self.path = path

    def ask(self, request: dict, then=None, timeout: float = 30.0) -> Answer:
        r = self.request("ask", wait=timeout + 90, socket=self.path, request=request, then=list(then) if then else None,
                         timeout=timeout)
        return Answer(r["reply"], r["asked"], r["answered"], r["then"])


if __name__ == "__main__":
    if sys.argv[1:] == ["serve"]:
        serve()
    else:
        print(f"usage: {sys.argv[0]} serve   (the guest-side control client; see the module docstring)", file=sys.stderr)
        sys.exit(2)
