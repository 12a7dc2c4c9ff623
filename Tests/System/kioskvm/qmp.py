"""A minimal QMP (QEMU Machine Protocol) client over a unix socket."""

from __future__ import annotations

import json
import socket
import threading
import time


class QMPError(RuntimeError):
    """QEMU answered a command with an error."""


class QMP:
    def __init__(self, path: str, connect_timeout: float = 10.0, timeout: float = 60.0):
        self.path = path
        self.timeout = timeout
        self.events: list[dict] = []        # asynchronous events seen while waiting for answers
        self._lock = threading.Lock()
        self._next_id = 0
        deadline = time.monotonic() + connect_timeout
        while True:
            # QEMU creates the socket while it starts up; retry until it is there.
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.settimeout(timeout)
                self.sock.connect(path)
                break
            except (FileNotFoundError, ConnectionRefusedError):
                self.sock.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.02)
        self._file = self.sock.makefile("rb")
        greeting = self._read()
        if "QMP" not in greeting:
            raise QMPError(f"not a QMP greeting: {greeting}")
        self.version = greeting["QMP"].get("version", {}).get("qemu", {})
        self.execute("qmp_capabilities")    # leave capabilities negotiation mode

    def _read(self) -> dict:
        line = self._file.readline()
        if not line:
            raise ConnectionError("QMP connection closed")
        return json.loads(line)

    def execute(self, command: str, arguments: dict | None = None, **kwargs) -> object:
        """Run a command and return its "return" value. Arguments may be given as a dict (for names
        that are not Python identifiers, e.g. with dashes) and/or as keyword arguments."""
        args = dict(arguments or {})
        args.update(kwargs)
        with self._lock:
            self._next_id += 1
            msg_id = self._next_id
            req = {"execute": command, "id": msg_id}
            if args:
                req["arguments"] = args
            self.sock.sendall(json.dumps(req).encode() + b"\n")
            while True:
                msg = self._read()
                if "event" in msg:
                    self.events.append(msg)
                    continue
                if msg.get("id") != msg_id:
                    continue
                if "error" in msg:
                    err = msg["error"]
                    raise QMPError(f"{command}: {err.get('class')}: {err.get('desc')}")
                return msg.get("return")

    def close(self) -> None:
        try:
            self._file.close()
            self.sock.close()
        except OSError:
            pass
