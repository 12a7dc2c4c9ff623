import CEC
import CECControl
import Geometry
import Testing

@testable import DRMDisplay
@testable import kiosk

/// `kiosk screens` names the HDMI-CEC adapter the kernel ties to each connector, and lists the others.
@Suite struct ScreenReportCECTests {
    static let mode = DRMCards.Mode(mode: DisplayMode(width: 1920, height: 1080, refreshRate: 60), isPreferred: true, isCurrent: true)

    static func connector(_ name: String, id: UInt32) -> DRMCards.Connector {
        var connector = DRMCards.Connector(
            name: name, id: id, status: "connected", modes: [mode], widthMillimeters: 0, heightMillimeters: 0, edid: nil,
            possibleCRTCs: [], panelOrientation: nil)
        connector.backlightReason = "a monitor"
        return connector
    }

    static let report = ScreenReport(
        cards: [
            DRMCards.Card(
                path: "/dev/dri/card0", name: "card0", driver: "vc4", number: 0, problem: nil,
                connectors: [connector("HDMI-A-1", id: 34), connector("HDMI-A-2", id: 41)])
        ],
        cecAdapters: [
            CECAdapterInfo(
                path: "/dev/cec0", driver: "vc4_hdmi", name: "vc4-hdmi-0", connector: .drm(card: 0, connector: 34),
                physicalAddress: CECPhysicalAddress(rawValue: 0x1000), logicalAddresses: [.playbackDevice1]),
            CECAdapterInfo(path: "/dev/cec1", driver: "pulse8-cec", name: "serio0", physicalAddress: .invalid),
            CECAdapterInfo(path: "/dev/cec2", problem: "open(/dev/cec2): Permission denied (errno 13)"),
        ])

    @Test func text() {
        #expect(
            Self.report.text == """
                card0 (/dev/dri/card0, vc4)
                  HDMI-A-1  connected
                    HDMI-CEC: /dev/cec0 (vc4_hdmi vc4-hdmi-0, physical address 1.0.0.0, logical address 4)
                    no backlight (brightness stays 1): a monitor
                    1920x1080@60.000  (preferred, current)
                  HDMI-A-2  connected
                    no backlight (brightness stays 1): a monitor
                    1920x1080@60.000  (preferred, current)
                HDMI-CEC adapters tied to no connector (a screen uses one with [screens.NAME] cec = "/dev/cecN"):
                  /dev/cec1 (pulse8-cec serio0, physical address f.f.f.f)
                  /dev/cec2 (open(/dev/cec2): Permission denied (errno 13))

                """)
    }

    @Test func aRenderOnlyCardIsListedAsSkipped() {
        let report = ScreenReport(cards: [
            DRMCards.Card(
                path: "/dev/dri/card0", name: "card0", driver: "v3d", number: 0, skipped: "not a modesetting device (a render-only node)",
                connectors: []),
            DRMCards.Card(
                path: "/dev/dri/card1", name: "card1", driver: "vc4", number: 1, connectors: [Self.connector("HDMI-A-1", id: 34)]),
        ])
        #expect(
            report.text.hasPrefix(
                "card0 (/dev/dri/card0, v3d): skipped, not a modesetting device (a render-only node)\ncard1 (/dev/dri/card1, vc4)\n"))
    }

    @Test func json() {
        let json = Self.report.json
        #expect(json.contains(#""name":"HDMI-A-1""#) && json.contains(#""cec":"/dev/cec0","backlight":null"#))
        #expect(json.components(separatedBy: #""cec":null"#).count == 2)
    }
}
