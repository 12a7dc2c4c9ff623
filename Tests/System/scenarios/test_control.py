"""The control socket on DRM with two heads: `kiosk status` (root, and a member of group kiosk), `kiosk power
off/on --screen Virtual-2` turning head 1's CRTC off and on while head 0 is left alone (no frame, CRTC active,
the same picture), `kiosk screenshot` of each head equal to QEMU's screendump of it at rotation 0 and 90, the
socket surviving random bytes, an endless line, a silent client, 200 clients and a client that never reads,
a user outside the group refused (by the folder's permissions, and by the peer check when those are
loosened, both exit 3); a screen's own idle-timeout blanking that head alone; and a kiosk run by hand (not
under systemd: root without XDG_RUNTIME_DIR, a user in a session) listening where its user reaches it, found
by the commands without --socket."""

import json
import signal
import statistics
import time
from pathlib import Path

from kioskvm import image, measure
from kioskvm.scenario import expect, note
from scenarios_support import (KIOSK, avoid_the_minute, run_kiosk, screenshot_is_the_screendump, stop, trace_events,
                               wait_for_frames, wait_until)

GUEST = dict(heads=2)
TIMEOUT = 600

SOCKET = "/run/kiosk/control"
# What systemd says to a unit with RuntimeDirectory=kiosk: the kiosk's socket goes to /run/kiosk/control.
UNIT = {"RUNTIME_DIRECTORY": "/run/kiosk"}
PYTHON = "/usr/bin/python3"
state = {}


def events(kind=None, screen=None):
    return trace_events(state["trace"], kind, screen)


def crtcs(guest):
    """{connector: (crtc id, ACTIVE)} as drmframe --crtcs reads them."""
    out = guest.run("drmframe --crtcs", timeout=30).check().stdout
    found = {}
    for line in out.splitlines():
        name, *rest = line.split()
        fields = dict(f.split("=") for f in rest)
        found[name] = (int(fields["crtc"]), int(fields["active"]))
    return found


def users(guest):
    """Group kiosk with /run/kiosk (0750, as the unit's RuntimeDirectory= makes it), a user `member` in the
    group (a supplementary group: the peer check reads it with getgrouplist) and a user `outsider`."""
    if state.get("users"):
        return
    guest.run("getent group kiosk || groupadd kiosk", timeout=30).check()
    guest.run("id member || useradd -M -G kiosk member", timeout=30).check()
    guest.run("id outsider || useradd -M outsider", timeout=30).check()
    guest.run("mkdir -p /run/kiosk && chgrp kiosk /run/kiosk && chmod 0750 /run/kiosk", timeout=30).check()
    state["users"] = True


def start(guest, rotate=""):
    """The kiosk on both heads (1280x800 and 1024x768), its socket at the default path."""
    users(guest)
    if "Virtual-2 connected" not in guest.run("drmframe --list", timeout=30).stdout:
        guest.set_head_size(1, 1024, 768)
        wait_until(lambda: "Virtual-2 connected" in guest.run("drmframe --list", timeout=30).stdout, "Virtual-2 connected")
    process, trace = run_kiosk(guest, f"--backend drm --mode Virtual-1=1280x800 --mode Virtual-2=1024x768 {rotate}", env=UNIT)
    state.update(process=process, trace=trace)
    wait_for_frames(trace, ["Virtual-1", "Virtual-2"])
    wait_until(lambda: guest.run(f"test -S {SOCKET}", timeout=30).ok, "the control socket")


def kiosk_cli(guest, args, user=None, timeout=60):
    prefix = f"runuser -u {user} -- " if user else ""
    return guest.run(f"{prefix}{KIOSK} {args}", timeout=timeout)


def client_script(guest, name, body):
    """Runs a Python client in the guest (the socket is the guest's); its last stdout line is JSON."""
    path = Path(guest.job_dir) / f"{name}.py"
    path.write_text(CLIENT_HELPERS + body)
    r = guest.run(f"{PYTHON} {guest.guest_path(path)}", timeout=180)
    expect(r.ok, r)
    return json.loads(r.stdout.strip().splitlines()[-1])


CLIENT_HELPERS = f'''
import json, os, random, socket, sys, threading, time
SOCKET = "{SOCKET}"

def connect():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(30)
    s.connect(SOCKET)
    return s

def read_line(s, buffer):
    while b"\\n" not in buffer[0]:
        try:
            chunk = s.recv(65536)
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            return None
        buffer[0] += chunk
    line, buffer[0] = buffer[0].split(b"\\n", 1)
    return line.decode()

def ask(s, request, buffer):
    s.sendall(json.dumps(request).encode() + b"\\n")
    return json.loads(read_line(s, buffer))
'''


def check_status_for_root_and_a_member_of_the_group(guest):
    start(guest)
    r = kiosk_cli(guest, "status --json")
    expect(r.ok, r)
    status = json.loads(r.stdout)
    screens = {s["name"]: s for s in status["screens"]}
    expect(status["backend"] == "drm" and set(screens) >= {"Virtual-1", "Virtual-2"}, status)
    expect(screens["Virtual-1"]["mode"].startswith("1280x800@") and screens["Virtual-2"]["mode"].startswith("1024x768@"), screens)
    expect(all(screens[n]["power"] == "on" and screens[n]["frames"] > 0 for n in ("Virtual-1", "Virtual-2")), screens)
    expect(status["inputs"] is not None, "no input backend beside DRM")
    member = kiosk_cli(guest, "status", user="member")
    expect(member.ok and "Virtual-2  on  1024x768@" in member.stdout, member)
    # The round trip: one connection, 50 requests; and the whole `kiosk status` process.
    timing = client_script(guest, "timing", '''
s = connect(); b = [b""]; status = []; shots = []
for _ in range(50):
    t = time.monotonic(); answer = ask(s, {"command": "status"}, b); status.append(time.monotonic() - t)
    assert answer["ok"], answer
# Screenshots, each while another connection asks for the status: the PNG is made off the main queue.
during = []
for _ in range(5):
    done = threading.Event()
    def watch():
        o = connect(); ob = [b""]
        while not done.is_set():
            t = time.monotonic(); ask(o, {"command": "status"}, ob); during.append(time.monotonic() - t)
    watcher = threading.Thread(target=watch); watcher.start()
    t = time.monotonic(); answer = ask(s, {"command": "screenshot"}, b); shots.append(time.monotonic() - t)
    done.set(); watcher.join()
    assert answer["ok"], answer
print(json.dumps(dict(status=status, shots=shots, png=len(answer["png"]), during=during)))
''')
    process = [kiosk_cli(guest, "status").duration for _ in range(5)]
    status = timing["status"]
    note(f"status round trip in the guest: median {statistics.median(status) * 1000:.2f} ms, max {max(status) * 1000:.2f} ms "
         f"over 50 on one connection; `kiosk status` as a process (agent round trip included): median "
         f"{statistics.median(process) * 1000:.0f} ms; a 1280x800 screenshot: median "
         f"{statistics.median(timing['shots']) * 1000:.0f} ms for {timing['png']} bytes of Base64, another "
         f"connection's status meanwhile: median {statistics.median(timing['during']) * 1000:.1f} ms, slowest "
         f"{max(timing['during']) * 1000:.0f} ms")


def check_power_off_and_on_through_the_socket_leaves_head_0_alone(guest):
    if "process" not in state:
        start(guest)
    avoid_the_minute(guest, 8)
    before = crtcs(guest)
    expect(before["Virtual-1"][1] == 1 and before["Virtual-2"][1] == 1, before)
    head0 = image.load(guest.screendump(0))
    frames0 = len(events("frame", "Virtual-1"))
    r = kiosk_cli(guest, "power off --screen Virtual-2")
    expect(r.ok and r.stdout == "Virtual-2 off\n", r)
    off = wait_until(lambda: [e for e in events("screen.power") if e["power"] == "off"], "screen.power off")
    expect(off == [{"event": "screen.power", "screen": "Virtual-2", "power": "off", "reason": "control"}], off)
    time.sleep(1.5)
    now = crtcs(guest)
    expect(now["Virtual-2"] == (before["Virtual-2"][0], 0), f"head 1 not off: {now}")
    expect(now["Virtual-1"] == before["Virtual-1"], f"head 0 touched: {now}")
    expect(len(events("frame", "Virtual-1")) == frames0, f"head 0 got frames: {events('frame', 'Virtual-1')[frames0:]}")
    image.load(guest.screendump(0)).compare(head0).expect()
    dark = kiosk_cli(guest, "screenshot --screen Virtual-2 /tmp/off.png")
    expect(dark.status == 1 and "Virtual-2 is off" in dark.stderr, dark)
    note(f"Virtual-2 off: CRTC {now['Virtual-2'][0]} ACTIVE=0; Virtual-1's CRTC {now['Virtual-1'][0]} active, no frame, same picture")

    frames1 = len(events("frame", "Virtual-2"))
    r = kiosk_cli(guest, "power on")
    expect(r.ok and r.stdout == "Virtual-1 on\nVirtual-2 on\n", r)  # every screen, as each is now
    wait_until(lambda: len(events("frame", "Virtual-2")) > frames1, "a frame on Virtual-2 after power on")
    on = [e for e in events("screen.power") if e["power"] == "on"]
    expect(on == [{"event": "screen.power", "screen": "Virtual-2", "power": "on", "reason": "control"}], on)
    time.sleep(0.5)
    expect(crtcs(guest)["Virtual-2"][1] == 1, crtcs(guest))


def screenshots_match_the_screendumps(guest, label):
    avoid_the_minute(guest, 10)
    for head, name in enumerate(("Virtual-1", "Virtual-2")):
        _, said = screenshot_is_the_screendump(guest, head, name, Path(guest.job_dir) / f"shot-{label}-{name}.png")
        note(f"{label}: {said} = screendump of head {head}")


def check_screenshots_are_the_screendumps_at_rotation_0(guest):
    if "process" not in state:
        start(guest)
    screenshots_match_the_screendumps(guest, "rotation-0")


def check_the_socket_survives_bad_clients(guest):
    if "process" not in state:
        start(guest)
    result = client_script(guest, "abuse", '''
results = {}
def silent():
    s = connect(); t = time.monotonic(); b = [b""]
    results["silent"] = (read_line(s, b), read_line(s, b), time.monotonic() - t)
quiet = threading.Thread(target=silent); quiet.start()

# Random bytes (lines of them), then a request on the same connection.
s = connect(); b = [b""]
rng = random.Random(16)
data = bytes(rng.randrange(256) for _ in range(200000))
s.sendall(data + b"\\n")
# Every line is answered, an empty one too (it was skipped, and its client waited).
expected = len(data.split(b"\\n"))
errors = [read_line(s, b) for _ in range(expected)]
results["random"] = dict(lines=expected, errors=sum('"ok":false' in (e or "") for e in errors),
                         after=ask(s, {"command": "status"}, b)["ok"])
s.sendall(b"\\n")
results["empty"] = read_line(s, b)
s.close()

# An endless line: one error, then the end of the connection.
s = connect(); b = [b""]
try:
    for _ in range(64):
        s.sendall(b"x" * 16384)
except (BrokenPipeError, ConnectionResetError):
    pass
results["endless"] = (read_line(s, b), read_line(s, b))
s.close()

# 200 clients at once.
clients = [connect() for _ in range(200)]
for c in clients:
    c.sendall(b'{"command":"status"}\\n')
answers = [read_line(c, [b""]) for c in clients]
results["clients"] = sum(json.loads(a)["ok"] for a in answers if a)
for c in clients:
    c.close()

# A client that asks and never reads (20 requests every 5 ms until it is dropped), while another asks and
# is answered.
greedy = connect()
def flood():
    sent = 0
    try:
        for _ in range(2000):
            greedy.sendall(b'{"command":"status"}\\n' * 20); sent += 20; time.sleep(0.005)
    except (BrokenPipeError, ConnectionResetError):
        pass
    results["greedy_sent"] = sent
flooding = threading.Thread(target=flood); flooding.start()
other = connect(); b = [b""]; times = []
for _ in range(50):
    t = time.monotonic(); ok = ask(other, {"command": "status"}, b)["ok"]; times.append(time.monotonic() - t)
    time.sleep(0.01)
flooding.join()
got = 0; b = [b""]
while read_line(greedy, b) is not None:
    got += 1
results["greedy"] = dict(sent=results["greedy_sent"], answers_read=got, slowest_other_ms=max(times) * 1000,
                         median_other_ms=sorted(times)[25] * 1000)
quiet.join()
print(json.dumps(results))
''')
    random_lines = result["random"]
    expect(random_lines["errors"] == random_lines["lines"] and random_lines["after"], random_lines)
    expect(result["empty"] == '{"ok":false,"error":"an empty line is no request; a request is a JSON object on one line, '
           'e.g. {\\"command\\":\\"status\\"}"}', result["empty"])
    endless = result["endless"]
    expect(endless[0] == '{"ok":false,"error":"a request longer than 65536 bytes; closing the connection"}' and endless[1] is None, endless)
    expect(result["clients"] == 200, result["clients"])
    greedy = result["greedy"]
    expect(greedy["answers_read"] < greedy["sent"] < 40000, f"the client that never reads was not dropped: {greedy}")
    # Others wait for a turn of its requests at most (16 of them), not for all of them (8.8 s without the limit).
    expect(greedy["slowest_other_ms"] < 5000, greedy)
    first, second, elapsed = result["silent"]
    expect(first == '{"ok":false,"error":"closed after 10 s without a request"}' and second is None, result["silent"])
    expect(9.5 <= elapsed <= 20, f"the silent client was closed after {elapsed:.1f} s")
    r = kiosk_cli(guest, "status --json")
    expect(r.ok and state["process"].running, r)
    note(f"random bytes: {random_lines['lines']} lines, each an error, then answered; an empty line answered; endless line closed at 64 KiB; "
         f"silent client closed after {elapsed:.1f} s; 200 clients answered; a client that never read was dropped "
         f"after asking {greedy['sent']} times ({greedy['answers_read']} answers were in its socket), another's round "
         f"trip meanwhile median {greedy['median_other_ms']:.1f} ms, slowest {greedy['slowest_other_ms']:.0f} ms")


def check_without_clients_the_socket_costs_nothing(guest):
    """With the socket open and no client the kiosk is idle: no CPU, no wake-up, measured right after 50
    clients came and went (their idle timers, 10 s, were cancelled as they left: none may wake it)."""
    if "process" not in state:
        start(guest)
    avoid_the_minute(guest, 40)
    with measure.Sampler(guest) as sampler:
        before = sampler.idle_cpu(state["process"].pid, seconds=6)
        answered = client_script(guest, "come-and-go", '''
clients = [connect() for _ in range(50)]
for c in clients:
    c.sendall(b'{"command":"status"}\\n')
ok = sum(json.loads(read_line(c, [b""]))["ok"] for c in clients)
for c in clients:
    c.close()
print(json.dumps(ok))
''')
        expect(answered == 50, answered)
        cpu = sampler.idle_cpu(state["process"].pid, seconds=12)
    expect(before.idle, f"not idle before the clients came: {before}")
    expect(cpu.idle, cpu)
    note(f"12 s after 50 clients left: {cpu.cpu_ms} ms of CPU, {cpu.context_switches} context switches")


def check_a_user_outside_the_group_is_refused(guest):
    if "process" not in state:
        start(guest)
    r = kiosk_cli(guest, "status", user="outsider")
    expect(r.status == 3 and f"permission denied on {SOCKET}" in r.stderr, r)
    # With the folder and the socket opened to everyone, the peer check still refuses them.
    guest.run(f"chmod 0755 /run/kiosk && chmod 0666 {SOCKET}", timeout=30).check()
    try:
        r = kiosk_cli(guest, "power off", user="outsider")
        uid = guest.run("id -u outsider", timeout=30).check().stdout.strip()
        # The same status as when the folder's permissions keep them out: this user may not ask, either way.
        expect(r.status == 3 and r.stderr == f"kiosk power: not allowed: uid {uid} is not root, not the kiosk's user and not a "
               "member of the group kiosk\n", r)
        expect(all(e["power"] != "off" or e["screen"] == "Virtual-2" for e in events("screen.power")), events("screen.power"))
    finally:
        guest.run(f"chmod 0750 /run/kiosk && chmod 0660 {SOCKET}", timeout=30).check()
    r = kiosk_cli(guest, "status", user="member")
    expect(r.ok, r)


def check_screenshots_are_the_screendumps_at_rotation_90(guest):
    if "process" in state:
        stop(state.pop("process"))
        expect(not guest.run(f"test -e {SOCKET}", timeout=30).ok, "the socket was left behind")
    start(guest, "--rotate Virtual-1=90")
    screenshots_match_the_screendumps(guest, "rotation-90")


def check_sigterm_stops_it_and_removes_the_socket(guest):
    if "process" not in state:
        start(guest)
    stop(state.pop("process"))
    expect(not guest.run(f"test -e {SOCKET}", timeout=30).ok, "the socket was left behind")
    r = kiosk_cli(guest, "status")
    expect(r.status == 3 and "no kiosk is running here" in r.stderr, r)


def check_a_screens_own_idle_timeout_blanks_that_screen_alone(guest):
    """`[screens.Virtual-2] idle-timeout = 4` with no global one: head 1 goes off (its CRTC inactive) after
    4 s without input, head 0 stays on, and `kiosk status` says so."""
    if "process" in state:
        stop(state.pop("process"))
    users(guest)
    config = Path(guest.job_dir) / "own-idle-timeout.toml"
    config.write_text("idle-timeout = 0\n\n[screens.Virtual-2]\nidle-timeout = 4\n")
    process, trace = run_kiosk(
        guest, f"--backend drm --config {guest.guest_path(config)} --mode Virtual-1=1280x800 --mode Virtual-2=1024x768", env=UNIT)
    state.update(process=process, trace=trace)
    wait_for_frames(trace, ["Virtual-1", "Virtual-2"])
    off = wait_until(lambda: [e for e in events("screen.power") if e["power"] == "off"], "screen.power off", timeout=60)
    expect(off == [{"event": "screen.power", "screen": "Virtual-2", "power": "off", "reason": "idle for 4 s"}], off)
    time.sleep(3)
    now = crtcs(guest)
    expect(now["Virtual-2"][1] == 0 and now["Virtual-1"][1] == 1, f"expected head 1 alone off: {now}")
    expect(len(events("screen.power")) == 1, events("screen.power"))
    r = kiosk_cli(guest, "status --json")
    expect(r.ok, r)
    power = {s["name"]: s["power"] for s in json.loads(r.stdout)["screens"]}
    expect(power.get("Virtual-1") == "on" and power.get("Virtual-2") == "off", power)
    stop(state.pop("process"))
    note(f"[screens.Virtual-2] idle-timeout = 4: Virtual-2's CRTC {now['Virtual-2'][0]} ACTIVE=0, Virtual-1's still active")


def check_a_kiosk_run_by_hand_is_found_without_a_socket_path(guest):
    """Not under systemd (no RUNTIME_DIRECTORY), as scripts/run runs it: root without XDG_RUNTIME_DIR (sudo,
    this guest's agent) listens in /tmp/kiosk-0, a folder of its own (0700); a user in a session in its
    XDG_RUNTIME_DIR. `kiosk status` finds each without --socket, and one that finds none says where it looked."""
    if "process" in state:
        stop(state.pop("process"))
    users(guest)
    expect(not guest.run(f"test -e {SOCKET}", timeout=30).ok, "a socket is left at /run/kiosk/control")
    process, _ = run_kiosk(guest, "--backend headless --snapshot-dir /tmp/by-hand-root")
    try:
        wait_until(lambda: guest.run("test -S /tmp/kiosk-0/control", timeout=30).ok, "the socket in /tmp/kiosk-0")
        expect(guest.run("stat -c %a:%u /tmp/kiosk-0", timeout=30).check().stdout.strip() == "700:0", "/tmp/kiosk-0 not 0700 root's")
        r = kiosk_cli(guest, "status --json")
        expect(r.ok and json.loads(r.stdout)["backend"] == "headless", r)
        expect("control socket /tmp/kiosk-0/control (no XDG_RUNTIME_DIR: in a folder of its user's own; only root reaches it); "
               "kiosk status, power, brightness, screenshot and reload find it" in process.stderr_so_far(), process.stderr_so_far())
    finally:
        stop(process)

    uid = guest.run("id -u member", timeout=30).check().stdout.strip()
    gid = guest.run("id -g member", timeout=30).check().stdout.strip()
    runtime = f"/run/user/{uid}"
    guest.run(f"mkdir -p {runtime} && chown member {runtime} && chmod 0700 {runtime}", timeout=30).check()
    as_member = f"runuser -u member -- env XDG_RUNTIME_DIR={runtime}"
    # setpriv execs the kiosk (runuser would stay its parent and die of the SIGTERM it passes on).
    member = guest.spawn(f"exec setpriv --reuid={uid} --regid={gid} --init-groups env XDG_RUNTIME_DIR={runtime} "
                         f"{KIOSK} run --backend headless --snapshot-dir /tmp/by-hand-member --exit-after 300")
    try:
        wait_until(lambda: guest.run(f"test -S {runtime}/kiosk-control", timeout=30).ok, "the socket in XDG_RUNTIME_DIR",
                   60, lambda: member.stderr_so_far()[-2000:])
        r = guest.run(f"{as_member} {KIOSK} power off", timeout=60)
        expect(r.ok and r.stdout == "HEADLESS-1 off\n", r)
        # Root without XDG_RUNTIME_DIR looks elsewhere, and says where.
        r = kiosk_cli(guest, "status")
        expect(r.status == 3 and r.stderr == "kiosk status: no kiosk is running here: none of /run/kiosk/control, "
               "/tmp/kiosk-0/control exists (a kiosk makes its socket at the first of them that applies to it; --socket "
               "or control-socket names another)\n", r)
    finally:
        member.signal(signal.SIGTERM, group=False)
        result = member.wait(30)
    expect(result.status == 0, result)
    expect(not guest.run(f"test -e {runtime}/kiosk-control", timeout=30).ok, "the member's socket was left behind")
    note(f"by hand: root's kiosk in /tmp/kiosk-0/control, member's in {runtime}/kiosk-control, each found by kiosk status")
