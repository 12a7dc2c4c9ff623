import Foundation
import Geometry
import KioskConfig
import Testing

@testable import KioskBackend

@Suite struct TouchMappingTests {
    static let touchscreen = InputDeviceInfo(
        id: 1, name: "ILITEK ILITEK-TP", sysname: "event5", vendorID: 0x222a, productID: 0x0001, capabilities: .touch,
        size: Size(width: 344, height: 194), udevProperties: ["ID_BUS": "usb", "ID_INPUT_TOUCHSCREEN": "1"],
        paths: [
            "/dev/input/event5", "/sys/devices/pci0000:00/usb1/1-2/input/input7/event5", "pci-0000:00:14.0-usb-0:2:1.0",
            "/dev/input/by-path/pci-0000:00:14.0-usb-0:2:1.0-event",
        ])
    static let screens = [
        TouchMapping.Screen(name: "eDP-1", physicalSize: Size(width: 294, height: 165), isMain: true),
        TouchMapping.Screen(name: "HDMI-A-1", physicalSize: Size(width: 345, height: 195), isMain: false),
        TouchMapping.Screen(name: "HDMI-A-2", physicalSize: nil, isMain: false),
    ]

    static func device(_ change: (inout InputDeviceInfo) -> Void) -> InputDeviceInfo {
        var device = touchscreen
        change(&device)
        return device
    }

    static func rule(_ match: String, _ screen: String, fromCommandLine: Bool = false) -> TouchConfiguration {
        var rule = TouchConfiguration(match: try! TouchConfiguration.Match.parse(match).get(), screen: screen)
        rule.isFromCommandLine = fromCommandLine
        return rule
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var label: String
        var device: InputDeviceInfo
        var rules: [TouchConfiguration] = []
        var screens: [TouchMapping.Screen] = TouchMappingTests.screens
        var screen: String?
        var reason: String
        var testDescription: String { label }
    }

    static let rows: [Row] = [
        Row(
            label: "config glob beats udev", device: device { $0.udevProperties["KIOSK_OUTPUT"] = "HDMI-A-1" },
            rules: [rule("ILITEK*", "HDMI-A-2")], screen: "HDMI-A-2", reason: "config [[touch]] #1 (name \"ILITEK*\")"),
        Row(
            label: "config vendor:product", device: touchscreen,
            rules: [rule("eGalax*", "eDP-1"), rule("222a:0001", "HDMI-A-2")],
            screen: "HDMI-A-2", reason: "config [[touch]] #2 (222a:0001)"),
        Row(
            label: "config by-path link", device: touchscreen,
            rules: [rule("/dev/input/by-path/pci-0000:00:14.0-usb-0:2:1.0-event", "eDP-1")],
            screen: "eDP-1", reason: "config [[touch]] #1 (path /dev/input/by-path/pci-0000:00:14.0-usb-0:2:1.0-event)"),
        Row(
            label: "--touch before the file's rules, which keep their numbers", device: touchscreen,
            rules: [rule("nothing*", "eDP-1", fromCommandLine: true), rule("eGalax*", "eDP-1"), rule("ILITEK*", "HDMI-A-1")],
            screen: "HDMI-A-1", reason: "config [[touch]] #2 (name \"ILITEK*\")"),
        Row(
            label: "--touch wins", device: touchscreen,
            rules: [rule("ILITEK*", "eDP-1", fromCommandLine: true), rule("ILITEK*", "HDMI-A-1")],
            screen: "eDP-1", reason: "--touch (name \"ILITEK*\")"),
        Row(
            label: "a glob on a non-ASCII name matches characters, as the file's check does", device: device { $0.name = "Café Touch" },
            rules: [rule("Caf? Touch", "HDMI-A-2")], screen: "HDMI-A-2", reason: "config [[touch]] #1 (name \"Caf? Touch\")"),
        Row(
            label: "KIOSK_OUTPUT beats WL_OUTPUT",
            device: device {
                $0.udevProperties["KIOSK_OUTPUT"] = "HDMI-A-2"
                $0.udevProperties["WL_OUTPUT"] = "eDP-1"
            },
            screen: "HDMI-A-2", reason: "udev KIOSK_OUTPUT"),
        Row(label: "WL_OUTPUT", device: device { $0.udevProperties["WL_OUTPUT"] = "eDP-1" }, screen: "eDP-1", reason: "udev WL_OUTPUT"),
        Row(
            label: "only screen", device: touchscreen, screens: [.init(name: "HDMI-A-2", physicalSize: nil, isMain: true)],
            screen: "HDMI-A-2", reason: "the only screen"),
        Row(
            label: "integrated to the built-in panel", device: device { $0.udevProperties["ID_BUS"] = "i2c" },
            screen: "eDP-1", reason: "integrated touchscreen on the built-in panel"),
        Row(
            label: "ID_INTEGRATION wins over the bus",
            device: device {
                $0.udevProperties["ID_INTEGRATION"] = "external"
                $0.udevProperties["ID_BUS"] = "i2c"
            },
            screen: "HDMI-A-1", reason: "physical size within 5% (344x194 mm)"),
        Row(label: "size within 5%", device: touchscreen, screen: "HDMI-A-1", reason: "physical size within 5% (344x194 mm)"),
        Row(
            label: "size off by more than 5%", device: device { $0.size = Size(width: 400, height: 194) },
            screen: "eDP-1", reason: "the main screen (nothing else matched)"),
        Row(label: "no size", device: device { $0.size = nil }, screen: "eDP-1", reason: "the main screen (nothing else matched)"),
        Row(label: "no screen yet", device: touchscreen, screens: [], screen: nil, reason: "no screen yet"),
    ]

    @Test(arguments: rows)
    func maps(row: Row) {
        let decision = TouchMapping.map(row.device, rules: row.rules, screens: row.screens)
        #expect(decision == TouchMapping.Decision(screen: row.screen, reason: row.reason))
    }
}

@Suite struct TouchTransformTests {
    /// libinput applies the calibration matrix to the normalized position: (a*x + b*y + c, d*x + e*y + f).
    static func calibrated(_ x: Double, _ y: Double, _ m: [Double]) -> (Double, Double) {
        (m[0] * x + m[1] * y + m[2], m[3] * x + m[4] * y + m[5])
    }

    static let identity: [Double] = [1, 0, 0, 0, 1, 0]
    /// CONVENTIONS: 90° clockwise is 0 -1 1 1 0 0, 180° is -1 0 1 0 -1 1, 270° is 0 1 0 -1 0 1.
    static let matrices: [[Double]] = [identity, [0, -1, 1, 1, 0, 0], [-1, 0, 1, 0, -1, 1], [0, 1, 0, -1, 0, 1]]

    /// For every rotation and panel size: the point that a finger touches on the panel (physical) comes
    /// out where the compositor draws that logical point, so the touch is under the finger.
    @Test(arguments: Rotation.allCases, [Size(width: 1280, height: 800), Size(width: 800, height: 1280), Size(width: 1920, height: 1080)])
    func aTouchLandsWhereThatPixelIsDrawn(rotation: Rotation, panel: Size) {
        let logical = rotation.logicalSize(forPhysical: panel)
        for p in [
            Point(x: 0.5, y: 0.5), Point(x: 10.5, y: 20.5), Point(x: logical.width - 3.5, y: 7.5),
            Point(x: 100.25, y: logical.height - 1.5),
        ] {
            // The compositor draws logical p at this panel position; the finger touches it there.
            let onPanel = rotation.physicalPoint(fromLogical: p, logicalSize: logical)
            let point = TouchTransform.screenPoint(
                normalizedX: onPanel.x / panel.width, y: onPanel.y / panel.height,
                panelSize: panel, rotation: rotation)
            #expect(abs(point.x - p.x) < 1e-9 && abs(point.y - p.y) < 1e-9, "\(rotation) \(panel) \(p) -> \(point)")
        }
    }

    /// A digitizer mounted turned by 90/180/270 degrees, fixed by the calibration matrix libinput applies,
    /// on a rotated screen: still under the finger.
    @Test(arguments: Rotation.allCases, [0, 1, 2, 3])
    func calibrationAndRotationTogether(rotation: Rotation, digitizerTurns: Int) {
        let panel = Size(width: 1280, height: 800)
        let logical = rotation.logicalSize(forPhysical: panel)
        let matrix = Self.matrices[digitizerTurns]
        for p in [Point(x: 5.5, y: 6.5), Point(x: logical.width / 3, y: logical.height * 0.75)] {
            let onPanel = rotation.physicalPoint(fromLogical: p, logicalSize: logical)
            let truth = (onPanel.x / panel.width, onPanel.y / panel.height)
            // The raw digitizer reports the panel position turned by the mounting; find the raw value whose
            // calibrated form is the truth by inverting the (orthogonal) matrix.
            let raw = Self.rawFor(truth, matrix)
            let (x, y) = Self.calibrated(raw.0, raw.1, matrix)
            let point = TouchTransform.screenPoint(normalizedX: x, y: y, panelSize: panel, rotation: rotation)
            #expect(abs(point.x - p.x) < 1e-6 && abs(point.y - p.y) < 1e-6)
        }
    }

    static func rawFor(_ target: (Double, Double), _ m: [Double]) -> (Double, Double) {
        // Solve [a b; d e] [x y] = target - [c f].
        let (tx, ty) = (target.0 - m[2], target.1 - m[5])
        let det = m[0] * m[4] - m[1] * m[3]
        return ((m[4] * tx - m[1] * ty) / det, (m[0] * ty - m[3] * tx) / det)
    }
}
