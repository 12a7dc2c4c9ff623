import Foundation
import KioskKit

/// Which screen an absolute input device (touchscreen, tablet) drives: a pure function with a table test.
///
/// First match wins: the config file's `[[touch]]` rules (device name glob, `vendor:product`, or a udev
/// path) > udev `KIOSK_OUTPUT` > udev `WL_OUTPUT` (weston's and wlroots' property) > the only screen > an
/// integrated touchscreen to the built-in panel (eDP, DSI, LVDS, DPI) > a screen whose physical size is
/// within 5% of the device's > the main screen. Every decision carries its reason, for the log and
/// `kiosk inputs`.
public enum TouchMapping {
    public enum Match: Hashable, Sendable, CustomStringConvertible {
        /// A device name glob (`ILITEK*`).
        case name(String)
        case vendorProduct(vendor: UInt16, product: UInt16)
        /// A udev path: the devnode, a `/dev/input/by-path` or `by-id` link, the syspath, or `ID_PATH`.
        case path(String)

        /// `vvvv:pppp` (hex) is a vendor:product; a path (`/dev/input/...`, `/sys/...`) or an `ID_PATH`
        /// (`pci-...`, `platform-...`, `usb-...`, `acpi-...`) is a path; anything else a name glob.
        public init(parsing text: String) {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            if parts.count == 2, parts.allSatisfy({ $0.count == 4 }), let vendor = UInt16(parts[0], radix: 16),
               let product = UInt16(parts[1], radix: 16) {
                self = .vendorProduct(vendor: vendor, product: product)
            } else if text.hasPrefix("/") || ["pci-", "platform-", "usb-", "acpi-", "virtio-"].contains(where: text.hasPrefix) {
                self = .path(text)
            } else {
                self = .name(text)
            }
        }

        public var description: String {
            switch self {
            case .name(let glob): "name \"\(glob)\""
            case let .vendorProduct(vendor, product): String(format: "%04x:%04x", vendor, product)
            case .path(let path): "path \(path)"
            }
        }
    }

    public struct Rule: Hashable, Sendable {
        public var match: Match
        public var screen: String
        public init(match: Match, screen: String) {
            self.match = match
            self.screen = screen
        }
    }

    /// What the policy needs of a device.
    public struct Device: Sendable {
        public var name: String
        public var vendorID: UInt16
        public var productID: UInt16
        /// Every path that names it: devnode, syspath, `ID_PATH`, udev's `DEVLINKS`.
        public var paths: [String]
        public var udevProperties: [String: String]
        /// Width and height in millimetres, when the device reports a resolution.
        public var size: Size?

        public init(name: String, vendorID: UInt16, productID: UInt16, paths: [String], udevProperties: [String: String], size: Size?) {
            self.name = name
            self.vendorID = vendorID
            self.productID = productID
            self.paths = paths
            self.udevProperties = udevProperties
            self.size = size
        }

        /// Built into the device (not plugged in): udev's `ID_INTEGRATION=internal`, else a bus that is not
        /// USB or Bluetooth (I2C, SPI, platform devices are panels' digitizers).
        public var isIntegrated: Bool {
            if let integration = udevProperties["ID_INTEGRATION"] { return integration == "internal" }
            guard let bus = udevProperties["ID_BUS"] else { return false }
            return !["usb", "bluetooth", "virtual"].contains(bus)
        }
    }

    public struct Screen: Sendable {
        public var name: String
        /// Physical size in millimetres (unrotated), when the display reports it.
        public var physicalSize: Size?
        public var isMain: Bool
        public init(name: String, physicalSize: Size?, isMain: Bool) {
            self.name = name
            self.physicalSize = physicalSize
            self.isMain = isMain
        }

        /// eDP, DSI, LVDS, DPI: a panel built into the device.
        public var isBuiltInPanel: Bool {
            ["eDP-", "DSI-", "LVDS-", "DPI-"].contains { name.hasPrefix($0) }
        }
    }

    public struct Decision: Equatable, Sendable {
        /// The screen's name; nil when there is no screen at all yet.
        public var screen: String?
        public var reason: String
    }

    public static func map(_ device: Device, rules: [Rule], screens: [Screen]) -> Decision {
        for (index, rule) in rules.enumerated() where matches(rule.match, device) {
            return Decision(screen: rule.screen, reason: "config [[touch]] #\(index + 1) (\(rule.match))")
        }
        if let output = device.udevProperties["KIOSK_OUTPUT"], !output.isEmpty {
            return Decision(screen: output, reason: "udev KIOSK_OUTPUT")
        }
        if let output = device.udevProperties["WL_OUTPUT"], !output.isEmpty {
            return Decision(screen: output, reason: "udev WL_OUTPUT")
        }
        guard !screens.isEmpty else { return Decision(screen: nil, reason: "no screen yet") }
        if screens.count == 1 { return Decision(screen: screens[0].name, reason: "the only screen") }
        if device.isIntegrated, let panel = screens.first(where: \.isBuiltInPanel) {
            return Decision(screen: panel.name, reason: "integrated touchscreen on the built-in panel")
        }
        if let size = device.size, size.width > 0, size.height > 0,
           let screen = screens.first(where: { $0.physicalSize.map { within5Percent(size, $0) } ?? false }) {
            return Decision(screen: screen.name, reason: "physical size within 5% (\(size.description) mm)")
        }
        let main = screens.first(where: \.isMain) ?? screens[0]
        return Decision(screen: main.name, reason: "the main screen (nothing else matched)")
    }

    static func matches(_ match: Match, _ device: Device) -> Bool {
        switch match {
        case .name(let glob):
            return fnmatch(glob, device.name, 0) == 0
        case let .vendorProduct(vendor, product):
            return device.vendorID == vendor && device.productID == product
        case .path(let path):
            return device.paths.contains(path)
        }
    }

    private static func within5Percent(_ a: Size, _ b: Size) -> Bool {
        guard b.width > 0, b.height > 0 else { return false }
        return abs(a.width - b.width) <= 0.05 * b.width && abs(a.height - b.height) <= 0.05 * b.height
    }
}

/// Where a touch lands on its screen: libinput's normalized position (0...1 on each axis of the panel,
/// calibration already applied), scaled to the panel's pixels, then turned back through the screen's
/// rotation into the logical points apps see.
public enum TouchTransform {
    public static func screenPoint(normalizedX x: Double, y: Double, panelSize: Size, rotation: Rotation) -> Point {
        let physical = Point(x: x * panelSize.width, y: y * panelSize.height)
        return rotation.logicalPoint(fromPhysical: physical, logicalSize: rotation.logicalSize(forPhysical: panelSize))
    }
}
