import Backlight
import Testing

@testable import DRMDisplay

/// Which backlight drives which connector (as systemd-backlight and the desktops choose), and how
/// brightness maps to levels, as tables.
@Suite struct BacklightMatchTests {
    static func under(_ connector: String) -> BacklightDevice.Parent { .init(subsystem: "drm", name: "card0-\(connector)") }
    static let gpu = BacklightDevice.Parent(subsystem: "pci", name: "0000:00:02.0")

    static let intel = BacklightDevice(name: "intel_backlight", type: .raw, maxBrightness: 96000, parent: under("eDP-1"))
    static let acpi = BacklightDevice(name: "acpi_video0", type: .firmware, maxBrightness: 15, parent: gpu)
    static let thinkpad = BacklightDevice(
        name: "thinkpad_screen", type: .platform, maxBrightness: 15, parent: .init(subsystem: "platform", name: "thinkpad_acpi"))
    static let pwm = BacklightDevice(
        name: "backlight", type: .raw, maxBrightness: 255, parent: .init(subsystem: "platform", name: "backlight"))
    static let other = BacklightDevice(name: "amdgpu_bl1", type: .raw, maxBrightness: 255, parent: under("eDP-2"))
    static let dsiOwn = BacklightDevice(name: "dsi_bl", type: .raw, maxBrightness: 255, parent: under("DSI-1"))
    static let dead = BacklightDevice(name: "eeepc_wmi", type: .platform, maxBrightness: 0, parent: nil)

    struct Row: Sendable, CustomTestStringConvertible {
        var connector: String
        var panels: [String]
        var devices: [BacklightDevice]
        var configured: String? = nil
        var chosen: String?
        var reason: String
        var testDescription: String { "\(connector) among \(devices.map(\.name))\(configured.map { " configured \($0)" } ?? "")" }
    }

    static let rows: [Row] = [
        // The device registered under the connector is its own.
        Row(connector: "eDP-1", panels: ["eDP-1"], devices: [intel], chosen: "intel_backlight", reason: "registered under card0-eDP-1"),
        // Firmware before platform before raw (the kernel's order; systemd skips raw when a firmware one is there).
        Row(
            connector: "eDP-1", panels: ["eDP-1"], devices: [intel, thinkpad, acpi], chosen: "acpi_video0",
            reason: "firmware type under 0000:00:02.0, for the built-in panel"),
        Row(
            connector: "eDP-1", panels: ["eDP-1"], devices: [intel, thinkpad], chosen: "thinkpad_screen",
            reason: "platform type under thinkpad_acpi, for the built-in panel"),
        // The panel's own raw device before a raw one of no connector; nobody's raw one when nothing better.
        Row(
            connector: "eDP-1", panels: ["eDP-1"], devices: [pwm, intel], chosen: "intel_backlight", reason: "registered under card0-eDP-1"),
        Row(
            connector: "DSI-1", panels: ["DSI-1"], devices: [pwm], chosen: "backlight",
            reason: "raw type under backlight, for the built-in panel"),
        // Another connector's device is never taken, nor one with no levels.
        Row(
            connector: "eDP-1", panels: ["eDP-1"], devices: [other], chosen: nil,
            reason: "no backlight is registered under card0-eDP-1, and the others belong to other connectors"),
        Row(connector: "LVDS-1", panels: ["LVDS-1"], devices: [dead], chosen: nil, reason: "no backlight device"),
        Row(connector: "eDP-1", panels: ["eDP-1"], devices: [], chosen: nil, reason: "no backlight device"),
        // A monitor has only what is registered under its connector (no kernel driver does that today).
        Row(
            connector: "HDMI-A-1", panels: ["eDP-1"], devices: [intel, acpi, pwm], chosen: nil,
            reason: "not a built-in panel (eDP, LVDS, DSI, DPI), and no backlight is registered under card0-HDMI-A-1"),
        Row(
            connector: "Virtual-1", panels: [],
            devices: [BacklightDevice(name: "vm", type: .raw, maxBrightness: 255, parent: under("Virtual-1"))],
            chosen: "vm", reason: "registered under card0-Virtual-1"),
        // Two built-in panels: each takes its own; nobody's device could be either's.
        Row(
            connector: "DSI-1", panels: ["DSI-1", "eDP-1"], devices: [dsiOwn, acpi], chosen: "dsi_bl",
            reason: "registered under card0-DSI-1"),
        Row(
            connector: "eDP-1", panels: ["DSI-1", "eDP-1"], devices: [dsiOwn, acpi], chosen: nil,
            reason:
                "2 built-in panels (DSI-1, eDP-1) and no backlight registered under card0-eDP-1: name the device with backlight = \"NAME\""),
        // The config's name wins over everything, on any connector; a missing one lists what there is.
        Row(
            connector: "HDMI-A-1", panels: ["eDP-1"], devices: [intel, pwm], configured: "backlight", chosen: "backlight",
            reason: "named in the config"),
        Row(
            connector: "eDP-1", panels: ["eDP-1"], devices: [intel, acpi], configured: "intel_backlight", chosen: "intel_backlight",
            reason: "named in the config"),
        Row(
            connector: "eDP-1", panels: ["eDP-1"], devices: [intel, acpi], configured: "nope", chosen: nil,
            reason: "the config names backlight \"nope\", which does not exist; there are: intel_backlight, acpi_video0"),
        Row(
            connector: "eDP-1", panels: ["eDP-1"], devices: [], configured: "nope", chosen: nil,
            reason: "the config names backlight \"nope\", which does not exist; there is no backlight device"),
    ]

    @Test(arguments: rows)
    func chooses(row: Row) {
        let outcome = BacklightMatch.choose(
            connector: row.connector, card: "card0", builtInPanels: row.panels, devices: row.devices, configured: row.configured)
        #expect(outcome.device?.name == row.chosen)
        #expect(outcome.reason == row.reason)
    }

    @Test func aDeviceUnderAConnectorBelongsToIt() {
        #expect(BacklightMatch.belongsToAConnector(Self.intel))
        #expect(
            BacklightMatch.belongsToAConnector(
                BacklightDevice(name: "x", type: .raw, maxBrightness: 1, parent: .init(subsystem: "drm", name: "card12-DP-3"))))
        // The card itself is no connector; nor is anything outside drm.
        #expect(
            !BacklightMatch.belongsToAConnector(
                BacklightDevice(name: "x", type: .raw, maxBrightness: 1, parent: .init(subsystem: "drm", name: "card0"))))
        #expect(!BacklightMatch.belongsToAConnector(Self.acpi))
        #expect(!BacklightMatch.belongsToAConnector(BacklightDevice(name: "x", type: .raw, maxBrightness: 1)))
    }

    /// 0 is the floor (systemd-backlight's clamp: at least 1, or 5 % of the maximum), 1 the maximum,
    /// linear between; levels read back as brightness the same way.
    @Test(arguments: [
        (255, 0.0, 12), (255, 1.0, 255), (255, 0.2, 61), (255, 0.5, 134), (255, -3.0, 12), (255, 7.0, 255), (255, Double.nan, 255),
        (96000, 0.0, 4800), (96000, 1.0, 96000), (15, 0.0, 1), (15, 0.5, 8), (7, 0.0, 1), (1, 0.0, 1), (1, 0.7, 1),
    ])
    func scalesBrightnessToLevels(maximum: Int, value: Double, level: Int) {
        #expect(BacklightScale(maxBrightness: maximum).level(for: value) == level)
    }

    @Test func levelsReadBackAsBrightness() {
        let scale = BacklightScale(maxBrightness: 255)
        #expect(scale.value(for: 255) == 1 && scale.value(for: 12) == 0 && scale.value(for: 0) == 0)
        #expect(scale.level(for: scale.value(for: 200)) == 200)
        #expect(abs(scale.value(for: 61) - 49.0 / 243) < 1e-12)
        #expect(BacklightScale(maxBrightness: 1).value(for: 1) == 1)
    }
}
