import CUdev

/// A value snapshot of one udev device, taken when it was enumerated, looked up or received from a
/// monitor. It does not change when the device does: take a new one (`Udev.device(syspath:)`) to see
/// the current state. Sysfs attributes are read on demand with `Udev.sysattr(_:ofSyspath:)` instead of
/// being copied here, because reading every attribute of a device costs a file read each.
public struct UdevDevice: Hashable, Sendable, CustomStringConvertible {
    /// The device's directory in sysfs, e.g. `/sys/devices/pci0000:00/0000:00:02.0/drm/card0`
    /// (`udev_device_get_syspath`). Unique per device while it exists.
    public var syspath: String
    /// The kernel's name, the last component of the syspath, e.g. `card0` (`udev_device_get_sysname`).
    public var sysname: String
    /// The device node, e.g. `/dev/dri/card0`, or nil for devices without one such as connectors
    /// (`udev_device_get_devnode`).
    public var devnode: String?
    /// The subsystem, e.g. `drm`, `input` (`udev_device_get_subsystem`).
    public var subsystem: String?
    /// The device type within the subsystem, e.g. `drm_minor` (`udev_device_get_devtype`).
    public var devtype: String?
    /// For devices received from a `UdevMonitor`, what happened: `add`, `remove`, `change`, `bind`,
    /// `unbind`, `move`, `online`, `offline` (`udev_device_get_action`). Nil for enumerated devices.
    public var action: String?
    /// Every udev property: the kernel's uevent variables (`DEVNAME`, `MAJOR`, `HOTPLUG`, `CONNECTOR`)
    /// plus what udev rules added when udevd runs (`ID_SEAT`, `ID_INPUT_TOUCHSCREEN`, `WL_OUTPUT`,
    /// `KIOSK_OUTPUT`, `LIBINPUT_CALIBRATION_MATRIX`) (`udev_device_get_properties_list_entry`).
    /// Without a running udevd (containers, early boot) only the kernel's variables are present.
    public var properties: [String: String]
    /// The syspath of the nearest parent device, e.g. the PCI device of a DRM card
    /// (`udev_device_get_parent`). Nil at the top of the tree.
    public var parentSyspath: String?
    /// The parent device's subsystem, e.g. `pci`, `platform`, `input`.
    public var parentSubsystem: String?

    public init(
        syspath: String, sysname: String, devnode: String? = nil, subsystem: String? = nil,
        devtype: String? = nil, action: String? = nil, properties: [String: String] = [:],
        parentSyspath: String? = nil, parentSubsystem: String? = nil
    ) {
        self.syspath = syspath
        self.sysname = sysname
        self.devnode = devnode
        self.subsystem = subsystem
        self.devtype = devtype
        self.action = action
        self.properties = properties
        self.parentSyspath = parentSyspath
        self.parentSubsystem = parentSubsystem
    }

    /// Copies everything out of a `struct udev_device *`; the caller keeps its reference.
    init(_ device: OpaquePointer) {
        var properties: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(device)
        while let current = entry {
            if let name = udev_list_entry_get_name(current) {
                properties[String(cString: name)] = udev_list_entry_get_value(current).map { String(cString: $0) } ?? ""
            }
            entry = udev_list_entry_get_next(current)
        }
        // udev_device_get_parent returns a reference owned by the child: no unref here.
        let parent = udev_device_get_parent(device)
        self.init(
            syspath: String(cString: udev_device_get_syspath(device)),
            sysname: String(cString: udev_device_get_sysname(device)),
            devnode: udev_device_get_devnode(device).map { String(cString: $0) },
            subsystem: udev_device_get_subsystem(device).map { String(cString: $0) },
            devtype: udev_device_get_devtype(device).map { String(cString: $0) },
            action: udev_device_get_action(device).map { String(cString: $0) },
            properties: properties,
            parentSyspath: parent.flatMap { udev_device_get_syspath($0) }.map { String(cString: $0) },
            parentSubsystem: parent.flatMap { udev_device_get_subsystem($0) }.map { String(cString: $0) })
    }

    public var description: String {
        var text = "\(subsystem ?? "?") \(sysname)"
        if let action { text = "\(action) \(text)" }
        if let devnode { text += " (\(devnode))" }
        return text
    }
}
