import CUdev
import Glibc

/// A libudev context: the entry point for looking up and enumerating devices and for creating a
/// `UdevMonitor`.
///
/// libudev contexts are not thread-safe; use one from one thread (the runtime's main actor). The class
/// is deliberately not `Sendable`.
public final class Udev {
    /// The `struct udev *`, released in `deinit`.
    let pointer: OpaquePointer

    /// Creates a context (`udev_new`).
    public init() throws(UdevError) {
        pointer = try udevCreate("udev_new") { udev_new() }
    }

    deinit {
        udev_unref(pointer)
    }

    /// A snapshot of the device at `syspath` (`udev_device_new_from_syspath`).
    ///
    /// Throws `ENODEV` when no such device exists (observed on Debian 12's libudev 252 for
    /// `/sys/devices/nope`), which is also what a device that was just unplugged gives.
    public func device(syspath: String) throws(UdevError) -> UdevDevice {
        let device = try udevCreate("udev_device_new_from_syspath", detail: syspath) {
            udev_device_new_from_syspath(pointer, syspath)
        }
        defer { udev_device_unref(device) }
        return UdevDevice(device)
    }

    /// The current value of the sysfs attribute `name` of the device at `syspath`, e.g. `status` of
    /// `/sys/class/drm/card0-HDMI-A-1` (`udev_device_get_sysattr_value`). Nil when the device or the
    /// attribute does not exist or cannot be read. Trailing newlines are stripped by libudev.
    ///
    /// This reads sysfs now, it is not cached: some attributes (a connector's `status`) stay stale
    /// until a program re-probes the hardware, so do not treat them as the truth.
    public func sysattr(_ name: String, ofSyspath syspath: String) -> String? {
        guard let device = udev_device_new_from_syspath(pointer, syspath) else { return nil }
        defer { udev_device_unref(device) }
        return udev_device_get_sysattr_value(device, name).map { String(cString: $0) }
    }
}
