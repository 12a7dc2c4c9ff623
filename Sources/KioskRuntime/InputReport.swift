import Foundation
import KioskKit
import LibInput

/// What `kiosk inputs` prints: every input device of the seat with its capabilities, size, the udev
/// properties that decide its mapping, and the screen it maps to and why (the runtime's own policy).
public struct InputReport {
    public struct Entry {
        public var sysname: String
        public var devnode: String?
        public var name: String
        public var vendorID: UInt32
        public var productID: UInt32
        public var capabilities: [String]
        public var size: Size?
        public var udev: [(String, String)]
        public var calibration: [Float]
        public var screen: String?
        public var reason: String?
    }

    public var entries: [Entry]
    /// The udev properties worth showing: the ones the mapping reads, and the ones a person sets.
    static let shownProperties = ["ID_INPUT_TOUCHSCREEN", "ID_INPUT_TABLET", "ID_INPUT_MOUSE", "ID_INPUT_KEYBOARD", "ID_SEAT",
                                  "ID_BUS", "ID_INTEGRATION", "ID_PATH", "KIOSK_OUTPUT", "WL_OUTPUT",
                                  "LIBINPUT_CALIBRATION_MATRIX", "LIBINPUT_IGNORE_DEVICE"]

    /// Reads the devices of `seat` (opened directly: run as root or in the `input` group) and maps the
    /// absolute ones against `screens`.
    @MainActor
    public static func read(seat: String, screens: [TouchMapping.Screen], rules: [TouchMapping.Rule]) throws -> InputReport {
        let input = try LibInput(seat: seat, openDevice: LibInput.openDirectly, closeDevice: LibInput.closeDirectly)
        try input.dispatch()
        var entries: [Entry] = []
        for case .deviceAdded(let device) in input.events() {
            var entry = Entry(sysname: device.sysname, devnode: device.devnode, name: device.name, vendorID: device.vendorID,
                              productID: device.productID, capabilities: capabilityNames(device.capabilities),
                              size: device.size.map { Size(width: $0.width, height: $0.height) },
                              udev: shownProperties.compactMap { key in device.udevProperties[key].map { (key, $0) } },
                              calibration: device.hasCalibrationMatrix ? device.calibrationMatrix : [], screen: nil, reason: nil)
            if device.capabilities.contains(.touch) || device.capabilities.contains(.pointer) {
                let decision = TouchMapping.map(TouchMapping.Device(device), rules: rules, screens: screens)
                entry.screen = decision.screen
                entry.reason = decision.reason
            }
            entries.append(entry)
        }
        return InputReport(entries: entries.sorted { Udev_naturalOrder($0.sysname, $1.sysname) })
    }

    static func capabilityNames(_ capabilities: InputDevice.Capabilities) -> [String] {
        let names: [(InputDevice.Capabilities, String)] = [(.keyboard, "keyboard"), (.pointer, "pointer"), (.touch, "touch"),
                                                           (.tabletTool, "tablet-tool"), (.tabletPad, "tablet-pad"),
                                                           (.gesture, "gesture"), (.switch, "switch")]
        return names.filter { capabilities.contains($0.0) }.map(\.1)
    }

    public var text: String {
        guard !entries.isEmpty else { return "no input devices (a kiosk without input runs fine)\n" }
        var out = ""
        for entry in entries {
            var line = "\(entry.sysname)  \"\(entry.name)\"  \(String(format: "%04x:%04x", entry.vendorID, entry.productID))  \(entry.capabilities.joined(separator: ", "))"
            if let size = entry.size { line += "  \(size) mm" }
            out += line + "\n"
            if let devnode = entry.devnode { out += "    node: \(devnode)\n" }
            if !entry.udev.isEmpty { out += "    udev: " + entry.udev.map { "\($0.0)=\($0.1)" }.joined(separator: " ") + "\n" }
            if !entry.calibration.isEmpty { out += "    calibration: \(entry.calibration.map { String($0) }.joined(separator: " "))\n" }
            if let reason = entry.reason { out += "    maps to \(entry.screen ?? "no screen") (\(reason))\n" }
        }
        return out
    }

    public var json: String {
        let items = entries.map { entry -> String in
            var line = JSONLine([("sysname", .string(entry.sysname)), ("devnode", entry.devnode.map { .string($0) } ?? .null),
                                 ("name", .string(entry.name)), ("vendor", .string(String(format: "%04x", entry.vendorID))),
                                 ("product", .string(String(format: "%04x", entry.productID)))])
            line.append("capabilities", .raw("[" + entry.capabilities.map(JSONLine.quote).joined(separator: ",") + "]"))
            line.append("size_mm", entry.size.map { .raw(JSONLine([("width", .number($0.width)), ("height", .number($0.height))]).text) } ?? .null)
            line.append("udev", .raw(JSONLine(entry.udev.map { ($0.0, JSONLine.Value.string($0.1)) }).text))
            line.append("calibration", entry.calibration.isEmpty ? .null : .raw("[" + entry.calibration.map { String($0) }.joined(separator: ",") + "]"))
            line.append("screen", entry.screen.map { .string($0) } ?? .null)
            line.append("reason", entry.reason.map { .string($0) } ?? .null)
            return line.text
        }
        return "[" + items.joined(separator: ",\n ") + "]"
    }
}

import Udev

/// Natural order of sysnames (event2 before event10).
func Udev_naturalOrder(_ a: String, _ b: String) -> Bool { Udev.naturalOrder(a, b) }
