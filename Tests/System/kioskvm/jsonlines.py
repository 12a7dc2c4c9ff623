"""The request loop of the guest-side services (measure's sampler, control's client): one JSON request per line
in, one JSON answer per line out, {"ok": true, "result": ...} or {"ok": false, "error": "..."}, after a first
{"ready": true}. Needs nothing of the package, so a service runs in the guest as a script."""

import json
import sys


def serve_lines(answer, inp=None, out=None) -> None:
    """Answers each request line with `answer(request)`; a request that raises is answered with its error, and
    the loop goes on (one bad request must not end the service)."""
    inp = inp or sys.stdin
    out = out or sys.stdout

    def say(d):
        out.write(json.dumps(d) + "\n")
        out.flush()
    say({"ready": True})
    for line in inp:
        if not line.strip():
            continue
        try:
            say({"ok": True, "result": answer(json.loads(line))})
        except Exception as e:
            say({"ok": False, "error": f"{type(e).__name__}: {e}"})
