import Geometry

/// An input device as an input backend reports it and the router and the mapping policy read it: what
/// libinput and udev say of it, copied out, so the same code runs on libinput and on the in-memory twin.
public struct InputDeviceInfo: Hashable, Sendable, CustomStringConvertible {
    /// What a device can do.
    public struct Capabilities: OptionSet, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        public static let keyboard = Capabilities(rawValue: 1 << 0)
        public static let pointer = Capabilities(rawValue: 1 << 1)
        public static let touch = Capabilities(rawValue: 1 << 2)

        /// `["keyboard", "touch"]`: each capability's name, in this order.
        public var names: [String] {
            [(Self.keyboard, "keyboard"), (.pointer, "pointer"), (.touch, "touch")].filter { contains($0.0) }.map(\.1)
        }

        public var description: String { names.joined(separator: ", ") }
    }

    /// Unique among the devices a backend reports, for the backend's lifetime (a device plugged in again is new).
    public var id: Int
    /// The name the kernel reports (`ILITEK ILITEK-TP`), which `[[touch]] match` globs.
    public var name: String
    /// `event5`.
    public var sysname: String
    public var vendorID: UInt16
    public var productID: UInt16
    public var capabilities: Capabilities
    /// Width and height in millimetres, when the device reports a resolution.
    public var size: Size?
    public var udevProperties: [String: String]
    /// Every path that names it: devnode, syspath, `ID_PATH`, udev's `DEVLINKS`.
    public var paths: [String]

    public init(
        id: Int, name: String, sysname: String, vendorID: UInt16 = 0, productID: UInt16 = 0, capabilities: Capabilities,
        size: Size? = nil, udevProperties: [String: String] = [:], paths: [String] = []
    ) {
        self.id = id
        self.name = name
        self.sysname = sysname
        self.vendorID = vendorID
        self.productID = productID
        self.capabilities = capabilities
        self.size = size
        self.udevProperties = udevProperties
        self.paths = paths
    }

    /// A keyboard one can type with: udev's `ID_INPUT_KEYBOARD` (letter keys), not just any device with
    /// keys (a power button, a remote's volume keys are `ID_INPUT_KEY` only). Without udev's properties
    /// (tests), the keyboard capability.
    public var isTypingKeyboard: Bool {
        guard capabilities.contains(.keyboard) else { return false }
        guard !udevProperties.isEmpty else { return true }
        return udevProperties["ID_INPUT_KEYBOARD"] == "1"
    }

    /// Built into the device (not plugged in): udev's `ID_INTEGRATION=internal`, else a bus that is not
    /// USB or Bluetooth (I2C, SPI, platform devices are panels' digitizers).
    public var isIntegrated: Bool {
        if let integration = udevProperties["ID_INTEGRATION"] { return integration == "internal" }
        guard let bus = udevProperties["ID_BUS"] else { return false }
        return !["usb", "bluetooth", "virtual"].contains(bus)
    }

    /// Touchscreens and pointers get a screen: an absolute pointer (a tablet, QEMU's virtio-tablet, which
    /// udev calls a mouse) maps its 0...1 position onto it.
    public var mapsToAScreen: Bool { capabilities.contains(.touch) || capabilities.contains(.pointer) }

    /// `vvvv:pppp`, as lsusb prints it.
    public var vendorProduct: String { Self.hex(vendorID) + ":" + Self.hex(productID) }

    private static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// `event5 "ILITEK ILITEK-TP" 222a:0001`.
    public var description: String { "\(sysname) \"\(name)\" \(vendorProduct)" }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
