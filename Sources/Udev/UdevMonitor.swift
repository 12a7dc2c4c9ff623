import CUdev
import Glibc

/// A netlink socket that reports devices as they are added, removed or changed (hotplug).
///
/// Put `fileDescriptor` in a `DispatchSource` read source on the main queue and call `receiveAll()`
/// when it fires; there is no thread here. The socket is non-blocking, so `receive()` never waits.
///
/// Like `Udev`, a monitor is for one thread and is not `Sendable`.
public final class UdevMonitor {
    /// Which netlink multicast group to listen to.
    public enum Source: String, Sendable {
        /// Events after udevd has run its rules, with the properties rules add (`ID_SEAT`,
        /// `KIOSK_OUTPUT`, ...). What a kiosk wants. Nothing arrives when udevd is not running (verified
        /// on these machines: the monitor is created and enabled, but stays silent).
        case udev
        /// Raw kernel uevents, before udevd: only the kernel's own variables, and the device node may
        /// not exist yet. Useful without udevd (containers, initramfs) and in tests.
        case kernel
    }

    /// The `struct udev_monitor *`, released in `deinit`.
    private let pointer: OpaquePointer
    /// systemd's libudev monitor stores its context without taking a reference (`.udev = udev` in
    /// `udev_monitor_new_from_netlink`), so the Swift object keeps it alive.
    private let udev: Udev

    /// The socket to watch for readability (`udev_monitor_get_fd`). Owned by the monitor: do not close it;
    /// cancel any `DispatchSource` on it before the monitor goes away.
    public let fileDescriptor: Int32

    /// Starts listening for events of `subsystems` (all subsystems if empty).
    ///
    /// Calls `udev_monitor_new_from_netlink(udev, "udev")` (or `"kernel"`),
    /// `udev_monitor_filter_add_match_subsystem_devtype` per subsystem (filtering happens in the kernel
    /// through a socket filter, so other subsystems never wake the process) and
    /// `udev_monitor_enable_receiving`, then `udev_monitor_get_fd`.
    ///
    /// The socket is made non-blocking with `fcntl(F_SETFL, O_NONBLOCK)` if it is not already:
    /// systemd's libudev documents its monitor socket as non-blocking by default and creates it with
    /// `SOCK_NONBLOCK | SOCK_CLOEXEC` (checked on Debian 12, libudev 252), but other implementations
    /// (eudev, libudev-zero) make no such promise, and a blocking `udev_monitor_receive_device` on the
    /// main actor would freeze the kiosk.
    public init(udev: Udev, subsystems: [String], source: Source = .udev) throws(UdevError) {
        let monitor = try udevCreate("udev_monitor_new_from_netlink", detail: source.rawValue) {
            udev_monitor_new_from_netlink(udev.pointer, source.rawValue)
        }
        do {
            for subsystem in subsystems {
                precondition(!subsystem.isEmpty, "UdevMonitor: empty subsystem name")
                try udevCheck(
                    udev_monitor_filter_add_match_subsystem_devtype(monitor, subsystem, nil),
                    "udev_monitor_filter_add_match_subsystem_devtype", detail: subsystem)
            }
            try udevCheck(
                udev_monitor_enable_receiving(monitor), "udev_monitor_enable_receiving",
                detail: source.rawValue)
            let fd = udev_monitor_get_fd(monitor)
            try udevCheck(fd, "udev_monitor_get_fd")
            let flags = fcntl(fd, F_GETFL)
            precondition(flags >= 0, "fcntl(F_GETFL) on libudev's monitor fd failed: errno \(Glibc.errno)")
            if flags & O_NONBLOCK == 0 {
                let result = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
                precondition(result == 0, "fcntl(F_SETFL, O_NONBLOCK) on libudev's monitor fd failed")
            }
            fileDescriptor = fd
        } catch {
            udev_monitor_unref(monitor)
            throw error
        }
        pointer = monitor
        self.udev = udev
    }

    deinit {
        udev_monitor_unref(pointer)  // closes the socket
    }

    /// The next waiting event, or nil at once when none is waiting (`udev_monitor_receive_device`).
    /// Events of other subsystems are dropped inside libudev and never returned.
    ///
    /// Throws when the socket reports an error. The one to expect is `ENOBUFS`: the kernel dropped
    /// events because the socket buffer was full (libudev asks for a 128 MiB buffer, so this takes a
    /// long stall). Events were lost: re-enumerate with `Udev.devices(...)` instead of trusting
    /// the state built from events.
    public func receive() throws(UdevError) -> UdevDevice? {
        while true {
            Glibc.errno = 0
            if let device = udev_monitor_receive_device(pointer) {
                defer { udev_device_unref(device) }
                return UdevDevice(device)
            }
            // libudev returns NULL both for "nothing waiting" (errno EAGAIN) and for real errors (errno
            // from recvmsg, or ENOMEM); systemd's libudev always sets errno with NULL (return_with_errno
            // in libudev-monitor.c). NULL with errno 0 from another implementation means nothing usable.
            switch Glibc.errno {
            case 0, EAGAIN, EWOULDBLOCK: return nil
            case EINTR: continue
            case let code: throw UdevError.failed("udev_monitor_receive_device", errno: code)
            }
        }
    }

    /// Every event waiting now, oldest first; empty when none (`udev_monitor_receive_device` until it
    /// returns nothing). Call it when the read source fires.
    ///
    /// If an error interrupts the drain, the events already read are discarded with it: after
    /// `ENOBUFS` the caller re-enumerates anyway, which supersedes them.
    public func receiveAll() throws(UdevError) -> [UdevDevice] {
        var devices: [UdevDevice] = []
        while let device = try receive() { devices.append(device) }
        return devices
    }
}
