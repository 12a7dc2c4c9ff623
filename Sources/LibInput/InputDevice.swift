import CLazyLibInput

/// One input device of a `LibInput` context: a touchscreen, a keyboard, a mouse.
///
/// Every value for the same device shares one reference to it (`libinput_device_ref`, released with
/// `libinput_device_unref` when the last value goes), so values compare equal exactly when they are
/// the same device, and stay usable after `deviceRemoved` (to look up what was mapped to it). A device
/// unplugged and plugged again is a new device. Queries read the device now; only `name` and `sysname`,
/// which never change, are kept.
///
/// Not `Sendable`: libinput is single-threaded, and its devices are used on the thread of their context.
/// A device must not be used after its `LibInput` is released: libinput frees every device with its
/// context whatever their reference counts (libinput.h, `libinput_unref`: "@bug ... the caller must
/// consider any resources related to that context invalid"), so using one then traps; dropping one then
/// is fine.
public struct InputDevice: Hashable, CustomStringConvertible {
    let handle: Handle

    init(_ handle: Handle) {
        self.handle = handle
    }

    /// The device's name as the kernel gives it, e.g. `ILITEK ILITEK-TP` (`libinput_device_get_name`).
    public var name: String { handle.name }

    /// The kernel's name of the event node, e.g. `event4` (`libinput_device_get_sysname`).
    public var sysname: String { handle.sysname }

    /// The USB/Bluetooth vendor id, 0 for virtual devices without one (`libinput_device_get_id_vendor`).
    public var vendorID: UInt32 { libinput_device_get_id_vendor(handle.pointer) }

    /// The product id (`libinput_device_get_id_product`).
    public var productID: UInt32 { libinput_device_get_id_product(handle.pointer) }

    /// What the device can do, as libinput classified it (`libinput_device_has_capability`). A
    /// touchscreen is `.touch`; a touchpad is `.pointer` and `.gesture`.
    public var capabilities: Capabilities {
        Capabilities.all.filter { libinput_device_has_capability(handle.pointer, $0.cCapability) != 0 }
            .reduce(into: []) { $0.insert($1.option) }
    }

    /// The physical size in millimetres, for touchscreens, touchpads and tablets whose axes report a
    /// resolution (`libinput_device_get_size`); nil otherwise. The kernel's resolution comes from the
    /// driver, or from a hwdb/udev `EVDEV_ABS_*` fix for digitizers that report none or a wrong one.
    public var size: (width: Double, height: Double)? {
        var width = 0.0
        var height = 0.0
        guard libinput_device_get_size(handle.pointer, &width, &height) == 0 else { return nil }
        return (width, height)
    }

    /// The output (connector) the device is mapped to: udev's `WL_OUTPUT` property
    /// (`libinput_device_get_output_name`). libinput discourages it in favour of reading udev
    /// properties, which `udevProperties` gives (`KIOSK_OUTPUT`, for instance).
    public var outputName: String? {
        libinput_device_get_output_name(handle.pointer).map { String(cString: $0) }
    }

    public var description: String { "\(sysname) (\(name))" }

    public static func == (lhs: InputDevice, rhs: InputDevice) -> Bool { lhs.handle === rhs.handle }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(handle)) }
}

extension InputDevice {
    /// The kinds of input a device delivers (`enum libinput_device_capability`).
    public struct Capabilities: OptionSet, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        public static let keyboard = Capabilities(rawValue: 1 << 0)
        public static let pointer = Capabilities(rawValue: 1 << 1)
        public static let touch = Capabilities(rawValue: 1 << 2)
        public static let tabletTool = Capabilities(rawValue: 1 << 3)
        public static let tabletPad = Capabilities(rawValue: 1 << 4)
        public static let gesture = Capabilities(rawValue: 1 << 5)
        public static let `switch` = Capabilities(rawValue: 1 << 6)

        /// Each option with its libinput capability and the name `libinput list-devices` prints.
        static let all: [(option: Capabilities, cCapability: libinput_device_capability, name: String)] = [
            (.keyboard, LIBINPUT_DEVICE_CAP_KEYBOARD, "keyboard"),
            (.pointer, LIBINPUT_DEVICE_CAP_POINTER, "pointer"),
            (.touch, LIBINPUT_DEVICE_CAP_TOUCH, "touch"),
            (.tabletTool, LIBINPUT_DEVICE_CAP_TABLET_TOOL, "tablet"),
            (.tabletPad, LIBINPUT_DEVICE_CAP_TABLET_PAD, "tablet-pad"),
            (.gesture, LIBINPUT_DEVICE_CAP_GESTURE, "gesture"),
            (.switch, LIBINPUT_DEVICE_CAP_SWITCH, "switch"),
        ]

        /// The names in libinput's order, space-separated, e.g. `pointer gesture`.
        public var description: String {
            Capabilities.all.filter { contains($0.option) }.map(\.name).joined(separator: " ")
        }
    }
}

/// Whether a context still exists, shared by the context and every device handle it made.
final class ContextLifetime {
    var isAlive = true
}

extension InputDevice {
    /// The one reference to a `libinput_device` shared by all values for it. A `LibInput` makes one per
    /// device when it first sees it and hands the same one out until the device is removed.
    final class Handle {
        /// The `struct libinput_device *`, with a reference of ours while `lifetime` says the context is alive.
        private let device: OpaquePointer
        private let lifetime: ContextLifetime
        let name: String
        let sysname: String

        /// Takes a reference (`libinput_device_ref`) for as long as this handle lives.
        init(_ device: OpaquePointer, lifetime: ContextLifetime) {
            _ = libinput_device_ref(device)
            self.device = device
            self.lifetime = lifetime
            name = libinput_device_get_name(device).map { String(cString: $0) } ?? ""
            sysname = libinput_device_get_sysname(device).map { String(cString: $0) } ?? ""
        }

        /// The device, for a libinput call. Traps once the context is gone (see `InputDevice`).
        var pointer: OpaquePointer {
            precondition(lifetime.isAlive, "InputDevice \(sysname) (\(name)) used after its LibInput was released")
            return device
        }

        deinit {
            // After libinput_unref the device is already freed: unref would write to freed memory.
            if lifetime.isAlive { _ = libinput_device_unref(device) }
        }
    }
}
