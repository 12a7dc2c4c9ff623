"""Host-driven display hotplug through QEMU's VNC server (RFB protocol).

QEMU 7.2 has no QMP command to connect or resize a virtio-gpu head, but its VNC server forwards a
client's SetDesktopSize (client message 251, the ExtendedDesktopSize extension) to the display as
the UI's preferred size: the head becomes enabled with that size as its preferred mode, the guest
driver re-probes and the kernel emits `ACTION=change HOTPLUG=1` on card0. A size of 0x0 disables
the head, with another uevent. Measured in shared/vm/README.md ("Hotplug"). One VNC server per head
runs on a unix socket (`-vnc unix:...,display=gpu0,head=N`); no client has to stay connected.
"""

from __future__ import annotations

import socket
import struct
import time

ENC_EXTENDED_DESKTOP_SIZE = -308


class RFBError(RuntimeError):
    pass


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise RFBError("VNC server closed the connection")
        buf += chunk
    return buf


def _handshake(sock: socket.socket) -> tuple[int, int]:
    version = _recv_exact(sock, 12)
    if not version.startswith(b"RFB "):
        raise RFBError(f"not an RFB server: {version!r}")
    sock.sendall(b"RFB 003.008\n")
    n = _recv_exact(sock, 1)[0]
    if n == 0:
        length = struct.unpack(">I", _recv_exact(sock, 4))[0]
        raise RFBError(f"VNC server refused: {_recv_exact(sock, length).decode(errors='replace')}")
    types = _recv_exact(sock, n)
    if 1 not in types:
        raise RFBError(f"VNC server does not offer security type None (offers {list(types)})")
    sock.sendall(b"\x01")
    if struct.unpack(">I", _recv_exact(sock, 4))[0] != 0:
        raise RFBError("VNC security handshake failed")
    sock.sendall(b"\x01")                                 # ClientInit: shared
    w, h = struct.unpack(">HH", _recv_exact(sock, 4))
    _recv_exact(sock, 16)                                 # pixel format
    name_len = struct.unpack(">I", _recv_exact(sock, 4))[0]
    _recv_exact(sock, name_len)
    return w, h


def set_desktop_size(path: str, width: int, height: int, timeout: float = 10.0) -> str:
    """Ask the VNC server on `path` to make its head width x height (0x0 disconnects it).

    Returns QEMU's answer: QEMU acknowledges SetDesktopSize with an ExtendedDesktopSize update whose
    y field is a status (0 or 4 "request forwarded" = done, 3 "invalid layout" = the display refused).
    Waiting for that answer means the size has reached the display before this returns.
    """
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(path)
        _handshake(sock)
        msg = struct.pack(">BxHHBx", 251, width, height, 1)
        msg += struct.pack(">IHHHHI", 0, 0, 0, width, height, 0)     # screen id 0 at 0,0, flags 0
        sock.sendall(msg)
        deadline = time.monotonic() + min(timeout, 3.0)
        sock.settimeout(0.5)
        while time.monotonic() < deadline:
            try:
                kind = _recv_exact(sock, 1)[0]
            except socket.timeout:
                continue
            if kind != 0:          # only FramebufferUpdate can come: we never asked for anything else
                return f"unexpected server message {kind}"
            nrects, = struct.unpack(">xH", _recv_exact(sock, 3))
            for _ in range(nrects):
                x, y, w, h, enc = struct.unpack(">HHHHi", _recv_exact(sock, 12))
                if enc != ENC_EXTENDED_DESKTOP_SIZE:
                    return f"unexpected rectangle encoding {enc}"
                screens = _recv_exact(sock, 4)[0]
                _recv_exact(sock, 16 * screens)
                if x == 1:                          # the answer to our request
                    if y in (0, 4):
                        return "ok"
                    raise RFBError(f"QEMU refused SetDesktopSize {width}x{height}: status {y}")
        return "no answer (sent anyway)"
    finally:
        sock.close()
