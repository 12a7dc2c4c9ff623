import Geometry
import Testing

@testable import KioskConfig

/// The per-screen settings are declared once, in `KioskConfiguration.screenSettings`: the reader takes a
/// `[screens.NAME]` table's keys from it, a flag is the declaration's own (the same parser, the same
/// messages), and `screen(connector:edid:)` resolves each setting as it declares (which entry wins:
/// `ScreenSettingsStoreTests`, `CommandLineSettingsTests`).
@Suite struct ScreenSettingsTests {
    /// A valid value of each key, as a file writes it, and what it resolves to on HDMI-A-1.
    static let examples: [String: (toml: String, check: @Sendable (ResolvedScreen) -> Bool)] = [
        "mode": (#""1920x1080@60""#, { $0.mode == .size(width: 1920, height: 1080, refresh: 60) }),
        "rotation": ("90", { $0.rotation == .rotated90 }),
        "primary": ("true", { $0.isPrimary }),
        "position": ("{ x = 1920, y = 0 }", { $0.position == ScreenConfiguration.Position(x: 1920, y: 0) }),
        "edid": (#"{ make = "SAM" }"#, { _ in true }),
        "cec": (#""/dev/cec1""#, { $0.cec == .device("/dev/cec1") }),
        "backlight": (#""intel_backlight""#, { $0.backlight == "intel_backlight" }),
        "idle-timeout": ("30", { $0.idleTimeoutSeconds == 30 }),
        "overscan": (#""16 32""#, { $0.overscan == Overscan(top: 16, right: 32, bottom: 16, left: 32) }),
    ]

    /// Every declared key is read from a file and resolved.
    @Test(arguments: KioskConfiguration.screenSettings.map(\.key))
    func eachDeclaredKeyIsReadAndResolved(key: String) throws {
        let example = try #require(Self.examples[key], "\(key) has no example here")
        let parsed = try configuration("[screens.HDMI-A-1]\n\(key) = \(example.toml)\n")
        let resolved = parsed.screen(connector: "HDMI-A-1", edid: .init(make: "SAM"))
        #expect(example.check(resolved), "\(resolved)")
    }

    /// A key not declared is unknown, with the declared keys as the valid ones, in their order.
    @Test func aKeyNotDeclaredIsUnknown() {
        let declared = KioskConfiguration.screenSettings.map(\.key).joined(separator: ", ")
        #expect(
            messages("[screens.HDMI-A-1]\nvolume = 1\n") == [
                "\(configPath):2:1: screens.HDMI-A-1: unknown key \"volume\"; valid: \(declared)"
            ])
    }

    @Test func everyExampleIsDeclared() {
        #expect(Set(Self.examples.keys) == Set(KioskConfiguration.screenSettings.map(\.key)))
    }

    /// A per-screen flag is its declaration's: the same key, reload and valid values, the same parser as
    /// the file's value (the same value resolved, the same message for a wrong one).
    @Test(arguments: KioskConfiguration.screenSettings.filter { $0.flag != nil }.map(\.key))
    func aFlagTakesWhatTheFileTakes(key: String) throws {
        let screen = try #require(KioskConfiguration.screenSetting(key: key))
        let flag = try #require(KioskConfiguration.settings.first { $0.flag == screen.flag })
        #expect(flag.key == key && flag.reload == screen.reload && !flag.isTopLevelKey)
        #expect(flag.valueName == "SCREEN=" + screen.valueName && flag.valid(.open).hasSuffix(screen.valid))
        #expect(flag.help.hasPrefix(String(screen.help.dropLast())))
        let example = try #require(Self.examples[key])
        let value = example.toml.hasPrefix("\"") ? String(example.toml.dropFirst().dropLast()) : example.toml
        var fromFlag = KioskConfiguration()
        #expect(flag.apply("HDMI-A-1=\(value)", to: &fromFlag, vocabulary: .open) == nil)
        let fromFile = try configuration("[screens.HDMI-A-1]\n\(key) = \(example.toml)\n")
        #expect(fromFlag.screen(connector: "HDMI-A-1") == fromFile.screen(connector: "HDMI-A-1"))
        // A value no setting takes: the same message from both.
        var wrong = KioskConfiguration()
        let flagProblem = try #require(flag.apply("HDMI-A-1=a/b/..", to: &wrong, vocabulary: .open))
        let fileProblems = messages("[screens.HDMI-A-1]\n\(key) = \"a/b/..\"\n")
        #expect(fileProblems.count == 1 && fileProblems[0].contains(": \(flagProblem.message); valid: \(screen.valid)"), "\(fileProblems)")
    }
}
