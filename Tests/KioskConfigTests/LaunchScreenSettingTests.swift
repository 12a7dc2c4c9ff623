import KioskConfig
import Testing

/// `launch-screen`: a PNG's absolute path, app (the default: the app's own) or off, from the file, the
/// environment and the command line alike.
struct LaunchScreenSettingTests {
    @Test func theAppsOwnByDefault() throws {
        #expect(try configuration("").launchScreen == .app)
        #expect(KioskConfiguration.default.launchScreen == .app)
    }

    @Test(arguments: [
        ("\"/usr/share/lobby/launch.png\"", KioskConfiguration.LaunchScreen.file("/usr/share/lobby/launch.png")),
        ("\"off\"", .off), ("\"OFF\"", .off), ("\"app\"", .app),
    ])
    func spellings(value: String, expected: KioskConfiguration.LaunchScreen) throws {
        #expect(try configuration("launch-screen = \(value)").launchScreen == expected)
    }

    @Test func aRelativePathOrAFolderIsNotValid() {
        for value in ["launch.png", "", "/", "/usr/share/lobby/"] {
            #expect(
                messages("launch-screen = \"\(value)\"").first?.hasSuffix(
                    "is not valid; valid: an absolute path of a PNG file, app or off") == true, "\(value)")
        }
    }

    @Test func fromTheEnvironmentAndTheCommandLine() throws {
        #expect(try configuration("", environment: ["KIOSK_LAUNCH_SCREEN": "/srv/l.png"]).launchScreen == .file("/srv/l.png"))
        let flagged = try CommandLineSettingsTests.configuration(["--launch-screen", "off"], file: "launch-screen = \"/srv/l.png\"")
        #expect(flagged.launchScreen == .off)
    }
}
