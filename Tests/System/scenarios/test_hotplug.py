"""Host-driven hotplug of head 1 (RFB SetDesktopSize) gives real HOTPLUG=1 uevents on card0 in the guest."""

import time

from kioskvm import drm
from kioskvm.scenario import expect

GUEST = dict(heads=2)

monitor = None      # `udevadm monitor`, spawned by the first check, read by the others


def start_monitor(guest):
    """Start `udevadm monitor` once (any check may come first with -k)."""
    global monitor
    if monitor is None:
        monitor = guest.spawn("udevadm monitor --kernel --udev --property --subsystem-match=drm")
        # udevadm prints each "X - ..." line after that monitor's socket is bound, so once the KERNEL
        # line is out no uevent can be missed.
        monitor.wait_for_output(r"^KERNEL - the kernel uevent$", 60)
    return monitor


def hotplugs(source: str = "KERNEL") -> list:
    """HOTPLUG=1 events on card0 seen so far by the monitor."""
    return [e for e in drm.parse_udevadm_monitor(monitor.stdout_so_far())
            if e.source == source and e.props.get("HOTPLUG") == "1"
            and e.props.get("DEVNAME") == "/dev/dri/card0" and e.props.get("ACTION") == "change"]


def wait_hotplugs(count: int, source: str = "KERNEL", timeout: float = 60.0) -> list:
    deadline = time.monotonic() + timeout
    while True:
        events = hotplugs(source)
        if len(events) >= count:
            return events
        if time.monotonic() > deadline:
            raise AssertionError(f"{len(events)} {source} HOTPLUG=1 events on card0 within {timeout} s, "
                                 f"wanted {count}; monitor saw:\n{monitor.stdout_so_far()[-1500:]}")
        time.sleep(0.05)


def check_monitor_started(guest):
    start_monitor(guest)
    expect(not hotplugs(), "HOTPLUG events before any hotplug")


def check_connect_head1_emits_kernel_hotplug(guest):
    start_monitor(guest)
    answer = guest.set_head_size(1, 1024, 768)
    expect(answer == "ok", f"QEMU's answer to SetDesktopSize: {answer}")
    ev = wait_hotplugs(1)[0]
    expect(ev.props.get("SUBSYSTEM") == "drm" and ev.header.startswith("change"), ev)


def check_udev_forwards_hotplug(guest):
    # What libudev listeners (the kiosk) receive: the same event after rule processing, seat-tagged.
    ev = wait_hotplugs(1, "UDEV")[0]
    expect(":master-of-seat:" in ev.props.get("TAGS", ""), f"TAGS: {ev.props.get('TAGS')}")


def check_virtual2_connected_1024x768(guest):
    conns = drm.connectors(guest)        # a real re-probe; sysfs status may still be stale
    v2 = conns["Virtual-2"]
    expect(v2.connected, f"Virtual-2 is {v2.status}")
    expect((1024, 768) in v2.modes, f"no 1024x768 in {v2.modes}")
    expect(v2.preferred == (1024, 768), f"preferred {v2.preferred}")
    v1 = conns["Virtual-1"]
    expect(v1.connected and v1.preferred == (1280, 800), f"Virtual-1 changed: {v1}")


def check_resize_head1_emits_hotplug(guest):
    start_monitor(guest)
    before = len(hotplugs())
    guest.set_head_size(1, 800, 600)
    wait_hotplugs(before + 1)
    v2 = drm.connectors(guest)["Virtual-2"]
    expect(v2.connected and v2.preferred == (800, 600), f"Virtual-2 after resize: {v2}")


def check_disconnect_head1_emits_hotplug(guest):
    start_monitor(guest)
    before = len(hotplugs())
    guest.disconnect_head(1)
    wait_hotplugs(before + 1)


def check_virtual2_disconnected_again(guest):
    conns = drm.connectors(guest)
    expect(conns["Virtual-2"].status == "disconnected", f"Virtual-2 is {conns['Virtual-2'].status}")
    expect(conns["Virtual-1"].connected, "Virtual-1 went away too")
