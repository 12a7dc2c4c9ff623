import Geometry
import Glibc
import KioskBackend
import KioskConfig
import KioskRuntime
import LibInputBackend
import Udev

/// What `kiosk inputs` prints: every input device of the seat with its capabilities, size, the udev
/// properties that decide its mapping, and the screen it maps to and why (the runtime's own policy).
struct InputReport {
    struct Entry {
        var device: InputDeviceInfo
        var devnode: String?
        var calibration: [Float]
        var decision: TouchMapping.Decision?
    }

    var entries: [Entry]
    /// The udev properties worth showing: the ones the mapping reads, and the ones a person sets.
    static let shownProperties = [
        "ID_INPUT_TOUCHSCREEN", "ID_INPUT_TABLET", "ID_INPUT_MOUSE", "ID_INPUT_KEYBOARD", "ID_SEAT",
        "ID_BUS", "ID_INTEGRATION", "ID_PATH", "KIOSK_OUTPUT", "WL_OUTPUT",
        "LIBINPUT_CALIBRATION_MATRIX", "LIBINPUT_IGNORE_DEVICE",
    ]

    init(devices: [LibInputBackend.ListedDevice], screens: [TouchMapping.Screen], rules: [TouchConfiguration]) {
        entries = devices.map { listed in
            Entry(
                device: listed.info, devnode: listed.devnode, calibration: listed.calibration,
                decision: listed.info.mapsToAScreen ? TouchMapping.map(listed.info, rules: rules, screens: screens) : nil)
        }.sorted { Udev.naturalOrder($0.device.sysname, $1.device.sysname) }
    }

    private static func udev(_ device: InputDeviceInfo) -> [(String, String)] {
        shownProperties.compactMap { key in device.udevProperties[key].map { (key, $0) } }
    }

    var text: String {
        guard !entries.isEmpty else { return "no input devices (a kiosk without input runs fine)\n" }
        var out = ""
        for entry in entries {
            let device = entry.device
            var line = "\(device.sysname)  \"\(device.name)\"  \(device.vendorProduct)  \(device.capabilities)"
            if let size = device.size { line += "  \(size) mm" }
            out += line + "\n"
            if let devnode = entry.devnode { out += "    node: \(devnode)\n" }
            let udev = Self.udev(device)
            if !udev.isEmpty { out += "    udev: " + udev.map { "\($0.0)=\($0.1)" }.joined(separator: " ") + "\n" }
            if !entry.calibration.isEmpty { out += "    calibration: \(entry.calibration.map { String($0) }.joined(separator: " "))\n" }
            if let decision = entry.decision { out += "    maps to \(decision.screen ?? "no screen") (\(decision.reason))\n" }
        }
        return out
    }

    var json: String {
        let items = entries.map { entry -> String in
            let device = entry.device
            let capabilities = device.capabilities.description.split(separator: ",").map { String($0.drop { $0 == " " }) }
            var line = JSONLine([
                ("sysname", .string(device.sysname)), ("devnode", entry.devnode.map { .string($0) } ?? .null),
                ("name", .string(device.name)), ("vendor", .string(String(device.vendorProduct.prefix(4)))),
                ("product", .string(String(device.vendorProduct.suffix(4)))),
            ])
            line.append("capabilities", .raw("[" + capabilities.map(JSONLine.quote).joined(separator: ",") + "]"))
            line.append(
                "size_mm", device.size.map { .raw(JSONLine([("width", .number($0.width)), ("height", .number($0.height))]).text) } ?? .null)
            line.append("udev", .raw(JSONLine(Self.udev(device).map { ($0.0, JSONLine.Value.string($0.1)) }).text))
            line.append(
                "calibration",
                entry.calibration.isEmpty ? .null : .raw("[" + entry.calibration.map { String($0) }.joined(separator: ",") + "]"))
            line.append("screen", entry.decision?.screen.map { .string($0) } ?? .null)
            line.append("reason", entry.decision.map { .string($0.reason) } ?? .null)
            return line.text
        }
        return "[" + items.joined(separator: ",\n ") + "]"
    }
}
