import Geometry
import HeadlessDisplay
import KioskConfig
import KioskKit
import Testing

/// The headless backend resolves each screen's settings once, at start, keeps them with the screen
/// (`settings(of:)`, which power, HDMI-CEC and the pointer's layout read) and resolves them again on a
/// reload, applying what changed.
@MainActor
@Suite struct BackendScreenSettingsTests {
    static func configuration(_ file: String, _ arguments: [String] = []) throws -> KioskConfiguration {
        var configuration = try KioskConfiguration.parse(text: file).get()
        let problems = try CommandLineSettings.parse(arguments).get().apply(to: &configuration, vocabulary: .open)
        #expect(problems.isEmpty, "\(problems)")
        return configuration
    }

    @Test func resolvedAtStartKeptAndResolvedAgainOnAReload() throws {
        let application = Application.reset()
        let file = """
            headless-screens = ["640x480", "HDMI-A-2=1024x768"]
            primary = "HDMI-A-2"
            [screens.HEADLESS-1]
            mode = "800x600"
            idle-timeout = 30
            position = { x = 0, y = 0 }
            [screens.HDMI-A-2]
            cec = "off"
            position = { x = 800, y = 0 }
            """
        let configuration = try Self.configuration(file, ["--rotate", "HEADLESS-1=90"])
        let display = try HeadlessDisplay(configuration: configuration, application: application, snapshotDirectory: nil)
        display.start()
        defer { display.stop() }
        let first = try #require(display.screens.first), second = try #require(display.screens.last)
        #expect(display.settings(of: first) == configuration.screen(connector: "HEADLESS-1"))
        #expect(display.settings(of: first).idleTimeoutSeconds == 30 && display.settings(of: first).rotation == .rotated90)
        #expect(display.settings(of: second).cec == .off && display.settings(of: second).isPrimary)
        #expect(display.settings(of: second).position == ScreenConfiguration.Position(x: 800, y: 0))
        // Applied from what was resolved: the command line's rotation, the file's mode, the primary.
        #expect(first.rotation == .rotated90 && first.currentMode == Screen.Mode(width: 800, height: 600, refreshRate: 60))
        #expect(application.preferredMainScreenName == "HDMI-A-2")

        // A reload: each screen's settings resolved again, the command line's still first.
        let reloaded = try Self.configuration(
            """
            headless-screens = ["640x480", "HDMI-A-2=1024x768"]
            [screens.HEADLESS-1]
            rotation = "180"
            idle-timeout = 0
            [screens.HDMI-A-2]
            mode = "off"
            """, ["--rotate", "HEADLESS-1=90"])
        display.reconfigure(reloaded)
        #expect(display.settings(of: first) == reloaded.screen(connector: "HEADLESS-1"))
        #expect(display.settings(of: first).idleTimeoutSeconds == 0 && display.settings(of: first).position == nil)
        #expect(display.settings(of: second).cec == .auto && display.settings(of: second).mode == .off)
        #expect(first.rotation == .rotated90 && first.currentMode == Screen.Mode(width: 640, height: 480, refreshRate: 60))
        #expect(!second.isConnected, "mode = off")
    }

    /// `overscan` reaches the screen (its windows' safe area) at start and again on a reload.
    @Test func overscanIsTheScreensAndFollowsAReload() throws {
        let application = Application.reset()
        let configuration = try Self.configuration(
            """
            headless-screens = ["1280x720"]
            [screens.HEADLESS-1]
            overscan = "18 32"
            """)
        let display = try HeadlessDisplay(configuration: configuration, application: application, snapshotDirectory: nil)
        display.start()
        defer { display.stop() }
        let screen = try #require(display.screens.first)
        #expect(screen.overscanInsets == EdgeInsets(top: 18, left: 32, bottom: 18, right: 32))
        let window = Window(screen: screen)
        window.makeKeyAndVisible()
        #expect(window.safeAreaInsets == EdgeInsets(top: 18, left: 32, bottom: 18, right: 32))
        display.reconfigure(try Self.configuration("headless-screens = [\"1280x720\"]\n", ["--overscan", "HEADLESS-1=10"]))
        #expect(screen.overscanInsets == EdgeInsets(top: 10, left: 10, bottom: 10, right: 10))
        display.reconfigure(try Self.configuration("headless-screens = [\"1280x720\"]\n"))
        #expect(screen.overscanInsets == .zero && window.safeAreaInsets == .zero)
    }
}
