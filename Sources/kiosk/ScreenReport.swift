import CECControl
import DRMDisplay
import KioskRuntime

/// What `kiosk screens` prints: every card and connector with status, every mode (preferred and current
/// marked), physical size, EDID identity, the HDMI-CEC adapter the kernel ties to it and the backlight the
/// kiosk drives for it; then the adapters it ties to no connector (those a `[screens.NAME] cec` must name).
struct ScreenReport {
    var cards: [DRMCards.Card]
    var cecAdapters: [CECAdapterInfo] = []

    /// The adapter the kernel ties to `connector` of `card`.
    func cecAdapter(of connector: DRMCards.Connector, on card: DRMCards.Card) -> CECAdapterInfo? {
        guard let number = card.number else { return nil }
        return cecAdapters.first { $0.connector == .drm(card: number, connector: connector.id) }
    }

    /// The adapters the kernel ties to no DRM connector (USB and emulated ones), and those it could not read.
    var untiedCECAdapters: [CECAdapterInfo] {
        cecAdapters.filter {
            if case .drm = $0.connector { return false }
            return true
        }
    }

    var text: String {
        var out = ""
        for card in cards {
            let note = card.problem.map { ": \($0)" } ?? card.skipped.map { ": skipped, \($0)" } ?? ""
            out += "\(card.name) (\(card.path)\(card.driver.map { ", \($0)" } ?? ""))\(note)\n"
            for connector in card.connectors {
                var line = "  \(connector.name)  \(connector.status)"
                if connector.widthMillimeters > 0 { line += "  \(connector.widthMillimeters)x\(connector.heightMillimeters) mm" }
                if let edid = connector.edid { line += "  \(edid.make) \(edid.model)\(edid.serial.map { " serial \($0)" } ?? "")" }
                if let orientation = connector.panelOrientation { line += "  panel orientation: \(orientation)" }
                out += line + "\n"
                if let adapter = cecAdapter(of: connector, on: card) { out += "    HDMI-CEC: \(adapter.summary)\n" }
                if let backlight = connector.backlight {
                    let level = backlight.level.map { "level \($0) of \(backlight.maxBrightness)" } ?? "max \(backlight.maxBrightness)"
                    out += "    backlight \(backlight.name) (\(backlight.type), \(level); \(connector.backlightReason))\n"
                } else {
                    out += "    no backlight (brightness stays 1): \(connector.backlightReason)\n"
                }
                for mode in connector.modes {
                    let marks = [mode.isPreferred ? "preferred" : nil, mode.isCurrent ? "current" : nil].compactMap { $0 }
                    out += "    \(mode.mode)\(marks.isEmpty ? "" : "  (\(marks.joined(separator: ", ")))")\n"
                }
            }
        }
        let untied = untiedCECAdapters
        if !untied.isEmpty {
            out += "HDMI-CEC adapters tied to no connector (a screen uses one with [screens.NAME] cec = \"/dev/cecN\"):\n"
            for adapter in untied { out += "  \(adapter.summary)\n" }
        }
        return out
    }

    /// A JSON list of connectors: `card`, `name`, `status`, `modes` (`width`, `height`, `refresh` with three
    /// decimals, `preferred`, `interlaced`), `current` (a mode or null), `physical_width_mm`,
    /// `physical_height_mm`, `edid` (`make`, `model`, `serial`) or null, `possible_crtcs`, `panel_orientation`,
    /// `cec` (the path of the HDMI-CEC adapter the kernel ties to the connector) or null.
    /// `backlight` (`name`, `type`, `max_brightness`, `brightness`: the level now or null) or null (no
    /// backlight: brightness stays 1), `backlight_reason` (why that one, or why none).
    var json: String {
        var entries: [String] = []
        for card in cards {
            for connector in card.connectors {
                func mode(_ m: DRMCards.Mode) -> String {
                    JSONLine([
                        ("width", .integer(m.mode.width)), ("height", .integer(m.mode.height)),
                        ("refresh", .raw(m.mode.refreshSpelling)), ("preferred", .bool(m.isPreferred)),
                        ("interlaced", .bool(m.mode.isInterlaced)),
                    ]).text
                }
                let edid = connector.edid.map {
                    JSONLine([("make", .string($0.make)), ("model", .string($0.model)), ("serial", $0.serial.map { .string($0) } ?? .null)])
                        .text
                }
                var line = JSONLine([
                    ("card", .string(card.name)), ("name", .string(connector.name)), ("status", .string(connector.status)),
                ])
                line.append("modes", .raw("[" + connector.modes.map(mode).joined(separator: ",") + "]"))
                line.append("current", connector.modes.first(where: \.isCurrent).map { .raw(mode($0)) } ?? .null)
                line.append("physical_width_mm", .integer(connector.widthMillimeters))
                line.append("physical_height_mm", .integer(connector.heightMillimeters))
                line.append("edid", edid.map { .raw($0) } ?? .null)
                line.append("possible_crtcs", .raw("[" + connector.possibleCRTCs.map(String.init).joined(separator: ",") + "]"))
                line.append("panel_orientation", connector.panelOrientation.map { .string($0) } ?? .null)
                line.append("cec", cecAdapter(of: connector, on: card).map { .string($0.path) } ?? .null)
                let backlight = connector.backlight.map {
                    JSONLine([
                        ("name", .string($0.name)), ("type", .string($0.type)), ("max_brightness", .integer($0.maxBrightness)),
                        ("brightness", $0.level.map { .integer($0) } ?? .null),
                    ]).text
                }
                line.append("backlight", backlight.map { .raw($0) } ?? .null)
                line.append("backlight_reason", .string(connector.backlightReason))
                entries.append(line.text)
            }
        }
        return "[" + entries.joined(separator: ",\n ") + "]"
    }
}
