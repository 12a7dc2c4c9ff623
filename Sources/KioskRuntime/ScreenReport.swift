import DRM
import DRMDisplay
import Foundation

/// What `kiosk screens` prints: every card and connector with status, every mode (preferred and current
/// marked), physical size and EDID identity.
public struct ScreenReport {
    public struct Card {
        public var path: String
        public var name: String
        public var driver: String?
        public var problem: String?
        public var connectors: [ConnectorEntry]
    }

    public struct ConnectorEntry {
        public var name: String
        public var status: String
        public var modes: [DRMModeInfo]
        public var current: DRMModeInfo?
        public var widthMillimeters: Int
        public var heightMillimeters: Int
        public var edid: EDID?
        public var possibleCRTCs: [UInt32]
        public var panelOrientation: String?
    }

    public var cards: [Card]

    /// Reads `cards` (default: every `/dev/dri/card*`), opening each read-write without becoming its user.
    public static func read(cards paths: [String]? = nil) -> ScreenReport {
        var cards: [Card] = []
        for path in paths ?? DRMCards.nodes() {
            var card = Card(path: path, name: DRMCards.name(of: path), driver: nil, problem: nil, connectors: [])
            do {
                let device = try DRMDevice.open(path: path)
                card.driver = device.driverName
                if let reason = DRMCards.rejection(of: device) {
                    card.problem = reason
                } else {
                    let resources = try device.resources()
                    for id in resources.connectors {
                        let connector = try device.connector(id, crtcs: resources.crtcs)
                        var current: DRMModeInfo?
                        if let encoder = connector.encoderID, let crtc = device.crtc(ofEncoder: encoder) {
                            current = try? device.crtcState(crtc).mode
                        }
                        card.connectors.append(ConnectorEntry(
                            name: connector.name, status: connector.status.rawValue, modes: connector.modes, current: current,
                            widthMillimeters: connector.physicalWidthMillimeters, heightMillimeters: connector.physicalHeightMillimeters,
                            edid: device.edid(of: connector), possibleCRTCs: connector.possibleCRTCs.map(\.rawValue),
                            panelOrientation: connector.property(named: "panel orientation")?.enumName))
                    }
                }
            } catch {
                card.problem = "\(error)"
            }
            cards.append(card)
        }
        return ScreenReport(cards: cards)
    }

    public var text: String {
        var out = ""
        for card in cards {
            out += "\(card.name) (\(card.path)\(card.driver.map { ", \($0)" } ?? ""))\(card.problem.map { ": \($0)" } ?? "")\n"
            for connector in card.connectors {
                var line = "  \(connector.name)  \(connector.status)"
                if connector.widthMillimeters > 0 { line += "  \(connector.widthMillimeters)x\(connector.heightMillimeters) mm" }
                if let edid = connector.edid { line += "  \(edid.make) \(edid.model)\(edid.serial.map { " serial \($0)" } ?? "")" }
                if let orientation = connector.panelOrientation { line += "  panel orientation: \(orientation)" }
                out += line + "\n"
                for mode in connector.modes {
                    var marks: [String] = []
                    if mode.isPreferred { marks.append("preferred") }
                    if let current = connector.current, current == mode { marks.append("current") }
                    out += "    \(Self.spell(mode))\(marks.isEmpty ? "" : "  (\(marks.joined(separator: ", ")))")\n"
                }
            }
        }
        return out
    }

    /// The config file's spelling with three decimals: `1920x1080@60.000`.
    static func spell(_ mode: DRMModeInfo) -> String {
        "\(mode.width)x\(mode.height)@\(String(format: "%.3f", mode.refreshRate))\(mode.isInterlaced ? " interlaced" : "")"
    }

    /// A JSON list of connectors: `card`, `name`, `status`, `modes` (`width`, `height`, `refresh` with three
    /// decimals, `preferred`), `current` (a mode or null), `physical_width_mm`, `physical_height_mm`, and
    /// `edid` (`make`, `model`, `serial`) or null.
    public var json: String {
        var entries: [String] = []
        for card in cards {
            for connector in card.connectors {
                func mode(_ m: DRMModeInfo) -> String {
                    JSONLine([("width", .integer(m.width)), ("height", .integer(m.height)),
                              ("refresh", .raw(String(format: "%.3f", m.refreshRate))), ("preferred", .bool(m.isPreferred)),
                              ("interlaced", .bool(m.isInterlaced))]).text
                }
                let edid = connector.edid.map {
                    JSONLine([("make", .string($0.make)), ("model", .string($0.model)), ("serial", $0.serial.map { .string($0) } ?? .null)]).text
                }
                var line = JSONLine([("card", .string(card.name)), ("name", .string(connector.name)), ("status", .string(connector.status))])
                line.append("modes", .raw("[" + connector.modes.map(mode).joined(separator: ",") + "]"))
                line.append("current", connector.current.map { .raw(mode($0)) } ?? .null)
                line.append("physical_width_mm", .integer(connector.widthMillimeters))
                line.append("physical_height_mm", .integer(connector.heightMillimeters))
                line.append("edid", edid.map { .raw($0) } ?? .null)
                line.append("possible_crtcs", .raw("[" + connector.possibleCRTCs.map(String.init).joined(separator: ",") + "]"))
                line.append("panel_orientation", connector.panelOrientation.map { .string($0) } ?? .null)
                entries.append(line.text)
            }
        }
        return "[" + entries.joined(separator: ",\n ") + "]"
    }
}
