import Geometry
import KioskBackend
import KioskConfig
import Testing

/// A backend's per-screen settings: resolved once when it reads a display, kept as they were resolved
/// until the next read (a hotplug, where the EDID may be new) or a reload, and resolved then as
/// `screen(connector:edid:)` resolves them: the command line's entries first, labels matched by EDID.
@Suite struct ScreenSettingsStoreTests {
    /// Every per-screen setting, each set by the connector's own section and by a label matched by EDID
    /// (the lobby's Samsung), and the mode on the command line too.
    static let file = """
        primary = "lobby"
        [screens.HDMI-A-1]
        mode = "1280x720"
        rotation = "90"
        cec = "off"
        idle-timeout = 60
        [screens.lobby]
        edid = { make = "SAM" }
        mode = "1920x1080"
        rotation = "180"
        position = { x = 1920, y = 0 }
        cec = "/dev/cec3"
        backlight = "acpi_video0"
        idle-timeout = 300
        """
    static let samsung = ScreenConfiguration.EDIDMatch(make: "SAM", model: "SAMSUNG")
    static let dell = ScreenConfiguration.EDIDMatch(make: "DEL", model: "DELL U2720Q")

    static func configuration(_ file: String = ScreenSettingsStoreTests.file, _ arguments: [String] = []) throws -> KioskConfiguration {
        var configuration = try KioskConfiguration.parse(text: file).get()
        let problems = try CommandLineSettings.parse(arguments).get().apply(to: &configuration, vocabulary: .open)
        #expect(problems.isEmpty, "\(problems)")
        return configuration
    }

    /// What the lobby's Samsung on HDMI-A-1 gets: the command line's mode, the connector's rotation, cec
    /// and idle timeout (its section comes first in the file), the label's position and backlight, and
    /// primary through the label.
    static var samsungOnHDMI: ResolvedScreen {
        var settings = ResolvedScreen(mode: .size(width: 800, height: 600, refresh: nil), rotation: .rotated90, isPrimary: true)
        settings.cec = .off
        settings.backlight = "acpi_video0"
        settings.idleTimeoutSeconds = 60
        settings.position = ScreenConfiguration.Position(x: 1920, y: 0)
        settings.labels = ["lobby"]
        return settings
    }

    /// What HDMI-A-1 gets without the Samsung: its own section's settings and the command line's mode.
    static var connectorAlone: ResolvedScreen {
        var settings = ResolvedScreen(mode: .size(width: 800, height: 600, refresh: nil), rotation: .rotated90)
        settings.cec = .off
        settings.idleTimeoutSeconds = 60
        return settings
    }

    @Test func eachSettingIsResolvedOnceAndKeptUntilTheDisplayIsReadAgain() throws {
        let configuration = try Self.configuration(Self.file, ["--mode", "HDMI-A-1=800x600"])
        var store = ScreenSettingsStore()
        store.resolve([("HDMI-A-1", Self.samsung), ("DP-1", nil)], in: configuration)
        #expect(store["HDMI-A-1"] == Self.samsungOnHDMI)
        #expect(store["HDMI-A-1"] == configuration.screen(connector: "HDMI-A-1", edid: Self.samsung))
        #expect(store["DP-1"] == ResolvedScreen())
        // Read as often as anything likes: what was resolved, not the configuration again (a reload the
        // backend was not told of changes nothing).
        var edited = configuration
        edited.screens.removeAll()
        for _ in 0..<3 { #expect(store["HDMI-A-1"] == Self.samsungOnHDMI) }
        #expect(edited.screen(connector: "HDMI-A-1", edid: Self.samsung) == ResolvedScreen())
        // A screen the backend never resolved has nothing configured.
        #expect(store["HDMI-A-2"] == ResolvedScreen())
    }

    /// A hotplug reads the display again: another display on the connector (another EDID) loses the
    /// label's settings, one unplugged keeps its connector's own, and the Samsung on another connector
    /// takes the label's with it.
    @Test func aHotplugWithANewEDIDResolvesEachSettingAgain() throws {
        let configuration = try Self.configuration(Self.file, ["--mode", "HDMI-A-1=800x600"])
        var store = ScreenSettingsStore()
        store.resolve([("HDMI-A-1", Self.samsung), ("DP-1", nil)], in: configuration)
        store.resolve([("HDMI-A-1", Self.dell), ("DP-1", Self.samsung)], in: configuration)
        #expect(store["HDMI-A-1"] == Self.connectorAlone)
        var samsungOnDP = ResolvedScreen(mode: .size(width: 1920, height: 1080, refresh: nil), rotation: .rotated180, isPrimary: true)
        samsungOnDP.cec = .device("/dev/cec3")
        samsungOnDP.backlight = "acpi_video0"
        samsungOnDP.idleTimeoutSeconds = 300
        samsungOnDP.position = ScreenConfiguration.Position(x: 1920, y: 0)
        samsungOnDP.labels = ["lobby"]
        #expect(store["DP-1"] == samsungOnDP)
        // Unplugged: no EDID, the connector's name alone.
        store.resolve([("HDMI-A-1", nil)], in: configuration)
        #expect(store["HDMI-A-1"] == Self.connectorAlone)
        #expect(store["DP-1"] == samsungOnDP, "a display not read again keeps what it had")
    }

    /// A reload resolves every screen again in the new configuration, with the EDID each was last read
    /// with (while the session is away no display is read), and what the command line said still wins.
    @Test func aReloadResolvesEachSettingAgainWithTheDisplaysAsLastRead() throws {
        var store = ScreenSettingsStore()
        store.resolve(
            [("HDMI-A-1", Self.samsung), ("DP-1", Self.dell)], in: try Self.configuration(Self.file, ["--mode", "HDMI-A-1=800x600"]))
        let reloaded = try Self.configuration(
            """
            [screens.HDMI-A-1]
            rotation = "270"
            [screens.lobby]
            edid = { make = "SAM" }
            mode = "off"
            cec = "auto"
            backlight = "intel_backlight"
            [screens.dell]
            edid = { make = "DEL" }
            idle-timeout = 0
            position = { x = 0, y = 0 }
            """, ["--mode", "HDMI-A-1=800x600"])
        store.resolveAgain(in: reloaded)
        var samsung = ResolvedScreen(mode: .size(width: 800, height: 600, refresh: nil), rotation: .rotated270)
        samsung.backlight = "intel_backlight"
        samsung.labels = ["lobby"]
        #expect(store["HDMI-A-1"] == samsung)
        var dell = ResolvedScreen()
        dell.idleTimeoutSeconds = 0
        dell.position = ScreenConfiguration.Position(x: 0, y: 0)
        dell.labels = ["dell"]
        #expect(store["DP-1"] == dell)
        for name in ["HDMI-A-1", "DP-1"] {
            let edid = name == "DP-1" ? Self.dell : Self.samsung
            #expect(store[name] == reloaded.screen(connector: name, edid: edid))
        }
    }
}
