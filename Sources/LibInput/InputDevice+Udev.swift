import CLazyLibInput

extension InputDevice {
    /// Every udev property of the event node: the kernel's (`DEVNAME`, `MAJOR`) plus what udev rules and
    /// the hwdb added when udevd runs (`ID_INPUT_TOUCHSCREEN`, `ID_SEAT`, `WL_OUTPUT`, `KIOSK_OUTPUT`,
    /// `LIBINPUT_CALIBRATION_MATRIX`, `ID_INPUT_WIDTH_MM`). Read now from libudev
    /// (`libinput_device_get_udev_device`, `udev_device_get_properties_list_entry`); empty if libinput
    /// has no udev device for it.
    public var udevProperties: [String: String] {
        withUdevDevice { device in
            var properties: [String: String] = [:]
            var entry = udev_device_get_properties_list_entry(device)
            while let current = entry {
                if let name = udev_list_entry_get_name(current) {
                    properties[String(cString: name)] = udev_list_entry_get_value(current).map { String(cString: $0) } ?? ""
                }
                entry = udev_list_entry_get_next(current)
            }
            return properties
        } ?? [:]
    }

    /// The event node, e.g. `/dev/input/event4` (`libinput_device_get_udev_device`,
    /// `udev_device_get_devnode`).
    public var devnode: String? {
        withUdevDevice { udev_device_get_devnode($0).map { String(cString: $0) } } ?? nil
    }

    /// The event node's directory in sysfs, e.g. `/sys/devices/.../input/input7/event4`
    /// (`libinput_device_get_udev_device`, `udev_device_get_syspath`).
    public var syspath: String? {
        withUdevDevice { udev_device_get_syspath($0).map { String(cString: $0) } } ?? nil
    }

    /// Runs `body` with the device's `struct udev_device *`; libinput returns a new reference each time,
    /// released here (`udev_device_unref`).
    private func withUdevDevice<T>(_ body: (OpaquePointer) -> T) -> T? {
        guard let device = libinput_device_get_udev_device(handle.pointer) else { return nil }
        defer { udev_device_unref(device) }
        return body(device)
    }
}
