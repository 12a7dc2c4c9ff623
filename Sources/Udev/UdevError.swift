import CUdev
import Glibc

/// An environment error from libudev: a device that vanished, a netlink socket that could not be opened,
/// a monitor whose socket buffer overflowed. It names the C function, the errno and what was asked for:
///
///     udev_device_new_from_syspath("/sys/devices/nope"): No such device (errno 19)
///
/// Programmer errors (an empty subsystem name, a closed monitor) trap instead.
public struct UdevError: Error, CustomStringConvertible {
    /// The C function that failed, e.g. `udev_device_new_from_syspath`.
    public let operation: String
    /// The `errno` value libudev reported (libudev's negative return codes are turned positive).
    public let errno: Int32
    /// What the operation was about, if anything: a syspath, a subsystem, a glob.
    public let detail: String?

    private init(operation: String, errno: Int32, detail: String?) {
        self.operation = operation
        self.errno = errno
        self.detail = detail
    }

    public var description: String {
        let call = detail.map { "\(operation)(\"\($0)\")" } ?? operation
        return "\(call): \(errnoDescription(errno))"
    }

    /// A failed libudev call that reported `code` (a positive errno).
    static func failed(_ operation: String, errno code: Int32, detail: String? = nil) -> UdevError {
        UdevError(operation: operation, errno: code, detail: detail)
    }
}

/// `strerror` text with the number, e.g. `No such device (errno 19)`. (The symbolic name would need
/// `strerrorname_np`, which Swift's Glibc module hides behind `_GNU_SOURCE` and musl lacks.)
func errnoDescription(_ code: Int32) -> String {
    if code == 0 { return "failed without setting errno" }
    return "\(String(cString: strerror(code))) (errno \(code))"
}

// MARK: - libudev's return conventions, one helper each

/// Constructors (`udev_new`, `udev_enumerate_new`, `udev_device_new_from_syspath`,
/// `udev_monitor_new_from_netlink`) return NULL and set `errno`. `errno` is cleared first so a stale value
/// from an earlier call is never reported; a NULL without errno is reported as `ENOMEM`, the only
/// failure libudev leaves unexplained (an allocation inside the library).
func udevCreate(
    _ operation: String, detail: String? = nil,
    _ body: () -> OpaquePointer?
) throws(UdevError) -> OpaquePointer {
    Glibc.errno = 0
    if let pointer = body() { return pointer }
    let code = Glibc.errno
    throw UdevError.failed(operation, errno: code == 0 ? ENOMEM : code, detail: detail)
}

/// Setters and actions (`udev_enumerate_add_match_*`, `udev_enumerate_scan_devices`,
/// `udev_monitor_filter_add_match_subsystem_devtype`, `udev_monitor_enable_receiving`) return `-errno`
/// (systemd's libudev passes sd-device's negative codes through) and 0 or more on success.
func udevCheck(_ result: Int32, _ operation: String, detail: String? = nil) throws(UdevError) {
    if result < 0 { throw UdevError.failed(operation, errno: -result, detail: detail) }
}
