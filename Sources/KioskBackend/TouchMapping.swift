import Geometry
import KioskConfig

/// Which screen an absolute input device (touchscreen, tablet) drives: a pure function with a table test.
///
/// First match wins: the configuration's touch rules (the command line's `--touch`, then the file's
/// `[[touch]]`: device name glob, `vendor:product`, or a udev path) > udev `KIOSK_OUTPUT` > udev
/// `WL_OUTPUT` (weston's and wlroots' property) > the only screen > an integrated touchscreen to the
/// built-in panel (eDP, DSI, LVDS, DPI) > a screen whose physical size is within 5% of the device's > the
/// main screen. Every decision carries its reason, for the log and `kiosk inputs`.
public enum TouchMapping {
    /// What the policy needs of a screen.
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

    public static func map(_ device: InputDeviceInfo, rules: [TouchConfiguration], screens: [Screen]) -> Decision {
        if let index = rule(for: device, in: rules) {
            let rule = rules[index]
            let origin = rule.isFromCommandLine ? "--touch" : "config [[touch]] #\(index + 1 - rules.filter(\.isFromCommandLine).count)"
            return Decision(screen: rule.screen, reason: "\(origin) (\(describe(rule.match)))")
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
            let screen = screens.first(where: { $0.physicalSize.map { within5Percent(size, $0) } ?? false })
        {
            return Decision(screen: screen.name, reason: "physical size within 5% (\(size.description) mm)")
        }
        let main = screens.first(where: \.isMain) ?? screens[0]
        return Decision(screen: main.name, reason: "the main screen (nothing else matched)")
    }

    /// The index of the first rule that covers `device`.
    public static func rule(for device: InputDeviceInfo, in rules: [TouchConfiguration]) -> Int? {
        rules.firstIndex { $0.match.matches(name: device.name, vendor: device.vendorID, product: device.productID, paths: device.paths) }
    }

    /// `name "ILITEK*"`, `222a:0001`, `path /dev/input/event3`: how a decision names the rule that made it.
    static func describe(_ match: TouchConfiguration.Match) -> String {
        switch match {
        case .name(let glob): "name \"\(glob)\""
        case .vendorProduct: match.description
        case .path(let path): "path \(path)"
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
