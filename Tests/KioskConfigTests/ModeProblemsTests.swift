import Geometry
import KioskConfig
import Testing

/// A size the connector does not offer: said with the modes it does offer, at the line of `mode`.
@Suite struct ModeProblemsTests {
    static let offered = [
        DisplayMode(width: 1920, height: 1080, refreshRate: 60),
        DisplayMode(width: 1920, height: 1080, refreshRate: 59.94),
        DisplayMode(width: 1280, height: 720, refreshRate: 60),
        DisplayMode(width: 720, height: 480, refreshRate: 59.94, isInterlaced: true),
    ]

    static let file = """
        [screens.HDMI-A-1]
        mode = "2560x1440@60"

        [screens.HDMI-A-2]
        mode = "1920x1080@75"

        [screens.DP-1]
        mode = "preferred"

        [screens.lobby-tv]
        edid = { make = "SAM" }
        mode = "3840x2160"

        [screens.DSI-1]
        mode = "800x480"
        """

    @Test func listsTheDisplayModes() throws {
        let parsed = try configuration(Self.file)
        let problems = parsed.modeProblems(
            offered: ["HDMI-A-1": Self.offered, "HDMI-A-2": Self.offered, "DP-1": Self.offered, "HDMI-A-3": Self.offered],
            connectorOfLabel: ["lobby-tv": "HDMI-A-3"])
        #expect(
            problems.map(\.description) == [
                "/etc/kiosk/kiosk.toml:2:8: screens.HDMI-A-1.mode: 2560x1440@60 is not offered by HDMI-A-1; valid: 1920x1080@60.000, 1920x1080@59.940, 1280x720@60.000, 720x480@59.940i",
                "/etc/kiosk/kiosk.toml:12:8: screens.lobby-tv.mode: 3840x2160 is not offered by HDMI-A-3; valid: 1920x1080@60.000, 1920x1080@59.940, 1280x720@60.000, 720x480@59.940i",
            ])
        #expect(problems.allSatisfy { $0.kind == .modeNotOffered })
    }

    /// A refresh that is not offered is not a problem (the nearest is used); neither is a connector that is
    /// not connected (DSI-1 here) or a label whose display was not found.
    @Test func onlySizesOfConnectedScreensCount() throws {
        let parsed = try configuration(Self.file)
        #expect(parsed.modeProblems(offered: ["HDMI-A-2": Self.offered, "DP-1": Self.offered]).isEmpty)
    }

    @Test func aConnectorWithoutModes() throws {
        let parsed = try configuration("[screens.DP-1]\nmode = \"1024x768\"")
        #expect(
            parsed.modeProblems(offered: ["DP-1": []]).map(\.description) == [
                "/etc/kiosk/kiosk.toml:2:8: screens.DP-1.mode: 1024x768 is not offered by DP-1; valid: none: the connector lists no modes"
            ])
    }

    @Test func offeredModeSpelling() {
        #expect(DisplayMode(width: 1920, height: 1080, refreshRate: 59.9400599).description == "1920x1080@59.940")
        #expect(DisplayMode(width: 640, height: 480, refreshRate: 75.0004).description == "640x480@75.000")
        #expect(DisplayMode(width: 1, height: 1, refreshRate: .infinity).description == "1x1@inf")
    }
}
